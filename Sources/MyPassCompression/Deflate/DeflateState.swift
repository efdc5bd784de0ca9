import MyPassBytes

/// The match finder and block state of the deflater, after zlib's `deflate.c`: a 64 KiB window
/// (two halves of 32 KiB that slide), 3-byte hash chains, a symbol buffer of 16383 entries per
/// block, and the per-block symbol frequencies. Buffers are manual so that hot loops work on raw
/// pointers; `Deflater` copies the state before mutating a shared one (value semantics).
final class DeflateState {
    struct Config {
        var goodLength: Int
        var maxLazy: Int
        var niceLength: Int
        var maxChain: Int
        var lazy: Bool
    }

    /// zlib's configuration table (deflate.c), levels 1...9.
    static func config(level: Int) -> Config {
        switch level {
        case 1: return Config(goodLength: 4, maxLazy: 4, niceLength: 8, maxChain: 4, lazy: false)
        case 2: return Config(goodLength: 4, maxLazy: 5, niceLength: 16, maxChain: 8, lazy: false)
        case 3: return Config(goodLength: 4, maxLazy: 6, niceLength: 32, maxChain: 32, lazy: false)
        case 4: return Config(goodLength: 4, maxLazy: 4, niceLength: 16, maxChain: 16, lazy: true)
        case 5: return Config(goodLength: 8, maxLazy: 16, niceLength: 32, maxChain: 32, lazy: true)
        case 7: return Config(goodLength: 8, maxLazy: 32, niceLength: 128, maxChain: 256, lazy: true)
        case 8: return Config(goodLength: 32, maxLazy: 128, niceLength: 258, maxChain: 1024, lazy: true)
        case 9: return Config(goodLength: 32, maxLazy: 258, niceLength: 258, maxChain: 4096, lazy: true)
        default: return Config(goodLength: 8, maxLazy: 16, niceLength: 128, maxChain: 128, lazy: true)
        }
    }

    static let windowSize = 32768
    static let windowMask = windowSize - 1
    static let hashBits = 15
    static let hashSize = 1 << hashBits
    static let hashMask = hashSize - 1
    static let minLookahead = DeflateTables.maxMatch + DeflateTables.minMatch + 1
    static let maxDistance = windowSize - minLookahead
    static let windowBytes = 2 * windowSize
    static let windowSlack = 512
    static let symbolCapacity = 16384
    static let symbolLimit = symbolCapacity - 1
    static let tooFar = 4096

    let level: Int
    let config: Config
    let window: UnsafeMutablePointer<UInt8>
    let head: UnsafeMutablePointer<UInt16>
    let prev: UnsafeMutablePointer<UInt16>
    let symbolDistance: UnsafeMutablePointer<UInt16>
    let symbolLength: UnsafeMutablePointer<UInt8>
    let litLenFrequency: UnsafeMutablePointer<UInt32>
    let distanceFrequency: UnsafeMutablePointer<UInt32>
    let lengthCode: UnsafeMutablePointer<UInt8>
    let distanceCode: UnsafeMutablePointer<UInt8>

    var symbolCount = 0
    var strStart = 0
    var lookahead = 0
    var blockStart = 0
    var matchStart = 0
    var matchLength = DeflateTables.minMatch - 1
    var prevLength = DeflateTables.minMatch - 1
    var matchAvailable = false
    /// Literals emitted since the last match, and how many of the next bytes still go out as
    /// literals without a search (see ``skipCount(_:)``).
    var literalRun = 0
    var skipRemaining = 0
    var sink: BitSink

    init(level: Int) {
        self.level = level
        config = Self.config(level: level)
        window = .allocate(capacity: Self.windowBytes + Self.windowSlack)
        window.initialize(repeating: 0, count: Self.windowBytes + Self.windowSlack)
        head = .allocate(capacity: Self.hashSize)
        head.initialize(repeating: 0, count: Self.hashSize)
        prev = .allocate(capacity: Self.windowSize)
        prev.initialize(repeating: 0, count: Self.windowSize)
        symbolDistance = .allocate(capacity: Self.symbolCapacity)
        symbolLength = .allocate(capacity: Self.symbolCapacity)
        litLenFrequency = .allocate(capacity: 288)
        litLenFrequency.initialize(repeating: 0, count: 288)
        distanceFrequency = .allocate(capacity: 32)
        distanceFrequency.initialize(repeating: 0, count: 32)
        lengthCode = .allocate(capacity: 256)
        lengthCode.initialize(from: DeflateTables.lengthCode, count: 256)
        distanceCode = .allocate(capacity: 512)
        distanceCode.initialize(from: DeflateTables.distanceCode, count: 512)
        sink = BitSink(capacity: 1 << 16)
        litLenFrequency[DeflateTables.endOfBlock] = 1
    }

