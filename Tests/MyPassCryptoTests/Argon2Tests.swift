import Foundation
import MyPassCrypto
import MyPassTestSupport
import Testing

/// Parses one reference `genkat` file (`kats/argon2d` ...): the parameter lines at the top and the
/// final `Tag` line; the per-pass block dumps in between are not used.
struct ReferenceKAT {
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
        let records = try responseRecords("argon2/" + file).filter { $0["output"] != nil }
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
        let records = try responseRecords("argon2/botan-argon2.vec").filter { $0["Output"] != nil }
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
}
