import MyPassBytes
import MyPassCompression
import MyPassCrypto

/// Opens a KDBX file in separate stages, so that callers (the benchmark) can time each one:
/// ``init(file:limits:)`` parses the outer header, ``deriveKeys(_:)`` runs the KDF and proves the
/// key, ``decryptPayload(keys:)`` verifies and decrypts, ``decompress(_:)`` inflates,
/// ``parseContent(_:)`` reads the inner header and the XML into a ``Vault``. ``readVault(keys:)``
/// fuses the last three into one streaming pass (what ``KDBXCodec/open(_:key:limits:)`` uses).
package struct KDBXReader {
    /// The whole file.
    package let file: [UInt8]
    /// The parsed outer header.
    package let header: KDBXHeader
    /// Offset of the payload: the HMAC block stream (4.x) or the ciphertext (3.x).
    package let payloadOffset: Int
    /// The limits in force.
    package let limits: KDBXLimits

    /// Parses the outer header (and, in KDBX 4, checks its SHA-256).
    /// - Throws: ``KDBXError`` `.unsupported`, `.corruptedFile`, `.limitExceeded`.
    package init(file: [UInt8], limits: KDBXLimits = KDBXLimits()) throws(KDBXError) {
        self.file = file
        self.limits = limits
        (header, payloadOffset) = try KDBXHeader.read(from: file[...], limits: limits)
    }

    /// Runs the KDF (after asking a challenge-response component, when the key has one) and, in
    /// KDBX 4, checks the header HMAC (the credential check).
    /// - Throws: ``KDBXError`` `.wrongKey` when the header HMAC does not verify, `.limitExceeded`
    ///   when the KDF cost exceeds the limits, `.missingKeyComponent` or `.cancelled` from a
    ///   challenge-response component.
    /// - Complexity: the KDF's cost.
    package func deriveKeys(_ key: CompositeKey, progress: KDFProgressHandler? = nil) throws(KDBXError) -> MasterKeys {
        let transformed = try MasterKeys.transformedKey(compositeKey: key, version: header.version, kdf: header.kdf,
                                                        masterSeed: header.masterSeed, limits: limits, progress: progress)
        return try keys(transformedKey: transformed)
    }

    /// The keys from a transformed key already derived for this header's KDF parameters (a cached
    /// one, for a quick reopen without the KDF), checked like ``deriveKeys(_:progress:)`` does: in
    /// KDBX 4 by the header HMAC here, in 3.x by the stream start bytes when the payload is read.
    /// - Parameter transformedKey: the KDF output, 32 bytes (64 for a KDBX 3.1 key with a
    ///   challenge-response component, see ``MasterKeys/transformedKey(compositeKey:version:kdf:masterSeed:limits:progress:transform:)``).
    /// - Throws: ``KDBXError`` `.wrongKey` when the header HMAC does not verify.
    package func keys(transformedKey: SecureBytes) throws(KDBXError) -> MasterKeys {
        let keys = MasterKeys(transformedKey: transformedKey, masterSeed: header.masterSeed)
        if header.version.isKDBX4 {
            let stored = file[(payloadOffset - 32)..<payloadOffset]
            let computed = HMACBlockStream.headerHMAC(header: header.rawBytes, hmacKey: keys.hmacKey)
            guard constantTimeEquals(computed, stored) else {
                throw KDBXError(.wrongKey, "the header HMAC does not verify", location: "offset \(payloadOffset - 32)")
            }
        }
        return keys
    }

    /// Verifies the HMAC blocks (4.x) and decrypts the payload; in 3.x also checks the stream start
    /// bytes and unframes the hashed block stream. Returns the (possibly gzip-compressed) content.
    /// - Throws: ``KDBXError`` `.wrongKey` (3.x start bytes), `.corruptedFile`, `.limitExceeded`.
    package func decryptPayload(keys: MasterKeys) throws(KDBXError) -> [UInt8] {
        var out = [UInt8]()
        var decryptor = try header.cipher.makeDecryptor(key: keys.cipherKey, iv: header.encryptionIV)
        var plain = [UInt8]()
        defer { wipe(&plain) }
        var startBytesChecked = header.version.isKDBX4
        // The 3.x start bytes are checked as soon as they are decrypted, before the padding, so a
        // wrong key is `.wrongKey` here as in the streamed `readVault(keys:)`.
        func checkStartBytes() throws(KDBXError) {
            guard !startBytesChecked, plain.count >= 32 else { return }
            guard let expected = header.streamStartBytes, constantTimeEquals(plain[0..<32], expected) else {
                throw KDBXError(.wrongKey, "the stream start bytes do not match", location: HeaderFieldID.describe(9))
            }
            startBytesChecked = true
        }
        try forEachCiphertextChunk(keys: keys) { (chunk) throws(KDBXError) in
            plain.append(contentsOf: decryptor.update(chunk))
            try checkStartBytes()
        }
        do { plain.append(contentsOf: try decryptor.finalize()) } catch {
            throw KDBXError(.corruptedFile, "the payload padding is invalid")
        }
        if header.version.isKDBX4 {
            out = plain
        } else {
            guard plain.count >= 32 else { throw KDBXError(.corruptedFile, "the payload is shorter than the stream start bytes") }
            guard let expected = header.streamStartBytes, constantTimeEquals(plain[0..<32], expected) else {
                throw KDBXError(.wrongKey, "the stream start bytes do not match", location: HeaderFieldID.describe(9))
            }
            out = try HashedBlockStream.read(Array(plain[32...]), limits: limits)
        }
        return out
    }

    /// Inflates the content when the header says gzip; returns it unchanged otherwise.
    /// - Throws: ``KDBXError`` `.corruptedFile`, `.limitExceeded`.
    package func decompress(_ content: [UInt8]) throws(KDBXError) -> [UInt8] {
        guard header.compression == .gzip else { return content }
        do {
            return try Gzip.decompress(content, maxOutputBytes: limits.maxDecompressedBytes)
        } catch {
            throw Payload.map(error)
        }
    }

    /// Reads the inner header (4.x) and the XML body of decompressed content into a vault.
    /// - Throws: ``KDBXError`` `.corruptedFile` (malformed content, Meta/HeaderHash mismatch), `.limitExceeded`.
    package func parseContent(_ content: [UInt8]) throws(KDBXError) -> Vault {
        var contentHeader = header
        contentHeader.compression = .none
        var pipeline = try PayloadPipeline<VaultContent>(header: contentHeader, limits: limits, skipsBlockFraming: true)
        var start = 0
        while start < content.count {
            let end = min(start + Payload.chunkByteCount, content.count)
            try pipeline.consumePlaintext(content[start..<end])
            start = end
        }
        let body = try pipeline.finish()
        return try makeVault(body, innerStream: pipeline.content.innerStreamAlgorithm)
    }

    /// Decrypts, inflates and parses in one streaming pass (the stages above, fused).
    /// - Throws: ``KDBXError`` `.wrongKey` (3.x start bytes), `.corruptedFile`, `.limitExceeded`.
    package func readVault(keys: MasterKeys) throws(KDBXError) -> Vault {
        var pipeline = try PayloadPipeline<VaultContent>(header: header, limits: limits, payloadByteCount: file.count - payloadOffset)
        try streamPlaintext(keys: keys, into: &pipeline)
        let body = try pipeline.finish()
        return try makeVault(body, innerStream: pipeline.content.innerStreamAlgorithm)
    }

    /// Decrypts and inflates like ``readVault(keys:)``, but hashes the content instead of parsing
    /// it: the BLAKE2b-256 (32 bytes, RFC 7693) of the inner header and the XML (4.x) or of the XML (3.x). A
    /// save's check compares it with ``KDBXWriter/write(_:keys:to:)``'s digest: equal digests prove
    /// that the file decodes to exactly the bytes serialized from the model, without building a
    /// second model. The HMAC blocks (4.x), the stream start bytes and hashed blocks (3.x) and the
    /// gzip trailer are checked as in a full read.
    /// - Throws: ``KDBXError`` `.wrongKey` (3.x start bytes), `.corruptedFile`, `.limitExceeded`.
    /// - Complexity: linear in the file; memory bounded by the 64 KiB chunks and the inflate window.
    package func contentDigest(keys: MasterKeys) throws(KDBXError) -> [UInt8] {
        var pipeline = PayloadPipeline<ContentDigest>(header: header, limits: limits, payloadByteCount: file.count - payloadOffset)
        try streamPlaintext(keys: keys, into: &pipeline)
        return try pipeline.finish()
    }

    /// Decrypts the whole payload into `pipeline`, 64 KiB of ciphertext at a time, each plaintext
    /// chunk wiped once consumed; the padding (CBC) is checked at the end.
    /// - Throws: ``KDBXError`` `.corruptedFile` (bad padding), and what the pipeline throws.
    private func streamPlaintext<Content>(keys: MasterKeys, into pipeline: inout PayloadPipeline<Content>) throws(KDBXError) {
        var decryptor = try header.cipher.makeDecryptor(key: keys.cipherKey, iv: header.encryptionIV)
        try forEachCiphertextChunk(keys: keys) { (chunk) throws(KDBXError) in
            var plain = decryptor.update(chunk)
            defer { wipe(&plain) }
            try pipeline.consumePlaintext(plain[...])
        }
        var tail: [UInt8]
        do { tail = try decryptor.finalize() } catch {
            throw KDBXError(.corruptedFile, "the payload padding is invalid")
        }
        defer { wipe(&tail) }
        try pipeline.consumePlaintext(tail[...])
    }

    /// Calls `body` with the ciphertext in chunks of at most 64 KiB: the verified HMAC block data
    /// (4.x) or the bytes after the header (3.x).
    private func forEachCiphertextChunk(keys: MasterKeys, _ body: (ArraySlice<UInt8>) throws(KDBXError) -> Void) throws(KDBXError) {
        func split(_ data: ArraySlice<UInt8>) throws(KDBXError) {
            var start = data.startIndex
            while start < data.endIndex {
                let end = min(start + Payload.chunkByteCount, data.endIndex)
                try body(data[start..<end])
                start = end
            }
        }
        if header.version.isKDBX4 {
            var blocks = HMACBlockStream.Reader(file[payloadOffset...], hmacKey: keys.hmacKey, limits: limits, fileOffset: payloadOffset)
            while let block = try blocks.next() { try split(block) }
        } else {
            try split(file[payloadOffset...])
        }
    }

    /// The vault from a parsed body, checking Meta/HeaderHash when present.
    private func makeVault(_ body: VaultBody, innerStream: InnerStreamAlgorithm?) throws(KDBXError) -> Vault {
        if let stored = body.headerHash, !stored.isEmpty {
            guard constantTimeEquals(SHA256.hash(header.rawBytes), stored) else {
                throw KDBXError(.corruptedFile, "Meta/HeaderHash does not match the header", location: "XML Meta/HeaderHash")
            }
        }
        var kdfItems = VariantDictionary()
        if header.version.isKDBX4 {
            kdfItems = header.kdf.storedItems
            if kdfItems["S"] != nil { kdfItems["S"] = .bytes([]) }  // drawn fresh on every save
        }
        let format = VaultFormat(
            version: header.version, cipher: header.cipher, kdf: header.kdf.settings, compression: header.compression,
            innerStream: innerStream ?? header.innerStreamAlgorithm ?? .chacha20, publicCustomData: header.publicCustomData,
            kdfItems: kdfItems)
        return Vault(format: format, body: body)
    }
}
