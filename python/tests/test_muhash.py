"""mulred.MuHash against Bitcoin Core's and Kaspa's vectors and against `mulred muhash`."""

import os
import random
import subprocess

import pytest

import mulred
from conftest import CLI, load_json, run_cli


def filled(flavor, insert, remove=()):
    h = mulred.MuHash(flavor)
    for e in insert:
        h.insert(bytes.fromhex(e))
    for e in remove:
        h.remove(bytes.fromhex(e))
    return h


@pytest.mark.parametrize("flavor", ["bitcoin", "kaspa"])
def test_vectors(flavor):
    for case in load_json(f"{flavor}/muhash.json")["cases"]:
        h = filled(flavor, case["insert"], case["remove"])
        assert h.digest().hex() == case["display"], case["name"]
        assert h.hexdigest() == case["display"]
        # the batched paths give the same state
        b = mulred.MuHash(flavor)
        b.insert_many(bytes.fromhex(e) for e in case["insert"])
        b.remove_many([bytes.fromhex(e) for e in case["remove"]], threads=2)
        assert b.digest() == h.digest(), case["name"]


@pytest.mark.parametrize("flavor", ["bitcoin", "kaspa"])
def test_serialization_vectors(flavor):
    case = load_json(f"{flavor}/muhash.json")["serialization"]
    h = filled(flavor, case["insert"])
    assert h.serialize().hex() == case["hex"]
    back = mulred.MuHash.deserialize(bytes.fromhex(case["hex"]), flavor)
    assert back.digest() == h.digest()


def test_digest_order():
    # the overflow vector gives the hash output order ("raw"); digest() is the display order
    case = load_json("bitcoin/muhash.json")["overflow"]
    h = mulred.MuHash.deserialize(
        bytes.fromhex(case["numerator_hex"] + case["denominator_hex"]), "bitcoin")
    assert h.digest()[::-1].hex() == case["raw"]


def test_kaspa_cumulative():
    h = mulred.MuHash("kaspa")
    for v in load_json("kaspa/muhash.json")["test_vectors"]:
        one = mulred.MuHash("kaspa")
        one.insert(bytes.fromhex(v["data"]))
        assert one.hexdigest() == v["single"]
        h.insert(bytes.fromhex(v["data"]))
        assert h.hexdigest() == v["cumulative"]


def random_elements(n, seed):
    rnd = random.Random(seed)
    return [rnd.randbytes(rnd.choice([0, 1, 32, 60, 83, 200, 5000])) for _ in range(n)]


@pytest.mark.parametrize("flavor", ["bitcoin", "kaspa"])
def test_against_command(tmp_path, flavor):
    ins, rem = random_elements(300, 1), random_elements(40, 2)
    (tmp_path / "ins.txt").write_text("".join(e.hex() + "\n" for e in ins if e))
    (tmp_path / "rem.txt").write_text("".join(e.hex() + "\n" for e in rem if e))
    out = run_cli("muhash", "--flavor", flavor, "--insert", str(tmp_path / "ins.txt"),
                  "--remove", str(tmp_path / "rem.txt"), "--threads", "1")
    h = mulred.MuHash(flavor)
    h.insert_many([e for e in ins if e], threads=2)
    h.remove_many(e for e in rem if e)
    assert h.digest().hex() == out["result"]


def test_buffers_combine_copy():
    elems = random_elements(64, 3)
    whole = mulred.MuHash()
    whole.insert_many(elems)
    a, b = mulred.MuHash(), mulred.MuHash()
    a.insert_many(bytearray(e) for e in elems[:20])
    b.insert_many((memoryview(e) for e in elems[20:]), threads=None)
    c = a.copy()
    a.combine(b)
    assert a.digest() == whole.digest()
    assert c.digest() != whole.digest()  # the copy is independent
    before = c.digest()
    c.insert(elems[20])
    c.remove(elems[20])
    assert c.digest() == before
    empty = mulred.MuHash()
    assert empty.hexdigest() == load_json("bitcoin/muhash.json")["cases"][0]["display"]


def test_numpy_buffers():
    np = pytest.importorskip("numpy")
    e = bytes(range(100))
    h1, h2 = mulred.MuHash(), mulred.MuHash()
    h1.insert(e)
    h2.insert(np.frombuffer(e, dtype=np.uint8))
    assert h1.digest() == h2.digest()


