#!/usr/bin/env python3
"""Derives the generated part of the bad-input corpus from the repository's vectors.

usage: make.py VECTORS_DIR OUT_DIR    (with $MULRED, the command, for the KZG cache and
                                       checkpoint cases; without it those are left out)

Writes OUT_DIR/<reader>/ (case files, directories, FIFOs, symlinks) and OUT_DIR/<reader>/MANIFEST
in the format of tests/corpus/README.md. Every expected message and byte offset is computed here
from this file's own reading of the formats (Bitcoin Core's dumptxoutset layout, the element-list
rules of include/mulred/sources.h, the index layout documented at the top of
src/io/utxo_index.c), never from mulred's output. Deterministic: the same vectors give the same
cases (file mtimes are set explicitly).
"""
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

MAX_MONEY = 21_000_000 * 100_000_000
MAX_COMPACT = 0x02000000
MAX_ELEMENT = 65536
MAX_LINE = 2 * MAX_ELEMENT + 256
ELEMENT_CHUNK = 1 << 18  # the element reader's fixed byte ranges (README)
SECP_P = 2**256 - 2**32 - 977

# ---------------------------------------------------------------- snapshot format (independent)


class Trunc(Exception):
    pass


def le(b):
    return int.from_bytes(b, "little")


def read_compact(d, o):
    if o >= len(d):
        raise Trunc
    c = d[o]
    if c < 253:
        return c, 1
    n = {253: 2, 254: 4, 255: 8}[c]
    if o + 1 + n > len(d):
        raise Trunc
    return le(d[o + 1:o + 1 + n]), 1 + n


def read_varint(d, o):
    """Bitcoin Core's VARINT (serialize.h ReadVarInt), without the overflow checks."""
    n, i = 0, 0
    while True:
        if o + i >= len(d):
            raise Trunc
        c = d[o + i]
        i += 1
        n = (n << 7) | (c & 0x7F)
        if c & 0x80:
            n += 1
        else:
            return n, i


def varint_overflows(b, bits):
    """Core's ReadVarInt overflow rule for an unsigned integer of `bits` bits."""
    mx = (1 << bits) - 1
    n = 0
    for c in b:
        if n > (mx >> 7):
            return True
        n = (n << 7) | (c & 0x7F)
        if c & 0x80:
            if n == mx:
                return True
            n += 1
        else:
            return False
    raise ValueError("unterminated VARINT")


def enc_varint(n):
    out = []
    while True:
        out.append((n & 0x7F) | (0x80 if out else 0))
        if n <= 0x7F:
            break
        n = (n >> 7) - 1
    return bytes(reversed(out))


def enc_compact(n):
    if n < 253:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfd" + struct.pack("<H", n)
    if n <= 0xFFFFFFFF:
        return b"\xfe" + struct.pack("<I", n)
    return b"\xff" + struct.pack("<Q", n)


def compress_amount(n):  # Core src/compressor.cpp
    if n == 0:
        return 0
    e = 0
    while n % 10 == 0 and e < 9:
        n //= 10
        e += 1
    if e < 9:
        d = n % 10
        n //= 10
        return 1 + (n * 9 + d - 1) * 10 + e
    return 1 + (n - 1) * 10 + 9


def decompress_amount_u64(x):  # Core's DecompressAmount in uint64_t arithmetic
    m = (1 << 64) - 1
    if x == 0:
        return 0
    x -= 1
    e = x % 10
    x //= 10
    if e < 9:
        d = x % 9 + 1
        x //= 9
        n = (x * 10 + d) & m
    else:
        n = (x + 1) & m
    while e:
        n = (n * 10) & m
        e -= 1
    return n


class Field:
    def __init__(self, name, off, size):
        self.name, self.off, self.size = name, off, size


class Snapshot:
    """Fields of a snapshot in file order. units: (offset, coins before, kind, [fields]) with kind
    'group' (v2 txid group) or 'coin'; a v2 group's coins follow it as units of kind 'coin'."""

    def __init__(self, data):
        self.data = data
        self.v2 = data[:5] == b"utxo\xff"
        self.body = 51 if self.v2 else 40
        self.coins = le(data[self.body - 8:self.body])
        self.units = []
        self.groups = []  # (offset, coin count)
        d, o, seen = data, self.body, 0
        while o < len(d):
            if self.v2:
                n, w = read_compact(d, o + 32)
                self.units.append((o, seen, "group", [Field("txid", o, 32),
                                                      Field("coin count of a txid group", o + 32, w)]))
                self.groups.append((o, n))
                o += 32 + w
                for _ in range(n):
                    o = self.coin(o, seen)
                    seen += 1
            else:
                self.groups.append((o, 1))
                o = self.coin(o, seen)
                seen += 1
        assert o == len(d) and seen == self.coins, "vector does not parse"

    def coin(self, o, seen):
        d, f = self.data, []
        if self.v2:
            _, w = read_compact(d, o)
            f.append(Field("vout", o, w))
        else:
            f.append(Field("outpoint", o, 36))
            w = 36
        p = o + w
        for name in ("height/coinbase VARINT", "amount VARINT"):
            _, w = read_varint(d, p)
            f.append(Field(name, p, w))
            p += w
        t, w = read_varint(d, p)
        f.append(Field("script size VARINT", p, w))
        p += w
        n = (20 if t <= 1 else 32) if t < 6 else t - 6
        f.append(Field("compressed script" if t < 6 else "script", p, n))
        self.units.append((o, seen, "coin", f))
        self.last_type = t
        return p + n

    def signature(self, unit):
        """What makes a coin structurally different: field widths and the script type."""
        _, _, kind, f = unit
        if kind == "group":
            return ("group", f[1].size)
        t, _ = read_varint(self.data, f[3].off)
        return ("coin", f[0].size, f[1].size, f[2].size, f[3].size, min(t, 6), f[4].size > 252)


def legacy_plausible(b):
    """include/mulred/utxo.h: without the v2 magic a file is read as legacy only when the block
    hash's top byte is < 0x80 and the coin count fits (39 bytes per coin at least)."""
    if len(b) < 40:
        return False
    return b[31] < 0x80 and le(b[32:40]) <= (len(b) - 40) // 39


def header_error(b):
    """The message of a file that fails in its header, or None when the header is good."""
    n = len(b)
    if n >= 5 and b[:5] == b"utxo\xff":
        if n < 51:
            return f"byte {n}: truncated header ({n} of 51 bytes)"
        return None
    if n >= 5 and b[:4] == b"utxo":
        return f"byte 0: bad magic (not a snapshot: 'utxo' followed by 0x{b[4]:02x})"
    if n == 0:
        return "byte 0: empty file (truncated header)"
    if n < 40:
        return f"byte {n}: truncated header ({n} bytes; neither a v2 nor a legacy snapshot)"
    if not legacy_plausible(b):
        return "byte 0: bad magic (no v2 magic 7574786fff, and not a plausible legacy"
    return None


def truncation_message(s, t):
    """The error of s.data[:t], from the structure alone."""
    h = header_error(s.data[:t])
    if h or t < s.body:
        return h
    for off, before, kind, fields in s.units:
        if t == off and (kind == "group" or not s.v2):
            return (f"byte {t}: unexpected end of file: {before} coins read, the header says "
                    f"{s.coins}")
        for f in fields:
            if f.off <= t < f.off + f.size:
                return f"byte {t}: unexpected end of file while reading {f.name}"
    raise AssertionError(f"no field at {t}")


# ---------------------------------------------------------------- writing cases


class Reader:
    def __init__(self, out, name):
        self.dir = os.path.join(out, name)
        os.makedirs(self.dir, exist_ok=True)
        self.lines = []
        self.names = set()

    def case(self, name, inp, command, status, expect):
        assert name not in self.names, name
        assert "\t" not in expect and "\n" not in expect
        self.names.add(name)
        self.lines.append("\t".join([name, inp, command, str(status), expect]))

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
        return name

    def finish(self, header):
        with open(os.path.join(self.dir, "MANIFEST"), "w") as f:
            f.write(header)
            f.write("\n".join(self.lines) + "\n")


SNAPSHOT_COMMANDS = ["utxo info {f}", "muhash --snapshot {f}", "utxo index {f}"]


def splice(d, off, size, new):
    return d[:off] + new + d[off + size:]


