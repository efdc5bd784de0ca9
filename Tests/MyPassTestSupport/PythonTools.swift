import Foundation

extension InteropTools {
    /// `python3` when it is on PATH and can import every module in `modules` (for example
    /// `cryptography`, `fido2`, the pip packages interop tests use); `nil` otherwise.
    public static func python(withModules modules: [String]) -> URL? {
        guard let python = executable(named: "python3") else { return nil }
        let probe = "import " + modules.joined(separator: ", ")
        guard let result = try? runProcess(python, ["-c", probe]), result.status == 0 else { return nil }
        return python
    }

    /// Runs `script` with `python3 -c`, passing `arguments` (`sys.argv[1...]`) and `stdin`.
    public static func runPython(_ python: URL, _ script: String, _ arguments: [String] = [], stdin: [UInt8] = []) throws
        -> ProcessResult
    {
        try runProcess(python, ["-c", script] + arguments, stdin: stdin)
    }
}
