// Entry point of the x86_64 Linux build: the C `main` of a program linked against libc, which
// provides allocation (posix_memalign, free), putchar and arc4random_buf (glibc 2.36).

@_cdecl("main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runDemo() ? 0 : 1
}
