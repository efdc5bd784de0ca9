import MyPassCore
import MyPassKDBX

/// A merge of two vaults: the first two bytes (little-endian) are the length of the local
/// vault's XML body, the rest is the remote one's. Both must read; then the merge either
/// refuses with a typed error or gives a vault that merges with the remote again without error.
enum MergeHarness {
    static func run(_ data: [UInt8]) -> FuzzOutcome {
        guard data.count >= 2 else { return .rejected("short") }
        let localCount = min(Int(data[0]) | Int(data[1]) << 8, data.count - 2)
        let local: Vault
        let remote: Vault
        do throws(KDBXError) {
            local = Vault(format: VaultFormat(), body: try XMLBodyHarness.body(data[2..<(2 + localCount)]))
            remote = Vault(format: VaultFormat(), body: try XMLBodyHarness.body(data[(2 + localCount)...]))
        } catch {
            return .rejection(of: error, code: error.code)
        }
        do throws(CoreError) {
            let merged = try VaultMerge.merge(local: local, remote: remote)
            do throws(CoreError) { _ = try VaultMerge.merge(local: merged.vault, remote: remote) } catch {
                return .violated("a merged vault does not merge with its remote again: \(error.code)")
            }
            return .accepted
        } catch {
            return .rejection(of: error, code: error.code)
        }
    }
}
