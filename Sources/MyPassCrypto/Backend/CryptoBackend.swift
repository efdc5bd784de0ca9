/// Which implementation runs AES-256, SHA-2, ChaCha20 and Salsa20 in this process: the portable
/// Swift code, or a CPU's own instructions (AES-NI and SHA-NI on x86_64, the ARMv8 AES and SHA-2
/// instructions on arm64, AVX-512 for the ChaCha20 and Salsa20 keystreams and SHA-512's message
/// schedule, BMI2 for SHA-512's rounds).
///
/// The choice is made once, at the first use of AES or SHA-2, from what the CPU offers and from the
/// environment (`MYPASS_CRYPTO_BACKEND=portable` rules the hardware paths out), as the program
/// told ``CryptoPlatform`` (Linux: `/proc/cpuinfo` on x86_64, `AT_HWCAP` on arm64; Apple
/// platforms: `sysctl`; read by MyPassCore's `SystemPlatform`). Every backend
/// gives the same bytes; the portable AES is fixsliced and constant-time, the hardware AES is
/// constant-time by construction (one instruction a round, no table in memory).
///
/// The arm64 kernels are part of this module. The x86_64 kernels need the AES and SHA target
/// features, which only a module of their own can be compiled with (`MyPassCryptoHardware`,
/// linked by the `mypass` and `mypass-bench` executables, which offer them at start-up); a
/// library user on x86_64 gets the portable code. A program that never tells ``CryptoPlatform``
/// the CPU's features (MyPassCore does, see its `SystemPlatform`) gets the portable code everywhere.
public enum CryptoBackend {
    /// The environment variable that can force the portable code: `portable`; any other value or
    /// none: the hardware where the CPU has it.
    public static let environmentVariable = "MYPASS_CRYPTO_BACKEND"

    /// The AES-256 implementation in use: `portable` (fixsliced Swift), `aes-ni` or `armv8`.
    public static var aes: String { selection.aes.name }
    /// The SHA-256 implementation in use: `portable`, `sha-ni` or `armv8`.
    public static var sha256: String { selection.sha256.name }
    /// The SHA-512 implementation in use: `portable`, `bmi2` (x86_64, the same rounds with RORX) or
    /// `avx512-bmi2` (x86_64, eight blocks' message schedules at a time in AVX-512 lanes, then the
    /// rounds with RORX).
    public static var sha512: String { selection.sha512.name }
    /// The ChaCha20 keystream implementation in use: `portable` (four blocks at a time in SIMD
    /// lanes) or `avx512` (sixteen).
    public static var chacha20: String { selection.chacha20.name }
    /// The Salsa20 keystream implementation in use: `portable` or `avx512`.
    public static var salsa20: String { selection.salsa20.name }
    /// `aes: NAME, sha256: NAME, sha512: NAME, chacha20: NAME, salsa20: NAME`.
    public static var summary: String {
        "aes: \(aes), sha256: \(sha256), sha512: \(sha512), chacha20: \(chacha20), salsa20: \(salsa20)"
    }

    /// The backends in use: the best offered one that the CPU supports for each primitive, or the
    /// portable ones when the environment asks for them. Chosen at first use, then fixed.
    package static var selection: Selection { selected }

    /// What was chosen for each primitive.
    package struct Selection: Sendable {
        package var aes: AESBackend
        package var sha256: HashBackend
        package var sha512: HashBackend
        package var chacha20: StreamBackend
        package var salsa20: StreamBackend
    }

    /// Offers hardware kernels (the x86_64 module calls this at start-up). Call it before any
    /// other code of the process uses AES or SHA-2, from the one thread running then: the first
    /// use fixes the choice. `sha512` lists its kernels best first (the first the CPU can run wins).
    /// - Returns: `false` when the choice was already made (the offer is then ignored).
    @discardableResult
    package static func offer(aes: AESBackend? = nil, sha256: HashBackend? = nil, sha512: [HashBackend] = [],
                              chacha20: StreamBackend? = nil, salsa20: StreamBackend? = nil) -> Bool {
        guard !chosen else { return false }
        if let aes { offeredAES.insert(aes, at: 0) }
        if let sha256 { offeredSHA256.insert(sha256, at: 0) }
        offeredSHA512.insert(contentsOf: sha512, at: 0)
        if let chacha20 { offeredChaCha20.insert(chacha20, at: 0) }
        if let salsa20 { offeredSalsa20.insert(salsa20, at: 0) }
        return true
    }

