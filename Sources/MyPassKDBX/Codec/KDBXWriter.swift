import MyPassBytes
import MyPassCompression
import MyPassCrypto

/// A save made ready by ``KDBXWriter/prepare(forChallengeResponse:)``: the outer header with fresh
/// random values (master seed, encryption IV, KDF seed or salt, inner stream key, 3.x stream start
/// bytes). For a key with a challenge-response component the challenge (the KDF seed in KDBX 4,
/// the master seed in 3.1) is drawn again until its last byte is neither 0x20 nor 0x00, so that
/// every way of padding it for a hardware key gives the same response
/// (``YubiKeyChallenge/isPaddingNeutral(_:)``). The
/// caller derives the keys for ``header``'s KDF parameters once (the expensive step), then
/// ``KDBXWriter/write(_:keys:to:)`` streams the file with them; the same keys verify what was written.
package struct KDBXSavePlan: Sendable {
    /// The version being written.
    package let version: KDBXVersion
    /// The header, with ``KDBXHeader/rawBytes`` filled.
    package let header: KDBXHeader
    /// The inner random stream key: 64 bytes (4.x, ChaCha20) or 32 (3.x, Salsa20).
    package let innerStreamKey: SecureBytes
}

/// Where a streaming save puts the file's bytes, in order.
package protocol KDBXByteSink {
    /// Takes the next bytes of the file.
    /// - Throws: ``KDBXError`` `.io` when they cannot be stored; the save stops there.
    mutating func write(_ bytes: ArraySlice<UInt8>) throws(KDBXError)
}

/// Collects a file in memory.
package struct KDBXArraySink: KDBXByteSink {
    package var bytes: [UInt8] = []
    package init() {}
    package mutating func write(_ bytes: ArraySlice<UInt8>) throws(KDBXError) { self.bytes.append(contentsOf: bytes) }
}

