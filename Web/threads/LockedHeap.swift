// The threads experiment's allocator (instead of Embedded/Platform/WASIHeap.swift, which is
// single-threaded): the lanes' workers allocate at once (the fill's 4 KiB scratch comes from the
// heap in Embedded Swift), so every call takes a spin lock (an atomic compare-and-swap; the build
// without the atomics feature lowers it to plain loads and stores). Blocks are power-of-two
// classes, each with a free list, from a bump pointer over `memory.grow`; a 16-byte header holds
// the class. Both experiment builds use it, so their difference is the threads alone.

import Builtin

@_extern(c, "__heap_base") nonisolated(unsafe) var lockedHeapBase: UInt8
@_extern(c, "llvm.wasm.memory.grow.i32") func lockedMemoryGrow(_ memory: Int32, _ pages: Int32) -> Int32
@_extern(c, "llvm.wasm.memory.size.i32") func lockedMemorySize(_ memory: Int32) -> Int32

enum LockedHeap {
    nonisolated(unsafe) static var lockWord: Int32 = 0
    nonisolated(unsafe) static var next: UInt = 0
    nonisolated(unsafe) static var end: UInt = 0
    /// Free lists of classes 2^4 ... 2^31 bytes (header included); 0 = empty.
    nonisolated(unsafe) static var headsStorage: UnsafeMutablePointer<UInt>? = nil

    static func withLock<R>(_ body: () -> R) -> R {
        let word = withUnsafeMutablePointer(to: &lockWord) { $0 }
        while true {
            let (_, won) = Builtin.cmpxchg_acquire_monotonic_Int32(word._rawValue, Int32(0)._value, Int32(1)._value)
            if Bool(won) { break }
        }
        defer { Builtin.atomicstore_release_Int32(word._rawValue, Int32(0)._value) }
        return body()
    }

    static func sizeClass(_ bytes: UInt) -> Int {
        var shift = 4
        while (UInt(1) << shift) < bytes { shift += 1 }
        return shift
    }

    /// A block of 2^`shift` bytes from the top, growing memory when needed; 0 when it cannot.
    static func takeFromTop(_ shift: Int) -> UInt {
        if next == 0 {
            next = (withUnsafeMutablePointer(to: &lockedHeapBase) { UInt(bitPattern: $0) } + 63) & ~63
            end = UInt(lockedMemorySize(0)) * 65536
            // 32 list heads, placed at the start of the heap.
            headsStorage = UnsafeMutablePointer<UInt>(bitPattern: next)
            headsStorage!.initialize(repeating: 0, count: 32)
            next += 256
        }
        let size = UInt(1) << shift
        if next + size > end {
            let pages = Int32((next + size - end + 65535) / 65536)
            guard lockedMemoryGrow(0, pages) >= 0 else { return 0 }
            end += UInt(pages) * 65536
        }
        let block = next
        next += size
        return block
    }

    static func allocate(_ bytes: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        // Header 16 bytes, then the payload aligned to `alignment` (at most 64 here).
        let padding = UInt(max(alignment, 16))
        let shift = sizeClass(UInt(bytes) + padding)
        return withLock {
            var block: UInt = 0
            if let heads = headsStorage, heads[shift] != 0 {
                block = heads[shift]
                heads[shift] = UnsafeMutablePointer<UInt>(bitPattern: block)!.pointee
            } else {
                block = takeFromTop(max(shift, 6))
                guard block != 0 else { return nil }
            }
            let payload = block + padding
            let header = UnsafeMutablePointer<UInt>(bitPattern: payload - 8)!
            header.pointee = block
            UnsafeMutablePointer<UInt>(bitPattern: payload - 16)!.pointee = UInt(max(shift, 6))
            return UnsafeMutableRawPointer(bitPattern: payload)
        }
    }

    static func free(_ pointer: UnsafeMutableRawPointer) {
        let payload = UInt(bitPattern: pointer)
        let block = UnsafeMutablePointer<UInt>(bitPattern: payload - 8)!.pointee
        let shift = Int(UnsafeMutablePointer<UInt>(bitPattern: payload - 16)!.pointee)
        withLock {
            UnsafeMutablePointer<UInt>(bitPattern: block)!.pointee = headsStorage![shift]
            headsStorage![shift] = block
        }
    }
}

@_cdecl("posix_memalign")
func lockedPosixMemalign(_ result: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ alignment: Int, _ size: Int) -> Int32 {
    guard let pointer = LockedHeap.allocate(size, alignment: alignment) else {
        fatalError("out of memory")
    }
    result.pointee = pointer
    return 0
}

@_cdecl("__wrap_free")
func lockedFree(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { LockedHeap.free(pointer) }
}
