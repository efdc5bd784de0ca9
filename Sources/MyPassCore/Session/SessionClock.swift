import Foundation
import MyPassKDBX

/// The clock a session reads: wall time for time stamps, and a monotonic count of seconds for the
/// auto-lock timeout (so that changing the system time neither locks early nor keeps a vault open).
public protocol SessionClock: Sendable {
    /// The current wall-clock time.
    func now() -> KDBXTime
    /// Seconds on a monotonic clock (any origin).
    func monotonicSeconds() -> Double
}

/// The system clock: `Date()` for wall time, `ContinuousClock` for the monotonic count.
public struct SystemClock: SessionClock {
    private let origin = ContinuousClock.now

    /// The system clock.
    public init() {}

    public func now() -> KDBXTime { KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970.rounded(.down))) }

    public func monotonicSeconds() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}

/// A clock that moves only when told to (tests, previews).
public final class ManualClock: SessionClock, @unchecked Sendable {
    private let lock = NSLock()
    private var wall: KDBXTime
    private var monotonic: Double = 0

    /// A clock showing `start`.
    public init(start: KDBXTime) { wall = start }

    public func now() -> KDBXTime { lock.withLock { wall } }

    public func monotonicSeconds() -> Double { lock.withLock { monotonic } }

    /// Moves both clocks forward by `seconds`.
    public func advance(bySeconds seconds: Int64) {
        lock.withLock {
            wall = KDBXTime(secondsSinceEpoch: wall.secondsSinceEpoch + seconds)
            monotonic += Double(seconds)
        }
    }
}
