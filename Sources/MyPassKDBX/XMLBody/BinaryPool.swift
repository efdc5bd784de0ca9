/// The binary pool a save writes: one copy of each distinct attachment content (with its protection
/// flag), numbered in the order KeePass numbers them (`KdbxFile.Write.cs BinPoolBuild`: groups in
/// pre-order, each group's entries in stored order, an entry's history items before the entry
/// itself, attachments in stored order).
///
/// KDBX 4 writes ``items`` into the inner header (field 3, flag byte 0x01 when protected); KDBX 3.x
/// writes them into `Meta/Binaries`. Entries then refer to them as `<Value Ref="n" />`.
public struct BinaryPool: Sendable {
    /// The distinct binaries, in reference order (reference `n` is `items[n]`).
    public private(set) var items: [BinaryPoolItem] = []
    private var indexByContent: [BinaryPoolItem: Int] = [:]

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
        let item = BinaryPoolItem(data: attachment.data, isProtected: attachment.isProtected)
        if let index = indexByContent[item] { return index }
        items.append(item)
        indexByContent[item] = items.count - 1
        return items.count - 1
    }

    /// The reference number of an attachment's content, or `nil` when it is not in the pool.
    public func reference(for attachment: Attachment) -> Int? {
        indexByContent[BinaryPoolItem(data: attachment.data, isProtected: attachment.isProtected)]
    }
}

