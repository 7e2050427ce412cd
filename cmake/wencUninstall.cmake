# cmake -DWENC_MANIFEST=BUILD/install_manifest.txt -P cmake/wencUninstall.cmake
#
# Removes the files the last install from BUILD wrote, then the package's own
# directory (the one holding wencConfig.cmake) if that is left empty. Nothing
# else: a directory such as include/ or lib/pkgconfig stays, even when empty,
# as it may have been there before. Files already gone are reported and
# skipped. The manifest lists the files without DESTDIR: give the install's
# DESTDIR again, in the environment, to remove a staged install.

if(NOT DEFINED WENC_MANIFEST)
    message(FATAL_ERROR "usage: cmake -DWENC_MANIFEST=FILE -P wencUninstall.cmake")
endif()
if(NOT EXISTS "${WENC_MANIFEST}")
    message(FATAL_ERROR "no install manifest at ${WENC_MANIFEST}: nothing was installed from "
            "this build directory (or it was already uninstalled)")
endif()

file(STRINGS "${WENC_MANIFEST}" _files)
set(_package_dirs)
set(_failed)
foreach(_file IN LISTS _files)
    if(_file STREQUAL "")
        continue()
    endif()
    set(_file "$ENV{DESTDIR}${_file}")
    # EXISTS follows symbolic links; IS_SYMLINK catches a dangling one.
    if(EXISTS "${_file}" OR IS_SYMLINK "${_file}")
        message(STATUS "Removing ${_file}")
        file(REMOVE "${_file}")
        if(EXISTS "${_file}" OR IS_SYMLINK "${_file}")
            list(APPEND _failed "${_file}")
        endif()
    else()
        message(STATUS "Not found (already removed): ${_file}")
    endif()
    get_filename_component(_name "${_file}" NAME)
    if(_name STREQUAL "wencConfig.cmake")
        get_filename_component(_dir "${_file}" DIRECTORY)
        list(APPEND _package_dirs "${_dir}")
    endif()
endforeach()

foreach(_dir IN LISTS _package_dirs)
    if(IS_DIRECTORY "${_dir}")
        file(GLOB _left "${_dir}/*")
        if(NOT _left)
            message(STATUS "Removing the empty directory ${_dir}")
            file(REMOVE_RECURSE "${_dir}")
        endif()
    endif()
endforeach()

if(_failed)
    string(REPLACE ";" "\n  " _failed "${_failed}")
    message(FATAL_ERROR "could not remove:\n  ${_failed}")
endif()
