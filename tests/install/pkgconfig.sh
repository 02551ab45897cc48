# cmake --install gives a usable library: a program built against the installed headers with
# `pkg-config --static --cflags --libs mulred` computes the empty set's digest of the vectors.
. "$(dirname "$0")/../lib.sh"
build_dir=$(dirname "$MULRED")
cmake --install "$build_dir" --prefix "$TEST_TMP/prefix" >/dev/null
[ -x "$TEST_TMP/prefix/bin/mulred" ] && pass || fail "mulred not installed"
export PKG_CONFIG_PATH=$TEST_TMP/prefix/lib/pkgconfig
cat > "$TEST_TMP/use.c" <<'C'
#include <stdio.h>
#include <mulred/muhash.h>
int main(void)
{
    mulred_muhash_state s;
    uint8_t digest[32];
    char hex[65];
    mulred_muhash_init(&s, MULRED_MUHASH_BITCOIN);
    mulred_muhash_finalize(digest, &s);
    mulred_muhash_display(hex, digest, s.flavor);
    puts(hex);
    return 0;
}
C
# shellcheck disable=SC2046
expect_status 0 cc "$TEST_TMP/use.c" -o "$TEST_TMP/use" $(pkg-config --static --cflags --libs mulred)
want=$(grep -A4 '"empty set"' "$MULRED_VECTORS/bitcoin/muhash.json" | sed -n 's/.*"display": *"\([0-9a-f]*\)".*/\1/p')
expect_equal "$("$TEST_TMP/use")" "$want" "installed library: the empty set's digest"
finish
