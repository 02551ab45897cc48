#!/usr/bin/env python3
"""The sum that examples/mpi_msm.c prints, computed with Python integers (nothing from mulred):

  mpi_msm_ref.py N

prints the 128-byte EIP-2537 encoding, in hex, of sum_i s_i * P_i over the example's N pairs of
BLS12-381: P_i = (i + 1)*G and s_i the 256-bit number whose little-endian 64-bit words w = 0..3
are outputs 4i + w + 1 of splitmix64 started at 0, the top word shifted right by 2 (s_i < 2^254).
The sum is (sum_i (i + 1)*s_i mod r)*G, one double-and-add with the affine formulas of
msm_ref.py over the curve's published p, r and G.
"""
import sys

from msm_ref import CURVES, encode, mul

MASK = (1 << 64) - 1


def splitmix64(k):
    """Output k (k >= 1) of splitmix64 started at 0."""
    z = k * 0x9E3779B97F4A7C15 & MASK
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK
    return z ^ (z >> 31)


def scalar(i):
    words = [splitmix64(4 * i + w + 1) for w in range(4)]
    words[3] >>= 2
    return sum(word << (64 * w) for w, word in enumerate(words))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: mpi_msm_ref.py N")
    n = int(sys.argv[1])
    c = CURVES["bls12-381"]
    k = sum((i + 1) * scalar(i) for i in range(n)) % c["r"]
    print(encode(c, mul(c, k, c["g"])).hex())


if __name__ == "__main__":
    main()
