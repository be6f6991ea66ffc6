/* Tags and placement across the C ABI: tag world pose, snapping vertical, covariance rotation, fusion, label
 * placement. Expected values are literals worked out by hand in the comments (quarter turns and exact frames, so
 * that a transposed matrix or a wrong column would show), statuses, outputs untouched on failure. Random poses
 * and covariances against Double references (hand-multiplied 4x4 matrices, R S R^T, Cramer's-rule inverses, the
 * circular mean of rotations) are in Tests/FathomCoreTests/PlacementTests.swift. */
#include "fathom.h"
#include "check.h"
#include "testmath.h"

#include <math.h>
#include <string.h>

#define TOL 2e-5
#define S2 0.70710678118654752

static void check_pose(const fathom_pose *got, const double e[16], double tol, int line) {
    int i, ok = 1;
    for (i = 0; i < 16; i++) ok = ok && fabs(got->m[i] - e[i]) <= tol;
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "pose matches");
        for (i = 0; i < 16; i++) printf("    m[%d] got %.7g expected %.7g\n", i, (double)got->m[i], e[i]);
    }
}

static void check_mat3f(const float got[9], const double e[9], double tol, int line) {
    int i, ok = 1;
    for (i = 0; i < 9; i++) ok = ok && fabs(got[i] - e[i]) <= tol;
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "3x3 matches");
        for (i = 0; i < 9; i++) printf("    [%d] got %.7g expected %.7g\n", i, (double)got[i], e[i]);
    }
}

/* The rotation block of a pose as a quaternion-free comparison: pose rotation == R (3x3, column-major). */
static void check_rotation(const fathom_pose *p, const double r[9], double tol, int line) {
    int i, j, ok = 1;
    for (j = 0; j < 3; j++)
        for (i = 0; i < 3; i++) ok = ok && fabs(p->m[j * 4 + i] - r[j * 3 + i]) <= tol;
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "rotation block matches");
        for (j = 0; j < 3; j++)
            printf("    column %d got (%.7g %.7g %.7g) expected (%.7g %.7g %.7g)\n", j, (double)p->m[j * 4],
                   (double)p->m[j * 4 + 1], (double)p->m[j * 4 + 2], r[j * 3], r[j * 3 + 1], r[j * 3 + 2]);
    }
}

/* ---- tag world pose ------------------------------------------------------------------------- */

