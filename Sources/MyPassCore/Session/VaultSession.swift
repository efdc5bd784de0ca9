import Foundation
import MyPassBytes
import MyPassKDBX

/// Owns one open vault and its lock/unlock lifecycle; safe to use from several tasks (an actor).
///
/// - Unlock with a password and/or key file, or with credentials kept in a ``CredentialStore``.
/// - ``lock()`` drops the key material (wiping buffers) and the decrypted model.
/// - With an auto-lock timeout, the session locks itself once that many seconds pass without use
///   (measured on the clock's monotonic count); every access checks it first.
/// - ``save()`` writes through ``SafeSave``, verifying that the new file opens with the same key to
///   the same vault manifest before it replaces the original.
public actor VaultSession<Codec: VaultCodec> {
    /// The vault file.
    public nonisolated let fileURL: URL
    /// The identifier under which credentials are stored (the file path unless given).
    public nonisolated let vaultID: String
    private let codec: Codec
    private let credentialStore: (any CredentialStore)?
    private let clock: any SessionClock
    /// Seconds of inactivity before the session locks itself; `nil` never.
    public private(set) var autoLockSeconds: Double?
    private var key: Codec.Key?
    private var vault: Vault?
    private var lastActivity: Double = 0
    /// Whether the vault was edited since it was opened or last saved.
    public private(set) var hasUnsavedChanges = false

    /// A locked session for the vault at `fileURL`.
    public init(fileURL: URL, codec: Codec, credentialStore: (any CredentialStore)? = nil,
                autoLockSeconds: Double? = nil, clock: any SessionClock = SystemClock(), vaultID: String? = nil) {
        self.fileURL = fileURL
        self.codec = codec
        self.credentialStore = credentialStore
        self.autoLockSeconds = autoLockSeconds
        self.clock = clock
        self.vaultID = vaultID ?? fileURL.standardizedFileURL.path
    }

    // MARK: - Lock state

    /// Whether the session is locked (checking the auto-lock timeout first).
    public var isLocked: Bool {
        lockIfIdle()
        return vault == nil
    }

    /// Changes the auto-lock timeout (`nil`: never) and counts from now.
    public func setAutoLock(seconds: Double?) {
        autoLockSeconds = seconds
        lastActivity = clock.monotonicSeconds()
    }

    /// Locks when the timeout has passed; returns whether the session is locked. Call it from a
    /// timer or when the app comes to the foreground.
    @discardableResult
    public func lockIfIdle() -> Bool {
        if vault != nil, let timeout = autoLockSeconds, clock.monotonicSeconds() - lastActivity >= timeout {
            lock()
        }
        return vault == nil
    }

    /// Locks: releases the key material (its wiping buffers are cleared) and the decrypted model.
    /// Unsaved changes are discarded.
    public func lock() {
        key = nil
        vault = nil
        hasUnsavedChanges = false
    }

    // MARK: - Unlocking

    /// Unlocks with a password and/or key file contents.
    ///
    /// - Parameter rememberCredentials: also store the credentials in the credential store (after
    ///   a successful unlock).
    /// - Throws: ``CoreError/Code/wrongKey``; ``CoreError/Code/io`` when the file cannot be read;
    ///   ``CoreError/Code/codec`` for other file errors (the codec error as ``CoreError/underlying``).
    public func unlock(password: ProtectedString?, keyFileContents: [UInt8]? = nil,
                       rememberCredentials: Bool = false) throws(CoreError) {
        let credentials = VaultCredentials(password: password, keyFileContents: keyFileContents.map { SecureBytes($0) })
        try unlock(with: credentials)
        if rememberCredentials {
            guard let credentialStore else {
                throw CoreError(.noStoredCredential, "this session has no credential store")
            }
            try credentialStore.save(credentials, forVault: vaultID)
        }
    }

    /// Unlocks with the credentials stored for ``vaultID``.
    ///
    /// - Throws: ``CoreError/Code/noStoredCredential`` when none are stored; as ``unlock(password:keyFileContents:rememberCredentials:)``.
    public func unlockWithStoredCredentials() throws(CoreError) {
        guard let credentialStore, let credentials = try credentialStore.credentials(forVault: vaultID) else {
            throw CoreError(.noStoredCredential, "no credentials stored for this vault")
        }
        try unlock(with: credentials)
    }

    /// Removes the stored credentials of this vault.
    public func forgetStoredCredentials() throws(CoreError) {
        try credentialStore?.delete(forVault: vaultID)
    }

    private func unlock(with credentials: VaultCredentials) throws(CoreError) {
        let file: [UInt8]
        do {
            file = [UInt8](try Data(contentsOf: fileURL))
        } catch {
            throw CoreError(.io, "cannot read the vault file", location: fileURL.path)
        }
        let newKey: Codec.Key
        let opened: Vault
        do {
            newKey = try codec.makeKey(credentials)
            opened = try codec.open(file, key: newKey)
        } catch {
            throw VaultSession.mapCodecError(error)
        }
        key = newKey
        vault = opened
        hasUnsavedChanges = false
        lastActivity = clock.monotonicSeconds()
    }

    static func mapCodecError(_ error: any Error) -> CoreError {
        if let error = error as? CoreError { return error }
        if let error = error as? KDBXError {
            switch error.code {
            case .wrongKey: return CoreError(.wrongKey, underlying: error)
            case .io: return CoreError(.io, error.reason, underlying: error)
            default: return CoreError(.codec, error.description, underlying: error)
            }
        }
        return CoreError(.codec, "\(error)", underlying: error)
    }

    // MARK: - Using the vault

    /// The open vault (a value copy). Counts as activity.
    ///
    /// - Throws: ``CoreError/Code/locked``.
    public func currentVault() throws(CoreError) -> Vault {
        try touch()
    }

    /// Edits the vault in place; `body` receives the vault and the current time (for the editing
    /// methods' `now`). The edit is all or nothing: when `body` throws, the vault is unchanged.
    ///
    /// - Throws: ``CoreError/Code/locked``; what `body` throws (non-``CoreError`` errors wrapped as
    ///   ``CoreError/Code/invalidOperation``).
    @discardableResult
    public func edit<R: Sendable>(_ body: @Sendable (inout Vault, KDBXTime) throws -> R) throws(CoreError) -> R {
        var copy = try touch()
        let result: R
        do {
            result = try body(&copy, clock.now())
        } catch let error as CoreError {
            throw error
        } catch {
            throw CoreError(.invalidOperation, "the edit failed: \(error)", underlying: error)
        }
        if copy != vault {
            vault = copy
            hasUnsavedChanges = true
        }
        return result
    }

    /// Saves the vault over its file through ``SafeSave``: encoded with the session's key, written
    /// beside the original, re-opened with the same key and compared by vault manifest, then
    /// renamed over the original.
    ///
    /// - Throws: ``CoreError/Code/locked``; ``CoreError/Code/io``; ``CoreError/Code/verificationFailed``;
    ///   ``CoreError/Code/codec``. The original file is untouched on failure.
    public func save() throws(CoreError) {
        let current = try touch()
        guard let key else { throw CoreError(.locked) }
        let bytes: [UInt8]
        do {
            bytes = try codec.save(current, key: key)
        } catch {
            throw VaultSession.mapCodecError(error)
        }
        let codec = self.codec
        let expected = codec.manifest(of: current)
        try SafeSave.write(bytes, to: fileURL) { written in
            let reopened = try codec.open(written, key: key)
            guard codec.manifest(of: reopened) == expected else {
                throw CoreError(.verificationFailed, "the saved vault differs from the one in memory")
            }
        }
        hasUnsavedChanges = false
    }

    private func touch() throws(CoreError) -> Vault {
        lockIfIdle()
        guard let vault else { throw CoreError(.locked) }
        lastActivity = clock.monotonicSeconds()
        return vault
    }
}
