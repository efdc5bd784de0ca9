import MyPassBytes
import MyPassCrypto

/// SSH private key files as the vault holds them (KeePassXC's key attachments): the kind check,
/// then the file read, unencrypted or with no passphrase (an encrypted key is refused before its
/// KDF runs, whose cost the rounds field sets; the KDF and ciphers have their own vectors); the
/// key's public forms when it reads. Inputs that are not PEM are also tried as a raw OpenSSH
/// key body (the bytes inside the armour).
enum SSHKeyHarness {
    static func run(_ data: [UInt8]) -> FuzzOutcome {
        var file = data
        if !data.starts(with: Array("-----".utf8)) {
            file = Array(PEM.encode(data, label: "OPENSSH PRIVATE KEY").utf8)
        }
        do throws(CryptoError) {
            _ = try SSHPrivateKey.kind(ofFile: file)
            let (key, _) = try SSHPrivateKey.read(file: file, passphrase: nil)
            let blob = key.publicKeyBlob
            guard SSHPrivateKey.describe(publicKeyBlob: blob)?.bits == key.bitCount else {
                return .violated("the key's blob does not describe its own size")
            }
            let identity = key.agentIdentity(comment: "fuzz")
            guard let again = try? SSHPrivateKey.read(agentIdentity: identity), again.key.publicKeyBlob == blob else {
                return .violated("the key's add-identity form does not read back")
            }
            return .accepted
        } catch {
            return .rejected("CryptoError.\(error.code)")
        }
    }
}
