import MyPassBytes
import MyPassCompression

/// The AutoFill index's content (``PayloadContent``), skimmed instead of parsed: the KDBX 4 inner
/// header with its binaries counted and dropped as they stream past (never buffered whole), then
/// ``CredentialXMLReader``; for 3.x the XML reader from the first byte, with the header's stream.
struct CredentialContent: PayloadContent {
    /// The compressed bytes handed to the inflater at once. KeePass's XML inflates about 25
    /// times, so a 64 KiB piece came out as 1.5 MB of XML that the tokenizer then buffered whole
    /// (2.6 MB of peak heap on the 5,000-entry fixture); 4 KiB pieces keep both near 100 KB.
    static var inflateInputByteCount: Int { 4 * 1024 }

    private var innerHeader: InnerHeaderSkimmer?
    private var xml: CredentialXMLReader
    private var stream: InnerRandomStream?

    /// - Parameter maxKeptBytes: the most memory the XML reader's kept tables may take at their
    ///   peak, in bytes (`nil`: no bound).
    /// - Throws: ``KDBXError`` `.unsupported` for an unknown 3.x inner random stream.
    init(header: KDBXHeader, limits: KDBXLimits, selection: CredentialSkim.FieldSelection, maxKeptBytes: Int? = nil) throws(KDBXError) {
        xml = CredentialXMLReader(selection: selection, limits: limits.body, maxKeptBytes: maxKeptBytes)
        if header.version.isKDBX4 {
            innerHeader = InnerHeaderSkimmer(limits: limits)
        } else {
            var streamKey = header.innerStreamKey?.unsafeArray ?? []
            defer { wipe(&streamKey) }
            stream = try InnerRandomStream(algorithm: header.innerStreamAlgorithm ?? .none, key: streamKey)
        }
    }

    mutating func consume(_ data: ArraySlice<UInt8>) throws(KDBXError) {
        xml.noteContent(byteCount: data.count)
        var xmlBytes = data
        if stream == nil {
            guard let rest = try innerHeader!.feed(data) else { return }
            xml.noteInnerHeaderBinary(byteCount: innerHeader!.binaryBytes)
            var streamKey = innerHeader!.streamKey.unsafeArray
            defer { wipe(&streamKey) }
            stream = try InnerRandomStream(algorithm: innerHeader!.algorithm!, key: streamKey)
            innerHeader = nil
            xmlBytes = rest
        }
        guard !xmlBytes.isEmpty else { return }
        try xml.feed(xmlBytes, stream: &stream!)
    }

    /// What the XML reader kept and `Meta/HeaderHash`.
    /// - Throws: ``KDBXError`` `.corruptedFile` when the payload ends inside the inner header, and
    ///   what the XML reader throws.
    mutating func finish() throws(KDBXError) -> (CredentialSkim, headerHash: [UInt8]?) {
        guard var stream else {
            throw KDBXError(.corruptedFile, "the payload ends inside the inner header")
        }
        let skim = try xml.finish(stream: &stream)
        return (skim, xml.headerHash)
    }
}

extension PayloadPipeline where Content == CredentialContent {
    /// The AutoFill index's pipeline.
    /// - Parameter payloadByteCount: the ciphertext length in bytes (`Int.max` when unknown),
    ///   bounding what the blocks may claim and what the body may decompress to.
    ///   `maxKeptBytes` bounds the kept tables' peak memory in bytes (`nil`: no bound).
    /// - Throws: ``KDBXError`` `.unsupported` for an unknown 3.x inner random stream.
    init(header: KDBXHeader, limits: KDBXLimits, selection: CredentialSkim.FieldSelection, payloadByteCount: Int,
         maxKeptBytes: Int? = nil) throws(KDBXError) {
        self.init(header: header, limits: limits, decodedBudget: Payload.decodedBudget(limits, payloadByteCount: payloadByteCount),
                  maxBlockBytes: min(payloadByteCount, limits.maxDecompressedBytes),
                  content: try CredentialContent(header: header, limits: limits, selection: selection, maxKeptBytes: maxKeptBytes))
    }
}

