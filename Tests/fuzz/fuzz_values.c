/* Fuzz target: the value functions (quaternions, poses, pose conventions, cameras, primitive casts, tags, labels,
 * tap flows, trajectories, status names and versions, the RANSAC and batch options' defaults). One selector byte
 * picks the function (poses with which >= 24: fathom_poses_convert); its arguments come from the
 * rest of the bytes: rigid and slightly or wildly non-rigid poses, non-finite and huge floats, NULL pointers
 * (where the header allows them, and where it does not), bad enums, small and exact capacities. Besides the
 * header's general promises, where it states a result exactly (a range, a miss's fields, a count, an anchor
 * rule), the harness checks it. */
#include "fuzz.h"

#include <float.h>

/* Picks which pointer argument of a call is NULL (FZ_ARG): usually none, else one of the first eight. */
static int pick_null(fz_input *in) { return fz_pick_null(in, 232, 8); }

/* A quaternion argument: mostly a unit one, sometimes any four floats. */
static fathom_quat quat_arg(fz_input *in) {
    fathom_quat q = fz_quat(in);
    if (fz_u8(in) < 192) {
        fathom_quat unit;
        if (fathom_quat_normalize(q, &unit) == FATHOM_OK) q = unit;
    }
    return q;
}

/* A ray: origin and direction from the bytes, or a camera ray. */
static fathom_ray ray_arg(fz_input *in) {
    fathom_ray r;
    r.origin = fz_vec3(in);
    r.direction = fz_vec3(in);
    return r;
}

static void range_arg(fz_input *in, float *tmin, float *tmax) {
    uint8_t k = fz_u8(in);
    if (k < 128) {
        *tmin = 0;
        *tmax = INFINITY;
    } else if (k < 224) {
        *tmin = fabsf(fz_float(in));
        *tmax = *tmin + fabsf(fz_float(in));
    } else {
        *tmin = fz_float(in);
        *tmax = fz_float(in);
    }
}

/* The hit's fields as the header states them. */
static void check_hit(fathom_status s, const char *fn, const fathom_hit *h, float tmin, float tmax,
                      const fathom_ray *ray, uint32_t max_primitive) {
    if (s != FATHOM_OK) return;
    if (h->primitive == FATHOM_NO_HIT) {
        fathom_hit miss;
        memset(&miss, 0, sizeof miss);
        miss.t = INFINITY;
        miss.primitive = FATHOM_NO_HIT;
        fz_need(memcmp(&miss, h, sizeof miss) == 0, fn, "a miss is t = INFINITY, primitive FATHOM_NO_HIT, all else 0");
        return;
    }
    fz_need(h->primitive <= max_primitive, fn, "primitive out of range");
    fz_need(h->t >= tmin && h->t <= tmax, fn, "a hit's t lies outside [tmin, tmax]");
    fz_need(isfinite(h->t), fn, "a hit at t = infinity");
    /* The point origin + t * direction is finite unless it lies beyond the float range. */
    double px = ray->origin.x + (double)h->t * ray->direction.x, py = ray->origin.y + (double)h->t * ray->direction.y,
           pz = ray->origin.z + (double)h->t * ray->direction.z;
    if (fabs(px) < 3e38 && fabs(py) < 3e38 && fabs(pz) < 3e38)
        fz_need(fz_finite3(h->point), fn, "a hit at a non-finite point");
    fz_need(h->reserved[0] == 0 && h->reserved[1] == 0, fn, "reserved bytes not 0");
    fz_need(h->classification == 0, fn, "a primitive hit has a classification");
    fz_need(fz_bool_byte(&h->front_face) <= 1, fn, "front_face not false (0) or true (1)");
    double n = fz_vnorm(h->normal);
    fz_need(fabs(n - 1) <= 1e-3, fn, "the hit normal is not unit");
    double d = (double)ray->direction.x * h->normal.x + (double)ray->direction.y * h->normal.y +
               (double)ray->direction.z * h->normal.z;
    double scale = fz_vnorm(ray->direction);
    if (d < -1e-4 * scale) fz_need(h->front_face == 1, fn, "front_face 0 for a ray against the normal");
    if (d > 1e-4 * scale) fz_need(h->front_face == 0, fn, "front_face 1 for a ray along the normal");
}

/* A small mesh for the tap flows (NULL when the bytes say none or the vertices are refused). */
static fathom_mesh *small_mesh(fz_input *in) {
    if (fz_u8(in) < 128) return NULL;
    float vertices[8 * 3];
    uint32_t indices[6 * 3];
    size_t nv = 3 + fz_count(in, 5), nt = 1 + fz_count(in, 5);
    uint8_t shape = fz_u8(in);
    float y = fz_float(in);
    for (size_t i = 0; i < nv; i++) {
        if (shape < 192 && i < 4) {
            /* A floor quad at height y. */
            vertices[3 * i] = (i & 1) ? 10.0f : -10.0f;
            vertices[3 * i + 1] = y;
            vertices[3 * i + 2] = (i & 2) ? 10.0f : -10.0f;
        } else {
            vertices[3 * i] = fz_float(in);
            vertices[3 * i + 1] = fz_float(in);
            vertices[3 * i + 2] = fz_float(in);
        }
    }
    for (size_t t = 0; t < nt; t++)
        for (int k = 0; k < 3; k++) indices[3 * t + k] = (uint32_t)(fz_u8(in) % nv);
    if (shape < 192) {
        uint32_t quad[6] = {0, 1, 2, 1, 3, 2};
        memcpy(indices, quad, sizeof quad);
        if (nt < 2) nt = 2;
    }
    fathom_mesh *mesh = NULL;
    if (fathom_mesh_create(vertices, nv, 12, indices, nt, NULL, FATHOM_MESH_COPY, &mesh) != FATHOM_OK) return NULL;
    return mesh;
}

/* A point buffer as the header describes them: exactly (count - 1) * stride + 12 bytes (so a read past the last
 * point is caught), sometimes a bad stride or a misaligned pointer. */
typedef struct points {
    uint8_t *block;
    const float *ptr;
    size_t count, stride;
} points;

static void make_points(fz_input *in, points *p, size_t max_count) {
    static const size_t strides[] = {12, 12, 12, 16, 16, 24, 32, 20, 0, 4, 8, 13, 14, 15, 64, 36};
    uint8_t k = fz_u8(in);
    p->stride = k < 240 ? strides[k % 16] : (size_t)fz_u8(in);
    p->count = fz_count(in, max_count);
    size_t misalign = fz_u8(in) >= 248 ? 1 + fz_u8(in) % 3 : 0;
    size_t bytes = p->count ? (p->count - 1) * p->stride + 12 : 12;
    p->block = malloc(bytes + misalign);
    if (!p->block) abort();
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
        float f = fz_float(in);
        memcpy(p->block + misalign + i, &f, 4);
    }
    p->ptr = (const float *)(const void *)(p->block + misalign);
}

/* ---------------------------------------------------------------------------------------------- */
/* Quaternions                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

static void quats(fz_input *in, uint8_t which) {
    int nul = pick_null(in);
    fathom_status s;
    switch (which % 8) {
    case 0: {
        fathom_vec3 axis = fz_vec3(in);
        float angle = fz_float(in);
        fathom_quat out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_quat_from_axis_angle, axis, angle, FZ_ARG(0, &out));
        fz_untouched(s, "fathom_quat_from_axis_angle", &out, sizeof out);
        fz_null_refused(s, nul, 1, "fathom_quat_from_axis_angle");
        if (s == FATHOM_OK) fz_need(fabs(fz_qnorm(out) - 1) <= 1e-3, "fathom_quat_from_axis_angle", "the rotation is not unit");
        break;
    }
    case 1: {
        float m[9];
        if (fz_u8(in) < 160) {
            if (fathom_quat_to_matrix(quat_arg(in), m) != FATHOM_OK)
                for (int i = 0; i < 9; i++) m[i] = (i % 4 == 0) ? 1.0f : 0.0f;
            if (fz_u8(in) >= 128) {
                int i = fz_u8(in) % 9;
                m[i] += fz_float(in) * 1e-3f;
            }
        } else {
            for (int i = 0; i < 9; i++) m[i] = fz_float(in);
        }
        fathom_quat out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_quat_from_matrix, FZ_ARG(0, m), FZ_ARG(1, &out));
        fz_untouched(s, "fathom_quat_from_matrix", &out, sizeof out);
        fz_null_refused(s, nul, 2, "fathom_quat_from_matrix");
        if (s == FATHOM_OK) fz_need(fabs(fz_qnorm(out) - 1) <= 1e-3, "fathom_quat_from_matrix", "the quaternion is not unit");
        break;
    }
    case 2: {
        fathom_quat q = quat_arg(in);
        float out[9];
        fz_poison(out, sizeof out);
        s = FZ(fathom_quat_to_matrix, q, FZ_ARG(0, out));
        fz_untouched(s, "fathom_quat_to_matrix", out, sizeof out);
        fz_null_refused(s, nul, 1, "fathom_quat_to_matrix");
        if (s == FATHOM_OK) {
            fathom_quat back;
            fathom_status r = FZ(fathom_quat_from_matrix, out, &back);
            fz_need(r == FATHOM_OK, "fathom_quat_from_matrix", "the matrix of a rotation quaternion is refused");
        }
        break;
    }
    case 3: {
        fathom_quat a = quat_arg(in), b = quat_arg(in), out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_quat_multiply, a, b, FZ_ARG(0, &out));
        fz_untouched(s, "fathom_quat_multiply", &out, sizeof out);
        fz_null_refused(s, nul, 1, "fathom_quat_multiply");
        break;
    }
    case 4: {
        fathom_quat q = fz_quat(in), out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_quat_normalize, q, FZ_ARG(0, &out));
        fz_untouched(s, "fathom_quat_normalize", &out, sizeof out);
        fz_null_refused(s, nul, 1, "fathom_quat_normalize");
        if (s == FATHOM_OK) fz_need(fabs(fz_qnorm(out) - 1) <= 1e-5, "fathom_quat_normalize", "the result is not unit");
        break;
    }
    case 5: {
        fathom_quat a = quat_arg(in), b = quat_arg(in), out;
        float t = fz_float(in);
        fz_poison(&out, sizeof out);
        s = FZ(fathom_quat_slerp, a, b, t, FZ_ARG(0, &out));
        fz_untouched(s, "fathom_quat_slerp", &out, sizeof out);
        fz_null_refused(s, nul, 1, "fathom_quat_slerp");
        if (s == FATHOM_OK) fz_need(fabs(fz_qnorm(out) - 1) <= 1e-3, "fathom_quat_slerp", "the result is not unit");
        break;
    }
    case 6: {
        fathom_quat a = quat_arg(in), b = quat_arg(in);
        float out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_quat_angle_between, a, b, FZ_ARG(0, &out));
        fz_untouched(s, "fathom_quat_angle_between", &out, sizeof out);
        fz_null_refused(s, nul, 1, "fathom_quat_angle_between");
        if (s == FATHOM_OK) fz_need(out >= 0 && out <= FZ_PI_F, "fathom_quat_angle_between", "the angle is outside [0, pi]");
        break;
    }
    default: {
        fathom_quat q = quat_arg(in);
        fathom_vec3 v = fz_vec3(in), out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_quat_rotate, q, v, FZ_ARG(0, &out));
        fz_untouched(s, "fathom_quat_rotate", &out, sizeof out);
        fz_null_refused(s, nul, 1, "fathom_quat_rotate");
        break;
    }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Poses                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

static int rigid(const fathom_pose *p) { return fathom_pose_check_rigid(p, FATHOM_RIGID_TOLERANCE) == FATHOM_OK; }

/* Where a rigid pose's inverse translation -R^T t lies against the float range, from the exact (double) value of
 * each element, the dot product of a column of R with t: 1 when some element is beyond FLT_MAX by more than the
 * rounding of the float computation (it must leave the range: FATHOM_ERR_NOT_FINITE), -1 when every element is
 * inside by more than that (it must not), 0 in between. The camera axes' signs do not change these sizes. */
