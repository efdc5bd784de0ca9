import MyPassBytes

/// Pads for ``ProtectedString`` from one ChaCha20 keystream (RFC 8439 §2.4) under a 32-byte key
/// drawn once from the operating system when the source is made: reading a vault protects every
/// value with one random draw, where ``SystemPadSource`` makes a `getrandom` call per 8 bytes of
/// pad (the AutoFill index's credential arena masks its values the same way).
///
/// Each pad is the next stretch of the keystream, so no two values share pad bytes. The cipher
/// state (key, counter and the unused rest of the current block) is overwritten when the source
/// is released: make one per vault read or import and let it go with the reader. A class, so
/// that a copy can never hand out the same keystream twice; not `Sendable` (one reader at a time).
/// The 32-bit block counter limits a source to 256 GiB of pads, far above any vault's limits.
public final class ChaCha20PadSource: PadSource {
    private var cipher: ChaCha20

    /// A source under a fresh random key.
    public init() {
        var key = SecureRandom.bytes(count: ChaCha20.keyByteCount)
        defer { wipe(&key) }
        // The key is fresh for every source, so a fixed nonce is never reused with it.
        guard let cipher = try? ChaCha20(key: key, nonce: [UInt8](repeating: 0, count: ChaCha20.nonceByteCount)) else {
            preconditionFailure("ChaCha20 takes a 32-byte key and a 12-byte nonce")
        }
        self.cipher = cipher
    }

    /// Overwrites `buffer` with the next `buffer.count` keystream bytes.
    public func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        base.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
        cipher.apply(to: buffer)
    }

    deinit {
        withUnsafeMutableBytes(of: &cipher) { secureZero($0.baseAddress!, count: $0.count) }
    }
}
