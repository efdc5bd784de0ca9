import Foundation
import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassTestSupport
import Testing

/// Parses one reference `genkat` file (`kats/argon2d` ...): the parameter lines at the top and the
/// final `Tag` line; the per-pass block dumps in between are not used.
private struct ReferenceKAT {
    var parameters: Argon2.Parameters
    var password: [UInt8]
    var tag: [UInt8]

    init(_ path: String) throws {
        let lines = try TestVectors.text(path).split(whereSeparator: \.isNewline).map(String.init)
        func bytes(after prefix: String) -> [UInt8] {
            let line = lines.first { $0.hasPrefix(prefix) }!
            return hexBytes(String(line[line.index(after: line.firstIndex(of: ":")!)...]))
        }
        func number(_ label: String, in line: String) -> UInt32 {
            let tail = line.components(separatedBy: label + ": ")[1]
            return UInt32(tail.prefix { $0.isNumber })!
        }
        let title = lines.first { $0.contains("version number") }!
        let variant: Argon2.Variant =
            title.hasPrefix("Argon2id") ? .argon2id : title.hasPrefix("Argon2i") ? .argon2i : .argon2d
        let version = UInt32(title.components(separatedBy: "version number ")[1].prefix { $0.isNumber })!
        let costs = lines.first { $0.hasPrefix("Memory:") }!
        password = bytes(after: "Password[")
        tag = bytes(after: "Tag:")
        parameters = Argon2.Parameters(
            variant: variant, version: version == 19 ? 0x13 : 0x10, memoryKiB: number("Memory", in: costs),
            iterations: number("Iterations", in: costs), parallelism: number("Parallelism", in: costs),
            salt: bytes(after: "Salt["), secret: bytes(after: "Secret["), associatedData: bytes(after: "Associated data["),
            outputByteCount: Int(number("Tag length", in: costs)))
        #expect(tag.count == parameters.outputByteCount)
    }
}

@Suite("Argon2 against the reference KATs, RFC 9106, pyca, Botan and the argon2 CLI")
struct Argon2Tests {
    @Test(arguments: ["argon2d", "argon2i", "argon2id", "argon2d_v16", "argon2i_v16", "argon2id_v16"])
    func referenceKAT(file: String) throws {
        let kat = try ReferenceKAT("argon2/" + file)
        #expect(kat.parameters.version == (file.hasSuffix("_v16") ? 0x10 : 0x13))
        #expect(kat.parameters.parallelism == 4 && kat.parameters.memoryKiB == 32 && kat.parameters.iterations == 3)
        #expect(try Argon2.deriveKey(password: kat.password, parameters: kat.parameters) == kat.tag)
    }

    /// RFC 9106 §5.1-5.3, written out so that a parser bug cannot hide a failure.
    @Test func rfc9106() throws {
        let expected: [(Argon2.Variant, String)] = [
            (.argon2d, "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb"),
            (.argon2i, "c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8"),
            (.argon2id, "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659"),
        ]
        for (variant, tag) in expected {
            let parameters = Argon2.Parameters(
                variant: variant, version: 0x13, memoryKiB: 32, iterations: 3, parallelism: 4,
                salt: [UInt8](repeating: 2, count: 16), secret: [UInt8](repeating: 3, count: 8),
                associatedData: [UInt8](repeating: 4, count: 12), outputByteCount: 32)
            let derived = try Argon2.deriveKey(password: [UInt8](repeating: 1, count: 32), parameters: parameters)
            #expect(derived.hexString == tag, "\(variant)")
        }
    }

