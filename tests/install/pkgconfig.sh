# The installed libraries, used the three ways a program can: cmake --install into a fresh prefix
# (the build's libdir: lib, or lib/x86_64-linux-gnu when configured with it), then examples/muhash_file.c and
# examples/mpi_snapshot_muhash.c built against it with `pkg-config --cflags --libs` (shared),
# with `pkg-config --static` (the archives alone: a libdir view holding only the .a files) and
# by a CMake project through find_package(mulred CONFIG REQUIRED); each run checks its digest
# against the published value (Bitcoin Core's vector, the snapshot's known MuHash); the shared
# programs also with -Wl,-rpath,LIBDIR in place of LD_LIBRARY_PATH. With the Python module
# (-DMULRED_PYTHON=ON) the install's package is imported, and the python component is installed
# alone into a prefix of its own and imported from there.
. "$(dirname "$0")/../lib.sh"
build_dir=$(dirname "$MULRED")
src=${MULRED_SOURCE_DIR:?set by CTest}
prefix=$TEST_TMP/prefix
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
[ -x "$prefix/bin/mulred" ] && pass || fail "mulred not installed"
[ -f "$libdir/libmulred.so.0" ] && [ -f "$libdir/libmulred.a" ] && pass || fail "libraries not in $libdir"
export PKG_CONFIG_PATH=$libdir/pkgconfig
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# the snapshot's sidecar index goes here, not beside the vector in the source tree
export MULRED_UTXO_INDEX_DIR=$TEST_TMP/index
mkdir -p "$MULRED_UTXO_INDEX_DIR"
want_muhash="muhash 10d312b100cbd32ada024a6646e40d3482fcff103668d2625f10002a607d5863 (2 inserted, 1 removed)"
want_snapshot="6c543f508c9ceba0441ea8b53b1d3443ab6bc810b46ac904096b3a1f8cef03a4"
snapshot_def=-DMULRED_EXAMPLE_SNAPSHOT=\"$MULRED_VECTORS/bitcoin/regtest-small.dat\"

# check_pair WAY MUHASH_BIN SNAPSHOT_BIN [ENV...]: runs both programs, compares the digests
check_pair() {
    local way=$1 a=$2 b=$3; shift 3
    expect_status 0 env "$@" "$a"
    expect_contains "$out" "$want_muhash" "$way: muhash_file"
    expect_status 0 env "$@" "$MPIEXEC" -n 2 --oversubscribe --bind-to none "$b"
    expect_contains "$out" "$want_snapshot" "$way: mpi_snapshot_muhash"
}

# 1. shared, plain pkg-config
cflags=$(pkg-config --cflags mulred-mpi)
# shellcheck disable=SC2046,SC2086
expect_status 0 cc -std=c11 -D_POSIX_C_SOURCE=200809L "$src/examples/muhash_file.c" -o "$TEST_TMP/muhash_dyn" $(pkg-config --cflags --libs mulred)
# shellcheck disable=SC2046,SC2086
expect_status 0 cc -std=c11 -D_POSIX_C_SOURCE=200809L "$snapshot_def" "$src/examples/mpi_snapshot_muhash.c" -o "$TEST_TMP/snap_dyn" $(pkg-config --cflags --libs mulred-mpi)
expect_contains "$(readelf -d "$TEST_TMP/muhash_dyn")" "libmulred.so.0" "dynamic: linked to the shared library"
case "$(readelf -d "$TEST_TMP/muhash_dyn")" in *libmpi*) fail "a MuHash-only program needs libmpi" ;; *) pass ;; esac
check_pair "pkg-config" "$TEST_TMP/muhash_dyn" "$TEST_TMP/snap_dyn" LD_LIBRARY_PATH="$libdir"

# 1b. shared, pkg-config plus the libdir as the program's run path (-Wl,-rpath: a RUNPATH with
# the linker's default new dtags, which the libraries the program loads do not inherit), no
# LD_LIBRARY_PATH: libmulred_mpi.so.0 finds libmulred.so.0 by its own run path
# shellcheck disable=SC2046,SC2086
expect_status 0 cc -std=c11 -D_POSIX_C_SOURCE=200809L "$src/examples/muhash_file.c" -o "$TEST_TMP/muhash_rpath" $(pkg-config --cflags --libs mulred) -Wl,-rpath,"$libdir"
# shellcheck disable=SC2046,SC2086
expect_status 0 cc -std=c11 -D_POSIX_C_SOURCE=200809L "$snapshot_def" "$src/examples/mpi_snapshot_muhash.c" -o "$TEST_TMP/snap_rpath" $(pkg-config --cflags --libs mulred-mpi) -Wl,-rpath,"$libdir"
expect_contains "$(readelf -d "$libdir/libmulred_mpi.so.0")" "[\$ORIGIN]" "libmulred_mpi.so.0's run path"
# the library by itself (as a program that calls only libmulred_mpi's functions, or one linked
# with --as-needed, loads it): its libmulred.so.0 is the one beside it
deps=$(env -u LD_LIBRARY_PATH ldd "$libdir/libmulred_mpi.so.0")
expect_contains "$deps" "libmulred.so.0 => $libdir/libmulred.so.0" "libmulred_mpi.so.0 finds libmulred.so.0 by itself"
check_pair "pkg-config -Wl,-rpath" "$TEST_TMP/muhash_rpath" "$TEST_TMP/snap_rpath" -u LD_LIBRARY_PATH

