"""The Python cells of the error contract in docs/cli.md ("Errors: one contract"), read from the
table itself (tests/tools/contract_table.py), so the table and the module cannot drift apart:
each fault is made (an empty file, a missing one, a directory, an unreadable copy of a valid
file, a valid file cut in the middle of a record, a file of another kind; a save into a missing
folder, onto a directory, onto a full file system) and the call must raise the cell's
exception, naming the file."""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

import mulred
from conftest import ROOT, VECTORS

spec = importlib.util.spec_from_file_location("contract_table",
                                              ROOT / "tests" / "tools" / "contract_table.py")
assert spec is not None and spec.loader is not None
contract_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(contract_table)

DOC = (ROOT / "docs" / "cli.md").read_text()
CELLS = [c for c in contract_table.cells(DOC) if c[2].startswith("mulred.")]
G1_BN254 = (1).to_bytes(32, "big") + (2).to_bytes(32, "big")  # EIP-196's generator (1, 2)
FOREIGN = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 2


def valid_file(kind, tmp_path):
    """A valid file of the input kind of a reading row."""
    path = tmp_path / f"valid-{kind.replace(' ', '-')}"
    if kind == "snapshot":
        shutil.copy(VECTORS / "bitcoin" / "regtest-small.dat", path)
    elif kind == "points":
        path.write_bytes(G1_BN254 * 2)
    elif kind == "saved set":
        with mulred.Bases("bn254", G1_BN254 * 2) as b:
            b.save(str(path))
    elif kind == "setup":
        shutil.copy(VECTORS / "kzg" / "trusted_setup.txt", path)
    else:
        raise AssertionError(f"no valid file for {kind!r}")
    return path


def call_source(call, path):
    """The row's call with F as path (and P as a one-point set) as Python source."""
    return re.sub(r"\bF\b", repr(str(path)).replace("\\", "\\\\"), call).replace(", P)", ", G1_BN254)")


def call_of(call, path):
    """The row's call with F as path: a function of no arguments."""
    src = call_source(call, path)
    return lambda: eval(src, {"mulred": mulred, "G1_BN254": G1_BN254})


def test_the_table_has_python_cells():
    calls = {c[2] for c in CELLS}
    assert len(calls) >= 5 and len(CELLS) >= 27, calls


@pytest.mark.parametrize("table,kind,call,fault,want", CELLS,
                         ids=[f"{c[2]}[{c[3]}]" for c in CELLS])
def test_cell(table, kind, call, fault, want, tmp_path):
    f = tmp_path / "input"
    if table == "writing":
        if fault == "missing folder":
            f = tmp_path / "no-such-folder" / "out"
        elif fault == "directory":
            f.mkdir()
        else:  # a full file system: a 1 MiB tmpfs, filled
            if os.geteuid() != 0:
                pytest.skip("a full file system needs root (a tmpfs mount)")
            mnt = tmp_path / "full"
            mnt.mkdir()
            if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1M", "tmpfs", str(mnt)]).returncode:
                pytest.skip("no tmpfs mount here")
            try:
                subprocess.run(["dd", "if=/dev/zero", f"of={mnt}/filler", "bs=64k"],
                               capture_output=True)
                f = mnt / "out"
                with pytest.raises(eval(want)) as exc:
                    call_of(call, f)()
                assert str(f) in str(exc.value)
                assert sorted(os.listdir(mnt)) == ["filler"]  # nothing left beside it
            finally:
                subprocess.run(["umount", str(mnt)])
            return
        with pytest.raises(eval(want)) as exc:
            call_of(call, f)()
        assert str(f) in str(exc.value)
        assert not f.is_file()
        return
    if fault == "empty":
        f.write_bytes(b"")
    elif fault == "directory":
        f.mkdir()
    elif fault == "truncated":
        data = valid_file(kind, tmp_path).read_bytes()
        f.write_bytes(data[:len(data) // 2 - 1])
    elif fault == "foreign":
        f.write_bytes(FOREIGN)
    elif fault == "unreadable":
        shutil.copy(valid_file(kind, tmp_path), f)
        f.chmod(0)
        if os.geteuid() == 0:  # root reads any file: the call runs as nobody
            return unreadable_as_nobody(call, f, want)
    with pytest.raises(eval(want)) as exc:
        call_of(call, f)()
    assert str(f) in str(exc.value), exc.value


def unreadable_as_nobody(call, f, want):
    """The call run by user nobody (root reads any file) on a copy of f in a folder under /tmp
    that nobody may enter, with its own copy of the mulred package (the build tree or the venv
    may sit where nobody cannot reach it: a checkout under a mode-0700 folder); the child prints
    the exception's name and message."""
    if not shutil.which("setpriv"):
        pytest.skip("setpriv is needed to run as another user than root")
    d = tempfile.mkdtemp(prefix="mulred-contract.", dir="/tmp")
    try:
        os.chmod(d, 0o755)
        g = os.path.join(d, "input")
        shutil.copy(f, g)
        os.chmod(g, 0)
        pkg = os.path.join(d, "mulred")
        shutil.copytree(os.path.dirname(mulred.__file__), pkg, symlinks=True)
        # and the libraries this process loaded the package with, under their sonames (an
        # extension built in the tree finds them through a run path into the build tree)
        with open("/proc/self/maps") as maps:
            libs = {line.split()[-1] for line in maps if "/libmulred" in line}
        for lib in libs:
            shutil.copy(lib, os.path.join(pkg, re.sub(r"(\.so\.\d+).*", r"\1",
                                                      os.path.basename(lib))))
        script = (f"import mulred\nG1_BN254 = {G1_BN254!r}\n"
                  f"try:\n    {call_source(call, g)}\n    print('no exception')\n"
                  f"except Exception as e:\n    print(type(e).__name__, '|', e)\n")
        proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               os.path.realpath(sys.executable), "-c", script],
                              capture_output=True, text=True,
                              cwd="/", env=dict(os.environ, PYTHONPATH=d, LD_LIBRARY_PATH=pkg))
        name, _, message = proc.stdout.strip().partition(" | ")
        assert name == want, proc.stdout + proc.stderr
        assert g in message
    finally:
        shutil.rmtree(d)
