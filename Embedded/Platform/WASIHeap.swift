// The allocator of the wasm32 builds (the demo and the web module): linear memory from the
// linker's `__heap_base` up, grown with `memory.grow` (64 KiB pages) when it runs out, up to the
// maximum build.sh links with.
//
// - Small blocks (header included, at most `largeThreshold` bytes): power-of-two size classes from
//   32 bytes, each with a free list. Cheap, and the waste is bounded by the small size.
// - Large blocks (Argon2's matrix, the file, the XML): exact sizes rounded to 64 bytes, never
//   doubled, from one address-ordered free list, first fit, split when the rest is worth keeping,
//   merged with free neighbours on `free`; a free block that ends at the top of the heap gives its
//   space back to the top, so the next large request (the next open's matrix) reuses it.
//
// Every block has a 16-byte header before the pointer it returns: the size class (or `largeClass`),
// the distance back to the block's start (for alignments above 16) and, for large blocks, the
// block's size. Single-threaded, as wasm32 here is.
//
// Known-zero memory: a block its owner wiped before freeing it (Argon2's matrix, freed through
// `freeWiped`) is remembered as one range of free bytes known to be zero; the heap trims the range
// whenever it hands out or writes into any part of it, and `wipeFreeMemory` skips what is left of
// it instead of zeroing 64 MiB a second time.
//
// Failure: `allocate` returns nil when memory cannot grow any more, and `posix_memalign` reports
// ENOMEM; the Embedded runtime has no way to hand that to a caller, so callers that can ask first
// do (`reserve(_:)`, which the web module calls with the vault's Argon2 memory before the KDF and
// turns into its out-of-memory error code). What is left, a failed allocation nobody asked about,
// ends in `fatalError` (a trap with a message) rather than in a write through a null pointer
// (address 0 is ordinary memory in wasm).

@_extern(c, "__heap_base") nonisolated(unsafe) var heapBaseSymbol: UInt8
/// `memory.grow` on memory 0: the previous size in 64 KiB pages, or -1 when it cannot grow.
@_extern(c, "llvm.wasm.memory.grow.i32") func wasmMemoryGrow(_ memory: Int32, _ pages: Int32) -> Int32
/// `memory.size` on memory 0, in 64 KiB pages.
@_extern(c, "llvm.wasm.memory.size.i32") func wasmMemorySize(_ memory: Int32) -> Int32

enum WASIHeap {
    static let headerBytes: UInt = 16
    static let pageBytes: UInt = 65536
    /// Small classes are 2^5 ... 2^16 bytes (header included); anything larger is a large block.
    static let smallClassCount = 12
    static let largeThreshold: UInt = 1 << 16
    static let largeClass: UInt32 = 0xFFFF
    /// Memory is grown at least this much at once (fewer `memory.grow` calls for small requests).
    static let minimumGrowthBytes: UInt = 1 << 20
    /// The maximum build.sh links with (`--max-memory`).
    static let maximumBytes: UInt = 1 << 31
    /// The most linear memory the heap grows to (a caller's cap, at most `maximumBytes`).
    nonisolated(unsafe) static var limitBytes: UInt = maximumBytes

