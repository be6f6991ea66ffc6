/* Fuzz target: the capture app's yaw-only box and general oriented boxes (fathom_box_*, fathom_obb_*). Each input
 * makes one box (valid, or any field values) and runs a sequence of edits and queries on it: every failed edit
 * must leave the box as it was, every successful one must leave a box that passes fathom_box_check and holds the
 * values the header states (the centre set, the scale multiplied, the box re-seated on its floor). Queries are
 * checked against the header's formulas (corners, faces, face distances, the oriented box of the corners), and
 * the point-culling functions against each other (count, mask and indices agree). */
#include "fuzz.h"

#define MAX_STEPS 24
#define MAX_POINTS 64

/* Picks which pointer argument of a call is NULL (FZ_ARG): usually none, else one of the first six. */
static int pick_null(fz_input *in) { return fz_pick_null(in, 236, 6); }

/* The header's validity of a box (fathom_box_check): finite fields, scale > 0, has_floor's byte 0 or 1 (a set floor
 * finite), |center| + 2 * (sx + sy + sz) in each axis, sx * sy * sz and floor + sy finite. */
static int box_valid(const fathom_box *b) {
    if (!fz_finite3(b->center) || !fz_finite3(b->scale) || !isfinite(b->rot_y)) return 0;
    if (!(b->scale.x > 0 && b->scale.y > 0 && b->scale.z > 0)) return 0;
    if (fz_bool_byte(&b->has_floor) != 0 && fz_bool_byte(&b->has_floor) != 1) return 0;
    if (fz_bool_byte(&b->has_floor) == 1 && (!isfinite(b->floor) || !isfinite(b->floor + b->scale.y))) return 0;
    float extent = 2 * (b->scale.x + b->scale.y + b->scale.z);
    float ex = fabsf(b->center.x) + extent, ey = fabsf(b->center.y) + extent, ez = fabsf(b->center.z) + extent;
    if (!isfinite(ex) || !isfinite(ey) || !isfinite(ez)) return 0;
    return isfinite(b->scale.x * b->scale.y * b->scale.z);
}

/* The box's size, for tolerances. */
static double box_magnitude(const fathom_box *b) {
    double m = fabs((double)b->center.x) + fabs((double)b->center.y) + fabs((double)b->center.z) + b->scale.x +
               b->scale.y + b->scale.z;
    if (fz_bool_byte(&b->has_floor)) m += fabs((double)b->floor);
    return m + 1e-37; /* float rounding of subnormal values */
}

static const int corner_sign[8][3] = {
    {-1, 1, -1}, {1, 1, -1}, {1, -1, -1}, {-1, -1, -1}, {-1, 1, 1}, {1, 1, 1}, {1, -1, 1}, {-1, -1, 1},
};

/* Corners of each face (FATHOM_FACE_* order). */
static const int face_corners[6][4] = {
    {0, 1, 2, 3}, {0, 3, 7, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {0, 1, 5, 4}, {4, 5, 6, 7},
};

/* The corners by box.md's formula, in double: center + R_y(rot_y) * (±sx/2, ±sy/2, ±sz/2), bottom ones raised
 * to the floor. */
static void expected_corners(const fathom_box *b, double out[8][3]) {
    double c = cos((double)b->rot_y), s = sin((double)b->rot_y);
    for (int i = 0; i < 8; i++) {
        double lx = corner_sign[i][0] * (double)b->scale.x / 2, ly = corner_sign[i][1] * (double)b->scale.y / 2,
               lz = corner_sign[i][2] * (double)b->scale.z / 2;
        out[i][0] = b->center.x + c * lx + s * lz;
        out[i][1] = b->center.y + ly;
        out[i][2] = b->center.z - s * lx + c * lz;
        if (fz_bool_byte(&b->has_floor) && corner_sign[i][1] < 0 && out[i][1] < b->floor) out[i][1] = b->floor;
    }
}

/* A point buffer: exactly (count - 1) * stride + 12 bytes, sometimes a bad stride or a misaligned pointer; the
 * points mostly around `around` within `extent`, sometimes any floats. */
typedef struct points {
    uint8_t *block;
    const float *ptr;
    size_t count, stride;
    int plain; /* aligned, stride a multiple of 4 and >= 12, count >= 1: the library must accept the buffer */
} points;

static void make_points(fz_input *in, points *p, fathom_vec3 around, float extent) {
    static const size_t strides[] = {12, 12, 12, 12, 16, 16, 24, 32, 20, 0, 4, 8, 13, 14, 64, 36};
    uint8_t k = fz_u8(in);
    p->stride = k < 240 ? strides[k % 16] : (size_t)fz_u8(in);
    p->count = fz_count(in, MAX_POINTS);
    size_t misalign = fz_u8(in) >= 248 ? 1 + fz_u8(in) % 3 : 0;
    size_t bytes = p->count ? (p->count - 1) * p->stride + 12 : 12;
    p->block = malloc(bytes + misalign);
    if (!p->block) abort();
    p->plain = !misalign && p->stride >= 12 && p->stride % 4 == 0 && p->count >= 1;
    uint8_t mode = fz_u8(in);
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
        float f = fz_float(in);
        if (mode < 192 && p->stride >= 12 && p->stride % 4 == 0 && i % p->stride < 12) {
            /* A coordinate of a point near the box. */
            int axis = (int)(i % p->stride) / 4;
            float centre = axis == 0 ? around.x : axis == 1 ? around.y : around.z;
            f = centre + extent * (float)(int8_t)fz_u8(in) / 100.0f;
        }
        memcpy(p->block + misalign + i, &f, 4);
    }
    p->ptr = (const float *)(const void *)(p->block + misalign);
}

