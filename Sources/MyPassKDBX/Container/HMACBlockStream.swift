import MyPassBytes
import MyPassCrypto

/// The KDBX 4 HMAC block stream (KeePassLib `Serialization/HmacBlockStream.cs`): each block is
/// HMAC-SHA-256 (32 bytes) ‖ i32 LE size ‖ data, the HMAC taken over LE64(index) ‖ LE32(size) ‖
/// data with the per-block key SHA-512(LE64(index) ‖ hmacKey). Indices start at 0 and are not
/// stored; the stream ends with an empty block that still carries its HMAC.
package enum HMACBlockStream {
    /// The block size KeePass writes: 1 MiB.
    public static let defaultBlockByteCount = 1 << 20

    /// The 64-byte key of block `index`; `UInt64.max` gives the header HMAC key.
    public static func blockKey(index: UInt64, hmacKey: SecureBytes) -> [UInt8] {
        var hasher = SHA512()
        var prefix = [UInt8]()
        prefix.appendLittleEndian(index)
        hasher.update(prefix)
        hmacKey.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// HMAC-SHA-256 of the outer header bytes with the block key of index 2^64-1 (KeePassLib
    /// `KdbxFile.cs ComputeHeaderHmac`); stored right after the header's SHA-256.
    public static func headerHMAC(header: [UInt8], hmacKey: SecureBytes) -> [UInt8] {
        var key = blockKey(index: .max, hmacKey: hmacKey)
        defer { wipe(&key) }
        return HMAC<SHA256>.authenticationCode(for: header, key: key)
    }

    /// The HMAC of one block.
    static func blockHMAC(index: UInt64, data: ArraySlice<UInt8>, hmacKey: SecureBytes) -> [UInt8] {
        var key = blockKey(index: index, hmacKey: hmacKey)
        defer { wipe(&key) }
        var mac = HMAC<SHA256>(key: key)
        var prefix = [UInt8]()
        prefix.appendLittleEndian(index)
        prefix.appendLittleEndian(UInt32(truncatingIfNeeded: data.count))
        mac.update(prefix)
        mac.update(data)
        return mac.finalize()
    }

    /// Frames `data` (ciphertext) as blocks of `blockByteCount` bytes plus the final empty block.
    public static func write(_ data: [UInt8], hmacKey: SecureBytes, blockByteCount: Int = defaultBlockByteCount) -> [UInt8] {
        var writer = Writer(hmacKey: hmacKey, blockByteCount: blockByteCount)
        var out = [UInt8]()
        out.reserveCapacity(data.count + (data.count / max(blockByteCount, 1) + 2) * 36)
        writer.write(data[...], into: &out)
        writer.finish(into: &out)
        return out
    }

    /// Verifies and unframes a whole block stream (the bytes after the header HMAC).
    /// - Throws: ``KDBXError`` `.corruptedFile` for a block whose HMAC fails or a truncated stream.
    public static func read(_ stream: ArraySlice<UInt8>, hmacKey: SecureBytes, limits: KDBXLimits = KDBXLimits()) throws(KDBXError) -> [UInt8] {
        var reader = Reader(stream, hmacKey: hmacKey, limits: limits)
        var out = [UInt8]()
        while let block = try reader.next() { out.append(contentsOf: block) }
        return out
    }

    /// Walks the blocks of a stream held in memory, verifying each one; yields slices of the input.
    ///
    /// Bytes after the final empty block are not read, and a file that has them opens as if they
    /// were not there. This is what KeePass (`HmacBlockStream` stops at the empty block; `KdbxFile`
    /// never looks further) and KeePassXC do; the bytes are covered by no HMAC, so they cannot change
    /// what is read, and a save does not write them. Refusing them would refuse files both
    /// reference clients open (a sync tool's padding) and protect nothing.
    public struct Reader {
        private let stream: ArraySlice<UInt8>
        private let hmacKey: SecureBytes
        private let limits: KDBXLimits
        private var position: Int
        private var index: UInt64 = 0
        private var finished = false
        /// Offset of `stream`'s first byte in the file, for error locations.
        public var fileOffset: Int

        /// A reader over `stream` (the HMAC block stream, starting at its first block).
        public init(_ stream: ArraySlice<UInt8>, hmacKey: SecureBytes, limits: KDBXLimits, fileOffset: Int = 0) {
            self.stream = stream
            self.hmacKey = hmacKey
            self.limits = limits
            self.position = stream.startIndex
            self.fileOffset = fileOffset
        }

        /// Whether the final empty block was read.
        public var isFinished: Bool { finished }

        /// The next block's data, or `nil` after the final empty block.
        /// - Throws: ``KDBXError`` `.corruptedFile` (HMAC mismatch, truncation, negative size),
        ///   `.limitExceeded` (block larger than `limits.maxBlockBytes`).
        public mutating func next() throws(KDBXError) -> ArraySlice<UInt8>? {
            if finished { return nil }
            let location = "HMAC block \(index) at offset \(fileOffset + position - stream.startIndex)"
            guard stream.endIndex - position >= 36 else {
                throw KDBXError(.corruptedFile, "file ends inside the HMAC block stream", location: location)
            }
            let storedMAC = stream[position..<(position + 32)]
            let size = loadLittleEndian(stream[(position + 32)..<(position + 36)], as: Int32.self)
            guard size >= 0 else { throw KDBXError(.corruptedFile, "negative block size", location: location) }
            let start = position + 36
            guard stream.endIndex - start >= Int(size) else {
                throw KDBXError(.corruptedFile, "file ends inside an HMAC block", location: location)
            }
            guard Int(size) <= limits.maxBlockBytes else {
                throw KDBXError(.limitExceeded, "block of \(size) bytes", location: location)
            }
            let data = stream[start..<(start + Int(size))]
            let mac = HMACBlockStream.blockHMAC(index: index, data: data, hmacKey: hmacKey)
            guard constantTimeEquals(mac, storedMAC) else {
                throw KDBXError(.corruptedFile, "block HMAC mismatch", location: location)
            }
            position = start + Int(size)
            index += 1
            if size == 0 {
                finished = true
                return nil
            }
            return data
        }
    }

    /// Frames ciphertext as it is produced.
    public struct Writer {
        private let hmacKey: SecureBytes
        private var framer: BlockFramer
        private var index: UInt64 = 0

        /// A writer with blocks of `blockByteCount` bytes (1 MiB by default).
        public init(hmacKey: SecureBytes, blockByteCount: Int = HMACBlockStream.defaultBlockByteCount) {
            self.hmacKey = hmacKey
            framer = BlockFramer(blockByteCount: blockByteCount)
        }

        /// Appends `data`, emitting every complete block to `out`.
        public mutating func write(_ data: ArraySlice<UInt8>, into out: inout [UInt8]) {
            let key = hmacKey
            var index = self.index
            framer.write(data) { Self.emit($0, index: &index, hmacKey: key, into: &out) }
            self.index = index
        }

        /// Emits the last partial block and the final empty block.
        public mutating func finish(into out: inout [UInt8]) {
            let key = hmacKey
            var index = self.index
            framer.finish { Self.emit($0, index: &index, hmacKey: key, into: &out) }
            Self.emit([][...], index: &index, hmacKey: key, into: &out)
            self.index = index
        }

        /// One block: HMAC-SHA-256 ‖ i32 LE size ‖ data.
        private static func emit(_ block: ArraySlice<UInt8>, index: inout UInt64, hmacKey: SecureBytes, into out: inout [UInt8]) {
            out.append(contentsOf: HMACBlockStream.blockHMAC(index: index, data: block, hmacKey: hmacKey))
            out.appendLittleEndian(Int32(block.count))
            out.append(contentsOf: block)
            index += 1
        }
    }
}