static int inverse_beyond_floats(const fathom_pose *p) {
    int beyond = -1;
    for (int r = 0; r < 3; r++) {
        double t = 0, magnitude = 0;
        for (int k = 0; k < 3; k++) {
            t -= (double)p->m[r * 4 + k] * p->m[12 + k];
            magnitude += fabs((double)p->m[r * 4 + k] * p->m[12 + k]);
        }
        double slack = 4e-7 * magnitude;
        if (fabs(t) > (double)FLT_MAX + slack) return 1;
        if (fabs(t) >= (double)FLT_MAX - slack) beyond = 0;
    }
    return beyond;
}

/* fathom_poses_convert: up to 4 poses (rigid, nudged or any 16 floats, some far out), conventions in and out of
 * the enum, NULL arrays, count 0, in place. On failure `out` is as it was (in place: the poses are unchanged);
 * FATHOM_ERR_NOT_RIGID only with a pose that is not rigid, FATHOM_ERR_NOT_FINITE only with one that is not finite
 * or (for a conversion that inverts) whose inverse's translation leaves the float range, and valid arguments fail
 * only that way. On success every pose was rigid, the conventions known, no inverse left the float range, and each
 * result is rigid with the bottom row (0, 0, 0, 1): between camera-to-world conventions (and to the same one)
 * exactly the pose, columns 1 and 2 negated when the camera axes change; to or from world-to-camera the rotation
 * transposed exactly (with those signs) and the translation -R^T t up to float rounding. */
static void poses_convert(fz_input *in) {
    const char *f = "fathom_poses_convert";
    fathom_pose poses[4], copy[4], out[4];
    size_t count = fz_u8(in) % 5;
    for (size_t i = 0; i < count; i++) {
        uint8_t kind = fz_u8(in);
        if (kind < 32) {
            for (int e = 0; e < 16; e++) poses[i].m[e] = fz_float(in); /* any sixteen floats */
        } else {
            poses[i] = fz_pose_nudged(in);
            if (kind >= 224) {
                /* far out: a translation near the float range's end, whose inverse may leave it */
                for (int e = 12; e < 15; e++) poses[i].m[e] = (fz_u8(in) & 1 ? -1 : 1) * (float)(fz_u8(in) + 1) * (FLT_MAX / 256);
            }
        }
    }
    uint8_t c = fz_u8(in);
    uint32_t from = c < 240 ? c % 3u : (c & 1 ? 3u + fz_u8(in) : fz_u32(in));
    c = fz_u8(in);
    uint32_t to = c < 240 ? c % 3u : (c & 1 ? 3u + fz_u8(in) : fz_u32(in));
    /* < 0xF0: in place when mode % 4 == 1; 0xF0...: NULL poses; 0xF4...: NULL out; 0xF8...: count 0; 0xFC...: count 0
     * and both NULL. */
    uint8_t mode = fz_u8(in);
    const int in_place = mode < 0xF0 && mode % 4 == 1 && count > 0;
    const int null_poses = mode >= 0xF0 && (mode < 0xF4 || mode >= 0xFC), null_out = mode >= 0xF4 && (mode < 0xF8 || mode >= 0xFC);
    const size_t n = mode >= 0xF8 ? 0 : count;
    memcpy(copy, poses, count * sizeof poses[0]);
    fathom_pose *dst = in_place ? poses : out;
    fz_poison(out, sizeof out);
    fathom_status s = FZ(fathom_poses_convert, null_poses ? NULL : poses, n, from, to, null_out ? NULL : dst);
    if (in_place) fz_unchanged(s, f, copy, poses, count * sizeof poses[0]);
    else fz_untouched(s, f, out, sizeof out);
    const int known = from <= FATHOM_POSE_OPENCV_WORLD_TO_CAMERA && to <= FATHOM_POSE_OPENCV_WORLD_TO_CAMERA;
    const int inverts = known && (from == FATHOM_POSE_OPENCV_WORLD_TO_CAMERA) != (to == FATHOM_POSE_OPENCV_WORLD_TO_CAMERA);
    if (!known) fz_need(s == FATHOM_ERR_OUT_OF_RANGE, f, "an unknown convention was not FATHOM_ERR_OUT_OF_RANGE");
    /* Of the poses given: any not rigid (or not finite), any whose inverse surely leaves (may leave) the floats. */
    int any_not_rigid = 0, any_not_finite = 0, any_beyond = 0, any_maybe = 0;
    for (size_t i = 0; i < n; i++) {
        const fathom_pose *p = &copy[i];
        int finite = 1;
        for (int e = 0; e < 16; e++) finite &= isfinite(p->m[e]) != 0;
        any_not_finite |= !finite;
        if (!rigid(p)) {
            any_not_rigid = 1;
        } else if (inverts) {
            int b = inverse_beyond_floats(p);
            any_beyond |= b == 1;
            any_maybe |= b >= 0;
        }
    }
    if (s != FATHOM_OK) {
        if (s == FATHOM_ERR_NULL_POINTER) fz_need(n > 0 && (null_poses || null_out), f, "FATHOM_ERR_NULL_POINTER without a NULL");
        if (s == FATHOM_ERR_NOT_RIGID) fz_need(any_not_rigid, f, "FATHOM_ERR_NOT_RIGID with every pose rigid");
        if (s == FATHOM_ERR_NOT_FINITE)
            fz_need(any_not_finite || any_maybe, f, "FATHOM_ERR_NOT_FINITE with every pose finite and every inverse inside the floats");
        if (known && !(n > 0 && (null_poses || null_out)) && !any_not_rigid && !any_maybe)
            fz_broken(f, "valid arguments (rigid poses, inverses inside the floats) were refused");
        return;
    }
    fz_need(!any_beyond, f, "an inverse whose translation leaves the float range was accepted");
    fz_need(n == 0 || !(null_poses || null_out), f, "a NULL array was accepted");
    if (!in_place) fz_untouched_past(f, out + n, (4 - n) * sizeof out[0]); /* nothing past the count */
    for (size_t i = 0; i < n; i++) {
        const fathom_pose *p = &copy[i], *q = &dst[i];
        fz_need(rigid(p), f, "a pose that is not rigid (or not finite) was accepted");
        /* An inverse's rotation R^T: R R^T - I differs from R^T R - I in second-order terms only. */
        fz_need(fathom_pose_check_rigid(q, FATHOM_RIGID_TOLERANCE * 1.01f) == FATHOM_OK, f,
                "a result is not rigid (or not finite)");
        fz_need(q->m[3] == 0 && q->m[7] == 0 && q->m[11] == 0 && q->m[15] == 1, f, "a result's bottom row is not (0, 0, 0, 1)");
        if (from == to || (from != FATHOM_POSE_OPENCV_WORLD_TO_CAMERA && to != FATHOM_POSE_OPENCV_WORLD_TO_CAMERA)) {
            const int flips = (from == FATHOM_POSE_ARKIT) != (to == FATHOM_POSE_ARKIT);
            for (int r = 0; r < 3; r++) {
                fz_need(q->m[r] == p->m[r], f, "column 0 changed");
                fz_need(q->m[4 + r] == (flips ? -p->m[4 + r] : p->m[4 + r]) && q->m[8 + r] == (flips ? -p->m[8 + r] : p->m[8 + r]),
                        f, "columns 1 and 2 are not the pose's, negated exactly when the camera axes change");
                fz_need(q->m[12 + r] == p->m[12 + r], f, "a camera-to-world translation changed");
            }
        } else {
            /* One side camera-to-world (c2w), the other world-to-camera (w2c): c2w(r, k) = s_k w2c(k, r), s_k = -1
             * for k = 1, 2 when the camera-to-world side is ARKit's. The result's translation is -(column r of the
             * input's rotation in OpenCV axes) . (the input's translation). */
            const int to_w2c = to == FATHOM_POSE_OPENCV_WORLD_TO_CAMERA;
            const fathom_pose *c2w = to_w2c ? p : q, *w2c = to_w2c ? q : p;
            const int arkit = from == FATHOM_POSE_ARKIT || to == FATHOM_POSE_ARKIT;
            for (int r = 0; r < 3; r++)
                for (int k = 0; k < 3; k++) {
                    float a = c2w->m[k * 4 + r], b = w2c->m[r * 4 + k];
                    fz_need(a == (arkit && k > 0 ? -b : b), f, "the rotation is not the transpose (with the axes' signs)");
                }
            for (int r = 0; r < 3; r++) {
                double sign = to_w2c && arkit && r > 0 ? -1 : 1, t = 0, magnitude = 0;
                for (int k = 0; k < 3; k++) {
                    t -= sign * (double)p->m[r * 4 + k] * p->m[12 + k];
                    magnitude += fabs((double)p->m[r * 4 + k] * p->m[12 + k]);
                }
                fz_need(fabs(q->m[12 + r] - t) <= 4e-7 * magnitude + 1e-38, f, "the translation is not -R^T t");
            }
        }
    }
}

