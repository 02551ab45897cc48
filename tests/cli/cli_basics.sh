# The command's contract: help, version, usage errors and exit statuses.
. "$(dirname "$0")/../lib.sh"

expect_status 0 "$MULRED" --help
expect_contains "$out" "Commands:" "mulred --help"
expect_contains "$out" "version" "mulred --help lists commands"
expect_status 0 "$MULRED" --version
expect_contains "$out" "mulred " "mulred --version"
# Built from a git checkout, the binary names the commit it was built from (refreshed at every
# build, not only at configure time).
if [ -d "${MULRED_SOURCE_DIR:-}/.git" ] && command -v git >/dev/null; then
    head=$(git -C "$MULRED_SOURCE_DIR" rev-parse --short=12 HEAD)
    expect_contains "$(printf '%s\n' "$out" | head -1)" "(git $head" "mulred --version names HEAD"
fi
expect_status 1 "$MULRED"
expect_status 1 "$MULRED" --no-such-option
expect_contains "$err" "Try 'mulred --help'" "usage hint"
expect_status 1 "$MULRED" no-such-command
expect_status 1 "$MULRED" version --bogus
expect_status 0 "$MULRED" version --help
expect_contains "$out" "Usage: mulred version" "subcommand help"

# Only rank 0 prints, also for commands that do not initialize MPI.
expect_status 0 mpi 2 "$MULRED" --version
expect_equal "$(printf '%s\n' "$out" | grep -c '^mulred ')" 1 "one version line under 2 ranks"
finish
