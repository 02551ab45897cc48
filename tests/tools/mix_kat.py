#!/usr/bin/env python3
"""Known answers of the fast_mix family and of mulred's generator, computed from the variant
descriptions (docs/mix.md) in Python, with nothing taken from mulred's C code.

    python3 tests/tools/mix_kat.py                  # print the tables in the form of test_mix.c
    python3 tests/tools/mix_kat.py --check FILE.c   # check the tables in tests/test_mix.c

Each variant maps a 128-bit pool and 128 bits of input to a new pool. The pool and input are
two little-endian u64 (lo, hi); the 32-bit variants see them as four u32 words a, b, c, d =
lo & 0xffffffff, lo >> 32, hi & 0xffffffff, hi >> 32. A round is two half-rounds with the two
rotation pairs in turn.

  linux316      x = pool ^ input; 2 rounds of a += b; c += d; b = rol(b, k1); d = rol(d, k2);
                d ^= a; b ^= c; pairs (6, 27), (16, 14)
  spelvin32     3 rounds of a += b; c += d; d ^= a; b ^= c; a = rol(a, k1); c = rol(c, k2);
                pairs (15, 21), (3, 7)
  fastmix2_32   3 rounds of a += b; c += d; b = rol(a, k1); d = rol(c, k2); d ^= a; b ^= c;
                pairs (6, 27), (16, 14)
  fastmix2_64   r rounds (1-4) over two u64: a += b; b = rol(b, k1); b ^= a; a = rol(a, k2);
                pairs (52, 10), (47, 17)
  siphash13     v = the pool's four words; for each input word m: v3 ^= m; SipRound; v0 ^= m
                (HalfSipHash's SipRound, rotations 5, 16, 8, 7, 13, 16)
  linear        per input byte i (0-15, lo first): w = rol32(byte, r) ^ p[i % 4] ^ p[(i+3) % 4];
                p[i % 4] = (w >> 3) ^ twist[w & 7]; r += 14 when i % 4 == 0 else 7; r starts at 0
                twist = Linux's table, which is x^-3 modulo the reflected CRC-32 polynomial
  generator     stream(seed, index) = 4 rounds of fastmix2_64 on (seed ^ K0, index ^ K1), K0 ‖ K1
                = the first 128 fraction bits of pi (computed below, not typed in)
"""
import re
import sys

M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def rol32(x, k):
    return ((x << k) | (x >> (32 - k))) & M32 if k % 32 else x


