#!/usr/bin/env python3
"""An independent reference for mulred's MSM tests: writes pair files of G1 points of known
discrete logarithm and prints the expected MSM result, all in Python integers (affine
chord-and-tangent arithmetic with modular inverses; shares nothing with mulred's C code).

  msm_ref.py pairs --curve bls12-381|bn254 --n N --seed S --out PREFIX [--bad KIND --at I]
  msm_ref.py g2mul --curve bls12-381|bn254 --k K

pairs writes PREFIX.hex (hex text: whitespace of every kind between records and inside them, "0x"
prefixes, mixed case), PREFIX.bin (the same records as raw bytes) and prints the expected result
(EIP-2537 128-byte or EIP-196 64-byte hex). Points are k_i*G with k_i = a + i*d mod r (so each
point is one addition from the last), with traps mixed in: the point at infinity, a point
repeated, a point and its negation, scalars 0, r, r + 1 and 2^256 - 1. With --bad, pair I is
spoiled: padding (a non-zero padding byte, bls12-381), range (x = p), curve (y + 1), subgroup (a
curve point outside G1, bls12-381) or hexchar (a 'g' in the hex text only); the expected output
is then the line "bad".

g2mul prints k*G for G the generator of the curve's G2 (EIP-2537 256-byte or EIP-197 128-byte
hex), in the same affine formulas over Fp2: the expected MSM of a synthetic G2 set, whose points
have the same logarithms as the G1 set's (msm_synth_ref ... log prints k).
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


# ---- G2: k*G on the curves' twists over Fp2 = Fp[u]/(u^2 + 1), for `g2mul` ----
# A point of G2 is ((x0, x1), (y0, y1)) for x = x0 + x1*u. The twists are y^2 = x^3 + b2 with
# b2 = 4(1 + u) (BLS12-381) and 3/(9 + u) (BN254); the generators are the published ones (EIP-2537
# and EIP-197). Encodings: EIP-2537 writes x0, x1, y0, y1 (64 bytes each), EIP-197 x1, x0, y1,
# y0 (32 bytes each: the coefficient of u first).
G2 = {
    "bls12-381": dict(
        g=((0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
            0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E),
           (0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
            0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE)),
        b2=(4, 4), imaginary_first=False),
    "bn254": dict(
        g=((10857046999023057135944570762232829481370756359578518086990519993285655852781,
            11559732032986387107991004021392285783925812861821192530917403151452391805634),
           (8495653923123431417604973247489272438418190587263600148770280649306958101930,
            4082367875863433681332203403145435568316851327593401208105741076214120093531)),
        b2=None, imaginary_first=True),
}


def f2_mul(p, a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)


def f2_inv(p, a):
    n = pow(a[0] * a[0] + a[1] * a[1], -1, p)
    return (a[0] * n % p, -a[1] * n % p)


def f2_sub(p, a, b):
    return ((a[0] - b[0]) % p, (a[1] - b[1]) % p)


def g2_add(p, P, Q):
    if P is None:
        return Q
    if Q is None:
        return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2:
        if (y1[0] + y2[0]) % p == 0 and (y1[1] + y2[1]) % p == 0:
            return None
        xx = f2_mul(p, x1, x1)
        lam = f2_mul(p, (3 * xx[0], 3 * xx[1]), f2_inv(p, (2 * y1[0], 2 * y1[1])))
    else:
        lam = f2_mul(p, f2_sub(p, y2, y1), f2_inv(p, f2_sub(p, x2, x1)))
    x3 = f2_sub(p, f2_sub(p, f2_mul(p, lam, lam), x1), x2)
    return (x3, f2_sub(p, f2_mul(p, lam, f2_sub(p, x1, x3)), y1))


def g2_mul(p, k, P):
    acc = None
    while k:
        if k & 1:
            acc = g2_add(p, acc, P)
        P = g2_add(p, P, P)
        k >>= 1
    return acc


def g2mul(args):
    """Prints the encoding of k*G on the curve's G2, after checking the generator: on the twist
    and of order r."""
    c, t = CURVES[args.curve], G2[args.curve]
    p = c["p"]
    b2 = t["b2"] or f2_mul(p, (3, 0), f2_inv(p, (9, 1)))
    (x, y) = t["g"]
    assert f2_mul(p, y, y) == tuple((v + w) % p for v, w in zip(f2_mul(p, f2_mul(p, x, x), x), b2))
    assert g2_mul(p, c["r"], t["g"]) is None
    P = g2_mul(p, int(args.k, 0) % c["r"], t["g"])
    w = c["coord"]
    if P is None:
        print("00" * 4 * w)
        return
    order = (1, 0) if t["imaginary_first"] else (0, 1)
    print("".join(P[j][i].to_bytes(w, "big").hex() for j in (0, 1) for i in order))


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
    gp = sub.add_parser("g2mul")
    gp.add_argument("--curve", required=True, choices=sorted(CURVES))
    gp.add_argument("--k", required=True)
    args = ap.parse_args()
    if args.cmd == "pairs":
        pairs(args)
    elif args.cmd == "g2mul":
        g2mul(args)


if __name__ == "__main__":
    sys.exit(main())
