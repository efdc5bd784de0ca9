import MyPassCompression
import MyPassTestSupport
import Testing

@Suite("Checksums")
struct ChecksumTests {
    @Test("CRC-32 check value of \"123456789\" is 0xCBF43926 (ISO 3309 / gzip)")
    func crc32CheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test("Adler-32 of \"Wikipedia\" is 0x11E60398 (RFC 1950 example value)")
    func adler32KnownValue() {
        #expect(Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Adler32.checksum([]) == 1)
    }

    @Test("Checksums are incremental over any split, and match the gzip/zlib trailers of Python's zlib")
    func incremental() throws {
        let data = try TestVectors.bytes("compression/gpl-3.txt")
        let whole = CRC32.checksum(data)
        let adler = Adler32.checksum(data)
        var crc: UInt32 = 0
        var a: UInt32 = 1
        for piece in randomSplits(data, seed: 7, maxPiece: 5000) {
            crc = CRC32.checksum(piece, initial: crc)
            a = Adler32.checksum(piece, initial: a)
        }
        #expect(crc == whole)
        #expect(a == adler)
        // gzip trailer of Debian gzip: CRC-32 little-endian, then ISIZE.
        let gz = try TestVectors.bytes("compression/gpl-3.txt.gz")
        let trailerCRC = UInt32(gz[gz.count - 8]) | UInt32(gz[gz.count - 7]) << 8
            | UInt32(gz[gz.count - 6]) << 16 | UInt32(gz[gz.count - 5]) << 24
        #expect(whole == trailerCRC)
        // zlib trailer of Python's zlib: Adler-32 big-endian.
        let z = try TestVectors.bytes("compression/gpl-3.txt.L6.zlib")
        let trailerAdler = UInt32(z[z.count - 4]) << 24 | UInt32(z[z.count - 3]) << 16
            | UInt32(z[z.count - 2]) << 8 | UInt32(z[z.count - 1])
        #expect(adler == trailerAdler)
        // Adler-32 over more than 5552 bytes of 0xFF exercises the modulo deferral.
        #expect(Adler32.checksum([UInt8](repeating: 0xFF, count: 100_000)) == 0x149A_302C)  // Python zlib.adler32
    }

    @Test("CRC-32 over many 12 KiB strides (three lanes joined) equals Python's zlib.crc32")
    func crc32LongInputs() {
        #expect(CRC32.checksum([UInt8](repeating: 0xFF, count: 100_000)) == 0x68C6_CEC4)
        // bytes((i*i*7 + i//3) & 255 for i in range(1 << 20))
        let pattern = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* $0 &* 7 &+ $0 / 3) }
        #expect(CRC32.checksum(pattern) == 0x010C_980B)
        #expect(CRC32.checksum(pattern[12_289...], initial: CRC32.checksum(pattern[..<12_289])) == 0x010C_980B)
    }
}
