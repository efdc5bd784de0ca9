/// The entry string fields, tag and constants of KeePassXC's passkey layout (KeePassXC
/// `src/browser/BrowserPasskeys.cpp`, `BrowserService::addPasskeyToEntry`; the flag fields from
/// KeePassXC pull request 13042, released in 2.7.12), which Strongbox, KeePassium and KeePassDX
/// read and write too.
public enum PasskeyFieldNames {
    /// `KPEX_PASSKEY_CREDENTIAL_ID`: the credential id, base64url without padding; protected.
    public static let credentialID = "KPEX_PASSKEY_CREDENTIAL_ID"
    /// `KPEX_PASSKEY_PRIVATE_KEY_PEM`: the private key, PKCS#8 in PEM armour; protected.
    public static let privateKeyPEM = "KPEX_PASSKEY_PRIVATE_KEY_PEM"
    /// `KPEX_PASSKEY_RELYING_PARTY`: the relying party id (`example.com`).
    public static let relyingParty = "KPEX_PASSKEY_RELYING_PARTY"
    /// `KPEX_PASSKEY_USERNAME`: the user name given at registration.
    public static let username = "KPEX_PASSKEY_USERNAME"
    /// `KPEX_PASSKEY_USER_HANDLE`: the relying party's user id, base64url; protected.
    public static let userHandle = "KPEX_PASSKEY_USER_HANDLE"
    /// `KPEX_PASSKEY_FLAG_BE`: the backup eligibility flag, `1` or `0`.
    public static let backupEligible = "KPEX_PASSKEY_FLAG_BE"
    /// `KPEX_PASSKEY_FLAG_BS`: the backup state flag, `1` or `0`.
    public static let backupState = "KPEX_PASSKEY_FLAG_BS"
    /// `KPEX_PASSKEY_GENERATED_USER_ID`: Strongbox's older name; KeePassXC reads it, when
    /// present, as the credential id (`PasskeyUtils::getCredentialIdFromEntry`).
    public static let legacyGeneratedUserID = "KPEX_PASSKEY_GENERATED_USER_ID"
    /// `KPXC_PASSKEY_USERNAME`: the older user name field; read first when present
    /// (`PasskeyUtils::getUsernameFromEntry`).
    public static let legacyUsername = "KPXC_PASSKEY_USERNAME"
    /// The tag KeePassXC gives passkey entries.
    public static let tag = "Passkey"
    /// KeePassXC's AAGUID, fdb141b2-5d84-443e-8a35-4698c205a502 (`BrowserPasskeys::AAGUID`).
    public static let aaguid: [UInt8] = [
        0xfd, 0xb1, 0x41, 0xb2, 0x5d, 0x84, 0x44, 0x3e, 0x8a, 0x35, 0x46, 0x98, 0xc2, 0x05, 0xa5, 0x02,
    ]
    /// The credential id length KeePassXC generates, in bytes (`ID_BYTES`).
    public static let credentialIDByteCount = 32
}
