import Foundation
import MyPassBytes
import MyPassKDBX

extension Attachment {
    /// Writes the attachment's content to the file at `url` (created or replaced, atomically).
    /// See ``export(toPath:fileSystem:)``.
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written.
    public func export(to url: URL, fileSystem: any VaultFileSystem = SystemFileSystem()) throws(CoreError) {
        try export(toPath: url.path, fileSystem: fileSystem)
    }

    /// Writes the attachment's content to `path`, created or replaced atomically, readable by its
    /// owner only (mode 0600, whatever the umask or a replaced file's mode): a temporary file
    /// beside it (`.NAME.mypass-HEX.tmp`, created exclusively with mode 0600), every byte written
    /// (a write that accepts none is an error), flushed, then renamed over `path`. Every step goes
    /// through `fileSystem`, inside one coordinated write of `path`
    /// (``VaultFileSystem/coordinatingWrite(_:_:)``), as a vault save does.
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written; the reason also says when
    ///   the temporary file could not be removed afterwards (and names it).
    public func export(toPath path: String, fileSystem: any VaultFileSystem = SystemFileSystem()) throws(CoreError) {
        let absolute = VaultDocument.absolutePath(path)
        try fileSystem.coordinatingWrite(absolute) { () throws(CoreError) in
            try write(to: absolute, fileSystem: fileSystem)
        }
    }

    private func write(to path: String, fileSystem: any VaultFileSystem) throws(CoreError) {
        let directory = VaultDocument.directoryOf(path)
        let temporary = directory + "/." + VaultDocument.lastComponent(path) + ".mypass-" + SecureRandom.bytes(count: 8).hexString + ".tmp"
        let handle: VaultFileHandle
        do {
            handle = try fileSystem.createExclusive(temporary, permissions: 0o600, owner: nil)
        } catch {
            throw Self.failure(error.reason, path)
        }
        var failure: CoreError?
        do throws(CoreError) {
            try fileSystem.write(handle, data[...])
            try fileSystem.synchronize(handle)
        } catch {
            failure = error
        }
        fileSystem.close(handle)
        if failure == nil {
            do throws(CoreError) { try fileSystem.rename(temporary, to: path) } catch { failure = error }
        }
        guard let failure else { return }
        var reason = failure.reason
        do throws(CoreError) {
            try fileSystem.remove(temporary)
        } catch {
            if (try? fileSystem.status(temporary)) != nil {
                reason += "; the temporary file '\(temporary)' could not be removed (\(error.reason)): delete it"
            }
        }
        throw Self.failure(reason, path)
    }

    private static func failure(_ reason: String, _ path: String) -> CoreError {
        CoreError(.io, "cannot write the attachment: " + reason, location: path)
    }
}