    /// Every backend offered for each primitive whose CPU features are present, the portable one
    /// last, ignoring the environment: the tests run their known answers on each.
    package static var available: (aes: [AESBackend], sha256: [HashBackend], sha512: [HashBackend],
                                   chacha20: [StreamBackend], salsa20: [StreamBackend]) {
        available(cpuFeatures: cpuFeatures)
    }

    /// Every backend offered for each primitive whose features are in `features`, the portable
    /// one last (the tests pass the features they read themselves).
    package static func available(cpuFeatures features: Set<String>)
        -> (aes: [AESBackend], sha256: [HashBackend], sha512: [HashBackend], chacha20: [StreamBackend],
            salsa20: [StreamBackend]) {
        return (offeredAES.filter { $0.isSupported(by: features) } + [.portable],
                offeredSHA256.filter { $0.isSupported(by: features) } + [.portableSHA256],
                offeredSHA512.filter { $0.isSupported(by: features) } + [.portableSHA512],
                offeredChaCha20.filter { $0.isSupported(by: features) } + [.portableChaCha20],
                offeredSalsa20.filter { $0.isSupported(by: features) } + [.portableSalsa20])
    }

    /// The CPU features this process was told of (``CryptoPlatform/cpuFeatures``).
    package static var cpuFeatures: Set<String> { CryptoPlatform.current.cpuFeatures }

    /// The choice for each primitive: the first offered backend whose features `cpuFeatures`
    /// holds, unless `environment` (the variable's value) is `portable`.
    package static func choose(aes: [AESBackend], sha256: [HashBackend], sha512: [HashBackend],
                               chacha20: [StreamBackend] = [], salsa20: [StreamBackend] = [],
                               cpuFeatures: Set<String>, environment: String?) -> Selection {
        let portable = environment == "portable"
        func first<B: Backend>(_ offered: [B], _ fallback: B) -> B {
            portable ? fallback : offered.first { $0.isSupported(by: cpuFeatures) } ?? fallback
        }
        return Selection(aes: first(aes, .portable), sha256: first(sha256, .portableSHA256),
                         sha512: first(sha512, .portableSHA512), chacha20: first(chacha20, .portableChaCha20),
                         salsa20: first(salsa20, .portableSalsa20))
    }

    // Written only before the first use (offer), read once by `selected`.
    nonisolated(unsafe) private static var offeredAES: [AESBackend] = BuiltInKernels.aes
    nonisolated(unsafe) private static var offeredSHA256: [HashBackend] = BuiltInKernels.sha256
    nonisolated(unsafe) private static var offeredSHA512: [HashBackend] = BuiltInKernels.sha512
    nonisolated(unsafe) private static var offeredChaCha20: [StreamBackend] = []
    nonisolated(unsafe) private static var offeredSalsa20: [StreamBackend] = []
    nonisolated(unsafe) private static var chosen = false

    /// Initialised once, on first use (a lazy static is thread-safe).
    private static let selected: Selection = {
        chosen = true
        return choose(aes: offeredAES, sha256: offeredSHA256, sha512: offeredSHA512, chacha20: offeredChaCha20,
                      salsa20: offeredSalsa20, cpuFeatures: cpuFeatures,
                      environment: CryptoPlatform.current.backendOverride)
    }()
}

/// What the backend types share: a name and the CPU features they need.
package protocol Backend: Sendable {
    var name: String { get }
    var requiredCPUFeatures: [String] { get }
}

extension Backend {
    /// Whether a CPU with `features` can run this backend (the portable ones need none).
    package func isSupported(by features: Set<String>) -> Bool {
        requiredCPUFeatures.allSatisfy { features.contains($0) }
    }
}

