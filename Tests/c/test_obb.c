/* General oriented boxes: check, corners, volume, box -> obb, point containment (count, mask, indices) with
 * strided buffers, signed distances, PCA and upright fits. Expected values are hand-derived or computed here
 * in double precision from the definitions (local coordinates l = R^T (p - c), inside when |l_i| <= s_i / 2). */
#include "fathom.h"
#include "check.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TOL 2e-5
#define S2 0.70710678118654752

static const int SIGN[8][3] = {
    {-1, +1, -1}, {+1, +1, -1}, {+1, -1, -1}, {-1, -1, -1},
    {-1, +1, +1}, {+1, +1, +1}, {+1, -1, +1}, {-1, -1, +1},
};

static fathom_obb make_obb(double cx, double cy, double cz, double sx, double sy, double sz, const double q[4]) {
    fathom_obb o;
    o.center = t_v3(cx, cy, cz);
    o.scale = t_v3(sx, sy, sz);
    o.rotation = t_fq(q);
    return o;
}

/* Local coordinates of p in the obb, in double. */
static void local_of(const fathom_obb *o, const double p[3], double l[3]) {
    double q[4] = {o->rotation.x, o->rotation.y, o->rotation.z, o->rotation.w}, n, m[9], mt[9];
    double d[3] = {p[0] - o->center.x, p[1] - o->center.y, p[2] - o->center.z};
    n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    q[0] /= n, q[1] /= n, q[2] /= n, q[3] /= n;
    t_quat_to_mat3(q, m);
    t_mat3_transpose(m, mt);
    t_mat3_apply(mt, d, l);
}

/* ---- check, corners, volume, box_to_obb ------------------------------------------------------ */

static void test_basics(void) {
    const double rz90[4] = {0, 0, S2, S2}, id[4] = {0, 0, 0, 1};
    fathom_obb o = make_obb(1, 2, 3, 2, 4, 6, rz90), bad;
    fathom_vec3 c[8];
    float vol;
    int i;

    check_section("obb_check / corners / volume");
    CHECK_OK(fathom_obb_check(&o));
    bad = o;
    bad.scale.y = 0;
    CHECK_STATUS(fathom_obb_check(&bad), FATHOM_ERR_OUT_OF_RANGE);
    bad = o;
    bad.scale.z = -2;
    CHECK_STATUS(fathom_obb_check(&bad), FATHOM_ERR_OUT_OF_RANGE);
    bad = o;
    bad.center.x = (float)NAN;
    CHECK_STATUS(fathom_obb_check(&bad), FATHOM_ERR_NOT_FINITE);
    bad = o;
    bad.rotation.w = (float)INFINITY;
    CHECK_STATUS(fathom_obb_check(&bad), FATHOM_ERR_NOT_FINITE);
    bad = o;
    bad.rotation = t_fq(id);
    bad.rotation.w = 1.01f; /* |q| 1e-2 off unit */
    CHECK_STATUS(fathom_obb_check(&bad), FATHOM_ERR_OUT_OF_RANGE);
    bad.rotation.w = 1.0005f; /* within 1e-3 */
    CHECK_OK(fathom_obb_check(&bad));
    bad.rotation.w = 0.0f; /* zero quaternion */
    CHECK_STATUS(fathom_obb_check(&bad), FATHOM_ERR_OUT_OF_RANGE);

    /* R_z(90) (x, y, z) = (-y, x, z). TLF local (-1, 2, -3) -> (-2, -1, -3) + (1, 2, 3) = (-1, 1, 0);
     * BRB local (1, -2, 3) -> (2, 1, 3) + c = (3, 3, 6). */
    CHECK_OK(fathom_obb_corners(&o, c));
    CHECK_VEC3(c[FATHOM_CORNER_TOP_LEFT_FRONT], -1, 1, 0, TOL);
    CHECK_VEC3(c[FATHOM_CORNER_BOT_RIGHT_BACK], 3, 3, 6, TOL);
    for (i = 0; i < 8; i++)
        CHECK_VEC3(c[i], 1 - SIGN[i][1] * 2.0, 2 + SIGN[i][0] * 1.0, 3 + SIGN[i][2] * 3.0, TOL);
    CHECK_OK(fathom_obb_volume(&o, &vol));
    CHECK_NEAR(vol, 48, 1e-4);
    {
        /* A general rotation against the formula. */
        double q[4], m[9];
        t_quat_axis_angle(1, 2, 3, 0.7, q);
        t_quat_to_mat3(q, m);
        o = make_obb(0.3, -0.2, 1, 1, 2, 0.5, q);
        CHECK_OK(fathom_obb_corners(&o, c));
        for (i = 0; i < 8; i++) {
            double l[3] = {SIGN[i][0] * 0.5, SIGN[i][1] * 1.0, SIGN[i][2] * 0.25}, w[3];
            t_mat3_apply(m, l, w);
            CHECK_VEC3(c[i], 0.3 + w[0], -0.2 + w[1], 1 + w[2], TOL);
        }
        CHECK_OK(fathom_obb_volume(&o, &vol));
        CHECK_NEAR(vol, 1.0, 1e-5);
    }
}

