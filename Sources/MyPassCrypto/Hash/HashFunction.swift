/// A cryptographic hash with the Merkle–Damgård shape that HMAC needs: a fixed digest and block
/// size, incremental `update`, and a one-way `finalize`.
///
/// Conforming types: ``SHA1`` (FIPS 180-4 §6.1), ``SHA256`` (§6.2) and ``SHA512`` (§6.4).
public protocol HashFunction: Sendable {
    /// The digest length in bytes (SHA-1: 20, SHA-256: 32, SHA-512: 64).
    static var digestByteCount: Int { get }
    /// The compression block length in bytes (SHA-1 and SHA-256: 64, SHA-512: 128).
    static var blockByteCount: Int { get }
    /// A fresh state for hashing one message.
    init()
    /// Absorbs `buffer`; may be called any number of times with chunks of any length.
    mutating func update(_ buffer: UnsafeRawBufferPointer)
    /// Pads the message, returns the `digestByteCount`-byte digest and wipes the working state.
    /// The value must not be updated or finalized again afterwards.
    mutating func finalize() -> [UInt8]
}

extension HashFunction {
    /// Absorbs `bytes` (any length).
    @inlinable
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Absorbs `bytes` (any length); the slice need not start at index 0.
    @inlinable
    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of `bytes` in one call (`digestByteCount` bytes).
    @inlinable
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes` in one call (`digestByteCount` bytes); the slice need not start at 0.
    @inlinable
    public static func hash(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
