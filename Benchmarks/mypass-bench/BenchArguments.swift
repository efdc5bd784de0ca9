import Foundation

/// A small argument parser with swift-argument-parser's conventions: `--name value`,
/// `--name=value`, flags, and positional arguments.
struct BenchArguments {
    private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var consumed: Set<String> = []

    /// Options that take no value.
    static let knownFlags: Set<String> = ["json", "compare", "show-key", "help", "no-password", "peak-child", "make-hibp"]

    init(_ arguments: some Sequence<String>) throws(BenchError) {
        var iterator = arguments.makeIterator()
        var onlyPositionals = false
        while let argument = iterator.next() {
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                options[String(body[..<equals]), default: []].append(String(body[body.index(after: equals)...]))
            } else if Self.knownFlags.contains(String(body)) {
                flags.insert(String(body))
            } else {
                guard let value = iterator.next() else { throw BenchError.usage("missing value for --\(body)") }
                options[String(body), default: []].append(value)
            }
        }
    }

    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    mutating func value(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]?.last
    }

    mutating func integer<T: FixedWidthInteger>(_ name: String, default defaultValue: T) throws(BenchError) -> T {
        guard let text = value(name) else { return defaultValue }
        guard let number = T(text) else { throw BenchError.usage("--\(name) takes a whole number, not '\(text)'") }
        return number
    }

    mutating func double(_ name: String, default defaultValue: Double) throws(BenchError) -> Double {
        guard let text = value(name) else { return defaultValue }
        guard let number = Double(text), number > 0 else { throw BenchError.usage("--\(name) takes a positive number") }
        return number
    }

    /// Fails on options nobody asked for.
    func checkAllConsumed() throws(BenchError) {
        let unknown = Set(options.keys).union(flags).subtracting(consumed)
        if let first = unknown.sorted().first { throw BenchError.usage("unknown option --\(first)") }
    }
}

/// Errors of the benchmark tool: usage errors exit 2, others 1.
enum BenchError: Error {
    case usage(String)
    case failure(String)
}

/// Parses a memory size: plain bytes, or with a unit (`64MiB`, `65536KiB`, `1GiB`, `512B`).
func parseMemory(_ text: String) throws(BenchError) -> UInt64 {
    let units: [(String, UInt64)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("B", 1)]
    for (suffix, factor) in units where text.hasSuffix(suffix) {
        guard let number = UInt64(text.dropLast(suffix.count)) else { break }
        let (product, overflow) = number.multipliedReportingOverflow(by: factor)
        if !overflow { return product }
    }
    if let bytes = UInt64(text) { return bytes }
    throw BenchError.usage("memory '\(text)' is not a size (bytes, or with KiB/MiB/GiB)")
}

/// The bytes of a file named on the command line, or a one-line failure (`cannot read vault
/// 'x.kdbx': no such file`) instead of Foundation's error dump.
func readInput(_ path: String, what: String) throws(BenchError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw BenchError.failure("cannot read \(what) '\(path)': no such file")
    }
    if isDirectory.boolValue { throw BenchError.failure("cannot read \(what) '\(path)': it is a directory") }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw BenchError.failure("cannot read \(what) '\(path)': permission denied or unreadable")
    }
    return [UInt8](data)
}
