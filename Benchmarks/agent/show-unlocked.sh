#!/bin/sh
# Side by side (not a test): `mypass show` on an unlocked vault against `keepassxc-cli show` with
# the password piped in, on a KeePass-default vault (Argon2d 64 MiB, 2 iterations, 2 lanes, made
# by KeePass itself through kporacle) and on KeePassXC's default AES-KDF vault (5,555,555 rounds).
# Needs a release build (swift build -c release --product mypass), hyperfine, keepassxc-cli, kporacle.
# Usage: Benchmarks/agent/show-unlocked.sh [RUNS]   (from the repository root)
set -eu
runs=${1:-10}
root=$(pwd)
mypass="$root/.build/release/mypass"
kporacle="$root/../shared/tools/kporacle/kporacle"
password='correct horse battery staple'
work=$(mktemp -d)
export XDG_RUNTIME_DIR="$work/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
trap '"$mypass" lock >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

"$kporacle" save "$root/Vectors/kdbx/keepass/kdbx4-aes-argon2d.kdbx" "$work/keepass-default.kdbx" \
    --pw "$password" --argon2d 67108864 2 2 >/dev/null
cp "$root/Vectors/kdbx/keepassxc/kxc-import-rich.kdbx" "$work/keepassxc-default.kdbx"

for vault in keepass-default keepassxc-default; do
    file="$work/$vault.kdbx"
    printf '%s\n' "$password" | "$mypass" unlock "$file" --timeout 600
    hyperfine --warmup 1 --runs "$runs" --export-json "$work/$vault.json" \
        -n "mypass show ($vault, unlocked)" "sh -c '\"$mypass\" show \"$file\" \"Sample Entry\" </dev/null >/dev/null'" \
        -n "keepassxc-cli show ($vault)" "sh -c 'printf \"%s\\n\" \"$password\" | keepassxc-cli show -q \"$file\" \"Sample Entry\" >/dev/null'"
    python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"]
for x in r: print("%-45s median %7.1f ms" % (x["command"], 1000 * x["median"]))
print("ratio of medians: %.3fx" % (r[0]["median"] / r[1]["median"]))' "$work/$vault.json"
done
