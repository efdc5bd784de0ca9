import Foundation
import MyPassBytes
import MyPassKDBX

extension Attachment {
    /// Writes the attachment's content to the file at `url` (created, or replaced when
    /// `replacing`, atomically). See ``export(toPath:replacing:fileSystem:)``.
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written,
    ///   ``CoreError/Code/alreadyExists`` when it exists and `replacing` is false.
    public func export(to url: URL, replacing: Bool = true, fileSystem: any VaultFileSystem = SystemFileSystem()) throws(CoreError) {
        try export(toPath: url.path, replacing: replacing, fileSystem: fileSystem)
    }

    /// Writes the attachment's content to `path`, created (or replaced, when `replacing`)
    /// atomically, readable by its owner only (mode 0600, whatever the umask or a replaced file's
    /// mode): a temporary file beside it (`.NAME.mypass-HEX.tmp`, created exclusively with mode
    /// 0600), every byte written (a write that accepts none is an error), flushed, then renamed
    /// over `path`; without `replacing` it is hard-linked to `path` instead, which fails when
    /// anything (a file, a directory, a symbolic link, even a dangling one) is there, so that
    /// nothing that appears meanwhile is overwritten either (a file system without hard links
    /// gets a check for `path` just before the rename). Every step goes through `fileSystem`,
    /// inside one coordinated write of `path` (``VaultFileSystem/coordinatingWrite(_:_:)``), as a
    /// vault save does.
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written; the reason also says when
    ///   the temporary file could not be removed afterwards (and names it).
    ///   ``CoreError/Code/alreadyExists`` when `replacing` is false and `path` exists (nothing was
    ///   written there).
    public func export(toPath path: String, replacing: Bool = true,
                       fileSystem: any VaultFileSystem = SystemFileSystem()) throws(CoreError) {
        let absolute = VaultDocument.absolutePath(path)
        try fileSystem.coordinatingWrite(absolute) { () throws(CoreError) in
            try write(to: absolute, replacing: replacing, fileSystem: fileSystem)
        }
    }

    private func write(to path: String, replacing: Bool, fileSystem: any VaultFileSystem) throws(CoreError) {
        if !replacing && Self.exists(path, fileSystem) { throw Self.existing(path) }
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
        var alreadyThere = false
        if failure == nil && !replacing {
            do throws(CoreError) {
                try fileSystem.link(temporary, to: path)
                try? fileSystem.remove(temporary)
                return
            } catch where error.code == .alreadyExists {
                alreadyThere = true
                failure = error
            } catch {
                if Self.exists(path, fileSystem) {
                    alreadyThere = true
                    failure = error
                } else {
                    // No hard links here (FAT, some network and FUSE file systems): the rename, checked just before.
                    do throws(CoreError) { try fileSystem.rename(temporary, to: path) } catch { failure = error }
                }
            }
        } else if failure == nil {
            do throws(CoreError) { try fileSystem.rename(temporary, to: path) } catch { failure = error }
        }
        guard let failure else { return }
        var leftover = ""
        do throws(CoreError) {
            try fileSystem.remove(temporary)
        } catch {
            if (try? fileSystem.status(temporary)) != nil {
                leftover = "; the temporary file '\(temporary)' could not be removed (\(error.reason)): delete it"
            }
        }
        if alreadyThere { throw Self.existing(path, leftover) }
        throw Self.failure(failure.reason + leftover, path)
    }

    /// Whether anything is at `path`, a dangling symbolic link included (`lstat(2)` through the seam).
    private static func exists(_ path: String, _ fileSystem: any VaultFileSystem) -> Bool {
        (try? fileSystem.status(path)) != nil
    }

    private static func existing(_ path: String, _ leftover: String = "") -> CoreError {
        CoreError(.alreadyExists, "a file is already there" + leftover, location: path)
    }

    private static func failure(_ reason: String, _ path: String) -> CoreError {
        CoreError(.io, "cannot write the attachment: " + reason, location: path)
    }
}
