import Foundation
import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// KeePassXC's SSH key entries: `Vectors/ssh/keeagent.kdbx` (written by keepassxc-cli, keys by
/// ssh-keygen and OpenSSL, settings in KeePassXC's UTF-16 form) and settings documents.
@Suite("SSH keys from KeeAgent.settings entries")
struct SSHKeyEntryTests {
    /// The fixture, opened once for the suite (one KDF).
    static let opened = Result { () throws -> Vault in
        let key = try CompositeKey(password: ProtectedString("ssh-agent-test"), keyFileContents: nil)
        return try KDBXCodec.open(TestVectors.bytes("ssh/keeagent.kdbx"), key: key)
    }

    static func vault() throws -> Vault { try opened.get() }

    /// key name → fingerprint, from `ssh-keygen -l` (`Vectors/ssh/fingerprints.txt`).
    static let fingerprints: [String: String] = {
        let text = (try? TestVectors.text("ssh/fingerprints.txt")) ?? ""
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            result[String(parts[0])] = String(parts[2])
        }
        return result
    }()

    @Test("every key entry of the KeePassXC vault opens with ssh-keygen's fingerprint; the recycle bin is left out")
    func fixtureVault() throws {
        let entries = try Self.vault().sshKeyEntries()
        var opened: [String: String] = [:]
        var failures: [String: CoreError] = [:]
        for result in entries {
            let entry = try result.get()
            #expect(entry.settings.allowUseOfSSHKey)
            do {
                let (key, comment) = try entry.openKey()
                opened[entry.path] = key.fingerprint
                // OpenSSH files carry their comment; PEM keys take the user name.
                if entry.keyName.hasSuffix("pkcs8") || entry.keyName.hasSuffix("pkcs1") || entry.keyName.hasSuffix("sec1") {
                    #expect(comment == entry.located.entry.userName, "\(entry.path)")
                } else {
                    #expect(comment.hasSuffix("@mypass-test"), "\(entry.path): \(comment)")
                }
            } catch {
                failures[entry.path] = error
            }
        }
        #expect(!opened.keys.contains("SSH/deleted"))
        #expect(opened.count == 17, "\(opened.keys.sorted())")
        for (path, fingerprint) in opened {
            let keyName = try #require(entries.compactMap { try? $0.get() }.first { $0.path == path }?.keyName)
            #expect(Self.fingerprints[String(keyName.dropFirst(3))] == fingerprint, "\(path)")
        }
        #expect(failures.keys.sorted() == ["SSH/missing-attachment"])
        #expect(failures["SSH/missing-attachment"]?.reason.contains("no attachment 'id_nowhere'") == true)
    }

    @Test("the settings of the fixture entries: add at open, confirm, lifetime")
    func settings() throws {
        let entries = try Self.vault().sshKeyEntries().compactMap { try? $0.get() }
        let byPath = Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0.settings) })
        #expect(byPath["SSH/ed25519"]?.addAtDatabaseOpen == true)
        #expect(byPath["SSH/not-at-open"]?.addAtDatabaseOpen == false)
        #expect(byPath["SSH/confirm"]?.useConfirmConstraintWhenAdding == true)
        #expect(byPath["SSH/lifetime"]?.useLifetimeConstraintWhenAdding == true)
        #expect(byPath["SSH/lifetime"]?.lifetimeConstraintDuration == 2)
        #expect(byPath["SSH/ed25519"]?.location == .attachment("id_ed25519"))
    }

    @Test("a wrong entry password is a typed error naming the entry, never the password")
    func wrongPassword() throws {
        var entry = try #require(try Self.vault().sshKeyEntries().compactMap { try? $0.get() }.first { $0.path == "SSH/ecdsa-encrypted" })
        entry.located.entry.password = ProtectedString("not the passphrase")
        #expect(throws: CoreError(.invalidSSHKey)) { try entry.openKey() }
        do {
            _ = try entry.openKey()
        } catch {
            #expect(error.location == "SSH/ecdsa-encrypted")
            #expect(error.reason.contains("does not decrypt"))
            #expect(!error.description.contains("not the passphrase"))
        }
    }

    @Test("settings documents: KeePassXC's UTF-16, UTF-8 with and without BOM, KeeAgent's own, defaults, garbage")
    func documents() throws {
        let body = """
            <?xml version="1.0" encoding="utf-16"?>
            <EntrySettings xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
              <AllowUseOfSshKey>True</AllowUseOfSshKey>
              <AddAtDatabaseOpen>yes</AddAtDatabaseOpen>
              <UseConfirmConstraintWhenAdding>true</UseConfirmConstraintWhenAdding>
              <LifetimeConstraintDuration> 42 </LifetimeConstraintDuration>
              <Unknown><Nested>x</Nested></Unknown>
              <Location>
                <SelectedType>file</SelectedType>
                <AttachmentName />
                <FileName>$HOME/.ssh/id_ed25519</FileName>
              </Location>
            </EntrySettings>
            """
        var utf16LE: [UInt8] = [0xFF, 0xFE], utf16BE: [UInt8] = [0xFE, 0xFF]
        for unit in body.utf16 {
            utf16LE += [UInt8(truncatingIfNeeded: unit), UInt8(unit >> 8)]
            utf16BE += [UInt8(unit >> 8), UInt8(truncatingIfNeeded: unit)]
        }
        let documents: [[UInt8]] = [utf16LE, utf16BE, Array(body.utf8), [0xEF, 0xBB, 0xBF] + Array(body.utf8)]
        for bytes in documents {
            let settings = try KeeAgentSettings(xml: bytes)
            #expect(settings.allowUseOfSSHKey)
            #expect(!settings.addAtDatabaseOpen, "'yes' does not start with t")
            #expect(settings.useConfirmConstraintWhenAdding)
            #expect(!settings.removeAtDatabaseClose)
            #expect(settings.lifetimeConstraintDuration == 42)
            #expect(settings.location == KeeAgentSettings.Location.file("$HOME/.ssh/id_ed25519"))
        }
        #expect(try KeeAgentSettings(xml: Array("<EntrySettings/>".utf8)) == KeeAgentSettings())
        #expect(throws: CoreError(.invalidSSHKey)) { try KeeAgentSettings(xml: Array("<Settings/>".utf8)) }
        #expect(throws: CoreError(.invalidSSHKey)) { try KeeAgentSettings(xml: Array("<EntrySettings><A>".utf8)) }
        #expect(throws: CoreError(.invalidSSHKey)) { try KeeAgentSettings(xml: [0xFF, 0xFE, 0x00]) }
        #expect(throws: CoreError(.invalidSSHKey)) { try KeeAgentSettings(xml: [UInt8](repeating: 0x20, count: 70_000)) }
    }
}
