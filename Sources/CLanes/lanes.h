// Lane operations that Swift's SIMD types do not compile well, written with clang's portable vector
// extensions, so the same code builds for any x86-64 level and for arm64; the one x86 builtin (min and max) and
// the empty asm statements sit behind #if with portable fallbacks. Swift imports the vector types below as
// SIMD8/SIMD4<Int32> and SIMD8/SIMD4<Float>; the functions are inlined into their callers.
#ifndef FATHOM_LANES_H
#define FATHOM_LANES_H

#include <stdint.h>

typedef int32_t fathom_lanes_i8 __attribute__((ext_vector_type(8)));
typedef _Bool fathom_lanes_b8 __attribute__((ext_vector_type(8)));
typedef int32_t fathom_lanes_i4 __attribute__((ext_vector_type(4)));
typedef int32_t fathom_lanes_i2 __attribute__((ext_vector_type(2)));
typedef float fathom_lanes_f8 __attribute__((ext_vector_type(8)));
typedef float fathom_lanes_f4 __attribute__((ext_vector_type(4)));

/// Bit i set when lane i's sign bit is set: one vmovmskps with AVX, where Swift's own lane code takes a
/// dozen shuffles. With AVX, v first passes an empty asm statement: when LLVM can see that the lanes are compare
/// results (all ones or zeros) it packs them to bytes for a vpmovmskb (five instructions), not one vmovmskps.
static inline __attribute__((always_inline)) uint32_t fathom_lanes_sign_bits(fathom_lanes_i8 v) {
#if defined(__AVX__)
    __asm__("" : "+x"(v));
#endif
    fathom_lanes_b8 negative = __builtin_convertvector(v < 0, fathom_lanes_b8);
    uint8_t bits;
    __builtin_memcpy(&bits, &negative, 1);
    return bits;
}

/// Per lane, b where the mask's lane is set (all ones; else all zeros), otherwise a: one blend. Swift's own
/// `replacing(with:where:)` on eight lanes can compile to a test and branch per lane.
static inline __attribute__((always_inline)) fathom_lanes_f8 fathom_lanes_select(fathom_lanes_i8 mask, fathom_lanes_f8 b,
                                                                                fathom_lanes_f8 a) {
    return (fathom_lanes_f8)(((fathom_lanes_i8)b & mask) | ((fathom_lanes_i8)a & ~mask));
}

/// The same for 32-bit integer lanes.
static inline __attribute__((always_inline)) fathom_lanes_i8 fathom_lanes_select_int(fathom_lanes_i8 mask, fathom_lanes_i8 b,
                                                                                    fathom_lanes_i8 a) {
    return (b & mask) | (a & ~mask);
}

/// a > b ? a : b per 32-bit integer lane: one vpmaxsd with AVX2.
static inline __attribute__((always_inline)) fathom_lanes_i8 fathom_lanes_max_int(fathom_lanes_i8 a, fathom_lanes_i8 b) {
    return fathom_lanes_select_int(a > b, a, b);
}

/// a > b ? a : b per lane (b where either is NaN), and a < b ? a : b: one vmaxps / vminps. Swift's and clang's own
/// selects compile to a compare and a blend when an operand is a broadcast value.
static inline __attribute__((always_inline)) fathom_lanes_f8 fathom_lanes_max(fathom_lanes_f8 a, fathom_lanes_f8 b) {
#if defined(__AVX__)
    return __builtin_ia32_maxps256(a, b);
#else
    return a > b ? a : b;
#endif
}

static inline __attribute__((always_inline)) fathom_lanes_f8 fathom_lanes_min(fathom_lanes_f8 a, fathom_lanes_f8 b) {
#if defined(__AVX__)
    return __builtin_ia32_minps256(a, b);
#else
    return a < b ? a : b;
#endif
}

