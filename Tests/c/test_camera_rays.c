/* Rays from cameras (conventions.md, "Screen-point rays") across the C ABI: fathom_camera_ray,
 * fathom_camera_project (with the BEHIND and OUTSIDE flags) and fathom_camera_grid_rays (pixel centres
 * (i*step + 0.5, j*step + 0.5), row by row, ceil(w/step)*ceil(h/step) rays, the buffer-too-small protocol).
 * The formula itself is checked against Double references for random cameras, poses and pixels in
 * Tests/FathomCoreTests/CameraRayTests.swift; here, values worked out by hand (in the comments) for an identity
 * camera and a camera turned so that every axis moves (a wrong field order or a transposed pose would show),
 * grids against single calls, statuses and bad input. */
#include "fathom.h"
#include "check.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The camera used for most checks: 120 degrees about (1, 1, 1), which permutes the axes, x -> y, y -> z,
 * z -> x, so R (x, y, z) = (z, x, y) (columns (0, 1, 0), (0, 0, 1), (1, 0, 0)); standing at (1, 1.5, -2).
 * It looks along R (0, 0, -1) = (-1, 0, 0). */
static const double CAM_R[9] = {0, 1, 0, 0, 0, 1, 1, 0, 0};
static const double CAM_T[3] = {1.0, 1.5, -2.0};
static fathom_pose CAM;

static void init_camera(void) { CAM = t_pose(CAM_R, CAM_T[0], CAM_T[1], CAM_T[2]); }

static void test_camera_ray_identity(void) {
    fathom_intrinsics k = t_intr(500, 500, 320, 240, 640, 480);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    fathom_pose id = t_pose(I, 0, 0, 0);
    fathom_ray r;
    const double s = sqrt(0.5);

    check_section("camera_ray: identity pose");
    /* Through the principal point: straight ahead, along -z. */
    CHECK_OK(fathom_camera_ray(&k, &id, 320, 240, &r));
    CHECK_VEC3(r.origin, 0, 0, 0, 0);
    CHECK_VEC3(r.direction, 0, 0, -1, 1e-7);
    /* One focal length to the right: 45 degrees to the right, (1, 0, -1)/sqrt 2. */
    CHECK_OK(fathom_camera_ray(&k, &id, 820, 240, &r));
    CHECK_VEC3(r.direction, s, 0, -s, 1e-6);
    /* One focal length down (v grows downward): 45 degrees down, (0, -1, -1)/sqrt 2. */
    CHECK_OK(fathom_camera_ray(&k, &id, 320, 740, &r));
    CHECK_VEC3(r.direction, 0, -s, -s, 1e-6);
    /* Up and to the left: u = cx - fx/2, v = cy - fy/2 -> (-0.5, 0.5, -1)/sqrt(1.5). */
    CHECK_OK(fathom_camera_ray(&k, &id, 70, -10, &r));
    CHECK_VEC3(r.direction, -0.5 / sqrt(1.5), 0.5 / sqrt(1.5), -1 / sqrt(1.5), 1e-6);
    /* The centre of the top-left pixel is (0.5, 0.5): ((0.5 - 320)/500, -(0.5 - 240)/500, -1) normalized. */
    CHECK_OK(fathom_camera_ray(&k, &id, 0.5f, 0.5f, &r));
    {
        double d[3] = {(0.5 - 320) / 500.0, -(0.5 - 240) / 500.0, -1};
        t_normalize(d);
        CHECK_VEC3(r.direction, d[0], d[1], d[2], 1e-6);
    }
    /* Different focal lengths along x and y: fx 600, fy 400; (u, v) = (cx + 300, cy + 200) -> (0.5, -0.5, -1). */
    k = t_intr(600, 400, 300, 200, 600, 400);
    CHECK_OK(fathom_camera_ray(&k, &id, 600, 400, &r));
    CHECK_VEC3(r.direction, 0.5 / sqrt(1.5), -0.5 / sqrt(1.5), -1 / sqrt(1.5), 1e-6);
    /* Translation only: the origin is the camera centre. */
    id = t_pose(I, 3, -4, 5);
    CHECK_OK(fathom_camera_ray(&k, &id, 300, 200, &r));
    CHECK_VEC3(r.origin, 3, -4, 5, 0);
    CHECK_VEC3(r.direction, 0, 0, -1, 1e-7);
}