static void poses(fz_input *in, uint8_t which) {
    if (which >= 24) {
        poses_convert(in);
        return;
    }
    int nul = pick_null(in);
    fathom_status s;
    switch (which % 12) {
    case 0: {
        fathom_quat q = quat_arg(in);
        fathom_vec3 t = fz_vec3(in);
        fathom_pose out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_pose_from_rotation_translation, q, t, FZ_ARG(0, &out));
        fz_untouched(s, "fathom_pose_from_rotation_translation", &out, sizeof out);
        fz_null_refused(s, nul, 1, "fathom_pose_from_rotation_translation");
        if (s == FATHOM_OK) {
            fz_need(rigid(&out), "fathom_pose_from_rotation_translation", "the pose made is not rigid");
            fz_need(out.m[12] == t.x && out.m[13] == t.y && out.m[14] == t.z, "fathom_pose_from_rotation_translation",
                    "the translation is not t");
        }
        break;
    }
    case 1: {
        fathom_pose p = fz_pose_nudged(in);
        fathom_quat q;
        fathom_vec3 t;
        fz_poison(&q, sizeof q);
        fz_poison(&t, sizeof t);
        s = FZ(fathom_pose_to_rotation_translation, FZ_ARG(0, &p), FZ_ARG(1, &q), FZ_ARG(2, &t));
        fz_untouched(s, "fathom_pose_to_rotation_translation", &q, sizeof q);
        fz_untouched(s, "fathom_pose_to_rotation_translation", &t, sizeof t);
        fz_null_refused(s, nul, 3, "fathom_pose_to_rotation_translation");
        if (s == FATHOM_OK) {
            fz_need(q.w >= 0, "fathom_pose_to_rotation_translation", "w < 0");
            fz_need(fabs(fz_qnorm(q) - 1) <= 1e-3, "fathom_pose_to_rotation_translation", "the rotation is not unit");
            fz_need(t.x == p.m[12] && t.y == p.m[13] && t.z == p.m[14], "fathom_pose_to_rotation_translation",
                    "the translation is not the pose's");
        }
        break;
    }
    case 2: {
        fathom_pose p = fz_pose_nudged(in);
        float rows[16];
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) rows[r * 4 + c] = p.m[c * 4 + r];
        fathom_pose out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_pose_from_row_major, FZ_ARG(0, rows), FZ_ARG(1, &out));
        fz_untouched(s, "fathom_pose_from_row_major", &out, sizeof out);
        fz_null_refused(s, nul, 2, "fathom_pose_from_row_major");
        if (s == FATHOM_OK) {
            /* The rotation and translation as given; the bottom row (within the rigidity tolerance) as given or
             * made exact. */
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    fz_need(out.m[c * 4 + r] == rows[r * 4 + c] || (r == 3 && out.m[c * 4 + r] == (c == 3 ? 1.0f : 0.0f)),
                            "fathom_pose_from_row_major", "element (r, c) is not rows[r*4 + c]");
            fz_need(rigid(&out), "fathom_pose_from_row_major", "the result is not rigid");
        }
        break;
    }
    case 3: {
        fathom_pose p = fz_pose_nudged(in);
        float out[16];
        fz_poison(out, sizeof out);
        s = FZ(fathom_pose_to_row_major, FZ_ARG(0, &p), FZ_ARG(1, out));
        fz_untouched(s, "fathom_pose_to_row_major", out, sizeof out);
        fz_null_refused(s, nul, 2, "fathom_pose_to_row_major");
        if (s == FATHOM_OK)
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    fz_need(out[r * 4 + c] == p.m[c * 4 + r] || (r == 3 && out[r * 4 + c] == (c == 3 ? 1.0f : 0.0f)),
                            "fathom_pose_to_row_major", "element (r, c) misplaced");
        break;
    }
    case 4: {
        fathom_pose p = fz_pose_nudged(in);
        float tolerance = fz_u8(in) < 128 ? FATHOM_RIGID_TOLERANCE : fz_float(in);
        s = FZ(fathom_pose_check_rigid, FZ_ARG(0, &p), tolerance);
        fz_null_refused(s, nul, 1, "fathom_pose_check_rigid");
        if (s == FATHOM_OK) fz_need(tolerance > 0, "fathom_pose_check_rigid", "a tolerance <= 0 was accepted");
        break;
    }
    case 5: {
        fathom_pose p = fz_pose_nudged(in), out;
        float max_deviation = fz_u8(in) < 128 ? 0.1f : fz_float(in);
        fz_poison(&out, sizeof out);
        s = FZ(fathom_pose_orthonormalize, FZ_ARG(0, &p), max_deviation, FZ_ARG(1, &out));
        fz_untouched(s, "fathom_pose_orthonormalize", &out, sizeof out);
        fz_null_refused(s, nul, 2, "fathom_pose_orthonormalize");
        if (s == FATHOM_OK) {
            fz_need(rigid(&out), "fathom_pose_orthonormalize", "the result is not rigid");
            fz_need(out.m[3] == 0 && out.m[7] == 0 && out.m[11] == 0 && out.m[15] == 1, "fathom_pose_orthonormalize",
                    "the bottom row is not (0, 0, 0, 1)");
            fz_need(out.m[12] == p.m[12] && out.m[13] == p.m[13] && out.m[14] == p.m[14], "fathom_pose_orthonormalize",
                    "the translation is not kept");
        }
        break;
    }
    case 6: {
        fathom_pose a = fz_pose_nudged(in), b = fz_pose_nudged(in), out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_pose_compose, FZ_ARG(0, &a), FZ_ARG(1, &b), FZ_ARG(2, &out));
        fz_untouched(s, "fathom_pose_compose", &out, sizeof out);
        fz_null_refused(s, nul, 3, "fathom_pose_compose");
        break;
    }
    case 7: {
        /* FATHOM_ERR_NOT_FINITE exactly when the inverse's translation -R^T t leaves the float range; a success is
         * (R^T, -R^T t): the transpose exactly, the translation to float rounding. */
        const char *f = "fathom_pose_invert";
        fathom_pose p = fz_pose_nudged(in), out;
        if (fz_u8(in) >= 192)
            for (int e = 12; e < 15; e++) p.m[e] = (fz_u8(in) & 1 ? -1 : 1) * (float)(fz_u8(in) + 1) * (FLT_MAX / 256);
        fz_poison(&out, sizeof out);
        s = FZ(fathom_pose_invert, FZ_ARG(0, &p), FZ_ARG(1, &out));
        fz_untouched(s, f, &out, sizeof out);
        fz_null_refused(s, nul, 2, f);
        if (nul == 0 || nul == 1) break;
        if (!rigid(&p)) {
            fz_need(s != FATHOM_OK, f, "a pose that is not rigid (or not finite) was accepted");
            break;
        }
        int beyond = inverse_beyond_floats(&p);
        if (s != FATHOM_OK) {
            fz_need(s == FATHOM_ERR_NOT_FINITE, f, "a rigid pose was refused otherwise than FATHOM_ERR_NOT_FINITE");
            fz_need(beyond >= 0, f, "FATHOM_ERR_NOT_FINITE for an inverse whose translation is inside the floats");
            break;
        }
        fz_need(beyond <= 0, f, "an inverse whose translation leaves the float range was accepted");
        fz_need(out.m[3] == 0 && out.m[7] == 0 && out.m[11] == 0 && out.m[15] == 1, f, "the bottom row is not (0, 0, 0, 1)");
        for (int r = 0; r < 3; r++) {
            double t = 0, magnitude = 0;
            for (int k = 0; k < 3; k++) {
                fz_need(out.m[k * 4 + r] == p.m[r * 4 + k], f, "the rotation is not the transpose");
                t -= (double)p.m[r * 4 + k] * p.m[12 + k];
                magnitude += fabs((double)p.m[r * 4 + k] * p.m[12 + k]);
            }
            fz_need(isfinite(out.m[12 + r]) && fabs(out.m[12 + r] - t) <= 4e-7 * magnitude + 1e-38, f, "the translation is not -R^T t");
        }
        break;
    }
    case 8: {
        fathom_pose p = fz_pose_nudged(in);
        fathom_vec3 v = fz_vec3(in), out;
        int direction = fz_u8(in) & 1;
        fz_poison(&out, sizeof out);
        if (direction) {
            s = FZ(fathom_pose_transform_direction, FZ_ARG(0, &p), v, FZ_ARG(1, &out));
            fz_untouched(s, "fathom_pose_transform_direction", &out, sizeof out);
            fz_null_refused(s, nul, 2, "fathom_pose_transform_direction");
        } else {
            s = FZ(fathom_pose_transform_point, FZ_ARG(0, &p), v, FZ_ARG(1, &out));
            fz_untouched(s, "fathom_pose_transform_point", &out, sizeof out);
            fz_null_refused(s, nul, 2, "fathom_pose_transform_point");
        }
        break;
    }
    case 9: {
        fathom_pose p = fz_pose_nudged(in);
        points pts;
        make_points(in, &pts, 64);
        uint8_t mode = fz_u8(in);
        size_t count = pts.count;
        const float *src = pts.ptr;
        if (mode >= 248) { /* count * stride overflows */
            size_t extra = fz_u8(in);
            count = pts.stride ? SIZE_MAX / pts.stride + 1 + extra : SIZE_MAX - extra;
        }
        if (mode >= 252) src = NULL;
        int in_place = mode >= 200 && mode < 248 && count >= 1 && pts.stride >= 12;
        size_t out_floats = in_place ? 0 : (pts.count ? pts.count : 1) * 3;
        float *out = in_place ? (float *)(void *)(pts.block + ((const uint8_t *)pts.ptr - pts.block)) : malloc(out_floats * 4);
        if (!out) abort();
        if (!in_place) fz_poison(out, out_floats * 4);
        /* The expected results, from a copy of the inputs (in place overwrites them). */
        double *expected = malloc(6 * sizeof(double) * (pts.count ? pts.count : 1)), *magnitude;
        if (!expected) abort();
        magnitude = expected + 3 * (pts.count ? pts.count : 1);
        for (size_t i = 0; i < pts.count && pts.stride % 4 == 0 && pts.stride >= 12; i++) {
            const float *q = (const float *)(const void *)((const uint8_t *)pts.ptr + i * pts.stride);
            if (((uintptr_t)q & 3) != 0) break;
            for (int r = 0; r < 3; r++) {
                expected[3 * i + r] = (double)p.m[r] * q[0] + (double)p.m[4 + r] * q[1] + (double)p.m[8 + r] * q[2] +
                                      (double)p.m[12 + r];
                magnitude[3 * i + r] = fabs((double)p.m[r] * q[0]) + fabs((double)p.m[4 + r] * q[1]) +
                                       fabs((double)p.m[8 + r] * q[2]) + fabs((double)p.m[12 + r]);
            }
        }
        s = FZ(fathom_pose_transform_points, FZ_ARG(0, &p), src, count, pts.stride, FZ_ARG(1, out));
        fz_null_refused(s, nul, 2, "fathom_pose_transform_points");
        if (src == NULL || count != pts.count)
            fz_need(s != FATHOM_OK, "fathom_pose_transform_points", "an overflowing count or NULL points was accepted");
        if (in_place && pts.stride != 12 && nul != 1)
            fz_need(s != FATHOM_OK, "fathom_pose_transform_points", "out == points with stride != 12 was accepted");
        if (!in_place && s != FATHOM_ERR_NOT_FINITE) fz_untouched(s, "fathom_pose_transform_points", out, out_floats * 4);
        if (s == FATHOM_OK) {
            fz_need(rigid(&p), "fathom_pose_transform_points", "a non-rigid pose was accepted");
            for (size_t i = 0; i < 3 * count; i++)
                fz_need(fabs((double)out[i] - expected[i]) <= 2e-6 * magnitude[i] + 1e-37, "fathom_pose_transform_points",
                        "a point is not pose * (p, 1)");
        }
        free(expected);
        if (!in_place) free(out);
        free(pts.block);
        break;
    }
    case 10: {
        fathom_pose p = fz_pose_nudged(in);
        float out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_pose_yaw, FZ_ARG(0, &p), FZ_ARG(1, &out));
        fz_untouched(s, "fathom_pose_yaw", &out, sizeof out);
        fz_null_refused(s, nul, 2, "fathom_pose_yaw");
        if (s == FATHOM_OK) fz_need(out > -FZ_PI_F && out <= FZ_PI_F, "fathom_pose_yaw", "the yaw is outside (-pi, pi]");
        break;
    }
    default: {
        fathom_pose a = fz_pose_nudged(in), b = fz_pose_nudged(in);
        float meters, radians;
        fz_poison(&meters, sizeof meters);
        fz_poison(&radians, sizeof radians);
        s = FZ(fathom_pose_distance, FZ_ARG(0, &a), FZ_ARG(1, &b), FZ_ARG(2, &meters), FZ_ARG(3, &radians));
        fz_untouched(s, "fathom_pose_distance", &meters, sizeof meters);
        fz_untouched(s, "fathom_pose_distance", &radians, sizeof radians);
        fz_null_refused(s, nul, 4, "fathom_pose_distance");
        if (s == FATHOM_OK) {
            fz_need(!(meters < 0), "fathom_pose_distance", "a negative distance");
            fz_need(radians >= 0 && radians <= FZ_PI_F, "fathom_pose_distance", "the angle is outside [0, pi]");
        }
        break;
    }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Cameras                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Intrinsics: mostly sane (a phone's, scaled), sometimes anything fz_intrinsics gives. */
static fathom_intrinsics intrinsics_arg(fz_input *in) {
    if (fz_u8(in) < 96) return fz_intrinsics(in);
    fathom_intrinsics k;
    k.width = 1 + fz_u8(in) % 64;
    k.height = 1 + fz_u8(in) % 64;
    k.fx = k.fy = (float)(k.width + fz_u8(in));
    k.cx = (float)k.width / 2 + fz_float(in) * 0.01f;
    k.cy = (float)k.height / 2 + fz_float(in) * 0.01f;
    return k;
}

static void pixel_arg(fz_input *in, const fathom_intrinsics *k, float *u, float *v) {
    if (fz_u8(in) < 160) {
        *u = (float)(fz_u8(in) % (k->width ? (k->width < 256 ? k->width : 256) : 1)) + 0.5f;
        *v = (float)(fz_u8(in) % (k->height ? (k->height < 256 ? k->height : 256) : 1)) + 0.5f;
    } else {
        *u = fz_float(in);
        *v = fz_float(in);
    }
}

static void cameras(fz_input *in, uint8_t which) {
    int nul = pick_null(in);
    fathom_status s;
    fathom_intrinsics k = intrinsics_arg(in);
    fathom_pose pose = fz_pose_nudged(in);
    switch (which % 4) {
    case 0: {
        float u, v;
        pixel_arg(in, &k, &u, &v);
        fathom_ray out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_camera_ray, FZ_ARG(0, &k), FZ_ARG(1, &pose), u, v, FZ_ARG(2, &out));
        fz_untouched(s, "fathom_camera_ray", &out, sizeof out);
        fz_null_refused(s, nul, 3, "fathom_camera_ray");
        if (s == FATHOM_OK) {
            fz_need(fabs(fz_vnorm(out.direction) - 1) <= 1e-3, "fathom_camera_ray", "the direction is not normalized");
            fz_need(out.origin.x == pose.m[12] && out.origin.y == pose.m[13] && out.origin.z == pose.m[14],
                    "fathom_camera_ray", "the origin is not the camera centre");
        }
        break;
    }
    case 1: {
        fathom_vec3 point = fz_vec3(in);
        float u, v;
        uint32_t flags;
        fz_poison(&u, sizeof u);
        fz_poison(&v, sizeof v);
        fz_poison(&flags, sizeof flags);
        s = FZ(fathom_camera_project, FZ_ARG(0, &k), FZ_ARG(1, &pose), point, FZ_ARG(2, &u), FZ_ARG(3, &v), FZ_ARG(4, &flags));
        fz_untouched(s, "fathom_camera_project", &u, sizeof u);
        fz_untouched(s, "fathom_camera_project", &v, sizeof v);
        fz_untouched(s, "fathom_camera_project", &flags, sizeof flags);
        fz_null_refused(s, nul, 5, "fathom_camera_project");
        if (s == FATHOM_OK) {
            fz_need((flags & ~3u) == 0, "fathom_camera_project", "unknown flag bits");
            /* The point's camera-frame z (the camera looks along -z), when the pose is rigid enough to invert by
             * transposing. */
            double z = (double)pose.m[8] * ((double)point.x - pose.m[12]) + (double)pose.m[9] * ((double)point.y - pose.m[13]) +
                       (double)pose.m[10] * ((double)point.z - pose.m[14]);
            double scale = fabs((double)point.x) + fabs((double)point.y) + fabs((double)point.z) + fabs((double)pose.m[12]) +
                           fabs((double)pose.m[13]) + fabs((double)pose.m[14]);
            if (flags & FATHOM_PROJECT_BEHIND)
                fz_need(!(z < -1e-2 * scale), "fathom_camera_project", "a point in front of the camera reported BEHIND");
            else
                fz_need(!(z > 1e-2 * scale), "fathom_camera_project", "a point behind the camera not reported BEHIND");
            if (flags & FATHOM_PROJECT_BEHIND) {
                fz_need(u == 0 && v == 0, "fathom_camera_project", "a point behind the camera has u, v not 0");
                fz_need(!(flags & FATHOM_PROJECT_OUTSIDE), "fathom_camera_project", "BEHIND and OUTSIDE both set");
            } else if (flags == 0) {
                fz_need(u >= 0 && u <= (float)k.width && v >= 0 && v <= (float)k.height, "fathom_camera_project",
                        "a visible point projects outside the image");
            } else {
                fz_need(!(u >= 0 && u <= (float)k.width && v >= 0 && v <= (float)k.height), "fathom_camera_project",
                        "OUTSIDE set for a point inside the image");
            }
        }
        break;
    }
    case 2: {
        uint8_t sk = fz_u8(in);
        uint32_t step = sk < 200 ? 1u + sk % 16 : sk < 240 ? 0u : fz_u32(in);
        uint64_t needed = 0;
        if (step >= 1) needed = (((uint64_t)k.width + step - 1) / step) * (((uint64_t)k.height + step - 1) / step);
        uint8_t ck = fz_u8(in);
        size_t capacity;
        if (needed <= 4096 && ck < 160) capacity = (size_t)needed;
        else if (needed <= 4097 && ck < 200) capacity = needed ? (size_t)needed - 1 : 0;
        else if (ck < 240) capacity = fz_u8(in) % 8;
        else capacity = (size_t)(needed <= 4096 ? needed + fz_u8(in) % 4 : 0);
        int huge_null = fz_u8(in) >= 248; /* out NULL with a capacity claimed larger than any grid */
        fathom_ray *out = capacity ? malloc(capacity * sizeof *out) : NULL;
        if (capacity && !out) abort();
        if (out) fz_poison(out, capacity * sizeof *out);
        size_t count;
        fz_poison(&count, sizeof count);
        if (huge_null) {
            s = FZ(fathom_camera_grid_rays, &k, &pose, step, NULL, SIZE_MAX, &count);
            fz_need(s != FATHOM_OK, "fathom_camera_grid_rays", "out NULL with rays to write was accepted");
            if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_untouched(s, "fathom_camera_grid_rays", &count, sizeof count);
        } else {
            s = FZ(fathom_camera_grid_rays, FZ_ARG(0, &k), FZ_ARG(1, &pose), step, FZ_ARG(2, out), capacity, FZ_ARG(3, &count));
            fz_null_refused(s, nul, 2, "fathom_camera_grid_rays");
            if (nul == 3) fz_need(s != FATHOM_OK, "fathom_camera_grid_rays", "out_count NULL accepted");
            if (nul == 2 && capacity >= needed && needed > 0)
                fz_need(s != FATHOM_OK, "fathom_camera_grid_rays", "out NULL with rays to write was accepted");
            if (s == FATHOM_ERR_BUFFER_TOO_SMALL) {
                fz_need(count == needed, "fathom_camera_grid_rays", "out_count is not the grid's size");
                fz_need(capacity < needed, "fathom_camera_grid_rays", "BUFFER_TOO_SMALL with capacity enough");
                if (out) fz_untouched(s, "fathom_camera_grid_rays", out, capacity * sizeof *out);
            } else {
                fz_untouched(s, "fathom_camera_grid_rays", &count, sizeof count);
                if (out) fz_untouched(s, "fathom_camera_grid_rays", out, capacity * sizeof *out);
            }
            if (s == FATHOM_OK) {
                fz_need(step >= 1, "fathom_camera_grid_rays", "step 0 accepted");
                fz_need(count == needed, "fathom_camera_grid_rays", "out_count is not ceil(w/step) * ceil(h/step)");
                for (size_t i = 0; i < count; i++)
                    fz_need(fabs(fz_vnorm(out[i].direction) - 1) <= 1e-3 && out[i].origin.x == pose.m[12] &&
                                out[i].origin.y == pose.m[13] && out[i].origin.z == pose.m[14],
                            "fathom_camera_grid_rays", "a grid ray is not a unit ray from the camera centre");
                /* Ray i is the camera ray through its pixel centre. */
                if (count > 0) {
                    size_t i = fz_u8(in) % count, columns = (size_t)(((uint64_t)k.width + step - 1) / step);
                    float u = (float)((i % columns) * step) + 0.5f, v = (float)((i / columns) * step) + 0.5f;
                    fathom_ray r;
                    if (fathom_camera_ray(&k, &pose, u, v, &r) == FATHOM_OK) {
                        double d = fabs((double)r.direction.x - out[i].direction.x) +
                                   fabs((double)r.direction.y - out[i].direction.y) +
                                   fabs((double)r.direction.z - out[i].direction.z);
                        fz_need(d <= 1e-4, "fathom_camera_grid_rays", "a grid ray differs from fathom_camera_ray at its pixel");
                    }
                }
            }
        }
        free(out);
        break;
    }
    default: {
        uint32_t w = fz_u8(in) < 200 ? fz_u8(in) : fz_u32(in), h = fz_u8(in) < 200 ? fz_u8(in) : fz_u32(in);
        fathom_intrinsics out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_intrinsics_scale, FZ_ARG(0, &k), w, h, FZ_ARG(1, &out));
        fz_untouched(s, "fathom_intrinsics_scale", &out, sizeof out);
        fz_null_refused(s, nul, 2, "fathom_intrinsics_scale");
        if (s == FATHOM_OK) {
            fz_need(w > 0 && h > 0 && k.width > 0 && k.height > 0 && k.fx > 0 && k.fy > 0, "fathom_intrinsics_scale",
                    "a zero size or focal length <= 0 was accepted");
            fz_need(out.width == w && out.height == h, "fathom_intrinsics_scale", "the size is not the one asked for");
            double fx = (double)k.fx * w / k.width, cy = (double)k.cy * h / k.height;
            fz_need(fabs(out.fx - fx) <= 1e-5 * fabs(fx) + 1e-30 && fabs(out.cy - cy) <= 1e-5 * fabs(cy) + 1e-30,
                    "fathom_intrinsics_scale", "fx' != fx * w'/w or cy' != cy * h'/h");
        }
        break;
    }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Primitive casts                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

static void casts(fz_input *in, uint8_t which) {
    int nul = pick_null(in);
    fathom_status s;
    fathom_ray ray = ray_arg(in);
    float tmin, tmax;
    range_arg(in, &tmin, &tmax);
    int bad_range = !(tmin >= 0 && tmin <= tmax);
    fathom_hit hit;
    fz_poison(&hit, sizeof hit);
    switch (which % 5) {
    case 0: {
        fathom_vec3 point = fz_vec3(in), normal = fz_vec3(in);
        s = FZ(fathom_ray_plane, FZ_ARG(0, &ray), tmin, tmax, point, normal, FZ_ARG(1, &hit));
        fz_untouched(s, "fathom_ray_plane", &hit, sizeof hit);
        fz_null_refused(s, nul, 2, "fathom_ray_plane");
        check_hit(s, "fathom_ray_plane", &hit, tmin, tmax, &ray, 0);
        if (bad_range) fz_need(s != FATHOM_OK, "fathom_ray_plane", "tmin > tmax or tmin < 0 accepted");
        break;
    }
    case 1: {
        float height = fz_float(in);
        s = FZ(fathom_ray_floor, FZ_ARG(0, &ray), tmin, tmax, height, FZ_ARG(1, &hit));
        fz_untouched(s, "fathom_ray_floor", &hit, sizeof hit);
        fz_null_refused(s, nul, 2, "fathom_ray_floor");
        check_hit(s, "fathom_ray_floor", &hit, tmin, tmax, &ray, 0);
        if (bad_range) fz_need(s != FATHOM_OK, "fathom_ray_floor", "tmin > tmax or tmin < 0 accepted");
        if (s == FATHOM_OK && hit.primitive != FATHOM_NO_HIT)
            fz_need(hit.normal.x == 0 && hit.normal.y == 1 && hit.normal.z == 0, "fathom_ray_floor", "the normal is not +y");
        break;
    }
    case 2: {
        fathom_vec3 center = fz_vec3(in);
        float radius = fz_float(in);
        s = FZ(fathom_ray_sphere, FZ_ARG(0, &ray), tmin, tmax, center, radius, FZ_ARG(1, &hit));
        fz_untouched(s, "fathom_ray_sphere", &hit, sizeof hit);
        fz_null_refused(s, nul, 2, "fathom_ray_sphere");
        check_hit(s, "fathom_ray_sphere", &hit, tmin, tmax, &ray, 0);
        if (bad_range) fz_need(s != FATHOM_OK, "fathom_ray_sphere", "tmin > tmax or tmin < 0 accepted");
        if (s == FATHOM_OK) fz_need(radius > 0, "fathom_ray_sphere", "a radius <= 0 was accepted");
        break;
    }
    case 3: {
        fathom_obb obb;
        obb.center = fz_vec3(in);
        obb.scale = fz_vec3(in);
        obb.rotation = quat_arg(in);
        fathom_box_hit out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_ray_obb, FZ_ARG(0, &ray), tmin, tmax, FZ_ARG(1, &obb), FZ_ARG(2, &out));
        fz_untouched(s, "fathom_ray_obb", &out, sizeof out);
        fz_null_refused(s, nul, 3, "fathom_ray_obb");
        if (bad_range) fz_need(s != FATHOM_OK, "fathom_ray_obb", "tmin > tmax or tmin < 0 accepted");
        check_hit(s, "fathom_ray_obb", &out.hit, tmin, tmax, &ray, 5);
        if (s == FATHOM_OK) {
            fz_need(fz_bool_byte(&out.origin_inside) <= 1, "fathom_ray_obb", "origin_inside not false (0) or true (1)");
            if (out.hit.primitive == FATHOM_NO_HIT) {
                fz_need(out.t_enter == 0 && out.t_exit == 0 && out.face_enter == 0 && out.face_exit == 0, "fathom_ray_obb",
                        "a miss has t_enter, t_exit, face_enter or face_exit not 0");
            } else {
                fz_need(out.face_enter <= 5 && out.face_exit <= 5, "fathom_ray_obb", "a face index out of range");
                fz_need(out.hit.primitive == out.face_enter || out.hit.primitive == out.face_exit, "fathom_ray_obb",
                        "the hit's face is neither the entry nor the exit face");
                fz_need(!(out.t_enter > out.t_exit), "fathom_ray_obb", "t_enter > t_exit");
            }
        }
        break;
    }
    default: {
        fathom_vec3 v0 = fz_vec3(in), v1 = fz_vec3(in), v2 = fz_vec3(in);
        s = FZ(fathom_ray_triangle, FZ_ARG(0, &ray), tmin, tmax, v0, v1, v2, FZ_ARG(1, &hit));
        fz_untouched(s, "fathom_ray_triangle", &hit, sizeof hit);
        fz_null_refused(s, nul, 2, "fathom_ray_triangle");
        check_hit(s, "fathom_ray_triangle", &hit, tmin, tmax, &ray, 0);
        if (bad_range) fz_need(s != FATHOM_OK, "fathom_ray_triangle", "tmin > tmax or tmin < 0 accepted");
        if (s == FATHOM_OK && hit.primitive != FATHOM_NO_HIT)
            fz_need(hit.u >= -1e-5f && hit.v >= -1e-5f && hit.u + hit.v <= 1 + 1e-5f, "fathom_ray_triangle",
                    "barycentrics outside the triangle");
        break;
    }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Tags and labels                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

static void tags(fz_input *in, uint8_t which) {
    int nul = pick_null(in);
    fathom_status s;
    switch (which % 5) {
    case 0: {
        fathom_pose camera = fz_pose_nudged(in), tag = fz_pose_nudged(in), out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_tag_world_pose, FZ_ARG(0, &camera), FZ_ARG(1, &tag), FZ_ARG(2, &out));
        fz_untouched(s, "fathom_tag_world_pose", &out, sizeof out);
        fz_null_refused(s, nul, 3, "fathom_tag_world_pose");
        break;
    }
    case 1: {
        fathom_pose tag = fz_pose_nudged(in), out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_tag_snap_vertical, FZ_ARG(0, &tag), FZ_ARG(1, &out));
        fz_untouched(s, "fathom_tag_snap_vertical", &out, sizeof out);
        fz_null_refused(s, nul, 2, "fathom_tag_snap_vertical");
        if (s == FATHOM_OK) {
            fz_need(fabsf(out.m[9]) <= 1e-3f, "fathom_tag_snap_vertical", "the z axis is not horizontal");
            fz_need(out.m[12] == tag.m[12] && out.m[13] == tag.m[13] && out.m[14] == tag.m[14], "fathom_tag_snap_vertical",
                    "the translation is not kept");
            fz_need(rigid(&out), "fathom_tag_snap_vertical", "the result is not rigid");
        }
        break;
    }
    case 2: {
        fathom_pose rotation = fz_pose_nudged(in);
        float covariance[9], out[9];
        if (fz_u8(in) < 160) {
            /* Symmetric. */
            float v[6];
            for (int i = 0; i < 6; i++) v[i] = fz_float(in);
            float m[9] = {v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]};
            memcpy(covariance, m, sizeof m);
        } else {
            for (int i = 0; i < 9; i++) covariance[i] = fz_float(in);
        }
        fz_poison(out, sizeof out);
        s = FZ(fathom_covariance_rotate, FZ_ARG(0, &rotation), FZ_ARG(1, covariance), FZ_ARG(2, out));
        fz_untouched(s, "fathom_covariance_rotate", out, sizeof out);
        fz_null_refused(s, nul, 3, "fathom_covariance_rotate");
        break;
    }
    case 3: {
        size_t count = fz_count(in, 8);
        fathom_pose list[8];
        float covariances[8 * 9];
        fathom_pose base = fz_pose(in);
        for (size_t i = 0; i < count; i++) {
            if (fz_u8(in) < 192) {
                /* Observations near one pose: a small rotation and offset. */
                fathom_quat q;
                fathom_pose delta;
                fathom_vec3 axis = fz_vec3(in);
                float angle = fz_float(in) * 0.01f;
                if (fathom_quat_from_axis_angle(axis, angle, &q) != FATHOM_OK) q = (fathom_quat){0, 0, 0, 1};
                fathom_vec3 t = fz_vec3(in);
                t.x *= 0.01f, t.y *= 0.01f, t.z *= 0.01f;
                if (fathom_pose_from_rotation_translation(q, t, &delta) != FATHOM_OK ||
                    fathom_pose_compose(&base, &delta, &list[i]) != FATHOM_OK)
                    list[i] = base;
            } else {
                list[i] = fz_pose_nudged(in);
            }
            float *c = covariances + 9 * i;
            if (fz_u8(in) < 200) {
                /* Symmetric positive definite: diagonal plus a small symmetric part. */
                float off = fz_float(in) * 1e-3f;
                float d0 = 1e-4f + fabsf(fz_float(in)) * 1e-3f;
                float d1 = 1e-4f + fabsf(fz_float(in)) * 1e-3f;
                float d2 = 1e-4f + fabsf(fz_float(in)) * 1e-3f;
                float m[9] = {d0, off, 0, off, d1, 0, 0, 0, d2};
                memcpy(c, m, sizeof m);
            } else {
                for (int j = 0; j < 9; j++) c[j] = fz_float(in);
            }
        }
        uint8_t mode = fz_u8(in);
        const float *cov = mode & 1 ? covariances : NULL;
        float out_cov[9];
        float *out_covariance = mode & 2 ? out_cov : NULL;
        size_t n = count;
        const fathom_pose *poses = list;
        if (mode >= 248) {
            n = SIZE_MAX / 32 + fz_u8(in); /* count * sizeof(fathom_pose) overflows; never read */
            poses = (mode & 4) ? NULL : list;
        }
        fathom_pose out;
        fz_poison(&out, sizeof out);
        fz_poison(out_cov, sizeof out_cov);
        s = FZ(fathom_tag_fuse, FZ_ARG(0, poses), cov, n, FZ_ARG(1, &out), out_covariance);
        fz_untouched(s, "fathom_tag_fuse", &out, sizeof out);
        fz_untouched(s, "fathom_tag_fuse", out_cov, sizeof out_cov);
        fz_null_refused(s, nul, 2, "fathom_tag_fuse");
        if (n != count) fz_need(s != FATHOM_OK, "fathom_tag_fuse", "an overflowing count was accepted");
        if (count == 0) fz_need(s != FATHOM_OK, "fathom_tag_fuse", "count 0 was accepted");
        if (s == FATHOM_OK) {
            fz_need(rigid(&out), "fathom_tag_fuse", "the fused pose is not rigid");
            if (out_covariance && !cov && count == 1)
                for (int i = 0; i < 9; i++)
                    fz_need(out_cov[i] == 0, "fathom_tag_fuse", "a single observation's covariance is not all zeros");
            if (!out_covariance)
                for (int i = 0; i < 9; i++) {
                    uint8_t b[4];
                    memcpy(b, &out_cov[i], 4);
                    fz_need(b[0] == FZ_POISON && b[1] == FZ_POISON, "fathom_tag_fuse", "wrote a covariance nobody asked for");
                }
        }
        break;
    }
    default: {
        fathom_label_request r;
        memset(&r, 0, sizeof r);
        uint8_t a = fz_u8(in), t = fz_u8(in);
        r.anchor = a < 240 ? a % 7 : (int32_t)fz_u32(in);
        r.target = t < 240 ? t % 2 : (int32_t)fz_u32(in);
        r.target_width = fz_float(in);
        r.target_height = fz_float(in);
        r.panel_width = fz_float(in);
        r.panel_height = fz_float(in);
        r.relative_position = fz_vec3(in);
        r.position_offset = fz_vec3(in);
        r.used_anchors = fz_u8(in) < 200 ? fz_u8(in) : fz_u32(in);
        fathom_label_placement out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_label_place, FZ_ARG(0, &r), FZ_ARG(1, &out));
        fz_untouched(s, "fathom_label_place", &out, sizeof out);
        fz_null_refused(s, nul, 2, "fathom_label_place");
        if (s == FATHOM_OK) {
            fz_need(r.anchor >= 0 && r.anchor <= 6 && (r.target == 0 || r.target == 1), "fathom_label_place",
                    "an unknown anchor or target was accepted");
            fz_need(r.target_width > 0 && r.target_height > 0 && r.panel_width > 0 && r.panel_height > 0,
                    "fathom_label_place", "a size <= 0 was accepted");
            int32_t expected = r.anchor;
            if (r.anchor == FATHOM_ANCHOR_AUTO) {
                static const int32_t order[4] = {FATHOM_ANCHOR_TOP, FATHOM_ANCHOR_BOTTOM, FATHOM_ANCHOR_LEADING,
                                                 FATHOM_ANCHOR_TRAILING};
                expected = FATHOM_ANCHOR_TOP;
                for (int i = 0; i < 4; i++)
                    if (!(r.used_anchors & (1u << order[i]))) {
                        expected = order[i];
                        break;
                    }
            }
            fz_need(out.anchor == expected, "fathom_label_place", "the anchor used is not the one the rule gives");
            fathom_quat q = r.target == FATHOM_LABEL_ON_IMAGE ? (fathom_quat){-0.70710678f, 0, 0, 0.70710678f}
                                                              : (fathom_quat){0, 0, 0, 1};
            fz_need(fabsf(out.orientation.x - q.x) <= 1e-5f && fabsf(out.orientation.y - q.y) <= 1e-5f &&
                        fabsf(out.orientation.z - q.z) <= 1e-5f && fabsf(out.orientation.w - q.w) <= 1e-5f,
                    "fathom_label_place", "the orientation is not -90 degrees about x on an image, identity on a panel");
            /* The position: relative + offset + the anchor's offset. */
            double W = r.target_width, H = r.target_height, w = r.panel_width, h = r.panel_height;
            double ax = 0, ay = 0;
            switch (expected) {
            case FATHOM_ANCHOR_TOP: ay = H / 2 + h / 2; break;
            case FATHOM_ANCHOR_BOTTOM: ay = -(H / 2 + h / 2); break;
            case FATHOM_ANCHOR_LEADING: ax = -(W / 2 + w / 2); break;
            case FATHOM_ANCHOR_TRAILING: ax = W / 2 + w / 2; break;
            default: break;
            }
            double e[3] = {(double)r.relative_position.x + r.position_offset.x + ax,
                           (double)r.relative_position.y + r.position_offset.y,
                           (double)r.relative_position.z + r.position_offset.z};
            if (r.target == FATHOM_LABEL_ON_IMAGE) e[2] -= ay; /* top is -z on an image */
            else e[1] += ay;
            double mag = fabs((double)r.relative_position.x) + fabs((double)r.relative_position.y) +
                         fabs((double)r.relative_position.z) + fabs((double)r.position_offset.x) +
                         fabs((double)r.position_offset.y) + fabs((double)r.position_offset.z) + W + H + w + h;
            float got[3] = {out.position.x, out.position.y, out.position.z};
            if (isfinite(mag) && mag < 1e30)
                for (int i = 0; i < 3; i++)
                    fz_need(fabs(got[i] - e[i]) <= 1e-6 * mag + 1e-30, "fathom_label_place",
                            "the position is not relative_position + position_offset + the anchor's offset");
        }
        break;
    }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Tap flows                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

