import MyPassBytes
import MyPassCrypto

/// The passkey private key readers (KeePassXC keeps the key as PKCS#8 PEM): the DER structure
/// check, PKCS#8 and SEC 1 DER, and PEM when the input looks like one.
enum PasskeyHarness {
    static func run(_ data: [UInt8]) -> FuzzOutcome {
        var accepted: [String] = []
        var refusals: [String] = []
        do throws(BytesError) { try DERReader.validateStructure(data[...]); accepted.append("der") } catch {
            refusals.append("BytesError.\(error.code)")
        }
        do throws(CryptoError) { _ = try SigningPrivateKey(pkcs8DER: data); accepted.append("pkcs8") } catch {
            refusals.append("CryptoError.\(error.code)")
        }
        do throws(CryptoError) { _ = try SigningPrivateKey(sec1DER: data); accepted.append("sec1") } catch {
            refusals.append("CryptoError.\(error.code)")
        }
        if data.starts(with: Array("-----".utf8)) {
            do throws(CryptoError) { _ = try SigningPrivateKey(pemUTF8: data); accepted.append("pem") } catch {
                refusals.append("CryptoError.\(error.code)")
            }
        }
        if !accepted.isEmpty && accepted != ["der"] { return .accepted }
        return .rejected(refusals.joined(separator: ","))
    }
}