static void test_camera_ray_posed(void) {
    fathom_intrinsics k = t_intr(1445.5f, 1446.1f, 957.3f, 718.2f, 1920, 1440);
    fathom_ray r;

    check_section("camera_ray: rotated and translated camera");
    /* A camera yawed by 90 degrees (R_y(pi/2)) looks along R_y * (0, 0, -1) = (-1, 0, 0). */
    {
        double R[9];
        fathom_pose p;
        t_rot_y(T_PI / 2, R);
        p = t_pose(R, 0, 1, 0);
        CHECK_OK(fathom_camera_ray(&k, &p, 957.3f, 718.2f, &r));
        CHECK_VEC3(r.direction, -1, 0, 0, 1e-6);
        CHECK_VEC3(r.origin, 0, 1, 0, 0);
        /* Pitched down by 30 degrees (R_x(-30deg)): (0, -sin 30, -cos 30). */
        t_rot_x(-T_PI / 6, R);
        p = t_pose(R, 0, 1, 0);
        CHECK_OK(fathom_camera_ray(&k, &p, 957.3f, 718.2f, &r));
        CHECK_VEC3(r.direction, 0, -0.5, -sqrt(3) / 2, 1e-6);
    }
    /* The permuting camera CAM (R (x, y, z) = (z, x, y)) with fx 500, fy 400, cx 320, cy 240: one focal length
     * right, (820, 240), is (1, 0, -1)/sqrt 2 in the camera, (-1, 1, 0)/sqrt 2 in the world; one focal length
     * down, (320, 640), is (0, -1, -1)/sqrt 2, in the world (-1, 0, -1)/sqrt 2. The origin is CAM's position. */
    {
        const double s = sqrt(0.5);
        fathom_intrinsics k2 = t_intr(500, 400, 320, 240, 640, 480);
        CHECK_OK(fathom_camera_ray(&k2, &CAM, 320, 240, &r));
        CHECK_VEC3(r.origin, CAM_T[0], CAM_T[1], CAM_T[2], 0);
        CHECK_VEC3(r.direction, -1, 0, 0, 1e-6);
        CHECK_OK(fathom_camera_ray(&k2, &CAM, 820, 240, &r));
        CHECK_VEC3(r.direction, -s, s, 0, 1e-6);
        CHECK_OK(fathom_camera_ray(&k2, &CAM, 320, 640, &r));
        CHECK_VEC3(r.direction, -s, 0, -s, 1e-6);
        CHECK_VEC3(r.origin, CAM_T[0], CAM_T[1], CAM_T[2], 0);
    }
}

