import MyPassBytes

extension SSHPrivateKey {
    /// What a key file is, before any passphrase: its PEM label and whether it is encrypted.
    public struct FileKind: Sendable, Equatable {
        /// The PEM label (`OPENSSH PRIVATE KEY`, `PRIVATE KEY`, `RSA PRIVATE KEY`, `EC PRIVATE KEY`).
        public var label: String
        /// Whether opening it needs a passphrase.
        public var isEncrypted: Bool
    }

    /// The PEM labels this type reads.
    static let labels = ["OPENSSH PRIVATE KEY", "PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"]

    /// The kind of key file `file` holds (UTF-8 text), without decrypting anything.
    /// - Throws: `CryptoError.invalidKey` when it is not a key file read here (with the reason:
    ///   no PEM key, an encrypted PEM form, too large).
    public static func kind(ofFile file: [UInt8]) throws(CryptoError) -> FileKind {
        guard file.count <= maxFileBytes else { throw CryptoError(.invalidKey, "key file larger than \(maxFileBytes) bytes") }
        for label in labels where PEM.find(Array("-----BEGIN \(label)-----".utf8), in: file, from: 0) != nil {
            if PEM.find(Array("Proc-Type:".utf8), in: file, from: 0) != nil {
                throw CryptoError(.invalidKey, "encrypted PEM (Proc-Type: 4,ENCRYPTED) is not read; convert the key with 'ssh-keygen -p -f FILE'")
            }
            guard label == "OPENSSH PRIVATE KEY" else { return FileKind(label: label, isEncrypted: false) }
            var der = try pem(file, label: label)
            defer { wipe(&der) }
            let header = try OpenSSHHeader(der)
            return FileKind(label: label, isEncrypted: header.cipher != "none")
        }
        if PEM.find(Array("-----BEGIN ENCRYPTED PRIVATE KEY-----".utf8), in: file, from: 0) != nil {
            throw CryptoError(.invalidKey, "encrypted PKCS#8 is not read; convert the key with 'ssh-keygen -p -f FILE'")
        }
        throw CryptoError(.invalidKey, "not an OpenSSH, PKCS#8, PKCS#1 or SEC 1 private key")
    }

    /// Opens a key file (UTF-8 text; see the type's documentation for the forms).
    /// - Parameters:
    ///   - file: the file's bytes (at most ``maxFileBytes``).
    ///   - passphrase: the passphrase's UTF-8 bytes for an encrypted OpenSSH key (the caller wipes them).
    /// - Returns: the key and the comment the file holds (empty for the PEM forms, which have none).
    /// - Throws: `CryptoError.wrongPassphrase` when an encrypted key does not open with
    ///   `passphrase` or none was given; `.invalidKey` for anything malformed or unsupported (the
    ///   reason says which); `.invalidParameter` for KDF rounds over ``BcryptPBKDF/maxRounds``.
    public static func read(file: [UInt8], passphrase: [UInt8]?) throws(CryptoError) -> (key: SSHPrivateKey, comment: String) {
        let kind = try kind(ofFile: file)
        var der = try pem(file, label: kind.label)
        defer { wipe(&der) }
        switch kind.label {
        case "OPENSSH PRIVATE KEY":
            return try readOpenSSH(der, passphrase: passphrase)
        case "RSA PRIVATE KEY":
            return (.rsa(try RSA.PrivateKey(pkcs1DER: der)), "")
        case "EC PRIVATE KEY":
            return (try fromSigningKey(SigningPrivateKey(sec1DER: der)), "")
        default:
            return (try readPKCS8(der), "")
        }
    }

    /// A PKCS#8 key of any of the three algorithms, by its algorithm identifier.
    static func readPKCS8(_ der: [UInt8]) throws(CryptoError) -> SSHPrivateKey {
        do {
            return try fromSigningKey(SigningPrivateKey(pkcs8DER: der))
        } catch where error.reason == "unsupported key algorithm" {
            return .rsa(try RSA.PrivateKey(pkcs8DER: der))
        }
    }

    static func fromSigningKey(_ key: SigningPrivateKey) -> SSHPrivateKey {
        switch key {
        case .ed25519(let key): return .ed25519(key)
        case .p256(let key): return .ecdsaP256(key)
        }
    }

    static func pem(_ file: [UInt8], label: String) throws(CryptoError) -> [UInt8] {
        do { return try PEM.decode(utf8: file, label: label) } catch { throw CryptoError(.invalidKey, "PEM: \(error)") }
    }

    // MARK: - OpenSSH's format (PROTOCOL.key)

    /// The fields before the private section.
    struct OpenSSHHeader {
        var cipher: String
        var kdf: String
        var salt: [UInt8] = []
        var rounds: UInt32 = 0
        var publicKey: ArraySlice<UInt8>
        var privateSection: ArraySlice<UInt8>

