import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// The AutoFill index's streaming reader (`KDBXCredentialReader`: the outer header, HMAC or
/// hashed blocks, gzip, the inner header skimmer, `CredentialXMLReader`) on the open harness's
/// inputs (see `OpenHarness`: a mode byte, then a file or a payload the harness encrypts with the
/// known key), with the file's size known as `fstat` gives it to the real open.
///
/// Property: the index is never stricter than the full open. When the full open reads the
/// input, the index reads it too and keeps one record per entry (history items aside), with the
/// same titles.
enum IndexHarness {
    /// The fields the AutoFill index keeps (as `CredentialIndex.fieldSelection`, OTP fields aside).
    static let selection = CredentialSkim.FieldSelection(names: ["Title", "UserName", "Password", "URL", "otp"], prefixes: ["KP2A_URL"])

    static func run(_ data: [UInt8]) -> FuzzOutcome {
        let made: (file: [UInt8], transformedKey: SecureBytes)?
        do throws(CryptoError) { made = try OpenHarness.file(for: data) } catch {
            return .violated("the harness cannot encrypt: \(error.code)")
        }
        guard let made else { return .rejected("empty") }
        let skim: CredentialSkim
        do throws(KDBXError) {
            var source = ArrayByteSource(made.file)
            var reader = try KDBXCredentialReader(source: &source, fileByteCount: made.file.count)
            let keys = try reader.keys(transformedKey: made.transformedKey)
            skim = try reader.readCredentials(keys: keys, selection: selection, source: &source)
        } catch {
            if case .success = OpenHarness.fullOpen(made.file, transformedKey: made.transformedKey) {
                return .violated("the full open reads it, the index refuses it: \(error.code)")
            }
            return .rejection(of: error, code: error.code)
        }
        // Accepted by the index: when the full open reads it as well, both must agree.
        guard case .success(let vault) = OpenHarness.fullOpen(made.file, transformedKey: made.transformedKey) else {
            return .accepted
        }
        let entries = vault.allEntries
        guard entries.count == skim.records.count else {
            return .violated("\(entries.count) entries in the model, \(skim.records.count) records in the index")
        }
        // Titles as a multiset (UUIDs are no key: an entry without a readable one gets a random
        // UUID in each reader, as in KeePass).
        let titles = skim.records.map { record -> String in
            let title = record.fields.lazy.map { skim.fields[Int($0)] }.first { $0.key == CredentialSkim.titleKey }
            return title.map { field in
                field.isSecret ? skim.arena.withRevealedSecret(field.value) { String(decoding: $0, as: UTF8.self) }
                    : skim.arena.string(field.value)
            } ?? ""
        }
        guard titles.sorted() == entries.map(\.title).sorted() else {
            return .violated("the index's titles differ from the model's")
        }
        return .accepted
    }
}
