import MyPassBytes
import MyPassCompression
import MyPassCrypto
import MyPassKDBX

/// The full open with a known key. A payload that is not encrypted and authenticated with the key
/// only reaches the HMAC check, so the harness does the encryption: the first byte picks a mode
/// (its value mod 4), the rest is
/// - 0: a whole file, opened with the known key's transformed key (header, HMAC and block checks);
/// - 1: the plaintext of a KDBX 4 payload (inner header, then the XML body), which the harness
///   encrypts (ChaCha20) and frames in HMAC blocks behind a fixed header without compression;
/// - 2: the same, gzip-compressed by the harness behind a header that says gzip;
/// - 3: a KDBX 3.1 XML body, which the harness frames in hashed blocks behind the stream start
///   bytes and encrypts (AES-256-CBC) behind a fixed 3.1 header.
/// The KDF ran once, when the fixed headers were made; no input can make it run again.
enum OpenHarness {
    /// A fixed header with its file, keys and the transformed key of the known key.
    struct Fixture {
        var file: [UInt8]
        var header: KDBXHeader
        var payloadOffset: Int
        var keys: MasterKeys
    }

    /// Fixtures for KDBX 4 without compression, KDBX 4 with gzip, KDBX 3.1 without compression.
    static let fixtures: [Fixture] = [
        make(VaultFormat(version: .v4_0, cipher: .chacha20, kdf: .aes(rounds: 10), compression: .none)),
        make(VaultFormat(version: .v4_0, cipher: .chacha20, kdf: .aes(rounds: 10), compression: .gzip)),
        make(VaultFormat(version: .v3_1, cipher: .aes256, kdf: .aes(rounds: 10), compression: .none,
                         innerStream: .salsa20)),
    ]

    static func make(_ format: VaultFormat) -> Fixture {
        do throws(KDBXError) {
            let key = try CompositeKey(password: ProtectedString("fuzz"), keyFileContents: nil)
            let file = try KDBXCodec.save(Vault(format: format, root: Group(name: "Root")), key: key)
            let reader = try KDBXReader(file: file)
            return Fixture(file: file, header: reader.header, payloadOffset: reader.payloadOffset,
                           keys: try reader.deriveKeys(key))
        } catch {
            preconditionFailure("the open harness cannot make its fixture: \(error)")
        }
    }

    /// The file an input stands for, and the transformed key that opens it (see the type's
    /// description); `nil` for an empty input.
    /// - Throws: `CryptoError` when the harness cannot encrypt (a bug of the harness).
    static func file(for data: [UInt8]) throws(CryptoError) -> (file: [UInt8], transformedKey: SecureBytes)? {
        guard let first = data.first else { return nil }
        let content = Array(data[1...])
        let mode = Int(first) % 4
        let file: [UInt8]
        switch mode {
        case 0: file = content
        case 1: file = try kdbx4(fixtures[0], plaintext: content)
        case 2: file = try kdbx4(fixtures[1], plaintext: Gzip.compress(content, level: 1))
        default: file = try kdbx31(fixtures[2], xml: content)
        }
        return (file, fixtures[mode == 0 ? 0 : mode - 1].keys.transformedKey)
    }

    static func run(_ data: [UInt8]) -> FuzzOutcome {
        let made: (file: [UInt8], transformedKey: SecureBytes)?
        do throws(CryptoError) { made = try file(for: data) } catch {
            return .violated("the harness cannot encrypt: \(error.code)")
        }
        guard let made else { return .rejected("empty") }
        switch fullOpen(made.file, transformedKey: made.transformedKey) {
        case .success: return .accepted
        case .failure(let error): return .rejection(of: error, code: error.code)
        }
    }

    /// The full open's model, or its error.
    static func fullOpen(_ file: [UInt8], transformedKey: SecureBytes) -> Result<Vault, KDBXError> {
        do throws(KDBXError) {
            let reader = try KDBXReader(file: file)
            let keys = try reader.keys(transformedKey: transformedKey)
            return .success(try reader.readVault(keys: keys))
        } catch {
            return .failure(error)
        }
    }

    static func kdbx4(_ fixture: Fixture, plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        var cipher = try ChaCha20(key: bytes(fixture.keys.cipherKey), nonce: fixture.header.encryptionIV)
        var ciphertext = cipher.update(plaintext)
        ciphertext += try cipher.finalize()
        return Array(fixture.file[..<fixture.payloadOffset])
            + HMACBlockStream.write(ciphertext, hmacKey: fixture.keys.hmacKey, blockByteCount: 4096)
    }

    static func kdbx31(_ fixture: Fixture, xml: [UInt8]) throws(CryptoError) -> [UInt8] {
        let plaintext = (fixture.header.streamStartBytes ?? []) + HashedBlockStream.write(xml, blockByteCount: 4096)
        var cipher = try AESCBCEncryptor(key: bytes(fixture.keys.cipherKey), iv: fixture.header.encryptionIV)
        var ciphertext = cipher.update(plaintext)
        ciphertext += try cipher.finalize()
        return Array(fixture.file[..<fixture.payloadOffset]) + ciphertext
    }

    static func bytes(_ secure: SecureBytes) -> [UInt8] { secure.withUnsafeBytes { Array($0) } }
}
