/// Every libFuzzer harness of the package but the agent's (which lives beside the agent in the
/// `mypass` executable, `AgentFrameFuzzing`). Each takes one input of any bytes and returns how it
/// ended; none may trap, hang or grow without bound. `Fuzz/run.sh` links them into a libFuzzer
/// binary; `FuzzCorpusTests` replays `Fuzz/corpus/NAME/` through them.
package enum FuzzHarness: String, CaseIterable, Sendable {
    /// The KDBX outer header (3.1 and 4.x): `KDBXHeader.read(from:limits:)`.
    case kdbxHeader = "kdbx-header"
    /// The KDBX 4 VariantDictionary (header field 11 and public custom data).
    case variantDictionary = "variant-dictionary"
    /// The KDBX 4 inner header, fed whole and in two pieces.
    case innerHeader = "inner-header"
    /// A key file (XML v1/v2, 32 raw bytes, 64 hex digits, any other file hashed).
    case keyFile = "key-file"
    /// DEFLATE, zlib and gzip inflate (the first byte picks the format and a split point).
    case inflate
    /// The XML body reader (`VaultXMLReader`), whole and in small chunks.
    case xmlBody = "xml-body"
    /// The full open with a known key (see `OpenHarness`).
    case open
    /// The AutoFill index's streaming reader on the same inputs, never stricter than the full
    /// open (see `IndexHarness`).
    case index
    /// A merge of two vaults given as two XML bodies.
    case merge
    /// The passkey private key readers: PKCS#8 and SEC 1 DER, PEM.
    case passkeyDER = "passkey-der"
    /// KeePassXC's CSV export, imported.
    case keePassXCCSV = "import-keepassxc-csv"
    /// Bitwarden's JSON export, imported.
    case bitwardenJSON = "import-bitwarden-json"
    /// KeePass 2's XML export, imported.
    case keePassXML = "import-keepass-xml"
    /// SSH private key files (OpenSSH's format, PKCS#8, PKCS#1, SEC 1), as KeePassXC stores them.
    case sshKey = "ssh-key"

    /// Runs the harness on one input.
    package func run(_ data: [UInt8]) -> FuzzOutcome {
        switch self {
        case .kdbxHeader: return ContainerHarnesses.header(data)
        case .variantDictionary: return ContainerHarnesses.variantDictionary(data)
        case .innerHeader: return ContainerHarnesses.innerHeader(data)
        case .keyFile: return ContainerHarnesses.keyFile(data)
        case .inflate: return InflateHarness.run(data)
        case .xmlBody: return XMLBodyHarness.run(data)
        case .open: return OpenHarness.run(data)
        case .index: return IndexHarness.run(data)
        case .merge: return MergeHarness.run(data)
        case .passkeyDER: return PasskeyHarness.run(data)
        case .keePassXCCSV: return ImportHarness.run(data, format: .keePassXCCSV)
        case .bitwardenJSON: return ImportHarness.run(data, format: .bitwardenJSON)
        case .keePassXML: return ImportHarness.run(data, format: .keePassXML)
        case .sshKey: return SSHKeyHarness.run(data)
        }
    }

}
