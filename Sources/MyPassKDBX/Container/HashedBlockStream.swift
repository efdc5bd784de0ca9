import MyPassBytes
import MyPassCrypto

/// The KDBX 3.x hashed block stream (KeePassLib `Serialization/HashedBlockStream.cs`): blocks of
/// u32 LE index ‖ SHA-256(data) ‖ i32 LE size ‖ data; the stream ends with a block of size 0
/// whose hash is all zeros.
package enum HashedBlockStream {
    /// The block size KeePass writes: 1 MiB.
    public static let defaultBlockByteCount = 1 << 20

    /// Frames `data` into blocks plus the final empty block.
    public static func write(_ data: [UInt8], blockByteCount: Int = defaultBlockByteCount) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(data.count + (data.count / max(blockByteCount, 1) + 2) * 40)
        var writer = Writer(blockByteCount: blockByteCount)
        writer.write(data[...], into: &out)
        writer.finish(into: &out)
        return out
    }

    /// Frames data as it is produced (the streaming form of ``write(_:blockByteCount:)``).
    public struct Writer {
        private var framer: BlockFramer
        private var index: UInt32 = 0

        /// A writer with blocks of `blockByteCount` bytes (1 MiB by default).
        public init(blockByteCount: Int = HashedBlockStream.defaultBlockByteCount) {
            framer = BlockFramer(blockByteCount: blockByteCount)
        }

        /// Appends `data`, emitting every complete block to `out`.
        public mutating func write(_ data: ArraySlice<UInt8>, into out: inout [UInt8]) {
            var index = self.index
            framer.write(data) { Self.emit($0, index: &index, into: &out) }
            self.index = index
        }

        /// Emits the last partial block and the final empty block (index, 32 zero bytes, size 0).
        public mutating func finish(into out: inout [UInt8]) {
            var index = self.index
            framer.finish { Self.emit($0, index: &index, into: &out) }
            self.index = index
            out.appendLittleEndian(index)
            out.append(contentsOf: [UInt8](repeating: 0, count: 32))
            out.appendLittleEndian(Int32(0))
        }

        /// One block: u32 LE index ‖ SHA-256(data) ‖ i32 LE size ‖ data.
        private static func emit(_ block: ArraySlice<UInt8>, index: inout UInt32, into out: inout [UInt8]) {
            out.appendLittleEndian(index)
            out.append(contentsOf: SHA256.hash(block))
            out.appendLittleEndian(Int32(block.count))
            out.append(contentsOf: block)
            index += 1
        }
    }

    /// Verifies and unframes a whole hashed block stream.
    /// - Throws: ``KDBXError`` `.corruptedFile` for a hash or index mismatch or a truncated stream.
    public static func read(_ stream: [UInt8], limits: KDBXLimits = KDBXLimits()) throws(KDBXError) -> [UInt8] {
        var reader = Reader(limits: limits)
        var out = try reader.feed(stream[...])
        out.append(contentsOf: try reader.finish())
        return out
    }

    /// Unframes a hashed block stream fed in chunks of any size.
    public struct Reader {
        private let limits: KDBXLimits
        private var pending: [UInt8] = []
        private var index: UInt32 = 0
        private var consumed = 0
        /// Whether the final empty block was read.
        public private(set) var isFinished = false

        private let maxTotalBytes: Int

        /// A reader with the given limits on block size.
        /// - Parameter maxTotalBytes: the most bytes the stream can hold (the ciphertext length when
        ///   known): a block claiming more is corrupted rather than over a limit.
        public init(limits: KDBXLimits, maxTotalBytes: Int = .max) {
            self.limits = limits
            self.maxTotalBytes = maxTotalBytes
        }

        /// Takes the next chunk and returns the data of the blocks it completes.
        /// - Throws: ``KDBXError`` `.corruptedFile` (hash, index or final-block mismatch),
        ///   `.limitExceeded` (block too large).
        public mutating func feed(_ chunk: ArraySlice<UInt8>) throws(KDBXError) -> [UInt8] {
            if isFinished { return [] }
            pending.append(contentsOf: chunk)
            var out = [UInt8]()
            var position = 0
            while !isFinished, pending.count - position >= 40 {
                let location = "hashed block \(index) at payload offset \(consumed + position)"
                let storedIndex = loadLittleEndian(pending[position..<(position + 4)], as: UInt32.self)
                guard storedIndex == index else {
                    throw KDBXError(.corruptedFile, "hashed block index mismatch", location: location)
                }
                let size = loadLittleEndian(pending[(position + 36)..<(position + 40)], as: Int32.self)
                guard size >= 0 else { throw KDBXError(.corruptedFile, "negative block size", location: location) }
                guard Int(size) <= maxTotalBytes - consumed - position - 40 else {
                    throw KDBXError(.corruptedFile, "hashed block larger than the payload", location: location)
                }
                guard Int(size) <= limits.maxBlockBytes else {
                    throw KDBXError(.limitExceeded, "block of \(size) bytes", location: location)
                }
                let hash = pending[(position + 4)..<(position + 36)]
                if size == 0 {
                    guard hash.allSatisfy({ $0 == 0 }) else {
                        throw KDBXError(.corruptedFile, "final hashed block has a non-zero hash", location: location)
                    }
                    isFinished = true
                    position += 40
                    break
                }
                guard pending.count - position - 40 >= Int(size) else { break }
                let data = pending[(position + 40)..<(position + 40 + Int(size))]
                guard constantTimeEquals(SHA256.hash(data), hash) else {
                    throw KDBXError(.corruptedFile, "hashed block hash mismatch", location: location)
                }
                out.append(contentsOf: data)
                position += 40 + Int(size)
                index &+= 1
            }
            consumed += position
            pending.removeFirst(position)
            if isFinished { pending = [] }
            return out
        }

        /// Ends the stream.
        /// - Throws: ``KDBXError`` `.corruptedFile` when the final empty block was not seen.
        public mutating func finish() throws(KDBXError) -> [UInt8] {
            guard isFinished else {
                throw KDBXError(.corruptedFile, "the hashed block stream ends early",
                                location: "hashed block \(index) at payload offset \(consumed)")
            }
            return []
        }
    }
}
