/// Outer header field ids (KeePassLib `KdbxFile.cs`, enum `KdbxHeaderFieldID`).
package enum HeaderFieldID: UInt8, Sendable, CaseIterable {
    /// 0: end of the header; its payload is ignored.
    case endOfHeader = 0
    /// 1: a comment (ignored).
    case comment = 1
    /// 2: the payload cipher UUID (16 bytes).
    case cipherID = 2
    /// 3: compression, u32 LE (0 none, 1 gzip).
    case compressionFlags = 3
    /// 4: the master seed (32 bytes).
    case masterSeed = 4
    /// KDBX 3.x: AES-KDF seed.
    case transformSeed = 5
    /// KDBX 3.x: AES-KDF rounds (u64 LE).
    case transformRounds = 6
    /// 7: the payload cipher IV (16 bytes, 12 for ChaCha20).
    case encryptionIV = 7
    /// KDBX 3.x: the inner random stream key (ProtectedStreamKey).
    case innerRandomStreamKey = 8
    /// KDBX 3.x: the first 32 plaintext bytes, checked to prove the key.
    case streamStartBytes = 9
    /// KDBX 3.x: the inner random stream algorithm (u32 LE).
    case innerRandomStreamID = 10
    /// KDBX 4: the KDF parameters as a VariantDictionary.
    case kdfParameters = 11
    /// KDBX 4: public custom data as a VariantDictionary.
    case publicCustomData = 12

    /// "header field 4 (MasterSeed)" for error locations.
    static func describe(_ id: UInt8) -> String {
        let name: String
        switch HeaderFieldID(rawValue: id) {
        case .endOfHeader: name = "EndOfHeader"
        case .comment: name = "Comment"
        case .cipherID: name = "CipherID"
        case .compressionFlags: name = "CompressionFlags"
        case .masterSeed: name = "MasterSeed"
        case .transformSeed: name = "TransformSeed"
        case .transformRounds: name = "TransformRounds"
        case .encryptionIV: name = "EncryptionIV"
        case .innerRandomStreamKey: name = "InnerRandomStreamKey"
        case .streamStartBytes: name = "StreamStartBytes"
        case .innerRandomStreamID: name = "InnerRandomStreamID"
        case .kdfParameters: name = "KdfParameters"
        case .publicCustomData: name = "PublicCustomData"
        case nil: name = "unknown"
        }
        return "header field \(id) (\(name))"
    }
}
