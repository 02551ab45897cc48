"""mulred.msm against the EIP-2537 and EIP-196 vectors and against `mulred msm --binary`."""

import concurrent.futures
import sys
from typing import Any

import pytest

import mulred
from conftest import ROOT, load_json, run_cli


def eip2537_cases():
    return load_json("eip2537/msm_G1_bls.json")


def bn254_records():
    return [bytes.fromhex(c["Input"]) for c in load_json("eip196/bn256ScalarMul.json")
            if len(c["Input"]) == 192]


def test_eip2537_vectors():
    for case in eip2537_cases():
        records = bytes.fromhex(case["Input"])
        assert mulred.msm("bls12-381", records, threads=1).hex() == case["Expected"], case["Name"]
    big = max(eip2537_cases(), key=lambda c: len(c["Input"]))
    records = bytes.fromhex(big["Input"])
    for buf in (bytearray(records), memoryview(records)):
        assert mulred.msm("bls12-381", buf, threads=2).hex() == big["Expected"]


def test_eip196_vectors():
    for case in load_json("eip196/bn256ScalarMul.json"):
        if len(case["Input"]) != 192:  # the precompile pads short inputs; records do not
            continue
        out = mulred.msm("bn254", bytes.fromhex(case["Input"]), group="g1")
        assert out.hex() == case["Expected"], case["Name"]


@pytest.mark.parametrize("curve", ["bls12-381", "bn254"])
def test_against_command(tmp_path, curve):
    if curve == "bn254":
        records = b"".join(bn254_records())
    else:
        records = bytes.fromhex(max(eip2537_cases(), key=lambda c: len(c["Input"]))["Input"])
    path = tmp_path / "pairs.bin"
    path.write_bytes(records)
    out = run_cli("msm", "--curve", curve, "--input", str(path), "--binary", "--threads", "1")
    got = mulred.msm(curve, records)
    assert len(got) == mulred.record_bytes(curve) - 32
    assert "0x" + got.hex() == out["result"] or got.hex() == out["result"]


def test_numpy_records():
    np = pytest.importorskip("numpy")
    case = eip2537_cases()[10]
    arr = np.frombuffer(bytes.fromhex(case["Input"]), dtype=np.uint8)
    assert mulred.msm("bls12-381", arr).hex() == case["Expected"]


def test_empty_is_an_error(tmp_path):
    # EIP-2537's bls_g1msm_empty_input / bls_g2msm_empty_input: "invalid input length"; the
    # library, the module and the command all refuse an empty input
    for name in ("fail-msm_G1_bls.json", "fail-msm_G2_bls.json"):
        case = next(c for c in load_json("eip2537/" + name) if c["Input"] == "")
        assert case["ExpectedError"] == "invalid input length"
    for curve in ("bls12-381", "bn254"):
        for group in ("g1", "g2"):
            with pytest.raises(ValueError, match=r"^no pairs \(empty input\)$"):
                mulred.msm(curve, b"", group=group)
            with pytest.raises(ValueError, match="no pairs"):
                mulred.msm(curve, bytearray(), group=group)
    empty = tmp_path / "empty.hex"
    empty.write_bytes(b"")
    proc = run_cli("msm", "--curve", "bn254", "--input", str(empty), check=False)
    assert proc.returncode == 2 and "no pairs (empty input)" in proc.stderr


def test_bad_records_name_the_record():
    for case in load_json("eip2537/fail-msm_G1_bls.json"):
        records = bytes.fromhex(case["Input"])
        if not records:  # the precompile refuses no input; the library sums it to infinity
            continue
        with pytest.raises(ValueError) as exc:
            mulred.msm("bls12-381", records)
        msg = str(exc.value)
        if len(records) % 160:
            assert "not a whole number" in msg, case["Name"]
        else:
            assert "record " in msg and ": point: " in msg, (case["Name"], msg)
    # a bad point in the middle of good ones: its index
    good = bytes.fromhex(max(eip2537_cases(), key=lambda c: len(c["Input"]))["Input"])
    bad = bytearray(good)
    bad[5 * 160 + 127] ^= 1  # y of record 5
    with pytest.raises(ValueError, match=r"record 5: point: .*curve"):
        mulred.msm("bls12-381", bad)
    recs = bytearray(b"".join(bn254_records()))
    recs[3 * 96 + 0] = 0xFF  # x of record 3 above p
    with pytest.raises(ValueError, match=r"record 3: point: "):
        mulred.msm("bn254", recs)


