/// What the program tells the crypto code about the machine it runs on: the CPU's features, the
/// backend switch, and how to get Argon2's large matrix and run its lanes in parallel.
///
/// The codec modules use the standard library only and never ask the operating system
/// themselves; the program hands this in at start-up, before its first AES, SHA-2 or Argon2 use
/// (MyPassCore's `SystemPlatform.install()` builds it from the operating system: `/proc/cpuinfo`,
/// the auxiliary vector or `sysctl`, the `MYPASS_CRYPTO_BACKEND` variable, huge pages and
/// Dispatch; an Embedded program declares what its platform knows). Without it the portable code
/// runs, Argon2's matrix comes from ordinary allocation and its lanes run one after another: the
/// same bytes, more slowly.
public struct CryptoPlatform: Sendable {
    /// Allocates `byteCount` bytes for Argon2's matrix (a multiple of 1024), aligned to at least
    /// 64 bytes; nil when it cannot (the matrix then comes from ordinary allocation).
    public typealias AllocateLarge = @Sendable (_ byteCount: Int) -> UnsafeMutableRawPointer?
    /// Frees what the paired `AllocateLarge` returned (the bytes are already wiped).
    public typealias FreeLarge = @Sendable (_ pointer: UnsafeMutableRawPointer, _ byteCount: Int) -> Void
    /// Calls `body` once for each index in `0..<iterations`, possibly on several threads at once,
    /// and returns when every call has returned.
    public typealias ConcurrentPerform = @Sendable (_ iterations: Int, _ body: @Sendable (Int) -> Void) -> Void

    /// The CPU's features in the names Linux uses: on x86_64 the words of `/proc/cpuinfo`'s
    /// `flags` (`aes`, `sha_ni`, `sse4_1`, `ssse3`, ...), on arm64 the `AT_HWCAP` names (`aes`,
    /// `sha2`, `sha512`). A hardware kernel runs only when every feature it names is here.
    public var cpuFeatures: Set<String>
    /// The value of the `MYPASS_CRYPTO_BACKEND` environment variable (``CryptoBackend/environmentVariable``):
    /// `portable` rules every hardware kernel out; nil or any other value: none is ruled out.
    public var backendOverride: String?
    /// Argon2's matrix memory (for example huge pages), with its release; nil: ordinary allocation.
    public var largeMemory: (allocate: AllocateLarge, free: FreeLarge)?
    /// Parallel loops for Argon2's lanes (for example `DispatchQueue.concurrentPerform`); nil: one
    /// lane after another (the same result, RFC 9106 §3.4: no lane reads another's new blocks within a slice).
    public var concurrentPerform: ConcurrentPerform?

    /// A platform description.
    public init(cpuFeatures: Set<String> = [], backendOverride: String? = nil,
                largeMemory: (allocate: AllocateLarge, free: FreeLarge)? = nil,
                concurrentPerform: ConcurrentPerform? = nil) {
        self.cpuFeatures = cpuFeatures
        self.backendOverride = backendOverride
        self.largeMemory = largeMemory
        self.concurrentPerform = concurrentPerform
    }

    /// Hands `platform` to the crypto code. Call it before any code of the process uses AES,
    /// SHA-2 or Argon2, from the one thread running then: the first use fixes the platform (and
    /// ``CryptoBackend``'s choice).
    /// - Returns: `false` when the platform was already fixed (the call is then ignored).
    @discardableResult
    public static func install(_ platform: CryptoPlatform) -> Bool {
        guard !fixed else { return false }
        pending = platform
        return true
    }

    /// The platform in use: the installed one, or none (portable, ordinary memory, serial lanes).
    /// Fixed at its first read.
    package static var current: CryptoPlatform { installed }

    // Written only before the first read of `installed` (install), then only read.
    nonisolated(unsafe) private static var pending = CryptoPlatform()
    nonisolated(unsafe) private static var fixed = false
    /// Initialised once, on first use (a lazy static is thread-safe).
    private static let installed: CryptoPlatform = {
        fixed = true
        return pending
    }()
}
