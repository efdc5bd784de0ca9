import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX

extension VaultDocument {
    /// What a save did, for the user.
    public struct SaveReport: Sendable {
        /// The KDBX version written.
        public var version: KDBXVersion
        /// The version the file had, when the save had to raise it (an Argon2 KDF needs 4.0,
        /// 4.1-only content needs 4.1); `nil` when the version was kept.
        public var raisedFrom: KDBXVersion?
        /// When the file had changed on disk since it was read: the merge's summary (our changes
        /// were merged into the file's new content, and that was saved).
        public var merged: [String]?
        /// Things that went wrong after the new file was in place (the directory could not be
        /// flushed, a temporary file could not be removed): the vault is saved, but say so.
        public var warnings: [String]
    }

    /// The prefix and suffix of the temporary files a save writes beside the vault:
    /// `.NAME.mypass-HEX.tmp`.
    static func temporaryFilePrefix(for realPath: String) -> String { "." + lastComponent(realPath) + ".mypass-" }
    static let temporaryFileSuffix = ".tmp"

    /// Saves the model over the file (see the type's description for the steps).
    ///
    /// Another program may save the file at any moment of a save (the lock keeps out only other
    /// MyPass processes): the file's identity is checked after the lock is taken, and again after the
    /// new file was written and checked, immediately before it replaces the vault. Where the platform
    /// has an atomic exchange (``VaultFileSystem/exchange(_:with:)``), the replaced file is checked a
    /// third time after the exchange: nothing is unlinked, so a file that arrived in the instant
    /// between the last check and the exchange is found beside the vault and merged too. Whenever
    /// the file changed, its new content is decoded with the key the document has for it, our model
    /// is merged into it (``Options/mergeHandler``) and the merge is written again, keeping the
    /// planned KDF parameters (and so the transformed key: no second KDF run for our side) when the
    /// new content's format allows it.
    ///
    /// - Parameter progress: the KDF's progress; return `false` to cancel (nothing is written).
    /// - Returns: what happened (version raised, merge, warnings).
    /// - Throws: ``CoreError`` `.readOnly` (file or directory not writable; checked first),
    ///   `.fileChangedOnDisk` (the file changed and there is no merge handler, or it no longer opens
    ///   with our key: both versions intact), `.io` (a file operation or the lock failed, or the file
    ///   kept changing through ``maximumMergeRounds`` merges), `.verificationFailed` (the written
    ///   file did not decrypt to the model), `.cancelled`, `.codec` (also for a challenge-response
    ///   component that did not answer: a key with one is asked for the new seed before anything is
    ///   written). On any error the vault file is as it was (or, after an exchange found another
    ///   program's file, that file is back in place) and no temporary file is left behind.
    /// - Complexity: one KDF run for our file; one more for each new version of the file another
    ///   program saved meanwhile (its seed is new), and one more for ours only when that version
    ///   changed the KDF settings (or, in KDBX 3.1 with a challenge-response component, whose
    ///   challenge is the master seed, for every merge). Linear in the vault's size otherwise; the
    ///   file is streamed, never built whole in memory before the check.
    @discardableResult
    public mutating func save(progress: KDFProgressHandler? = nil) throws(CoreError) -> SaveReport {
        // The whole save runs inside one coordinated write of the vault (see ``VaultFileSystem``).
        let fileSystem = options.fileSystem
        let path = path
        return try fileSystem.coordinatingWrite(path) { () throws(CoreError) in try saveCoordinated(progress: progress) }
    }

