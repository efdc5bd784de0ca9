import Foundation
import MyPassBytes
#if canImport(Glibc)
import Glibc
#endif

/// Runs helper programs (the clipboard tools) with their input through a pipe, never on the
/// command line, and their output captured or sent to `/dev/null`; no other descriptor of ours
/// reaches them (a helper that forks into the background, as xclip does, must not keep a pipe of
/// whoever started us open).
enum Subprocess {
    /// The full path of `name` on `PATH`, or `nil`.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable arguments...` to its end.
    /// - Parameters:
    ///   - input: written to its standard input, which then closes (`nil`: `/dev/null`).
    ///   - captureOutput: whether its standard output is read (at most 1 MiB) and returned.
    /// - Returns: the exit status (-1 when it could not start, or died of a signal) and the output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: SecureBytes? = nil,
                    captureOutput: Bool = false) -> (status: Int32, output: SecureBytes) {
        markInheritedDescriptorsCloseOnExec()
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        if input != nil { guard pipe(&inputPipe) == 0 else { return (-1, SecureBytes()) } }
        if captureOutput {
            guard pipe(&outputPipe) == 0 else {
                closeAll(inputPipe)
                return (-1, SecureBytes())
            }
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?   // an opaque pointer on Apple platforms
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for fd in inputPipe + outputPipe where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let all = [executable] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        if inputPipe[0] >= 0 { close(inputPipe[0]) }
        if outputPipe[1] >= 0 { close(outputPipe[1]) }
        guard spawned == 0 else {
            if inputPipe[1] >= 0 { close(inputPipe[1]) }
            if outputPipe[0] >= 0 { close(outputPipe[0]) }
            return (-1, SecureBytes())
        }
        if let input {
            writeAll(input, to: inputPipe[1])
            close(inputPipe[1])
        }
        var output = SecureBytes()
        if captureOutput {
            var chunk = SecureBytes(zeroedCount: 4096)
            while output.count < 1 << 20 {
                let count = chunk.withUnsafeMutableBytes { read(outputPipe[0], $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                chunk.withUnsafeBytes { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            close(outputPipe[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS by hand (macros are not imported).
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : -1, output)
    }

    /// Starts `executable arguments...` in its own session without waiting for it; `input` goes
    /// to its standard input, its output to `/dev/null`.
    /// - Returns: whether it started.
    static func startDetached(_ executable: String, _ arguments: [String], input: SecureBytes) -> Bool {
        markInheritedDescriptorsCloseOnExec()
        var inputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0 else { return false }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?   // an opaque pointer on Apple platforms
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, inputPipe[0])
        posix_spawn_file_actions_addclose(&actions, inputPipe[1])
        let all = [executable] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var attributes = backgroundSpawnAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        close(inputPipe[0])
        if spawned == 0 { writeAll(input, to: inputPipe[1]) }
        close(inputPipe[1])
        return spawned == 0
    }

    /// Spawn attributes for a background process of ours (the agent, `unclip`): no signal blocked
    /// and the terminating ones at their default action, whatever the starting thread had (a test
    /// runner's threads, say, block SIGHUP, SIGINT and SIGTERM, and a blocked mask is inherited
    /// through exec: such an agent ignored `kill`). Pass the result to `posix_spawn` and destroy it.
    /// - Returns: the initialised attributes (on a failure to set them: the defaults).
    static func backgroundSpawnAttributes() -> posix_spawnattr_t {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }

    /// Writes all of `bytes` to the pipe `fd`, or until the child stops reading (a write of 0 or
    /// an error ends it).
    private static func writeAll(_ bytes: SecureBytes, to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                offset += count
            }
        }
    }

    /// This executable's path (for starting `mypass agent` or `mypass unclip`).
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Sets close-on-exec on every descriptor above 2 that we inherited or opened.
    static func markInheritedDescriptorsCloseOnExec() {
        for fd in Int32(3)..<1024 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    private static func closeAll(_ fds: [Int32]) { for fd in fds where fd >= 0 { close(fd) } }
}
