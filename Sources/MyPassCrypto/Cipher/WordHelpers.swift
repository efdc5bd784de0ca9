// Small helpers shared by the stream and block ciphers.

/// XORs words (a, b, c, d) of four lane-blocks into 16 bytes at `offset` of each 64-byte block.
@inline(__always)
func xorTransposed(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>,
                   _ target: UnsafeMutableRawPointer, _ offset: Int) {
    for lane in 0..<4 {
        let p = target + 64 * lane + offset
        let row = SIMD4<UInt32>(a[lane], b[lane], c[lane], d[lane])
        let old = p.loadUnaligned(as: SIMD4<UInt32>.self)
        p.storeBytes(of: old ^ SIMD4<UInt32>(littleEndianLanes: row), as: SIMD4<UInt32>.self)
    }
}

/// XORs one 64-byte keystream block into `target`.
@inline(__always)
func xorBlock(_ block: SIMD16<UInt32>, into target: UnsafeMutableRawPointer) {
    let old = target.loadUnaligned(as: SIMD16<UInt32>.self)
    target.storeBytes(of: old ^ SIMD16<UInt32>(littleEndianLanes: block), as: SIMD16<UInt32>.self)
}

extension SIMD where Scalar == UInt32 {
    /// The lanes in little-endian byte order (a no-op on little-endian machines).
    @inline(__always)
    init(littleEndianLanes value: Self) {
        #if _endian(little)
        self = value
        #else
        self = Self()
        for i in indices { self[i] = value[i].littleEndian }
        #endif
    }
}

/// The little-endian 32-bit word at `offset` of `bytes`.
func littleEndianWord(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
        | UInt32(bytes[offset + 3]) << 24
}