/// The same on four lanes: one vmaxps / vminps (Swift.max(x, y) per lane is max4(y, x)).
static inline __attribute__((always_inline)) fathom_lanes_f4 fathom_lanes_max4(fathom_lanes_f4 a, fathom_lanes_f4 b) {
#if defined(__SSE__)
    return __builtin_ia32_maxps(a, b);
#else
    return a > b ? a : b;
#endif
}

static inline __attribute__((always_inline)) fathom_lanes_f4 fathom_lanes_min4(fathom_lanes_f4 a, fathom_lanes_f4 b) {
#if defined(__SSE__)
    return __builtin_ia32_minps(a, b);
#else
    return a < b ? a : b;
#endif
}

/// Per lane, the cell of a grid coordinate x among cells 0...top (Swift's `gridCell`): x clamped to [0, top] first,
/// NaN to 0 (max4 returns its second operand for NaN), so the one truncating conversion is always in range; Swift's
/// own conversion checks each lane.
static inline __attribute__((always_inline)) fathom_lanes_i4 fathom_lanes_cells4(fathom_lanes_f4 x, float top) {
    return __builtin_convertvector(fathom_lanes_min4(fathom_lanes_max4(x, (fathom_lanes_f4)0), (fathom_lanes_f4)top),
                                   fathom_lanes_i4);
}

/// Eight records of six 32-bit words (24 bytes) to out: record j is lane j of a, b, c, d, e, f. Pairs of words are
/// interleaved, then pairs of pairs, so that each record is a 16-byte and an 8-byte store. Swift's own lane code
/// built the same vectors a word at a time (inserts and extracts).
static inline __attribute__((always_inline)) void fathom_lanes_store_records6(void *out, fathom_lanes_i8 a,
                                                                             fathom_lanes_i8 b, fathom_lanes_i8 c,
                                                                             fathom_lanes_i8 d, fathom_lanes_i8 e,
                                                                             fathom_lanes_i8 f) {
    // (a0 b0 a1 b1 | a4 b4 a5 b5) and (a2 b2 a3 b3 | a6 b6 a7 b7), the same for (c, d) and (e, f).
    fathom_lanes_i8 ab0 = __builtin_shufflevector(a, b, 0, 8, 1, 9, 4, 12, 5, 13);
    fathom_lanes_i8 ab1 = __builtin_shufflevector(a, b, 2, 10, 3, 11, 6, 14, 7, 15);
    fathom_lanes_i8 cd0 = __builtin_shufflevector(c, d, 0, 8, 1, 9, 4, 12, 5, 13);
    fathom_lanes_i8 cd1 = __builtin_shufflevector(c, d, 2, 10, 3, 11, 6, 14, 7, 15);
    fathom_lanes_i8 ef0 = __builtin_shufflevector(e, f, 0, 8, 1, 9, 4, 12, 5, 13);
    fathom_lanes_i8 ef1 = __builtin_shufflevector(e, f, 2, 10, 3, 11, 6, 14, 7, 15);
    // Records (0 | 4), (1 | 5), (2 | 6), (3 | 7): words a to d.
    fathom_lanes_i8 q0 = __builtin_shufflevector(ab0, cd0, 0, 1, 8, 9, 4, 5, 12, 13);
    fathom_lanes_i8 q1 = __builtin_shufflevector(ab0, cd0, 2, 3, 10, 11, 6, 7, 14, 15);
    fathom_lanes_i8 q2 = __builtin_shufflevector(ab1, cd1, 0, 1, 8, 9, 4, 5, 12, 13);
    fathom_lanes_i8 q3 = __builtin_shufflevector(ab1, cd1, 2, 3, 10, 11, 6, 7, 14, 15);
    fathom_lanes_i4 head[8] = {q0.lo, q1.lo, q2.lo, q3.lo, q0.hi, q1.hi, q2.hi, q3.hi};
    fathom_lanes_i2 tail[8] = {ef0.s01, ef0.s23, ef1.s01, ef1.s23, ef0.s45, ef0.s67, ef1.s45, ef1.s67};
    for (int j = 0; j < 8; j++) {
        __builtin_memcpy((char *)out + 24 * j, &head[j], 16);
        __builtin_memcpy((char *)out + 24 * j + 16, &tail[j], 8);
    }
}

