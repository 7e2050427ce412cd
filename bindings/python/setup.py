"""Builds wenc._wenc, the CPython extension of the wenc package.

The extension is linked with libwenc.a, the static library CMake builds
(position-independent, hidden visibility): `make python` builds it and then
runs `setup.py build_ext --inplace`. Set WENC_LIB to another libwenc.a (a
sanitizer build's, say) and WENC_CFLAGS / WENC_LDFLAGS to add flags.
"""
import os
import shlex

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LIBRARY = os.environ.get("WENC_LIB", os.path.join(ROOT, "build", "libwenc.a"))

if not os.path.isfile(LIBRARY):
    raise SystemExit(
        f"setup.py: {LIBRARY} is missing: run `make python` at the repository "
        "root (it builds the static library first), or set WENC_LIB")

extension = Extension(
    "wenc._wenc",
    sources=[os.path.join("src", "_wenc.c")],
    include_dirs=[os.path.join(ROOT, "include")],
    define_macros=[("WENC_STATIC", None)],
    extra_objects=[LIBRARY],
    depends=[LIBRARY, os.path.join(ROOT, "include", "wenc.h")],
    extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra", "-Wpedantic",
                        "-Werror", "-fvisibility=hidden"]
    + shlex.split(os.environ.get("WENC_CFLAGS", "")),
    # libwenc's symbols stay inside the extension.
    extra_link_args=["-Wl,--exclude-libs,ALL"]
    + shlex.split(os.environ.get("WENC_LDFLAGS", "")),
)

setup(
    name="wenc",
    version="0.1.0",
    description="The WHATWG Encoding Standard's decoders and encoders, on libwenc",
    license="MIT",
    packages=["wenc"],
    package_data={"wenc": ["py.typed", "*.pyi"]},
    ext_modules=[extension],
    python_requires=">=3.10",
)
