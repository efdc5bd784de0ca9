import MyPassKDBX

/// Protected values in clear (the fuzzer writes them as plain base64).
struct ClearValues: ProtectedValueStream {
    mutating func apply(to bytes: inout [UInt8]) {}
}

/// The XML body reader, fed whole and in 61-byte chunks: both must agree on accept or refuse,
/// and on the code of the refusal.
enum XMLBodyHarness {
    static func run(_ data: [UInt8]) -> FuzzOutcome {
        let whole = read([data[...]])
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < data.count {
            chunks.append(data[start..<min(start + 61, data.count)])
            start += 61
        }
        let chunked = read(chunks)
        guard whole == chunked else {
            return .violated("the body reads differently in chunks (\(String(describing: whole)) vs \(String(describing: chunked)))")
        }
        if let code = whole { return .rejected("KDBXError.\(code)") }
        return .accepted
    }

    /// The error code of reading `chunks` as a KDBX 4.1 body, `nil` when it reads.
    static func read(_ chunks: [ArraySlice<UInt8>]) -> KDBXError.Code? {
        var reader = VaultXMLReader(version: .v4_1)
        var stream = ClearValues()
        do throws(KDBXError) {
            for chunk in chunks { try reader.feed(chunk, stream: &stream) }
            _ = try reader.finish(stream: &stream)
            return nil
        } catch {
            return error.code
        }
    }

    /// Reads one body in clear (for the merge harness).
    static func body(_ data: ArraySlice<UInt8>) throws(KDBXError) -> VaultBody {
        var reader = VaultXMLReader(version: .v4_1)
        var stream = ClearValues()
        try reader.feed(data, stream: &stream)
        return try reader.finish(stream: &stream)
    }
}
