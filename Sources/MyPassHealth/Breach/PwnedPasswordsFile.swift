/// Have I Been Pwned's Pwned Passwords as downloaded in one file, "ordered by hash": lines
/// `HASH:COUNT` (40 hex digits of the password's SHA-1, upper case in the real file, a colon, how
/// many times it was seen), sorted by hash, LF or CRLF, tens of gigabytes. This is the file
/// `keepassxc-cli analyze --hibp` reads.
///
/// A lookup is a binary search on byte offsets: each step reads a few hundred bytes around the
/// middle of the remaining range with `pread` and moves to the next line start; the last 4 KiB,
/// with 4 KiB on either side, are scanned line by line. About 30 reads per lookup on the full
/// list, a few kilobytes of memory, never the whole file. Nothing goes to the network.
///
/// Every line the search reads is checked: a malformed line is an error naming its line, and so is
/// a line out of order with those read before it (the search keeps the lines that bound the range
/// and each new line must fall between them), and the lines scanned around the place where the
/// hash belongs must ascend (a hash moved some lines from its place, or a misplaced line that
/// steered the search, breaks the order there). Opening also reads the first and last lines (a
/// file cut inside its last line is "truncated") and 64 lines spread over the file, which must
/// ascend. A file out of order only far from every place a search reads (one hash moved far away)
/// cannot be told from a sorted one without reading all of it: ``verify(progress:)`` does that.
///
/// Errors name the line (its number is counted only when an error is reported, by reading the file
/// up to it) and byte offset. Where a line lies tells roughly which hashes were searched, so an
/// error reveals a little of a password's SHA-1 (about as much as its range prefix), never the
/// password or the line's text.
public final class PwnedPasswordsFile: PwnedPasswordsSource {
    /// The file's path, as given.
    public var path: String { file.path }
    /// The bytes that hold lines: the file's size without trailing line feeds.
    public let contentByteCount: Int64

    private let file: ReadOnlyFile
    /// The last stretch read and scanned line by line instead of halved further.
    private static let windowBytes: Int64 = 4_096
    /// Lines read at evenly spaced offsets when the file is opened, to catch an unsorted file early.
    private static let openingSamples = 64

    /// A line read from the file: where it starts and ends (the offset after its line feed).
    private struct Line {
        var start: Int64
        var next: Int64
        var key: HashKey
        var count: Int64
    }

    /// Opens the file at `path` and checks its first and last lines and a sample of lines between.
    /// - Throws: ``HealthError`` `.io` (cannot open or read), `.malformedBreachList` (a line that
    ///   is not `HASH:COUNT`; an empty file), `.truncatedBreachList` (the last line cut short),
    ///   `.unsortedBreachList` (sampled lines not in ascending order).
    public init(path: String) throws(HealthError) {
        file = try ReadOnlyFile(path: path)
        // Trailing line feeds (and carriage returns) hold no line.
        var end = file.size
        while end > 0 {
            let tail = try file.read(at: max(0, end - 256), count: Int(min(256, end)))
            guard let last = tail.lastIndex(where: { $0 != 0x0A && $0 != 0x0D }) else {
                end -= Int64(tail.count)
                continue
            }
            end = end - Int64(tail.count) + Int64(last) + 1
            break
        }
        contentByteCount = end
        guard end > 0 else { throw HealthError(.malformedBreachList, "the file holds no HASH:COUNT line", file: path) }

        // The first line, the last line, and lines at evenly spaced offsets between: ascending.
        var previous = try line(startingAt: 0)
        var offsets: [Int64] = []
        for sample in 1...Self.openingSamples { offsets.append(end * Int64(sample) / Int64(Self.openingSamples + 1)) }
        for offset in offsets where offset > previous.start {
            guard let line = try line(after: offset, before: end), line.start > previous.start else { continue }
            try checkAscending(previous, line)
            previous = line
        }
        let last = try lastLine()
        if last.start > previous.start { try checkAscending(previous, last) }
    }

