import MyPassCore
import MyPassKDBX

/// The import formats through `VaultImport.read(_:format:now:)`; an import that reads must also
/// make a vault.
enum ImportHarness {
    static func run(_ data: [UInt8], format: VaultImport.Format) -> FuzzOutcome {
        let now = KDBXTime(unixSeconds: 1_700_000_000)
        do throws(CoreError) {
            let contents = try VaultImport.read(data, format: format, now: now)
            var vault = Vault(root: Group(name: "Root"))
            _ = try vault.addImported(contents, asGroupNamed: "Imported", now: now)
            return .accepted
        } catch {
            return .rejection(of: error, code: error.code)
        }
    }
}
