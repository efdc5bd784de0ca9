#!/usr/bin/env python3
"""Regenerates the compressed forms in this folder from the originals, using Python's zlib
(an independent DEFLATE implementation, zlib 1.2.13 here) and a tiny bit-level DEFLATE writer for
hand-built edge streams. Debian gzip forms are made by the shell commands in PROVENANCE.md.
Run from this folder: python3 make-vectors.py"""
import random, struct, zlib

def write(name, data):
    with open(name, "wb") as f:
        f.write(data)

def deflate(data, level=6, wbits=15, strategy=zlib.Z_DEFAULT_STRATEGY, memlevel=8):
    c = zlib.compressobj(level, zlib.DEFLATED, wbits, memlevel, strategy)
    return c.compress(data) + c.flush()

# --- Originals compressed by zlib at several levels, strategies and wrappers -----------------
rnd = random.Random(20261129)
random_bytes = bytes(rnd.getrandbits(8) for _ in range(20000))
write("random-20000.bin", random_bytes)
gpl = open("gpl-3.txt", "rb").read()
xml = open("rich-export.xml", "rb").read()

write("gpl-3.txt.L1.zlib", deflate(gpl, 1, 15))
write("gpl-3.txt.L6.zlib", deflate(gpl, 6, 15))
write("gpl-3.txt.L9.raw", deflate(gpl, 9, -15))
write("gpl-3.txt.filtered.raw", deflate(gpl, 6, -15, zlib.Z_FILTERED))
write("gpl-3.txt.huffman.raw", deflate(gpl, 6, -15, zlib.Z_HUFFMAN_ONLY))
write("gpl-3.txt.rle.raw", deflate(gpl, 6, -15, zlib.Z_RLE))
write("gpl-3.txt.fixed.gz", deflate(gpl, 6, 31, zlib.Z_FIXED))
write("gpl-3.txt.window9.zlib", deflate(gpl, 9, 9))  # 512-byte window, CINFO = 1
# Flushes: empty stored blocks after Huffman blocks (mid-byte), stored data, then Huffman again.
c = zlib.compressobj(6, zlib.DEFLATED, -15)
flushed = c.compress(gpl[:1000]) + c.flush(zlib.Z_SYNC_FLUSH) + c.compress(gpl[1000:1001])
flushed += c.flush(zlib.Z_FULL_FLUSH) + c.compress(gpl[1001:5000]) + c.flush(zlib.Z_SYNC_FLUSH)
flushed += c.compress(random_bytes[:2000]) + c.flush(zlib.Z_SYNC_FLUSH)  # incompressible: stored
flushed += c.compress(gpl[7000:12000]) + c.flush()
flushed_original = gpl[:5000] + random_bytes[:2000] + gpl[7000:12000]
assert zlib.decompress(flushed, -15) == flushed_original
write("gpl-3.txt.flushes.raw", flushed)
write("rich-export.xml.L6.zlib", deflate(xml, 6, 15))
write("random-20000.bin.L6.raw", deflate(random_bytes, 6, -15))
write("random-20000.bin.L0.zlib", deflate(random_bytes, 0, 15))

# gzip member with every optional header field (FTEXT|FHCRC|FEXTRA|FNAME|FCOMMENT), RFC 1952 2.3.
text = b"KeePass gzip header test.\n" * 40
head = bytes([0x1F, 0x8B, 8, 0x1F]) + struct.pack("<I", 1700000000) + bytes([2, 3])
head += struct.pack("<H", 8) + b"AB\x04\x00data"  # one extra subfield: SI1 'A', SI2 'B', LEN 4
head += b"name.txt\x00" + b"a comment\x00"
head += struct.pack("<H", zlib.crc32(head) & 0xFFFF)
write("allflags.txt", text)
write("allflags.txt.gz", head + deflate(text, 9, -15) + struct.pack("<II", zlib.crc32(text), len(text)))

