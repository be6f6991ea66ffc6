// The batch ray order's sort keys: each ray's predicted point as the Morton code of its cell in a grid over the sample's
// points, with the ray's index below it, eight rays at a time in vector lanes (the loop below has no branch, so it
// vectorizes).
#ifndef FATHOM_ORDER_H
#define FATHOM_ORDER_H

#include <stdint.h>

/// Bits per axis of the Morton code: 128 cells per axis, a key of 21 bits, and one more for rays with no prediction.
#define FATHOM_ORDER_BITS 7

/// Bit k of x (k < 10) at bit 3k.
static inline __attribute__((always_inline)) uint32_t fathom_order_spread(uint32_t x) {
    x &= 0x3ff;
    x = (x | x << 16) & 0x030000ff;
    x = (x | x << 8) & 0x0300f00f;
    x = (x | x << 4) & 0x030c30c3;
    x = (x | x << 2) & 0x09249249;
    return x;
}

/// Where a key's code starts: the code fills the key's top 3 FATHOM_ORDER_BITS + 1 bits, which the radix sort sorts
/// by, and the ray's index (below 2^32) sits below it.
#define FATHOM_ORDER_KEY_SHIFT (64 - (3 * FATHOM_ORDER_BITS + 1))

/// A coordinate's cell: x clamped to [0, 2^FATHOM_ORDER_BITS - 1] (NaN to 0), truncated.
static inline __attribute__((always_inline)) uint32_t fathom_order_cell(float x) {
    const float top = (float)((1 << FATHOM_ORDER_BITS) - 1);
    x = x > 0 ? x : 0;
    x = x < top ? x : top;
    return (uint32_t)(int32_t)x;  // a signed conversion: one instruction per eight lanes
}

/// keys[i] = code << FATHOM_ORDER_KEY_SHIFT | (first + i) for i < count, where code is the Morton code (x at bits 3k, y at 3k + 1, z at
/// 3k + 2) of the cell of point i = (x[i], y[i], z[i]), (p - lo) x scale per axis with frame = lo xyz, scale xyz; or,
/// where found[i] is 0, 1 << (3 FATHOM_ORDER_BITS): after every cell (the point is read all the same, and must be
/// initialized).
static inline void fathom_order_keys(const float *x, const float *y, const float *z, const uint8_t *found, int count,
                                     const float *frame, uint32_t first, uint64_t *keys) {
    for (int i = 0; i < count; i++) {
        uint32_t code = fathom_order_spread(fathom_order_cell((x[i] - frame[0]) * frame[3]))
            | fathom_order_spread(fathom_order_cell((y[i] - frame[1]) * frame[4])) << 1
            | fathom_order_spread(fathom_order_cell((z[i] - frame[2]) * frame[5])) << 2;
        code = found[i] ? code : 1u << (3 * FATHOM_ORDER_BITS);
        keys[i] = (uint64_t)code << FATHOM_ORDER_KEY_SHIFT | (uint64_t)(first + (uint32_t)i);
    }
}

#endif
