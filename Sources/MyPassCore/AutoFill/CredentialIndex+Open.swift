import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// The numbers of a ``CoreError/Code/memoryBudgetExceeded`` refusal (its ``CoreError/underlying``).
public struct MemoryBudgetExceeded: Error, Sendable, Equatable {
    /// The vault's Argon2 memory (`M`), in bytes.
    public let argon2MemoryBytes: UInt64
    /// The working margin added to it (``CredentialIndex/OpenOptions/workingMarginBytes``), in bytes.
    public let workingMarginBytes: UInt64
    /// The caller's budget, in bytes.
    public let budgetBytes: UInt64
    /// For a refusal while reading the entries (the KDF fitted): at least how much memory the
    /// index of the vault's entries would have taken, in bytes; 0 for a refusal before the KDF.
    public let indexBytes: UInt64
    /// What the open would need: Argon2 memory (or the index) plus the margin, in bytes.
    public var requiredBytes: UInt64 { argon2MemoryBytes &+ workingMarginBytes &+ indexBytes }

    init(argon2MemoryBytes: UInt64, workingMarginBytes: UInt64, budgetBytes: UInt64, indexBytes: UInt64 = 0) {
        self.argon2MemoryBytes = argon2MemoryBytes
        self.workingMarginBytes = workingMarginBytes
        self.budgetBytes = budgetBytes
        self.indexBytes = indexBytes
    }
}

extension CredentialIndex {
    /// How ``open(_:key:cachedKey:options:)`` reads.
    public struct OpenOptions: Sendable {
        /// The most memory the open may take, in bytes (`nil`: no budget). Checked before the KDF:
        /// an Argon2 vault whose memory plus ``workingMarginBytes`` exceeds it is refused with
        /// ``CoreError/Code/memoryBudgetExceeded``. AES-KDF needs no memory to speak of, and a
        /// fitting cached key runs no KDF: both always pass that check. While the entries are
        /// read, the index they make is bounded by the budget less the margin (at least half the
        /// margin, which counts a typical vault's index): a file whose index would pass that (a
        /// hostile one of hundreds of thousands of empty entries) is refused with
        /// ``CoreError/Code/memoryBudgetExceeded`` before it does.
        public var budgetBytes: UInt64?
        /// What the open needs beside the KDF's memory (process, one HMAC block, the inflater,
        /// the index of a typical vault), in bytes. Default 12 MiB.
        public var workingMarginBytes: UInt64
        /// How the KDF runs (a seam for tests that count runs).
        public var keyDerivation: KeyDerivation
        /// Codec limits.
        public var limits: KDBXLimits
        /// The largest vault file the open reads, in bytes (larger ones are refused with
        /// ``CoreError/Code/limitExceeded`` before a byte is read). Default 1 GiB, as
        /// ``VaultDocument/Options/maxFileBytes``.
        public var maxFileBytes: Int
        /// Whether a successful open removes the temporary files that killed saves left beside
        /// the vault, as ``VaultDocument/open(_:key:cachedKey:options:progress:)`` does (see
        /// ``CredentialIndex/Opened/removedStaleFiles``). Default `true`; an extension that may not write the
        /// vault's folder passes `false`.
        public var removesStaleTemporaryFiles: Bool
        /// Where the vault is read (``VaultFileSystem/openForReading(_:)`` and
        /// ``VaultFileSystem/read(_:into:)``): an AutoFill extension passes its coordinated,
        /// security-scoped implementation.
        public var fileSystem: any VaultFileSystem

        /// Options with a budget (none by default), a 12 MiB working margin, MyPass's KDFs, the
        /// default limits and the POSIX file system.
        public init(budgetBytes: UInt64? = nil, workingMarginBytes: UInt64 = 12 << 20,
                    keyDerivation: KeyDerivation = .standard, limits: KDBXLimits = KDBXLimits(),
                    fileSystem: any VaultFileSystem = SystemFileSystem(), maxFileBytes: Int = 1 << 30,
                    removesStaleTemporaryFiles: Bool = true) {
            self.budgetBytes = budgetBytes
            self.maxFileBytes = maxFileBytes
            self.removesStaleTemporaryFiles = removesStaleTemporaryFiles
            self.workingMarginBytes = workingMarginBytes
            self.keyDerivation = keyDerivation
            self.limits = limits
            self.fileSystem = fileSystem
        }
    }

