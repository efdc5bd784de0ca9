import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// An open vault for one command: the file it came from, the key that opened it, the model.
struct VaultContext {
    /// The vault's path as given on the command line (used in messages).
    let path: String
    /// The composite key that opened the vault; changing commands save with it.
    let key: CompositeKey
    /// The decrypted model.
    var vault: Vault

    /// Opens the `<vault>` of `parsed` with the master password (unless `--no-password`) and
    /// `--keyfile`; when `readsEntryPassword` also reads the entry password after the master one.
    ///
    /// - Returns: the context and the entry password when one was read.
    /// - Throws: `CLIError` with exit 1 (missing file, unreadable key file), 3 (wrong key) or 4
    ///   (corrupted or unsupported).
    static func open(_ parsed: ParsedArguments, readsEntryPassword: Bool = false) throws -> (VaultContext, ProtectedString?) {
        let path = parsed.required("vault")
        let noPassword = parsed.flag("no-password")
        if noPassword && parsed.value("keyfile") == nil {
            throw parsed.usageError("--no-password needs --keyfile")
        }
        let fileBytes = try readFile(path, what: "vault")
        var keyFileContents: [UInt8]?
        if let keyFile = parsed.value("keyfile") {
            keyFileContents = try readFile(keyFile, what: "key file")
        }
        defer { if keyFileContents != nil { wipe(&keyFileContents!) } }
        let password = noPassword ? nil : try SecretReader.readSecret(prompt: "Password for \(displayName(path)): ")
        let entryPassword = readsEntryPassword ? try SecretReader.readSecret(prompt: "Entry password: ") : nil
        let key: CompositeKey
        do {
            key = try CompositeKey(password: password, keyFileContents: keyFileContents)
        } catch {
            throw CommandLineTool.map(error, file: path)
        }
        let vault: Vault
        do {
            vault = try Progress.run("Unlocking \(displayName(path))…") {
                try KDBXCodec.open(fileBytes, key: key)
            }
        } catch let error as KDBXError {
            throw CommandLineTool.map(error, file: path)
        }
        return (VaultContext(path: path, key: key, vault: vault), entryPassword)
    }

    /// Saves the model back to `path` through the core's safe save: encoded with the key that
    /// opened it, written to a temporary file beside the vault, flushed, re-opened with the same key
    /// and compared by vault manifest, then renamed over the original (keeping its permissions).
    /// On any failure the original file is untouched.
    ///
    /// - Throws: `CLIError` (exit 1) `cannot save 'PATH': reason`.
    func save() throws {
        let vault = self.vault
        let key = self.key
        do {
            try Progress.run("Saving \(VaultContext.displayName(path))…") {
                let bytes: [UInt8]
                do {
                    bytes = try KDBXCodec.save(vault, key: key)
                } catch {
                    throw CoreError(.codec, String(describing: error), underlying: error)
                }
                let expected = VaultManifest.json(of: vault)
                try SafeSave.write(bytes, to: URL(fileURLWithPath: path)) { written in
                    let reopened = try KDBXCodec.open(written, key: key)
                    guard VaultManifest.json(of: reopened) == expected else {
                        throw CoreError(.verificationFailed, "the saved vault differs from the one in memory")
                    }
                }
            }
        } catch {
            throw CLIError.failure("cannot save '\(path)': \(error)")
        }
    }

    /// The file's last path component, for prompts.
    static func displayName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    /// The bytes of a file named on the command line, or a one-line error (exit 1).
    static func readFile(_ path: String, what: String) throws(CLIError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .failure("cannot open \(what) '\(path)': no such file")
        }
        if isDirectory.boolValue { throw .failure("cannot open \(what) '\(path)': it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .failure("cannot open \(what) '\(path)': permission denied")
        }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.readToEnd() ?? Data())
        } catch {
            throw .failure("cannot read \(what) '\(path)'")
        }
    }
}
