import Foundation
import MyPassTestSupport
import Testing

/// One Wycheproof signature verification test (`EcdsaVerify`, `EddsaVerify`, schema v1).
struct WycheproofSignatureTest: CustomTestStringConvertible, Sendable {
    var tcId: Int
    var comment: String
    var flags: [String]
    /// The public key: SEC 1 uncompressed point for ECDSA, 32 bytes for Ed25519.
    var publicKey: [UInt8]
    var message: [UInt8]
    var signature: [UInt8]
    /// "valid" or "invalid" (these files have no "acceptable" cases).
    var result: String

    var testDescription: String { "tcId \(tcId) \(comment) \(flags)" }
}

/// Reads every test of a Wycheproof verify file under `Vectors/`.
func wycheproofSignatureTests(_ path: String) throws -> [WycheproofSignatureTest] {
    let root = try parseJSON(TestVectors.text(path)) as! [String: Any]
    var tests: [WycheproofSignatureTest] = []
    for group in root["testGroups"] as! [[String: Any]] {
        let key = group["publicKey"] as! [String: Any]
        let publicKey = hexBytes((key["uncompressed"] as? String) ?? (key["pk"] as! String))
        for test in group["tests"] as! [[String: Any]] {
            tests.append(WycheproofSignatureTest(
                tcId: test["tcId"] as! Int, comment: test["comment"] as! String,
                flags: test["flags"] as! [String], publicKey: publicKey,
                message: hexBytes(test["msg"] as! String), signature: hexBytes(test["sig"] as! String),
                result: test["result"] as! String))
        }
    }
    return tests
}
