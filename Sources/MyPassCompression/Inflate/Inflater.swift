import MyPassBytes
/// Streaming decompressor for raw DEFLATE (RFC 1951), zlib (RFC 1950) and gzip (RFC 1952).
///
/// Feed compressed input in chunks of any size with ``update(_:)``; each call returns the
/// decompressed bytes it could produce. Call ``finish()`` after the last chunk: it checks that the
/// stream ended with its trailer and that nothing follows it. Several gzip members in a row decode
/// as one stream, as `gzip -d` does.
///
/// Memory stays bounded by the 32 KiB window, a 256 KiB work buffer and a few hundred bytes of
/// carried input, plus the output of the current call. `maxOutputBytes` caps the total
/// decompressed size (decompression bombs). After an error, every later call throws it again.
public struct Inflater: Sendable {
    /// The container format being decoded.
    public let format: CompressionFormat
    /// The most decompressed bytes this inflater will produce in total.
    public let maxOutputBytes: Int

    enum Phase { case header, blockHeader, stored, huffman, endOfStream, trailer, memberEnd, done }

    static let windowBytes = 32768
    static let workBytes = 262_144
    static let slackBytes = 274
    static let outLimit = windowBytes + workBytes

    var phase: Phase
    var isLastBlock = false
    var storedRemaining = 0
    var usesFixedTables = false

    var pending: [UInt8] = []
    var bits: UInt64 = 0
    var bitCount = 0
    var inputOffset = 0  // input bytes before the current buffer, for error offsets

    /// The 32 KiB history plus the work area: decompressed data, so a wiping buffer (zeroed when
    /// the stream ends, fails, or the inflater is released).
    var window: SecureBytes
    var outPosition = 0
    var flushPosition = 0
    var streamStart = 0
    var totalOutput = 0
    var check: UInt32
    var memberBytes: UInt32 = 0
    var header: WrapperHeaderParser
    var trailer: [UInt8] = []
    var lengths = [UInt8](repeating: 0, count: 320)
    var litLenTable: [UInt32] = []
    var distanceTable: [UInt32] = []
    var codeLengthTable: [UInt32] = []
    var failure: CompressionError?
    /// Set by the one-shot helpers, whose first input is the whole stream.
    var isWholeStream = false

    /// Creates a decompressor.
    /// - Parameters:
    ///   - format: raw DEFLATE, zlib or gzip.
    ///   - maxOutputBytes: the most decompressed bytes to accept in total; more throws
    ///     `.outputLimitExceeded`.
    public init(format: CompressionFormat, maxOutputBytes: Int = .max) {
        self.format = format
        self.maxOutputBytes = max(0, maxOutputBytes)
        phase = format == .raw ? .blockHeader : .header
        header = WrapperHeaderParser(format: format)
        check = format == .zlib ? 1 : 0
        window = SecureBytes()
    }

    /// Decompresses the next chunk of input.
    /// - Parameter input: compressed bytes, any length (may be empty).
    /// - Returns: the decompressed bytes this chunk completed (possibly none).
    /// - Throws: ``CompressionError`` for malformed data, a checksum mismatch, trailing garbage or
    ///   output beyond `maxOutputBytes`.
    public mutating func update(_ input: ArraySlice<UInt8>) throws(CompressionError) -> [UInt8] {
        try run(input, final: false)
    }

    /// Decompresses the next chunk of input (see ``update(_:)-(ArraySlice<UInt8>)``).
    public mutating func update(_ input: [UInt8]) throws(CompressionError) -> [UInt8] {
        try run(input[...], final: false)
    }

    /// Ends the input: decodes what is left and checks that the stream (and its trailer) is complete.
    /// - Returns: the last decompressed bytes.
    /// - Throws: `.truncated` when the stream is incomplete, or any error of ``update(_:)-(ArraySlice<UInt8>)``.
    public mutating func finish() throws(CompressionError) -> [UInt8] {
        try run([], final: true)
    }

    private mutating func run(_ input: ArraySlice<UInt8>, final: Bool) throws(CompressionError) -> [UInt8] {
        if let failure { throw failure }
        if window.isEmpty { window = SecureBytes(zeroedCount: Self.outLimit + Self.slackBytes) }
        var result: [UInt8] = []
        // Typical DEFLATE ratios are 2–5×: one allocation instead of a chain of doublings (and
        // their copies, wipes and page faults) for whole-stream calls. A gzip stream handed over
        // whole (the one-shot helpers) says its size in its last 4 bytes (ISIZE): that is believed
        // up to what the input could really hold (DEFLATE expands at most 1032×) and 256 MiB,
        // never past the limit.
        var estimate = input.count < 1 << 26 ? input.count * 4 : 1 << 28
        if isWholeStream, format == .gzip, phase == .header, totalOutput == 0, pending.isEmpty, input.count >= 18 {
            let end = input.endIndex
            let claimed = Int(input[end - 4]) | Int(input[end - 3]) << 8 | Int(input[end - 2]) << 16 | Int(input[end - 1]) << 24
            estimate = max(estimate, min(claimed, input.count < 1 << 18 ? input.count * 1032 : 1 << 28))
        }
        result.reserveCapacity(min(estimate, maxOutputBytes - totalOutput))
        let error: CompressionError?
        if pending.isEmpty {
            error = input.withUnsafeBufferPointer { process($0, final: final, into: &result) }
        } else {
            var buffer: [UInt8] = []
            buffer.reserveCapacity(pending.count + input.count)
            buffer.append(contentsOf: pending)
            buffer.append(contentsOf: input)
            inputOffset -= pending.count
            wipe(&pending)
            pending = []
            error = buffer.withUnsafeBufferPointer { process($0, final: final, into: &result) }
            wipe(&buffer)
        }
        if let error {
            failure = error
            wipe(&pending)
            pending = []
            window = SecureBytes()
            throw error
        }
        if final {
            window = SecureBytes()
            litLenTable = []
            distanceTable = []
        }
        return result
    }

