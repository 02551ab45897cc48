"""One test per row of the exceptions table in docs/python.md, in the table's order."""

import os
import pathlib
import subprocess
import sys
import threading

import pytest

import mulred
from conftest import VECTORS, load_json

SETUP = VECTORS / "kzg" / "trusted_setup.txt"
SNAPSHOT = VECTORS / "bitcoin" / "regtest-small.dat"


def path_calls(path):
    """Every function that reads a file, on path."""
    return [
        lambda: mulred.KZGSetup(path, cache=False),
        lambda: mulred.kzg_commit(path, bytes(mulred.BLOB_BYTES)),
        lambda: mulred.snapshot_muhash(path),
    ]


def test_missing_file_is_file_not_found(tmp_path):
    missing = tmp_path / "nope.txt"
    for call in path_calls(missing):
        with pytest.raises(FileNotFoundError) as exc:
            call()
        assert exc.value.filename == missing
    with pytest.raises(FileNotFoundError) as exc2:
        mulred.snapshot_muhash(str(missing))
    assert exc2.value.filename == str(missing)


def test_directory_is_a_directory_error(tmp_path):
    for call in path_calls(tmp_path):
        with pytest.raises(IsADirectoryError) as exc:
            call()
        assert exc.value.filename == tmp_path
        assert isinstance(exc.value, OSError)


CHILD = r"""
import sys, mulred
path = sys.argv[1]
calls = [lambda: mulred.KZGSetup(path, cache=False), lambda: mulred.snapshot_muhash(path)]
for call in calls:
    try:
        call()
        print("no error")
    except PermissionError as e:
        print("PermissionError", e.filename)
"""


def test_unreadable_file_is_permission_error(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_bytes(SETUP.read_bytes()[:100])
    secret.chmod(0)
    if os.geteuid() != 0:
        for call in path_calls(secret)[::2]:
            with pytest.raises(PermissionError) as exc:
                call()
            assert exc.value.filename == secret
        return
    # root reads any file: the check runs in a child process as nobody
    tmp_path.chmod(0o755)
    pkg = pathlib.Path(mulred.__file__).resolve().parents[1]
    env = {"PYTHONPATH": str(pkg), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        proc = subprocess.run([sys.executable, "-c", CHILD, str(secret)], env=env, user=65534,
                              group=65534, extra_groups=[], capture_output=True, text=True,
                              cwd="/")
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot run a process as nobody: {exc}")
    if proc.returncode != 0 and "No module named" in proc.stderr:
        pytest.skip(f"nobody cannot read the package in {pkg}")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"PermissionError {secret}"] * 2


def test_bad_data_is_value_error_naming_the_record():
    case = load_json("eip2537/msm_G1_bls.json")[0]
    good = bytes.fromhex(case["Input"])
    bad = bytearray(good * 6)
    bad[5 * 160 + 127] ^= 1  # record 5's y: off the curve
    with pytest.raises(ValueError, match=r"^record 5: point: "):
        mulred.msm("bls12-381", bad)
    with pytest.raises(ValueError, match=r"^161 bytes: not a whole number of 160-byte records"):
        mulred.msm("bls12-381", good + b"\0")
    with pytest.raises(ValueError, match=r"^element 2: 65537 bytes"):
        mulred.MuHash().insert_many([b"a", b"b", bytes(65537)], threads=2)
    lines = SETUP.read_bytes().split(b"\n")
    lines[5] = b"zz" + lines[5][2:]
    with pytest.raises(ValueError, match=r"setup:6"):
        mulred.KZGSetup(b"\n".join(lines), cache=False)
    blob = bytearray(mulred.BLOB_BYTES)
    blob[32 * 7:32 * 8] = b"\xff" * 32
    with pytest.raises(ValueError, match=r"field element 7 \(byte offset 224\)"):
        mulred.kzg_commit(mulred.KZGSetup(SETUP, cache=False), blob)
    with pytest.raises(ValueError, match=r"^bitcoin MuHash state: 10 bytes, expected 768"):
        mulred.MuHash.deserialize(bytes(10))


def test_truncated_snapshot_names_file_and_byte(tmp_path):
    bad = tmp_path / "bad.dat"
    bad.write_bytes(SNAPSHOT.read_bytes()[:-7])
    with pytest.raises(ValueError, match=r"bad\.dat: .*byte"):
        mulred.snapshot_muhash(bad, index=tmp_path / "bad.idx")


def test_empty_msm_is_value_error():
    # EIP-2537's bls_g1msm_empty_input: "invalid input length"; the same rule for base sets
    for curve in ("bls12-381", "bn254"):
        with pytest.raises(ValueError, match=r"^no pairs \(empty input\)$"):
            mulred.msm(curve, b"")
        with pytest.raises(ValueError, match=r"^points: no points \(empty input\)$"):
            mulred.Bases(curve, b"")


def test_save_raises_the_oserror_of_its_path(tmp_path):
    b = mulred.Bases("bn254", bytes.fromhex("%064x%064x" % (1, 2)))
    with pytest.raises(IsADirectoryError) as isdir:
        b.save(tmp_path)
    assert isdir.value.filename == tmp_path
    missing = tmp_path / "no" / "such" / "set.cache"
    with pytest.raises(FileNotFoundError) as notfound:
        b.save(missing)
    assert notfound.value.filename == missing
    assert not list(tmp_path.parent.glob(tmp_path.name + ".tmp.*"))  # no temporary file left
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(PermissionError) as denied:
            b.save(str(locked / "set.cache"))
        assert denied.value.filename == str(locked / "set.cache")


def test_bad_names_and_counts_are_value_errors():
    with pytest.raises(ValueError, match="curve must be 'bls12-381' or 'bn254'"):
        mulred.msm("secp256k1", bytes(96))
    with pytest.raises(ValueError, match="group must be 'g1' or 'g2'"):
        mulred.msm("bn254", bytes(96), group="g3")
    with pytest.raises(ValueError, match="flavor must be 'bitcoin' or 'kaspa'"):
        mulred.MuHash("ethereum")
    for n in (0, -1, 2**40 + 1):
        with pytest.raises(ValueError, match=r"n must be in 1\.\.2\^40"):
            mulred.synthetic_pairs("bn254", n)
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match=r"seed must be in 0\.\.2\^64-1"):
            mulred.synthetic_pairs("bn254", 1, seed=seed)


