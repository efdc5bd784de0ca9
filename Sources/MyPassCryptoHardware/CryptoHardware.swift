import MyPassCrypto

/// The x86_64 hardware kernels (AES-NI, SHA-NI), compiled with exactly the target features they
/// need (`-maes -msha -msse4.1`, Package.swift): a module that no library product contains, so
/// that the library products carry no unsafe flag. The `mypass` and `mypass-bench` executables
/// and the tests link it.
///
/// Nothing here runs before ``CryptoBackend`` has checked that the CPU has the features a kernel
/// names (on a CPU without AES-NI its instructions stop the process with SIGILL). On other
/// architectures the module is empty: the arm64 kernels are part of MyPassCrypto.
public enum CryptoHardware {
    /// Offers this module's kernels to ``CryptoBackend``. Call it first thing in `main`, before
    /// any AES or SHA-2 runs; the first use then picks them where the CPU has the features.
    /// - Returns: `false` when the choice was already made (too late: the offer is ignored).
    @discardableResult
    public static func install() -> Bool {
        CryptoBackend.offer(aes: aes, sha256: sha256)
    }

    /// AES-NI (with SSE4.1, which the module is compiled for), nil on other architectures.
    package static var aes: AESBackend? {
        #if arch(x86_64)
        return AESBackend(name: "aes-ni", requiredCPUFeatures: ["aes", "sse4_1", "ssse3"], kdf: aesniKDF,
                          cbcEncrypt: aesniCBCEncrypt, cbcDecrypt: aesniCBCDecrypt)
        #else
        return nil
        #endif
    }

    /// SHA-NI (with SSE4.1), nil on other architectures.
    package static var sha256: HashBackend? {
        #if arch(x86_64)
        return HashBackend(name: "sha-ni", requiredCPUFeatures: ["sha_ni", "sse4_1", "ssse3"], compress: shaniSHA256Compress)
        #else
        return nil
        #endif
    }
}
