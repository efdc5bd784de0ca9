import Foundation
import MyPassBytes

/// What unlocks a vault: a password and/or the contents of a key file.
public struct VaultCredentials: Sendable, Equatable {
    /// The master password, or `nil` when the vault uses none.
    public var password: ProtectedString?
    /// The key file's bytes, or `nil` when the vault uses none.
    public var keyFileContents: SecureBytes?

    /// Credentials from their parts.
    public init(password: ProtectedString?, keyFileContents: SecureBytes? = nil) {
        self.password = password
        self.keyFileContents = keyFileContents
    }
}

/// Where a session keeps credentials for unlocking without typing them (the Keychain with
/// biometric protection on Apple platforms; ``InMemoryCredentialStore`` in tests).
public protocol CredentialStore: Sendable {
    /// Stores `credentials` for the vault `vaultID`, replacing earlier ones.
    func save(_ credentials: VaultCredentials, forVault vaultID: String) throws(CoreError)
    /// The credentials stored for `vaultID`, or `nil`.
    func credentials(forVault vaultID: String) throws(CoreError) -> VaultCredentials?
    /// Forgets the credentials of `vaultID` (no error when there are none).
    func delete(forVault vaultID: String) throws(CoreError)
}

/// A credential store in memory, for tests and previews; safe to use from several tasks.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String: VaultCredentials] = [:]

    /// An empty store.
    public init() {}

    public func save(_ credentials: VaultCredentials, forVault vaultID: String) throws(CoreError) {
        lock.withLock { items[vaultID] = credentials }
    }

    public func credentials(forVault vaultID: String) throws(CoreError) -> VaultCredentials? {
        lock.withLock { items[vaultID] }
    }

    public func delete(forVault vaultID: String) throws(CoreError) {
        _ = lock.withLock { items.removeValue(forKey: vaultID) }
    }

    /// The number of stored credentials.
    public var count: Int { lock.withLock { items.count } }
}
