#!/usr/bin/env bash
# The README's second command: install, build and run the whole test suite through CTest.
. "$(dirname "$0")/common.sh"
install_packages "${MULRED_PACKAGES[@]}" "${MULRED_TEST_PACKAGES[@]}"
build_mulred
cd "$BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" "$@"