    /// The save's steps, inside the coordinated write.
    private mutating func saveCoordinated(progress: KDFProgressHandler?) throws(CoreError) -> SaveReport {
        let fileSystem = options.fileSystem
        try Self.checkWritable(path, fileSystem: fileSystem)
        let realPath = try fileSystem.resolve(path)
        let directory = Self.directoryOf(realPath)

        // 1. The lock, on the file that is at the path now (a writer before us may have replaced it).
        _ = try awaitFile(realPath)
        var lock = try fileSystem.lock(realPath, timeoutSeconds: options.lockTimeoutSeconds)
        var attempts = 0
        while true {
            let locked = try fileSystem.status(of: lock)
            let current = try fileSystem.status(realPath)
            if let current, current.device == locked.device, current.inode == locked.inode { break }
            fileSystem.close(lock)
            attempts += 1
            guard attempts < 20 else { throw CoreError(.io, "the vault file keeps being replaced", location: realPath) }
            lock = try fileSystem.lock(realPath, timeoutSeconds: options.lockTimeoutSeconds)
        }
        defer { fileSystem.close(lock) }

        // 2. Identity: unchanged, or merged, or refused.
        var round = SaveRound(toWrite: vault, basis: identity, fileKey: fileKey, cachedKey: cachedKey)
        let current = try awaitFile(realPath)
        if realPath != identity.path || !identity.matches(current) {
            try mergeChange(at: realPath, into: &round, progress: progress)
        }

        // 3. A fresh header and one KDF run for it.
        var writer = KDBXWriter(vault: round.toWrite, options: options.saveOptions)
        var plan: KDBXSavePlan
        var transformed: SecureBytes
        do throws(KDBXError) {
            plan = try writer.prepare(forChallengeResponse: key.hasChallengeResponse)
        } catch {
            throw CoreError(codecError: error)
        }
        transformed = try deriveSaveKey(for: plan, progress: progress)

        var mergeRounds = 0
        do throws(CoreError) {
            while true {
                // 4.-6. The temporary file, written, flushed, checked; the last identity check; in place.
                let outcome = try writeAndReplace(round: round, plan: plan, transformedKey: transformed, realPath: realPath,
                                                  directory: directory, permissionsFrom: current)
                switch outcome {
                case .replaced(let written, let writtenStatus, let saved, var warnings):
                    warnings += removingDisplacedFiles(round.displaced)
                    let loaded = vault.format.version
                    identity = VaultFileIdentity(path: realPath, status: writtenStatus, bytes: written)
                    vault = saved
                    savedVault = saved
                    cachedKey = CachedTransformedKey(transformedKey: transformed, kdf: plan.header.kdf)
                    fileKey = key
                    return SaveReport(version: plan.version, raisedFrom: plan.version > max(loaded, .v3_1) ? loaded : nil,
                                      merged: round.summary, warnings: warnings)
                case .changed:
                    // The file changed while we wrote: merge our model into its new content.
                    try nextMergeRound(&mergeRounds, realPath: realPath)
                    try mergeChange(at: realPath, into: &round, progress: progress)
                case .displaced(let other, let ours):
                    // Ours is in place, another program's file beside it: merge that in. When it
                    // cannot be merged (another key, say), it goes back in place and ours away.
                    do throws(CoreError) {
                        try nextMergeRound(&mergeRounds, realPath: realPath)
                        try mergeChange(at: other, into: &round, basisAfter: ours, progress: progress)
                    } catch {
                        if let there = try? fileSystem.status(realPath), ours.matches(there),
                           (try? fileSystem.exchange(other, with: realPath)) == true {
                            try? fileSystem.remove(other)
                        } else {
                            round.displaced.append(other)
                        }
                        throw error
                    }
                    round.displaced.append(other)
                }
                // Write the merge again; the transformed key serves again unless the KDF settings changed.
                writer = KDBXWriter(vault: round.toWrite, options: options.saveOptions)
                let keeps = writer.keepsKDF(of: plan, forChallengeResponse: key.hasChallengeResponse)
                do throws(KDBXError) {
                    plan = try writer.prepare(forChallengeResponse: key.hasChallengeResponse,
                                              keptKDF: keeps ? plan.header.kdf : nil)
                } catch {
                    throw CoreError(codecError: error)
                }
                if !keeps { transformed = try deriveSaveKey(for: plan, progress: progress) }
            }
        } catch {
            throw keepingDisplacedFiles(round.displaced, realPath: realPath, after: error)
        }
    }

    private func nextMergeRound(_ rounds: inout Int, realPath: String) throws(CoreError) {
        rounds += 1
        guard rounds <= Self.maximumMergeRounds else {
            throw CoreError(.io, "the vault file keeps changing while it is saved (\(Self.maximumMergeRounds) merges); stopped",
                            location: realPath)
        }
    }

    /// The status of the file at `path`, waiting up to two seconds for it to reappear when it is
    /// missing: a sync client replacing a file (Syncthing removes it, then renames its new version
    /// into place) leaves the path empty for an instant.
    /// - Throws: ``CoreError/Code/io`` when it is still missing.
    private func awaitFile(_ path: String) throws(CoreError) -> VaultFileStatus {
        for attempt in 0..<40 {
            if let status = try options.fileSystem.status(path) { return status }
            if attempt < 39 { Thread.sleep(forTimeInterval: 0.05) }
        }
        throw CoreError(.io, "no such file", location: path)
    }

    /// How often a save merges a file that changed under it before it gives up.
    public static let maximumMergeRounds = 8

