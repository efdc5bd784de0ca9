import MyPassKDBX

extension Entry {
    /// The approximate in-memory size KeePass uses to trim history (`PwEntry.GetSize`): 128 bytes
    /// of fixed data plus the lengths of field names and values, attachment names and contents,
    /// auto-type sequences, the override URL, tags and custom data, and the sizes of history items.
    /// Lengths are UTF-8 bytes (KeePass counts UTF-16 units; the two agree for ASCII).
    public var approximateSize: Int {
        var size = 128
        for field in fields { size += field.key.utf8.count + field.utf8Count }
        for attachment in attachments { size += attachment.name.utf8.count + attachment.data.count }
        size += autoType.defaultSequence.utf8.count
        for association in autoType.associations {
            size += association.window.utf8.count + association.sequence.utf8.count
        }
        size += overrideURL.utf8.count
        for tag in tags { size += tag.utf8.count }
        for item in customData { size += item.key.utf8.count + item.value.utf8.count }
        for item in history { size += item.approximateSize }
        return size
    }

    /// Trims history to `maxItems` items and `maxSize` bytes (oldest first; `-1` or less means no
    /// limit), as KeePass's `PwEntry.MaintainBackups`. Returns whether anything was removed.
    @discardableResult
    public mutating func trimHistory(maxItems: Int, maxSize: Int64) -> Bool {
        var removed = false
        if maxItems >= 0 {
            while history.count > maxItems {
                history.removeFirst()
                removed = true
            }
        }
        if maxSize >= 0 {
            var total = Int64(history.reduce(0) { $0 + $1.approximateSize })
            while total > maxSize, !history.isEmpty {
                total -= Int64(history.removeFirst().approximateSize)
                removed = true
            }
        }
        return removed
    }
}
