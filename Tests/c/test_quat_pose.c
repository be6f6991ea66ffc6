/* Quaternions and rigid poses across the C ABI. The geometry itself (Hamilton products, rotations against
 * Rodrigues' formula, matrix round trips, slerp, composition, inversion, polar factors, yaw) is checked against
 * Double references in Tests/FathomCoreTests (QuaternionTests, PoseTests). Here: a few values per function worked
 * out by hand in the comments, chosen so that a wrong field order (x, y, z, w), a transposed (row- instead of
 * column-major) matrix or a wrong sign would show; statuses; strided and in-place point buffers; batch = single
 * calls. */
#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "testmath.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define TOL 1e-5
#define S2 0.70710678118654752 /* sqrt(1/2) */

static double qnorm(fathom_quat q) {
    return sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
}

static void check_mat3(const float got[9], const double expected[9], double tol, int line) {
    int i, ok = 1;
    for (i = 0; i < 9; i++) ok = ok && fabs(got[i] - expected[i]) <= tol;
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "3x3 matrix matches");
        for (i = 0; i < 9; i++) printf("    [%d] got %.7g expected %.7g\n", i, (double)got[i], expected[i]);
    }
}

static void check_pose(const fathom_pose *got, const double expected[16], double tol, int line) {
    int i, ok = 1;
    for (i = 0; i < 16; i++) ok = ok && fabs(got->m[i] - expected[i]) <= tol;
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "4x4 pose matches");
        for (i = 0; i < 16; i++) printf("    m[%d] got %.7g expected %.7g\n", i, (double)got->m[i], expected[i]);
    }
}

/* ---- quaternions ----------------------------------------------------------------------------- */

static void test_axis_angle(void) {
    fathom_quat q;
    fathom_vec3 r;

    check_section("quat_from_axis_angle");
    /* 90 degrees about z (axis not unit): (0, 0, sin 45, cos 45). */
    CHECK_OK(fathom_quat_from_axis_angle(v3(0, 0, 2), (float)(T_PI / 2), &q));
    CHECK_NEAR(q.x, 0, TOL);
    CHECK_NEAR(q.y, 0, TOL);
    CHECK_NEAR(q.z, S2, TOL);
    CHECK_NEAR(q.w, S2, TOL);
    /* 120 degrees about (1, 1, 1): sin 60 / sqrt 3 = 0.5 each, cos 60 = 0.5. */
    CHECK_OK(fathom_quat_from_axis_angle(v3(1, 1, 1), (float)(2 * T_PI / 3), &q));
    CHECK_NEAR(q.x, 0.5, TOL);
    CHECK_NEAR(q.y, 0.5, TOL);
    CHECK_NEAR(q.z, 0.5, TOL);
    CHECK_NEAR(q.w, 0.5, TOL);
    /* That rotation permutes the axes x -> y -> z -> x. */
    CHECK_OK(fathom_quat_rotate(q, v3(1, 0, 0), &r));
    CHECK_VEC3(r, 0, 1, 0, TOL);
    CHECK_OK(fathom_quat_rotate(q, v3(0, 1, 0), &r));
    CHECK_VEC3(r, 0, 0, 1, TOL);
    /* A negative angle about -y equals the positive angle about +y. */
    CHECK_OK(fathom_quat_from_axis_angle(v3(0, -3, 0), -0.5f, &q));
    CHECK_NEAR(q.x, 0, TOL);
    CHECK_NEAR(q.y, sin(0.25), TOL);
    CHECK_NEAR(q.z, 0, TOL);
    CHECK_NEAR(q.w, cos(0.25), TOL);
    /* Angle 0: identity. */
    CHECK_OK(fathom_quat_from_axis_angle(v3(1, 0, 0), 0.0f, &q));
    CHECK_QUAT_ROT(q, 0, 0, 0, 1, TOL);
    /* A zero axis has no direction. */
    CHECK_STATUS(fathom_quat_from_axis_angle(v3(0, 0, 0), 1.0f, &q), FATHOM_ERR_DEGENERATE);
}

static void test_from_matrix(void) {
    fathom_quat q;

    check_section("quat_from_matrix");
    {
        /* R_z(90): x -> y, y -> -x. Columns (0,1,0), (-1,0,0), (0,0,1). */
        const float m[9] = {0, 1, 0, -1, 0, 0, 0, 0, 1};
        CHECK_OK(fathom_quat_from_matrix(m, &q));
        CHECK_QUAT_ROT(q, 0, 0, S2, S2, TOL);
    }
    {
        /* 120 degrees about (1,1,1): x -> y, y -> z, z -> x. */
        const float m[9] = {0, 1, 0, 0, 0, 1, 1, 0, 0};
        CHECK_OK(fathom_quat_from_matrix(m, &q));
        CHECK_QUAT_ROT(q, 0.5, 0.5, 0.5, 0.5, TOL);
    }
    {
        /* 180 degrees about x: diag(1, -1, -1), w = 0. */
        const float m[9] = {1, 0, 0, 0, -1, 0, 0, 0, -1};
        CHECK_OK(fathom_quat_from_matrix(m, &q));
        CHECK_QUAT_ROT(q, 1, 0, 0, 0, TOL);
    }
    {
        /* 180 degrees about (1,1,0)/sqrt 2: 2 n n^T - I = [[0,1,0],[1,0,0],[0,0,-1]]. */
        const float m[9] = {0, 1, 0, 1, 0, 0, 0, 0, -1};
        CHECK_OK(fathom_quat_from_matrix(m, &q));
        CHECK_QUAT_ROT(q, S2, S2, 0, 0, TOL);
    }
    {
        /* 180 degrees about z. */
        const float m[9] = {-1, 0, 0, 0, -1, 0, 0, 0, 1};
        CHECK_OK(fathom_quat_from_matrix(m, &q));
        CHECK_QUAT_ROT(q, 0, 0, 1, 0, TOL);
    }
    {
        /* A reflection is orthonormal but has determinant -1. */
        const float m[9] = {1, 0, 0, 0, 1, 0, 0, 0, -1};
        CHECK_STATUS(fathom_quat_from_matrix(m, &q), FATHOM_ERR_NOT_RIGID);
    }
    {
        /* A scale. */
        const float m[9] = {1.1f, 0, 0, 0, 1.1f, 0, 0, 0, 1.1f};
        CHECK_STATUS(fathom_quat_from_matrix(m, &q), FATHOM_ERR_NOT_RIGID);
    }
    {
        /* A shear. */
        const float m[9] = {1, 0, 0, 0.1f, 1, 0, 0, 0, 1};
        CHECK_STATUS(fathom_quat_from_matrix(m, &q), FATHOM_ERR_NOT_RIGID);
    }
    {
        /* Off by 1e-4: within FATHOM_RIGID_TOLERANCE. */
        const float m[9] = {1.0001f, 0, 0, 0, 1, 0, 0, 0, 1};
        CHECK_OK(fathom_quat_from_matrix(m, &q));
        CHECK_QUAT_ROT(q, 0, 0, 0, 1, 1e-4);
    }
}

