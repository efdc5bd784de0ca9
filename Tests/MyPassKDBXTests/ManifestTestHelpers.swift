import Foundation
import MyPassKDBX
import MyPassTestSupport

/// Parses JSON text with Foundation (tests only).
func parseJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// The differences between an expected and an actual manifest under the manifest comparison rules:
/// every key of `expected` must be in `actual` with an equal value (extra keys allowed), arrays
/// compare in order. `ignore` skips paths such as `$.meta.customData._LAST_MODIFIED`.
func manifestDifferences(expected: Any, actual: Any, path: String = "$", ignore: (String) -> Bool = { _ in false }) -> [String] {
    if ignore(path) { return [] }
    switch (expected, actual) {
    case (let e as [String: Any], let a as [String: Any]):
        return e.keys.sorted().flatMap { key -> [String] in
            let childPath = path + "." + key
            if ignore(childPath) { return [] }
            guard let value = a[key] else { return ["\(childPath): missing"] }
            return manifestDifferences(expected: e[key]!, actual: value, path: childPath, ignore: ignore)
        }
    case (let e as [Any], let a as [Any]):
        guard e.count == a.count else { return ["\(path): \(e.count) items expected, \(a.count) found"] }
        return zip(e, a).enumerated().flatMap { manifestDifferences(expected: $1.0, actual: $1.1, path: "\(path)[\($0)]", ignore: ignore) }
    case (let e as NSObject, let a as NSObject):
        return e.isEqual(a) ? [] : ["\(path): expected \(e), found \(a)"]
    default:
        return ["\(path): type mismatch"]
    }
}

/// Reads a Vectors/kdbx-xml plain XML export with the null stream (protected values in clear).
func readPlainExport(_ name: String) throws -> VaultBody {
    let bytes = try TestVectors.bytes("kdbx-xml/" + name)
    var stream = NullStream()
    return try VaultXMLReader.read(bytes, version: .v4_0, stream: &stream)
}
