extension DeflateState {
    /// Fixed literal/length codes (RFC 1951 §3.2.6), bit-reversed for sending.
    static let fixedLitLenCodes: [UInt16] = {
        var codes = [UInt16](repeating: 0, count: 288)
        DeflateTables.fixedLitLenLengths.withUnsafeBufferPointer { l in
            codes.withUnsafeMutableBufferPointer { c in
                HuffmanCodeBuilder.reversedCodes(lengths: l.baseAddress!, count: 288, codes: c.baseAddress!)
            }
        }
        return codes
    }()

    /// Fixed distance codes: 5 bits each, bit-reversed.
    static let fixedDistanceCodes: [UInt16] = (0..<30).map { UInt16(HuffmanTable.reverseBits($0, length: 5)) }
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)

    /// Ends the current block (zlib's `_tr_flush_block`): builds dynamic trees for the symbols
    /// collected since the last block, and writes whichever of stored, fixed or dynamic is
    /// smallest. With `last`, sets BFINAL and pads to a byte boundary.
    func flushBlock(last: Bool) {
        let storedLength = strStart - blockStart
        let storedAvailable = blockStart >= 0
        var litLenLengths = [UInt8](repeating: 0, count: 288)
        var distanceLengths = [UInt8](repeating: 0, count: 30)
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        var codeLengthFrequency = [UInt32](repeating: 0, count: 19)
        let litMax = litLenLengths.withUnsafeMutableBufferPointer {
            HuffmanCodeBuilder.buildLengths(frequencies: litLenFrequency, count: 286, maxBits: 15, lengths: $0.baseAddress!)
        }
        let distMax = distanceLengths.withUnsafeMutableBufferPointer {
            HuffmanCodeBuilder.buildLengths(frequencies: distanceFrequency, count: 30, maxBits: 15, lengths: $0.baseAddress!)
        }
        var dynamicBits = 0
        var fixedBits = 0
        for s in 0..<286 {
            let f = Int(litLenFrequency[s])
            if f == 0 { continue }
            let extra = s > 256 ? Int(DeflateTables.extraLengthBits[s - 257]) : 0
            dynamicBits += f * (Int(litLenLengths[s]) + extra)
            fixedBits += f * (Int(DeflateTables.fixedLitLenLengths[s]) + extra)
        }
        for d in 0..<30 {
            let f = Int(distanceFrequency[d])
            if f == 0 { continue }
            let extra = Int(DeflateTables.extraDistanceBits[d])
            dynamicBits += f * (Int(distanceLengths[d]) + extra)
            fixedBits += f * (5 + extra)
        }
        Self.scanTree(litLenLengths, maxCode: litMax, into: &codeLengthFrequency)
        Self.scanTree(distanceLengths, maxCode: distMax, into: &codeLengthFrequency)
        codeLengthFrequency.withUnsafeBufferPointer { f in
            codeLengthLengths.withUnsafeMutableBufferPointer { l in
                _ = HuffmanCodeBuilder.buildLengths(
                    frequencies: f.baseAddress!, count: 19, maxBits: 7, lengths: l.baseAddress!)
            }
        }
        var maxIndex = 18
        while maxIndex >= 3 && codeLengthLengths[DeflateTables.codeLengthOrder[maxIndex]] == 0 { maxIndex -= 1 }
        dynamicBits += 3 * (maxIndex + 1) + 5 + 5 + 4
        for s in 0..<19 {
            dynamicBits += Int(codeLengthFrequency[s]) * (Int(codeLengthLengths[s]) + Int(DeflateTables.extraCodeLengthBits[s]))
        }
        var optimalBytes = (dynamicBits + 3 + 7) >> 3
        let fixedBytes = (fixedBits + 3 + 7) >> 3
        if fixedBytes <= optimalBytes { optimalBytes = fixedBytes }

        sink.reserve(max(storedLength, 0) + 5 * (storedLength / 65535 + 1) + (dynamicBits >> 3) + 1024)
        if storedAvailable && storedLength + 4 <= optimalBytes {
            writeStored(window + blockStart, count: storedLength, last: last)
        } else if fixedBytes == optimalBytes {
            sink.put(last ? 3 : 2, 3)
            Self.fixedLitLenCodes.withUnsafeBufferPointer { lc in
                DeflateTables.fixedLitLenLengths.withUnsafeBufferPointer { ll in
                    Self.fixedDistanceCodes.withUnsafeBufferPointer { dc in
                        Self.fixedDistanceLengths.withUnsafeBufferPointer { dl in
                            writeSymbols(lc.baseAddress!, ll.baseAddress!, dc.baseAddress!, dl.baseAddress!)
                        }
                    }
                }
            }
        } else {
            sink.put(last ? 5 : 4, 3)
            writeDynamic(litLenLengths, litMax: litMax, distanceLengths, distMax: distMax,
                         codeLengthLengths, maxIndex: maxIndex)
        }
        litLenFrequency.update(repeating: 0, count: 288)
        distanceFrequency.update(repeating: 0, count: 32)
        litLenFrequency[DeflateTables.endOfBlock] = 1
        symbolCount = 0
        blockStart = strStart
        if last { sink.alignToByte() }
    }

    /// Writes `count` bytes as stored blocks of at most 65535 bytes (RFC 1951 §3.2.4).
    func writeStored(_ data: UnsafePointer<UInt8>, count: Int, last: Bool) {
        var offset = 0
        repeat {
            let n = min(65535, count - offset)
            let final = last && offset + n == count
            sink.put(final ? 1 : 0, 3)
            sink.alignToByte()
            sink.reserve(n + 4)
            sink.put(UInt32(n) | UInt32(~UInt16(n)) << 16, 32)
            sink.flushBytes()
            sink.append(data + offset, count: n)
            offset += n
        } while offset < count
    }

    private func writeDynamic(
        _ litLenLengths: [UInt8], litMax: Int, _ distanceLengths: [UInt8], distMax: Int,
        _ codeLengthLengths: [UInt8], maxIndex: Int
    ) {
        var codeLengthCodes = [UInt16](repeating: 0, count: 19)
        var litLenCodes = [UInt16](repeating: 0, count: 288)
        var distanceCodes = [UInt16](repeating: 0, count: 30)
        codeLengthLengths.withUnsafeBufferPointer { l in
            codeLengthCodes.withUnsafeMutableBufferPointer { c in
                HuffmanCodeBuilder.reversedCodes(lengths: l.baseAddress!, count: 19, codes: c.baseAddress!)
            }
        }
        litLenLengths.withUnsafeBufferPointer { l in
            litLenCodes.withUnsafeMutableBufferPointer { c in
                HuffmanCodeBuilder.reversedCodes(lengths: l.baseAddress!, count: 286, codes: c.baseAddress!)
            }
        }
        distanceLengths.withUnsafeBufferPointer { l in
            distanceCodes.withUnsafeMutableBufferPointer { c in
                HuffmanCodeBuilder.reversedCodes(lengths: l.baseAddress!, count: 30, codes: c.baseAddress!)
            }
        }
        sink.put(UInt32(litMax + 1 - 257), 5)
        sink.put(UInt32(distMax + 1 - 1), 5)
        sink.put(UInt32(maxIndex + 1 - 4), 4)
        for rank in 0...maxIndex {
            sink.put(UInt32(codeLengthLengths[DeflateTables.codeLengthOrder[rank]]), 3)
        }
        sendTree(litLenLengths, maxCode: litMax, codes: codeLengthCodes, lengths: codeLengthLengths)
        sendTree(distanceLengths, maxCode: distMax, codes: codeLengthCodes, lengths: codeLengthLengths)
        litLenCodes.withUnsafeBufferPointer { lc in
            litLenLengths.withUnsafeBufferPointer { ll in
                distanceCodes.withUnsafeBufferPointer { dc in
                    distanceLengths.withUnsafeBufferPointer { dl in
                        writeSymbols(lc.baseAddress!, ll.baseAddress!, dc.baseAddress!, dl.baseAddress!)
                    }
                }
            }
        }
    }

    /// Walks code lengths as zlib's `scan_tree`/`send_tree` do: runs of a length become code 16
    /// (3–6 repeats), runs of zeros codes 17 (3–10) and 18 (11–138). Calls `emit(symbol, repeat)`.
    @inline(__always)
    static func walkTree(_ lengths: [UInt8], maxCode: Int, _ emit: (Int, Int) -> Void) {
        var previous = -1
        var next = Int(lengths[0])
        var count = 0
        var maxCount = 7
        var minCount = 4
        if next == 0 {
            maxCount = 138
            minCount = 3
        }
        for n in 0...maxCode {
            let current = next
            next = n + 1 <= maxCode ? Int(lengths[n + 1]) : 0xFFFF
            count += 1
            if count < maxCount && current == next { continue }
            if count < minCount {
                for _ in 0..<count { emit(current, 0) }
            } else if current != 0 {
                if current != previous {
                    emit(current, 0)
                    count -= 1
                }
                emit(16, count)
            } else if count <= 10 {
                emit(17, count)
            } else {
                emit(18, count)
            }
            count = 0
            previous = current
            if next == 0 {
                maxCount = 138
                minCount = 3
            } else if current == next {
                maxCount = 6
                minCount = 3
            } else {
                maxCount = 7
                minCount = 4
            }
        }
    }

    static func scanTree(_ lengths: [UInt8], maxCode: Int, into frequency: inout [UInt32]) {
        walkTree(lengths, maxCode: maxCode) { symbol, _ in frequency[symbol] += 1 }
    }

    private func sendTree(_ treeLengths: [UInt8], maxCode: Int, codes: [UInt16], lengths: [UInt8]) {
        Self.walkTree(treeLengths, maxCode: maxCode) { symbol, repeatCount in
            sink.put(UInt32(codes[symbol]), Int(lengths[symbol]))
            switch symbol {
            case 16: sink.put(UInt32(repeatCount - 3), 2)
            case 17: sink.put(UInt32(repeatCount - 3), 3)
            case 18: sink.put(UInt32(repeatCount - 11), 7)
            default: break
            }
        }
    }

    /// Writes the block's symbols and its end-of-block code (zlib's `compress_block`).
    private func writeSymbols(
        _ litCodes: UnsafePointer<UInt16>, _ litLengths: UnsafePointer<UInt8>,
        _ distCodes: UnsafePointer<UInt16>, _ distLengths: UnsafePointer<UInt8>
    ) {
        var s = sink
        defer { sink = s }
        s.reserve(symbolCount &* 7 &+ 16)
        let count = symbolCount
        DeflateTables.lengthSymbols.withUnsafeBufferPointer { lengthSymbols in
            DeflateTables.distanceSymbols.withUnsafeBufferPointer { distanceSymbols in
                for i in 0..<count {
                    let dist = Int(symbolDistance[i])
                    let lc = Int(symbolLength[i])
                    if dist == 0 {
                        s.put(UInt32(litCodes[lc]), Int(litLengths[lc]))
                        continue
                    }
                    let code = Int(lengthCode[lc])
                    let sym = code &+ 257
                    let l = lengthSymbols[code]
                    let lExtra = Int(l >> 16)
                    s.put(UInt32(litCodes[sym]) | UInt32(lc &- Int(l & 0xFFFF)) &<< UInt32(litLengths[sym]),
                          Int(litLengths[sym]) &+ lExtra)
                    let d = dist &- 1
                    let dc = Int(d < 256 ? distanceCode[d] : distanceCode[256 &+ (d &>> 7)])
                    let ds = distanceSymbols[dc]
                    let dExtra = Int(ds >> 16)
                    s.put(UInt32(distCodes[dc]) | UInt32(d &- Int(ds & 0xFFFF)) &<< UInt32(distLengths[dc]),
                          Int(distLengths[dc]) &+ dExtra)
                }
            }
        }
        s.put(UInt32(litCodes[256]), Int(litLengths[256]))
    }
}