static void test_project(void) {
    fathom_intrinsics k = t_intr(500, 500, 320, 240, 640, 480);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    fathom_pose id = t_pose(I, 0, 0, 0);
    float u, v;
    uint32_t flags;

    check_section("camera_project: identity pose");
    /* (0.1, 0.2, -2): u = 320 + 500 * 0.1/2 = 345, v = 240 - 500 * 0.2/2 = 190, visible. */
    CHECK_OK(fathom_camera_project(&k, &id, v3(0.1f, 0.2f, -2), &u, &v, &flags));
    CHECK_NEAR(u, 345, 1e-4);
    CHECK_NEAR(v, 190, 1e-4);
    CHECK(flags == 0);
    /* Straight ahead: the principal point. */
    CHECK_OK(fathom_camera_project(&k, &id, v3(0, 0, -7), &u, &v, &flags));
    CHECK_NEAR(u, 320, 1e-5);
    CHECK_NEAR(v, 240, 1e-5);
    CHECK(flags == 0);

    check_section("camera_project: BEHIND");
    u = v = 99;
    CHECK_OK(fathom_camera_project(&k, &id, v3(0.1f, 0.2f, 2), &u, &v, &flags));
    CHECK((flags & FATHOM_PROJECT_BEHIND) != 0);
    CHECK(u == 0 && v == 0);
    /* In the camera plane (z = 0): not in front. */
    u = v = 99;
    CHECK_OK(fathom_camera_project(&k, &id, v3(1, 0, 0), &u, &v, &flags));
    CHECK((flags & FATHOM_PROJECT_BEHIND) != 0);
    CHECK(u == 0 && v == 0);
    /* The camera centre itself. */
    CHECK_OK(fathom_camera_project(&k, &id, v3(0, 0, 0), &u, &v, &flags));
    CHECK((flags & FATHOM_PROJECT_BEHIND) != 0);
    /* Behind and far to the side. */
    CHECK_OK(fathom_camera_project(&k, &id, v3(100, 0, 1), &u, &v, &flags));
    CHECK((flags & FATHOM_PROJECT_BEHIND) != 0);
    CHECK(u == 0 && v == 0);

    check_section("camera_project: OUTSIDE");
    /* (10, 0, -1): u = 320 + 5000 = 5320, in front but right of the image. */
    CHECK_OK(fathom_camera_project(&k, &id, v3(10, 0, -1), &u, &v, &flags));
    CHECK(flags == FATHOM_PROJECT_OUTSIDE);
    CHECK_NEAR(u, 5320, 1e-2);
    CHECK_NEAR(v, 240, 1e-4);
    /* Above the image: v = 240 - 500 * 1 = -260. */
    CHECK_OK(fathom_camera_project(&k, &id, v3(0, 1, -1), &u, &v, &flags));
    CHECK(flags == FATHOM_PROJECT_OUTSIDE);
    CHECK_NEAR(v, -260, 1e-3);
    /* The image rectangle is closed, [0, width] x [0, height]: with fx = 512, cx = 256, width 512 and
     * fy = 384, cy = 192, height 384, the points (+-0.5, +-0.5, -1) land exactly on the four corners
     * (every step of the arithmetic is exact in float). */
    k = t_intr(512, 384, 256, 192, 512, 384);
    CHECK_OK(fathom_camera_project(&k, &id, v3(-0.5f, 0.5f, -1), &u, &v, &flags));
    CHECK(u == 0 && v == 0);
    CHECK(flags == 0);
    CHECK_OK(fathom_camera_project(&k, &id, v3(0.5f, -0.5f, -1), &u, &v, &flags));
    CHECK(u == 512 && v == 384);
    CHECK(flags == 0);
    CHECK_OK(fathom_camera_project(&k, &id, v3(-0.5f, -0.5f, -1), &u, &v, &flags));
    CHECK(u == 0 && v == 384);
    CHECK(flags == 0);
    /* Just beyond the left and the bottom edges. */
    CHECK_OK(fathom_camera_project(&k, &id, v3(-0.501f, 0, -1), &u, &v, &flags));
    CHECK(flags == FATHOM_PROJECT_OUTSIDE);
    CHECK_OK(fathom_camera_project(&k, &id, v3(0, -0.501f, -1), &u, &v, &flags));
    CHECK(flags == FATHOM_PROJECT_OUTSIDE);
}

static void test_project_posed(void) {
    fathom_intrinsics k = t_intr(500, 500, 320, 240, 640, 480);
    float u = 99, v = 99;
    uint32_t flags = 99;

    check_section("camera_project: the permuting camera, by hand");
    /* The camera point c = (0.1, 0.2, -2) is at world t + R c = (1, 1.5, -2) + (-2, 0.1, 0.2) = (-1, 1.6, -1.8);
     * it projects to u = 320 + 500 * 0.1 / 2 = 345, v = 240 - 500 * 0.2 / 2 = 190. */
    CHECK_OK(fathom_camera_project(&k, &CAM, v3(-1, 1.6f, -1.8f), &u, &v, &flags));
    CHECK_NEAR(u, 345, 1e-3);
    CHECK_NEAR(v, 190, 1e-3);
    CHECK(flags == 0);
    /* c = (0, 0, 1) (behind the camera): world (2, 1.5, -2). */
    u = v = 99;
    CHECK_OK(fathom_camera_project(&k, &CAM, v3(2, 1.5f, -2), &u, &v, &flags));
    CHECK((flags & FATHOM_PROJECT_BEHIND) != 0);
    CHECK(u == 0 && v == 0);
    /* c = (10, 0, -1): world (0, 11.5, -2); u = 320 + 5000 = 5320, right of the image. */
    CHECK_OK(fathom_camera_project(&k, &CAM, v3(0, 11.5f, -2), &u, &v, &flags));
    CHECK(flags == FATHOM_PROJECT_OUTSIDE);
    CHECK_NEAR(u, 5320, 1e-2);
    CHECK_NEAR(v, 240, 1e-3);

    check_section("camera_project: back through camera_ray's pixel");
    {
        /* A point 3 m along the ray of pixel (100.25, 400.75) projects to that pixel. */
        fathom_ray r;
        CHECK_OK(fathom_camera_ray(&k, &CAM, 100.25f, 400.75f, &r));
        CHECK_OK(fathom_camera_project(&k, &CAM,
                                       t_v3(r.origin.x + 3.0 * r.direction.x, r.origin.y + 3.0 * r.direction.y,
                                            r.origin.z + 3.0 * r.direction.z),
                                       &u, &v, &flags));
        CHECK_NEAR(u, 100.25, 1e-3);
        CHECK_NEAR(v, 400.75, 1e-3);
        CHECK(flags == 0);
    }
}

