import MyPassBytes

/// Blowfish (Schneier, FSE 1993): a 64-bit block cipher with 16 rounds and key-dependent S-boxes,
/// here for what OpenSSH needs of it, bcrypt's expensive key schedule inside ``BcryptPBKDF``.
///
/// - Important: Not constant-time, by design of the cipher. Each round looks up four S-box
///   entries indexed by bytes of the secret state, in S-boxes that are themselves derived from
///   the key: a cache-timing observer of these lookups learns about the key. No table-free
///   formulation exists (the S-boxes *are* the key schedule's output). MyPass runs it only to
///   decrypt an OpenSSH private key file with its passphrase, once, in the process that asked.
///   The state lives in memory that is wiped when the value goes.
public struct Blowfish: Sendable {
    /// Bytes in a block (8).
    public static let blockByteCount = 8
    /// The longest key the cipher takes, in bytes (56; bcrypt's expansion uses 64 and more).
    public static let maxKeyByteCount = 56

    /// P-array (18 words) then the four S-boxes (4 × 256 words), in wiping storage.
    final class State: @unchecked Sendable {
        static let wordCount = 18 + 4 * 256
        let words: UnsafeMutablePointer<UInt32>

        init() {
            words = .allocate(capacity: State.wordCount)
            Blowfish.initialP.withUnsafeBufferPointer { words.initialize(from: $0.baseAddress!, count: 18) }
            Blowfish.initialS.withUnsafeBufferPointer { (words + 18).initialize(from: $0.baseAddress!, count: 1024) }
        }

        deinit {
            secureZero(words, count: State.wordCount * 4)
            words.deallocate()
        }
    }

    let state: State

    /// Blowfish's initial state (π's digits), before any key.
    init() { state = State() }

    /// The standard key schedule (Schneier 1993): 1 to 56 key bytes, used cyclically.
    /// - Throws: `CryptoError.invalidKeySize` for an empty key or one over 56 bytes.
    public init(key: [UInt8]) throws(CryptoError) {
        guard !key.isEmpty, key.count <= Self.maxKeyByteCount else {
            throw CryptoError(.invalidKeySize, "Blowfish takes 1 to 56 key bytes, got \(key.count)")
        }
        self.init()
        key.withUnsafeBytes { expand0(key: $0) }
    }

    /// Encrypts one 8-byte block (big-endian halves, as the reference code reads bytes).
    /// `block` must hold exactly 8 bytes (a precondition).
    /// - Returns: the 8-byte ciphertext.
    public func encrypt(block: [UInt8]) -> [UInt8] {
        precondition(block.count == 8, "Blowfish works on 8-byte blocks")
        var left = UInt32(block[0]) << 24 | UInt32(block[1]) << 16 | UInt32(block[2]) << 8 | UInt32(block[3])
        var right = UInt32(block[4]) << 24 | UInt32(block[5]) << 16 | UInt32(block[6]) << 8 | UInt32(block[7])
        encipher(&left, &right)
        return [UInt8(left >> 24), UInt8(truncatingIfNeeded: left >> 16), UInt8(truncatingIfNeeded: left >> 8),
                UInt8(truncatingIfNeeded: left), UInt8(right >> 24), UInt8(truncatingIfNeeded: right >> 16),
                UInt8(truncatingIfNeeded: right >> 8), UInt8(truncatingIfNeeded: right)]
    }

    // MARK: The cipher

    /// Sixteen rounds on the two halves of a block.
    @inline(__always)
    func encipher(_ left: inout UInt32, _ right: inout UInt32) {
        let p = UnsafePointer(state.words)
        let s = p + 18
        @inline(__always) func f(_ x: UInt32) -> UInt32 {
            ((s[Int(x >> 24)] &+ s[256 + Int((x >> 16) & 0xFF)]) ^ s[512 + Int((x >> 8) & 0xFF)]) &+ s[768 + Int(x & 0xFF)]
        }
        var l = left, r = right
        l ^= p[0]
        var i = 1
        while i < 17 {
            r ^= f(l) ^ p[i]
            l ^= f(r) ^ p[i + 1]
            i += 2
        }
        left = r ^ p[17]
        right = l
    }

    // MARK: Key schedules (OpenBSD's blf.c: Blowfish_expand0state, Blowfish_expandstate)

    /// The next big-endian word of `bytes`, cycling through them (the reference `stream2word`).
    @inline(__always)
    static func word(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            if index >= bytes.count { index = 0 }
            value = value << 8 | UInt32(bytes[index])
            index += 1
        }
        return value
    }

    /// The standard schedule on the current state: P ^= key words, then the P-array and the
    /// S-boxes replaced by successive encryptions of an all-zero block.
    func expand0(key: UnsafeRawBufferPointer) {
        let words = state.words
        var index = 0
        for i in 0..<18 { words[i] ^= Self.word(key, &index) }
        var left: UInt32 = 0, right: UInt32 = 0
        var i = 0
        while i < State.wordCount {
            encipher(&left, &right)
            words[i] = left
            words[i + 1] = right
            i += 2
        }
    }

    /// bcrypt's salted schedule (Provos and Mazières 1999, EksBlowfishSetup's ExpandKey): P ^= key
    /// words, then each pair of P and S words replaced by the encryption of the previous output
    /// XORed with the next two words of `data` (the salt).
    func expand(data: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) {
        let words = state.words
        var keyIndex = 0
        for i in 0..<18 { words[i] ^= Self.word(key, &keyIndex) }
        var dataIndex = 0
        var left: UInt32 = 0, right: UInt32 = 0
        var i = 0
        while i < State.wordCount {
            left ^= Self.word(data, &dataIndex)
            right ^= Self.word(data, &dataIndex)
            encipher(&left, &right)
            words[i] = left
            words[i + 1] = right
            i += 2
        }
    }
}
