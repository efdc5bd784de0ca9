import MyPassBytes
import MyPassCrypto

/// Where the credential reader pulls file bytes from, in order (a file read piece by piece, or an
/// array in tests), so that the file is never held whole.
package protocol KDBXByteSource {
    /// Up to `count` next bytes; fewer only at the end of the file (empty at the end).
    /// - Throws: ``KDBXError`` `.io` when reading fails.
    mutating func read(upTo count: Int) throws(KDBXError) -> [UInt8]
}

/// A byte source over an array (tests, or a file already in memory).
package struct ArrayByteSource: KDBXByteSource {
    private let bytes: [UInt8]
    private var position = 0

    /// A source that hands out `bytes` in order.
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package mutating func read(upTo count: Int) throws(KDBXError) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[position..<end])
    }
}

/// Opens a KDBX file for the credential index while it streams from a ``KDBXByteSource``: the
/// outer header first (its KDF parameters tell the caller what the KDF costs before any runs),
/// then ``readCredentials(keys:selection:source:)`` verifies the HMAC blocks (4.x) one at a
/// time, decrypts, inflates and skims the body with ``CredentialXMLReader``. Memory is bounded by
/// one HMAC block (KeePass writes 1 MiB), the inflater's window and the kept credentials.
package struct KDBXCredentialReader {
    /// The parsed outer header.
    package let header: KDBXHeader
    /// The limits in force.
    package let limits: KDBXLimits
    /// The encrypted payload's length in bytes (the file's size less the header), or `Int.max`
    /// when the source's size is not known: it sets the decoded budget
    /// (``KDBXLimits/decodedBudgetBytes(payloadByteCount:)``).
    package let payloadByteCount: Int
    /// KDBX 4: the stored header HMAC (32 bytes).
    private let storedHeaderHMAC: [UInt8]
    /// Bytes read past the header, not yet used.
    private var pending: [UInt8]
    private var pendingStart = 0
    /// Bytes of the file read so far (for error locations).
    private var fileOffset: Int
    /// The size of one read from the source.
    static let readByteCount = 64 * 1024

    /// Reads and parses the outer header (and, in KDBX 4, checks its SHA-256).
    /// - Parameter fileByteCount: the whole file's size in bytes when known (`fstat`): the
    ///   decompressed body may then be at most ``KDBXLimits/maxDecompressionRatio`` times the
    ///   payload, as in a full open; `nil` leaves only ``KDBXLimits/maxDecompressedBytes``.
    /// - Throws: ``KDBXError`` `.unsupported`, `.corruptedFile`, `.limitExceeded`, `.io`.
    package init(source: inout some KDBXByteSource, fileByteCount: Int? = nil, limits: KDBXLimits = KDBXLimits()) throws(KDBXError) {
        self.limits = limits
        var prefix = try source.read(upTo: Self.readByteCount)
        var parsed: (header: KDBXHeader, payloadOffset: Int)
        do {
            parsed = try KDBXHeader.read(from: prefix[...], limits: limits)
        } catch {
            // A header larger than one read (a large public custom data field): read up to the limit.
            guard prefix.count == Self.readByteCount else { throw error }
            prefix += try source.read(upTo: limits.maxHeaderBytes + 64 - prefix.count)
            parsed = try KDBXHeader.read(from: prefix[...], limits: limits)
        }
        header = parsed.header
        storedHeaderHMAC = header.version.isKDBX4 ? Array(prefix[(parsed.payloadOffset - 32)..<parsed.payloadOffset]) : []
        pending = Array(prefix[parsed.payloadOffset...])
        fileOffset = parsed.payloadOffset
        payloadByteCount = fileByteCount.map { max(0, $0 - parsed.payloadOffset) } ?? .max
    }

    /// The keys from a transformed key (derived for ``header``'s KDF parameters, or cached),
    /// checked in KDBX 4 by the header HMAC, in 3.x by the stream start bytes while reading.
    /// - Parameter transformedKey: the KDF output, 32 bytes.
    /// - Throws: ``KDBXError`` `.wrongKey` when the header HMAC does not verify.
    package func keys(transformedKey: SecureBytes) throws(KDBXError) -> MasterKeys {
        let keys = MasterKeys(transformedKey: transformedKey, masterSeed: header.masterSeed)
        if header.version.isKDBX4 {
            let computed = HMACBlockStream.headerHMAC(header: header.rawBytes, hmacKey: keys.hmacKey)
            guard constantTimeEquals(computed, storedHeaderHMAC) else {
                throw KDBXError(.wrongKey, "the header HMAC does not verify")
            }
        }
        return keys
    }

    /// Reads the rest of the file from `source` and returns the skimmed credentials.
    /// - Parameter maxKeptBytes: the most memory the kept tables may take at their peak
    ///   (``CredentialSkim/peakBytes(addingRecords:fields:tags:arenaBytes:)``), in bytes; `nil`: no bound.
    /// - Throws: ``KDBXError`` `.wrongKey` (3.x start bytes), `.corruptedFile` (block HMAC, padding,
    ///   XML, Meta/HeaderHash), `.limitExceeded` (also, with ``CredentialSkim/keptBytesLimitReason``,
    ///   before the kept tables would pass `maxKeptBytes`), `.io`.
    package mutating func readCredentials(keys: MasterKeys, selection: CredentialSkim.FieldSelection,
                                          source: inout some KDBXByteSource, maxKeptBytes: Int? = nil) throws(KDBXError) -> CredentialSkim {
        var decryptor = try header.cipher.makeDecryptor(key: keys.cipherKey, iv: header.encryptionIV)
        var pipeline = try PayloadPipeline<CredentialContent>(header: header, limits: limits, selection: selection,
                                                              payloadByteCount: payloadByteCount, maxKeptBytes: maxKeptBytes)
        var largest = 0
        func decrypt(_ chunk: ArraySlice<UInt8>) throws(KDBXError) {
            largest = max(largest, chunk.count)
            var start = chunk.startIndex
            while start < chunk.endIndex {
                let end = min(start + Payload.chunkByteCount, chunk.endIndex)
                var plain = decryptor.update(chunk[start..<end])
                defer { wipe(&plain) }
                try pipeline.consumePlaintext(plain[...])
                start = end
            }
        }
        if header.version.isKDBX4 {
            var index: UInt64 = 0
            while true {
                let location = "HMAC block \(index) at offset \(fileOffset)"
                let head = try read(exactly: 36, source: &source)
                guard head.count == 36 else {
                    throw KDBXError(.corruptedFile, "file ends inside the HMAC block stream", location: location)
                }
                let size = loadLittleEndian(head[32..<36], as: Int32.self)
                guard size >= 0 else { throw KDBXError(.corruptedFile, "negative block size", location: location) }
                guard Int(size) <= limits.maxBlockBytes else {
                    throw KDBXError(.limitExceeded, "block of \(size) bytes", location: location)
                }
                let data = try read(exactly: Int(size), source: &source)
                guard data.count == Int(size) else {
                    throw KDBXError(.corruptedFile, "file ends inside an HMAC block", location: location)
                }
                let mac = HMACBlockStream.blockHMAC(index: index, data: data[...], hmacKey: keys.hmacKey)
                guard constantTimeEquals(mac, head[0..<32]) else {
                    throw KDBXError(.corruptedFile, "block HMAC mismatch", location: location)
                }
                index += 1
                if size == 0 { break }
                try decrypt(data[...])
            }
        } else {
            while true {
                let chunk = try read(exactly: Self.readByteCount, source: &source)
                if chunk.isEmpty { break }
                try decrypt(chunk[...])
            }
        }
        var tail: [UInt8]
        do { tail = try decryptor.finalize() } catch {
            throw KDBXError(.corruptedFile, "the payload padding is invalid")
        }
        defer { wipe(&tail) }
        try pipeline.consumePlaintext(tail[...])
        var (skim, headerHash) = try pipeline.finish()
        skim.largestBlockBytes = largest
        if let stored = headerHash, !stored.isEmpty {
            guard constantTimeEquals(SHA256.hash(header.rawBytes), stored) else {
                throw KDBXError(.corruptedFile, "Meta/HeaderHash does not match the header", location: "XML Meta/HeaderHash")
            }
        }
        return skim
    }

    /// `count` bytes from what is pending, then from `source`; fewer only at the end of the file.
    private mutating func read(exactly count: Int, source: inout some KDBXByteSource) throws(KDBXError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        let fromPending = min(count, pending.count - pendingStart)
        if fromPending > 0 {
            out.append(contentsOf: pending[pendingStart..<(pendingStart + fromPending)])
            pendingStart += fromPending
            if pendingStart == pending.count {
                pending = []
                pendingStart = 0
            }
        }
        while out.count < count {
            let piece = try source.read(upTo: count - out.count)
            if piece.isEmpty { break }
            out.append(contentsOf: piece)
        }
        fileOffset += out.count
        return out
    }
}
