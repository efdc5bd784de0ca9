/// A block or stream cipher fed in chunks, as the KDBX payload is read or written.
///
/// `update(_:)` takes input chunks of any size (including empty ones) and returns the output that is
/// complete so far; `finalize()` returns the rest and checks or adds padding. Call `finalize()`
/// exactly once, after the last `update(_:)`; the value must not be used afterwards.
public protocol StreamingCipher {
    /// Processes the next chunk; returns the output bytes that are complete so far (possibly none).
    mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8]
    /// Ends the stream: returns the remaining output.
    /// - Throws: `CryptoError` with `.invalidInputLength` or `.invalidPadding` for a bad ciphertext.
    mutating func finalize() throws(CryptoError) -> [UInt8]
}

extension StreamingCipher {
    /// Processes the next chunk given as an array.
    public mutating func update(_ input: [UInt8]) -> [UInt8] {
        update(input[...])
    }
}