static fathom_vec3 point_at(const points *p, size_t i) {
    fathom_vec3 v;
    memcpy(&v, (const uint8_t *)p->ptr + i * p->stride, sizeof v);
    return v;
}

static int all_finite(const points *p) {
    for (size_t i = 0; i < p->count; i++)
        if (!fz_finite3(point_at(p, i))) return 0;
    return 1;
}

/* A count that makes count * stride overflow (the header promises FATHOM_ERR_OVERFLOW before any read). */
static size_t overflowing_count(fz_input *in, size_t stride) {
    size_t extra = fz_u8(in);
    return stride ? SIZE_MAX / stride + 1 + extra : SIZE_MAX - extra;
}

/* ---------------------------------------------------------------------------------------------- */
/* Oriented boxes                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

static void obb_queries(fz_input *in, const fathom_obb *obb_in) {
    fathom_obb obb = *obb_in;
    int nul = pick_null(in);
    fathom_status s, valid = FZ(fathom_obb_check, &obb);
    uint8_t op = fz_u8(in);
    switch (op % 6) {
    case 0: {
        fathom_vec3 corners[8];
        fz_poison(corners, sizeof corners);
        s = FZ(fathom_obb_corners, FZ_ARG(0, &obb), FZ_ARG(1, corners));
        fz_untouched(s, "fathom_obb_corners", corners, sizeof corners);
        fz_null_refused(s, nul, 2, "fathom_obb_corners");
        if (s == FATHOM_OK) {
            fz_need(valid == FATHOM_OK, "fathom_obb_corners", "an obb refused by fathom_obb_check was accepted");
            int finite = 1;
            for (int i = 0; i < 8; i++) finite = finite && fz_finite3(corners[i]);
            fz_need(finite, "fathom_obb_check", "accepted an obb whose corners lie beyond the float range");
            double mean[3] = {0, 0, 0}, m = fz_vnorm(obb.center) + fz_vnorm(obb.scale);
            for (int i = 0; i < 8; i++) {
                mean[0] += corners[i].x / 8.0, mean[1] += corners[i].y / 8.0, mean[2] += corners[i].z / 8.0;
            }
            fz_need(!finite || (fabs(mean[0] - obb.center.x) <= 1e-5 * m && fabs(mean[1] - obb.center.y) <= 1e-5 * m &&
                        fabs(mean[2] - obb.center.z) <= 1e-5 * m),
                    "fathom_obb_corners", "the corners are not centred on the box's centre");
        }
        break;
    }
    case 1: {
        float volume;
        fz_poison(&volume, sizeof volume);
        s = FZ(fathom_obb_volume, FZ_ARG(0, &obb), FZ_ARG(1, &volume));
        fz_untouched(s, "fathom_obb_volume", &volume, sizeof volume);
        fz_null_refused(s, nul, 2, "fathom_obb_volume");
        if (s == FATHOM_OK) {
            /* (In float, sx * sy may underflow before sz multiplies it: either product is the volume.) */
            double e = (double)obb.scale.x * obb.scale.y * obb.scale.z;
            float ef = obb.scale.x * obb.scale.y * obb.scale.z;
            fz_need(fabs(volume - e) <= 1e-6 * e + 1.2e-38 || volume == ef, "fathom_obb_volume", "the volume is not sx * sy * sz");
        }
        break;
    }
    default: {
        /* The culling functions on one point buffer, against each other. */
        points pts;
        make_points(in, &pts, obb.center, fabsf(obb.scale.x) + fabsf(obb.scale.y) + fabsf(obb.scale.z));
        size_t count = pts.count;
        const float *ptr = pts.ptr;
        int overflow = fz_u8(in) >= 250;
        if (overflow) count = overflowing_count(in, pts.stride);
        size_t inside;
        fz_poison(&inside, sizeof inside);
        s = FZ(fathom_obb_count_inside, FZ_ARG(0, &obb), FZ_ARG(1, ptr), count, pts.stride, FZ_ARG(2, &inside));
        fz_untouched(s, "fathom_obb_count_inside", &inside, sizeof inside);
        fz_null_refused(s, nul, 3, "fathom_obb_count_inside");
        if (overflow) fz_need(s != FATHOM_OK, "fathom_obb_count_inside", "an overflowing count was accepted");
        if (!pts.plain && nul < 0) fz_need(s != FATHOM_OK, "fathom_obb_count_inside", "a bad point buffer was accepted");
        if (s == FATHOM_OK) fz_need(valid == FATHOM_OK && inside <= count, "fathom_obb_count_inside", "accepted a bad obb or counted too many");
        if (s != FATHOM_OK || overflow) {
            free(pts.block);
            break;
        }
        /* The mask. */
        uint8_t *mask = malloc(count);
        if (!mask) abort();
        fz_poison(mask, count);
        size_t inside2;
        fz_poison(&inside2, sizeof inside2);
        int with_count = fz_u8(in) & 1;
        s = FZ(fathom_obb_mask_inside, &obb, pts.ptr, count, pts.stride, mask, with_count ? &inside2 : NULL);
        fz_need(s == FATHOM_OK, "fathom_obb_mask_inside", "refused what fathom_obb_count_inside accepted");
        size_t sum = 0;
        for (size_t i = 0; i < count; i++) {
            fz_need(mask[i] <= 1, "fathom_obb_mask_inside", "a mask value not 0 or 1");
            sum += mask[i];
        }
        fz_need(sum == inside, "fathom_obb_mask_inside", "the mask disagrees with fathom_obb_count_inside");
        if (with_count) fz_need(inside2 == inside, "fathom_obb_mask_inside", "out_inside disagrees with the mask");
        /* The indices, into a capacity that may be too small. */
        uint8_t ck = fz_u8(in);
        size_t capacity = ck < 64 ? inside : ck < 128 ? count : ck < 192 ? (inside ? inside - 1 : 0) : ck % 4;
        uint64_t *indices = capacity ? malloc(capacity * sizeof *indices) : NULL;
        if (capacity && !indices) abort();
        if (indices) fz_poison(indices, capacity * sizeof *indices);
        size_t inside3;
        fz_poison(&inside3, sizeof inside3);
        s = FZ(fathom_obb_indices_inside, &obb, pts.ptr, count, pts.stride, indices, capacity, &inside3);
        fz_need(s == (inside > capacity ? FATHOM_ERR_BUFFER_TOO_SMALL : FATHOM_OK), "fathom_obb_indices_inside",
                "not OK when the indices fit, BUFFER_TOO_SMALL when they do not");
        fz_need(inside3 == inside, "fathom_obb_indices_inside", "out_inside disagrees with fathom_obb_count_inside");
        size_t written = inside < capacity ? inside : capacity, next = 0;
        for (size_t i = 0; i < count && next < written; i++)
            if (mask[i]) {
                fz_need(indices[next] == i, "fathom_obb_indices_inside", "the indices are not the mask's, ascending");
                next++;
            }
        if (indices) fz_untouched(FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_indices_inside", indices + written,
                                  (capacity - written) * sizeof *indices);
        free(indices);
        /* The signed distances: negative (or 0) inside, positive (or 0) outside. */
        float *distances = malloc(count * sizeof *distances);
        if (!distances) abort();
        fz_poison(distances, count * sizeof *distances);
        s = FZ(fathom_obb_signed_distances, &obb, pts.ptr, count, pts.stride, distances);
        if (s != FATHOM_OK) fz_untouched(s, "fathom_obb_signed_distances", distances, count * sizeof *distances);
        if (all_finite(&pts)) {
            fz_need(s == FATHOM_OK, "fathom_obb_signed_distances", "refused finite points");
            for (size_t i = 0; i < count; i++) {
                fathom_vec3 p = point_at(&pts, i);
                double tolerance = 1e-5 * (fz_vnorm(p) + fz_vnorm(obb.center) + fz_vnorm(obb.scale));
                if (mask[i]) fz_need(distances[i] <= tolerance, "fathom_obb_signed_distances", "a point inside has a distance > 0");
                else fz_need(distances[i] >= -tolerance, "fathom_obb_signed_distances", "a point outside has a distance < 0");
            }
        } else {
            fz_need(s != FATHOM_OK, "fathom_obb_signed_distances", "accepted non-finite points");
        }
        free(distances);
        free(mask);
        free(pts.block);
        break;
    }
    }
}