    nonisolated(unsafe) static var next: UInt = 0
    nonisolated(unsafe) static var end: UInt = 0
    nonisolated(unsafe) static var started = false
    /// Head of each small class's free list (0 = empty); a free block's first word links to the next.
    nonisolated(unsafe) static var smallHeads = (
        UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0))
    /// First free large block (0 = none), in address order; a free large block holds
    /// (next free block, its size) in its first two words.
    nonisolated(unsafe) static var largeHead: UInt = 0
    /// Bytes handed out and not freed (blocks, headers included), and the most memory ever grown to.
    nonisolated(unsafe) static var bytesInUse: UInt = 0
    /// Free bytes known to be zero, `cleanStart ..< cleanEnd` (empty when equal): see `freeWiped`.
    nonisolated(unsafe) static var cleanStart: UInt = 0
    nonisolated(unsafe) static var cleanEnd: UInt = 0

    static func start() {
        guard !started else { return }
        started = true
        next = (withUnsafeMutablePointer(to: &heapBaseSymbol) { UInt(bitPattern: $0) } + 63) & ~63
        end = UInt(wasmMemorySize(0)) * pageBytes
    }

    /// The size class (block of 2^class bytes, header included) for `bytes` of payload.
    static func sizeClass(for bytes: UInt) -> Int {
        var sizeClass = 5
        while (UInt(1) << sizeClass) < bytes + headerBytes { sizeClass += 1 }
        return sizeClass
    }

    static func smallHead(_ sizeClass: Int) -> UnsafeMutablePointer<UInt> {
        withUnsafeMutablePointer(to: &smallHeads) {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt.self) + (sizeClass - 5)
        }
    }

    /// Grows linear memory so that at least `bytes` lie between `next` and `end`.
    /// - Returns: false when `memory.grow` refuses (the module's maximum or the host's limit).
    static func growTop(toHold bytes: UInt) -> Bool {
        guard end - next < bytes else { return true }
        let exact = (bytes - (end - next) + pageBytes - 1) / pageBytes
        guard exact <= (limitBytes > end ? (limitBytes - end) / pageBytes : 0) else { return false }
        let pages = min(max(exact, minimumGrowthBytes / pageBytes), (limitBytes - end) / pageBytes)
        if wasmMemoryGrow(0, Int32(pages)) < 0 {
            // The minimum growth may be what failed: try exactly what is missing.
            guard exact < pages, wasmMemoryGrow(0, Int32(exact)) >= 0 else { return false }
        }
        end = UInt(wasmMemorySize(0)) * pageBytes
        return end - next >= bytes
    }

    /// Makes sure that a block of `bytes` can be allocated later without failing (a free large
    /// block as big, or room at the top of the heap), and `margin` bytes more at the top for the
    /// smaller blocks that come with it; grows memory now if needed.
    /// - Returns: false when memory cannot grow that far; nothing is allocated either way.
    static func reserve(_ bytes: UInt, margin: UInt = 0) -> Bool {
        start()
        guard bytes < UInt(Int32.max), margin < UInt(Int32.max) else { return false }
        let needed = (bytes + headerBytes + 63) & ~63
        var block = largeHead
        while block != 0 {
            if words(block)[1] >= needed { return growTop(toHold: margin) }
            block = words(block)[0]
        }
        return growTop(toHold: needed + margin)
    }

    static func words(_ address: UInt) -> UnsafeMutablePointer<UInt> {
        UnsafeMutablePointer<UInt>(bitPattern: address)!
    }

    static func allocate(_ bytes: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        start()
        guard bytes >= 0, alignment > 0, bytes < Int(Int32.max) else { return nil }
        let padding = alignment > Int(headerBytes) ? UInt(alignment) : 0
        let total = UInt(bytes) + padding + headerBytes
        let block: UInt, classMark: UInt32, blockSize: UInt
        if total <= largeThreshold {
            let sizeClass = sizeClass(for: UInt(bytes) + padding)
            let head = smallHead(sizeClass)
            blockSize = UInt(1) << sizeClass
            classMark = UInt32(sizeClass)
            if head.pointee != 0 {
                block = head.pointee
                head.pointee = words(block)[0]
            } else {
                guard growTop(toHold: blockSize) else { return nil }
                block = next
                next += blockSize
            }
            dirty(block, blockSize)
        } else {
            guard let taken = takeLarge((total + 63) & ~63) else { return nil }
            (block, blockSize) = taken
            classMark = largeClass
            dirty(block, blockSize)
        }
        bytesInUse += blockSize
        var payload = block + headerBytes
        if padding > 0 { payload = (payload + UInt(alignment) - 1) & ~(UInt(alignment) - 1) }
        let header = UnsafeMutablePointer<UInt32>(bitPattern: payload - headerBytes)!
        header[0] = classMark
        header[1] = UInt32(payload - block)
        header[2] = UInt32(truncatingIfNeeded: blockSize)
        return UnsafeMutableRawPointer(bitPattern: payload)
    }

    /// A large block of at least `size` bytes (a multiple of 64): the first free one that fits
    /// (split when more than `largeThreshold` is left over), else carved from the top.
    static func takeLarge(_ size: UInt) -> (UInt, UInt)? {
        var previous: UInt = 0, block = largeHead
        while block != 0 {
            let blockSize = words(block)[1], following = words(block)[0]
            if blockSize >= size {
                var replacement = following
                var taken = blockSize
                if blockSize - size > largeThreshold {
                    // The rest stays free, in the same place in the address order.
                    let rest = block + size
                    dirty(rest, 2 * UInt(MemoryLayout<UInt>.size))
                    words(rest)[0] = following
                    words(rest)[1] = blockSize - size
                    replacement = rest
                    taken = size
                }
                if previous == 0 { largeHead = replacement } else { link(previous, replacement) }
                return (block, taken)
            }
            previous = block
            block = following
        }
        guard growTop(toHold: size) else { return nil }
        let top = next
        next += size
        return (top, size)
    }

    static func free(_ pointer: UnsafeMutableRawPointer) {
        let payload = UInt(bitPattern: pointer)
        let header = UnsafeMutablePointer<UInt32>(bitPattern: payload - headerBytes)!
        let classMark = header[0], block = payload - UInt(header[1])
        if classMark != largeClass {
            let head = smallHead(Int(classMark))
            link(block, head.pointee)
            head.pointee = block
            bytesInUse -= UInt(1) << UInt(classMark)
            return
        }
        let blockSize = UInt(header[2])
        bytesInUse -= blockSize
        freeLarge(block, blockSize)
    }

    /// Puts a large block back in address order, merged with a free neighbour on either side; a
    /// block that then ends at the top of the heap lowers the top instead.
    static func freeLarge(_ block: UInt, _ size: UInt) {
        var start = block, size = size
        var previous: UInt = 0, current = largeHead
        while current != 0 && current < start {
            previous = current
            current = words(current)[0]
        }
        // Merge with the following free block.
        if current != 0 && start + size == current {
            size += words(current)[1]
            current = words(current)[0]
        }
        // Merge with the preceding free block.
        if previous != 0 && previous + words(previous)[1] == start {
            start = previous
            size += words(previous)[1]
            // Unlink `previous`: find the block before it.
            var before: UInt = 0, scan = largeHead
            while scan != previous { before = scan; scan = words(scan)[0] }
            previous = before
        }
        if start + size == next {
            next = start
            if previous == 0 { largeHead = current } else { link(previous, current) }
            return
        }
        dirty(start, 2 * UInt(MemoryLayout<UInt>.size))
        words(start)[0] = current
        words(start)[1] = size
        if previous == 0 { largeHead = start } else { link(previous, start) }
    }

    /// Writes a free block's link word (its first word).
    static func link(_ block: UInt, _ target: UInt) {
        dirty(block, UInt(MemoryLayout<UInt>.size))
        words(block)[0] = target
    }

    /// `bytes` at `address` are about to be handed out or written: no longer known to be zero. The
    /// known-zero range keeps its larger side.
    static func dirty(_ address: UInt, _ bytes: UInt) {
        let end = address + bytes
        guard address < cleanEnd, end > cleanStart else { return }
        let below = address > cleanStart ? address - cleanStart : 0
        let above = cleanEnd > end ? cleanEnd - end : 0
        if below >= above { cleanEnd = cleanStart + below } else { cleanStart = end }
        if cleanStart >= cleanEnd { (cleanStart, cleanEnd) = (0, 0) }
    }

    /// Frees a block whose owner has zeroed its first `byteCount` bytes (Argon2's matrix, through
    /// the crypto platform's `FreeLarge`, whose contract that is): they become the known-zero
    /// range (replacing the previous one), which `wipeFreeMemory` does not zero again.
    static func freeWiped(_ pointer: UnsafeMutableRawPointer, _ byteCount: Int) {
        free(pointer)
        // Freeing wrote only link words at block starts, which lie before the payload.
        cleanStart = UInt(bitPattern: pointer)
        cleanEnd = cleanStart + UInt(max(byteCount, 0))
    }
}

