extension P256Point {
    /// d·16^w·G for w in 0 ..< 64 and d in 0 ..< 16, at index 16·w + d (1,024 points, 96 KiB),
    /// computed once on first use (about 1,100 point additions and doublings).
    @usableFromInline static let generatorTable: [P256Point] = {
        var table: [P256Point] = []
        table.reserveCapacity(64 * 16)
        var base = P256Point.generator
        for _ in 0..<64 {
            var multiple = P256Point.infinity
            for _ in 0..<16 {
                table.append(multiple)
                multiple = multiple.adding(base)
            }
            // multiple is now 16·base.
            base = multiple
        }
        return table
    }()

    /// `scalar · G` with the fixed-base table: 64 complete additions, no doublings. Each of the
    /// 64 lookups scans all 16 entries of its window under a mask, so neither the branches nor
    /// the memory addresses depend on the scalar.
    @inlinable
    static func multipliedGenerator(by scalar: UInt256) -> P256Point {
        generatorTable.withUnsafeBufferPointer { table in
            var result = P256Point.infinity
            for window in 0..<64 {
                let digit = scalar.nibble(window * 4)
                var chosen = P256Point.infinity
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