static void test_box_to_obb(void) {
    fathom_box b;
    fathom_obb o;
    fathom_vec3 bc[8], oc[8];
    int i;

    check_section("box_to_obb");
    CHECK_OK(fathom_box_init(v3(1, 2, 3), v3(0.4f, 0.6f, 0.8f), 0.5f, &b));
    CHECK_OK(fathom_box_to_obb(&b, &o));
    CHECK_VEC3(o.center, 1, 2, 3, 1e-6);
    CHECK_VEC3(o.scale, 0.4f, 0.6f, 0.8f, 1e-6);
    CHECK_QUAT_ROT(o.rotation, 0, sin(0.25), 0, cos(0.25), 1e-6);
    /* Floor 1.9 above the bottom (2 - 0.3 = 1.7): the obb spans 1.9 .. 2.3, centre y 2.1, height 0.4. */
    CHECK_OK(fathom_box_set_floor(&b, 1.9f));
    CHECK_OK(fathom_box_to_obb(&b, &o));
    CHECK_VEC3(o.center, 1, 2.1, 3, 1e-6);
    CHECK_VEC3(o.scale, 0.4f, 0.4, 0.8f, 1e-6);
    CHECK_QUAT_ROT(o.rotation, 0, sin(0.25), 0, cos(0.25), 1e-6);
    /* Its corners are the box's clamped corners. */
    CHECK_OK(fathom_box_corners(&b, bc));
    CHECK_OK(fathom_obb_corners(&o, oc));
    for (i = 0; i < 8; i++) CHECK_VEC3(oc[i], bc[i].x, bc[i].y, bc[i].z, TOL);
    /* A floor below the bottom changes nothing. */
    CHECK_OK(fathom_box_set_floor(&b, 1.0f));
    CHECK_OK(fathom_box_to_obb(&b, &o));
    CHECK_VEC3(o.center, 1, 2, 3, 1e-6);
    CHECK_VEC3(o.scale, 0.4f, 0.6f, 0.8f, 1e-6);
    /* At or above the top: no height left. */
    CHECK_OK(fathom_box_set_floor(&b, 2.3f));
    CHECK_STATUS(fathom_box_to_obb(&b, &o), FATHOM_ERR_DEGENERATE);
    CHECK_OK(fathom_box_set_floor(&b, 10.0f));
    CHECK_STATUS(fathom_box_to_obb(&b, &o), FATHOM_ERR_DEGENERATE);
}

/* ---- containment ----------------------------------------------------------------------------- */

/* Points laid out x, y, z, extra (stride 16); the extra float is NaN so a reader that takes it for a
 * coordinate would count wrongly. */
#define NP 14