    /// How many times the password with SHA-1 `digest` (20 bytes) appears in the list; 0 when it
    /// does not.
    /// - Throws: ``HealthError`` `.io`, `.malformedBreachList`, `.unsortedBreachList` (a line read
    ///   out of order with the lines that bound the search), `.truncatedBreachList`.
    public func occurrences(ofSHA1 digest: UnsafeRawBufferPointer) throws(HealthError) -> Int64 {
        let target = HashKey(digest: digest)
        var low: Int64 = 0, high = contentByteCount
        var below: Line?, above: Line?
        while high - low > Self.windowBytes {
            let middle = low + (high - low) / 2
            guard let line = try line(after: middle, before: high) else { break }
            try checkBetween(line, below, above)
            if line.key < target {
                low = line.next
                below = line
            } else if target < line.key {
                high = line.start
                above = line
            } else {
                return line.count
            }
        }
        // Scan what is left line by line, with a window's worth of lines on either side, all of
        // which must ascend: a hash moved a few lines from its place, or a line the search was
        // misled by, breaks the order next to it.
        let from = max(0, low - Self.windowBytes), to = min(contentByteCount, high + Self.windowBytes)
        let bytes = try file.read(at: from, count: Int(to - from) + BreachLine.maximumLength + 1)
        var start = 0
        if from > 0 {
            guard let feed = bytes.firstIndex(of: 0x0A) else {
                throw lineError(.malformedBreachList, "a line longer than \(BreachLine.maximumLength) bytes", at: from)
            }
            start = feed + 1
        }
        var found: Int64 = 0
        var previous: Line?
        while from + Int64(start) < to {
            let offset = from + Int64(start)
            let line: Line
            if let feed = bytes[start...].firstIndex(of: 0x0A), from + Int64(feed) < contentByteCount {
                line = try parsed(bytes, start..<feed, at: offset, next: from + Int64(feed) + 1)
                start = feed + 1
            } else {
                let end = Int(contentByteCount - from)
                guard end <= bytes.count, end - start <= BreachLine.maximumLength else {
                    throw lineError(.malformedBreachList, "a line longer than \(BreachLine.maximumLength) bytes", at: offset)
                }
                line = try parsed(bytes, start..<end, at: offset, next: contentByteCount, isLast: true)
                start = end
            }
            if let previous { try checkAscending(previous, line) }
            if line.key == target { found = line.count }
            previous = line
        }
        return found
    }

    /// Reads every line and checks its form and order, in 1 MiB reads (bounded memory); calls
    /// `progress` with the bytes read so far after each read. For a file of tens of gigabytes this
    /// is as slow as reading it.
    /// - Returns: the number of lines.
    /// - Throws: as ``occurrences(ofSHA1:)``, for the first bad line.
    public func verify(progress: (Int64) -> Void = { _ in }) throws(HealthError) -> Int {
        var position: Int64 = 0
        var previous: Line?
        var lines = 0
        var carry: [UInt8] = []
        while position < contentByteCount {
            let chunk = try file.read(at: position, count: Int(min(1 << 20, contentByteCount - position)))
            guard !chunk.isEmpty else { break }
            let base = position - Int64(carry.count)
            let bytes = carry + chunk
            position += Int64(chunk.count)
            var start = 0
            while let feed = bytes[start...].firstIndex(of: 0x0A) {
                let line = try parsed(bytes, start..<feed, at: base + Int64(start), next: base + Int64(feed) + 1)
                if let previous { try checkAscending(previous, line) }
                previous = line
                lines += 1
                start = feed + 1
            }
            carry = Array(bytes[start...])
            guard carry.count <= BreachLine.maximumLength else {
                throw lineError(.malformedBreachList, "a line longer than \(BreachLine.maximumLength) bytes", at: base + Int64(start))
            }
            progress(position)
        }
        if !carry.isEmpty {
            let base = contentByteCount - Int64(carry.count)
            let line = try parsed(carry, 0..<carry.count, at: base, next: contentByteCount, isLast: true)
            if let previous { try checkAscending(previous, line) }
            lines += 1
        }
        return lines
    }

