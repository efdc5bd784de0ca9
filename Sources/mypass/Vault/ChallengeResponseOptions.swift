import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// The challenge-response component of the command line (a YubiKey's HMAC-SHA1 slot, as KeePassXC,
/// KeePassium, Strongbox and KeePassDX use it): `--yubikey SLOT[:SERIAL]` through `ykchalresp`,
/// `--challenge-response-secret-file FILE` in software, `--challenge-response-command CMD` for
/// other tools; with the `new-` prefix, `passwd`'s new key. The format and the padding are
/// MyPassKDBX's (`ChallengeResponseKey`, `YubiKeyChallenge`); this parses and runs the helpers.
enum ChallengeResponseOptions {
    /// The options that give the current key's component, on every command that opens a vault.
    static let specs: [OptionSpec] = specs(prefix: "", what: "The vault's key also has")

    /// `passwd`'s options for the new key's component, and `--remove-challenge-response`.
    static let newSpecs: [OptionSpec] = specs(prefix: "new-", what: "The new key has") + [
        .flag("remove-challenge-response", "No hardware key (challenge-response component) in the new key."),
    ]

    private static func specs(prefix: String, what: String) -> [OptionSpec] {
        [
            .option(prefix + "yubikey", "slot[:serial]",
                    "\(what) a YubiKey HMAC-SHA1 challenge-response in this slot (1 or 2), asked through ykchalresp; :serial picks one of several keys."),
            .option(prefix + "challenge-response-secret-file", "path",
                    "\(what) a challenge-response answered in software from the slot's HMAC-SHA1 secret in this file (40 hex digits, or 20 bytes)."),
            .option(prefix + "challenge-response-command", "command",
                    "\(what) a challenge-response answered by this shell command (challenge in $MYPASS_CHALLENGE, response as 40 hex digits on stdout)."),
        ]
    }

    /// Whether the options with `prefix` name a component.
    static func isGiven(_ parsed: ParsedArguments, prefix: String = "") -> Bool {
        ["yubikey", "challenge-response-secret-file", "challenge-response-command"].contains { parsed.value(prefix + $0) != nil }
    }

    /// The component the options with `prefix` name, or `nil` when none does. A secret file is
    /// read (and checked) here, before anything is asked; `ykchalresp` and a command run when a
    /// challenge comes.
    /// - Throws: `CLIError`: usage (two of them, a bad slot or serial), failure (the secret file
    ///   cannot be read or does not hold a secret).
    static func key(_ parsed: ParsedArguments, prefix: String = "") throws(CLIError) -> ChallengeResponseKey? {
        let yubikey = parsed.value(prefix + "yubikey")
        let secretFile = parsed.value(prefix + "challenge-response-secret-file")
        let command = parsed.value(prefix + "challenge-response-command")
        guard [yubikey, secretFile, command].compactMap({ $0 }).count <= 1 else {
            throw parsed.usageError("Give one of --\(prefix)yubikey, --\(prefix)challenge-response-secret-file and --\(prefix)challenge-response-command")
        }
        if let yubikey {
            let parts = yubikey.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let slot = Int(parts[0]), slot == 1 || slot == 2 else {
                throw parsed.usageError("The value '\(yubikey)' is invalid for '--\(prefix)yubikey': expected the slot, 1 or 2, and optionally :serial")
            }
            var serial: UInt32?
            if parts.count == 2 {
                guard let number = UInt32(parts[1]) else {
                    throw parsed.usageError("The value '\(yubikey)' is invalid for '--\(prefix)yubikey': the serial is the key's decimal serial number")
                }
                serial = number
            }
            let responder = YubiKeyResponder(slot: slot, serial: serial)
            return ChallengeResponseKey { (challenge: [UInt8]) throws(KDBXError) -> SecureBytes in
                try responder.response(to: challenge)
            }
        }
        if let secretFile {
            return .hmacSHA1(secret: try readSecret(secretFile))
        }
        if let command {
            guard !command.allSatisfy(\.isWhitespace) else {
                throw parsed.usageError("--\(prefix)challenge-response-command needs a command")
            }
            return ChallengeResponseKey { (challenge: [UInt8]) throws(KDBXError) -> SecureBytes in
                try CommandResponder.response(to: challenge, command: command)
            }
        }
        return nil
    }

    /// How to give a hardware key, for the wrong-key message.
    static let hint = "if it also needs a hardware key (YubiKey challenge-response), give --yubikey SLOT[:SERIAL], "
        + "--challenge-response-secret-file FILE or --challenge-response-command COMMAND"

    /// An HMAC-SHA1 secret file: 40 hex digits (spaces and line breaks around or between them
    /// allowed), or exactly 20 bytes taken as they are. The bytes go to wiping storage.
    /// - Throws: `CLIError` (exit 1) naming the file, never its content.
    static func readSecret(_ path: String) throws(CLIError) -> SecureBytes {
        var contents = try VaultContext.readFile(path, what: "challenge-response secret file", maxBytes: 4096)
        defer { wipe(&contents) }
        var digits = SecureBytes()
        var isHex = true
        for byte in contents where !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
            guard hexValue(byte) != nil else { isHex = false; break }
            digits.append(byte)
        }
        if isHex && digits.count == 2 * ChallengeResponseKey.responseByteCount {
            var secret = SecureBytes()
            digits.withUnsafeBytes { raw in
                for index in stride(from: 0, to: raw.count, by: 2) {
                    secret.append(hexValue(raw[index])! << 4 | hexValue(raw[index + 1])!)
                }
            }
            return secret
        }
        if contents.count == ChallengeResponseKey.responseByteCount { return SecureBytes(contents) }
        throw .failure("cannot use challenge-response secret file '\(path)': it must hold the 20-byte HMAC-SHA1 secret as 40 hex digits, or as 20 bytes")
    }
}

