# docs/install.md followed literally on a build directory that scripts/demo.sh's configuration
# (scripts/common.sh's build_mulred) made first: the same commands give the documented layout
# whatever configured the directory before. Then a program is built against the install the two
# documented ways (pkg-config with PKG_CONFIG_PATH=PREFIX/lib/pkgconfig, and a CMake project
# with find_package) and checked against Bitcoin Core's MuHash vector. The prefix is a
# temporary directory in place of /opt/mulred; the build directory is the test's own.
. "$(dirname "$0")/../lib.sh"
src=${MULRED_SOURCE_DIR:?set by CTest}
build=$TEST_TMP/build
prefix=$TEST_TMP/opt/mulred
want="muhash 10d312b100cbd32ada024a6646e40d3482fcff103668d2625f10002a607d5863 (2 inserted, 1 removed)"

# 1. what scripts/demo.sh does to a fresh checkout's build directory (configure, build a target)
expect_status 0 env BUILD_DIR="$build" MULRED_BUILD_TARGETS=mulred bash -c \
    '. "$1/scripts/common.sh" && build_mulred' _ "$src"

# 2. docs/install.md, "Build and install", as a library user: configure, build the libraries,
# install the library and headers components
cd "$src"
expect_status 0 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix"
expect_status 0 cmake --build "$build" -j2 --target mulred mulred_static mulred_mpi mulred_mpi_static
expect_status 0 cmake --install "$build" --component library
expect_status 0 cmake --install "$build" --component headers
for f in lib/libmulred.so.0 lib/libmulred.a lib/libmulred_mpi.so.0 lib/pkgconfig/mulred.pc \
         lib/pkgconfig/mulred-mpi.pc lib/cmake/mulred/mulredConfig.cmake include/mulred/mulred.h; do
    [ -e "$prefix/$f" ] && pass || fail "docs/install.md's layout: no $prefix/$f"
done

# 3. "pkg-config": the documented PKG_CONFIG_PATH
cd "$TEST_TMP"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
expect_status 0 pkg-config --cflags --libs mulred
# shellcheck disable=SC2046
expect_status 0 cc -std=c11 -D_POSIX_C_SOURCE=200809L "$src/examples/muhash_file.c" -o muhash_pc $(pkg-config --cflags --libs mulred)
expect_status 0 env LD_LIBRARY_PATH="$prefix/lib" ./muhash_pc
expect_contains "$out" "$want" "pkg-config: the program gives the vector"

# 4. "CMake": find_package(mulred 0.2 CONFIG REQUIRED) with CMAKE_PREFIX_PATH=PREFIX
mkdir -p proj
cat > proj/CMakeLists.txt <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(use_mulred C)
find_package(mulred 0.2 CONFIG REQUIRED)
add_executable(muhash_file "$src/examples/muhash_file.c")
target_link_libraries(muhash_file PRIVATE mulred::mulred)
CMAKE
expect_status 0 cmake -S proj -B proj/build -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
expect_status 0 cmake --build proj/build
expect_status 0 proj/build/muhash_file
expect_contains "$out" "$want" "find_package: the program gives the vector"
finish
