#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass attachment export|import|rm VAULT ENTRY NAME [FILE]`.
enum AttachmentCommand {
    /// Writes the attachment to FILE, or to standard output.
    static func export(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = parsed.required("name")
        guard let attachment = located.entry.attachment(named: name) else {
            throw CLIError.failure("entry '\(Vault.displayPath(located.path))' has no attachment '\(name)'")
        }
        guard let file = parsed.positional("file") else {
            Console.outBytes(attachment.data)
            return
        }
        // Written to a temporary file beside FILE and renamed over it: a full disk or any other
        // failure leaves neither a partial FILE nor the temporary file, and says why.
        let temporary = file + ".mypass-\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw CLIError.failure("cannot write '\(file)': \(String(cString: strerror(errno)))") }
        var failure: Int32 = 0
        attachment.data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { failure = count < 0 ? errno : EIO; return }
                offset += count
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, file) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw CLIError.failure("cannot write '\(file)': \(String(cString: strerror(failure)))")
        }
        Console.err("Wrote \(Text.byteSize(attachment.data.count)) to '\(file)'.\n")
    }

    /// Attaches FILE under NAME (replacing one with that name); the entry's history keeps the old state.
    static func importFile(_ parsed: ParsedArguments) throws {
        let data = try VaultContext.readFile(parsed.required("file"), what: "file")
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = parsed.required("name")
        try context.vault.editEntry(located.entry.uuid, now: currentTime()) { entry in
            entry.setAttachment(Attachment(name: name, data: data))
        }
        try context.save()
        Console.line("Attached '\(name)' (\(Text.byteSize(data.count))) to '\(Vault.displayPath(located.path))'.")
    }

    /// Removes attachment NAME; the entry's history keeps the old state.
    static func remove(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = parsed.required("name")
        let entryName = Vault.displayPath(located.path)
        guard located.entry.attachment(named: name) != nil else {
            throw CLIError.failure("entry '\(entryName)' has no attachment '\(name)'")
        }
        try context.vault.editEntry(located.entry.uuid, now: currentTime()) { entry throws(CoreError) in
            try entry.deleteAttachment(name)
        }
        try context.save()
        Console.line("Removed attachment '\(name)' from '\(entryName)'.")
    }
}
