import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Musl)
import Musl
private let systemWrite = Musl.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writes a vault file so that the original survives any failure.
///
/// 1. The new bytes go to a temporary file beside the vault (same directory, so the final rename
///    stays on one file system), created exclusively with the original's permission bits (0600
///    for a new file);
/// 2. the file is flushed to disk (`fsync`);
/// 3. it is read back and must equal the bytes written, then `verify` checks it (the session
///    re-opens it with the same key and compares the vault manifest);
/// 4. it is renamed over the original in one atomic step (`rename(2)`), and the directory is
///    flushed.
///
/// On any failure the temporary file is removed and the original is untouched. (File ownership
/// is that of the writing user; extended attributes are not copied.)
public enum SafeSave {
    /// Writes `bytes` to `url` safely.
    ///
    /// - Parameters:
    ///   - bytes: the complete new file.
    ///   - url: the vault file (a `file:` URL); it may not exist yet.
    ///   - verify: called with the bytes read back from the temporary file; throws to refuse them.
    /// - Throws: ``CoreError/Code/io`` when a file operation fails;
    ///   ``CoreError/Code/verificationFailed`` when the read-back differs or `verify` throws (its
    ///   error is kept as ``CoreError/underlying``).
    public static func write(_ bytes: [UInt8], to url: URL, verify: ([UInt8]) throws -> Void) throws(CoreError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        var mode: mode_t = 0o600
        var info = stat()
        if stat(path, &info) == 0 {
            mode = info.st_mode & 0o7777
        }
        let suffix = (0..<8).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        let tempPath = directory + "/." + url.lastPathComponent + ".mypass-" + suffix + ".tmp"

        let fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError("cannot create a temporary file", tempPath) }
        var keepTemp = false
        defer { if !keepTemp { unlink(tempPath) } }
        do {
            defer { close(fd) }
            guard fchmod(fd, mode) == 0 else { throw ioError("cannot set permissions", tempPath) }
            var written = 0
            while written < bytes.count {
                let result = bytes.withUnsafeBytes { buffer in
                    systemWrite(fd, buffer.baseAddress! + written, buffer.count - written)
                }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw ioError("cannot write", tempPath)
                }
                written += result
            }
            guard fsync(fd) == 0 else { throw ioError("cannot flush to disk", tempPath) }
        }

        let readBack: [UInt8]
        do {
            readBack = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tempPath)))
        } catch {
            throw CoreError(.io, "cannot read the written file back", location: tempPath)
        }
        guard readBack == bytes else {
            throw CoreError(.verificationFailed, "the file read back differs from what was written", location: path)
        }
        do {
            try verify(readBack)
        } catch {
            throw CoreError(.verificationFailed, "the written file does not open to the same vault",
                            location: path, underlying: error)
        }

        guard rename(tempPath, path) == 0 else { throw ioError("cannot replace the vault file", path) }
        keepTemp = true
        let dirFD = open(directory, O_RDONLY | O_CLOEXEC)
        if dirFD >= 0 {
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    private static func ioError(_ what: String, _ path: String) -> CoreError {
        let reason = String(cString: strerror(errno))
        return CoreError(.io, what + ": " + reason, location: path)
    }
}
