// swift-tools-version:6.0
// MyPass: a KeePass (KDBX) password manager core in pure Swift, with no package dependencies.

import PackageDescription

/// Codec modules use the Swift standard library only; `MyPassCore` and the executables may use
/// Foundation where the OS is touched.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// On Linux the executables carry the Swift runtime and Foundation inside them: a copied binary runs without the
/// toolchain's shared libraries, and a process starts about 5 MB smaller (the loader no longer maps libFoundation,
/// FoundationInternationalization and ICU, nor the runtime scans their metadata). Linked with lld: GNU gold
/// prints glibc's link-time note "the use of `mktemp' is dangerous" for the static Foundation, lld prints no
/// `.gnu.warning` notes. The tests do not link the executable targets (they run the built binaries), so the
/// test bundle keeps the shared runtime that XCTest and swift-testing need.
let staticRuntimeOnLinux: [SwiftSetting] = [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]
let staticLinkOnLinux: [LinkerSetting] = [.unsafeFlags(["-static-stdlib", "-use-ld=lld"], .when(platforms: [.linux]))]

/// The x86_64 hardware kernels (AES-NI, SHA-NI) need these target features on the functions that use the
/// instructions, and only `unsafeFlags` reach the compiler with them; so they live in `MyPassCryptoHardware`, a module
/// in no library product (SwiftPM refuses a URL dependency whose product has unsafe flags), linked by the executables
/// and the tests, each kernel run only after a CPU check. The flags are x86's: on another host the module compiles
/// empty (its sources are `#if arch(x86_64)`), and building for another architecture than the host's gets the
/// portable code there.
///
/// The AVX-512 kernels (ChaCha20 and Salsa20 sixteen blocks at a time) are a module of their own,
/// `MyPassCryptoAVX512`, compiled with `-mavx512f` alone: with that flag the compiler may use
/// AVX-512 (and every VEX-encoded instruction) anywhere in the module, so nothing in it runs
/// before the CPU check, not even the code that offers the kernels (it is in
/// `MyPassCryptoHardware`, which only takes their addresses). The same holds for `MyPassCryptoBMI2`
/// (SHA-512 with RORX, `-mbmi2`) and `MyPassCryptoAVX512BMI2` (SHA-512 with the message schedules of
/// eight blocks at a time in ZMM registers and the rounds with RORX and ANDN, `-mavx512f -mbmi
/// -mbmi2`: one module, so that the vector and the scalar instructions interleave in one function).
#if arch(x86_64)
let x86CryptoFeatures: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-maes", "-Xcc", "-msha", "-Xcc", "-msse4.1"])]
let x86AVX512Features: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-mavx512f"])]
let x86BMI2Features: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-mbmi2"])]
let x86AVX512BMI2Features: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-mavx512f", "-Xcc", "-mbmi", "-Xcc", "-mbmi2"])]
#else
let x86CryptoFeatures: [SwiftSetting] = []
let x86AVX512Features: [SwiftSetting] = []
let x86BMI2Features: [SwiftSetting] = []
let x86AVX512BMI2Features: [SwiftSetting] = []
#endif

/// The hardware kernels reach LLVM's intrinsics through the Builtin module (accepted in a URL dependency).
let builtinModule: [SwiftSetting] = [.enableExperimentalFeature("BuiltinModule")]

