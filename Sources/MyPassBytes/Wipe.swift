/// Zeroes `count` bytes at `pointer` in a way the optimiser does not remove.
///
/// The writes go through an opaque, non-inlined function so that a dead-store elimination pass
/// cannot prove them unused.
@inline(never)
public func secureZero(_ pointer: UnsafeMutableRawPointer, count: Int) {
    guard count > 0 else { return }
    let bytes = pointer.assumingMemoryBound(to: UInt8.self)
    for index in 0..<count {
        bytes[index] = 0
    }
    _blackHole(pointer)
}

@inline(never)
@usableFromInline
func _blackHole(_ pointer: UnsafeMutableRawPointer) {
    withExtendedLifetime(pointer) {}
}

/// Overwrites every byte of `bytes` with zero, keeping its count. Use on scratch arrays that held
/// key material before they go out of scope.
public func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress { secureZero(base, count: buffer.count) }
    }
}

/// Overwrites every element of `words` with zero.
public func wipe<T: FixedWidthInteger>(_ words: inout [T]) {
    words.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress { secureZero(base, count: buffer.count) }
    }
}
