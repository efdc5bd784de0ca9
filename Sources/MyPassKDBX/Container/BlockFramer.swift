import MyPassBytes

/// Cuts a stream into blocks of `blockByteCount` bytes as it is produced: the buffering both block
/// stream writers share (``HMACBlockStream/Writer`` for KDBX 4, ``HashedBlockStream/Writer`` for
/// 3.x), each of which frames the blocks it is handed in its own format. A block is handed on
/// from the input where it lies whole in one `write`, and from a pending buffer (wiped once used,
/// since 3.x blocks are plaintext) where it spans calls.
struct BlockFramer {
    /// Bytes in every block but the last.
    let blockByteCount: Int
    private var pending: [UInt8] = []

    /// - Parameter blockByteCount: the block size in bytes (at least 1).
    init(blockByteCount: Int) {
        self.blockByteCount = max(1, blockByteCount)
    }

    /// Appends `data`, handing every complete block to `emit` in order.
    mutating func write(_ data: ArraySlice<UInt8>, _ emit: (ArraySlice<UInt8>) -> Void) {
        var rest = data
        if !pending.isEmpty {
            let take = min(blockByteCount - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            if pending.count == blockByteCount {
                emit(pending[...])
                wipe(&pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        while rest.count >= blockByteCount {
            emit(rest.prefix(blockByteCount))
            rest = rest.dropFirst(blockByteCount)
        }
        pending.append(contentsOf: rest)
    }

    /// Hands the last, partial block to `emit` when there is one (never an empty block: the
    /// formats' final blocks are their own).
    mutating func finish(_ emit: (ArraySlice<UInt8>) -> Void) {
        if !pending.isEmpty { emit(pending[...]) }
        wipe(&pending)
        pending = []
    }
}
