import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassHealth
import MyPassTestSupport
import Testing

/// The HIBP readers on files made here: every hash found with its count, absent ones 0, in either
/// line ending and case; and damaged files (cut, unsorted, malformed, NTLM) refused naming the line,
/// never answered with a wrong 0.
@Suite("Pwned Passwords lists")
struct PwnedPasswordsTests {
    /// A sorted list: `chosen` (password and count) plus `fillers` random hashes (count 1-999).
    struct List {
        var lines: [(hash: [UInt8], count: Int64)]
        var chosen: [String: Int64]

        init(chosen: [String: Int64], fillers: Int, seed: UInt64 = 1) {
            var random = StrengthCorpus.Generator(state: seed)
            var lines: [(hash: [UInt8], count: Int64)] = chosen.map { (SHA1.hash(Array($0.key.utf8)), $0.value) }
            for _ in 0..<fillers {
                lines.append(((0..<20).map { _ in UInt8(truncatingIfNeeded: random.next()) }, Int64(1 + random.below(999))))
            }
            self.lines = lines.sorted { $0.hash.lexicographicallyPrecedes($1.hash) }
            self.chosen = chosen
        }

        /// The file's bytes: `HASH:COUNT` lines.
        func bytes(crlf: Bool = false, lowercase: Bool = false, finalNewline: Bool = true) -> [UInt8] {
            let ending = crlf ? "\r\n" : "\n"
            var text = lines.map { hexString($0.hash).uppercased() + ":\($0.count)" }
                .map { lowercase ? $0.lowercased() : $0 }.joined(separator: ending)
            if finalNewline { text += ending }
            return Array(text.utf8)
        }
    }

    static func write(_ bytes: [UInt8], in scratch: URL, name: String = "hibp.txt") throws -> String {
        let url = scratch.appendingPathComponent(name)
        try writeWithoutSync(bytes, to: url)
        return url.path
    }

    /// Writes a file without Foundation's `fsync` (thousands of small files stay in the page cache).
    static func writeWithoutSync(_ bytes: [UInt8], to url: URL) throws {
        guard let file = fopen(url.path, "wb") else { throw CocoaError(.fileWriteUnknown) }
        defer { fclose(file) }
        guard bytes.isEmpty || fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-hibp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func count(_ list: any PwnedPasswordsSource, _ password: String) throws -> Int64 {
        try list.occurrences(of: ProtectedString(password))
    }

    static let chosen: [String: Int64] = [
        "password": 9_545_824, "123456": 37_359_195, "correct horse battery staple": 4, "pässwörd-日本語-🔑": 1,
        "": 7, String(repeating: "long-", count: 60): 2,
    ]

    @Test("the hashes of a 20,000-line list are found with their counts; absent ones give 0; LF, CRLF, lower case, no final newline",
          arguments: [(false, false, true), (true, false, true), (false, true, false), (true, true, false)])
    func everyLineFound(_ format: (crlf: Bool, lowercase: Bool, finalNewline: Bool)) throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let list = List(chosen: Self.chosen, fillers: 20_000)
        let path = try Self.write(list.bytes(crlf: format.crlf, lowercase: format.lowercase, finalNewline: format.finalNewline), in: scratch)
        let file = try PwnedPasswordsFile(path: path)
        for (password, expected) in Self.chosen {
            #expect(try Self.count(file, password) == expected, "\(password.prefix(20))")
        }
        // Every 7th line, the first and the last (each lookup scans about 270 lines).
        for (index, line) in list.lines.enumerated() where index % 7 == 0 || index == list.lines.count - 1 {
            let found = try line.hash.withUnsafeBytes { try file.occurrences(ofSHA1: $0) }
            #expect(found == line.count)
        }
        var random = StrengthCorpus.Generator(state: 99)
        for _ in 0..<500 {
            let absent = (0..<20).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(try absent.withUnsafeBytes { try file.occurrences(ofSHA1: $0) } == 0)
        }
        // Below the first line and above the last.
        #expect(try [UInt8](repeating: 0, count: 20).withUnsafeBytes { try file.occurrences(ofSHA1: $0) } == 0)
        #expect(try [UInt8](repeating: 0xFF, count: 20).withUnsafeBytes { try file.occurrences(ofSHA1: $0) } == 0)
        #expect(try file.verify() == list.lines.count)
        // Through the opener, as the CLI opens it.
        #expect(try Self.count(try PwnedPasswords.open(path), "password") == 9_545_824)
    }