/// The KDBX 4 inner header read as it streams past: the stream algorithm and key are kept, binary
/// fields (attachments) are counted and skipped without being buffered; the same checks as
/// ``InnerHeader/Parser`` (field sizes, the flag byte, a known stream algorithm, both stream fields).
struct InnerHeaderSkimmer {
    private let limits: KDBXLimits
    private var fieldHead: [UInt8] = []
    /// A field's content other than a binary's (at most ``KDBXLimits/maxHeaderFieldBytes``).
    private var fieldData = SecureBytes()
    private var fieldID: UInt8 = 0
    private var fieldSize = 0
    private var fieldLeft = 0
    private var inField = false
    private var consumed = 0
    private var streamID: UInt32?
    /// The inner random stream key, in wiping storage.
    private(set) var streamKey = SecureBytes()
    private var sawStreamKey = false
    /// The stream algorithm, once the End field was read.
    private(set) var algorithm: InnerStreamAlgorithm?
    /// Content bytes of the binaries skipped (flag bytes excluded).
    private(set) var binaryBytes = 0

    init(limits: KDBXLimits) { self.limits = limits }

    /// Takes the next chunk; `nil` while the header is incomplete, then (once) the bytes after the End field.
    mutating func feed(_ chunk: ArraySlice<UInt8>) throws(KDBXError) -> ArraySlice<UInt8>? {
        var rest = chunk
        while !rest.isEmpty {
            if !inField {
                let take = min(5 - fieldHead.count, rest.count)
                fieldHead.append(contentsOf: rest.prefix(take))
                rest = rest.dropFirst(take)
                guard fieldHead.count == 5 else { return nil }
                fieldID = fieldHead[0]
                let size = loadLittleEndian(fieldHead[1..<5], as: Int32.self)
                let location = "inner header field \(fieldID) at payload offset \(consumed)"
                guard size >= 0 else { throw KDBXError(.corruptedFile, "negative inner header field size", location: location) }
                let limit = fieldID == InnerHeader.FieldID.binary.rawValue ? limits.maxBinaryBytes &+ 1 : limits.maxHeaderFieldBytes
                guard Int(size) <= limit else {
                    throw KDBXError(.limitExceeded, "inner header field of \(size) bytes", location: location)
                }
                fieldSize = Int(size)
                fieldLeft = fieldSize
                fieldHead = []
                fieldData.removeAll()
                if fieldID != InnerHeader.FieldID.binary.rawValue { fieldData.reserveCapacity(fieldSize) }
                inField = true
                consumed += 5
            }
            let take = min(fieldLeft, rest.count)
            if fieldID == InnerHeader.FieldID.binary.rawValue {
                binaryBytes += take  // the flag byte is taken off below
            } else {
                fieldData.append(contentsOf: rest.prefix(take))
            }
            rest = rest.dropFirst(take)
            fieldLeft -= take
            consumed += take
            guard fieldLeft == 0 else { return nil }
            inField = false
            if try finishField() { return rest }
        }
        return nil
    }

    /// Applies a complete field; `true` after the End field.
    private mutating func finishField() throws(KDBXError) -> Bool {
        let location = "inner header field \(fieldID) at payload offset \(consumed - fieldSize - 5)"
        switch InnerHeader.FieldID(rawValue: fieldID) {
        case .end:
            guard let streamID, sawStreamKey else {
                throw KDBXError(.corruptedFile, "inner header lacks the inner random stream", location: location)
            }
            guard let known = InnerStreamAlgorithm(rawValue: streamID) else {
                throw KDBXError(.unsupported, "unknown inner random stream \(streamID)", location: location)
            }
            algorithm = known
            return true
        case .innerRandomStreamID:
            guard fieldData.count == 4 else {
                throw KDBXError(.corruptedFile, "inner random stream id must be 4 bytes", location: location)
            }
            streamID = fieldData.withUnsafeBytes { loadLittleEndian($0, as: UInt32.self) }
        case .innerRandomStreamKey:
            streamKey = fieldData
            fieldData = SecureBytes()
            sawStreamKey = true
        case .binary:
            guard fieldSize >= 1 else {
                throw KDBXError(.corruptedFile, "inner header binary without its flag byte", location: location)
            }
            binaryBytes -= 1
        case nil:
            break  // unknown inner header fields are skipped, as KeePass does
        }
        fieldData.removeAll()
        return false
    }
}
