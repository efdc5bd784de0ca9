import Foundation
import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Passkeys in KeePassXC's layout")
struct PasskeyTests {
    /// `Vectors/passkey/keepass-passkeys.kdbx`, written by KeePass 2.x (kporacle from-xml) from
    /// the generator script's XML.
    static func keepassVault() throws -> Vault {
        try KDBXCodec.open(
            TestVectors.bytes("passkey/keepass-passkeys.kdbx"),
            key: CompositeKey(password: ProtectedString("passkey"), keyFileContents: nil))
    }

    static func entry(_ vault: Vault, _ title: String) -> Entry {
        vault.allEntries.first { $0.title == title }!
    }

    @Test("An ES256 passkey entry written by KeePass reads back field for field")
    func readsES256Entry() throws {
        let vault = try Self.keepassVault()
        let entry = Self.entry(vault, "example.com (Passkey)")
        #expect(entry.hasPasskey)
        let passkey = try #require(try entry.passkey())
        #expect(passkey.credentialID == Array(0..<32))
        #expect(passkey.credentialIDText == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        #expect(passkey.relyingParty == "example.com")
        #expect(passkey.username == "alice")
        #expect(passkey.userHandle == Array("user-alice".utf8))
        #expect(passkey.algorithm == .es256)
        #expect(passkey.backupEligible == true)
        #expect(passkey.backupState == false)
        guard case .p256(let key) = passkey.privateKey else { Issue.record("not P-256"); return }
        #expect(key.publicKey.x.hexString == "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
        #expect(!"\(passkey)".contains("BEGIN"))
    }

