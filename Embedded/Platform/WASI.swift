// The wasm32 builds (the demo and the web module) have no C library: the few symbols Embedded Swift and the codec need are
// defined here in Swift, over WASI preview 1 (which `wasmkit run` provides).
//
// - `_start` (the demo's, WASIStart.swift): the WASI command entry point.
// - `putchar`: buffered, written with `fd_write` to standard output at each newline.
// - `arc4random_buf`: what `SystemRandomNumberGenerator` calls; real randomness from WASI
//   `random_get` (used for the save's fresh seeds and IVs and the ProtectedString pads).
// - `posix_memalign`, `free`: a size-class allocator (see WASIHeap.swift).
// - `memcmp`: byte comparison (memcpy, memmove and memset become bulk-memory instructions).
// - `__multi3`: the compiler helper for 128-bit multiplication.
// - `ceil`: the one libm function the standard library calls (hash table sizing).

@_extern(wasm, module: "wasi_snapshot_preview1", name: "fd_write")
@_extern(c)
func wasiFDWrite(_ fd: Int32, _ iovs: UnsafeRawPointer, _ iovsCount: Int32, _ written: UnsafeMutablePointer<Int32>) -> Int32

@_extern(wasm, module: "wasi_snapshot_preview1", name: "random_get")
@_extern(c)
func wasiRandomGet(_ buffer: UnsafeMutableRawPointer, _ length: Int32) -> Int32

@_extern(wasm, module: "wasi_snapshot_preview1", name: "proc_exit")
@_extern(c)
func wasiProcExit(_ code: Int32)

/// Standard output, a line at a time.
nonisolated(unsafe) var outputLine = (pointer: UnsafeMutablePointer<UInt8>?.none, count: 0)
let outputCapacity = 4096

func flushOutput() {
    guard let pointer = outputLine.pointer, outputLine.count > 0 else { return }
    // One iovec: (buffer pointer, length) as two 32-bit words.
    var iovec: (UInt32, UInt32) = (UInt32(UInt(bitPattern: pointer)), UInt32(outputLine.count))
    var written: Int32 = 0
    _ = withUnsafePointer(to: &iovec) { wasiFDWrite(1, UnsafeRawPointer($0), 1, &written) }
    outputLine.count = 0
}

@_cdecl("putchar")
func putchar(_ character: Int32) -> Int32 {
    if outputLine.pointer == nil { outputLine.pointer = .allocate(capacity: outputCapacity) }
    outputLine.pointer![outputLine.count] = UInt8(truncatingIfNeeded: character)
    outputLine.count += 1
    if character == 10 || outputLine.count == outputCapacity { flushOutput() }
    return character
}

@_cdecl("arc4random_buf")
func arc4randomBuf(_ buffer: UnsafeMutableRawPointer, _ count: Int) {
    guard wasiRandomGet(buffer, Int32(count)) == 0 else { fatalError("WASI random_get failed") }
}

@_cdecl("memcmp")
func memcmp(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ count: Int) -> Int32 {
    for index in 0..<count {
        let a = lhs.load(fromByteOffset: index, as: UInt8.self), b = rhs.load(fromByteOffset: index, as: UInt8.self)
        if a != b { return a < b ? -1 : 1 }
    }
    return 0
}

@_cdecl("ceil")
func ceil(_ x: Double) -> Double { x.rounded(.up) }

/// The compiler helper for 128-bit multiplication (`UInt64.multipliedFullWidth` and friends):
/// the low 128 bits of a × b, written through `result` (low word first), as compiler-rt's
/// `__multi3` with wasm32's calling convention. Built from 32-bit halves so that it never calls
/// itself.
@_cdecl("__multi3")
func multi3(_ result: UnsafeMutablePointer<UInt64>, _ aLow: UInt64, _ aHigh: UInt64, _ bLow: UInt64, _ bHigh: UInt64) {
    let a0 = aLow & 0xFFFF_FFFF, a1 = aLow >> 32, b0 = bLow & 0xFFFF_FFFF, b1 = bLow >> 32
    let p00 = a0 &* b0, p01 = a0 &* b1, p10 = a1 &* b0, p11 = a1 &* b1
    let middle = (p00 >> 32) &+ (p01 & 0xFFFF_FFFF) &+ (p10 & 0xFFFF_FFFF)
    result[0] = (p00 & 0xFFFF_FFFF) | (middle << 32)
    result[1] = p11 &+ (p01 >> 32) &+ (p10 >> 32) &+ (middle >> 32) &+ aLow &* bHigh &+ aHigh &* bLow
}
