import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// The harnesses of the KDBX container: outer header, VariantDictionary, inner header, key file.
enum ContainerHarnesses {
    /// The outer header; a header that reads must also serialize, and its serialization must read.
    static func header(_ data: [UInt8]) -> FuzzOutcome {
        do throws(KDBXError) {
            var (header, _) = try KDBXHeader.read(from: data[...])
            var again = try header.serialized()
            // KDBX 4 headers are followed by their SHA-256 and HMAC (the HMAC is checked later).
            if header.version.isKDBX4 { again += SHA256.hash(again) + [UInt8](repeating: 0, count: 32) }
            do throws(KDBXError) { _ = try KDBXHeader.read(from: again[...]) } catch {
                return .violated("a serialized header does not read: \(error.code)")
            }
            return .accepted
        } catch {
            return .rejection(of: error, code: error.code)
        }
    }

    /// A VariantDictionary; one that parses must serialize to one that parses equal.
    static func variantDictionary(_ data: [UInt8]) -> FuzzOutcome {
        do throws(KDBXError) {
            let dictionary = try VariantDictionary(parsing: data[...])
            do throws(KDBXError) {
                guard try VariantDictionary(parsing: dictionary.serialized()[...]) == dictionary else {
                    return .violated("serialize then parse changes the dictionary")
                }
            } catch {
                return .violated("a serialized dictionary does not parse: \(error.code)")
            }
            return .accepted
        } catch {
            return .rejection(of: error, code: error.code)
        }
    }

    /// The inner header, fed whole and in two pieces (split where the first byte says): both
    /// readings must agree on the header and on the bytes after it.
    static func innerHeader(_ data: [UInt8]) -> FuzzOutcome {
        func read(_ pieces: [ArraySlice<UInt8>]) -> (header: [UInt8]?, rest: [UInt8], error: KDBXError.Code?) {
            var reader = InnerHeader.Parser(limits: KDBXLimits())
            var rest: [UInt8] = []
            do throws(KDBXError) {
                for piece in pieces {
                    if let after = try reader.feed(piece) { rest.append(contentsOf: after) }
                }
                return (reader.header?.serialized(), rest, nil)
            } catch {
                return (nil, [], error.code)
            }
        }
        let whole = read([data[...]])
        let split = data.isEmpty ? 0 : Int(data[0]) % (data.count + 1)
        let pieces = read([data[..<split], data[split...]])
        guard whole.header == pieces.header, whole.rest == pieces.rest, whole.error == pieces.error else {
            return .violated("the inner header reads differently when split at \(split)")
        }
        if let code = whole.error { return .rejected("KDBXError.\(code)") }
        return whole.header == nil ? .rejected("incomplete") : .accepted
    }

    /// A key file, read alone and as the key-file component of a composite key.
    static func keyFile(_ data: [UInt8]) -> FuzzOutcome {
        do throws(KDBXError) {
            let (key, _) = try KeyFile.read(data)
            guard key.count == 32 else { return .violated("a key file gave a \(key.count)-byte key") }
            _ = try CompositeKey(password: nil, keyFileContents: data)
            return .accepted
        } catch {
            return .rejection(of: error, code: error.code)
        }
    }
}
