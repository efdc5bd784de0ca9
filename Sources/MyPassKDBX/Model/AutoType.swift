/// An entry's `<AutoType>` settings.
public struct AutoType: Equatable, Sendable {
    /// `Enabled` (default true).
    public var isEnabled: Bool
    /// `DataTransferObfuscation`: 0 none, 1 two-channel (an integer, not a boolean).
    public var obfuscation: Int
    /// `DefaultSequence` (empty: inherit from the group).
    public var defaultSequence: String
    /// The `Association` elements, in stored order.
    public var associations: [AutoTypeAssociation]
    /// Unknown child elements, kept in place.
    public var unknownElements: [UnknownElement]

    /// Auto-type settings; the defaults are KeePass's for a new entry.
    public init(isEnabled: Bool = true, obfuscation: Int = 0, defaultSequence: String = "",
                associations: [AutoTypeAssociation] = []) {
        self.isEnabled = isEnabled
        self.obfuscation = obfuscation
        self.defaultSequence = defaultSequence
        self.associations = associations
        self.unknownElements = []
    }
}

/// One `<Association>`: a target window title pattern and the keystroke sequence for it.
public struct AutoTypeAssociation: Equatable, Sendable {
    /// `Window`.
    public var window: String
    /// `KeystrokeSequence` (empty: the entry's default sequence).
    public var sequence: String
    /// Unknown child elements and comments, kept in place.
    public var unknownElements: [UnknownElement] = []

    /// An association of a window pattern with a sequence.
    public init(window: String, sequence: String) {
        self.window = window
        self.sequence = sequence
    }
}
