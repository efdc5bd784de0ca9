import Foundation
import MyPassKDBX
import MyPassTestSupport


/// Reads a Vectors/kdbx-xml plain XML export with the null stream (protected values in clear).
func readPlainExport(_ name: String) throws -> VaultBody {
    let bytes = try TestVectors.bytes("kdbx-xml/" + name)
    var stream = ClearTestStream()
    return try VaultXMLReader.read(bytes, version: .v4_0, stream: &stream)
}

/// Our manifest of `vault`, parsed.
func manifest(of vault: Vault) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(VaultManifest.json(of: vault).utf8))
}

