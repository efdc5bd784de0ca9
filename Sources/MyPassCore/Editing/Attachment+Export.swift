import Foundation
import MyPassBytes
import MyPassKDBX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Attachment {
    /// Writes the attachment's content to the file at `url` (created or replaced, atomically).
    /// See ``export(toPath:)``.
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written.
    public func export(to url: URL) throws(CoreError) {
        try export(toPath: url.path)
    }

    /// Writes the attachment's content to `path`, created or replaced atomically, readable by its
    /// owner only (mode 0600, whatever the umask or a replaced file's mode): a temporary file
    /// beside it (`.NAME.mypass-HEX.tmp`, created exclusively with mode 0600), every byte written
    /// (a write that accepts none is an error), flushed, then renamed over `path`.
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written; the reason also says when
    ///   the temporary file could not be removed afterwards (and names it).
    public func export(toPath path: String) throws(CoreError) {
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
        if failure == nil && rename(temporary, path) != 0 { failure = "cannot replace the file: " + String(cString: strerror(errno)) }
        guard var reason = failure else { return }
        if unlink(temporary) != 0 && errno != ENOENT {
            reason += "; the temporary file '\(temporary)' could not be removed (" + String(cString: strerror(errno)) + "): delete it"
        }
        throw Self.failure(reason, path)
    }

    private static func failure(_ reason: String, _ path: String) -> CoreError {
        CoreError(.io, "cannot write the attachment: " + reason, location: path)
    }
}