static void taps(fz_input *in, uint8_t which) {
    int nul = pick_null(in);
    fathom_status s;
    fathom_intrinsics k = intrinsics_arg(in);
    fathom_pose camera = fz_pose_nudged(in);
    float u, v;
    pixel_arg(in, &k, &u, &v);
    fathom_mesh *mesh = small_mesh(in);
    switch (which % 3) {
    case 0: {
        fathom_vec3 point = fz_vec3(in), normal = fz_u8(in) < 64 ? (fathom_vec3){0, 0, 0} : fz_vec3(in);
        float height;
        bool found;
        fz_poison(&height, sizeof height);
        fz_poison(&found, sizeof found);
        s = FZ(fathom_tap_floor_height, FZ_ARG(0, &k), FZ_ARG(1, &camera), u, v, mesh, point, normal, FZ_ARG(2, &height),
               FZ_ARG(3, &found));
        fz_untouched(s, "fathom_tap_floor_height", &height, sizeof height);
        fz_untouched(s, "fathom_tap_floor_height", &found, sizeof found);
        fz_null_refused(s, nul, 4, "fathom_tap_floor_height");
        if (s == FATHOM_OK) {
            fz_need(fz_bool_byte(&found) <= 1, "fathom_tap_floor_height", "out_hit_found not 0 or 1");
            if (fz_bool_byte(&found) == 0) {
                uint8_t b[4];
                memcpy(b, &height, 4);
                fz_need(b[0] == FZ_POISON && b[1] == FZ_POISON && b[2] == FZ_POISON && b[3] == FZ_POISON,
                        "fathom_tap_floor_height", "out_height written although nothing was hit");
            }
        }
        break;
    }
    case 1: {
        fathom_box box, before;
        if (fz_u8(in) < 224) {
            fathom_vec3 center = fz_vec3(in), scale = fz_vec3(in);
            float rot_y = fz_float(in);
            if (fathom_box_init(center, scale, rot_y, &box) != FATHOM_OK)
                box = (fathom_box){{0, 0, -1}, {0.5f, 0.5f, 0.5f}, 0, 0, 0};
            if (fz_u8(in) < 192) {
                box.has_floor = 1;
                box.floor = fz_float(in);
            }
        } else {
            box.center = fz_vec3(in);
            box.scale = fz_vec3(in);
            box.rot_y = fz_float(in);
            box.floor = fz_float(in);
            /* has_floor's byte: any, as memcpy can leave it; the library refuses one other than 0 or 1. */
            fz_set_bool_byte(&box.has_floor, fz_bool_byte_of(fz_u32(in)));
        }
        before = box;
        bool found;
        fz_poison(&found, sizeof found);
        s = FZ(fathom_tap_place_box, FZ_ARG(0, &k), FZ_ARG(1, &camera), u, v, mesh, FZ_ARG(2, &box), FZ_ARG(3, &found));
        fz_unchanged(s, "fathom_tap_place_box", &before, &box, sizeof box);
        fz_untouched(s, "fathom_tap_place_box", &found, sizeof found);
        fz_null_refused(s, nul, 4, "fathom_tap_place_box");
        if (s == FATHOM_OK) {
            fz_need(fz_bool_byte(&found) <= 1, "fathom_tap_place_box", "out_hit_found not 0 or 1");
            fz_need(fz_bool_byte(&before.has_floor) == 1, "fathom_tap_place_box", "a box without a floor was accepted");
            if (fz_bool_byte(&found) == 0) {
                fz_need(fz_same_box(&before, &box), "fathom_tap_place_box", "a miss changed the box");
            } else {
                fz_need(FZ(fathom_box_check, &box) == FATHOM_OK, "fathom_tap_place_box", "the placed box fails fathom_box_check");
                fz_need(box.scale.x == before.scale.x && box.scale.y == before.scale.y && box.scale.z == before.scale.z &&
                            box.rot_y == before.rot_y && fz_bool_byte(&box.has_floor) == 1 && box.floor == before.floor,
                        "fathom_tap_place_box", "placing changed more than the centre");
                fz_need(box.center.y == before.floor + before.scale.y / 2, "fathom_tap_place_box",
                        "the placed box does not stand on its floor (center.y != floor + sy/2)");
            }
        }
        break;
    }
    default: {
        fathom_box box;
        fathom_vec3 center = fz_vec3(in), scale = fz_vec3(in);
        float rot_y = fz_float(in);
        if (fathom_box_init(center, scale, rot_y, &box) != FATHOM_OK) box = (fathom_box){{0, 0, -2}, {1, 1, 1}, 0, 0, 0};
        uint8_t f = fz_u8(in);
        if (f >= 128) {
            if (f >= 240) fz_set_bool_byte(&box.has_floor, fz_bool_byte_of(fz_u32(in)));
            else box.has_floor = true;
            box.floor = fz_float(in);
        }
        uint32_t face;
        fz_poison(&face, sizeof face);
        s = FZ(fathom_tap_box_face, FZ_ARG(0, &k), FZ_ARG(1, &camera), u, v, FZ_ARG(2, &box), FZ_ARG(3, &face));
        fz_untouched(s, "fathom_tap_box_face", &face, sizeof face);
        fz_null_refused(s, nul, 4, "fathom_tap_box_face");
        if (s == FATHOM_OK) fz_need(face <= 5 || face == FATHOM_NO_HIT, "fathom_tap_box_face", "a face out of range");
        if (s == FATHOM_OK)
            fz_need(fz_bool_byte(&box.has_floor) <= 1, "fathom_tap_box_face", "a box whose has_floor is not 0 or 1 was accepted");
        break;
    }
    }
    fathom_mesh_destroy(mesh);
}

