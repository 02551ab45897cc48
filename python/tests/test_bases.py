"""mulred.Bases against the EIP-2537 and EIP-196 vectors: one set of points validated once, then
multiplied by many scalar vectors (single calls, batches, prefixes, both byte orders, tables,
the cache file), and every refusal."""

import concurrent.futures

import pytest

import mulred
from conftest import load_json

# (file, curve, group, point bytes): the single multiplications of each group
MUL_CASES = [
    ("eip2537/mul_G1_bls.json", "bls12-381", "g1", 128),
    ("eip2537/mul_G2_bls.json", "bls12-381", "g2", 256),
    ("eip196/bn256ScalarMul.json", "bn254", "g1", 64),
]


def mul_vectors(rel, point_bytes):
    """(points, scalars, expected) of the vectors that are whole records (point || scalar)."""
    cases = [c for c in load_json(rel) if len(c["Input"]) == 2 * (point_bytes + 32)]
    raw = [bytes.fromhex(c["Input"]) for c in cases]
    points = [r[:point_bytes] for r in raw]
    scalars = [r[point_bytes:] for r in raw]
    return points, scalars, [c["Expected"] for c in cases]


def unit_vector(scalars, j, length):
    """length scalars, all zero except scalars[j] at position j."""
    return b"".join(scalars[j] if i == j else bytes(32) for i in range(length))


def little(vector):
    return b"".join(vector[i:i + 32][::-1] for i in range(0, len(vector), 32))


@pytest.mark.parametrize("rel,curve,group,point_bytes", MUL_CASES)
@pytest.mark.parametrize("precompute", [None, 8, 16])
def test_single_multiplications(rel, curve, group, point_bytes, precompute):
    """Set = every vector's point; vector j = its scalar at j, zeros elsewhere: s_j * P_j."""
    points, scalars, expected = mul_vectors(rel, point_bytes)
    assert len(points) >= 8, rel
    b = mulred.Bases(curve, b"".join(points), group=group, threads=2, precompute=precompute)
    assert len(b) == len(points)
    assert (b.curve, b.group) == (curve, group)
    vectors = [unit_vector(scalars, j, len(points)) for j in range(len(points))]
    for j, v in enumerate(vectors):
        assert b.msm(v, threads=1).hex() == expected[j], j
        assert b.msm(little(v), byteorder="little").hex() == expected[j], j
        # a prefix of the set: the vector ends at j
        assert b.msm(v[:32 * (j + 1)]).hex() == expected[j], j
    got = b.msm_many(vectors, threads=2)
    assert [g.hex() for g in got] == expected
    assert b.msm_many([]) == []


def test_eip2537_msm_vectors():
    """Each EIP-2537 MSM case as a set of its points and one vector of its scalars."""
    cases = load_json("eip2537/msm_G1_bls.json")
    assert len(cases) >= 10
    for case in cases:
        raw = bytes.fromhex(case["Input"])
        points = b"".join(raw[i:i + 128] for i in range(0, len(raw), 160))
        scalars = b"".join(raw[i + 128:i + 160] for i in range(0, len(raw), 160))
        b = mulred.Bases("bls12-381", memoryview(points))
        assert b.msm(bytearray(scalars)).hex() == case["Expected"], case["Name"]


def test_table_memory_and_path(tmp_path):
    points, scalars, expected = mul_vectors(*MUL_CASES[0][::3])
    path = tmp_path / "points.bin"
    path.write_bytes(b"".join(points))
    plain = mulred.Bases("bls12-381", path)
    table = mulred.Bases("bls12-381", str(path), precompute=16)
    assert plain.level == 0 and table.level > 0
    assert plain.nbytes >= len(points) * 96
    assert table.nbytes > plain.nbytes
    v = unit_vector(scalars, 3, len(points))
    assert table.msm(v).hex() == plain.msm(v).hex() == expected[3]


def test_cache_file(tmp_path):
    points, scalars, expected = mul_vectors(*MUL_CASES[0][::3])
    b = mulred.Bases("bls12-381", b"".join(points), precompute=8)
    path = tmp_path / "set.cache"
    b.save(path)
    loaded = mulred.Bases.load(path, curve="bls12-381")
    assert len(loaded) == len(points) and loaded.level == b.level
    for j in range(len(points)):
        assert loaded.msm(unit_vector(scalars, j, len(points))).hex() == expected[j]
    data = path.read_bytes()
    with pytest.raises(ValueError):  # another curve asked for
        mulred.Bases.load(path, curve="bn254")
    with pytest.raises(ValueError):  # another group asked for
        mulred.Bases.load(path, curve="bls12-381", group="g2")
    for name, bad in [("changed", data[:200] + bytes([data[200] ^ 1]) + data[201:]),
                      ("cut", data[:-1]), ("extended", data + b"\0"), ("foreign", b"x" * 64)]:
        p = tmp_path / name
        p.write_bytes(bad)
        with pytest.raises(ValueError):
            mulred.Bases.load(p)
    with pytest.raises(FileNotFoundError):
        mulred.Bases.load(tmp_path / "missing")


