import Foundation
import MyPassTestSupport

/// One record of a NIST CAVP-style response file (`key = value` lines separated by blank lines),
/// with the `[section]` it appeared under. The pyca text files use the same shape.
struct ResponseRecord {
    var section: String
    var fields: [String: String]

    subscript(_ key: String) -> String? { fields[key] }

    /// The hex field `key` as bytes (empty when the field is empty or missing).
    func bytes(_ key: String) -> [UInt8] { hexBytes(fields[key] ?? "") }

    /// The decimal field `key`.
    func int(_ key: String) -> Int { Int(fields[key]!)! }
}

/// Parses a CAVP `.rsp` (or pyca NIST-like) file into records; `#` comments are skipped.
func responseRecords(_ path: String) throws -> [ResponseRecord] {
    let text = try TestVectors.text(path)
    var records: [ResponseRecord] = []
    var section = ""
    var current: [String: String] = [:]
    func flush() {
        if !current.isEmpty { records.append(ResponseRecord(section: section, fields: current)) }
        current = [:]
    }
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
        let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { flush(); continue }
        if line.hasPrefix("#") { continue }
        if line.hasPrefix("[") && line.hasSuffix("]") {
            flush()
            section = String(line.dropFirst().dropLast()).replacingOccurrences(of: " ", with: "")
            continue
        }
        guard let equals = line.firstIndex(of: "=") else { continue }
        let key = line[..<equals].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        current[key] = value
    }
    flush()
    return records
}
