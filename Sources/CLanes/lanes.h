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
typedef _Bool fathom_lanes_b4 __attribute__((ext_vector_type(4)));
typedef int32_t fathom_lanes_i2 __attribute__((ext_vector_type(2)));
typedef float fathom_lanes_f8 __attribute__((ext_vector_type(8)));
typedef float fathom_lanes_f4 __attribute__((ext_vector_type(4)));

/// Bit i set when lane i's sign bit is set: one vmovmskps with AVX, where Swift's own lane code takes a
/// dozen shuffles.
static inline __attribute__((always_inline)) uint32_t fathom_lanes_sign_bits(fathom_lanes_i8 v) {
    fathom_lanes_b8 negative = __builtin_convertvector(v < 0, fathom_lanes_b8);
    uint8_t bits;
    __builtin_memcpy(&bits, &negative, 1);
    return bits;
}

/// The same for four lanes (bits 0-3). With SSE, v first passes an empty asm statement: when LLVM can see that the
/// lanes are compare results (all ones or zeros) it packs them to bytes for a vpmovmskb (four instructions), not one
/// vmovmskps.
static inline __attribute__((always_inline)) uint32_t fathom_lanes_sign_bits4(fathom_lanes_i4 v) {
#if defined(__SSE2__)
    __asm__("" : "+x"(v));
#endif
    fathom_lanes_b4 negative = __builtin_convertvector(v < 0, fathom_lanes_b4);
    uint8_t bits;
    __builtin_memcpy(&bits, &negative, 1);
    return bits & 0xf;
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

/// The same for four float lanes.
static inline __attribute__((always_inline)) fathom_lanes_f4 fathom_lanes_select4(fathom_lanes_i4 mask, fathom_lanes_f4 b,
                                                                                 fathom_lanes_f4 a) {
    return (fathom_lanes_f4)(((fathom_lanes_i4)b & mask) | ((fathom_lanes_i4)a & ~mask));
}

/// The watertight triangle test's decision on four lanes, as lanes of all ones (hit) or zeros: the edge functions
/// e0, e1, e2 not of mixed signs, their sum det not 0, and lo <= t <= hi. Comparisons only; written here because
/// Swift's mask operations on four lanes compiled partly to scalar compares and inserts.
static inline __attribute__((always_inline)) fathom_lanes_i4 fathom_lanes_triangle_hits4(fathom_lanes_f4 e0, fathom_lanes_f4 e1,
                                                                                        fathom_lanes_f4 e2, fathom_lanes_f4 det,
                                                                                        fathom_lanes_f4 t, float lo, float hi) {
    fathom_lanes_i4 negative = (e0 < 0) | (e1 < 0) | (e2 < 0);
    fathom_lanes_i4 positive = (e0 > 0) | (e1 > 0) | (e2 > 0);
    return ~(negative & positive) & (det != 0) & (t >= lo) & (t <= hi);
}

/// a b - c d per lane, computed in double (where the products of floats are exact) and rounded once to float: an
/// edge function of the watertight test recomputed without the float rounding of its products.
static inline __attribute__((always_inline)) fathom_lanes_f4 fathom_lanes_difference_of_products4(fathom_lanes_f4 a, fathom_lanes_f4 b,
                                                                                                fathom_lanes_f4 c, fathom_lanes_f4 d) {
    typedef double fathom_lanes_d4 __attribute__((ext_vector_type(4)));
    fathom_lanes_d4 ab = __builtin_convertvector(a, fathom_lanes_d4) * __builtin_convertvector(b, fathom_lanes_d4);
    fathom_lanes_d4 cd = __builtin_convertvector(c, fathom_lanes_d4) * __builtin_convertvector(d, fathom_lanes_d4);
    return __builtin_convertvector(ab - cd, fathom_lanes_f4);
}

/// The watertight triangle test (Woop, Benthin and Wald 2013) on a block of four triangles: `block` holds v0's x, y, z,
/// then v1's and v2's, four lanes (16 bytes) each. The ray is given in its shear frame: axes kx, ky, kz (0-2), origin
/// o = (o[kx], o[ky], o[kz], -) and factors s = (sx, sy, sz, -) (see `fathom_lanes_shear_frame`). Returns t per lane,
/// writes u to uv[0..<4] and v to uv[4..<8], and the lanes hit within [lo, hi] as bits 0-3 to *hits. Each lane runs the
/// operations of `ShearedRay.intersect` in the same order (no contraction into fused multiply-adds: `fp contract(off)`),
/// with an edge function that is exactly 0 recomputed in double, so its results are bit-identical to it. In C because
/// Swift's 4-lane arithmetic with vectors read at run-time offsets compiled to partly scalar code.
static inline __attribute__((always_inline)) fathom_lanes_f4 fathom_lanes_watertight4(const void *block, int kx, int ky, int kz,
                                                                                     fathom_lanes_f4 o, fathom_lanes_f4 s,
                                                                                     float lo, float hi, float *uv,
                                                                                     uint32_t *hits) {
#pragma clang fp contract(off)
    const char *p = (const char *)block;
    fathom_lanes_f4 ox = o.xxxx, oy = o.yyyy, oz = o.zzzz, sx = s.xxxx, sy = s.yyyy, sz = s.zzzz;
    fathom_lanes_f4 x[3], y[3], z[3];
    for (int c = 0; c < 3; c++) {
        fathom_lanes_f4 vx, vy, vz;
        __builtin_memcpy(&vx, p + 16 * (3 * c + kx), 16);
        __builtin_memcpy(&vy, p + 16 * (3 * c + ky), 16);
        __builtin_memcpy(&vz, p + 16 * (3 * c + kz), 16);
        fathom_lanes_f4 pz = vz - oz;
        x[c] = (vx - ox) - sx * pz;
        y[c] = (vy - oy) - sy * pz;
        z[c] = sz * pz;
    }
    fathom_lanes_f4 e0 = x[2] * y[1] - y[2] * x[1];
    fathom_lanes_f4 e1 = x[0] * y[2] - y[0] * x[2];
    fathom_lanes_f4 e2 = x[1] * y[0] - y[1] * x[0];
    fathom_lanes_i4 zero = (e0 == 0) | (e1 == 0) | (e2 == 0);
    if (fathom_lanes_sign_bits4(zero)) {
        e0 = fathom_lanes_select4(zero, fathom_lanes_difference_of_products4(x[2], y[1], y[2], x[1]), e0);
        e1 = fathom_lanes_select4(zero, fathom_lanes_difference_of_products4(x[0], y[2], y[0], x[2]), e1);
        e2 = fathom_lanes_select4(zero, fathom_lanes_difference_of_products4(x[1], y[0], y[1], x[0]), e2);
    }
    fathom_lanes_f4 det = e0 + e1 + e2;
    fathom_lanes_f4 scaled = e0 * z[0] + e1 * z[1] + e2 * z[2];
    fathom_lanes_f4 inverse = 1.0f / det;
    fathom_lanes_f4 t = scaled * inverse;
    fathom_lanes_f4 u = e1 * inverse, v = e2 * inverse;
    __builtin_memcpy(uv, &u, 16);
    __builtin_memcpy(uv + 4, &v, 16);
    *hits = fathom_lanes_sign_bits4(fathom_lanes_triangle_hits4(e0, e1, e2, det, t, lo, hi));
    return t;
}

/// The axes of the watertight triangle test's shear frame for a ray direction d (finite, not zero; lane 3 ignored),
/// as lane masks (all ones in the axis's lane): kz is the axis of the largest |d| (the first of equal ones), kx and ky
/// the next two in cyclic order, swapped when d[kz] < 0 (which keeps the winding). Picked with lane operations, not
/// branches: for incoherent rays a branch on the axis mispredicts. Also d[kx], d[ky] and d[kz] in every lane.
static inline __attribute__((always_inline)) void fathom_lanes_shear_frame(fathom_lanes_f4 d, fathom_lanes_i4 *x, fathom_lanes_i4 *y,
                                                                          fathom_lanes_i4 *z, fathom_lanes_f4 *dx,
                                                                          fathom_lanes_f4 *dy, fathom_lanes_f4 *dz) {
    const fathom_lanes_i4 zero = 0, xyz = {-1, -1, -1, 0};
    fathom_lanes_i4 bits = (fathom_lanes_i4)d & xyz;
    // |d| as integers, which order as the floats do; m: the largest of x, y, z in each of those lanes.
    fathom_lanes_i4 magnitude = bits & 0x7fffffff;
    fathom_lanes_i4 m = magnitude > magnitude.yzxw ? magnitude : magnitude.yzxw;
    m = m > magnitude.zxyw ? m : magnitude.zxyw;
    fathom_lanes_i4 largest = (magnitude == m) & xyz;
    // kz: the first of the largest; then the axes after it in cyclic order.
    *z = largest & ~__builtin_shufflevector(largest, zero, 4, 0, 1, 2) & ~__builtin_shufflevector(largest, zero, 4, 4, 0, 1);
    fathom_lanes_i4 next = z->zxyw, last = z->yzxw;
    // A lane's value in every lane: the OR over x, y, z of d's bits in that lane only.
    fathom_lanes_i4 v = bits & *z;
    v = (v | v.yzxw) | (v | v.yzxw).zxyw;
    fathom_lanes_i4 flip = v < 0;
    *x = (flip & last) | (~flip & next);
    *y = (flip & next) | (~flip & last);
    *dz = (fathom_lanes_f4)v;
    v = bits & *x;
    *dx = (fathom_lanes_f4)((v | v.yzxw) | (v | v.yzxw).zxyw);
    v = bits & *y;
    *dy = (fathom_lanes_f4)((v | v.yzxw) | (v | v.yzxw).zxyw);
}

/// (kx, ky, kz, 0) of `fathom_lanes_shear_frame`, as axis numbers 0, 1, 2.
static inline __attribute__((always_inline)) fathom_lanes_i4 fathom_lanes_shear_axes(fathom_lanes_f4 d) {
    fathom_lanes_i4 x, y, z;
    fathom_lanes_f4 dx, dy, dz;
    fathom_lanes_shear_frame(d, &x, &y, &z, &dx, &dy, &dz);
    const fathom_lanes_i4 axis = {0, 1, 2, 0};
    fathom_lanes_i4 kx = x & axis, ky = y & axis, kz = z & axis;
    kx = (kx | kx.yzxw) | (kx | kx.yzxw).zxyw;
    ky = (ky | ky.yzxw) | (ky | ky.yzxw).zxyw;
    kz = (kz | kz.yzxw) | (kz | kz.yzxw).zxyw;
    return (fathom_lanes_i4){kx.x, ky.x, kz.x, 0};
}

/// (sx, sy, sz, sz) = (d[kx], d[ky], 1, 1) / d[kz] for the frame of `fathom_lanes_shear_frame`: one division.
static inline __attribute__((always_inline)) fathom_lanes_f4 fathom_lanes_shear_factors(fathom_lanes_f4 d) {
    fathom_lanes_i4 x, y, z;
    fathom_lanes_f4 dx, dy, dz;
    fathom_lanes_shear_frame(d, &x, &y, &z, &dx, &dy, &dz);
    fathom_lanes_f4 numerator = {dx.x, dy.x, 1, 1};
    return numerator / dz.xxxx;
}

/// 1 / d per lane, where a |d| below the smallest normal float (2^-126; zero and subnormals) counts as 2^-126 with
/// d's sign: finite reciprocals, so slab distances are never 0 * inf = NaN. One division for the lanes.
static inline __attribute__((always_inline)) fathom_lanes_f4 fathom_lanes_safe_reciprocal4(fathom_lanes_f4 d) {
    fathom_lanes_i4 bits = (fathom_lanes_i4)d;
    fathom_lanes_i4 tiny = (bits & 0x7fffffff) < 0x00800000;
    fathom_lanes_i4 safe = (tiny & ((bits & (int32_t)0x80000000) | 0x00800000)) | (~tiny & bits);
    return 1.0f / (fathom_lanes_f4)safe;
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
/// with much of that arithmetic split into 4-lane halves and many more spills (the coverage batch took 15% longer,
/// the motion batch 25%). Portable: the statement emits nothing, and other targets leave it out.
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

#endif
