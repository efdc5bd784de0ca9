/// Table-driven decoding of canonical Huffman codes (RFC 1951 §3.2.2).
///
/// A table is a root level indexed by the next `rootBits` input bits (codes are stored bit
/// reversed, as DEFLATE packs them), plus second-level tables for longer codes, in the manner of
/// zlib's `inflate_table`. Each entry is a `UInt32`:
///
/// - bits 0...3: bits to consume (the code length; in a second-level table, the length minus the root bits)
/// - bits 4...7: extra bits that follow the symbol, or, for a link, the index bits of the second level
/// - bits 8...10: ``Kind``
/// - bits 16...31: the literal byte, the base length or distance, or the offset of the second level
enum HuffmanTable {
    enum Kind {
        static let literal: UInt32 = 0
        static let base: UInt32 = 1      // length or distance: base + extra bits
        static let endOfBlock: UInt32 = 2
        static let link: UInt32 = 3
        static let reservedSymbol: UInt32 = 4  // literal/length 286, 287; distance 30, 31
        static let unused: UInt32 = 5    // no code maps here (incomplete code)
    }

    static let litLenRootBits = 10
    static let distanceRootBits = 8
    static let codeLengthRootBits = 7

    static let unusedEntry: UInt32 = Kind.unused << 8

    /// Templates (entry without the length bits) for the literal/length alphabet, 288 symbols.
    static let litLenTemplates: [UInt32] = {
        let bases: [UInt32] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                               67, 83, 99, 115, 131, 163, 195, 227, 258]
        let extras: [UInt32] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                4, 4, 4, 4, 5, 5, 5, 5, 0]
        var t = [UInt32]()
        for s in 0..<256 { t.append(UInt32(s) << 16 | Kind.literal << 8) }
        t.append(Kind.endOfBlock << 8)
        for i in 0..<29 { t.append(bases[i] << 16 | Kind.base << 8 | extras[i] << 4) }
        t.append(Kind.reservedSymbol << 8)
        t.append(Kind.reservedSymbol << 8)
        return t
    }()

    /// Templates for the distance alphabet, 32 symbols.
    static let distanceTemplates: [UInt32] = {
        var t = [UInt32]()
        var base: UInt32 = 1
        for code in 0..<30 {
            let extra: UInt32 = code < 4 ? 0 : UInt32(code / 2 - 1)
            t.append(base << 16 | Kind.base << 8 | extra << 4)
            base += 1 << extra
        }
        t.append(Kind.reservedSymbol << 8)
        t.append(Kind.reservedSymbol << 8)
        return t
    }()

    /// Templates for the code length alphabet, 19 symbols (the symbol itself as a literal).
    static let codeLengthTemplates: [UInt32] = (0..<19).map { UInt32($0) << 16 | Kind.literal << 8 }

    enum Use { case codeLengths, litLen, distances }

    /// Builds a decoding table into `table` (its old contents are discarded, its capacity reused).
    ///
    /// - Parameters:
    ///   - lengths: code length of each symbol, 0...15 (0: the symbol has no code).
    ///   - templates: per-symbol entry templates (at least `lengths.count`).
    /// - Returns: false for an over-subscribed code, or an incomplete one where RFC 1951 does not
    ///   allow it (only a single code of one bit may leave the code incomplete, as zlib accepts; a
    ///   distance code may be empty).
    static func build(
        lengths: ArraySlice<UInt8>, templates: [UInt32], rootBits: Int, use: Use, into table: inout [UInt32]
    ) -> Bool {
        var count = [Int](repeating: 0, count: 16)
        for l in lengths { count[Int(l)] += 1 }
        var maxLength = 15
        while maxLength > 0 && count[maxLength] == 0 { maxLength -= 1 }
        table.removeAll(keepingCapacity: true)
        table.append(contentsOf: repeatElement(unusedEntry, count: 1 << rootBits))
        if maxLength == 0 {
            // No codes at all: only acceptable for distances (a block of literals only).
            return use == .distances
        }
        var left = 1
        for len in 1...15 {
            left <<= 1
            left -= count[len]
            if left < 0 { return false }  // over-subscribed
        }
        if left > 0 && (use == .codeLengths || maxLength != 1) { return false }  // incomplete

        // Symbols sorted by (length, symbol): canonical code order.
        var offsets = [Int](repeating: 0, count: 16)
        for len in 1..<15 { offsets[len + 1] = offsets[len] + count[len] }
        var sorted = [Int](repeating: 0, count: lengths.count)
        var symbol = 0
        for l in lengths {
            if l != 0 {
                sorted[offsets[Int(l)]] = symbol
                offsets[Int(l)] += 1
            }
            symbol += 1
        }
        let used = lengths.count - count[0]
        var remaining = count
        let rootSize = 1 << rootBits
        let rootMask = rootSize - 1
        var code = 0
        var previousLength = 0
        var currentPrefix = -1
        var subBase = 0
        var subBits = 0
        let first = lengths.startIndex
        for k in 0..<used {
            let s = sorted[k]
            let len = Int(lengths[first + s])
            code <<= (len - previousLength)
            previousLength = len
            let reversed = reverseBits(code, length: len)
            if len <= rootBits {
                let entry = templates[s] | UInt32(len)
                var i = reversed
                while i < rootSize {
                    table[i] = entry
                    i += 1 << len
                }
            } else {
                let prefix = reversed & rootMask
                if prefix != currentPrefix {
                    var curr = len - rootBits
                    var room = 1 << curr
                    while curr + rootBits < maxLength {
                        room -= remaining[curr + rootBits]
                        if room <= 0 { break }
                        curr += 1
                        room <<= 1
                    }
                    subBits = curr
                    subBase = table.count
                    table.append(contentsOf: repeatElement(unusedEntry, count: 1 << subBits))
                    table[prefix] = UInt32(subBase) << 16 | Kind.link << 8 | UInt32(subBits) << 4 | UInt32(rootBits)
                    currentPrefix = prefix
                }
                let entry = templates[s] | UInt32(len - rootBits)
                var i = reversed >> rootBits
                while i < 1 << subBits {
                    table[subBase + i] = entry
                    i += 1 << (len - rootBits)
                }
            }
            remaining[len] -= 1
            code += 1
        }
        return true
    }

    @inline(__always)
    static func reverseBits(_ value: Int, length: Int) -> Int {
        Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: value).bitReversed >> (32 - length))
    }

    /// The fixed literal/length table (RFC 1951 §3.2.6).
    static let fixedLitLen: [UInt32] = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        var table = [UInt32]()
        _ = build(lengths: lengths[...], templates: litLenTemplates, rootBits: litLenRootBits, use: .litLen, into: &table)
        return table
    }()

    /// The fixed distance table: 32 codes of 5 bits (30 and 31 reserved).
    static let fixedDistance: [UInt32] = {
        var table = [UInt32]()
        let lengths = [UInt8](repeating: 5, count: 32)
        _ = build(lengths: lengths[...], templates: distanceTemplates, rootBits: distanceRootBits, use: .distances, into: &table)
        return table
    }()
}

extension UInt32 {
    /// The bits in reverse order (bit 0 becomes bit 31).
    @inline(__always)
    var bitReversed: UInt32 {
        var v = self
        v = ((v >> 1) & 0x5555_5555) | ((v & 0x5555_5555) << 1)
        v = ((v >> 2) & 0x3333_3333) | ((v & 0x3333_3333) << 2)
        v = ((v >> 4) & 0x0F0F_0F0F) | ((v & 0x0F0F_0F0F) << 4)
        v = ((v >> 8) & 0x00FF_00FF) | ((v & 0x00FF_00FF) << 8)
        return (v >> 16) | (v << 16)
    }
}