static void obb_fit(fz_input *in, fathom_vec3 around, float extent) {
    int nul = pick_null(in);
    points pts;
    make_points(in, &pts, around, extent);
    size_t count = pts.count;
    int overflow = fz_u8(in) >= 250;
    if (overflow) count = overflowing_count(in, pts.stride);
    fathom_obb out;
    float volume;
    fz_poison(&out, sizeof out);
    fz_poison(&volume, sizeof volume);
    fathom_status s = FZ(fathom_obb_fit_pca, FZ_ARG(0, pts.ptr), count, pts.stride, FZ_ARG(1, &out), FZ_ARG(2, &volume));
    fz_untouched(s, "fathom_obb_fit_pca", &out, sizeof out);
    fz_untouched(s, "fathom_obb_fit_pca", &volume, sizeof volume);
    fz_null_refused(s, nul, 3, "fathom_obb_fit_pca");
    if (overflow) fz_need(s != FATHOM_OK, "fathom_obb_fit_pca", "an overflowing count was accepted");
    if (s == FATHOM_OK) {
        fz_need(pts.plain && count >= 4, "fathom_obb_fit_pca", "fewer than 4 points or a bad buffer accepted");
        fz_need(all_finite(&pts), "fathom_obb_fit_pca", "non-finite points accepted");
        fz_need(FZ(fathom_obb_check, &out) == FATHOM_OK, "fathom_obb_fit_pca", "the fitted box fails fathom_obb_check");
        double e = (double)out.scale.x * out.scale.y * out.scale.z;
        float ef = out.scale.x * out.scale.y * out.scale.z;
        fz_need(fabs(volume - e) <= 1e-5 * e + 1.2e-38 || volume == ef, "fathom_obb_fit_pca", "out_volume is not the box's volume");
        fz_need(fabs(fz_qnorm(out.rotation) - 1) <= 1e-3, "fathom_obb_fit_pca", "the rotation is not unit");
        /* It encloses every point. */
        float *distances = malloc(count * sizeof *distances);
        if (!distances) abort();
        if (FZ(fathom_obb_signed_distances, &out, pts.ptr, count, pts.stride, distances) == FATHOM_OK) {
            double spread = fz_vnorm(out.scale);
            for (size_t i = 0; i < count; i++) {
                double tolerance = 1e-4 * spread + 1e-5 * (fz_vnorm(point_at(&pts, i)) + fz_vnorm(out.center));
                fz_need(distances[i] <= tolerance, "fathom_obb_fit_pca", "a point lies outside the fitted box");
            }
        }
        free(distances);
    }
    free(pts.block);
}