def test_bad_input():
    h = mulred.MuHash()
    with pytest.raises(ValueError, match="flavor must be"):
        mulred.MuHash("ethereum")
    with pytest.raises(TypeError, match="element 1: expected a bytes-like object, not str"):
        h.insert_many([b"a", "b"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        h.insert("text")  # type: ignore[arg-type]
    # the parallel path names the element over the library's size bound
    with pytest.raises(ValueError, match="element 2: 65537 bytes"):
        h.insert_many([b"a", b"b", bytes(65537)], threads=2)
    with pytest.raises(ValueError, match="threads"):
        h.insert_many([b"a"], threads=-1)
    with pytest.raises(ValueError):
        mulred.MuHash.deserialize(b"short", "kaspa")
    assert h.hexdigest() == mulred.MuHash().hexdigest()  # nothing was applied


def test_misuse_raises():
    # states of two flavors: the library's misuse check, reported instead of abort()
    b, k = mulred.MuHash("bitcoin"), mulred.MuHash("kaspa")
    with pytest.raises(mulred.MisuseError, match="flavors must match"):
        b.combine(k)
    assert issubclass(mulred.MisuseError, RuntimeError)
    # the library's own check (an empty window range) through the misuse callback
    with pytest.raises(mulred.MisuseError, match=r"msm_threads_impl\.h:\d+: window0 < window1"):
        mulred._mulred._misuse_probe()
    b.insert(b"still alive")
    assert len(b.digest()) == 32


def test_snapshot(tmp_path, vectors):
    expect = load_json("bitcoin/regtest-small.json")
    snap = tmp_path / "regtest-small.dat"
    snap.write_bytes((vectors / "bitcoin" / "regtest-small.dat").read_bytes())
    res = mulred.snapshot_muhash(snap, threads=2)
    assert res["muhash"] == expect["muhash"]
    assert res["coins"] == expect["coins"]
    assert res["base_block_hash"] == expect["base_hash"]
    assert res["network"] == "regtest"
    out = run_cli("muhash", "--snapshot", str(snap))
    assert res["muhash"] == out["result"]
    for key in ("coins", "base_block_hash", "network", "format_version"):
        assert res[key] == out[key], key  # type: ignore[literal-required]
    # a truncated snapshot is bad input naming the file and the byte
    bad = tmp_path / "bad.dat"
    bad.write_bytes(snap.read_bytes()[:-7])
    with pytest.raises(ValueError, match="bad.dat"):
        mulred.snapshot_muhash(str(bad), index=str(tmp_path / "bad.idx"))


def test_version():
    # `mulred version` prints "mulred VERSION (git ...)" first
    assert mulred.__version__
    if not os.access(CLI, os.X_OK):
        pytest.skip("the command is not built")
    first = subprocess.run([CLI, "version"], capture_output=True, text=True).stdout.split("\n")[0]
    assert first.split()[:2] == ["mulred", mulred.__version__]


@pytest.mark.parametrize("flavor", ["bitcoin", "kaspa"])
def test_equality_pickle_copy(flavor):
    import copy
    import pickle

    a, b, c = (bytes([i]) * 40 for i in (1, 2, 3))
    x = mulred.MuHash(flavor)
    for e in (a, b, c):
        x.insert(e)
    x.remove(b)
    # the same multiset {a, c} another way: other order, b never seen, and a remove first
    y = mulred.MuHash(flavor)
    y.remove(a)
    y.insert(c)
    y.insert(a)
    y.insert(a)
    assert x == y and not (x != y)
    assert x.digest() == y.digest()
    assert x == x
    z = mulred.MuHash(flavor)
    z.insert(a)
    assert x != z and not (x == z)
    assert mulred.MuHash("bitcoin") != mulred.MuHash("kaspa")  # flavors differ
    assert mulred.MuHash(flavor) == mulred.MuHash(flavor)  # both empty
    assert x != x.digest() and (x == object()) is False
    with pytest.raises(TypeError):
        hash(x)
    assert mulred.MuHash.__hash__ is None
    for clone in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
        assert type(clone) is mulred.MuHash and clone.flavor == flavor
        assert clone == x and clone.digest() == x.digest()
        clone.insert(b)  # independent: x keeps {a, c}
        assert clone != x and x == y
    box = copy.deepcopy({"h": x})
    assert box["h"] == x and box["h"] is not x
