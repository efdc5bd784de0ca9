import MyPassBytes
import MyPassCrypto
import MyPassKDBX

extension BitwardenJSON {
    /// Moves a login's passkeys (`login.fido2Credentials`) into `entry` in KeePassXC's layout
    /// (``Entry/setPasskey(_:)``: the `KPEX_PASSKEY_*` fields and the `Passkey` tag).
    ///
    /// Bitwarden keeps each passkey as `credentialId` (a GUID for a 16-byte id, else `b64.` and
    /// base64url), `keyAlgorithm` `ECDSA` with `keyCurve` `P-256` (the one kind it creates),
    /// `keyValue` (the PKCS#8 private key, DER in base64url), `rpId`, `userHandle` (base64url),
    /// `userName` and a signature `counter` (Bitwarden's `Fido2CredentialView`, its
    /// `guid-utils` and `Fido2Utils`). An entry holds one passkey, as in KeePassXC: the first one
    /// that reads is imported; every other one, and one that cannot be read, becomes a warning
    /// naming the item (the item itself is imported all the same). A counter above 0 is not kept
    /// (KeePassXC's layout has none and signs with 0): a warning says so.
    ///
    /// - Parameters:
    ///   - credentials: the item's `login.fido2Credentials` array.
    ///   - name: the item's name, for warnings (which give each credential's line).
    static func addPasskeys(_ credentials: [ImportJSON], to entry: inout Entry, name: String, warnings: inout [String]) {
        var imported = false
        for (index, credential) in credentials.enumerated() {
            let relyingParty = credential["rpId"]?.string ?? ""
            let label = (credentials.count == 1 ? "its passkey" : "passkey \(index + 1) of \(credentials.count)")
                + (relyingParty.isEmpty ? "" : " (\(relyingParty))")
            let item = "item '\(name)' (line \(credential.line))"
            guard !imported else {
                warnings.append("\(item): \(label) was not imported: an entry holds one passkey")
                continue
            }
            switch passkey(credential) {
            case .failure(let unreadable):
                warnings.append("\(item): \(label) was not imported: \(unreadable.reason)")
            case .success(let (passkey, counter)):
                entry.setPasskey(passkey)
                imported = true
                if counter > 0 {
                    warnings.append("\(item): the signature counter of its passkey (\(counter)) was not kept: KeePassXC's layout has none and signs with 0, which a site that checks counters may refuse")
                }
            }
        }
    }

    /// Why a credential cannot be imported (never key material).
    struct Unreadable: Error {
        var reason: String
    }

    /// One `fido2Credentials` member as a passkey and its signature counter.
    static func passkey(_ credential: ImportJSON) -> Result<(Passkey, UInt64), Unreadable> {
        guard let relyingParty = credential["rpId"]?.string, !relyingParty.isEmpty else {
            return .failure(Unreadable(reason: "it has no rpId"))
        }
        let algorithm = credential["keyAlgorithm"]?.string ?? "", curve = credential["keyCurve"]?.string ?? ""
        guard algorithm.uppercased() == "ECDSA", curve.uppercased() == "P-256" else {
            return .failure(Unreadable(reason: "its key is \(algorithm) \(curve), not ECDSA P-256"))
        }
        guard let idText = credential["credentialId"]?.string, let credentialID = credentialID(idText) else {
            return .failure(Unreadable(reason: "its credentialId is neither a GUID nor b64. and base64url"))
        }
        var userHandle: [UInt8] = []
        if let handle = credential["userHandle"]?.string, !handle.isEmpty {
            guard let bytes = try? Base64URL.decode(handle) else {
                return .failure(Unreadable(reason: "its userHandle is not base64url"))
            }
            userHandle = bytes
        }
        guard var der = try? Base64URL.decode(credential["keyValue"]?.string ?? "") else {
            return .failure(Unreadable(reason: "its keyValue is not base64url"))
        }
        defer { wipe(&der) }
        guard let key = try? SigningPrivateKey(pkcs8DER: der), case .p256 = key else {
            return .failure(Unreadable(reason: "its keyValue is not a P-256 private key in PKCS#8"))
        }
        var counter: UInt64 = 0
        if let text = credential["counter"]?.string {
            counter = UInt64(text) ?? 0
        } else if let number = credential["counter"]?.number {
            counter = UInt64(exactly: number) ?? 0
        }
        let passkey = Passkey(
            credentialID: credentialID, relyingParty: relyingParty, username: credential["userName"]?.string ?? "",
            userHandle: userHandle, privateKey: key)
        return .success((passkey, counter))
    }

    /// The raw credential id: `b64.` and base64url, or a GUID (32 hex digits with dashes) for 16 bytes.
    static func credentialID(_ text: String) -> [UInt8]? {
        if text.hasPrefix("b64.") {
            guard let bytes = try? Base64URL.decode(text.dropFirst(4)), !bytes.isEmpty else { return nil }
            return bytes
        }
        let digits = text.filter { $0 != "-" }
        guard digits.count == 32, digits.allSatisfy({ $0.isHexDigit }) else { return nil }
        return [UInt8](hex: digits.lowercased())
    }
}
