import Foundation
import MyPassCore
import MyPassCrypto
import MyPassCryptoHardware
import MyPassTestSupport
import Testing

/// Every backend this machine can run, the hardware ones first and the portable one last: the
/// known-answer tests run on each. The x86_64 kernels come from MyPassCryptoHardware, the arm64
/// ones are built into MyPassCrypto; a kernel whose CPU features are missing is left out (with a
/// line on stdout saying so).
enum TestBackends {
    /// What the operating system says about this CPU (the tests ask it themselves: the crypto code
    /// is told only by a program that installs ``SystemPlatform``).
    static let features = SystemPlatform.cpuFeatures()
    static let aes: [AESBackend] = usable(CryptoHardware.aes.map { [$0] } ?? [], CryptoBackend.available(cpuFeatures: features).aes,
                                          "AES")
    static let sha256: [HashBackend] = usable(CryptoHardware.sha256.map { [$0] } ?? [],
                                              CryptoBackend.available(cpuFeatures: features).sha256, "SHA-256")
    static let sha512: [HashBackend] = usable(CryptoHardware.sha512,
                                              CryptoBackend.available(cpuFeatures: features).sha512, "SHA-512")
    static let chacha20: [StreamBackend] = usable(CryptoHardware.chacha20.map { [$0] } ?? [],
                                                  CryptoBackend.available(cpuFeatures: features).chacha20, "ChaCha20")
    static let salsa20: [StreamBackend] = usable(CryptoHardware.salsa20.map { [$0] } ?? [],
                                                 CryptoBackend.available(cpuFeatures: features).salsa20, "Salsa20")

    /// The offered kernels the CPU supports, then the available ones not already listed.
    private static func usable<B: Backend>(_ offered: [B], _ available: [B], _ what: String) -> [B] {
        var result: [B] = []
        for backend in offered + available where !result.contains(where: { $0.name == backend.name }) {
            if backend.isSupported(by: features) {
                result.append(backend)
            } else {
                print("note: \(what) backend \(backend.name) not tested: this CPU lacks \(backend.requiredCPUFeatures)")
            }
        }
        return result
    }

    /// The hardware backends alone (compared with the portable one).
    static var hardwareAES: [AESBackend] { aes.filter { $0.name != "portable" } }
    static var hardwareSHA256: [HashBackend] { sha256.filter { $0.name != "portable" } }
    static var hardwareSHA512: [HashBackend] { sha512.filter { $0.name != "portable" } }
    static var hardwareChaCha20: [StreamBackend] { chacha20.filter { $0.name != "portable" } }
    static var hardwareSalsa20: [StreamBackend] { salsa20.filter { $0.name != "portable" } }
}

extension AESBackend: CustomTestStringConvertible {
    public var testDescription: String { name }
}

extension HashBackend: CustomTestStringConvertible {
    public var testDescription: String { name }
}

extension StreamBackend: CustomTestStringConvertible {
    public var testDescription: String { name }
}

/// A small deterministic generator (xorshift64*) for the differential tests; the seed is in
/// every failure message.
struct DifferentialRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next() >> 32) } }
    /// `bytes` cut into pieces of 0...`maxPiece` bytes.
    mutating func pieces(_ bytes: [UInt8], maxPiece: Int) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = [], start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + below(maxPiece + 1))
            result.append(bytes[start..<end])
            start = end
        }
        return result
    }
}