    /// What an open gives: the index, the transformed key to keep for the next one, and where
    /// the work and memory went.
    public struct Opened: Sendable {
        /// The index.
        public let index: CredentialIndex
        /// The transformed key and the KDF parameters it fits (for a later open without the KDF).
        public let cachedKey: CachedTransformedKey
        /// Whether the KDF ran (`false`: the cached key fitted).
        public let ranKDF: Bool
        /// The Argon2 memory the KDF took, in bytes (0 when it did not run or is AES-KDF).
        public let kdfMemoryBytes: UInt64
        /// The largest HMAC block (KDBX 4) or read buffer (3.x) held at once, in bytes.
        public let largestBufferBytes: Int
        /// The file's size, in bytes.
        public let fileBytes: Int
        /// The temporary files of interrupted saves (`.NAME.mypass-HEX.tmp`, full encrypted
        /// copies of the vault) found beside the file and removed: their paths, for the user.
        public internal(set) var removedStaleFiles: [String]
        /// Such files found but not removable (a read-only folder, say): their paths.
        public internal(set) var staleFilesLeft: [String]
        /// The conflict copies sync engines left beside the vault (one listing of its folder; none
        /// is read), for a note in the app: see ``VaultDocument/conflictCopies``.
        public internal(set) var conflictCopies: [ConflictCopy]
    }

    /// Opens the vault at `path` for AutoFill: reads the outer header, checks the memory budget
    /// against the KDF parameters, runs the KDF (none with a `cachedKey` derived for the file's
    /// current KDF parameters and seed), then streams the file once, a 64 KiB read at a time, into
    /// an index. The file is never held whole, nor is the decompressed XML, an attachment, a
    /// history item or a custom icon. Only a regular file is read, and only as many bytes as
    /// `fstat` gave when it was opened; the body may decompress to at most
    /// `KDBXLimits.maxDecompressionRatio` times the file's payload, as in a full open.
    ///
    /// - Parameters:
    ///   - path: the vault file (a relative path is taken from the current directory; a
    ///     symbolic link is followed, as in a full open).
    ///   - key: the composite key (unused when `cachedKey` fits, but still the vault's key).
    ///   - cachedKey: a transformed key from an earlier unlock.
    ///   - options: budget, margin, KDF seam, limits.
    /// - Throws: ``CoreError`` `.memoryBudgetExceeded` (before any KDF work, or, while the entries
    ///   are read, before the index would take more than the budget less the working margin),
    ///   `.wrongKey`, `.io`
    ///   (also for a path that is not a regular file), `.limitExceeded` (a file over
    ///   ``OpenOptions/maxFileBytes``), `.cancelled`, `.codec`.
    /// - Complexity: one KDF run (none with a fitting `cachedKey`), then linear in the file size.
    public static func open(_ path: String, key: CompositeKey, cachedKey: CachedTransformedKey? = nil,
                            options: OpenOptions = OpenOptions()) throws(CoreError) -> Opened {
        SystemPlatform.install()
        // The file is streamed inside one coordinated read (see ``VaultFileSystem``); the stale
        // temporary files are removed after it, inside a coordinated write.
        let absolute = VaultDocument.absolutePath(path)
        var (opened, realPath, names) = try options.fileSystem.coordinatingRead(absolute) { () throws(CoreError) in
            let (opened, realPath) = try read(path, absolute: absolute, key: key, cachedKey: cachedKey, options: options)
            // Listed inside the read (once, for stale temporary files and conflict copies), and
            // only once the key opened the file, as in the full open: no one without it removes anything.
            return (opened, realPath, try? options.fileSystem.contentsOfDirectory(VaultDocument.directoryOf(realPath)))
        }
        (opened.removedStaleFiles, opened.staleFilesLeft, opened.conflictCopies) = VaultDocument.lookBeside(
            realPath, names: names, removingStaleFiles: options.removesStaleTemporaryFiles, fileSystem: options.fileSystem)
        return opened
    }

