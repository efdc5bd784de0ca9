/// Returns `text` without the characters XML 1.0 §2.2 forbids (U+0000-U+0008, U+000B, U+000C,
/// U+000E-U+001F, U+FFFE, U+FFFF), which is what `XMLWriter` drops when writing. Swift strings
/// cannot hold lone surrogates, so those cannot occur.
public func xmlSanitized(_ text: String) -> String {
    let isClean = text.unicodeScalars.allSatisfy { isXMLChar($0.value) }
    if isClean { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where isXMLChar(scalar.value) { scalars.append(scalar) }
    return String(scalars)
}