    @Test(arguments: [("pyca-argon2d.txt", Argon2.Variant.argon2d), ("pyca-argon2i.txt", .argon2i), ("pyca-argon2id.txt", .argon2id)])
    func pyca(file: String, variant: Argon2.Variant) throws {
        let records = try hashResponseRecords("argon2/" + file).filter { $0["output"] != nil }
        #expect(records.count >= 4)
        for record in records {
            let parameters = Argon2.Parameters(
                variant: variant, version: 0x13, memoryKiB: UInt32(record.int("memcost")),
                iterations: UInt32(record.int("iter")), parallelism: UInt32(record.int("lanes")),
                salt: record.bytes("salt"), secret: record.bytes("secret"), associatedData: record.bytes("ad"),
                outputByteCount: record.int("length"))
            let derived = try Argon2.deriveKey(password: record.bytes("pass"), parameters: parameters)
            #expect(derived == record.bytes("output"), "\(file) COUNT = \(record["COUNT"]!)")
        }
    }

    /// Botan's vectors (Go x/crypto generated): many shapes, outputs longer than 64 bytes (H').
    @Test func botan() throws {
        let records = try hashResponseRecords("argon2/botan-argon2.vec").filter { $0["Output"] != nil }
        #expect(records.count == 357)
        for (index, record) in records.enumerated() {
            let variant: Argon2.Variant =
                switch record.section {
                case "Argon2d": .argon2d
                case "Argon2i": .argon2i
                default: .argon2id
                }
            let output = record.bytes("Output")
            let parameters = Argon2.Parameters(
                variant: variant, version: 0x13, memoryKiB: UInt32(record.int("M")), iterations: UInt32(record.int("T")),
                parallelism: UInt32(record.int("P")), salt: record.bytes("Salt"), secret: record.bytes("Secret"),
                associatedData: record.bytes("AD"), outputByteCount: output.count)
            let derived = try Argon2.deriveKey(password: record.bytes("Passphrase"), parameters: parameters)
            #expect(derived == output, "botan vector \(index) \(record.section) M=\(record.int("M")) P=\(record.int("P"))")
        }
    }