def snapshot_cases(out, vectors):
    r = Reader(out, "snapshot")
    k = [0]

    def add(name, data, expect, commands=None):
        fname = r.write(name + ".dat", data)
        cmds = commands or [SNAPSHOT_COMMANDS[k[0] % 3]]
        for i, c in enumerate(cmds):
            r.case(name if len(cmds) == 1 else f"{name}.{i}", fname, c, 2, "{f}: " + expect)
        k[0] += 1

    def every(name, data, expect):
        add(name, data, expect, SNAPSHOT_COMMANDS)

    vec = {}
    for v in ("dump-28_0", "dump-27_0", "regtest-small"):
        with open(os.path.join(vectors, "bitcoin", v + ".dat"), "rb") as f:
            vec[v] = Snapshot(f.read())

    # Truncations at every structural boundary: each header field; the first two and the last
    # unit; every unit with a structure not seen before (field widths, script type). At each
    # field's start and in its middle, and one byte short of the end.
    for v, s in vec.items():
        points = set(range(0, 6)) | {7, 11, 27, 43, 47, s.body, len(s.data) - 1}
        if not s.v2:
            points |= {31, 32, 36, 39, 40}
        seen = set()
        for i, u in enumerate(s.units):
            sig = s.signature(u)
            if i < 4 or i >= len(s.units) - 2 or sig not in seen:
                seen.add(sig)
                for f in u[3]:
                    points |= {f.off, f.off + f.size // 2}
        for i, t in enumerate(sorted(p for p in points if p < len(s.data))):
            msg = truncation_message(s, t)
            cmds = SNAPSHOT_COMMANDS[:]
            add(f"{v}-trunc-{t}", s.data[:t], msg,
                [cmds[i % 3]] + (["mpi2 muhash --snapshot {f}"] if i % 60 == 7 else []))

    s = vec["dump-28_0"]
    d, size = s.data, len(s.data)
    g0, n0 = s.groups[0]
    c0 = [u for u in s.units if u[2] == "coin"][0][3]  # fields of the first coin
    # Wrong magic, version, network.
    every("magic-utxo-fe", splice(d, 4, 1, b"\xfe"),
          "byte 0: bad magic (not a snapshot: 'utxo' followed by 0xfe)")
    add("magic-utxo-00", splice(d, 4, 1, b"\x00"),
        "byte 0: bad magic (not a snapshot: 'utxo' followed by 0x00)")
    for i, m in enumerate([b"UTXO\xff", b"utxp\xff", b"\x00" * 5, b"\x89PNG\r"]):
        b = splice(d, 0, 5, m)
        assert header_error(b) and "bad magic" in header_error(b)
        add(f"magic-{i}", b, header_error(b))
    for v in (0, 1, 3, 0x0200, 0xFFFF):
        add(f"version-{v}", splice(d, 5, 2, struct.pack("<H", v)),
            f"byte 5: unsupported snapshot version {v} (supported: 2)")
    for m in (b"\x00\x00\x00\x00", b"\xd9\xb4\xbe\xf9", b"\xfa\xbf\xb5\xdb"):
        add(f"network-{m.hex()}", splice(d, 7, 4, m), f"byte 7: unknown network magic {m.hex()}")
    # Header coin count: one more, huge, wrapping at 32 bits, zero, one less.
    for c in (s.coins + 1, 2**32 + s.coins, 2**63, 2**64 - 1):
        every(f"count-{c}", splice(d, 43, 8, struct.pack("<Q", c)),
              f"byte {size}: unexpected end of file: {s.coins} coins read, the header says {c}")
    add("count-0", splice(d, 43, 8, struct.pack("<Q", 0)),
        f"byte 51: {size - 51} trailing bytes after the last of 0 coins")
    c, left = s.coins - 1, s.coins - 1
    for off, n in s.groups:
        if left == 0:
            msg = f"byte {off}: {size - off} trailing bytes after the last of {c} coins"
            break
        if n > left:
            msg = (f"byte {off + 32}: txid group holds {n} coins but only {left} remain of the "
                   f"header's {c} (coin count mismatch)")
            break
        left -= n
    add("count-minus-1", splice(d, 43, 8, struct.pack("<Q", c)), msg)
    # The first group's coin count (CompactSize): zero, non-canonical, over Core's limit, over 32
    # and 64 bits, more coins than remain.
    gc = g0 + 32
    w0 = len(enc_compact(n0))
    for name, enc in [("0", b"\x00")]:
        add(f"group-count-{name}", splice(d, gc, w0, enc), f"byte {gc}: txid group with no coins")
    for name, enc in [("fd0000", b"\xfd\x00\x00"), ("fd0100", b"\xfd\x01\x00"),
                      ("fdfc00", b"\xfd\xfc\x00"), ("feffff0000", b"\xfe\xff\xff\x00\x00"),
                      ("ff-2^32-1", b"\xff" + struct.pack("<Q", 2**32 - 1))]:
        every(f"group-count-{name}", splice(d, gc, w0, enc),
              f"byte {gc}: coin count of a txid group: non-canonical CompactSize")
    for name, v in [("max+1", MAX_COMPACT + 1), ("2^32-1", 2**32 - 1), ("2^32", 2**32),
                    ("2^64-1", 2**64 - 1)]:
        every(f"group-count-{name}", splice(d, gc, w0, enc_compact(v)),
              f"byte {gc}: coin count of a txid group: too large")
    for v in (s.coins + 1, 65535, 65536, MAX_COMPACT):
        add(f"group-count-{v}", splice(d, gc, w0, enc_compact(v)),
            f"byte {gc}: txid group holds {v} coins but only {s.coins} remain of the header's "
            f"{s.coins} (coin count mismatch)")
    # The first coin: vout, VARINT overflows (32-bit height code, 64-bit amount, 32-bit script
    # size), amounts out of range, scripts too large or past the end, keys off the curve.
    vo = c0[0]
    for name, enc in [("max+1", enc_compact(MAX_COMPACT + 1)), ("2^32-1", enc_compact(2**32 - 1)),
                      ("2^64-1", enc_compact(2**64 - 1))]:
        every(f"vout-{name}", splice(d, vo.off, vo.size, enc), f"byte {vo.off}: vout: too large")
    add("vout-fd0500", splice(d, vo.off, vo.size, b"\xfd\x05\x00"),
        f"byte {vo.off}: vout: non-canonical CompactSize")
    code, amount, ssize, script = c0[1], c0[2], c0[3], c0[4]
    over32 = bytes([0x90, 0x80, 0x80, 0x80, 0x00])
    over64 = bytes([0xFF] * 9 + [0x7F])
    assert varint_overflows(over32, 32) and varint_overflows(over64, 64)
    assert not varint_overflows(enc_varint(2**32 - 1), 32)
    every("height-varint-over-32", splice(d, code.off, code.size, over32),
          f"byte {code.off}: VARINT overflow in height/coinbase VARINT")
    every("amount-varint-over-64", splice(d, amount.off, amount.size, over64),
          f"byte {amount.off}: VARINT overflow in amount VARINT")
    for name, x in [("max-money+1", compress_amount(MAX_MONEY + 1)), ("2^64-1", 2**64 - 1),
                    ("2^63", 2**63)]:
        v = decompress_amount_u64(x)
        signed = v - 2**64 if v >= 2**63 else v
        assert signed < 0 or signed > MAX_MONEY
        add(f"amount-{name}", splice(d, amount.off, amount.size, enc_varint(x)),
            f"byte {amount.off}: amount out of range (compressed {x})")
    every("script-size-varint-over-32", splice(d, ssize.off, ssize.size, over32),
          f"byte {ssize.off}: VARINT overflow in script size VARINT")
    for n in (10001, 2**32 - 1 - 6):
        add(f"script-size-{n}", splice(d, ssize.off, ssize.size, enc_varint(n + 6)),
            f"byte {ssize.off}: script size {n} over 10000 bytes")
    last = s.units[-1][3]
    b = splice(d, last[3].off, last[3].size, enc_varint(10000 + 6))
    add("script-past-end", b, f"byte {len(b)}: unexpected end of file while reading script")
    x = next(x for x in range(1, 100) if pow(x**3 + 7, (SECP_P - 1) // 2, SECP_P) == SECP_P - 1)
    for t in (4, 5):
        for name, xb in [(f"x{x}", x.to_bytes(32, "big")), ("x-over-p", b"\xff" * 32)]:
            add(f"key-type{t}-{name}",
                splice(d, ssize.off, ssize.size + script.size, bytes([t]) + xb),
                f"byte {ssize.off + 1}: script type {t}: x coordinate is not on the curve")
    for n in (1, 1000):
        every(f"trailing-{n}", d + b"\x00" * n,
              f"byte {size}: {n} trailing bytes after the last of {s.coins} coins")

    # Legacy: vout 2^32 − 1, counts, trailing bytes, the block hash's top byte.
    s = vec["dump-27_0"]
    d, size = s.data, len(s.data)
    out0 = s.units[0][3][0]
    every("legacy-vout-2^32-1", splice(d, out0.off + 32, 4, b"\xff" * 4),
          f"byte {out0.off + 32}: vout 4294967295 out of range")
    add("legacy-count-plus-1", splice(d, 32, 8, struct.pack("<Q", s.coins + 1)),
        f"byte {size}: unexpected end of file: {s.coins} coins read, the header says "
        f"{s.coins + 1}")
    last_off = s.units[-1][0]
    add("legacy-count-minus-1", splice(d, 32, 8, struct.pack("<Q", s.coins - 1)),
        f"byte {last_off}: {size - last_off} trailing bytes after the last of {s.coins - 1} coins")
    for c in (2**32 + s.coins, 2**64 - 1):
        add(f"legacy-count-{c}", splice(d, 32, 8, struct.pack("<Q", c)),
            "byte 0: bad magic (no v2 magic")
    add("legacy-hash-top-80", splice(d, 31, 1, b"\x80"), "byte 0: bad magic (no v2 magic")
    every("legacy-trailing-1", d + b"\x00", f"byte {size}: 1 trailing bytes after the last of "
          f"{s.coins} coins")

    # Files that are not snapshots at all.
    with open(os.path.join(vectors, "bitcoin", "regtest-small.json"), "rb") as f:
        text = f.read()
    for name, b in [("json", text), ("hello", b"hello\n"), ("elements", b"00ab\n" * 20),
                    ("sha-chain", b"".join(hashlib.sha256(bytes([i])).digest() for i in range(4)))]:
        assert header_error(b), name
        every(f"not-a-snapshot-{name}", b, header_error(b))
    # Regtest-small's own type 4/5 coins: the key flipped off the curve.
    s = vec["regtest-small"]
    done = set()
    for u in s.units:
        if u[2] == "coin" and s.data[u[3][3].off] in {4, 5} - done:
            t, xo = s.data[u[3][3].off], u[3][4].off
            done.add(t)
            xv = int.from_bytes(s.data[xo:xo + 32], "big")
            bad = next(y for y in range(xv, xv + 1000)
                       if y < SECP_P and pow(y**3 + 7, (SECP_P - 1) // 2, SECP_P) == SECP_P - 1)
            add(f"regtest-small-type{t}-off-curve", splice(s.data, xo, 32, bad.to_bytes(32, "big")),
                f"byte {xo}: script type {t}: x coordinate is not on the curve")
    file_kind_cases(r, SNAPSHOT_COMMANDS + ["mpi2 muhash --snapshot {f}"], vec["dump-28_0"].data,
                    {"dir": "not a regular file", "fifo": "not a regular file",
                     "devnull": "not a regular file"})
    r.finish("# Generated by tests/corpus/make.py: snapshots (dumptxoutset v2 and legacy).\n")


def file_kind_cases(r, commands, regular, kinds):
    """What sits at the path is not a readable regular file. kinds gives the reason for dir,
    fifo and devnull; the others fail at open."""
    os.mkdir(os.path.join(r.dir, "kind-dir"))
    os.mkfifo(os.path.join(r.dir, "kind-fifo"))
    os.symlink("/dev/null", os.path.join(r.dir, "kind-devnull"))
    os.symlink("nonexistent-target", os.path.join(r.dir, "kind-dangling"))
    os.symlink("kind-loop-b", os.path.join(r.dir, "kind-loop-a"))
    os.symlink("kind-loop-a", os.path.join(r.dir, "kind-loop-b"))
    r.write("kind-regular", regular)
    r.write("kind-unreadable", regular)
    cases = [("dir", "kind-dir", kinds["dir"]), ("fifo", "kind-fifo", kinds["fifo"]),
             ("devnull", "kind-devnull", kinds.get("devnull")),
             ("dangling-symlink", "kind-dangling", "cannot open: No such file or directory"),
             ("symlink-loop", "kind-loop-a", "cannot open: Too many levels of symbolic links"),
             ("not-a-directory", "kind-regular/x", "cannot open: Not a directory"),
             ("missing", "kind-missing", "cannot open: No such file or directory")]
    for name, inp, why in cases:
        if why is None:
            continue
        for i, c in enumerate(commands):
            if c.startswith("mpi2") and name not in ("dir", "fifo"):
                continue  # every rank meets the path the same way; two kinds suffice
            r.case(f"{name}.{i}", inp, c, 2, "{f}: " + why)
    for i, c in enumerate(commands):
        if not c.startswith("mpi2"):
            r.case(f"unreadable.{i}", "kind-unreadable", "nobody " + c, 2,
                   "{f}: cannot open: Permission denied")


# ---------------------------------------------------------------- element lists


def element_cases(out):
    r = Reader(out, "elements")
    ins = "muhash --insert {f}"

    def bad(name, text, line, reason, commands=(ins,)):
        fname = r.write(name + ".txt", text)
        for i, c in enumerate(commands):
            r.case(name if len(commands) == 1 else f"{name}.{i}", fname, c, 2,
                   "{f}:" + f"{line}: {reason}")

    def good(name, text, count, command=ins):
        r.case(name, r.write(name + ".txt", text), command, 0, f"elements {count} inserted")

    e = "ab" * MAX_ELEMENT
    good("element-max", (e + "\n").encode(), 1)
    bad("element-max+1", ("00\n" + e + "cd\n").encode(), 2,
        f"element longer than {MAX_ELEMENT} bytes")
    good("line-max", ("#" + " " * (MAX_LINE - 1) + "\n00\n").encode(), 1)
    for name, text, line in [("line-max+1", "#" + " " * MAX_LINE + "\n00\n", 1),
                             ("line-max+1-third", "00\n11\n#" + " " * MAX_LINE + "\n", 3),
                             ("line-max+1-last-no-newline", "00\n#" + " " * MAX_LINE, 2),
                             ("line-400k-hex", "00\n" + "0" * 400_000 + "\n22\n", 2)]:
        bad(name, text.encode(), line, f"line longer than {MAX_LINE} characters",
            (ins, "mpi2 " + ins) if name == "line-400k-hex" else (ins,))

    # Around the 256 KiB ranges: lines of 64 hex digits (65 bytes), a bad line in rank 1's range,
    # starting on a range boundary, straddling one, right after one.
    row = ("0123456789abcdef" * 4 + "\n").encode()

    def rows_until(offset):
        n = offset // len(row)
        return row * n + b"#" * (offset - n * len(row) - 1) + (b"\n" if offset % len(row) else b"")

    body = row * 5000
    bad_line = b"0g" + b"00" * 31 + b"\n"
    t = row * 4499 + bad_line + row * 500
    bad("rank1-bad-line", t, 4500, "column 2: 'g' is not a hex digit", (ins, "mpi2 " + ins))
    t = row * 9 + bad_line + row * 4489 + bad_line + row * 500
    bad("both-ranks-bad", t, 10, "column 2: 'g' is not a hex digit", (ins, "mpi2 " + ins))
    for name, start in [("bad-at-range-start", ELEMENT_CHUNK),
                        ("bad-straddles-range", ELEMENT_CHUNK - 4),
                        ("bad-after-range-newline", ELEMENT_CHUNK + 1)]:
        head = rows_until(start)
        assert len(head) == start
        t = head + bad_line + body[:len(row) * 300]
        bad(name, t, head.count(b"\n") + 1, "column 2: 'g' is not a hex digit",
            (ins, "mpi2 " + ins))

    # Truncations and flips of a valid list of 10 elements of 58 bytes.
    valid = b"".join(hashlib.sha256(bytes([i])).digest().hex().encode() +
                     hashlib.sha256(bytes([i, 1])).digest()[:26].hex().encode() + b"\n"
                     for i in range(10))
    good("valid-10", valid, 10)
    line_len = 117
    bad("trunc-odd", valid[:9 * line_len + 51], 10, "odd number of hex digits (51)")
    good("trunc-even", valid[:9 * line_len + 50], 10)
    good("trunc-at-newline", valid[:9 * line_len], 9)
    for name, ch, shown in [("flip-G", b"G", "G"), ("flip-nul", b"\x00", "?"),
                            ("flip-space", b" ", " "), ("flip-cr", b"\r", "?"),
                            ("flip-high", b"\xe9", "\xe9")]:
        t = valid[:6 * line_len + 4] + ch + valid[6 * line_len + 5:]
        if shown == "\xe9":
            # a byte >= 0x80 is printed as is; the manifest is ASCII: match up to the quote
            bad(name, t, 7, "column 5: '", (ins,))
        else:
            bad(name, t, 7, f"column 5: '{shown}' is not a hex digit",
                (ins, "muhash --remove {f}", "muhash --flavor kaspa --insert {f}"))
    r.case("stdin-bad", r.write("stdin-bad.txt", b"00\n# c\nzz\n"), "stdin muhash --insert -", 2,
           "-:3: column 1: 'z' is not a hex digit")
    file_kind_cases(r, [ins, "muhash --remove {f}", "mpi2 " + ins],
                    b"00\n", {"dir": "is a directory", "fifo": "a FIFO with no writer"})
    r.finish("# Generated by tests/corpus/make.py: element lists.\n")


# ---------------------------------------------------------------- sidecar index


def index_bytes(fp, chunk_bytes, groups, entries, version=1, magic=b"MULRDIDX"):
    b = magic + struct.pack("<II", version, chunk_bytes) + fp
    b += struct.pack("<QQ", groups, len(entries) - 1)
    for off, ordinal in entries:
        b += struct.pack("<QQ", off, ordinal)
    return b + hashlib.sha256(b).digest()


def fingerprint(path, data, body):
    st = os.stat(path)
    tail = len(data) - 65536 if len(data) > body + 65536 else body
    return (struct.pack("<Qqq", len(data), st.st_mtime_ns // 10**9, st.st_mtime_ns % 10**9) +
            hashlib.sha256(data[:body]).digest() + hashlib.sha256(data[tail:]).digest())


def index_cases(out, vectors):
    r = Reader(out, "index")
    with open(os.path.join(vectors, "bitcoin", "regtest-small.dat"), "rb") as f:
        data = f.read()
    with open(os.path.join(vectors, "bitcoin", "regtest-small.json")) as f:
        muhash = json.load(f)["muhash"]
    s = Snapshot(data)
    def chunking(chunk):
        """(offset, first coin) of each chunk and the sentinel: a chunk starts at the first group
        at least `chunk` bytes after the previous chunk's start."""
        entries, before = [], 0
        for off, n in s.groups:
            if not entries or off - entries[-1][0] >= chunk:
                entries.append((off, before))
            before += n
        return entries + [(len(data), s.coins)]

    chunk = 4096
    entries = chunking(chunk)
    ngroups = len(s.groups)
    snap = "muhash --snapshot {f}"

    def case_dir(name, idx=None, status=0, expect=None, command=snap, after=None):
        """A directory with the snapshot (fixed mtime) and, when idx is bytes or a function of
        the fingerprint, its index."""
        d = os.path.join(r.dir, name)
        os.mkdir(d)
        p = os.path.join(d, "snap.dat")
        with open(p, "wb") as f:
            f.write(data)
        os.utime(p, ns=(1_700_000_000_123_456_789, 1_700_000_000_123_456_789))
        fp = fingerprint(p, data, s.body)
        if callable(idx):
            idx = idx(fp)
        if idx is not None:
            with open(p + ".idx", "wb") as f:
                f.write(idx)
        inp = f"{name}/snap.dat"
        r.case(name, inp, command, status,
               expect if expect is not None else f"muhash   {muhash}")
        if after:
            r.case(name + ".after", inp, after[0], after[1], after[2])
        return d

    kept = ("utxo index {f} --json", 0, f'"status":"fresh","chunks":{len(entries) - 1},')
    # A rejected index is rebuilt with the default chunk size (128 KiB).
    fresh = ("utxo index {f} --json", 0, f'"status":"fresh","chunks":{len(chunking(131072)) - 1},')
    valid = lambda fp: index_bytes(fp, chunk, ngroups, entries)
    # The index written here from the documented layout is taken as fresh and used.
    case_dir("valid", valid, command="utxo index {f} --json", expect=kept[2])
    case_dir("valid-muhash", valid, after=kept)
    case_dir("valid-mpi2", valid, command="mpi2 " + snap, after=kept)
    # Truncations at every field boundary, and flips in every field: the checksum fails, the
    # index is rebuilt, the result is right, a fresh index is left.
    n = len(valid(b"\0" * 88))
    for t in sorted({0, 4, 8, 12, 16, 24, 32, 40, 72, 104, 112, 120, 128, 136, 152, n - 33,
                     n - 32, n - 16, n - 1}):
        case_dir(f"trunc-{t}", lambda fp, t=t: valid(fp)[:t], after=fresh)
    for at, name in [(0, "magic"), (8, "version"), (12, "chunk-bytes"), (16, "file-size"),
                     (24, "mtime"), (40, "header-digest"), (72, "tail-digest"), (104, "groups"),
                     (112, "nchunks"), (120, "offset0"), (128, "ordinal0"), (n - 40, "last-entry"),
                     (n - 32, "checksum")]:
        case_dir(f"flip-{name}", lambda fp, at=at: bytes(
            c ^ (1 if i == at else 0) for i, c in enumerate(valid(fp))), after=fresh)
    # Checksum-consistent changes the loader must reject (rebuilt, right result).
    e2 = list(entries)
    e2[2] = (e2[1][0], e2[2][1])
    for name, f in [
        ("other-version", lambda fp: index_bytes(fp, chunk, ngroups, entries, version=2)),
        ("stale-size", lambda fp: index_bytes(struct.pack("<Q", len(data) + 1) + fp[8:], chunk,
                                              ngroups, entries)),
        ("stale-mtime", lambda fp: index_bytes(fp[:16] + struct.pack("<q", 1) + fp[24:], chunk,
                                               ngroups, entries)),
        ("stale-header-digest", lambda fp: index_bytes(fp[:24] + b"\0" * 32 + fp[56:], chunk,
                                                       ngroups, entries)),
        ("nchunks-2^64-1", lambda fp: valid(fp)[:112] + struct.pack("<Q", 2**64 - 1) +
         valid(fp)[120:-32]),
        ("nchunks-wraps", lambda fp: valid(fp)[:112] + struct.pack(
            "<Q", len(entries) - 1 + 2**60) + valid(fp)[120:-32]),
        ("groups-below-chunks", lambda fp: index_bytes(fp, chunk, len(entries) - 2, entries)),
        ("offsets-not-increasing", lambda fp: index_bytes(fp, chunk, ngroups, e2)),
        ("end-not-file-size", lambda fp: index_bytes(
            fp, chunk, ngroups, entries[:-1] + [(len(data) - 1, s.coins)])),
        ("end-not-coin-count", lambda fp: index_bytes(
            fp, chunk, ngroups, entries[:-1] + [(len(data), s.coins + 1)])),
        ("first-not-body", lambda fp: index_bytes(
            fp, chunk, ngroups, [(52, 0)] + entries[1:])),
    ]:
        def fix(fp, f=f):
            b = f(fp)
            if not b.endswith(hashlib.sha256(b[:-32]).digest()):
                b = b + hashlib.sha256(b).digest()
            return b
        case_dir(name, fix, after=fresh)
    # Lies that pass every load check: the chunk decoders refuse them (bad input, no result).
    lie_off = list(entries)
    lie_off[3] = (lie_off[3][0] + 1, lie_off[3][1])
    lie_ord = list(entries)
    lie_ord[3] = (lie_ord[3][0], lie_ord[3][1] + 1)
    for name, e in [("lie-offset", lie_off), ("lie-ordinal", lie_ord)]:
        for i, c in enumerate([snap, "mpi2 " + snap]):
            case_dir(f"{name}.{i}", lambda fp, e=e: index_bytes(fp, chunk, ngroups, e), 2,
                     "{f}: byte ", c)
    # Other true boundaries: a different but correct chunking is used as is.
    merged = [entries[0]] + entries[2:]
    shifted = list(entries)
    nxt = [(o, sum(m for g, m in s.groups if g < o)) for o, _ in s.groups if o > entries[2][0]][0]
    shifted[2] = nxt
    assert shifted[3][0] > nxt[0]
    for name, e in [("merged-chunks", merged), ("shifted-boundary", shifted)]:
        case_dir(name, lambda fp, e=e: index_bytes(fp, chunk, ngroups, e),
                 after=("utxo index {f} --json", 0, f'"status":"fresh","chunks":{len(e) - 1},'))
    case_dir("other-chunk-bytes", lambda fp: index_bytes(fp, 77, ngroups, entries), after=kept)
    # What sits at the index path: a directory (left alone, index in memory), a FIFO with no
    # writer, /dev/zero, a dangling symlink, a 64 GiB sparse file (each replaced by the index).
    d = case_dir("idx-dir")
    os.mkdir(os.path.join(d, "snap.dat.idx"))
    for name, make in [("idx-fifo", lambda p: os.mkfifo(p)),
                       ("idx-dev-zero", lambda p: os.symlink("/dev/zero", p)),
                       ("idx-dangling", lambda p: os.symlink("nonexistent.idx", p)),
                       ("idx-sparse-64g", lambda p: open(p, "wb").truncate(1 << 36))]:
        d = case_dir(name, after=fresh)
        make(os.path.join(d, "snap.dat.idx"))
    r.finish("# Generated by tests/corpus/make.py: sidecar index files (FILE.idx).\n")


# ---------------------------------------------------------------- pair files (independent curves)


class Curve:
    """Short Weierstrass y^2 = x^3 + b over F_p in affine coordinates, None = infinity: the
    reference for pair files (slow, exact, shares nothing with mulred)."""

    def __init__(self, name, p, r, b, g, coord, pad, record):
        self.name, self.p, self.r, self.b, self.g = name, p, r, b, g
        self.coord, self.pad, self.record = coord, pad, record  # bytes per coordinate, padding

    def on_curve(self, pt):
        if pt is None:
            return True
        x, y = pt
        return (y * y - x * x * x - self.b) % self.p == 0

    def add(self, a, b):
        p = self.p
        if a is None:
            return b
        if b is None:
            return a
        if a[0] == b[0]:
            if (a[1] + b[1]) % p == 0:
                return None
            lam = 3 * a[0] * a[0] * pow(2 * a[1], -1, p) % p
        else:
            lam = (b[1] - a[1]) * pow(b[0] - a[0], -1, p) % p
        x = (lam * lam - a[0] - b[0]) % p
        return x, (lam * (a[0] - x) - a[1]) % p

    def mul(self, k, pt):
        acc = None
        for bit in bin(k)[2:] if k else "":
            acc = self.add(acc, acc)
            if bit == "1":
                acc = self.add(acc, pt)
        return acc

    def in_group(self, pt):
        return self.mul(self.r, pt) is None

    def enc_point(self, pt):
        x, y = pt if pt is not None else (0, 0)
        pad = b"\0" * self.pad
        return pad + x.to_bytes(self.coord, "big") + pad + y.to_bytes(self.coord, "big")

    def dec_point(self, b):
        w = self.pad + self.coord
        x, y = int.from_bytes(b[:w], "big"), int.from_bytes(b[w:2 * w], "big")
        return None if x == 0 and y == 0 else (x, y)

    def msm(self, data):
        acc = None
        for o in range(0, len(data), self.record):
            pt = self.dec_point(data[o:o + self.record - 32])
            acc = self.add(acc, self.mul(int.from_bytes(data[o + self.record - 32:o + self.record],
                                                        "big"), pt))
        return self.enc_point(acc)

    def sqrt(self, a):  # p = 3 mod 4 for both curves
        y = pow(a, (self.p + 1) // 4, self.p)
        return y if y * y % self.p == a % self.p else None


BLS = Curve("bls12-381",
            0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab,
            0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001, 4,
            (0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb,
             0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1),
            48, 16, 160)
BN = Curve("bn254",
           21888242871839275222246405745257275088696311157297823662689037894645226208583,
           21888242871839275222246405745257275088548364400416034343698204186575808495617, 3,
           (1, 2), 32, 0, 96)
POINT_TEXT = {"padding": "non-zero padding bytes", "range": "coordinate not below the field modulus",
              "curve": "point not on the curve",
              "subgroup": "point not in the prime-order subgroup G1"}


def pair_cases(out, vectors):
    r = Reader(out, "pairs")
    with open(os.path.join(vectors, "eip2537", "msm_G1_bls.json")) as f:
        bls_vec = json.load(f)
    with open(os.path.join(vectors, "eip196", "bn256ScalarMul.json")) as f:
        bn_vec = json.load(f)
    # The reference agrees with the published results before it computes any expectation.
    for v in bls_vec[:12]:
        assert BLS.msm(bytes.fromhex(v["Input"])).hex() == v["Expected"], v["Name"]
    for v in bn_vec:
        assert BN.msm(bytes.fromhex(v["Input"])).hex() == v["Expected"], v["Name"]
    base = {BLS: bytes.fromhex(bls_vec[10]["Input"]),  # bls_g1msm_multiple: 7 pairs
            BN: b"".join(bytes.fromhex(v["Input"]) for v in bn_vec[:6])}
    assert BLS.msm(base[BLS]).hex() == bls_vec[10]["Expected"]

    def cmd(c, binary=False, mpi=False):
        return ("mpi2 " if mpi else "") + f"msm --curve {c.name} --input {{f}}" + \
            (" --binary" if binary else "")

    def fname(name, binary):
        return name if name.endswith((".bin", ".hex")) else name + (".bin" if binary else ".hex")

    def good(name, c, data, text, binary=False, mpi=False):
        r.case(name, r.write(fname(name, binary), text), cmd(c, binary, mpi), 0, c.msm(data).hex())

    def bad(name, c, text, expect, binary=False, mpi=False):
        r.case(name, r.write(fname(name, binary), text), cmd(c, binary, mpi), 2, "{f}: " + expect)

    def short(c, n):
        """A binary file of n bytes, not a whole number of records: the cut record named."""
        R, k = c.record, n // c.record
        return (f"pair {k} (byte {k * R}): incomplete: {n % R} of {R} bytes "
                f"({n} bytes: not a whole number of {R}-byte pairs)")

    def short_hex(c, text):
        """Hex text whose digits end inside a record: the record, and the line (from 1) and
        byte of its first digit. Digits: bytes that are neither whitespace nor a 0x prefix at a
        token's start."""
        where, i = [], 0
        while i < len(text):
            b = text[i:i + 1]
            if b.isspace():
                i += 1
            elif b == b"0" and (i == 0 or text[i - 1:i].isspace()) and text[i + 1:i + 2] in (b"x", b"X"):
                i += 2
            else:
                where.append(i)
                i += 1
        D = 2 * c.record
        k = len(where) // D
        at = where[k * D]
        line = text[:at].count(b"\n") + 1
        return (f"pair {k} (line {line}, byte {at}): incomplete: "
                f"{len(where) - k * D} of {D} hex digits ({len(where)} hex digits: not a whole "
                f"number of {c.record}-byte pairs)")

    for c in (BLS, BN):
        d, R, k, cn = base[c], c.record, len(base[c]) // c.record, c.name.split("-")[0]
        w = c.pad + c.coord
        # Truncations at every field boundary (padding, x, y, scalar) of the first and the last
        # record, and one byte into each field, in the binary or the hex form; at a record
        # boundary the shorter file is valid.
        cuts = sorted({0, 1, c.pad, c.pad + 1, w, w + c.pad, w + c.pad + 1, 2 * w, 2 * w + 1,
                       2 * w + 16, R - 1})
        for i in (0, k - 1):
            for ci, off in enumerate(cuts):
                n = i * R + off
                if n == 0:
                    continue
                for binary in (False, True) if off == 0 else ((ci + i) % 2 == 1,):
                    name = f"{cn}-trunc-{n}" + (".bin" if binary else "")
                    text = d[:n] if binary else d[:n].hex().encode()
                    if n % R == 0:
                        good(name, c, d[:n], text, binary)
                    else:
                        bad(name, c, text, short(c, n) if binary else short_hex(c, text), binary)
            n = i * R + w + 5  # an odd number of digits
            text = d[:n].hex().encode() + b"a"
            bad(f"{cn}-trunc-odd-{2 * n + 1}", c, text, short_hex(c, text))
        bad(f"{cn}-extra-byte", c, d + b"\0", short(c, len(d) + 1), True)
        text = (d.hex() + "00\n").encode()
        bad(f"{cn}-extra-digits", c, text, short_hex(c, text))
        bad(f"{cn}-extra-record-less-one", c, d + d[:R - 1], short(c, len(d) + R - 1), True)
        for name, text in [("empty", b""), ("blank", b" \n\t\r\n"), ("0x-only", b"0x"),
                           ("0x-0x", b"0x 0X\n")]:
            bad(f"{cn}-{name}", c, text, "no pairs (empty input)")
        bad(f"{cn}-empty.bin", c, b"", "no pairs (empty input)", True)
        # Valid forms of the same pairs.
        good(f"{cn}-valid", c, d, d.hex().encode())
        good(f"{cn}-valid.bin", c, d, d, True)
        if c is BLS:
            good(f"{cn}-valid-mpi2", c, d, d.hex().encode(), mpi=True)
        good(f"{cn}-valid-upper", c, d, d.hex().upper().encode())
        lines = b"".join(b"0x" + d[o:o + R].hex().encode() + b"\r\n" for o in range(0, len(d), R))
        good(f"{cn}-valid-lines-crlf", c, d, lines)
        # the last record cut on its line (its "\r\n" and 38 digits gone): named by its line
        bad(f"{cn}-trunc-lines", c, lines[:-40], short_hex(c, lines[:-40]))
        if c is BN:
            bad(f"{cn}-trunc-lines-mpi2", c, lines[:-40], short_hex(c, lines[:-40]), mpi=True)
        spaced = b" ".join(b"0X" + d[o:o + 7].hex().encode() for o in range(0, len(d), 7))
        good(f"{cn}-valid-tokens", c, d, b"\t" + spaced + b"\n\n")
        inf = c.enc_point(None)
        good(f"{cn}-all-infinity", c, (inf + b"\xff" * 32) * 3, ((inf + b"\xff" * 32) * 3).hex().encode())
        big = c.enc_point(c.g) + b"\xff" * 32  # a scalar above r: reduced, not refused
        good(f"{cn}-scalar-2^256-1.bin", c, big, big, True)
        # Characters that are not hex digits, at offsets in the first, a middle and the last
        # record (hex offset 2·byte).
        h = d.hex().encode()
        for off, ch, shown in [(0, b"g", "'g'"), (5, b"G", "'G'"), (2 * R + 7, b"-", "'-'"),
                               (2 * R + 100, b"\x00", "0x00"), (len(h) - 1, b"\xff", "0xff"),
                               (2 * R + 9, b"x", "'x'"), (len(h) - 3, b"#", "'#'"),
                               (2 * R, b"\x7f", "0x7f")]:
            bad(f"{cn}-nonhex-{off}", c, h[:off] + ch + h[off + 1:],
                f"byte {off}: {shown} is not a hex digit")
        bad(f"{cn}-bom", c, b"\xef\xbb\xbf" + h, "byte 0: 0xef is not a hex digit")
        bad(f"{cn}-0x-inside", c, h[:40] + b"0x" + h[40:], "byte 41: 'x' is not a hex digit")
        bad(f"{cn}-0x-twice", c, b"0x0x" + h, "byte 3: 'x' is not a hex digit")
        bad(f"{cn}-binary-as-hex", c, b"\0" + d[1:],
            "byte 0: 0x00 is not a hex digit")
        if c is BN:
            bad(f"{cn}-nonhex-mpi2", c, h[:2 * R * (k - 1)] + b"z" + h[2 * R * (k - 1) + 1:],
                f"byte {2 * R * (k - 1)}: 'z' is not a hex digit", mpi=True)
        # Bad points: padding, coordinates >= p, off the curve, outside G1, at the first and the
        # last pair, in the binary, hex and one-record-per-line forms, with their scalars as
        # given and zero.
        off_curve = (c.g[0], (c.g[1] + 1) % c.p)
        x = 1
        while c.sqrt((x ** 3 + c.b) % c.p) is None:
            x += 1
        on_curve = (x, c.sqrt((x ** 3 + c.b) % c.p))
        assert c.on_curve(on_curve) and not c.on_curve(off_curve)
        points = [("x-is-p", c.enc_point((0, 0))[:c.pad] + c.p.to_bytes(c.coord, "big") +
                   c.enc_point(c.g)[w:], "range"),
                  ("y-is-p", c.enc_point(c.g)[:w + c.pad] + c.p.to_bytes(c.coord, "big"), "range"),
                  ("y-max", c.enc_point(c.g)[:w + c.pad] + b"\xff" * c.coord, "range"),
                  ("y-plus-1", c.enc_point(off_curve), "curve"),
                  ("x-0-y-1", c.enc_point((0, 1)), "curve"),
                  ("x-0-y-0-but-y-p", c.enc_point((0, 0))[:w + c.pad] + c.p.to_bytes(c.coord, "big"), "range")]
        if c is BLS:
            g = c.enc_point(c.g)
            points += [("pad-x-0", b"\x01" + g[1:], "padding"),
                       ("pad-x-15", g[:15] + b"\x80" + g[16:], "padding"),
                       ("pad-y-0", g[:64] + b"\x01" + g[65:], "padding"),
                       ("pad-inf", b"\0" * 15 + b"\x01" + b"\0" * 112, "padding")]
            assert not c.in_group(on_curve)
            points += [(f"not-in-g1-x-{x}", c.enc_point(on_curve), "subgroup")]
            assert c.on_curve((0, 2))
            points += [("x-0-y-2", c.enc_point((0, 2)), "subgroup" if not c.in_group((0, 2)) else None)]
        else:
            points += [(f"x-{x}-on-curve", c.enc_point(on_curve), None)]
        for j, (pname, pbytes, why) in enumerate(points):
            for at in (0, k - 1) if j % 2 == 0 else (k - 1,):
                for zero in (False, True) if j < 2 else (False,):
                    rec = pbytes + (b"\0" * 32 if zero else d[at * R + R - 32:at * R + R])
                    bd = d[:at * R] + rec + d[at * R + R:]
                    name = f"{cn}-{pname}-pair{at}" + ("-scalar0" if zero else "")
                    if why is None:
                        good(name, c, bd, bd, True)
                        continue
                    for form in ("bin", "hex", "lines"):
                        if form == "bin":
                            text, off = bd, at * R
                        elif form == "hex":
                            text, off = bd.hex().encode(), 2 * at * R
                        else:
                            text = b"".join(b"  0x" + bd[o:o + R].hex().encode() + b"\n"
                                            for o in range(0, len(bd), R))
                            off = at * (2 * R + 5) + 4
                        where = f"pair {at}: " if why == "subgroup" else f"pair {at} (byte {off}): "
                        bad(f"{name}.{form}", c, text, where + "point: " + POINT_TEXT[why],
                            form == "bin", mpi=(form == "lines" and j == 0 and not zero and at > 0 and c is BLS))
        # The lowest bad pair is named; subgroup checks come after every point is decoded.
        def put(data, i, pt):
            return data[:i * R] + pt + data[i * R + R - 32:]

        two = put(put(d, 1, c.enc_point(off_curve)), 3, c.enc_point((0, 1)))
        bad(f"{cn}-two-bad", c, two, f"pair 1 (byte {R}): point: " + POINT_TEXT["curve"], True)
        if c is BLS:
            late = put(put(d, 1, c.enc_point(on_curve)), k - 1, c.enc_point(off_curve))
            bad(f"{cn}-subgroup-then-curve", c, late,
                f"pair {k - 1} (byte {(k - 1) * R}): point: " + POINT_TEXT["curve"], True)
        # Huge sparse files: hex with valid records then a hole (the hole's first byte named),
        # binary of a size that is no whole number of records, binary of 2^32 records (more
        # than memory holds: a runtime failure, exit 3, before any record is read).
        name = r.write(f"{cn}-sparse-64g.hex", b"")
        with open(os.path.join(r.dir, name), "r+b") as f:
            f.write(h)
            f.truncate(1 << 36)
        r.case(f"{cn}-sparse-64g.hex", name, cmd(c), 2,
               f"{{f}}: byte {len(h)}: 0x00 is not a hex digit")
        name = r.write(f"{cn}-sparse-64g.bin", b"")
        os.truncate(os.path.join(r.dir, name), 1 << 36)
        assert (1 << 36) % R
        r.case(f"{cn}-sparse-64g.bin", name, cmd(c, True), 2, "{f}: " + short(c, 1 << 36))
        name = r.write(f"{cn}-sparse-2^32-records.bin", b"")
        with open(os.path.join(r.dir, name), "r+b") as f:
            f.write(b"\x01")
            f.truncate(R << 32)
        r.case(f"{cn}-sparse-2^32-records.bin", name, cmd(c, True), 3,
               f"{{f}}: {1 << 32} points do not fit")
    r.case("fifo-mpi2", "kind-fifo", "mpi2 " + cmd(BN), 2, "{f}: not a regular file")
    file_kind_cases(r, [cmd(BLS), cmd(BN, True)], base[BN],
                    {"dir": "not a regular file", "fifo": "not a regular file",
                     "devnull": "not a regular file"})
    r.finish("# Generated by tests/corpus/make.py: EIP-2537 / EIP-196 pair files (mulred msm).\n")


# ---------------------------------------------------------------- KZG setups, blobs, table caches


def kzg_cases(out, vectors):
    """Trusted setups, blobs and the fixed-base table cache of mulred kzg-commit. The expected
    commitments are c-kzg-4844's (tests/vectors/kzg/blob_to_kzg_commitment); a damaged cache
    must be rebuilt (the JSON says why) and give the same commitment. The valid cache that the
    damaged ones start from is written by the command under test ($MULRED)."""
    r = Reader(out, "kzg")
    top = os.path.abspath(r.dir)
    kdir = os.path.join(vectors, "kzg")
    with open(os.path.join(kdir, "trusted_setup.txt"), "rb") as f:
        setup = f.read()

    def yaml_case(name):
        with open(os.path.join(kdir, "blob_to_kzg_commitment", name + ".yaml")) as f:
            t = f.read()
        blob = t.split("blob: '")[1].split("'")[0]
        want = t.split("output: ")[1].split("\n")[0].strip("'")
        return blob, want.removeprefix("0x")  # mulred prints results without 0x

    blob_hex, want = yaml_case("valid_blob_1")
    zero_hex, zero_want = yaml_case("valid_blob_0")
    assert blob_hex.startswith("0x") and len(blob_hex) == 2 + 2 * 131072
    digits = blob_hex[2:]
    os.mkdir(os.path.join(r.dir, "setup"))
    good_setup = os.path.join(top, "setup", "trusted_setup.txt")
    with open(good_setup, "wb") as f:
        f.write(setup)
    table = os.path.join(top, "setup", "table")
    good_blob = os.path.join(top, r.write("blob-valid.txt", (blob_hex + "\n").encode()))
    cache = None
    if os.environ.get("MULRED"):  # unset when only seeds for fuzzing are made
        subprocess.run([os.environ["MULRED"], "kzg-commit", "--setup", good_setup, "--blob",
                        good_blob, "--cache", table], check=True, stdout=subprocess.DEVNULL)
        with open(table, "rb") as f:
            cache = f.read()

    # ---- setups: every run with --no-cache (nothing written beside a bad setup)
    lines = setup.split(b"\n")
    assert lines[0] == b"4096" and lines[1] == b"65" and len(lines[2]) == 96
    assert len(lines[4098]) == 192 and len(lines[4163]) == 96

    def setup_case(name, data, expect, status=2):
        fname = r.write(f"setup-{name}.txt", data)
        r.case(f"setup-{name}", fname, f"kzg-commit --setup {{f}} --blob {good_blob} --no-cache",
               status, ("{f}" + expect) if status else expect)

    def upto(n):  # the first n lines, each with its newline
        return b"\n".join(lines[:n]) + b"\n" if n else b""

    setup_case("empty", b"", ":1: missing the G1 count")
    setup_case("g1-count-only", upto(1), ":2: missing the G2 count")
    sections = [(2, 4096, 96, "G1 Lagrange point"), (4098, 65, 192, "G2 point"),
                (4163, 4096, 96, "G1 monomial point")]
    for start, count, width, what in sections:
        for i in (0, 1, count - 1):
            setup_case(f"ends-before-line-{start + i + 1}", upto(start + i),
                       f":{start + i + 1}: the file ends before {what} {i} of {count}")
        for i, cut in [(0, width // 2), (count - 1, width - 1)]:
            setup_case(f"cut-in-line-{start + i + 1}", upto(start + i) + lines[start + i][:cut],
                       f":{start + i + 1}: {what} {i}: {cut} characters, expected {width} hex digits")
        i = count // 2
        bad = bytearray(lines[start + i])
        bad[7] = ord("g")
        setup_case(f"non-hex-line-{start + i + 1}",
                   upto(start + i) + bytes(bad) + b"\n" + b"\n".join(lines[start + i + 1:]),
                   f":{start + i + 1}: {what} {i}: 'g' is not a hex digit")
        setup_case(f"long-line-{start + 1}",
                   upto(start) + lines[start] + b"0\n" + b"\n".join(lines[start + 1:]),
                   f":{start + 1}: {what} 0: {width + 1} characters, expected {width} hex digits")
    for name, first, second, expect in [
            ("g1-count-4097", b"4097", b"65", ":1: '4097' is not 4096 (the G1 count)"),
            ("g1-count-0", b"0", b"65", ":1: '0' is not 4096 (the G1 count)"),
            ("g1-count-hex", b"0x1000", b"65", ":1: '0x1000' is not 4096 (the G1 count)"),
            ("g1-count-blank", b"", b"65", ":1: expected the count 4096"),
            ("g1-count-2^64+1", b"18446744073709551617", b"65", ":1: expected the count 4096"),
            ("g1-count-2^32+4096", b"4294971392", b"65", ":1: '4294971392' is not 4096 (the G1 count)"),
            ("g2-count-64", b"4096", b"64", ":2: '64' is not 65 (the G2 count)"),
            ("g2-count-huge", b"4096", b"999999999999999", ":2: '999999999999999' is not 65 (the G2 count)"),
            ("counts-swapped", b"65", b"4096", ":1: '65' is not 4096 (the G1 count)")]:
        setup_case(name, b"\n".join([first, second] + lines[2:]), expect)
    setup_case("text-after", setup.rstrip(b"\n") + b"\n\n# end\n", ":8261: text after the last point")
    setup_case("extra-point", setup.rstrip(b"\n") + b"\n" + lines[2] + b"\n",
               ":8260: text after the last point")
    # Lagrange points that decode badly: flags, range, off the curve, outside G1 (the line and
    # the point's index named).
    x = 1
    while BLS.sqrt((x ** 3 + 4) % BLS.p) is None:
        x += 1
    assert not BLS.in_group((x, BLS.sqrt((x ** 3 + 4) % BLS.p)))
    x_off = 0
    while BLS.sqrt((x_off ** 3 + 4) % BLS.p) is not None:
        x_off += 1

    def comp(xv, flags=0x80):
        b = bytearray(xv.to_bytes(48, "big"))
        b[0] |= flags
        return bytes(b).hex().encode()

    first = lines[2]
    noflag = bytearray(bytes.fromhex(first.decode()))
    noflag[0] &= 0x7F
    for name, enc, why in [("no-compression-flag", bytes(noflag).hex().encode(),
                            "compression flag not set"),
                           ("infinity-with-bits", b"c0" + b"0" * 93 + b"1",
                            "non-canonical point at infinity (bits set beside the infinity flag)"),
                           ("x-is-p", comp(BLS.p), "coordinate not below the field modulus"),
                           (f"x-{x_off}-off-curve", comp(x_off), "point not on the curve"),
                           (f"x-{x}-not-in-g1", comp(x), "point not in the prime-order subgroup G1")]:
        assert len(enc) == 96, name
        for i in (0, 4095) if name == f"x-{x}-not-in-g1" else (1000,):
            data = upto(2 + i) + enc + b"\n" + b"\n".join(lines[3 + i:])
            setup_case(f"{name}-{i}", data, f":{3 + i}: G1 Lagrange point {i}: {why}")
    # Valid variations of the same setup.
    setup_case("crlf-no-final-newline", setup.rstrip(b"\n").replace(b"\n", b"\r\n"), want, 0)
    # ---- blobs (the good setup and its table)
    blob_cmd = f"kzg-commit --setup {good_setup} --cache {table} --blob {{f}}"

    def blob_case(name, text, expect, status=2, command=blob_cmd):
        r.case(f"blob-{name}", r.write(f"blob-{name}.txt", text), command, status,
               ("{f}: " + expect) if status else expect)

    blob_case("valid-0x", (blob_hex + "\n").encode(), want, 0)
    blob_case("valid-bare-upper", digits.upper().encode(), want, 0)
    blob_case("valid-blanks-crlf", (" \t\r\n0X" + digits + "\r\n\r\n").encode(), want, 0)
    blob_case("zero", zero_hex.encode(), zero_want, 0)
    blob_case("empty", b"", "0 bytes of hex, a blob is 131072")
    blob_case("0x-only", b"0x\n", "0 bytes of hex, a blob is 131072")
    blob_case("short-by-one", digits[:-2].encode(), "131071 bytes of hex, a blob is 131072")
    blob_case("long-by-one", (blob_hex + "00").encode(), "131073 bytes of hex, a blob is 131072")
    blob_case("two-blobs", (blob_hex + blob_hex[2:]).encode(), "262144 bytes of hex, a blob is 131072")
    blob_case("odd", (digits + "0").encode(), "odd number of hex digits (262145)")
    blob_case("one-digit", b"7", "odd number of hex digits (1)")
    for name, off, ch, shown in [("g-first", 0, "g", "'g'"), ("g-last", len(digits) - 1, "g", "'g'"),
                                 ("space-inside", 64, " ", "0x20"), ("0x-twice", 0, "0x", "'x'")]:
        text = "0x" + digits[:off] + ch + digits[off + (len(ch) == 1):]
        at = 2 + off + (1 if ch == "0x" else 0)
        blob_case(name, text.encode(), f"byte {at}: {shown} is not a hex digit")
    for name, off, ch in [("newline-inside", 640, "\n"), ("nul-inside", 6, "\0"),
                          ("high-byte", 100, "\xe9")]:
        text = digits[:off].encode() + ch.encode("latin-1") + digits[off + 1:].encode()
        blob_case(name, text, f"byte {off}: 0x{ord(ch):02x} is not a hex digit")
    rhex = BLS.r.to_bytes(32, "big").hex()
    # an element >= r is named by index and by the byte of the file where its digits start
    for i in (0, 1, 4095):
        blob_case(f"element-{i}-is-r", (digits[:64 * i] + rhex + digits[64 * (i + 1):]).encode(),
                  f"byte {64 * i}: field element {i} is not below the BLS12-381 group order")
    blob_case("element-max", ("f" * 64 + digits[64:]).encode(),
              "byte 0: field element 0 is not below the BLS12-381 group order")
    blob_case("element-7-is-r-after-0x", (" \n0x" + digits[:64 * 7] + rhex + digits[64 * 8:]).encode(),
              f"byte {4 + 64 * 7}: field element 7 is not below the BLS12-381 group order")
    blob_case("stdin-bad", b"0xzz", "byte 2: 'z' is not a hex digit", 2,
              f"stdin kzg-commit --setup {good_setup} --cache {table} --blob -")
    r.lines[-1] = r.lines[-1].replace("{f}: byte", "-: byte")
    # A bad setup is named before the blob is read.
    r.case("bad-setup-bad-blob", "blob-g-first.txt",
           f"kzg-commit --setup {os.path.join(top, 'setup-g1-count-0.txt')} --no-cache --blob {{f}}",
           2, os.path.join(top, "setup-g1-count-0.txt") + ":1: '0' is not 4096 (the G1 count)")
    # ---- damaged table caches: rebuilt (the JSON names the reason), same commitment
    if cache is None:
        r.finish("# Generated by tests/corpus/make.py: KZG setups and blobs (no $MULRED).\n")
        return
    W = cache[16:20]
    windows = struct.unpack("<I", W)[0]
    body = len(cache) - 64 - 32
    assert cache[:8] == b"MRKZGTBL" and body == windows * 4096 * 96
    assert cache[-32:] == hashlib.sha256(cache[:-32]).digest()
    assert cache[32:64] == hashlib.sha256(setup).digest()

    def resum(b):
        return b[:-32] + hashlib.sha256(b[:-32]).digest()

    def flip(b, at, bit=1):
        return b[:at] + bytes([b[at] ^ bit]) + b[at + 1:]

    p48 = BLS.p.to_bytes(48, "little")
    size_note = "cache of {} bytes, expected " + str(len(cache)) + ": rebuilt"
    header_note = "cache header (magic, version, window width or counts) differs: rebuilt"
    damaged = [("empty", b"", size_note.format(0)),
               ("cut-in-table", cache[:64 + body // 2 + 7], size_note.format(64 + body // 2 + 7)),
               ("cut-last-byte", cache[:-1], size_note.format(len(cache) - 1)),
               ("magic", b"MRKZGTBX" + cache[8:], header_note),
               ("window-bits", flip(cache, 12), header_note),
               ("other-setup", flip(cache, 40), "cache made for another setup file: rebuilt"),
               ("flip-table", flip(cache, 64 + body // 3),
                "cache digest does not match (corrupt): rebuilt"),
               ("flip-digest", flip(cache, len(cache) - 1, 0x80),
                "cache digest does not match (corrupt): rebuilt"),
               ("row0-resummed", resum(flip(cache, 64 + 3)),
                "cache entries are not a table of this setup: rebuilt"),
               ("coordinate-p-resummed",
                resum(cache[:64 + 96 * 5] + p48 + cache[64 + 96 * 5 + 48:]),
                "cache entries are not a table of this setup: rebuilt")]
    for name, data, note in damaged:
        fname = r.write(f"cache-{name}", data)
        r.case(f"cache-{name}", fname, f"kzg-commit --setup {good_setup} --blob {good_blob} "
               "--cache {f} --json", 0, '"cache":"written","cache_path":"{f}","cache_note":"' + note)
        if name in ("flip-table", "row0-resummed"):
            r.case(f"cache-{name}-text", r.write(f"cache-{name}-text", data),
                   f"kzg-commit --setup {good_setup} --blob {good_blob} --cache {{f}}", 0, want)
    # What sits at the cache path: a directory (not replaced: the table stays in memory), a FIFO
    # without a writer, /dev/zero (replaced by the table).
    os.mkdir(os.path.join(r.dir, "cache-dir"))
    os.mkfifo(os.path.join(r.dir, "cache-fifo"))
    os.symlink("/dev/zero", os.path.join(r.dir, "cache-dev-zero"))
    for name in ("cache-dir", "cache-fifo", "cache-dev-zero"):
        r.case(name, name, f"kzg-commit --setup {good_setup} --blob {good_blob} --cache {{f}}", 0,
               want)
    # The setup and blob paths: not regular files, not there, not readable.
    file_kind_cases(r, [f"kzg-commit --setup {{f}} --blob {good_blob} --no-cache",
                        f"kzg-commit --setup {good_setup} --cache {table} --blob {{f}}"],
                    b"4096\n", {"dir": "read error at byte 0: Is a directory",
                                "fifo": "a FIFO with no writer"})
    # Endless or huge: /dev/zero and a 64 GiB sparse file are refused at the size bound of
    # each file (include/mulred/kzg.h), not read into memory.
    os.symlink("/dev/zero", os.path.join(r.dir, "kind-devzero"))
    with open(os.path.join(r.dir, "kind-sparse-64g"), "wb") as fh:
        fh.truncate(1 << 36)
    for inp in ("kind-devzero", "kind-sparse-64g"):
        r.case(f"setup-{inp}", inp, f"kzg-commit --setup {{f}} --blob {good_blob} --no-cache", 2,
               "{f}: byte 67108864: longer than 67108864 bytes, not a KZG trusted setup")
        r.case(f"blob-{inp}", inp, f"kzg-commit --setup {good_setup} --cache {table} --blob {{f}}",
               2, "{f}: byte 4194304: longer than 4194304 bytes, not a blob")
    r.finish("# Generated by tests/corpus/make.py: KZG setups, blobs and table caches.\n")


# ---------------------------------------------------------------- job files (mulred run FILE)


def job_cases(out):
    r = Reader(out, "job")

    def case(name, text, status, expect, command="run {f}"):
        r.case(name, r.write(name + ".job", text), command, status,
               ("{f}" + expect) if status else expect)

    head = b"kind = muhash\nsynthetic = 10\n"
    case("comment-2mb", head + b"# " + b"x" * (2 << 20) + b"\n", 0, "elements 10 inserted")
    case("value-100k-digits", b"kind = muhash\nsynthetic = 1" + b"0" * 100_000 + b"\n", 2,
         ":2: bad value '1000")
    case("key-100k", head + b"k" * 100_000 + b" = 1\n", 2, ":3: unknown key 'kkkk")
    case("line-1m-no-equals", head + b"a" * (1 << 20), 2, ":3: expected 'key = value', got 'aaaa")
    case("many-lines", head + b"\n" * 1_000_000 + b"bogus = 1\n", 2, ":1000003: unknown key 'bogus'")
    case("nul-first", b"\0kind = muhash\n", 2, ":1: byte 0: a NUL byte (job files are text)")
    case("nul-line-3", head + b"seed = 1\0\n", 2, ":3: byte 37: a NUL byte (job files are text)")
    garbage = bytes((i * 167 + 13) % 256 for i in range(4096)).replace(b"\0", b"\1")
    garbage = garbage.replace(b"\n", b" ").replace(b"=", b"-")
    case("binary-garbage", garbage, 2, ":1: expected 'key = value', got '")
    case("png", b"\x89PNG\r\n\x1a\n" + garbage[:100].replace(b"\0", b"")[:50], 2,
         ":1: expected 'key = value', got '")
    case("utf8-bom", b"\xef\xbb\xbfkind = muhash\nsynthetic = 10\n", 2, ":1: unknown key '")
    case("kind-msm-value-huge", b"kind = msm\ncurve = bn254\nsynthetic = 18446744073709551616\n",
         2, ":3: bad value '18446744073709551616' for 'synthetic'")
    case("axis-many", b"kind = msm\nsynthetic = 3\ncurve = " + b", ".join([b"bn254"] * 3) + b"\n",
         2, ":3: curve 'bn254' listed twice")
    file_kind_cases(r, ["run {f}", "mpi2 run {f}"], head,
                    {"dir": "read error at byte 0: Is a directory", "fifo": "a FIFO with no writer"})
    # Endless or huge: refused at the job-file bound (src/cli/job.h), not read into memory.
    os.symlink("/dev/zero", os.path.join(r.dir, "kind-devzero"))
    with open(os.path.join(r.dir, "kind-sparse-64g"), "wb") as fh:
        fh.truncate(1 << 36)
    for inp in ("kind-devzero", "kind-sparse-64g"):
        r.case(inp, inp, "run {f}", 2,
               "{f}: byte 16777216: longer than 16777216 bytes, not a job file")
    r.finish("# Generated by tests/corpus/make.py: job files (mulred run FILE).\n")


# ---------------------------------------------------------------- result JSON (mulred report)


def result_cases(out):
    r = Reader(out, "result")
    run = {"muhash": "ab" * 32, "flavor": "bitcoin", "inserted": 1000, "removed": 0,
           "ranks": 1, "threads": 1, "nodes": 1, "seconds": 0.5}

    def case(name, text, status, expect):
        r.case(name, r.write(name + ".json", text.encode()), "report {f}", status, expect)

    case("deep-2048", "[" * 2048 + "]" * 2048, 0, "invalid: not a result object | {f} |")
    case("deep-2049", "[" * 2049 + "]" * 2049, 2, "{f}: line 1, column 2049: maximum parsing depth")
    case("deep-100k", "[" * 100_000 + "]" * 100_000, 2,
         "{f}: line 1, column 2049: maximum parsing depth")
    many = [{"job": f"j{i}.job", "status": "failed", "exit_status": 2, "runs": []}
            for i in range(3000)]
    case("3000-failed-jobs", json.dumps(many), 0, "failed (exit 2) | {f} |")
    sweep = [dict(run, ranks=1 + i // 8, threads=1 + i % 8) for i in range(2000)]
    sweep += [{"job": "s.job", "status": "failed", "exit_status": 3, "runs": []}] * 50
    case("2000-runs-50-failed", json.dumps(sweep), 0, "| 2 | 1 | 2 | 0.500 |")
    # 100 000 runs (19 MB): a table of that many lines (its memory had grown with the square of
    # the rows: this file ended in "out of memory"), and the file read in whole chunks (one byte
    # per read() had taken 16 s)
    sweep = [dict(run, ranks=1 + i // 8, threads=1 + i % 8) for i in range(100_000)]
    case("100000-runs", json.dumps(sweep), 0, "| 12500 | 8 | 100000 | 0.500 |")
    case("string-1m", json.dumps(dict(run, flavor="x" * (1 << 20))), 0, "| ok | {f} |")
    big = json.dumps(run).replace('"seconds": 0.5', '"seconds": ' + "9" * 308)
    case("number-308-digits", big, 0, "| ok | {f} |")
    big = json.dumps(run).replace('"seconds": 0.5', '"seconds": ' + "9" * 1000)
    case("number-1000-digits", big, 2, "{f}: line 1, column %d: real number overflow" %
         (big.index("9" * 1000) + 1000))
    r.write("utf8-bad.json", b'{"muhash": "\xff"}')
    r.case("utf8-bad", "utf8-bad.json", "report {f}", 2,
           "{f}: line 1, column 12: unable to decode byte 0xff")
    r.write("not-json.bin", bytes(range(255, 0, -1)))
    r.case("binary", "not-json.bin", "report {f}", 2,
           "{f}: line 1, column 0: unable to decode byte 0xff")
    # What sits at the path: a missing file is a row (a sweep with a hole shows the hole); a
    # directory, a FIFO with no writer, /dev/null, an unreadable file are bad input.
    os.mkdir(os.path.join(r.dir, "kind-dir"))
    os.mkfifo(os.path.join(r.dir, "kind-fifo"))
    os.symlink("/dev/null", os.path.join(r.dir, "kind-devnull"))
    r.write("kind-unreadable", json.dumps(run).encode())
    r.case("missing", "kind-missing", "report {f}", 0, "| missing | {f} |")
    r.case("dir", "kind-dir", "report {f}", 2, "{f}: Is a directory")
    r.case("fifo", "kind-fifo", "report {f}", 2,
           "{f}: line 1, column 0: '[' or '{' expected near end of file")
    r.case("devnull", "kind-devnull", "report {f}", 2,
           "{f}: line 1, column 0: '[' or '{' expected near end of file")
    r.case("unreadable", "kind-unreadable", "nobody report {f}", 2,
           "{f}: cannot open: Permission denied")
    r.finish("# Generated by tests/corpus/make.py: result JSON (mulred report FILE).\n")


# ---------------------------------------------------------------- checkpoint directories


def checkpoint_cases(out):
    """Checkpoint directories of `mulred muhash --insert F --checkpoint DIR` (the unit file
    layout of include/mulred/checkpoint.h): a damaged unit file is reported and recomputed
    (the digest equals an uninterrupted run's), a whole file of another job or a directory
    that others may write is refused (exit 2). The valid unit files that the cases damage are
    written by the command under test ($MULRED), as is the reference digest (a run without
    --checkpoint)."""
    if not os.environ.get("MULRED"):  # unset when only seeds for fuzzing are made
        return
    r = Reader(out, "checkpoint")
    top = os.path.abspath(r.dir)
    mulred = os.environ["MULRED"]
    elems = os.path.join(top, r.write("elements.txt", b"".join(
        hashlib.sha256(i.to_bytes(4, "little")).hexdigest().encode() + b"\n"
        for i in range(10000))))  # 650 000 bytes: 3 units of 256 KiB with --checkpoint-unit 1
    cmd = f"muhash --insert {elems} --checkpoint-unit 1 --checkpoint {{f}}"

    def run(*args):
        return subprocess.run([mulred, "muhash", "--insert", elems] + list(args), check=True,
                              stdout=subprocess.PIPE).stdout.decode()

    digest = run().split("\n")[0].split()[1]
    want = "muhash   " + digest

    def base(name, *extra):
        d = os.path.join(top, name)
        os.mkdir(d, 0o700)
        run("--checkpoint-unit", "1", "--checkpoint", d, *extra)
        units = {}
        for u in sorted(os.listdir(d)):
            with open(os.path.join(d, u), "rb") as f:
                units[u] = f.read()
        shutil.rmtree(d)
        return units

    good = base("base")
    kaspa = base("base-kaspa", "--flavor", "kaspa")
    assert sorted(good) == [f"unit-{u:010d}.ckpt" for u in range(3)], sorted(good)
    one = good["unit-0000000001.ckpt"]
    assert one[:8] == b"mulredck" and struct.unpack("<I", one[8:12])[0] == 1
    H = struct.unpack("<I", one[12:16])[0]
    header = one[16:16 + H].decode()
    E = struct.unpack("<I", one[32 + H:36 + H])[0]
    assert len(one) == 36 + H + E + 32 and one[-32:] == hashlib.sha256(one[:-32]).digest()
    assert struct.unpack("<Q", one[16 + H:24 + H])[0] == 1
    fields = dict(l.split("=", 1) for l in header.split("\n") if l)

    def resum(b):
        return b[:-32] + hashlib.sha256(b[:-32]).digest()

    def case_dir(name, unit1=None, status=0, expect=want, command=cmd, extra=None, mode=0o700):
        d = os.path.join(r.dir, name)
        os.mkdir(d)
        for u, data in good.items():
            if u == "unit-0000000001.ckpt" and unit1 is not None:
                if isinstance(unit1, bytes):
                    data = unit1
                else:
                    unit1(os.path.join(d, u))
                    continue
            with open(os.path.join(d, u), "wb") as f:
                f.write(data)
            os.chmod(os.path.join(d, u), 0o600)
        if extra:
            extra(d)
        os.chmod(d, mode)
        r.case(name, name, command, status, expect)
        return d

    resumed_all = (cmd, 0, "checkpoint 3 units resumed, 0 computed")
    case_dir("valid")
    r.case("valid.again", "valid", *resumed_all)
    # Truncated at every field: magic, format, H, the header, unit, items, E, the element, the
    # checksum (the unit is recomputed, the digest is right).
    for at in sorted({0, 4, 8, 12, 16, 16 + H // 2, 16 + H, 20 + H, 24 + H, 32 + H, 36 + H,
                      36 + H + E // 2, 36 + H + E, 36 + H + E + 16, len(one) - 1}):
        case_dir(f"trunc-{at}", one[:at])
    r.case("trunc-0.again", "trunc-0", *resumed_all)  # the recomputed unit was saved
    case_dir("trailing-byte", one + b"\0")
    # One flipped bit in every field (the checksum catches it).
    for name, at in [("magic", 3), ("format", 8), ("H", 13), ("header", 16 + 20), ("unit", 16 + H),
                     ("items", 24 + H), ("E", 33 + H), ("element", 36 + H + E // 3),
                     ("checksum", len(one) - 1)]:
        case_dir(f"flip-{name}", one[:at] + bytes([one[at] ^ 0x10]) + one[at + 1:])
    case_dir("flip-element.mpi2", one[:36 + H + 7] + bytes([one[36 + H + 7] ^ 1]) + one[36 + H + 8:],
             command="mpi2 " + cmd)
    # Consistent files (checksum recomputed) that are not this job's unit 1.
    case_dir("magic-resummed", resum(b"mulredCK" + one[8:]))
    case_dir("H-too-large", resum(one[:12] + struct.pack("<I", 1 << 20) + one[16:]))
    case_dir("H-over-max", resum(one[:12] + struct.pack("<I", 0xFFFFFFFF) + one[16:]))
    for key, value in [("flavor", "bitcoim"), ("version", "9.9.9"),
                       ("insert0.size", str(int(fields["insert0.size"]) + 1))]:
        old = f"{key}={fields[key]}\n".encode()
        new = f"{key}={value}\n".encode()
        assert len(old) == len(new) and header.encode().count(old) == 1
        case_dir(f"other-{key}", resum(one.replace(old, new)), 2,
                 f"{{f}}/unit-0000000001.ckpt belongs to another job: '{key}' is '{value}' there, "
                 f"'{fields[key]}' here")
    case_dir("other-flavor-run", kaspa["unit-0000000001.ckpt"], 2,
             "{f}/unit-0000000001.ckpt belongs to another job: 'flavor' is 'kaspa' there, "
             "'bitcoin' here")
    case_dir("other-flavor-run.mpi2", kaspa["unit-0000000001.ckpt"], 2,
             "{f}/unit-0000000001.ckpt belongs to another job: 'flavor' is 'kaspa' there",
             command="mpi2 " + cmd)
    case_dir("unit-0-as-1", good["unit-0000000000.ckpt"], 2,
             f"{{f}}/unit-0000000001.ckpt holds unit 0 ({E}-byte element), not the unit its name says")
    seven = resum(one[:16 + H] + struct.pack("<Q", 7) + one[24 + H:])

    def put7(d):
        with open(os.path.join(d, "unit-0000000007.ckpt"), "wb") as f:
            f.write(seven)
        os.chmod(os.path.join(d, "unit-0000000007.ckpt"), 0o600)
    case_dir("unit-beyond-units", extra=put7, status=2,
             expect="{f}/unit-0000000007.ckpt belongs to another job: unit 7 of a job of 3 units")
    # Files the store ignores, and what else sits at a unit's name.

    def ignored(d):
        for n, data in [("unit-00000000001.ckpt", one), (".tmp-unit-1", one[:50]),
                        ("notes.txt", b"x"), ("unit-0000000001.ckpt.bak", one[:9])]:
            with open(os.path.join(d, n), "wb") as f:
                f.write(data)
    case_dir("ignored-names", extra=ignored)
    case_dir("unit-fifo", os.mkfifo)
    case_dir("unit-dev-zero", lambda p: os.symlink("/dev/zero", p))
    case_dir("unit-sparse-8g", lambda p: open(p, "wb").truncate(8 << 30))
    case_dir("unit-is-directory", os.mkdir, 3, "{f}/unit-0000000001.ckpt: cannot write: Is a directory")
    # Directories the store refuses: others or the group may write, another user owns.
    case_dir("mode-0777", status=2, mode=0o777, expect="checkpoint directory {f} is writable by others (mode 0777)")
    case_dir("mode-0770", status=2, mode=0o770, expect="checkpoint directory {f} is writable by")
    if os.geteuid() == 0:
        d = case_dir("owned-by-nobody", status=2,
                     expect="checkpoint directory {f} is owned by uid 65534, not by this user")
        os.chown(d, 65534, 65534)
    r.write("not-a-directory", b"")
    r.case("not-a-directory", "not-a-directory", cmd, 2, "checkpoint directory {f}: not a directory")
    r.case("parent-missing", "missing/x", cmd, 2,
           "checkpoint directory {f}: cannot create: No such file or directory")
    r.finish("# Generated by tests/corpus/make.py: checkpoint directories (muhash --checkpoint).\n")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    vectors, out = sys.argv[1], sys.argv[2]
    if os.path.exists(out):
        for root, dirs, _ in os.walk(out):
            for x in dirs:
                os.chmod(os.path.join(root, x), 0o755)
        shutil.rmtree(out)
    os.makedirs(out)
    element_cases(out)
    snapshot_cases(out, vectors)
    index_cases(out, vectors)
    pair_cases(out, vectors)
    kzg_cases(out, vectors)
    job_cases(out)
    result_cases(out)
    checkpoint_cases(out)


if __name__ == "__main__":
    main()
