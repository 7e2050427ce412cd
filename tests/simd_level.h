/*
 * simd_level.h — which of the library's SIMD kernels a test binary runs.
 *
 * CMake builds the tests of the codecs with run-time SIMD kernels three
 * times: against the library as shipped (the best kernels this CPU has),
 * against one built with WENC_NO_AVX512 (AVX2 at most, suffix _avx2) and
 * against one built with WENC_NO_RUNTIME_SIMD (portable C only, suffix
 * _portable), so that every path some CPU takes is tested on this one.
 * TH_BEGIN_SIMD names the test after its build and notes the level tested;
 * when this CPU cannot run the level the build was made for, the test is
 * reported skipped (th_note_simd_level()).
 */
#ifndef WENC_TEST_SIMD_LEVEL_H
#define WENC_TEST_SIMD_LEVEL_H

#include "harness.h"
#include "internal.h"

#if defined(WENC_NO_RUNTIME_SIMD)
#define TH_SIMD_SUFFIX "_portable"
#elif defined(WENC_NO_AVX512)
#define TH_SIMD_SUFFIX "_avx2"
#else
#define TH_SIMD_SUFFIX ""
#endif

/* Notes the level this binary tests. Where the build compiles the x86
 * kernels but this CPU cannot run the level the build was made for, the
 * test still runs every check (on the kernels this CPU takes) and reports
 * itself skipped, naming the level left untested: the variant built for
 * this CPU's level tests what it runs. Where the build compiles no vector
 * kernel (another architecture, another compiler), the portable paths are
 * what this CPU runs: nothing is skipped. On aarch64 the NEON kernels are
 * always there. */
static inline void th_note_simd_level(th *t)
{
#if defined(WENC_NO_RUNTIME_SIMD)
    th_note(t, "built without run-time SIMD kernels: the portable paths are "
               "tested");
#elif defined(WENC_HAVE_NEON)
    th_note(t, "the NEON kernels are tested (the _portable build tests the "
               "scalar paths)");
#elif !defined(WENC_HAVE_RUNTIME_AVX2)
    th_note(t, "this build compiles no vector kernel for its architecture "
               "or compiler: the portable paths, which it runs, are tested");
#elif defined(WENC_NO_AVX512)
    if (wenc_cpu_has_avx2())
        th_note(t, "built without the AVX-512 kernels: the AVX2 kernels are "
                   "tested");
    else
        th_skip(t, TH_SKIP_CPU, "the AVX2 kernels (this CPU has no AVX2): "
                                "the portable paths were tested instead, as "
                                "the _portable variant tests them");
#else
    if (wenc_cpu_has_avx512())
        th_note(t, "the AVX-512 kernels are tested (the _avx2 and _portable "
                   "builds test the others)");
    else if (wenc_cpu_has_avx2())
        th_skip(t, TH_SKIP_CPU, "the AVX-512 kernels (this CPU lacks "
                                "AVX-512 F/BW/VL/VBMI/VBMI2): the AVX2 "
                                "kernels were tested instead, as the _avx2 "
                                "variant tests them");
    else
        th_skip(t, TH_SKIP_CPU, "the AVX2 and AVX-512 kernels (this CPU has "
                                "neither): the portable paths were tested "
                                "instead, as the _portable variant tests "
                                "them");
#endif
}

#define TH_BEGIN_SIMD(t, name)                                              \
    do {                                                                    \
        th_begin((t), name TH_SIMD_SUFFIX);                                 \
        th_note_simd_level(t);                                              \
    } while (0)

#endif