/* The grid is what single calls give: ray j * cols + i is fathom_camera_ray at (i*step + 0.5, j*step + 0.5). */
static int grid_matches(const fathom_intrinsics *k, const fathom_pose *pose, uint32_t step, const fathom_ray *rays,
                        size_t cols, size_t rows) {
    size_t i, j, bad = 0;
    for (j = 0; j < rows; j++)
        for (i = 0; i < cols; i++) {
            const fathom_ray *r = &rays[j * cols + i];
            fathom_ray one;
            if (fathom_camera_ray(k, pose, (float)((double)(i * step) + 0.5), (float)((double)(j * step) + 0.5), &one) !=
                    FATHOM_OK ||
                fabs(r->direction.x - one.direction.x) > 1e-6 || fabs(r->direction.y - one.direction.y) > 1e-6 ||
                fabs(r->direction.z - one.direction.z) > 1e-6 || r->origin.x != one.origin.x ||
                r->origin.y != one.origin.y || r->origin.z != one.origin.z) {
                if (bad++ < 3)
                    printf("    grid ray (%zu, %zu): (%.7g, %.7g, %.7g), single call (%.7g, %.7g, %.7g)\n", i, j,
                           (double)r->direction.x, (double)r->direction.y, (double)r->direction.z,
                           (double)one.direction.x, (double)one.direction.y, (double)one.direction.z);
            }
        }
    return bad == 0;
}

