import MyPassBytes
import MyPassCrypto
import MyPassKDBX

extension Entry {
    /// Whether the entry carries a passkey: a private key field and a credential id under
    /// either generation of names (as KeePassXC's `Entry::hasPasskey`, which asks for the key).
    public var hasPasskey: Bool {
        field(named: PasskeyFieldNames.privateKeyPEM) != nil
    }

    /// The entry's passkey, `nil` when it has none.
    ///
    /// Reads KeePassXC's fields; the older names are read as KeePassXC does: a
    /// `KPEX_PASSKEY_GENERATED_USER_ID` field, when present, is the credential id, and
    /// `KPXC_PASSKEY_USERNAME`, when present, the user name. Missing flag fields mean `1`, the
    /// default of KeePassXC 2.7.12 and later; any value other than `0` or `1` is an error.
    ///
    /// - Throws: ``CoreError/Code/invalidPasskey`` with the field name as location: a missing
    ///   credential id or relying party, base64url that does not decode, a private key that does
    ///   not parse (the reason never holds key material).
    public func passkey() throws(CoreError) -> Passkey? {
        guard let pemField = field(named: PasskeyFieldNames.privateKeyPEM) else { return nil }
        let idName = field(named: PasskeyFieldNames.legacyGeneratedUserID) != nil
            ? PasskeyFieldNames.legacyGeneratedUserID : PasskeyFieldNames.credentialID
        guard let idText = field(named: idName)?.value, !idText.isEmpty else {
            throw CoreError(.invalidPasskey, "no credential id", location: PasskeyFieldNames.credentialID)
        }
        let relyingParty = value(of: PasskeyFieldNames.relyingParty).trimmed
        guard !relyingParty.isEmpty else {
            throw CoreError(.invalidPasskey, "no relying party", location: PasskeyFieldNames.relyingParty)
        }
        let credentialID: [UInt8]
        do { credentialID = try Base64URL.decode(idText.trimmed) } catch {
            throw CoreError(.invalidPasskey, "credential id is not base64url", location: idName)
        }
        var userHandle: [UInt8] = []
        if let handleText = field(named: PasskeyFieldNames.userHandle)?.value, !handleText.isEmpty {
            do { userHandle = try Base64URL.decode(handleText.trimmed) } catch {
                throw CoreError(.invalidPasskey, "user handle is not base64url", location: PasskeyFieldNames.userHandle)
            }
        }
        let privateKey: SigningPrivateKey
        do throws(CryptoError) {
            privateKey = try pemField.protectedValue.withRevealedBytes { (bytes) throws(CryptoError) in
                try SigningPrivateKey(pemUTF8: bytes)
            }
        } catch {
            throw CoreError(.invalidPasskey, "private key: \(error.reason)", location: PasskeyFieldNames.privateKeyPEM)
        }
        let username = field(named: PasskeyFieldNames.legacyUsername)?.value ?? value(of: PasskeyFieldNames.username)
        return Passkey(
            credentialID: credentialID, relyingParty: relyingParty, username: username, userHandle: userHandle,
            privateKey: privateKey, backupEligible: try flag(PasskeyFieldNames.backupEligible),
            backupState: try flag(PasskeyFieldNames.backupState))
    }

    private func flag(_ name: String) throws(CoreError) -> Bool {
        guard let text = field(named: name)?.value.trimmed else { return true }
        switch text {
        case "1": return true
        case "0": return false
        default: throw CoreError(.invalidPasskey, "flag must be 1 or 0", location: name)
        }
    }

    /// Writes `passkey` into the entry in KeePassXC's layout: the seven `KPEX_PASSKEY_*` fields
    /// (credential id, private key and user handle protected; flags `1`/`0`), the `Passkey` tag,
    /// and, where empty, the user name and `https://` + relying party as URL (as KeePassXC's
    /// `addPasskeyToGroup`). Older-generation fields are removed so they cannot shadow the new
    /// values. The private key PEM goes from a wiping buffer into a protected value.
    public mutating func setPasskey(_ passkey: Passkey) {
        removeField(named: PasskeyFieldNames.legacyGeneratedUserID)
        removeField(named: PasskeyFieldNames.legacyUsername)
        setValue(passkey.username, for: PasskeyFieldNames.username, isProtected: false)
        setProtectedValue(ProtectedString(passkey.credentialIDText), for: PasskeyFieldNames.credentialID)
        setProtectedValue(ProtectedString(secureUTF8: passkey.privateKey.pem), for: PasskeyFieldNames.privateKeyPEM)
        setValue(passkey.relyingParty, for: PasskeyFieldNames.relyingParty, isProtected: false)
        setProtectedValue(ProtectedString(passkey.userHandleText), for: PasskeyFieldNames.userHandle)
        setValue(passkey.backupEligible ? "1" : "0", for: PasskeyFieldNames.backupEligible, isProtected: false)
        setValue(passkey.backupState ? "1" : "0", for: PasskeyFieldNames.backupState, isProtected: false)
        if !tags.contains(PasskeyFieldNames.tag) { tags.append(PasskeyFieldNames.tag) }
        if userName.isEmpty { userName = passkey.username }
        if url.isEmpty { url = "https://" + passkey.relyingParty }
    }
}
