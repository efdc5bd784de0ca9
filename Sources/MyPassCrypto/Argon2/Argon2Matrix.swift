import MyPassBytes

/// The Argon2 memory matrix (RFC 9106 §3.2): `lanes` rows of `laneLength` blocks of 1024 bytes,
/// held as one contiguous allocation of 128 × `blockCount` little-endian 64-bit words.
///
/// It is `@unchecked Sendable` because the lanes' threads only ever write the blocks of their own
/// segment and read blocks that were completed before the last slice barrier (RFC 9106 §3.4).
/// The memory and the threads are the platform's (``CryptoPlatform``); without a parallel loop
/// the lanes of a slice run one after another, which gives the same result: within a slice no
/// lane reads another lane's new blocks.
struct Argon2Matrix: @unchecked Sendable {
    let words: UnsafeMutablePointer<UInt64>
    /// The platform's release of `words`, nil when they came from `allocate`.
    let free: CryptoPlatform.FreeLarge?
    /// The platform's parallel loop for the lanes, nil: one after another.
    let concurrentPerform: CryptoPlatform.ConcurrentPerform?
    let blockCount: Int
    let lanes: Int
    let laneLength: Int
    let segmentLength: Int
    /// The rotation shift counts, read from memory by the fill (see ``RotationCounts``).
    let rotationCounts = RotationCounts()

    /// Allocates (without touching) `blockCount` blocks split into `lanes` lanes, from
    /// `platform`'s large memory when it has some; `blockCount` must be a multiple of 4 × `lanes`.
    init(blockCount: Int, lanes: Int, platform: CryptoPlatform) {
        self.blockCount = blockCount
        self.lanes = lanes
        laneLength = blockCount / lanes
        segmentLength = laneLength / Argon2Matrix.syncPoints
        let byteCount = blockCount * Argon2Matrix.wordsPerBlock * 8
        if let memory = platform.largeMemory, let raw = memory.allocate(byteCount) {
            words = raw.bindMemory(to: UInt64.self, capacity: blockCount * Argon2Matrix.wordsPerBlock)
            free = memory.free
        } else {
            words = UnsafeMutablePointer<UInt64>.allocate(capacity: blockCount * Argon2Matrix.wordsPerBlock)
            free = nil
        }
        concurrentPerform = platform.concurrentPerform
    }

    static let wordsPerBlock = 128
    /// Slices per pass (SL in RFC 9106).
    static let syncPoints = 4

    /// Overwrites the whole matrix with zeros and frees it.
    func wipeAndDeallocate() {
        let byteCount = blockCount * Argon2Matrix.wordsPerBlock * 8
        secureZero(UnsafeMutableRawPointer(words), count: byteCount)
        if let free {
            free(UnsafeMutableRawPointer(words), byteCount)
        } else {
            words.deallocate()
        }
    }

    /// B[i][0] = H'(H0 || LE32(0) || LE32(i)) and B[i][1] = H'(H0 || LE32(1) || LE32(i)), 1024
    /// bytes each (RFC 9106 §3.2 steps 4-5).
    func fillFirstBlocks(h0: [UInt8]) {
        for lane in 0..<lanes {
            for column in 0..<2 {
                var input = h0
                input.appendLittleEndian(UInt32(column))
                input.appendLittleEndian(UInt32(lane))
                var block = Argon2.variableLengthHash(input, outputByteCount: 1024)
                let target = words + (lane * laneLength + column) * Argon2Matrix.wordsPerBlock
                block.withUnsafeBytes { bytes in
                    for k in 0..<Argon2Matrix.wordsPerBlock {
                        target[k] = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
                    }
                }
                wipe(&input)
                wipe(&block)
            }
        }
    }

    /// Runs `iterations` passes (RFC 9106 §3.2 step 6), slice by slice, lanes in parallel with the
    /// platform's loop (one after another without it).
    /// - Returns: `false` when `progress` asked to stop (after a slice boundary).
    func fill(iterations: UInt32, variant: Argon2.Variant, version: UInt32, progress: KDFProgressHandler? = nil) -> Bool {
        let totalSlices = Double(Int(iterations) * Argon2Matrix.syncPoints)
        for pass in 0..<Int(iterations) {
            for slice in 0..<Argon2Matrix.syncPoints {
                if let progress, !progress(Double(pass * Argon2Matrix.syncPoints + slice) / totalSlices) { return false }
                // Also for one lane (it then runs on this thread): the fill is only ever reached
                // through this closure, which keeps `rotationCounts` opaque to the optimiser.
                let fillLane = { @Sendable (lane: Int) in
                    fillSegment(
                        pass: pass, lane: lane, slice: slice, iterations: iterations, variant: variant, version: version)
                }
                if let concurrentPerform {
                    concurrentPerform(lanes, fillLane)
                } else {
                    for lane in 0..<lanes { fillLane(lane) }
                }
            }
        }
        if let progress { _ = progress(1) }
        return true
    }

