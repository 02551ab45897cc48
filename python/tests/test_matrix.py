"""The option matrix of the Python module (the command's is tests/matrix/): every parameter of
every public entry point has values here, found by introspection, so a new parameter without
values fails; every bad value raises the documented exception; every pair of good values gives
the result of the defaults (threads, byte order, cache and the like never change a result), and
the MSM results equal an independent reference (tests/tools/msm_ref.py, Python integers)."""

import functools
import inspect
import itertools
import os
import pathlib
import subprocess
import sys

from typing import Any, Dict, List, Tuple

import pytest

import mulred

from conftest import ROOT, VECTORS

TOOLS = ROOT / "tests" / "tools"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """A G1 pair set per curve from msm_ref.py with its expected MSM, its points and scalars
    apart, a saved base set, a KZG setup and blob, a snapshot."""
    d = tmp_path_factory.mktemp("matrix")
    out = {"dir": d}
    for curve in ("bn254", "bls12-381"):
        p = subprocess.run([sys.executable, str(TOOLS / "msm_ref.py"), "pairs", "--curve", curve,
                            "--n", "24", "--seed", "4", "--out", str(d / curve)],
                           capture_output=True, text=True, check=True)
        raw = (d / f"{curve}.bin").read_bytes()
        rec = len(raw) // 24
        out[curve] = {
            "records": raw,
            "expect": bytes.fromhex(p.stdout.split()[-1]),
            "points": b"".join(raw[i * rec:(i + 1) * rec - 32] for i in range(24)),
            "scalars": b"".join(raw[(i + 1) * rec - 32:(i + 1) * rec] for i in range(24)),
        }
        with mulred.Bases(curve, out[curve]["points"]) as b:
            b.save(str(d / f"{curve}.bases"))
        out[curve]["saved"] = str(d / f"{curve}.bases")
    out["setup"] = str(VECTORS / "kzg" / "trusted_setup.txt")
    out["blob"] = bytes(mulred.BLOB_BYTES)
    out["kzg"] = mulred.KZGSetup(out["setup"], cache=False)
    snap = d / "snap.dat"
    snap.write_bytes((VECTORS / "bitcoin" / "regtest-small.dat").read_bytes())
    out["snap"] = str(snap)
    return out


# entry point -> parameter -> (good values, [(bad value, exception)]). A value may be a function
# of the fixture data (lambda d: ...). The first good value is the reference's.
def _le(d):
    s = d["bn254"]["scalars"]
    return b"".join(s[i:i + 32][::-1] for i in range(0, len(s), 32))


