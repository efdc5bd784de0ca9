/// Compares two byte sequences in time that depends only on their lengths, never on where they
/// first differ. Use it for MACs, hashes and key checks.
///
/// - Returns: `true` when both hold the same bytes. Different lengths return `false` at once
///   (lengths are public).
public func constantTimeEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<lhs.count {
        difference |= lhs[index] ^ rhs[index]
    }
    return difference == 0
}

/// Compares two byte collections in constant time (see the buffer overload).
public func constantTimeEquals<A: Collection, B: Collection>(_ lhs: A, _ rhs: B) -> Bool
where A.Element == UInt8, B.Element == UInt8 {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for (a, b) in zip(lhs, rhs) {
        difference |= a ^ b
    }
    return difference == 0
}
