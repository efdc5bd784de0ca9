// The threads experiment's exports (Web/threads/build.sh links them with MyPassCrypto's own Argon2
// and BLAKE2b sources, Web/threads/bench.js drives them): the same derivation either in one call
// (`argon2_lanes_derive_serial`, Argon2.deriveKey with serial lanes, as the page runs it today) or
// step by step, so that JavaScript can run one lane's segment of each slice on another Web
// Worker that shares this module's memory (`start`, then `fill_segment` per lane and slice with
// a barrier between slices, then `finish`). Not part of the product: a measurement.

import MyPassBytes

/// The derivation in progress (one at a time), shared by every instance through linear memory.
nonisolated(unsafe) var lanesMatrix: Argon2Matrix?
nonisolated(unsafe) var lanesParameters: Argon2.Parameters?

func bytes(_ pointer: UnsafePointer<UInt8>, _ count: Int32) -> [UInt8] {
    Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
}

func parameters(_ salt: UnsafePointer<UInt8>, _ saltCount: Int32, _ memoryKiB: Int32, _ iterations: Int32,
                _ lanes: Int32, _ variant: Int32) -> Argon2.Parameters {
    Argon2.Parameters(
        variant: variant == 0 ? .argon2d : (variant == 1 ? .argon2i : .argon2id), memoryKiB: UInt32(memoryKiB),
        iterations: UInt32(iterations), parallelism: UInt32(lanes), salt: bytes(salt, saltCount))
}

/// Allocates `count` bytes (the inputs, the output, a worker's stack); 0 when it cannot.
@_expose(wasm, "argon2_lanes_alloc")
func lanesAlloc(_ count: Int32) -> Int32 {
    Int32(bitPattern: UInt32(UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: Int(count), alignment: 64))))
}

/// Argon2 in one call, lanes one after another; writes 32 bytes to `output`. Returns 0, or 1
/// when the parameters are refused.
@_expose(wasm, "argon2_lanes_derive_serial")
func lanesDeriveSerial(_ password: UnsafePointer<UInt8>, _ passwordCount: Int32, _ salt: UnsafePointer<UInt8>,
                       _ saltCount: Int32, _ memoryKiB: Int32, _ iterations: Int32, _ lanes: Int32, _ variant: Int32,
                       _ output: UnsafeMutablePointer<UInt8>) -> Int32 {
    let p = parameters(salt, saltCount, memoryKiB, iterations, lanes, variant)
    do {
        let key = try Argon2.deriveKey(password: bytes(password, passwordCount), parameters: p)
        for index in 0..<32 { output[index] = key[index] }
        return 0
    } catch {
        return 1
    }
}

/// Validates, allocates the matrix and fills each lane's first two blocks (RFC 9106 §3.2 steps
/// 1-5). Returns 0, or 1 when the parameters are refused.
@_expose(wasm, "argon2_lanes_start")
func lanesStart(_ password: UnsafePointer<UInt8>, _ passwordCount: Int32, _ salt: UnsafePointer<UInt8>,
                _ saltCount: Int32, _ memoryKiB: Int32, _ iterations: Int32, _ lanes: Int32, _ variant: Int32) -> Int32 {
    let p = parameters(salt, saltCount, memoryKiB, iterations, lanes, variant)
    do { try p.validate() } catch { return 1 }
    let laneCount = Int(lanes)
    let blockCount = 4 * laneCount * (Int(memoryKiB) / (4 * laneCount))
    var h0 = Argon2.initialHash(password: bytes(password, passwordCount), parameters: p)
    let matrix = Argon2Matrix(blockCount: blockCount, lanes: laneCount, platform: CryptoPlatform())
    matrix.fillFirstBlocks(h0: h0)
    wipe(&h0)
    lanesMatrix = matrix
    lanesParameters = p
    return 0
}

/// One lane's segment of one slice (RFC 9106 §3.4); any instance may call it for its lane
/// between two slice barriers.
@_expose(wasm, "argon2_lanes_fill_segment")
func lanesFillSegment(_ pass: Int32, _ slice: Int32, _ lane: Int32) {
    guard let matrix = lanesMatrix, let p = lanesParameters else { return }
    matrix.fillSegment(pass: Int(pass), lane: Int(lane), slice: Int(slice), iterations: p.iterations,
                       variant: p.variant, version: p.version)
}

/// The final block and H' (steps 7-8): writes 32 bytes to `output`, wipes and frees the matrix.
@_expose(wasm, "argon2_lanes_finish")
func lanesFinish(_ output: UnsafeMutablePointer<UInt8>) {
    guard let matrix = lanesMatrix else { return }
    var final = matrix.finalBlock()
    let key = Argon2.variableLengthHash(final, outputByteCount: 32)
    wipe(&final)
    for index in 0..<32 { output[index] = key[index] }
    matrix.wipeAndDeallocate()
    lanesMatrix = nil
    lanesParameters = nil
}