    /// Runs the state machine over one input buffer; keeps what it could not use in `pending`.
    private mutating func process(
        _ input: UnsafeBufferPointer<UInt8>, final: Bool, into result: inout [UInt8]
    ) -> CompressionError? {
        var cursor = BitCursor(bits: bits, count: bitCount, position: 0, input: input.baseAddress, end: input.count)
        var win = window
        window = SecureBytes()
        let error = win.withUnsafeMutableBytes { raw -> CompressionError? in
            let buffer = raw.assumingMemoryBound(to: UInt8.self)
            if let error = step(&cursor, buffer.baseAddress!, final: final, into: &result) { return error }
            // Hand out what this call decoded, so output streams with the input.
            return flush(buffer.baseAddress!, into: &result, cursor)
        }
        window = win
        if let error { return error }
        bitCount = max(cursor.count, 0)
        bits = bitCount == 0 ? 0 : cursor.bits & ((1 &<< UInt64(bitCount)) &- 1)
        pending = cursor.position < input.count ? Array(input[cursor.position...]) : []
        inputOffset += cursor.position
        return nil
    }

    private func failure(_ code: CompressionError.Code, _ reason: String, _ c: BitCursor) -> CompressionError {
        CompressionError(code, reason, offset: inputOffset + c.consumedBytes)
    }

    /// The state machine. Returns nil when it needs more input (not final) or finished.
    private mutating func step(
        _ c: inout BitCursor, _ win: UnsafeMutablePointer<UInt8>, final: Bool, into result: inout [UInt8]
    ) -> CompressionError? {
        func truncated() -> CompressionError { failure(.truncated, "compressed data ends early", c) }
        while true {
            switch phase {
            case .header:
                var done = false
                while !done, let byte = c.readByte() {
                    switch header.feed(byte) {
                    case .more: break
                    case .done: done = true
                    case .failed(let code, let reason): return failure(code, reason, c)
                    }
                }
                if !done { return final ? failure(.truncated, "header incomplete", c) : nil }
                phase = .blockHeader

            case .blockHeader:
                let saved = c
                guard c.need(3) else { return final ? truncated() : nil }
                let h = c.take(3)
                isLastBlock = h & 1 != 0
                switch h >> 1 {
                case 0:
                    c.alignToByte()
                    guard let l0 = c.readByte(), let l1 = c.readByte(), let n0 = c.readByte(), let n1 = c.readByte()
                    else {
                        c = saved
                        return final ? truncated() : nil
                    }
                    let len = UInt16(l0) | UInt16(l1) << 8, nlen = UInt16(n0) | UInt16(n1) << 8
                    if len != ~nlen { return failure(.invalidStoredLength, "stored block LEN \(len) vs NLEN \(nlen)", c) }
                    storedRemaining = Int(len)
                    phase = .stored
                case 1:
                    usesFixedTables = true
                    phase = .huffman
                case 2:
                    switch readDynamicHeader(&c) {
                    case .some(.some(let error)): return error
                    case .some(.none):
                        usesFixedTables = false
                        phase = .huffman
                    case .none:
                        c = saved
                        return final ? truncated() : nil
                    }
                default:
                    return failure(.invalidBlockType, "block type 3 is reserved", c)
                }

            case .stored:
                while storedRemaining > 0 {
                    if outPosition > Self.outLimit, let error = flush(win, into: &result, c) { return error }
                    let room = Self.outLimit + 1 - outPosition
                    var n = 0
                    while c.count >= 8 && n < min(room, storedRemaining) {
                        win[outPosition + n] = UInt8(truncatingIfNeeded: c.bits)
                        c.consume(8)
                        n += 1
                    }
                    if c.count < 8 {
                        c.bits = 0
                        c.count = 0
                        let take = min(room - n, storedRemaining - n, c.end - c.position)
                        if take > 0 {
                            (win + outPosition + n).update(from: c.input.unsafelyUnwrapped + c.position, count: take)
                            c.position += take
                            n += take
                        }
                    }
                    outPosition += n
                    storedRemaining -= n
                    if n == 0 && outPosition <= Self.outLimit { return final ? truncated() : nil }
                }
                phase = isLastBlock ? .endOfStream : .blockHeader

            case .huffman:
                let lit = usesFixedTables ? HuffmanTable.fixedLitLen : litLenTable
                let dist = usesFixedTables ? HuffmanTable.fixedDistance : distanceTable
                var op = outPosition
                let start = streamStart
                let stop = lit.withUnsafeBufferPointer { l in
                    dist.withUnsafeBufferPointer { d in
                        decodeHuffmanSymbols(
                            cursor: &c, window: win, outPosition: &op, outLimit: Self.outLimit,
                            streamStart: start, litLen: l.baseAddress!, distance: d.baseAddress!)
                    }
                }
                outPosition = op
                switch stop {
                case .outputFull:
                    if let error = flush(win, into: &result, c) { return error }
                case .needInput:
                    return final ? truncated() : nil
                case .endOfBlock:
                    phase = isLastBlock ? .endOfStream : .blockHeader
                case .reservedLitLenCode:
                    return failure(.invalidHuffmanTree, "literal/length code 286 or 287", c)
                case .invalidDistanceCode:
                    return failure(.invalidDistance, "invalid distance code (30, 31 or no code)", c)
                case .distanceTooFar:
                    return failure(.invalidDistance, "distance reaches before the start of the output", c)
                }

            case .endOfStream:
                if let error = flush(win, into: &result, c) { return error }
                c.alignToByte()
                trailer = []
                phase = .trailer

            case .trailer:
                let size = format == .gzip ? 8 : format == .zlib ? 4 : 0
                while trailer.count < size, let byte = c.readByte() { trailer.append(byte) }
                if trailer.count < size { return final ? failure(.truncated, "trailer incomplete", c) : nil }
                if let error = checkTrailer(c) { return error }
                phase = format == .gzip ? .memberEnd : .done

            case .memberEnd:
                guard c.hasByte else { return nil }
                let peek = c.count >= 8 ? UInt8(truncatingIfNeeded: c.bits) : c.input.unsafelyUnwrapped[c.position]
                if peek != 0x1F { return failure(.trailingGarbage, "bytes after the last gzip member", c) }
                // Another member: a fresh header, checksum and window.
                header = WrapperHeaderParser(format: .gzip)
                check = 0
                memberBytes = 0
                streamStart = outPosition
                phase = .header

            case .done:
                if c.hasByte { return failure(.trailingGarbage, "bytes after the end of the stream", c) }
                return nil
            }
        }
    }

