// The node test of a packet of eight rays traced together (`Mesh+Packet.swift`): lane i of every vector is ray i. Each
// child's box is tested against all eight rays at once, with the operations of the one-ray test (`Mesh.NodeRay.test`)
// in the same order, so each ray's verdict is the one it would get alone. In C because the loop over a node's
// children, with its broadcasts and per-child reductions, is what Swift's SIMD code compiles to partly scalar code.
#ifndef FATHOM_PACKET_H
#define FATHOM_PACKET_H

#include "lanes.h"

/// Eight rays as a node test reads them (`Mesh.PacketRays`): nine vectors of eight floats, lane i for ray i, of the
/// origins' x, y, z, the reciprocals of the directions' x, y, z and those widened for the far planes
/// (`Mesh.farWidening`); then six byte offsets (intptr_t) in a node of the near and far bound planes of x, y, z, shared
/// by the eight rays (their direction components have one sign per axis).
enum { FATHOM_PACKET_VECTORS = 9 };

/// Tests the children of `node` (an 8-wide BVH node: six planes of eight floats, min x y z then max x y z) against the
/// packet's rays in `active` (bit i: ray i) within [tmin, limit[i]] (limit already widened, as the one-ray test
/// widens tmax), one ray at a time with the operations of the one-ray test, lanes being the children: the rays' tests
/// do not depend on each other, so they overlap. For each child met by any of them, writes the rays meeting it to
/// masks[c] and the least entry among those rays to entries[c]. Returns the children met as bits.
static inline __attribute__((always_inline)) uint32_t fathom_packet_node(const void *packet, const void *node,
                                                                        uint32_t active, float tmin, const float *limit,
                                                                        float *entries, uint32_t *masks) {
#pragma clang fp contract(off)
    const char *n = (const char *)node, *q = (const char *)packet;
    intptr_t offsets[6];
    __builtin_memcpy(offsets, q + 32 * FATHOM_PACKET_VECTORS, sizeof offsets);
    fathom_lanes_f8 near_x, near_y, near_z, far_x, far_y, far_z;
    __builtin_memcpy(&near_x, n + offsets[0], 32);
    __builtin_memcpy(&near_y, n + offsets[1], 32);
    __builtin_memcpy(&near_z, n + offsets[2], 32);
    __builtin_memcpy(&far_x, n + offsets[3], 32);
    __builtin_memcpy(&far_y, n + offsets[4], 32);
    __builtin_memcpy(&far_z, n + offsets[5], 32);
    fathom_lanes_f8 low = tmin, least = __builtin_inff();
    uint64_t rows = 0;
    const float *lane = (const float *)q;
    while (active) {
        int r = __builtin_ctz(active);
        active &= active - 1;
        fathom_lanes_f8 ox = lane[r], oy = lane[8 + r], oz = lane[16 + r], ix = lane[24 + r], iy = lane[32 + r],
                        iz = lane[40 + r], fx = lane[48 + r], fy = lane[56 + r], fz = lane[64 + r];
        fathom_lanes_f8 near = fathom_lanes_max((near_z - oz) * iz, fathom_lanes_max((near_y - oy) * iy,
                                                                                 fathom_lanes_max((near_x - ox) * ix, low)));
        fathom_lanes_f8 far = fathom_lanes_min((far_z - oz) * fz, fathom_lanes_min((far_y - oy) * fy,
                                                                              fathom_lanes_min((far_x - ox) * fx, (fathom_lanes_f8)limit[r])));
        fathom_lanes_i8 hit = near <= far;
        least = fathom_lanes_min(least, fathom_lanes_select(hit, near, (fathom_lanes_f8)__builtin_inff()));
        rows |= (uint64_t)fathom_lanes_sign_bits(hit) << (8 * r);
    }
    // Row r (byte r) holds the children ray r meets; transposed (an 8 x 8 bit matrix), byte c holds the rays meeting
    // child c.
    uint64_t t = (rows ^ (rows >> 7)) & 0x00AA00AA00AA00AAull;
    rows ^= t ^ (t << 7);
    t = (rows ^ (rows >> 14)) & 0x0000CCCC0000CCCCull;
    rows ^= t ^ (t << 14);
    t = (rows ^ (rows >> 28)) & 0x00000000F0F0F0F0ull;
    rows ^= t ^ (t << 28);
    __builtin_memcpy(entries, &least, 32);
    uint32_t met = 0;
    for (int c = 0; c < 8; c++) {
        uint32_t rays = (uint32_t)(rows >> (8 * c)) & 0xff;
        masks[c] = rays;
        met |= (rays != 0) << c;
    }
    return met;
}

#endif
