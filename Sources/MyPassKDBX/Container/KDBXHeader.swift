import MyPassBytes
import MyPassCrypto

/// The outer header of a KDBX file, parsed and interpreted, with the raw bytes that the header
/// hash, the header HMAC (KDBX 4) and Meta/HeaderHash (KDBX 3.x) cover.
///
/// Layout: signature 1 (u32 LE 0x9AA2D903), signature 2 (0xB54BFB67), version (u32 LE, major in
/// the high word), then fields of id u8, length (u16 LE in 3.x, i32 LE in 4.x) and data, up to
/// EndOfHeader (id 0) whose payload is ignored (KeePassLib `KdbxFile.Read.cs LoadHeader`).
package struct KDBXHeader: Sendable {
    /// First signature, 0x9AA2D903, stored little-endian.
    public static let signature1: UInt32 = 0x9AA2_D903
    /// Second signature of KDBX (KeePass 2.x).
    public static let signature2: UInt32 = 0xB54B_FB67
    /// Second signature of KeePass 1.x KDB files (refused as unsupported).
    public static let signature2KDB: UInt32 = 0xB54B_FB65
    /// Second signature of KeePass 2.x pre-release files (refused as unsupported).
    public static let signature2PreRelease: UInt32 = 0xB54B_FB66

    /// The file version (3.0, 3.1, 4.0, 4.1).
    public var version: KDBXVersion
    /// Payload cipher (field 2).
    public var cipher: PayloadCipher
    /// Payload compression (field 3).
    public var compression: PayloadCompression
    /// 32 bytes (field 4).
    public var masterSeed: [UInt8]
    /// 16 bytes for AES and Twofish, 12 for ChaCha20 (field 7).
    public var encryptionIV: [UInt8]
    /// KDF, its cost and seed (field 11 in 4.x, fields 5 and 6 in 3.x).
    public var kdf: KDFParameters
    /// KDBX 3.x only: inner random stream algorithm (field 10). `nil` in 4.x (it is in the inner header).
    public var innerStreamAlgorithm: InnerStreamAlgorithm?
    /// KDBX 3.x only: inner random stream key (field 8, usually 32 bytes), in wiping storage. Package
    /// API: only the codec needs it (it is also inside ``rawBytes``, as the format puts it in the header).
    package var innerStreamKey: SecureBytes?
    /// KDBX 3.x only: the 32 expected first plaintext bytes (field 9).
    public var streamStartBytes: [UInt8]?
    /// KDBX 4: the raw VariantDictionary bytes of field 12; empty when absent.
    public var publicCustomData: [UInt8]
    /// Field 1, if present (never written).
    public var comment: [UInt8]?
    /// Fields with ids this reader does not know, in order (tolerated, not written back).
    public var unknownFields: [(id: UInt8, data: [UInt8])]
    /// The serialized header: signature through the EndOfHeader field.
    public private(set) var rawBytes: [UInt8]

    /// A header to write; `rawBytes` is filled by ``serialized()``.
    public init(
        version: KDBXVersion, cipher: PayloadCipher, compression: PayloadCompression, masterSeed: [UInt8],
        encryptionIV: [UInt8], kdf: KDFParameters, innerStreamAlgorithm: InnerStreamAlgorithm? = nil,
        innerStreamKey: SecureBytes? = nil, streamStartBytes: [UInt8]? = nil, publicCustomData: [UInt8] = []
    ) {
        self.version = version
        self.cipher = cipher
        self.compression = compression
        self.masterSeed = masterSeed
        self.encryptionIV = encryptionIV
        self.kdf = kdf
        self.innerStreamAlgorithm = innerStreamAlgorithm
        self.innerStreamKey = innerStreamKey
        self.streamStartBytes = streamStartBytes
        self.publicCustomData = publicCustomData
        self.comment = nil
        self.unknownFields = []
        self.rawBytes = []
    }

    // MARK: Reading

    /// One raw field as found in the file.
    struct RawField {
        var id: UInt8
        var data: ArraySlice<UInt8>
        /// Offset of the field's id byte in the file.
        var offset: Int
    }

    /// Checks signatures and version and reads the TLV fields, without interpreting them.
    /// - Returns: the version, the fields, and the header's length in bytes.
    static func scan(_ file: ArraySlice<UInt8>, limits: KDBXLimits) throws(KDBXError) -> (KDBXVersion, [RawField], Int) {
        var reader = ByteReader(file)
        /// One read of `reader`: running out of bytes is a truncated header (one error type per
        /// scope, as Embedded Swift needs).
        func read<T>(_ value: @autoclosure () throws(BytesError) -> T) throws(KDBXError) -> T {
            do { return try value() } catch {
                throw KDBXError(.corruptedFile, "file ends inside the header", location: "offset \(reader.offset)")
            }
        }
        do {
            guard file.count >= 12 else {
                if file.count >= 4, loadLittleEndian(file.prefix(4), as: UInt32.self) == signature1 {
                    throw KDBXError(.corruptedFile, "file ends inside the signature and version", location: "offset \(file.count)")
                }
                throw KDBXError(.unsupported, "not a KeePass database (file too short)")
            }
            let sig1 = try read(reader.readUInt32LittleEndian())
            let sig2 = try read(reader.readUInt32LittleEndian())
            guard sig1 == signature1 else {
                throw KDBXError(.unsupported, "not a KeePass database (invalid file signature)", location: "offset 0")
            }
            switch sig2 {
            case signature2: break
            case signature2KDB:
                throw KDBXError(.unsupported, "KeePass 1.x (.kdb) format not supported", location: "offset 4")
            case signature2PreRelease:
                throw KDBXError(.unsupported, "KeePass 2.x pre-release format not supported", location: "offset 4")
            default:
                throw KDBXError(.unsupported, "not a KeePass database (invalid file signature)", location: "offset 4")
            }
            let version = KDBXVersion(rawValue: try read(reader.readUInt32LittleEndian()))
            guard version.major >= 2, version.major <= 4 else {
                throw KDBXError(.unsupported, "unsupported file version \(version)", location: "offset 8")
            }
            var fields: [RawField] = []
            while true {
                let offset = reader.offset
                guard reader.remaining >= 1 else {
                    throw KDBXError(.corruptedFile, "file ends inside the header", location: "offset \(offset)")
                }
                let id = try read(reader.readUInt8())
                let length: Int
                if version.isKDBX4 {
                    guard reader.remaining >= 4 else {
                        throw KDBXError(.corruptedFile, "file ends inside a header field length",
                                        location: HeaderFieldID.describe(id) + " at offset \(offset)")
                    }
                    let signed = try read(reader.readInt32LittleEndian())
                    guard signed >= 0 else {
                        throw KDBXError(.corruptedFile, "negative header field length",
                                        location: HeaderFieldID.describe(id) + " at offset \(offset)")
                    }
                    length = Int(signed)
                } else {
                    guard reader.remaining >= 2 else {
                        throw KDBXError(.corruptedFile, "file ends inside a header field length",
                                        location: HeaderFieldID.describe(id) + " at offset \(offset)")
                    }
                    length = Int(try read(reader.readUInt16LittleEndian()))
                }
                guard length <= reader.remaining else {
                    throw KDBXError(.corruptedFile, "file ends inside a header field",
                                    location: HeaderFieldID.describe(id) + " at offset \(offset)")
                }
                guard length <= limits.maxHeaderFieldBytes else {
                    throw KDBXError(.limitExceeded, "header field of \(length) bytes",
                                    location: HeaderFieldID.describe(id) + " at offset \(offset)")
                }
                let data = try read(reader.readBytes(length))
                guard reader.offset <= limits.maxHeaderBytes else {
                    throw KDBXError(.limitExceeded, "header longer than \(limits.maxHeaderBytes) bytes",
                                    location: "offset \(offset)")
                }
                fields.append(RawField(id: id, data: data, offset: offset))
                if id == HeaderFieldID.endOfHeader.rawValue { break }
            }
            return (version, fields, reader.offset)
        }
    }

    /// Interprets scanned fields.
    init(version: KDBXVersion, fields: [RawField], rawBytes: [UInt8]) throws(KDBXError) {
        var cipherID: RawField?, compression: RawField?, masterSeed: RawField?, transformSeed: RawField?
        var transformRounds: RawField?, iv: RawField?, streamKey: RawField?, startBytes: RawField?
        var streamID: RawField?, kdfParameters: RawField?, customData: RawField?
        var comment: [UInt8]?
        var unknown: [(id: UInt8, data: [UInt8])] = []
        let isKDBX4 = version.isKDBX4
        for field in fields {
            switch HeaderFieldID(rawValue: field.id) {
            case .endOfHeader: break
            case .comment: comment = Array(field.data)
            case .cipherID: cipherID = field
            case .compressionFlags: compression = field
            case .masterSeed: masterSeed = field
            case .encryptionIV: iv = field
            case .transformSeed where !isKDBX4: transformSeed = field
            case .transformRounds where !isKDBX4: transformRounds = field
            case .innerRandomStreamKey where !isKDBX4: streamKey = field
            case .streamStartBytes where !isKDBX4: startBytes = field
            case .innerRandomStreamID where !isKDBX4: streamID = field
            case .kdfParameters where isKDBX4: kdfParameters = field
            case .publicCustomData where isKDBX4: customData = field
            default: unknown.append((field.id, Array(field.data)))
            }
        }
        func require(_ field: RawField?, _ id: HeaderFieldID, count: Int? = nil) throws(KDBXError) -> ArraySlice<UInt8> {
            guard let field else {
                throw KDBXError(.corruptedFile, "required header field missing", location: HeaderFieldID.describe(id.rawValue))
            }
            if let count, field.data.count != count {
                throw KDBXError(.corruptedFile, "header field has \(field.data.count) bytes, expected \(count)",
                                location: HeaderFieldID.describe(id.rawValue) + " at offset \(field.offset)")
            }
            return field.data
        }
        let cipherBytes = try require(cipherID, .cipherID, count: 16)
        guard let cipher = PayloadCipher(uuid: cipherBytes) else {
            throw KDBXError(.unsupported, "unknown cipher " + cipherBytes.hexString,
                            location: HeaderFieldID.describe(2) + " at offset \(cipherID!.offset)")
        }
        let compressionValue = loadLittleEndian(try require(compression, .compressionFlags, count: 4), as: UInt32.self)
        guard let compressionKind = PayloadCompression(rawValue: compressionValue) else {
            throw KDBXError(.unsupported, "unknown compression \(compressionValue)",
                            location: HeaderFieldID.describe(3) + " at offset \(compression!.offset)")
        }
        let seed = try require(masterSeed, .masterSeed, count: 32)
        let ivBytes = try require(iv, .encryptionIV, count: cipher.ivByteCount)
        let kdf: KDFParameters
        if isKDBX4 {
            let dictionary = try VariantDictionary(parsing: try require(kdfParameters, .kdfParameters))
            kdf = try KDFParameters(dictionary: dictionary)
            if let customData {
                _ = try VariantDictionary(parsing: customData.data)
                publicCustomData = Array(customData.data)
            } else {
                publicCustomData = []
            }
            innerStreamAlgorithm = nil
            innerStreamKey = nil
            streamStartBytes = nil
        } else {
            let kdfSeed = try require(transformSeed, .transformSeed, count: 32)
            let rounds = loadLittleEndian(try require(transformRounds, .transformRounds, count: 8), as: UInt64.self)
            kdf = KDFParameters(settings: .aes(rounds: rounds), seed: Array(kdfSeed))
            let streamValue = loadLittleEndian(try require(streamID, .innerRandomStreamID, count: 4), as: UInt32.self)
            guard let algorithm = InnerStreamAlgorithm(rawValue: streamValue) else {
                throw KDBXError(.unsupported, "unknown inner random stream \(streamValue)",
                                location: HeaderFieldID.describe(10) + " at offset \(streamID!.offset)")
            }
            innerStreamAlgorithm = algorithm
            innerStreamKey = SecureBytes(try require(streamKey, .innerRandomStreamKey))
            streamStartBytes = Array(try require(startBytes, .streamStartBytes, count: 32))
            publicCustomData = []
        }
        self.version = version
        self.cipher = cipher
        self.compression = compressionKind
        self.masterSeed = Array(seed)
        self.encryptionIV = Array(ivBytes)
        self.kdf = kdf
        self.comment = comment
        self.unknownFields = unknown
        self.rawBytes = rawBytes
    }

    /// Reads the outer header at the start of `file`.
    ///
    /// In KDBX 4 the SHA-256 of the header that follows it is checked before any field is
    /// interpreted, so a damaged header is reported as corrupted rather than as an odd value.
    /// - Returns: the header and the offset of the first byte after it (in KDBX 4, after the
    ///   header hash and HMAC: the start of the HMAC block stream).
    /// - Throws: ``KDBXError`` `.unsupported` (not KDBX, KDB 1.x, version, cipher, KDF),
    ///   `.corruptedFile` (truncated, malformed, hash mismatch), `.limitExceeded`.
    public static func read(from file: ArraySlice<UInt8>, limits: KDBXLimits = KDBXLimits()) throws(KDBXError) -> (header: KDBXHeader, payloadOffset: Int) {
        let (version, fields, length) = try scan(file, limits: limits)
        let raw = Array(file.prefix(length))
        var payloadOffset = length
        if version.isKDBX4 {
            guard file.count >= length + 64 else {
                throw KDBXError(.corruptedFile, "file ends inside the header hash or HMAC", location: "offset \(file.count)")
            }
            let stored = file.dropFirst(length).prefix(32)
            guard constantTimeEquals(SHA256.hash(raw), stored) else {
                throw KDBXError(.corruptedFile, "header hash mismatch", location: "offset \(length)")
            }
            payloadOffset += 64
        }
        let header = try KDBXHeader(version: version, fields: fields, rawBytes: raw)
        return (header, payloadOffset)
    }

    // MARK: Writing

    /// Serializes the header in KeePass's field order with EndOfHeader payload `0D 0A 0D 0A`,
    /// stores the result in ``rawBytes`` and returns it.
    /// - Throws: ``KDBXError`` `.invalidModel` when a 3.x header is asked for with a non-AES KDF
    ///   or without the 3.x fields.
    @discardableResult
    public mutating func serialized() throws(KDBXError) -> [UInt8] {
        var out = [UInt8]()
        out.appendLittleEndian(Self.signature1)
        out.appendLittleEndian(Self.signature2)
        out.appendLittleEndian(version.rawValue)
        let isKDBX4 = version.isKDBX4
        func field(_ id: HeaderFieldID, _ data: [UInt8]) {
            out.append(id.rawValue)
            if isKDBX4 { out.appendLittleEndian(Int32(data.count)) } else { out.appendLittleEndian(UInt16(data.count)) }
            out.append(contentsOf: data)
        }
        field(.cipherID, cipher.uuid)
        var flags = [UInt8](); flags.appendLittleEndian(compression.rawValue)
        field(.compressionFlags, flags)
        field(.masterSeed, masterSeed)
        if isKDBX4 {
            field(.encryptionIV, encryptionIV)
            field(.kdfParameters, kdf.dictionary.serialized())
            if !publicCustomData.isEmpty { field(.publicCustomData, publicCustomData) }
        } else {
            guard case .aes(let rounds) = kdf.settings else {
                throw KDBXError(.invalidModel, "KDBX \(version) needs AES-KDF")
            }
            guard let innerStreamAlgorithm, let innerStreamKey, let streamStartBytes, publicCustomData.isEmpty else {
                throw KDBXError(.invalidModel, "KDBX \(version) header needs the inner stream and stream start bytes")
            }
            field(.transformSeed, kdf.seed)
            var r = [UInt8](); r.appendLittleEndian(rounds)
            field(.transformRounds, r)
            field(.encryptionIV, encryptionIV)
            var streamKey = innerStreamKey.unsafeArray
            field(.innerRandomStreamKey, streamKey)
            wipe(&streamKey)
            field(.streamStartBytes, streamStartBytes)
            var s = [UInt8](); s.appendLittleEndian(innerStreamAlgorithm.rawValue)
            field(.innerRandomStreamID, s)
        }
        field(.endOfHeader, [0x0D, 0x0A, 0x0D, 0x0A])
        rawBytes = out
        return out
    }
}
