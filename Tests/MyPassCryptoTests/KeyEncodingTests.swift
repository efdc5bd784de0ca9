import Foundation
import MyPassBytes
import MyPassTestSupport
import Testing
import MyPassCrypto

@Suite("Key encodings: PKCS#8, SEC 1, SubjectPublicKeyInfo, COSE")
struct KeyEncodingTests {
    static let p256Secret = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
    static let ed25519Seed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"

    @Test("P-256 PKCS#8 and SEC 1 written by OpenSSL (via Python cryptography) read back; ours is byte-identical")
    func p256FromOpenSSL() throws {
        let pkcs8 = try TestVectors.text("passkey/p256_rfc6979_pkcs8.pem")
        let key = try SigningPrivateKey(pem: pkcs8)
        guard case .p256(let p256) = key else { Issue.record("not P-256"); return }
        #expect(p256.publicKey.x.hexString == "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
        #expect(p256.rawRepresentation.withUnsafeBytes { Array($0) }.hexString == Self.p256Secret)
        #expect(String(decoding: key.pem.withUnsafeBytes { Array($0) }, as: UTF8.self) == pkcs8)
        let sec1 = try SigningPrivateKey(pem: TestVectors.text("passkey/p256_rfc6979_sec1.pem"))
        #expect(sec1.publicKey == key.publicKey)
        #expect(key.publicKey.pem == (try TestVectors.text("passkey/p256_rfc6979_spki.pem")))
        #expect(try SigningPublicKey(spkiDER: key.publicKey.spkiDER) == key.publicKey)
    }

    @Test("Ed25519 PKCS#8 written by OpenSSL reads back to RFC 8032 TEST 1; ours is byte-identical")
    func ed25519FromOpenSSL() throws {
        let pkcs8 = try TestVectors.text("passkey/ed25519_rfc8032_test1_pkcs8.pem")
        let key = try SigningPrivateKey(pem: pkcs8)
        guard case .ed25519(let ed) = key else { Issue.record("not Ed25519"); return }
        #expect(ed.publicKey.rawRepresentation.hexString == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        #expect(String(decoding: key.pem.withUnsafeBytes { Array($0) }, as: UTF8.self) == pkcs8)
        #expect(key.publicKey.pem == (try TestVectors.text("passkey/ed25519_rfc8032_test1_spki.pem")))
        #expect(try SigningPublicKey(spkiDER: key.publicKey.spkiDER) == key.publicKey)
        #expect(key.publicKey.coseKey.count == 42)
        #expect(SigningPrivateKey.p256(.generate()).publicKey.coseKey.count == 77)
    }