/// The save path of ``KDBXCodec``: header with fresh random values, keys, then the XML body, gzip,
/// encryption and block framing as one stream, so that no stage holds the whole document: the XML
/// writer hands over about 64 KiB at a time, and each piece goes through deflate, the cipher and
/// the block framing to the sink before the next one is written.
package struct KDBXWriter {
    let vault: Vault
    let options: KDBXSaveOptions

    package init(vault: Vault, options: KDBXSaveOptions) {
        self.vault = vault
        self.options = options
    }

    /// Draws the fresh random values and serializes the header.
    /// - Parameters:
    ///   - forChallengeResponse: whether the key has a challenge-response component (then the
    ///     challenge is drawn padding-neutral, see ``KDBXSavePlan``).
    ///   - keptKDF: KDF parameters (seed included) to use instead of fresh ones: those of an
    ///     earlier plan of the same save whose file was never published, so that its transformed key
    ///     serves again (see ``keepsKDF(of:forChallengeResponse:)``). The master seed, encryption IV
    ///     and inner stream key are always drawn fresh.
    /// - Throws: ``KDBXError`` `.invalidModel` (version impossible for the content or format).
    package func prepare(forChallengeResponse: Bool = false, keptKDF: KDFParameters? = nil) throws(KDBXError) -> KDBXSavePlan {
        let version = try KDBXCodec.versionToWrite(for: vault, options: options)
        let format = vault.format
        let isKDBX4 = version.isKDBX4
        var kdf = keptKDF ?? KDFParameters.fresh(format.kdf, keeping: format.kdfItems)
        var masterSeed = SecureRandom.bytes(count: 32)
        if forChallengeResponse {
            // 1 draw in 128 is redrawn; the bias costs the 32-byte seed under 0.012 bits.
            while isKDBX4 && keptKDF == nil && !YubiKeyChallenge.isPaddingNeutral(kdf.seed) { kdf.seed = SecureRandom.bytes(count: 32) }
            while !isKDBX4 && !YubiKeyChallenge.isPaddingNeutral(masterSeed) { masterSeed = SecureRandom.bytes(count: 32) }
        }
        var innerStreamKey = SecureRandom.bytes(count: isKDBX4 ? 64 : 32)
        defer { wipe(&innerStreamKey) }
        var header = KDBXHeader(
            version: version, cipher: format.cipher, compression: format.compression,
            masterSeed: masterSeed, encryptionIV: SecureRandom.bytes(count: format.cipher.ivByteCount),
            kdf: kdf,
            innerStreamAlgorithm: isKDBX4 ? nil : .salsa20,
            innerStreamKey: isKDBX4 ? nil : SecureBytes(innerStreamKey),
            streamStartBytes: isKDBX4 ? nil : SecureRandom.bytes(count: 32),
            publicCustomData: isKDBX4 ? format.publicCustomData : [])
        _ = try header.serialized()
        return KDBXSavePlan(version: version, header: header, innerStreamKey: SecureBytes(innerStreamKey))
    }

    /// Whether a plan for this vault may keep `plan`'s KDF parameters: the vault's KDF settings and
    /// stored items give the same parameters but for the seed, and the transformed key does not
    /// depend on the master seed (it does in KDBX 3.1 with a challenge-response component, whose
    /// challenge is the master seed, drawn fresh for every plan).
    package func keepsKDF(of plan: KDBXSavePlan, forChallengeResponse: Bool = false) -> Bool {
        if forChallengeResponse && !plan.version.isKDBX4 { return false }
        var fresh = KDFParameters.fresh(vault.format.kdf, keeping: vault.format.kdfItems)
        fresh.seed = plan.header.kdf.seed
        return fresh == plan.header.kdf
    }

    /// Derives the keys for a plan (asks a challenge-response component for the plan's challenge,
    /// then runs the KDF once).
    /// - Throws: ``KDBXError`` `.limitExceeded` (KDF cost beyond `options.limits`), `.cancelled`,
    ///   `.missingKeyComponent` (the challenge-response component did not answer).
    package func deriveKeys(_ plan: KDBXSavePlan, key: CompositeKey) throws(KDBXError) -> MasterKeys {
        let header = plan.header
        let transformed = try MasterKeys.transformedKey(compositeKey: key, version: header.version, kdf: header.kdf,
                                                        masterSeed: header.masterSeed, limits: options.limits)
        return MasterKeys(transformedKey: transformed, masterSeed: header.masterSeed)
    }

    /// Writes the whole file for `plan` with `keys` (derived for the plan's header) to `sink`.
    /// - Returns: the BLAKE2b-256 (32 bytes, RFC 7693) of the content as serialized, before compression: the
    ///   inner header and the XML (4.x) or the XML (3.x); ``KDBXReader/contentDigest(keys:)`` of the
    ///   written file must equal it.
    /// - Throws: ``KDBXError`` `.invalidModel` when the cipher fails; what `sink` throws.
    @discardableResult
    package func write(_ plan: KDBXSavePlan, keys: MasterKeys, to sink: inout some KDBXByteSink) throws(KDBXError) -> [UInt8] {
        let header = plan.header
        let isKDBX4 = plan.version.isKDBX4
        let headerBytes = header.rawBytes
        let encoder = PayloadEncoder(
            sink: sink, encryptor: try header.cipher.makeEncryptor(key: keys.cipherKey, iv: header.encryptionIV),
            isKDBX4: isKDBX4, hmacKey: keys.hmacKey, blockByteCount: options.blockByteCount,
            compressionLevel: header.compression == .gzip ? options.compressionLevel : nil)
        var prefix = headerBytes
        if isKDBX4 {
            prefix.append(contentsOf: SHA256.hash(headerBytes))
            prefix.append(contentsOf: HMACBlockStream.headerHMAC(header: headerBytes, hmacKey: keys.hmacKey))
        }
        try encoder.emitFile(prefix[...])
        if !isKDBX4 { encoder.emitPlaintext(header.streamStartBytes![...]) }

        // Content: inner header (4.x) and XML, protected values masked in document order.
        var streamKey = plan.innerStreamKey.unsafeArray
        defer { wipe(&streamKey) }
        var stream = try InnerRandomStream(algorithm: isKDBX4 ? .chacha20 : .salsa20, key: streamKey)
        let pool = BinaryPool(vault: vault)
        if isKDBX4 {
            InnerHeader(streamAlgorithm: .chacha20, streamKey: plan.innerStreamKey, binaries: pool.items)
                .serialize { encoder.emitContent($0) }
        }
        VaultXMLWriter.write(
            vault, version: plan.version, headerHash: isKDBX4 ? nil : SHA256.hash(headerBytes), stream: &stream,
            binaryPool: pool) { chunk in encoder.emitContent(chunk[...]) }
        try encoder.finish()
        sink = encoder.sink
        return encoder.contentHasher.finalize()
    }

    /// The whole file in memory (prepare, one KDF, write).
    package func write(key: CompositeKey) throws(KDBXError) -> [UInt8] {
        let plan = try prepare(forChallengeResponse: key.hasChallengeResponse)
        let keys = try deriveKeys(plan, key: key)
        var sink = KDBXArraySink()
        try write(plan, keys: keys, to: &sink)
        return sink.bytes
    }
}

