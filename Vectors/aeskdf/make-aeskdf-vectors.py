# Generates AES-KDF vectors: KeePass AesKdf.TransformKey = SHA-256 of the two 16-byte halves of
# the composite key, each AES-256-ECB-encrypted `rounds` times with the seed as key.
import hashlib, os
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

def transform_raw(key, seed, rounds):
    enc = Cipher(algorithms.AES(seed), modes.ECB()).encryptor()
    left, right = key[:16], key[16:]
    for _ in range(rounds):
        left = enc.update(left)
        right = enc.update(right)
    return left + right

print("# AES-KDF vectors generated with Python cryptography %s (OpenSSL AES-256-ECB, hashlib SHA-256)" % __import__("cryptography").__version__)
print("# key/seed from os.urandom; raw = transformed halves before hashing; transformed = SHA-256(raw)")
for rounds in [0, 1, 2, 1000, 6000, 1000, 6000, 60000]:
    key, seed = os.urandom(32), os.urandom(32)
    raw = transform_raw(key, seed, rounds)
    print()
    print("ROUNDS = %d" % rounds)
    print("KEY = %s" % key.hex())
    print("SEED = %s" % seed.hex())
    print("RAW = %s" % raw.hex())
    print("TRANSFORMED = %s" % hashlib.sha256(raw).hexdigest())