/* ---------------------------------------------------------------------------------------------- */
/* Trajectories                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* A walk of up to 16 poses: small steps and turns from a start, sometimes any pose. */
static size_t walk(fz_input *in, fathom_pose *list, size_t max) {
    size_t count = fz_count(in, max);
    fathom_pose current = fz_pose(in);
    for (size_t i = 0; i < count; i++) {
        uint8_t k = fz_u8(in);
        if (k < 200) {
            fathom_quat q;
            fathom_pose delta, next;
            fathom_vec3 axis = fz_vec3(in);
            float angle = fz_float(in) * 0.1f;
            if (fathom_quat_from_axis_angle(axis, angle, &q) != FATHOM_OK) q = (fathom_quat){0, 0, 0, 1};
            fathom_vec3 t = fz_vec3(in);
            t.x *= 0.05f, t.y *= 0.05f, t.z *= 0.05f;
            if (fathom_pose_from_rotation_translation(q, t, &delta) == FATHOM_OK &&
                fathom_pose_compose(&current, &delta, &next) == FATHOM_OK)
                current = next;
            list[i] = current;
        } else {
            list[i] = fz_pose_nudged(in);
        }
    }
    return count;
}

static void trajectories(fz_input *in, uint8_t which) {
    int nul = pick_null(in);
    fathom_status s;
    fathom_pose list[16];
    size_t count = walk(in, list, 16);
    if (which & 1) {
        float min_distance = fz_u8(in) < 160 ? 0.05f * (1 + fz_u8(in) % 8) : fz_float(in);
        float min_angle = fz_u8(in) < 160 ? 0.05f * (1 + fz_u8(in) % 8) : fz_float(in);
        size_t capacity = fz_count(in, count + 2);
        uint32_t *out = capacity ? malloc(capacity * sizeof *out) : NULL;
        if (capacity && !out) abort();
        if (out) fz_poison(out, capacity * sizeof *out);
        size_t n = count;
        if (fz_u8(in) >= 250) n = SIZE_MAX / 32 + fz_u8(in); /* count * sizeof(fathom_pose) overflows */
        size_t total;
        fz_poison(&total, sizeof total);
        s = FZ(fathom_trajectory_select, FZ_ARG(0, list), n, min_distance, min_angle, FZ_ARG(1, out), capacity, FZ_ARG(2, &total));
        if (nul == 0 || nul == 2 || (nul == 1 && capacity > 0))
            fz_need(s != FATHOM_OK, "fathom_trajectory_select", "a NULL required pointer was accepted");
        if (n != count || count == 0) fz_need(s != FATHOM_OK, "fathom_trajectory_select", "a count of 0 or overflowing accepted");
        if (isinf(min_distance) && isinf(min_angle))
            fz_need(s != FATHOM_OK, "fathom_trajectory_select", "both thresholds INFINITY accepted");
        if (s == FATHOM_OK || s == FATHOM_ERR_BUFFER_TOO_SMALL) {
            fz_need(min_distance > 0 && min_angle > 0, "fathom_trajectory_select", "a threshold <= 0 or NaN accepted");
            size_t written = total < capacity ? total : capacity;
            fz_need(total >= 1 && total <= count, "fathom_trajectory_select", "out_count outside 1...count");
            fz_need(s == FATHOM_OK ? total <= capacity : total > capacity, "fathom_trajectory_select",
                    "the status does not match out_count against capacity");
            for (size_t i = 0; i < written; i++) {
                fz_need(i == 0 ? out[0] == 0 : out[i] > out[i - 1], "fathom_trajectory_select",
                        "the indices do not start at 0 and ascend");
                fz_need(out[i] < count, "fathom_trajectory_select", "an index out of range");
            }
            for (size_t i = written; i < capacity; i++) {
                uint8_t b[4];
                memcpy(b, &out[i], 4);
                fz_need(b[0] == FZ_POISON && b[3] == FZ_POISON, "fathom_trajectory_select", "wrote past out_count");
            }
        } else {
            fz_untouched(s, "fathom_trajectory_select", &total, sizeof total);
            if (out) fz_untouched(s, "fathom_trajectory_select", out, capacity * sizeof *out);
        }
        free(out);
    } else {
        int64_t timestamps[16];
        uint64_t start = fz_u64(in);
        start >>= fz_u8(in) % 64;
        if (fz_u8(in) >= 128) start -= (uint64_t)1 << 62;
        int64_t t = (int64_t)start; /* two's complement */
        int decreasing = 0;
        for (size_t i = 0; i < count; i++) {
            uint8_t k = fz_u8(in);
            int64_t step = k < 200 ? (int64_t)(k % 50) * 4000000 : k < 240 ? 0 : (int64_t)fz_u64(in);
            if (i > 0) {
                int64_t next;
                if (step > 0 && t > INT64_MAX - step) next = INT64_MAX;
                else if (step < 0 && t < INT64_MIN - step) next = INT64_MIN;
                else next = t + step;
                if (next < t) decreasing = 1;
                t = next;
            }
            timestamps[i] = t;
        }
        fathom_motion_options options;
        fathom_motion_options_init(&options);
        uint8_t ok = fz_u8(in);
        if (ok >= 128) {
            float *fields[] = {&options.time_constant, &options.slow_speed, &options.brisk_speed, &options.fast_speed,
                               &options.slightly, &options.max_gap, &options.intervals[0], &options.intervals[1],
                               &options.intervals[2]};
            int field = fz_u8(in) % 9;
            *fields[field] = fz_float(in);
        }
        if (ok >= 120 && ok < 128) options.reserved[ok % 4] = ok; /* a reserved word set: refused */
        int reserved_set = !fz_all_zero(options.reserved, sizeof options.reserved);
        const fathom_motion_options *opts = ok < 64 ? NULL : &options;
        size_t n = count;
        if (fz_u8(in) >= 250) n = SIZE_MAX / 8 + 1 + fz_u8(in); /* count * 8 (the timestamps) overflows */
        fathom_trajectory_summary out;
        fz_poison(&out, sizeof out);
        s = FZ(fathom_trajectory_summarize, FZ_ARG(0, timestamps), FZ_ARG(1, list), n, opts, FZ_ARG(2, &out));
        fz_untouched(s, "fathom_trajectory_summarize", &out, sizeof out);
        fz_null_refused(s, nul, 3, "fathom_trajectory_summarize");
        if (n != count || count < 2) fz_need(s != FATHOM_OK, "fathom_trajectory_summarize", "a count < 2 or overflowing accepted");
        if (decreasing) fz_need(s != FATHOM_OK, "fathom_trajectory_summarize", "decreasing timestamps accepted");
        if (opts && reserved_set) fz_need(s != FATHOM_OK, "fathom_trajectory_summarize", "a reserved word set was accepted");
        if (s == FATHOM_OK) {
            fz_need(fz_all_zero(out.reserved, sizeof out.reserved), "fathom_trajectory_summarize", "reserved words not 0");
            fz_need(out.steps <= count - 1, "fathom_trajectory_summarize", "more steps than pairs of poses");
            double duration = ((double)timestamps[count - 1] - (double)timestamps[0]) * 1e-9;
            double slack = 1e-9 * fabs(duration) + 1e-9 +
                           5e-25 * (fabs((double)timestamps[0]) + fabs((double)timestamps[count - 1]));
            fz_need(fabs(out.duration - duration) <= slack, "fathom_trajectory_summarize",
                    "the duration is not last - first");
            fz_need(!(out.path_length < 0) && !(out.time_too_slow < 0) && !(out.time_too_fast < 0),
                    "fathom_trajectory_summarize", "a negative length or time");
            if (out.steps > 0)
                fz_need(out.speed_p10 <= out.speed_p50 && out.speed_p50 <= out.speed_p90 && out.speed_p90 <= out.speed_max,
                        "fathom_trajectory_summarize", "the speed percentiles are not ordered");
        }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Status names and versions                                                                       */
/* ---------------------------------------------------------------------------------------------- */

#define FZ_STR2(x) #x
#define FZ_STR(x) FZ_STR2(x)

static void names(fz_input *in) {
    static const char *const known[] = {
        "FATHOM_OK", "FATHOM_ERR_NULL_POINTER", "FATHOM_ERR_NOT_FINITE", "FATHOM_ERR_OUT_OF_RANGE",
        "FATHOM_ERR_OVERFLOW", "FATHOM_ERR_BUFFER_TOO_SMALL", "FATHOM_ERR_NOT_RIGID", "FATHOM_ERR_DEGENERATE",
        "FATHOM_ERR_INVALID_STATE", "FATHOM_ERR_PARSE", "FATHOM_ERR_FORMAT", "FATHOM_ERR_NOT_A_BOX", "FATHOM_ERR_IO",
        "FATHOM_ERR_LAPACK", "FATHOM_ERR_OUT_OF_MEMORY", "FATHOM_ERR_NO_DATA",
    };
    uint8_t k = fz_u8(in);
    int value = k < 128 ? (int)(k % 20) - 2 : (int)fz_u32(in);
    const char *name = fathom_status_name((fathom_status)value);
    fz_need(name != NULL, "fathom_status_name", "NULL");
    if (value >= 0 && value <= FATHOM_ERR_NO_DATA)
        fz_need(strcmp(name, known[value]) == 0, "fathom_status_name", "the name of a status is wrong");
    else
        fz_need(strcmp(name, "FATHOM_UNKNOWN_STATUS") == 0, "fathom_status_name", "an unknown status is not FATHOM_UNKNOWN_STATUS");
    const char *version = fathom_version();
    fz_need(version != NULL && strcmp(version, FZ_STR(FATHOM_VERSION_MAJOR) "." FZ_STR(FATHOM_VERSION_MINOR) "." FZ_STR(
                                                   FATHOM_VERSION_PATCH)) == 0,
            "fathom_version", "not MAJOR.MINOR.PATCH of the header");
    fz_need(fathom_version_number() == FATHOM_VERSION_NUMBER, "fathom_version_number", "not FATHOM_VERSION_NUMBER");
    fz_need(fathom_last_error() != NULL, "fathom_last_error", "NULL");
    /* The options initializers that no other target calls: the header's defaults, NULL refused. */
    if (k & 1) {
        fathom_ransac_options r;
        fz_poison(&r, sizeof r);
        fz_need(FZ(fathom_ransac_options_init, &r) == FATHOM_OK && r.threshold == 0.01 && r.iterations == 1000 &&
                    r.confidence == 0.99 && fz_all_zero(r.reserved, sizeof r.reserved) && r.seed == 0,
                "fathom_ransac_options_init", "the defaults are not the header's");
        fz_need(FZ(fathom_ransac_options_init, NULL) == FATHOM_ERR_NULL_POINTER, "fathom_ransac_options_init",
                "NULL was not FATHOM_ERR_NULL_POINTER");
    } else {
        fathom_batch_options b;
        fz_poison(&b, sizeof b);
        fz_need(FZ(fathom_batch_options_init, &b) == FATHOM_OK && b.tmin == 0 && isinf(b.tmax) && b.tmax > 0 && b.threads == 0 &&
                    fz_all_zero(b.reserved, sizeof b.reserved),
                "fathom_batch_options_init", "the defaults are not the header's");
        fz_need(FZ(fathom_batch_options_init, NULL) == FATHOM_ERR_NULL_POINTER, "fathom_batch_options_init",
                "NULL was not FATHOM_ERR_NULL_POINTER");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    uint8_t selector = fz_u8(&in), which = selector >> 3;
    switch (selector % 8) {
    case 0: quats(&in, which); break;
    case 1: poses(&in, which); break;
    case 2: cameras(&in, which); break;
    case 3: casts(&in, which); break;
    case 4: tags(&in, which); break;
    case 5: taps(&in, which); break;
    case 6: trajectories(&in, which); break;
    default: names(&in); break;
    }
    return 0;
}
