import Foundation
import MyPassBytes
import MyPassKDBX
import MyPassXML

/// `mypass-bench xml FILE.xml`: the tokenizer alone on a plain XML file, fed in chunks the way
/// the vault readers feed it; and `--extract VAULT`, which writes a vault's decrypted inner XML
/// to a file for it.
enum XMLCommand {
    static let usage = """
    USAGE: mypass-bench xml FILE.xml [--runs N] [--chunk BYTES] [--json]
           mypass-bench xml --extract VAULT --out FILE.xml [--password TEXT | --no-password] [--keyfile PATH]

      Tokenizes FILE.xml (read into memory first) with XMLTokenizer's defaults, as the vault
      readers do (default limits, white space text reported), fed in --chunk bytes (default
      4096) with every event pulled after each chunk. Reports the median of --runs (default 7,
      after one warm-up) in MB/s (10^6 bytes of XML per second, on --clock), and the event count.
      --extract opens VAULT (the password from standard input unless given) and writes its
      decrypted, decompressed XML body (KDBX 4: after the inner header) to --out, unchanged:
      protected values stay as their inner-stream base64. The file holds the vault's plaintext
      structure: write it outside the repository and remove it after use.
    """

    static func run(_ args: inout BenchArguments) throws {
        if let vault = args.value("extract") {
            try extract(vault, &args)
            return
        }
        guard let path = args.positionals.dropFirst().first else { throw BenchError.usage("xml needs a FILE.xml") }
        let runs: Int = try args.integer("runs", default: 7)
        let chunk: Int = try args.integer("chunk", default: 4096)
        let json = args.flag("json")
        try args.checkAllConsumed()
        guard chunk > 0 else { throw BenchError.usage("--chunk takes a positive number of bytes") }
        let xml = try readInput(path, what: "XML file")
        var events = 0
        var failure: XMLError?
        let samples = Timing.samples(runs: runs) {
            (events, failure) = tokenize(xml, chunk: chunk)
        }
        if let failure { throw BenchError.failure("\(path): \(failure)") }
        var report = Report(title: "xml \(path) (\(xml.count) bytes, \(chunk)-byte chunks), medians of \(runs) runs, \(Timing.clock.rawValue) time")
        report.rows.append(Measurement(
            name: "XML tokenize", readings: samples.map { Double(xml.count) / $0 / 1e6 }, unit: "MB/s", higherIsBetter: true))
        report.extra["events"] = "\(events)"
        report.print(json: json)
    }

    /// Tokenizes `xml` fed in `chunk`-byte pieces; the number of events and the error, if any.
    static func tokenize(_ xml: [UInt8], chunk: Int) -> (Int, XMLError?) {
        var tokenizer = XMLTokenizer()
        var count = 0
        var start = 0
        do throws(XMLError) {
            while start < xml.count {
                let end = min(start + chunk, xml.count)
                tokenizer.feed(xml[start..<end])
                while try tokenizer.next() != nil { count += 1 }
                start = end
            }
            tokenizer.finish()
            while try tokenizer.next() != nil { count += 1 }
        } catch {
            return (count, error)
        }
        return (count, nil)
    }

    /// Writes the decrypted inner XML of a vault to `--out`.
    static func extract(_ vault: String, _ args: inout BenchArguments) throws {
        guard let out = args.value("out") else { throw BenchError.usage("--extract needs --out FILE.xml") }
        let noPassword = args.flag("no-password")
        var password = args.value("password")
        let keyFilePath = args.value("keyfile")
        try args.checkAllConsumed()
        if password == nil && !noPassword { password = readLine(strippingNewline: true) ?? "" }
        let keyFile = try keyFilePath.map { try readInput($0, what: "key file") }
        let key = try CompositeKey(password: password.map { ProtectedString($0) }, keyFileContents: keyFile)
        let reader = try KDBXReader(file: try readInput(vault, what: "vault"))
        let keys = try reader.deriveKeys(key)
        var content = try reader.decompress(try reader.decryptPayload(keys: keys))
        defer { wipe(&content) }
        var body = content[...]
        if reader.header.version.isKDBX4 {
            var parser = InnerHeader.Parser(limits: reader.limits)
            guard let rest = try parser.feed(content[...]) else {
                throw BenchError.failure("\(vault): the inner header does not end")
            }
            body = rest
        }
        try Data(body).write(to: URL(fileURLWithPath: out))
        print("wrote \(out): \(body.count) bytes of XML")
    }
}
