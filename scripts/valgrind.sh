#!/usr/bin/env bash
# The arithmetic, MuHash, field and curve unit suites under valgrind memcheck, on the paths
# valgrind can run: the GMP kernel and the MULX kernel (valgrind 3.19 has no AVX-512, so the
# IFMA kernel and the 16-lane keystream are not used under it; its virtual CPUID also hides
# ADX, hence the forcing).
. "$(dirname "$0")/common.sh"
install_packages "${MULRED_PACKAGES[@]}" valgrind
build_mulred
cd "$BUILD_DIR/tests"
for t in test_num3072 test_num3072_kernels test_hash test_muhash test_sources; do
    for kernel in gmp mulx; do
        echo "== valgrind $t (MULRED_KERNEL=$kernel)"
        MULRED_KERNEL=$kernel MULRED_KERNEL_TEST_FORCE_MULX=1 MULRED_KERNEL_TEST_ITERS=2000 \
            valgrind --quiet --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
            "./$t" >"$t.$kernel.valgrind.log" 2>&1 || { cat "$t.$kernel.valgrind.log"; exit 1; }
        grep -E "asserts" "$t.$kernel.valgrind.log"
    done
done
# The field and curve suites once: their kernel tests run the MULX kernels forced; the curve
# code above them is the same C on either kernel.
for t in test_field test_curve; do
    echo "== valgrind $t"
    MULRED_KERNEL_TEST_FORCE_MULX=1 MULRED_KERNEL_TEST_ITERS=2000 \
        valgrind --quiet --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
        "./$t" >"$t.valgrind.log" 2>&1 || { cat "$t.valgrind.log"; exit 1; }
    grep -E "asserts" "$t.valgrind.log"
done