    // MARK: Lines

    /// The line starting at `offset` (a line start).
    private func line(startingAt offset: Int64) throws(HealthError) -> Line {
        let bytes = try file.read(at: offset, count: BreachLine.maximumLength + 1)
        let limit = Int(min(Int64(bytes.count), contentByteCount - offset))
        guard let feed = bytes[..<limit].firstIndex(of: 0x0A) else {
            guard offset + Int64(limit) >= contentByteCount else {
                throw lineError(.malformedBreachList, "a line longer than \(BreachLine.maximumLength) bytes", at: offset)
            }
            return try parsed(bytes, 0..<limit, at: offset, next: contentByteCount, isLast: true)
        }
        return try parsed(bytes, 0..<feed, at: offset, next: offset + Int64(feed) + 1)
    }

    /// The first line that starts after `offset` and before `limit`, or nil when none does.
    private func line(after offset: Int64, before limit: Int64) throws(HealthError) -> Line? {
        let bytes = try file.read(at: offset, count: BreachLine.maximumLength + 1)
        guard let feed = bytes.firstIndex(of: 0x0A) else {
            guard offset + Int64(bytes.count) >= contentByteCount else {
                throw lineError(.malformedBreachList, "a line longer than \(BreachLine.maximumLength) bytes", at: offset)
            }
            return nil
        }
        let start = offset + Int64(feed) + 1
        guard start < limit else { return nil }
        return try line(startingAt: start)
    }

    /// The last line of the content.
    private func lastLine() throws(HealthError) -> Line {
        let from = max(0, contentByteCount - Int64(BreachLine.maximumLength) - 1)
        let bytes = try file.read(at: from, count: Int(contentByteCount - from))
        let start = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        guard from == 0 || start > 0 else {
            throw lineError(.malformedBreachList, "a line longer than \(BreachLine.maximumLength) bytes", at: from)
        }
        return try parsed(bytes, start..<bytes.count, at: from + Int64(start), next: contentByteCount, isLast: true)
    }

    /// Parses `bytes[range]`, the line at `offset`; `isLast` when nothing follows it in the file
    /// (a malformed last line without a line feed is a cut, "truncated").
    private func parsed(_ bytes: [UInt8], _ range: Range<Int>, at offset: Int64, next: Int64, isLast: Bool = false)
        throws(HealthError) -> Line
    {
        guard range.count <= BreachLine.maximumLength else {
            throw lineError(.malformedBreachList, "a line longer than \(BreachLine.maximumLength) bytes", at: offset)
        }
        let result = bytes.withUnsafeBytes { BreachLine.parse(UnsafeRawBufferPointer(rebasing: $0[range]), hexDigits: 40) }
        switch result {
        case .success(let parsed):
            return Line(start: offset, next: next, key: parsed.key, count: parsed.count)
        case .failure(let problem):
            let endsWithoutFeed = isLast && file.size == contentByteCount
            if endsWithoutFeed {
                throw lineError(.truncatedBreachList, "the file ends inside this line (a cut download?): \(problem.reason(hexDigits: 40))", at: offset)
            }
            throw lineError(.malformedBreachList, problem.reason(hexDigits: 40), at: offset)
        }
    }

    private func checkAscending(_ earlier: Line, _ later: Line) throws(HealthError) {
        guard earlier.key < later.key else {
            let what = earlier.key == later.key ? "the same hash as an earlier line" : "a hash below an earlier line's"
            throw lineError(.unsortedBreachList, "\(what): the file is not sorted by hash (the ordered-by-hash download is needed)", at: later.start)
        }
    }

    private func checkBetween(_ line: Line, _ below: Line?, _ above: Line?) throws(HealthError) {
        if let below { try checkAscending(below, line) }
        if let above { try checkAscending(line, above) }
    }

    private func lineError(_ code: HealthError.Code, _ reason: String, at offset: Int64) -> HealthError {
        HealthError(code, reason, file: file.path, line: file.lineNumber(at: offset), byteOffset: offset)
    }
}
