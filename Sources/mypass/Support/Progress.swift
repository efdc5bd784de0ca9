#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import MyPassCrypto

/// A "working..." line with elapsed seconds (and the KDF's share done, when it reports one) on
/// stderr while a slow step (the KDF) runs.
///
/// Shown only when stderr is a terminal and the step takes longer than a moment; erased when
/// the step ends, so that nothing stays behind in the terminal or in captured output.
final class Progress: Sendable {
    private let label: String
    private let state = LockedState<(running: Bool, shown: Bool, fraction: Double?)>((true, false, nil))
    private let start = DispatchTime.now()

    /// The label may quote a vault's path: made safe for the terminal first.
    private init(label: String) { self.label = Text.errorMessage(label) }

    /// Runs `body`, showing `label` with a timer on stderr if it takes more than 0.3 s.
    static func run<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
        guard Console.isTerminal(2), !Console.isQuiet else { return try body() }
        let progress = Progress(label: label)
        progress.schedule()
        defer { progress.finish() }
        return try body()
    }

    /// Runs a step with a KDF: `body` gets the handler to pass to the KDF, which shows its share
    /// done beside the timer (on a terminal) and stops the KDF when Ctrl-C was pressed
    /// (``Interrupt``); the KDF then throws `.cancelled`.
    static func runKDF<T>(_ label: String, _ body: (@escaping @Sendable (Double) -> Bool) throws -> T) rethrows -> T {
        try Interrupt.catchingInterrupt {
            guard Console.isTerminal(2), !Console.isQuiet else {
                return try body { _ in !Interrupt.isRequested }
            }
            let progress = Progress(label: label)
            progress.schedule()
            defer { progress.finish() }
            return try body { fraction in
                progress.state.withLock { $0.fraction = fraction }
                return !Interrupt.isRequested
            }
        }
    }

    private func schedule() {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { [self] in tick() }
    }

    private func tick() {
        let keepGoing = state.withLock { state -> Bool in
            guard state.running else { return false }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            let tenths = Int(seconds * 10)
            let share = state.fraction.map { " \(Int(($0 * 100).rounded(.down)))%" } ?? ""
            Console.err("\r\(label)\(share) \(tenths / 10).\(tenths % 10)s\u{1B}[K")
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
