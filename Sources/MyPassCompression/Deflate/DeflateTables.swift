/// Static tables of the DEFLATE alphabets (RFC 1951 §3.2.5), in zlib's layout: lengths and
/// distances are stored minus their minimum (length − 3, distance − 1).
enum DeflateTables {
    static let minMatch = 3
    static let maxMatch = 258
    static let literals = 256
    static let litLenCodes = 286
    static let distanceCodes = 30
    static let codeLengthCodes = 19
    static let endOfBlock = 256

    static let extraLengthBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let extraDistanceBits: [UInt8] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let extraCodeLengthBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7]
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Length − 3 of the first length of each length code.
    static let baseLength: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 29)
        var length = 0
        for code in 0..<28 {
            t[code] = UInt16(length)
            length += 1 << Int(extraLengthBits[code])
        }
        t[28] = 255
        return t
    }()

    /// Length code (0...28) of each length − 3 (0...255).
    static let lengthCode: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        for code in 0..<28 {
            let base = Int(baseLength[code])
            for k in 0..<(1 << Int(extraLengthBits[code])) where base + k < 256 { t[base + k] = UInt8(code) }
        }
        t[255] = 28
        return t
    }()

    /// Distance − 1 of the first distance of each distance code.
    static let baseDistance: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 30)
        var dist = 0
        for code in 0..<30 {
            t[code] = UInt16(dist)
            dist += 1 << Int(extraDistanceBits[code])
        }
        return t
    }()

    /// zlib's `_dist_code`: entries 0...255 give the code of distance − 1 below 256, entries
    /// 256...511 the code of (distance − 1) >> 7.
    static let distanceCode: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 512)
        for code in 0..<30 {
            let base = Int(baseDistance[code])
            for k in 0..<(1 << Int(extraDistanceBits[code])) {
                let d = base + k
                if d < 256 { t[d] = UInt8(code) } else { t[256 + (d >> 7)] = UInt8(code) }
            }
        }
        return t
    }()

    /// The fixed literal/length code lengths (RFC 1951 §3.2.6), 288 symbols.
    static let fixedLitLenLengths: [UInt8] = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }

    /// Per length code: base (length − 3) in bits 0...15, extra bit count in bits 16...
    static let lengthSymbols: [UInt32] = (0..<29).map { UInt32(baseLength[$0]) | UInt32(extraLengthBits[$0]) << 16 }

    /// Per distance code: base (distance − 1) in bits 0...15, extra bit count in bits 16...
    static let distanceSymbols: [UInt32] = (0..<30).map { UInt32(baseDistance[$0]) | UInt32(extraDistanceBits[$0]) << 16 }
}
