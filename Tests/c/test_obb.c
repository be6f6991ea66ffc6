/* General oriented boxes across the C ABI: check, corners, volume, box -> obb, point containment (count, mask,
 * indices) with strided buffers and SIMD tails, signed distances, PCA and upright fits. Expected values are worked
 * out by hand in the comments, with rotations whose matrices are permutations (R_z(90): (x, y, z) -> (-y, x, z);
 * R_x(90): (x, y, z) -> (x, -z, y)), so that a quaternion read in the wrong field order would show. Random boxes
 * and clouds against Double references are in Tests/FathomCoreTests (OrientedBoxContainmentTests: corners,
 * containment, signed distances; FitTests: PCA and upright fits). */
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

/* R_z(90) and R_x(90) as quaternions. */
#define Q_RZ90 q4(0, 0, (float)S2, (float)S2)
#define Q_RX90 q4((float)S2, 0, 0, (float)S2)

static fathom_obb make_obb(double cx, double cy, double cz, double sx, double sy, double sz, fathom_quat q) {
    fathom_obb o;
    o.center = t_v3(cx, cy, cz);
    o.scale = t_v3(sx, sy, sz);
    o.rotation = q;
    return o;
}

/* ---- check, corners, volume, box_to_obb ------------------------------------------------------ */