    /// Checks the zlib Adler-32 or the gzip CRC-32 and ISIZE against the output.
    private func checkTrailer(_ c: BitCursor) -> CompressionError? {
        switch format {
        case .raw:
            return nil
        case .zlib:
            let stored = UInt32(trailer[0]) << 24 | UInt32(trailer[1]) << 16 | UInt32(trailer[2]) << 8 | UInt32(trailer[3])
            return stored == check ? nil : failure(.checksumMismatch, "Adler-32 of the data does not match", c)
        case .gzip:
            let crc = UInt32(trailer[0]) | UInt32(trailer[1]) << 8 | UInt32(trailer[2]) << 16 | UInt32(trailer[3]) << 24
            let size = UInt32(trailer[4]) | UInt32(trailer[5]) << 8 | UInt32(trailer[6]) << 16 | UInt32(trailer[7]) << 24
            if crc != check { return failure(.checksumMismatch, "CRC-32 of the data does not match", c) }
            if size != memberBytes { return failure(.lengthMismatch, "ISIZE \(size) but \(memberBytes) bytes decoded", c) }
            return nil
        }
    }

    /// Hands out the bytes decoded since the last flush (checksummed, size-limited) and slides
    /// the window so that only the last 32 KiB stay as history.
    private mutating func flush(
        _ win: UnsafeMutablePointer<UInt8>, into result: inout [UInt8], _ c: BitCursor
    ) -> CompressionError? {
        let n = outPosition - flushPosition
        if n > 0 {
            if n > maxOutputBytes - totalOutput {
                return failure(.outputLimitExceeded, "decompressed data exceeds \(maxOutputBytes) bytes", c)
            }
            let fresh = UnsafeBufferPointer(start: win + flushPosition, count: n)
            switch format {
            case .raw: break
            case .zlib: check = Adler32.checksum(UnsafeRawBufferPointer(fresh), initial: check)
            case .gzip: check = CRC32.checksum(UnsafeRawBufferPointer(fresh), initial: check)
            }
            memberBytes &+= UInt32(truncatingIfNeeded: n)
            if result.capacity - result.count < n {
                // Grow by hand so that the outgrown storage is zeroed, not merely freed.
                var larger: [UInt8] = []
                larger.reserveCapacity(max(result.capacity * 2, result.count + n))
                larger.append(contentsOf: result)
                wipe(&result)
                result = larger
            }
            result.append(contentsOf: fresh)
            totalOutput += n
            flushPosition = outPosition
        }
        if outPosition > Self.windowBytes {
            let shift = outPosition - Self.windowBytes
            UnsafeMutableRawPointer(win).copyMemory(from: win + shift, byteCount: Self.windowBytes)
            outPosition = Self.windowBytes
            flushPosition = outPosition
            streamStart = max(0, streamStart - shift)
        }
        return nil
    }
}
