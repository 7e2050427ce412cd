# Writes wenc.pc at install time, from cmake/wenc.pc.in, for the prefix being
# installed to. Run by the install script (see CMakeLists.txt), which sets
#   WENC_PC_TEMPLATE, WENC_PC_OUTPUT     the template and the file to write
#   WENC_PC_LIBDIR, WENC_PC_INCLUDEDIR   GNUInstallDirs' directories (relative
#                                        to the prefix, or absolute)
#   WENC_PC_VERSION, WENC_PC_DESCRIPTION
# and CMAKE_INSTALL_PREFIX (without DESTDIR, which only stages the files).

set(WENC_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
if(NOT IS_ABSOLUTE "${WENC_PC_LIBDIR}")
    set(WENC_PC_LIBDIR "\${exec_prefix}/${WENC_PC_LIBDIR}")
endif()
if(NOT IS_ABSOLUTE "${WENC_PC_INCLUDEDIR}")
    set(WENC_PC_INCLUDEDIR "\${prefix}/${WENC_PC_INCLUDEDIR}")
endif()
configure_file("${WENC_PC_TEMPLATE}" "${WENC_PC_OUTPUT}" @ONLY)
