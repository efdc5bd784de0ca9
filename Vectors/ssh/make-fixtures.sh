#!/usr/bin/env bash
# How Vectors/ssh/ was made (once; the keys are random, so running it again gives other keys and
# the tests' expected fingerprints come from the files themselves): SSH keys written by
# ssh-keygen (OpenSSH 9.2p1) and OpenSSL 3.0, stored in a vault written by keepassxc-cli 2.7.4 the
# way KeePassXC stores them (the key file as an attachment, and a KeeAgent.settings attachment
# in the form KeePassXC's KeeAgentSettings::toXml writes: UTF-16 with a byte-order mark).
#
#   Vectors/ssh/make-fixtures.sh      (writes into Vectors/ssh/; needs ssh-keygen, openssl, keepassxc-cli)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
rm -rf keys keeagent.kdbx
mkdir keys
vault_password="ssh-agent-test"

# name type bits format passphrase
keys=(
  "ed25519 ed25519 256 openssh -"
  "ed25519-encrypted ed25519 256 openssh ed25519-passphrase"
  "ecdsa ecdsa 256 openssh -"
  "ecdsa-encrypted ecdsa 256 openssh ecdsa-passphrase"
  "rsa-2048 rsa 2048 openssh -"
  "rsa-3072-encrypted rsa 3072 openssh rsa-3072-passphrase"
  "rsa-4096 rsa 4096 openssh -"
  "rsa-4096-encrypted rsa 4096 openssh rsa-4096-passphrase"
  "ecdsa-sec1 ecdsa 256 pem -"
  "rsa-pkcs1 rsa 2048 pem -"
  "rsa-pkcs8 rsa 2048 pkcs8 -"
  "ed25519-pkcs8 ed25519 256 openssl -"
  "ecdsa-pkcs8 ecdsa 256 pkcs8 -"
)
for spec in "${keys[@]}"; do
  read -r name type bits format passphrase <<<"$spec"
  [[ $passphrase == - ]] && passphrase=""
  file="keys/$name"
  case $format in
    openssh) ssh-keygen -q -t "$type" -b "$bits" -N "$passphrase" -C "$name@mypass-test" -f "$file" ;;
    pem | pkcs8)
      ssh-keygen -q -t "$type" -b "$bits" -N "" -C "$name@mypass-test" -m "$([[ $format == pem ]] && echo PEM || echo PKCS8)" -f "$file"
      ;;
    openssl)  # ssh-keygen 9.2 neither writes nor reads Ed25519 as PKCS#8: OpenSSL's, and the
      # public line from Python's cryptography
      openssl genpkey -algorithm ed25519 -out "$file"
      chmod 600 "$file"
      python3 -c 'import sys; from cryptography.hazmat.primitives import serialization as s
k = s.load_pem_private_key(open(sys.argv[1], "rb").read(), None)
print(k.public_key().public_bytes(s.Encoding.OpenSSH, s.PublicFormat.OpenSSH).decode() + " " + sys.argv[2])' "$file" "$name@mypass-test" >"$file.pub"
      ;;
  esac
done
# An OpenSSH key encrypted with aes256-cbc and 100 KDF rounds.
ssh-keygen -q -t ed25519 -N "cbc-passphrase" -Z aes256-cbc -a 100 -C "ed25519-cbc@mypass-test" -f keys/ed25519-cbc

