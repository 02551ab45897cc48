#!/usr/bin/env bash
# CTest python.venv (label python-install): the checkout installed with pip, as docs/python.md
# says, into a fresh venv made with --system-site-packages (Debian's mpi4py, numpy, pytest), and
# the Python suite run against the installed package only (from outside the checkout, with no
# PYTHONPATH); then `python3 -m build --no-isolation` makes an sdist and a wheel that carries the
# libraries. MULRED_CMAKE_BUILD_DIR points both builds at this build's libraries (setup.py), so
# nothing is compiled twice. pip and build run on a copy of the sdist's files (MANIFEST.in) in the
# test's folder: nothing is written into the checkout, which may be read-only (checked).
. "$MULRED_SOURCE_DIR/tests/lib.sh"
src=$MULRED_SOURCE_DIR
py=${MULRED_PYTHON:-/usr/bin/python3}
export MULRED_CMAKE_BUILD_DIR=$(dirname "$MULRED") CMAKE_BUILD_PARALLEL_LEVEL=2
export PYTHONDONTWRITEBYTECODE=1 PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
unset PYTHONPATH
want_version=$(sed -n 's/^project(mulred VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")

touch "$TEST_TMP/start"
copy=$TEST_TMP/src
mkdir -p "$copy/docs"
for f in CMakeLists.txt LICENSE README.md CHANGELOG.md MANIFEST.in pyproject.toml setup.py \
         cmake src include bench jobs slurm python; do
    cp -R "$src/$f" "$copy/"
done
cp "$src/docs/python.md" "$copy/docs/"

venv=$TEST_TMP/venv
expect_status 0 "$py" -m venv --system-site-packages "$venv"
expect_status 0 "$venv/bin/python" -m pip install --no-build-isolation --no-deps "$copy"
[ "$failures" = 0 ] || { finish; exit 1; }

cd "$TEST_TMP"
expect_status 0 "$venv/bin/python" -c '
import importlib.metadata, inspect, mulred, mulred._mulred, mulred.mpi
print(importlib.metadata.version("mulred"), mulred.__version__, mulred.__file__, mulred._mulred.__file__)
print(inspect.signature(mulred.msm))'
expect_contains "$out" "$want_version $want_version $venv/lib/" "the installed package, its metadata and the library agree on the version"
expect_contains "$out" "(curve, records, *, group='g1', threads=None)" "text signature"
site=$("$venv/bin/python" -c 'import mulred, os; print(os.path.dirname(mulred.__file__))')
for f in py.typed __init__.pyi mpi.pyi libmulred.so.0 libmulred_mpi.so.0; do
    [ -f "$site/$f" ] && pass || fail "$f not installed in $site"
done
lib=$(ldd "$site"/_mulred.cpython-*.so | awk '/libmulred\.so\.0/ {print $3}')
expect_equal "$lib" "$site/libmulred.so.0" "the extension loads the package's libmulred"

# the suite against the installed package: pytest puts only python/tests on sys.path
expect_status 0 env MULRED_CLI="$MULRED" MULRED_VECTORS="$MULRED_VECTORS" OMP_NUM_THREADS=2 \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --ignore="$src/python/tests/test_mpi.py" \
    "$src/python/tests"
expect_contains "$out" " passed" "python tests against the installed package"
case "$out" in *failed*) fail "python tests: $out" ;; *) pass ;; esac
expect_status 0 env MULRED_CLI="$MULRED" MULRED_VECTORS="$MULRED_VECTORS" OMP_NUM_THREADS=1 \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" 2 --oversubscribe --bind-to none \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider "$src/python/tests/test_mpi.py"
expect_contains "$out" " passed" "mulred.mpi tests against the installed package"
expect_status 0 env MULRED_VECTORS="$MULRED_VECTORS" "$venv/bin/python" "$src/examples/mulred_python.py"
expect_contains "$out" "muhash 10d312b100cbd32ada024a6646e40d3482fcff103668d2625f10002a607d5863" "example"

# python3 -m build: an sdist and a wheel (Debian's python3-build)
if "$py" -c 'import build' 2>/dev/null; then
    expect_status 0 "$py" -m build --no-isolation --outdir "$TEST_TMP/dist" "$copy"
    wheel=$(ls "$TEST_TMP"/dist/mulred-"$want_version"-*.whl 2>/dev/null | head -n 1)
    [ -f "$TEST_TMP/dist/mulred-$want_version.tar.gz" ] && pass || fail "no sdist: $(ls "$TEST_TMP/dist")"
    if [ -n "$wheel" ]; then
        files=$("$py" -m zipfile -l "$wheel")
        for f in mulred/libmulred.so.0 mulred/py.typed mulred/__init__.pyi mulred/_mulred.cpython; do
            expect_contains "$files" "$f" "the wheel"
        done
    else
        fail "no wheel: $(ls "$TEST_TMP/dist")"
    fi
else
    echo "python3-build is not installed: sdist and wheel not checked"
fi
# nothing written into the checkout by pip or build: no build/pip, build/lib.*, build/bdist.*,
# dist or *.egg-info there made during the test (the checkout's other files may change meanwhile)
written=$(find "$src" "$src/build" -maxdepth 2 \( -path "$src/build/pip" -o -path "$src/build/lib.*" \
    -o -path "$src/build/bdist.*" -o -path "$src/build/temp.*" -o -path "$src/dist" \
    -o -name '*.egg-info' \) -newer "$TEST_TMP/start" -print 2>/dev/null | sort -u | head -n 5)
expect_equal "$written" "" "files written into the checkout"
finish
