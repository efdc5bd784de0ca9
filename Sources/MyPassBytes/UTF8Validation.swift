extension String {
    /// The text of `bytes` when they are well-formed UTF-8 (Unicode 15 §3.9 D92: no overlong
    /// forms, no surrogates U+D800...U+DFFF, nothing above U+10FFFF, no truncated sequence);
    /// `nil` otherwise. A byte-order mark is kept as U+FEFF.
    ///
    /// Our own for the standard library's `String(validating:as:)`, which needs macOS 15 and
    /// iOS 18: the bytes are decoded with repair (every ill-formed sequence becomes U+FFFD) and
    /// the result is kept only when its UTF-8 equals the input byte for byte, which holds exactly
    /// when nothing was repaired. The standard library's decoder is the Unicode-conformant one
    /// on every platform, so the answer is the same on Linux, Darwin and Embedded Swift.
    ///
    /// - Complexity: O(n) in `bytes.count` (one decode, one comparison).
    public init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return nil }
        self = text
    }
}
