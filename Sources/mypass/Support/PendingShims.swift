// TEMPORARY stand-ins for APIs that kdbx-container and core are writing in parallel, following
// CONTRACTS.md, so that the CLI compiles and its output code can be written. Deleted when the
// real modules are merged.
import Foundation
import MyPassBytes
import MyPassKDBX

struct CompositeKey: Sendable {
    init(password: ProtectedString?, keyFileContents: [UInt8]?) throws(KDBXError) {}
}

enum KDBXCodec {
    static func open(_ file: [UInt8], key: CompositeKey) throws(KDBXError) -> Vault {
        throw KDBXError(.unsupported, "codec not merged yet")
    }
    static func save(_ vault: Vault, key: CompositeKey) throws(KDBXError) -> [UInt8] {
        throw KDBXError(.unsupported, "codec not merged yet")
    }
}
