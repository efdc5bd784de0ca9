import MyPassBytes
import MyPassCrypto

/// The string storage of a ``CredentialSkim``: every kept value in one of two growing wiping
/// buffers instead of a `String` or a ``ProtectedString`` each.
///
/// - Clear values (titles, user names, URLs, tags, override URLs) go to ``text`` as UTF-8.
/// - Secret values (`Protected="True"` and `ProtectInMemory` fields: passwords, OTP secrets) go
///   to a second buffer XORed with a ChaCha20 keystream (RFC 8439 §2.4) under a key drawn once per
///   arena: one 32-byte random draw for the whole index, where a ``ProtectedString`` draws a pad
///   per value (a `getrandom` call per 8 bytes). A value's mask is the keystream at its offset, so
///   any value unmasks alone. The cipher's state lives on the stack for one call; it is not wiped
///   (the key itself is, with the buffers).
///
/// Both buffers wipe their whole capacity when they grow and when the arena goes away. Offsets and
/// lengths are `UInt32`: an arena refuses to grow past 4 GiB (``KDBXError/Code/limitExceeded``).
package struct CredentialArena: Sendable {
    /// A byte range in one of the buffers.
    package struct Range: Sendable, Equatable {
        /// Offset of the first byte.
        package var start: UInt32
        /// Length in bytes.
        package var count: UInt32
        /// The range of `count` bytes from `start`.
        package init(start: UInt32, count: UInt32) {
            self.start = start
            self.count = count
        }
        /// The empty range.
        package static let empty = Range(start: 0, count: 0)
    }

    /// Clear UTF-8 values, back to back.
    package private(set) var text = SecureBytes()
    /// Secret UTF-8 values, back to back, each XORed with the keystream at its offset.
    private var masked = SecureBytes()
    /// The ChaCha20 key of the masks (32 bytes).
    private let maskKey: SecureBytes
    /// The ChaCha20 nonce of the masks (12 bytes, not secret).
    private let maskNonce: [UInt8]

    /// An empty arena with a fresh mask key.
    package init() {
        var key = SecureRandom.bytes(count: ChaCha20.keyByteCount)
        maskKey = SecureBytes(key)
        wipe(&key)
        maskNonce = SecureRandom.bytes(count: ChaCha20.nonceByteCount)
    }

    /// Bytes held by both buffers (their capacity, what they occupy in memory).
    package var capacityBytes: Int { text.capacity + masked.capacity }

    /// The secret buffer as stored (masked), for tests that check no clear value is in it.
    package var maskedBytesForTesting: [UInt8] { masked.unsafeArray }

    /// Appends a clear value.
    /// - Throws: ``KDBXError/Code/limitExceeded`` past 4 GiB.
    package mutating func appendText(_ value: String) throws(KDBXError) -> Range {
        let count = value.utf8.count
        guard count > 0 else { return .empty }
        let start = try Self.offset(text.count, adding: count)
        text.append(contentsOf: value.utf8)
        return Range(start: start, count: UInt32(count))
    }

    /// Appends a secret value: the clear bytes are masked in place in `bytes` first, then copied
    /// (the caller still wipes its buffer).
    /// - Throws: ``KDBXError/Code/limitExceeded`` past 4 GiB.
    package mutating func appendSecret(_ bytes: inout [UInt8]) throws(KDBXError) -> Range {
        guard !bytes.isEmpty else { return .empty }
        let start = try Self.offset(masked.count, adding: bytes.count)
        bytes.withUnsafeMutableBytes { applyMask(at: Int(start), to: $0) }
        masked.append(contentsOf: bytes)
        return Range(start: start, count: UInt32(bytes.count))
    }

    /// Appends a clear `String` as a secret value (a `ProtectInMemory` field written unprotected).
    /// - Throws: ``KDBXError/Code/limitExceeded`` past 4 GiB.
    package mutating func appendSecret(_ value: String) throws(KDBXError) -> Range {
        var bytes = Array(value.utf8)
        defer { wipe(&bytes) }
        return try appendSecret(&bytes)
    }

    /// Calls `body` with the clear bytes of the text value at `range`.
    package func withText<R>(_ range: Range, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        text.withUnsafeBytes { all in
            body(UnsafeRawBufferPointer(rebasing: all[Int(range.start)..<Int(range.start) + Int(range.count)]))
        }
    }

    /// The text value at `range` as a `String`.
    package func string(_ range: Range) -> String {
        guard range.count > 0 else { return "" }
        return withText(range) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the clear bytes of the secret value at `range`, in a scratch buffer
    /// wiped afterwards.
    package func withRevealedSecret<R>(_ range: Range, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var clear = [UInt8](repeating: 0, count: Int(range.count))
        defer { wipe(&clear) }
        masked.withUnsafeBytes { all in
            for i in 0..<clear.count { clear[i] = all[Int(range.start) + i] }
        }
        clear.withUnsafeMutableBytes { applyMask(at: Int(range.start), to: $0) }
        return clear.withUnsafeBytes { body($0) }
    }

    /// XORs the keystream from byte `offset` into `buffer`.
    private func applyMask(at offset: Int, to buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count > 0 else { return }
        var key = maskKey.unsafeArray
        defer { wipe(&key) }
        // Offsets stay below 4 GiB, so the block counter (offset / 64) fits in 32 bits.
        guard var cipher = try? ChaCha20(key: key, nonce: maskNonce, counter: UInt32(offset / 64)) else {
            preconditionFailure("the mask key and nonce have ChaCha20's fixed sizes")
        }
        let skip = offset % 64
        if skip > 0 {
            var discard = [UInt8](repeating: 0, count: skip)
            cipher.apply(to: &discard)
            wipe(&discard)
        }
        cipher.apply(to: buffer)
    }

    private static func offset(_ current: Int, adding count: Int) throws(KDBXError) -> UInt32 {
        guard current <= Int(UInt32.max) - count, count <= Int(UInt32.max) else {
            throw KDBXError(.limitExceeded, "the kept credential values exceed 4 GiB")
        }
        return UInt32(current)
    }
}
