import MyPassFuzzing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The libFuzzer entry points, built by Fuzz/run.sh. One binary serves every harness: it is linked
// once and hard-linked as `fuzz-NAME`, and the name it runs under picks the harness.

/// The harness picked from the program name, `nil` for the agent's two.
nonisolated(unsafe) var harness: FuzzHarness?
/// Whether the agent's harness is the SSH agent protocol's (`ssh-agent-message`) rather than the
/// agent frame's.
nonisolated(unsafe) var sshAgentHarness = false

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    let program = String(cString: argv.pointee[0]!)
    let name = String(program.split(separator: "/").last ?? "").replacingPrefix("fuzz-")
    if name == "agent-frame" { return 0 }
    if name == "ssh-agent-message" {
        sshAgentHarness = true
        return 0
    }
    guard let picked = FuzzHarness(rawValue: name) else {
        report("unknown harness \(name): run as fuzz-NAME")
        exit(2)
    }
    harness = picked
    _ = picked.run([])  // builds the open harness's fixtures (one KDF run) before the clock starts
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let result = harness.map { $0.run(input).description }
        ?? (sshAgentHarness ? SSHAgentFuzzing.run(input) : AgentFrameFuzzing.run(input))
    if result.hasPrefix("violated") {
        report(result)
        abort()
    }
    return 0
}

/// Writes a line to standard error.
func report(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
