import MyPassCompression

/// DEFLATE, zlib and gzip inflate. The first byte picks the format (its value mod 3) and a split
/// point; the rest is inflated whole and in two pieces, which must agree on output and error.
enum InflateHarness {
    /// Output cap, so that a small bomb is a limit error, not a memory blow-up (16 MiB).
    static let maxOutputBytes = 16 << 20

    static func run(_ data: [UInt8]) -> FuzzOutcome {
        guard let first = data.first else { return .rejected("empty") }
        let format: CompressionFormat = [.raw, .zlib, .gzip][Int(first) % 3]
        let input = data[1...]
        let split = input.startIndex + Int(first) % (input.count + 1)
        let whole = inflate([input], format: format)
        let pieces = inflate([input[..<split], input[split...]], format: format)
        guard whole.output == pieces.output, whole.error == pieces.error else {
            return .violated("inflate gives another result when split at \(split - input.startIndex)")
        }
        if let code = whole.error { return .rejected("CompressionError.\(code)") }
        return .accepted
    }

    static func inflate(_ pieces: [ArraySlice<UInt8>], format: CompressionFormat) -> (output: [UInt8], error: CompressionError.Code?) {
        var inflater = Inflater(format: format, maxOutputBytes: maxOutputBytes)
        var output: [UInt8] = []
        do throws(CompressionError) {
            for piece in pieces { output += try inflater.update(piece) }
            output += try inflater.finish()
            return (output, nil)
        } catch {
            return ([], error.code)
        }
    }
}
