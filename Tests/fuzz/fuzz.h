/*
 * fuzz.h — what every libFuzzer target of the C ABI shares: reading typed values out of the fuzzer's bytes,
 * and checking the header's promises on every call:
 *  - the status is one of the enum's values;
 *  - a failed call names its function first in fathom_last_error() ("fathom_fit_plane: ...");
 *  - a failed call writes nothing through its out-pointers and leaves the object it was to change as it was;
 *  - the 1.0 rules: a nonzero reserved word or a bool byte other than 0 or 1 in an input is refused; an output's
 *    reserved words are 0 and its bools 0 or 1.
 * A broken promise aborts, so libFuzzer (or the replay driver) reports it like a crash.
 */
#ifndef FATHOM_FUZZ_H
#define FATHOM_FUZZ_H

#include <fathom.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Reading the fuzzer's bytes                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/** The fuzzer's input, consumed from the front. Past its end every read gives zeros. */
typedef struct fz_input {
    const uint8_t *data;
    size_t size;
} fz_input;

static inline uint8_t fz_u8(fz_input *in) {
    if (in->size == 0) return 0;
    uint8_t value = in->data[0];
    in->data++;
    in->size--;
    return value;
}

static inline uint32_t fz_u32(fz_input *in) {
    uint32_t value = 0;
    for (int i = 0; i < 4; i++) value |= (uint32_t)fz_u8(in) << (8 * i);
    return value;
}

/* Each read is its own statement: the order of two reads in one expression is unspecified in C, and gcc (the
 * replay build) and clang (the fuzz build) would then read an input differently. */
static inline uint64_t fz_u64(fz_input *in) {
    uint64_t low = fz_u32(in);
    uint64_t high = fz_u32(in);
    return low | high << 32;
}

/** A count in 0...max. */
static inline size_t fz_count(fz_input *in, size_t max) {
    return max == 0 ? 0 : (size_t)(fz_u32(in) % (max + 1));
}

/** For a target whose input is a file: up to `capacity` of its bytes from its end, last byte first, copied into
 *  `buffer`, to read its other choices from (capacities, flags), so that they change with the file. */
static inline fz_input fz_input_from_end(const uint8_t *data, size_t size, uint8_t *buffer, size_t capacity) {
    size_t n = size < capacity ? size : capacity;
    for (size_t i = 0; i < n; i++) buffer[i] = data[size - 1 - i];
    fz_input in = {buffer, n};
    return in;
}

/** A float the way geometry meets them: usually a small value with a few significant bits (so that
 *  points coincide, lie on lines and planes, and rotations come out rigid), sometimes a boundary value,
 *  sometimes any bit pattern (NaN payloads, subnormals, 3e38). */
static inline float fz_float(fz_input *in) {
    static const float special[] = {
        0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-3f, 1e-7f, 1e-30f, 1e-45f, 1e7f, 1e20f, 1e32f,
        3.4e38f, -3.4e38f, INFINITY, -INFINITY, NAN, 3.14159265f, 1.5707964f, 0.70710677f,
    };
    uint8_t kind = fz_u8(in);
    if (kind < 160) return (float)(int8_t)fz_u8(in) / (float)(1u << (kind % 8));
    if (kind < 224) return special[fz_u8(in) % (sizeof special / sizeof special[0])];
    uint32_t bits = fz_u32(in);
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static inline double fz_double(fz_input *in) {
    uint8_t kind = fz_u8(in);
    if (kind < 224) return (double)fz_float(in);
    if (kind < 240) {
        double mantissa = (double)(int8_t)fz_u8(in);
        int exponent = (int)(fz_u8(in) % 128) * 8 - 512;
        return ldexp(mantissa, exponent);
    }
    uint64_t bits = fz_u64(in);
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static inline fathom_vec3 fz_vec3(fz_input *in) {
    fathom_vec3 v;
    v.x = fz_float(in);
    v.y = fz_float(in);
    v.z = fz_float(in);
    return v;
}

static inline fathom_quat fz_quat(fz_input *in) {
    fathom_quat q;
    q.x = fz_float(in);
    q.y = fz_float(in);
    q.z = fz_float(in);
    q.w = fz_float(in);
    return q;
}

/** A pose: mostly a rigid one (a rotation about a fuzzed axis and a fuzzed translation), sometimes any
 *  sixteen floats. */
static inline fathom_pose fz_pose(fz_input *in) {
    fathom_pose pose;
    if (fz_u8(in) < 200) {
        fathom_quat q;
        fathom_vec3 axis = fz_vec3(in);
        if (fathom_quat_from_axis_angle(axis, fz_float(in), &q) != FATHOM_OK) q = (fathom_quat){0, 0, 0, 1};
        if (fathom_pose_from_rotation_translation(q, fz_vec3(in), &pose) != FATHOM_OK) {
            memset(&pose, 0, sizeof pose);
            pose.m[0] = pose.m[5] = pose.m[10] = pose.m[15] = 1;
        }
    } else {
        for (int i = 0; i < 16; i++) pose.m[i] = fz_float(in);
    }
    return pose;
}

/** A pose argument: fz_pose's, sometimes with one element nudged a little (just past, or within, the rigidity
 *  tolerance). */
static inline fathom_pose fz_pose_nudged(fz_input *in) {
    fathom_pose p = fz_pose(in);
    uint8_t k = fz_u8(in);
    if (k >= 224) p.m[k % 16] += fz_float(in) * 1e-3f;
    return p;
}

static inline fathom_intrinsics fz_intrinsics(fz_input *in) {
    fathom_intrinsics k;
    k.fx = fz_float(in);
    k.fy = fz_float(in);
    k.cx = fz_float(in);
    k.cy = fz_float(in);
    k.width = fz_u8(in) < 240 ? (uint32_t)fz_u8(in) + 1 : fz_u32(in);
    k.height = fz_u8(in) < 240 ? (uint32_t)fz_u8(in) + 1 : fz_u32(in);
    return k;
}

/** `n` bytes of malloc'd memory (never NULL, even for 0: it aborts when there is none). */
static inline void *fz_malloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) abort();
    return p;
}

