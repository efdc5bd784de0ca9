extension Ed25519Point {
    /// d·16^w·B for w in 0 ..< 64 and d in 0 ..< 16, at index 16·w + d (1,024 points, 128 KiB),
    /// computed once on first use.
    @usableFromInline static let baseTable: [Ed25519Point] = {
        var table: [Ed25519Point] = []
        table.reserveCapacity(64 * 16)
        var base = Ed25519Point.base
        for _ in 0..<64 {
            var multiple = Ed25519Point.identity
            for _ in 0..<16 {
                table.append(multiple)
                multiple = multiple.adding(base)
            }
            base = multiple
        }
        return table
    }()

    /// `scalar · B` with the fixed-base table: 64 complete additions, each of a table entry read
    /// by a masked scan of its whole 16-entry window (no secret branch or address).
    @inlinable
    static func multipliedBase(by scalar: UInt256) -> Ed25519Point {
        baseTable.withUnsafeBufferPointer { table in
            var result = Ed25519Point.identity
            for window in 0..<64 {
                let digit = scalar.nibble(window * 4)
                var chosen = Ed25519Point.identity
                for index in 0..<16 {
                    let difference = UInt64(index) ^ digit
                    let mask = ((difference | (0 &- difference)) &>> 63) &- 1
                    chosen = .select(mask, table[window * 16 + index], chosen)
                }
                result = result.adding(chosen)
            }
            return result
        }
    }
}
