import Foundation
import MyPassBytes
#if canImport(Glibc)
import Glibc
#endif

extension Subprocess {
    /// What ``capture(_:_:environment:)`` got from a helper.
    struct Captured {
        /// The exit status (-1 when it could not start, or died of a signal).
        var status: Int32
        /// Its standard output (at most 64 KiB), in wiping storage: a hardware key's response.
        var output: SecureBytes
        /// Its standard error (at most 64 KiB): the helper's own diagnostics.
        var errorText: String

        /// The first non-empty line of ``errorText``, at most 200 characters, made safe for the terminal.
        var firstErrorLine: String? {
            guard let line = errorText.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else {
                return nil
            }
            return Text.oneLine(String(line.prefix(200)))
        }
    }

    /// Runs `executable arguments...` to its end with both output streams captured (the
    /// challenge-response helpers: `ykchalresp`, a user's response command), read side by side
    /// so that neither pipe fills; its standard input is `/dev/null`, and no other descriptor of
    /// ours reaches it.
    /// - Parameter environment: variables added to ours (`nil`: ours as they are).
    static func capture(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) -> Captured {
        let limit = 64 << 10
        markInheritedDescriptorsCloseOnExec()
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else { return Captured(status: -1, output: SecureBytes(), errorText: "") }
        guard pipe(&errorPipe) == 0 else {
            for fd in outputPipe where fd >= 0 { close(fd) }
            return Captured(status: -1, output: SecureBytes(), errorText: "")
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?   // an opaque pointer on Apple platforms
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        for fd in outputPipe + errorPipe where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment ?? [:] { variables[name] = value }
        var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, &envp)
        close(outputPipe[1])
        close(errorPipe[1])
        guard spawned == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            return Captured(status: -1, output: SecureBytes(), errorText: "")
        }
        var output = SecureBytes()
        var errorBytes: [UInt8] = []
        var chunk = SecureBytes(zeroedCount: 4096)
        var open: [Int32] = [outputPipe[0], errorPipe[0]]
        while !open.isEmpty {
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            for entry in polled where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                chunk.withUnsafeBytes { raw in
                    let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                    if entry.fd == outputPipe[0] {
                        if output.count < limit { output.append(contentsOf: bytes) }
                    } else if errorBytes.count < limit {
                        errorBytes.append(contentsOf: bytes)
                    }
                }
            }
        }
        for fd in open { close(fd) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        return Captured(status: exited ? (status >> 8) & 0xFF : -1, output: output,
                        errorText: String(decoding: errorBytes, as: UTF8.self))
    }
}