def test_g2_eip2537_vectors():
    # G2MUL cases as one-pair G2 MSMs; G2ADD's g2 + p2 as two pairs with scalars 1
    for case in load_json("eip2537/mul_G2_bls.json"):
        out = mulred.msm("bls12-381", bytes.fromhex(case["Input"]), group="g2")
        assert out.hex() == case["Expected"], case["Name"]
    case = load_json("eip2537/add_G2_bls.json")[0]
    raw, one = bytes.fromhex(case["Input"]), (1).to_bytes(32, "big")
    assert mulred.msm("bls12-381", raw[:256] + one + raw[256:] + one, group="g2").hex() == \
        case["Expected"]
    bad = [c for c in load_json("eip2537/fail-msm_G2_bls.json") if "subgroup" in c["ExpectedError"]]
    with pytest.raises(ValueError, match=r"record 0: point: .*subgroup G2"):
        mulred.msm("bls12-381", bytes.fromhex(bad[0]["Input"]), group="g2")


def test_bad_arguments():
    with pytest.raises(ValueError, match="group must be"):
        mulred.msm("bls12-381", b"", group="g3")
    with pytest.raises(ValueError, match="curve must be"):
        mulred.msm("secp256k1", b"")
    with pytest.raises(TypeError):
        mulred.msm("bn254", "00" * 96)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        mulred.msm("bn254", b"", threads=-2)


def test_threads_share_the_module():
    # the GIL is released while computing: concurrent calls from Python threads
    case = max(eip2537_cases(), key=lambda c: len(c["Input"]))
    records = bytes.fromhex(case["Input"])
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda _: mulred.msm("bls12-381", records, threads=1), range(8)))
    assert all(o.hex() == case["Expected"] for o in outs)


def test_synthetic_pairs(tmp_path):
    # the set of `mulred msm --synthetic N --seed S`: the same records as --write-pairs writes,
    # the same sum; each point on its curve and the sum equal to the independent reference's
    sys.path.insert(0, str(ROOT / "tests" / "tools"))
    from msm_ref import CURVES, add, encode, mul

    for curve, group in (("bn254", "g1"), ("bls12-381", "g1"), ("bn254", "g2")):
        path = tmp_path / f"{curve}-{group}.hex"
        out = run_cli("msm", "--curve", curve, "--group", group, "--synthetic", "9", "--seed",
                      "77", "--write-pairs", str(path))
        records = mulred.synthetic_pairs(curve, 9, group=group, seed=77, threads=2)
        assert records.hex() == path.read_text().replace("\n", "")
        assert mulred.msm(curve, records, group=group).hex() == out["result"]
        if group == "g1":
            c: Any = CURVES[curve]  # the reference's parameters (untyped)
            w = c["coord"]
            size = mulred.record_bytes(curve)
            total = None
            for i in range(0, len(records), size):
                rec = records[i:i + size]
                P = (int.from_bytes(rec[:w], "big"), int.from_bytes(rec[w:2 * w], "big"))
                assert (P[1] ** 2 - P[0] ** 3 - c["b"]) % c["p"] == 0
                total = add(c, total, mul(c, int.from_bytes(rec[2 * w:], "big"), P))
            assert encode(c, total).hex() == out["result"]
    # seeds and threads never change a pair; other seeds give other pairs
    assert mulred.synthetic_pairs("bn254", 3, seed=5) == mulred.synthetic_pairs("bn254", 5, seed=5)[:288]
    assert mulred.synthetic_pairs("bn254", 3, seed=5) != mulred.synthetic_pairs("bn254", 3, seed=6)
    assert mulred.synthetic_pairs("bn254", 1) == mulred.synthetic_pairs("bn254", 1, seed=1)