    /// What a save writes and what it based that on.
    struct SaveRound {
        /// The vault to write: our model, merged with every version of the file found meanwhile.
        var toWrite: Vault
        /// The file whose content ``toWrite`` holds (what is expected at the path when it is replaced).
        var basis: VaultFileIdentity
        /// The key and cached transformed key that decode the file as it is on disk.
        var fileKey: CompositeKey
        var cachedKey: CachedTransformedKey
        /// Every merge's summary, in order; `nil` while nothing was merged.
        var summary: [String]?
        /// Other programs' files that an exchange moved beside the vault and that ``toWrite`` merged:
        /// removed once it is saved, kept as conflict copies when the save fails.
        var displaced: [String] = []
    }

    /// The transformed key for a plan's KDF parameters (one KDF run).
    private func deriveSaveKey(for plan: KDBXSavePlan, progress: KDFProgressHandler?) throws(CoreError) -> SecureBytes {
        do throws(KDBXError) {
            return try options.keyDerivation.transformedKey(
                for: key, version: plan.version, kdf: plan.header.kdf, masterSeed: plan.header.masterSeed,
                limits: options.saveOptions.limits, progress: progress)
        } catch {
            throw CoreError(codecError: error)
        }
    }

    /// Reads the file at `source` (the vault, or another program's file that an exchange moved
    /// beside it); when its content is not `SaveRound.basis`'s, decodes it with the file's key and
    /// merges `SaveRound.toWrite` into it. The new basis is that file, or `basisAfter` (our own
    /// file, in place at the vault's path after an exchange).
    /// - Throws: `.fileChangedOnDisk` without a merge handler, or when the file does not open with
    ///   the file's key; what decoding and the merge handler throw.
    private func mergeChange(at source: String, into round: inout SaveRound, basisAfter: VaultFileIdentity? = nil,
                             progress: KDFProgressHandler?) throws(CoreError) {
        _ = try awaitFile(source)
        let (bytes, status) = try Self.readStable(source, options: options)
        let realPath = round.basis.path
        let identityThere = VaultFileIdentity(path: realPath, status: status, bytes: bytes)
        if identityThere.sha256 == round.basis.sha256 {
            round.basis = basisAfter ?? identityThere  // touched, not changed
            return
        }
        guard let mergeHandler = options.mergeHandler else {
            throw CoreError(.fileChangedOnDisk, "another program saved it after it was read; nothing was written, both versions are intact",
                            location: realPath)
        }
        let onDisk: Vault
        let cached: CachedTransformedKey
        do {
            (onDisk, cached) = try Self.decode(bytes, key: round.fileKey, cachedKey: round.cachedKey, options: options, progress: progress)
        } catch where error.code == .wrongKey {
            throw CoreError(.fileChangedOnDisk, "another program saved it with a different key after it was read; nothing was written",
                            location: realPath)
        }
        let outcome = try mergeHandler(round.toWrite, onDisk)
        // The merge is written with our key: its change time is ours (a key change pending included).
        let keyChanged = round.toWrite.meta.masterKeyChanged
        round.toWrite = outcome.vault
        round.toWrite.meta.masterKeyChanged = keyChanged
        round.summary = (round.summary ?? []) + outcome.summary
        round.cachedKey = cached
        round.basis = basisAfter ?? identityThere
    }

    /// What one write of a save came to.
    private enum WriteOutcome {
        /// The new file is the vault: its bytes and status, the model as written, warnings.
        case replaced([UInt8], VaultFileStatus, Vault, [String])
        /// The file at the path is no longer the basis; nothing was replaced.
        case changed
        /// An exchange put ours in place (its identity) and another program's file, which had
        /// arrived in the instant before, at the path given.
        case displaced(String, VaultFileIdentity)
    }