Values = Tuple[List[Any], List[Tuple[Any, type]]]
VALUES: Dict[str, Dict[str, Values]] = {
    "msm": {
        "curve": (["bn254"], [("bn255", ValueError), (1, TypeError)]),
        "records": ([lambda d: d["bn254"]["records"]], [(b"\x01", ValueError), ("x", TypeError)]),
        "group": (["g1"], [("g3", ValueError)]),
        "threads": ([None, 1, 2], [(0, ValueError), (-1, ValueError), ("2", TypeError)]),
    },
    "synthetic_pairs": {
        "curve": (["bn254", "bls12-381"], [("x", ValueError)]),
        "n": ([5, 1], [(-1, ValueError), (0, ValueError)]),
        "group": (["g1", "g2"], [("g0", ValueError)]),
        "seed": ([1, 2**64 - 1], [(-1, ValueError), (2**64, ValueError)]),
        "threads": ([None, 1, 2], [(0, ValueError)]),
    },
    "record_bytes": {"curve": (["bn254", "bls12-381"], [("bn", ValueError)])},
    "snapshot_muhash": {
        "path": ([lambda d: d["snap"]], [("/nonexistent/x.dat", FileNotFoundError)]),
        "threads": ([None, 1, 2], [(0, ValueError)]),
        "index": ([None, lambda d: str(d["dir"] / "snap.idx")], [(3, TypeError)]),
    },
    "kzg_commit": {
        "setup": ([lambda d: d["kzg"]], [(None, TypeError)]),
        "blob": ([lambda d: d["blob"]], [(b"\x00", ValueError)]),
    },
    "MuHash": {"flavor": (["bitcoin", "kaspa"], [("ethereum", ValueError), (3, TypeError)])},
    "MuHash.insert": {"element": ([b"\x01", b""], [(None, TypeError)])},
    "MuHash.remove": {"element": ([b"\x01", b""], [(None, TypeError)])},
    "MuHash.insert_many": {
        "elements": ([[b"\x01", b"\x02"]], [(None, TypeError)]),
        "threads": ([1, None, 2], [(0, ValueError)]),
    },
    "MuHash.remove_many": {
        "elements": ([[b"\x01", b"\x02"]], [(None, TypeError)]),
        "threads": ([1, None, 2], [(0, ValueError)]),
    },
    "MuHash.combine": {"other": ([lambda d: mulred.MuHash()], [(None, TypeError)])},
    "MuHash.copy": {},
    "MuHash.digest": {},
    "MuHash.hexdigest": {},
    "MuHash.serialize": {},
    "MuHash.deserialize": {
        "data": ([bytes(384)[:0] + mulred.MuHash().serialize()], [(b"\x00", ValueError)]),
        "flavor": (["bitcoin"], [("x", ValueError), ("kaspa", ValueError)]),
    },
    "KZGSetup": {
        "source": ([lambda d: d["setup"]], [("/nonexistent/setup.txt", FileNotFoundError)]),
        "cache": ([False, lambda d: str(d["dir"] / "kzg.cache")], [(3, TypeError)]),
    },
    "KZGSetup.commit": {"blob": ([lambda d: d["blob"]], [(b"\x00", ValueError)])},
    "KZGSetup.commit_many": {
        "blobs": ([lambda d: [d["blob"]]], [(None, TypeError)]),
        "threads": ([None, 1, 2], [(0, ValueError)]),
    },
    "Bases": {
        "curve": (["bn254"], [("bn255", ValueError)]),
        "points": ([lambda d: d["bn254"]["points"]], [(b"\x01", ValueError)]),
        "group": (["g1"], [("g3", ValueError)]),
        "encoding": (["evm"], [("zcash", ValueError)]),
        "threads": ([None, 1, 2], [(0, ValueError)]),
        "precompute": ([None, 0, 2, 8], [(-1, ValueError), (65, ValueError)]),
        "budget": ([None, 1 << 30], [(-1, ValueError)]),
        "first": ([0], [(-1, ValueError)]),
    },
    "Bases.msm": {
        "scalars": ([lambda d: d["bn254"]["scalars"]], [(b"\x01" * 31, ValueError)]),
        "threads": ([None, 1, 2], [(0, ValueError)]),
        "byteorder": (["big"], [("middle", ValueError)]),
    },
    "Bases.msm_many": {
        "vectors": ([lambda d: [d["bn254"]["scalars"]]], [(None, TypeError)]),
        "threads": ([None, 1, 2], [(0, ValueError)]),
        "byteorder": (["big"], [("middle", ValueError)]),
    },
    "Bases.save": {"path": ([lambda d: str(d["dir"] / "m.bases")], [(lambda d: str(d["dir"]), OSError)])},
    "Bases.load": {
        "path": ([lambda d: d["bn254"]["saved"]], [("/nonexistent/x.bases", FileNotFoundError)]),
        "curve": ([None, "bn254"], [("bls12-381", ValueError)]),
        "group": (["g1"], [("g3", ValueError)]),
    },
    "Bases.close": {},
}