# 2. static, pkg-config --static, against a view of the libdir with the archives only
mkdir -p "$TEST_TMP/static-lib"
ln -sf "$libdir"/libmulred.a "$libdir"/libmulred_mpi.a "$TEST_TMP/static-lib/"
pcs=(--define-variable=libdir="$TEST_TMP/static-lib" --static)
# shellcheck disable=SC2046,SC2086
expect_status 0 cc -std=c11 -D_POSIX_C_SOURCE=200809L "$src/examples/muhash_file.c" -o "$TEST_TMP/muhash_static" $(pkg-config "${pcs[@]}" --cflags --libs mulred)
# shellcheck disable=SC2046,SC2086
expect_status 0 cc -std=c11 -D_POSIX_C_SOURCE=200809L "$snapshot_def" "$src/examples/mpi_snapshot_muhash.c" -o "$TEST_TMP/snap_static" $(pkg-config "${pcs[@]}" --cflags --libs mulred-mpi)
case "$(readelf -d "$TEST_TMP/muhash_static" "$TEST_TMP/snap_static")" in
*libmulred*) fail "static: a program still needs a shared libmulred" ;; *) pass ;; esac
check_pair "pkg-config --static" "$TEST_TMP/muhash_static" "$TEST_TMP/snap_static"

# 3. CMake: find_package(mulred CONFIG REQUIRED)
mkdir -p "$TEST_TMP/proj"
cat > "$TEST_TMP/proj/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(use_mulred C)
find_package(mulred 0.2 CONFIG REQUIRED)
add_executable(muhash_file "$src/examples/muhash_file.c")
target_link_libraries(muhash_file PRIVATE mulred::mulred)
add_executable(mpi_snapshot_muhash "$src/examples/mpi_snapshot_muhash.c")
target_compile_definitions(mpi_snapshot_muhash PRIVATE
  MULRED_EXAMPLE_SNAPSHOT="$MULRED_VECTORS/bitcoin/regtest-small.dat")
target_link_libraries(mpi_snapshot_muhash PRIVATE mulred::mpi)
CMAKE
expect_status 0 cmake -S "$TEST_TMP/proj" -B "$TEST_TMP/proj/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
expect_status 0 cmake --build "$TEST_TMP/proj/build"
# CMake gives the programs an RPATH to the prefix's libdir: no LD_LIBRARY_PATH
check_pair "find_package" "$TEST_TMP/proj/build/muhash_file" "$TEST_TMP/proj/build/mpi_snapshot_muhash"

# 4. the Python module from the install (when the build has it, -DMULRED_PYTHON=ON): imported
# from the prefix, not the build tree, and its extension finds the prefix's libmulred.so.0
pydir=$(sed -n 's/^MULRED_PYTHON_INSTALL_DIR:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
if [ -n "$pydir" ]; then
    expect_status 0 env PYTHONPATH="$prefix/$pydir" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -c '
import mulred, mulred._mulred as ext
h = mulred.MuHash("bitcoin")
h.insert(bytes(32)); h.insert(bytes([1]) + bytes(31)); h.remove(bytes([2]) + bytes(31))
print(h.digest().hex(), mulred.__file__, ext.__file__)'
    expect_contains "$out" "${want_muhash:7:64} $prefix/" "python: the installed module gives the vector"
    ext=$(find "$prefix/$pydir/mulred" -name '_mulred.*.so' | head -n 1)
    lib=$(env -u LD_LIBRARY_PATH ldd "$ext" | awk '/libmulred\.so\.0/ {print $3}')
    expect_equal "$(readlink -f "$lib")" "$(readlink -f "$libdir/libmulred.so.0")" \
        "python: the installed extension loads the installed library"
fi
# 5. the python component alone (docs/python.md's command) into a prefix of its own: importable,
# its extensions load the libraries the component brought (not the build's, not the first
# prefix's), and mulred.mpi's extension loads libmulred_mpi.so.0 and, through it, libmulred.so.0
if [ -n "$pydir" ]; then
    pyprefix=$TEST_TMP/python-only
    expect_status 0 cmake --install "$build_dir" --prefix "$pyprefix" --component python
    pylib=$pyprefix/${libdir#"$prefix"/}
    expect_status 0 env -u LD_LIBRARY_PATH PYTHONPATH="$pyprefix/$pydir" PYTHONDONTWRITEBYTECODE=1 \
        /usr/bin/python3 -c '
import mulred
h = mulred.MuHash("bitcoin")
h.insert(bytes(32)); h.insert(bytes([1]) + bytes(31)); h.remove(bytes([2]) + bytes(31))
print(h.digest().hex(), mulred.__file__)'
    expect_contains "$out" "${want_muhash:7:64} $pyprefix/" "python component alone: the module gives the vector"
    for ext in "$pyprefix/$pydir"/mulred/_mulred*.so; do
        libs=$(env -u LD_LIBRARY_PATH ldd "$ext")
        case $libs in *"not found"*) fail "python component alone: $ext: $libs" ;; *) pass ;; esac
        for l in $(awk '/libmulred/ {print $3}' <<<"$libs"); do
            expect_equal "$(dirname "$(readlink -f "$l")")" "$(readlink -f "$pylib")" \
                "python component alone: $(basename "$ext") loads $(basename "$l") from the prefix"
        done
    done
    if [ -e "$pyprefix/$pydir/mulred/mpi.py" ]; then
        expect_status 0 env -u LD_LIBRARY_PATH PYTHONPATH="$pyprefix/$pydir" PYTHONDONTWRITEBYTECODE=1 \
            /usr/bin/python3 -c 'import mulred.mpi, mulred._mulred_mpi as m; print(m.__file__)'
        expect_contains "$out" "$pyprefix/" "python component alone: mulred.mpi imports"
    fi
fi
[ ! -e "$MULRED_VECTORS/bitcoin/regtest-small.dat.idx" ] && pass ||
    fail "an index was written beside the vector ($MULRED_VECTORS/bitcoin/regtest-small.dat.idx)"
finish
