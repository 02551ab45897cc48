#!/usr/bin/env bash
# The 8-lane field kernels, and the curve, MSM and KZG code over them, on a CPU without AVX-512
# IFMA: a build whose AVX-512 intrinsics are plain C (src/util/avx512.h, -DMULRED_AVX512_EMULATE)
# runs their suites, so the vector paths are tested against GMP on every machine CI lands on.
# Where the CPU has AVX-512 IFMA the README's test command already runs them natively, and this
# script does nothing unless EMULATE_ALWAYS=1.
. "$(dirname "$0")/common.sh"
if grep -qw avx512ifma /proc/cpuinfo && [ "${EMULATE_ALWAYS:-0}" != 1 ]; then
    echo "==> this CPU has AVX-512 IFMA: the 8-lane kernels ran natively in the test command"
    exit 0
fi
install_packages "${MULRED_PACKAGES[@]}" "${MULRED_TEST_PACKAGES[@]}"
BUILD_DIR=${EMULATE_BUILD_DIR:-$MULRED_ROOT/build-emulate}
SUITES=(test_field_x8 test_curve test_g2 test_msm test_msm_g2 test_msm_grid test_bases test_kzg)
MULRED_BUILD_TARGETS="${SUITES[*]}" build_mulred -DCMAKE_BUILD_TYPE=Release -DMULRED_AVX512_EMULATE=ON
cd "$BUILD_DIR"
regex=$(IFS='|'; echo "${SUITES[*]}")
ctest --output-on-failure -j "$(nproc)" -R "^unit\.($regex)(\.x8)?\$" "$@"
