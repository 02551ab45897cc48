#!/usr/bin/env python3
"""An independent reference for mulred's MSM tests: writes pair files of G1 points of known
discrete logarithm and prints the expected MSM result, all in Python integers (affine
chord-and-tangent arithmetic with modular inverses; shares nothing with mulred's C code).

  msm_ref.py pairs --curve bls12-381|bn254 --n N --seed S --out PREFIX [--bad KIND --at I]

writes PREFIX.hex (hex text: whitespace of every kind between records and inside them, "0x"
prefixes, mixed case), PREFIX.bin (the same records as raw bytes) and prints the expected result
(EIP-2537 128-byte or EIP-196 64-byte hex). Points are k_i*G with k_i = a + i*d mod r (so each
point is one addition from the last), with traps mixed in: the point at infinity, a point
repeated, a point and its negation, scalars 0, r, r + 1 and 2^256 - 1. With --bad, pair I is
spoiled: padding (a non-zero padding byte, bls12-381), range (x = p), curve (y + 1), subgroup (a
curve point outside G1, bls12-381) or hexchar (a 'g' in the hex text only); the expected output
is then the line "bad".
"""
import argparse
import random
import sys

CURVES = {
    "bls12-381": dict(
        p=0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
        r=0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
        b=4,
        g=(0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
           0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1),
        coord=64, field=48),
    "bn254": dict(
        p=21888242871839275222246405745257275088696311157297823662689037894645226208583,
        r=21888242871839275222246405745257275088548364400416034343698204186575808495617,
        b=3, g=(1, 2), coord=32, field=32),
}


def add(c, P, Q):
    p = c["p"]
    if P is None:
        return Q
    if Q is None:
        return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2:
        if (y1 + y2) % p == 0:
            return None
        lam = 3 * x1 * x1 * pow(2 * y1, -1, p) % p
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (lam * lam - x1 - x2) % p
    return (x3, (lam * (x1 - x3) - y1) % p)


def mul(c, k, P):
    acc = None
    while k:
        if k & 1:
            acc = add(c, acc, P)
        P = add(c, P, P)
        k >>= 1
    return acc


def neg(c, P):
    return None if P is None else (P[0], (-P[1]) % c["p"])


def encode(c, P):
    w = c["coord"]
    if P is None:
        return bytes(2 * w)
    return P[0].to_bytes(w, "big") + P[1].to_bytes(w, "big")


def off_subgroup_point(c, x0):
    p = c["p"]
    x = x0
    while True:
        rhs = (x ** 3 + c["b"]) % p
        y = pow(rhs, (p + 1) // 4, p)
        if y * y % p == rhs and mul(c, c["r"], (x, y)) is not None:
            return (x, y)
        x += 1


def pairs(args):
    c = CURVES[args.curve]
    p, r = c["p"], c["r"]
    rng = random.Random(args.seed)
    a, d = rng.randrange(1, r), rng.randrange(1, r)
    G = c["g"]
    D = mul(c, d, G)
    point = mul(c, a, G)
    k = a
    logs, pts, scalars = [], [], []
    for i in range(args.n):
        if i:
            point, k = add(c, point, D), (k + d) % r
        kind = i % 97
        if kind == 5:  # the point at infinity
            logs.append(0), pts.append(None)
        elif kind == 6 and i:  # the previous point again
            logs.append(logs[-1]), pts.append(pts[-1])
        elif kind == 7 and i:  # the previous point negated
            logs.append((-logs[-1]) % r), pts.append(neg(c, pts[-1]))
        else:
            logs.append(k), pts.append(point)
        s = rng.getrandbits(256)
        s = {11: 0, 12: r, 13: r + 1, 14: 2 ** 256 - 1}.get(i % 50, s)
        scalars.append(s)
    records = [bytearray(encode(c, P) + s.to_bytes(32, "big")) for P, s in zip(pts, scalars)]
    bad = args.bad
    if bad:
        rec, w, f = records[args.at], c["coord"], c["field"]
        scalars[args.at] = 0
        rec[-32:] = bytes(32)
        if bad == "padding":
            rec[w + 2] = 1
        elif bad == "range":
            rec[w - f:w] = p.to_bytes(f, "big")
        elif bad == "curve":
            P = pts[args.at] or mul(c, 2, G)
            rec[:2 * w] = encode(c, (P[0], (P[1] + 1) % p))
        elif bad == "subgroup":
            rec[:2 * w] = encode(c, off_subgroup_point(c, 1 + args.at))
    binary = b"".join(records)
    with open(args.out + ".bin", "wb") as fh:
        fh.write(binary)
    # hex text: every record in its own form, whitespace between and inside records
    spaces = ["", "", " ", "\n", "\t", "\r\n", "  \n  "]
    with open(args.out + ".hex", "w", newline="") as fh:
        sep = "\n"  # what precedes the record: "0x" is a prefix only at a token's start
        for i, rec in enumerate(records):
            text = rec.hex()
            if i % 3 == 1:
                text = text.upper()
            if i % 4 == 2:
                cut = rng.randrange(1, len(text))
                text = text[:cut] + rng.choice(spaces[2:]) + text[cut:]
            if bad == "hexchar" and i == args.at:
                text = text[:10] + "g" + text[11:]
            prefix = "0x" if i % 5 == 0 and sep else ""
            sep = rng.choice(spaces)
            fh.write(prefix + text + sep)
        fh.write("\n")
    if bad:
        print("bad")
        return
    total = sum(l * s for l, s in zip(logs, scalars)) % r
    print(encode(c, mul(c, total, G)).hex())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("pairs")
    pp.add_argument("--curve", required=True, choices=sorted(CURVES))
    pp.add_argument("--n", type=int, required=True)
    pp.add_argument("--seed", type=int, default=1)
    pp.add_argument("--out", required=True)
    pp.add_argument("--bad", choices=["padding", "range", "curve", "subgroup", "hexchar"])
    pp.add_argument("--at", type=int, default=0)
    args = ap.parse_args()
    if args.cmd == "pairs":
        pairs(args)


if __name__ == "__main__":
    sys.exit(main())
