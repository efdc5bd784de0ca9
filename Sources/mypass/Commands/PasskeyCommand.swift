import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

extension CommandSpecs {
    static let passkeyList = CommandSpec(
        name: "passkey ls", abstract: "List the entries that hold a passkey: path, relying party, user name, algorithm.",
        positionals: [vault],
        options: [.flag("json", "Print JSON: an array of {uuid, path, relyingParty, username, algorithm, credentialId}.")]
            + keyOptions)

    static let passkeyShow = CommandSpec(
        name: "passkey show", abstract: "Show an entry's passkey: relying party, user, ids, flags and public key.",
        positionals: [vault, entry],
        options: [
            .flag("reveal", "Also print the private key (PKCS#8 PEM)."),
            .flag("json", "Print JSON."),
        ] + keyOptions)

    static let passkeyAdd = CommandSpec(
        name: "passkey add", abstract: "Create a passkey in a new entry PATH/TITLE, in KeePassXC's layout.",
        discussion: """
            The key pair and the 32-byte credential id come from the operating system's random
            source. With --json the registration ("none" attestation) is printed for the relying
            party: credentialId, attestationObject, authenticatorData, publicKey (COSE), in base64url.
            """,
        positionals: [vault, PositionalSpec(name: "path", help: "The new entry's group path and title (Web/Example).")],
        options: [
            .option("rp", "id", required: true, "The relying party id (example.com)."),
            .option("user", "name", required: true, "The user name."),
            .option("user-handle", "base64url", "The relying party's user id (default: 16 random bytes)."),
            .option("alg", "es256|eddsa", "The algorithm (default es256)."),
            .flag("json", "Print the registration as JSON."),
        ] + keyOptions)

    static let passkeyAssert = CommandSpec(
        name: "passkey assert", abstract: "Sign a WebAuthn assertion with an entry's passkey; prints JSON.",
        discussion: """
            Prints {credentialId, authenticatorData, signature, userHandle} in base64url. The
            authenticator data carries SHA-256 of the relying party id, the flags UP, UV and the
            stored BE and BS, and the counter 0.
            """,
        positionals: [vault, entry],
        options: [
            .option("client-data-hash", "hex", required: true, "SHA-256 of the client's clientDataJSON (64 hex digits)."),
            .option("rp", "id", "The relying party id of the request; must be the passkey's."),
        ] + keyOptions)

    static let passkey = CommandSpec(
        name: "passkey", abstract: "List, show, create and use passkeys (WebAuthn credentials) stored in entries.",
        subcommands: [passkeyList, passkeyShow, passkeyAdd, passkeyAssert])
}

/// `mypass passkey ls|show|add|assert`.
enum PasskeyCommand {
    static func list(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        var rows: [JSON] = []
        for located in context.vault.passkeyEntries {
            let path = Vault.displayPath(located.groupPath + [located.entry.title])
            guard let passkey = listedPasskey(located.entry, path: path) else { continue }
            if parsed.flag("json") {
                rows.append(.object([
                    ("uuid", .string(located.entry.uuid.hexString)), ("path", .string(path)),
                    ("relyingParty", .string(passkey.relyingParty)), ("username", .string(passkey.username)),
                    ("algorithm", .string(passkey.algorithm.rawValue)), ("credentialId", .string(passkey.credentialIDText)),
                ]))
            } else {
                Console.line([path, passkey.relyingParty, passkey.username, passkey.algorithm.rawValue].map(Text.oneLine).joined(separator: "\t"))
            }
        }
        if parsed.flag("json") { Console.line(JSON.array(rows).prettyPrinted) }
    }

    static func show(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let path = Vault.displayPath(located.groupPath + [located.entry.title])
        let passkey = try readPasskey(located.entry, path: path)
        let publicKey = passkey.privateKey.publicKey
        var members: [(String, JSON)] = [
            ("path", .string(path)), ("relyingParty", .string(passkey.relyingParty)),
            ("username", .string(passkey.username)), ("credentialId", .string(passkey.credentialIDText)),
            ("userHandle", .string(passkey.userHandleText)), ("algorithm", .string(passkey.algorithm.rawValue)),
            ("backupEligible", .bool(passkey.backupEligible)), ("backupState", .bool(passkey.backupState)),
            ("publicKeyCose", .string(Base64URL.encode(publicKey.coseKey))), ("publicKeyPem", .string(publicKey.pem)),
        ]
        if parsed.flag("reveal") {
            members.append(("privateKeyPem", .string(String(decoding: passkey.privateKey.pem.withUnsafeBytes { Array($0) }, as: UTF8.self))))
        }
        if parsed.flag("json") {
            Console.line(JSON.object(members).prettyPrinted)
            return
        }
        for (key, value) in members {
            switch value {
            case .string(let text):
                // The PEM blocks (ours) keep their lines; a value from the vault is shown on one
                // line, so that a line break in it cannot pass for another field.
                let safe = key == "publicKeyPem" || key == "privateKeyPem" ? Text.lines(text) : Text.oneLine(text)
                Console.out("\(key): \(safe.hasSuffix("\n") ? "\n" + safe : safe + "\n")")
            case .bool(let flag): Console.line("\(key): \(flag ? 1 : 0)")
            default: break
            }
        }
        if !parsed.flag("reveal") { Console.line("privateKeyPem: \(ShowCommand.hidden)") }
    }

