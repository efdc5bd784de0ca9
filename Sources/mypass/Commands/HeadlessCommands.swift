import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
#if canImport(Glibc)
import Glibc
#endif

/// `mypass read VAULT ENTRY#FIELD` and `mypass run VAULT --env NAME=ENTRY[#FIELD] ... -- COMMAND`:
/// fields of the vault for scripts and programs, never printed by `run`.
enum HeadlessCommands {
    /// An entry and one of its fields, as `ENTRY#FIELD` names them.
    struct FieldReference {
        /// The entry, as `resolveEntry(path:)` takes it (path or UUID).
        var entry: String
        /// The field's name (default `Password`).
        var field: String

        /// Splits `text` at its last `#` that no backslash escapes (`\#` is a `#` inside a title);
        /// without one, the field is `Password`. Other escapes (`\/`, `\\`) stay for the path rules.
        init(_ text: String) {
            var segments = [""]
            var escaped = false
            for character in text {
                if escaped {
                    segments[segments.count - 1] += character == "#" ? "#" : "\\" + String(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "#" {
                    segments.append("")
                } else {
                    segments[segments.count - 1].append(character)
                }
            }
            if escaped { segments[segments.count - 1] += "\\" }
            if segments.count == 1 {
                entry = segments[0]
                field = Entry.StandardField.password
            } else {
                field = segments.removeLast()
                entry = segments.joined(separator: "#")
            }
        }

        /// The field's exact value.
        /// - Throws: `CLIError` (exit 1) naming the entry and the field when either is missing.
        func value(in vault: Vault) throws -> ProtectedString {
            let located = try vault.resolveEntry(path: entry)
            guard let field = located.entry.field(named: self.field) else {
                throw CLIError.failure("entry '\(Vault.displayPath(located.path))' has no field '\(self.field)'")
            }
            return field.protectedValue
        }
    }

    /// `read`: the field's exact value and a line feed on standard output.
    static func read(_ parsed: ParsedArguments) throws {
        let reference = FieldReference(parsed.required("field"))
        let (context, _) = try VaultContext.open(parsed)
        let value = try reference.value(in: context.vault)
        value.withRevealedBytes { Console.outBytes($0, newline: true) }
    }

    /// `run`: the command with the variables set from the vault; its exit status is ours (it
    /// replaces this process, so nothing of the vault stays in memory beside its environment).
    static func run(_ parsed: ParsedArguments) throws {
        let assignments = try parsed.values("env").map { text -> (name: String, reference: FieldReference) in
            guard let equals = text.firstIndex(of: "="), isVariableName(text[..<equals]) else {
                throw parsed.usageError("--env takes NAME=ENTRY or NAME=ENTRY#FIELD, NAME a variable name: '\(text)'")
            }
            return (String(text[..<equals]), FieldReference(String(text[text.index(after: equals)...])))
        }
        let command = parsed.trailing
        let (context, _) = try VaultContext.open(parsed)
        var variables: [(name: String, value: ProtectedString)] = []
        for assignment in assignments {
            let value = try assignment.reference.value(in: context.vault)
            guard !value.withRevealedBytes({ $0.contains(0) }) else {
                throw CLIError.failure("the value for \(assignment.name) holds a NUL byte, which an environment cannot carry")
            }
            variables.append((assignment.name, value))
        }
        try exec(command, setting: variables)
    }

    /// Replaces this process with `command`, its environment ours plus `variables`.
    /// - Throws: `CLIError` with exit 127 when the command cannot be run.
    static func exec(_ command: [String], setting variables: [(name: String, value: ProtectedString)]) throws -> Never {
        for variable in variables {
            // setenv copies the value into the environment the command receives; our scratch
            // copy is wiped right after.
            var bytes = variable.value.revealedBytes.unsafeArray + [0]
            defer { wipe(&bytes) }
            let set = bytes.withUnsafeBytes { raw in
                setenv(variable.name, raw.baseAddress!.assumingMemoryBound(to: CChar.self), 1)
            }
            guard set == 0 else { throw CLIError.failure("cannot set \(variable.name): \(String(cString: strerror(errno)))") }
        }
        fflush(nil)
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        _ = execvp(command[0], &argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        throw CLIError(.commandNotRun, "cannot run '\(command[0])': \(reason)")
    }

    static func isVariableName(_ name: Substring) -> Bool {
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
