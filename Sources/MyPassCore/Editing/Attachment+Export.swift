import Foundation
import MyPassBytes
import MyPassKDBX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Attachment {
    /// Writes the attachment's content to the file at `url` (created, or replaced when
    /// `replacing`, atomically). See ``export(toPath:replacing:)``.
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written,
    ///   ``CoreError/Code/alreadyExists`` when it exists and `replacing` is false.
    public func export(to url: URL, replacing: Bool = true) throws(CoreError) {
        try export(toPath: url.path, replacing: replacing)
    }

    /// Writes the attachment's content to `path`, created (or replaced, when `replacing`)
    /// atomically, readable by its owner only (mode 0600, whatever the umask or a replaced file's
    /// mode): a temporary file beside it (`.NAME.mypass-HEX.tmp`, created exclusively with mode
    /// 0600), every byte written (a write that accepts none is an error), flushed, then renamed
    /// over `path`; without `replacing` it is hard-linked to `path` instead, which fails when
    /// anything (a file, a directory, a symbolic link, even a dangling one) is there, so that
    /// nothing that appears meanwhile is overwritten either (a file system without hard links
    /// gets a check for `path` just before the rename).
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written; the reason also says when
    ///   the temporary file could not be removed afterwards (and names it).
    ///   ``CoreError/Code/alreadyExists`` when `replacing` is false and `path` exists (nothing was
    ///   written there).
    public func export(toPath path: String, replacing: Bool = true) throws(CoreError) {
        if !replacing && Self.exists(path) { throw Self.existing(path) }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".mypass-" + SecureRandom.bytes(count: 8).hexString + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("cannot create a temporary file: " + String(cString: strerror(errno)), path) }
        var failure: String?
        let written = data.withUnsafeBytes { raw -> Int in
            var done = 0
            while done < raw.count {
                let count = write(fd, raw.baseAddress! + done, raw.count - done)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { failure = "cannot write: " + String(cString: strerror(errno)); break }
                if count == 0 { failure = "cannot write: the system accepted no bytes"; break }
                done += count
            }
            return done
        }
        if failure == nil, written == data.count, fchmod(fd, 0o600) != 0 || fsync(fd) != 0 {
            failure = "cannot flush to disk: " + String(cString: strerror(errno))
        }
        if close(fd) != 0 && failure == nil { failure = "cannot close: " + String(cString: strerror(errno)) }
        var alreadyThere = false
        if failure == nil && !replacing {
            if link(temporary, path) == 0 {
                unlink(temporary)
                return
            }
            let code = errno
            if code == EEXIST {
                alreadyThere = true
                failure = ""
            } else if [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV].contains(code) && !Self.exists(path) {
                // No hard links here (FAT, some network and FUSE file systems): the rename, checked just before.
                if rename(temporary, path) != 0 { failure = "cannot create the file: " + String(cString: strerror(errno)) }
            } else {
                alreadyThere = Self.exists(path)
                failure = "cannot create the file: " + String(cString: strerror(code))
            }
        } else if failure == nil && rename(temporary, path) != 0 {
            failure = "cannot replace the file: " + String(cString: strerror(errno))
        }
        guard let reason = failure else { return }
        var leftover = ""
        if unlink(temporary) != 0 && errno != ENOENT {
            leftover = "; the temporary file '\(temporary)' could not be removed (" + String(cString: strerror(errno)) + "): delete it"
        }
        if alreadyThere { throw Self.existing(path, leftover) }
        throw Self.failure(reason + leftover, path)
    }

    /// Whether anything is at `path`, a dangling symbolic link included.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func existing(_ path: String, _ leftover: String = "") -> CoreError {
        CoreError(.alreadyExists, "a file is already there" + leftover, location: path)
    }

    private static func failure(_ reason: String, _ path: String) -> CoreError {
        CoreError(.io, "cannot write the attachment: " + reason, location: path)
    }
}