    @Test("Hostile or unsupported PKCS#8 gives .invalidKey without key bytes in the reason")
    func hostilePKCS8() throws {
        let good = try SigningPrivateKey(pem: TestVectors.text("passkey/p256_rfc6979_pkcs8.pem")).pkcs8DER.withUnsafeBytes { Array($0) }
        var cases: [(String, [UInt8])] = []
        cases.append(("truncated", Array(good.dropLast(5))))
        cases.append(("trailing byte", good + [0]))
        var wrongCurve = good
        wrongCurve[26] = 0x08  // last byte of prime256v1 1.2.840.10045.3.1.7 becomes .8
        cases.append(("unknown curve", wrongCurve))
        var rsa = good
        rsa.replaceSubrange(10..<17, with: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01])  // 1.2.840.113549.1 prefix
        cases.append(("unknown algorithm", rsa))
        var mismatch = good
        mismatch[mismatch.count - 1] ^= 1  // last byte of the [1] public key
        cases.append(("public key mismatch", mismatch))
        var zeroKey = good
        for index in 36..<68 { zeroKey[index] = 0 }
        cases.append(("d = 0", zeroKey))
        var longLength = good
        longLength[1] = 0x84
        cases.append(("length past the end", longLength))
        var deep: [UInt8] = [0x05, 0x00]
        for _ in 0..<40 { deep = [0x30, UInt8(deep.count)] + deep }
        cases.append(("deep nesting", deep))
        cases.append(("empty", []))
        #expect(good[36..<68].hexString == Self.p256Secret)
        for (name, bytes) in cases {
            do {
                _ = try SigningPrivateKey(pkcs8DER: bytes)
                Issue.record("\(name): accepted")
            } catch let error {
                #expect(error.code == .invalidKey, "\(name)")
                #expect(!error.description.lowercased().contains(Self.p256Secret.prefix(16)), "\(name) leaks key bytes")
            }
        }
        #expect(throws: CryptoError(.invalidKey)) { try SigningPrivateKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") }
    }

    @Test("Interop: Python cryptography verifies our ES256 and Ed25519 signatures and reads our PKCS#8; we use its keys")
    func pythonCryptographyInterop() throws {
        guard let python = InteropTools.python(withModules: ["cryptography"]) else {
            if let message = InteropTools.missing("python3 with the cryptography package (pip install cryptography)", test: "key interop") {
                Issue.record(Comment(rawValue: message))
            }
            return
        }
        // Keys made here: Python loads the private PEM, checks its public key against our SPKI,
        // and verifies signatures over several messages.
        var lines: [String] = []
        for index in 0..<6 {
            let key: SigningPrivateKey = index % 2 == 0 ? .p256(.generate()) : .ed25519(.generate())
            let message = Array("message \(index) ".utf8) + [UInt8](repeating: UInt8(index), count: index * 37)
            let pem = String(decoding: key.pem.withUnsafeBytes { Array($0) }, as: UTF8.self)
            lines.append([Base64.encode(Array(pem.utf8)), Base64.encode(key.publicKey.spkiDER), Base64.encode(message),
                          Base64.encode(key.webAuthnSignature(for: message))].joined(separator: " "))
        }
        let verify = """
        import sys, base64
        from cryptography.hazmat.primitives import serialization, hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        for line in sys.stdin.read().split("\\n"):
            if not line: continue
            pem, spki, msg, sig = (base64.b64decode(x) for x in line.split(" "))
            priv = serialization.load_pem_private_key(pem, None)
            pub = serialization.load_der_public_key(spki)
            raw = serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
            assert priv.public_key().public_bytes(*raw) == spki, "public key mismatch"
            if isinstance(pub, ec.EllipticCurvePublicKey):
                pub.verify(sig, msg, ec.ECDSA(hashes.SHA256()))
            else:
                pub.verify(sig, msg)
            print("ok")
        """
        let result = try InteropTools.runPython(python, verify, stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.split(separator: "\n").count == 6)

        // Keys made by Python (OpenSSL): we read them, our public key matches, our signature verifies there.
        let generate = """
        from cryptography.hazmat.primitives import serialization as s
        from cryptography.hazmat.primitives.asymmetric import ec, ed25519
        import base64
        for k in [ec.generate_private_key(ec.SECP256R1()), ed25519.Ed25519PrivateKey.generate()] * 3:
            pem = k.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption())
            spki = k.public_key().public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo)
            print(base64.b64encode(pem).decode(), base64.b64encode(spki).decode())
        """
        let generated = try InteropTools.runPython(python, generate)
        #expect(generated.status == 0, "\(generated.stderrText)")
        var back: [String] = []
        for line in generated.stdoutText.split(separator: "\n") {
            let parts = line.split(separator: " ").map { try? Base64.decode($0) }
            guard parts.count == 2, let pem = parts[0], let spki = parts[1] else { Issue.record("bad line"); continue }
            let key = try SigningPrivateKey(pem: String(decoding: pem, as: UTF8.self))
            #expect(key.publicKey.spkiDER == spki)
            let message = Array("from python".utf8)
            back.append([Base64.encode(pem), Base64.encode(spki), Base64.encode(message),
                         Base64.encode(key.webAuthnSignature(for: message))].joined(separator: " "))
        }
        #expect(back.count == 6)
        let again = try InteropTools.runPython(python, verify, stdin: Array(back.joined(separator: "\n").utf8))
        #expect(again.status == 0, "\(again.stderrText)")
    }

    @Test("Mutated PKCS#8 and SPKI inputs (flips, cuts, insertions) are parsed or refused with a typed error, never a crash")
    func mutationSweep() throws {
        let seeds: [[UInt8]] = [
            try SigningPrivateKey(pem: TestVectors.text("passkey/p256_rfc6979_pkcs8.pem")).pkcs8DER.withUnsafeBytes { Array($0) },
            try SigningPrivateKey(pem: TestVectors.text("passkey/ed25519_rfc8032_test1_pkcs8.pem")).pkcs8DER.withUnsafeBytes { Array($0) },
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        var accepted = 0, refused = 0
        for round in 0..<3000 {
            var bytes = seeds[round % 2]
            for _ in 0..<(1 + next() % 3) {
                switch next() % 4 {
                case 0: bytes[next() % bytes.count] ^= UInt8(truncatingIfNeeded: 1 << (next() % 8))
                case 1: bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next())
                case 2: bytes.removeLast(next() % min(8, bytes.count))
                default: bytes.insert(UInt8(truncatingIfNeeded: next()), at: next() % bytes.count)
                }
                if bytes.isEmpty { bytes = [0x30] }
            }
            do {
                _ = try SigningPrivateKey(pkcs8DER: bytes)
                accepted += 1
            } catch {
                #expect(error.code == .invalidKey)
                refused += 1
            }
            do { _ = try SigningPublicKey(spkiDER: bytes) } catch { #expect(error.code == .invalidKey) }
        }
        #expect(accepted + refused == 3000)
        #expect(refused > 2000)
    }
}
