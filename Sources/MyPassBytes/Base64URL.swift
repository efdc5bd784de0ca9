/// Base64url without padding (RFC 4648 §5), as WebAuthn (W3C Web Authentication §3) and
/// KeePassXC's passkey fields use it for credential ids and user handles.
public enum Base64URL {
    /// Encodes `bytes` with the URL-safe alphabet (`-`, `_`) and no `=` padding.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out = [UInt8]()
        for character in Base64.encode(bytes).utf8 {
            switch character {
            case UInt8(ascii: "+"): out.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: out.append(character)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url text; trailing `=` padding is tolerated, white space and the standard
    /// alphabet's `+` and `/` are not.
    /// - Throws: ``BytesError`` `.invalidEncoding` at the offset of the first bad character, or for
    ///   a length that leaves a dangling character.
    public static func decode(_ text: some StringProtocol) throws(BytesError) -> [UInt8] {
        var mapped = [UInt8]()
        var sawPadding = false
        for (offset, character) in text.utf8.enumerated() {
            switch character {
            case UInt8(ascii: "-"): mapped.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): mapped.append(UInt8(ascii: "/"))
            case UInt8(ascii: "="): sawPadding = true; mapped.append(character)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard !sawPadding else { throw BytesError(.invalidEncoding, offset: offset) }
                mapped.append(character)
            default:
                throw BytesError(.invalidEncoding, offset: offset)
            }
        }
        return try Base64.decode(utf8: mapped)
    }
}
