// Entry point of the Linux builds (x86_64; aarch64, run under qemu-user): the C `main` of a
// program linked against libc, which provides allocation (posix_memalign, free), putchar and
// arc4random_buf (glibc 2.36).
import MyPassCrypto

#if arch(arm64)
@_extern(c, "getauxval")
func getauxval(_ type: UInt) -> UInt

@_extern(c, "getenv")
func getenv(_ name: UnsafePointer<CChar>) -> UnsafePointer<CChar>?
#endif

@_cdecl("main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    #if arch(arm64)
    // MyPassCrypto never asks the operating system about the CPU: tell it what the auxiliary
    // vector says (AT_HWCAP, 16) and what MYPASS_CRYPTO_BACKEND says.
    CryptoPlatform.install(CryptoPlatform(cpuFeatures: CPUFeatures.linuxHWCAPFeatures(hwcap: UInt64(getauxval(16))),
                                          backendOverride: getenv("MYPASS_CRYPTO_BACKEND").map { String(cString: $0) }))
    #endif
    return runDemo() ? 0 : 1
}