# --- Hand-built edge streams -------------------------------------------------------------------
class Bits:
    def __init__(self): self.out, self.acc, self.n = bytearray(), 0, 0
    def put(self, value, count):  # LSB first
        self.acc |= value << self.n; self.n += count
        while self.n >= 8: self.out.append(self.acc & 0xFF); self.acc >>= 8; self.n -= 8
    def huff(self, code, length):  # Huffman codes go MSB first
        self.put(int(format(code, "0%db" % length)[::-1], 2), length)
    def align(self):
        if self.n: self.put(0, 8 - self.n)
    def bytes(self):
        self.align(); return bytes(self.out)

def canonical(lengths):
    bl = [0] * 16
    for l in lengths:
        if l: bl[l] += 1
    code, nxt = 0, [0] * 16
    for b in range(1, 16):
        code = (code + bl[b - 1]) << 1; nxt[b] = code
    codes = [0] * len(lengths)
    for s, l in enumerate(lengths):
        if l: codes[s] = nxt[l]; nxt[l] += 1
    return codes

LBASE = [3,4,5,6,7,8,9,10,11,13,15,17,19,23,27,31,35,43,51,59,67,83,99,115,131,163,195,227,258]
LEXT = [0]*8 + [1]*4 + [2]*4 + [3]*4 + [4]*4 + [5]*4 + [0]
DBASE = [1,2,3,4,5,7,9,13,17,25,33,49,65,97,129,193,257,385,513,769,1025,1537,2049,3073,4097,6145,8193,12289,16385,24577]
DEXT = [0,0,0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13]

def length_code(n):
    for i in range(28, -1, -1):
        if n >= LBASE[i] and (i != 27 or n < 258): return i
def dist_code(d):
    for i in range(29, -1, -1):
        if d >= DBASE[i]: return i

def emit_symbols(w, symbols, lit_len, lit_code, d_len, d_code):
    for s in symbols:
        if isinstance(s, int):
            w.huff(lit_code[s], lit_len[s])
        else:
            length, dist = s
            i = length_code(length); w.huff(lit_code[257 + i], lit_len[257 + i]); w.put(length - LBASE[i], LEXT[i])
            j = dist_code(dist); w.huff(d_code[j], d_len[j]); w.put(dist - DBASE[j], DEXT[j])
    w.huff(lit_code[256], lit_len[256])

def fixed_block(w, symbols, final=True):
    lit_len = [8]*144 + [9]*112 + [7]*24 + [8]*8
    w.put(1 if final else 0, 1); w.put(1, 2)
    emit_symbols(w, symbols, lit_len, canonical(lit_len), [5]*30, canonical([5]*30))

ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

def dynamic_block(w, symbols, lit_len, d_len, cl_len, cl_seq, final=True):
    """cl_seq: list of (symbol, extra) code length codes; cl_len: 19 lengths of the code length code."""
    hclen = 19
    while hclen > 4 and cl_len[ORDER[hclen - 1]] == 0: hclen -= 1
    w.put(1 if final else 0, 1); w.put(2, 2)
    w.put(len(lit_len) - 257, 5); w.put(len(d_len) - 1, 5); w.put(hclen - 4, 4)
    for i in range(hclen): w.put(cl_len[ORDER[i]], 3)
    cl_code = canonical(cl_len)
    for sym, extra in cl_seq:
        w.huff(cl_code[sym], cl_len[sym])
        if sym == 16: w.put(extra - 3, 2)
        elif sym == 17: w.put(extra - 3, 3)
        elif sym == 18: w.put(extra - 11, 7)
    emit_symbols(w, symbols, lit_len, canonical(lit_len), d_len, canonical(d_len))

def expand(symbols):
    out = bytearray()
    for s in symbols:
        if isinstance(s, int): out.append(s)
        else:
            length, dist = s
            for _ in range(length): out.append(out[-dist])
    return bytes(out)

def save_edge(name, stream, symbols_or_data):
    data = symbols_or_data if isinstance(symbols_or_data, bytes) else expand(symbols_or_data)
    assert zlib.decompress(stream, -15) == data, name
    write(name + ".raw", stream)
    manifest.append("%s %d %08x" % (name, len(data), zlib.crc32(data)))

