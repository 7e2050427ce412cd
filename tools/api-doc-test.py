#!/usr/bin/env python3
"""Compiles and runs every C code block of docs/API.md (the ctest api_doc).

    python3 tools/api-doc-test.py CC LIBWENC_A WORKDIR

Each ```c block becomes the body of its own function in one program that
includes <wenc.h>, <assert.h>, <stdio.h>, <stdlib.h> and <string.h>, as the
guide says; the program is compiled with -std=c11 -Wall -Wextra -Wpedantic
-Werror against the static library and run, and every block's asserts must
hold. Exits 0 when all ran, 1 otherwise.
"""
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    cc, lib, work = sys.argv[1:]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "docs", "API.md"), encoding="utf-8") as f:
        text = f.read()
    blocks = []
    for match in re.finditer(r"^```c\n(.*?)^```", text, re.S | re.M):
        line = text.count("\n", 0, match.start()) + 2
        blocks.append((line, match.group(1)))
    if not blocks:
        print("api-doc-test: no C blocks in docs/API.md", file=sys.stderr)
        return 1
    out = ["#include <wenc.h>", "#include <assert.h>", "#include <stdio.h>",
           "#include <stdlib.h>", "#include <string.h>", ""]
    for i, (line, body) in enumerate(blocks):
        out.append("static void block_%d(void) /* docs/API.md line %d */" % (i, line))
        out.append("{")
        out.append('#line %d "docs/API.md"' % line)
        out.append(body.rstrip("\n"))
        out.append("}")
        out.append("")
    out.append("int main(void)")
    out.append("{")
    for i, (line, _) in enumerate(blocks):
        out.append('    fprintf(stderr, "docs/API.md line %d\\n");' % line)
        out.append("    block_%d();" % i)
    out.append('    printf("api-doc-test: %d blocks of docs/API.md compiled and ran\\n");'
               % len(blocks))
    out.append("    return 0;")
    out.append("}")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "api_doc.c")
    exe = os.path.join(work, "api_doc")
    with open(src, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    cmd = [cc, "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-UNDEBUG",
           "-DWENC_STATIC", "-I", os.path.join(root, "include"), src, lib, "-o", exe]
    if subprocess.call(cmd) != 0:
        print("api-doc-test: FAILED to compile the blocks of docs/API.md", file=sys.stderr)
        return 1
    run = subprocess.run([exe], stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        last = run.stderr.strip().splitlines()
        print("api-doc-test: FAILED in the block at %s" % (last[-1] if last else "?"),
              file=sys.stderr)
        print(run.stderr, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
