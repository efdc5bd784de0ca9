import Foundation
import MyPassBytes
import MyPassCompression
import MyPassCrypto
import MyPassXML

/// `mypass-bench primitives`: throughput of each primitive, beside OpenSSL, zlib and xmllint.
enum PrimitivesCommand {
    static let usage = """
    USAGE: mypass-bench primitives [--size BYTES] [--runs N] [--xml FILE] [--compare] [--json]

      Times each primitive on a buffer (default 4 MiB; the XML payload is a synthetic ~5 MB KeePass
      document unless --xml names one). --compare runs openssl speed, Python's zlib and xmllint
      --stream side by side. OpenSSL runs as users have it (OPENSSL_ia32cap unset: AES-NI, SHA-NI,
      AVX-512), the reference of the ratio, and for the rows that name one with a hardware path
      masked off as well (the note gives that figure and ratio). The AES, SHA-2, ChaCha20 and
      Salsa20 rows name the backend they ran on; MYPASS_CRYPTO_BACKEND=portable times the portable
      code.
    """

    static func run(_ args: inout BenchArguments) throws {
        let size: Int = try args.integer("size", default: 4 << 20)
        let runs: Int = try args.integer("runs", default: 5)
        let json = args.flag("json"), compare = args.flag("compare")
        let xmlPath = args.value("xml")
        try args.checkAllConsumed()
        let data = SecureRandom.bytes(count: size)
        let key = SecureRandom.bytes(count: 32), iv16 = SecureRandom.bytes(count: 16), nonce12 = SecureRandom.bytes(count: 12)
        var report = Report(title: "primitives (\(size) byte buffers, median of \(runs) runs, \(Timing.clock.rawValue) time)")
        report.extra["crypto backends"] = CryptoBackend.summary

        func throughput(_ name: String, bytes: Int = size, _ body: () throws -> Void) rethrows -> Measurement {
            Progress.say(name)
            let seconds = try Timing.samples(runs: runs, body)
            return Measurement(name: name, readings: seconds.map { Double(bytes) / $0 / 1e6 }, unit: "MB/s", higherIsBetter: true)
        }
        // openssl speed runs a second each, so it gets three readings (each beside an unmasked one).
        let opensslRuns = min(runs, 3)
        func openssl(_ row: inout Measurement, _ algorithm: String, _ masks: [ReferenceTools.OpenSSLMask], decrypt: Bool = false,
                     perUnit: Double = 1e6) throws {
            guard compare else { return }
            Progress.say("openssl speed \(algorithm), native and \(masks.map(\.label).joined(separator: ", "))")
            guard let speed = try ReferenceTools.opensslSpeedMedians(algorithm, masks: masks, decrypt: decrypt, runs: opensslRuns) else {
                if !report.missingTools.contains("openssl not found") { report.missingTools.append("openssl not found") }
                return
            }
            row.setReference("OpenSSL \(algorithm)\(decrypt ? " -decrypt" : ""), native", readings: speed.native.map { $0 / perUnit })
            let nativeMedian = Timing.medianOf(speed.native)
            row.note = zip(masks, speed.masked).map { mask, readings in
                let median = Timing.medianOf(readings)
                return "vs OpenSSL \(mask.label): " + String(format: "%.0f", median / perUnit) + " " + row.unit
                    + String(format: ", %.2fx", row.value * perUnit / median)
                    + (median < 0.9 * nativeMedian ? "" : " (MASK HAD NO EFFECT)")
            }.joined(separator: "; ")
        }

        var sha256 = throughput("SHA-256 [\(CryptoBackend.sha256)]") { _ = SHA256.hash(data) }
        try openssl(&sha256, "sha256", [.noSHA, .noAVX])
        report.rows.append(sha256)
        var sha512 = throughput("SHA-512 [\(CryptoBackend.sha512)]") { _ = SHA512.hash(data) }
        try openssl(&sha512, "sha512", [.noAVX])
        report.rows.append(sha512)
        report.rows.append(throughput("HMAC-SHA-256 [\(CryptoBackend.sha256)]") { _ = HMAC<SHA256>.authenticationCode(for: data, key: key) })
        var blake = throughput("BLAKE2b-512") { _ = BLAKE2b.hash(data, outputByteCount: 64) }
        try openssl(&blake, "blake2b512", [])
        report.rows.append(blake)

        var ciphertext: [UInt8] = []
        var aesEncrypt = try throughput("AES-256-CBC encrypt [\(CryptoBackend.aes)]") { ciphertext = try AESCBC.encrypt(data, key: key, iv: iv16) }
        try openssl(&aesEncrypt, "aes-256-cbc", [.noAESNI])
        report.rows.append(aesEncrypt)
        var aesDecrypt = try throughput("AES-256-CBC decrypt [\(CryptoBackend.aes)]") { _ = try AESCBC.decrypt(ciphertext, key: key, iv: iv16) }
        try openssl(&aesDecrypt, "aes-256-cbc", [.noAESNI], decrypt: true)
        report.rows.append(aesDecrypt)

        let rounds: UInt64 = 200_000
        Progress.say("AES-KDF")
        let kdfSeconds = try Timing.samples(runs: runs) { _ = try AESKDF.transform(key: key, seed: iv16 + iv16, rounds: rounds) }
        var kdf = Measurement(name: "AES-KDF (32 bytes of AES-256-ECB a round) [\(CryptoBackend.aes)]",
                              readings: kdfSeconds.map { Double(rounds) / $0 }, unit: "rounds/s", higherIsBetter: true)
        try openssl(&kdf, "aes-256-ecb", [.noAESNI], perUnit: 32)
        report.rows.append(kdf)

        var chacha = try throughput("ChaCha20 [\(CryptoBackend.chacha20)]") {
            var cipher = try ChaCha20(key: key, nonce: nonce12)
            var buffer = data
            cipher.apply(to: &buffer)
        }
        try openssl(&chacha, "chacha20", [.noAVX])
        report.rows.append(chacha)
        report.rows.append(try throughput("Salsa20 [\(CryptoBackend.salsa20)]") {
            var cipher = try Salsa20(key: key, nonce: Array(nonce12.prefix(8)))
            var buffer = data
            cipher.apply(to: &buffer)
        })
        report.rows.append(try throughput("Twofish-256-CBC encrypt") {
            var cipher = try TwofishCBCEncryptor(key: key, iv: iv16)
            _ = cipher.update(data[...])
            _ = try cipher.finalize()
        })

        Progress.say("Argon2d")
        let argonParameters = Argon2.Parameters(variant: .argon2d, version: 0x13, memoryKiB: 64 * 1024, iterations: 1,
                                                parallelism: 1, salt: Array("argon2-bench-salt".utf8))
        let argonSeconds = try Timing.samples(runs: runs) { _ = try Argon2.deriveKey(password: key, parameters: argonParameters) }
        var argon = Measurement(name: "Argon2d 64 MiB, 1 lane, 1 pass", readings: argonSeconds.map { 64 / $0 }, unit: "MiB/s",
                                higherIsBetter: true)
        if compare {
            if let tool = ReferenceTools.find("argon2") {
                Progress.say("argon2 CLI")
                let seconds = try ReferenceTools.median(runs: runs, tool, ["argon2-bench-salt", "-d", "-t", "1", "-k", "65536", "-p", "1", "-r"],
                                                        input: key).samples
                argon.setReference("argon2 CLI, whole process", readings: seconds.map { 64 / $0 })
            } else { report.missingTools.append("argon2 not found (Debian package argon2)") }
        }
        report.rows.append(argon)

        let xml: [UInt8]
        if let xmlPath { xml = try readInput(xmlPath, what: "XML file") } else { xml = SyntheticVault.xml(entries: 5000) }
        let compressed = Gzip.compress(xml)
        var inflate = try throughput("inflate (gzip, KeePass XML)", bytes: xml.count) { _ = try Gzip.decompress(compressed) }
        if compare {
            if let zlib = try ReferenceTools.pythonZlib(compressed, decompress: true, runs: runs) {
                inflate.setReference("zlib \(zlibVersion())", readings: zlib.map { $0 / 1e6 })
            } else { report.missingTools.append("python3 not found (for zlib)") }
        }
        report.rows.append(inflate)
        var deflate = throughput("deflate level 6 (KeePass XML)", bytes: xml.count) { _ = Gzip.compress(xml, level: 6) }
        if compare, let zlib = try ReferenceTools.pythonZlib(xml, decompress: false, level: 6, runs: runs) {
            deflate.setReference("zlib level 6", readings: zlib.map { $0 / 1e6 })
        }
        report.rows.append(deflate)
        if compare, let zlibSize = try? ReferenceTools.run(ReferenceTools.find("python3") ?? "/usr/bin/python3",
            ["-c", "import sys,zlib; print(len(zlib.compress(sys.stdin.buffer.read(), 6)))"], input: xml).stdout {
            report.extra["deflate size vs zlib 6"] = "\(compressed.count) vs \(zlibSize.trimmingCharacters(in: .whitespacesAndNewlines)) bytes (gzip adds 12 bytes of framing)"
        }

        var tokenize = try throughput("XML tokenize (KeePass XML)", bytes: xml.count) {
            var tokenizer = XMLTokenizer(limits: XMLLimits(), skipsWhitespaceText: true)
            tokenizer.feed(xml[...])
            tokenizer.finish()
            while try tokenizer.next() != nil {}
        }
        if compare {
            if let xmllint = ReferenceTools.find("xmllint") {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-bench-\(getpid()).xml")
                try Data(xml).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let seconds = try ReferenceTools.median(runs: runs, xmllint, ["--stream", "--noout", file.path]).samples
                tokenize.setReference("xmllint --stream (whole process)", readings: seconds.map { Double(xml.count) / $0 / 1e6 })
            } else { report.missingTools.append("xmllint not found (Debian package libxml2-utils)") }
        }
        report.rows.append(tokenize)
        report.extra["XML payload"] = "\(xml.count) bytes"
        report.print(json: json)
    }

