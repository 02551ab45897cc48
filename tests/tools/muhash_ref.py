#!/usr/bin/env python3
"""An independent reference of MuHash3072 for mulred's tests, in Python integers and hashlib
(shares nothing with mulred's C code), for both flavors:

  bitcoin  element -> SHA-256 -> ChaCha20 key; digest = SHA-256, displayed byte-reversed
  kaspa    element -> BLAKE2b-256 keyed "MuHashElement" -> ChaCha20 key;
           digest = BLAKE2b-256 keyed "MuHashFinalize", displayed as is
  both     the key's ChaCha20 keystream (nonce 0, block counters 0..5), 384 bytes read as a
           little-endian integer; the set's value is prod(inserted) / prod(removed) mod
           p = 2^3072 - 1103717, hashed as 384 little-endian bytes.

    muhash_ref.py [--flavor bitcoin|kaspa] [--insert FILE]... [--remove FILE]...

Element files hold one element per line in hex (a last line without a newline is an element;
an empty line is an error). Before answering, the script checks itself against the published
vectors in $MULRED_VECTORS (bitcoin/muhash.json, kaspa/muhash.json; tests/vectors/README.md)
and exits 3 if any differs. ChaCha20 is the RFC 8439 block function written out below; when the
`cryptography` package is present its ChaCha20 is used for speed, after both agree on the
vectors' keys.
"""
import argparse
import hashlib
import json
import os
import struct
import sys

P = 2**3072 - 1103717
M32 = 0xFFFFFFFF


def chacha20_block(key, counter):
    def qr(s, a, b, c, d):
        s[a] = (s[a] + s[b]) & M32
        s[d] ^= s[a]
        s[d] = ((s[d] << 16) | (s[d] >> 16)) & M32
        s[c] = (s[c] + s[d]) & M32
        s[b] ^= s[c]
        s[b] = ((s[b] << 12) | (s[b] >> 20)) & M32
        s[a] = (s[a] + s[b]) & M32
        s[d] ^= s[a]
        s[d] = ((s[d] << 8) | (s[d] >> 24)) & M32
        s[c] = (s[c] + s[d]) & M32
        s[b] ^= s[c]
        s[b] = ((s[b] << 7) | (s[b] >> 25)) & M32

    init = list(struct.unpack("<4I", b"expand 32-byte k")) + list(struct.unpack("<8I", key))
    init += [counter, 0, 0, 0]
    s = init[:]
    for _ in range(10):
        qr(s, 0, 4, 8, 12), qr(s, 1, 5, 9, 13), qr(s, 2, 6, 10, 14), qr(s, 3, 7, 11, 15)
        qr(s, 0, 5, 10, 15), qr(s, 1, 6, 11, 12), qr(s, 2, 7, 8, 13), qr(s, 3, 4, 9, 14)
    return struct.pack("<16I", *((a + b) & M32 for a, b in zip(s, init)))


def keystream_python(key):
    return b"".join(chacha20_block(key, i) for i in range(6))


try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

    def keystream_fast(key):
        enc = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor()
        return enc.update(bytes(384))
except ImportError:  # the written-out block function alone
    keystream_fast = None

keystream = keystream_python


def element(flavor, data):
    if flavor == "bitcoin":
        key = hashlib.sha256(data).digest()
    else:
        key = hashlib.blake2b(data, digest_size=32, key=b"MuHashElement").digest()
    return int.from_bytes(keystream(key), "little")


def digest(flavor, inserts, removes):
    num = den = 1
    for e in inserts:
        num = num * element(flavor, e) % P
    for e in removes:
        den = den * element(flavor, e) % P
    value = num * pow(den, -1, P) % P
    raw = value.to_bytes(384, "little")
    if flavor == "bitcoin":
        return hashlib.sha256(raw).digest()[::-1].hex()
    return hashlib.blake2b(raw, digest_size=32, key=b"MuHashFinalize").hexdigest()


def self_check():
    global keystream
    vectors = os.environ.get("MULRED_VECTORS") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "vectors")
    bad = []
    keys = []
    for flavor in ("bitcoin", "kaspa"):
        with open(os.path.join(vectors, flavor, "muhash.json")) as f:
            v = json.load(f)
        for case in v["cases"]:
            ins = [bytes.fromhex(x) for x in case["insert"]]
            rem = [bytes.fromhex(x) for x in case["remove"]]
            keys += [hashlib.sha256(x).digest() for x in ins + rem]
            got = digest(flavor, ins, rem)
            if got != case["display"]:
                bad.append("%s %s: %s, published %s" % (flavor, case["name"], got, case["display"]))
    if keystream_fast and all(keystream_fast(k) == keystream_python(k) for k in keys):
        keystream = keystream_fast
    elif keystream_fast:
        bad.append("the cryptography package's ChaCha20 differs from the block function")
    return bad


def read_elements(path):
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    for no, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            sys.exit("%s:%d: empty line" % (path, no))
        out.append(bytes.fromhex(line))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--flavor", choices=("bitcoin", "kaspa"), default="bitcoin")
    ap.add_argument("--insert", action="append", default=[])
    ap.add_argument("--remove", action="append", default=[])
    a = ap.parse_args()
    bad = self_check()
    if bad:
        print("muhash_ref.py disagrees with the published vectors:\n  " + "\n  ".join(bad),
              file=sys.stderr)
        return 3
    ins = [e for path in a.insert for e in read_elements(path)]
    rem = [e for path in a.remove for e in read_elements(path)]
    print(digest(a.flavor, ins, rem))
    return 0


if __name__ == "__main__":
    sys.exit(main())