static void fill_points(float buf[NP * 4], double cx, double cy, double cz) {
    /* Local points of an axis-aligned box with half extents (1, 2, 3), and whether each is inside. */
    const float c[3] = {(float)cx, (float)cy, (float)cz};
    float p[NP][3] = {
        {0, 0, 0},          /* 0 in: centre */
        {1, 0, 0},          /* 1 in: on the right face */
        {-1, 2, 3},         /* 2 in: a corner */
        {0, 0, 0},          /* 3 out: just past the right face (set below) */
        {0, -2, 0},         /* 4 in: on the bottom face */
        {0, 0, 0},          /* 5 out: just past the front face (set below) */
        {0, 0, 0},          /* 6 out: NaN x */
        {0, 0, 0},          /* 7 out: +inf y */
        {0, 0, 0},          /* 8 out: -inf x */
        {0.5f, 1.5f, -2.5f},/* 9 in */
        {5, 5, 5},          /* 10 out */
        {0, 0, 3},          /* 11 in: on the back face */
        {1, -2, -3},        /* 12 in: a corner */
        {-1.5f, 0, 0},      /* 13 out */
    };
    int i, k;
    for (i = 0; i < NP; i++) {
        for (k = 0; k < 3; k++) buf[i * 4 + k] = p[i][k] + c[k]; /* exact: binary fractions */
        buf[i * 4 + 3] = (float)NAN;
    }
    buf[3 * 4 + 0] = nextafterf(1.0f + c[0], INFINITY);  /* one ulp outside the right face */
    buf[5 * 4 + 2] = nextafterf(-3.0f + c[2], -INFINITY); /* one ulp outside the front face */
    buf[6 * 4 + 0] = (float)NAN;
    buf[7 * 4 + 1] = (float)INFINITY;
    buf[8 * 4 + 0] = (float)-INFINITY;
}

static const int INSIDE[NP] = {1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0};
static const uint64_t INSIDE_IDX[] = {0, 1, 2, 4, 9, 11, 12};
#define N_INSIDE 7

