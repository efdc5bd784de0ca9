import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

/// One read pipeline: the staged reader (decrypt, inflate, parse, as the bench times them) and the
/// fused streaming open give the same vault and the same error codes, for wrong keys and for
/// damaged payloads alike.
@Suite("Staged and fused reads agree")
struct StagedReaderTests {
    enum Outcome: Equatable {
        case vault(Vault)
        case failure(KDBXError.Code)
    }

    static func staged(_ file: [UInt8], _ key: CompositeKey) -> Outcome {
        do throws(KDBXError) {
            let reader = try KDBXReader(file: file)
            let keys = try reader.deriveKeys(key)
            return .vault(try reader.parseContent(try reader.decompress(try reader.decryptPayload(keys: keys))))
        } catch {
            return .failure(error.code)
        }
    }

    static func fused(_ file: [UInt8], _ key: CompositeKey) -> Outcome {
        do throws(KDBXError) {
            return .vault(try KDBXCodec.open(file, key: key))
        } catch {
            return .failure(error.code)
        }
    }

    static let names = ["kdbx31-aes-aeskdf", "AesChaCha", "kdbx4-chacha20-aeskdf", "test_db_kdbx41_with_password_aes",
                        "kdbx3_example", "kdbx4_example-twofish", "kdbx4_example-nocompression"]
    static let fixtures: [Fixture] = FixtureCatalog.quick.filter { fixture in
        names.contains { fixture.name.hasSuffix("/" + $0) }
    }

    @Test("the right key: the same vault; a wrong key: wrongKey in both", arguments: fixtures)
    func keys(_ fixture: Fixture) throws {
        let file = try fixture.fileBytes
        let right = Self.staged(file, try fixture.compositeKey())
        guard case .vault = right else { Issue.record("\(fixture): \(right)"); return }
        #expect(right == Self.fused(file, try fixture.compositeKey()))
        #expect(Self.staged(file, try fixture.wrongKey()) == .failure(.wrongKey))
        #expect(Self.fused(file, try fixture.wrongKey()) == .failure(.wrongKey))
    }

    @Test("a truncated or bit-flipped payload: the same error code in both", arguments: fixtures)
    func damage(_ fixture: Fixture) throws {
        let file = try fixture.fileBytes
        let key = try fixture.compositeKey()
        let headerEnd = try KDBXReader(file: file).payloadOffset
        var damaged: [[UInt8]] = []
        for cut in [headerEnd + 1, headerEnd + (file.count - headerEnd) / 2, file.count - 1] {
            damaged.append(Array(file[..<cut]))
        }
        for offset in stride(from: headerEnd, to: file.count, by: max(1, (file.count - headerEnd) / 12)) {
            var flipped = file
            flipped[offset] ^= 0x10
            damaged.append(flipped)
        }
        for bytes in damaged {
            let staged = Self.staged(bytes, key)
            let fused = Self.fused(bytes, key)
            #expect(staged == fused, "\(fixture): staged \(staged), fused \(fused)")
            if case .vault = staged { Issue.record("\(fixture): a damaged payload read as a vault") }
        }
    }
}
