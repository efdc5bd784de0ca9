import MyPassBytes

extension AES256: CBCBlockCipher {
    func cbcEncrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer) {
        if let kernels = schedule.backend.kernels {
            kernels.cbcEncrypt(schedule.roundKeys, input, output, blocks, chain)
            return
        }
        // CBC encryption is serial: one block per bitsliced call (lane 0), the chaining value
        // kept in two words.
        let keys = schedule.encryption
        var c0 = UInt64(littleEndian: chain.loadUnaligned(as: UInt64.self))
        var c1 = UInt64(littleEndian: chain.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        for i in 0..<blocks {
            let source = input + 16 * i, target = output + 16 * i
            let x0 = c0 ^ UInt64(littleEndian: source.loadUnaligned(as: UInt64.self))
            let x1 = c1 ^ UInt64(littleEndian: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            var planes = AESPlanes(block: x0, x1)
            planes.encrypt256(keys)
            (c0, c1) = planes.block0()
            target.storeBytes(of: c0.littleEndian, as: UInt64.self)
            target.storeBytes(of: c1.littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        chain.storeBytes(of: c0.littleEndian, as: UInt64.self)
        chain.storeBytes(of: c1.littleEndian, toByteOffset: 8, as: UInt64.self)
    }

    func cbcDecrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer) {
        if let kernels = schedule.backend.kernels {
            kernels.cbcDecrypt(schedule.inverseRoundKeys, input, output, blocks, chain)
            return
        }
        var i = 0
        // Four independent blocks per call; the chaining XOR is applied afterwards.
        while i + 4 <= blocks {
            let source = input + 16 * i, target = output + 16 * i
            decryptFour(source, target)
            xor16(target, chain)
            xor16(target + 16, source)
            xor16(target + 32, source + 16)
            xor16(target + 48, source + 32)
            chain.copyMemory(from: source + 48, byteCount: 16)
            i += 4
        }
        let rest = blocks - i
        guard rest > 0 else { return }
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { scratch in
            let base = scratch.baseAddress!
            base.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
            base.copyMemory(from: input + 16 * i, byteCount: 16 * rest)
            decryptFour(base, base)
            for j in 0..<rest {
                let target = output + 16 * (i + j)
                target.copyMemory(from: base + 16 * j, byteCount: 16)
                xor16(target, chain)
                chain.copyMemory(from: input + 16 * (i + j), byteCount: 16)
            }
            secureZero(base, count: 64)
        }
    }
}
