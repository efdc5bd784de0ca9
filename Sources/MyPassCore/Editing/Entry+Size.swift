import MyPassKDBX

extension Entry {
    /// The fixed part of KeePass's size estimate: 276 bytes since KeePass 2.48 (which added the
    /// KDBX 4.1 fields); KeePass 2.47 counted 248 (measured with its library through kporacle).
    public static let keePassFixedSizeBytes = 276

    /// The size estimate KeePass trims history with (`PwEntry.GetSize`), with KeePass 2.48's and
    /// later fixed part; see ``approximateSize(fixedBytes:)``.
    public var approximateSize: Int { approximateSize(fixedBytes: Entry.keePassFixedSizeBytes) }

    /// KeePass's `PwEntry.GetSize`: an estimate of the entry's size in .NET memory, with 64-bit
    /// references and UTF-16 strings.
    ///
    /// Bytes: `fixedBytes` per entry and per history item, 40 per string field, 65 per attachment plus its content, 24 per auto-type
    /// association, 8 per history item plus the item's own size, 8 per tag, 16 per custom data
    /// item; plus two bytes per UTF-16 code unit of field names and values, attachment names, the
    /// default auto-type sequence, association windows and sequences, the override URL, tags and
    /// custom data keys and values. Protected values are counted without being revealed as text.
    public func approximateSize(fixedBytes: Int) -> Int {
        var bytes = fixedBytes
        var units = 0
        bytes += fields.count * 40
        for field in fields { units += field.key.utf16.count + field.utf16Count }
        bytes += attachments.count * 65
        for attachment in attachments {
            units += attachment.name.utf16.count
            bytes += attachment.data.count
        }
        units += autoType.defaultSequence.utf16.count
        bytes += autoType.associations.count * 24
        for association in autoType.associations {
            units += association.window.utf16.count + association.sequence.utf16.count
        }
        bytes += history.count * 8
        for item in history { bytes += item.approximateSize(fixedBytes: fixedBytes) }
        units += overrideURL.utf16.count
        bytes += tags.count * 8
        for tag in tags { units += tag.utf16.count }
        bytes += customData.count * 16
        for item in customData { units += item.key.utf16.count + item.value.utf16.count }
        return bytes + 2 * units
    }

    /// Trims history to `maxItems` items and `maxSize` bytes of ``approximateSize`` (`-1` or less
    /// means no limit), as KeePass's `PwEntry.MaintainBackups`: while a limit is exceeded, the item
    /// with the oldest modification time goes (the first of equally old ones; KeePass's
    /// `RemoveOldestBackup`), whatever its position. `fixedEntryBytes` is the fixed part of the
    /// size estimate (``keePassFixedSizeBytes``, or 248 to trim as KeePass 2.47 does). Returns
    /// whether anything was removed.
    @discardableResult
    public mutating func trimHistory(maxItems: Int, maxSize: Int64,
                                     fixedEntryBytes: Int = Entry.keePassFixedSizeBytes) -> Bool {
        var removed = false
        if maxItems >= 0 {
            while history.count > maxItems {
                history.remove(at: oldestHistoryIndex())
                removed = true
            }
        }
        if maxSize >= 0 {
            var total = Int64(history.reduce(0) { $0 + $1.approximateSize(fixedBytes: fixedEntryBytes) })
            while total > maxSize, !history.isEmpty {
                total -= Int64(history.remove(at: oldestHistoryIndex()).approximateSize(fixedBytes: fixedEntryBytes))
                removed = true
            }
        }
        return removed
    }

    /// The index of the history item with the earliest modification time (the first of a tie).
    private func oldestHistoryIndex() -> Int {
        var oldest = 0
        for index in history.indices.dropFirst()
        where history[index].times.lastModification < history[oldest].times.lastModification {
            oldest = index
        }
        return oldest
    }
}
