# The repository stands on its own: no tracked file outside tests/vectors/README.md names the
# development checkout's shared folder (a user who clones mulred does not have it), and the
# vectors the tests read are in the repository.
. "$(dirname "$0")/../lib.sh"
: "${MULRED_SOURCE_DIR:?set by CTest}"
cd "$MULRED_SOURCE_DIR"
pattern='\.\./''shared'   # split so that this file does not match itself
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    hits=$(git grep -n -I -e "$pattern" -- . ':(exclude)tests/vectors/README.md' || true)
else # an exported tree without .git: every file but the build folders
    hits=$(grep -rnI -e "$pattern" --exclude-dir='build*' --exclude-dir=.git . |
           grep -v '^\./tests/vectors/README\.md:' || true)
fi
expect_equal "$hits" "" "tracked files naming the shared folder"
for f in bitcoin/muhash.json kaspa/muhash.json bitcoin/regtest-small.dat bitcoin/regtest-medium.dat \
         bitcoin/dump-27_0.dat bitcoin/dump-28_0.dat kzg/trusted_setup.txt; do
    [ -s "tests/vectors/$f" ] && pass || fail "tests/vectors/$f missing"
done
expect_equal "$(cd "$MULRED_VECTORS" && pwd -P)" "$(cd tests/vectors && pwd -P)" \
    "CTest points the tests at the repository's vectors"
finish
