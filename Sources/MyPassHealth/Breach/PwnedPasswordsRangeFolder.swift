#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Pwned Passwords as a folder of range files, the layout Troy Hunt's PwnedPasswordsDownloader
/// writes without `--single` (and that mirrors of the range API keep): one file per 5-hex-digit
/// prefix, `00000.txt` to `FFFFF.txt` (1,048,576 files), each holding `SUFFIX:COUNT` lines (the
/// other 35 hex digits), sorted, as `GET /range/PREFIX` answers. Also accepted: names without
/// `.txt`, lower-case names, and full 40-digit `HASH:COUNT` lines whose first five digits are the
/// file's prefix. A count of 0 (the API's padding lines) means not seen.
///
/// A lookup reads the one file of the hash's prefix (about 30 KB; at most 4 MiB accepted) and
/// checks every line of it: its form, its order, and that it belongs to that prefix.
public final class PwnedPasswordsRangeFolder: PwnedPasswordsSource {
    /// The folder's path, as given.
    public let path: String
    /// `.txt` or nothing.
    private let fileExtension: String
    /// Whether the names' hex letters are lower case.
    private let lowercaseNames: Bool

    /// The largest range file read, in bytes.
    public static let maximumFileBytes = 4 << 20

    /// Opens the folder at `path`, which must hold the first range file (`00000`) and the last
    /// (`FFFFF`), in one of the accepted namings.
    /// - Throws: ``HealthError`` `.io` when it is no folder; `.truncatedBreachList` when the first
    ///   or last range file is missing.
    public init(path: String) throws(HealthError) {
        self.path = path
        var found: (String, Bool)?
        for ext in [".txt", ""] {
            for lower in [false, true] where Self.exists(path + "/" + (lower ? "fffff" : "FFFFF") + ext) {
                found = (ext, lower)
                break
            }
            if found != nil { break }
        }
        guard let (ext, lower) = found, Self.exists(path + "/00000" + ext) else {
            throw HealthError(
                .truncatedBreachList,
                "no range files 00000.txt and FFFFF.txt: not a Pwned Passwords range folder, or an incomplete download",
                file: path)
        }
        fileExtension = ext
        lowercaseNames = lower
    }

    /// How many times the password with SHA-1 `digest` appears; 0 when it does not.
    /// - Throws: ``HealthError`` `.truncatedBreachList` (the prefix's file is missing),
    ///   `.malformedBreachList`, `.unsortedBreachList`, `.limitExceeded` (a file over 4 MiB), `.io`.
    public func occurrences(ofSHA1 digest: UnsafeRawBufferPointer) throws(HealthError) -> Int64 {
        let target = HashKey(digest: digest)
        let prefix = target.rangePrefix
        var name = String(prefix, radix: 16, uppercase: !lowercaseNames)
        name = String(repeating: "0", count: 5 - name.count) + name
        let filePath = path + "/" + name + fileExtension
        guard Self.exists(filePath) else {
            // The name would tell a prefix of a password's hash: say what is wrong, not which.
            throw HealthError(.truncatedBreachList, "a range file the lookup needs is missing: the folder holds an incomplete download", file: path)
        }
        let file = try ReadOnlyFile(path: filePath)
        guard file.size <= Int64(Self.maximumFileBytes) else {
            throw HealthError(.limitExceeded, "\(file.size) bytes, more than a range file's limit of \(Self.maximumFileBytes)", file: filePath)
        }
        let bytes = try file.read(at: 0, count: Int(file.size))
        // Trailing line feeds (and carriage returns) hold no line.
        let end = (bytes.lastIndex { $0 != 0x0A && $0 != 0x0D } ?? -1) + 1
        var found: Int64 = 0
        var previous: HashKey?
        var start = 0
        var lineNumber = 1
        while start < end {
            let feed = bytes[start..<end].firstIndex(of: 0x0A) ?? end
            let endsFile = feed == end && end == bytes.count
            func failure(_ code: HealthError.Code, _ reason: String) -> HealthError {
                HealthError(code, reason, file: filePath, line: lineNumber, byteOffset: Int64(start))
            }
            let digits = bytes[start..<feed].prefix { $0 != UInt8(ascii: ":") }.count
            let hexDigits = digits == 40 ? 40 : 35
            let result = bytes.withUnsafeBytes {
                BreachLine.parse(UnsafeRawBufferPointer(rebasing: $0[start..<feed]), hexDigits: hexDigits, prefix: prefix)
            }
            switch result {
            case .failure(let problem):
                throw failure(endsFile ? .truncatedBreachList : .malformedBreachList,
                              (endsFile ? "the file ends inside this line: " : "") + problem.reason(hexDigits: 35))
            case .success(let line):
                guard line.key.rangePrefix == prefix else {
                    throw failure(.malformedBreachList, "a full hash of another prefix in this prefix's range file")
                }
                if let previous, !(previous < line.key) {
                    throw failure(.unsortedBreachList, "not above the line before: the range file is not sorted")
                }
                previous = line.key
                if line.key == target { found = line.count }
            }
            start = feed + 1
            lineNumber += 1
        }
        return found
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