def threaded_calls(threads):
    """Every function that takes a thread count, with threads."""
    rec = mulred.synthetic_pairs("bn254", 2)
    return [
        lambda: mulred.msm("bn254", rec, threads=threads),
        lambda: mulred.synthetic_pairs("bn254", 2, threads=threads),
        lambda: mulred.snapshot_muhash(SNAPSHOT, threads=threads, index=None)
        if threads is not None else None,
        lambda: mulred.MuHash().insert_many([b"x"], threads=threads),
        lambda: mulred.MuHash().remove_many([b"x"], threads=threads),
        lambda: mulred.threads_resolve(threads),
    ]


def test_thread_counts_as_the_command_checks_them():
    # `mulred msm --threads` and `mulred muhash --threads` take 1..4096, nothing else
    for bad in (0, -1, 4097, 10**6):
        for call in threaded_calls(bad):
            with pytest.raises(ValueError, match=r"threads must be in 1\.\.4096, or None"):
                call()
    for good in (1, 3, 4096, None):
        for call in threaded_calls(good)[:2]:
            call()
    assert mulred.threads_resolve(7) == 7
    with pytest.raises(TypeError, match="threads must be an int or None"):
        mulred.msm("bn254", bytes(96), threads=2.0)  # type: ignore[arg-type]


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match="records: expected a bytes-like object, not str"):
        mulred.msm("bn254", "00" * 96)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="element: expected a bytes-like object, not int"):
        mulred.MuHash().insert(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a mulred.MuHash"):
        mulred.MuHash().combine(b"")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        mulred.kzg_commit(42, bytes(mulred.BLOB_BYTES))  # type: ignore[arg-type]


def test_numpy_layouts():
    np = pytest.importorskip("numpy")
    case = load_json("eip2537/msm_G1_bls.json")[0]
    raw = np.frombuffer(bytes.fromhex(case["Input"]), dtype=np.uint8)
    assert mulred.msm("bls12-381", raw).hex() == case["Expected"]  # C-contiguous
    assert mulred.msm("bls12-381", raw.reshape(10, 16)).hex() == case["Expected"]
    wide = np.zeros((160, 2), dtype=np.uint8)
    wide[:, 0] = raw
    with pytest.raises(BufferError, match="records: a numpy.ndarray that is not C-contiguous"):
        mulred.msm("bls12-381", wide[:, 0])  # strided
    with pytest.raises(BufferError, match="not C-contiguous"):
        mulred.msm("bls12-381", np.asfortranarray(raw.reshape(10, 16)))
    assert mulred.msm("bls12-381", np.ascontiguousarray(wide[:, 0])).hex() == case["Expected"]


def test_muhash_in_use_is_runtime_error():
    h = mulred.MuHash()
    elements = [b"%d" % i for i in range(200000)]
    seen: list[str] = []

    def reader():
        while not seen:
            try:
                h.digest()
            except RuntimeError as exc:
                seen.append(str(exc))

    t = threading.Thread(target=reader)
    t.start()
    while not seen:
        h.insert_many(elements[:20000], threads=1)
    t.join()
    assert seen[0] == "MuHash object in use by another thread"


def test_misuse_is_misuse_error():
    assert issubclass(mulred.MisuseError, RuntimeError)
    with pytest.raises(mulred.MisuseError, match="flavors must match"):
        mulred.MuHash("bitcoin").combine(mulred.MuHash("kaspa"))
    with pytest.raises(mulred.MisuseError, match=r"mulred misuse: .*window0 < window1"):
        mulred._mulred._misuse_probe()
    bases = mulred.Bases("bls12-381", bytes(128))  # the point at infinity
    bases.close()
    with pytest.raises(mulred.MisuseError, match="the base set is closed"):
        bases.msm(bytes(32))


def test_refused_cache_is_value_error(tmp_path):
    path = tmp_path / "set.cache"
    mulred.Bases("bls12-381", bytes(128)).save(path)
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(data)
    with pytest.raises(ValueError, match=str(path)):
        mulred.Bases.load(path)


LOW_MEMORY = r"""
import resource, mulred
records = mulred.synthetic_pairs("bn254", 200000, seed=3)
size = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize")) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + 8 * 2**20, resource.RLIM_INFINITY))
try:
    mulred.msm("bn254", records, threads=1)
    print("no error")
except RuntimeError as exc:
    print(type(exc).__name__, exc)
"""


def test_runtime_failure_is_runtime_error():
    # out of memory inside the library (an address space limit just above what the process
    # holds): RuntimeError, status 3 as the command's exit status
    pkg = pathlib.Path(mulred.__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(pkg), OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", LOW_MEMORY], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.stdout.strip() == "RuntimeError out of memory (status 3)", proc.stderr