/// `--yubikey SLOT[:SERIAL]`: the response from a YubiKey through `ykchalresp` (Debian's and
/// Ubuntu's `yubikey-personalization`), found on `PATH`, as keepassxc-cli's `-y` uses the key.
///
/// It runs `ykchalresp [-nINDEX] -SLOT -x HEX`, where HEX is the challenge padded to the 64 bytes
/// KeePassXC and KeePassium send (`YubiKeyChallenge.padded`): the key then hashes exactly what it
/// hashes for them, so a vault made with either opens with the same key here, whatever its
/// challenge. With a serial number, `ykinfo -s -q -nINDEX` finds which of the keys present has it.
/// The response is read as 40 hex digits from its output, into wiping storage.
struct YubiKeyResponder: Sendable {
    /// The slot, 1 or 2.
    let slot: Int
    /// The key's serial number, when several may be present.
    let serial: UInt32?

    /// The keys `ykinfo` is asked about when looking for a serial number.
    static let maxKeys = 8

    func response(to challenge: [UInt8]) throws(KDBXError) -> SecureBytes {
        guard let tool = Subprocess.find("ykchalresp") else {
            throw KDBXError(.missingKeyComponent, "ykchalresp is not on PATH (it comes with yubikey-personalization: apt install yubikey-personalization)")
        }
        var arguments: [String] = []
        if let serial { arguments.append("-n\(try index(ofSerial: serial))") }
        arguments += ["-\(slot)", "-x", try YubiKeyChallenge.padded(challenge).hexString]
        Console.note("Touch the YubiKey (slot \(slot)\(serial.map { ", serial \($0)" } ?? "")) if it flashes…\n")
        let result = Subprocess.capture(tool, arguments)
        if Interrupt.isRequested { throw KDBXError(.cancelled, "the challenge-response was interrupted") }
        guard result.status == 0 else {
            throw KDBXError(.missingKeyComponent, "ykchalresp failed"
                + (result.firstErrorLine.map { ": \($0)" } ?? " (exit status \(result.status))")
                + " (is the YubiKey plugged in, and slot \(slot) set up for HMAC-SHA1 challenge-response?)")
        }
        return try CommandResponder.parseResponse(result.output, tool: "ykchalresp")
    }

    /// The index `ykchalresp -n` takes for the key with `serial` (0 for the first key found).
    private func index(ofSerial serial: UInt32) throws(KDBXError) -> Int {
        guard let ykinfo = Subprocess.find("ykinfo") else {
            throw KDBXError(.missingKeyComponent, "ykinfo is not on PATH (needed to pick the YubiKey by serial number)")
        }
        for index in 0..<Self.maxKeys {
            let result = Subprocess.capture(ykinfo, ["-s", "-q", "-n\(index)"])
            guard result.status == 0 else { break }
            let text = String(decoding: result.output.unsafeArray, as: UTF8.self)
            if let last = text.split(whereSeparator: { $0 == " " || $0.isNewline }).last, UInt32(last) == serial { return index }
        }
        throw KDBXError(.missingKeyComponent, "no YubiKey with serial number \(serial) is plugged in")
    }
}

/// `--challenge-response-command COMMAND`: the response from any tool, through `/bin/sh -c
/// COMMAND`. The command gets the challenge as hex in `MYPASS_CHALLENGE`, and the 64 bytes a
/// YubiKey takes (`YubiKeyChallenge.padded`) as hex in `MYPASS_CHALLENGE_PADDED`; its standard
/// input is `/dev/null`; it prints the 20-byte response as 40 hex digits.
enum CommandResponder {
    static func response(to challenge: [UInt8], command: String) throws(KDBXError) -> SecureBytes {
        let padded = try YubiKeyChallenge.padded(challenge)
        Console.note("Running the challenge-response command…\n")
        let result = Subprocess.capture(
            "/bin/sh", ["-c", command],
            environment: ["MYPASS_CHALLENGE": challenge.hexString, "MYPASS_CHALLENGE_PADDED": padded.hexString])
        if Interrupt.isRequested { throw KDBXError(.cancelled, "the challenge-response was interrupted") }
        guard result.status == 0 else {
            throw KDBXError(.missingKeyComponent, "the challenge-response command failed"
                + (result.firstErrorLine.map { ": \($0)" } ?? " (exit status \(result.status))"))
        }
        return try parseResponse(result.output, tool: "the challenge-response command")
    }

    /// A response printed as 40 hex digits (surrounding white space allowed), decoded into
    /// wiping storage. The output itself never reaches the error.
    static func parseResponse(_ output: SecureBytes, tool: String) throws(KDBXError) -> SecureBytes {
        var response = SecureBytes()
        var digits = 0
        var high: UInt8 = 0
        var valid = true
        output.withUnsafeBytes { raw in
            var index = 0
            while index < raw.count, raw[index] == 0x20 || raw[index] == 0x09 || raw[index] == 0x0A || raw[index] == 0x0D { index += 1 }
            while index < raw.count, let value = hexValue(raw[index]) {
                if digits % 2 == 0 { high = value } else { response.append(high << 4 | value) }
                digits += 1
                index += 1
            }
            while index < raw.count, raw[index] == 0x20 || raw[index] == 0x09 || raw[index] == 0x0A || raw[index] == 0x0D { index += 1 }
            valid = index == raw.count
        }
        guard valid, digits == 2 * ChallengeResponseKey.responseByteCount else {
            throw KDBXError(.missingKeyComponent, "\(tool) did not print a 20-byte response as 40 hex digits")
        }
        return response
    }
}
