/// Bounds on what a file may make the codec do, so that no input makes it crash, hang or allocate
/// without bound. Exceeding one throws ``KDBXError`` `.limitExceeded`.
public struct KDBXLimits: Sendable {
    /// Largest single outer or inner header field, in bytes (KDF parameters, public custom data, a
    /// KDBX 4 inner-header binary counts against ``maxBinaryBytes`` instead). Default 1 MiB.
    public var maxHeaderFieldBytes: Int
    /// Largest outer header (signature through EndOfHeader), in bytes. Default 4 MiB.
    public var maxHeaderBytes: Int
    /// Largest HMAC block (KDBX 4) or hashed block (KDBX 3.x), in bytes. Writers use 1 MiB. Default 64 MiB.
    public var maxBlockBytes: Int
    /// Largest decompressed payload (inner header plus XML), in bytes. Default 1 GiB.
    public var maxDecompressedBytes: Int
    /// Most decoded bytes per byte of the file's payload: the decompressed payload, and all its
    /// attachments (inflated 3.x binaries included), may together be at most this many times the
    /// encrypted payload, or ``minDecodedBudgetBytes`` if that is more (and never more than
    /// ``maxDecompressedBytes``). This bounds what a small file can make a reader allocate: the
    /// model takes about 20 times its XML in memory, so a 100 KB file cannot ask for gigabytes.
    /// Real vaults compress 2 to 10 times (protected values, UUIDs and times are base64).
    /// Default 40.
    public var maxDecompressionRatio: Int
    /// The decoded-size budget of any file, however small (see ``maxDecompressionRatio``), in
    /// bytes. Default 16 MiB.
    public var minDecodedBudgetBytes: Int
    /// Largest single KDBX 4 inner-header binary (an attachment), in bytes. Default 512 MiB.
    public var maxBinaryBytes: Int
    /// Most Argon2 memory a file may ask for, in bytes (`M`). Default 1 GiB.
    public var maxArgon2MemoryBytes: UInt64
    /// Most Argon2 passes (`I`). Default 100,000.
    public var maxArgon2Iterations: UInt64
    /// Most Argon2 lanes (`P`). Default 256.
    public var maxArgon2Parallelism: UInt32
    /// Most Argon2 work, memory in bytes times passes (`M` x `I`), so that memory and passes that
    /// are each within their limit cannot together take hours. Default 64 GiB (for example 1 GiB x 64
    /// passes, or KeePass's 64 MiB x 1,024 passes): about a minute on a current machine.
    public var maxArgon2WorkBytes: UInt64
    /// Most AES-KDF rounds (`R`, or header field 6 in 3.x). Default 200,000,000: KeePass's and
    /// KeePassXC's one-second calibration gives tens of millions on the fastest machines, while a
    /// bit flipped in a real vault's 3.1 rounds (bit 28 and up) asks for hundreds of millions to
    /// billions, which cannot be told from a real value before the KDF runs. `mypass
    /// --max-kdf-rounds N` raises it for a vault that really needs more.
    public var maxAESKDFRounds: UInt64

    /// The AES-KDF rounds limit by default (``maxAESKDFRounds``).
    public static let defaultMaxAESKDFRounds: UInt64 = 200_000_000
    /// Limits of the XML body reader (tokenizer depth and sizes, tree size, attachment size).
    public var body: VaultXMLLimits

    /// Limits with the documented defaults; pass any to change them.
    public init(
        maxHeaderFieldBytes: Int = 1 << 20, maxHeaderBytes: Int = 4 << 20, maxBlockBytes: Int = 64 << 20,
        maxDecompressedBytes: Int = 1 << 30, maxDecompressionRatio: Int = 40, minDecodedBudgetBytes: Int = 16 << 20,
        maxBinaryBytes: Int = 512 << 20,
        maxArgon2MemoryBytes: UInt64 = 1 << 30, maxArgon2Iterations: UInt64 = 100_000,
        maxArgon2Parallelism: UInt32 = 256, maxArgon2WorkBytes: UInt64 = 64 << 30, maxAESKDFRounds: UInt64 = defaultMaxAESKDFRounds, body: VaultXMLLimits = VaultXMLLimits()
    ) {
        self.maxHeaderFieldBytes = maxHeaderFieldBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBlockBytes = maxBlockBytes
        self.maxDecompressedBytes = maxDecompressedBytes
        self.maxDecompressionRatio = maxDecompressionRatio
        self.minDecodedBudgetBytes = minDecodedBudgetBytes
        self.maxBinaryBytes = maxBinaryBytes
        self.maxArgon2MemoryBytes = maxArgon2MemoryBytes
        self.maxArgon2Iterations = maxArgon2Iterations
        self.maxArgon2Parallelism = maxArgon2Parallelism
        self.maxArgon2WorkBytes = maxArgon2WorkBytes
        self.maxAESKDFRounds = maxAESKDFRounds
        self.body = body
    }

    /// The decoded-size budget of a file whose encrypted payload has `payloadByteCount` bytes:
    /// `min(maxDecompressedBytes, max(minDecodedBudgetBytes, maxDecompressionRatio x payloadByteCount))`.
    public func decodedBudgetBytes(payloadByteCount: Int) -> Int {
        let (scaled, overflow) = max(0, payloadByteCount).multipliedReportingOverflow(by: max(0, maxDecompressionRatio))
        return min(maxDecompressedBytes, max(minDecodedBudgetBytes, overflow ? .max : scaled))
    }
}
