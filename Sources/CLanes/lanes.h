// Lane operations that Swift's SIMD types do not compile well, written with clang's portable vector
// extensions (no intrinsics: the same code builds for any x86-64 level and for arm64). Swift imports the
// 8-lane vector types below as SIMD8<Int32> and SIMD8<Float>; the functions are inlined into their callers.
#ifndef FATHOM_LANES_H
#define FATHOM_LANES_H

#include <stdint.h>

typedef int32_t fathom_lanes_i8 __attribute__((ext_vector_type(8)));
typedef _Bool fathom_lanes_b8 __attribute__((ext_vector_type(8)));
typedef int32_t fathom_lanes_i4 __attribute__((ext_vector_type(4)));
typedef _Bool fathom_lanes_b4 __attribute__((ext_vector_type(4)));

/// Bit i set when lane i's sign bit is set: one vmovmskps with AVX, where Swift's own lane code takes a
/// dozen shuffles.
static inline __attribute__((always_inline)) uint32_t fathom_lanes_sign_bits(fathom_lanes_i8 v) {
    fathom_lanes_b8 negative = __builtin_convertvector(v < 0, fathom_lanes_b8);
    uint8_t bits;
    __builtin_memcpy(&bits, &negative, 1);
    return bits;
}

/// The same for four lanes (bits 0-3).
static inline __attribute__((always_inline)) uint32_t fathom_lanes_sign_bits4(fathom_lanes_i4 v) {
    fathom_lanes_b4 negative = __builtin_convertvector(v < 0, fathom_lanes_b4);
    uint8_t bits;
    __builtin_memcpy(&bits, &negative, 1);
    return bits & 0xf;
}

#endif