static void test_to_matrix(void) {
    float m[9];

    check_section("quat_to_matrix");
    {
        /* R_x(90): y -> z, z -> -y. */
        const double e[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
        CHECK_OK(fathom_quat_to_matrix(q4((float)S2, 0, 0, (float)S2), m));
        check_mat3(m, e, TOL, __LINE__);
    }
    {
        /* Identity, and a quaternion 5e-4 off unit (accepted, normalized). */
        const double e[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        CHECK_OK(fathom_quat_to_matrix(q4(0, 0, 0, 1), m));
        check_mat3(m, e, TOL, __LINE__);
        CHECK_OK(fathom_quat_to_matrix(q4(0, 0, 0, 1.0005f), m));
        check_mat3(m, e, TOL, __LINE__);
        /* -q is the same rotation. */
        CHECK_OK(fathom_quat_to_matrix(q4(0, 0, 0, -1), m));
        check_mat3(m, e, TOL, __LINE__);
    }
    {
        /* R_y(90) (box.md's R_y): x -> -z, z -> x; columns (0, 0, -1), (0, 1, 0), (1, 0, 0). */
        const double e[9] = {0, 0, -1, 0, 1, 0, 1, 0, 0};
        CHECK_OK(fathom_quat_to_matrix(q4(0, (float)S2, 0, (float)S2), m));
        check_mat3(m, e, TOL, __LINE__);
    }
    {
        /* 120 degrees about (1, 1, 1), q = (1/2, 1/2, 1/2, 1/2): x -> y, y -> z, z -> x; columns (0, 1, 0),
         * (0, 0, 1), (1, 0, 0). Its transpose (the row-major reading) would be the inverse rotation. */
        const double e[9] = {0, 1, 0, 0, 0, 1, 1, 0, 0};
        CHECK_OK(fathom_quat_to_matrix(q4(0.5f, 0.5f, 0.5f, 0.5f), m));
        check_mat3(m, e, TOL, __LINE__);
    }
}

static void test_multiply(void) {
    fathom_quat q;
    fathom_vec3 r;

    check_section("quat_multiply");
    /* i j = k, j i = -k, k i = j. */
    CHECK_OK(fathom_quat_multiply(q4(1, 0, 0, 0), q4(0, 1, 0, 0), &q));
    CHECK_NEAR(q.x, 0, TOL);
    CHECK_NEAR(q.y, 0, TOL);
    CHECK_NEAR(q.z, 1, TOL);
    CHECK_NEAR(q.w, 0, TOL);
    CHECK_OK(fathom_quat_multiply(q4(0, 1, 0, 0), q4(1, 0, 0, 0), &q));
    CHECK_NEAR(q.z, -1, TOL);
    CHECK_OK(fathom_quat_multiply(q4(0, 0, 1, 0), q4(1, 0, 0, 0), &q));
    CHECK_NEAR(q.y, 1, TOL);
    CHECK_NEAR(q.x, 0, TOL);
    /* i i = -1. */
    CHECK_OK(fathom_quat_multiply(q4(1, 0, 0, 0), q4(1, 0, 0, 0), &q));
    CHECK_NEAR(q.w, -1, TOL);
    /* Inputs need not be unit: (2 w) * i = 2 i. */
    CHECK_OK(fathom_quat_multiply(q4(0, 0, 0, 2), q4(1, 0, 0, 0), &q));
    CHECK_NEAR(q.x, 2, TOL);
    CHECK_NEAR(q.y, 0, TOL);
    CHECK_NEAR(q.z, 0, TOL);
    CHECK_NEAR(q.w, 0, TOL);
    /* Every component in play (field order): (1, 2, 3, 4) * (5, 6, 7, 8) with a = (v, w):
     * v = 4 (5, 6, 7) + 8 (1, 2, 3) + (1, 2, 3) x (5, 6, 7) = (20 + 8 - 4, 24 + 16 + 8, 28 + 24 - 4) = (24, 48, 48),
     * w = 4 * 8 - (5 + 12 + 21) = -6. */
    CHECK_OK(fathom_quat_multiply(q4(1, 2, 3, 4), q4(5, 6, 7, 8), &q));
    CHECK_NEAR(q.x, 24, TOL);
    CHECK_NEAR(q.y, 48, TOL);
    CHECK_NEAR(q.z, 48, TOL);
    CHECK_NEAR(q.w, -6, TOL);
    /* a * b is b then a: R_z(90) * R_x(90) takes y -> z (R_x) -> z (R_z), and x -> x -> y. */
    CHECK_OK(fathom_quat_multiply(q4(0, 0, (float)S2, (float)S2), q4((float)S2, 0, 0, (float)S2), &q));
    CHECK_OK(fathom_quat_rotate(q, v3(0, 1, 0), &r));
    CHECK_VEC3(r, 0, 0, 1, TOL);
    CHECK_OK(fathom_quat_rotate(q, v3(1, 0, 0), &r));
    CHECK_VEC3(r, 0, 1, 0, TOL);
    CHECK_OK(fathom_quat_rotate(q, v3(0, 0, 1), &r));
    CHECK_VEC3(r, 1, 0, 0, TOL);
}

static void test_normalize(void) {
    fathom_quat q;

    check_section("quat_normalize");
    CHECK_OK(fathom_quat_normalize(q4(0, 0, 3, 4), &q));
    CHECK_NEAR(q.x, 0, TOL);
    CHECK_NEAR(q.y, 0, TOL);
    CHECK_NEAR(q.z, 0.6, TOL);
    CHECK_NEAR(q.w, 0.8, TOL);
    CHECK_OK(fathom_quat_normalize(q4(1e-3f, -1e-3f, 1e-3f, -1e-3f), &q));
    CHECK_NEAR(q.x, 0.5, TOL);
    CHECK_NEAR(q.y, -0.5, TOL);
    CHECK_NEAR(q.z, 0.5, TOL);
    CHECK_NEAR(q.w, -0.5, TOL); /* the sign is kept */
    CHECK_OK(fathom_quat_normalize(q4(0, -7, 0, 0), &q));
    CHECK_NEAR(q.y, -1, TOL);
    CHECK_STATUS(fathom_quat_normalize(q4(0, 0, 0, 0), &q), FATHOM_ERR_DEGENERATE);
}

static void test_slerp(void) {
    fathom_quat q, id = q4(0, 0, 0, 1), rz90 = q4(0, 0, (float)S2, (float)S2);

    check_section("quat_slerp");
    CHECK_OK(fathom_quat_slerp(id, rz90, 0.0f, &q));
    CHECK_QUAT_ROT(q, 0, 0, 0, 1, TOL);
    CHECK_OK(fathom_quat_slerp(id, rz90, 1.0f, &q));
    CHECK_QUAT_ROT(q, 0, 0, S2, S2, TOL);
    /* Half way: R_z(45). */
    CHECK_OK(fathom_quat_slerp(id, rz90, 0.5f, &q));
    CHECK_QUAT_ROT(q, 0, 0, sin(T_PI / 8), cos(T_PI / 8), TOL);
    CHECK_NEAR(qnorm(q), 1, 1e-6);
    /* The shorter arc: -R_z(90) is the same rotation, so the half-way point is still R_z(45). */
    CHECK_OK(fathom_quat_slerp(id, q4(0, 0, (float)-S2, (float)-S2), 0.5f, &q));
    CHECK_QUAT_ROT(q, 0, 0, sin(T_PI / 8), cos(T_PI / 8), TOL);
    /* From R_y(0.2) to R_y(1.0), a quarter: R_y(0.4). */
    CHECK_OK(fathom_quat_slerp(q4(0, (float)sin(0.1), 0, (float)cos(0.1)), q4(0, (float)sin(0.5), 0, (float)cos(0.5)),
                               0.25f, &q));
    CHECK_QUAT_ROT(q, 0, sin(0.2), 0, cos(0.2), TOL);
    /* Extrapolation: t = 2 gives R_z(180), t = -1 gives R_z(-90). */
    CHECK_OK(fathom_quat_slerp(id, rz90, 2.0f, &q));
    CHECK_QUAT_ROT(q, 0, 0, 1, 0, 1e-4);
    CHECK_NEAR(qnorm(q), 1, 1e-5);
    CHECK_OK(fathom_quat_slerp(id, rz90, -1.0f, &q));
    CHECK_QUAT_ROT(q, 0, 0, -S2, S2, 1e-4);
    /* Identical endpoints: no division by sin(0). */
    {
        fathom_quat a = q4(0, (float)sin(0.15), 0, (float)cos(0.15));
        CHECK_OK(fathom_quat_slerp(a, a, 0.5f, &q));
        CHECK_QUAT_ROT(q, 0, sin(0.15), 0, cos(0.15), TOL);
        CHECK_OK(fathom_quat_slerp(a, q4(-a.x, -a.y, -a.z, -a.w), 0.3f, &q));
        CHECK_QUAT_ROT(q, 0, sin(0.15), 0, cos(0.15), TOL);
    }
    /* Nearly identical endpoints (1e-6 rad apart). */
    {
        fathom_quat a = q4(0, 0, 0, 1), b = q4(0, 5e-7f, 0, 1);
        CHECK_OK(fathom_quat_slerp(a, b, 0.5f, &q));
        CHECK_QUAT_ROT(q, 0, 2.5e-7, 0, 1, 1e-6);
        CHECK_NEAR(qnorm(q), 1, 1e-6);
    }
}

static void test_angle_between(void) {
    float a;
    fathom_quat id = q4(0, 0, 0, 1);

    check_section("quat_angle_between");
    CHECK_OK(fathom_quat_angle_between(id, q4(0, 0, (float)S2, (float)S2), &a));
    CHECK_NEAR(a, T_PI / 2, 1e-5);
    CHECK_OK(fathom_quat_angle_between(id, q4(0, 0, 0, -1), &a)); /* q and -q */
    CHECK_NEAR(a, 0, 1e-3);
    CHECK_OK(fathom_quat_angle_between(q4((float)sin(T_PI / 6), 0, 0, (float)cos(T_PI / 6)),
                                       q4((float)-sin(T_PI / 6), 0, 0, (float)cos(T_PI / 6)), &a));
    CHECK_NEAR(a, 2 * T_PI / 3, 1e-5); /* R_x(60) to R_x(-60): 120 degrees */
    /* A rotation by 270 degrees is 90 degrees the other way: the angle is in [0, pi]. */
    CHECK_OK(fathom_quat_angle_between(id, q4(0, (float)sin(3 * T_PI / 4), 0, (float)cos(3 * T_PI / 4)), &a));
    CHECK_NEAR(a, T_PI / 2, 1e-5);
    /* 180 degrees. */
    CHECK_OK(fathom_quat_angle_between(id, q4(0, 1, 0, 0), &a));
    CHECK_NEAR(a, T_PI, 1e-5);
    /* The same rotation: 0, never NaN (|dot| may round above 1). */
    {
        fathom_quat q = q4(0.1f, 0.2f, 0.3f, 0.92736185f); /* 0.01 + 0.04 + 0.09 + 0.86 = 1 */
        CHECK_OK(fathom_quat_angle_between(q, q, &a));
        CHECK(a == a);
        CHECK_NEAR(a, 0, 1e-3);
    }
}

static void test_rotate(void) {
    fathom_vec3 r;
    fathom_quat ry90 = q4(0, (float)S2, 0, (float)S2);

    check_section("quat_rotate");
    /* R_y(90): x -> (cos 90, 0, -sin 90) = -z; z -> x. */
    CHECK_OK(fathom_quat_rotate(ry90, v3(1, 0, 0), &r));
    CHECK_VEC3(r, 0, 0, -1, TOL);
    CHECK_OK(fathom_quat_rotate(ry90, v3(0, 0, 1), &r));
    CHECK_VEC3(r, 1, 0, 0, TOL);
    CHECK_OK(fathom_quat_rotate(ry90, v3(0, 2, 0), &r));
    CHECK_VEC3(r, 0, 2, 0, TOL);
    /* 120 degrees about (1, 1, 1) permutes the coordinates: (x, y, z) -> (z, x, y). */
    CHECK_OK(fathom_quat_rotate(q4(0.5f, 0.5f, 0.5f, 0.5f), v3(0.3f, -1.1f, 2.5f), &r));
    CHECK_VEC3(r, 2.5, 0.3, -1.1, 1e-6);
    /* A quaternion 5e-4 off unit is normalized before use: the length of v is kept. */
    CHECK_OK(fathom_quat_rotate(q4(0, 0, 0, 1.0005f), v3(1, 2, 3), &r));
    CHECK_VEC3(r, 1, 2, 3, 1e-5);
}

/* ---- poses ---------------------------------------------------------------------------------- */

static void test_pose_from_to(void) {
    fathom_pose p;
    fathom_quat q;
    fathom_vec3 t;

    check_section("pose_from/to_rotation_translation");
    {
        /* R_z(90), t = (1, 2, 3): columns (0,1,0,0), (-1,0,0,0), (0,0,1,0), (1,2,3,1). */
        const double e[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1};
        CHECK_OK(fathom_pose_from_rotation_translation(q4(0, 0, (float)S2, (float)S2), v3(1, 2, 3), &p));
        check_pose(&p, e, TOL, __LINE__);
        CHECK_OK(fathom_pose_to_rotation_translation(&p, &q, &t));
        CHECK_QUAT_ROT(q, 0, 0, S2, S2, TOL);
        CHECK(q.w >= 0);
        CHECK_VEC3(t, 1, 2, 3, TOL);
    }
    {
        /* A rotation of 270 degrees about z from the half-angle formula has w = cos 135 < 0;
         * to_rotation_translation returns the w >= 0 representative, -q = (0, 0, -sin 135, -cos 135). */
        fathom_quat in = q4(0, 0, (float)sin(3 * T_PI / 4), (float)cos(3 * T_PI / 4));
        CHECK(in.w < 0);
        CHECK_OK(fathom_pose_from_rotation_translation(in, v3(-1, 0, 0.5f), &p));
        CHECK_OK(fathom_pose_to_rotation_translation(&p, &q, &t));
        CHECK(q.w >= 0);
        CHECK_NEAR(q.x, 0, TOL);
        CHECK_NEAR(q.y, 0, TOL);
        CHECK_NEAR(q.z, -sin(3 * T_PI / 4), TOL);
        CHECK_NEAR(q.w, -cos(3 * T_PI / 4), TOL);
        CHECK_VEC3(t, -1, 0, 0.5, TOL);
    }
    {
        /* 120 degrees about (1, 1, 1) (x -> y, y -> z, z -> x), t = (0.5, -0.25, 4): columns (0, 1, 0, 0),
         * (0, 0, 1, 0), (1, 0, 0, 0), (0.5, -0.25, 4, 1). */
        const double e[16] = {0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0.5, -0.25, 4, 1};
        CHECK_OK(fathom_pose_from_rotation_translation(q4(0.5f, 0.5f, 0.5f, 0.5f), v3(0.5f, -0.25f, 4), &p));
        check_pose(&p, e, TOL, __LINE__);
        CHECK_OK(fathom_pose_to_rotation_translation(&p, &q, &t));
        CHECK_QUAT_ROT(q, 0.5, 0.5, 0.5, 0.5, TOL);
        CHECK_VEC3(t, 0.5, -0.25, 4, 0);
    }
}

static void test_row_major(void) {
    fathom_pose p;
    float rows[16], back[16];
    double e[16], r[9];
    int i, rr, c;

    check_section("pose row-major");
    /* R_y(0.6) with t = (1, 2, 3), written row by row. */
    t_rot_y(0.6, r);
    t_mat4_from(r, 1, 2, 3, e);
    for (rr = 0; rr < 4; rr++)
        for (c = 0; c < 4; c++) rows[rr * 4 + c] = (float)e[c * 4 + rr];
    CHECK(rows[3] == 1.0f && rows[7] == 2.0f && rows[11] == 3.0f); /* translation in the last column */
    CHECK_OK(fathom_pose_from_row_major(rows, &p));
    check_pose(&p, e, 1e-6, __LINE__);
    CHECK_OK(fathom_pose_to_row_major(&p, back));
    for (i = 0; i < 16; i++) CHECK_NEAR(back[i], rows[i], 1e-6);
    /* Not rigid: a scale of 2. */
    for (i = 0; i < 16; i++) rows[i] = (i % 5 == 0) ? 2.0f : 0.0f;
    rows[15] = 1.0f;
    CHECK_STATUS(fathom_pose_from_row_major(rows, &p), FATHOM_ERR_NOT_RIGID);
    /* The transpose of a non-trivial pose (translation in the bottom row) is not rigid. */
    for (rr = 0; rr < 4; rr++)
        for (c = 0; c < 4; c++) rows[rr * 4 + c] = (float)e[rr * 4 + c];
    CHECK_STATUS(fathom_pose_from_row_major(rows, &p), FATHOM_ERR_NOT_RIGID);
}

static void test_check_rigid(void) {
    double r[9], e[16];
    fathom_pose p;

    check_section("pose_check_rigid");
    t_rot_z(0.4, r);
    t_mat4_from(r, 1, 2, 3, e);
    p = t_pose_from_mat4(e);
    CHECK_OK(fathom_pose_check_rigid(&p, FATHOM_RIGID_TOLERANCE));
    /* Scaled by 1.01: R^T R - I has 0.0201 on the diagonal. */
    {
        fathom_pose s = p;
        int i;
        for (i = 0; i < 12; i++)
            if (i % 4 != 3) s.m[i] *= 1.01f;
        CHECK_STATUS(fathom_pose_check_rigid(&s, FATHOM_RIGID_TOLERANCE), FATHOM_ERR_NOT_RIGID);
        CHECK_OK(fathom_pose_check_rigid(&s, 0.05f));
        CHECK_STATUS(fathom_pose_check_rigid(&s, 0.015f), FATHOM_ERR_NOT_RIGID);
    }
    /* Bottom row off by 0.01. */
    {
        fathom_pose s = p;
        s.m[3] = 0.01f;
        CHECK_STATUS(fathom_pose_check_rigid(&s, FATHOM_RIGID_TOLERANCE), FATHOM_ERR_NOT_RIGID);
        CHECK_OK(fathom_pose_check_rigid(&s, 0.02f));
        s = p;
        s.m[15] = 1.5f;
        CHECK_STATUS(fathom_pose_check_rigid(&s, FATHOM_RIGID_TOLERANCE), FATHOM_ERR_NOT_RIGID);
    }
    /* A reflection: orthonormal, determinant -1. */
    {
        fathom_pose s = p;
        s.m[8] = -s.m[8];
        s.m[9] = -s.m[9];
        s.m[10] = -s.m[10];
        CHECK_STATUS(fathom_pose_check_rigid(&s, FATHOM_RIGID_TOLERANCE), FATHOM_ERR_NOT_RIGID);
    }
}

static void test_orthonormalize(void) {
    double rz[9], m[9], e[16], x[16];
    fathom_pose in, out;
    int i;

    check_section("pose_orthonormalize");
    /* M = R_z(30) * diag(1.002, 0.999, 1.001) (R_z(30)'s columns scaled): its polar factor is exactly R_z(30);
     * R^T R - I = diag(S^2) - I, largest 0.004. */
    t_rot_z(T_PI / 6, rz);
    for (i = 0; i < 9; i++) m[i] = rz[i] * (i < 3 ? 1.002 : i < 6 ? 0.999 : 1.001);
    t_mat4_from(m, 0.5, -1, 2, x);
    x[3] = 0.0005; /* and a bottom row slightly off */
    in = t_pose_from_mat4(x);
    t_mat4_from(rz, 0.5, -1, 2, e);
    CHECK_OK(fathom_pose_orthonormalize(&in, 0.01f, &out));
    check_pose(&out, e, 2e-5, __LINE__);
    CHECK(out.m[3] == 0.0f && out.m[7] == 0.0f && out.m[11] == 0.0f && out.m[15] == 1.0f);
    CHECK_OK(fathom_pose_check_rigid(&out, 1e-5f));
    /* The same matrix deviates by 0.004 > 0.001: refused. */
    CHECK_STATUS(fathom_pose_orthonormalize(&in, 0.001f, &out), FATHOM_ERR_NOT_RIGID);
    /* A scale of 2 is never "repaired". */
    {
        fathom_pose sc;
        memset(&sc, 0, sizeof sc);
        sc.m[0] = sc.m[5] = sc.m[10] = 2.0f;
        sc.m[15] = 1.0f;
        CHECK_STATUS(fathom_pose_orthonormalize(&sc, 0.1f, &out), FATHOM_ERR_NOT_RIGID);
    }
    /* An already rigid pose comes back unchanged. */
    in = t_pose_from_mat4(e);
    CHECK_OK(fathom_pose_orthonormalize(&in, FATHOM_RIGID_TOLERANCE, &out));
    check_pose(&out, e, 1e-6, __LINE__);
}

static void test_compose_invert(void) {
    double rz[9], id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, e[16];
    fathom_pose a, b, out, inv;

    check_section("pose_compose / pose_invert");
    t_rot_z(T_PI / 2, rz);
    a = t_pose(id, 1, 0, 0); /* translate by x */
    b = t_pose(rz, 0, 0, 0); /* rotate 90 about z */
    /* a * b: rotate, then translate: rotation R_z(90), translation (1, 0, 0). */
    CHECK_OK(fathom_pose_compose(&a, &b, &out));
    t_mat4_from(rz, 1, 0, 0, e);
    check_pose(&out, e, TOL, __LINE__);
    /* b * a: translate, then rotate: translation R_z(90) (1, 0, 0) = (0, 1, 0). */
    CHECK_OK(fathom_pose_compose(&b, &a, &out));
    t_mat4_from(rz, 0, 1, 0, e);
    check_pose(&out, e, TOL, __LINE__);
    /* Two rotations: R_z(90) * R_x(90) (R_x first) takes y -> z -> z, z -> -y -> x, x -> x -> y: columns
     * (0, 1, 0), (0, 0, 1), (1, 0, 0); the translation R_z(90) (0, 0, 1) + (1, 0, 0) = (1, 0, 1). */
    {
        double rx[9];
        t_rot_x(T_PI / 2, rx);
        a = t_pose(rz, 1, 0, 0);
        b = t_pose(rx, 0, 0, 1);
        CHECK_OK(fathom_pose_compose(&a, &b, &out));
        {
            const double p[16] = {0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 1};
            check_pose(&out, p, TOL, __LINE__);
        }
    }
    /* Inverse of (R_z(90), (1, 2, 3)): (R_z(-90), -R_z(-90) (1, 2, 3)) = (R_z(-90), (-2, 1, -3)). */
    {
        double rm[9];
        a = t_pose(rz, 1, 2, 3);
        CHECK_OK(fathom_pose_invert(&a, &inv));
        t_rot_z(-T_PI / 2, rm);
        t_mat4_from(rm, -2, 1, -3, e);
        check_pose(&inv, e, TOL, __LINE__);
        /* a * a^-1 = identity. */
        CHECK_OK(fathom_pose_compose(&a, &inv, &out));
        t_mat4_from(id, 0, 0, 0, e);
        check_pose(&out, e, TOL, __LINE__);
    }
    /* Not rigid: refused. */
    {
        fathom_pose bad = a;
        bad.m[0] = 2.0f;
        CHECK_STATUS(fathom_pose_invert(&bad, &inv), FATHOM_ERR_NOT_RIGID);
        CHECK_STATUS(fathom_pose_compose(&a, &bad, &out), FATHOM_ERR_NOT_RIGID);
        CHECK_STATUS(fathom_pose_compose(&bad, &a, &out), FATHOM_ERR_NOT_RIGID);
    }

    check_section("pose_invert: an inverse translation beyond the float range is FATHOM_ERR_NOT_FINITE");
    /* The identity at (FLT_MAX, -FLT_MAX, 1): -R^T t = (-FLT_MAX, FLT_MAX, -1), exactly the float range's ends. */
    {
        const double e[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -FLT_MAX, FLT_MAX, -1, 1};
        a = t_pose(id, FLT_MAX, -FLT_MAX, 1);
        t_fill(&inv, sizeof inv);
        CHECK_OK(fathom_pose_invert(&a, &inv));
        check_pose(&inv, e, 0, __LINE__);
    }
    /* R_z(45) (columns (c, c, 0), (-c, c, 0), (0, 0, 1), c = 0.70710677f, rigid within 1e-7) at t = (s, s, 0):
     * R^T t = (2 c s, 0, 0). For s = 2e38 that is 2.83e38, inside the floats; for s = 3e38 it is 4.24e38, beyond
     * FLT_MAX = 3.40e38: refused, out as it was. */
    {
        const float c = 0.70710677f;
        const double e[16] = {c, -c, 0, 0, c, c, 0, 0, 0, 0, 1, 0, -2 * (double)c * 2e38f, 0, 0, 1};
        fathom_pose far;
        memset(&far, 0, sizeof far);
        far.m[0] = far.m[1] = c;
        far.m[4] = -c;
        far.m[5] = c;
        far.m[10] = far.m[15] = 1;
        far.m[12] = far.m[13] = 2e38f;
        t_fill(&inv, sizeof inv);
        CHECK_OK(fathom_pose_invert(&far, &inv));
        check_pose(&inv, e, 2e-7 * 2.83e38, __LINE__); /* the translation to float rounding; the rotation exactly */
        CHECK(inv.m[0] == c && inv.m[1] == -c && inv.m[4] == c && inv.m[5] == c && inv.m[13] == 0);
        far.m[12] = far.m[13] = 3e38f;
        t_fill(&inv, sizeof inv);
        EXPECT(fathom_pose_invert(&far, &inv), FATHOM_ERR_NOT_FINITE, "fathom_pose_invert", "pose", "range");
        CHECK(t_untouched(&inv, sizeof inv));
    }
}

static void test_transform(void) {
    double rz[9];
    fathom_pose p;
    fathom_vec3 r;

    check_section("pose_transform_point/direction/points");
    t_rot_z(T_PI / 2, rz);
    p = t_pose(rz, 1, 2, 3);
    /* R_z(90) (1, 0, 0) = (0, 1, 0); plus t. */
    CHECK_OK(fathom_pose_transform_point(&p, v3(1, 0, 0), &r));
    CHECK_VEC3(r, 1, 3, 3, TOL);
    CHECK_OK(fathom_pose_transform_direction(&p, v3(1, 0, 0), &r));
    CHECK_VEC3(r, 0, 1, 0, TOL);
    CHECK_OK(fathom_pose_transform_point(&p, v3(0, 1, 5), &r));
    CHECK_VEC3(r, 0, 2, 8, TOL); /* (0,1,5) -> (-1, 0, 5) + t */
    {
        /* Strided input: x, y, z, then an unrelated float (NaN: must not be read as a coordinate).
         * R_z(90) (x, y, z) = (-y, x, z), plus t = (1, 2, 3), by hand for each point. */
        float buf[5 * 4], out[5 * 3];
        static const double pts[5][3] = {{1, 0, 0}, {0, 1, 5}, {-2, 0.5, 0}, {0, 0, 0}, {3, -4, 1}};
        static const double want[5][3] = {{1, 3, 3}, {0, 2, 8}, {0.5, 0, 3}, {1, 2, 3}, {5, 5, 4}};
        int i;
        for (i = 0; i < 5; i++) {
            buf[i * 4 + 0] = (float)pts[i][0];
            buf[i * 4 + 1] = (float)pts[i][1];
            buf[i * 4 + 2] = (float)pts[i][2];
            buf[i * 4 + 3] = (float)NAN;
        }
        memset(out, 0, sizeof out);
        CHECK_OK(fathom_pose_transform_points(&p, buf, 5, 16, out));
        for (i = 0; i < 5; i++) CHECK_VEC3(v3(out[i * 3], out[i * 3 + 1], out[i * 3 + 2]), want[i][0], want[i][1], want[i][2], TOL);
        /* In place with stride 12. */
        for (i = 0; i < 5; i++) {
            out[i * 3 + 0] = (float)pts[i][0];
            out[i * 3 + 1] = (float)pts[i][1];
            out[i * 3 + 2] = (float)pts[i][2];
        }
        CHECK_OK(fathom_pose_transform_points(&p, out, 5, 12, out));
        for (i = 0; i < 5; i++) CHECK_VEC3(v3(out[i * 3], out[i * 3 + 1], out[i * 3 + 2]), want[i][0], want[i][1], want[i][2], TOL);
    }
    {
        /* Many points (not a multiple of any SIMD width): the batch gives what one fathom_pose_transform_point
         * call per point gives. */
        enum { N = 1003 };
        static float in[N * 3], out[N * 3];
        double ry[9];
        unsigned long st = 7;
        int i, bad = 0;
        t_rot_y(0.3, ry);
        p = t_pose(ry, -0.5, 7, 2.25);
        for (i = 0; i < N * 3; i++) in[i] = (float)(t_rand(&st) * 20 - 10);
        CHECK_OK(fathom_pose_transform_points(&p, in, N, 12, out));
        for (i = 0; i < N; i++) {
            fathom_vec3 one;
            if (fathom_pose_transform_point(&p, v3(in[i * 3], in[i * 3 + 1], in[i * 3 + 2]), &one) != FATHOM_OK ||
                fabs(out[i * 3] - one.x) > 1e-5 || fabs(out[i * 3 + 1] - one.y) > 1e-5 || fabs(out[i * 3 + 2] - one.z) > 1e-5)
                bad++;
        }
        CHECK(bad == 0);
    }
}

static void test_yaw(void) {
    float yaw;
    double r[9];
    fathom_pose p;

    check_section("pose_yaw");
    t_rot_y(0.7, r);
    p = t_pose(r, 1, 2, 3);
    CHECK_OK(fathom_pose_yaw(&p, &yaw));
    CHECK_NEAR(yaw, 0.7, 1e-5);
    t_rot_y(-2.5, r);
    p = t_pose(r, 0, 0, 0);
    CHECK_OK(fathom_pose_yaw(&p, &yaw));
    CHECK_NEAR(yaw, -2.5, 1e-5);
    {
        /* Pitched by 30 degrees after a quarter turn, R_y(90) R_x(30): columns (0, 0, -1), (1/2, sqrt 3/2, 0),
         * (sqrt 3/2, -1/2, 0). Local +z's horizontal part points along +x = R_y(90) z: yaw pi/2. */
        const double h = sqrt(3.0) / 2, m[9] = {0, 0, -1, 0.5, h, 0, h, -0.5, 0};
        p = t_pose(m, 0, 0, 0);
        CHECK_OK(fathom_pose_yaw(&p, &yaw));
        CHECK_NEAR(yaw, T_PI / 2, 1e-5);
    }
    {
        /* R_y(pi) exactly: local z = (0, 0, -1); yaw is pi, not -pi (the range is (-pi, pi]). */
        const double m[9] = {-1, 0, 0, 0, 1, 0, 0, 0, -1};
        p = t_pose(m, 0, 0, 0);
        CHECK_OK(fathom_pose_yaw(&p, &yaw));
        CHECK_NEAR(yaw, T_PI, 1e-6);
        /* The same rotation with signed zeros that make atan2 give -pi. */
        p.m[2] = -0.0f;
        p.m[8] = -0.0f;
        CHECK_OK(fathom_pose_yaw(&p, &yaw));
        CHECK_NEAR(yaw, T_PI, 1e-6);
        CHECK(yaw > 0);
    }
    {
        /* A camera looking straight down after a quarter turn: R = R_y(90) R_x(-90), columns (0, 0, -1),
         * (-1, 0, 0), (0, 1, 0). Local +z = (0, 1, 0) is vertical; local +x = (0, 0, -1) = R_y(90) x decides:
         * yaw pi/2. */
        const double down[9] = {0, 0, -1, -1, 0, 0, 0, 1, 0};
        /* And looking straight up after a quarter turn the other way: R_y(-90) R_x(90), columns (0, 0, 1),
         * (-1, 0, 0), (0, -1, 0); local +x = (0, 0, 1) = R_y(-90) x: yaw -pi/2. */
        const double up[9] = {0, 0, 1, -1, 0, 0, 0, -1, 0};
        p = t_pose(down, 0, 1.5, 0);
        CHECK_OK(fathom_pose_yaw(&p, &yaw));
        CHECK_NEAR(yaw, T_PI / 2, 1e-5);
        p = t_pose(up, 0, 1.5, 0);
        CHECK_OK(fathom_pose_yaw(&p, &yaw));
        CHECK_NEAR(yaw, -T_PI / 2, 1e-5);
    }
}

static void test_distance(void) {
    double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, rz[9], rx[9];
    fathom_pose a, b;
    float d, ang;

    check_section("pose_distance");
    t_rot_z(T_PI / 2, rz);
    a = t_pose(id, 0, 0, 0);
    b = t_pose(rz, 3, 4, 0);
    CHECK_OK(fathom_pose_distance(&a, &b, &d, &ang));
    CHECK_NEAR(d, 5, TOL);
    CHECK_NEAR(ang, T_PI / 2, 1e-5);
    t_rot_x(2.0, rx);
    a = t_pose(rx, 1, 1, 1);
    t_rot_x(-0.5, rx);
    b = t_pose(rx, 1, 1, 3);
    CHECK_OK(fathom_pose_distance(&a, &b, &d, &ang));
    CHECK_NEAR(d, 2, TOL);
    CHECK_NEAR(ang, 2.5, 1e-4);
    CHECK_OK(fathom_pose_distance(&a, &a, &d, &ang));
    CHECK_NEAR(d, 0, TOL);
    CHECK_NEAR(ang, 0, 1e-3);
}

/* ---- pose conventions ------------------------------------------------------------------------ */

/* A camera turned a quarter about x, then a quarter about y: R_y(90) R_x(90) takes x -> x -> (0, 0, -1),
 * y -> z -> (1, 0, 0), z -> -y -> (0, -1, 0); at (1, 2, 3). Every element is exact in float. */
static const float CONV_ARKIT[16] = {0, 0, -1, 0, 1, 0, 0, 0, 0, -1, 0, 0, 1, 2, 3, 1};
/* The same camera in OpenCV axes: columns 1 and 2 negated, column 0 and the translation as they were. */
static const float CONV_OPENCV[16] = {0, 0, -1, 0, -1, 0, 0, 0, 0, 1, 0, 0, 1, 2, 3, 1};
/* World-to-camera: the inverse of the OpenCV pose. Its rotation R has rows (0, -1, 0), (0, 0, 1), (-1, 0, 0)
 * (not symmetric, so a missing transpose shows); R^T has columns (0, -1, 0), (0, 0, 1), (-1, 0, 0);
 * R^T t = 1 (0, -1, 0) + 2 (0, 0, 1) + 3 (-1, 0, 0) = (-3, -1, 2), so the translation is (3, 1, -2) (the camera
 * centre (1, 2, 3) maps to the origin). */
static const float CONV_W2C[16] = {0, -1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 3, 1, -2, 1};

static fathom_pose pose_of_floats(const float m[16]) {
    fathom_pose p;
    memcpy(p.m, m, sizeof p.m);
    return p;
}

/* Element by element, exactly (the conversions of these poses involve no rounding); -0 equals 0. */
static void check_pose_exact(const fathom_pose *got, const float expected[16], int line) {
    int i, ok = 1;
    for (i = 0; i < 16; i++) ok = ok && got->m[i] == expected[i];
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "4x4 pose equals the hand-computed one exactly");
        for (i = 0; i < 16; i++) printf("    m[%d] got %.9g expected %.9g\n", i, (double)got->m[i], (double)expected[i]);
    }
}

