import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// Owns one open vault and its lock/unlock lifecycle; safe to use from several tasks (an actor).
/// It wraps a ``VaultDocument``, the one type that opens and saves vault files.
///
/// - Unlock with a password and/or key file, or with credentials kept in a ``CredentialStore``.
///   The KDF runs off the actor (other calls are served meanwhile), reports its progress and
///   stops when the calling task is cancelled (``CoreError/Code/cancelled``).
/// - ``lock()`` drops the document: key material (wiping buffers) and the decrypted model.
/// - With an auto-lock timeout, the session locks itself once that many seconds pass without use
///   (measured on the clock's monotonic count); every access checks it first.
/// - ``save(progress:)`` writes through ``VaultDocument/save(progress:)``; afterwards the session
///   holds what was written.
public actor VaultSession {
    /// The vault file.
    public nonisolated let fileURL: URL
    /// The identifier under which credentials are stored (the file path unless given).
    public nonisolated let vaultID: String
    private let options: VaultDocument.Options
    private let credentialStore: (any CredentialStore)?
    private let clock: any SessionClock
    /// Seconds of inactivity before the session locks itself; `nil` never.
    public private(set) var autoLockSeconds: Double?
    private var document: VaultDocument?
    private var lastActivity: Double = 0
    /// Counts edits, so that a save knows whether edits arrived while it ran.
    private var editGeneration = 0
    private var saveInFlight: Task<Void, Never>?
    /// Counts locks, so that an unlock knows whether a lock arrived while its KDF ran.
    private var lockGeneration = 0

    /// A locked session for the vault at `fileURL`.
    public init(fileURL: URL, options: VaultDocument.Options = VaultDocument.Options(),
                credentialStore: (any CredentialStore)? = nil, autoLockSeconds: Double? = nil,
                clock: any SessionClock = SystemClock(), vaultID: String? = nil) {
        SystemPlatform.install()
        self.fileURL = fileURL
        self.options = options
        self.credentialStore = credentialStore
        self.autoLockSeconds = autoLockSeconds
        self.clock = clock
        self.vaultID = vaultID ?? fileURL.standardizedFileURL.path
    }

    // MARK: - Lock state

    /// Whether the session is locked (checking the auto-lock timeout first).
    public var isLocked: Bool {
        lockIfIdle()
        return document == nil
    }

    /// Whether the vault was edited since it was opened or last saved.
    public var hasUnsavedChanges: Bool { document?.hasUnsavedChanges ?? false }

    /// Changes the auto-lock timeout (`nil`: never) and counts from now.
    public func setAutoLock(seconds: Double?) {
        autoLockSeconds = seconds
        lastActivity = clock.monotonicSeconds()
    }

    /// Locks when the timeout has passed; returns whether the session is locked. Call it from a
    /// timer or when the app comes to the foreground.
    @discardableResult
    public func lockIfIdle() -> Bool {
        if document != nil, let timeout = autoLockSeconds, clock.monotonicSeconds() - lastActivity >= timeout {
            lock()
        }
        return document == nil
    }

    /// Locks: releases the key material (its wiping buffers are cleared) and the decrypted model.
    /// Unsaved changes are discarded. An unlock still deriving its key when the lock arrives ends
    /// with ``CoreError/Code/locked`` and leaves the session locked (and remembers nothing).
    public func lock() {
        document = nil
        lockGeneration += 1
    }

    // MARK: - Unlocking

    /// Unlocks with a password and/or key file contents, and a hardware key for a vault whose key
    /// has a challenge-response component.
    ///
    /// - Parameters:
    ///   - password: the master password, `nil` when the vault has none.
    ///   - keyFileContents: the key file's bytes, `nil` when the vault has none.
    ///   - challengeResponder: the hardware key, `nil` when the vault has none. It stays part of
    ///     the key: every ``save(progress:)`` asks it again for the new seed (see
    ///     ``ChallengeResponder``). It is never stored with the credentials.
    ///   - rememberCredentials: also store the credentials in the credential store (after a
    ///     successful unlock); without a store the call fails before anything is read.
    ///   - progress: the KDF's progress, 0...1, called from the task running it.
    /// - Throws: ``CoreError/Code/noStoredCredential`` (remembering without a store),
    ///   ``CoreError/Code/wrongKey``, ``CoreError/Code/io`` when the file cannot be read,
    ///   ``CoreError/Code/cancelled``, ``CoreError/Code/codec`` for other file errors and for a
    ///   hardware key that did not answer, ``CoreError/Code/locked`` when ``lock()`` was called
    ///   before the unlock finished (the session stays locked: an app that locks on going to the
    ///   background during Face ID stays locked).
    public func unlock(password: ProtectedString?, keyFileContents: [UInt8]? = nil,
                       challengeResponder: (any ChallengeResponder)? = nil, rememberCredentials: Bool = false,
                       progress: (@Sendable (Double) -> Void)? = nil) async throws(CoreError) {
        if rememberCredentials && credentialStore == nil {
            throw CoreError(.noStoredCredential, "this session has no credential store")
        }
        let credentials = VaultCredentials(password: password, keyFileContents: keyFileContents.map { SecureBytes($0) })
        try await unlock(with: credentials, challengeResponder: challengeResponder, progress: progress)
        if rememberCredentials, let credentialStore {
            try credentialStore.save(credentials, forVault: vaultID)
        }
    }

    /// Unlocks with a password and/or a key file read from `keyFileURL`.
    ///
    /// - Throws: ``CoreError/Code/io`` when the key file cannot be read; as
    ///   ``unlock(password:keyFileContents:challengeResponder:rememberCredentials:progress:)``.
    public func unlock(password: ProtectedString?, keyFileURL: URL?, challengeResponder: (any ChallengeResponder)? = nil,
                       rememberCredentials: Bool = false, progress: (@Sendable (Double) -> Void)? = nil) async throws(CoreError) {
        var contents: [UInt8]?
        if let keyFileURL {
            contents = try options.fileSystem.readFile(keyFileURL.path, maxBytes: KeyFileLimits.maxBytes)
        }
        defer { if contents != nil { wipe(&contents!) } }
        try await unlock(password: password, keyFileContents: contents, challengeResponder: challengeResponder,
                         rememberCredentials: rememberCredentials, progress: progress)
    }

    /// Unlocks with the credentials stored for ``vaultID`` (and the hardware key, for a vault that
    /// needs one: the AutoFill extension passes a ``CachedChallengeResponder``).
    ///
    /// - Throws: ``CoreError/Code/noStoredCredential`` when none are stored; as
    ///   ``unlock(password:keyFileContents:challengeResponder:rememberCredentials:progress:)``.
    public func unlockWithStoredCredentials(challengeResponder: (any ChallengeResponder)? = nil,
                                            progress: (@Sendable (Double) -> Void)? = nil) async throws(CoreError) {
        guard let credentialStore, let credentials = try credentialStore.credentials(forVault: vaultID) else {
            throw CoreError(.noStoredCredential, "no credentials stored for this vault")
        }
        try await unlock(with: credentials, challengeResponder: challengeResponder, progress: progress)
    }

    /// Removes the stored credentials of this vault.
    public func forgetStoredCredentials() throws(CoreError) {
        try credentialStore?.delete(forVault: vaultID)
    }

    private func unlock(with credentials: VaultCredentials, challengeResponder: (any ChallengeResponder)?,
                        progress: (@Sendable (Double) -> Void)?) async throws(CoreError) {
        let generation = lockGeneration
        let key = try credentials.compositeKey(challengeResponse: challengeResponder.map { ChallengeResponseKey($0) })
        let opened = try await Self.open(fileURL.path, key: key, options: options, progress: progress)
        // A lock that arrived while the KDF ran wins: the opened document is dropped (its key
        // material wiped with it), as `save` drops its result after a lock.
        guard lockGeneration == generation else {
            throw CoreError(.locked, "the session was locked while it was unlocking")
        }
        document = opened
        lastActivity = clock.monotonicSeconds()
    }

    /// Opens off the actor and off the cooperative pool (on a thread of its own, see
    /// ``KeyDerivationThread``); the actor serves other calls while the KDF runs.
    private nonisolated static func open(_ path: String, key: CompositeKey, options: VaultDocument.Options,
                                         progress: (@Sendable (Double) -> Void)?) async throws(CoreError) -> VaultDocument {
        try await KeyDerivationThread.run { cancellation throws(CoreError) in
            try VaultDocument.open(path, key: key, options: options, progress: handler(progress, cancellation))
        }
    }

    private nonisolated static func handler(_ progress: (@Sendable (Double) -> Void)?,
                                            _ cancellation: KeyDerivationThread.Cancellation) -> KDFProgressHandler {
        { fraction in
            progress?(fraction)
            return !cancellation.isCancelled
        }
    }

    // MARK: - Using the vault

    /// The open vault (a value copy). Counts as activity.
    ///
    /// - Throws: ``CoreError/Code/locked``.
    public func currentVault() throws(CoreError) -> Vault {
        try touch().vault
    }

    /// The open document (a value copy: its key and cached transformed key included). Counts as activity.
    ///
    /// - Throws: ``CoreError/Code/locked``.
    public func currentDocument() throws(CoreError) -> VaultDocument {
        try touch()
    }

    /// Edits the vault in place; `body` receives the vault and the current time (for the editing
    /// methods' `now`). The edit is all or nothing: when `body` throws, the vault is unchanged.
    ///
    /// - Throws: ``CoreError/Code/locked``; what `body` throws (non-``CoreError`` errors wrapped as
    ///   ``CoreError/Code/invalidOperation``).
    @discardableResult
    public func edit<R: Sendable>(_ body: @Sendable (inout Vault, KDBXTime) throws -> R) throws(CoreError) -> R {
        var copy = try touch().vault
        let result: R
        do {
            result = try body(&copy, clock.now())
        } catch let error as CoreError {
            throw error
        } catch {
            throw CoreError(.invalidOperation, "the edit failed: \(error)", underlying: error)
        }
        if copy != document!.vault {
            document!.vault = copy
            editGeneration += 1
        }
        return result
    }

    /// Saves the vault over its file (see ``VaultDocument/save(progress:)``); the KDF runs off
    /// the actor. Saves run one at a time; edits made while a save runs stay in the session,
    /// unsaved.
    ///
    /// - Returns: the document's report (version raised, merge, warnings).
    /// - Throws: ``CoreError/Code/locked`` and what ``VaultDocument/save(progress:)`` throws; the
    ///   original file is untouched on failure.
    @discardableResult
    public func save(progress: (@Sendable (Double) -> Void)? = nil) async throws(CoreError) -> VaultDocument.SaveReport {
        while let running = saveInFlight { await running.value }
        var snapshot = try touch()
        let generation = editGeneration
        let (gate, open) = Self.gate()
        saveInFlight = gate
        defer {
            saveInFlight = nil
            open()
        }
        let report = try await Self.save(&snapshot, progress: progress)
        guard document != nil else { return report }
        if editGeneration != generation {
            snapshot.vault = document!.vault
        }
        document = snapshot
        return report
    }

    /// Saves off the actor and off the cooperative pool (see ``KeyDerivationThread``).
    private nonisolated static func save(_ document: inout VaultDocument,
                                         progress: (@Sendable (Double) -> Void)?) async throws(CoreError) -> VaultDocument.SaveReport {
        let copy = document
        let (saved, report) = try await KeyDerivationThread.run { cancellation throws(CoreError) in
            var saving = copy
            let report = try saving.save(progress: handler(progress, cancellation))
            return (saving, report)
        }
        document = saved
        return report
    }

    // MARK: - Conflict copies

    /// The conflict copies sync engines left beside the vault, found when it was unlocked
    /// (``VaultDocument/conflictCopies``: one listing of its folder, no copy read). Counts as activity.
    /// - Throws: ``CoreError/Code/locked``.
    public func conflictCopies() throws(CoreError) -> [ConflictCopy] {
        try touch().conflictCopies
    }

    /// Merges another copy of the vault (a conflict copy, say) into the session's vault with
    /// KeePass's Synchronize rules; the copy's KDF runs off the actor. Nothing is written: save once
    /// after merging every copy, then remove the merged ones (``VaultDocument/removeConflictCopy(_:)``
    /// through ``currentDocument()``).
    /// - Parameters:
    ///   - path: the copy's file path.
    ///   - key: the copy's composite key; `nil`: the vault's.
    ///   - progress: the copy's KDF progress, 0...1.
    /// - Returns: the merge's change log.
    /// - Throws: ``CoreError/Code/locked`` and what ``VaultDocument/mergeCopy(at:key:progress:)`` throws.
    @discardableResult
    public func mergeCopy(at path: String, key: CompositeKey? = nil,
                          progress: (@Sendable (Double) -> Void)? = nil) async throws(CoreError) -> MergeResult {
        let snapshot = try touch()
        let copy = try await Self.readCopy(path, key: key ?? snapshot.key, options: snapshot.options, progress: progress)
        guard document != nil else { throw CoreError(.locked) }
        let result = try document!.merge(copy: copy, from: path)
        if result.changedLocal { editGeneration += 1 }
        return result
    }

    private nonisolated static func readCopy(_ path: String, key: CompositeKey, options: VaultDocument.Options,
                                             progress: (@Sendable (Double) -> Void)?) async throws(CoreError) -> Vault {
        try await KeyDerivationThread.run { cancellation throws(CoreError) in
            try VaultDocument.readCopy(at: path, key: key, options: options, progress: handler(progress, cancellation))
        }
    }

    /// A task that finishes when `open` is called (for callers waiting on a running save).
    private static func gate() -> (Task<Void, Never>, @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let task = Task { for await _ in stream {} }
        return (task, { continuation.finish() })
    }

    private func touch() throws(CoreError) -> VaultDocument {
        lockIfIdle()
        guard let document else { throw CoreError(.locked) }
        lastActivity = clock.monotonicSeconds()
        return document
    }
}

/// A session over a KDBX file (the former generic name).
public typealias KDBXVaultSession = VaultSession

/// Bounds on key files.
public enum KeyFileLimits {
    /// The largest key file read: 64 MiB (KeePass hashes any file; nobody's key file is larger).
    public static let maxBytes = 64 << 20
}

extension VaultCredentials {
    /// The composite key (SHA-256 of the password and key-file components, and of the response
    /// of a challenge-response component).
    /// - Parameter challengeResponse: the hardware key, for a vault whose key has one.
    /// - Throws: ``CoreError/Code/codec`` for an unusable key file or no component at all.
    public func compositeKey(challengeResponse: ChallengeResponseKey? = nil) throws(CoreError) -> CompositeKey {
        SystemPlatform.install()
        var keyFile = keyFileContents?.unsafeArray
        defer { if keyFile != nil { wipe(&keyFile!) } }
        do {
            return try CompositeKey(password: password, keyFileContents: keyFile, challengeResponse: challengeResponse)
        } catch {
            throw CoreError(codecError: error)
        }
    }
}
