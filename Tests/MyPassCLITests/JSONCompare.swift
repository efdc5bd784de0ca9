import Foundation

/// Parses JSON text into Foundation values; fails the caller with a thrown error on bad JSON.
func parseJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// Compares two parsed JSON values under the vault manifest's rules
/// (`../shared/docs/vault-manifest.md`): every key of `expected` must be in `actual` with an equal
/// value (extra keys in `actual` are allowed); arrays keep their order and length.
/// Returns the differences as `path: expected X, got Y` lines (empty when equal).
func manifestDifferences(expected: Any, actual: Any, path: String = "$", limit: Int = 20) -> [String] {
    var out: [String] = []
    compare(expected, actual, path, &out, limit)
    return out
}

private func compare(_ expected: Any, _ actual: Any, _ path: String, _ out: inout [String], _ limit: Int) {
    if out.count >= limit { return }
    switch (expected, actual) {
    case let (e as [String: Any], a as [String: Any]):
        for key in e.keys.sorted() {
            guard let value = a[key] else {
                out.append("\(path).\(key): missing")
                continue
            }
            compare(e[key]!, value, "\(path).\(key)", &out, limit)
        }
    case let (e as [Any], a as [Any]):
        if e.count != a.count { out.append("\(path): expected \(e.count) items, got \(a.count)") }
        for (index, (x, y)) in zip(e, a).enumerated() { compare(x, y, "\(path)[\(index)]", &out, limit) }
    case (is NSNull, is NSNull):
        break
    case let (e as String, a as String):
        if e != a { out.append("\(path): expected \(e.debugDescription), got \(a.debugDescription)") }
    case let (e as NSNumber, a as NSNumber):
        if e != a { out.append("\(path): expected \(e), got \(a)") }
    default:
        out.append("\(path): expected \(expected), got \(actual)")
    }
}
