import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass import VAULT FILE [--from FORMAT] [--create]`: another manager's export (FILE `-`:
/// standard input), its format given or detected (``VaultImport/detectFormat(fileName:bytes:)``),
/// parsed by Core's ``VaultImport`` before any prompt, added as a new group (or made into a new
/// vault) and saved through the safe save.
enum ImportCommand {
    /// The group an import from standard input goes into without `--group`.
    static let standardInputGroup = "Import"

    static func run(_ parsed: ParsedArguments) throws {
        let path = parsed.required("vault"), file = parsed.required("file")
        let fromStandardInput = file == "-"
        var given: VaultImport.Format?
        if let fromText = parsed.value("from") {
            guard let format = VaultImport.Format(rawValue: fromText) else {
                throw parsed.usageError("The value '\(fromText)' is invalid for '--from': expected keepass-xml, keepassxc-csv or bitwarden-json")
            }
            given = format
        }
        let create = parsed.flag("create")
        if !create {
            for option in ["generate-keyfile", "name"] + FileSettingsOptions.specs.map(\.long) where parsed.value(option) != nil {
                throw parsed.usageError("--\(option) is for a new vault: add --create")
            }
        } else if parsed.value("group") != nil {
            throw parsed.usageError("--group is for importing into an existing vault (without --create)")
        }

        // The file is read and checked first: a bad file changes nothing and asks nothing.
        var bytes = fromStandardInput
            ? try readStandardInput() : try VaultContext.readFile(file, what: "import file", maxBytes: VaultImport.maxFileBytes)
        defer { wipe(&bytes) }
        let shown = fromStandardInput ? "standard input" : "'\(file)'"
        let format = try given ?? detected(fileName: fromStandardInput ? nil : file, bytes: bytes, shown: shown, parsed)
        let contents: VaultImport.Contents
        do {
            contents = try VaultImport.read(bytes, format: format, now: currentTime())
        } catch {
            throw CLIError.failure("cannot import \(shown): " + [error.location, error.reason.isEmpty ? error.description : error.reason]
                .compactMap { $0 }.joined(separator: ": "))
        }
        for warning in contents.warnings { Console.errLine("Warning: \(warning).") }
        let entryCount = contents.root.entryCount

        if create {
            let request = try CreateCommand.prepare(parsed, path: path)
            let vault: Vault
            do {
                vault = try Progress.run("Calibrating the KDF…") { () throws(CoreError) -> Vault in
                    try Vault.imported(contents, settings: request.settings, now: currentTime())
                }
            } catch let error as CoreError {
                throw CLIError.failure("cannot create '\(path)': \(error.reason.isEmpty ? error.description : error.reason)")
            }
            try CreateCommand.write(vault, request, path: path)
            Console.resultLine("Imported \(entryCount) \(entryCount == 1 ? "entry" : "entries") from \(shown).")
            return
        }

        let groupName = parsed.value("group") ?? (fromStandardInput ? standardInputGroup : NewVaultSettings.name(forPath: file))
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        do {
            try context.vault.addImported(contents, asGroupNamed: groupName, now: currentTime())
        } catch {
            throw CLIError.failure("cannot import \(shown) into '\(path)': \(error.reason.isEmpty ? error.description : error.reason)")
        }
        try context.save()
        Console.resultLine("Imported \(entryCount) \(entryCount == 1 ? "entry" : "entries") from \(shown) into group '\(groupName)' of '\(path)'.")
    }

    /// The format detected from the file's name and first bytes, with a note saying which and why.
    /// - Throws: a usage error when neither tells.
    static func detected(fileName: String?, bytes: [UInt8], shown: String, _ parsed: ParsedArguments) throws(CLIError) -> VaultImport.Format {
        guard let detection = VaultImport.detectFormat(fileName: fileName, bytes: bytes) else {
            throw parsed.usageError("Cannot tell the format of \(shown) from its name or its first bytes: give --from keepass-xml, keepassxc-csv or bitwarden-json")
        }
        let format = detection.format
        var how: String
        switch (detection.byExtension, detection.byContent) {
        case (true, true): how = "from its extension and its content"
        case (true, false): how = "from its extension"
        default: how = "from its content"
        }
        if let other = detection.contradictedExtension {
            how += " (its extension says \(VaultImport.describe(other)))"
        }
        Console.noteLine("Note: reading \(shown) as \(VaultImport.describe(format)) (\(format.rawValue)), \(how); --from chooses another format.")
        return format
    }

    /// The whole of standard input (FILE `-`), at most ``VaultImport/maxFileBytes``; then the
    /// terminal, when there is one, becomes standard input for the password prompts.
    /// - Throws: `CLIError` (exit 1) when standard input is a terminal (nothing was piped in),
    ///   cannot be read or is too large.
    static func readStandardInput() throws(CLIError) -> [UInt8] {
        if Console.isTerminal(0) {
            throw .failure("FILE '-' reads the export from standard input, which is a terminal: pipe it in (cat export.json | mypass import VAULT -)")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        defer { wipe(&chunk) }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                wipe(&bytes)
                throw .failure("cannot read the export from standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            guard bytes.count + count <= VaultImport.maxFileBytes else {
                wipe(&bytes)
                throw .failure("cannot import standard input: larger than \(VaultImport.maxFileBytes >> 20) MiB")
            }
            if bytes.count + count > bytes.capacity {
                // Grow by hand so that the old buffer is wiped, not merely freed.
                var larger: [UInt8] = []
                larger.reserveCapacity(max(bytes.capacity * 2, bytes.count + count))
                larger.append(contentsOf: bytes)
                wipe(&bytes)
                bytes = larger
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        if terminal >= 0 {
            dup2(terminal, 0)
            close(terminal)
        } else {
            SecretReader.setInputTaken("FILE '-' took standard input and no terminal is there to ask on: use --no-password with --keyfile, or give the export as a file")
        }
        return bytes
    }
}
