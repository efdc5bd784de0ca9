// The armv7em build is compiled and linked into a relocatable object only: a firmware links it
// with its own startup code, heap (posix_memalign, free), putchar and arc4random_buf.

/// Runs the demo; returns 0 when every check passed, else 1.
@_cdecl("mypass_embedded_demo")
func mypassEmbeddedDemo() -> Int32 {
    runDemo() ? 0 : 1
}