def rol64(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


def words(lo, hi):
    return [lo & M32, lo >> 32, hi & M32, hi >> 32]


def unwords(w):
    return (w[0] | w[1] << 32, w[2] | w[3] << 32)


def linux316(a, b, c, d, half):
    k = [(6, 27), (16, 14)]
    for h in range(half):
        k1, k2 = k[h % 2]
        a, c = (a + b) & M32, (c + d) & M32
        b, d = rol32(b, k1), rol32(d, k2)
        d ^= a
        b ^= c
    return [a, b, c, d]


def spelvin32(a, b, c, d, half):
    k = [(15, 21), (3, 7)]
    for h in range(half):
        k1, k2 = k[h % 2]
        a, c = (a + b) & M32, (c + d) & M32
        d ^= a
        b ^= c
        a, c = rol32(a, k1), rol32(c, k2)
    return [a, b, c, d]


def fastmix2_32(a, b, c, d, half):
    k = [(6, 27), (16, 14)]
    for h in range(half):
        k1, k2 = k[h % 2]
        a, c = (a + b) & M32, (c + d) & M32
        b, d = rol32(a, k1), rol32(c, k2)
        d ^= a
        b ^= c
    return [a, b, c, d]


def fastmix2_64(a, b, rounds):
    for _ in range(rounds):
        for k1, k2 in ((52, 10), (47, 17)):
            a = (a + b) & M64
            b = rol64(b, k1)
            b ^= a
            a = rol64(a, k2)
    return a, b


def sipround(v):
    v[0] = (v[0] + v[1]) & M32
    v[1] = rol32(v[1], 5) ^ v[0]
    v[0] = rol32(v[0], 16)
    v[2] = (v[2] + v[3]) & M32
    v[3] = rol32(v[3], 8) ^ v[2]
    v[0] = (v[0] + v[3]) & M32
    v[3] = rol32(v[3], 7) ^ v[0]
    v[2] = (v[2] + v[1]) & M32
    v[1] = rol32(v[1], 13) ^ v[2]
    v[2] = rol32(v[2], 16)


def siphash13(pool, inp):
    v = words(*pool)
    for m in words(*inp):
        v[3] ^= m
        sipround(v)
        v[0] ^= m
    return unwords(v)


TWIST = [0x00000000, 0x3b6e20c8, 0x76dc4190, 0x4db26158,
         0xedb88320, 0xd6d6a3e8, 0x9b64c2b0, 0xa00ae278]


def check_twist():
    # x^-3 modulo the reflected CRC-32 polynomial: shift right by 3, folding the dropped bits.
    poly = 0xedb88320
    for t in range(8):
        v = 0
        for j in range(3):
            if t >> j & 1:
                v ^= poly >> (2 - j)
        assert v == TWIST[t], "twist table"


def linear(pool, inp):
    p = words(*pool)
    data = inp[0].to_bytes(8, "little") + inp[1].to_bytes(8, "little")
    rot = 0
    for i, byte in enumerate(data):
        w = rol32(byte, rot % 32) ^ p[i % 4] ^ p[(i + 3) % 4]
        p[i % 4] = (w >> 3) ^ TWIST[w & 7]
        rot += 7 if i % 4 else 14
    return unwords(p)


def pi_fraction_bits(n):
    """floor(frac(pi) * 2^n), with Machin's formula in integers (guard bits against rounding)."""
    guard = 32
    one = 1 << (n + guard)

    def arctan_inv(x):
        total, term, k, sign = 0, one // x, 1, 1
        while term:
            total += sign * (term // k)
            term //= x * x
            k += 2
            sign = -sign
        return total

    pi = 16 * arctan_inv(5) - 4 * arctan_inv(239)
    return (pi >> guard) & ((1 << n) - 1)


PI128 = pi_fraction_bits(128)
K0, K1 = PI128 >> 64, PI128 & M64


def stream(seed, index):
    return fastmix2_64(seed ^ K0, index ^ K1, 4)


def xor_first(fn, pool, inp, *args):
    return unwords(fn(*words(pool[0] ^ inp[0], pool[1] ^ inp[1]), *args))


def variants(pool, inp):
    """The 22 numbers of one test_known_answers entry, in its order."""
    out = list(pool) + list(inp)
    out += xor_first(linux316, pool, inp, 4)
    out += xor_first(spelvin32, pool, inp, 6)
    out += xor_first(fastmix2_32, pool, inp, 6)
    for r in range(1, 5):
        out += fastmix2_64(pool[0] ^ inp[0], pool[1] ^ inp[1], r)
    out += siphash13(pool, inp)
    out += linear(pool, inp)
    return out


STREAM_INPUTS = [(0, 0), (1, 0), (0, 1), (0xdeadbeef, 12345), (M64, M64)]
KAT_INPUTS = [((0, 0), (1, 0)),
              ((0x0123456789abcdef, 0xfedcba9876543210), (0x1111111122222222, 0x3333333344444444))]


def c_numbers(text):
    """The integers of a C initializer in order (0x…ull, decimal, UINT64_MAX)."""
    return [M64 if t == "UINT64_MAX" else int(t.rstrip("uUlL"), 0)
            for t in re.findall(r"UINT64_MAX|0[xX][0-9a-fA-F]+[uUlL]*|\b\d+[uUlL]*\b", text)]


def table(source, marker):
    start = source.index(marker)
    body = source[source.index("kat[] = {", start) + len("kat[] = {"):]
    return c_numbers(body[:body.index("};")])


def main():
    check_twist()
    assert PI128 >> 96 == 0x243f6a88, "pi starts 0x243f6a88 in hex"
    stream_rows = [[s, i, *stream(s, i)] for s, i in STREAM_INPUTS]
    kat_rows = [variants(pool, inp) for pool, inp in KAT_INPUTS]
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        source = open(sys.argv[2]).read()
        got_stream = table(source, "uint64_t seed, index, lo, hi;")
        got_kat = table(source, "uint64_t linux316[2], spelvin32[2]")
        want_stream = [x for row in stream_rows for x in row]
        want_kat = [x for row in kat_rows for x in row]
        bad = 0
        for name, got, want in (("stream", got_stream, want_stream), ("variants", got_kat, want_kat)):
            if got != want:
                bad += 1
                print(f"{sys.argv[2]}: the {name} table differs from the transcription")
                for k, (g, w) in enumerate(zip(got, want)):
                    if g != w:
                        print(f"  number {k}: file {g:#x}, computed {w:#x}")
                if len(got) != len(want):
                    print(f"  {len(got)} numbers in the file, {len(want)} computed")
        print(f"mix_kat: {len(want_stream)} stream and {len(want_kat)} variant numbers, "
              f"{'all equal' if not bad else 'MISMATCH'}")
        return 1 if bad else 0
    print(f"K0 = {K0:#018x}, K1 = {K1:#018x}")
    for row in stream_rows:
        print("{" + ", ".join(f"{x:#x}" for x in row) + "},")
    for row in kat_rows:
        print("{" + ", ".join(f"{x:#x}" for x in row) + "},")
    return 0


if __name__ == "__main__":
    sys.exit(main())