/* ---------------------------------------------------------------------------------------------- */
/* The capture app's box: edits                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* A vector argument: mostly small values, sometimes any float. */
static fathom_vec3 vec_arg(fz_input *in) { return fz_vec3(in); }

/* After a successful edit: a valid box, and the fields the edit does not touch as they were. */
static void edited(const char *fn, const fathom_box *before, const fathom_box *box, int center, int scale, int rot,
                   int floor) {
    fz_need(FZ(fathom_box_check, box) == FATHOM_OK, fn, "an edit left a box that fails fathom_box_check");
    if (!center)
        fz_need(box->center.x == before->center.x && box->center.y == before->center.y && box->center.z == before->center.z,
                fn, "the centre changed");
    if (!scale)
        fz_need(box->scale.x == before->scale.x && box->scale.y == before->scale.y && box->scale.z == before->scale.z, fn,
                "the scale changed");
    if (!rot) fz_need(box->rot_y == before->rot_y, fn, "rot_y changed");
    if (!floor)
        fz_need(fz_bool_byte(&box->has_floor) == fz_bool_byte(&before->has_floor) &&
                    (!fz_bool_byte(&box->has_floor) || box->floor == before->floor),
                fn, "the floor changed");
}

/* The edit must have succeeded: the box was valid, the arguments fine, and the result the header gives valid. */
static void must_succeed(fathom_status s, const char *fn, const fathom_box *before, const fathom_box *expected) {
    if (box_valid(before) && box_valid(expected) && s != FATHOM_OK)
        fz_broken(fn, "an edit to a valid box with a valid result was refused");
}

