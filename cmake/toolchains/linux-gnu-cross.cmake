# Shared by the cross toolchain files beside it (aarch64-linux-gnu.cmake,
# s390x-linux-gnu.cmake): each sets WENC_CROSS_ARCH and WENC_CROSS_QEMU, then
# includes this file.
#
# Cache variables (set them with -D to use another toolchain or emulator):
#   WENC_CROSS_PREFIX   the toolchain's prefix  (<arch>-linux-gnu-)
#   WENC_CROSS_SYSROOT  the target's libraries, for qemu -L
#                       (/usr/<arch>-linux-gnu)
#   CMAKE_CROSSCOMPILING_EMULATOR  how a target program is run
#                       (qemu-<arch>;-L;<sysroot>); ctest puts it in front
#                       of every test whose command is a target it built.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${WENC_CROSS_ARCH})

set(WENC_CROSS_PREFIX "${WENC_CROSS_ARCH}-linux-gnu-" CACHE STRING "Cross toolchain prefix")
set(WENC_CROSS_SYSROOT "/usr/${WENC_CROSS_ARCH}-linux-gnu" CACHE PATH
    "Target libraries (the dynamic loader and libc), for qemu -L")

set(CMAKE_C_COMPILER "${WENC_CROSS_PREFIX}gcc")

set(CMAKE_CROSSCOMPILING_EMULATOR "${WENC_CROSS_QEMU};-L;${WENC_CROSS_SYSROOT}"
    CACHE STRING "Runs a target program on the build machine")

# Programs come from the host; headers and libraries only from the target.
set(CMAKE_FIND_ROOT_PATH "${WENC_CROSS_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
