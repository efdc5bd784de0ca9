import Foundation
import MyPassTestSupport
import MyPassCrypto
import Testing

/// One record of a NIST CAVP AESAVS `.rsp` file.
struct CAVPRecord: CustomTestStringConvertible, Sendable {
    var file: String
    var encrypt: Bool
    var count: Int
    var key: [UInt8]
    var iv: [UInt8]
    var plaintext: [UInt8]
    var ciphertext: [UInt8]

    var testDescription: String { "\(file) \(encrypt ? "ENCRYPT" : "DECRYPT") COUNT=\(count)" }
}

/// Parses `Vectors/aes/<file>`: `[ENCRYPT]`/`[DECRYPT]` sections of `KEY =` ... records.
func cavpRecords(_ file: String) throws -> [CAVPRecord] {
    let text = try TestVectors.text("aes/" + file)
    var records: [CAVPRecord] = []
    var encrypt = true
    var current: [String: String] = [:]
    func flush() {
        guard let key = current["KEY"], let count = current["COUNT"] else { current = [:]; return }
        records.append(CAVPRecord(
            file: file, encrypt: encrypt, count: Int(count)!, key: hexBytes(key),
            iv: hexBytes(current["IV"] ?? ""), plaintext: hexBytes(current["PLAINTEXT"]!),
            ciphertext: hexBytes(current["CIPHERTEXT"]!)))
        current = [:]
    }
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
        let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { flush(); continue }
        if line.hasPrefix("#") { continue }
        if line == "[ENCRYPT]" { flush(); encrypt = true; continue }
        if line == "[DECRYPT]" { flush(); encrypt = false; continue }
        let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2 { current[parts[0]] = parts[1] }
    }
    flush()
    return records
}

/// Records of `name = value` / `NAME=value` lines separated by blank lines, with optional
/// `[Section]` headers (Botan `.vec`, Counterpane KAT files, generated vector files).
/// Keys are upper-cased; `SECTION` holds the current section name.
func keyValueRecords(_ relativePath: String) throws -> [[String: String]] {
    let text = try TestVectors.text(relativePath)
    var records: [[String: String]] = []
    var section = ""
    var current: [String: String] = [:]
    func flush() {
        if !current.isEmpty {
            current["SECTION"] = section
            records.append(current)
        }
        current = [:]
    }
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
        let line = rawLine.trimmingCharacters(in: .whitespaces)
        if line.isEmpty { flush(); continue }
        if line.hasPrefix("#") { continue }
        if line.hasPrefix("[") && line.hasSuffix("]") { flush(); section = String(line.dropFirst().dropLast()); continue }
        let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2 { current[parts[0].uppercased()] = parts[1] }
    }
    flush()
    return records
}

/// Deterministic pseudo-random bytes for round-trip tests (xorshift64).
func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed | 1
    return (0..<count).map { _ in
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}

/// Feeds `pieces` through a streaming cipher and finalizes it.
func stream<C: StreamingCipher>(_ cipher: inout C, _ pieces: [ArraySlice<UInt8>]) throws -> [UInt8] {
    var out: [UInt8] = []
    for piece in pieces { out += cipher.update(piece) }
    out += try cipher.finalize()
    return out
}