manifest = []

# empty: one final fixed block holding only end-of-block
w = Bits(); fixed_block(w, []); save_edge("edge-empty", w.bytes(), b"")
# one byte
w = Bits(); fixed_block(w, [0x41]); save_edge("edge-one-byte", w.bytes(), [0x41])
# maximal-length matches: 'x' then 40 copies of length 258 at distance 1, and 258 at distance 258
syms = [0x78] + [(258, 1)] * 40 + [(258, 258)]
w = Bits(); fixed_block(w, syms); save_edge("edge-max-length", w.bytes(), syms)
# distance 32768: 258 distinct literals, zeros up to 32768 bytes, then copy the first 258 bytes
head_lits = [rnd.getrandbits(8) | 1 for _ in range(258)]
syms = head_lits + [0] + [(258, 1)] * ((32768 - 259) // 258)
filled = 259 + 258 * ((32768 - 259) // 258)
syms += [0] * (32768 - filled) + [(258, 32768), (3, 32768)]
w = Bits(); fixed_block(w, syms); save_edge("edge-distance-32768", w.bytes(), syms)
# all 286 literal/length codes and all 30 distance codes in one dynamic block; the code length
# code uses all 19 symbols (HCLEN 19), so every position of the permuted order carries a length.
lit_len = [8] * 226 + [9] * 60            # Kraft: 226/256 + 60/512 = 1
d_len = [4] * 2 + [5] * 28                # 2/16 + 28/32 = 1
cl_len = [4] * 13 + [5] * 6               # 13/16 + 6/32 = 1
def rle(lengths):
    seq, i = [], 0
    while i < len(lengths):
        seq.append((lengths[i], 0)); j = i + 1
        while j < len(lengths) and lengths[j] == lengths[i] and j - i < 7: j += 1
        run = j - i - 1
        if run >= 3: seq.append((16, run)); i = j
        else: i += 1
    return seq
cl_seq = rle(lit_len + d_len)
syms = list(range(256)) + [(258, 1)] * 130           # output grows past 32768 bytes
syms += [(LBASE[i], 1) for i in range(29)]             # every length code 257...285
syms += [(3, DBASE[j]) for j in range(30)]             # every distance code 0...29
w = Bits(); dynamic_block(w, syms, lit_len, d_len, cl_len, cl_seq); save_edge("edge-all-codes", w.bytes(), syms)
# dynamic header with runs of code 16, 17 and 18 and a short HCLEN; two blocks (non-final + final)
lit_len2 = [0] * 258
for c in b"abcdef": lit_len2[c] = 3
lit_len2[ord("g")] = 4; lit_len2[256] = 4; lit_len2[257] = 3   # 7/8 ... Kraft: 6/8 + 2/16 + 1/8 = 1
d_len2 = [1, 1]
cl2 = [0] * 19
cl2[3] = 2; cl2[16] = 2; cl2[4] = 3; cl2[1] = 3; cl2[17] = 3; cl2[18] = 3   # 2/4 + 4/8 = 1
seq2 = [(18, 97), (3, 0), (16, 5), (4, 0), (18, 138), (17, 7), (17, 7), (4, 0), (3, 0), (1, 0), (1, 0)]
got = []
for s, e in seq2:
    if s < 16: got.append(s)
    elif s == 16: got += [got[-1]] * e
    else: got += [0] * e
assert got == lit_len2 + d_len2, (len(got), len(lit_len2 + d_len2))
syms2 = [ord(c) for c in "abcdefg"] + [(3, 1), (3, 2)]
w = Bits()
dynamic_block(w, syms2, lit_len2, d_len2, cl2, seq2, final=False)
dynamic_block(w, syms2, lit_len2, d_len2, cl2, seq2, final=True)
save_edge("edge-code-length-runs", w.bytes(), syms2 + syms2)
write("edge-manifest.txt", ("\n".join(manifest) + "\n").encode())
print("ok")
