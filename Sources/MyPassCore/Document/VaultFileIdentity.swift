import MyPassBytes
import MyPassCrypto

/// Which file a document was read from, and in which state: compared again before a save, so
/// that a change made meanwhile by another program, device or sync client is never overwritten.
public struct VaultFileIdentity: Sendable, Equatable, CustomStringConvertible {
    /// The file's real path (every symbolic link resolved): what a save replaces.
    public let path: String
    /// Its `stat(2)` when read.
    public let status: VaultFileStatus
    /// SHA-256 of its bytes (32 bytes).
    public let sha256: [UInt8]

    /// The identity of `bytes`, read from `path` with `status`.
    public init(path: String, status: VaultFileStatus, bytes: [UInt8]) {
        self.path = path
        self.status = status
        sha256 = SHA256.hash(bytes)
    }

    /// The same content under another name: a new vault published from its staging file.
    func relocated(to path: String, status: VaultFileStatus) -> VaultFileIdentity {
        VaultFileIdentity(path: path, status: status, sha256: sha256)
    }

    private init(path: String, status: VaultFileStatus, sha256: [UInt8]) {
        self.path = path
        self.status = status
        self.sha256 = sha256
    }

    /// Whether `bytes` are the content this identity was taken of (compares the SHA-256).
    public func hasContent(_ bytes: [UInt8]) -> Bool {
        constantTimeEquals(SHA256.hash(bytes), sha256)
    }

    /// Whether `status` shows the same file unchanged: same device and inode, size and
    /// modification time to the nanosecond.
    public func matches(_ status: VaultFileStatus) -> Bool {
        status.device == self.status.device && status.inode == self.status.inode && status.size == self.status.size
            && status.modificationSeconds == self.status.modificationSeconds
            && status.modificationNanoseconds == self.status.modificationNanoseconds
    }

    /// The path, size and the first bytes of the hash.
    public var description: String {
        "\(path) (\(status.size) bytes, SHA-256 \(sha256.prefix(4).map { String($0, radix: 16) }.joined())…)"
    }
}
