#if os(Linux)
import Glibc
import MyPassBytes

/// Counts where given byte strings occur in this process's readable memory, read through
/// `/proc/self/maps` and `/proc/self/mem` (Linux only): the check of the memory tests, in the
/// spirit of CVE-2023-32784 (KeePass's master password recoverable from a process dump).
///
/// The scanner holds each needle XOR-masked with a random byte and unmasks one byte at a time in a
/// register while comparing, so its own data never holds the clear needle; the chunk buffer is a
/// separate mapping that is left out of the scan and zeroed after every chunk.
package enum ProcessMemoryScan {
    /// A byte string to look for, kept masked.
    package struct Needle: Sendable {
        /// A name for reports (`password (UTF-8)`).
        package let name: String
        let masked: [UInt8]
        let mask: UInt8

        /// A needle from its bytes as given masked with `mask` (each byte XOR `mask`), so that the
        /// caller never needs the clear bytes either.
        package init(name: String, masked: [UInt8], mask: UInt8) {
            precondition(!masked.isEmpty, "an empty needle matches everywhere")
            self.name = name
            self.masked = masked
            self.mask = mask
        }

        /// The first `count` bytes of this needle (still masked).
        package func prefix(_ count: Int) -> Needle {
            Needle(name: name, masked: Array(masked.prefix(count)), mask: mask)
        }

        /// A needle from clear bytes (copied masked; the caller wipes its own copy).
        package init(name: String, clear: UnsafeRawBufferPointer) {
            let mask = UInt8.random(in: 1...255)
            self.init(name: name, masked: clear.map { $0 ^ mask }, mask: mask)
        }
    }

    /// How often each needle occurs, in `needles` order; `nil` when `/proc/self/maps` or
    /// `/proc/self/mem` cannot be read. `afterOpening` runs once both are open (a caller that made
    /// itself dumpable for the open can undo it there).
    package static func occurrences(of needles: [Needle], afterOpening: () -> Void = {}) -> [Int]? {
        scan(needles, afterOpening: afterOpening)?.counts
    }

    /// ``occurrences(of:afterOpening:)`` with the bytes of readable mappings that `pread` could
    /// not read (a mapping gone between `/proc/self/maps` and the read, a file mapping past its
    /// file's end): a scan that skipped memory says so instead of counting it as clean.
    package static func scan(_ needles: [Needle], afterOpening: () -> Void = {}) -> (counts: [Int], unreadableBytes: Int)? {
        guard let maps = readMaps() else { return nil }
        let longest = needles.map(\.masked.count).max() ?? 1
        let chunkBytes = 1 << 20
        let bufferBytes = chunkBytes + longest
        guard let mapped = mmap(nil, bufferBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapped != MAP_FAILED else { return nil }
        defer { munmap(mapped, bufferBytes) }
        let buffer = mapped.assumingMemoryBound(to: UInt8.self)
        let bufferStart = UInt(bitPattern: mapped), bufferEnd = bufferStart + UInt(bufferBytes)
        let fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC)
        afterOpening()
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var counts = [Int](repeating: 0, count: needles.count)
        var unreadable = 0
        for region in maps {
            // The chunk buffer's own pages hold copies of what was read: leave them out.
            for (start, end) in subtract(region, (bufferStart, bufferEnd)) {
                var offset = start
                while offset < end {
                    let want = Int(min(UInt(chunkBytes + longest - 1), end - offset))
                    let got = pread(fd, buffer, want, off_t(Int(bitPattern: offset)))
                    if got <= 0 {  // an unreadable range: counted, not hidden
                        unreadable += Int(end - offset)
                        break
                    }
                    for (index, needle) in needles.enumerated() {
                        counts[index] += count(needle, in: buffer, length: got, startsBefore: got == want && offset + UInt(got) < end ? chunkBytes : got)
                    }
                    secureZero(buffer, count: got)
                    offset += UInt(min(got, chunkBytes))
                }
            }
        }
        return (counts, unreadable)
    }

    /// Matches that start in `0 ..< startsBefore` (later starts are seen by the next, overlapping chunk).
    private static func count(_ needle: Needle, in buffer: UnsafeMutablePointer<UInt8>, length: Int, startsBefore: Int) -> Int {
        let n = needle.masked.count
        guard length >= n else { return 0 }
        var found = 0
        needle.masked.withUnsafeBufferPointer { masked in
            let first = masked[0] ^ needle.mask
            let last = min(startsBefore, length - n + 1)
            var i = 0
            while i < last {
                guard let hit = memchr(buffer + i, Int32(first), last - i) else { break }
                let at = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var j = 1
                while j < n && buffer[at + j] == masked[j] ^ needle.mask { j += 1 }
                if j == n { found += 1 }
                i = at + 1
            }
        }
        return found
    }

    /// The readable address ranges of this process (not `[vvar]`, `[vsyscall]` or mapped devices).
    private static func readMaps() -> [(UInt, UInt)]? {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            text.append(contentsOf: chunk[0..<got])
        }
        var regions: [(UInt, UInt)] = []
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[1].first == UInt8(ascii: "r") else { continue }
            let name = fields.count > 5 ? String(decoding: fields[5], as: UTF8.self) : ""
            if name == "[vvar]" || name == "[vsyscall]" || name == "[vvar_vclock]" || name.hasPrefix("/dev/") { continue }
            let range = fields[0].split(separator: UInt8(ascii: "-"))
            guard range.count == 2, let start = UInt(String(decoding: range[0], as: UTF8.self), radix: 16),
                  let end = UInt(String(decoding: range[1], as: UTF8.self), radix: 16) else { continue }
            regions.append((start, end))
        }
        return regions
    }

    private static func subtract(_ region: (UInt, UInt), _ hole: (UInt, UInt)) -> [(UInt, UInt)] {
        if hole.1 <= region.0 || hole.0 >= region.1 { return [region] }
        var parts: [(UInt, UInt)] = []
        if region.0 < hole.0 { parts.append((region.0, hole.0)) }
        if hole.1 < region.1 { parts.append((hole.1, region.1)) }
        return parts
    }
}
#endif
