# Cross-compiling wenc for 64-bit ARM Linux (aarch64: char is unsigned, no x86
# kernel is compiled) with Debian's cross toolchain, and running what it builds
# under qemu's user-mode emulator, so ctest can run the tests on an x86 host.
#
#   Debian: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
#   cmake -S . -B build-cross-aarch64 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#
# tools/cross-test.sh does this and runs the whole test suite. The cache
# variables are in linux-gnu-cross.cmake.

set(WENC_CROSS_ARCH aarch64)
set(WENC_CROSS_QEMU qemu-aarch64)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
