# Cross-compiling wenc for IBM Z Linux (s390x: big-endian, char is unsigned,
# no x86 kernel is compiled) with Debian's cross toolchain, and running what it
# builds under qemu's user-mode emulator, so ctest can run the tests on an x86
# host.
#
#   Debian: apt-get install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user
#   cmake -S . -B build-cross-s390x \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/s390x-linux-gnu.cmake
#
# tools/cross-test.sh does this and runs the whole test suite. The cache
# variables are in linux-gnu-cross.cmake.

set(WENC_CROSS_ARCH s390x)
set(WENC_CROSS_QEMU qemu-s390x)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
