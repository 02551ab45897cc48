"""mulred.KZGSetup and mulred.kzg_commit against c-kzg-4844's vectors and `mulred kzg-commit`."""

import pathlib

import pytest

import mulred
from conftest import VECTORS, run_cli

SETUP = VECTORS / "kzg" / "trusted_setup.txt"


def cases():
    """(name, blob hex with 0x, commitment hex with 0x or None) of every vector file."""
    out = []
    for f in sorted((VECTORS / "kzg" / "blob_to_kzg_commitment").glob("*.yaml")):
        blob = commitment = None
        for line in f.read_text().splitlines():
            s = line.strip()
            if s.startswith("blob:"):
                blob = s.split(":", 1)[1].strip().strip("'\"")
            elif s.startswith("output:"):
                v = s.split(":", 1)[1].strip().strip("'\"")
                commitment = None if v == "null" else v
        out.append((f.stem, blob, commitment))
    return out


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    cache = tmp_path_factory.mktemp("kzg") / "table"
    s = mulred.KZGSetup(SETUP, cache=cache)
    assert s.cache_state in ("written", "memory")
    return s, cache


def test_vectors(setup):
    s, _ = setup
    # the c-kzg-4844 files tests/vectors/kzg holds: 11, of which some have no commitment (bad
    # blobs); a test that found none would pass on nothing
    all_cases = cases()
    assert len(all_cases) >= 11
    assert sum(1 for c in all_cases if c[2]) >= 5 and sum(1 for c in all_cases if not c[2]) >= 2
    for name, blob, commitment in all_cases:
        raw = bytes.fromhex(blob[2:]) if len(blob) == 2 + 2 * mulred.BLOB_BYTES else None
        if commitment is None:
            with pytest.raises(ValueError):
                s.commit(raw if raw is not None else blob)
            continue
        assert raw is not None
        assert "0x" + s.commit(raw).hex() == commitment, name
        assert "0x" + s.commit(blob).hex() == commitment, name  # hex text
        assert "0x" + mulred.kzg_commit(s, memoryview(raw)).hex() == commitment, name


def test_reload_from_cache_and_bytes(setup):
    s, cache = setup
    again = mulred.KZGSetup(str(SETUP), cache=cache)
    assert again.cache_state == "loaded"
    name, blob, commitment = next(c for c in cases() if c[2])
    raw = bytes.fromhex(blob[2:])
    from_bytes = mulred.KZGSetup(SETUP.read_bytes(), cache=cache)
    assert "0x" + from_bytes.commit(raw).hex() == commitment


def test_path_and_default_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    name, blob, commitment = next(c for c in cases() if c[2])
    assert "0x" + mulred.kzg_commit(SETUP, blob).hex() == commitment


def test_against_command(setup, tmp_path):
    s, cache = setup
    name, blob, commitment = [c for c in cases() if c[2]][-1]
    (tmp_path / "blob.hex").write_text(blob + "\n")
    out = run_cli("kzg-commit", "--setup", str(SETUP), "--blob", str(tmp_path / "blob.hex"),
                  "--cache", str(cache))
    assert out["result"] == s.commit(bytes.fromhex(blob[2:])).hex()
    assert out["commitment"] == "0x" + out["result"]  # the 0.2 form, written until 0.4


def test_bad_input(setup):
    s, _ = setup
    with pytest.raises(ValueError, match="a blob is 131072"):
        s.commit(bytes(100))
    blob = bytearray(mulred.BLOB_BYTES)
    blob[32 * 7: 32 * 8] = b"\xff" * 32
    with pytest.raises(ValueError, match="field element 7"):
        s.commit(blob)
    text = SETUP.read_bytes()
    lines = text.split(b"\n")
    lines[5] = b"zz" + lines[5][2:]
    with pytest.raises(ValueError, match="setup"):
        mulred.KZGSetup(b"\n".join(lines), cache=False)
    with pytest.raises(FileNotFoundError):
        mulred.KZGSetup(pathlib.Path("/nonexistent/setup.txt"), cache=False)
    with pytest.raises(TypeError):
        mulred.kzg_commit(42, bytes(mulred.BLOB_BYTES))  # type: ignore[arg-type]


def test_commit_many(setup):
    """Every vector's blob in one call (raw and hex mixed): the vectors' commitments, in order."""
    s, _ = setup
    good = [(blob, commitment) for _, blob, commitment in cases() if commitment]
    assert len(good) >= 5
    blobs = [bytes.fromhex(b[2:]) if i % 2 else b for i, (b, _) in enumerate(good)]
    got = s.commit_many(blobs, threads=2)
    assert ["0x" + g.hex() for g in got] == [c for _, c in good]
    assert s.commit_many([]) == []
    bad = bytearray(mulred.BLOB_BYTES)
    bad[32 * 9: 32 * 10] = b"\xff" * 32
    with pytest.raises(ValueError, match="blob 1: field element 9"):
        s.commit_many([blobs[1], bad, blobs[0]])
    with pytest.raises(ValueError, match="blob 2"):
        s.commit_many([blobs[1], blobs[1], bytes(5)])