    deinit {
        // The window holds the last 64 KiB of input and the symbol buffer the literal bytes of
        // the current block (decrypted XML when a vault is saved): zeroed before they are freed.
        secureZero(window, count: Self.windowBytes + Self.windowSlack)
        secureZero(symbolLength, count: Self.symbolCapacity)
        window.deallocate()
        head.deallocate()
        prev.deallocate()
        symbolDistance.deallocate()
        symbolLength.deallocate()
        litLenFrequency.deallocate()
        distanceFrequency.deallocate()
        lengthCode.deallocate()
        distanceCode.deallocate()
        sink.free()
    }

    /// A deep copy, for copy-on-write of `Deflater`.
    func copy() -> DeflateState {
        let other = DeflateState(level: level)
        other.window.update(from: window, count: Self.windowBytes + Self.windowSlack)
        other.head.update(from: head, count: Self.hashSize)
        other.prev.update(from: prev, count: Self.windowSize)
        other.symbolDistance.update(from: symbolDistance, count: symbolCount)
        other.symbolLength.update(from: symbolLength, count: symbolCount)
        other.litLenFrequency.update(from: litLenFrequency, count: 288)
        other.distanceFrequency.update(from: distanceFrequency, count: 32)
        other.symbolCount = symbolCount
        other.strStart = strStart
        other.lookahead = lookahead
        other.blockStart = blockStart
        other.matchStart = matchStart
        other.matchLength = matchLength
        other.prevLength = prevLength
        other.matchAvailable = matchAvailable
        other.literalRun = literalRun
        other.skipRemaining = skipRemaining
        other.sink.free()
        other.sink = sink.copy()
        return other
    }

    /// Moves input into the window, sliding it by 32 KiB when the match position nears its end
    /// (zlib's `fill_window`).
    func fillWindow(_ input: UnsafePointer<UInt8>?, _ position: inout Int, _ end: Int) {
        repeat {
            var more = Self.windowBytes - lookahead - strStart
            if strStart >= Self.windowSize + Self.maxDistance {
                window.update(from: window + Self.windowSize, count: Self.windowSize - more)
                matchStart -= Self.windowSize
                strStart -= Self.windowSize
                blockStart -= Self.windowSize
                slideHash()
                more += Self.windowSize
            }
            let n = min(more, end - position)
            if n <= 0 { return }
            (window + strStart + lookahead).update(from: input! + position, count: n)
            position += n
            lookahead += n
        } while lookahead < Self.minLookahead && position < end
    }

    /// Moves hash chain positions down by 32 KiB; positions that fall out of the window become 0
    /// (no match). Branch-free (the window size is 2^15, so "m >= 32768" is the top bit), which
    /// lets the compiler vectorize it.
    private func slideHash() {
        @inline(__always)
        func slide(_ p: UnsafeMutablePointer<UInt16>, _ n: Int) {
            for i in 0..<n {
                let m = p[i]
                p[i] = (m & 0x7FFF) & (0 &- (m &>> 15))
            }
        }
        slide(head, Self.hashSize)
        slide(prev, Self.windowSize)
    }

    /// zlib's hash of the 3 bytes at `position` (equal to its rolling `UPDATE_HASH` three times).
    @inline(__always)
    func hash(_ position: Int) -> Int {
        let p = window + position
        return (Int(p[0]) &<< 10 ^ Int(p[1]) &<< 5 ^ Int(p[2])) & Self.hashMask
    }

    /// Inserts the string at `position` into its hash chain; returns the previous chain head.
    @inline(__always)
    func insertString(_ position: Int) -> Int {
        let h = hash(position)
        let headPosition = Int(head[h])
        prev[position & Self.windowMask] = UInt16(truncatingIfNeeded: headPosition)
        head[h] = UInt16(truncatingIfNeeded: position)
        return headPosition
    }
}