static void test_tag_world_pose(void) {
    const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    fathom_pose cam, tag, out;

    check_section("tag_world_pose");
    {
        /* Camera at the origin; a tag 1 m ahead in the optical frame (z forward) is 1 m along ARKit's -z.
         * Its rotation is F's: diag(1, -1, -1). */
        const double e[16] = {1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, -1, 1};
        cam = t_pose(id, 0, 0, 0);
        tag = t_pose(id, 0, 0, 1);
        CHECK_OK(fathom_tag_world_pose(&cam, &tag, &out));
        check_pose(&out, e, TOL, __LINE__);
    }
    {
        /* Camera turned 90 degrees about y at (1, 2, 3); the tag at (0.5, 0, 2) optical -> F: (0.5, 0, -2)
         * -> R_y(90): (cos 90 * 0.5 + sin 90 * -2, 0, -sin 90 * 0.5 + cos 90 * -2) = (-2, 0, -0.5) -> + t:
         * (-1, 2, 2.5). An optical "down" (+y) is world -y. */
        /* The rotation R_y(90) F: columns R_y(90) (1, 0, 0) = (0, 0, -1), R_y(90) (0, -1, 0) = (0, -1, 0),
         * R_y(90) (0, 0, -1) = (-1, 0, 0). */
        const double r[9] = {0, 0, -1, 0, -1, 0, -1, 0, 0};
        double ry[9];
        t_rot_y(T_PI / 2, ry);
        cam = t_pose(ry, 1, 2, 3);
        tag = t_pose(id, 0.5, 0, 2);
        CHECK_OK(fathom_tag_world_pose(&cam, &tag, &out));
        CHECK_NEAR(out.m[12], -1, TOL);
        CHECK_NEAR(out.m[13], 2, TOL);
        CHECK_NEAR(out.m[14], 2.5, TOL);
        check_rotation(&out, r, TOL, __LINE__);
        CHECK_NEAR(out.m[5], -1, TOL); /* the tag's y axis (column 1) points down */
    }
    {
        /* The tag turned too: R_z(90) in the optical frame at (0, 0, 1), seen by an identity camera at (0, 0, 0):
         * world = F * T, F = diag(1, -1, -1): rotation F R_z(90) with columns F (0, 1, 0) = (0, -1, 0),
         * F (-1, 0, 0) = (-1, 0, 0), F (0, 0, 1) = (0, 0, -1); translation F (0, 0, 1) = (0, 0, -1). */
        double rz[9];
        const double e[16] = {0, -1, 0, 0, -1, 0, 0, 0, 0, 0, -1, 0, 0, 0, -1, 1};
        fathom_pose before;
        t_rot_z(T_PI / 2, rz);
        cam = t_pose(id, 0, 0, 0);
        tag = t_pose(rz, 0, 0, 1);
        CHECK_OK(fathom_tag_world_pose(&cam, &tag, &out));
        check_pose(&out, e, TOL, __LINE__);
        CHECK_OK(fathom_pose_check_rigid(&out, 1e-5f));
        /* Not rigid inputs: refused, out untouched. */
        memset(&out, 0x3c, sizeof out);
        before = out;
        cam.m[0] *= 1.2f;
        CHECK_STATUS(fathom_tag_world_pose(&cam, &tag, &out), FATHOM_ERR_NOT_RIGID);
        cam = t_pose(id, 0, 0, 0);
        tag.m[15] = 2.0f;
        CHECK_STATUS(fathom_tag_world_pose(&cam, &tag, &out), FATHOM_ERR_NOT_RIGID);
        CHECK(memcmp(&out, &before, sizeof out) == 0);
    }
}

/* ---- snap vertical ---------------------------------------------------------------------------- */

