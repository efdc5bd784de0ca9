#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for positioned reads (`pread`), closed when the value goes: what the breach list
/// readers search without ever holding more than a few kilobytes of it.
final class ReadOnlyFile: Sendable {
    let path: String
    /// The size in bytes when opened.
    let size: Int64
    private let descriptor: Int32

    /// Opens the regular file at `path`.
    /// - Throws: ``HealthError/Code/io`` when it cannot be opened or is not a regular file.
    init(path: String) throws(HealthError) {
        self.path = path
        // Non-blocking, so that a FIFO given by mistake opens at once (then fstat refuses it).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw HealthError(.io, "cannot open: \(String(cString: strerror(errno)))", file: path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = close(fd)
            throw HealthError(.io, "cannot read the file's status: \(reason)", file: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            _ = close(fd)
            throw HealthError(.io, "not a regular file", file: path)
        }
        descriptor = fd
        size = Int64(info.st_size)
    }

    deinit { _ = close(descriptor) }

    /// Reads up to `count` bytes at `offset` (fewer at the end of the file).
    func read(at offset: Int64, count: Int) throws(HealthError) -> [UInt8] {
        let wanted = Int(max(0, min(Int64(count), size - offset)))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, wanted - done, off_t(offset) + off_t(done)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw HealthError(.io, "cannot read: \(String(cString: strerror(errno)))", file: path, byteOffset: offset + Int64(done))
            }
            if got == 0 { break }
            done += got
        }
        if done < wanted { bytes.removeLast(wanted - done) }
        return bytes
    }

    /// The 1-based number of the line that starts at or contains `offset`: one plus the line feeds
    /// before it, counted in 1 MiB reads (only for error messages: it reads the file up to `offset`).
    func lineNumber(at offset: Int64) -> Int {
        var lines = 1
        var position: Int64 = 0
        let chunk = 1 << 20
        while position < offset {
            guard let bytes = try? read(at: position, count: Int(min(Int64(chunk), offset - position))), !bytes.isEmpty else { break }
            bytes.withUnsafeBufferPointer { buffer in
                for byte in buffer where byte == 0x0A { lines += 1 }
            }
            position += Int64(bytes.count)
        }
        return lines
    }
}