static void test_grid(void) {
    /* 10 x 7 pixels, step 3: columns 0, 3, 6, 9 (ceil(10/3) = 4), rows 0, 3, 6 (ceil(7/3) = 3): 12 rays. */
    fathom_intrinsics k = t_intr(8, 9, 5, 3.5f, 10, 7);
    fathom_ray rays[64];
    size_t n;

    check_section("grid_rays: count and order");
    n = 0;
    CHECK_OK(fathom_camera_grid_rays(&k, &CAM, 3, rays, 64, &n));
    CHECK(n == 12);
    CHECK(grid_matches(&k, &CAM, 3, rays, 4, 3));
    /* The first ray is through the centre of pixel (0, 0) = (0.5, 0.5); the same as camera_ray there. */
    {
        fathom_ray r;
        CHECK_OK(fathom_camera_ray(&k, &CAM, 0.5f, 0.5f, &r));
        CHECK_NEAR(rays[0].direction.x, r.direction.x, 1e-6);
        CHECK_NEAR(rays[0].direction.y, r.direction.y, 1e-6);
        CHECK_NEAR(rays[0].direction.z, r.direction.z, 1e-6);
        /* The last: pixel (9, 6), centre (9.5, 6.5). */
        CHECK_OK(fathom_camera_ray(&k, &CAM, 9.5f, 6.5f, &r));
        CHECK_NEAR(rays[11].direction.x, r.direction.x, 1e-6);
        CHECK_NEAR(rays[11].direction.y, r.direction.y, 1e-6);
        CHECK_NEAR(rays[11].direction.z, r.direction.z, 1e-6);
        /* Row-major: index 4 is column 0 of row 1, pixel centre (0.5, 3.5). */
        CHECK_OK(fathom_camera_ray(&k, &CAM, 0.5f, 3.5f, &r));
        CHECK_NEAR(rays[4].direction.x, r.direction.x, 1e-6);
        CHECK_NEAR(rays[4].direction.y, r.direction.y, 1e-6);
    }
    /* step 1: every pixel, 10 * 7 = 70 > 64: too small; 4 x 3 image: 12. */
    {
        fathom_intrinsics k2 = t_intr(4, 4, 2, 1.5f, 4, 3);
        CHECK_OK(fathom_camera_grid_rays(&k2, &CAM, 1, rays, 64, &n));
        CHECK(n == 12);
        CHECK(grid_matches(&k2, &CAM, 1, rays, 4, 3));
    }
    /* step = width: one column; ceil(7/10) = 1 row. */
    CHECK_OK(fathom_camera_grid_rays(&k, &CAM, 10, rays, 64, &n));
    CHECK(n == 1);
    /* step larger than the image: still the one pixel (0, 0). */
    CHECK_OK(fathom_camera_grid_rays(&k, &CAM, 1000, rays, 64, &n));
    CHECK(n == 1);
    CHECK(grid_matches(&k, &CAM, 1000, rays, 1, 1));
    /* Exact division: 14 x 14 with step 7 -> 2 x 2; step 5 -> 3 x 3. */
    {
        fathom_intrinsics k3 = t_intr(10, 10, 7, 7, 14, 14);
        CHECK_OK(fathom_camera_grid_rays(&k3, &CAM, 7, rays, 64, &n));
        CHECK(n == 4);
        CHECK(grid_matches(&k3, &CAM, 7, rays, 2, 2));
        CHECK_OK(fathom_camera_grid_rays(&k3, &CAM, 5, rays, 64, &n));
        CHECK(n == 9);
        CHECK(grid_matches(&k3, &CAM, 5, rays, 3, 3));
    }
    /* A real camera: 1920 x 1440 with step 16 -> 120 x 90. */
    {
        fathom_intrinsics k4 = t_intr(1445.5f, 1446.1f, 957.3f, 718.2f, 1920, 1440);
        fathom_ray *big = (fathom_ray *)malloc(120 * 90 * sizeof(fathom_ray));
        CHECK(big != NULL);
        if (big) {
            CHECK_OK(fathom_camera_grid_rays(&k4, &CAM, 16, big, 120 * 90, &n));
            CHECK(n == 120 * 90);
            CHECK(grid_matches(&k4, &CAM, 16, big, 120, 90));
            /* step 7: ceil(1920/7) = 275, ceil(1440/7) = 206. */
            CHECK_STATUS(fathom_camera_grid_rays(&k4, &CAM, 7, big, 120 * 90, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
            CHECK(n == (size_t)275 * 206);
            free(big);
        }
    }

    check_section("grid_rays: buffer too small");
    /* Asking for the size: capacity 0, out NULL. */
    n = 0;
    CHECK_STATUS(fathom_camera_grid_rays(&k, &CAM, 3, NULL, 0, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(n == 12);
    /* One short: nothing written. */
    t_fill(rays, sizeof rays);
    n = 0;
    CHECK_STATUS(fathom_camera_grid_rays(&k, &CAM, 3, rays, 11, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(n == 12);
    CHECK(t_untouched(rays, sizeof rays));
    /* Exactly enough; and more than enough leaves the rest alone. */
    t_fill(rays, sizeof rays);
    CHECK_OK(fathom_camera_grid_rays(&k, &CAM, 3, rays, 12, &n));
    CHECK(n == 12);
    CHECK(grid_matches(&k, &CAM, 3, rays, 4, 3));
    CHECK(t_untouched(&rays[12], sizeof rays - 12 * sizeof rays[0]));
    /* A grid whose count needs all 64 bits: 4e9 x 4e9 pixels, step 1 -> 1.6e19 rays (fits in size_t). */
    {
        fathom_intrinsics huge = t_intr(1000, 1000, 2e9f, 2e9f, 4000000000u, 4000000000u);
        n = 0;
        CHECK_STATUS(fathom_camera_grid_rays(&huge, &CAM, 1, NULL, 0, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(n == (size_t)4000000000u * (size_t)4000000000u);
        CHECK_STATUS(fathom_camera_grid_rays(&huge, &CAM, 3, rays, 64, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
        /* ceil(4e9 / 3) = 1333333334 */
        CHECK(n == (size_t)1333333334u * (size_t)1333333334u);
    }
}

static void test_bad_input(void) {
    fathom_intrinsics k = t_intr(500, 500, 320, 240, 640, 480), bad;
    fathom_ray r, rays[16];
    float u = 5, v = 6;
    uint32_t flags = 9;
    size_t n = 77;
    fathom_pose skew = CAM;

    check_section("bad input");
    t_fill(&r, sizeof r);
    CHECK_STATUS(fathom_camera_ray(NULL, &CAM, 1, 1, &r), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("fathom_camera_ray");
    CHECK_ERROR_MENTIONS("intrinsics");
    CHECK_STATUS(fathom_camera_ray(&k, NULL, 1, 1, &r), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("camera_to_world");
    CHECK_STATUS(fathom_camera_ray(&k, &CAM, 1, 1, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_camera_ray(&k, &CAM, (float)NAN, 1, &r), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("u");
    CHECK_STATUS(fathom_camera_ray(&k, &CAM, 1, (float)INFINITY, &r), FATHOM_ERR_NOT_FINITE);
    bad = k;
    bad.fx = 0;
    CHECK_STATUS(fathom_camera_ray(&bad, &CAM, 1, 1, &r), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("fx");
    bad = k;
    bad.fy = -3;
    CHECK_STATUS(fathom_camera_ray(&bad, &CAM, 1, 1, &r), FATHOM_ERR_OUT_OF_RANGE);
    bad = k;
    bad.cx = (float)NAN;
    CHECK_STATUS(fathom_camera_ray(&bad, &CAM, 1, 1, &r), FATHOM_ERR_NOT_FINITE);
    skew.m[0] = 2; /* a scale, not a rotation */
    CHECK_STATUS(fathom_camera_ray(&k, &skew, 1, 1, &r), FATHOM_ERR_NOT_RIGID);
    CHECK(t_untouched(&r, sizeof r));

    CHECK_STATUS(fathom_camera_project(NULL, &CAM, v3(0, 0, -1), &u, &v, &flags), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_camera_project(&k, NULL, v3(0, 0, -1), &u, &v, &flags), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_camera_project(&k, &CAM, v3(0, 0, -1), NULL, &v, &flags), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out_u");
    CHECK_STATUS(fathom_camera_project(&k, &CAM, v3(0, 0, -1), &u, NULL, &flags), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_camera_project(&k, &CAM, v3(0, 0, -1), &u, &v, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out_flags");
    CHECK_STATUS(fathom_camera_project(&k, &CAM, v3((float)NAN, 0, -1), &u, &v, &flags), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("point");
    CHECK_STATUS(fathom_camera_project(&k, &skew, v3(0, 0, -1), &u, &v, &flags), FATHOM_ERR_NOT_RIGID);
    bad = k;
    bad.width = 0;
    CHECK_STATUS(fathom_camera_project(&bad, &CAM, v3(0, 0, -1), &u, &v, &flags), FATHOM_ERR_OUT_OF_RANGE);
    CHECK(u == 5 && v == 6 && flags == 9);

    t_fill(rays, sizeof rays);
    CHECK_STATUS(fathom_camera_grid_rays(&k, &CAM, 0, rays, 16, &n), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("step");
    CHECK(n == 77);
    CHECK_STATUS(fathom_camera_grid_rays(NULL, &CAM, 1, rays, 16, &n), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_camera_grid_rays(&k, NULL, 1, rays, 16, &n), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_camera_grid_rays(&k, &CAM, 1, rays, 16, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out_count");
    /* out NULL with a capacity large enough to write into. */
    {
        fathom_intrinsics tiny = t_intr(4, 4, 2, 2, 4, 4);
        CHECK_STATUS(fathom_camera_grid_rays(&tiny, &CAM, 1, NULL, 16, &n), FATHOM_ERR_NULL_POINTER);
    }
    bad = k;
    bad.height = 0;
    CHECK_STATUS(fathom_camera_grid_rays(&bad, &CAM, 1, rays, 16, &n), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_camera_grid_rays(&k, &skew, 64, rays, 16, &n), FATHOM_ERR_NOT_RIGID);
    CHECK(t_untouched(rays, sizeof rays));
}

int main(void) {
    init_camera();
    test_camera_ray_identity();
    test_camera_ray_posed();
    test_project();
    test_project_posed();
    test_grid();
    test_bad_input();
    return check_summary("test_camera_rays");
}
