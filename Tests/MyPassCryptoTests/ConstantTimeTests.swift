import Foundation
import MyPassBytes
import MyPassCrypto
import Testing

/// Statistical timing tests in the manner of dudect (Reparaz, Balasch and Verbauwhede, "Dude, is my
/// code constant time?", DATE 2017): the operation runs on inputs of two classes, a fixed input
/// and fresh random ones, interleaved at random; Welch's t-test between the two classes' times
/// (after cropping the slowest 10%, which on a shared machine are the other processes' doing)
/// must stay under 4.5 in magnitude. A leaky comparison must fail the same test
/// (``positiveControlFails``), which shows the test can see a leak at this sample size.
///
/// Every input is made before the timing starts, each in storage of its own for both classes (a
/// fixed input shared by reference would stay in the cache), so only the values differ. Timing is `clock_gettime(CLOCK_MONOTONIC)` around a batch of repetitions.
/// `MYPASS_TIMING_SAMPLES` scales the sample counts (default 1; CI uses the default).
@Suite("Constant time: dudect-style timing tests", .serialized)
struct ConstantTimeTests {
    /// |t| at or above this means the two classes' times differ (dudect's threshold).
    static let threshold = 4.5

    static var scale: Double {
        ProcessInfo.processInfo.environment["MYPASS_TIMING_SAMPLES"].flatMap(Double.init) ?? 1
    }

    @Test("a leaky comparison (Array ==, which stops at the first difference) fails: the test can see a leak")
    func positiveControlFails() {
        let reference = randomBytes(4096)
        let t = TimingLeak.measure(samples: samples(4000), repetitions: 4) { fixed in
            fixed ? fresh(reference) : [reference[0] ^ 1] + reference.dropFirst()
        } run: { candidate in
            blackHole(candidate == reference)
        }
        report("positive control: Array ==", t)
        #expect(abs(t) >= Self.threshold, "the leaky comparison was not detected (|t| = \(abs(t)))")
    }

