extension Inflater {
    /// The order in which code length code lengths are stored (RFC 1951 §3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Reads a dynamic block header (RFC 1951 §3.2.7) and builds its literal/length and distance
    /// tables.
    /// - Returns: `nil` when the input ends inside the header (the caller rolls back and waits),
    ///   `.some(nil)` on success, `.some(error)` for an invalid header.
    mutating func readDynamicHeader(_ c: inout BitCursor) -> CompressionError?? {
        func failure(_ code: CompressionError.Code, _ reason: String) -> CompressionError?? {
            .some(CompressionError(code, reason, offset: inputOffset + c.consumedBytes))
        }
        guard c.need(14) else { return nil }
        let litLenCount = Int(c.take(5)) + 257
        let distanceCount = Int(c.take(5)) + 1
        let codeLengthCount = Int(c.take(4)) + 4
        if litLenCount > 286 { return failure(.invalidCodeLengths, "HLIT \(litLenCount) > 286") }
        if distanceCount > 30 { return failure(.invalidCodeLengths, "HDIST \(distanceCount) > 30") }
        var codeLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount {
            guard c.need(3) else { return nil }
            codeLengths[Self.codeLengthOrder[i]] = UInt8(c.take(3))
        }
        guard HuffmanTable.build(
            lengths: codeLengths[...], templates: HuffmanTable.codeLengthTemplates,
            rootBits: HuffmanTable.codeLengthRootBits, use: .codeLengths, into: &codeLengthTable)
        else { return failure(.invalidHuffmanTree, "code length code is over-subscribed or incomplete") }

        let total = litLenCount + distanceCount
        var i = 0
        while i < total {
            c.refillSlowly()
            let e = codeLengthTable[Int(c.peek(HuffmanTable.codeLengthRootBits))]
            let length = Int(e & 15)
            let symbol = Int(e >> 16)
            let extra = symbol == 16 ? 2 : symbol == 17 ? 3 : symbol == 18 ? 7 : 0
            guard c.count >= length + extra else { return nil }
            c.consume(length)
            if symbol < 16 {
                lengths[i] = UInt8(symbol)
                i += 1
                continue
            }
            let repeated: UInt8
            let times: Int
            switch symbol {
            case 16:
                if i == 0 { return failure(.invalidCodeLengths, "repeat code 16 with no previous length") }
                repeated = lengths[i - 1]
                times = 3 + Int(c.take(2))
            case 17:
                repeated = 0
                times = 3 + Int(c.take(3))
            default:
                repeated = 0
                times = 11 + Int(c.take(7))
            }
            if i + times > total { return failure(.invalidCodeLengths, "repeat runs past the last code length") }
            for k in i..<(i + times) { lengths[k] = repeated }
            i += times
        }
        if lengths[256] == 0 { return failure(.invalidCodeLengths, "no code for end-of-block (256)") }
        guard HuffmanTable.build(
            lengths: lengths[0..<litLenCount], templates: HuffmanTable.litLenTemplates,
            rootBits: HuffmanTable.litLenRootBits, use: .litLen, into: &litLenTable)
        else { return failure(.invalidHuffmanTree, "literal/length code is over-subscribed or incomplete") }
        guard HuffmanTable.build(
            lengths: lengths[litLenCount..<total], templates: HuffmanTable.distanceTemplates,
            rootBits: HuffmanTable.distanceRootBits, use: .distances, into: &distanceTable)
        else { return failure(.invalidHuffmanTree, "distance code is over-subscribed or incomplete") }
        return .some(nil)
    }
}
