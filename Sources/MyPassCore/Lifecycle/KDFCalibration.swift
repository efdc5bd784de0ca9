import MyPassBytes
import MyPassKDBX

/// KeePass's "1 second delay" button: the KDF cost that takes a target time on this machine.
///
/// Argon2 keeps its memory and parallelism and gets the iterations (`I`); AES-KDF gets the rounds
/// (`R`). The rule times the real KDF (`MasterKeys.transform(compositeKey:kdf:limits:progress:)`,
/// the code that opens vaults) on wall-clock time, the delay a user waits:
///
/// - Argon2: runs with 1 iteration and with 3 give the cost of an iteration and the fixed
///   cost (filling memory the first time); iterations = (target − fixed) / per-iteration, at least 1.
/// - AES-KDF: a probe of 100,000 rounds, multiplied by 4 until it takes at least a fifth of the
///   target (at most 0.2 s); rounds = probe × target / seconds, at least 1.
///
/// Each timing that enters the rule is the fastest of three runs (the last AES probe of four), so
/// that a moment of load from other programs does not make the vault cheaper than intended.
///
/// `mypass create`, `mypass settings --unlock-time` and `mypass-bench calibrate` use it.
public enum KDFCalibration {
    /// Seconds one KDF run with `settings` takes; a seam so that tests need not time anything.
    public typealias Timer = @Sendable (KDFSettings) throws(CoreError) -> Double

    /// The KDF cost of `settings` that takes about `targetSeconds` on this machine.
    ///
    /// - Parameters:
    ///   - settings: the KDF and the parameters to keep (Argon2 variant, memory, parallelism, version).
    ///   - targetSeconds: the unlock delay wanted, in seconds (KeePass's button: 1); more than 0,
    ///     at most 600.
    ///   - timer: how one run is timed (default: ``measure(_:)``, the real KDF).
    /// - Returns: `settings` with the iterations or rounds for the target.
    /// - Throws: ``CoreError`` `.invalidOperation` for a target out of range; what `timer` throws.
    /// - Complexity: Argon2: six KDF runs (three of 1 iteration, three of 3); AES-KDF: runs of
    ///   100,000 rounds and up, then three more of the last probe, together about four fifths of
    ///   the target.
    public static func calibrate(_ settings: KDFSettings, targetSeconds: Double,
                                 timer: Timer = measure) throws(CoreError) -> KDFSettings {
        SystemPlatform.install()
        guard targetSeconds > 0, targetSeconds <= 600 else {
            throw CoreError(.invalidOperation, "the unlock time must be more than 0 and at most 600 seconds")
        }
        // The fastest of three runs: other work on the machine only ever slows a run down, so the
        // minimum is the closest to what an unlock costs on this machine when it is not busy.
        func fastest(_ settings: KDFSettings) throws(CoreError) -> Double {
            min(try timer(settings), try timer(settings), try timer(settings))
        }
        switch settings {
        case .argon2(var argon2):
            argon2.iterations = 1
            let one = try fastest(.argon2(argon2))
            argon2.iterations = 3
            let three = try fastest(.argon2(argon2))
            argon2.iterations = argon2Iterations(oneIteration: one, threeIterations: three, targetSeconds: targetSeconds)
            // Never more work than a vault may cost to open (KDBXLimits.maxArgon2WorkBytes): a
            // 1-iteration run slowed by other programs makes the model's per-iteration cost tiny.
            let limits = KDBXLimits()
            argon2.iterations = max(1, min(argon2.iterations, limits.maxArgon2WorkBytes / max(argon2.memoryBytes, 1)))
            return .argon2(argon2)
        case .aes:
            var probe: UInt64 = 100_000
            var seconds = try timer(.aes(rounds: probe))
            while seconds < min(0.2, targetSeconds / 5), probe < 1 << 40 {
                probe *= 4
                seconds = try timer(.aes(rounds: probe))
            }
            seconds = min(seconds, try fastest(.aes(rounds: probe)))
            return .aes(rounds: aesRounds(probe: probe, probeSeconds: seconds, targetSeconds: targetSeconds))
        }
    }

    /// Argon2 iterations for a target from the times of 1 and 3 iterations (the linear model
    /// above), at least 1 and at most 100,000 (`KDBXLimits.maxArgon2Iterations`).
    public static func argon2Iterations(oneIteration: Double, threeIterations: Double, targetSeconds: Double) -> UInt64 {
        let perIteration = max((threeIterations - oneIteration) / 2, 1e-6)
        let fixed = max(oneIteration - perIteration, 0)
        let iterations = ((targetSeconds - fixed) / perIteration).rounded()
        guard iterations.isFinite, iterations >= 1 else { return 1 }
        return UInt64(min(iterations, 100_000))
    }

    /// AES-KDF rounds for a target from one timed probe, at least 1 and at most 2,000,000,000
    /// (`KDBXLimits.maxAESKDFRounds`).
    public static func aesRounds(probe: UInt64, probeSeconds: Double, targetSeconds: Double) -> UInt64 {
        let rounds = (Double(probe) * targetSeconds / max(probeSeconds, 1e-9)).rounded()
        guard rounds.isFinite, rounds >= 1 else { return 1 }
        return UInt64(min(rounds, 2_000_000_000))
    }

    /// Wall-clock seconds of one run of the KDF with `settings` on a fixed key and seed.
    /// - Throws: ``CoreError`` `.codec` when the KDF refuses the parameters (beyond `KDBXLimits`).
    public static func measure(_ settings: KDFSettings) throws(CoreError) -> Double {
        SystemPlatform.install()
        let key: CompositeKey
        do throws(KDBXError) {
            key = try CompositeKey(password: ProtectedString("calibration"), keyFileContents: nil)
        } catch {
            throw CoreError(codecError: error)
        }
        let parameters = KDFParameters(settings: settings, seed: [UInt8](repeating: 0x5A, count: 32))
        let clock = ContinuousClock()
        let start = clock.now
        do throws(KDBXError) {
            _ = try MasterKeys.transform(compositeKey: key, kdf: parameters, limits: KDBXLimits())
        } catch {
            throw CoreError(codecError: error)
        }
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
