#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// A "working..." line with elapsed seconds on stderr while a slow step (the KDF) runs.
///
/// Shown only when stderr is a terminal and the step takes longer than a moment; erased when
/// the step ends, so that nothing stays behind in the terminal or in captured output.
final class Progress: Sendable {
    private let label: String
    private let state = Mutex<(running: Bool, shown: Bool)>((true, false))
    private let start = DispatchTime.now()

    private init(label: String) { self.label = label }

    /// Runs `body`, showing `label` with a timer on stderr if it takes more than 0.3 s.
    static func run<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
        guard Console.isTerminal(2), !Console.isQuiet else { return try body() }
        let progress = Progress(label: label)
        progress.schedule()
        defer { progress.finish() }
        return try body()
    }

    private func schedule() {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { [self] in tick() }
    }

    private func tick() {
        let keepGoing = state.withLock { state -> Bool in
            guard state.running else { return false }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            let tenths = Int(seconds * 10)
            Console.err("\r\(label) \(tenths / 10).\(tenths % 10)s")
            state.shown = true
            return true
        }
        if keepGoing {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in tick() }
        }
    }

    private func finish() {
        state.withLock { state in
            state.running = false
            if state.shown { Console.err("\r\u{1B}[K") }
        }
    }
}
