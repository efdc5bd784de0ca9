import MyPassBytes
import MyPassCore
import MyPassKDBX
import Observation

/// The entry detail screen: the fields (protected ones masked until revealed, one by one), copy
/// with a 30-second clipboard expiry, the live TOTP code and its seconds left, the attachments,
/// when the entry was last displayed and when its password last changed.
///
/// Opening an entry records the access as KeePass does (last access time, usage count + 1),
/// kept with the next save and never saved on its own: ``VaultSessionModel/openEntry(_:clipboard:)``.
@available(iOS 17, macOS 14, *)
@MainActor
@Observable
public final class EntryDetailModel {
    /// One field as the detail shows it.
    public struct Field: Sendable, Identifiable, Equatable {
        /// The field's name (`UserName`, a custom field's name).
        public let name: String
        /// Whether the value is protected (masked until revealed).
        public let isProtected: Bool
        /// Whether it is one of KeePass's standard fields.
        public let isStandard: Bool
        public var id: String { name }
    }

    /// An attachment: its name and size in bytes.
    public struct AttachmentInfo: Sendable, Identifiable, Equatable {
        public let name: String
        public let byteCount: Int
        public var id: String { name }
    }

    /// The entry's UUID.
    public let entryID: KDBXUUID
    /// `Title`.
    public let title: String
    /// The group path without the root.
    public let breadcrumb: [String]
    /// The SF Symbol of the entry's icon.
    public let iconSymbol: String
    /// The fields, standard ones first (Title excluded), then custom fields in stored order;
    /// OTP fields are shown as the code, not as fields.
    public let fields: [Field]
    /// The attachments.
    public let attachments: [AttachmentInfo]
    /// `Tags`.
    public let tags: [String]
    /// When the entry was displayed before this opening (its last access time as read).
    public let lastDisplayed: KDBXTime
    /// When its password last changed: the modification time of the oldest version, in its
    /// history, that already had the current password (the creation time when it never changed).
    public let passwordLastChanged: KDBXTime
    /// The expiry, when the entry expires.
    public let expiry: KDBXTime?
    /// The names of the revealed protected fields.
    public private(set) var revealed: Set<String> = []
    /// The current TOTP code and its seconds left (`nil`: no TOTP).
    public private(set) var totp: OTPCode?
    /// The last failure (copy, OTP), for an alert.
    public var failure: ModelError?

    @ObservationIgnored private var entry: Entry?
    @ObservationIgnored private let clipboard: any ClipboardWriter
    @ObservationIgnored private let otpParameters: OTPParameters?

    /// The detail of `entry` (as it was before this opening recorded the access).
    public init(entry: Entry, breadcrumb: [String], clipboard: any ClipboardWriter, now: KDBXTime) {
        self.entry = entry
        self.clipboard = clipboard
        entryID = entry.uuid
        title = entry.title
        self.breadcrumb = breadcrumb
        iconSymbol = KeePassIconMapper.symbolName(forIconID: entry.iconID)
        let otpNames: Set<String> = [
            OTPFieldNames.otp, OTPFieldNames.legacySeed, OTPFieldNames.legacySettings, OTPFieldNames.timeSecret,
            OTPFieldNames.timeSecretHex, OTPFieldNames.timeSecretBase32, OTPFieldNames.timeSecretBase64, OTPFieldNames.timeLength,
            OTPFieldNames.timePeriod, OTPFieldNames.timeAlgorithm, OTPFieldNames.hmacSecret, OTPFieldNames.hmacSecretHex,
            OTPFieldNames.hmacSecretBase32, OTPFieldNames.hmacSecretBase64, OTPFieldNames.hmacCounter,
        ]
        let standard = [Entry.StandardField.userName, Entry.StandardField.password, Entry.StandardField.url, Entry.StandardField.notes]
        var shown: [Field] = []
        for name in standard {
            let field = entry.field(named: name)
            shown.append(Field(name: name, isProtected: field?.isProtected ?? (name == Entry.StandardField.password), isStandard: true))
        }
        for field in entry.customFields where !otpNames.contains(field.key) {
            shown.append(Field(name: field.key, isProtected: field.isProtected, isStandard: false))
        }
        fields = shown
        attachments = entry.attachments.map { AttachmentInfo(name: $0.name, byteCount: $0.data.count) }
        tags = entry.tags
        lastDisplayed = entry.times.lastAccess
        passwordLastChanged = Self.passwordLastChanged(entry)
        expiry = entry.times.expires ? entry.times.expiry : nil
        do {
            otpParameters = try entry.otpParameters()
        } catch {
            otpParameters = nil
            failure = ModelError(error)
        }
        refreshTOTP(now: now)
    }

    /// What the field shows: the value, or `••••••••` for a protected field not revealed.
    public func displayedValue(of name: String) -> String {
        guard let entry, let field = entry.field(named: name) else { return "" }
        if field.isProtected && !revealed.contains(name) { return field.value.isEmpty ? "" : "••••••••" }
        return field.value
    }

    /// Shows or masks a protected field.
    public func toggleReveal(_ name: String) {
        if revealed.contains(name) { revealed.remove(name) } else { revealed.insert(name) }
    }

    /// Copies a field's value; the clipboard clears it after 30 seconds.
    public func copy(_ name: String) {
        guard let entry, let field = entry.field(named: name) else {
            failure = ModelError("the entry has no field \(name)", code: .notFound)
            return
        }
        copyValue(field.protectedValue)
    }

    /// Copies the current TOTP code; the clipboard clears it after 30 seconds.
    public func copyTOTP(now: KDBXTime) {
        refreshTOTP(now: now)
        guard let totp else {
            failure = ModelError("the entry has no TOTP", code: .notFound)
            return
        }
        copyValue(ProtectedString(totp.value))
    }

    /// Recomputes the TOTP code for `now` (call it every second while the detail is shown).
    /// Counter-based (HOTP) settings show no code: using one advances the counter, an edit.
    public func refreshTOTP(now: KDBXTime) {
        guard let otpParameters, case .totp = otpParameters.kind else { totp = nil; return }
        totp = TOTPGenerator.code(for: otpParameters, unixTime: now.unixSeconds)
    }

    /// Forgets the entry (on lock, or when the detail closes): masks everything again.
    public func clear() {
        entry = nil
        revealed = []
        totp = nil
    }

    private func copyValue(_ value: ProtectedString) {
        do throws(ModelError) {
            try clipboard.copy(value, expirySeconds: ClipboardPolicy.expirySeconds)
        } catch {
            failure = error
        }
    }

    /// The modification time of the oldest version that already had the current password.
    static func passwordLastChanged(_ entry: Entry) -> KDBXTime {
        var since = entry.times.lastModification
        for version in entry.history.reversed() {
            guard version.password == entry.password else { return since }
            since = version.times.lastModification
        }
        return entry.history.isEmpty ? entry.times.creation : since
    }
}
