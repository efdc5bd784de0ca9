import MyPassKDBX
import MyPassTestSupport
import Testing

/// Regressions found in review: KDBX 3.x `Compressed="True"` binaries were each bounded by
/// `maxBinaryBytes`, but not together, so a body of many small gzip bombs could inflate without
/// bound (a few hundred bytes each, up to 1 GiB each by default).
@Suite("Regression: gzip-compressed binaries share one inflation budget")
struct RegressionInflationTests {
    /// Four Meta binaries of 256 KiB of zeros, 289 bytes of gzip each; entry refers to 0 and 3.
    static func xml() throws -> [UInt8] { try TestVectors.bytes("kdbx-xml/regressions/gzip-binaries-add-up-3x.xml") }
    static let binaryBytes = 256 * 1024

    func read(maxBinaryBytes: Int) throws -> VaultBody {
        var stream = ClearTestStream()
        return try VaultXMLReader.read(
            try Self.xml(), version: .v3_1, stream: &stream, limits: VaultXMLLimits(maxBinaryBytes: maxBinaryBytes))
    }

    @Test("the binaries read when their total fits the budget")
    func totalWithinBudget() throws {
        let body = try read(maxBinaryBytes: 4 * Self.binaryBytes)
        let attachments = body.root.entries.first?.attachments ?? []
        #expect(attachments.map(\.name) == ["a.bin", "b.bin"])
        #expect(attachments.map(\.data.count) == [Self.binaryBytes, Self.binaryBytes])
        #expect(attachments.allSatisfy { $0.data.allSatisfy { $0 == 0 } })
    }

    @Test("each binary fits the limit, but together they do not: limitExceeded")
    func totalOverBudget() {
        // Before the fix this read succeeded, holding 4 x 256 KiB under a "1 MiB - 1" limit.
        #expect(throws: KDBXError(.limitExceeded)) { _ = try read(maxBinaryBytes: 4 * Self.binaryBytes - 1) }
        #expect(throws: KDBXError(.limitExceeded)) { _ = try read(maxBinaryBytes: Self.binaryBytes + 1) }
    }
}