/// The stages after the XML writer: gzip, (3.x) hashed block framing, the cipher, (4.x) HMAC
/// block framing, the sink. A class, so the XML writer's drain closure can feed it; the first
/// error stops the stream and is rethrown by ``finish()``.
private final class PayloadEncoder<Sink: KDBXByteSink> {
    var sink: Sink
    private var encryptor: PayloadCipherStream
    private var deflater: Deflater?
    private var hmacBlocks: HMACBlockStream.Writer?
    private var hashedBlocks: HashedBlockStream.Writer?
    private var framed: [UInt8] = []
    private var failure: KDBXError?
    /// The hash of the content, as it enters deflate.
    var contentHasher = Payload.contentHash()

    init(sink: Sink, encryptor: PayloadCipherStream, isKDBX4: Bool, hmacKey: SecureBytes, blockByteCount: Int,
         compressionLevel: Int?) {
        self.sink = sink
        self.encryptor = encryptor
        if let compressionLevel { deflater = Deflater(format: .gzip, level: compressionLevel) }
        if isKDBX4 {
            hmacBlocks = HMACBlockStream.Writer(hmacKey: hmacKey, blockByteCount: blockByteCount)
        } else {
            hashedBlocks = HashedBlockStream.Writer(blockByteCount: blockByteCount)
        }
    }

    /// Bytes that go to the file as they are (the header).
    func emitFile(_ bytes: ArraySlice<UInt8>) throws(KDBXError) {
        try sink.write(bytes)
    }

    /// Content (inner header, XML): compressed, then framed and encrypted.
    func emitContent(_ content: ArraySlice<UInt8>) {
        guard failure == nil, !content.isEmpty else { return }
        contentHasher.update(content)
        if deflater != nil {
            var compressed = deflater!.update(content)
            defer { wipe(&compressed) }
            emitCompressed(compressed[...])
        } else {
            emitCompressed(content)
        }
    }

    private func emitCompressed(_ data: ArraySlice<UInt8>) {
        guard !data.isEmpty else { return }
        if hashedBlocks != nil {
            var blocks: [UInt8] = []
            defer { wipe(&blocks) }
            hashedBlocks!.write(data, into: &blocks)
            emitPlaintext(blocks[...])
        } else {
            emitPlaintext(data)
        }
    }

    /// Plaintext of the cipher, in order.
    func emitPlaintext(_ plain: ArraySlice<UInt8>) {
        guard failure == nil, !plain.isEmpty else { return }
        var start = plain.startIndex
        while start < plain.endIndex {
            let end = min(start + Payload.chunkByteCount, plain.endIndex)
            emitCiphertext(encryptor.update(plain[start..<end])[...])
            start = end
        }
    }

    private func emitCiphertext(_ cipher: ArraySlice<UInt8>) {
        guard failure == nil else { return }
        if hmacBlocks != nil {
            hmacBlocks!.write(cipher, into: &framed)
        } else {
            framed.append(contentsOf: cipher)
        }
        flush(minimum: Payload.chunkByteCount)
    }

    private func flush(minimum: Int) {
        guard failure == nil, framed.count >= minimum, !framed.isEmpty else { return }
        do throws(KDBXError) {
            try sink.write(framed[...])
        } catch {
            failure = error
        }
        framed.removeAll(keepingCapacity: true)
    }

    /// Ends every stage and writes what is left.
    func finish() throws(KDBXError) {
        if let failure { throw failure }
        if deflater != nil {
            var tail = deflater!.finish()
            defer { wipe(&tail) }
            emitCompressed(tail[...])
        }
        if hashedBlocks != nil {
            var blocks: [UInt8] = []
            defer { wipe(&blocks) }
            hashedBlocks!.finish(into: &blocks)
            emitPlaintext(blocks[...])
        }
        let last: [UInt8]
        do { last = try encryptor.finalize() } catch {
            throw KDBXError(.invalidModel, "the payload cipher failed")
        }
        emitCiphertext(last[...])
        if hmacBlocks != nil { hmacBlocks!.finish(into: &framed) }
        flush(minimum: 0)
        if let failure { throw failure }
    }
}
