import MyPassBytes
import MyPassCompression
import MyPassCrypto

/// What a ``PayloadPipeline`` hands on: the content, that is the KDBX 4 inner header and the XML,
/// or the 3.x XML, as decrypted, unframed and inflated, in order. The full read parses it into a
/// model (``VaultContent``), a save's check hashes it (``ContentDigest``), the AutoFill index
/// skims it (``CredentialContent``).
protocol PayloadContent {
    associatedtype Output
    /// Compressed bytes handed to the inflater at once, which bounds the content one call gives.
    static var inflateInputByteCount: Int { get }
    /// Takes the next content bytes.
    /// - Throws: ``KDBXError`` `.corruptedFile`, `.limitExceeded`, `.unsupported`.
    mutating func consume(_ content: ArraySlice<UInt8>) throws(KDBXError)
    /// Ends the content.
    mutating func finish() throws(KDBXError) -> Output
}

/// The streaming read path after decryption, one mechanism for every reader: (3.x) stream start
/// bytes and hashed block stream, then gzip, with the decoded-size limits of both paths, then the
/// content (``PayloadContent``). Each stage gets pieces of at most ``chunkByteCount`` bytes (and
/// the inflater ``PayloadContent/inflateInputByteCount``), so no stage holds the whole payload.
struct PayloadPipeline<Content: PayloadContent> {
    /// The plaintext and ciphertext pieces the readers and the writer work in.
    static var chunkByteCount: Int { Payload.chunkByteCount }

    private let header: KDBXHeader
    private let maxDecompressedBytes: Int
    /// Most decompressed bytes this file may give (``KDBXLimits/decodedBudgetBytes(payloadByteCount:)``).
    private let decodedBudget: Int
    private let maxDecompressionRatio: Int
    // 3.x
    private var startBytes: [UInt8] = []
    private var startBytesChecked: Bool
    private var hashedBlocks: HashedBlockStream.Reader?
    // both
    private var inflater: Inflater?
    private var decompressedCount = 0
    /// What the content went to.
    private(set) var content: Content

    /// - Parameters:
    ///   - skipsBlockFraming: the 3.x start bytes and hashed blocks were already removed.
    ///   - maxBlockBytes: the most the 3.x hashed blocks may hold in all.
    ///   - decodedBudget: the most decompressed bytes the payload may give.
    init(header: KDBXHeader, limits: KDBXLimits, decodedBudget: Int, skipsBlockFraming: Bool = false,
         maxBlockBytes: Int, content: Content) {
        self.header = header
        maxDecompressedBytes = limits.maxDecompressedBytes
        maxDecompressionRatio = limits.maxDecompressionRatio
        self.decodedBudget = decodedBudget
        let isKDBX4 = header.version.isKDBX4
        startBytesChecked = isKDBX4 || skipsBlockFraming
        hashedBlocks = isKDBX4 || skipsBlockFraming ? nil : HashedBlockStream.Reader(limits: limits, maxTotalBytes: maxBlockBytes)
        if header.compression == .gzip {
            inflater = Inflater(format: .gzip, maxOutputBytes: limits.maxDecompressedBytes)
        }
        self.content = content
    }

    /// Takes decrypted bytes in order.
    /// - Throws: ``KDBXError`` `.wrongKey` (3.x start bytes), `.corruptedFile`, `.limitExceeded`.
    mutating func consumePlaintext(_ chunk: ArraySlice<UInt8>) throws(KDBXError) {
        var rest = chunk
        if !startBytesChecked {
            let need = 32 - startBytes.count
            startBytes.append(contentsOf: rest.prefix(need))
            rest = rest.dropFirst(need)
            guard startBytes.count == 32 else { return }
            guard let expected = header.streamStartBytes, constantTimeEquals(startBytes, expected) else {
                throw KDBXError(.wrongKey, "the stream start bytes do not match", location: HeaderFieldID.describe(9))
            }
            startBytesChecked = true
        }
        guard !rest.isEmpty else { return }
        if hashedBlocks != nil {
            var data = try hashedBlocks!.feed(rest)
            defer { wipe(&data) }
            try consumeCompressed(data[...])
        } else {
            try consumeCompressed(rest)
        }
    }

