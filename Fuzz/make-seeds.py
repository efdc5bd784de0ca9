#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/corpus/NAME/ from the repository's own vectors (Vectors/), and
from small inputs built here. Deterministic: running it again gives the same files.

    python3 Fuzz/make-seeds.py      (then: FuzzCorpusTests with MYPASS_FUZZ_RECORD=1 records the outcomes)
"""
import base64, copy, gzip, os, shutil, struct, zlib
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
V = os.path.join(ROOT, "Vectors")
OUT = os.path.join(ROOT, "Fuzz", "corpus")


def read(path):
    with open(os.path.join(V, path), "rb") as f:
        return f.read()


corpora = {}


def seed(name, label, data):
    corpora.setdefault(name, []).append((label, data))


FIXTURES = [
    "keepass/kdbx31-aes-aeskdf.kdbx", "keepass/kdbx31-aes-aeskdf-nocomp.kdbx", "keepass/kdbx4-aes-argon2d.kdbx",
    "keepass/kdbx4-chacha20-aeskdf.kdbx", "keepass/kdbx4-chacha20-argon2id.kdbx", "keepassxc/kxc-edited-argon2id.kdbx",
    "thirdparty/kdbxweb/KDBX4.1.kdbx", "thirdparty/kdbxweb/AesKdfKdbx4.kdbx", "thirdparty/kdbxweb/Argon2id.kdbx",
    "thirdparty/kdbxweb/demo.kdbx", "thirdparty/gokeepasslib/kdbx4_example-twofish.kdbx",
    "thirdparty/gokeepasslib/kdbx4_example-nocompression.kdbx", "thirdparty/gokeepasslib/kdbx3_example.kdbx",
]


def header_fields(data):
    """(fields, end offset) of a KDBX outer header: field id -> bytes."""
    major = struct.unpack_from("<H", data, 10)[0]
    wide = major >= 4
    pos, fields = 12, []
    while True:
        fid = data[pos]
        size = struct.unpack_from("<I" if wide else "<H", data, pos + 1)[0]
        pos += 5 if wide else 3
        fields.append((fid, data[pos:pos + size]))
        pos += size
        if fid == 0:
            return fields, pos, wide


# kdbx-header: each fixture's header (4.x with its SHA-256 and HMAC), and a few cut or changed.
for path in FIXTURES:
    data = read("kdbx/" + path)
    fields, end, wide = header_fields(data)
    short = os.path.basename(path)[:-5]
    seed("kdbx-header", short, data[:end + (64 if wide else 0)])
    # variant-dictionary: the KDF parameters (field 11) and public custom data (field 12).
    for fid, value in fields:
        if fid in (11, 12):
            seed("variant-dictionary", "%s-field%d" % (short, fid), value)
seed("kdbx-header", "cut-in-field", read("kdbx/" + FIXTURES[2])[:40])
seed("kdbx-header", "signature-only", read("kdbx/" + FIXTURES[2])[:12])
seed("kdbx-header", "kdbx1-signature", bytes.fromhex("03d9a29a65fb4bb5") + b"\x00\x00\x01\x00")
seed("kdbx-header", "empty", b"")


def vd(items, version=0x0100):
    """A VariantDictionary from (type, name, value bytes)."""
    out = struct.pack("<H", version)
    for t, k, v in items:
        k = k.encode()
        out += bytes([t]) + struct.pack("<I", len(k)) + k + struct.pack("<I", len(v)) + v
    return out + b"\x00"


seed("variant-dictionary", "every-type", vd([(0x04, "u32", struct.pack("<I", 7)), (0x05, "u64", struct.pack("<Q", 9)),
                                             (0x08, "bool", b"\x01"), (0x0C, "i32", struct.pack("<i", -1)),
                                             (0x0D, "i64", struct.pack("<q", -2)), (0x18, "str", "té".encode()),
                                             (0x42, "bytes", bytes(range(16)))]))
seed("variant-dictionary", "empty", vd([]))
seed("variant-dictionary", "no-end", vd([(0x05, "R", struct.pack("<Q", 1))])[:-1])
seed("variant-dictionary", "version-2", vd([], version=0x0200))
seed("variant-dictionary", "bad-width", vd([(0x04, "u32", b"\x01\x02")]))
seed("variant-dictionary", "duplicate", vd([(0x05, "R", struct.pack("<Q", 1)), (0x05, "R", struct.pack("<Q", 2))]))


def inner(fields):
    return b"".join(bytes([i]) + struct.pack("<i", len(d)) + d for i, d in fields)


CHACHA = (1, struct.pack("<I", 3))
KEY = (2, bytes(range(64)))
END_FIELD = (0, b"")
INNER = [
    ("chacha", [CHACHA, KEY, END_FIELD]),
    ("salsa", [(1, struct.pack("<I", 2)), (2, bytes(32)), END_FIELD]),
    ("binaries", [CHACHA, KEY, (3, b"\x01secret"), (3, b"\x00" + bytes(100)), (3, b"\x00"), END_FIELD]),
    ("unknown-field", [CHACHA, KEY, (9, b"x"), END_FIELD]),
    ("no-key", [CHACHA, END_FIELD]),
    ("unknown-stream", [(1, struct.pack("<I", 9)), KEY, END_FIELD]),
    ("empty-binary", [CHACHA, KEY, (3, b""), END_FIELD]),
]
for label, fields in INNER:
    seed("inner-header", label, inner(fields) + b"<KeePassFile/>")
seed("inner-header", "negative-size", b"\x01\xff\xff\xff\xff")
seed("inner-header", "truncated", inner([CHACHA, KEY])[:-10])

# key-file: every key file of the vectors.
for d in ("keepass", "thirdparty/kdbxweb", "thirdparty/gokeepasslib", "thirdparty/keepass-rs"):
    for f in sorted(os.listdir(os.path.join(V, "kdbx", d))):
        if f.endswith((".key", ".keyx", ".bin")):
            seed("key-file", d.split("/")[-1] + "-" + f, read("kdbx/%s/%s" % (d, f)))
v2 = read("kdbx/keepass/keyfile-v2.keyx")
seed("key-file", "v2-cut", v2[:len(v2) // 2])
seed("key-file", "hex63", b"a" * 63)
seed("key-file", "hex64-nonhex", b"g" * 64)

# inflate: format byte (0 raw, 1 zlib, 2 gzip; its value also picks the split point), then data.
text = read("compression/allflags.txt")[:3000]
small = b"KeePass " * 40 + bytes(range(256))
for label, data in [("text", text), ("small", small), ("empty", b""), ("one", b"x")]:
    for level in (0, 1, 9):
        raw = zlib.compressobj(level, zlib.DEFLATED, -15)
        seed("inflate", "raw-%s-L%d" % (label, level), bytes([3 * (7 + level)]) + raw.compress(data) + raw.flush())
    seed("inflate", "zlib-" + label, bytes([1 + 3 * 11]) + zlib.compress(data, 6))
    seed("inflate", "gzip-" + label, bytes([2 + 3 * 5]) + gzip.compress(data, 6, mtime=0))
for f in ("edge-one-byte.raw", "edge-code-length-runs.raw", "edge-all-codes.raw", "edge-max-length.raw"):
    seed("inflate", f, bytes([3 * 4]) + read("compression/" + f))
seed("inflate", "concat-gzip", bytes([2]) + read("compression/concat.gz")[:4000])
seed("inflate", "zlib-bad-adler", bytes([1]) + zlib.compress(small)[:-1] + b"\x00")

# xml-body: small KeePass XML bodies: each top-level group of a KeePass export alone, the export's
# meta with an empty root, the passkeys and binaries documents, and a few broken ones.
export = ET.parse(os.path.join(V, "xml/rich-export.xml")).getroot()
meta = export.find("Meta")
meta.remove(meta.find("Binaries"))
root_group = export.find("Root/Group")


def document(groups, with_meta=True):
    doc = ET.Element("KeePassFile")
    doc.append(copy.deepcopy(meta) if with_meta else ET.fromstring("<Meta><Generator>seed</Generator></Meta>"))
    root = ET.SubElement(doc, "Root")
    top = ET.SubElement(root, "Group")
    for child in root_group:
        if child.tag not in ("Group", "Entry"):
            top.append(copy.deepcopy(child))
    for g in groups:
        top.append(copy.deepcopy(g))
    root.append(copy.deepcopy(export.find("Root/DeletedObjects")))
    return b'<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n' + ET.tostring(doc)


bodies = []
for i, child in enumerate(c for c in root_group if c.tag in ("Group", "Entry")):
    for j, sub in enumerate([child] + [e for e in child.iter("Entry")][:3]):
        data = document([sub], with_meta=(i + j) % 2 == 0)
        if len(data) < 8000:
            bodies.append(("export-%d-%d" % (i, j), data))
bodies.append(("export-meta-only", document([])))
bodies.append(("passkeys", read("passkey/keepass-passkeys.xml")))
bodies.append(("binaries-regression", read("kdbx-xml/regressions/gzip-binaries-add-up-3x.xml")))
bodies.append(("minimal", b"<KeePassFile><Root><Group><Name>R</Name></Group></Root></KeePassFile>"))
for label, data in bodies:
    seed("xml-body", label, data)
seed("xml-body", "cut", bodies[0][1][:700])
seed("xml-body", "two-roots", b"<KeePassFile><Root/><Root/></KeePassFile>")
seed("xml-body", "not-keepass", b"<html><body/></html>")
seed("xml-body", "bad-base64", b"<KeePassFile><Root><Group><UUID>!!</UUID></Group></Root></KeePassFile>")

# open: mode byte, then a whole file (0), a KDBX 4 plaintext payload (1: inner header + XML; 2:
# the same gzipped by the harness), or a KDBX 3.1 XML body (3).
for path in FIXTURES[:4]:
    seed("open", "file-" + os.path.basename(path)[:-5], b"\x00" + read("kdbx/" + path)[:6000])
chacha_header = inner([CHACHA, KEY, (3, b"\x01attached"), END_FIELD])
for label, data in bodies[:8] + bodies[-3:]:
    seed("open", "kdbx4-" + label, b"\x01" + chacha_header + data)
    seed("open", "kdbx4-gzip-" + label, b"\x02" + chacha_header + data)
    seed("open", "kdbx31-" + label, b"\x03" + data)
seed("open", "kdbx4-no-inner-header", b"\x01" + bodies[-1][1])
seed("open", "kdbx31-empty", b"\x03")

# index: the open harness's inputs, read by the AutoFill index's streaming reader (IndexHarness).
for label, data in list(corpora["open"]):
    seed("index", label, data)

# merge: two bodies, the first's length in two bytes: a vault with itself, with an edited copy,
# and with another vault.
def pair(a, b):
    return struct.pack("<H", len(a)) + a + b


for label, data in bodies[:10]:
    seed("merge", "self-" + label, pair(data, data))
    edited = data.replace(b"<LastModificationTime>", b"<LastModificationTime>2", 1) \
        .replace(b"2026-", b"2027-", 3)
    seed("merge", "edited-" + label, pair(data, edited))
for (la, a), (lb, b) in zip(bodies[:6], bodies[6:12]):
    seed("merge", "%s+%s" % (la, lb), pair(a, b))
seed("merge", "short", b"\x05\x00abc")

# passkey-der: the passkey key vectors, as PEM and as DER.
for f in sorted(os.listdir(os.path.join(V, "passkey"))):
    if f.endswith(".pem"):
        pem = read("passkey/" + f)
        seed("passkey-der", f, pem)
        der = base64.b64decode(b"".join(l for l in pem.splitlines() if not l.startswith(b"-----")))
        seed("passkey-der", f[:-4] + ".der", der)
        seed("passkey-der", f[:-4] + "-cut.der", der[:len(der) // 2])
        seed("passkey-der", f[:-4] + "-trailing.der", der + b"\x00")
seed("passkey-der", "empty-sequence", b"\x30\x00")
seed("passkey-der", "long-length", b"\x30\x84\xff\xff\xff\xff")
seed("passkey-der", "deep", b"\x30\x02" * 40)

# import-*: the import vectors the corpora were made from (named, so that vectors added later do
# not change the checked-in corpora and their recorded outcomes), and a few cut.
IMPORT_VECTORS = [
    "bad-broken.json", "bad-columns.csv", "bad-duplicate-column.csv", "bad-duplicate-field.json",
    "bad-duplicate-folder.json", "bad-short-record.csv", "bad-unclosed-quote.csv", "bitwarden.json",
    "demo-keepassxc.csv", "kxc-import-rich-keepassxc.csv",
]
for f in IMPORT_VECTORS:
    data = read("import/" + f)
    if f.endswith(".csv"):
        seed("import-keepassxc-csv", f, data)
        seed("import-keepassxc-csv", f + "-cut", data[:len(data) // 2])
    elif f.endswith(".json"):
        seed("import-bitwarden-json", f, data)
        seed("import-bitwarden-json", f + "-cut", data[:len(data) // 2])
seed("import-keepassxc-csv", "header-only", b'"Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"\n')
seed("import-keepassxc-csv", "not-utf8", b'"Group","Title"\n"\xff","x"\n')
seed("import-bitwarden-json", "empty-object", b"{}")
seed("import-bitwarden-json", "encrypted", b'{"encrypted": true, "items": []}')
seed("import-bitwarden-json", "deep", b"[" * 300 + b"]" * 300)
for label, data in bodies[:12]:
    seed("import-keepass-xml", label, data)
seed("import-keepass-xml", "not-keepass", b"<html/>")
seed("import-keepass-xml", "cut", bodies[2][1][:500])


# agent-frame: frames of every request and answer, and broken ones.
def frame(code, *fields):
    body = bytes([code]) + b"".join(struct.pack("<I", len(f)) + f for f in fields)
    return struct.pack("<I", len(body)) + body


path = b"/home/alice/vault.kdbx"
kdf = vd([(0x42, "$UUID", bytes.fromhex("c9d9f39a628a4460bf740d08c18a4fea")), (0x05, "R", struct.pack("<Q", 1000)),
          (0x42, "S", bytes(32))])
for label, data in [
    ("status", frame(0x53)), ("get", frame(0x47, path)),
    ("put", frame(0x50, path, bytes(32), b"\x01", bytes(32), kdf, struct.pack("<Q", 600))),
    ("update-key", frame(0x4B, path, bytes(32), kdf)), ("lock-one", frame(0x4C, path)), ("lock-all", frame(0x4C)),
    ("ok-get", frame(0, bytes(32), b"\x03", bytes(32), kdf, struct.pack("<Q", 60))),
    ("ok-status", frame(0, path, struct.pack("<Q", 60))), ("not-held", frame(1)), ("refused", frame(2)),
    ("bad-request", frame(3)), ("unknown-code", frame(0x7A, b"x")), ("empty-field", frame(0x47, b"")),
    ("zero-length", struct.pack("<I", 0)), ("too-long", struct.pack("<I", 65537) + b"S"),
    ("field-past-end", struct.pack("<I", 6) + b"G" + struct.pack("<I", 100) + b"a"),
    ("truncated-length", struct.pack("<I", 3) + b"G\x01\x00"), ("short", b"\x01\x00"),
    ("ok-get-bad-kdf", frame(0, bytes(32), b"\x01", bytes(32), b"\x00\x01\x05", struct.pack("<Q", 60))),
]:
    seed("agent-frame", label, data)

# ssh-agent-message: what ssh, ssh-add and ssh-keygen send (draft-miller-ssh-agent), broken ones, and
# the agent's add-identity bodies of the fixture keys (read from their OpenSSH private sections).
def sstr(b):
    return struct.pack(">I", len(b)) + b


def sframe(body):
    return struct.pack(">I", len(body)) + body


ed25519_blob = sstr(b"ssh-ed25519") + sstr(bytes(range(32)))
for label, data in [
    ("request-identities", sframe(b"\x0b")),
    ("sign", sframe(b"\x0d" + sstr(ed25519_blob) + sstr(b"session id and userauth request") + struct.pack(">I", 0))),
    ("sign-rsa-sha2-512", sframe(b"\x0d" + sstr(sstr(b"ssh-rsa") + sstr(b"\x01\x00\x01") + sstr(b"\x00" + bytes([0xC5]) * 256))
                                 + sstr(b"data") + struct.pack(">I", 4))),
    ("lock", sframe(b"\x16" + sstr(b"passphrase"))), ("unlock", sframe(b"\x17" + sstr(b"passphrase"))),
    ("add-identity", sframe(b"\x11" + sstr(b"ssh-ed25519") + sstr(bytes(32)) + sstr(bytes(64)) + sstr(b"comment"))),
    ("remove-all", sframe(b"\x13")),
    ("extension", sframe(b"\x1b" + sstr(b"session-bind@openssh.com") + sstr(ed25519_blob) + sstr(bytes(32)) + sstr(b"sig") + b"\x00")),
    ("unknown-type", sframe(b"\xfe")), ("zero-length", struct.pack(">I", 0)), ("too-long", struct.pack(">I", 262145) + b"\x0b"),
    ("sign-truncated", sframe(b"\x0d" + struct.pack(">I", 100) + b"abc")),
    ("identities-trailing", sframe(b"\x0b\x00")), ("short", b"\x00\x00"),
    ("sign-huge-string", sframe(b"\x0d" + struct.pack(">I", 0xFFFFFFFF))),
]:
    seed("ssh-agent-message", label, data)


def private_section(path):
    """The first key of an unencrypted OpenSSH key file's private section: type, fields, comment."""
    text = read(path).decode()
    der = base64.b64decode("".join(l for l in text.splitlines() if not l.startswith("-----")))
    pos = len(b"openssh-key-v1\0")
    def rd(p):
        n = struct.unpack_from(">I", der, p)[0]
        return der[p + 4:p + 4 + n], p + 4 + n
    for _ in range(3):
        _, pos = rd(pos)
    pos += 4
    _, pos = rd(pos)
    private, _ = rd(pos)
    return private[8:]  # after the two check words; the padding is cut by the caller


