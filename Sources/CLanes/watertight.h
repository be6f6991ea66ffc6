// The watertight ray-triangle test (Woop, Benthin and Wald, JCGT 2013) on eight triangles at once, and the per-ray
// set-up of the traversal, in clang's portable vector extensions (see lanes.h). Written in C because Swift's lane
// arithmetic on vectors read at run-time offsets, and its lane picks, compiled to partly scalar code and branches.
// Floating-point contraction is off in the functions with arithmetic (`#pragma clang fp contract(off)`): every
// operation rounds as Swift's scalar code does, so the lane-wise results are bit-identical to `ShearedRay.intersect`.
#ifndef FATHOM_WATERTIGHT_H
#define FATHOM_WATERTIGHT_H

#include "lanes.h"

/// The watertight test's decision on eight lanes, as lanes of all ones (hit) or zeros: the edge functions e0, e1, e2
/// not of mixed signs, their sum det not 0 with a finite reciprocal, t finite, and lo <= t <= hi.
static inline __attribute__((always_inline)) fathom_lanes_i8 fathom_lanes_triangle_hits8(fathom_lanes_f8 e0, fathom_lanes_f8 e1,
                                                                                        fathom_lanes_f8 e2, fathom_lanes_f8 det,
                                                                                        fathom_lanes_f8 inverse, fathom_lanes_f8 t,
                                                                                        float lo, float hi) {
    fathom_lanes_i8 negative = (e0 < 0) | (e1 < 0) | (e2 < 0);
    fathom_lanes_i8 positive = (e0 > 0) | (e1 > 0) | (e2 > 0);
    fathom_lanes_i8 finite = (inverse > -__builtin_inff()) & (inverse < __builtin_inff()) & (t > -__builtin_inff()) &
                             (t < __builtin_inff());
    return ~(negative & positive) & (det != 0) & finite & (t >= lo) & (t <= hi);
}

/// a b - c d per lane, computed in double (where the products of floats are exact) and rounded once to float: an
/// edge function of the watertight test recomputed without the float rounding of its products.
static inline __attribute__((always_inline)) fathom_lanes_f8 fathom_lanes_difference_of_products8(fathom_lanes_f8 a, fathom_lanes_f8 b,
                                                                                                fathom_lanes_f8 c, fathom_lanes_f8 d) {
#pragma clang fp contract(off)
    typedef double fathom_lanes_d8 __attribute__((ext_vector_type(8)));
    fathom_lanes_d8 ab = __builtin_convertvector(a, fathom_lanes_d8) * __builtin_convertvector(b, fathom_lanes_d8);
    fathom_lanes_d8 cd = __builtin_convertvector(c, fathom_lanes_d8) * __builtin_convertvector(d, fathom_lanes_d8);
    return __builtin_convertvector(ab - cd, fathom_lanes_f8);
}

/// The watertight triangle test (Woop, Benthin and Wald 2013) on two blocks of four triangles at once: lanes 0-3 from
/// `block`, lanes 4-7 from the block `high` bytes after it (0: the same block again). A block holds v0's x, y, z, then
/// v1's and v2's, four lanes (16 bytes) each. The ray is given in its shear frame: axes kx, ky, kz (0-2), origin
/// o = (o[kx], o[ky], o[kz], -) and factors s = (sx, sy, sz, -) (see `fathom_lanes_shear_frame`). Returns t per lane,
/// writes u to uv[0..<8] and v to uv[8..<16], and the lanes hit within [lo, hi] as bits 0-7 to *hits (bits 0-3 only
/// when high is 0). Each lane runs the operations of `ShearedRay.intersect` in the same order (no contraction into
/// fused multiply-adds), with an edge function that is exactly 0 recomputed in double, so its results are
/// bit-identical to it. In C because Swift's lane arithmetic with vectors read at run-time offsets compiled to partly
/// scalar code.
static inline __attribute__((always_inline)) fathom_lanes_f8 fathom_lanes_watertight8(const void *block, intptr_t high, int kx, int ky,
                                                                                     int kz, fathom_lanes_f4 o, fathom_lanes_f4 s,
                                                                                     float lo, float hi, float *uv,
                                                                                     uint32_t *hits) {
#pragma clang fp contract(off)
    const char *p = (const char *)block, *q = p + high;
    fathom_lanes_f8 ox = o.x, oy = o.y, oz = o.z, sx = s.x, sy = s.y, sz = s.z;
    fathom_lanes_f8 x[3], y[3], z[3];
    for (int c = 0; c < 3; c++) {
        fathom_lanes_f4 lx, ly, lz, hx, hy, hz;
        __builtin_memcpy(&lx, p + 16 * (3 * c + kx), 16);
        __builtin_memcpy(&ly, p + 16 * (3 * c + ky), 16);
        __builtin_memcpy(&lz, p + 16 * (3 * c + kz), 16);
        __builtin_memcpy(&hx, q + 16 * (3 * c + kx), 16);
        __builtin_memcpy(&hy, q + 16 * (3 * c + ky), 16);
        __builtin_memcpy(&hz, q + 16 * (3 * c + kz), 16);
        fathom_lanes_f8 vx = __builtin_shufflevector(lx, hx, 0, 1, 2, 3, 4, 5, 6, 7);
        fathom_lanes_f8 vy = __builtin_shufflevector(ly, hy, 0, 1, 2, 3, 4, 5, 6, 7);
        fathom_lanes_f8 vz = __builtin_shufflevector(lz, hz, 0, 1, 2, 3, 4, 5, 6, 7);
        fathom_lanes_f8 pz = vz - oz;
        x[c] = (vx - ox) - sx * pz;
        y[c] = (vy - oy) - sy * pz;
        z[c] = sz * pz;
    }
    fathom_lanes_f8 e0 = x[2] * y[1] - y[2] * x[1];
    fathom_lanes_f8 e1 = x[0] * y[2] - y[0] * x[2];
    fathom_lanes_f8 e2 = x[1] * y[0] - y[1] * x[0];
    fathom_lanes_i8 zero = (e0 == 0) | (e1 == 0) | (e2 == 0);
    if (fathom_lanes_sign_bits(zero)) {
        e0 = fathom_lanes_select(zero, fathom_lanes_difference_of_products8(x[2], y[1], y[2], x[1]), e0);
        e1 = fathom_lanes_select(zero, fathom_lanes_difference_of_products8(x[0], y[2], y[0], x[2]), e1);
        e2 = fathom_lanes_select(zero, fathom_lanes_difference_of_products8(x[1], y[0], y[1], x[0]), e2);
    }
    fathom_lanes_f8 det = e0 + e1 + e2;
    fathom_lanes_f8 scaled = e0 * z[0] + e1 * z[1] + e2 * z[2];
    fathom_lanes_f8 inverse = 1.0f / det;
    fathom_lanes_f8 t = scaled * inverse;
    fathom_lanes_f8 u = e1 * inverse, v = e2 * inverse;
    __builtin_memcpy(uv, &u, 32);
    __builtin_memcpy(uv + 8, &v, 32);
    // With one block, lanes 4-7 repeat lanes 0-3 and are not reported.
    *hits = fathom_lanes_sign_bits(fathom_lanes_triangle_hits8(e0, e1, e2, det, inverse, t, lo, hi)) & (high ? 0xffu : 0x0fu);
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

#endif