    /// Ends the start bytes, block framing and inflate stages, then the content.
    /// - Throws: ``KDBXError`` `.corruptedFile` (a short payload, the hashed blocks' end, gzip's
    ///   trailer), `.limitExceeded`, and what the content throws.
    mutating func finish() throws(KDBXError) -> Content.Output {
        if !startBytesChecked {
            throw KDBXError(.corruptedFile, "the payload is shorter than the stream start bytes")
        }
        if hashedBlocks != nil {
            _ = try hashedBlocks!.finish()
        }
        if inflater != nil {
            var tail: [UInt8]
            do { tail = try inflater!.finish() } catch { throw Payload.map(error) }
            defer { wipe(&tail) }
            try consumeContent(tail[...])
        }
        return try content.finish()
    }

    private mutating func consumeCompressed(_ data: ArraySlice<UInt8>) throws(KDBXError) {
        guard inflater != nil else {
            try consumeContent(data)
            return
        }
        var start = data.startIndex
        while start < data.endIndex {
            let end = min(start + Content.inflateInputByteCount, data.endIndex)
            var output: [UInt8]
            do { output = try inflater!.update(data[start..<end]) } catch { throw Payload.map(error) }
            defer { wipe(&output) }
            try consumeContent(output[...])
            start = end
        }
    }

    private mutating func consumeContent(_ data: ArraySlice<UInt8>) throws(KDBXError) {
        guard !data.isEmpty else { return }
        decompressedCount += data.count
        guard decompressedCount <= maxDecompressedBytes else {
            throw KDBXError(.limitExceeded, "the payload exceeds \(maxDecompressedBytes) bytes")
        }
        guard decompressedCount <= decodedBudget else {
            throw Payload.decodedBudgetExceeded(decodedBudget, ratio: maxDecompressionRatio)
        }
        try content.consume(data)
    }
}

/// What the payload's read and write paths share.
enum Payload {
    /// The plaintext and ciphertext pieces the readers and the writer work in (64 KiB).
    static let chunkByteCount = 64 * 1024

    /// The hash of a save's content digest: BLAKE2b-256 (RFC 7693), a cryptographic hash that runs
    /// about 2.5 times as fast as our SHA-256 (978 against 385 MB/s), which matters because the
    /// content is hashed twice per save (serialized, then read back) and is the whole XML.
    static func contentHash() -> BLAKE2b {
        do { return try BLAKE2b(outputByteCount: 32) } catch { preconditionFailure("32 bytes is a valid BLAKE2b output length") }
    }

    /// The decoded budget of a payload of `payloadByteCount` bytes (`Int.max`: unknown, the plain
    /// limit).
    static func decodedBudget(_ limits: KDBXLimits, payloadByteCount: Int) -> Int {
        payloadByteCount == .max ? limits.maxDecompressedBytes : limits.decodedBudgetBytes(payloadByteCount: payloadByteCount)
    }

    /// The refusal of a payload that decompresses past its decoded budget (both read paths).
    static func decodedBudgetExceeded(_ decodedBudget: Int, ratio: Int) -> KDBXError {
        KDBXError(.limitExceeded, "the payload decompresses to more than \(decodedBudget) bytes, \(ratio) times the file's payload (a decompression bomb, or a vault that needs a higher limit)")
    }

    static func map(_ error: CompressionError) -> KDBXError {
        if error.code == .outputLimitExceeded {
            return KDBXError(.limitExceeded, "the decompressed payload exceeds the limit")
        }
        return KDBXError(.corruptedFile, "gzip: \(error.code)", location: error.offset.map { "compressed offset \($0)" })
    }
}