    @Test("constantTimeEquals of 32-byte MACs over raw buffers (SecureBytes, ProtectedString): equal and different inputs")
    func macComparisonBuffers() {
        let reference = randomBytes(32)
        let t = TimingLeak.measure(samples: samples(20000), repetitions: 32) { fixed in
            fixed ? fresh(reference) : randomBytes(32)
        } run: { candidate in
            blackHole(candidate.withUnsafeBytes { a in reference.withUnsafeBytes { b in constantTimeEquals(a, b) } })
        }
        report("constantTimeEquals, raw buffers, 32 bytes", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("constantTimeEquals of 32-byte hashes as arrays (the codec's header hash and HMAC checks): equal and different inputs")
    func macComparisonCollections() {
        let reference = randomBytes(32)
        let t = TimingLeak.measure(samples: samples(10000), repetitions: 4) { fixed in
            fixed ? fresh(reference) : randomBytes(32)
        } run: { candidate in
            blackHole(constantTimeEquals(candidate, reference))
        }
        report("constantTimeEquals, arrays, 32 bytes", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("portable AES-256 block encryption: a fixed and random plaintexts under one key")
    func aesEncryption() throws {
        let aes = try AES256(key: randomBytes(32))
        let fixedBlock = randomBytes(16)
        let t = TimingLeak.measure(samples: samples(20000), repetitions: 8) { fixed in
            fixed ? fresh(fixedBlock) : randomBytes(16)
        } run: { block in
            blackHole(aes.encrypt(block: block))
        }
        report("AES-256 encrypt (fixsliced)", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("portable AES-256 key schedule: a fixed and random keys")
    func aesKeySchedule() throws {
        let fixedKey = randomBytes(32)
        let t = TimingLeak.measure(samples: samples(10000), repetitions: 2) { fixed in
            fixed ? fresh(fixedKey) : randomBytes(32)
        } run: { key in
            blackHole(try? AES256(key: key))
        }
        report("AES-256 key schedule", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("AES-KDF rounds: a fixed and random composite keys under one seed")
    func aesKDFRounds() {
        let seed = randomBytes(32)
        let fixedKey = randomBytes(32)
        let t = TimingLeak.measure(samples: samples(10000), repetitions: 1) { fixed in
            fixed ? fresh(fixedKey) : randomBytes(32)
        } run: { key in
            blackHole(try? AESKDF.transformRaw(key: key, seed: seed, rounds: 64))
        }
        report("AES-KDF, 64 rounds", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("hardware AES-256 (AES-NI, ARMv8) block encryption and decryption: a fixed and random blocks under one key",
          arguments: TestBackends.hardwareAES)
    func hardwareAES(backend: AESBackend) throws {
        let aes = try AES256(key: randomBytes(32), backend: backend)
        let fixedBlock = randomBytes(16)
        let encryption = TimingLeak.measure(samples: samples(20000), repetitions: 8) { fixed in
            fixed ? fresh(fixedBlock) : randomBytes(16)
        } run: { block in
            blackHole(aes.encrypt(block: block))
        }
        report("AES-256 encrypt (\(backend.name))", encryption)
        let decryption = TimingLeak.measure(samples: samples(20000), repetitions: 8) { fixed in
            fixed ? fresh(fixedBlock) : randomBytes(16)
        } run: { block in
            blackHole(aes.decrypt(block: block))
        }
        report("AES-256 decrypt (\(backend.name))", decryption)
        #expect(abs(encryption) < Self.threshold && abs(decryption) < Self.threshold)
    }

    @Test("AES-KDF rounds on the hardware backend: a fixed and random composite keys under one seed",
          arguments: TestBackends.hardwareAES)
    func hardwareAESKDFRounds(backend: AESBackend) {
        let seed = randomBytes(32)
        let fixedKey = randomBytes(32)
        let t = TimingLeak.measure(samples: samples(10000), repetitions: 1) { fixed in
            fixed ? fresh(fixedKey) : randomBytes(32)
        } run: { key in
            blackHole(try? AESKDF.transformRaw(key: key, seed: seed, rounds: 1024, backend: backend))
        }
        report("AES-KDF, 1,024 rounds (\(backend.name))", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("P-256 variable-base scalar multiplication: a fixed and random scalars")
    func p256ScalarMultiplication() {
        let fixedScalar = randomBytes(32)
        let t = TimingLeak.measure(samples: samples(3000), repetitions: 1) { fixed in
            fixed ? fresh(fixedScalar) : randomBytes(32)
        } run: { scalar in
            blackHole(P256.ladderMultipleForTesting(scalar: scalar))
        }
        report("P-256 scalar multiplication (window ladder)", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("P-256 ECDSA signing (RFC 6979): a fixed and random private keys, one message")
    func p256Signing() throws {
        let message = randomBytes(32)
        let fixedKey = randomBytes(32)
        let t = TimingLeak.measure(samples: samples(3000), repetitions: 1) { fixed in
            fixed ? try! P256.SigningKey(rawRepresentation: fixedKey) : P256.SigningKey.generate()
        } run: { key in
            blackHole(key.signature(for: message))
        }
        report("P-256 ECDSA sign", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("Ed25519 signing: a fixed and random seeds, one message")
    func ed25519Signing() throws {
        let message = randomBytes(32)
        let fixedKey = randomBytes(32)
        let t = TimingLeak.measure(samples: samples(4000), repetitions: 1) { fixed in
            fixed ? try! Ed25519.SigningKey(rawRepresentation: fixedKey) : Ed25519.SigningKey.generate()
        } run: { key in
            blackHole(key.signature(for: message))
        }
        report("Ed25519 sign", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("Argon2's data-independent addressing (Argon2i, as in Argon2id's first half-pass): a fixed and random passwords")
    func argon2DataIndependentAddressing() {
        let salt = randomBytes(16)
        let fixedPassword = randomBytes(32)
        let parameters = Argon2.Parameters(variant: .argon2i, memoryKiB: 32, iterations: 1, parallelism: 1, salt: salt)
        let t = TimingLeak.measure(samples: samples(4000), repetitions: 1) { fixed in
            fixed ? fresh(fixedPassword) : randomBytes(32)
        } run: { password in
            blackHole(try? Argon2.deriveKey(password: password, parameters: parameters))
        }
        report("Argon2i, 32 KiB, 1 pass", t)
        #expect(abs(t) < Self.threshold)
    }

    func samples(_ base: Int) -> Int { max(200, Int(Double(base) * Self.scale)) }

    func report(_ name: String, _ t: Double) {
        print("timing: \(name): |t| = \(String(format: "%.2f", abs(t)))")
    }
}

/// dudect's measurement and Welch's t-test.
enum TimingLeak {
    /// Times `run` on `samples` inputs, each of a class drawn at random (fixed or random input, as
    /// `makeInput(isFixed)` gives it), `repetitions` calls per timing, and returns Welch's t
    /// between the classes after cropping the slowest 10% of all timings.
    static func measure<Input>(
        samples: Int, repetitions: Int, makeInput: (Bool) -> Input, run: (Input) -> Void
    ) -> Double {
        var generator = SystemRandomNumberGenerator()
        let classes = (0..<samples).map { _ in Bool.random(using: &generator) }
        let inputs = classes.map(makeInput)
        var times = [UInt64](repeating: 0, count: samples)
        // A first pass warms caches and branch predictors; its times are discarded.
        for i in 0..<min(samples, 100) { run(inputs[i]) }
        for i in 0..<samples {
            let start = now()
            for _ in 0..<repetitions { run(inputs[i]) }
            times[i] = now() &- start
        }
        let cutoff = times.sorted()[samples * 9 / 10]
        var fixed = RunningStatistics(), random = RunningStatistics()
        for i in 0..<samples where times[i] < cutoff {
            if classes[i] { fixed.add(Double(times[i])) } else { random.add(Double(times[i])) }
        }
        return welchT(fixed, random)
    }

    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Welch's t statistic: (mean1 - mean2) / sqrt(var1/n1 + var2/n2).
    static func welchT(_ a: RunningStatistics, _ b: RunningStatistics) -> Double {
        let denominator = (a.variance / Double(a.count) + b.variance / Double(b.count)).squareRoot()
        return denominator > 0 ? (a.mean - b.mean) / denominator : 0
    }
}

/// Welford's online mean and variance.
struct RunningStatistics {
    var count = 0
    var mean = 0.0
    var m2 = 0.0

    mutating func add(_ x: Double) {
        count += 1
        let delta = x - mean
        mean += delta / Double(count)
        m2 += delta * (x - mean)
    }

    var variance: Double { count > 1 ? m2 / Double(count - 1) : 0 }
}

/// A copy in storage of its own, so that the fixed class's inputs lie apart in memory as the
/// random class's do (one shared buffer would stay in the cache and time faster).
func fresh(_ bytes: [UInt8]) -> [UInt8] { bytes.map { $0 } }

func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
