import MyPassBytes
import MyPassCompression
import MyPassCrypto

/// The save path of ``KDBXCodec``: header with fresh random values, keys, XML body, gzip,
/// encryption and block framing.
struct KDBXWriter {
    let vault: Vault
    let options: KDBXSaveOptions

    init(vault: Vault, options: KDBXSaveOptions) {
        self.vault = vault
        self.options = options
    }

    func write(key: CompositeKey) throws(KDBXError) -> [UInt8] {
        let version = try KDBXCodec.versionToWrite(for: vault, options: options)
        let format = vault.format
        let isKDBX4 = version.isKDBX4
        let kdf = KDFParameters.fresh(format.kdf, keeping: format.kdfItems)
        var innerStreamKey = SecureRandom.bytes(count: isKDBX4 ? 64 : 32)
        defer { wipe(&innerStreamKey) }
        let innerAlgorithm: InnerStreamAlgorithm = isKDBX4 ? .chacha20 : .salsa20
        var header = KDBXHeader(
            version: version, cipher: format.cipher, compression: format.compression,
            masterSeed: SecureRandom.bytes(count: 32), encryptionIV: SecureRandom.bytes(count: format.cipher.ivByteCount),
            kdf: kdf,
            innerStreamAlgorithm: isKDBX4 ? nil : innerAlgorithm,
            innerStreamKey: isKDBX4 ? nil : innerStreamKey,
            streamStartBytes: isKDBX4 ? nil : SecureRandom.bytes(count: 32),
            publicCustomData: isKDBX4 ? format.publicCustomData : [])
        let headerBytes = try header.serialized()
        let keys = try MasterKeys(compositeKey: key, masterSeed: header.masterSeed, kdf: kdf, limits: options.limits)

        // Content: inner header (4.x) and XML, protected values masked in document order.
        var stream = try InnerRandomStream(algorithm: innerAlgorithm, key: innerStreamKey)
        var content: [UInt8]
        if isKDBX4 {
            let pool = BinaryPool(vault: vault)
            content = InnerHeader(streamAlgorithm: innerAlgorithm, streamKey: innerStreamKey, binaries: pool.items).serialized()
            var xml = VaultXMLWriter.write(vault, version: version, headerHash: nil, stream: &stream, binaryPool: pool)
            content.append(contentsOf: xml)
            wipe(&xml)
        } else {
            content = VaultXMLWriter.write(vault, version: version, headerHash: SHA256.hash(headerBytes), stream: &stream)
        }
        defer { wipe(&content) }

        var compressed: [UInt8]
        if format.compression == .gzip {
            var deflater = Deflater(format: .gzip, level: options.compressionLevel)
            compressed = deflater.update(content[...])
            compressed.append(contentsOf: deflater.finish())
        } else {
            compressed = content
        }
        defer { wipe(&compressed) }

        var encryptor = try format.cipher.makeEncryptor(key: keys.cipherKey, iv: header.encryptionIV)
        var out = headerBytes
        if isKDBX4 {
            out.append(contentsOf: SHA256.hash(headerBytes))
            out.append(contentsOf: HMACBlockStream.headerHMAC(header: headerBytes, hmacKey: keys.hmacKey))
            var blocks = HMACBlockStream.Writer(hmacKey: keys.hmacKey, blockByteCount: options.blockByteCount)
            var start = 0
            while start < compressed.count {
                let end = min(start + PayloadPipeline.chunkByteCount, compressed.count)
                blocks.write(encryptor.update(compressed[start..<end])[...], into: &out)
                start = end
            }
            do { blocks.write(try encryptor.finalize()[...], into: &out) } catch {
                throw KDBXError(.invalidModel, "the payload cipher failed")
            }
            blocks.finish(into: &out)
        } else {
            var plain = header.streamStartBytes!
            plain.append(contentsOf: HashedBlockStream.write(compressed, blockByteCount: options.blockByteCount))
            defer { wipe(&plain) }
            var start = 0
            while start < plain.count {
                let end = min(start + PayloadPipeline.chunkByteCount, plain.count)
                out.append(contentsOf: encryptor.update(plain[start..<end]))
                start = end
            }
            do { out.append(contentsOf: try encryptor.finalize()) } catch {
                throw KDBXError(.invalidModel, "the payload cipher failed")
            }
        }
        return out
    }
}