static void test_basics(void) {
    fathom_obb o = make_obb(1, 2, 3, 2, 4, 6, Q_RZ90), bad;
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
    bad.rotation = q4(0, 0, 0, 1);
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
        /* R_x(90) (x, y, z) -> (x, -z, y), centre (0.3, -0.2, 1), half extents (0.5, 1, 0.25): corner l goes to
         * (0.3 + l.x, -0.2 - l.z, 1 + l.y); TLF (-0.5, 1, -0.25) -> (-0.2, 0.05, 2). */
        o = make_obb(0.3, -0.2, 1, 1, 2, 0.5, Q_RX90);
        CHECK_OK(fathom_obb_corners(&o, c));
        CHECK_VEC3(c[FATHOM_CORNER_TOP_LEFT_FRONT], -0.2, 0.05, 2, TOL);
        for (i = 0; i < 8; i++)
            CHECK_VEC3(c[i], 0.3 + SIGN[i][0] * 0.5, -0.2 - SIGN[i][2] * 0.25, 1 + SIGN[i][1] * 1.0, TOL);
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
    const fathom_quat id = q4(0, 0, 0, 1);
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

/* Many points (100003: SIMD blocks and a tail) in a box turned by R_z(90), in records of 5 floats (stride 20:
 * x, y, z, NaN, index). The points repeat a pattern of 7 local points, inside or outside by a clear margin; world
 * = centre + R_z(90) l = centre + (-l.y, l.x, l.z). Points 1 and 4 would flip if the rotation were ignored or read
 * in another field order. */
static void test_containment_many(void) {
    enum { N = 100003, STRIDE_FLOATS = 5, P = 7 };
    /* Half extents (0.5, 1, 0.25). */
    static const double local[P][3] = {
        {0, 0, 0},          /* in */
        {0.6, 0, 0},        /* out along local x (world y 0.6 from the centre: inside the unturned box) */
        {0.4, 0.9, 0.2},    /* in */
        {0, 0, 0.3},        /* out along z */
        {0, 0.9, 0},        /* in (world x 0.9 from the centre: outside the unturned box) */
        {-0.45, -0.95, -0.2}, /* in */
        {0, -1.2, 0},       /* out along y */
    };
    static const int in_pattern[P] = {1, 0, 1, 0, 1, 1, 0};
    float *buf = (float *)malloc(sizeof(float) * N * STRIDE_FLOATS);
    uint8_t *mask = (uint8_t *)malloc(N);
    uint64_t *idx = (uint64_t *)malloc(sizeof(uint64_t) * N);
    fathom_obb o = make_obb(0.3, -0.2, 1, 1, 2, 0.5, Q_RZ90);
    size_t i, n_in = 0, n = 0, bad = 0, j;

    check_section("containment, 100003 points in a turned box, stride 20");
    for (i = 0; i < N; i++) {
        const double *l = local[i % P];
        buf[i * STRIDE_FLOATS + 0] = (float)(0.3 - l[1]);
        buf[i * STRIDE_FLOATS + 1] = (float)(-0.2 + l[0]);
        buf[i * STRIDE_FLOATS + 2] = (float)(1 + l[2]);
        buf[i * STRIDE_FLOATS + 3] = (float)NAN;
        buf[i * STRIDE_FLOATS + 4] = (float)i;
        n_in += (size_t)in_pattern[i % P];
    }
    CHECK_OK(fathom_obb_count_inside(&o, buf, N, STRIDE_FLOATS * 4, &n));
    CHECK(n == n_in);
    if (n != n_in) printf("    count %zu, expected %zu\n", n, n_in);
    CHECK_OK(fathom_obb_mask_inside(&o, buf, N, STRIDE_FLOATS * 4, mask, &n));
    CHECK(n == n_in);
    for (i = 0; i < N; i++) bad += mask[i] != in_pattern[i % P];
    CHECK(bad == 0);
    n = 0;
    CHECK_OK(fathom_obb_indices_inside(&o, buf, N, STRIDE_FLOATS * 4, idx, N, &n));
    CHECK(n == n_in);
    for (bad = 0, i = 0, j = 0; i < N && j <= n; i++)
        if (in_pattern[i % P]) {
            if (j < n && idx[j] != i) bad++;
            j++;
        }
    CHECK(bad == 0);
    /* Every count from a tail offset: counts of sub-ranges add up (SIMD tails). Points 0..12 are the pattern (4 of
     * its 7 in) and its first 6 points (4 in): 8. */
    {
        size_t a = 0, b = 0;
        CHECK_OK(fathom_obb_count_inside(&o, buf, 13, STRIDE_FLOATS * 4, &a));
        CHECK_OK(fathom_obb_count_inside(&o, buf + 13 * STRIDE_FLOATS, N - 13, STRIDE_FLOATS * 4, &b));
        CHECK(a == 8 && a + b == n_in);
    }
    free(buf);
    free(mask);
    free(idx);
}

/* ---- signed distances ------------------------------------------------------------------------ */

static void test_signed_distances(void) {
    const fathom_quat id = q4(0, 0, 0, 1);
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
        /* Turned by R_z(90) and moved to (1, -2, 0.5), half extents (0.3, 0.6, 1.2); world = centre + (-l.y, l.x, l.z):
         *  l = (0.5, 0, 0): 0.2 past x -> 0.2          world (1, -1.5, 0.5)
         *  l = (0, 0.5, 0): 0.1 from the y faces -> -0.1 world (0.5, -2, 0.5)
         *  l = (0.4, 0.8, 1.3): (0.1, 0.2, 0.1) past -> sqrt 0.06   world (0.2, -1.6, 1.8)
         *  l = (0, 0, -1.2): on the front face -> 0       world (1, -2, -0.7) */
        float p[4 * 3] = {1, -1.5f, 0.5f, 0.5f, -2, 0.5f, 0.2f, -1.6f, 1.8f, 1, -2, -0.7f};
        float dd[4];
        o = make_obb(1, -2, 0.5, 0.6, 1.2, 2.4, Q_RZ90);
        CHECK_OK(fathom_obb_signed_distances(&o, p, 4, 12, dd));
        CHECK_NEAR(dd[0], 0.2, 2e-5);
        CHECK_NEAR(dd[1], -0.1, 2e-5);
        CHECK_NEAR(dd[2], sqrt(0.06), 2e-5);
        CHECK_NEAR(dd[3], 0, 2e-5);
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

static void test_fit_pca(void) {
    /* A 5 x 5 x 5 grid over [-2, 2] x [-1, 1] x [-0.5, 0.5] (variances 2.5 : 0.625 : 0.156), turned by R_z(90)
     * (local (x, y, z) -> world (-y, x, z)) and moved to t = (1, 2, 3). Its covariance is diagonal in the grid's
     * frame, so the principal box is the grid's box: extents (4, 2, 1) (largest first), centre t, volume 8, local x
     * along world +-y, local y along world +-x, local z along world +-z. */
    enum { N = 125 };
    float p[N * 4];
    const double t[3] = {1, 2, 3};
    fathom_obb o;
    fathom_vec3 ax;
    float vol = 0;
    size_t inside = 0;
    int i, j, k, n = 0;

    check_section("obb_fit_pca");
    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++)
            for (k = 0; k < 5; k++) {
                double l[3] = {-2 + i, -1 + 0.5 * j, -0.5 + 0.25 * k};
                p[n * 4 + 0] = (float)(t[0] - l[1]);
                p[n * 4 + 1] = (float)(t[1] + l[0]);
                p[n * 4 + 2] = (float)(t[2] + l[2]);
                p[n * 4 + 3] = (float)NAN; /* not a coordinate */
                n++;
            }
    CHECK_OK(fathom_obb_fit_pca(p, N, 16, &o, &vol));
    CHECK_OK(fathom_obb_check(&o));
    CHECK_VEC3(o.center, t[0], t[1], t[2], 1e-4);
    CHECK_VEC3(o.scale, 4, 2, 1, 1e-4); /* largest variance first */
    CHECK_NEAR(vol, 8, 1e-3);
    CHECK_OK(fathom_quat_rotate(o.rotation, v3(1, 0, 0), &ax));
    CHECK(fabs(ax.x) < 1e-4 && fabs(fabs(ax.y) - 1) < 1e-4 && fabs(ax.z) < 1e-4);
    CHECK_OK(fathom_quat_rotate(o.rotation, v3(0, 1, 0), &ax));
    CHECK(fabs(fabs(ax.x) - 1) < 1e-4 && fabs(ax.y) < 1e-4 && fabs(ax.z) < 1e-4);
    CHECK_OK(fathom_quat_rotate(o.rotation, v3(0, 0, 1), &ax));
    CHECK(fabs(ax.x) < 1e-4 && fabs(ax.y) < 1e-4 && fabs(fabs(ax.z) - 1) < 1e-4);
    /* It encloses every point, by the library's own containment test. */
    CHECK_OK(fathom_obb_count_inside(&o, p, N, 16, &inside));
    CHECK(inside == N);
    {
        /* The fewest points: a tetrahedron (4 points, not coplanar). */
        float tet[4 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
        CHECK_OK(fathom_obb_fit_pca(tet, 4, 12, &o, &vol));
        CHECK_OK(fathom_obb_check(&o));
        CHECK_OK(fathom_obb_count_inside(&o, tet, 4, 12, &inside));
        CHECK(inside == 4);
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

/* An upright fit of 4 footprint corners (x, z) at heights y0 and y1, plus the footprint's centre at both heights,
 * against the expected box. */
static void check_upright(const double corners[4][2], double y0, double y1, double cx, double cz, double expect_rot,
                          double ex, double ez, int line) {
    enum { N = 10 };
    float p[N * 3];
    fathom_box b;
    float vol = 0;
    int i;
    for (i = 0; i < N; i++) {
        p[i * 3] = (float)(cx + (i < 8 ? corners[i % 4][0] : 0));
        p[i * 3 + 1] = (float)(i < 8 ? (i < 4 ? y0 : y1) : (i == 8 ? y0 : y1));
        p[i * 3 + 2] = (float)(cz + (i < 8 ? corners[i % 4][1] : 0));
    }
    if (fathom_box_fit_upright(p, N, 12, &b, &vol) != FATHOM_OK) {
        check_fail_(__FILE__, line, "fathom_box_fit_upright");
        printf("    %s\n", fathom_last_error());
        return;
    }
    check_pass_();
    if (fabs(b.rot_y - expect_rot) < 1e-4 && fabs(b.scale.x - ex) < 1e-4 && fabs(b.scale.z - ez) < 1e-4 &&
        fabs(b.scale.y - (y1 - y0)) < 1e-4 && fabs(b.center.x - cx) < 1e-4 && fabs(b.center.z - cz) < 1e-4 &&
        fabs(b.center.y - (y0 + y1) / 2) < 1e-4 && b.has_floor == 0 && fabs(vol - ex * ez * (y1 - y0)) < 1e-3) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "upright fit matches the rectangle");
        printf("    got centre (%.6g %.6g %.6g) scale (%.6g %.6g %.6g) rot %.6g floor %d volume %.6g\n",
               (double)b.center.x, (double)b.center.y, (double)b.center.z, (double)b.scale.x, (double)b.scale.y,
               (double)b.scale.z, (double)b.rot_y, (int)b.has_floor, (double)vol);
        printf("    expected centre (%.6g %.6g %.6g) scale (%.6g %.6g %.6g) rot %.6g volume %.6g\n", cx, (y0 + y1) / 2,
               cz, ex, y1 - y0, ez, expect_rot, ex * ez * (y1 - y0));
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
    {
        /* A footprint turned by a = atan2(0.6, 0.8) (cos a = 0.8, sin a = 0.6): R_y(a) takes local x to
         * (0.8, 0, -0.6) and local z to (0.6, 0, 0.8). A 5 x 2.5 rectangle (half 2.5 along x, 1.25 along z) has
         * corners (x, z) = +-2.5 (0.8, -0.6) +-1.25 (0.6, 0.8): (2.75, -0.5), (1.25, -2.5), (-2.75, 0.5),
         * (-1.25, 2.5); moved to (1, -2), from y 0.5 to 2: rot_y a, scale (5, 1.5, 2.5). */
        static const double long_x[4][2] = {{2.75, -0.5}, {1.25, -2.5}, {-2.75, 0.5}, {-1.25, 2.5}};
        /* The lengths swapped (half 1.25 along x, 2.5 along z): +-1.25 (0.8, -0.6) +-2.5 (0.6, 0.8) = (2.5, 1.25),
         * (-0.5, -2.75), (-2.5, -1.25), (0.5, 2.75); the edge directions are the same, so rot_y is still a, with local
         * x along the short side: scale (2.5, 1.25, 5) from y -1 to 0.25 at (-0.5, 4). */
        static const double long_z[4][2] = {{2.5, 1.25}, {-0.5, -2.75}, {-2.5, -1.25}, {0.5, 2.75}};
        const double a = atan2(0.6, 0.8);
        check_upright(long_x, 0.5, 2.0, 1, -2, a, 5, 2.5, __LINE__);
        check_upright(long_z, -1.0, 0.25, -0.5, 4, a, 2.5, 5, __LINE__);
    }
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