static void edit(fz_input *in, fathom_box *box, uint8_t op) {
    fathom_box before = *box, expected = *box;
    int null_box = fz_u8(in) >= 244;
    fathom_box *target = null_box ? NULL : box;
    fathom_status s;
    const char *fn = "";
    switch (op % 12) {
    case 0: {
        fathom_vec3 c = vec_arg(in);
        fn = "fathom_box_set_center";
        s = FZ(fathom_box_set_center, target, c);
        expected.center = c;
        if (s == FATHOM_OK) {
            edited(fn, &before, box, 1, 0, 0, 0);
            fz_need(box->center.x == c.x && box->center.y == c.y && box->center.z == c.z, fn, "the centre is not the one set");
        }
        if (!null_box) must_succeed(s, fn, &before, &expected);
        break;
    }
    case 1: {
        fathom_vec3 o = vec_arg(in);
        fn = "fathom_box_update_center";
        s = FZ(fathom_box_update_center, target, o);
        expected.center.x += o.x, expected.center.y += o.y, expected.center.z += o.z;
        if (s == FATHOM_OK) {
            edited(fn, &before, box, 1, 0, 0, 0);
            fz_need(box->center.x == expected.center.x && box->center.y == expected.center.y &&
                        box->center.z == expected.center.z,
                    fn, "the centre is not centre + offset");
        }
        if (!null_box && fz_finite3(o)) must_succeed(s, fn, &before, &expected);
        break;
    }
    case 2: {
        fathom_vec3 o = vec_arg(in);
        fathom_pose camera = fz_pose_nudged(in);
        int null_camera = fz_u8(in) >= 240;
        fn = "fathom_box_update_center_in_camera";
        s = FZ(fathom_box_update_center_in_camera, target, o, null_camera ? NULL : &camera);
        if (null_camera) fz_need(s != FATHOM_OK, fn, "a NULL camera was accepted");
        if (s == FATHOM_OK) {
            edited(fn, &before, box, 1, 0, 0, 0);
            double moved[3];
            for (int r = 0; r < 3; r++)
                moved[r] = (double)camera.m[r] * o.x + (double)camera.m[4 + r] * o.y + (double)camera.m[8 + r] * o.z;
            double m = box_magnitude(&before) + fz_vnorm(o);
            fz_need(fabs(box->center.x - (before.center.x + moved[0])) <= 2e-3 * m &&
                        fabs(box->center.y - (before.center.y + moved[1])) <= 2e-3 * m &&
                        fabs(box->center.z - (before.center.z + moved[2])) <= 2e-3 * m,
                    fn, "the centre did not move by R_camera * offset");
        }
        break;
    }
    case 3: {
        float x = fz_float(in), z = fz_float(in);
        fn = "fathom_box_set_center_on_floor";
        s = FZ(fathom_box_set_center_on_floor, target, x, z);
        if (!fz_bool_byte(&before.has_floor)) fz_need(s != FATHOM_OK, fn, "a box without a floor was accepted");
        expected.center.x = x, expected.center.y = before.floor + before.scale.y / 2, expected.center.z = z;
        if (s == FATHOM_OK) {
            edited(fn, &before, box, 1, 0, 0, 0);
            fz_need(box->center.x == x && box->center.z == z && box->center.y == expected.center.y, fn,
                    "the centre is not (x, floor + sy/2, z)");
        }
        if (!null_box && fz_bool_byte(&before.has_floor) == 1) must_succeed(s, fn, &before, &expected);
        break;
    }
    case 4:
    case 5: {
        fathom_vec3 v = vec_arg(in);
        int update = op % 12 == 5;
        if (update) {
            fn = "fathom_box_update_scale";
            s = FZ(fathom_box_update_scale, target, v);
            expected.scale.x *= v.x, expected.scale.y *= v.y, expected.scale.z *= v.z;
        } else {
            fn = "fathom_box_set_scale";
            s = FZ(fathom_box_set_scale, target, v);
            expected.scale = v;
        }
        if (fz_bool_byte(&before.has_floor) == 1) expected.center.y = before.floor + expected.scale.y / 2;
        if (!(v.x > 0 && v.y > 0 && v.z > 0)) fz_need(s != FATHOM_OK, fn, "a scale or multiplier <= 0 was accepted");
        if (s == FATHOM_OK) {
            edited(fn, &before, box, fz_bool_byte(&before.has_floor) == 1, 1, 0, 0);
            fz_need(box->scale.x == expected.scale.x && box->scale.y == expected.scale.y && box->scale.z == expected.scale.z,
                    fn, "the scale is not the one set (or scale * multiplier)");
            if (fz_bool_byte(&before.has_floor) == 1)
                fz_need(box->center.y == expected.center.y && box->center.x == before.center.x &&
                            box->center.z == before.center.z,
                        fn, "the box is not re-seated on its floor (center.y = floor + sy/2)");
        }
        if (!null_box && v.x > 0 && v.y > 0 && v.z > 0 && isfinite(v.x) && isfinite(v.y) && isfinite(v.z))
            must_succeed(s, fn, &before, &expected);
        break;
    }
    case 6:
    case 7: {
        float r = fz_float(in);
        int update = op % 12 == 7;
        if (update) {
            fn = "fathom_box_update_angle";
            s = FZ(fathom_box_update_angle, target, r);
            expected.rot_y += r;
        } else {
            fn = "fathom_box_set_angle";
            s = FZ(fathom_box_set_angle, target, r);
            expected.rot_y = r;
        }
        if (s == FATHOM_OK) {
            edited(fn, &before, box, 0, 0, 1, 0);
            fz_need(box->rot_y == expected.rot_y, fn, "rot_y is not the angle set (or rot_y + radians)");
        }
        if (!null_box && isfinite(r)) must_succeed(s, fn, &before, &expected);
        break;
    }
    case 8: {
        float h = fz_u8(in) < 128 ? before.center.y - before.scale.y / 2 + fz_float(in) * 0.01f : fz_float(in);
        fn = "fathom_box_set_floor";
        s = FZ(fathom_box_set_floor, target, h);
        expected.has_floor = 1, expected.floor = h;
        if (s == FATHOM_OK) {
            edited(fn, &before, box, 0, 0, 0, 1);
            fz_need(fz_bool_byte(&box->has_floor) == 1 && box->floor == h, fn, "the floor is not the height set");
        }
        /* (A floor whose height plus sy overflows may be refused.) */
        if (!null_box && isfinite(h) && isfinite(h + before.scale.y)) must_succeed(s, fn, &before, &expected);
        break;
    }
    case 9: {
        fn = "fathom_box_clear_floor";
        s = FZ(fathom_box_clear_floor, target);
        expected.has_floor = 0;
        if (s == FATHOM_OK) {
            edited(fn, &before, box, 0, 0, 0, 1);
            fz_need(fz_bool_byte(&box->has_floor) == 0, fn, "the floor is still set");
        }
        if (!null_box) must_succeed(s, fn, &before, &expected);
        break;
    }
    default: {
        fathom_vec3 o = vec_arg(in);
        int shrink = op % 12 == 11;
        fn = shrink ? "fathom_box_shrink_side" : "fathom_box_extend_side";
        s = shrink ? FZ(fathom_box_shrink_side, target, o) : FZ(fathom_box_extend_side, target, o);
        float sign = shrink ? -1.0f : 1.0f;
        expected.scale.x = before.scale.x + sign * fabsf(o.x);
        expected.scale.y = before.scale.y + sign * fabsf(o.y);
        expected.scale.z = before.scale.z + sign * fabsf(o.z);
        if (shrink && !(expected.scale.x > 0 && expected.scale.y > 0 && expected.scale.z > 0))
            fz_need(s != FATHOM_OK, fn, "a shrink to a scale <= 0 was accepted");
        if (s == FATHOM_OK) {
            edited(fn, &before, box, 1, 1, 0, 0);
            fz_need(box->scale.x == expected.scale.x && box->scale.y == expected.scale.y && box->scale.z == expected.scale.z,
                    fn, "the scale is not scale +/- |offset|");
            /* center += R_y * offset / 2 */
            double c = cos((double)before.rot_y), sn = sin((double)before.rot_y);
            double dx = (c * o.x + sn * o.z) / 2, dy = (double)o.y / 2, dz = (-sn * o.x + c * o.z) / 2;
            double m = box_magnitude(&before) + fz_vnorm(o);
            fz_need(fabs(box->center.x - (before.center.x + dx)) <= 1e-5 * m &&
                        fabs(box->center.y - (before.center.y + dy)) <= 1e-5 * m &&
                        fabs(box->center.z - (before.center.z + dz)) <= 1e-5 * m,
                    fn, "the centre did not move by R_y * offset / 2");
        }
        break;
    }
    }
    if (null_box) fz_need(s != FATHOM_OK, fn, "a NULL box was accepted");
    fz_unchanged(s, fn, &before, box, sizeof *box);
    if (!box_valid(&before) && !null_box) fz_need(s != FATHOM_OK, fn, "an invalid box was edited");
}

