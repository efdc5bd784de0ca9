#!/usr/bin/env python3
"""Extracts the gzip payload of a KDBX 3.1 file (AES-KDF, AES-256-CBC, hashed block stream), as
kdbx31-rich-payload.gz was made: python3 extract-kdbx31-payload.py FILE.kdbx PASSWORD OUT.gz
(also writes OUT.gz.xml, the decompressed XML, and prints sizes and CRC-32 to stderr)."""
import sys, struct, hashlib, zlib
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
path, password, out = sys.argv[1], sys.argv[2].encode(), sys.argv[3]
d = open(path, 'rb').read()
assert d[:8] == bytes.fromhex('03d9a29a67fb4bb5')
pos = 12; f = {}
while True:
    fid = d[pos]; size = struct.unpack('<H', d[pos+1:pos+3])[0]; f[fid] = d[pos+3:pos+3+size]; pos += 3 + size
    if fid == 0: break
rounds = struct.unpack('<Q', f[6])[0]
print('rounds', rounds, 'compression', f[3].hex(), file=sys.stderr)
key = hashlib.sha256(hashlib.sha256(password).digest()).digest()
enc = Cipher(algorithms.AES(f[5]), modes.ECB()).encryptor()
block = key
# AES-ECB rounds on both halves at once: encrypt the same 32 bytes `rounds` times
for _ in range(rounds): block = enc.update(block)
transformed = hashlib.sha256(block).digest()
master = hashlib.sha256(f[4] + transformed).digest()
dec = Cipher(algorithms.AES(master), modes.CBC(f[7])).decryptor()
plain = dec.update(d[pos:]) + dec.finalize()
plain = plain[:-plain[-1]]
assert plain[:32] == f[9]
p = 32; payload = b''
while True:
    idx, h, size = struct.unpack('<I', plain[p:p+4])[0], plain[p+4:p+36], struct.unpack('<I', plain[p+36:p+40])[0]
    p += 40
    if size == 0: break
    blk = plain[p:p+size]; p += size
    assert hashlib.sha256(blk).digest() == h
    payload += blk
open(out, 'wb').write(payload)
xml = zlib.decompress(payload, 31)
print(len(payload), len(xml), '%08x' % zlib.crc32(xml), file=sys.stderr)
open(out + '.xml', 'wb').write(xml)
