import MyPassXML

/// How an entry offers an SSH key, in the form KeePassXC and KeeAgent (the KeePass plugin) share:
/// an attachment named `KeeAgent.settings` holding an XML document `<EntrySettings>`.
///
/// Read as KeePassXC reads it (`KeeAgentSettings::fromXml`): the root must be `EntrySettings`; a
/// boolean is true when its text starts with `t` or `T`; unknown elements are skipped; missing
/// ones keep KeePassXC's defaults (everything off, lifetime 600 s, location "file"). KeePassXC
/// and KeeAgent write the document in UTF-16 with a byte-order mark; UTF-8, with or without one,
/// is read too.
public struct KeeAgentSettings: Sendable, Equatable {
    /// The attachment that holds the settings.
    public static let attachmentName = "KeeAgent.settings"
    /// The largest settings document read, in bytes (KeePassXC's are under 2 KB).
    public static let maxBytes = 64 * 1024

    /// Where the private key is.
    public enum Location: Sendable, Equatable {
        /// An attachment of the entry, by name (`SelectedType` "attachment").
        case attachment(String)
        /// A file on disk, by path, `$VARIABLE`s not yet substituted (`SelectedType` "file").
        case file(String)
    }

    /// Whether the key may be used at all ("Enable SSH Agent integration for this entry").
    public var allowUseOfSSHKey = false
    /// Add the key when the vault is unlocked.
    public var addAtDatabaseOpen = false
    /// Remove the key when the vault is locked (MyPass always does; kept for round trips).
    public var removeAtDatabaseClose = false
    /// Ask before each use of the key.
    public var useConfirmConstraintWhenAdding = false
    /// Forget the key ``lifetimeConstraintDuration`` seconds after adding it.
    public var useLifetimeConstraintWhenAdding = false
    /// The lifetime in seconds (KeePassXC's default 600).
    public var lifetimeConstraintDuration = 600
    /// Where the key is.
    public var location = Location.file("")

    /// KeePassXC's defaults.
    public init() {}

    /// Reads a settings document.
    /// - Throws: ``CoreError/Code/invalidSSHKey`` for text that is not XML, a root other than
    ///   `EntrySettings`, or a document over ``maxBytes``.
    public init(xml bytes: [UInt8]) throws(CoreError) {
        guard bytes.count <= Self.maxBytes else {
            throw CoreError(.invalidSSHKey, "KeeAgent.settings larger than \(Self.maxBytes) bytes")
        }
        let utf8 = Self.utf8WithoutDeclaration(bytes)
        var tokenizer = XMLTokenizer(limits: XMLLimits(), skipsWhitespaceText: true)
        tokenizer.feed(utf8)
        tokenizer.finish()
        var path: [String] = []
        var text = ""
        var selectedType = "file", attachmentName = "", fileName = ""
        do {
            while let event = try tokenizer.next() {
                switch event {
                case .startElement(let name, _):
                    if path.isEmpty && name != "EntrySettings" {
                        throw CoreError(.invalidSSHKey, "KeeAgent.settings: the root element is <\(name.prefix(40))>, not <EntrySettings>")
                    }
                    path.append(name)
                    text = ""
                case .text(let value), .cdata(let value):
                    text += value
                case .endElement(let name):
                    let parent = path.count >= 2 ? path[path.count - 2] : ""
                    if parent == "EntrySettings" {
                        switch name {
                        case "AllowUseOfSshKey": allowUseOfSSHKey = Self.bool(text)
                        case "AddAtDatabaseOpen": addAtDatabaseOpen = Self.bool(text)
                        case "RemoveAtDatabaseClose": removeAtDatabaseClose = Self.bool(text)
                        case "UseConfirmConstraintWhenAdding": useConfirmConstraintWhenAdding = Self.bool(text)
                        case "UseLifetimeConstraintWhenAdding": useLifetimeConstraintWhenAdding = Self.bool(text)
                        case "LifetimeConstraintDuration": lifetimeConstraintDuration = Int(text.trimmed) ?? 0
                        default: break
                        }
                    } else if parent == "Location" && path.count == 3 {
                        switch name {
                        case "SelectedType": selectedType = text
                        case "AttachmentName": attachmentName = text
                        case "FileName": fileName = text
                        default: break
                        }
                    }
                    path.removeLast()
                    text = ""
                default:
                    break
                }
            }
        } catch let error as XMLError {
            throw CoreError(.invalidSSHKey, "KeeAgent.settings is not readable XML: \(error)")
        } catch let error as CoreError {
            throw error
        } catch {
            throw CoreError(.invalidSSHKey, "KeeAgent.settings is not readable XML")
        }
        guard path.isEmpty else { throw CoreError(.invalidSSHKey, "KeeAgent.settings ends inside <\(path.last ?? "")>") }
        location = selectedType == "attachment" ? .attachment(attachmentName) : .file(fileName)
    }

    /// KeePassXC's reading of a boolean: true when the text starts with "t", in any case.
    static func bool(_ text: String) -> Bool { text.first == "t" || text.first == "T" }

    /// The document as UTF-8 without its XML declaration: UTF-16 (little- or big-endian, by its
    /// byte-order mark, or little-endian when the text starts with `<` and a zero byte) is
    /// transcoded; the declaration, which may name UTF-16, is dropped.
    static func utf8WithoutDeclaration(_ bytes: [UInt8]) -> [UInt8] {
        let text: String
        if bytes.starts(with: [0xFF, 0xFE]) || (bytes.count >= 2 && bytes[0] == 0x3C && bytes[1] == 0) {
            text = decodeUTF16(bytes.starts(with: [0xFF, 0xFE]) ? bytes.dropFirst(2) : bytes[...], bigEndian: false)
        } else if bytes.starts(with: [0xFE, 0xFF]) || (bytes.count >= 2 && bytes[0] == 0 && bytes[1] == 0x3C) {
            text = decodeUTF16(bytes.starts(with: [0xFE, 0xFF]) ? bytes.dropFirst(2) : bytes[...], bigEndian: true)
        } else {
            text = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...], as: UTF8.self)
        }
        var utf8 = Array(text.utf8)
        if utf8.starts(with: Array("<?xml".utf8)), let end = utf8.indices.dropLast().first(where: { utf8[$0] == 0x3F && utf8[$0 + 1] == 0x3E }) {
            utf8.removeFirst(end + 2)
        }
        return utf8
    }

    static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
