import MyPassBytes

/// Streaming compressor producing raw DEFLATE (RFC 1951), zlib (RFC 1950) or gzip (RFC 1952).
///
/// The algorithm follows zlib's: LZ77 over a 32 KiB window with 3-byte hash chains, lazy
/// matching at levels 4...9, greedy matching at 1...3, and per block (16383 symbols) the smallest
/// of a stored, fixed-Huffman or dynamic-Huffman block with length-limited codes. Level 0 writes
/// stored blocks only. Output sizes track zlib's at the same level.
///
/// Feed input with ``update(_:)`` in chunks of any size; each call returns the compressed bytes
/// that are complete so far. ``finish()`` ends the stream and returns the rest, trailer included.
/// Memory is bounded (about 300 KiB of state) whatever the input size.
///
/// `Deflater` is a value: a copy continues independently (the state is copied on the first
/// write to a shared one, as `Array` does, which is why it can be `Sendable`).
public struct Deflater: @unchecked Sendable {
    /// The container format being written.
    public let format: CompressionFormat
    /// The compression level, 0...9.
    public let level: Int

    var state: DeflateState?
    var storedBuffer: [UInt8] = []
    var check: UInt32
    var inputBytes: UInt32 = 0
    var wroteHeader = false
    var finished = false

    /// Creates a compressor.
    /// - Parameters:
    ///   - format: raw DEFLATE, zlib or gzip.
    ///   - level: 0 (stored, no compression) ... 9 (smallest, slowest); 6 by default, as zlib.
    ///     Values outside 0...9 are clamped.
    public init(format: CompressionFormat, level: Int = 6) {
        self.format = format
        self.level = min(max(level, 0), 9)
        check = format == .zlib ? 1 : 0
        state = DeflateState(level: self.level)
    }

    /// Compresses the next chunk of input.
    /// - Parameter input: bytes to compress, any length.
    /// - Returns: compressed bytes completed so far (often empty: blocks are written when full).
    /// - Precondition: ``finish()`` was not called yet.
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] {
        precondition(!finished, "Deflater.update after finish()")
        let s = uniqueState()
        input.withUnsafeBufferPointer { buffer in
            switch format {
            case .raw: break
            case .zlib: check = Adler32.checksum(UnsafeRawBufferPointer(buffer), initial: check)
            case .gzip: check = CRC32.checksum(UnsafeRawBufferPointer(buffer), initial: check)
            }
            inputBytes &+= UInt32(truncatingIfNeeded: buffer.count)
            var position = 0
            if level == 0 {
                // One allocation, so that growing never leaves an unwiped copy of the input.
                if storedBuffer.capacity < 65535 { storedBuffer.reserveCapacity(65535) }
                while position < buffer.count {
                    let n = min(65535 - storedBuffer.count, buffer.count - position)
                    storedBuffer.append(contentsOf: buffer[position..<(position + n)])
                    position += n
                    if storedBuffer.count == 65535 {
                        storedBuffer.withUnsafeBufferPointer { s.writeStored($0.baseAddress!, count: 65535, last: false) }
                        wipe(&storedBuffer)
                        storedBuffer.removeAll(keepingCapacity: true)
                    }
                }
            } else {
                while position < buffer.count {
                    s.fillWindow(buffer.baseAddress, &position, buffer.count)
                    compress(s, finishing: false)
                }
            }
        }
        return output(s)
    }

    /// Compresses the next chunk of input (see ``update(_:)-(ArraySlice<UInt8>)``).
    public mutating func update(_ input: [UInt8]) -> [UInt8] {
        update(input[...])
    }

    /// Ends the stream: compresses what is buffered, writes the final block and the trailer.
    /// - Returns: the remaining compressed bytes.
    public mutating func finish() -> [UInt8] {
        precondition(!finished, "Deflater.finish called twice")
        let s = uniqueState()
        if level == 0 {
            storedBuffer.withUnsafeBufferPointer { b in
                s.writeStored(b.baseAddress ?? UnsafePointer(s.window), count: b.count, last: true)
            }
            wipe(&storedBuffer)
            storedBuffer = []
            s.sink.alignToByte()
        } else {
            compress(s, finishing: true)
            s.flushBlock(last: true)
        }
        var trailer: [UInt8] = []
        switch format {
        case .raw: break
        case .zlib: trailer = [UInt8(check >> 24), UInt8(check >> 16 & 0xFF), UInt8(check >> 8 & 0xFF), UInt8(check & 0xFF)]
        case .gzip:
            for v in [check, inputBytes] {
                trailer += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            }
        }
        let out = output(s, trailer: trailer)
        finished = true
        state = nil
        return out
    }

    /// Compresses a whole buffer in one call.
    /// - Parameters:
    ///   - data: the bytes to compress.
    ///   - format: the container format.
    ///   - level: 0...9.
    public static func compress(_ data: ArraySlice<UInt8>, format: CompressionFormat, level: Int = 6) -> [UInt8] {
        var deflater = Deflater(format: format, level: level)
        var first = deflater.update(data)
        var last = deflater.finish()
        defer {
            wipe(&first)
            wipe(&last)
        }
        var out: [UInt8] = []
        out.reserveCapacity(first.count + last.count)
        out += first
        out += last
        return out
    }

    /// The header (once), the bytes the sink holds and `trailer`, in one array allocated at its
    /// final size: an array that grows frees its old storage unwiped, and stored blocks (level 0)
    /// carry the input verbatim. The sink's copy is zeroed.
    private mutating func output(_ s: DeflateState, trailer: [UInt8] = []) -> [UInt8] {
        let head = header()
        var taken = s.sink.takeBytes()
        defer { wipe(&taken) }
        var out: [UInt8] = []
        out.reserveCapacity(head.count + taken.count + trailer.count)
        out += head
        out += taken
        out += trailer
        return out
    }

    private func compress(_ s: DeflateState, finishing: Bool) {
        if s.config.lazy { s.compressLazy(finishing: finishing) } else { s.compressFast(finishing: finishing) }
    }

    /// The state, copied first if another `Deflater` value shares it.
    private mutating func uniqueState() -> DeflateState {
        if !isKnownUniquelyReferenced(&state!) { state = state!.copy() }
        return state!
    }

    /// The zlib or gzip header, once.
    private mutating func header() -> [UInt8] {
        guard !wroteHeader else { return [] }
        wroteHeader = true
        switch format {
        case .raw:
            return []
        case .zlib:
            // CMF 0x78: deflate, 32 KiB window; FLEVEL as zlib sets it; FCHECK makes it a multiple of 31.
            let flevel: UInt16 = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3
            var header: UInt16 = 0x7800 | flevel << 6
            header += 31 - header % 31
            return [UInt8(header >> 8), UInt8(header & 0xFF)]
        case .gzip:
            // ID1 ID2 CM FLG MTIME(0) XFL OS(255: unknown)
            let xfl: UInt8 = level == 9 ? 2 : level == 1 ? 4 : 0
            return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, xfl, 255]
        }
    }
}