    @Test("An Ed25519 entry without flag fields reads with BE = BS = 1 (KeePassXC 2.7.12's default)")
    func readsEd25519Entry() throws {
        let passkey = try #require(try Self.entry(Self.keepassVault(), "webauthn.io (Passkey)").passkey())
        #expect(passkey.algorithm == .eddsa)
        #expect(passkey.credentialID == [0xFF, 0xEF, 0xFE, 0xFF, 0xEF, 0xFE])  // Python base64.urlsafe_b64decode("_-_-_-_-")
        #expect(passkey.userHandle == Array("bob".utf8))
        #expect(passkey.backupEligible && passkey.backupState)
        #expect(passkey.privateKey.publicKey == .ed25519(try Ed25519.PublicKey(rawRepresentation:
            hexBytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))))
    }

    @Test("Older names: KPEX_PASSKEY_GENERATED_USER_ID is the credential id, KPXC_PASSKEY_USERNAME the user; SEC 1 PEM")
    func readsLegacyNames() throws {
        let passkey = try #require(try Self.entry(Self.keepassVault(), "Strongbox style").passkey())
        #expect(passkey.credentialID == Array("carol-cred".utf8))
        #expect(passkey.username == "carol")
        #expect(passkey.userHandle.isEmpty)
        #expect(!passkey.backupEligible && !passkey.backupState)
        #expect(passkey.algorithm == .es256)
    }

    @Test("A new passkey written into an entry has KeePassXC's fields, protection flags and tag, and reads back")
    func writesKeePassXCLayout() throws {
        for algorithm in PasskeyAlgorithm.allCases {
            let passkey = Passkey.generate(relyingParty: "example.com", username: "alice", userHandle: [1, 2, 3], algorithm: algorithm)
            var entry = Entry()
            entry.setPasskey(passkey)
            let expected: [(String, Bool)] = [
                (PasskeyFieldNames.username, false), (PasskeyFieldNames.credentialID, true),
                (PasskeyFieldNames.privateKeyPEM, true), (PasskeyFieldNames.relyingParty, false),
                (PasskeyFieldNames.userHandle, true), (PasskeyFieldNames.backupEligible, false),
                (PasskeyFieldNames.backupState, false),
            ]
            for (name, isProtected) in expected {
                let field = try #require(entry.field(named: name), "\(name)")
                #expect(field.isProtected == isProtected, "\(name)")
            }
            #expect(entry.value(of: PasskeyFieldNames.credentialID) == passkey.credentialIDText)
            #expect(passkey.credentialID.count == 32)
            #expect(entry.value(of: PasskeyFieldNames.userHandle) == "AQID")
            #expect(entry.value(of: PasskeyFieldNames.backupEligible) == "1")
            #expect(entry.value(of: PasskeyFieldNames.privateKeyPEM).hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
            #expect(entry.tags == ["Passkey"])
            #expect(entry.url == "https://example.com")
            let back = try #require(try entry.passkey())
            #expect(back.credentialID == passkey.credentialID)
            #expect(back.privateKey.publicKey == passkey.privateKey.publicKey)
            #expect(back.algorithm == algorithm)
        }
    }

    @Test("Assertion: authenticator data is rpIdHash, flags UP|UV|BE|BS as stored, counter 0; the signature verifies")
    func assertion() throws {
        let vault = try Self.keepassVault()
        let passkey = try #require(try Self.entry(vault, "example.com (Passkey)").passkey())
        let clientDataHash = SHA256.hash(Array(#"{"type":"webauthn.get","challenge":"AAAA","origin":"https://example.com"}"#.utf8))
        let assertion = try passkey.assertion(clientDataHash: clientDataHash, relyingPartyID: "example.com")
        // SHA-256("example.com") = a379a6f6eeafb9a55e378c118034e2751e682fab9f2d30ab13d2125586ce1947.
        #expect(assertion.authenticatorData.hexString
            == "a379a6f6eeafb9a55e378c118034e2751e682fab9f2d30ab13d2125586ce1947" + "0d" + "00000000")
        #expect(assertion.credentialID == Array(0..<32))
        #expect(assertion.userHandle == Array("user-alice".utf8))
        #expect(passkey.privateKey.publicKey.isValidWebAuthnSignature(
            assertion.signature, for: assertion.authenticatorData + clientDataHash))
        #expect(throws: CoreError(.invalidOperation)) { try passkey.assertion(clientDataHash: clientDataHash, relyingPartyID: "evil.com") }
        #expect(throws: CoreError(.invalidOperation)) { try passkey.assertion(clientDataHash: [1, 2, 3]) }
        let ed = try #require(try Self.entry(vault, "webauthn.io (Passkey)").passkey())
        let edAssertion = try ed.assertion(clientDataHash: clientDataHash)
        #expect(edAssertion.authenticatorData[32] == 0x1D)
        #expect(edAssertion.signature.count == 64)
    }

    @Test("Registration: attested credential data with KeePassXC's AAGUID and a 'none' attestation object")
    func registration() throws {
        let passkey = Passkey.generate(relyingParty: "example.com", username: "alice", algorithm: .es256)
        let registration = passkey.registration
        let data = registration.authenticatorData
        #expect(data[32] == 0x5D)  // UP | UV | BE | BS | AT
        #expect(Array(data[33..<37]) == [0, 0, 0, 0])
        #expect(Array(data[37..<53]).hexString == "fdb141b25d84443e8a354698c205a502")
        #expect(Array(data[53..<55]) == [0, 32])
        #expect(Array(data[55..<87]) == passkey.credentialID)
        #expect(Array(data[87...]) == registration.publicKeyCOSE)
        #expect(registration.publicKeyAlgorithm == -7)
        // {"fmt": "none", "attStmt": {}, "authData": h'...'}
        let prefix: [UInt8] = [0xA3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x67] + Array("attStmt".utf8)
            + [0xA0, 0x68] + Array("authData".utf8) + [0x58, UInt8(data.count)]
        #expect(registration.attestationObject == prefix + data)
    }

    @Test("Unreadable passkey fields are invalidPasskey errors naming the field, never showing the key")
    func invalidFields() throws {
        var entry = Entry()
        entry.setPasskey(Passkey.generate(relyingParty: "example.com", username: "alice"))
        var badID = entry
        badID.setProtectedValue(ProtectedString("not base64url!"), for: PasskeyFieldNames.credentialID)
        var badKey = entry
        let pem = entry.value(of: PasskeyFieldNames.privateKeyPEM)
        badKey.setProtectedValue(ProtectedString(String(pem.dropLast(40)) + "\n-----END PRIVATE KEY-----\n"), for: PasskeyFieldNames.privateKeyPEM)
        var badFlag = entry
        badFlag.setValue("yes", for: PasskeyFieldNames.backupEligible)
        var noRP = entry
        noRP.removeField(named: PasskeyFieldNames.relyingParty)
        for (bad, location) in [(badID, PasskeyFieldNames.credentialID), (badKey, PasskeyFieldNames.privateKeyPEM),
                                (badFlag, PasskeyFieldNames.backupEligible), (noRP, PasskeyFieldNames.relyingParty)] {
            do {
                _ = try bad.passkey()
                Issue.record("accepted a bad \(location)")
            } catch {
                #expect(error.code == .invalidPasskey)
                #expect(error.location == location)
                #expect(!error.description.contains(String(pem.dropFirst(28).prefix(20))))
            }
        }
        #expect(try Entry().passkey() == nil)
    }

    @Test("CredentialMatcher offers passkeys by exact relying party id")
    func matcher() throws {
        let vault = try Self.keepassVault()
        let matcher = CredentialMatcher()
        let forExample = matcher.passkeyEntries(forRelyingParty: "Example.com", in: vault.allEntries)
        #expect(forExample.map(\.entry.title) == ["example.com (Passkey)", "Strongbox style"])
        #expect(matcher.passkeyEntries(forRelyingParty: "login.example.com", in: vault.allEntries).isEmpty)
        #expect(matcher.passkeyEntries(forRelyingParty: "webauthn.io", in: vault.allEntries).map(\.passkey.username) == ["bob"])
    }
}