static void test_snap_vertical(void) {
    fathom_pose tag, out;

    check_section("tag_snap_vertical");
    {
        /* R_y(90) R_x(30): columns R_y(90) (1, 0, 0) = (0, 0, -1), R_y(90) (0, c, s) = (s, c, 0),
         * R_y(90) (0, -s, c) = (c, -s, 0) (c = sqrt 3 / 2, s = 1/2): the x axis is horizontal, the normal pitched by
         * 30 degrees. Turning back about x gives R_y(90): columns (0, 0, -1), (0, 1, 0), (1, 0, 0); translation kept. */
        const double c = sqrt(3.0) / 2, r[9] = {0, 0, -1, 0.5, c, 0, c, -0.5, 0}, ry[9] = {0, 0, -1, 0, 1, 0, 1, 0, 0};
        tag = t_pose(r, 1, 2, 3);
        CHECK_OK(fathom_tag_snap_vertical(&tag, &out));
        check_rotation(&out, ry, TOL, __LINE__);
        CHECK(out.m[12] == 1.0f && out.m[13] == 2.0f && out.m[14] == 3.0f);
        CHECK(out.m[3] == 0.0f && out.m[7] == 0.0f && out.m[11] == 0.0f && out.m[15] == 1.0f);
    }
    {
        /* A tag whose x axis is tilted too: x = (s, s, 0) (45 degrees up), y = (-1/2, 1/2, s), z = x × y =
         * (1/2, -1/2, s) (s = sqrt 1/2). Turning about x keeps x; the new z is horizontal and perpendicular to x:
         * x × up = (0, 0, s), normalized (0, 0, 1), the sign nearest the old z (z . (0, 0, 1) = s > 0); y = z × x =
         * (-s, s, 0). The result is R_z(45): columns (s, s, 0), (-s, s, 0), (0, 0, 1). */
        const double r[9] = {S2, S2, 0, -0.5, 0.5, S2, 0.5, -0.5, S2}, e[9] = {S2, S2, 0, -S2, S2, 0, 0, 0, 1};
        tag = t_pose(r, -0.5, 1.25, 4);
        CHECK_OK(fathom_tag_snap_vertical(&tag, &out));
        check_rotation(&out, e, TOL, __LINE__);
        CHECK_NEAR(out.m[9], 0, 1e-6); /* the normal is horizontal */
        CHECK(out.m[12] == -0.5f && out.m[13] == 1.25f && out.m[14] == 4.0f);
        CHECK_OK(fathom_pose_check_rigid(&out, 1e-5f));
        /* Snapping twice changes nothing more. */
        tag = out;
        CHECK_OK(fathom_tag_snap_vertical(&tag, &out));
        check_rotation(&out, e, TOL, __LINE__);
    }
    {
        /* A tag lying almost flat, normal nearly up (R_x(-90 deg + 0.01): z = (0, cos 0.01, sin 0.01)), x = +x:
         * the horizontal directions perpendicular to x are +-z; the one nearest the old normal is +z. */
        double rx[9];
        t_rot_x(-T_PI / 2 + 0.01, rx);
        tag = t_pose(rx, 0, 0, 0);
        CHECK_OK(fathom_tag_snap_vertical(&tag, &out));
        CHECK_NEAR(out.m[8], 0, TOL);
        CHECK_NEAR(out.m[9], 0, TOL);
        CHECK_NEAR(out.m[10], 1, TOL);
    }
    {
        /* The x axis vertical: R_z(90) (x -> +y) and R_z(90 deg - 1e-5 rad); a 1e-3 tilt is fine. */
        double rz[9];
        t_rot_z(T_PI / 2, rz);
        tag = t_pose(rz, 0, 0, 0);
        memset(&out, 0x11, sizeof out);
        {
            fathom_pose before = out;
            CHECK_STATUS(fathom_tag_snap_vertical(&tag, &out), FATHOM_ERR_DEGENERATE);
            CHECK(memcmp(&out, &before, sizeof out) == 0);
        }
        t_rot_z(T_PI / 2 - 1e-5, rz);
        tag = t_pose(rz, 0, 0, 0);
        CHECK_STATUS(fathom_tag_snap_vertical(&tag, &out), FATHOM_ERR_DEGENERATE);
        t_rot_z(-T_PI / 2, rz);
        tag = t_pose(rz, 0, 0, 0);
        CHECK_STATUS(fathom_tag_snap_vertical(&tag, &out), FATHOM_ERR_DEGENERATE);
        t_rot_z(T_PI / 2 - 1e-2, rz);
        tag = t_pose(rz, 0, 0, 0);
        CHECK_OK(fathom_tag_snap_vertical(&tag, &out));
        CHECK_NEAR(out.m[9], 0, 1e-6);
    }
}

/* ---- covariance rotation ------------------------------------------------------------------- */

static void test_covariance_rotate(void) {
    fathom_pose r;
    float out[9];

    check_section("covariance_rotate");
    {
        /* R_z(90) swaps the x and y variances: diag(1, 2, 3) -> diag(2, 1, 3). Translation ignored. */
        const float s[9] = {1, 0, 0, 0, 2, 0, 0, 0, 3};
        const double e[9] = {2, 0, 0, 0, 1, 0, 0, 0, 3};
        double rz[9];
        t_rot_z(T_PI / 2, rz);
        r = t_pose(rz, 10, 20, 30);
        CHECK_OK(fathom_covariance_rotate(&r, s, out));
        check_mat3f(out, e, 1e-5, __LINE__);
    }
    {
        /* With covariances off the diagonal: R_z(90) S R_z(90)^T, R_z(90) taking x to y and y to -x:
         * S'xx = Syy, S'yy = Sxx, S'zz = Szz, S'xy = -Sxy, S'xz = -Syz, S'yz = Sxz.
         * S = [[1, 0.5, 0.25], [0.5, 2, 0.125], [0.25, 0.125, 3]] -> [[2, -0.5, -0.125], [-0.5, 1, 0.25],
         * [-0.125, 0.25, 3]]. */
        const float s[9] = {1, 0.5f, 0.25f, 0.5f, 2, 0.125f, 0.25f, 0.125f, 3};
        const double e[9] = {2, -0.5, -0.125, -0.5, 1, 0.25, -0.125, 0.25, 3};
        double rz[9];
        float before[9];
        t_rot_z(T_PI / 2, rz);
        r = t_pose(rz, 0, 0, 0);
        CHECK_OK(fathom_covariance_rotate(&r, s, out));
        check_mat3f(out, e, 1e-6, __LINE__);
        CHECK_NEAR(out[1], out[3], 1e-7); /* symmetric */
        CHECK_NEAR(out[2], out[6], 1e-7);
        CHECK_NEAR(out[5], out[7], 1e-7);
        /* A non-rigid rotation is refused, out untouched. */
        memcpy(before, out, sizeof out);
        r.m[0] = 3;
        CHECK_STATUS(fathom_covariance_rotate(&r, s, out), FATHOM_ERR_NOT_RIGID);
        CHECK(memcmp(before, out, sizeof out) == 0);
    }
}