    /// KDBX-shaped vectors from Debian's argon2 CLI (Vectors/argon2/cli-argon2.txt), including
    /// KeePass's default 64 MiB, 2 iterations, 2 lanes; derived through the KDBX convenience.
    @Test func argon2CLI() throws {
        let lines = try TestVectors.text("argon2/cli-argon2.txt").split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("#") }
        #expect(lines.count == 10)
        for line in lines {
            let f = line.split(separator: " ").map(String.init)
            let variant: Argon2.Variant = f[0] == "argon2d" ? .argon2d : .argon2id
            let version = UInt32(f[1].dropFirst(2), radix: 16)!
            var parameters = try Argon2.Parameters.kdbx(
                variant: variant, memoryBytes: UInt64(f[2])! * 1024, iterations: UInt64(f[3])!,
                parallelism: UInt32(f[4])!, version: version, salt: hexBytes(f[6]))
            #expect(parameters.memoryKiB == UInt32(f[2])! && parameters.outputByteCount == 32)
            parameters.outputByteCount = Int(f[5])!
            let derived = try Argon2.deriveKey(password: hexBytes(f[7]), parameters: parameters)
            #expect(derived.hexString == f[8], "\(line)")
        }
    }

    static let salt = [UInt8](repeating: 7, count: 16)

    @Test func rejectsOutOfRangeParameters() {
        func parameters(
            version: UInt32 = 0x13, memoryKiB: UInt32 = 64, iterations: UInt32 = 1, parallelism: UInt32 = 1,
            salt: [UInt8] = Argon2Tests.salt, outputByteCount: Int = 32
        ) -> Argon2.Parameters {
            Argon2.Parameters(
                variant: .argon2d, version: version, memoryKiB: memoryKiB, iterations: iterations,
                parallelism: parallelism, salt: salt, outputByteCount: outputByteCount)
        }
        let invalid: [Argon2.Parameters] = [
            parameters(version: 0x12),
            parameters(parallelism: 0),
            parameters(memoryKiB: UInt32.max, parallelism: 1 << 24),
            parameters(memoryKiB: 15, parallelism: 2),
            parameters(memoryKiB: 7),
            parameters(iterations: 0),
            parameters(outputByteCount: 3),
            parameters(outputByteCount: 0),
            parameters(outputByteCount: -1),
            parameters(salt: [1, 2, 3, 4, 5, 6, 7]),
            parameters(salt: []),
        ]
        for candidate in invalid {
            #expect(throws: CryptoError(.invalidParameter)) { try Argon2.deriveKey(password: [1], parameters: candidate) }
        }
        // The smallest legal shapes still work: 8 KiB per lane, 4-byte tag, 8-byte salt.
        #expect(throws: Never.self) {
            try Argon2.deriveKey(password: [], parameters: parameters(memoryKiB: 16, parallelism: 2, salt: [UInt8](repeating: 0, count: 8), outputByteCount: 4))
        }
    }

    @Test func refusesMemoryAboveTheLimit() throws {
        let big = Argon2.Parameters(variant: .argon2id, memoryKiB: 64 * 1024, iterations: 1, parallelism: 2, salt: Self.salt)
        #expect(throws: CryptoError(.memoryLimitExceeded)) {
            try Argon2.deriveKey(password: [1], parameters: big, memoryLimitBytes: 64 * 1024 * 1024 - 1)
        }
        // The default 1 GiB limit refuses a 2 GiB (or 4 TiB) header without allocating anything.
        var huge = big
        huge.memoryKiB = 2 * 1024 * 1024
        #expect(throws: CryptoError(.memoryLimitExceeded)) { try Argon2.deriveKey(password: [1], parameters: huge) }
        huge.memoryKiB = UInt32.max
        #expect(throws: CryptoError(.memoryLimitExceeded)) { try Argon2.deriveKey(password: [1], parameters: huge) }
        // A tag longer than the limit is refused too, before anything is allocated.
        var longTag = Argon2.Parameters(variant: .argon2d, memoryKiB: 8, iterations: 1, parallelism: 1, salt: Self.salt)
        longTag.outputByteCount = 1 << 20
        #expect(throws: CryptoError(.memoryLimitExceeded)) {
            try Argon2.deriveKey(password: [1], parameters: longTag, memoryLimitBytes: (1 << 20) - 1)
        }
        // Exactly at the limit is allowed (m' = 4 p floor(m / 4p) blocks are what count).
        let small = Argon2.Parameters(variant: .argon2d, memoryKiB: 1030, iterations: 1, parallelism: 2, salt: Self.salt)
        #expect(throws: Never.self) { try Argon2.deriveKey(password: [1], parameters: small, memoryLimitBytes: 1024 * 1024) }
    }

    @Test func kdbxConvenienceRejectsBadHeaders() {
        func kdbx(memoryBytes: UInt64 = 1 << 20, iterations: UInt64 = 2, parallelism: UInt32 = 2, version: UInt32 = 0x13,
                  salt: [UInt8] = Argon2Tests.salt) throws(CryptoError) -> Argon2.Parameters {
            try Argon2.Parameters.kdbx(
                variant: .argon2d, memoryBytes: memoryBytes, iterations: iterations, parallelism: parallelism,
                version: version, salt: salt)
        }
        #expect(throws: CryptoError(.invalidParameter)) { try kdbx(memoryBytes: 1_000_000) }
        #expect(throws: CryptoError(.invalidParameter)) { try kdbx(memoryBytes: (UInt64(UInt32.max) + 1) * 1024) }
        #expect(throws: CryptoError(.invalidParameter)) { try kdbx(iterations: UInt64(UInt32.max) + 1) }
        #expect(throws: CryptoError(.invalidParameter)) { try kdbx(iterations: 0) }
        #expect(throws: CryptoError(.invalidParameter)) { try kdbx(parallelism: 0) }
        #expect(throws: CryptoError(.invalidParameter)) { try kdbx(version: 0x11) }
        #expect(throws: CryptoError(.invalidParameter)) { try kdbx(salt: [1, 2, 3]) }
        #expect(throws: CryptoError(.invalidParameter)) { try kdbx(memoryBytes: 8 * 1024, parallelism: 2) }
        let parameters = try? kdbx(memoryBytes: 64 << 20, iterations: 2, parallelism: 2)
        #expect(parameters == Argon2.Parameters(
            variant: .argon2d, version: 0x13, memoryKiB: 65536, iterations: 2, parallelism: 2, salt: Self.salt))
    }

    /// The lanes run on several threads (the system platform's Dispatch loop) or one after another
    /// (no platform): repeated derivations must agree with the known answer and with each other.
    @Test func parallelLanesAreDeterministic() throws {
        let kat = try ReferenceKAT("argon2/argon2id")
        let parallel = Calls()
        var platform = SystemPlatform.platform
        let dispatch = try #require(platform.concurrentPerform)
        platform.concurrentPerform = { iterations, body in
            parallel.add(iterations)
            dispatch(iterations, body)
        }
        for platform in [platform, CryptoPlatform()] {
            let results = try (0..<8).map { _ in
                try Argon2.deriveKey(password: kat.password, parameters: kat.parameters, memoryLimitBytes: 1 << 30,
                                     progress: nil, platform: platform)
            }
            #expect(results.allSatisfy { $0 == kat.tag })
        }
        // 8 derivations × 3 passes × 4 slices, each over the 4 lanes.
        #expect(parallel.values == [Int](repeating: 4, count: 8 * 3 * 4))
    }

    /// The matrix comes from the platform's large memory when it gives some, is wiped before it
    /// goes back, and is freed once; ordinary memory when it gives none.
    @Test func theMatrixComesFromThePlatformsMemoryAndIsWipedBeforeItIsFreed() throws {
        let kat = try ReferenceKAT("argon2/argon2d")
        let allocations = Calls()
        let frees = Calls()
        let platform = CryptoPlatform(largeMemory: (allocate: { byteCount in
            allocations.add(byteCount)
            let raw = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
            raw.initializeMemory(as: UInt8.self, repeating: 0xA5, count: byteCount)
            return raw
        }, free: { pointer, byteCount in
            let bytes = UnsafeRawBufferPointer(start: pointer, count: byteCount)
            frees.add(bytes.allSatisfy { $0 == 0 } ? byteCount : -1)
            pointer.deallocate()
        }))
        let tag = try Argon2.deriveKey(password: kat.password, parameters: kat.parameters, memoryLimitBytes: 1 << 30,
                                       progress: nil, platform: platform)
        #expect(tag == kat.tag)
        #expect(allocations.values == [32 * 1024] && frees.values == [32 * 1024])
        // A platform that has none to give: ordinary memory, the same tag.
        let refusing = CryptoPlatform(largeMemory: (allocate: { _ in nil }, free: { _, _ in frees.add(-2) }))
        #expect(try Argon2.deriveKey(password: kat.password, parameters: kat.parameters, memoryLimitBytes: 1 << 30,
                                     progress: nil, platform: refusing) == kat.tag)
        #expect(frees.values == [32 * 1024])
    }

    /// Linux's huge-page memory: 2 MiB-aligned from 2 MiB up, none below (ordinary pages then).
    @Test func theSystemPlatformsLargeMemory() throws {
        #if os(Linux)
        let memory = try #require(SystemPlatform.platform.largeMemory)
        #expect(memory.allocate(1 << 20) == nil)
        let raw = try #require(memory.allocate(4 << 20))
        #expect(UInt(bitPattern: raw) % (2 << 20) == 0)
        raw.storeBytes(of: 1, toByteOffset: (4 << 20) - 8, as: UInt64.self)
        memory.free(raw, 4 << 20)
        #endif
    }
}

/// What a platform closure was called with, in order.
final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func add(_ value: Int) { lock.withLock { items.append(value) } }
    var values: [Int] { lock.withLock { items } }
}
