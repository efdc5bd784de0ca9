import MyPassBytes
import MyPassCompression
import MyPassCrypto

/// The streaming read path after decryption: (3.x) stream start bytes and hashed block stream,
/// then gzip, then (4.x) the inner header, then the XML body reader. Each stage gets chunks of at
/// most ``chunkByteCount`` bytes, so no stage holds the whole payload. In digest mode the content
/// (inner header and XML) goes through a ``contentHash()`` instead of the parsers, for a save's check.
struct PayloadPipeline {
    /// The hash of a save's content digest: BLAKE2b-256 (RFC 7693), a cryptographic hash that runs
    /// about 2.5 times as fast as our SHA-256 (978 against 385 MB/s), which matters because the
    /// content is hashed twice per save (serialized, then read back) and is the whole XML.
    static func contentHash() -> BLAKE2b {
        do { return try BLAKE2b(outputByteCount: 32) } catch { preconditionFailure("32 bytes is a valid BLAKE2b output length") }
    }

    static let chunkByteCount = 64 * 1024

    private let header: KDBXHeader
    private let limits: KDBXLimits
    /// Most decompressed bytes this file may give (``KDBXLimits/decodedBudgetBytes(payloadByteCount:)``).
    private let decodedBudget: Int
    // 3.x
    private var startBytes: [UInt8] = []
    private var startBytesChecked: Bool
    private var hashedBlocks: HashedBlockStream.Reader?
    // both
    private var inflater: Inflater?
    private var decompressedCount = 0
    // 4.x
    private var innerHeaderParser: InnerHeader.Parser?
    private var body: BodyReader?
    // digest mode: the content's hash, nothing parsed
    private var contentHasher: BLAKE2b?

    /// The XML reader with its inner random stream.
    private struct BodyReader {
        var xml: VaultXMLReader
        var stream: InnerRandomStream

        mutating func feed(_ chunk: ArraySlice<UInt8>) throws(KDBXError) {
            try xml.feed(chunk, stream: &stream)
        }

        mutating func finish() throws(KDBXError) -> VaultBody {
            try xml.finish(stream: &stream)
        }
    }

    /// - Parameter skipsBlockFraming: the 3.x start bytes and hashed blocks were already removed.
    /// - Parameter payloadByteCount: the ciphertext length, bounding what the blocks may claim.
    /// - Parameter digestsContent: hash the content instead of parsing it (``finishDigest()``).
    init(header: KDBXHeader, limits: KDBXLimits, skipsBlockFraming: Bool = false, payloadByteCount: Int = .max,
         digestsContent: Bool = false) throws(KDBXError) {
        self.header = header
        var limits = limits
        decodedBudget = payloadByteCount == .max ? limits.maxDecompressedBytes : limits.decodedBudgetBytes(payloadByteCount: payloadByteCount)
        // Attachments share the budget: none, and not all inflated 3.x binaries together, may exceed it.
        limits.body.maxBinaryBytes = min(limits.body.maxBinaryBytes, decodedBudget)
        limits.maxBinaryBytes = min(limits.maxBinaryBytes, decodedBudget)
        self.limits = limits
        let isKDBX4 = header.version.isKDBX4
        startBytesChecked = isKDBX4 || skipsBlockFraming
        hashedBlocks = isKDBX4 || skipsBlockFraming ? nil : HashedBlockStream.Reader(limits: limits, maxTotalBytes: payloadByteCount)
        if header.compression == .gzip {
            inflater = Inflater(format: .gzip, maxOutputBytes: limits.maxDecompressedBytes)
        }
        if digestsContent {
            contentHasher = Self.contentHash()
        } else if isKDBX4 {
            innerHeaderParser = InnerHeader.Parser(limits: limits)
        } else {
            var streamKey = header.innerStreamKey?.unsafeArray ?? []
            defer { wipe(&streamKey) }
            let stream = try InnerRandomStream(algorithm: header.innerStreamAlgorithm ?? .none, key: streamKey)
            body = BodyReader(xml: try Self.makeXMLReader(header: header, binaries: [], limits: limits), stream: stream)
        }
    }