/// Row r of column c (float 4c + r) of the eight column-major 4 x 4 matrices at m[0..<128], one matrix per lane: the
/// columns of matrices k and k + 4 loaded as one 8-lane row (a 16-byte load inserted into the high half), then both
/// halves' 4 x 4 transposes at once, in-lane shuffles. One row per call (Swift imports neither a struct of vectors nor
/// a pointer to one): the rows of a column share their loads and first shuffles once inlined.
///
/// With AVX, the row then passes an empty asm statement that the optimizer cannot see through. Without it, LLVM folds
/// the shuffles into the arithmetic that follows and rebuilds the rows there as scalar loads, broadcasts and blends,
/// with much of that arithmetic split into 4-lane halves and many more spills (bench/README.md, "guidance.py", has
/// what that cost). Portable: the statement emits nothing, and other targets leave it out.
static inline __attribute__((always_inline)) fathom_lanes_f8 fathom_lanes_transposed(const float *m, int c, int r) {
    fathom_lanes_f4 q[8];
    for (int k = 0; k < 8; k++) __builtin_memcpy(&q[k], m + 16 * k + 4 * c, sizeof q[k]);
    fathom_lanes_f8 r0 = __builtin_shufflevector(q[0], q[4], 0, 1, 2, 3, 4, 5, 6, 7);
    fathom_lanes_f8 r1 = __builtin_shufflevector(q[1], q[5], 0, 1, 2, 3, 4, 5, 6, 7);
    fathom_lanes_f8 r2 = __builtin_shufflevector(q[2], q[6], 0, 1, 2, 3, 4, 5, 6, 7);
    fathom_lanes_f8 r3 = __builtin_shufflevector(q[3], q[7], 0, 1, 2, 3, 4, 5, 6, 7);
    // (x0 x1 y0 y1 | x4 x5 y4 y5) or (z0 z1 w0 w1 | z4 z5 w4 w5), and the same for matrices 2, 3 | 6, 7.
    fathom_lanes_f8 a, b, row;
    if (r < 2) {
        a = __builtin_shufflevector(r0, r1, 0, 8, 1, 9, 4, 12, 5, 13);
        b = __builtin_shufflevector(r2, r3, 0, 8, 1, 9, 4, 12, 5, 13);
    } else {
        a = __builtin_shufflevector(r0, r1, 2, 10, 3, 11, 6, 14, 7, 15);
        b = __builtin_shufflevector(r2, r3, 2, 10, 3, 11, 6, 14, 7, 15);
    }
    if (r % 2 == 0) {
        row = __builtin_shufflevector(a, b, 0, 1, 8, 9, 4, 5, 12, 13);
    } else {
        row = __builtin_shufflevector(a, b, 2, 3, 10, 11, 6, 7, 14, 15);
    }
#if defined(__AVX__)
    __asm__("" : "+x"(row));
#endif
    return row;
}

/// Asks for the 64-byte line `offset` bytes from `base` to be brought into the caches: a hint that never faults,
/// so the address may lie past the end of the buffer (it is computed as an integer, never dereferenced).
static inline __attribute__((always_inline)) void fathom_lanes_prefetch(const void *base, intptr_t offset) {
    __builtin_prefetch((const void *)((uintptr_t)base + (uintptr_t)offset), 0, 3);
}

/// The same for a line about to be written (prefetchw where the CPU has it).
static inline __attribute__((always_inline)) void fathom_lanes_prefetch_write(const void *base, intptr_t offset) {
    __builtin_prefetch((const void *)((uintptr_t)base + (uintptr_t)offset), 1, 3);
}

#endif