/* ---------------------------------------------------------------------------------------------- */
/* The capture app's box: queries                                                                  */
/* ---------------------------------------------------------------------------------------------- */

static void query(fz_input *in, fathom_box *box, uint8_t op) {
    int nul = pick_null(in);
    fathom_status s;
    fathom_status check = FZ(fathom_box_check, box);
    fz_need((check == FATHOM_OK) == box_valid(box), "fathom_box_check", "disagrees with the header's validity rules");
    double m = box_magnitude(box);
    double bottom = (double)box->center.y - box->scale.y / 2.0, top = (double)box->center.y + box->scale.y / 2.0;
    if (fz_bool_byte(&box->has_floor) && bottom < box->floor) bottom = box->floor;
    switch (op % 5) {
    case 0: {
        fathom_vec3 corners[8];
        fz_poison(corners, sizeof corners);
        s = FZ(fathom_box_corners, FZ_ARG(0, box), FZ_ARG(1, corners));
        fz_untouched(s, "fathom_box_corners", corners, sizeof corners);
        fz_null_refused(s, nul, 2, "fathom_box_corners");
        if (nul < 0) fz_need((s == FATHOM_OK) == (check == FATHOM_OK), "fathom_box_corners", "disagrees with fathom_box_check");
        if (s == FATHOM_OK) {
            double e[8][3];
            expected_corners(box, e);
            int in_range = 1;
            /* In range: rounds to a finite float (below 2^128 - 2^103, halfway from FLT_MAX to 2^128). The box rule is
             * computed in float, so an exact corner a fraction of an ulp past FLT_MAX is accepted, and rounds to it. */
            for (int i = 0; i < 8; i++)
                for (int k = 0; k < 3; k++) in_range = in_range && fabs(e[i][k]) < 0x1.ffffffp127;
            fz_need(in_range, "fathom_box_check", "accepted a box whose corners lie beyond the float range");
            for (int i = 0; i < 8 && in_range; i++)
                fz_need(fabs(corners[i].x - e[i][0]) <= 1e-5 * m && fabs(corners[i].y - e[i][1]) <= 1e-5 * m &&
                            fabs(corners[i].z - e[i][2]) <= 1e-5 * m,
                        "fathom_box_corners", "a corner is not center + R_y * (+-s/2), floor-clamped");
        }
        break;
    }
    case 1: {
        fathom_face faces[6];
        fz_poison(faces, sizeof faces);
        s = FZ(fathom_box_faces, FZ_ARG(0, box), FZ_ARG(1, faces));
        fz_untouched(s, "fathom_box_faces", faces, sizeof faces);
        fz_null_refused(s, nul, 2, "fathom_box_faces");
        if (s == FATHOM_OK) {
            fz_need(check == FATHOM_OK, "fathom_box_faces", "an invalid box was accepted");
            fz_need(top - bottom > -1e-6 * m, "fathom_box_faces", "a box clamped flat by its floor was accepted");
            fathom_vec3 corners[8];
            if (FZ(fathom_box_corners, box, corners) == FATHOM_OK)
                for (int f = 0; f < 6; f++) {
                    double c[3] = {0, 0, 0};
                    for (int k = 0; k < 4; k++) {
                        fathom_vec3 p = corners[face_corners[f][k]];
                        c[0] += p.x / 4.0, c[1] += p.y / 4.0, c[2] += p.z / 4.0;
                    }
                    fz_need(fabs(faces[f].center.x - c[0]) <= 1e-5 * m && fabs(faces[f].center.y - c[1]) <= 1e-5 * m &&
                                fabs(faces[f].center.z - c[2]) <= 1e-5 * m,
                            "fathom_box_faces", "a face's centre is not the mean of its corners");
                }
            /* Outward normals of a yaw-only box: bottom -y, top +y, the rest horizontal; unit orientations. */
            if (box->scale.x > 1e-6 * m && box->scale.z > 1e-6 * m && top - bottom > 1e-6 * m) {
                for (int f = 0; f < 6; f++) {
                    fz_need(fabs(fz_vnorm(faces[f].normal) - 1) <= 1e-3, "fathom_box_faces", "a normal is not unit");
                    fz_need(fabs(fz_qnorm(faces[f].orientation) - 1) <= 1e-3, "fathom_box_faces", "an orientation is not unit");
                }
                fz_need(faces[FATHOM_FACE_TOP].normal.y > 0.999f && faces[FATHOM_FACE_BOTTOM].normal.y < -0.999f,
                        "fathom_box_faces", "the top normal is not +y or the bottom's not -y");
            }
        }
        break;
    }
    case 2: {
        fathom_vec3 point = fz_u8(in) < 96 ? box->center : vec_arg(in);
        float d[6];
        fz_poison(d, sizeof d);
        s = FZ(fathom_box_face_distances, FZ_ARG(0, box), point, FZ_ARG(1, d));
        fz_untouched(s, "fathom_box_face_distances", d, sizeof d);
        fz_null_refused(s, nul, 2, "fathom_box_face_distances");
        if (s == FATHOM_OK) {
            fz_need(check == FATHOM_OK, "fathom_box_face_distances", "an invalid box was accepted");
            if (point.x == box->center.x && point.y == box->center.y && point.z == box->center.z &&
                !fz_bool_byte(&box->has_floor)) {
                double tol = 1e-5 * m;
                fz_need(fabs(d[FATHOM_FACE_FRONT] + box->scale.z / 2.0) <= tol &&
                            fabs(d[FATHOM_FACE_BACK] + box->scale.z / 2.0) <= tol &&
                            fabs(d[FATHOM_FACE_LEFT] + box->scale.x / 2.0) <= tol &&
                            fabs(d[FATHOM_FACE_RIGHT] + box->scale.x / 2.0) <= tol &&
                            fabs(d[FATHOM_FACE_BOTTOM] + box->scale.y / 2.0) <= tol &&
                            fabs(d[FATHOM_FACE_TOP] + box->scale.y / 2.0) <= tol,
                        "fathom_box_face_distances", "the centre is not -s/2 from each face");
            }
        }
        break;
    }
    default: {
        fathom_obb obb;
        fz_poison(&obb, sizeof obb);
        s = FZ(fathom_box_to_obb, FZ_ARG(0, box), FZ_ARG(1, &obb));
        fz_untouched(s, "fathom_box_to_obb", &obb, sizeof obb);
        fz_null_refused(s, nul, 2, "fathom_box_to_obb");
        if (s == FATHOM_OK) {
            fz_need(check == FATHOM_OK, "fathom_box_to_obb", "an invalid box was accepted");
            fz_need(top - bottom > -1e-6 * m, "fathom_box_to_obb", "a box clamped flat by its floor was accepted");
            fz_need(FZ(fathom_obb_check, &obb) == FATHOM_OK, "fathom_box_to_obb", "the obb fails fathom_obb_check");
            /* "Its corners' box". */
            fathom_vec3 a[8], b[8];
            if (FZ(fathom_box_corners, box, a) == FATHOM_OK && FZ(fathom_obb_corners, &obb, b) == FATHOM_OK)
                for (int i = 0; i < 8; i++)
                    /* (Corners beyond the float range are reported by the corners query.) */
                    fz_need(!fz_finite3(a[i]) || (fabs((double)a[i].x - b[i].x) <= 1e-5 * m && fabs((double)a[i].y - b[i].y) <= 1e-5 * m &&
                                   fabs((double)a[i].z - b[i].z) <= 1e-5 * m),
                            "fathom_box_to_obb", "the obb's corners are not the box's corners");
            obb_queries(in, &obb);
        } else if (check == FATHOM_OK && nul < 0) {
            fz_need(s == FATHOM_ERR_DEGENERATE && !(top > bottom + 1e-6 * m + 1e-44), "fathom_box_to_obb",
                    "a valid box with height was refused");
        }
        break;
    }
    }
}