/* ---- fusion ------------------------------------------------------------------------------------ */

static void check_yaw_rotation(const fathom_pose *p, double angle, double tol, int line) {
    double r[9];
    t_rot_y(angle, r);
    check_rotation(p, r, tol, line);
}

static void test_fuse(void) {
    fathom_pose poses[4], out;
    float cov[9], covs[4 * 9];
    double r[9];
    int i;

    check_section("tag_fuse");
    {
        /* One observation: itself, fused covariance all zeros. */
        t_rot_y(0.3, r);
        poses[0] = t_pose(r, 1, 2, 3);
        for (i = 0; i < 9; i++) cov[i] = 99;
        CHECK_OK(fathom_tag_fuse(poses, NULL, 1, &out, cov));
        check_yaw_rotation(&out, 0.3, TOL, __LINE__);
        CHECK_NEAR(out.m[12], 1, TOL);
        CHECK_NEAR(out.m[13], 2, TOL);
        CHECK_NEAR(out.m[14], 3, TOL);
        for (i = 0; i < 9; i++) CHECK(cov[i] == 0.0f);
        CHECK_OK(fathom_tag_fuse(poses, NULL, 1, &out, NULL)); /* out_covariance may be NULL */
        /* One observation with its covariance S: (S^-1)^-1 = S. */
        {
            const float s1[9] = {0.01f, 0.002f, 0, 0.002f, 0.02f, 0, 0, 0, 0.03f};
            const double e[9] = {0.01f, 0.002f, 0, 0.002f, 0.02f, 0, 0, 0, 0.03f};
            CHECK_OK(fathom_tag_fuse(poses, s1, 1, &out, cov));
            check_mat3f(cov, e, 1e-7, __LINE__);
            CHECK_NEAR(out.m[12], 1, TOL);
            check_yaw_rotation(&out, 0.3, TOL, __LINE__);
        }
    }
    {
        /* Two, equal weights: positions (0,0,0) and (2,0,0) -> (1,0,0); R_y(0) and R_y(0.4) -> R_y(0.2).
         * Sample covariance (n - 1 = 1): xx = ((-1)^2 + 1^2) / 1 = 2; divided by count 2: 1. */
        t_rot_y(0, r);
        poses[0] = t_pose(r, 0, 0, 0);
        t_rot_y(0.4, r);
        poses[1] = t_pose(r, 2, 0, 0);
        CHECK_OK(fathom_tag_fuse(poses, NULL, 2, &out, cov));
        check_yaw_rotation(&out, 0.2, TOL, __LINE__);
        CHECK_NEAR(out.m[12], 1, TOL);
        CHECK_NEAR(out.m[13], 0, TOL);
        CHECK_NEAR(out.m[14], 0, TOL);
        {
            const double e[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
            check_mat3f(cov, e, 1e-5, __LINE__);
        }
        CHECK_OK(fathom_pose_check_rigid(&out, 1e-5f));
    }
    {
        /* Three, equal weights: positions (0,0,0), (3,0,0), (0,3,3): mean (1,1,1); deviations (-1,-1,-1),
         * (2,-1,-1), (-1,2,2); sum of outer products xx 6, yy 6, zz 6, xy -3, xz -3, yz 6; / (n - 1) / n:
         * xx 1, yy 1, zz 1, xy -0.5, xz -0.5, yz 1. Rotations R_y(0.1), R_y(0.2), R_y(0.3): symmetric about 0.2. */
        t_rot_y(0.1, r);
        poses[0] = t_pose(r, 0, 0, 0);
        t_rot_y(0.2, r);
        poses[1] = t_pose(r, 3, 0, 0);
        t_rot_y(0.3, r);
        poses[2] = t_pose(r, 0, 3, 3);
        CHECK_OK(fathom_tag_fuse(poses, NULL, 3, &out, cov));
        check_yaw_rotation(&out, 0.2, TOL, __LINE__);
        CHECK_NEAR(out.m[12], 1, TOL);
        CHECK_NEAR(out.m[13], 1, TOL);
        CHECK_NEAR(out.m[14], 1, TOL);
        {
            const double e[9] = {1, -0.5, -0.5, -0.5, 1, 1, -0.5, 1, 1};
            check_mat3f(cov, e, 1e-5, __LINE__);
        }
    }
    {
        /* With covariances S1 = I, S2 = 2 I, S3 = diag(1, 4, 1) at (0,0,0), (1,0,0), (0,1,0):
         * sum S^-1 = diag(2.5, 1.75, 2.5); sum S^-1 p = (0.5, 0.25, 0): position (0.2, 1/7, 0);
         * fused covariance diag(0.4, 1/1.75, 0.4). Rotation weights 1/trace: 1/3, 1/6, 1/6 on
         * R_y(0), R_y(0.3), R_y(0.9). */
        const double th[3] = {0, 0.3, 0.9};
        double yaw;
        memset(covs, 0, sizeof covs);
        covs[0] = covs[4] = covs[8] = 1;
        covs[9] = covs[13] = covs[17] = 2;
        covs[18] = 1, covs[22] = 4, covs[26] = 1;
        t_rot_y(th[0], r);
        poses[0] = t_pose(r, 0, 0, 0);
        t_rot_y(th[1], r);
        poses[1] = t_pose(r, 1, 0, 0);
        t_rot_y(th[2], r);
        poses[2] = t_pose(r, 0, 1, 0);
        CHECK_OK(fathom_tag_fuse(poses, covs, 3, &out, cov));
        CHECK_NEAR(out.m[12], 0.2, TOL);
        CHECK_NEAR(out.m[13], 1.0 / 7, TOL);
        CHECK_NEAR(out.m[14], 0, TOL);
        {
            const double e[9] = {0.4, 0, 0, 0, 1 / 1.75, 0, 0, 0, 0.4};
            check_mat3f(cov, e, 1e-5, __LINE__);
        }
        /* A rotation about y (its column 1, m[4..6], is (0, 1, 0)), by an angle near the weighted mean of the angles,
         * (0 / 3 + 0.3 / 6 + 0.9 / 6) / (2 / 3) = 0.3, not the unweighted mean 0.4 (the weights pull it toward R_y(0)):
         * between 0.2 and 0.4. The exact value is the core tests' (PlacementTests, "rotations about one axis fuse to
         * their (weighted) circular mean angle"). */
        CHECK_NEAR(out.m[4], 0, 1e-5);
        CHECK_NEAR(out.m[5], 1, 1e-5);
        CHECK_NEAR(out.m[6], 0, 1e-5);
        CHECK_NEAR(out.m[1], 0, 1e-5);
        CHECK_NEAR(out.m[9], 0, 1e-5);
        yaw = atan2(-out.m[2], out.m[0]); /* R_y(a) has column 0 (cos a, 0, -sin a) */
        CHECK(yaw > 0.2 && yaw < 0.4);
        check_yaw_rotation(&out, yaw, 1e-5, __LINE__);
    }
    {
        /* Full covariances (off the diagonal): two observations with the same S weigh the same, so the
         * position is the mean ((1, 2, 3) + (1.2, 1.8, 3.4)) / 2 = (1.1, 1.9, 3.2) and the fused covariance
         * (2 S^-1)^-1 = S / 2. */
        const float s9[9] = {0.02f, 0.005f, 0.001f, 0.005f, 0.03f, 0.002f, 0.001f, 0.002f, 0.04f};
        const double e[9] = {0.01, 0.0025, 0.0005, 0.0025, 0.015, 0.001, 0.0005, 0.001, 0.02};
        memcpy(covs, s9, sizeof s9);
        memcpy(covs + 9, s9, sizeof s9);
        t_rot_y(0.5, r);
        poses[0] = t_pose(r, 1, 2, 3);
        poses[1] = t_pose(r, 1.2, 1.8, 3.4);
        CHECK_OK(fathom_tag_fuse(poses, covs, 2, &out, cov));
        CHECK_NEAR(out.m[12], 1.1, 1e-5);
        CHECK_NEAR(out.m[13], 1.9, 1e-5);
        CHECK_NEAR(out.m[14], 3.2, 1e-5);
        check_mat3f(cov, e, 1e-6, __LINE__);
        check_yaw_rotation(&out, 0.5, TOL, __LINE__);
    }
    {
        /* Bad input: count 0; a covariance not symmetric, not positive definite, zero; rotations that cancel. */
        memset(covs, 0, sizeof covs);
        covs[0] = covs[4] = covs[8] = 1;
        covs[9] = covs[13] = covs[17] = 1;
        t_rot_y(0, r);
        poses[0] = t_pose(r, 0, 0, 0);
        poses[1] = t_pose(r, 1, 0, 0);
        CHECK_STATUS(fathom_tag_fuse(poses, NULL, 0, &out, cov), FATHOM_ERR_OUT_OF_RANGE);
        covs[10] = 0.5f; /* S2 (1, 0) != S2 (0, 1) */
        CHECK_STATUS(fathom_tag_fuse(poses, covs, 2, &out, cov), FATHOM_ERR_OUT_OF_RANGE);
        covs[10] = 0;
        covs[13] = -1; /* negative variance */
        CHECK_STATUS(fathom_tag_fuse(poses, covs, 2, &out, cov), FATHOM_ERR_OUT_OF_RANGE);
        covs[13] = 1;
        covs[10] = covs[12] = 2; /* symmetric, eigenvalues 3 and -1 */
        CHECK_STATUS(fathom_tag_fuse(poses, covs, 2, &out, cov), FATHOM_ERR_OUT_OF_RANGE);
        memset(covs, 0, sizeof covs);
        CHECK_STATUS(fathom_tag_fuse(poses, covs, 2, &out, cov), FATHOM_ERR_OUT_OF_RANGE);
        /* Identity and R_y(180) with equal weights: q = (0,0,0,1) and (0,1,0,0), sum q q^T has a double top
         * eigenvalue: no average rotation. */
        {
            const double flip[9] = {-1, 0, 0, 0, 1, 0, 0, 0, -1};
            poses[1] = t_pose(flip, 1, 0, 0);
            CHECK_STATUS(fathom_tag_fuse(poses, NULL, 2, &out, cov), FATHOM_ERR_DEGENERATE);
        }
        poses[1] = t_pose(r, 1, 0, 0);
        poses[1].m[0] = 1.5f;
        CHECK_STATUS(fathom_tag_fuse(poses, NULL, 2, &out, cov), FATHOM_ERR_NOT_RIGID);
    }
}

/* ---- labels ------------------------------------------------------------------------------------ */

static fathom_label_request request(int32_t anchor, int32_t target) {
    fathom_label_request r;
    memset(&r, 0, sizeof r);
    r.anchor = anchor;
    r.target = target;
    r.target_width = 0.4f;  /* W */
    r.target_height = 0.3f; /* H */
    r.panel_width = 0.2f;   /* w */
    r.panel_height = 0.1f;  /* h */
    r.relative_position = t_v3(0.01, 0.02, 0.03);
    r.position_offset = t_v3(0.1, 0, -0.05);
    r.used_anchors = 0;
    return r;
}

static void test_labels(void) {
    /* Base position relative + offset = (0.11, 0.02, -0.02). Vertical offset H/2 + h/2 = 0.2, horizontal
     * W/2 + w/2 = 0.3. On an image (x, 0, z), top = -z; on a panel (x, y, 0), top = +y. */
    static const struct {
        int32_t anchor;
        double image[3];
        double panel[3];
    } cases[] = {
        {FATHOM_ANCHOR_CENTER, {0.11, 0.02, -0.02}, {0.11, 0.02, -0.02}},
        {FATHOM_ANCHOR_COVER, {0.11, 0.02, -0.02}, {0.11, 0.02, -0.02}},
        {FATHOM_ANCHOR_TOP, {0.11, 0.02, -0.22}, {0.11, 0.22, -0.02}},
        {FATHOM_ANCHOR_BOTTOM, {0.11, 0.02, 0.18}, {0.11, -0.18, -0.02}},
        {FATHOM_ANCHOR_LEADING, {-0.19, 0.02, -0.02}, {-0.19, 0.02, -0.02}},
        {FATHOM_ANCHOR_TRAILING, {0.41, 0.02, -0.02}, {0.41, 0.02, -0.02}},
    };
    fathom_label_placement p;
    size_t i;

    check_section("label_place");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fathom_label_request r = request(cases[i].anchor, FATHOM_LABEL_ON_IMAGE);
        memset(&p, 0, sizeof p);
        CHECK_OK(fathom_label_place(&r, &p));
        CHECK_VEC3(p.position, cases[i].image[0], cases[i].image[1], cases[i].image[2], 1e-6);
        CHECK_QUAT_ROT(p.orientation, -S2, 0, 0, S2, 1e-6); /* -90 degrees about x */
        CHECK(p.anchor == cases[i].anchor);
        r.target = FATHOM_LABEL_ON_PANEL;
        CHECK_OK(fathom_label_place(&r, &p));
        CHECK_VEC3(p.position, cases[i].panel[0], cases[i].panel[1], cases[i].panel[2], 1e-6);
        CHECK_QUAT_ROT(p.orientation, 0, 0, 0, 1, 1e-6);
        CHECK(p.anchor == cases[i].anchor);
    }
    {
        /* The panel turned -90 degrees about x lies in the image's x-z plane: its normal (+z) becomes +y. */
        fathom_label_request r = request(FATHOM_ANCHOR_CENTER, FATHOM_LABEL_ON_IMAGE);
        fathom_vec3 n;
        fathom_vec3 z = t_v3(0, 0, 1);
        CHECK_OK(fathom_label_place(&r, &p));
        CHECK_OK(fathom_quat_rotate(p.orientation, z, &n));
        CHECK_VEC3(n, 0, 1, 0, 1e-6);
    }
    {
        /* AUTO: the first of TOP, BOTTOM, LEADING, TRAILING not in used_anchors, else TOP. */
        static const struct {
            uint32_t used;
            int32_t expect;
        } autos[] = {
            {0u, FATHOM_ANCHOR_TOP},
            {1u << FATHOM_ANCHOR_TOP, FATHOM_ANCHOR_BOTTOM},
            {(1u << FATHOM_ANCHOR_TOP) | (1u << FATHOM_ANCHOR_BOTTOM), FATHOM_ANCHOR_LEADING},
            {(1u << FATHOM_ANCHOR_TOP) | (1u << FATHOM_ANCHOR_LEADING), FATHOM_ANCHOR_BOTTOM},
            {(1u << FATHOM_ANCHOR_TOP) | (1u << FATHOM_ANCHOR_BOTTOM) | (1u << FATHOM_ANCHOR_LEADING),
             FATHOM_ANCHOR_TRAILING},
            {(1u << FATHOM_ANCHOR_TOP) | (1u << FATHOM_ANCHOR_BOTTOM) | (1u << FATHOM_ANCHOR_LEADING) |
                 (1u << FATHOM_ANCHOR_TRAILING),
             FATHOM_ANCHOR_TOP},
            {0x7eu, FATHOM_ANCHOR_TOP}, /* every anchor bit 1..6 */
            {1u << FATHOM_ANCHOR_CENTER, FATHOM_ANCHOR_TOP},
            {1u << FATHOM_ANCHOR_BOTTOM, FATHOM_ANCHOR_TOP},
            {1u << FATHOM_ANCHOR_AUTO, FATHOM_ANCHOR_TOP},
        };
        for (i = 0; i < sizeof autos / sizeof autos[0]; i++) {
            fathom_label_request r = request(FATHOM_ANCHOR_AUTO, FATHOM_LABEL_ON_IMAGE);
            size_t k;
            r.used_anchors = autos[i].used;
            memset(&p, 0, sizeof p);
            CHECK_OK(fathom_label_place(&r, &p));
            CHECK(p.anchor == autos[i].expect);
            if (p.anchor != autos[i].expect)
                printf("    used 0x%x: anchor %d, expected %d\n", (unsigned)autos[i].used, (int)p.anchor,
                       (int)autos[i].expect);
            for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
                if (cases[k].anchor == autos[i].expect)
                    CHECK_VEC3(p.position, cases[k].image[0], cases[k].image[1], cases[k].image[2], 1e-6);
            r.target = FATHOM_LABEL_ON_PANEL;
            CHECK_OK(fathom_label_place(&r, &p));
            CHECK(p.anchor == autos[i].expect);
            for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
                if (cases[k].anchor == autos[i].expect)
                    CHECK_VEC3(p.position, cases[k].panel[0], cases[k].panel[1], cases[k].panel[2], 1e-6);
        }
    }
    {
        /* Bad: unknown anchor or target, sizes <= 0, NaN. Nothing written. */
        fathom_label_request r;
        fathom_label_placement before;
        memset(&p, 0x42, sizeof p);
        before = p;
        r = request(7, FATHOM_LABEL_ON_IMAGE);
        CHECK_STATUS(fathom_label_place(&r, &p), FATHOM_ERR_OUT_OF_RANGE);
        r = request(-1, FATHOM_LABEL_ON_IMAGE);
        CHECK_STATUS(fathom_label_place(&r, &p), FATHOM_ERR_OUT_OF_RANGE);
        r = request(FATHOM_ANCHOR_TOP, 2);
        CHECK_STATUS(fathom_label_place(&r, &p), FATHOM_ERR_OUT_OF_RANGE);
        r = request(FATHOM_ANCHOR_TOP, -1);
        CHECK_STATUS(fathom_label_place(&r, &p), FATHOM_ERR_OUT_OF_RANGE);
        r = request(FATHOM_ANCHOR_TOP, FATHOM_LABEL_ON_IMAGE);
        r.target_width = 0;
        CHECK_STATUS(fathom_label_place(&r, &p), FATHOM_ERR_OUT_OF_RANGE);
        r = request(FATHOM_ANCHOR_TOP, FATHOM_LABEL_ON_IMAGE);
        r.panel_height = -0.1f;
        CHECK_STATUS(fathom_label_place(&r, &p), FATHOM_ERR_OUT_OF_RANGE);
        r = request(FATHOM_ANCHOR_TOP, FATHOM_LABEL_ON_IMAGE);
        r.position_offset.y = (float)NAN;
        CHECK_STATUS(fathom_label_place(&r, &p), FATHOM_ERR_NOT_FINITE);
        CHECK(memcmp(&p, &before, sizeof p) == 0);
    }
}

int main(void) {
    test_tag_world_pose();
    test_snap_vertical();
    test_covariance_rotate();
    test_fuse();
    test_labels();
    return check_summary("test_placement");
}