    /// The open's reading, inside the coordinated read: the `Opened` (no stale files yet) and the real path.
    private static func read(_ path: String, absolute: String, key: CompositeKey, cachedKey: CachedTransformedKey?,
                             options: OpenOptions) throws(CoreError) -> (Opened, String) {
        let realPath = try options.fileSystem.resolve(absolute)
        var source = try FileByteSource(path: realPath, fileSystem: options.fileSystem, maxBytes: options.maxFileBytes)
        defer { source.close() }
        func codec<T>(_ body: () throws(KDBXError) -> T) throws(CoreError) -> T {
            do throws(KDBXError) { return try body() } catch { throw CoreError(codecError: error) }
        }
        let fileByteCount = source.byteCount
        var reader = try codec { () throws(KDBXError) in
            try KDBXCredentialReader(source: &source, fileByteCount: fileByteCount, limits: options.limits)
        }
        let kdf = reader.header.kdf
        let transformed: SecureBytes
        var memory: UInt64 = 0
        var ran = false
        if let cachedKey, cachedKey.isValid(for: kdf) {
            transformed = cachedKey.transformedKey
        } else {
            if case .argon2(let settings) = kdf.settings { memory = settings.memoryBytes }
            if let budget = options.budgetBytes, memory &+ options.workingMarginBytes > budget {
                let numbers = MemoryBudgetExceeded(argon2MemoryBytes: memory, workingMarginBytes: options.workingMarginBytes,
                                                   budgetBytes: budget)
                throw CoreError(
                    .memoryBudgetExceeded,
                    "Argon2 needs \(memory) bytes plus a working margin of \(options.workingMarginBytes) bytes; the budget is \(budget) bytes",
                    location: path, underlying: numbers)
            }
            let header = reader.header
            transformed = try codec { () throws(KDBXError) in
                try options.keyDerivation.transformedKey(for: key, version: header.version, kdf: kdf, masterSeed: header.masterSeed,
                                                         limits: options.limits, progress: nil)
            }
            ran = true
        }
        // With a budget, the index itself is bounded too: by what the budget leaves beside the
        // working margin (the KDF's memory is freed by now), and never below half the margin (the
        // margin counts a typical vault's index, so a fitting cached key keeps passing any budget).
        // A hostile file of many empty entries (300,000 in 124 KB) is refused before its index
        // passes that, instead of crossing the budget.
        let maxKeptBytes = options.budgetBytes.map {
            Int(clamping: max($0 > options.workingMarginBytes ? $0 - options.workingMarginBytes : 0, options.workingMarginBytes / 2))
        }
        let skim: CredentialSkim
        do throws(KDBXError) {
            let keys = try reader.keys(transformedKey: transformed)
            skim = try reader.readCredentials(keys: keys, selection: fieldSelection, source: &source, maxKeptBytes: maxKeptBytes)
        } catch where error.code == .limitExceeded && error.reason.hasPrefix(CredentialSkim.keptBytesLimitReason) {
            let budget = options.budgetBytes ?? 0
            let numbers = MemoryBudgetExceeded(argon2MemoryBytes: 0, workingMarginBytes: options.workingMarginBytes,
                                               budgetBytes: budget, indexBytes: UInt64(maxKeptBytes ?? 0) + 1)
            throw CoreError(
                .memoryBudgetExceeded,
                "the vault's entries need an index of more than \(maxKeptBytes ?? 0) bytes beside a working margin of \(options.workingMarginBytes) bytes; the budget is \(budget) bytes",
                location: path, underlying: numbers)
        } catch {
            throw CoreError(codecError: error)
        }
        let opened = Opened(
            index: CredentialIndex(skim: skim), cachedKey: CachedTransformedKey(transformedKey: transformed, kdf: kdf),
            ranKDF: ran, kdfMemoryBytes: memory, largestBufferBytes: skim.largestBlockBytes,
            fileBytes: source.bytesRead, removedStaleFiles: [], staleFilesLeft: [], conflictCopies: [])
        return (opened, realPath)
    }
}

/// A vault file read 64 KiB at a time (never whole) through the file-system seam, straight into
/// the returned array (no `Data` in between). Only a regular file, and no more than the size
/// `fstat` gave at the open (a device such as `/dev/zero`, or a file still growing, cannot make
/// the reader go on).
struct FileByteSource: KDBXByteSource {
    private let fileSystem: any VaultFileSystem
    private let handle: VaultFileHandle
    /// The file's size at the open, in bytes: reads end there.
    let byteCount: Int
    private(set) var bytesRead = 0

    /// - Throws: ``CoreError`` `.io` (cannot open, not a regular file), `.limitExceeded` (over `maxBytes`).
    init(path: String, fileSystem: any VaultFileSystem, maxBytes: Int) throws(CoreError) {
        self.fileSystem = fileSystem
        let handle = try fileSystem.openForReading(path)
        /// `error`, after closing the file.
        func refusing(_ error: CoreError) -> CoreError {
            fileSystem.close(handle)
            return error
        }
        let status: VaultFileStatus
        do { status = try fileSystem.status(of: handle) } catch {
            throw refusing(CoreError(error.code, error.reason, location: path))
        }
        guard status.isRegularFile else { throw refusing(CoreError(.io, "not a regular file", location: path)) }
        guard status.size <= Int64(maxBytes) else {
            throw refusing(CoreError(.limitExceeded, "the file has \(status.size) bytes, more than the limit of \(maxBytes)", location: path))
        }
        self.handle = handle
        byteCount = Int(max(0, status.size))
    }

    mutating func read(upTo wanted: Int) throws(KDBXError) -> [UInt8] {
        let count = min(wanted, byteCount - bytesRead)
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result: Result<Int, CoreError> = out.withUnsafeMutableBytes { buffer in
                do throws(CoreError) {
                    return .success(try fileSystem.read(handle, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])))
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(let got) = result else { throw KDBXError(.io, "reading the vault file failed") }
            if got == 0 { break }
            filled += got
        }
        if filled < count { out.removeLast(count - filled) }
        bytesRead += filled
        return out
    }

    func close() { fileSystem.close(handle) }
}
