/// What ChaCha20 and Salsa20 share: a 16-word input matrix whose block counter advances by one a
/// 64-byte block, and a keystream that continues across calls of any length. The driver
/// (`xorKeystream`) finishes the current block, hands whole blocks to the backend's kernel, then
/// runs four blocks at a time in `SIMD4` lanes, then one block at a time, keeping the unused rest
/// of the last block for the next call.
protocol ARXStreamCipher {
    /// The input matrix of the next block, its counter included.
    var state: SIMD16<UInt32> { get set }
    /// The current keystream block and how many of its bytes are used (64 = none left).
    var block: SIMD16<UInt32> { get set }
    var used: Int { get set }
    /// The rotation counts of the four-block path (see ``ChaCha20/rotations``).
    var rotations: SIMD8<UInt32> { get }
    /// The kernel of the backend chosen at `init`, nil for the portable code.
    var kernel: StreamBackend.XOR? { get }

    /// The block function: one keystream block of `input`.
    static func block(_ input: SIMD16<UInt32>) -> SIMD16<UInt32>
    /// Four consecutive blocks from `state` XORed into 256 bytes at `target`.
    static func xorFourBlocks(state: SIMD16<UInt32>, rotations: SIMD8<UInt32>, into target: UnsafeMutableRawPointer)
    /// Adds `blocks` to the counter in `state` (as the cipher defines its width and wrap).
    static func advance(_ state: inout SIMD16<UInt32>, by blocks: UInt64)
}

extension ARXStreamCipher {
    /// XORs the next `buffer.count` keystream bytes into `buffer`.
    mutating func xorKeystream(into buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let count = buffer.count
        var offset = 0
        // Rest of the current block.
        while used < 64 && offset < count {
            xorKeystreamByte(into: base + offset)
            offset += 1
        }
        // Many blocks a call on a hardware kernel.
        if let kernel, count - offset >= 64 {
            let done = withUnsafeBytes(of: state) { kernel($0.baseAddress!, base + offset, (count - offset) / 64) }
            Self.advance(&state, by: UInt64(done))
            offset += 64 * done
        }
        // Four blocks at a time.
        while count - offset >= 256 {
            Self.xorFourBlocks(state: state, rotations: rotations, into: base + offset)
            Self.advance(&state, by: 4)
            offset += 256
        }
        // Whole blocks, then a partial one whose rest is kept.
        while offset < count {
            block = Self.block(state)
            Self.advance(&state, by: 1)
            if count - offset >= 64 {
                xorBlock(block, into: base + offset)
                offset += 64
            } else {
                used = 0
                while offset < count {
                    xorKeystreamByte(into: base + offset)
                    offset += 1
                }
            }
        }
    }

    /// XORs the next unused byte of `block` into `target` and marks it used.
    @inline(__always)
    private mutating func xorKeystreamByte(into target: UnsafeMutableRawPointer) {
        let byte = UInt8(truncatingIfNeeded: block[used >> 2] >> UInt32((used & 3) * 8))
        target.storeBytes(of: target.load(as: UInt8.self) ^ byte, as: UInt8.self)
        used += 1
    }
}

/// The sixteen words of four consecutive blocks, one block per `SIMD4` lane: the state of the
/// four-block paths of ChaCha20 and Salsa20.
struct FourBlockLanes {
    typealias V = SIMD4<UInt32>
    var x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15: V

    /// Blocks n ... n + 3 of the input matrix `s`: every word in all four lanes, the counter word
    /// `counter` plus 0 ... 3 lane by lane (wrapping at 2^32), and with `highCounter` a 64-bit
    /// counter whose high word takes each lane's carry.
    @inline(__always)
    init(_ s: SIMD16<UInt32>, counter: Int, highCounter: Int? = nil) {
        x0 = V(repeating: s[0]); x1 = V(repeating: s[1]); x2 = V(repeating: s[2]); x3 = V(repeating: s[3])
        x4 = V(repeating: s[4]); x5 = V(repeating: s[5]); x6 = V(repeating: s[6]); x7 = V(repeating: s[7])
        x8 = V(repeating: s[8]); x9 = V(repeating: s[9]); x10 = V(repeating: s[10]); x11 = V(repeating: s[11])
        x12 = V(repeating: s[12]); x13 = V(repeating: s[13]); x14 = V(repeating: s[14]); x15 = V(repeating: s[15])
        let low = V(repeating: s[counter]) &+ V(0, 1, 2, 3)
        self[counter] = low
        if let highCounter {
            self[highCounter] &+= V(repeating: 0).replacing(with: 1, where: low .< V(repeating: s[counter]))
        }
    }

    /// Word `i` of the four blocks (constant-folded where `i` is a constant).
    @inline(__always)
    private subscript(i: Int) -> V {
        get {
            switch i {
            case 0: x0
            case 1: x1
            case 2: x2
            case 3: x3
            case 4: x4
            case 5: x5
            case 6: x6
            case 7: x7
            case 8: x8
            case 9: x9
            case 10: x10
            case 11: x11
            case 12: x12
            case 13: x13
            case 14: x14
            default: x15
            }
        }
        set {
            switch i {
            case 0: x0 = newValue
            case 1: x1 = newValue
            case 2: x2 = newValue
            case 3: x3 = newValue
            case 4: x4 = newValue
            case 5: x5 = newValue
            case 6: x6 = newValue
            case 7: x7 = newValue
            case 8: x8 = newValue
            case 9: x9 = newValue
            case 10: x10 = newValue
            case 11: x11 = newValue
            case 12: x12 = newValue
            case 13: x13 = newValue
            case 14: x14 = newValue
            default: x15 = newValue
            }
        }
    }

    /// Adds `input` word by word (the feed-forward of both ciphers) and XORs the four blocks into
    /// 256 bytes at `target`.
    @inline(__always)
    func xor(adding input: FourBlockLanes, into target: UnsafeMutableRawPointer) {
        xorTransposed(x0 &+ input.x0, x1 &+ input.x1, x2 &+ input.x2, x3 &+ input.x3, target, 0)
        xorTransposed(x4 &+ input.x4, x5 &+ input.x5, x6 &+ input.x6, x7 &+ input.x7, target, 16)
        xorTransposed(x8 &+ input.x8, x9 &+ input.x9, x10 &+ input.x10, x11 &+ input.x11, target, 32)
        xorTransposed(x12 &+ input.x12, x13 &+ input.x13, x14 &+ input.x14, x15 &+ input.x15, target, 48)
    }
}
