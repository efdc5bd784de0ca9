import MyPassBytes
import MyPassCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An offline copy of Have I Been Pwned's Pwned Passwords (SHA-1): how many times a password was
/// seen in breaches. Implemented by ``PwnedPasswordsFile`` (the one "ordered by hash" file) and
/// ``PwnedPasswordsRangeFolder`` (one file per 5-hex-digit prefix, as the k-anonymity range API
/// serves them). Never a network call.
public protocol PwnedPasswordsSource: AnyObject, Sendable {
    /// How many times the password whose SHA-1 is `digest` (20 bytes, big-endian) appears in the
    /// list; 0 when it does not.
    /// - Throws: ``HealthError`` when the list cannot be read or is damaged where the lookup reads
    ///   it; never a count of 0 in its place.
    func occurrences(ofSHA1 digest: UnsafeRawBufferPointer) throws(HealthError) -> Int64
}

extension PwnedPasswordsSource {
    /// How many times `password` (its UTF-8 bytes, as HIBP hashes them) appears in the list. The
    /// password and its SHA-1 exist only in buffers wiped before this returns.
    public func occurrences(of password: ProtectedString) throws(HealthError) -> Int64 {
        var digest = password.withRevealedBytes { bytes in
            var hash = SHA1()
            hash.update(bytes)
            return hash.finalize()
        }
        defer { wipe(&digest) }
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        let result = digest.withUnsafeBytes { buffer in
            Result { () throws(HealthError) -> Int64 in try occurrences(ofSHA1: buffer) }
        }
        return try result.get()
    }
}

/// Opens Pwned Passwords at a path.
public enum PwnedPasswords {
    /// The list at `path`: a folder of range files is a ``PwnedPasswordsRangeFolder``, a file a
    /// ``PwnedPasswordsFile``.
    /// - Throws: ``HealthError`` as the opened kind's initialiser.
    public static func open(_ path: String) throws(HealthError) -> any PwnedPasswordsSource {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw HealthError(.io, "cannot open: \(String(cString: strerror(errno)))", file: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { return try PwnedPasswordsRangeFolder(path: path) }
        return try PwnedPasswordsFile(path: path)
    }
}