static void test_containment_exact(void) {
    static const double centers[2][3] = {{0, 0, 0}, {0.5, 0.25, -1}};
    const double id[4] = {0, 0, 0, 1};
    int ci;

    for (ci = 0; ci < 2; ci++) {
        float buf[NP * 4];
        fathom_obb o = make_obb(centers[ci][0], centers[ci][1], centers[ci][2], 2, 4, 6, id);
        size_t n = 999;
        uint8_t mask[NP + 4];
        uint64_t idx[NP + 4];
        int i, ok;

        check_section(ci == 0 ? "containment, exact cases (centre 0)" : "containment, exact cases (translated)");
        fill_points(buf, centers[ci][0], centers[ci][1], centers[ci][2]);
        CHECK_OK(fathom_obb_count_inside(&o, buf, NP, 16, &n));
        CHECK(n == N_INSIDE);

        memset(mask, 7, sizeof mask);
        n = 999;
        CHECK_OK(fathom_obb_mask_inside(&o, buf, NP, 16, mask, &n));
        CHECK(n == N_INSIDE);
        for (ok = 1, i = 0; i < NP; i++)
            if (mask[i] != INSIDE[i]) {
                ok = 0;
                printf("    mask[%d] = %d, expected %d\n", i, mask[i], INSIDE[i]);
            }
        CHECK(ok);
        CHECK(mask[NP] == 7); /* nothing past count */
        memset(mask, 7, sizeof mask);
        CHECK_OK(fathom_obb_mask_inside(&o, buf, NP, 16, mask, NULL)); /* out_inside may be NULL */
        for (ok = 1, i = 0; i < NP; i++) ok = ok && mask[i] == INSIDE[i];
        CHECK(ok);

        /* Indices: enough room. */
        memset(idx, 0xff, sizeof idx);
        n = 999;
        CHECK_OK(fathom_obb_indices_inside(&o, buf, NP, 16, idx, NP + 4, &n));
        CHECK(n == N_INSIDE);
        CHECK(memcmp(idx, INSIDE_IDX, sizeof INSIDE_IDX) == 0);
        CHECK(idx[N_INSIDE] == UINT64_MAX);
        /* Exactly enough. */
        memset(idx, 0xff, sizeof idx);
        CHECK_OK(fathom_obb_indices_inside(&o, buf, NP, 16, idx, N_INSIDE, &n));
        CHECK(n == N_INSIDE && memcmp(idx, INSIDE_IDX, sizeof INSIDE_IDX) == 0);
        /* Too small: the first `capacity` indices, the needed count, nothing past capacity. */
        memset(idx, 0xff, sizeof idx);
        n = 999;
        CHECK_STATUS(fathom_obb_indices_inside(&o, buf, NP, 16, idx, 3, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(n == N_INSIDE);
        CHECK(idx[0] == 0 && idx[1] == 1 && idx[2] == 2);
        CHECK(idx[3] == UINT64_MAX);
        /* Capacity 0 with NULL: just the count. */
        n = 999;
        CHECK_STATUS(fathom_obb_indices_inside(&o, buf, NP, 16, NULL, 0, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(n == N_INSIDE);
    }
    {
        /* No point inside: capacity 0 is enough. */
        float far_pts[6] = {10, 10, 10, -10, 0, 0};
        fathom_obb o = make_obb(0, 0, 0, 2, 4, 6, id);
        size_t n = 999;
        CHECK_OK(fathom_obb_indices_inside(&o, far_pts, 2, 12, NULL, 0, &n));
        CHECK(n == 0);
        CHECK_OK(fathom_obb_count_inside(&o, far_pts, 2, 12, &n));
        CHECK(n == 0);
        /* A single point, stride exactly 12. */
        CHECK_OK(fathom_obb_count_inside(&o, far_pts, 1, 12, &n));
        CHECK(n == 0);
    }
}

/* Many points in a rotated box, with points too close to a face (within 1e-4 in local units) left out so the
 * expected answer does not depend on rounding. Stride 20: x, y, z and two other floats. */
static void test_containment_many(void) {
    enum { N = 100003, STRIDE_FLOATS = 5 };
    float *buf = (float *)malloc(sizeof(float) * N * STRIDE_FLOATS);
    uint8_t *expected = (uint8_t *)malloc(N), *mask = (uint8_t *)malloc(N);
    uint64_t *idx = (uint64_t *)malloc(sizeof(uint64_t) * N);
    double q[4];
    fathom_obb o;
    unsigned long st = 12345;
    size_t i, n_in = 0, n = 0, bad = 0, j;
    const double h[3] = {0.5, 1.0, 0.25};

    check_section("containment, 100003 points in a rotated box");
    t_quat_axis_angle(1, 2, 3, 0.7, q);
    o = make_obb(0.3, -0.2, 1, 1, 2, 0.5, q);
    for (i = 0; i < N; i++) {
        for (;;) {
            double p[3], l[3];
            int k, near_face = 0, in = 1;
            for (k = 0; k < 3; k++) {
                p[k] = (float)((k == 1 ? -0.2 : (k == 0 ? 0.3 : 1.0)) + (t_rand(&st) * 2 - 1) * 1.3);
                buf[i * STRIDE_FLOATS + k] = (float)p[k];
            }
            local_of(&o, p, l);
            for (k = 0; k < 3; k++) {
                if (fabs(fabs(l[k]) - h[k]) < 1e-4) near_face = 1;
                if (fabs(l[k]) > h[k]) in = 0;
            }
            if (near_face) continue;
            expected[i] = (uint8_t)in;
            n_in += (size_t)in;
            break;
        }
        buf[i * STRIDE_FLOATS + 3] = (float)NAN;
        buf[i * STRIDE_FLOATS + 4] = (float)i;
    }
    CHECK(n_in > 1000 && n_in < N - 1000); /* the test itself is meaningful */
    CHECK_OK(fathom_obb_count_inside(&o, buf, N, STRIDE_FLOATS * 4, &n));
    CHECK(n == n_in);
    if (n != n_in) printf("    count %zu, expected %zu\n", n, n_in);
    CHECK_OK(fathom_obb_mask_inside(&o, buf, N, STRIDE_FLOATS * 4, mask, &n));
    CHECK(n == n_in);
    for (i = 0; i < N; i++) bad += mask[i] != expected[i];
    CHECK(bad == 0);
    n = 0;
    CHECK_OK(fathom_obb_indices_inside(&o, buf, N, STRIDE_FLOATS * 4, idx, N, &n));
    CHECK(n == n_in);
    for (bad = 0, i = 0, j = 0; i < N && j <= n; i++)
        if (expected[i]) {
            if (j < n && idx[j] != i) bad++;
            j++;
        }
    CHECK(bad == 0);
    /* Every count from a tail offset: counts of sub-ranges add up (SIMD tails). */
    {
        size_t a = 0, b = 0, k, e_a = 0, e_b = 0;
        for (k = 0; k < 13; k++) e_a += expected[k];
        for (k = 13; k < N; k++) e_b += expected[k];
        CHECK_OK(fathom_obb_count_inside(&o, buf, 13, STRIDE_FLOATS * 4, &a));
        CHECK_OK(fathom_obb_count_inside(&o, buf + 13 * STRIDE_FLOATS, N - 13, STRIDE_FLOATS * 4, &b));
        CHECK(a == e_a && b == e_b);
    }
    free(buf);
    free(expected);
    free(mask);
    free(idx);
}

/* ---- signed distances ------------------------------------------------------------------------ */

static double expected_sd(const fathom_obb *o, const double p[3]) {
    double l[3], h[3] = {o->scale.x / 2.0, o->scale.y / 2.0, o->scale.z / 2.0}, out = 0, in = 1e30;
    int k;
    local_of(o, p, l);
    for (k = 0; k < 3; k++) {
        double d = fabs(l[k]) - h[k];
        if (d > 0) out += d * d;
        if (-d < in) in = -d;
    }
    return out > 0 ? sqrt(out) : -in;
}

static void test_signed_distances(void) {
    const double id[4] = {0, 0, 0, 1};
    fathom_obb o = make_obb(0, 0, 0, 2, 4, 6, id);
    /* x, y, z, extra (stride 16). Hand-derived, half extents (1, 2, 3):
     *  (0.5, 0, 0): nearest face x at 0.5 -> -0.5      (0, 0, 0): -1
     *  (3, 0, 0): 2 past x -> 2                        (2, 3, 0): (1, 1, 0) past -> sqrt 2
     *  (2, 3, 4): (1, 1, 1) past -> sqrt 3             (1, 0, 0): on the face -> 0
     *  (0, -2.5, 0): 0.5 below -> 0.5                  (0.9, 1.9, 0): 0.1 from x and y faces -> -0.1 */
    float pts[8 * 4] = {0.5f, 0, 0, 99, 0, 0, 0, 99, 3, 0, 0, 99, 2, 3, 0, 99,
                        2, 3, 4, 99,    1, 0, 0, 99, 0, -2.5f, 0, 99, 0.9f, 1.9f, 0, 99};
    const double e[8] = {-0.5, -1, 2, 1.4142135623730951, 1.7320508075688772, 0, 0.5, -0.1};
    float d[8 + 1];
    int i;

    check_section("obb_signed_distances");
    d[8] = 12345.0f;
    CHECK_OK(fathom_obb_signed_distances(&o, pts, 8, 16, d));
    for (i = 0; i < 8; i++) CHECK_NEAR(d[i], e[i], 1e-5);
    CHECK(d[8] == 12345.0f);
    {
        /* Rotated and translated, many points, against the definition. */
        enum { N = 257 };
        float p[N * 3], dd[N];
        double q[4];
        unsigned long st = 99;
        int bad = 0;
        t_quat_axis_angle(-1, 0.5, 2, 2.1, q);
        o = make_obb(1, -2, 0.5, 0.6, 1.2, 2.4, q);
        for (i = 0; i < N * 3; i++) p[i] = (float)((i % 3 == 0 ? 1 : (i % 3 == 1 ? -2 : 0.5)) + (t_rand(&st) * 2 - 1) * 2.5);
        CHECK_OK(fathom_obb_signed_distances(&o, p, N, 12, dd));
        for (i = 0; i < N; i++) {
            double pp[3] = {p[i * 3], p[i * 3 + 1], p[i * 3 + 2]}, ex = expected_sd(&o, pp);
            if (fabs(dd[i] - ex) > 2e-5) {
                if (bad < 5) printf("    point %d: got %.7g expected %.7g\n", i, (double)dd[i], ex);
                bad++;
            }
        }
        CHECK(bad == 0);
    }
    {
        /* Points must be finite: NaN -> NOT_FINITE, nothing written. */
        float p2[6] = {0, 0, 0, 0, (float)NAN, 0}, d2[2] = {7, 7};
        o = make_obb(0, 0, 0, 2, 4, 6, id);
        CHECK_STATUS(fathom_obb_signed_distances(&o, p2, 2, 12, d2), FATHOM_ERR_NOT_FINITE);
        CHECK(d2[0] == 7 && d2[1] == 7);
        p2[4] = (float)INFINITY;
        CHECK_STATUS(fathom_obb_signed_distances(&o, p2, 2, 12, d2), FATHOM_ERR_NOT_FINITE);
    }
}

/* ---- fits ------------------------------------------------------------------------------------ */

/* The largest |l_i| - s_i / 2 over the points (<= 0 when all are enclosed). */
static double worst_outside_obb(const fathom_obb *o, const float *p, size_t n, size_t stride_floats) {
    double worst = -1e30, h[3] = {o->scale.x / 2.0, o->scale.y / 2.0, o->scale.z / 2.0};
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        double pp[3] = {p[i * stride_floats], p[i * stride_floats + 1], p[i * stride_floats + 2]}, l[3];
        local_of(o, pp, l);
        for (k = 0; k < 3; k++)
            if (fabs(l[k]) - h[k] > worst) worst = fabs(l[k]) - h[k];
    }
    return worst;
}

static void test_fit_pca(void) {
    /* A 5 x 5 x 5 grid over [-2, 2] x [-1, 1] x [-0.5, 0.5] (variances 2.5 : 0.625 : 0.156), rotated and moved.
     * Its covariance is diagonal in the grid's frame, so the principal box is the grid's box:
     * extents (4, 2, 1), centre t, axes R's columns (up to sign), volume 8. */
    enum { N = 125 };
    float p[N * 4];
    double q[4], m[9];
    const double t[3] = {1, 2, 3};
    fathom_obb o;
    float vol = 0;
    int i, j, k, n = 0;

    check_section("obb_fit_pca");
    t_quat_axis_angle(0.3, 1, -0.2, 0.9, q);
    t_quat_to_mat3(q, m);
    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++)
            for (k = 0; k < 5; k++) {
                double l[3] = {-2 + i, -1 + 0.5 * j, -0.5 + 0.25 * k}, w[3];
                t_mat3_apply(m, l, w);
                p[n * 4 + 0] = (float)(w[0] + t[0]);
                p[n * 4 + 1] = (float)(w[1] + t[1]);
                p[n * 4 + 2] = (float)(w[2] + t[2]);
                p[n * 4 + 3] = (float)NAN; /* not a coordinate */
                n++;
            }
    CHECK_OK(fathom_obb_fit_pca(p, N, 16, &o, &vol));
    CHECK_OK(fathom_obb_check(&o));
    CHECK_VEC3(o.center, t[0], t[1], t[2], 1e-4);
    CHECK_VEC3(o.scale, 4, 2, 1, 1e-4); /* largest variance first */
    CHECK_NEAR(vol, 8, 1e-3);
    CHECK(worst_outside_obb(&o, p, N, 4) <= 1e-5);
    {
        /* Its axes are the grid's axes, up to sign. */
        double fq[4] = {o.rotation.x, o.rotation.y, o.rotation.z, o.rotation.w}, fm[9];
        t_quat_to_mat3(fq, fm);
        for (i = 0; i < 3; i++) {
            double a[3] = {fm[i * 3], fm[i * 3 + 1], fm[i * 3 + 2]}, b[3] = {m[i * 3], m[i * 3 + 1], m[i * 3 + 2]};
            CHECK_NEAR(fabs(t_dot(a, b)), 1, 1e-4);
        }
    }
    {
        /* Random points in a rotated slab: the fit encloses them all. */
        enum { M = 1000 };
        static float r[M * 3];
        unsigned long st = 4242;
        for (i = 0; i < M; i++) {
            double l[3] = {(t_rand(&st) - 0.5) * 3, (t_rand(&st) - 0.5) * 1, (t_rand(&st) - 0.5) * 0.3}, w[3];
            t_mat3_apply(m, l, w);
            r[i * 3] = (float)(w[0] - 5);
            r[i * 3 + 1] = (float)w[1];
            r[i * 3 + 2] = (float)(w[2] + 0.5);
        }
        CHECK_OK(fathom_obb_fit_pca(r, M, 12, &o, &vol));
        CHECK(worst_outside_obb(&o, r, M, 3) <= 1e-5);
        CHECK_NEAR(vol, (double)o.scale.x * o.scale.y * o.scale.z, 1e-4);
        CHECK(o.scale.x >= o.scale.y * 0.9 && o.scale.y >= o.scale.z * 0.9);
        CHECK(o.scale.x <= 3.0 * 1.1 && o.scale.x >= 3.0 * 0.9);
    }
    {
        /* The fewest points: a tetrahedron (4 points, not coplanar). */
        float tet[4 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
        CHECK_OK(fathom_obb_fit_pca(tet, 4, 12, &o, &vol));
        CHECK_OK(fathom_obb_check(&o));
        CHECK(worst_outside_obb(&o, tet, 4, 3) <= 1e-5);
        CHECK_NEAR(vol, (double)o.scale.x * o.scale.y * o.scale.z, 1e-5);
    }
    {
        /* Degenerate: 3 points, coplanar points, one point repeated. */
        float few[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        float plane[16 * 3], same[5 * 3];
        for (i = 0; i < 16; i++) {
            plane[i * 3] = (float)(i % 4);
            plane[i * 3 + 1] = 0.5f;
            plane[i * 3 + 2] = (float)(i / 4);
        }
        for (i = 0; i < 15; i++) same[i] = 1.5f;
        CHECK_STATUS(fathom_obb_fit_pca(few, 3, 12, &o, &vol), FATHOM_ERR_DEGENERATE);
        CHECK_STATUS(fathom_obb_fit_pca(plane, 16, 12, &o, &vol), FATHOM_ERR_DEGENERATE);
        CHECK_STATUS(fathom_obb_fit_pca(same, 5, 12, &o, &vol), FATHOM_ERR_DEGENERATE);
        plane[5 * 3 + 2] = (float)NAN;
        CHECK_STATUS(fathom_obb_fit_pca(plane, 16, 12, &o, &vol), FATHOM_ERR_NOT_FINITE);
    }
}

static void check_upright(double yaw, double len_x, double len_z, double y0, double y1, double cx, double cz,
                          double expect_rot, double ex, double ez, int line) {
    /* The rectangle's 4 corners at both heights, edge midpoints, and random interior points. */
    enum { N = 8 + 8 + 200 };
    float p[N * 3];
    fathom_box b;
    float vol = 0;
    unsigned long st = 777;
    int i, n = 0;
    for (i = 0; i < N; i++) {
        double l[3], w[3];
        if (i < 8) {
            l[0] = ((i & 1) ? 0.5 : -0.5) * len_x;
            l[1] = (i & 2) ? y1 : y0;
            l[2] = ((i & 4) ? 0.5 : -0.5) * len_z;
        } else if (i < 16) {
            int e = i - 8;
            l[0] = (e < 4) ? ((e & 1) ? 0.5 : -0.5) * len_x : 0;
            l[2] = (e < 4) ? 0 : ((e & 1) ? 0.5 : -0.5) * len_z;
            l[1] = (e & 2) ? y1 : y0;
        } else {
            l[0] = (t_rand(&st) - 0.5) * len_x * 0.98;
            l[1] = y0 + t_rand(&st) * (y1 - y0);
            l[2] = (t_rand(&st) - 0.5) * len_z * 0.98;
        }
        t_ry_apply(yaw, l, w);
        p[n * 3] = (float)(w[0] + cx);
        p[n * 3 + 1] = (float)w[1];
        p[n * 3 + 2] = (float)(w[2] + cz);
        n++;
    }
    if (fathom_box_fit_upright(p, N, 12, &b, &vol) != FATHOM_OK) {
        check_fail_(__FILE__, line, "fathom_box_fit_upright");
        printf("    %s\n", fathom_last_error());
        return;
    }
    check_pass_();
    if (b.rot_y >= 0 && b.rot_y < T_PI / 2 && fabs(b.rot_y - expect_rot) < 1e-4 && fabs(b.scale.x - ex) < 1e-4 &&
        fabs(b.scale.z - ez) < 1e-4 && fabs(b.scale.y - (y1 - y0)) < 1e-4 && fabs(b.center.x - cx) < 1e-4 &&
        fabs(b.center.z - cz) < 1e-4 && fabs(b.center.y - (y0 + y1) / 2) < 1e-4 && b.has_floor == 0 &&
        fabs(vol - len_x * len_z * (y1 - y0)) < 1e-3) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "upright fit matches the rectangle");
        printf("    got centre (%.6g %.6g %.6g) scale (%.6g %.6g %.6g) rot %.6g floor %d volume %.6g\n",
               (double)b.center.x, (double)b.center.y, (double)b.center.z, (double)b.scale.x, (double)b.scale.y,
               (double)b.scale.z, (double)b.rot_y, (int)b.has_floor, (double)vol);
        printf("    expected centre (%.6g %.6g %.6g) scale (%.6g %.6g %.6g) rot %.6g volume %.6g\n", cx, (y0 + y1) / 2,
               cz, ex, y1 - y0, ez, expect_rot, len_x * len_z * (y1 - y0));
    }
    /* Every point is inside (face distances <= 0, within rounding). */
    {
        int bad = 0;
        for (i = 0; i < N; i++) {
            float d[6];
            int k;
            if (fathom_box_face_distances(&b, v3(p[i * 3], p[i * 3 + 1], p[i * 3 + 2]), d) != FATHOM_OK) {
                bad++;
                continue;
            }
            for (k = 0; k < 6; k++)
                if (d[k] > 1e-5) {
                    bad++;
                    break;
                }
        }
        if (bad == 0) check_pass_();
        else check_fail_(__FILE__, line, "the upright fit encloses every point");
    }
}

static void test_fit_upright(void) {
    fathom_box b;
    float vol;

    check_section("box_fit_upright");
    /* A 3 x 1 footprint at yaw 0.4, from y 0.5 to 2: rot_y 0.4, scale (3, 1.5, 1). */
    check_upright(0.4, 3, 1, 0.5, 2.0, 1, -2, 0.4, 3, 1, __LINE__);
    /* The same footprint at yaw 2.0: R_y(2.0) z = R_y(2.0 - pi/2) x, so rot_y = 2.0 - pi/2 with local x along
     * the rectangle's short side: scale (1, h, 3). */
    check_upright(2.0, 3, 1, -1.0, 0.25, -0.5, 4, 2.0 - T_PI / 2, 1, 3, __LINE__);
    /* Yaw 1.2 (in range), a 0.8 x 2.4 footprint. */
    check_upright(1.2, 0.8, 2.4, 0, 1, 0, 0, 1.2, 0.8, 2.4, __LINE__);
    /* Negative yaw -0.3: the edge directions are -0.3 and -0.3 + pi/2 = 1.2708; local x along the second,
     * which is the rectangle's local z (length len_z). */
    check_upright(-0.3, 2, 0.5, 0, 3, 2, 2, -0.3 + T_PI / 2, 0.5, 2, __LINE__);
    {
        /* Degenerate: no height; footprint on a line. */
        float flat[4 * 3] = {0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1};
        float line[4 * 3] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 0.5f, 3};
        CHECK_STATUS(fathom_box_fit_upright(flat, 4, 12, &b, &vol), FATHOM_ERR_DEGENERATE);
        CHECK_STATUS(fathom_box_fit_upright(line, 4, 12, &b, &vol), FATHOM_ERR_DEGENERATE);
        line[4] = (float)INFINITY;
        CHECK_STATUS(fathom_box_fit_upright(line, 4, 12, &b, &vol), FATHOM_ERR_NOT_FINITE);
    }
}

int main(void) {
    test_basics();
    test_box_to_obb();
    test_containment_exact();
    test_containment_many();
    test_signed_distances();
    test_fit_pca();
    test_fit_upright();
    return check_summary("test_obb");
}
