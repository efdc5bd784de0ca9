import MyPassXML

/// What both readers of a KDBX XML body share (``VaultXMLReader``, which builds the model, and
/// ``CredentialXMLReader``, which skims it for AutoFill): the tokenizer with its errors mapped to
/// ``KDBXError``s located at the XML line and column, and the counts that bound the document (groups,
/// their nesting, entries, history items). The element classification both follow is
/// ``VaultXMLReader/classify(_:_:sawKeePassFile:rootTaken:entryDepth:)``.
struct XMLBodyWalk {
    private let limits: VaultXMLLimits
    private(set) var tokenizer: XMLTokenizer
    private var groupCount = 0
    private var entryCount = 0

    init(limits: VaultXMLLimits) {
        self.limits = limits
        tokenizer = XMLTokenizer(limits: limits.xml)
    }

    /// Hands the tokenizer the next chunk of the body.
    mutating func feed(_ chunk: ArraySlice<UInt8>) {
        tokenizer.feed(chunk)
    }

    /// Ends the input: the events still buffered come next.
    mutating func finish() {
        tokenizer.finish()
    }

    /// The next event, or `nil` when the tokenizer needs more input.
    /// - Throws: ``KDBXError`` `.limitExceeded` for the XML limits, `.corruptedFile` for malformed XML.
    mutating func next() throws(KDBXError) -> XMLEvent? {
        do throws(XMLError) {
            return try tokenizer.next()
        } catch {
            throw Self.map(error)
        }
    }

    /// A tokenizer error as the codec reports it.
    static func map(_ error: XMLError) -> KDBXError {
        let location = "XML line \(error.line) column \(error.column)"
        switch error.code {
        case .depthLimitExceeded, .nameTooLong, .tooManyAttributes, .valueTooLarge, .documentTooLarge:
            return KDBXError(.limitExceeded, "XML: " + error.reason, location: location)
        default:
            return KDBXError(.corruptedFile, "XML: " + error.reason, location: location)
        }
    }

    /// Where the tokenizer is: "XML line L column C".
    var location: String { "XML line \(tokenizer.line) column \(tokenizer.column)" }

    /// A `.corruptedFile` error at the current position.
    func corrupted(_ reason: String) -> KDBXError { KDBXError(.corruptedFile, reason, location: location) }

    /// A `.limitExceeded` error at the current position.
    func limit(_ reason: String) -> KDBXError { KDBXError(.limitExceeded, reason, location: location) }

    /// Counts a group that opens inside `openGroups` open groups.
    /// - Throws: `.limitExceeded` past ``VaultXMLLimits/maxGroupDepth`` or ``VaultXMLLimits/maxGroups``.
    mutating func enterGroup(openGroups: Int) throws(KDBXError) {
        guard openGroups <= limits.maxGroupDepth else {
            throw limit("groups are nested deeper than \(limits.maxGroupDepth) levels")
        }
        groupCount += 1
        guard groupCount <= limits.maxGroups else { throw limit("more than \(limits.maxGroups) groups") }
    }

    /// Counts an entry: a current one (`historyItemsSoFar` nil) or a history item of a current
    /// entry that already has `historyItemsSoFar` of them.
    /// - Throws: `.limitExceeded` past ``VaultXMLLimits/maxEntries`` (history items included) or
    ///   ``VaultXMLLimits/maxHistoryItemsPerEntry``.
    mutating func enterEntry(historyItemsSoFar: Int?) throws(KDBXError) {
        entryCount += 1
        guard entryCount <= limits.maxEntries else { throw limit("more than \(limits.maxEntries) entries") }
        if let historyItemsSoFar, historyItemsSoFar >= limits.maxHistoryItemsPerEntry {
            throw limit("an entry has more than \(limits.maxHistoryItemsPerEntry) history items")
        }
    }
}