let package = Package(
    name: "MyPass",
    // The oldest systems the code supports: no API newer than iOS 16 / macOS 13 (our own UTF-8
    // validation instead of `String(validating:)`, a lock instead of `Synchronization`). Never built
    // on Darwin here (see README, Apple platforms).
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "MyPassCore", targets: ["MyPassCore"]),
        .library(name: "MyPassKDBX", targets: ["MyPassKDBX"]),
        .library(name: "MyPassViewModels", targets: ["MyPassViewModels"]),
        .library(name: "MyPassHealth", targets: ["MyPassHealth"]),
        .executable(name: "mypass", targets: ["mypass"]),
        .executable(name: "mypass-bench", targets: ["mypass-bench"]),
    ],
    targets: [
        // Bytes and secrets helpers: cursors, hex/base64, wiping buffers, constant-time compare, OS randomness.
        .target(name: "MyPassBytes", swiftSettings: strict),
        // Primitives: SHA-1/256/512, HMAC, AES-256, ChaCha20, Salsa20, Twofish, BLAKE2b, Argon2, AES-KDF; the
        // arm64 AES and SHA-256 kernels and the choice of backend (CryptoBackend).
        .target(name: "MyPassCrypto", dependencies: ["MyPassBytes"], swiftSettings: strict + builtinModule),
        // The x86_64 AES-NI and SHA-NI kernels, and the offer of every x86_64 kernel to MyPassCrypto at
        // start-up (in no library product).
        .target(
            name: "MyPassCryptoHardware", dependencies: ["MyPassCrypto", "MyPassCryptoAVX512", "MyPassCryptoBMI2", "MyPassCryptoAVX512BMI2"],
            swiftSettings: strict + builtinModule + x86CryptoFeatures),
        // The x86_64 AVX-512 kernels (ChaCha20, Salsa20), offered by MyPassCryptoHardware (in no library product).
        .target(name: "MyPassCryptoAVX512", swiftSettings: strict + builtinModule + x86AVX512Features),
        // The x86_64 BMI2 kernel (SHA-512), offered by MyPassCryptoHardware (in no library product).
        .target(name: "MyPassCryptoBMI2", dependencies: ["MyPassCrypto"], swiftSettings: strict + x86BMI2Features),
        // The x86_64 AVX-512 + BMI2 kernel (SHA-512 eight blocks' schedules at a time), offered by
        // MyPassCryptoHardware (in no library product).
        .target(
            name: "MyPassCryptoAVX512BMI2", dependencies: ["MyPassCrypto", "MyPassBytes"],
            swiftSettings: strict + x86AVX512BMI2Features),
        // DEFLATE (RFC 1951), zlib (RFC 1950) and gzip (RFC 1952), inflate and deflate.
        .target(name: "MyPassCompression", dependencies: ["MyPassBytes"], swiftSettings: strict),
        // Streaming XML 1.0 tokenizer and KeePass-shaped writer.
        .target(name: "MyPassXML", dependencies: ["MyPassBytes"], swiftSettings: strict),
        // KDBX 3.1 / 4.0 / 4.1 codec and the vault model.
        .target(
            name: "MyPassKDBX",
            dependencies: ["MyPassBytes", "MyPassCrypto", "MyPassCompression", "MyPassXML"],
            swiftSettings: strict),
        // Vault logic shared by the app and the CLI: list/filter, editing, TOTP, matching, session.
        .target(
            name: "MyPassCore",
            dependencies: ["MyPassBytes", "MyPassCrypto", "MyPassXML", "MyPassKDBX"],
            swiftSettings: strict),
        // The app's screens without the UI: `@Observable` view models over MyPassCore (vault list, group
        // filter, entry detail and editor, unlock and session, AutoFill list). Observation needs iOS 17 /
        // macOS 14: this module's declarations say so; MyPassCore keeps iOS 16 / macOS 13.
        .target(name: "MyPassViewModels", dependencies: ["MyPassCore", "MyPassBytes", "MyPassKDBX"], swiftSettings: strict),
        // Password health, above the core: the zxcvbn-family strength estimator with its frequency
        // lists, the offline HIBP breach list reader and the vault health report. A module of its
        // own so that the AutoFill extension, which links MyPassCore alone, never carries the lists.
        .target(
            name: "MyPassHealth",
            dependencies: ["MyPassCore", "MyPassKDBX", "MyPassCrypto", "MyPassCompression", "MyPassBytes"],
            swiftSettings: strict),
        // The `mypass` command line: commands, argument parsing, the agent, the clipboard (all but `main`).
        .target(
            name: "MyPassCLI", dependencies: ["MyPassCore", "MyPassViewModels", "MyPassHealth", "MyPassBytes", "MyPassCrypto", "MyPassKDBX"],
            path: "Sources/mypass", swiftSettings: strict),
        .executableTarget(
            name: "mypass", dependencies: ["MyPassCLI", "MyPassCore", "MyPassCryptoHardware"], path: "Sources/mypass-main",
            swiftSettings: strict + staticRuntimeOnLinux, linkerSettings: staticLinkOnLinux),
        .executableTarget(
            name: "mypass-bench",
            dependencies: [
                "MyPassCore", "MyPassHealth", "MyPassBytes", "MyPassCrypto", "MyPassCryptoHardware", "MyPassCompression", "MyPassXML", "MyPassKDBX",
            ],
            path: "Benchmarks/mypass-bench",
            swiftSettings: strict + staticRuntimeOnLinux, linkerSettings: staticLinkOnLinux),

        // Test helpers: locating Vectors/, hex parsing, finding the interop tools.
        .target(
            name: "MyPassTestSupport", dependencies: ["MyPassBytes", "MyPassKDBX", "MyPassCore"], path: "Tests/MyPassTestSupport",
            swiftSettings: strict),
        // The libFuzzer harnesses' bodies (Fuzz/run.sh links them into a fuzz binary; the tests replay the corpora).
        .target(
            name: "MyPassFuzzing",
            dependencies: ["MyPassCore", "MyPassKDBX", "MyPassCompression", "MyPassCrypto", "MyPassBytes"],
            path: "Fuzz/Harnesses", swiftSettings: strict),
        .testTarget(name: "MyPassBytesTests", dependencies: ["MyPassBytes", "MyPassTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MyPassCryptoTests",
            dependencies: ["MyPassCrypto", "MyPassCryptoHardware", "MyPassCore", "MyPassBytes", "MyPassTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "MyPassCompressionTests", dependencies: ["MyPassCompression", "MyPassTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "MyPassXMLTests", dependencies: ["MyPassXML", "MyPassTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MyPassKDBXTests",
            dependencies: ["MyPassKDBX", "MyPassBytes", "MyPassCrypto", "MyPassCompression", "MyPassXML", "MyPassTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "MyPassCoreTests",
            dependencies: [
                "MyPassCore", "MyPassBytes", "MyPassCrypto", "MyPassCompression", "MyPassXML", "MyPassKDBX", "MyPassTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "MyPassViewModelsTests",
            dependencies: ["MyPassViewModels", "MyPassCore", "MyPassBytes", "MyPassKDBX", "MyPassTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "MyPassHealthTests",
            dependencies: ["MyPassHealth", "MyPassCore", "MyPassKDBX", "MyPassCrypto", "MyPassBytes", "MyPassTestSupport"],
            swiftSettings: strict),
        // An app's view: `import MyPassCore` and nothing else (no test support, no other module).
        .testTarget(name: "MyPassCoreAppTests", dependencies: ["MyPassCore"], swiftSettings: strict),
        .testTarget(
            name: "MyPassCLITests",
            dependencies: ["MyPassBytes", "MyPassCrypto", "MyPassKDBX", "MyPassCore", "MyPassTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "MyPassFuzzTests", dependencies: ["MyPassFuzzing", "MyPassCLI", "MyPassTestSupport"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
