import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// How a document runs the KDF: the one expensive step of opening and saving a vault. A seam, so
/// that tests count the runs (an edit runs it twice: once to open, once for the save's fresh seed;
/// the save's check reuses the keys it derived) and an app can report progress and cancel.
public struct KeyDerivation: Sendable {
    /// The transformed key (32 bytes) for a composite key and the KDF parameters of a header
    /// (seed included); `progress` as `KDFProgressHandler`.
    public typealias Transform = @Sendable (CompositeKey, KDFParameters, KDBXLimits, KDFProgressHandler?) throws(KDBXError) -> SecureBytes

    /// The function that derives.
    public var transform: Transform

    /// A derivation from a function.
    public init(transform: @escaping Transform) { self.transform = transform }

    /// MyPass's KDF implementations (`MasterKeys.transform(compositeKey:kdf:limits:progress:)`).
    public static let standard = KeyDerivation { (key, kdf, limits, progress) throws(KDBXError) in
        try MasterKeys.transform(compositeKey: key, kdf: kdf, limits: limits, progress: progress)
    }

    /// The transformed key of a file through ``transform``, with the key's challenge-response
    /// component answered for the file's challenge first (the KDF seed in KDBX 4, the master seed
    /// in 3.1; `MasterKeys.transformedKey(compositeKey:version:kdf:masterSeed:limits:progress:transform:)`):
    /// 32 bytes, or 64 in a KDBX 3.1 vault with a challenge-response component.
    /// - Throws: `KDBXError`: what ``transform`` throws; `.missingKeyComponent` or `.cancelled`
    ///   when the challenge-response component does not answer (before the KDF runs).
    public func transformedKey(for key: CompositeKey, version: KDBXVersion, kdf: KDFParameters, masterSeed: [UInt8],
                               limits: KDBXLimits, progress: KDFProgressHandler?) throws(KDBXError) -> SecureBytes {
        try MasterKeys.transformedKey(compositeKey: key, version: version, kdf: kdf, masterSeed: masterSeed, limits: limits,
                                      progress: progress, transform: transform)
    }
}

/// A transformed key and the KDF parameters (seed included) it was derived for: what unlock-once
/// keeps (the agent, the app's Keychain item behind Face ID, the AutoFill extension) to reopen a
/// vault without running the KDF while the file keeps that seed.
///
/// For a key with a challenge-response component it also stands for the response: in KDBX 4 the
/// response went into the KDF (the challenge is the KDF seed, so the key fits exactly while the
/// challenge stays); in 3.1 it is SHA-256(response) ‖ KDF output, for the master seed the file had
/// (a file whose master seed changed while its KDF seed stayed, which no client writes, is then
/// refused as a wrong key, and the key is asked again).
public struct CachedTransformedKey: Sendable {
    /// The KDF output (32 bytes; 64 in a KDBX 3.1 vault with a challenge-response component), in
    /// wiping storage.
    public let transformedKey: SecureBytes
    /// The parameters it belongs to: KDF, cost and seed (KDBX 4 field 11, or 3.1 fields 5 and 6).
    public let kdf: KDFParameters

    /// A cached key from its parts.
    public init(transformedKey: SecureBytes, kdf: KDFParameters) {
        self.transformedKey = transformedKey
        self.kdf = kdf
    }

    /// Whether this key was derived for `kdf` (same function, cost and seed).
    public func isValid(for kdf: KDFParameters) -> Bool { self.kdf == kdf }
}
