import MyPassKDBX

extension CredentialMatcher {
    /// The entries whose passkey is for `relyingPartyID`, each with its passkey, in input order.
    ///
    /// A passkey is scoped to exactly one relying party id (W3C WebAuthn §6.3.3 step 3: the
    /// credential's rpId must equal the request's), so this is an exact comparison after ASCII
    /// lower-casing, never a parent-domain match. Entries without a passkey, or whose passkey
    /// fields cannot be read, are left out.
    public func passkeyEntries(forRelyingParty relyingPartyID: String, in entries: [Entry]) -> [(entry: Entry, passkey: Passkey)] {
        let wanted = relyingPartyID.lowercased()
        return entries.compactMap { entry in
            guard entry.hasPasskey, let passkey = try? entry.passkey(), passkey.relyingParty.lowercased() == wanted else {
                return nil
            }
            return (entry, passkey)
        }
    }
}
