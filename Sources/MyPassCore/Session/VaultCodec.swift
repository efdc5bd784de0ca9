import MyPassKDBX

/// How a session turns credentials into a key and a file into a vault and back. The KDBX
/// implementation is ``KDBXVaultCodec``; tests may use a light one.
public protocol VaultCodec: Sendable {
    /// The key material kept while the vault is unlocked (wiped when released).
    associatedtype Key: Sendable

    /// Builds the key from the credentials (hashing the password and key file).
    func makeKey(_ credentials: VaultCredentials) throws -> Key
    /// Opens the file's bytes with `key`.
    func open(_ file: [UInt8], key: Key) throws -> Vault
    /// Encodes `vault` with `key`.
    func save(_ vault: Vault, key: Key) throws -> [UInt8]
    /// A canonical description of everything the vault holds, compared to verify a save
    /// (the vault manifest).
    func manifest(of vault: Vault) -> String
}