    /// Writes `round.toWrite` to a new temporary file beside the vault, flushes and checks it,
    /// checks the vault's identity once more and replaces the vault with it. The temporary file is
    /// gone afterwards, whatever happens (or holds the file an exchange displaced, see
    /// `WriteOutcome.displaced`).
    private func writeAndReplace(round: SaveRound, plan: KDBXSavePlan, transformedKey: SecureBytes, realPath: String,
                                 directory: String, permissionsFrom current: VaultFileStatus) throws(CoreError) -> WriteOutcome {
        let fileSystem = options.fileSystem
        let writer = KDBXWriter(vault: round.toWrite, options: options.saveOptions)
        let keys = MasterKeys(transformedKey: transformedKey, masterSeed: plan.header.masterSeed)

        // 4. The temporary file beside the real one, streamed, flushed.
        let temporaryPath = directory + "/" + Self.temporaryFilePrefix(for: realPath)
            + SecureRandom.bytes(count: 8).hexString + Self.temporaryFileSuffix
        let output = try fileSystem.createExclusive(temporaryPath, permissions: current.permissions,
                                                    owner: (current.userID, current.groupID))
        var outputOpen = true
        let writtenStatus: VaultFileStatus, written: [UInt8], saved: Vault
        do throws(CoreError) {
            var sink = FileSink(fileSystem: fileSystem, handle: output)
            let contentDigest: [UInt8]
            do throws(KDBXError) {
                contentDigest = try writer.write(plan, keys: keys, to: &sink)
            } catch {
                throw sink.failure ?? CoreError(codecError: error)
            }
            try fileSystem.synchronize(output)
            writtenStatus = try fileSystem.status(of: output)
            fileSystem.close(output)
            outputOpen = false

            // 5. The check, with the keys just derived (no KDF): the file's header is the one planned,
            //    and its payload decodes to exactly the content serialized from the model (or, with
            //    `.fullReadBack`, reads back to the model).
            written = try fileSystem.readFile(temporaryPath, maxBytes: Int.max)
            saved = round.toWrite.asWritten(version: plan.version)
            try Self.verify(written, plan: plan, transformedKey: transformedKey, contentDigest: contentDigest, expected: saved,
                            options: options, location: realPath)

            // 6. The identity once more, immediately before the file is replaced; then in place,
            //    atomically (an exchange where the platform has one), and the directory flushed.
            guard let now = try fileSystem.status(realPath), round.basis.matches(now) else {
                throw Self.changedUnderSave
            }
            let exchanged: Bool
            do {
                exchanged = try fileSystem.exchange(temporaryPath, with: realPath)
            } catch {
                // Gone this instant: a sync client is replacing it; merge what comes.
                let missing: Bool
                do throws(CoreError) { missing = try fileSystem.status(realPath) == nil } catch { missing = false }
                throw missing ? Self.changedUnderSave : error
            }
            if exchanged {
                return try afterExchange(temporaryPath: temporaryPath, realPath: realPath, directory: directory, basis: round.basis,
                                         written: written, writtenStatus: writtenStatus, saved: saved)
            }
            try fileSystem.rename(temporaryPath, to: realPath)
        } catch {
            if outputOpen { fileSystem.close(output) }
            if error.code == Self.changedUnderSave.code && error.reason == Self.changedUnderSave.reason {
                _ = Self.removingTemporaryFile(temporaryPath, after: error, fileSystem: fileSystem)
                return .changed
            }
            throw Self.removingTemporaryFile(temporaryPath, after: error, fileSystem: fileSystem)
        }
        return .replaced(written, writtenStatus, saved, flushing(directory))
    }

    /// The marker error of a file that changed before it was replaced (never thrown out of a save).
    private static let changedUnderSave = CoreError(.fileChangedOnDisk, "changed under the save")

    /// After an exchange: the file now at `temporaryPath` is the one that was at the vault's path an
    /// instant before. The basis (the usual case) is removed; another program's file stays there to
    /// be merged.
    private func afterExchange(temporaryPath: String, realPath: String, directory: String, basis: VaultFileIdentity,
                               written: [UInt8], writtenStatus: VaultFileStatus, saved: Vault) throws(CoreError) -> WriteOutcome {
        let fileSystem = options.fileSystem
        var warnings = flushing(directory)
        let displaced = try? fileSystem.status(temporaryPath)
        let sameContent = { () -> Bool in
            guard let bytes = try? fileSystem.readFile(temporaryPath, maxBytes: self.options.maxFileBytes) else { return false }
            return VaultFileIdentity(path: realPath, status: writtenStatus, bytes: bytes).sha256 == basis.sha256
        }
        guard let displaced, basis.matches(displaced) || sameContent() else {
            // Under a conflict copy's name at once: should this process die before the merge is
            // saved, the next open names it (a temporary file's name would have it removed).
            let copy = ConflictCopy.myPassCopyPath(for: realPath)
            let kept = (try? fileSystem.rename(temporaryPath, to: copy)) != nil ? copy : temporaryPath
            return .displaced(kept, VaultFileIdentity(path: realPath, status: writtenStatus, bytes: written))
        }
        do {
            try fileSystem.remove(temporaryPath)
        } catch {
            warnings.append("the vault was saved, but the file it replaced could not be removed (\(error.reason)): \(temporaryPath)")
        }
        return .replaced(written, writtenStatus, saved, warnings)
    }