static void fit_upright(fz_input *in, fathom_box *box) {
    int nul = pick_null(in);
    points pts;
    make_points(in, &pts, box->center, box->scale.x + box->scale.y + box->scale.z);
    size_t count = pts.count;
    int overflow = fz_u8(in) >= 250;
    if (overflow) count = overflowing_count(in, pts.stride);
    fathom_box out;
    float volume;
    fz_poison(&out, sizeof out);
    fz_poison(&volume, sizeof volume);
    fathom_status s = FZ(fathom_box_fit_upright, FZ_ARG(0, pts.ptr), count, pts.stride, FZ_ARG(1, &out), FZ_ARG(2, &volume));
    fz_untouched(s, "fathom_box_fit_upright", &out, sizeof out);
    fz_untouched(s, "fathom_box_fit_upright", &volume, sizeof volume);
    fz_null_refused(s, nul, 3, "fathom_box_fit_upright");
    if (overflow) fz_need(s != FATHOM_OK, "fathom_box_fit_upright", "an overflowing count was accepted");
    if (s == FATHOM_OK) {
        fz_need(pts.plain && all_finite(&pts), "fathom_box_fit_upright", "a bad buffer or non-finite points accepted");
        fz_need(FZ(fathom_box_check, &out) == FATHOM_OK, "fathom_box_fit_upright", "the fitted box fails fathom_box_check");
        fz_need(fz_bool_byte(&out.has_floor) == 0, "fathom_box_fit_upright", "the fitted box has a floor");
        fz_need(out.rot_y >= 0 && out.rot_y < FZ_PI_F / 2, "fathom_box_fit_upright", "rot_y outside [0, pi/2)");
        fz_need(volume == out.scale.x * out.scale.y * out.scale.z, "fathom_box_fit_upright", "out_volume is not sx * sy * sz");
        /* It encloses every point. */
        double m = box_magnitude(&out);
        for (size_t i = 0; i < count; i++) {
            float d[6];
            fathom_vec3 p = point_at(&pts, i);
            if (FZ(fathom_box_face_distances, &out, p, d) != FATHOM_OK) continue;
            for (int f = 0; f < 6; f++)
                fz_need(d[f] <= 1e-4 * (m + fz_vnorm(p)), "fathom_box_fit_upright", "a point lies outside the fitted box");
        }
        if (fz_u8(in) & 1) *box = out;
    }
    free(pts.block);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    fathom_box box;
    uint8_t start = fz_u8(&in);
    if (start < 208) {
        fathom_vec3 center = fz_vec3(&in), scale = fz_vec3(&in);
        float rot_y = fz_float(&in);
        fathom_box out;
        fz_poison(&out, sizeof out);
        fathom_status s = FZ(fathom_box_init, center, scale, rot_y, start == 207 ? NULL : &out);
        fz_untouched(s, "fathom_box_init", &out, sizeof out);
        if (start == 207) fz_need(s != FATHOM_OK, "fathom_box_init", "a NULL out was accepted");
        fathom_box expected = {center, scale, rot_y, 0, 0};
        if (start != 207) {
            if (box_valid(&expected)) fz_need(s == FATHOM_OK, "fathom_box_init", "a valid box was refused");
            else fz_need(s != FATHOM_OK, "fathom_box_init", "an invalid box was made");
        }
        if (s == FATHOM_OK) {
            fz_need(fz_bool_byte(&out.has_floor) == 0 && out.rot_y == rot_y && out.center.x == center.x &&
                        out.center.y == center.y && out.center.z == center.z && out.scale.x == scale.x &&
                        out.scale.y == scale.y && out.scale.z == scale.z,
                    "fathom_box_init", "the box is not the one asked for");
            box = out;
        } else {
            box = (fathom_box){{0.1f, 0.2f, -1.5f}, {0.3f, 0.4f, 0.5f}, 0.7f, 0, 0};
        }
        if (fz_u8(&in) >= 128) {
            box.has_floor = 1;
            box.floor = box.center.y - box.scale.y / 2 + fz_float(&in) * 0.01f;
            if (!isfinite(box.floor)) box.has_floor = 0, box.floor = 0;
        }
    } else {
        /* Any field values: every edit must refuse an invalid box and leave it unchanged. */
        box.center = fz_vec3(&in);
        box.scale = fz_vec3(&in);
        box.rot_y = fz_float(&in);
        box.floor = fz_float(&in);
        /* has_floor's byte: 0 or 1, or (as memcpy can leave it) another, which every function must refuse. */
        if (fz_u8(&in) < 192) box.has_floor = fz_u8(&in) & 1;
        else fz_set_bool_byte(&box.has_floor, fz_bool_byte_of(fz_u32(&in)));
    }
    for (int step = 0; step < MAX_STEPS && in.size > 0; step++) {
        uint8_t op = fz_u8(&in);
        if (op < 144) edit(&in, &box, op);
        else if (op < 224) query(&in, &box, op);
        else if (op < 236) fit_upright(&in, &box);
        else if (op < 248) {
            fathom_obb obb;
            obb.center = fz_vec3(&in);
            obb.scale = fz_vec3(&in);
            obb.rotation = fz_quat(&in);
            if (fz_u8(&in) < 192) {
                fathom_quat unit;
                if (fathom_quat_normalize(obb.rotation, &unit) == FATHOM_OK) obb.rotation = unit;
            }
            obb_queries(&in, &obb);
        } else {
            obb_fit(&in, box.center, box.scale.x + box.scale.y + box.scale.z);
        }
    }
    return 0;
}