static void test_poses_convert(void) {
    const float *const by_convention[3] = {CONV_ARKIT, CONV_OPENCV, CONV_W2C};
    fathom_pose in[3], out[3], sentinel[3];
    double rz[9];
    uint32_t from, to;
    int i;

    check_section("poses_convert: hand-computed conventions");
    for (from = 0; from < 3; from++)
        for (to = 0; to < 3; to++) {
            fathom_pose p = pose_of_floats(by_convention[from]), q;
            t_fill(&q, sizeof q);
            CHECK_OK(fathom_poses_convert(&p, 1, from, to, &q));
            check_pose_exact(&q, by_convention[to], __LINE__);
            CHECK(memcmp(p.m, by_convention[from], sizeof p.m) == 0); /* the input is not written */
        }

    check_section("poses_convert: a batch equals single calls; in place");
    t_rot_z(T_PI / 2, rz);
    in[0] = pose_of_floats(CONV_ARKIT);
    in[1] = t_pose(rz, -1, 0.5, 4);
    in[2] = pose_of_floats(CONV_OPENCV);
    for (to = 1; to < 3; to++) {
        t_fill(out, sizeof out);
        CHECK_OK(fathom_poses_convert(in, 3, FATHOM_POSE_ARKIT, to, out));
        for (i = 0; i < 3; i++) {
            fathom_pose single;
            CHECK_OK(fathom_poses_convert(&in[i], 1, FATHOM_POSE_ARKIT, to, &single));
            CHECK(memcmp(&single, &out[i], sizeof single) == 0);
        }
    }
    /* R_z(90) at (-1, 0.5, 4) to OpenCV: columns (0, 1, 0), -(-1, 0, 0), -(0, 0, 1). */
    {
        const double e[16] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, -1, 0, -1, 0.5, 4, 1};
        CHECK_OK(fathom_poses_convert(in, 3, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV, out));
        check_pose(&out[1], e, 1e-7, __LINE__);
    }
    /* out == poses: the batch converted in place. */
    memcpy(out, in, sizeof in);
    CHECK_OK(fathom_poses_convert(out, 3, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV_WORLD_TO_CAMERA, out));
    check_pose_exact(&out[0], CONV_W2C, __LINE__);
    {
        fathom_pose separate[3];
        CHECK_OK(fathom_poses_convert(in, 3, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV_WORLD_TO_CAMERA, separate));
        CHECK(memcmp(separate, out, sizeof separate) == 0);
    }
    CHECK_OK(fathom_poses_convert(out, 3, FATHOM_POSE_OPENCV_WORLD_TO_CAMERA, FATHOM_POSE_ARKIT, out));
    check_pose_exact(&out[0], CONV_ARKIT, __LINE__);

    check_section("poses_convert: count 0, NULLs, unknown conventions");
    CHECK_OK(fathom_poses_convert(NULL, 0, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV, NULL));
    t_fill(out, sizeof out);
    CHECK_OK(fathom_poses_convert(in, 0, FATHOM_POSE_OPENCV, FATHOM_POSE_ARKIT, out));
    CHECK(t_untouched(out, sizeof out)); /* no pose: nothing written */
    EXPECT(fathom_poses_convert(NULL, 1, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV, out), FATHOM_ERR_NULL_POINTER,
           "fathom_poses_convert", "poses", P_NULL);
    CHECK(t_untouched(out, sizeof out));
    EXPECT(fathom_poses_convert(in, 2, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_poses_convert", "out", P_NULL);
    EXPECT(fathom_poses_convert(in, 1, 3, FATHOM_POSE_OPENCV, out), FATHOM_ERR_OUT_OF_RANGE, "fathom_poses_convert",
           "from", "3");
    EXPECT(fathom_poses_convert(in, 1, FATHOM_POSE_ARKIT, 99, out), FATHOM_ERR_OUT_OF_RANGE, "fathom_poses_convert",
           "to", "99");
    EXPECT(fathom_poses_convert(in, 1, 0xFFFFFFFFu, FATHOM_POSE_ARKIT, out), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_poses_convert", "from", P_ANY);
    CHECK(t_untouched(out, sizeof out));
    EXPECT(fathom_poses_convert(NULL, 0, 7, FATHOM_POSE_ARKIT, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_poses_convert",
           "from", "7"); /* with no pose too */

    check_section("poses_convert: a pose that is not rigid names its index and writes nothing");
    {
        fathom_pose bad[3], copy[3];
        bad[0] = pose_of_floats(CONV_ARKIT);
        bad[1] = pose_of_floats(CONV_ARKIT);
        bad[1].m[0] = 1.1f; /* column 0 no longer unit */
        bad[2] = in[1];
        t_fill(sentinel, sizeof sentinel);
        memcpy(out, sentinel, sizeof out);
        EXPECT(fathom_poses_convert(bad, 3, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV, out), FATHOM_ERR_NOT_RIGID,
               "fathom_poses_convert", "poses[1]", P_ANY);
        CHECK(t_untouched(out, sizeof out)); /* pose 0 was convertible, but nothing is written */
        /* in place: the poses stay as they were */
        memcpy(copy, bad, sizeof bad);
        EXPECT(fathom_poses_convert(bad, 3, FATHOM_POSE_OPENCV, FATHOM_POSE_OPENCV_WORLD_TO_CAMERA, bad),
               FATHOM_ERR_NOT_RIGID, "fathom_poses_convert", "poses[1]", P_ANY);
        CHECK(memcmp(copy, bad, sizeof bad) == 0);
        /* a reflection (determinant -1) at index 2 */
        bad[1] = pose_of_floats(CONV_OPENCV);
        bad[2] = pose_of_floats(CONV_ARKIT);
        bad[2].m[0] = -bad[2].m[0];
        bad[2].m[1] = -bad[2].m[1];
        bad[2].m[2] = -bad[2].m[2];
        EXPECT(fathom_poses_convert(bad, 3, FATHOM_POSE_ARKIT, FATHOM_POSE_ARKIT, out), FATHOM_ERR_NOT_RIGID,
               "fathom_poses_convert", "poses[2]", P_ANY);
        CHECK(t_untouched(out, sizeof out));
        /* a bottom row that is not (0, 0, 0, 1) */
        bad[2] = pose_of_floats(CONV_ARKIT);
        bad[2].m[3] = 0.5f;
        EXPECT(fathom_poses_convert(bad, 3, FATHOM_POSE_OPENCV_WORLD_TO_CAMERA, FATHOM_POSE_OPENCV, out),
               FATHOM_ERR_NOT_RIGID, "fathom_poses_convert", "poses[2]", P_ANY);
        CHECK(t_untouched(out, sizeof out));
        /* a NaN: not finite (the header's rule for every float argument) */
        bad[2] = pose_of_floats(CONV_ARKIT);
        bad[2].m[13] = NAN;
        EXPECT(fathom_poses_convert(bad, 3, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV, out), FATHOM_ERR_NOT_FINITE,
               "fathom_poses_convert", "poses[2]", P_FINITE);
        CHECK(t_untouched(out, sizeof out));
    }

    check_section("poses_convert: an inverse whose translation leaves the float range names its index, writes nothing");
    {
        /* poses[1]: R_z(45) (c = 0.70710677f) at (3e38, 3e38, 0). Its inverse's translation is -R^T t = (-4.24e38, 0, 0)
         * (in OpenCV axes the rotation's columns 1 and 2 change sign, not the size of R^T t's first element), beyond
         * FLT_MAX; poses[0] and poses[2] convert. */
        const float c = 0.70710677f;
        fathom_pose batch[3], copy[3];
        batch[0] = pose_of_floats(CONV_ARKIT);
        memset(&batch[1], 0, sizeof batch[1]);
        batch[1].m[0] = batch[1].m[1] = c;
        batch[1].m[4] = -c;
        batch[1].m[5] = c;
        batch[1].m[10] = batch[1].m[15] = 1;
        batch[1].m[12] = batch[1].m[13] = 3e38f;
        batch[2] = pose_of_floats(CONV_OPENCV);
        for (from = 0; from < 3; from++)
            for (to = 0; to < 3; to++) {
                const int inverts = (from == FATHOM_POSE_OPENCV_WORLD_TO_CAMERA) != (to == FATHOM_POSE_OPENCV_WORLD_TO_CAMERA);
                t_fill(out, sizeof out);
                if (inverts) {
                    EXPECT(fathom_poses_convert(batch, 3, from, to, out), FATHOM_ERR_NOT_FINITE, "fathom_poses_convert",
                           "poses[1]", "range");
                    CHECK(t_untouched(out, sizeof out)); /* poses[0] converted, but nothing is written */
                    memcpy(copy, batch, sizeof batch);
                    EXPECT(fathom_poses_convert(copy, 3, from, to, copy), FATHOM_ERR_NOT_FINITE, "fathom_poses_convert",
                           "poses[1]", "range");
                    CHECK(memcmp(copy, batch, sizeof batch) == 0); /* in place: the poses stay as they were */
                } else {
                    /* between camera-to-world conventions (or to the same one) nothing is inverted: the translation is
                     * kept exactly */
                    CHECK_OK(fathom_poses_convert(batch, 3, from, to, out));
                    CHECK(out[1].m[12] == 3e38f && out[1].m[13] == 3e38f && out[1].m[14] == 0);
                    CHECK(out[1].m[0] == c && out[1].m[1] == c);
                }
            }
        /* At 2e38 the inverse's translation, 2.83e38, is inside the floats: converted, to float rounding. The ARKit
         * pose R_z(45) in OpenCV axes has columns (c, c, 0), (c, -c, 0), (0, 0, -1), so world-to-camera has the rows of
         * those as columns and translation -(c0 . t, c1 . t, c2 . t) = (-2 c 2e38, 0, 0). */
        batch[1].m[12] = batch[1].m[13] = 2e38f;
        t_fill(out, sizeof out);
        CHECK_OK(fathom_poses_convert(batch, 3, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV_WORLD_TO_CAMERA, out));
        {
            const double e[16] = {c, c, 0, 0, c, -c, 0, 0, 0, 0, -1, 0, -2 * (double)c * 2e38f, 0, 0, 1};
            check_pose(&out[1], e, 2e-7 * 2.83e38, __LINE__);
            CHECK(out[1].m[0] == c && out[1].m[1] == c && out[1].m[4] == c && out[1].m[5] == -c);
            CHECK(isfinite(out[1].m[12]) && out[1].m[13] == 0 && out[1].m[14] == 0);
        }
        check_pose_exact(&out[0], CONV_W2C, __LINE__);
        /* and the identity at (FLT_MAX, -FLT_MAX, 1) in ARKit axes: in OpenCV axes diag(1, -1, -1), whose inverse's
         * translation -R^T t = (-FLT_MAX, -FLT_MAX, 1) is exactly at the float range's ends */
        {
            static const float at_max[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, FLT_MAX, -FLT_MAX, 1, 1};
            static const float w2c[16] = {1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, -FLT_MAX, -FLT_MAX, 1, 1};
            fathom_pose p = pose_of_floats(at_max), q;
            t_fill(&q, sizeof q);
            CHECK_OK(fathom_poses_convert(&p, 1, FATHOM_POSE_ARKIT, FATHOM_POSE_OPENCV_WORLD_TO_CAMERA, &q));
            check_pose_exact(&q, w2c, __LINE__);
        }
    }
}

int main(void) {
    test_axis_angle();
    test_from_matrix();
    test_to_matrix();
    test_multiply();
    test_normalize();
    test_slerp();
    test_angle_between();
    test_rotate();
    test_pose_from_to();
    test_row_major();
    test_check_rigid();
    test_orthonormalize();
    test_compose_invert();
    test_transform();
    test_yaw();
    test_distance();
    test_poses_convert();
    return check_summary("test_quat_pose");
}