    static func zlibVersion() -> String {
        guard let python = ReferenceTools.find("python3"),
              let output = try? ReferenceTools.run(python, ["-c", "import zlib; print(zlib.ZLIB_VERSION)"])
        else { return "" }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A deterministic KeePass-shaped XML document for timing the tokenizer and compressor.
enum SyntheticVault {
    static func xml(entries: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<KeePassFile>\n\t<Meta>\n\t\t<Generator>mypass-bench</Generator>\n\t</Meta>\n\t<Root>\n\t\t<Group>\n\t\t\t<UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID>\n\t\t\t<Name>Root</Name>\n"
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        for index in 0..<entries {
            let uuid = Base64.encode((0..<16).map { _ in UInt8(truncatingIfNeeded: next()) })
            let secret = Base64.encode((0..<12).map { _ in UInt8(truncatingIfNeeded: next()) })
            text += """
            \t\t\t<Entry>
            \t\t\t\t<UUID>\(uuid)</UUID>
            \t\t\t\t<IconID>0</IconID>
            \t\t\t\t<ForegroundColor />
            \t\t\t\t<BackgroundColor />
            \t\t\t\t<OverrideURL />
            \t\t\t\t<Tags>work;site-\(index % 17)</Tags>
            \t\t\t\t<Times>
            \t\t\t\t\t<CreationTime>2Kn32Q4AAAA=</CreationTime>
            \t\t\t\t\t<LastModificationTime>2Kn32Q4AAAA=</LastModificationTime>
            \t\t\t\t\t<LastAccessTime>2Kn32Q4AAAA=</LastAccessTime>
            \t\t\t\t\t<ExpiryTime>2Kn32Q4AAAA=</ExpiryTime>
            \t\t\t\t\t<Expires>False</Expires>
            \t\t\t\t\t<UsageCount>\(index % 9)</UsageCount>
            \t\t\t\t\t<LocationChanged>2Kn32Q4AAAA=</LocationChanged>
            \t\t\t\t</Times>
            \t\t\t\t<String>
            \t\t\t\t\t<Key>Notes</Key>
            \t\t\t\t\t<Value>Account \(index) &amp; notes with &lt;markup&gt; and ünïcödé text.</Value>
            \t\t\t\t</String>
            \t\t\t\t<String>
            \t\t\t\t\t<Key>Password</Key>
            \t\t\t\t\t<Value Protected="True">\(secret)</Value>
            \t\t\t\t</String>
            \t\t\t\t<String>
            \t\t\t\t\t<Key>Title</Key>
            \t\t\t\t\t<Value>Site \(index)</Value>
            \t\t\t\t</String>
            \t\t\t\t<String>
            \t\t\t\t\t<Key>URL</Key>
            \t\t\t\t\t<Value>https://site\(index).example.com/login</Value>
            \t\t\t\t</String>
            \t\t\t\t<String>
            \t\t\t\t\t<Key>UserName</Key>
            \t\t\t\t\t<Value>user\(index)@example.com</Value>
            \t\t\t\t</String>
            \t\t\t\t<AutoType>
            \t\t\t\t\t<Enabled>True</Enabled>
            \t\t\t\t\t<DataTransferObfuscation>0</DataTransferObfuscation>
            \t\t\t\t</AutoType>
            \t\t\t\t<History />
            \t\t\t</Entry>

            """
        }
        text += "\t\t</Group>\n\t\t<DeletedObjects />\n\t</Root>\n</KeePassFile>\n"
        return Array(text.utf8)
    }
}
