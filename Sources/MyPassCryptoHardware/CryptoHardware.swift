import MyPassCrypto
#if arch(x86_64)
import MyPassCryptoAVX512
import MyPassCryptoAVX512BMI2
import MyPassCryptoBMI2
#endif

/// The x86_64 hardware kernels (AES-NI, SHA-NI), compiled with exactly the target features they
/// need (`-maes -msha -msse4.1`, Package.swift): a module that no library product contains, so
/// that the library products carry no unsafe flag. The `mypass` and `mypass-bench` executables
/// and the tests link it. It also offers the AVX-512 ChaCha20 and Salsa20 kernels of
/// `MyPassCryptoAVX512` and the SHA-512 kernels of `MyPassCryptoAVX512BMI2` and
/// `MyPassCryptoBMI2` (modules compiled with `-mavx512f`, `-mavx512f -mbmi -mbmi2` and `-mbmi2`,
/// in which no code may run before the CPU check: this module only takes the kernels' addresses).
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
        CryptoBackend.offer(aes: aes, sha256: sha256, sha512: sha512, chacha20: chacha20, salsa20: salsa20)
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

    /// The SHA-512 kernels, best first: the message schedules of eight blocks at a time with
    /// AVX-512F beside rounds with BMI2's RORX and BMI1's ANDN, then the portable rounds and
    /// schedule with RORX alone; none on other architectures.
    package static var sha512: [HashBackend] {
        #if arch(x86_64)
        return [HashBackend(name: "avx512-bmi2", requiredCPUFeatures: ["avx512f", "bmi1", "bmi2"],
                            compress: avx512BMI2SHA512Compress),
                HashBackend(name: "bmi2", requiredCPUFeatures: ["bmi2"], compress: bmi2SHA512Compress)]
        #else
        return []
        #endif
    }

    /// ChaCha20 sixteen blocks at a time with AVX-512F, nil on other architectures.
    package static var chacha20: StreamBackend? {
        #if arch(x86_64)
        return StreamBackend(name: "avx512", requiredCPUFeatures: ["avx512f"], xor: avx512ChaCha20XOR)
        #else
        return nil
        #endif
    }

    /// Salsa20 sixteen blocks at a time with AVX-512F, nil on other architectures.
    package static var salsa20: StreamBackend? {
        #if arch(x86_64)
        return StreamBackend(name: "avx512", requiredCPUFeatures: ["avx512f"], xor: avx512Salsa20XOR)
        #else
        return nil
        #endif
    }
}