@functools.lru_cache(maxsize=None)
def entry_points():
    """(name, callable, parameters) of every public function, class and method of mulred."""
    out = []
    for name in sorted(mulred.__all__):
        obj = getattr(mulred, name)
        if not callable(obj) or isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        out.append((name, obj))
        if isinstance(obj, type):
            for m, meth in sorted(vars(obj).items()):
                if not m.startswith("_") and callable(getattr(obj, m)):
                    out.append((f"{name}.{m}", getattr(obj, m)))
    result = []
    for name, obj in out:
        params = [p for p in inspect.signature(obj).parameters.values()
                  if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        result.append((name, obj, params))
    return tuple(result)


def test_every_parameter_has_values():
    seen = set()
    for name, _, params in entry_points():
        seen.add(name)
        assert name in VALUES, f"{name}: an entry point the matrix has no values for"
        have = set(VALUES[name])
        names = {p.name for p in params}
        assert names - have == set(), f"{name}: parameters without values: {sorted(names - have)}"
        assert have - names == set(), f"{name}: values for parameters it lacks: {sorted(have - names)}"
    assert set(VALUES) - seen == set(), f"values for no entry point: {sorted(set(VALUES) - seen)}"


def _v(v, d):
    return v(d) if callable(v) and not isinstance(v, type) and getattr(v, "__name__", "") == "<lambda>" else v


def _call(name, args, d):
    """Calls entry point NAME with ARGS (parameter -> value), on a fresh object for a method."""
    fn = dict((n, o) for n, o, _ in entry_points())[name]
    params = {p.name: p for _, o, ps in entry_points() if _ == name for p in ps}
    pos, kw = [], {}
    for pname, p in params.items():
        if pname not in args:
            continue
        if p.kind == p.POSITIONAL_ONLY:
            pos.append(args[pname])
        else:
            kw[pname] = args[pname]
    if "." in name:
        cls, meth = name.split(".")
        if isinstance(inspect.getattr_static(getattr(mulred, cls), meth), classmethod):
            return getattr(getattr(mulred, cls), meth)(*pos, **kw)
        obj = {"MuHash": lambda: mulred.MuHash(),
               "KZGSetup": lambda: d["kzg"],
               "Bases": lambda: mulred.Bases("bn254", d["bn254"]["points"])}[cls]()
        r = getattr(obj, meth)(*pos, **kw)
        return r if r is not None else getattr(obj, "hexdigest", lambda: None)()
    return fn(*pos, **kw)


def _base(name, d):
    return {p: _v(vals[0][0], d) for p, vals in VALUES[name].items() if vals[0]}


BAD = [(name, p, bad, exc) for name, params in VALUES.items()
       for p, (_, bads) in params.items() for bad, exc in bads]


@pytest.mark.parametrize("name,param,bad,exc", BAD, ids=[f"{n}-{p}-{b!r}"[:60] for n, p, b, _ in BAD])
def test_bad_value_raises(data, name, param, bad, exc):
    args = dict(_base(name, data), **{param: _v(bad, data)})
    with pytest.raises(exc):
        _call(name, args, data)


def _pairs(name):
    """Cases (parameter -> value index) covering every pair of good values of NAME."""
    vals = VALUES[name]
    dims = [p for p in vals if len(vals[p][0]) > 1]
    cases = []
    for a, b in itertools.combinations(dims, 2):
        for i, j in itertools.product(range(len(vals[a][0])), range(len(vals[b][0]))):
            cases.append({a: i, b: j})
    for a in dims:
        cases += [{a: i} for i in range(1, len(vals[a][0]))] if len(dims) == 1 else []
    return cases


# parameters whose value decides the result: the reference call keeps them
RESULT: Dict[str, set] = {"synthetic_pairs": {"curve", "n", "group", "seed"}, "record_bytes": {"curve"},
          "MuHash": {"flavor"}, "MuHash.deserialize": {"flavor"}, "MuHash.insert": {"element"},
          "MuHash.remove": {"element"}, "Bases.load": set(),
          "snapshot_muhash": set()}
CASES = [(name, case) for name in VALUES for case in _pairs(name)]


@pytest.mark.parametrize("name,case", CASES, ids=[f"{n}-{sorted(c.items())}" for n, c in CASES])
def test_pairs_of_good_values(data, name, case):
    vals = VALUES[name]
    args = _base(name, data)
    ref_args = dict(args)
    for p, i in case.items():
        args[p] = _v(vals[p][0][i], data)
        if p in RESULT.get(name, set()):
            ref_args[p] = args[p]
    got, want = _call(name, args, data), _call(name, ref_args, data)
    if isinstance(got, dict):  # snapshot_muhash's info: the digest decides
        got, want = got["muhash"], want["muhash"]
    if isinstance(got, mulred.KZGSetup):
        got, want = got.commit(data["blob"]), want.commit(data["blob"])
    if isinstance(got, mulred.MuHash):
        got, want = got.hexdigest(), want.hexdigest()
    if isinstance(got, mulred.Bases):
        got, want = got.msm(data["bn254"]["scalars"]), want.msm(data["bn254"]["scalars"])
    if name in ("Bases", "Bases.save"):
        return  # no result to compare (Bases: test_bases_msm_matches_reference below)
    assert got == want, f"{name} {args}: {got!r} != {want!r}"


@pytest.mark.parametrize("curve", ["bn254", "bls12-381"])
def test_bases_msm_matches_reference(data, curve):
    """Every good Bases parameter and Bases.msm parameter, pairwise, against msm_ref.py."""
    d = data[curve]
    bvals, mvals = VALUES["Bases"], VALUES["Bases.msm"]
    le = b"".join(d["scalars"][i:i + 32][::-1] for i in range(0, len(d["scalars"]), 32))
    for th, pre, bud in itertools.product(bvals["threads"][0], bvals["precompute"][0], bvals["budget"][0]):
        with mulred.Bases(curve, d["points"], threads=th, precompute=pre, budget=bud) as b:
            for mth in mvals["threads"][0]:
                assert b.msm(d["scalars"], threads=mth) == d["expect"]
            assert b.msm(le, byteorder="little") == d["expect"]
    assert mulred.msm(curve, d["records"]) == d["expect"]
    assert mulred.Bases.load(d["saved"]).msm(d["scalars"]) == d["expect"]