    /// Removes the other programs' files that exchanges displaced, once their content is saved.
    private func removingDisplacedFiles(_ paths: [String]) -> [String] {
        var warnings: [String] = []
        for path in paths {
            do {
                try options.fileSystem.remove(path)
            } catch {
                warnings.append("the vault was saved with another program's changes merged, but that program's file could not be removed (\(error.reason)): \(path)")
            }
        }
        return warnings
    }

    /// A save that failed after an exchange displaced other programs' files: each stays beside the
    /// vault as a conflict copy (``ConflictCopy``'s MyPass pattern), and `error` says where.
    private func keepingDisplacedFiles(_ paths: [String], realPath: String, after error: CoreError) -> CoreError {
        guard !paths.isEmpty else { return error }
        let note = "another program's version of the vault, saved during this save, is kept as " + paths.joined(separator: ", ")
            + " (merge it with `mypass merge VAULT --conflicts`)"
        return CoreError(error.code, error.reason.isEmpty ? note : error.reason + "; " + note, location: error.location,
                         underlying: error.underlying)
    }

    /// Flushes the directory after a rename; a failure is a warning (the vault is saved).
    private func flushing(_ directory: String) -> [String] {
        do {
            try options.fileSystem.synchronizeDirectory(directory)
            return []
        } catch {
            return ["the vault was saved, but its directory could not be flushed to disk (\(error.reason)); a crash now could lose the save"]
        }
    }
}

extension VaultDocument {
    /// How a save checks the file it wrote, before renaming it over the vault. Both decrypt the
    /// file with the keys the save derived (no second KDF run) and check that its header is the
    /// one the save planned.
    public enum SaveVerification: Sendable {
        /// Decrypt and inflate the file and compare the BLAKE2b-256 of its content (inner header and
        /// XML) with the digest taken while it was serialized, in constant time: proves that the
        /// bytes on disk decode to exactly what was written from the model, with no XML parse and
        /// no second model. The default.
        case contentDigest
        /// Read the file back into a second model and compare it with the model as a save at that
        /// version reads back: also checks the reader against the writer, at the cost of a full
        /// parse and the memory of a second model (for tests).
        case fullReadBack
    }

    /// Removes the temporary file of a save or create that failed with `error`, and returns the
    /// error to throw: `error` itself, or, when the file cannot be removed, `error` with the
    /// file's path and the reason added to its reason (the next open of the vault removes it).
    static func removingTemporaryFile(_ path: String, after error: CoreError, fileSystem: any VaultFileSystem) -> CoreError {
        do throws(CoreError) {
            try fileSystem.remove(path)
            return error
        } catch let failure {
            let left = "the temporary file \(path) could not be removed (\(failure.reason)); the next open of the vault removes it"
            return CoreError(error.code, error.reason.isEmpty ? left : error.reason + "; " + left, location: error.location,
                             underlying: error.underlying)
        }
    }

    /// The save's check (see ``SaveVerification``).
    /// - Throws: ``CoreError/Code/verificationFailed`` (the codec error as ``CoreError/underlying``
    ///   when the file does not decrypt).
    static func verify(_ written: [UInt8], plan: KDBXSavePlan, transformedKey: SecureBytes, contentDigest: [UInt8],
                       expected: Vault, options: Options, location: String) throws(CoreError) {
        let matches: Bool
        do throws(KDBXError) {
            let reader = try KDBXReader(file: written, limits: options.limits)
            let keys = try reader.keys(transformedKey: transformedKey)
            if reader.header.rawBytes != plan.header.rawBytes {
                matches = false
            } else if options.verification == .contentDigest {
                matches = constantTimeEquals(try reader.contentDigest(keys: keys), contentDigest)
            } else {
                matches = try reader.readVault(keys: keys) == expected
            }
        } catch {
            throw CoreError(.verificationFailed, "the written file does not decrypt: \(error.description)", location: location,
                            underlying: error)
        }
        guard matches else {
            throw CoreError(.verificationFailed, "the written file does not read back to the vault in memory", location: location)
        }
    }
}

/// The temporary file as a sink for the streaming writer; the first file error is kept (the
/// writer only sees that the sink failed).
private struct FileSink: KDBXByteSink {
    let fileSystem: any VaultFileSystem
    let handle: VaultFileHandle
    var failure: CoreError?

    init(fileSystem: any VaultFileSystem, handle: VaultFileHandle) {
        self.fileSystem = fileSystem
        self.handle = handle
    }

    mutating func write(_ bytes: ArraySlice<UInt8>) throws(KDBXError) {
        do {
            try fileSystem.write(handle, bytes)
        } catch {
            failure = error
            throw KDBXError(.io, error.reason)
        }
    }
}