for name in ["ed25519", "ecdsa", "rsa-2048"]:
    body = private_section("ssh/keys/" + name)
    pad = body[-1] if body[-1] < 16 else 0
    seed("ssh-agent-message", "identity-" + name, body[:len(body) - pad])

# ssh-key: the fixture key files (every form), cut and with a changed byte.
for name in ["ed25519", "ed25519-encrypted", "ecdsa", "rsa-2048", "ecdsa-sec1", "rsa-pkcs1", "rsa-pkcs8",
             "ed25519-pkcs8", "ecdsa-pkcs8", "ed25519-cbc"]:
    data = read("ssh/keys/" + name)
    seed("ssh-key", name, data)
    seed("ssh-key", name + "-cut", data[:len(data) * 2 // 3])
der = base64.b64decode("".join(l for l in read("ssh/keys/ecdsa").decode().splitlines() if not l.startswith("-----")))
seed("ssh-key", "ecdsa-raw-body", der)
seed("ssh-key", "ecdsa-raw-flipped", der[:100] + bytes([der[100] ^ 0x40]) + der[101:])
seed("ssh-key", "encrypted-pem", b"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nAAAA\n-----END RSA PRIVATE KEY-----\n")
seed("ssh-key", "not-a-key", b"hello")

# Each corpus directory is written anew; the recorded outcomes (NAME.outcomes) stay.
for name, seeds in sorted(corpora.items()):
    shutil.rmtree(os.path.join(OUT, name), ignore_errors=True)
    os.makedirs(os.path.join(OUT, name))
    for n, (label, data) in enumerate(seeds):
        with open(os.path.join(OUT, name, "seed-%02d-%s" % (n, label.replace("/", "-"))), "wb") as f:
            f.write(data)
    print("%-24s %3d seeds %8d bytes" % (name, len(seeds), sum(len(d) for _, d in seeds)))