        /// Reads "openssh-key-v1\0", cipher, KDF and its options, one public key and the
        /// private section.
        init(_ der: [UInt8]) throws(CryptoError) {
            let format = "OpenSSH key"
            let magic = Array("openssh-key-v1".utf8) + [0]
            guard der.starts(with: magic) else { throw CryptoError(.invalidKey, "\(format): no openssh-key-v1 header") }
            var reader = SSHWireReader(der[magic.count...])
            cipher = String(decoding: try wire(format, reader.readString()), as: UTF8.self)
            kdf = String(decoding: try wire(format, reader.readString()), as: UTF8.self)
            var options = SSHWireReader(try wire(format, reader.readString()))
            switch (cipher, kdf) {
            case ("none", "none"):
                try wire(format, options.finish())
            case (_, "bcrypt"):
                guard cipher == "aes256-ctr" || cipher == "aes256-cbc" else {
                    throw CryptoError(.invalidKey, "\(format): cipher \(cipher.prefix(40)) is not supported; re-encrypt with 'ssh-keygen -p -Z aes256-ctr -f FILE'")
                }
                salt = Array(try wire(format, options.readString()))
                rounds = try wire(format, options.readUInt32())
                try wire(format, options.finish())
            default:
                throw CryptoError(.invalidKey, "\(format): cipher \(cipher.prefix(40)) with KDF \(kdf.prefix(40)) is not supported")
            }
            guard try wire(format, reader.readUInt32()) == 1 else {
                throw CryptoError(.invalidKey, "\(format): files with more than one key are not supported")
            }
            publicKey = try wire(format, reader.readString())
            privateSection = try wire(format, reader.readString())
            try wire(format, reader.finish())
        }
    }

    static func readOpenSSH(_ der: [UInt8], passphrase: [UInt8]?) throws(CryptoError) -> (key: SSHPrivateKey, comment: String) {
        let format = "OpenSSH key"
        let header = try OpenSSHHeader(der)
        let blockSize = header.cipher == "none" ? 8 : 16
        guard !header.privateSection.isEmpty, header.privateSection.count % blockSize == 0 else {
            throw CryptoError(.invalidKey, "\(format): private section of \(header.privateSection.count) bytes is not a whole number of \(blockSize)-byte blocks")
        }
        var plain = Array(header.privateSection)
        defer { wipe(&plain) }
        if header.cipher != "none" {
            guard let passphrase, !passphrase.isEmpty else { throw CryptoError(.wrongPassphrase, "the key is encrypted: a passphrase is needed") }
            var material = try BcryptPBKDF.deriveKey(password: passphrase, salt: header.salt, rounds: header.rounds, keyByteCount: 48)
            defer { wipe(&material) }
            let key = Array(material[0..<32]), iv = Array(material[32..<48])
            var keyCopy = key
            defer { wipe(&keyCopy) }
            if header.cipher == "aes256-ctr" {
                var context = try AES256CTR(key: keyCopy, counter: iv)
                context.apply(&plain)
            } else {
                try decryptCBC(&plain, key: keyCopy, iv: iv)
            }
        }
        var reader = SSHWireReader(plain)
        let check1 = try wire(format, reader.readUInt32())
        let check2 = try wire(format, reader.readUInt32())
        guard check1 == check2 else {
            if header.cipher != "none" { throw CryptoError(.wrongPassphrase, "the passphrase does not open the key") }
            throw CryptoError(.invalidKey, "\(format): check words differ")
        }
        let key = try readPrivateFields(&reader, format: format)
        let comment = try wire(format, reader.readString())
        // Padding 1, 2, 3, ... up to the block size.
        var expected: UInt8 = 1
        while !reader.isAtEnd {
            guard try wire(format, reader.readByte()) == expected, expected < UInt8(blockSize) else {
                throw CryptoError(.invalidKey, "\(format): bad padding after the private key")
            }
            expected += 1
        }
        guard key.publicKeyBlob.elementsEqual(header.publicKey) else {
            throw CryptoError(.invalidKey, "\(format): the public key does not match the private key")
        }
        return (key, String(decoding: comment, as: UTF8.self))
    }

    /// AES-256-CBC decryption in place of whole blocks, no padding (OpenSSH pads itself).
    static func decryptCBC(_ data: inout [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) {
        let cipher = try AES256(key: key)
        var previous = iv
        var block = [UInt8](repeating: 0, count: 16)
        defer {
            wipe(&block)
            wipe(&previous)
        }
        var offset = 0
        while offset < data.count {
            for i in 0..<16 { block[i] = data[offset + i] }
            var plain = cipher.decrypt(block: block)
            for i in 0..<16 { data[offset + i] = plain[i] ^ previous[i] }
            wipe(&plain)
            previous = block
            offset += 16
        }
    }
}