    static func add(_ parsed: ParsedArguments) throws {
        guard let relyingParty = parsed.value("rp"), !relyingParty.isEmpty else { throw parsed.usageError("Missing --rp") }
        guard let user = parsed.value("user"), !user.isEmpty else { throw parsed.usageError("Missing --user") }
        let algorithmText = parsed.value("alg") ?? "es256"
        guard let algorithm = PasskeyAlgorithm(rawValue: algorithmText.lowercased()) else {
            throw parsed.usageError("The value '\(algorithmText)' is invalid for '--alg': expected es256 or eddsa")
        }
        var userHandle: [UInt8]?
        if let text = parsed.value("user-handle") {
            guard let bytes = try? Base64URL.decode(text), (1...64).contains(bytes.count) else {
                throw parsed.usageError("The value for '--user-handle' must be base64url of 1 to 64 bytes")
            }
            userHandle = bytes
        }
        let (groupPath, title) = try AddCommand.splitPath(parsed)
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let group = try context.vault.resolveGroup(path: Vault.displayPath(groupPath)).group
        try context.vault.checkTitle(title, in: group.uuid, excluding: nil)
        let passkey = Passkey.generate(relyingParty: relyingParty, username: user, userHandle: userHandle, algorithm: algorithm)
        var entry = context.vault.newEntry()
        entry.title = title
        entry.userName = user
        entry.setPasskey(passkey)
        let uuid = try context.vault.addEntry(entry, to: group.uuid, now: currentTime())
        try context.save()
        let name = Vault.displayPath(groupPath + [title])
        if parsed.flag("json") {
            let registration = passkey.registration
            Console.line(JSON.object([
                ("uuid", .string(uuid.hexString)), ("path", .string(name)),
                ("credentialId", .string(Base64URL.encode(registration.credentialID))),
                ("attestationObject", .string(Base64URL.encode(registration.attestationObject))),
                ("authenticatorData", .string(Base64URL.encode(registration.authenticatorData))),
                ("publicKey", .string(Base64URL.encode(registration.publicKeyCOSE))),
                ("publicKeyAlgorithm", .int(registration.publicKeyAlgorithm)),
                ("userHandle", .string(passkey.userHandleText)),
            ]).prettyPrinted)
        } else {
            Console.resultLine("Added passkey for \(relyingParty) (\(user), \(algorithm.rawValue)) in entry '\(name)' (\(uuid.hexString)).")
        }
    }

    static func assert(_ parsed: ParsedArguments) throws {
        guard let hex = parsed.value("client-data-hash") else { throw parsed.usageError("Missing --client-data-hash") }
        guard let hash = [UInt8](hex: hex), hash.count == 32 else {
            throw parsed.usageError("The value for '--client-data-hash' must be 64 hex digits (a SHA-256 hash)")
        }
        let (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let path = Vault.displayPath(located.groupPath + [located.entry.title])
        let passkey = try readPasskey(located.entry, path: path)
        let assertion: PasskeyAssertion
        do {
            assertion = try passkey.assertion(clientDataHash: hash, relyingPartyID: parsed.value("rp"))
        } catch {
            throw CLIError.failure("entry '\(path)': \(error.description)")
        }
        Console.line(JSON.object([
            ("credentialId", .string(Base64URL.encode(assertion.credentialID))),
            ("authenticatorData", .string(Base64URL.encode(assertion.authenticatorData))),
            ("signature", .string(Base64URL.encode(assertion.signature))),
            ("userHandle", .string(Base64URL.encode(assertion.userHandle))),
        ]).prettyPrinted)
    }

    /// The entry's passkey.
    /// - Throws: `CLIError.failure` naming the entry when it has none or its fields cannot be
    ///   read (the reason names the field, never key material).
    static func readPasskey(_ entry: Entry, path: String) throws(CLIError) -> Passkey {
        let passkey: Passkey?
        do {
            passkey = try entry.passkey()
        } catch {
            throw CLIError.failure("entry '\(path)': \(error.description)")
        }
        guard let passkey else { throw CLIError.failure("entry '\(path)' has no passkey") }
        return passkey
    }

    /// The entry's passkey for a listing: an unreadable one is a warning on stderr and `nil`.
    static func listedPasskey(_ entry: Entry, path: String) -> Passkey? {
        do {
            return try readPasskey(entry, path: path)
        } catch {
            Console.errLine("Warning: \(error.message)")
            return nil
        }
    }
}
