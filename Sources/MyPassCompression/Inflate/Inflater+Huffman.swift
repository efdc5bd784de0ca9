/// Why the Huffman block decoder stopped.
enum HuffmanStop {
    case endOfBlock
    case needInput
    case outputFull
    case reservedLitLenCode
    case invalidDistanceCode
    case distanceTooFar
}

/// Decodes literal/length and distance symbols of one Huffman block (RFC 1951 §3.2.5) into the
/// window until the end-of-block code, the end of the input, or `outLimit`.
///
/// - Parameters:
///   - cursor: the bit cursor; on `.needInput` it is restored to the start of the unfinished symbol.
///   - window: output buffer; at least `outLimit + 274` bytes long (a match copy writes up to 15 bytes past its end).
///   - outPosition: where the next byte goes.
///   - streamStart: the earliest window position a distance may reach (start of the current stream).
///   - litLen, distance: tables built by ``HuffmanTable``.
@inline(__always)
func decodeHuffmanSymbols(
    cursor: inout BitCursor, window: UnsafeMutablePointer<UInt8>, outPosition: inout Int, outLimit: Int,
    streamStart: Int, litLen: UnsafePointer<UInt32>, distance: UnsafePointer<UInt32>
) -> HuffmanStop {
    var c = cursor
    var op = outPosition
    defer {
        cursor = c
        outPosition = op
    }
    let litMask = UInt64(1 << HuffmanTable.litLenRootBits) - 1
    let distMask = UInt64(1 << HuffmanTable.distanceRootBits) - 1
    while true {
        if op > outLimit { return .outputFull }
        let saved = c
        c.refill()
        var e = litLen[Int(truncatingIfNeeded: c.bits & litMask)]
        if (e >> 8) & 7 == HuffmanTable.Kind.link {
            c.consume(Int(e & 15))
            let subMask = (UInt64(1) &<< UInt64((e >> 4) & 15)) &- 1
            e = litLen[Int(e >> 16) &+ Int(truncatingIfNeeded: c.bits & subMask)]
        }
        c.consume(Int(e & 15))
        let kind = (e >> 8) & 7
        if kind == HuffmanTable.Kind.literal {
            if c.count < 0 {
                c = saved
                return .needInput
            }
            window[op] = UInt8(truncatingIfNeeded: e >> 16)
            op &+= 1
            // Literal runs: while the bit buffer still holds a whole code, decode another literal
            // without a refill (the window has 274 bytes of slack past outLimit).
            while c.count >= 15 {
                let next = litLen[Int(truncatingIfNeeded: c.bits & litMask)]
                guard (next >> 8) & 7 == HuffmanTable.Kind.literal else { break }
                c.consume(Int(next & 15))
                window[op] = UInt8(truncatingIfNeeded: next >> 16)
                op &+= 1
                if op > outLimit { break }
            }
            continue
        }
        if kind == HuffmanTable.Kind.base {
            let extra = UInt64((e >> 4) & 15)
            let length = Int(e >> 16) &+ Int(truncatingIfNeeded: c.bits & ((1 &<< extra) &- 1))
            c.consume(Int(extra))
            var d = distance[Int(truncatingIfNeeded: c.bits & distMask)]
            if (d >> 8) & 7 == HuffmanTable.Kind.link {
                c.consume(Int(d & 15))
                let subMask = (UInt64(1) &<< UInt64((d >> 4) & 15)) &- 1
                d = distance[Int(d >> 16) &+ Int(truncatingIfNeeded: c.bits & subMask)]
            }
            c.consume(Int(d & 15))
            if (d >> 8) & 7 != HuffmanTable.Kind.base {
                if c.count < 0 {
                    c = saved
                    return .needInput
                }
                return .invalidDistanceCode
            }
            let dExtra = UInt64((d >> 4) & 15)
            let dist = Int(d >> 16) &+ Int(truncatingIfNeeded: c.bits & ((1 &<< dExtra) &- 1))
            c.consume(Int(dExtra))
            if c.count < 0 {
                c = saved
                return .needInput
            }
            if dist > op &- streamStart {
                c = saved
                return .distanceTooFar
            }
            copyMatch(window: window, at: op, distance: dist, length: length)
            op &+= length
            continue
        }
        if c.count < 0 {
            c = saved
            return .needInput
        }
        if kind == HuffmanTable.Kind.endOfBlock { return .endOfBlock }
        c = saved
        return .reservedLitLenCode
    }
}

/// Copies `length` bytes from `distance` bytes back (the source may overlap the destination).
/// May write up to 15 bytes past `at + length`.
@inline(__always)
func copyMatch(window: UnsafeMutablePointer<UInt8>, at op: Int, distance: Int, length: Int) {
    var dst = window + op
    var src = dst - distance
    let end = dst + length
    if distance >= 16 {
        // 16 bytes at a time: each load reads bytes written before this match or by an earlier
        // store of it, at least 16 back.
        let raw = UnsafeMutableRawPointer(window)
        var d = op
        let e = op &+ length
        repeat {
            raw.storeBytes(of: UnsafeRawPointer(raw + (d &- distance)).loadUnaligned(as: SIMD16<UInt8>.self),
                           toByteOffset: d, as: SIMD16<UInt8>.self)
            d &+= 16
        } while d < e
    } else if distance >= 8 {
        let raw = UnsafeMutableRawPointer(window)
        var d = op
        var s = op &- distance
        let e = op &+ length
        while d < e {
            raw.storeBytes(of: UnsafeRawPointer(raw + s).loadUnaligned(as: UInt64.self), toByteOffset: d, as: UInt64.self)
            d &+= 8
            s &+= 8
        }
    } else if distance == 1 {
        dst.update(repeating: src.pointee, count: length)
    } else {
        while dst < end {
            dst.pointee = src.pointee
            dst += 1
            src += 1
        }
    }
}
