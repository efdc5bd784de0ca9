// The demo's WASI command entry point: runs the demo, flushes standard output and exits with 0
// when every check passed, else 1. (The web module has no entry point: its exports are called.)

@_cdecl("_start")
func start() {
    let passed = runDemo()
    flushOutput()
    wasiProcExit(passed ? 0 : 1)
}