/** `count` floats (a malloc'd buffer the caller frees; never NULL, even for 0). */
static inline float *fz_floats(fz_input *in, size_t count) {
    float *values = fz_malloc(count * sizeof(float));
    for (size_t i = 0; i < count; i++) values[i] = fz_float(in);
    return values;
}

/* ---------------------------------------------------------------------------------------------- */
/* Checking the header's promises                                                                  */
/* ---------------------------------------------------------------------------------------------- */

#define FZ_POISON 0xA5

/** Stores `byte` in a C bool field as a caller's memcpy or memset would (assigning 2 to a bool stores 1), so that a
 *  byte other than 0 or 1 reaches the library: an input struct's bool holding one is FATHOM_ERR_OUT_OF_RANGE. */
static inline void fz_set_bool_byte(bool *field, uint8_t byte) { memcpy(field, &byte, 1); }

/** The byte a bool field holds, read without loading it as a bool (a bool holding another byte than 0 or 1 is
 *  undefined to load, and UBSan's bool check aborts on it): 0 or 1 when the library wrote it. */
static inline int fz_bool_byte(const bool *field) {
    uint8_t byte;
    memcpy(&byte, field, 1);
    return byte;
}

/** A bool field's byte from a fuzzed 32-bit value: the value itself when it is 0 or 1, else a byte that is
 *  neither (so the value is valid exactly when it was as the old int32_t/uint32_t field). */
static inline uint8_t fz_bool_byte_of(uint32_t value) { return value <= 1 ? (uint8_t)value : (uint8_t)(2 + value % 254); }

/** The same box, field by field and bit for bit (a box has padding after has_floor, which memcmp would compare). */
static inline int fz_same_box(const fathom_box *a, const fathom_box *b) {
    return memcmp(&a->center, &b->center, sizeof a->center) == 0 && memcmp(&a->scale, &b->scale, sizeof a->scale) == 0 &&
           memcmp(&a->rot_y, &b->rot_y, sizeof a->rot_y) == 0 && memcmp(&a->floor, &b->floor, sizeof a->floor) == 0 &&
           fz_bool_byte(&a->has_floor) == fz_bool_byte(&b->has_floor);
}

/** Whether every one of `n` bytes is 0 (reserved words the library wrote). */
static inline int fz_all_zero(const void *p, size_t n) {
    const uint8_t *bytes = p;
    for (size_t i = 0; i < n; i++)
        if (bytes[i] != 0) return 0;
    return 1;
}

/** Fills an output with the poison byte, so that a write by a failed call shows. */
static inline void fz_poison(void *p, size_t n) { memset(p, FZ_POISON, n); }

static inline void fz_broken(const char *function, const char *promise) {
    fprintf(stderr, "broken promise in %s: %s (last error: \"%s\")\n", function, promise, fathom_last_error());
    abort();
}

