import Foundation
import MyPassBytes
import MyPassCrypto

/// `mypass-bench signatures`: ES256 and Ed25519 signing and verification per second, beside
/// `openssl speed ecdsap256` and `openssl speed ed25519`.
enum SignaturesCommand {
    static let usage = """
    USAGE: mypass-bench signatures [--runs N] [--count N] [--compare] [--json]

      Times N signatures and N verifications (default 200) of a 69-byte message (WebAuthn's
      authenticatorData || clientDataHash) with ES256 (P-256, RFC 6979 nonces) and Ed25519, and
      public key derivation. --compare runs openssl speed -seconds 1 ecdsap256 and ed25519
      (OpenSSL's native paths: x86-64 assembly for P-256, ecp_nistz256).
    """

    static func run(_ args: inout BenchArguments) throws {
        let runs: Int = try args.integer("runs", default: 5)
        let count: Int = try args.integer("count", default: 200)
        let json = args.flag("json"), compare = args.flag("compare")
        try args.checkAllConsumed()
        var report = Report(title: "signatures (\(count) operations per run, median of \(runs) runs, \(Timing.clock.rawValue) time)")
        let message = SecureRandom.bytes(count: 69)

        func perSecond(_ name: String, _ body: () -> Void) -> Measurement {
            Progress.say(name)
            let seconds = Timing.samples(runs: runs) { for _ in 0..<count { body() } }
            return Measurement(name: name, readings: seconds.map { Double(count) / $0 }, unit: "ops/s", higherIsBetter: true)
        }
        let p256 = P256.SigningKey.generate()
        let p256Signature = p256.signature(for: message)
        var es256Sign = perSecond("ES256 sign (P-256, RFC 6979)") { _ = p256.signature(for: message) }
        var es256Verify = perSecond("ES256 verify") { _ = p256.publicKey.isValidSignature(p256Signature, for: message) }
        let ed = Ed25519.SigningKey.generate()
        let edSignature = ed.signature(for: message)
        var edSign = perSecond("Ed25519 sign") { _ = ed.signature(for: message) }
        var edVerify = perSecond("Ed25519 verify") { _ = ed.publicKey.isValidSignature(edSignature, for: message) }
        let seed = SecureRandom.bytes(count: 32)
        let keyGeneration = perSecond("P-256 public key from private key") { _ = try? P256.SigningKey(rawRepresentation: seed) }

        if compare {
            if let ecdsa = try opensslSpeed("ecdsap256", runs: min(runs, 3)) {
                es256Sign.setReference("openssl speed ecdsap256", readings: ecdsa.sign)
                es256Verify.setReference("openssl speed ecdsap256", readings: ecdsa.verify)
            } else { report.missingTools.append("openssl not found") }
            if let eddsa = try opensslSpeed("ed25519", runs: min(runs, 3)) {
                edSign.setReference("openssl speed ed25519", readings: eddsa.sign)
                edVerify.setReference("openssl speed ed25519", readings: eddsa.verify)
            }
        }
        report.rows += [es256Sign, es256Verify, edSign, edVerify, keyGeneration]
        report.print(json: json)
    }

    /// The sign/s and verify/s of each of `runs` `openssl speed -seconds 1 ALGORITHM` runs (its
    /// last line: "... sign/s verify/s"); CPU time, or wall time with `-elapsed`.
    static func opensslSpeed(_ algorithm: String, runs: Int) throws -> (sign: [Double], verify: [Double])? {
        guard let openssl = ReferenceTools.find("openssl") else { return nil }
        var signs: [Double] = [], verifies: [Double] = []
        for _ in 0..<runs {
            Progress.say("openssl speed \(algorithm)")
            var arguments = ["speed", "-seconds", "1", algorithm]
            if Timing.clock == .wall { arguments.insert("-elapsed", at: 1) }
            let output = try ReferenceTools.run(openssl, arguments, unsetting: ["OPENSSL_ia32cap"])
            guard let last = output.stdout.split(separator: "\n").last else { return nil }
            let fields = last.split(separator: " ").compactMap { Double($0) }
            guard fields.count >= 3 else { return nil }
            signs.append(fields[fields.count - 2])
            verifies.append(fields[fields.count - 1])
        }
        return (signs, verifies)
    }
}
