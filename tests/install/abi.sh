# The ABI of the shared libraries: the functions libmulred.so and libmulred_mpi.so export
# (nm -D --defined-only) are exactly the functions declared in the installed headers
# (include/mulred/*.h, declarations `mulred_NAME(`), no function is exported by both, and
# libmulred.so needs nothing from MPI.
. "$(dirname "$0")/../lib.sh"
build_dir=$(dirname "$MULRED")
src=${MULRED_SOURCE_DIR:?set by CTest}
core=$build_dir/libmulred.so
mpilib=$build_dir/libmulred_mpi.so
[ -f "$core" ] && [ -f "$mpilib" ] && pass || fail "shared libraries not built"
exported() { nm -D --defined-only "$1" | awk '$2 ~ /^[TtWwDdBbRr]$/ {print $3}' | sed 's/@.*//' | sort -u; }
exported "$core" > "$TEST_TMP/core"
exported "$mpilib" > "$TEST_TMP/mpi"
sort -u "$TEST_TMP/core" "$TEST_TMP/mpi" > "$TEST_TMP/exported"
# declarations: mulred_NAME( at the start of a declaration, outside comments; static inline
# functions in headers are not exported
sed 's://.*$::' "$src"/include/mulred/*.h | perl -0pe 's:/\*.*?\*/::gs' |
    grep -v 'static inline' | sed 's/[[:space:]]*(\*/_FNPTR_/g' | grep -oE '\bmulred_[a-z0-9_]*[[:space:]]*\(' |
    sed 's/[[:space:]]*($//' | sort -u > "$TEST_TMP/declared"
# names used only as macro arguments or in typedefs of function pointers are not declarations:
# keep those that some header declares with MULRED_API
grep -ho 'MULRED_API[^;]*' "$src"/include/mulred/*.h | grep -oE '\bmulred_[a-z0-9_]*[[:space:]]*\(' |
    sed 's/[[:space:]]*($//' | sort -u > "$TEST_TMP/api"
extra=$(comm -23 "$TEST_TMP/exported" "$TEST_TMP/declared")
missing=$(comm -13 "$TEST_TMP/exported" "$TEST_TMP/declared")
unmarked=$(comm -23 "$TEST_TMP/declared" "$TEST_TMP/api")
both=$(comm -12 "$TEST_TMP/core" "$TEST_TMP/mpi")
[ -z "$extra" ] && pass || fail "exported but not declared: $(echo $extra)"
[ -z "$missing" ] && pass || fail "declared but not exported: $(echo $missing)"
[ -z "$unmarked" ] && pass || fail "declared without MULRED_API: $(echo $unmarked)"
[ -z "$both" ] && pass || fail "exported by both libraries: $(echo $both)"
if grep -q 'MPI_' <<<"$(nm -D --undefined-only "$core")"; then fail "libmulred.so needs MPI"; else pass; fi
case "$(readelf -d "$core")" in *libmpi*) fail "libmulred.so links libmpi" ;; *) pass ;; esac
# libmulred_mpi needs of libmulred only what it exports
need=$(nm -D --undefined-only "$mpilib" | awk '{print $2}' | sed 's/@.*//' | grep '^mulred_' | sort -u)
bad=$(comm -23 <(printf '%s\n' $need) "$TEST_TMP/core")
[ -z "$bad" ] && pass || fail "libmulred_mpi.so needs unexported symbols: $(echo $bad)"
expect_contains "$(readelf -d "$core")" "libmulred.so.0" "SONAME"
echo "exported: $(wc -l < "$TEST_TMP/core") (libmulred), $(wc -l < "$TEST_TMP/mpi") (libmulred_mpi)"
finish
