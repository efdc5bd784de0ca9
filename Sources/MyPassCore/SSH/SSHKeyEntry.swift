import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// An entry that offers an SSH key as KeePassXC stores it: a ``KeeAgentSettings`` attachment,
/// and the private key in the attachment it names (or a file on disk).
public struct SSHKeyEntry: Sendable {
    /// The entry and where it lives.
    public var located: LocatedEntry
    /// Its settings.
    public var settings: KeeAgentSettings

    /// The entry's path as commands take it (`SSH/github`).
    public var path: String { Vault.displayPath(located.path) }

    /// Where the key is, for messages: the attachment name or the file path.
    public var keyName: String {
        switch settings.location {
        case .attachment(let name): return name
        case .file(let path): return path
        }
    }

    /// Opens the key: the attachment (or the file that `readFile` reads, given the path as the
    /// settings hold it), decrypted with the entry's password when it is encrypted.
    ///
    /// The comment is the key file's own, else the entry's user name, else the attachment or
    /// file name: KeePassXC's rule (`KeeAgentSettings::toOpenSSHKey`).
    /// - Throws: ``CoreError/Code/invalidSSHKey`` (location: the entry's path) for no key
    ///   configured, a missing attachment, a key that does not parse or is of an unsupported
    ///   kind, or a password that does not decrypt it; what `readFile` throws.
    public func openKey(readFile: (String) throws(CoreError) -> [UInt8] = { _ throws(CoreError) in
        throw CoreError(.invalidSSHKey, "keys in files are not read here")
    }) throws(CoreError) -> (key: SSHPrivateKey, comment: String) {
        var file: [UInt8]
        let fileName: String
        switch settings.location {
        case .attachment(let name):
            guard !name.isEmpty else { throw CoreError(.invalidSSHKey, "no key attachment is set", location: path) }
            guard let attachment = located.entry.attachment(named: name) else {
                throw CoreError(.invalidSSHKey, "the entry has no attachment '\(name)'", location: path)
            }
            file = attachment.data
            fileName = name
        case .file(let name):
            guard !name.isEmpty else { throw CoreError(.invalidSSHKey, "no key file is set", location: path) }
            file = try readFile(name)
            fileName = name.split(separator: "/").last.map(String.init) ?? name
        }
        defer { wipe(&file) }
        let opened: (key: SSHPrivateKey, comment: String)
        do {
            let kind = try SSHPrivateKey.kind(ofFile: file)
            if kind.isEncrypted {
                var passphrase = located.entry.password.revealedBytes.unsafeArray
                defer { wipe(&passphrase) }
                opened = try SSHPrivateKey.read(file: file, passphrase: passphrase)
            } else {
                opened = try SSHPrivateKey.read(file: file, passphrase: nil)
            }
        } catch {
            let reason = error.code == .wrongPassphrase
                ? "the entry's password does not decrypt the key '\(fileName)'"
                : "the key '\(fileName)' cannot be read: \(error.reason)"
            throw CoreError(.invalidSSHKey, reason, location: path)
        }
        var comment = opened.comment
        if comment.isEmpty { comment = located.entry.userName }
        if comment.isEmpty { comment = fileName }
        return (opened.key, comment)
    }
}

extension Vault {
    /// The entries that offer an SSH key (a ``KeeAgentSettings/attachmentName`` attachment),
    /// pre-order, leaving out the recycle bin; each with its settings, or the error that made
    /// them unreadable.
    public func sshKeyEntries() -> [Result<SSHKeyEntry, CoreError>] {
        var results: [Result<SSHKeyEntry, CoreError>] = []
        for located in locatedEntries where !isEntryInRecycleBin(located.entry.uuid) {
            guard let attachment = located.entry.attachment(named: KeeAgentSettings.attachmentName) else { continue }
            do {
                let settings = try KeeAgentSettings(xml: attachment.data)
                results.append(.success(SSHKeyEntry(located: located, settings: settings)))
            } catch {
                results.append(.failure(CoreError(error.code, error.reason, location: Vault.displayPath(located.path))))
            }
        }
        return results
    }
}
