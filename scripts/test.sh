#!/usr/bin/env bash
# The README's second command: install, build and run the whole test suite through CTest.
. "$(dirname "$0")/common.sh"
install_packages "${MULRED_PACKAGES[@]}" "${MULRED_TEST_PACKAGES[@]}"
# the Python module and its tests too (docs/python.md); an existing build dir is reconfigured
# with it on
build_mulred -DMULRED_PYTHON=ON
[ -f "$BUILD_DIR/python/mulred/__init__.py" ] ||
    { cmake -S "$MULRED_ROOT" -B "$BUILD_DIR" -DMULRED_PYTHON=ON && build_mulred; }
cd "$BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" "$@"