/// AES-256 kernels: whole operations, never a call per block.
///
/// Round keys are FIPS 197 byte order, 15 × 16 bytes: the encryption keys `w[0...14]`, and for
/// decryption the equivalent inverse cipher's keys (FIPS 197 §5.3.5): `w[14]`,
/// InvMixColumns(`w[13]`) ... InvMixColumns(`w[1]`), `w[0]`.
package struct AESBackend: Backend, @unchecked Sendable {
    /// `rounds` AES-KDF rounds on 32 bytes at `data` (two blocks, each encrypted `rounds` times in
    /// place) with the encryption keys.
    package typealias KDF = @convention(c) (_ keys: UnsafeRawPointer, _ data: UnsafeMutableRawPointer, _ rounds: UInt64) -> Void
    /// CBC over `blocks` 16-byte blocks from `input` to `output` (which do not overlap); `chain`
    /// (16 bytes) holds the previous ciphertext block (the IV at first) and is updated. The keys
    /// are the encryption keys for `cbcEncrypt`, the decryption keys for `cbcDecrypt`.
    package typealias CBC = @convention(c) (
        _ keys: UnsafeRawPointer, _ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, _ blocks: Int,
        _ chain: UnsafeMutableRawPointer) -> Void

    package let name: String
    package let requiredCPUFeatures: [String]
    /// nil for the portable (fixsliced) code.
    let kernels: (kdf: KDF, cbcEncrypt: CBC, cbcDecrypt: CBC)?

    package init(name: String, requiredCPUFeatures: [String], kdf: KDF, cbcEncrypt: CBC, cbcDecrypt: CBC) {
        self.name = name
        self.requiredCPUFeatures = requiredCPUFeatures
        kernels = (kdf, cbcEncrypt, cbcDecrypt)
    }

    private init(portable: ()) {
        name = "portable"
        requiredCPUFeatures = []
        kernels = nil
    }

    /// The fixsliced Swift code (`AESBitslice.swift`).
    package static let portable = AESBackend(portable: ())
}

/// A SHA-2 compression function over whole blocks.
@usableFromInline
package struct HashBackend: Backend, @unchecked Sendable {
    /// Compresses `blockCount` consecutive blocks at `blocks` into `state` (SHA-256: eight
    /// `UInt32`, SHA-512: eight `UInt64`, in FIPS 180-4 order H0...H7, native byte order).
    @usableFromInline package typealias Compress = @convention(c) (
        _ state: UnsafeMutableRawPointer, _ blocks: UnsafeRawPointer, _ blockCount: Int) -> Void

    package let name: String
    package let requiredCPUFeatures: [String]
    /// nil for the portable code.
    let compress: Compress?

    package init(name: String, requiredCPUFeatures: [String], compress: Compress) {
        self.name = name
        self.requiredCPUFeatures = requiredCPUFeatures
        self.compress = compress
    }

    private init(portable: ()) {
        name = "portable"
        requiredCPUFeatures = []
        compress = nil
    }

    /// The unrolled Swift SHA-256 (`SHA256+Compress.swift`).
    package static let portableSHA256 = HashBackend(portable: ())
    /// The unrolled Swift SHA-512 (`SHA512+Compress.swift`).
    package static let portableSHA512 = HashBackend(portable: ())
}

/// A ChaCha20 or Salsa20 keystream kernel over whole 64-byte blocks, many blocks a call.
///
/// ChaCha20 and Salsa20 are add-rotate-XOR ciphers: every kernel is constant-time (no table, no
/// branch on the key or the data).
package struct StreamBackend: Backend, @unchecked Sendable {
    /// XORs keystream blocks into `data` in place: the blocks of the input matrix `state` (16
    /// `UInt32`, native byte order, the counter of the first block in it as the cipher keeps it:
    /// ChaCha20 word 12, wrapping at 2^32 (RFC 8439 §2.3); Salsa20 words 8 (low) and 9 (high), a
    /// 64-bit counter) and the blocks after it. Does as many of the `blockCount` blocks as its
    /// width allows (a multiple of it; 0 when `blockCount` is below it) and returns how many. It
    /// leaves `state` unchanged: the caller advances the counter.
    package typealias XOR = @convention(c) (
        _ state: UnsafeRawPointer, _ data: UnsafeMutableRawPointer, _ blockCount: Int) -> Int

    package let name: String
    package let requiredCPUFeatures: [String]
    /// nil for the portable code.
    let xor: XOR?

    package init(name: String, requiredCPUFeatures: [String], xor: XOR) {
        self.name = name
        self.requiredCPUFeatures = requiredCPUFeatures
        self.xor = xor
    }

    private init(portable: ()) {
        name = "portable"
        requiredCPUFeatures = []
        xor = nil
    }

    /// The Swift ChaCha20 (four blocks at a time in `SIMD4` lanes, `ChaCha20.swift`).
    package static let portableChaCha20 = StreamBackend(portable: ())
    /// The Swift Salsa20 (four blocks at a time, `Salsa20.swift`).
    package static let portableSalsa20 = StreamBackend(portable: ())
}
