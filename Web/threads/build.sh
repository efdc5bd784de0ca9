#!/usr/bin/env bash
# Builds the threads experiment (not run by CI; Web/threads/bench.sh runs it): two wasm32
# Embedded Swift modules from MyPassBytes, MyPassCrypto's Argon2 and BLAKE2b sources (and the few
# files they need), Embedded/Platform/WASI.swift, Web/threads/LockedHeap.swift (a heap that takes a
# lock: the lanes allocate at once) and Web/threads/Argon2Lanes.swift (the exports),
# with the web module's flags (Embedded/build.sh: -Osize, no stack protector, LLVM's inliner at
# threshold 0):
#   single.wasm: as the page's mypass.wasm is built (no threads);
#   threads.wasm: every object compiled with the atomics and bulk-memory features and linked with
#     a shared, imported memory (wasm-ld --shared-memory --import-memory), so that several Web
#     Workers can instantiate it on one WebAssembly.Memory; __stack_pointer is exported so that
#     each worker gets a stack of its own.
# Output in .build/wasm-threads/. Prints each module's compile time and the sizes.
# Usage: Web/threads/build.sh   (SWIFT_BIN: the toolchain's bin directory, as Embedded/build.sh)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$(dirname "$here")")"
bin="${SWIFT_BIN:-$(dirname "$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)")}"
out="$root/.build/wasm-threads"
target=wasm32-unknown-none-wasm
flags=(-enable-experimental-feature Embedded -enable-experimental-feature Extern
  -enable-experimental-feature BuiltinModule -wmo -parse-as-library -package-name MyPass -swift-version 6
  -Osize -Xfrontend -disable-stack-protector -Xllvm -inline-threshold=0 -target "$target")
crypto="$root/Sources/MyPassCrypto"
lanes_sources=("$crypto"/Argon2/*.swift "$crypto"/BLAKE2b/*.swift "$crypto/CryptoError.swift"
  "$crypto/KDF/KDFProgress.swift" "$crypto/Backend/CryptoPlatform.swift"
  "$root/Embedded/Platform/WASI.swift" "$here/LockedHeap.swift" "$here/Argon2Lanes.swift")
unicode="$(dirname "$bin")/lib/swift/embedded/$target/libswiftUnicodeDataTables.a"
memory=(--initial-memory=2097152 --max-memory=2147483648 -z stack-size=1048576)
for kind in single threads; do
  dir="$out/$kind"
  mkdir -p "$dir"
  extra=()
  link=()
  if [[ $kind == threads ]]; then
    extra=(-Xcc -matomics -Xcc -mbulk-memory)
    link=(--shared-memory --import-memory --export=__stack_pointer)
  fi
  begin=$SECONDS
  nice "$bin/swiftc" "${flags[@]}" "${extra[@]}" -module-name MyPassBytes -I "$dir" -emit-module \
    -emit-module-path "$dir/MyPassBytes.swiftmodule" -c -o "$dir/MyPassBytes.o" $(find "$root/Sources/MyPassBytes" -name '*.swift' | sort)
  echo "threads: $kind MyPassBytes $((SECONDS - begin)) s"
  begin=$SECONDS
  nice "$bin/swiftc" "${flags[@]}" "${extra[@]}" -module-name Argon2Lanes -I "$dir" \
    -c -o "$dir/Argon2Lanes.o" "${lanes_sources[@]}"
  echo "threads: $kind Argon2Lanes $((SECONDS - begin)) s"
  "$bin/wasm-ld" "$dir/Argon2Lanes.o" "$dir/MyPassBytes.o" "$unicode" -o "$out/$kind.wasm" --wrap=free --gc-sections \
    --strip-all --no-entry "${memory[@]}" "${link[@]}"
  echo "threads: $kind.wasm $(stat -c %s "$out/$kind.wasm") bytes"
done