    private static func makeXMLReader(header: KDBXHeader, binaries: [BinaryPoolItem], limits: KDBXLimits) throws(KDBXError) -> VaultXMLReader {
        VaultXMLReader(version: header.version, binaryPool: binaries, limits: limits.body)
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

    /// The inner random stream in use (from the 3.x header or the 4.x inner header).
    var innerStreamAlgorithm: InnerStreamAlgorithm? { body?.stream.algorithm }

    /// Ends the plaintext and parses what is left.
    mutating func finishPlaintext() throws(KDBXError) -> VaultBody {
        try finishStages()
        guard var body else {
            throw KDBXError(.corruptedFile, "the payload ends inside the inner header")
        }
        return try body.finish()
    }

    /// Ends the plaintext in digest mode: the BLAKE2b-256 (32 bytes) of the content, that is of the
    /// inner header and the XML (4.x) or the XML (3.x), as decrypted, unframed and inflated.
    mutating func finishDigest() throws(KDBXError) -> [UInt8] {
        try finishStages()
        guard contentHasher != nil else { preconditionFailure("finishDigest() needs digestsContent") }
        return contentHasher!.finalize()
    }

    /// Ends the start bytes, block framing and inflate stages.
    private mutating func finishStages() throws(KDBXError) {
        if !startBytesChecked {
            throw KDBXError(.corruptedFile, "the payload is shorter than the stream start bytes")
        }
        if hashedBlocks != nil {
            _ = try hashedBlocks!.finish()
        }
        if inflater != nil {
            var tail: [UInt8]
            do { tail = try inflater!.finish() } catch { throw Self.map(error) }
            defer { wipe(&tail) }
            try consumeContent(tail[...])
        }
    }

    private mutating func consumeCompressed(_ data: ArraySlice<UInt8>) throws(KDBXError) {
        guard inflater != nil else {
            try consumeContent(data)
            return
        }
        var start = data.startIndex
        while start < data.endIndex {
            let end = min(start + Self.chunkByteCount, data.endIndex)
            var output: [UInt8]
            do { output = try inflater!.update(data[start..<end]) } catch { throw Self.map(error) }
            defer { wipe(&output) }
            try consumeContent(output[...])
            start = end
        }
    }

    private mutating func consumeContent(_ data: ArraySlice<UInt8>) throws(KDBXError) {
        guard !data.isEmpty else { return }
        decompressedCount += data.count
        guard decompressedCount <= limits.maxDecompressedBytes else {
            throw KDBXError(.limitExceeded, "the payload exceeds \(limits.maxDecompressedBytes) bytes")
        }
        guard decompressedCount <= decodedBudget else {
            throw Self.decodedBudgetExceeded(decodedBudget, limits: limits)
        }
        if contentHasher != nil {
            contentHasher!.update(data)
            return
        }
        if body == nil {
            guard var rest = try innerHeaderParser!.feed(data) else { return }
            // The first bytes of decrypted XML, in the parser's copy: wiped once the XML reader has them.
            defer { rest.withUnsafeMutableBytes { if let base = $0.baseAddress { secureZero(base, count: $0.count) } } }
            let inner = innerHeaderParser!.header!
            innerHeaderParser = nil
            var streamKey = inner.streamKey.unsafeArray
            defer { wipe(&streamKey) }
            let stream = try InnerRandomStream(algorithm: inner.streamAlgorithm, key: streamKey)
            body = BodyReader(xml: try Self.makeXMLReader(header: header, binaries: inner.binaries, limits: limits), stream: stream)
            guard !rest.isEmpty else { return }
            try body!.feed(rest)
            return
        }
        try body!.feed(data)
    }

    /// The refusal of a payload that decompresses past its decoded budget (both read paths).
    static func decodedBudgetExceeded(_ decodedBudget: Int, limits: KDBXLimits) -> KDBXError {
        KDBXError(.limitExceeded, "the payload decompresses to more than \(decodedBudget) bytes, \(limits.maxDecompressionRatio) times the file's payload (a decompression bomb, or a vault that needs a higher limit)")
    }

    static func map(_ error: CompressionError) -> KDBXError {
        if error.code == .outputLimitExceeded {
            return KDBXError(.limitExceeded, "the decompressed payload exceeds the limit")
        }
        return KDBXError(.corruptedFile, "gzip: \(error.code)", location: error.offset.map { "compressed offset \($0)" })
    }
}
