#!/usr/bin/env bash
# The unit suites, the command's script tests and the bad-input corpus built with
# AddressSanitizer and UndefinedBehaviorSanitizer. Open MPI's own allocations are not mulred's
# leaks: LeakSanitizer is told to ignore its libraries.
. "$(dirname "$0")/common.sh"
install_packages "${MULRED_PACKAGES[@]}" "${MULRED_TEST_PACKAGES[@]}"
BUILD_DIR=${SANITIZE_BUILD_DIR:-$MULRED_ROOT/build-sanitize}
build_mulred -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMULRED_SANITIZE=ON -DMULRED_VERIFY=ON
export ASAN_OPTIONS=${ASAN_OPTIONS:-fast_unwind_on_malloc=0:abort_on_error=0}
export LSAN_OPTIONS=suppressions=$MULRED_ROOT/tests/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# the option matrix and the bad-input corpus whole (the README's test command runs samples)
export MULRED_MATRIX=${MULRED_MATRIX:-full} MULRED_CORPUS=${MULRED_CORPUS:-full}
cd "$BUILD_DIR"
# Not here: the benchmarks' smoke tests (figures and table shapes, nothing a sanitizer adds to)
# and cli.job_keys (the command line and job files give each value the same verdict: the parser
# it runs is the option matrix's, which runs whole here).
ctest --output-on-failure -j "$(nproc)" -L "${SANITIZE_LABELS:-unit|cli|corpus}" \
    -LE "${SANITIZE_EXCLUDE_LABELS:-smoke}" -E "${SANITIZE_EXCLUDE:-^cli\.job_keys\$}" "$@"
