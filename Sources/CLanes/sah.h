// The two passes over primitives that take most of a BVH build (BVHBuilder.swift): binning centroids for the
// surface-area heuristic, with the sweep that picks the split, and partitioning at the chosen split. Written in
// clang's vector extensions: each bin's box is one 8-lane vector (lo, -hi), grown by one min whatever its side, and
// the bin of each axis comes from one clamped vector conversion, no branch and no check (bench/README.md,
// "What limits Fathom's ray casting today", has what Swift's versions of these loops cost).
//
// A primitive is 8 floats, as BVHBuilder.PrimRef: lo (x, y, z, w = its triangle index's bits), hi (x, y, z, 0).
// Centroids are kept doubled (lo + hi), so nothing is halved.
#ifndef FATHOM_SAH_H
#define FATHOM_SAH_H

#include <stdint.h>
#include "lanes.h"

/// Most bins per axis.
#define FATHOM_SAH_MAX_BINS 16

/// The cheapest split found by `fathom_sah_best_split`: primitives whose bin on `axis` is below `position` go
/// left. axis is -1 when no split leaves primitives on both sides.
typedef struct {
    float cost;
    int32_t axis;
    int32_t position;
} fathom_sah_split;

/// The area heuristic's half surface of a box held as (lo, -hi); 0 for an empty box (lo = +inf, -hi = +inf). The
/// extent is hi - lo, as Swift's BVHBuilder.area computes it (negation is exact), its products in the same order.
static inline __attribute__((always_inline)) float fathom_sah_area(fathom_lanes_f8 box) {
#pragma clang fp contract(off)
    fathom_lanes_f4 lo = box.s0123, hi = -box.s4567;
    fathom_lanes_f4 d = fathom_lanes_max4((fathom_lanes_f4)0, hi - lo);
    return d.x * d.y + d.y * d.z + d.z * d.x;
}

