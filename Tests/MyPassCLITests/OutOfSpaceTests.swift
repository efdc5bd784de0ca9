import Foundation
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A full volume (a small tmpfs mounted for the test; it needs root, so the test says SKIP
/// without it, even under MYPASS_REQUIRE_INTEROP=1, since a sandbox may forbid mounts): a save,
/// `export` to a file on it and `attachment export` to it fail with "No space left on device"
/// and exit 1; the vault stays byte-identical and no temporary or partial file is left by mypass.
@Suite("Fault injection: out of space")
struct OutOfSpaceTests {
    /// A tmpfs of `bytes` mounted at a new directory; unmounted when dropped.
    final class SmallVolume {
        let url: URL
        init?(bytes: Int) {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-full-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            guard mount("tmpfs", url.path, "tmpfs", 0, "size=\(bytes),mode=0700") == 0 else {
                try? FileManager.default.removeItem(at: url)
                return nil
            }
        }
        deinit {
            umount2(url.path, Int32(MNT_DETACH))
            try? FileManager.default.removeItem(at: url)
        }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path).sorted()) ?? [] }

        /// Fills the volume, then frees `bytes` of it again.
        func fill(leaving bytes: Int) throws {
            let fd = open(path("filler"), O_WRONLY | O_CREAT, 0o600)
            guard fd >= 0 else { throw POSIXError(.EIO) }
            defer { close(fd) }
            let block = [UInt8](repeating: 0xA5, count: 4096)
            var size = 0
            while true {
                let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard written > 0 else { break }
                size += written
            }
            #expect(errno == ENOSPC)
            #expect(ftruncate(fd, off_t(max(0, size - bytes))) == 0)
        }
    }

    @Test("a save, an export and an attachment export on a full volume")
    func fullVolume() throws {
        guard let volume = SmallVolume(bytes: 1 << 20) else {
            // CI runs as root and can mount: there a refused mount is a failure, never a skip.
            #expect(!(InteropTools.isRequired && geteuid() == 0),
                    "MYPASS_REQUIRE_INTEROP=1 as root, but a 1 MiB tmpfs could not be mounted for the out-of-space tests")
            FileHandle.standardError.write(Data("SKIP out-of-space tests: mounting a tmpfs is not permitted here (needs root)\n".utf8))
            return
        }
        let scratch = try Scratch()
        let vault = volume.path("v.kdbx")
        try Data(contentsOf: URL(fileURLWithPath: try scratch.copy(Demo.vault))).write(to: URL(fileURLWithPath: vault))
        var blob = [UInt8](repeating: 0, count: 96 * 1024)
        for i in blob.indices { blob[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
        let blobFile = try scratch.write("blob.bin", blob)
        let attach = try CLI.run(["attachment", "import", vault, "Work/GitHub", "blob", blobFile, "--no-agent"], stdin: Demo.stdin)
        #expect(attach.status == 0, "\(attach.stderrText)")
        try volume.fill(leaving: 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: vault))

        let add = try CLI.run(["add", vault, "No room", "--username", "x", "--no-agent"], stdin: Demo.stdin)
        #expect(add.status == 1)
        #expect(CLI.firstErrorLine(add).contains("No space left on device"), "\(add.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before)
        #expect(volume.contents == ["filler", "v.kdbx"])

        let attachment = try CLI.run(["attachment", "export", vault, "Work/GitHub", "blob", volume.path("blob.out"), "--no-agent"],
                                     stdin: Demo.stdin)
        #expect(attachment.status == 1)
        #expect(CLI.firstErrorLine(attachment).contains("No space left on device"), "\(attachment.stderrText)")
        #expect(volume.contents == ["filler", "v.kdbx"], "no partial attachment, no temporary file")

        // export writes standard output; the shell makes the file, mypass must fail, not exit 0 on a truncated export.
        let export = try runProcess(URL(fileURLWithPath: "/bin/sh"),
                                    ["-c", "exec \"$0\" export \"$1\" --format xml --no-agent > \"$2\"", CLI.binary.path, vault, volume.path("export.xml")],
                                    stdin: Array(Demo.stdin.utf8))
        #expect(export.status == 1)
        #expect(CLI.firstErrorLine(export) == "Error: cannot write standard output: No space left on device", "\(export.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before)
    }
}
