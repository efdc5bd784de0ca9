/// Builds length-limited canonical Huffman codes for the deflater (RFC 1951 §3.2.2).
enum HuffmanCodeBuilder {
    /// Computes code lengths for `count` symbols with the given frequencies, at most `maxBits`
    /// bits each. Optimal Huffman lengths are computed with the two-queue method; lengths above the
    /// limit are folded back as zlib's `gen_bitlen` does, then handed out so that rarer symbols
    /// get the longer codes. At least two symbols receive a code (RFC 1951 needs one bit even for
    /// a single symbol; zlib does the same).
    /// - Returns: the highest symbol with a nonzero length.
    @discardableResult
    static func buildLengths(
        frequencies: UnsafePointer<UInt32>, count: Int, maxBits: Int, lengths: UnsafeMutablePointer<UInt8>
    ) -> Int {
        lengths.update(repeating: 0, count: count)
        var leaves: [(freq: UInt32, symbol: Int)] = []
        leaves.reserveCapacity(count)
        for s in 0..<count where frequencies[s] != 0 { leaves.append((frequencies[s], s)) }
        if leaves.count < 2 {
            let first = leaves.first?.symbol ?? 0
            let second = first == 0 ? 1 : 0
            lengths[first] = 1
            lengths[second] = 1
            return max(first, second)
        }
        leaves.sort { $0.freq != $1.freq ? $0.freq < $1.freq : $0.symbol < $1.symbol }
        let n = leaves.count
        // Nodes 0..<n are leaves (sorted), n..<2n-1 internal nodes in creation order.
        var weight = [UInt64](repeating: 0, count: 2 * n - 1)
        var parent = [Int](repeating: 0, count: 2 * n - 1)
        for i in 0..<n { weight[i] = UInt64(leaves[i].freq) }
        var leafNext = 0
        var nodeNext = n
        for created in n..<(2 * n - 1) {
            var picks = (0, 0)
            for k in 0..<2 {
                let pick: Int
                if leafNext < n && (nodeNext >= created || weight[leafNext] <= weight[nodeNext]) {
                    pick = leafNext
                    leafNext += 1
                } else {
                    pick = nodeNext
                    nodeNext += 1
                }
                if k == 0 { picks.0 = pick } else { picks.1 = pick }
            }
            weight[created] = weight[picks.0] + weight[picks.1]
            parent[picks.0] = created
            parent[picks.1] = created
        }
        // Depths, root first (the root is the last node).
        var depth = [Int](repeating: 0, count: 2 * n - 1)
        for node in stride(from: 2 * n - 3, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        var bitLengthCount = [Int](repeating: 0, count: max(maxBits, 64) + 1)
        var overflow = 0
        for i in 0..<n {
            var d = depth[i]
            if d > maxBits {
                d = maxBits
                overflow += 1
            }
            bitLengthCount[d] += 1
        }
        if overflow > 0 {
            // zlib's fix: move a leaf from the deepest level below the limit down one level,
            // which makes room for one overflowed leaf; each step lowers the Kraft sum by
            // 2^-maxBits, so repeat until the code is exactly complete again.
            var excess = -(1 << maxBits)
            for bits in 1...maxBits { excess += bitLengthCount[bits] << (maxBits - bits) }
            while excess > 0 {
                var bits = maxBits - 1
                while bitLengthCount[bits] == 0 { bits -= 1 }
                bitLengthCount[bits] -= 1
                bitLengthCount[bits + 1] += 2
                bitLengthCount[maxBits] -= 1
                excess -= 1
            }
        }
        // Hand out the lengths: the rarest symbols (start of `leaves`) get the longest codes.
        var index = 0
        for bits in stride(from: maxBits, through: 1, by: -1) {
            for _ in 0..<bitLengthCount[bits] {
                lengths[leaves[index].symbol] = UInt8(bits)
                index += 1
            }
        }
        var maxCode = count - 1
        while maxCode > 0 && lengths[maxCode] == 0 { maxCode -= 1 }
        return maxCode
    }

    /// Canonical codes for `lengths`, bit-reversed so that they can be sent LSB first.
    static func reversedCodes(lengths: UnsafePointer<UInt8>, count: Int, codes: UnsafeMutablePointer<UInt16>) {
        var bitLengthCount = [Int](repeating: 0, count: 16)
        for s in 0..<count { bitLengthCount[Int(lengths[s])] += 1 }
        bitLengthCount[0] = 0
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1...15 {
            code = (code + bitLengthCount[bits - 1]) << 1
            next[bits] = code
        }
        for s in 0..<count {
            let len = Int(lengths[s])
            if len == 0 {
                codes[s] = 0
                continue
            }
            codes[s] = UInt16(HuffmanTable.reverseBits(next[len], length: len))
            next[len] += 1
        }
    }
}
