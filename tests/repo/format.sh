# The C sources follow the checked-in .clang-format: clang-format (Debian's clang-format package,
# scripts/common.sh installs it) finds nothing to change in any tracked .c or .h file. Exits 77
# (Skipped) where clang-format is not installed.
. "$(dirname "$0")/../lib.sh"
: "${MULRED_SOURCE_DIR:?set by CTest}"
cd "$MULRED_SOURCE_DIR"
if ! command -v clang-format >/dev/null; then
    echo "clang-format is not installed: the format is not checked"
    exit 77
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files '*.c' '*.h')
else # an exported tree without .git
    files=$(find . -path ./build -prune -o \( -name '*.c' -o -name '*.h' \) -print)
fi
# one run over every file: each place it would change prints as "FILE:LINE:COL: warning: ..."
bad=$(printf '%s\n' $files | xargs -P 2 -n 64 clang-format --dry-run 2>&1 |
      sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: .*/\1/p' | sort -u)
expect_equal "$bad" "" "files clang-format would change (clang-format -i FILE)"
finish
