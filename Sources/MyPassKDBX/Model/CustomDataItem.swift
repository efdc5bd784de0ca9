/// One `<CustomData><Item>` (Meta, group or entry custom data): a key, a value and, from KDBX 4.1,
/// the time it was last modified (KeePass `StringDictionaryEx`).
public struct CustomDataItem: Equatable, Sendable {
    /// `Key`.
    public var key: String
    /// `Value`.
    public var value: String
    /// `LastModificationTime` (KDBX 4.1; written only when writing 4.1 or later).
    public var lastModification: KDBXTime?
    /// Unknown child elements and comments, kept in place.
    public var unknownElements: [UnknownElement] = []

    /// An item; `lastModification` is `nil` for items without a 4.1 time.
    public init(key: String, value: String, lastModification: KDBXTime? = nil) {
        self.key = key
        self.value = value
        self.lastModification = lastModification
    }
}

extension Array where Element == CustomDataItem {
    /// The value stored for `key` (the first item with that key), or `nil`.
    public subscript(customDataKey key: String) -> String? {
        first(where: { $0.key == key })?.value
    }

    /// Sets (or with `nil` removes) the value for `key`, keeping the order of the other items; a new
    /// key is appended.
    public mutating func setCustomData(_ value: String?, forKey key: String, lastModification: KDBXTime? = nil) {
        if let index = firstIndex(where: { $0.key == key }) {
            if let value {
                self[index].value = value
                self[index].lastModification = lastModification ?? self[index].lastModification
            } else {
                remove(at: index)
            }
        } else if let value {
            append(CustomDataItem(key: key, value: value, lastModification: lastModification))
        }
    }
}