    /// C = XOR of the last block of every lane, as 1024 little-endian bytes (step 7).
    func finalBlock() -> [UInt8] {
        var accumulator = [UInt64](repeating: 0, count: Argon2Matrix.wordsPerBlock)
        for lane in 0..<lanes {
            let last = words + ((lane + 1) * laneLength - 1) * Argon2Matrix.wordsPerBlock
            for k in 0..<Argon2Matrix.wordsPerBlock { accumulator[k] ^= last[k] }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(1024)
        for word in accumulator { bytes.appendLittleEndian(word) }
        wipe(&accumulator)
        return bytes
    }

    /// Fills one segment (RFC 9106 §3.4): the blocks of `lane` in `slice` during `pass`.
    func fillSegment(pass: Int, lane: Int, slice: Int, iterations: UInt32, variant: Argon2.Variant, version: UInt32) {
        let dataIndependent = variant == .argon2i || (variant == .argon2id && pass == 0 && slice < 2)
        let wordsPerBlock = Argon2Matrix.wordsPerBlock
        // Scratch: R for the compression, then (data-independent only) zero, input and address blocks.
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 4 * wordsPerBlock) { scratchBuffer in
            let scratch = scratchBuffer.baseAddress!
            let zeroBlock = scratch + wordsPerBlock
            let inputBlock = scratch + 2 * wordsPerBlock
            let addressBlock = scratch + 3 * wordsPerBlock
            defer { secureZero(UnsafeMutableRawPointer(scratch), count: 4 * wordsPerBlock * 8) }
            if dataIndependent {
                zeroBlock.initialize(repeating: 0, count: 3 * wordsPerBlock)
                inputBlock[0] = UInt64(pass)
                inputBlock[1] = UInt64(lane)
                inputBlock[2] = UInt64(slice)
                inputBlock[3] = UInt64(blockCount)
                inputBlock[4] = UInt64(iterations)
                inputBlock[5] = UInt64(variant.typeNumber)
            }
            let counts = rotationCounts
            /// G (release: SIMD; debug and wasm32: the scalar reference, see
            /// Argon2Matrix+CompressScalar.swift).
            @inline(__always)
            func compress(
                _ x: UnsafeMutablePointer<UInt64>, _ y: UnsafeMutablePointer<UInt64>,
                into next: UnsafeMutablePointer<UInt64>, xorInto: Bool
            ) {
                #if DEBUG || arch(wasm32)
                Argon2Matrix.compressScalar(x, y, into: next, scratch: scratch, xorInto: xorInto)
                #else
                Argon2Matrix.compress(x, y, into: next, scratch: scratch, xorInto: xorInto, counts: counts)
                #endif
            }
            func nextAddresses() {
                inputBlock[6] &+= 1
                compress(zeroBlock, inputBlock, into: addressBlock, xorInto: false)
                compress(zeroBlock, addressBlock, into: addressBlock, xorInto: false)
            }

            var startingIndex = 0
            if pass == 0 && slice == 0 {
                startingIndex = 2
                if dataIndependent { nextAddresses() }
            }
            let laneStart = lane * laneLength
            var currentColumn = slice * segmentLength + startingIndex
            var previousColumn = currentColumn == 0 ? laneLength - 1 : currentColumn - 1
            let overwrite = version == 0x10 || pass == 0
            let sameSliceArea = slice * segmentLength
            let lanes = UInt64(self.lanes)
            let startPosition = pass == 0 ? 0 : (slice == Argon2Matrix.syncPoints - 1 ? 0 : (slice + 1) * segmentLength)

            for index in startingIndex..<segmentLength {
                let pseudoRandom: UInt64
                if dataIndependent {
                    if index % wordsPerBlock == 0 { nextAddresses() }
                    pseudoRandom = addressBlock[index % wordsPerBlock]
                } else {
                    pseudoRandom = words[(laneStart + previousColumn) * wordsPerBlock]
                }
                // Reference lane (§3.4.1.2): J2 mod p, but the own lane throughout the first slice of pass 0.
                let referenceLane = (pass == 0 && slice == 0) ? lane : Int((pseudoRandom &>> 32) % lanes)
                let sameLane = referenceLane == lane
                // Size of the reference set W (§3.4.1.2).
                let areaSize: Int
                if pass == 0 {
                    if slice == 0 || sameLane {
                        areaSize = sameSliceArea + index - 1
                    } else {
                        areaSize = sameSliceArea + (index == 0 ? -1 : 0)
                    }
                } else {
                    areaSize = laneLength - segmentLength + (sameLane ? index - 1 : (index == 0 ? -1 : 0))
                }
                // Map J1 non-uniformly onto W (§3.4.2).
                let j1 = pseudoRandom & 0xFFFF_FFFF
                let x = (j1 &* j1) &>> 32
                let area = UInt64(areaSize)
                let relative = area &- 1 &- ((area &* x) &>> 32)
                let referenceColumn = (startPosition + Int(relative)) % laneLength

                let previous = words + (laneStart + previousColumn) * wordsPerBlock
                let reference = words + (referenceLane * laneLength + referenceColumn) * wordsPerBlock
                let current = words + (laneStart + currentColumn) * wordsPerBlock
                compress(previous, reference, into: current, xorInto: !overwrite)
                previousColumn = currentColumn
                currentColumn += 1
            }
        }
    }
}