/// A primitive's box as (lo, -hi), and its doubled centroid.
static inline __attribute__((always_inline)) fathom_lanes_f8 fathom_sah_box(const float *prim, fathom_lanes_f4 *centroid) {
    fathom_lanes_f4 lo, hi;
    __builtin_memcpy(&lo, prim, 16);
    __builtin_memcpy(&hi, prim + 4, 16);
    *centroid = lo + hi;
    return __builtin_shufflevector(lo, -hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

/// The cheapest split of `count` primitives, binned from prims[begin], prims[begin + step], ... below prims[end]
/// (primitive i at 8 i floats) into `bins` bins per axis (1...FATHOM_SAH_MAX_BINS): the bin of a doubled centroid c on
/// an axis is (c - centroidLo) * scale, clamped to [0, bins - 1] (NaN, from centroids past Float's range, to 0)
/// before its conversion, which is then always in range. Only the axes whose bit is set in `axes` are swept. The
/// cost of a side is its box's area times its count in blocks of four ((n + 3) / 4), the counts of a sampled range
/// scaled by `step`.
static inline fathom_sah_split fathom_sah_best_split(const void *primitives, intptr_t begin, intptr_t end, intptr_t step,
                                                     intptr_t count, fathom_lanes_f4 centroidLo, fathom_lanes_f4 scale,
                                                     int32_t bins, uint32_t axes) {
#pragma clang fp contract(off)
    const float *prims = (const float *)primitives;
    // Two sets of bins, taking every other primitive: neighbours in a range often fall in the same bin, and with one set
    // each would wait for the other's store to the bin.
    fathom_lanes_f8 box[2][3][FATHOM_SAH_MAX_BINS];
    int32_t counts[2][3][FATHOM_SAH_MAX_BINS];
    for (int s = 0; s < 2; s++) {
        for (int a = 0; a < 3; a++) {
            for (int k = 0; k < bins; k++) {
                box[s][a][k] = (fathom_lanes_f8)__builtin_inff();
                counts[s][a][k] = 0;
            }
        }
    }
    int set = 0;
    for (intptr_t i = begin; i < end; i += step) {
        fathom_lanes_f4 c;
        fathom_lanes_f8 b = fathom_sah_box(prims + 8 * i, &c);
        fathom_lanes_i4 k = fathom_lanes_cells4((c - centroidLo) * scale, (float)(bins - 1));
        box[set][0][k.x] = fathom_lanes_min(box[set][0][k.x], b);
        box[set][1][k.y] = fathom_lanes_min(box[set][1][k.y], b);
        box[set][2][k.z] = fathom_lanes_min(box[set][2][k.z], b);
        counts[set][0][k.x] += 1;
        counts[set][1][k.y] += 1;
        counts[set][2][k.z] += 1;
        set ^= 1;
    }
    fathom_sah_split best = {__builtin_inff(), -1, 0};
    float rightArea[FATHOM_SAH_MAX_BINS];
    for (int a = 0; a < 3; a++) {
        if (!(axes >> a & 1)) continue;
        fathom_lanes_f8 grown = (fathom_lanes_f8)__builtin_inff();
        for (int k = bins - 1; k > 0; k--) {
            grown = fathom_lanes_min(fathom_lanes_min(box[0][a][k], box[1][a][k]), grown);
            rightArea[k] = fathom_sah_area(grown);
        }
        grown = (fathom_lanes_f8)__builtin_inff();
        intptr_t left = 0;
        for (int k = 0; k < bins - 1; k++) {
            grown = fathom_lanes_min(fathom_lanes_min(box[0][a][k], box[1][a][k]), grown);
            left += (intptr_t)(counts[0][a][k] + counts[1][a][k]) * step;
            intptr_t right = count - left;
            if (left <= 0 || right <= 0) continue;
            float cost = fathom_sah_area(grown) * (float)((left + 3) >> 2) + rightArea[k + 1] * (float)((right + 3) >> 2);
            if (cost < best.cost) {
                best.cost = cost;
                best.axis = a;
                best.position = k + 1;
            }
        }
    }
    return best;
}

/// Partitions prims[begin..<end] in place: those whose doubled centroid c on `axis` has (c - centroidLo) * scale
/// below `position` first (NaN among them, as binning puts it in bin 0), the others after. Returns where the second
/// part starts. Writes each part's box as (lo, -hi) and its doubled centroids' box as (lo, -hi): the first part's
/// to boxes' floats 0..<8 and 8..<16, the second's to 16..<24 and 24..<32 (+inf for an empty part).
static inline intptr_t fathom_sah_partition(void *primitives, intptr_t begin, intptr_t end, int32_t axis, float centroidLo,
                                            float scale, float position, void *boxes) {
#pragma clang fp contract(off)
    float *prims = (float *)primitives, *out = (float *)boxes;
    fathom_lanes_f8 leftBox = (fathom_lanes_f8)__builtin_inff(), leftCentroids = leftBox;
    fathom_lanes_f8 rightBox = leftBox, rightCentroids = leftBox;
#define FATHOM_SAH_GOES_LEFT(i) (!((prims[8 * (i) + axis] + prims[8 * (i) + 4 + axis] - centroidLo) * scale >= position))
#define FATHOM_SAH_GROW(i, partBox, partCentroids)                                                            \
    do {                                                                                                \
        fathom_lanes_f4 c;                                                                              \
        partBox = fathom_lanes_min(partBox, fathom_sah_box(prims + 8 * (i), &c));                       \
        partCentroids = fathom_lanes_min(partCentroids, __builtin_shufflevector(c, -c, 0, 1, 2, 3, 4, 5, 6, 7)); \
    } while (0)
    intptr_t i = begin, j = end - 1;
    for (;;) {
        while (i <= j && FATHOM_SAH_GOES_LEFT(i)) {
            FATHOM_SAH_GROW(i, leftBox, leftCentroids);
            i++;
        }
        while (i <= j && !FATHOM_SAH_GOES_LEFT(j)) {
            FATHOM_SAH_GROW(j, rightBox, rightCentroids);
            j--;
        }
        if (i > j) break;
        // prims[i] goes right and prims[j] left: swap them.
        float t[8];
        __builtin_memcpy(t, prims + 8 * i, 32);
        __builtin_memcpy(prims + 8 * i, prims + 8 * j, 32);
        __builtin_memcpy(prims + 8 * j, t, 32);
        FATHOM_SAH_GROW(i, leftBox, leftCentroids);
        FATHOM_SAH_GROW(j, rightBox, rightCentroids);
        i++;
        j--;
    }
#undef FATHOM_SAH_GOES_LEFT
#undef FATHOM_SAH_GROW
    __builtin_memcpy(out, &leftBox, 32);
    __builtin_memcpy(out + 8, &leftCentroids, 32);
    __builtin_memcpy(out + 16, &rightBox, 32);
    __builtin_memcpy(out + 24, &rightCentroids, 32);
    return i;
}

#endif