def test_bad_points():
    points, _, _ = mul_vectors(*MUL_CASES[0][::3])
    bad = bytearray(b"".join(points))
    bad[3 * 128 + 127] ^= 1  # point 3's y: off the curve
    with pytest.raises(ValueError, match=r"point 3\b"):
        mulred.Bases("bls12-381", bad)
    with pytest.raises(ValueError, match="whole number"):
        mulred.Bases("bls12-381", bytes(127))
    with pytest.raises(ValueError, match="curve"):
        mulred.Bases("secp256k1", bytes(128))
    with pytest.raises(ValueError, match="group"):
        mulred.Bases("bls12-381", bytes(128), group="g3")
    with pytest.raises(ValueError, match="encoding"):
        mulred.Bases("bls12-381", bytes(128), encoding="der")
    with pytest.raises(ValueError, match="precompute"):
        mulred.Bases("bls12-381", bytes(128), precompute=65)
    with pytest.raises(TypeError):
        mulred.Bases("bls12-381", 5)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        mulred.Bases("bls12-381", "no/such/points.bin")


def test_bad_scalars_and_misuse():
    points, scalars, _ = mul_vectors(*MUL_CASES[0][::3])
    b = mulred.Bases("bls12-381", b"".join(points))
    n = len(points)
    for bad in (bytes(31), bytes(33)):
        with pytest.raises(ValueError, match="32-byte"):
            b.msm(bad)
    with pytest.raises(ValueError, match=r"^scalars: no scalars \(empty input\)$"):
        b.msm(b"")
    with pytest.raises(ValueError):  # longer than the set
        b.msm(bytes(32 * (n + 1)))
    with pytest.raises(ValueError, match="vector 1"):
        b.msm_many([bytes(64), bytes(96)])
    with pytest.raises(ValueError, match="byteorder"):
        b.msm(bytes(32), byteorder="middle")
    with pytest.raises(TypeError):
        b.msm("00" * 32)  # type: ignore[arg-type]
    with b as same:
        assert same is b
    assert b.closed
    for call in (lambda: b.msm(bytes(32)), lambda: b.msm_many([bytes(32)]), lambda: len(b),
                 lambda: b.nbytes, lambda: b.save("x")):
        with pytest.raises(mulred.MisuseError):
            call()
    b.close()  # closing twice is harmless


def test_threads_share_a_set():
    points, scalars, expected = mul_vectors(*MUL_CASES[0][::3])
    b = mulred.Bases("bls12-381", b"".join(points))
    vectors = [unit_vector(scalars, j, len(points)) for j in range(len(points))]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda v: b.msm(v, threads=1).hex(), vectors * 4))
    assert got == expected * 4


def test_zcash_uncompressed_g1():
    """The EIP-2537 points moved into the ZCash uncompressed form (x || y, 48 bytes each)."""
    points, scalars, expected = mul_vectors(*MUL_CASES[0][::3])
    moved = [p[16:64] + p[80:128] if any(p) else b"\x40" + bytes(95) for p in points]
    b = mulred.Bases("bls12-381", b"".join(moved), encoding="uncompressed")
    for j in range(len(points)):
        assert b.msm(unit_vector(scalars, j, len(points))).hex() == expected[j]
    bad = bytearray(moved[0])
    bad[0] |= 0x80  # the compression flag
    with pytest.raises(ValueError, match="point 0"):
        mulred.Bases("bls12-381", bad, encoding="uncompressed")


def test_nothing_empty():
    """An empty set and an empty scalar vector are bad input, as an MSM over no pairs is."""
    points, _, _ = mul_vectors(*MUL_CASES[0][::3])
    b = mulred.Bases("bls12-381", b"".join(points))
    with pytest.raises(ValueError, match=r"no scalars \(empty input\)"):
        b.msm(bytearray())
    with pytest.raises(ValueError, match=r"^vector 1: no scalars \(empty input\)$"):
        b.msm_many([bytes(32), b""])
    assert b.msm_many([]) == []  # no vectors: nothing to do
    for curve, group in (("bls12-381", "g1"), ("bls12-381", "g2"), ("bn254", "g1"),
                         ("bn254", "g2")):
        with pytest.raises(ValueError, match=r"^points: no points \(empty input\)$"):
            mulred.Bases(curve, b"", group=group)
    # a shard of a larger set (first given) may be empty: its MSMs refuse no scalars
    shard = mulred.Bases("bn254", b"", first=7)
    assert len(shard) == 0 and shard.level == 0
    with pytest.raises(ValueError, match="no scalars"):
        shard.msm(b"")


def test_precompute_range_and_level():
    points, scalars, expected = mul_vectors(*MUL_CASES[0][::3])
    for bad in (1, 65):
        with pytest.raises(ValueError, match=r"precompute must be 0 \(none\) or in 2\.\.64"):
            mulred.Bases("bls12-381", b"".join(points[:5]), precompute=bad)
    v = unit_vector(scalars, 2, 5)
    # level: the rows built; a table has at least 8 (16-bit windows with GLV), so 2..7 build none
    for asked, built in ((0, 0), (2, 0), (7, 0), (8, 8)):
        b = mulred.Bases("bls12-381", b"".join(points[:5]), precompute=asked)
        assert b.level == built, asked
        assert b.msm(v).hex() == expected[2]
    b = mulred.Bases("bls12-381", b"".join(points[:5]), precompute=64)
    assert 8 <= b.level <= 64
