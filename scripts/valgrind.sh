#!/usr/bin/env bash
# The arithmetic, MuHash, field and curve unit suites under valgrind memcheck, on the paths
# valgrind can run: the GMP kernel and the MULX kernel (valgrind 3.19 has no AVX-512, so the
# IFMA kernel and the 16-lane keystream are not used under it; its virtual CPUID also hides
# ADX, hence the forcing).
. "$(dirname "$0")/common.sh"
install_packages "${MULRED_PACKAGES[@]}" valgrind
build_mulred
cd "$BUILD_DIR/tests"
# Runs SUITE:KERNEL: the arithmetic and MuHash suites on each kernel; the field and curve suites
# once (KERNEL -): their kernel tests run the MULX kernels forced, and the curve code above
# them is the same C on either kernel.
runs=()
for t in test_num3072 test_num3072_kernels test_hash test_muhash test_sources; do
    for kernel in gmp mulx; do runs+=("$t:$kernel"); done
done
runs+=("test_field:-" "test_curve:-")
# vg SUITE:KERNEL: one run; its log in SUITE.KERNEL.valgrind.log, its exit status beside it
vg() {
    local t=${1%:*} kernel=${1#*:} rc=0
    local log=$t.$kernel.valgrind.log
    local env=(MULRED_KERNEL_TEST_FORCE_MULX=1 MULRED_KERNEL_TEST_ITERS=2000)
    [ "$kernel" = - ] || env+=("MULRED_KERNEL=$kernel")
    rm -f "$log.rc"
    env "${env[@]}" valgrind --quiet --error-exitcode=9 --leak-check=full \
        --errors-for-leak-kinds=definite "./$t" >"$log" 2>&1 || rc=$?
    echo "$rc" >"$log.rc"
}
# One run per core at a time (valgrind runs a program's threads one at a time).
run_limited "$(nproc)" vg "${runs[@]}"
for r in "${runs[@]}"; do
    t=${r%:*} kernel=${r#*:}
    log=$t.$kernel.valgrind.log
    echo "== valgrind $t$([ "$kernel" = - ] || echo " (MULRED_KERNEL=$kernel)")"
    rc=$(cat "$log.rc" 2>/dev/null || echo "none: the run did not finish")
    # 77: the suite skipped what valgrind's CPU lacks (AVX-512, SHA-NI), as said above
    if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
        echo "exit status $rc"
        cat "$log"
        exit 1
    fi
    grep -E "asserts" "$log"
done