@Suite("Crypto backends: the choice and the same bytes on each")
struct CryptoBackendTests {
    /// A seed that differs from run to run, printed so that a failure can be replayed.
    static let seed: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        let seed = generator.next()
        print("differential tests: seed \(seed)")
        return seed
    }()

    @Test("The choice: hardware when the CPU has every feature, portable when forced or a feature is missing")
    func choice() {
        let aes = AESBackend(name: "test-aes", requiredCPUFeatures: ["aes", "sse4_1"], kdf: { _, _, _ in },
                             cbcEncrypt: { _, _, _, _, _ in }, cbcDecrypt: { _, _, _, _, _ in })
        let sha = HashBackend(name: "test-sha", requiredCPUFeatures: ["sha_ni"], compress: { _, _, _ in })
        let chacha = StreamBackend(name: "test-chacha", requiredCPUFeatures: ["avx512f"], xor: { _, _, _ in 0 })
        let salsa = StreamBackend(name: "test-salsa", requiredCPUFeatures: ["avx512f"], xor: { _, _, _ in 0 })
        func names(_ features: Set<String>, _ environment: String?) -> [String] {
            let chosen = CryptoBackend.choose(aes: [aes], sha256: [sha], sha512: [], chacha20: [chacha], salsa20: [salsa],
                                              cpuFeatures: features, environment: environment)
            return [chosen.aes.name, chosen.sha256.name, chosen.sha512.name, chosen.chacha20.name, chosen.salsa20.name]
        }
        let all: Set<String> = ["aes", "sse4_1", "sha_ni", "avx512f"]
        #expect(names(all, nil) == ["test-aes", "test-sha", "portable", "test-chacha", "test-salsa"])
        #expect(names(all, "hardware") == ["test-aes", "test-sha", "portable", "test-chacha", "test-salsa"])
        #expect(names(all, "portable") == ["portable", "portable", "portable", "portable", "portable"])
        // The refusal: a CPU without AES-NI never gets the AES-NI kernels (they would be SIGILL), nor
        // one without AVX-512F the AVX-512 ones.
        #expect(names(["sse4_1", "sha_ni", "avx512f"], nil) == ["portable", "test-sha", "portable", "test-chacha", "test-salsa"])
        #expect(names(["aes", "sha_ni", "avx2"], nil) == ["portable", "test-sha", "portable", "portable", "portable"])
        #expect(names([], nil) == ["portable", "portable", "portable", "portable", "portable"])
        // Several kernels for one primitive (SHA-512 on x86_64): the first the CPU can run, best first.
        let wide = HashBackend(name: "test-wide", requiredCPUFeatures: ["avx512f", "bmi1", "bmi2"], compress: { _, _, _ in })
        let narrow = HashBackend(name: "test-narrow", requiredCPUFeatures: ["bmi2"], compress: { _, _, _ in })
        func sha512(_ features: Set<String>, _ environment: String?) -> String {
            CryptoBackend.choose(aes: [], sha256: [], sha512: [wide, narrow], cpuFeatures: features, environment: environment).sha512.name
        }
        #expect(sha512(["avx512f", "bmi1", "bmi2"], nil) == "test-wide")
        #expect(sha512(["avx512f", "bmi2"], nil) == "test-narrow")
        #expect(sha512(["bmi1", "bmi2"], nil) == "test-narrow")
        #expect(sha512(["avx512f", "bmi1"], nil) == "portable")
        #expect(sha512(["avx512f", "bmi1", "bmi2"], "portable") == "portable")
    }

    @Test("CPU features: /proc/cpuinfo flags and the arm64 AT_HWCAP bits")
    func featureParsing() {
        let cpuinfo = Array("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 ssse3 sse4_1 aes avx sha_ni\nbugs\t\t: spectre_v1\n\nprocessor\t: 1\nflags\t\t: fpu\n".utf8)
        #expect(CPUFeatures.linuxCPUInfoFlags(cpuinfo) == ["fpu", "sse2", "ssse3", "sse4_1", "aes", "avx", "sha_ni"])
        #expect(CPUFeatures.linuxCPUInfoFlags(Array("processor : 0\n".utf8)).isEmpty)
        // AT_HWCAP of a Cortex-A72 with the crypto extension: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid.
        #expect(CPUFeatures.linuxHWCAPFeatures(hwcap: 0x8FF) == ["aes", "sha2"])
        #expect(CPUFeatures.linuxHWCAPFeatures(hwcap: 0x7) == [])
        #expect(CPUFeatures.linuxHWCAPFeatures(hwcap: 1 << 21 | 1 << 6 | 1 << 3) == ["aes", "sha2", "sha512"])
        var auxv: [UInt8] = []
        for (key, value) in [(33, 0x7fff_0000), (16, 0x8FF), (6, 4096), (0, 0)] as [(UInt64, UInt64)] {
            withUnsafeBytes(of: key.littleEndian) { auxv += $0 }
            withUnsafeBytes(of: value.littleEndian) { auxv += $0 }
        }
        #expect(CPUFeatures.auxiliaryVectorValue(auxv, type: 16) == 0x8FF)
        #expect(CPUFeatures.auxiliaryVectorValue(auxv, type: 26) == 0)
        #expect(CPUFeatures.auxiliaryVectorValue(Array(auxv.prefix(20)), type: 16) == 0)
    }

    @Test("The system platform reads the CPU's features as the operating system reports them")
    func systemPlatformFeatures() throws {
        #if os(Linux) && arch(x86_64)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = try #require(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") })
        let words = Set(flags.split(separator: ":", maxSplits: 1)[1].split(separator: " ").map(String.init))
        #expect(SystemPlatform.cpuFeatures() == words)
        #expect(words.contains("sse2"))
        #endif
        // The switch as the environment holds it.
        #expect(SystemPlatform.platform.backendOverride == ProcessInfo.processInfo.environment["MYPASS_CRYPTO_BACKEND"])
    }

    @Test("This machine: a CPU that has AES-NI and SHA-NI gets their kernels")
    func thisMachine() throws {
        let features = TestBackends.features
        #if arch(x86_64) && os(Linux)
        #expect(TestBackends.aes.map(\.name) == (features.isSuperset(of: ["aes", "sse4_1", "ssse3"]) ? ["aes-ni", "portable"] : ["portable"]))
        #expect(TestBackends.sha256.map(\.name)
            == (features.isSuperset(of: ["sha_ni", "sse4_1", "ssse3"]) ? ["sha-ni", "portable"] : ["portable"]))
        #expect(TestBackends.sha512.map(\.name) == (features.isSuperset(of: ["avx512f", "bmi1", "bmi2"]) ? ["avx512-bmi2", "bmi2", "portable"]
            : features.contains("bmi2") ? ["bmi2", "portable"] : ["portable"]))
        #expect(TestBackends.chacha20.map(\.name) == (features.contains("avx512f") ? ["avx512", "portable"] : ["portable"]))
        #expect(TestBackends.salsa20.map(\.name) == (features.contains("avx512f") ? ["avx512", "portable"] : ["portable"]))
        #endif
        #expect(TestBackends.aes.last?.name == "portable" && TestBackends.sha256.last?.name == "portable")
        #expect(TestBackends.chacha20.last?.name == "portable" && TestBackends.salsa20.last?.name == "portable")
    }

    @Test("AES-256 ECB and CBC: random keys, IVs, lengths and chunkings give the same bytes on each backend",
          arguments: TestBackends.hardwareAES)
    func aesDifferential(backend: AESBackend) throws {
        var random = DifferentialRandom(seed: Self.seed)
        for trial in 0..<300 {
            let key = random.bytes(32), iv = random.bytes(16)
            let length = trial < 100 ? trial : random.below(trial < 290 ? 2000 : 200_000)
            let message = random.bytes(length)
            let context = "seed \(Self.seed), trial \(trial), length \(length)"
            let expected = try AESCBC.encrypt(message, key: key, iv: iv, backend: .portable)
            var encryptor = try AESCBCEncryptor(key: key, iv: iv, backend: backend)
            var ciphertext: [UInt8] = []
            for piece in random.pieces(message, maxPiece: 300) { ciphertext += encryptor.update(piece) }
            ciphertext += try encryptor.finalize()
            #expect(ciphertext == expected, "CBC encrypt, \(context)")
            var decryptor = try AESCBCDecryptor(key: key, iv: iv, backend: backend)
            var plaintext: [UInt8] = []
            for piece in random.pieces(ciphertext, maxPiece: 300) { plaintext += decryptor.update(piece) }
            plaintext += try decryptor.finalize()
            #expect(plaintext == message, "CBC decrypt, \(context)")
            // A corrupted last block: both backends refuse the padding alike or accept the same bytes.
            var tampered = ciphertext
            tampered[tampered.count - 1 - random.below(16)] ^= UInt8(1 + random.below(255))
            let portableResult = try? AESCBC.decrypt(tampered, key: key, iv: iv, backend: .portable)
            let backendResult = try? AESCBC.decrypt(tampered, key: key, iv: iv, backend: backend)
            #expect(portableResult == backendResult, "tampered CBC, \(context)")
            let block = random.bytes(16)
            let portableAES = try AES256(key: key, backend: .portable), hardwareAES = try AES256(key: key, backend: backend)
            #expect(hardwareAES.encrypt(block: block) == portableAES.encrypt(block: block), "ECB encrypt, \(context)")
            #expect(hardwareAES.decrypt(block: block) == portableAES.decrypt(block: block), "ECB decrypt, \(context)")
        }
    }

    @Test("AES-KDF: random keys, seeds and round counts give the same bytes on each backend",
          arguments: TestBackends.hardwareAES)
    func aesKDFDifferential(backend: AESBackend) throws {
        var random = DifferentialRandom(seed: Self.seed &+ 1)
        for trial in 0..<40 {
            let key = random.bytes(32), seed = random.bytes(32)
            let rounds = UInt64(trial < 4 ? trial : random.below(trial < 38 ? 3000 : 40_000))
            let expected = try AESKDF.transformRaw(key: key, seed: seed, rounds: rounds, backend: .portable)
            var reports = 0
            let raw = try AESKDF.transformRaw(key: key, seed: seed, rounds: rounds, backend: backend) { _ in
                reports += 1
                return true
            }
            #expect(raw == expected, "seed \(Self.seed), trial \(trial), rounds \(rounds)")
            #expect(UInt64(reports) == (rounds + AESKDF.progressInterval - 1) / AESKDF.progressInterval)
        }
        // Cancelled at the first report, as the portable code is.
        #expect(throws: CryptoError(.cancelled)) {
            try AESKDF.transformRaw(key: random.bytes(32), seed: random.bytes(32), rounds: 100_000, backend: backend) { _ in false }
        }
    }

    @Test("SHA-256: random messages and chunkings give the same digest on each backend",
          arguments: TestBackends.hardwareSHA256)
    func sha256Differential(backend: HashBackend) {
        var random = DifferentialRandom(seed: Self.seed &+ 2)
        for trial in 0..<300 {
            let length = trial < 200 ? trial : random.below(trial < 290 ? 5000 : 300_000)
            let message = random.bytes(length)
            var portable = SHA256(backend: .portableSHA256), hardware = SHA256(backend: backend)
            portable.update(message)
            for piece in random.pieces(message, maxPiece: 200) { hardware.update(piece) }
            #expect(hardware.finalize() == portable.finalize(), "seed \(Self.seed), trial \(trial), length \(length)")
        }
    }

    @Test("SHA-512: random messages and chunkings give the same digest on each backend",
          arguments: TestBackends.hardwareSHA512)
    func sha512Differential(backend: HashBackend) {
        var random = DifferentialRandom(seed: Self.seed &+ 5)
        for trial in 0..<340 {
            // Every length up to two blocks; then around the AVX-512 kernel's eight-block groups
            // (1,024 bytes): 1,024 × k - 1, 1,024 × k and 1,024 × k + 1 for k = 1...16; then random ones.
            let length = switch trial {
            case 0..<260: trial
            case 260..<308: 1024 * (1 + (trial - 260) / 3) + (trial - 260) % 3 - 1
            case 308..<330: random.below(5000)
            default: random.below(300_000)
            }
            let message = random.bytes(length)
            var portable = SHA512(backend: .portableSHA512)
            portable.update(message)
            let expected = portable.finalize()
            // One call (whole groups, then the blocks left over and the tail), small pieces (the
            // kernel called for a few blocks at a time), and pieces of up to three groups.
            var whole = SHA512(backend: backend), small = SHA512(backend: backend), large = SHA512(backend: backend)
            whole.update(message)
            for piece in random.pieces(message, maxPiece: 400) { small.update(piece) }
            for piece in random.pieces(message, maxPiece: 3200) { large.update(piece) }
            let context = "seed \(Self.seed), trial \(trial), length \(length)"
            #expect(whole.finalize() == expected, "one call, \(context)")
            #expect(small.finalize() == expected, "pieces of up to 400 bytes, \(context)")
            #expect(large.finalize() == expected, "pieces of up to 3,200 bytes, \(context)")
        }
    }

    /// Lengths for the keystream differentials: short ones, ones around the kernels' widths
    /// (1,024 bytes for sixteen blocks), and long ones, rarely multiples of 64.
    private static func keystreamLength(_ trial: Int, _ random: inout DifferentialRandom) -> Int {
        switch trial {
        case 0..<40: return trial * 37
        case 40..<80: return 1024 * (1 + random.below(4)) + random.below(129) - 64
        case 80..<190: return random.below(6000)
        default: return random.below(100_000)
        }
    }

    @Test("ChaCha20: random keys, nonces, counters (across the 32-bit wrap), lengths and chunkings give the same bytes on each backend",
          arguments: TestBackends.hardwareChaCha20)
    func chacha20Differential(backend: StreamBackend) throws {
        var random = DifferentialRandom(seed: Self.seed &+ 3)
        for trial in 0..<200 {
            let key = random.bytes(32), nonce = random.bytes(12)
            // Every fourth trial starts a few blocks before the counter wraps to 0.
            let counter = trial % 4 == 0 ? UInt32.max - UInt32(random.below(40)) : UInt32(truncatingIfNeeded: random.next())
            let length = Self.keystreamLength(trial, &random)
            let message = random.bytes(length)
            let context = "seed \(Self.seed), trial \(trial), counter \(counter), length \(length)"
            try Self.expectSameKeystream(message, on: backend, portable: .portableChaCha20, context, &random) { backend in
                var cipher = try ChaCha20(key: key, nonce: nonce, counter: counter, backend: backend)
                return { cipher.apply(to: &$0) }
            }
        }
    }

    @Test("Salsa20: random keys, nonces, counters (across the 32-bit carry and the 64-bit wrap), lengths and chunkings give the same bytes on each backend",
          arguments: TestBackends.hardwareSalsa20)
    func salsa20Differential(backend: StreamBackend) throws {
        var random = DifferentialRandom(seed: Self.seed &+ 4)
        for trial in 0..<200 {
            let key = random.bytes(32), nonce = random.bytes(8)
            let counter: UInt64
            switch trial % 4 {
            case 0: counter = 0xFFFF_FFFF - UInt64(random.below(40))   // the low word carries into the high one
            case 1: counter = UInt64.max - UInt64(random.below(40))    // the 64-bit counter wraps to 0
            default: counter = random.next()
            }
            let length = Self.keystreamLength(trial, &random)
            let message = random.bytes(length)
            let context = "seed \(Self.seed), trial \(trial), counter \(counter), length \(length)"
            try Self.expectSameKeystream(message, on: backend, portable: .portableSalsa20, context, &random) { backend in
                var cipher = try Salsa20(key: key, nonce: nonce, counter: counter, backend: backend)
                return { cipher.apply(to: &$0) }
            }
        }
    }

    /// `message` through `backend` (whole, then in random pieces) equals it through `portable`;
    /// `cipher` makes a fresh cipher on a backend and returns its in-place apply.
    private static func expectSameKeystream(_ message: [UInt8], on backend: StreamBackend, portable: StreamBackend,
                                            _ context: String, _ random: inout DifferentialRandom,
                                            cipher: (StreamBackend) throws -> (inout [UInt8]) -> Void) throws {
        var expected = message
        try cipher(portable)(&expected)
        var output = message
        try cipher(backend)(&output)
        #expect(output == expected, "whole, \(context)")
        let split = try cipher(backend)
        var pieces: [UInt8] = []
        for piece in random.pieces(message, maxPiece: 3000) {
            var chunk = Array(piece)
            split(&chunk)
            pieces += chunk
        }
        #expect(pieces == expected, "in pieces, \(context)")
    }
}
