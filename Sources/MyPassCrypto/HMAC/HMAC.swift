import MyPassBytes

/// HMAC (RFC 2104, FIPS 198-1) over any ``HashFunction``: `HMAC<SHA256>` for the KDBX 4 header
/// and block-stream MACs, `HMAC<SHA1>` for HOTP/TOTP. Incremental through `update`/`finalize`.
///
/// Keys longer than the hash's block are hashed first; shorter ones are zero-padded (RFC 2104 §2).
/// The output is the full `H.digestByteCount` bytes; truncate it yourself where a protocol says so.
public struct HMAC<H: HashFunction>: Sendable {
    @usableFromInline var inner: H
    @usableFromInline var outer: H

    /// Keys the MAC with `key` (any length).
    public init(key: [UInt8]) {
        self = key.withUnsafeBytes { Self(keyBuffer: $0) }
    }

    /// Keys the MAC with a secret held in a wiping buffer (any length).
    public init(key: SecureBytes) {
        self = key.withUnsafeBytes { Self(keyBuffer: $0) }
    }

    init(keyBuffer: UnsafeRawBufferPointer) {
        let blockByteCount = H.blockByteCount
        var block = [UInt8](repeating: 0, count: blockByteCount)
        defer { wipe(&block) }
        if keyBuffer.count > blockByteCount {
            var keyHash = H()
            keyHash.update(keyBuffer)
            var digest = keyHash.finalize()
            for i in 0..<digest.count { block[i] = digest[i] }
            wipe(&digest)
        } else if keyBuffer.count > 0 {
            block.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: keyBuffer.baseAddress!, byteCount: keyBuffer.count) }
        }
        for i in 0..<blockByteCount { block[i] ^= 0x36 }
        inner = H()
        inner.update(block)
        for i in 0..<blockByteCount { block[i] ^= 0x36 ^ 0x5c }
        outer = H()
        outer.update(block)
    }

    /// Absorbs `bytes` (any length).
    @inlinable
    public mutating func update(_ bytes: [UInt8]) {
        inner.update(bytes)
    }

    /// Absorbs `bytes` (any length); the slice need not start at index 0.
    @inlinable
    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        inner.update(bytes)
    }

    /// Absorbs the bytes of `buffer` (any length).
    @inlinable
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        inner.update(buffer)
    }

    /// Returns the `H.digestByteCount`-byte tag. The value must not be used again afterwards.
    public mutating func finalize() -> [UInt8] {
        var innerDigest = inner.finalize()
        outer.update(innerDigest)
        wipe(&innerDigest)
        return outer.finalize()
    }

    /// The full-length tag of `message` under `key`, in one call.
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var mac = Self(key: key)
        mac.update(message)
        return mac.finalize()
    }
}
