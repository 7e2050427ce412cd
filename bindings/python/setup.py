"""Builds wenc._wenc, the CPython extension of the wenc package.

By default the extension carries libwenc compiled from its C sources, as
CMake compiles them for libwenc.a: C11 at -O3, hidden visibility, the same
definitions and warnings (errors), and on x86-64 with gcc or clang the AVX2
and AVX-512 kernels chosen at run time (src/internal.h turns them on; no
per-file flags). The sources are ../../src and ../../include in the
repository, and libwenc/src and libwenc/include in an sdist (`setup.py sdist`
copies them there), so `pip install ./bindings/python` needs no CMake and no
prior build.

With WENC_LIB set to a libwenc.a, the extension is linked with that library
instead (its symbols stay inside the extension): `make python` sets it to
build/libwenc.a (build.sh); a sanitizer build's is another. WENC_CFLAGS and
WENC_LDFLAGS add flags (compile and link). The library's sources are
compiled several at a time: build_ext's --parallel, or one job a CPU.
"""
import glob
import os
import shlex
import shutil
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The library's sources: copied into the sdist under libwenc/, or the
# repository's own.
BUNDLED = os.path.join(HERE, "libwenc")
LIBWENC = BUNDLED if os.path.isdir(BUNDLED) else ROOT
INCLUDE = os.path.join(LIBWENC, "include")
LICENSE = next((path for path in (os.path.join(HERE, "LICENSE"), os.path.join(ROOT, "LICENSE"))
                if os.path.isfile(path)), None)
# CMake's glob (CMakeLists.txt, WENC_LIB_SOURCES).
LIBRARY_SOURCES = sorted(
    path for part in ("core", "api", "codecs", "simd", "extensions", "tables")
    for path in glob.glob(os.path.join(LIBWENC, "src", part, "*.c")))
LIBRARY_HEADERS = sorted(
    glob.glob(os.path.join(LIBWENC, "src", "*.h"))
    + glob.glob(os.path.join(LIBWENC, "src", "*", "*.h"))
    + [os.path.join(INCLUDE, "wenc.h")])

LIBRARY = os.environ.get("WENC_LIB") or None
EXTRA_CFLAGS = shlex.split(os.environ.get("WENC_CFLAGS", ""))
EXTRA_LDFLAGS = shlex.split(os.environ.get("WENC_LDFLAGS", ""))

if LIBRARY is not None and not os.path.isfile(LIBRARY):
    raise SystemExit(f"setup.py: WENC_LIB: {LIBRARY} is missing (`make python` "
                     "builds build/libwenc.a first; unset WENC_LIB to compile the "
                     "library's sources into the extension)")
if LIBRARY is None and not LIBRARY_SOURCES:
    raise SystemExit(f"setup.py: no C sources of libwenc under {LIBWENC}/src "
                     "(a checkout of the repository, or an sdist, has them)")

# libwenc's own flags: CMake's Release build with gcc or clang. WENC_STATIC
# leaves WENC_API empty, so that no function of the library is exported
# from the extension.
LIBRARY_MACROS = [("WENC_STATIC", None), ("NDEBUG", None)]
LIBRARY_CFLAGS = ["-std=c11", "-O3", "-fvisibility=hidden",
                  "-Wall", "-Wextra", "-Wpedantic", "-Wshadow",
                  "-Wstrict-prototypes", "-Wmissing-prototypes", "-Werror"]


class BuildExt(build_ext):
    """build_ext that first compiles libwenc's sources (without WENC_LIB)
    and links their objects into the extension."""

    def finalize_options(self):
        super().finalize_options()
        if LIBRARY is None:
            # Whatever extension an earlier build left (one linked with a
            # WENC_LIB, say) is replaced.
            self.force = True

    def build_extension(self, ext):
        if LIBRARY is None:
            ext.extra_objects = self.compile_library() + list(ext.extra_objects)
        super().build_extension(ext)

    def compile_library(self):
        output_dir = os.path.join(self.build_temp, "libwenc")
        # Absolute paths: the objects land under output_dir wherever the
        # sources are.
        sources = [os.path.abspath(path) for path in LIBRARY_SOURCES]
        for obj in self.compiler.object_filenames(sources, output_dir=output_dir):
            os.makedirs(os.path.dirname(obj), exist_ok=True)

        def compile_one(source):
            return self.compiler.compile(
                [source], output_dir=output_dir, macros=LIBRARY_MACROS,
                include_dirs=[INCLUDE, os.path.join(LIBWENC, "src")],
                debug=self.debug, extra_postargs=LIBRARY_CFLAGS + EXTRA_CFLAGS,
                depends=LIBRARY_HEADERS)

        # build_ext --parallel N, or one job a CPU.
        jobs = self.parallel if type(self.parallel) is int and self.parallel > 0 else None
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            return [obj for objects in pool.map(compile_one, sources) for obj in objects]


class Sdist(sdist):
    """sdist that carries libwenc's sources (libwenc/src, libwenc/include),
    so that the unpacked archive builds on its own, and the LICENSE."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        for path in LIBRARY_SOURCES + LIBRARY_HEADERS:
            target = os.path.join(base_dir, "libwenc", os.path.relpath(path, LIBWENC))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(path, target)
        if LICENSE is not None:
            shutil.copy2(LICENSE, os.path.join(base_dir, "LICENSE"))


extension = Extension(
    "wenc._wenc",
    sources=[os.path.join("src", "_wenc.c")],
    include_dirs=[INCLUDE],
    define_macros=[("WENC_STATIC", None)],
    extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra", "-Wpedantic",
                        "-Werror", "-fvisibility=hidden"] + EXTRA_CFLAGS,
    extra_link_args=EXTRA_LDFLAGS,
)
if LIBRARY is not None:
    extension.extra_objects = [LIBRARY]
    extension.depends = [LIBRARY, os.path.join(INCLUDE, "wenc.h")]
    # libwenc's symbols stay inside the extension.
    extension.extra_link_args = ["-Wl,--exclude-libs,ALL"] + EXTRA_LDFLAGS

setup(
    name="wenc",
    version="0.1.0",
    description="The WHATWG Encoding Standard's decoders and encoders, on libwenc",
    license="MIT",
    packages=["wenc"],
    package_data={"wenc": ["py.typed", "*.pyi"]},
    ext_modules=[extension],
    cmdclass={"build_ext": BuildExt, "sdist": Sdist},
    python_requires=">=3.10",
)
