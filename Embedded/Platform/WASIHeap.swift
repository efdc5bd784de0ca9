// A small allocator for the wasm32 build: power-of-two size classes from 16 bytes up, each with
// a free list, carved from the linear memory between the linker's `__heap_base` and `__heap_end`
// (the memory size is fixed at link time, see build.sh). Every block has a 16-byte header
// before the pointer it returns: the size class and the distance back to the block's start (for
// alignments above 16). Single-threaded, as wasm32 here is.

@_extern(c, "__heap_base") nonisolated(unsafe) var heapBaseSymbol: UInt8
@_extern(c, "__heap_end") nonisolated(unsafe) var heapEndSymbol: UInt8

enum WASIHeap {
    static let headerBytes = 16
    static let classCount = 32
    nonisolated(unsafe) static var next: UInt = 0
    nonisolated(unsafe) static var end: UInt = 0
    /// Head of each size class's free list (0 = empty); a free block's first word links to the next.
    nonisolated(unsafe) static var freeListHeads: UnsafeMutablePointer<UInt>?

    /// The size class (block of 2^class bytes, header included) for `bytes` of payload.
    static func sizeClass(for bytes: Int) -> Int {
        var sizeClass = 5
        while (1 << sizeClass) < bytes + headerBytes { sizeClass += 1 }
        return sizeClass
    }

    static func allocate(_ bytes: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        if freeListHeads == nil {
            next = (withUnsafeMutablePointer(to: &heapBaseSymbol) { UInt(bitPattern: $0) } + 15) & ~15
            end = withUnsafeMutablePointer(to: &heapEndSymbol) { UInt(bitPattern: $0) }
            let heads = UnsafeMutablePointer<UInt>(bitPattern: next)!
            heads.initialize(repeating: 0, count: classCount)
            next += UInt(classCount * MemoryLayout<UInt>.size + 15) & ~15
            freeListHeads = heads
        }
        let padding = alignment > headerBytes ? alignment : 0
        let sizeClass = sizeClass(for: bytes + padding)
        guard sizeClass < classCount, let heads = freeListHeads else { return nil }
        var block = heads[sizeClass]
        if block != 0 {
            heads[sizeClass] = UnsafeMutablePointer<UInt>(bitPattern: block)!.pointee
        } else {
            guard end - next >= UInt(1) << sizeClass else { return nil }
            block = next
            next += UInt(1) << sizeClass
        }
        var payload = block + UInt(headerBytes)
        if padding > 0 { payload = (payload + UInt(alignment) - 1) & ~(UInt(alignment) - 1) }
        let header = UnsafeMutablePointer<UInt32>(bitPattern: payload - UInt(headerBytes))!
        header[0] = UInt32(sizeClass)
        header[1] = UInt32(payload - block)
        return UnsafeMutableRawPointer(bitPattern: payload)
    }

    static func free(_ pointer: UnsafeMutableRawPointer) {
        let payload = UInt(bitPattern: pointer)
        let header = UnsafeMutablePointer<UInt32>(bitPattern: payload - UInt(headerBytes))!
        let sizeClass = Int(header[0]), block = payload - UInt(header[1])
        UnsafeMutablePointer<UInt>(bitPattern: block)!.pointee = freeListHeads![sizeClass]
        freeListHeads![sizeClass] = block
    }
}

@_cdecl("posix_memalign")
func posixMemalign(_ result: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ alignment: Int, _ size: Int) -> Int32 {
    guard let pointer = WASIHeap.allocate(size, alignment: alignment) else { return 12 }  // ENOMEM
    result.pointee = pointer
    return 0
}

// `free` itself is a name the compiler reserves for the Swift runtime (defining it warns), so this
// is `__wrap_free`, and build.sh links with `--wrap=free`: every call of `free` comes here.
@_cdecl("__wrap_free")
func wrappedFree(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { WASIHeap.free(pointer) }
}