# KeePassXC's KeeAgent.settings: UTF-16LE with a BOM, two-space indentation, empty elements
# written <Name/> (QXmlStreamWriter).
settings() {  # add-at-open remove-at-close confirm lifetime-on lifetime attachment
  printf '<?xml version="1.0" encoding="UTF-16"?>\n<EntrySettings xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n  <AllowUseOfSshKey>true</AllowUseOfSshKey>\n  <AddAtDatabaseOpen>%s</AddAtDatabaseOpen>\n  <RemoveAtDatabaseClose>%s</RemoveAtDatabaseClose>\n  <UseConfirmConstraintWhenAdding>%s</UseConfirmConstraintWhenAdding>\n  <UseLifetimeConstraintWhenAdding>%s</UseLifetimeConstraintWhenAdding>\n  <LifetimeConstraintDuration>%s</LifetimeConstraintDuration>\n  <Location>\n    <SelectedType>attachment</SelectedType>\n    <AttachmentName>%s</AttachmentName>\n    <SaveAttachmentToTempFile>false</SaveAttachmentToTempFile>\n    <FileName/>\n  </Location>\n</EntrySettings>\n' "$@" |
    python3 -c 'import sys; sys.stdout.buffer.write(b"\xff\xfe" + sys.stdin.buffer.read().decode().encode("utf-16-le"))'
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '%s\n%s\n' "$vault_password" "$vault_password" | keepassxc-cli db-create -q -p -t 100 keeagent.kdbx
kx() { printf '%s\n' "$vault_password" | keepassxc-cli "$@" -q; }
kx mkdir keeagent.kdbx SSH
# entry key-file add-at-open confirm lifetime-on lifetime entry-password
entries=(
  "ed25519 ed25519 true false false 600 -"
  "ed25519-encrypted ed25519-encrypted true false false 600 ed25519-passphrase"
  "ecdsa ecdsa true false false 600 -"
  "ecdsa-encrypted ecdsa-encrypted true false false 600 ecdsa-passphrase"
  "rsa-2048 rsa-2048 true false false 600 -"
  "rsa-3072-encrypted rsa-3072-encrypted true false false 600 rsa-3072-passphrase"
  "rsa-4096 rsa-4096 true false false 600 -"
  "rsa-4096-encrypted rsa-4096-encrypted true false false 600 rsa-4096-passphrase"
  "ecdsa-sec1 ecdsa-sec1 true false false 600 -"
  "rsa-pkcs1 rsa-pkcs1 true false false 600 -"
  "rsa-pkcs8 rsa-pkcs8 true false false 600 -"
  "ed25519-pkcs8 ed25519-pkcs8 true false false 600 -"
  "ecdsa-pkcs8 ecdsa-pkcs8 true false false 600 -"
  "ed25519-cbc ed25519-cbc true false false 600 cbc-passphrase"
  "not-at-open ed25519 false false false 600 -"
  "confirm ecdsa false true false 600 -"
  "lifetime rsa-2048 false false true 2 -"
)
for spec in "${entries[@]}"; do
  read -r entry key open confirm lifetimeOn lifetime password <<<"$spec"
  if [[ $password == - ]]; then
    kx add keeagent.kdbx "SSH/$entry" -u "$entry-user"
  else
    printf '%s\n%s\n' "$vault_password" "$password" | keepassxc-cli add -q -p keeagent.kdbx "SSH/$entry" -u "$entry-user"
  fi
  kx attachment-import keeagent.kdbx "SSH/$entry" "id_$key" "keys/$key"
  settings "$open" true "$confirm" "$lifetimeOn" "$lifetime" "id_$key" >"$work/settings"
  kx attachment-import keeagent.kdbx "SSH/$entry" KeeAgent.settings "$work/settings"
done
# A deleted key entry (in the recycle bin: never loaded) and a broken one (its settings name an
# attachment that is not there).
kx add keeagent.kdbx "SSH/deleted" -u deleted-user
kx attachment-import keeagent.kdbx "SSH/deleted" id_ed25519 keys/ed25519
settings true true false false 600 id_ed25519 >"$work/settings"
kx attachment-import keeagent.kdbx "SSH/deleted" KeeAgent.settings "$work/settings"
kx rm keeagent.kdbx "SSH/deleted"
kx add keeagent.kdbx "SSH/missing-attachment" -u missing-user
settings true true false false 600 id_nowhere >"$work/settings"
kx attachment-import keeagent.kdbx "SSH/missing-attachment" KeeAgent.settings "$work/settings"
# Logins for the git credential helper and `run`.
kx mkdir keeagent.kdbx Git
printf '%s\n%s\n' "$vault_password" "gh-token-123" | keepassxc-cli add -q -p keeagent.kdbx "Git/github" -u octocat --url https://github.com
printf '%s\n%s\n' "$vault_password" "lab-secret" | keepassxc-cli add -q -p keeagent.kdbx "Git/gitlab-work" -u worker --url https://gitlab.example.com/team/project
ls -la keys keeagent.kdbx
# What ssh-keygen says of each key: the tests' expected fingerprints.
for pub in keys/*.pub; do
  printf '%s ' "$(basename "$pub" .pub)"
  ssh-keygen -l -E sha256 -f "$pub"
done >fingerprints.txt
