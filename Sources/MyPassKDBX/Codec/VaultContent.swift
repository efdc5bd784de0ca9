import MyPassBytes
import MyPassCrypto

/// The full read's content (``PayloadContent``): the KDBX 4 inner header, whose binaries start the
/// binary pool, then the XML body reader with the inner random stream; for 3.x the XML body reader
/// from the first byte, with the header's stream.
struct VaultContent: PayloadContent {
    static var inflateInputByteCount: Int { Payload.chunkByteCount }

    private let header: KDBXHeader
    private let limits: KDBXLimits
    private var innerHeaderParser: InnerHeader.Parser?
    private var body: BodyReader?

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

    /// - Parameter limits: the read's limits, with the binaries' limits already bounded by the
    ///   file's decoded budget (``KDBXLimits/boundingBinaries(by:)``).
    /// - Throws: ``KDBXError`` `.unsupported` for an unknown 3.x inner random stream.
    init(header: KDBXHeader, limits: KDBXLimits) throws(KDBXError) {
        self.header = header
        self.limits = limits
        if header.version.isKDBX4 {
            innerHeaderParser = InnerHeader.Parser(limits: limits)
        } else {
            var streamKey = header.innerStreamKey?.unsafeArray ?? []
            defer { wipe(&streamKey) }
            let stream = try InnerRandomStream(algorithm: header.innerStreamAlgorithm ?? .none, key: streamKey)
            body = BodyReader(xml: Self.makeXMLReader(header: header, binaries: [], limits: limits), stream: stream)
        }
    }

    private static func makeXMLReader(header: KDBXHeader, binaries: [BinaryPoolItem], limits: KDBXLimits) -> VaultXMLReader {
        VaultXMLReader(version: header.version, binaryPool: binaries, limits: limits.body)
    }

    /// The inner random stream in use (from the 3.x header or the 4.x inner header).
    var innerStreamAlgorithm: InnerStreamAlgorithm? { body?.stream.algorithm }

    mutating func consume(_ data: ArraySlice<UInt8>) throws(KDBXError) {
        if body == nil {
            guard var rest = try innerHeaderParser!.feed(data) else { return }
            // The first bytes of decrypted XML, in the parser's copy: wiped once the XML reader has them.
            defer { rest.withUnsafeMutableBytes { if let base = $0.baseAddress { secureZero(base, count: $0.count) } } }
            let inner = innerHeaderParser!.header!
            innerHeaderParser = nil
            var streamKey = inner.streamKey.unsafeArray
            defer { wipe(&streamKey) }
            let stream = try InnerRandomStream(algorithm: inner.streamAlgorithm, key: streamKey)
            body = BodyReader(xml: Self.makeXMLReader(header: header, binaries: inner.binaries, limits: limits), stream: stream)
            guard !rest.isEmpty else { return }
            try body!.feed(rest)
            return
        }
        try body!.feed(data)
    }

    /// - Throws: ``KDBXError`` `.corruptedFile` when the payload ends inside the inner header, and
    ///   what the XML body reader throws.
    mutating func finish() throws(KDBXError) -> VaultBody {
        guard var body else {
            throw KDBXError(.corruptedFile, "the payload ends inside the inner header")
        }
        return try body.finish()
    }
}

/// A save's check of the content (``PayloadContent``): BLAKE2b-256 of the content as decrypted,
/// unframed and inflated (the inner header and the XML for 4.x, the XML for 3.x), nothing parsed.
struct ContentDigest: PayloadContent {
    static var inflateInputByteCount: Int { Payload.chunkByteCount }

    private var hasher = Payload.contentHash()

    mutating func consume(_ data: ArraySlice<UInt8>) throws(KDBXError) {
        hasher.update(data)
    }

    /// The 32-byte digest.
    mutating func finish() throws(KDBXError) -> [UInt8] {
        hasher.finalize()
    }
}

extension PayloadPipeline where Content == VaultContent {
    /// The full read's pipeline.
    /// - Parameters:
    ///   - skipsBlockFraming: the 3.x start bytes and hashed blocks were already removed.
    ///   - payloadByteCount: the ciphertext length, bounding what the blocks may claim and what
    ///     the payload may decompress to (`Int.max`: unknown, the plain limits).
    /// - Throws: ``KDBXError`` `.unsupported` for an unknown 3.x inner random stream.
    init(header: KDBXHeader, limits: KDBXLimits, skipsBlockFraming: Bool = false, payloadByteCount: Int = .max) throws(KDBXError) {
        let budget = Payload.decodedBudget(limits, payloadByteCount: payloadByteCount)
        // Attachments share the budget: none, and not all inflated 3.x binaries together, may exceed it.
        let content = try VaultContent(header: header, limits: limits.boundingBinaries(by: budget))
        self.init(header: header, limits: limits, decodedBudget: budget, skipsBlockFraming: skipsBlockFraming,
                  maxBlockBytes: payloadByteCount, content: content)
    }
}

extension PayloadPipeline where Content == ContentDigest {
    /// A save's check: the pipeline of a full read that hashes the content instead of parsing it.
    init(header: KDBXHeader, limits: KDBXLimits, payloadByteCount: Int) {
        self.init(header: header, limits: limits, decodedBudget: Payload.decodedBudget(limits, payloadByteCount: payloadByteCount),
                  maxBlockBytes: payloadByteCount, content: ContentDigest())
    }
}

extension KDBXLimits {
    /// These limits with the attachments' (inner header binaries, inflated 3.x binaries) at most
    /// `budget` bytes.
    func boundingBinaries(by budget: Int) -> KDBXLimits {
        var limits = self
        limits.body.maxBinaryBytes = min(limits.body.maxBinaryBytes, budget)
        limits.maxBinaryBytes = min(limits.maxBinaryBytes, budget)
        return limits
    }
}
