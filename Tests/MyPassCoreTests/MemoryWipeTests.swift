#if os(Linux)
import MyPassBytes
import MyPassCompression
import MyPassCore
import MyPassKDBX
import MyPassXML
import Testing

/// Buffers that held a secret or decrypted XML are zeroed before they are freed: each test puts a
/// fresh random marker through one component, releases it, and scans this process's readable
/// memory (`/proc/self/mem`) for the marker (issue 20; the whole-program check is the CLI's
/// `memoryAfterLock` test). Markers are random per run, so no copy exists in the binary, and the
/// scanner holds them masked.
@Suite("Memory: inflater and deflater windows, XML writer and tokenizer buffers, generator, composite key and key file leave no copy")
struct MemoryWipeTests {
    /// Fills `clear` with a random marker of `count` bytes drawn from `alphabet` and returns it as
    /// a masked needle; the caller wipes `clear` once it is used.
    static func marker(_ count: Int, alphabet: [UInt8], into clear: inout [UInt8]) -> ProcessMemoryScan.Needle {
        clear = [UInt8](repeating: 0, count: count)
        for index in 0..<count { clear[index] = alphabet[SecureRandom.uniform(below: alphabet.count)] }
        return clear.withUnsafeBytes { ProcessMemoryScan.Needle(name: "marker", clear: $0) }
    }

    static let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    static func occurrences(_ needle: ProcessMemoryScan.Needle) throws -> Int {
        try #require(ProcessMemoryScan.occurrences(of: [needle])).first!
    }

    @Test("the scanner finds a marker that is in memory (so that a zero below means something)")
    func scannerFinds() throws {
        var clear: [UInt8] = []
        let needle = Self.marker(48, alphabet: Self.letters, into: &clear)
        let kept = SecureBytes(clear)
        wipe(&clear)
        #expect(try Self.occurrences(needle) >= 1)
        withExtendedLifetime(kept) {}
        _ = consume kept
        #expect(try Self.occurrences(needle) == 0)
    }

    @Test("an inflater's window is zeroed when the stream ends")
    @inline(never)
    func inflaterWindow() throws {
        var data: [UInt8] = []
        let needle = Self.marker(4096, alphabet: Self.letters, into: &data)
        // One stored DEFLATE block (RFC 1951 §3.2.4): the marker reaches the window verbatim.
        var stream: [UInt8] = [0x01, UInt8(data.count & 0xFF), UInt8(data.count >> 8),
                               UInt8(~data.count & 0xFF), UInt8((~data.count >> 8) & 0xFF)] + data
        wipe(&data)
        do {
            var inflater = Inflater(format: .raw)
            var output = try inflater.update(stream)
            wipe(&stream)
            var count = output.count
            wipe(&output)
            // Positive control: with input and output wiped, the inflater's window still holds
            // the marker before the stream ends (so the zero below is the wipe's doing).
            #expect(try Self.occurrences(needle.prefix(32)) >= 1)
            var tail = try inflater.finish()
            count += tail.count
            wipe(&tail)
            #expect(count == 4096)
        }
        #expect(try Self.occurrences(needle.prefix(32)) == 0)
    }

    @Test("a deflater's window and symbol buffer are zeroed when it is released", arguments: [0, 6])
    @inline(never)
    func deflaterWindow(level: Int) throws {
        // Random letters do not repeat, so deflate keeps them as literals: in its window, in its
        // symbol buffer (levels 1-9) and, stored verbatim, in its input and output buffers (level 0).
        var data: [UInt8] = []
        let needle = Self.marker(8192, alphabet: Self.letters, into: &data)
        do {
            var deflater = Deflater(format: .gzip, level: level)
            var output = deflater.update(data)
            wipe(&data)
            var count = output.count
            wipe(&output)
            // Positive control: with input and output wiped, the deflater still holds the
            // literals before it finishes (so the zero below is the wipe's doing).
            #expect(try Self.occurrences(needle.prefix(32)) >= 1)
            var tail = deflater.finish()
            count += tail.count
            wipe(&tail)
            #expect(count > 8192 / 2)
        }
        #expect(try Self.occurrences(needle.prefix(32)) == 0)
    }

