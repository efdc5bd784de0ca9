import Foundation
import MyPassTestSupport
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
