import MyPassBytes
import MyPassCrypto

/// The inner random stream that masks protected values, in document order (KeePassLib
/// `Cryptography/CryptoRandomStream.cs`):
/// - Salsa20: key SHA-256(streamKey), nonce `E8 30 09 4B 97 20 5D 2A`;
/// - ChaCha20: h = SHA-512(streamKey), key h[0..<32], nonce h[32..<44];
/// - none: values are stored unmasked.
/// ArcFourVariant is refused.
package struct InnerRandomStream: ProtectedValueStream {
    private enum Engine {
        case none
        case salsa20(Salsa20)
        case chacha20(ChaCha20)
    }

    /// Salsa20's fixed nonce.
    public static let salsa20Nonce: [UInt8] = [0xE8, 0x30, 0x09, 0x4B, 0x97, 0x20, 0x5D, 0x2A]

    private var engine: Engine
    /// The algorithm of this stream.
    public let algorithm: InnerStreamAlgorithm

    /// A stream for `algorithm` keyed with `key` (3.x header field 8, 4.x inner header field 2).
    /// - Throws: ``KDBXError`` `.unsupported` for ArcFourVariant, `.corruptedFile` for an empty key.
    public init(algorithm: InnerStreamAlgorithm, key: [UInt8]) throws(KDBXError) {
        self.algorithm = algorithm
        switch algorithm {
        case .none:
            engine = .none
        case .arcFourVariant:
            throw KDBXError(.unsupported, "the ArcFourVariant inner random stream is not supported")
        case .salsa20:
            guard !key.isEmpty else { throw KDBXError(.corruptedFile, "empty inner random stream key") }
            var derived = SHA256.hash(key)
            defer { wipe(&derived) }
            do { engine = .salsa20(try Salsa20(key: derived, nonce: Self.salsa20Nonce)) } catch {
                throw KDBXError(.corruptedFile, "inner random stream key rejected")
            }
        case .chacha20:
            guard !key.isEmpty else { throw KDBXError(.corruptedFile, "empty inner random stream key") }
            var derived = SHA512.hash(key)
            defer { wipe(&derived) }
            do { engine = .chacha20(try ChaCha20(key: Array(derived[0..<32]), nonce: Array(derived[32..<44]))) } catch {
                throw KDBXError(.corruptedFile, "inner random stream key rejected")
            }
        }
    }

    /// XORs the next `bytes.count` keystream bytes into `bytes` (no-op for `.none`).
    public mutating func apply(to bytes: inout [UInt8]) {
        switch engine {
        case .none:
            return
        case .salsa20(var cipher):
            engine = .none
            cipher.apply(to: &bytes)
            engine = .salsa20(cipher)
        case .chacha20(var cipher):
            engine = .none
            cipher.apply(to: &bytes)
            engine = .chacha20(cipher)
        }
    }
}