    @Test("an XML writer's output buffer is zeroed when it grows, so only the bytes taken hold the text")
    @inline(never)
    func xmlWriterOutput() throws {
        var text: [UInt8] = []
        _ = Self.marker(40, alphabet: Self.letters, into: &text)
        // The text with the markup before it: only the writer's output has that (the String
        // handed to it, which cannot be wiped, holds the text alone).
        var written = Array("<Value>".utf8) + text
        let needle = written.withUnsafeBytes { ProcessMemoryScan.Needle(name: "written", clear: $0) }
        wipe(&written)
        do {
            var writer = XMLWriter()
            writer.startElement("Root")
            // Written first, then moved each time the buffer grows (96, 192, 384, 768 KiB, ...).
            writer.writeElement("Value", text: String(decoding: text, as: UTF8.self))
            wipe(&text)
            for index in 0..<60_000 { writer.writeElement("Item", text: String(index)) }
            var output = writer.finish()
            #expect(output.count > 1_000_000)
            #expect(try Self.occurrences(needle) == 1)  // the output taken, and nothing else
            wipe(&output)
        }
        #expect(try Self.occurrences(needle) == 0)
    }

    @Test("a tokenizer's input buffer is zeroed when it is released")
    @inline(never)
    func tokenizerBuffer() throws {
        // White space between elements is skipped (never becomes a String): only the buffer holds it.
        var blank: [UInt8] = []
        let needle = Self.marker(96, alphabet: Array(" \t\n".utf8), into: &blank)
        var document = Array("<a><b/>".utf8) + blank + Array("<c/></a>".utf8)
        wipe(&blank)
        do {
            var tokenizer = XMLTokenizer(skipsWhitespaceText: true)
            tokenizer.feed(document)
            wipe(&document)
            tokenizer.finish()
            var events = 0
            while try tokenizer.next() != nil { events += 1 }
            #expect(events == 6)
            // Positive control: the live tokenizer's buffer still holds the white space.
            withExtendedLifetime(tokenizer) {
                #expect((try? Self.occurrences(needle)) ?? 0 >= 1)
            }
        }
        #expect(try Self.occurrences(needle) == 0)
    }

    @Test("a generated password exists only in its ProtectedString")
    @inline(never)
    func generatorLeavesNoCopy() throws {
        var needle: ProcessMemoryScan.Needle?
        do {
            let password = try PasswordGenerator.generate(PasswordGeneratorOptions(length: 64))
            // The first 24 bytes: a buffer outgrown while the password was built would hold a prefix.
            needle = password.withRevealedBytes { ProcessMemoryScan.Needle(name: "password", clear: UnsafeRawBufferPointer(rebasing: $0.prefix(24))) }
        }
        #expect(try Self.occurrences(try #require(needle)) == 0)
    }

    @Test("a generated passphrase exists only in its ProtectedString (its buffer is reserved up front, never outgrown)")
    @inline(never)
    func passphraseLeavesNoCopy() throws {
        var needle: ProcessMemoryScan.Needle?
        do {
            let passphrase = try PassphraseGenerator.generate(words: 12, separator: "-")
            // The first 24 bytes span several words and separators: the word list holds each word
            // alone, so only a copy of the passphrase matches.
            needle = passphrase.withRevealedBytes { ProcessMemoryScan.Needle(name: "passphrase", clear: UnsafeRawBufferPointer(rebasing: $0.prefix(24))) }
        }
        #expect(try Self.occurrences(try #require(needle)) == 0)
    }

    @Test("building a composite key leaves no copy of the password")
    @inline(never)
    func compositeKeyLeavesNoCopy() throws {
        var clear: [UInt8] = []
        let needle = Self.marker(40, alphabet: Self.letters, into: &clear)
        do {
            let password = ProtectedString(utf8Bytes: clear)
            wipe(&clear)
            let key = try CompositeKey(password: password, keyFileContents: nil)
            #expect(key.rawKey.count == 32)
        }
        #expect(try Self.occurrences(needle) == 0)
    }

    @Test("reading an XML key file leaves no copy of its key data")
    @inline(never)
    func keyFileLeavesNoCopy() throws {
        var needle: ProcessMemoryScan.Needle?
        do {
            let key = SecureBytes(SecureRandom.bytes(count: 32))
            var file = KeyFile.xmlVersion2(key: key)
            // The first two groups of hex digits as the file has them ("XXXXXXXX XXXXXXXX").
            let start = try #require(file.indices.first { file[$0...].starts(with: Array("\">\r\n\t\t\t".utf8)) }) + 7
            needle = file.withUnsafeBytes { ProcessMemoryScan.Needle(name: "key data", clear: UnsafeRawBufferPointer(rebasing: $0[start..<(start + 17)])) }
            let read = try KeyFile.read(wiping: &file)
            #expect(read.key == key)
        }
        #expect(try Self.occurrences(try #require(needle)) == 0)
    }
}

#endif
