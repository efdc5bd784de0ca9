import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing

/// The SSH key files of `Vectors/ssh/keys/` (written by ssh-keygen and OpenSSL) against what
/// ssh-keygen said of them (`Vectors/ssh/fingerprints.txt`, `*.pub`).
@Suite("SSH private keys")
struct SSHKeyTests {
    static let passphrases = [
        "ed25519-encrypted": "ed25519-passphrase", "ecdsa-encrypted": "ecdsa-passphrase",
        "rsa-3072-encrypted": "rsa-3072-passphrase", "rsa-4096-encrypted": "rsa-4096-passphrase",
        "ed25519-cbc": "cbc-passphrase",
    ]

    /// name → (bits, fingerprint, comment, type) as `ssh-keygen -l -E sha256` printed them.
    static let fingerprints: [String: (bits: Int, fingerprint: String, comment: String, type: String)] = {
        guard let text = try? TestVectors.text("ssh/fingerprints.txt") else { return [:] }
        var result: [String: (Int, String, String, String)] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            result[parts[0]] = (Int(parts[1])!, parts[2], parts[3], String(parts[4].dropFirst().dropLast()))
        }
        return result
    }()

    static var names: [String] { fingerprints.keys.sorted() }

    @Test("fourteen key files: each opens, and its public key, size, fingerprint and comment are ssh-keygen's", arguments: names)
    func keyFile(_ name: String) throws {
        let expected = try #require(Self.fingerprints[name])
        let file = try TestVectors.bytes("ssh/keys/" + name)
        let passphrase = Self.passphrases[name].map { Array($0.utf8) }
        #expect(try SSHPrivateKey.kind(ofFile: file).isEncrypted == (passphrase != nil))
        let (key, comment) = try SSHPrivateKey.read(file: file, passphrase: passphrase)
        let publicLine = try TestVectors.text("ssh/keys/\(name).pub").split(separator: " ")
        #expect(key.keyType == String(publicLine[0]))
        #expect(key.publicKeyBlob == (try Base64.decode(publicLine[1])))
        #expect(key.bitCount == expected.bits)
        #expect(key.fingerprint == expected.fingerprint)
        #expect(SSHPrivateKey.describe(publicKeyBlob: key.publicKeyBlob)?.type == expected.type)
        #expect(SSHPrivateKey.describe(publicKeyBlob: key.publicKeyBlob)?.bits == expected.bits)
        // OpenSSH's format carries the comment; the PEM forms have none.
        let isOpenSSH = try SSHPrivateKey.kind(ofFile: file).label == "OPENSSH PRIVATE KEY"
        #expect(comment == (isOpenSSH ? expected.comment : ""))
        #expect(!key.description.contains("PRIVATE"))

        // The agent's identity form reads back to the same key and comment.
        let identity = key.agentIdentity(comment: "a comment")
        let (again, againComment) = try SSHPrivateKey.read(agentIdentity: identity)
        #expect(again.publicKeyBlob == key.publicKeyBlob)
        #expect(againComment == "a comment")

        // A signature in SSH's form that the key's own verifier accepts.
        let data = Array("to be signed by \(name)".utf8)
        let signature = try key.signature(for: data, flags: SSHPrivateKey.rsaSHA512Flag)
        var reader = SSHWireReader(signature)
        let algorithm = String(decoding: try reader.readString(), as: UTF8.self)
        let blob = Array(try reader.readString())
        try reader.finish()
        switch key {
        case .ed25519(let signing):
            #expect(algorithm == "ssh-ed25519")
            #expect(signing.publicKey.isValidSignature(blob, for: data))
        case .ecdsaP256(let signing):
            #expect(algorithm == "ecdsa-sha2-nistp256")
            var inner = SSHWireReader(blob)
            let r = Array(try inner.readPositiveMPInt()), s = Array(try inner.readPositiveMPInt())
            let raw = [UInt8](repeating: 0, count: 32 - r.count) + r + [UInt8](repeating: 0, count: 32 - s.count) + s
            #expect(signing.publicKey.isValidSignature(try P256.Signature(rawRepresentation: raw), for: data))
        case .rsa(let signing):
            #expect(algorithm == "rsa-sha2-512")
            #expect(signing.publicKey.isValidSignature(blob, for: data, digest: .sha512))
            let sha256 = try key.signature(for: data, flags: SSHPrivateKey.rsaSHA256Flag | SSHPrivateKey.rsaSHA512Flag)
            #expect(sha256.starts(with: [0, 0, 0, 12] + Array("rsa-sha2-256".utf8)))
            #expect(throws: CryptoError(.invalidParameter)) { try key.signature(for: data, flags: 0) }
        }
    }

    @Test("encrypted keys: a wrong or missing passphrase is wrongPassphrase, never a crash or a key")
    func passphrases() throws {
        for (name, passphrase) in Self.passphrases {
            let file = try TestVectors.bytes("ssh/keys/" + name)
            #expect(throws: CryptoError(.wrongPassphrase), "\(name)") { try SSHPrivateKey.read(file: file, passphrase: nil) }
            #expect(throws: CryptoError(.wrongPassphrase), "\(name)") { try SSHPrivateKey.read(file: file, passphrase: Array((passphrase + "x").utf8)) }
        }
    }

    @Test("malformed files are typed errors: truncated, bit-flipped, other PEM, encrypted PEM, foreign ciphers")
    func malformed() throws {
        let file = try TestVectors.bytes("ssh/keys/ed25519")
        #expect(throws: CryptoError(.invalidKey)) { try SSHPrivateKey.read(file: Array("hello".utf8), passphrase: nil) }
        #expect(throws: CryptoError(.invalidKey)) { try SSHPrivateKey.read(file: Array(file.prefix(200)), passphrase: nil) }
        #expect(throws: CryptoError(.invalidKey)) {
            try SSHPrivateKey.read(file: Array("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAAA\n-----END RSA PRIVATE KEY-----\n".utf8), passphrase: nil)
        }
        #expect(throws: CryptoError(.invalidKey)) {
            try SSHPrivateKey.read(file: Array("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n".utf8), passphrase: nil)
        }
        // Every single-byte change either fails typed or changes only the comment (the one part
        // nothing checks; the padding is checked).
        let der = try PEM.decode(utf8: file, label: "OPENSSH PRIVATE KEY")
        let original = try SSHPrivateKey.read(file: file, passphrase: nil)
        for index in stride(from: 0, to: der.count, by: 3) {
            var flipped = der
            flipped[index] ^= 0x40
            let text = Array(PEM.encode(flipped, label: "OPENSSH PRIVATE KEY").utf8)
            do {
                let read = try SSHPrivateKey.read(file: text, passphrase: nil)
                #expect(read.key.publicKeyBlob == original.key.publicKeyBlob && read.comment != original.comment, "byte \(index)")
            } catch {
                #expect(error.code == .invalidKey || error.code == .wrongPassphrase, "byte \(index): \(error)")
            }
        }
        // A foreign cipher is named.
        var chacha = der
        let name = Array("aes256-ctr".utf8)
        if let at = PEM.find(name, in: try PEM.decode(utf8: TestVectors.bytes("ssh/keys/ed25519-encrypted"), label: "OPENSSH PRIVATE KEY"), from: 0) {
            chacha = try PEM.decode(utf8: TestVectors.bytes("ssh/keys/ed25519-encrypted"), label: "OPENSSH PRIVATE KEY")
            for (i, byte) in Array("aes128-ctr".utf8).enumerated() { chacha[at + i] = byte }
            do {
                _ = try SSHPrivateKey.read(file: Array(PEM.encode(chacha, label: "OPENSSH PRIVATE KEY").utf8), passphrase: Array("x".utf8))
                Issue.record("aes128-ctr read")
            } catch {
                #expect(error.reason.contains("aes128-ctr is not supported"))
            }
        }
    }
}