extension WASIHeap {
    /// Zeroes every byte of the heap that no block in use holds: the free blocks (but for their
    /// list links: one word, two for a large block) and the top, from `next` to the end of
    /// memory. What a closed vault left in freed blocks (decrypted XML, copies of values) is gone.
    static func wipeFreeMemory() {
        start()
        for sizeClass in 5..<(5 + smallClassCount) {
            var block = smallHead(sizeClass).pointee
            let size = UInt(1) << UInt(sizeClass)
            while block != 0 {
                zero(block + UInt(MemoryLayout<UInt>.size), size - UInt(MemoryLayout<UInt>.size))
                block = words(block)[0]
            }
        }
        var block = largeHead
        while block != 0 {
            zero(block + 2 * UInt(MemoryLayout<UInt>.size), words(block)[1] - 2 * UInt(MemoryLayout<UInt>.size))
            block = words(block)[0]
        }
        zero(next, end - next)
    }

    /// Zeroes `count` bytes at `address`, but for the part of them known to be zero already.
    static func zero(_ address: UInt, _ count: UInt) {
        let end = address + count
        if address < cleanEnd && end > cleanStart {
            zeroAll(address, cleanStart > address ? cleanStart - address : 0)
            if end > cleanEnd { zeroAll(cleanEnd, end - cleanEnd) }
        } else {
            zeroAll(address, count)
        }
    }

    static func zeroAll(_ address: UInt, _ count: UInt) {
        guard count > 0, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: Int(count))
    }
}

@_cdecl("posix_memalign")
func posixMemalign(_ result: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ alignment: Int, _ size: Int) -> Int32 {
    guard let pointer = WASIHeap.allocate(size, alignment: alignment) else {
        // The Embedded runtime would go on with a null pointer, which in wasm is writable memory.
        fatalError("out of memory: wasm linear memory cannot grow further")
    }
    result.pointee = pointer
    return 0
}

// `free` itself is a name the compiler reserves for the Swift runtime (defining it warns), so this
// is `__wrap_free`, and build.sh links with `--wrap=free`: every call of `free` comes here.
@_cdecl("__wrap_free")
func wrappedFree(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { WASIHeap.free(pointer) }
}