    @Test("a one-line and a two-line list")
    func tinyLists() throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for chosen in [["password": Int64(3)], ["password": 3, "secret": 5]] {
            let path = try Self.write(List(chosen: chosen, fillers: 0).bytes(), in: scratch)
            let file = try PwnedPasswordsFile(path: path)
            for (password, count) in chosen { #expect(try Self.count(file, password) == count) }
            #expect(try Self.count(file, "absent") == 0)
        }
    }

    /// A list's error: its code and line (nil when no error was thrown).
    static func failure(_ body: () throws -> Void) -> (HealthError.Code, Int?)? {
        do {
            try body()
            return nil
        } catch let error as HealthError {
            return (error.code, error.line)
        } catch {
            return nil
        }
    }

    @Test("damaged lists are refused at open, naming the line: empty, cut last line, malformed line, NTLM, reversed order")
    func damagedAtOpen() throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let list = List(chosen: Self.chosen, fillers: 3_000)
        let good = list.bytes()
        func open(_ bytes: [UInt8]) -> (HealthError.Code, Int?)? {
            Self.failure { _ = try PwnedPasswordsFile(path: try Self.write(bytes, in: scratch)) }
        }
        #expect(open([])! == (.malformedBreachList, nil))
        #expect(open(Array("\n\n".utf8))! == (.malformedBreachList, nil))
        // Cut in the last line's hash, or after its colon.
        let lineCount = list.lines.count
        #expect(open(Array(good.dropLast(30)))! == (.truncatedBreachList, lineCount))
        let lastColon = good.lastIndex(of: UInt8(ascii: ":"))!
        #expect(open(Array(good[...lastColon]))! == (.truncatedBreachList, lineCount))
        // The first line malformed; the NTLM list (32 hex digits).
        var first = good
        first[3] = UInt8(ascii: "G")
        #expect(open(first)! == (.malformedBreachList, 1))
        let ntlm = Array("8846F7EAEE8FB117AD06BDD830B7586C:2\n".utf8)
        let error = try #require(Self.failureError { _ = try PwnedPasswordsFile(path: try Self.write(ntlm, in: scratch)) })
        #expect(error.code == .malformedBreachList && error.reason.contains("NTLM"))
        // Reversed: the sampled lines descend.
        let reversed = Array(list.bytes().split(separator: 0x0A).reversed().joined(separator: [0x0A])) + [0x0A]
        let unsorted = try #require(open(reversed))
        #expect(unsorted.0 == .unsortedBreachList && unsorted.1 != nil)
        // A folder that is not a range folder; a missing file.
        #expect(Self.failure { _ = try PwnedPasswords.open(scratch.path) }!.0 == .truncatedBreachList)
        #expect(Self.failure { _ = try PwnedPasswords.open(scratch.appendingPathComponent("nothing").path) }!.0 == .io)
    }

    static func failureError(_ body: () throws -> Void) -> HealthError? {
        do {
            try body()
            return nil
        } catch {
            return error as? HealthError
        }
    }

    @Test("a damaged line where a lookup reads is an error naming it, never a wrong 0: every line corrupted in turn near the chosen hashes")
    func damagedWhereSearched() throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let list = List(chosen: ["password": 42, "letmein": 7], fillers: 5_000)
        let lines = list.lines.map { hexString($0.hash).uppercased() + ":\($0.count)" }
        let target = lines.firstIndex { $0.hasPrefix(hexString(SHA1.hash(Array("password".utf8))).uppercased()) }!
        var wrong = 0, refused = 0, right = 0
        // Swap the target with a neighbour, move it a few lines, or corrupt a nearby line.
        for distance in [1, 2, 5, 20, 60] {
            for direction in [-1, 1] {
                let other = target + direction * distance
                guard lines.indices.contains(other) else { continue }
                var moved = lines
                let line = moved.remove(at: target)
                moved.insert(line, at: other)
                var corrupted = lines
                corrupted[other] = "ZZ" + corrupted[other].dropFirst(2)
                for variant in [moved, corrupted] {
                    let path = try Self.write(Array((variant.joined(separator: "\n") + "\n").utf8), in: scratch)
                    do {
                        let count = try Self.count(try PwnedPasswordsFile(path: path), "password")
                        if count == 42 { right += 1 } else { wrong += 1 }
                    } catch let error as HealthError {
                        refused += 1
                        #expect(error.line != nil, "\(error)")
                        #expect([.unsortedBreachList, .malformedBreachList].contains(error.code))
                    }
                }
            }
        }
        #expect(wrong == 0, "\(wrong) wrong answers, \(refused) refused, \(right) right")
        #expect(refused > 0)
        // The line an error names is the damaged one: line N of the file, 1-based.
        var corrupted = lines
        corrupted[target + 1] = String(corrupted[target + 1].prefix(39)) + ":x"
        let path = try Self.write(Array((corrupted.joined(separator: "\n") + "\n").utf8), in: scratch)
        let error = try #require(Self.failureError { _ = try Self.count(try PwnedPasswordsFile(path: path), "password") })
        #expect(error.code == .malformedBreachList && error.line == target + 2, "\(error)")
        #expect(!error.description.contains(lines[target + 1].prefix(39)), "the error quotes no line")
        // verify() finds a swap far from any search.
        var swapped = lines
        swapped.swapAt(100, 101)
        let far = try Self.write(Array((swapped.joined(separator: "\n") + "\n").utf8), in: scratch)
        let verified = try #require(Self.failureError { _ = try PwnedPasswordsFile(path: far).verify() })
        #expect(verified.code == .unsortedBreachList && verified.line == 102)
    }

    @Test("a range folder: found in its prefix's file, 35-digit suffixes and full hashes, padding counts of 0; missing, unsorted and foreign lines refused")
    func rangeFolder() throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let list = List(chosen: Self.chosen, fillers: 4_000)
        var byPrefix: [String: [String]] = [:]
        for (index, line) in list.lines.enumerated() {
            let hex = hexString(line.hash).uppercased()
            let text = index % 7 == 0 ? "\(hex):\(line.count)" : "\(hex.dropFirst(5)):\(line.count)"
            byPrefix[String(hex.prefix(5)), default: []].append(text)
        }
        // The first and last files exist (padding only), as in a full download.
        byPrefix["00000", default: []].insert("00000000000000000000000000000000000:0", at: 0)
        byPrefix["FFFFF", default: []].append("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:0")
        for (prefix, lines) in byPrefix {
            try Self.writeWithoutSync(Array((lines.joined(separator: "\r\n") + "\r\n").utf8), to: scratch.appendingPathComponent(prefix + ".txt"))
        }
        let folder = try PwnedPasswords.open(scratch.path)
        #expect(folder is PwnedPasswordsRangeFolder)
        for (password, count) in Self.chosen { #expect(try Self.count(folder, password) == count) }
        for line in list.lines.prefix(500) {
            #expect(try line.hash.withUnsafeBytes { try folder.occurrences(ofSHA1: $0) } == line.count)
        }
        // A prefix without a file: refused, and the error names no prefix.
        var random = StrengthCorpus.Generator(state: 5)
        var missing: [UInt8] = []
        repeat {
            missing = (0..<20).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        } while byPrefix[String(hexString(missing).uppercased().prefix(5))] != nil
        let error = try #require(Self.failureError { _ = try missing.withUnsafeBytes { try folder.occurrences(ofSHA1: $0) } })
        #expect(error.code == .truncatedBreachList)
        #expect(!error.description.contains(String(hexString(missing).uppercased().prefix(5))))
        // The password's file out of order, or holding another prefix's hash, or cut.
        let hex = hexString(SHA1.hash(Array("password".utf8))).uppercased()
        let file = scratch.appendingPathComponent(String(hex.prefix(5)) + ".txt")
        let original = byPrefix[String(hex.prefix(5))]!
        for (damaged, code) in [
            (original + ["00000000000000000000000000000000001:1"], HealthError.Code.unsortedBreachList),
            (original + ["0000000000000000000000000000000000000001:1"], .malformedBreachList),
            (original + ["ZZ"], .malformedBreachList),
        ] {
            try Self.writeWithoutSync(Array((damaged.joined(separator: "\n") + "\n").utf8), to: file)
            let failure = try #require(Self.failureError { _ = try Self.count(folder, "password") })
            #expect(failure.code == code && failure.line == damaged.count, "\(failure)")
        }
        try Self.writeWithoutSync(Array((original.joined(separator: "\n") + "\n" + String(hex.dropFirst(5).prefix(20))).utf8), to: file)
        #expect(Self.failureError { _ = try Self.count(folder, "password") }?.code == .truncatedBreachList)
    }
}
