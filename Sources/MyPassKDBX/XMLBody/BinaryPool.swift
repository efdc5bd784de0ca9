/// The binary pool a save writes: one copy of each distinct attachment content (with its protection
/// flag), numbered in the order KeePass numbers them (`KdbxFile.Write.cs BinPoolBuild`: groups in
/// pre-order, each group's entries in stored order, an entry's history items before the entry
/// itself, attachments in stored order).
///
/// KDBX 4 writes ``items`` into the inner header (field 3, flag byte 0x01 when protected); KDBX 3.x
/// writes them into `Meta/Binaries`. Entries then refer to them as `<Value Ref="n" />`.
package struct BinaryPool: Sendable {
    /// The distinct binaries, in reference order (reference `n` is `items[n]`).
    public private(set) var items: [BinaryPoolItem] = []
    /// Item numbers by a fingerprint of size, flag and sampled bytes (not of every byte: hashing
    /// all of a large attachment cost as much as the rest of its save). Contents with the same
    /// fingerprint are then compared: at once when they share their storage (an attachment and
    /// its copies in the history), word by word otherwise.
    private var indicesByFingerprint: [Int: [Int]] = [:]

    /// An empty pool.
    public init() {}

    /// The pool for every attachment of `vault`, history included, deduplicated.
    public init(vault: Vault) {
        vault.root.forEachGroup { group, _ in
            for entry in group.entries {
                for historyItem in entry.history {
                    for attachment in historyItem.attachments { add(attachment) }
                }
                for attachment in entry.attachments { add(attachment) }
            }
        }
    }

    /// Adds an attachment's content unless an equal one (same bytes, same protection) is present.
    /// - Returns: its reference number.
    @discardableResult
    public mutating func add(_ attachment: Attachment) -> Int {
        let fingerprint = Self.fingerprint(attachment)
        if let index = find(attachment, among: indicesByFingerprint[fingerprint]) { return index }
        items.append(BinaryPoolItem(data: attachment.data, isProtected: attachment.isProtected))
        indicesByFingerprint[fingerprint, default: []].append(items.count - 1)
        return items.count - 1
    }

    /// The reference number of an attachment's content, or `nil` when it is not in the pool.
    public func reference(for attachment: Attachment) -> Int? {
        find(attachment, among: indicesByFingerprint[Self.fingerprint(attachment)])
    }

    private func find(_ attachment: Attachment, among candidates: [Int]?) -> Int? {
        candidates?.first { index in
            items[index].isProtected == attachment.isProtected && Self.sameBytes(items[index].data, attachment.data)
        }
    }

    /// The size, the flag and up to 64 bytes at the start, the middle and the end.
    private static func fingerprint(_ attachment: Attachment) -> Int {
        var hasher = Hasher()
        hasher.combine(attachment.data.count)
        hasher.combine(attachment.isProtected)
        attachment.data.withUnsafeBytes { bytes in
            let sample = 64
            if bytes.count <= 3 * sample {
                hasher.combine(bytes: bytes)
            } else {
                let middle = (bytes.count - sample) / 2
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<sample]))
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[middle..<(middle + sample)]))
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - sample)...]))
            }
        }
        return hasher.finalize()
    }

    /// Whether `a` and `b` hold the same bytes: true at once for one shared storage, else eight
    /// bytes at a time.
    private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard let p = x.baseAddress, let q = y.baseAddress, p != q else { return true }
                var offset = 0
                while offset &+ 8 <= x.count {
                    if p.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        != q.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
                    offset &+= 8
                }
                while offset < x.count {
                    if x[offset] != y[offset] { return false }
                    offset &+= 1
                }
                return true
            }
        }
    }
}
