/// PEM armour (RFC 7468): `-----BEGIN LABEL-----`, base64 lines, `-----END LABEL-----`.
package enum PEM {
    /// The largest PEM text accepted, in bytes (a P-256 or Ed25519 key is under 300).
    public static let maxTextBytes = 64 * 1024

    /// Encodes `der` under `label` ("PRIVATE KEY", "PUBLIC KEY") with 64-character lines and a
    /// final newline (RFC 7468 §2, the strict form).
    public static func encode<C: Collection>(_ der: C, label: String) -> String where C.Element == UInt8 {
        let body = Array(Base64.encode(der).utf8)
        var out = "-----BEGIN \(label)-----\n"
        var start = 0
        while start < body.count {
            let end = Swift.min(start + 64, body.count)
            out += String(decoding: body[start..<end], as: UTF8.self) + "\n"
            start = end
        }
        return out + "-----END \(label)-----\n"
    }

    /// Decodes the first PEM block labelled `label` (RFC 7468 §3, lax form: white space and
    /// line breaks inside the body are ignored, text before the BEGIN line is skipped).
    /// - Returns: the DER bytes.
    /// - Throws: ``BytesError`` `.invalidLength` past ``maxTextBytes``, `.invalidValue` (offset of
    ///   the problem) when the BEGIN or END line for `label` is missing, `.invalidEncoding` for bad base64.
    public static func decode(_ text: some StringProtocol, label: String) throws(BytesError) -> [UInt8] {
        try decode(utf8: Array(text.utf8), label: label)
    }

    /// Decodes PEM from its UTF-8 bytes (see ``decode(_:label:)``); the scratch copies it makes
    /// are wiped, so a private key can go from a wiping buffer to DER without a `String`.
    public static func decode<C: Collection>(utf8 text: C, label: String) throws(BytesError) -> [UInt8]
    where C.Element == UInt8 {
        guard text.count <= maxTextBytes else { throw BytesError(.invalidLength, offset: maxTextBytes) }
        var utf8 = Array(text)
        defer { wipe(&utf8) }
        let begin = Array("-----BEGIN \(label)-----".utf8)
        let end = Array("-----END \(label)-----".utf8)
        guard let beginAt = find(begin, in: utf8, from: 0) else { throw BytesError(.invalidValue, offset: 0) }
        let bodyStart = beginAt + begin.count
        guard let endAt = find(end, in: utf8, from: bodyStart) else {
            throw BytesError(.invalidValue, offset: bodyStart)
        }
        // A dash inside the body means another boundary line: not one block.
        if let dash = utf8[bodyStart..<endAt].firstIndex(of: UInt8(ascii: "-")) {
            throw BytesError(.invalidEncoding, offset: dash)
        }
        var body = Array(utf8[bodyStart..<endAt])
        defer { wipe(&body) }
        do {
            return try Base64.decode(utf8: body)
        } catch {
            throw BytesError(error.code, offset: bodyStart + error.offset)
        }
    }

    /// The index of the first occurrence of `needle` in `haystack` at or after `start`.
    public static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