/** A result the header states: `condition` holds, else `promise` of `function` is broken. */
static inline void fz_need(int condition, const char *function, const char *promise) {
    if (!condition) fz_broken(function, promise);
}

/** A report summary as the library writes it: every bool's byte 0 or 1 (the box's when there is a box) and every
 *  reserved word 0 (its own and those of the trajectory and coverage summaries in it). Check before reading a bool. */
static inline void fz_check_summary_form(const fathom_report_summary *s, const char *function) {
    const bool *flags[] = {&s->has_floor,   &s->has_focus,   &s->has_trajectory, &s->has_coverage, &s->coverage.complete,
                           &s->has_support, &s->has_ceiling, &s->object_capture};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (fz_bool_byte(flags[i]) > 1) fz_broken(function, "a bool of the summary is neither false (0) nor true (1)");
    if (s->box_source != FATHOM_BOX_NONE && fz_bool_byte(&s->box.has_floor) > 1)
        fz_broken(function, "the box's has_floor is neither false (0) nor true (1)");
    if (!fz_all_zero(s->reserved, sizeof s->reserved) || !fz_all_zero(s->trajectory.reserved, sizeof s->trajectory.reserved) ||
        !fz_all_zero(s->coverage.reserved, sizeof s->coverage.reserved))
        fz_broken(function, "a reserved word of the summary is not 0");
}

/** The status is a known value, and a failure's message begins with the function's name and ": ". */
static inline void fz_status(fathom_status status, const char *function) {
    if ((int)status < FATHOM_OK || (int)status > FATHOM_ERR_NO_DATA) fz_broken(function, "status out of the enum");
    if (status == FATHOM_OK) return;
    size_t n = strlen(function);
    const char *message = fathom_last_error();
    if (strncmp(message, function, n) != 0 || message[n] != ':' || message[n + 1] != ' ')
        fz_broken(function, "fathom_last_error() does not name the failed function");
}

/** On failure, an output filled by fz_poison was not written. */
static inline void fz_untouched(fathom_status status, const char *function, const void *p, size_t n) {
    if (status == FATHOM_OK) return;
    const uint8_t *bytes = p;
    for (size_t i = 0; i < n; i++)
        if (bytes[i] != FZ_POISON) fz_broken(function, "a failed call wrote an output");
}

/** Bytes a call had no business writing (past the count it reports, or an output not asked for) are still poison. */
static inline void fz_untouched_past(const char *function, const void *p, size_t n) {
    const uint8_t *bytes = p;
    for (size_t i = 0; i < n; i++)
        if (bytes[i] != FZ_POISON) fz_broken(function, "wrote past what it reports (or an output not asked for)");
}

/** On failure, an in-out value equals its copy from before the call. */
static inline void fz_unchanged(fathom_status status, const char *function, const void *before, const void *after,
                                size_t n) {
    if (status != FATHOM_OK && memcmp(before, after, n) != 0) fz_broken(function, "a failed call changed its object");
}

/** Calls `function(...)` and checks its status; evaluates to the status. */
#define FZ(function, ...) fz_checked(function(__VA_ARGS__), #function)

static inline fathom_status fz_checked(fathom_status status, const char *function) {
    fz_status(status, function);
    return status;
}

/* ---------------------------------------------------------------------------------------------- */
/* NULL arguments                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/** Which pointer argument of a call is NULL: usually none (-1); from the byte value `from` up, argument number
 *  byte % `count`. */
static inline int fz_pick_null(fz_input *in, uint8_t from, int count) {
    uint8_t b = fz_u8(in);
    return b >= from ? b % count : -1;
}

/** Pointer argument number `k`, `p`, or NULL when it is the one fz_pick_null picked (in a local named `nul`). */
#define FZ_ARG(k, p) (nul == (k) ? NULL : (p))

/** A required pointer (argument number < `required`) was NULL: the call must have failed. */
static inline void fz_null_refused(fathom_status s, int nul, int required, const char *function) {
    if (nul >= 0 && nul < required && s == FATHOM_OK) fz_broken(function, "a NULL required pointer was accepted");
}

/* ---------------------------------------------------------------------------------------------- */
/* Floats and vectors                                                                              */
/* ---------------------------------------------------------------------------------------------- */

#define FZ_PI_F 3.14159265f

/** The same float: the same bits, or both NaN. */
static inline int fz_same_float(float a, float b) { return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)); }

static inline int fz_finite3(fathom_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static inline double fz_vnorm(fathom_vec3 v) { return sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z); }

static inline double fz_qnorm(fathom_quat q) {
    return sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
}

#endif
