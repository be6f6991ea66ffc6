/* Depth frames and back-projection across the C ABI (fathom.h, "Depth frames and back-projection"): the frame's
 * defaults (fathom_depth_frame_init), counts and points in the optical, camera and world frames, float32 / float16 /
 * uint16 storage, strides, confidence, depth range, invalid samples, regions, steps and masks, pixels and normals,
 * short buffers, sampling (nearest, bilinear, median), fathom_depth_point, and bad input.
 *
 * The back-projection formula (optical X = (i + 0.5 - cx') / fx' * d, Y = (j + 0.5 - cy') / fy' * d, Z = d with
 * fx' = fx * w / rgb_w, ...; camera = (X, -Y, -Z); world = R * camera + t) is checked for every sample of a random
 * frame against Double in Tests/FathomCoreTests/DepthFitTests.swift, and so is the mask mapping
 * floor((i + 0.5) * mask_w / w). Here the expected points are a few samples worked out by hand in the comments;
 * the storage formats are checked through the depths (Z) and the pixels they give. */
#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FN_BP "fathom_depth_backproject"
#define FN_COUNT "fathom_depth_count"
#define FN_SAMPLE "fathom_depth_sample"
#define FN_POINT "fathom_depth_point"

/* The depths (Z, every third float from 2) of n optical points against the expected ones. */
static int depths_differ(const float *got, const double *want, size_t n, double tol) {
    size_t i;
    int bad = 0;
    for (i = 0; i < n; i++)
        if (!(fabs(got[3 * i + 2] - want[i]) <= tol)) {
            if (bad < 4) printf("    point %zu: depth %.9g, expected %.9g\n", i, (double)got[3 * i + 2], want[i]);
            bad++;
        }
    return bad;
}

#define CHECK_DEPTHS(got, want, n, tol) CHECK(depths_differ((got), (want), (n), (tol)) == 0)

static fathom_depth_frame make_frame(const void *depth, uint32_t format, uint32_t w, uint32_t h,
                                     const fathom_intrinsics *k) {
    fathom_depth_frame f;
    memset(&f, 0x5A, sizeof f); /* init must set every field */
    CHECK_OK(fathom_depth_frame_init(&f, depth, format, w, h, k));
    return f;
}

static fathom_depth_selection sel(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, uint32_t step,
                                  const fathom_mask *mask) {
    fathom_depth_selection s;
    s.x0 = x0;
    s.y0 = y0;
    s.x1 = x1;
    s.y1 = y1;
    s.step = step;
    s.mask = mask;
    return s;
}

/* ---- frame defaults -------------------------------------------------------------------------------- */
static void test_init(void) {
    float depth[6] = {1, 1, 1, 1, 1, 1};
    uint16_t mm[6] = {0};
    fathom_intrinsics k = t_intr(500, 510, 320, 240, 640, 480);
    fathom_depth_frame f;
    check_section("depth_frame_init: defaults");
    f = make_frame(depth, FATHOM_DEPTH_FLOAT32, 3, 2, &k);
    CHECK(f.depth == depth);
    CHECK(f.format == FATHOM_DEPTH_FLOAT32);
    CHECK(f.width == 3 && f.height == 2);
    CHECK(f.row_stride == 0);
    CHECK(f.scale == 1.0f);
    CHECK(f.confidence == NULL);
    CHECK(f.confidence_stride == 0);
    CHECK(f.min_confidence == 0);
    CHECK(t_all_zero(f.reserved, sizeof f.reserved)); /* all 14 bytes, over make_frame's 0x5A fill */
    CHECK(f.min_depth == 0.0f);
    CHECK(isinf(f.max_depth) && f.max_depth > 0);
    CHECK(f.intrinsics.fx == 500 && f.intrinsics.fy == 510 && f.intrinsics.cx == 320 && f.intrinsics.cy == 240 &&
          f.intrinsics.width == 640 && f.intrinsics.height == 480);
    CHECK(t_bool_byte(&f.has_pose) == 0);
    f = make_frame(depth, FATHOM_DEPTH_FLOAT16, 3, 2, &k);
    CHECK(f.scale == 1.0f && f.format == FATHOM_DEPTH_FLOAT16);
    f = make_frame(mm, FATHOM_DEPTH_UINT16, 3, 2, &k);
    CHECK(f.scale == 0.001f && f.format == FATHOM_DEPTH_UINT16);

    check_section("depth_frame_init: NULL arguments");
    EXPECT(fathom_depth_frame_init(NULL, depth, 0, 3, 2, &k), FATHOM_ERR_NULL_POINTER, "fathom_depth_frame_init",
           "frame", P_NULL);
    EXPECT(fathom_depth_frame_init(&f, depth, 0, 3, 2, NULL), FATHOM_ERR_NULL_POINTER, "fathom_depth_frame_init",
           "intrinsics", P_NULL);
}

/* ---- back-projection in the three frames, the check values of depth-and-fish.md ------------------ */
static void test_frames(void) {
    /* 4x3 grid, RGB 8x6 (factor 1/2): fx 6 -> 3, fy 8 -> 4, cx 4 -> 2, cy 3 -> 1.5; d(i, j) = 1 + 0.25 i + 0.5 j.
     * By hand, optical ((i + 0.5 - 2) / 3 d, (j + 0.5 - 1.5) / 4 d, d):
     *   sample (0, 0), point 0, d 1: (-0.5, -0.25, 1);
     *   sample (1, 1), point 5, d 1.75: (-0.5 / 3 * 1.75, 0, 1.75) = (-0.2916667, 0, 1.75);
     *   sample (3, 2), point 11, d 2.75: (1.5 / 3 * 2.75, 1 / 4 * 2.75, 2.75) = (1.375, 0.6875, 2.75). */
    static const int spot[3] = {0, 5, 11};
    static const double optical[3][3] = {{-0.5, -0.25, 1}, {-0.5 / 3 * 1.75, 0, 1.75}, {1.375, 0.6875, 2.75}};
    /* World with the pose R_y(90) (camera (x, y, z) -> (z, y, -x)), t = (0.5, 1.25, -2): camera (X, -Y, -Z) gives
     * world (-Z + 0.5, -Y + 1.25, -X - 2). */
    static const double world[3][3] = {{-0.5, 1.5, -1.5}, {-1.25, 1.25, -2 + 0.5 / 3 * 1.75}, {-2.25, 0.5625, -3.375}};
    float depth[12];
    fathom_intrinsics k = t_intr(6, 8, 4, 3, 8, 6);
    fathom_depth_frame f;
    double ry[9];
    float pts[36];
    uint32_t pix[24];
    size_t n = 0;
    uint32_t x, y;
    int q;
    for (y = 0; y < 3; y++)
        for (x = 0; x < 4; x++) depth[y * 4 + x] = 1.0f + 0.25f * x + 0.5f * y;
    f = make_frame(depth, FATHOM_DEPTH_FLOAT32, 4, 3, &k);

    check_section("backproject: optical, every sample, row by row");
    CHECK_OK(fathom_depth_count(&f, NULL, &n));
    CHECK(n == 12);
    t_fill(pts, sizeof pts);
    n = 0;
    CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 12, &n));
    CHECK(n == 12);
    for (q = 0; q < 12; q++) CHECK(pix[2 * q] == (uint32_t)(q % 4) && pix[2 * q + 1] == (uint32_t)(q / 4));
    for (q = 0; q < 3; q++)
        CHECK_VEC3(v3(pts[3 * spot[q]], pts[3 * spot[q] + 1], pts[3 * spot[q] + 2]), optical[q][0], optical[q][1],
                   optical[q][2], 1e-6);

    check_section("backproject: camera frame (X, -Y, -Z)");
    CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_CAMERA, pts, NULL, NULL, 12, &n));
    for (q = 0; q < 3; q++)
        CHECK_VEC3(v3(pts[3 * spot[q]], pts[3 * spot[q] + 1], pts[3 * spot[q] + 2]), optical[q][0], -optical[q][1],
                   -optical[q][2], 1e-6);

    check_section("backproject: world frame with a pose");
    t_rot_y(T_PI / 2, ry);
    f.camera_to_world = t_pose(ry, 0.5, 1.25, -2.0);
    f.has_pose = 1;
    CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_WORLD, pts, NULL, NULL, 12, &n));
    for (q = 0; q < 3; q++)
        CHECK_VEC3(v3(pts[3 * spot[q]], pts[3 * spot[q] + 1], pts[3 * spot[q] + 2]), world[q][0], world[q][1],
                   world[q][2], 2e-6);
    /* The pose does not change the other frames. */
    CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 12, &n));
    for (q = 0; q < 3; q++)
        CHECK_VEC3(v3(pts[3 * spot[q]], pts[3 * spot[q] + 1], pts[3 * spot[q] + 2]), optical[q][0], optical[q][1],
                   optical[q][2], 1e-6);
    f.has_pose = 0;
    EXPECT(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_WORLD, pts, NULL, NULL, 12, &n), FATHOM_ERR_INVALID_STATE,
           FN_BP, "pose", P_ANY);
    EXPECT(fathom_depth_backproject(&f, NULL, 3, pts, NULL, NULL, 12, &n), FATHOM_ERR_OUT_OF_RANGE, FN_BP,
           "out_frame", P_ANY);

    check_section("backproject: the check values of depth-and-fish.md (K^-1 of a 1920x1440 image)");
    {
        /* K^-1 = [[7.0161547e-4, 0, -0.67513853], [0, 7.0161547e-4, -0.5045314], [0, 0, 1]]: fx = fy = 1 / 7.0161547e-4,
         * cx = 0.67513853 fx, cy = 0.5045314 fx. A full-resolution depth grid: sample (i, j) is at pixel centre
         * (i + 0.5, j + 0.5), so its point is K^-1 [i + 0.5, j + 0.5, 1] d. */
        const double kinv = 7.0161547e-4;
        fathom_intrinsics kk = t_intr((float)(1 / kinv), (float)(1 / kinv), (float)(0.67513853 / kinv),
                                      (float)(0.5045314 / kinv), 1920, 1440);
        float *big = (float *)malloc(sizeof(float) * 1920 * 1440);
        fathom_depth_selection s = sel(960, 700, 964, 702, 1, NULL);
        float p[24];
        size_t m = 0;
        if (!big) abort();
        for (n = 0; n < 1920u * 1440u; n++) big[n] = 1.5f + (float)(n % 7) * 0.125f;
        f = make_frame(big, FATHOM_DEPTH_FLOAT32, 1920, 1440, &kk);
        CHECK_OK(fathom_depth_backproject(&f, &s, FATHOM_FRAME_OPTICAL, p, NULL, NULL, 8, &m));
        CHECK(m == 8);
        /* The first, sample (960, 700): index 1344960, 1344960 % 7 = 1, d = 1.625;
         * (7.0161547e-4 * 960.5 - 0.67513853) d = -0.00123687 d = -0.00200992,
         * (7.0161547e-4 * 700.5 - 0.5045314) d = -0.01304976 d = -0.02120587.
         * The last, sample (963, 701): index 1346883 % 7 = 6, d = 2.25;
         * (7.0161547e-4 * 963.5 - 0.67513853) d = 0.00086798 d = 0.00195294,
         * (7.0161547e-4 * 701.5 - 0.5045314) d = -0.01234815 d = -0.02778333. */
        CHECK_VEC3(v3(p[0], p[1], p[2]), -0.00200992, -0.02120587, 1.625, 2e-5);
        CHECK_VEC3(v3(p[21], p[22], p[23]), 0.00195294, -0.02778333, 2.25, 2e-5);
        /* The same RGB intrinsics on a 256x192 grid (the LiDAR map): sample (i, j)'s RGB pixel centre is
         * ((i + 0.5) * 7.5, (j + 0.5) * 7.5). Sample (100, 50): index 12900 % 5 = 0, d 0.75, RGB (753.75, 378.75):
         * (7.0161547e-4 * 753.75 - 0.67513853) 0.75 = -0.10972190, (7.0161547e-4 * 378.75 - 0.5045314) 0.75
         * = -0.17909591; sample (101, 50): d 1, RGB (761.25, 378.75): -0.14103375, -0.23879454. */
        {
            float small[256 * 192];
            fathom_depth_selection s2 = sel(100, 50, 102, 51, 1, NULL);
            for (n = 0; n < 256u * 192u; n++) small[n] = 0.75f + (float)(n % 5) * 0.25f;
            f = make_frame(small, FATHOM_DEPTH_FLOAT32, 256, 192, &kk);
            CHECK_OK(fathom_depth_backproject(&f, &s2, FATHOM_FRAME_OPTICAL, p, NULL, NULL, 8, &m));
            CHECK(m == 2);
            CHECK_VEC3(v3(p[0], p[1], p[2]), -0.10972190, -0.17909591, 0.75, 1e-5);
            CHECK_VEC3(v3(p[3], p[4], p[5]), -0.14103375, -0.23879454, 1, 1e-5);
        }
        free(big);
    }
}

/* ---- storage formats, strides, validity --------------------------------------------------------- */
static void test_formats(void) {
    fathom_intrinsics k = t_intr(4, 4, 2, 1, 4, 2); /* the grid's own size: fx' = fx */
    fathom_depth_frame f;
    float pts[24];
    uint32_t pix[16];
    double want[24];
    size_t n = 0;

    check_section("float16: halves, NaN / Inf / 0 / negative skipped, scale");
    {
        /* 1.0, +Inf, 2.0, NaN / -1.0, 1.5, +0, 0.5; also -0 would be 0x8000. */
        uint16_t h[8] = {0x3C00, 0x7C00, 0x4000, 0x7E00, 0xBC00, 0x3E00, 0x8000, 0x3800};
        f = make_frame(h, FATHOM_DEPTH_FLOAT16, 4, 2, &k);
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 4);
        t_fill(pix, sizeof pix);
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 8, &n));
        CHECK(n == 4);
        want[0] = 1.0, want[1] = 2.0, want[2] = 1.5, want[3] = 0.5;
        CHECK_DEPTHS(pts, want, 4, 1e-6);
        /* Sample (0, 0) at 1 m, fx' = fy' = 4, cx' 2, cy' 1: ((0.5 - 2) / 4, (0.5 - 1) / 4, 1). */
        CHECK_VEC3(v3(pts[0], pts[1], pts[2]), -0.375, -0.125, 1, 1e-6);
        CHECK(pix[0] == 0 && pix[1] == 0 && pix[2] == 2 && pix[3] == 0 && pix[4] == 1 && pix[5] == 1 && pix[6] == 3 &&
              pix[7] == 1);
        CHECK(t_untouched(pix + 8, sizeof(uint32_t) * 8));
        /* scale 0.5: stored 2.0 means 1 m. */
        f.scale = 0.5f;
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 8, &n));
        CHECK(n == 4);
        want[0] = 0.5, want[1] = 1.0, want[2] = 0.75, want[3] = 0.25;
        CHECK_DEPTHS(pts, want, 4, 1e-6);
        CHECK_VEC3(v3(pts[0], pts[1], pts[2]), -0.1875, -0.0625, 0.5, 1e-6);
        /* A subnormal half (0x0001 = 2^-24) is a positive depth. */
        h[0] = 0x0001;
        f.scale = 1;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 4);
    }

    check_section("uint16: millimetres by default, 0 invalid, other scales");
    {
        uint16_t mm[8] = {1500, 0, 2000, 65535, 1, 0, 250, 1000};
        f = make_frame(mm, FATHOM_DEPTH_UINT16, 4, 2, &k);
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 6);
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 8, &n));
        CHECK(n == 6);
        want[0] = 1.5, want[1] = 2.0, want[2] = 65.535, want[3] = 0.001, want[4] = 0.25, want[5] = 1.0;
        CHECK_DEPTHS(pts, want, 6, 2e-5);
        CHECK(pix[0] == 0 && pix[1] == 0 && pix[2] == 2 && pix[3] == 0 && pix[4] == 3 && pix[5] == 0 && pix[6] == 0 &&
              pix[7] == 1 && pix[8] == 2 && pix[9] == 1 && pix[10] == 3 && pix[11] == 1);
        /* Sample (3, 0) at 65.535 m: ((3.5 - 2) / 4, (0.5 - 1) / 4, 1) * 65.535. */
        CHECK_VEC3(v3(pts[6], pts[7], pts[8]), 0.375 * 65.535, -0.125 * 65.535, 65.535, 2e-5);
        /* TUM: 5000 units per meter. */
        f.scale = 1.0f / 5000;
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 8, &n));
        CHECK(n == 6);
        CHECK_NEAR(pts[2], 0.3, 1e-6);
        CHECK_NEAR(pts[17], 0.2, 1e-6);
    }

    check_section("row strides (float32, uint16, float16) with padding that must not be read");
    {
        /* Rows of 3 samples, 5 floats apart; the padding holds values that would be valid depths. */
        float padded[10] = {1, 2, 3, 77, 88, 4, 0, 6, 99, 11};
        uint16_t pm[8] = {1000, 2000, 3000, 4444, 4000, 0, 6000, 5555};
        uint16_t ph[8] = {0x3C00, 0x4000, 0x4200, 0x4400, 0x4400, 0x7C00, 0x3800, 0x4400};
        fathom_intrinsics k3 = t_intr(3, 2, 1.5, 1, 3, 2);
        float first[15];
        /* Valid samples (0, 0) 1, (1, 0) 2, (2, 0) 3, (0, 1) 4, (2, 1) 6: the padding (77, 88, 99) never read. */
        const double dv[5] = {1, 2, 3, 4, 6};
        f = make_frame(padded, FATHOM_DEPTH_FLOAT32, 3, 2, &k3);
        f.row_stride = 20;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 5);
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 8, &n));
        CHECK(n == 5);
        CHECK_DEPTHS(pts, dv, 5, 1e-6);
        /* Sample (2, 1) at 6 m, fx' 3, fy' 2, cx' 1.5, cy' 1: ((2.5 - 1.5) / 3, (1.5 - 1) / 2, 1) * 6 = (2, 1.5, 6). */
        CHECK_VEC3(v3(pts[12], pts[13], pts[14]), 2, 1.5, 6, 1e-6);
        memcpy(first, pts, sizeof first);
        /* The same depths in millimetres, rows 4 samples (8 bytes) apart: the same points. */
        f = make_frame(pm, FATHOM_DEPTH_UINT16, 3, 2, &k3);
        f.row_stride = 8;
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 8, &n));
        CHECK(n == 5);
        {
            int q, bad = 0;
            for (q = 0; q < 15; q++) bad += !(fabs(pts[q] - first[q]) <= 1e-6);
            CHECK(bad == 0);
        }
        /* float16 rows 4 halves apart: 1, 2, 3 / 4, +Inf, 0.5; padding 4.0. */
        f = make_frame(ph, FATHOM_DEPTH_FLOAT16, 3, 2, &k3);
        f.row_stride = 8;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 5);
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 8, &n));
        CHECK(n == 5);
        CHECK_NEAR(pts[2], 1, 0);
        CHECK_NEAR(pts[11], 4, 0);
        CHECK_NEAR(pts[14], 0.5, 0);
        /* A stride shorter than a row, or not a multiple of the sample size. */
        f.row_stride = 4;
        EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "row_stride", P_ANY);
        f.row_stride = 9;
        EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, NULL, P_ANY);
    }

    check_section("confidence threshold (with a confidence stride) and the depth range");
    {
        float d[8] = {1, 1.5f, 2, 2.5f, 0.5f, 1, 3, 2};
        uint8_t conf[10] = {0, 1, 2, 2, 9, 2, 1, 0, 2, 9}; /* rows of 4, 5 bytes apart */
        f = make_frame(d, FATHOM_DEPTH_FLOAT32, 4, 2, &k);
        f.confidence = conf;
        f.confidence_stride = 5;
        f.min_confidence = 0;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 8);
        f.min_confidence = 1;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 6);
        f.min_confidence = 2;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 4); /* (2,0) (3,0) (0,1) (3,1) */
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 8, &n));
        CHECK(n == 4);
        CHECK(pix[0] == 2 && pix[1] == 0 && pix[2] == 3 && pix[3] == 0 && pix[4] == 0 && pix[5] == 1 && pix[6] == 3 &&
              pix[7] == 1);
        want[0] = 2, want[1] = 2.5, want[2] = 0.5, want[3] = 2;
        CHECK_DEPTHS(pts, want, 4, 1e-6);
        f.min_confidence = 3;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 0);
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 8, &n));
        CHECK(n == 0);
        /* Range [1, 2], inclusive at both ends: 1, 1.5, 2, 1, 2 (no confidence). */
        f.confidence = NULL;
        f.min_confidence = 0;
        f.min_depth = 1;
        f.max_depth = 2;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 5);
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 8, &n));
        CHECK(n == 5);
        CHECK(pix[0] == 0 && pix[2] == 1 && pix[4] == 2 && pix[6] == 1 && pix[7] == 1 && pix[8] == 3 && pix[9] == 1);
        f.min_depth = 1.2f;
        f.max_depth = 1.2f;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 0);
        f.min_depth = 0;
        f.max_depth = INFINITY;
        /* Depths that overflow float32 after scaling are invalid, not infinite points. */
        d[0] = 3e38f;
        f.scale = 10;
        CHECK_OK(fathom_depth_count(&f, NULL, &n));
        CHECK(n == 7);
    }
}

/* ---- regions, steps, masks, pixels --------------------------------------------------------------- */
static void test_selection(void) {
    float d[24];
    fathom_intrinsics k = t_intr(12, 8, 6, 4, 12, 8); /* 6x4 grid of a 12x8 image: fx' 6, fy' 4, cx' 3, cy' 2 */
    fathom_depth_frame f;
    fathom_depth_selection s;
    fathom_mask m;
    float pts[72];
    uint32_t pix[48];
    double want[4];
    size_t n = 0, q;
    uint32_t i, j;
    /* A 4x3 mask: 4 columns over 6 samples, 3 rows over 4; its row stride is 6 (2 padding bytes, set). */
    uint8_t mask[18] = {1, 0, 1, 1, 7, 7,
                        0, 1, 0, 1, 7, 7,
                        1, 1, 0, 0, 7, 7};
    for (j = 0; j < 4; j++)
        for (i = 0; i < 6; i++) d[j * 6 + i] = 1.0f + 0.125f * i + 0.0625f * j;
    d[1 * 6 + 3] = NAN; /* (3, 1) invalid */
    f = make_frame(d, FATHOM_DEPTH_FLOAT32, 6, 4, &k);

    check_section("selection: region and step");
    s = sel(1, 0, 5, 4, 2, NULL); /* columns 1, 3; rows 0, 2 */
    CHECK_OK(fathom_depth_count(&f, &s, &n));
    CHECK(n == 4);
    t_fill(pix, sizeof pix);
    CHECK_OK(fathom_depth_backproject(&f, &s, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 72, &n));
    CHECK(n == 4);
    CHECK(pix[0] == 1 && pix[1] == 0 && pix[2] == 3 && pix[3] == 0 && pix[4] == 1 && pix[5] == 2 && pix[6] == 3 &&
          pix[7] == 2);
    want[0] = d[1], want[1] = d[3], want[2] = d[13], want[3] = d[15];
    CHECK_DEPTHS(pts, want, 4, 1e-6);
    s = sel(2, 1, 6, 3, 1, NULL); /* columns 2..5, rows 1..2; (3, 1) invalid */
    CHECK_OK(fathom_depth_count(&f, &s, &n));
    CHECK(n == 7);
    s = sel(0, 0, 0, 0, 3, NULL); /* the whole grid, every third: columns 0, 3; rows 0, 3 */
    CHECK_OK(fathom_depth_backproject(&f, &s, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 72, &n));
    CHECK(n == 4);
    CHECK(pix[0] == 0 && pix[1] == 0 && pix[2] == 3 && pix[3] == 0 && pix[4] == 0 && pix[5] == 3 && pix[6] == 3 &&
          pix[7] == 3);

    check_section("selection: a mask of another resolution (floor((i + 0.5) * mw / w))");
    m.data = mask;
    m.width = 4;
    m.height = 3;
    m.row_stride = 6;
    s = sel(0, 0, 0, 0, 1, &m);
    /* By hand: sample columns map to mask columns 0,1,1,2,3,3 and rows to 0,1,1,2. Row 0 (mask row 0 = 1 0 1 1):
     * samples 0, 3, 4, 5; rows 1 and 2 (mask row 1 = 0 1 0 1): samples 1, 2, 4, 5 each (the NaN at (3, 1) is under
     * mask column 2 = 0 anyway); row 3 (mask row 2 = 1 1 0 0): samples 0, 1, 2. Total 4 + 4 + 4 + 3 = 15. */
    CHECK_OK(fathom_depth_count(&f, &s, &n));
    CHECK(n == 15);
    CHECK_OK(fathom_depth_backproject(&f, &s, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 72, &n));
    CHECK(n == 15);
    CHECK(pix[0] == 0 && pix[1] == 0 && pix[2] == 3 && pix[3] == 0 && pix[4] == 4 && pix[5] == 0 && pix[6] == 5 &&
          pix[7] == 0 && pix[8] == 1 && pix[9] == 1 && pix[10] == 2 && pix[11] == 1 && pix[28] == 2 && pix[29] == 3);
    /* Each point's depth is its pixel's. */
    for (q = 0; q < n; q++) CHECK_NEAR(pts[3 * q + 2], d[pix[2 * q + 1] * 6 + pix[2 * q]], 0);
    /* Region + step + mask together: columns 1, 3, 5; rows 1, 3. Row 1: 1 (in), 3 (mask 0), 5 (in);
     * row 3: 1 (in), 3 (mask column 2: 0), 5 (0). */
    s = sel(1, 1, 6, 4, 2, &m);
    CHECK_OK(fathom_depth_backproject(&f, &s, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 72, &n));
    CHECK(n == 3);
    CHECK(pix[0] == 1 && pix[1] == 1 && pix[2] == 5 && pix[3] == 1 && pix[4] == 1 && pix[5] == 3);
    /* A larger mask (12x8, the RGB size): sample i covers mask columns 2i, 2i + 1 and reads floor(2i + 1) = 2i + 1. */
    {
        uint8_t big[96];
        memset(big, 0, sizeof big);
        for (j = 0; j < 8; j++) big[j * 12 + 3] = 1; /* column 3 = sample column 1 */
        big[5 * 12 + 5] = 1;                          /* (5, 5) = sample (2, 2) */
        big[4 * 12 + 4] = 1;                          /* (4, 4) is under no sample centre */
        m.data = big;
        m.width = 12;
        m.height = 8;
        m.row_stride = 0;
        s = sel(0, 0, 0, 0, 1, &m);
        CHECK_OK(fathom_depth_backproject(&f, &s, FATHOM_FRAME_OPTICAL, pts, pix, NULL, 72, &n));
        CHECK(n == 5);
        CHECK(pix[0] == 1 && pix[1] == 0 && pix[2] == 1 && pix[3] == 1 && pix[4] == 1 && pix[5] == 2 && pix[6] == 2 &&
              pix[7] == 2 && pix[8] == 1 && pix[9] == 3);
        /* An empty mask selects nothing (not an error for back-projection). */
        memset(big, 0, sizeof big);
        CHECK_OK(fathom_depth_count(&f, &s, &n));
        CHECK(n == 0);
    }

    check_section("selection: bad input");
    s = sel(0, 0, 7, 4, 1, NULL);
    EXPECT(fathom_depth_count(&f, &s, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, NULL, P_ANY);
    s = sel(3, 0, 3, 4, 1, NULL);
    EXPECT(fathom_depth_count(&f, &s, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, NULL, P_ANY);
    s = sel(0, 0, 6, 5, 1, NULL);
    EXPECT(fathom_depth_count(&f, &s, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, NULL, P_ANY);
    s = sel(0, 0, 0, 0, 0, NULL);
    EXPECT(fathom_depth_count(&f, &s, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "step", P_ANY);
    m.data = NULL;
    m.width = 4;
    m.height = 3;
    s = sel(0, 0, 0, 0, 1, &m);
    EXPECT(fathom_depth_count(&f, &s, &n), FATHOM_ERR_NULL_POINTER, FN_COUNT, "mask", P_NULL);
    m.data = mask;
    m.width = 0;
    EXPECT(fathom_depth_count(&f, &s, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "mask", P_ANY);
    m.width = 4;
    m.row_stride = 3;
    EXPECT(fathom_depth_count(&f, &s, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "row_stride", P_ANY);
}

/* ---- normals ------------------------------------------------------------------------------------- */
static void test_normals(void) {
    /* The plane n . p = c (optical frame) with n = (0.3, -0.2, -1) (facing the camera: n . p < 0 for its points);
     * the sample ray r = ((i + 0.5 - cx') / fx', (j + 0.5 - cy') / fy', 1) meets it at depth d = c / (n . r). */
    enum { W = 7, H = 5 };
    float d[W * H], pts[3 * W * H], nrm[3 * W * H];
    fathom_intrinsics k = t_intr(8, 8, 3.5f, 2.5f, W, H);
    fathom_depth_frame f;
    double n[3] = {0.3, -0.2, -1}, c = -2.0, len = sqrt(t_dot(n, n));
    size_t cnt = 0, q;
    uint32_t i, j;
    int bad = 0;
    for (j = 0; j < H; j++)
        for (i = 0; i < W; i++) {
            double r[3] = {(i + 0.5 - 3.5) / 8, (j + 0.5 - 2.5) / 8, 1};
            d[j * W + i] = (float)(c / t_dot(n, r));
        }
    d[2 * W + 3] = 0; /* a hole: its neighbours use one-sided differences */
    f = make_frame(d, FATHOM_DEPTH_FLOAT32, W, H, &k);
    check_section("normals: a tilted plane facing the camera (optical and camera frames)");
    t_fill(nrm, sizeof nrm);
    CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, nrm, W * H, &cnt));
    CHECK(cnt == W * H - 1);
    for (q = 0; q < cnt; q++) {
        double g[3] = {nrm[3 * q], nrm[3 * q + 1], nrm[3 * q + 2]};
        if (fabs(g[0] - n[0] / len) > 2e-3 || fabs(g[1] - n[1] / len) > 2e-3 || fabs(g[2] - n[2] / len) > 2e-3) {
            if (bad < 3) printf("    normal %zu: (%g, %g, %g)\n", q, g[0], g[1], g[2]);
            bad++;
        }
    }
    CHECK(bad == 0);
    CHECK(t_untouched(nrm + 3 * cnt, 3 * sizeof(float)));
    CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_CAMERA, pts, NULL, nrm, W * H, &cnt));
    CHECK_NEAR(nrm[0], n[0] / len, 2e-3);
    CHECK_NEAR(nrm[1], -n[1] / len, 2e-3);
    CHECK_NEAR(nrm[2], -n[2] / len, 2e-3);
    /* Facing the camera in the camera frame: the camera sits at the origin, so dot(normal, point) < 0. */
    CHECK(nrm[0] * pts[0] + nrm[1] * pts[1] + nrm[2] * pts[2] < 0);
    /* World frame: the camera-frame normal rotated by the pose (not translated). R_z(90) takes camera (x, y, z)
     * to world (-y, x, z). */
    {
        double r[9], cn[3] = {n[0] / len, -n[1] / len, -n[2] / len}, wn[3];
        float wp[3 * W * H];
        t_rot_z(T_PI / 2, r);
        f.camera_to_world = t_pose(r, 10, -3, 4);
        f.has_pose = 1;
        wn[0] = -cn[1];
        wn[1] = cn[0];
        wn[2] = cn[2];
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_WORLD, wp, NULL, nrm, W * H, &cnt));
        CHECK(cnt == W * H - 1);
        for (q = 0, bad = 0; q < cnt; q++)
            if (fabs(nrm[3 * q] - wn[0]) > 2e-3 || fabs(nrm[3 * q + 1] - wn[1]) > 2e-3 || fabs(nrm[3 * q + 2] - wn[2]) > 2e-3)
                bad++;
        CHECK(bad == 0);
        /* facing the camera: dot(normal, point - camera position) < 0 */
        CHECK(nrm[0] * (wp[0] - 10) + nrm[1] * (wp[1] + 3) + nrm[2] * (wp[2] - 4) < 0);
        f.has_pose = 0;
    }

    check_section("normals: zero where an axis has no valid neighbour");
    {
        /* 3x3 with only the middle row valid: along the column axis neither neighbour is valid. */
        float e[9] = {0, 0, 0, 1, 1, 1, NAN, 0, -1};
        fathom_intrinsics k3 = t_intr(3, 3, 1.5f, 1.5f, 3, 3);
        f = make_frame(e, FATHOM_DEPTH_FLOAT32, 3, 3, &k3);
        t_fill(nrm, sizeof nrm);
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, nrm, 9, &cnt));
        CHECK(cnt == 3);
        for (q = 0; q < 9; q++) CHECK(nrm[q] == 0.0f);
        /* A fronto-parallel 2x2 plane at 1 m: the normal is (0, 0, -1) (towards the camera). */
        {
            float p2[4] = {1, 1, 1, 1};
            fathom_intrinsics k2 = t_intr(2, 2, 1, 1, 2, 2);
            f = make_frame(p2, FATHOM_DEPTH_FLOAT32, 2, 2, &k2);
            CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, nrm, 4, &cnt));
            for (q = 0; q < 4; q++) {
                CHECK_NEAR(nrm[3 * q], 0, 1e-6);
                CHECK_NEAR(nrm[3 * q + 1], 0, 1e-6);
                CHECK_NEAR(nrm[3 * q + 2], -1, 1e-6);
            }
        }
    }
}

/* ---- short buffers ------------------------------------------------------------------------------- */
static void test_capacity(void) {
    float d[12] = {1, 2, 0, 3, 4, 5, 6, NAN, 7, 8, 9, 10}; /* 10 valid, rows of 4 */
    fathom_intrinsics k = t_intr(4, 4, 2, 1.5f, 4, 3);
    fathom_depth_frame f = make_frame(d, FATHOM_DEPTH_FLOAT32, 4, 3, &k);
    float full[30], part[30], nfull[30], npart[30];
    uint32_t pix[20];
    size_t n = 0, cap;
    check_section("backproject: BUFFER_TOO_SMALL writes the first `capacity` points and reports the total");
    CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_CAMERA, full, NULL, nfull, 10, &n));
    CHECK(n == 10);
    for (cap = 0; cap < 10; cap++) {
        t_fill(part, sizeof part);
        n = 0;
        CHECK_STATUS(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_CAMERA, part, NULL, NULL, cap, &n),
                     FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(n == 10);
        CHECK(memcmp(part, full, cap * 3 * sizeof(float)) == 0);
        CHECK(t_untouched(part + 3 * cap, (30 - 3 * cap) * sizeof(float)));
    }
    CHECK_ERROR_MENTIONS("capacity");
    /* With pixels and normals (the general path). */
    t_fill(part, sizeof part);
    t_fill(npart, sizeof npart);
    t_fill(pix, sizeof pix);
    CHECK_STATUS(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_CAMERA, part, pix, npart, 6, &n),
                 FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(n == 10);
    CHECK(memcmp(part, full, 18 * sizeof(float)) == 0);
    CHECK(memcmp(npart, nfull, 18 * sizeof(float)) == 0);
    CHECK(t_untouched(part + 18, 12 * sizeof(float)));
    CHECK(t_untouched(npart + 18, 12 * sizeof(float)));
    CHECK(t_untouched(pix + 12, 8 * sizeof(uint32_t)));
    CHECK(pix[10] == 2 && pix[11] == 1); /* the 6th valid sample is (2, 1) */
    /* A larger capacity than needed: exactly the valid points, nothing after. */
    t_fill(part, sizeof part);
    CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_CAMERA, part, NULL, NULL, 10, &n));
    CHECK(memcmp(part, full, sizeof full) == 0);
    {
        float more[36];
        t_fill(more, sizeof more);
        CHECK_OK(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_CAMERA, more, NULL, NULL, 12, &n));
        CHECK(n == 10);
        CHECK(t_untouched(more + 30, 6 * sizeof(float)));
    }
}

/* ---- sampling and fathom_depth_point -------------------------------------------------------------- */
/* The sampling enum, the window argument, the output and the frames through the ABI, a value or two each worked out
 * by hand; the sampling rules themselves (floor cells, sample centres at i + 0.5, clamping, dropped weights, the
 * lower middle of a clipped window, validity) and the point formula are checked once in
 * Tests/FathomCoreTests/DepthSamplingTests.swift. */
static void test_sampling(void) {
    /* 4x3 grid of an 8x6 RGB image (RGB pixel (u, v) -> grid (u / 2, v / 2)); d(i, j) = 1 + 0.25 i + 0.5 j. */
    float d[12];
    fathom_intrinsics k = t_intr(6, 6, 4, 3, 8, 6);
    fathom_depth_frame f;
    float out = 0;
    fathom_vec3 p;
    uint32_t i, j;
    for (j = 0; j < 3; j++)
        for (i = 0; i < 4; i++) d[j * 4 + i] = 1.0f + 0.25f * i + 0.5f * j;
    f = make_frame(d, FATHOM_DEPTH_FLOAT32, 4, 3, &k);

    check_section("sample: each method by its number, the window ignored but by the median");
    /* RGB (4, 2) is grid (2, 1): nearest is sample (2, 1) = 2.0; bilinear between the centres around it, at
     * (1.5, 0.5): 1 + 0.25 * 1.5 + 0.5 * 0.5 = 1.625; the median of its 3x3 window (columns 1..3, rows 0..2:
     * 1.25 1.5 1.75 / 1.75 2 2.25 / 2.25 2.5 2.75) is 2.0, of the whole grid (window 5) the lower middle of 12: 1.75. */
    CHECK_OK(fathom_depth_sample(&f, 4, 2, FATHOM_SAMPLE_NEAREST, 0, &out));
    CHECK_NEAR(out, 2.0, 0);
    CHECK_OK(fathom_depth_sample(&f, 4, 2, FATHOM_SAMPLE_BILINEAR, 0, &out));
    CHECK_NEAR(out, 1.625, 1e-6);
    CHECK_OK(fathom_depth_sample(&f, 4, 2, FATHOM_SAMPLE_MEDIAN, 3, &out));
    CHECK_NEAR(out, 2.0, 0);
    CHECK_OK(fathom_depth_sample(&f, 4, 2, FATHOM_SAMPLE_MEDIAN, 5, &out));
    CHECK_NEAR(out, 1.75, 0);
    CHECK_OK(fathom_depth_sample(&f, 4, 2, FATHOM_SAMPLE_MEDIAN, 0xFFFFFFFFu, &out)); /* a huge odd window: the grid */
    CHECK_NEAR(out, 1.75, 0);
    CHECK_OK(fathom_depth_sample(&f, 4, 2, FATHOM_SAMPLE_NEAREST, 4, &out)); /* an even window, ignored */
    CHECK_NEAR(out, 2.0, 0);
    EXPECT(fathom_depth_sample(&f, 3.0f, 3.0f, FATHOM_SAMPLE_MEDIAN, 2, &out), FATHOM_ERR_OUT_OF_RANGE, FN_SAMPLE,
           "window", P_ANY);
    EXPECT(fathom_depth_sample(&f, 3.0f, 3.0f, FATHOM_SAMPLE_MEDIAN, 0, &out), FATHOM_ERR_OUT_OF_RANGE, FN_SAMPLE,
           "window", P_ANY);

    check_section("sample: no data, outside the RGB image, NaN, bad method, NULL out (out untouched)");
    d[1 * 4 + 2] = 0; /* sample (2, 1) invalid */
    out = 123;
    EXPECT(fathom_depth_sample(&f, 5.0f, 3.0f, FATHOM_SAMPLE_NEAREST, 0, &out), FATHOM_ERR_NO_DATA, FN_SAMPLE, NULL,
           "depth");
    EXPECT(fathom_depth_sample(&f, 5.0f, 3.0f, FATHOM_SAMPLE_BILINEAR, 0, &out), FATHOM_ERR_NO_DATA, FN_SAMPLE, NULL,
           P_ANY);
    d[1 * 4 + 2] = 2.0f;
    EXPECT(fathom_depth_sample(&f, -0.01f, 1, FATHOM_SAMPLE_NEAREST, 0, &out), FATHOM_ERR_OUT_OF_RANGE, FN_SAMPLE, NULL,
           "outside");
    EXPECT(fathom_depth_sample(&f, 8.0f, 1, FATHOM_SAMPLE_NEAREST, 0, &out), FATHOM_ERR_OUT_OF_RANGE, FN_SAMPLE, NULL,
           "outside");
    EXPECT(fathom_depth_sample(&f, 1, 6.0f, FATHOM_SAMPLE_BILINEAR, 0, &out), FATHOM_ERR_OUT_OF_RANGE, FN_SAMPLE, NULL,
           "outside");
    EXPECT(fathom_depth_sample(&f, 1, -1, FATHOM_SAMPLE_MEDIAN, 3, &out), FATHOM_ERR_OUT_OF_RANGE, FN_SAMPLE, NULL,
           "outside");
    EXPECT(fathom_depth_sample(&f, NAN, 1, FATHOM_SAMPLE_NEAREST, 0, &out), FATHOM_ERR_NOT_FINITE, FN_SAMPLE, "u",
           P_FINITE);
    EXPECT(fathom_depth_sample(&f, 1, INFINITY, FATHOM_SAMPLE_NEAREST, 0, &out), FATHOM_ERR_NOT_FINITE, FN_SAMPLE, "v",
           P_FINITE);
    EXPECT(fathom_depth_sample(&f, 1, 1, 3, 0, &out), FATHOM_ERR_OUT_OF_RANGE, FN_SAMPLE, "sampling", P_ANY);
    EXPECT(fathom_depth_sample(&f, 1, 1, FATHOM_SAMPLE_NEAREST, 0, NULL), FATHOM_ERR_NULL_POINTER, FN_SAMPLE,
           "out_depth", P_NULL);
    CHECK(out == 123);

    check_section("depth_point: RGB intrinsics, three frames, the method and window passed on");
    /* (u, v) = (5, 2): nearest sample (2, 1), d = 2.0; optical ((5 - 4) / 6 * 2, (2 - 3) / 6 * 2, 2). */
    CHECK_OK(fathom_depth_point(&f, 5, 2, FATHOM_SAMPLE_NEAREST, 0, FATHOM_FRAME_OPTICAL, &p));
    CHECK_VEC3(p, 1.0 / 3, -1.0 / 3, 2, 1e-6);
    CHECK_OK(fathom_depth_point(&f, 5, 2, FATHOM_SAMPLE_NEAREST, 0, FATHOM_FRAME_CAMERA, &p));
    CHECK_VEC3(p, 1.0 / 3, 1.0 / 3, -2, 1e-6);
    /* Bilinear at (4, 2): 1.625 -> ((0) / 6, (-1) / 6 * 1.625, 1.625). */
    CHECK_OK(fathom_depth_point(&f, 4, 2, FATHOM_SAMPLE_BILINEAR, 0, FATHOM_FRAME_OPTICAL, &p));
    CHECK_VEC3(p, 0, -1.625 / 6, 1.625, 1e-6);
    /* The median of the whole grid (window 5) at (4, 2): 1.75 -> (0, -1.75 / 6, 1.75). */
    CHECK_OK(fathom_depth_point(&f, 4, 2, FATHOM_SAMPLE_MEDIAN, 5, FATHOM_FRAME_OPTICAL, &p));
    CHECK_VEC3(p, 0, -1.75 / 6, 1.75, 1e-6);
    EXPECT(fathom_depth_point(&f, 4, 2, FATHOM_SAMPLE_MEDIAN, 4, FATHOM_FRAME_OPTICAL, &p), FATHOM_ERR_OUT_OF_RANGE,
           FN_POINT, "window", P_ANY);
    {
        /* World with R_z(90) (camera (x, y, z) -> world (-y, x, z)) and t = (1, 2, 3): camera (1/3, 1/3, -2) is
         * world (-1/3 + 1, 1/3 + 2, -2 + 3). */
        double r[9];
        t_rot_z(T_PI / 2, r);
        f.camera_to_world = t_pose(r, 1, 2, 3);
        f.has_pose = 1;
        CHECK_OK(fathom_depth_point(&f, 5, 2, FATHOM_SAMPLE_NEAREST, 0, FATHOM_FRAME_WORLD, &p));
        CHECK_VEC3(p, 2.0 / 3, 7.0 / 3, 1, 1e-5);
        /* A pose that is not rigid. */
        f.camera_to_world.m[0] = 2;
        EXPECT(fathom_depth_point(&f, 5, 2, FATHOM_SAMPLE_NEAREST, 0, FATHOM_FRAME_WORLD, &p), FATHOM_ERR_NOT_RIGID,
               FN_POINT, "camera_to_world", P_ANY);
        f.has_pose = 0;
    }
    t_fill(&p, sizeof p);
    EXPECT(fathom_depth_point(&f, 5, 2, FATHOM_SAMPLE_NEAREST, 0, FATHOM_FRAME_WORLD, &p), FATHOM_ERR_INVALID_STATE,
           FN_POINT, "pose", P_ANY);
    EXPECT(fathom_depth_point(&f, 5, 2, FATHOM_SAMPLE_NEAREST, 0, 7, &p), FATHOM_ERR_OUT_OF_RANGE, FN_POINT,
           "out_frame", P_ANY);
    EXPECT(fathom_depth_point(&f, 8.5f, 2, FATHOM_SAMPLE_NEAREST, 0, FATHOM_FRAME_OPTICAL, &p), FATHOM_ERR_OUT_OF_RANGE,
           FN_POINT, NULL, "outside");
    EXPECT(fathom_depth_point(&f, 5, 2, 3, 0, FATHOM_FRAME_OPTICAL, &p), FATHOM_ERR_OUT_OF_RANGE, FN_POINT, "sampling",
           P_ANY);
    d[1 * 4 + 2] = INFINITY;
    EXPECT(fathom_depth_point(&f, 5, 2, FATHOM_SAMPLE_NEAREST, 0, FATHOM_FRAME_OPTICAL, &p), FATHOM_ERR_NO_DATA,
           FN_POINT, NULL, P_ANY);
    CHECK(t_untouched(&p, sizeof p));
    EXPECT(fathom_depth_point(&f, 5, 2, FATHOM_SAMPLE_NEAREST, 0, FATHOM_FRAME_OPTICAL, NULL), FATHOM_ERR_NULL_POINTER,
           FN_POINT, "out", P_NULL);
}

/* ---- bad frames ---------------------------------------------------------------------------------- */
static void test_bad_frames(void) {
    float d[6] = {1, 1, 1, 1, 1, 1};
    float pts[18];
    fathom_intrinsics k = t_intr(3, 2, 1.5f, 1, 3, 2);
    fathom_depth_frame f, good = make_frame(d, FATHOM_DEPTH_FLOAT32, 3, 2, &k);
    size_t n = 77;
    check_section("bad frames: each gives its status and names the field");
    EXPECT(fathom_depth_count(NULL, NULL, &n), FATHOM_ERR_NULL_POINTER, FN_COUNT, "frame", P_NULL);
    EXPECT(fathom_depth_count(&good, NULL, NULL), FATHOM_ERR_NULL_POINTER, FN_COUNT, "out_count", P_NULL);
    f = good;
    f.depth = NULL;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_NULL_POINTER, FN_COUNT, "depth", P_NULL);
    f = good;
    f.format = 3;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "format", P_ANY);
    f = good;
    f.width = 0;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, NULL, P_ANY);
    f = good;
    f.height = 0;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, NULL, P_ANY);
    f = good;
    f.scale = 0;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "scale", P_ANY);
    f.scale = -1;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "scale", P_ANY);
    f.scale = NAN;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_NOT_FINITE, FN_COUNT, "scale", P_FINITE);
    f = good;
    f.min_depth = -0.5f;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "min_depth", P_ANY);
    f.min_depth = NAN;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_NOT_FINITE, FN_COUNT, "min_depth", P_FINITE);
    f = good;
    f.min_depth = 2;
    f.max_depth = 1;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "max_depth", P_ANY);
    f.max_depth = NAN;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_NOT_FINITE, FN_COUNT, "max_depth", P_FINITE);
    f = good;
    f.intrinsics.fx = 0;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "fx", P_ANY);
    f = good;
    f.intrinsics.cy = NAN;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_NOT_FINITE, FN_COUNT, "cy", P_FINITE);
    f = good;
    f.intrinsics.width = 0;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "width", P_ANY);
    f = good;
    t_set_bool_byte(&f.has_pose, 2);
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "has_pose", P_ANY);
    f = good;
    f.confidence = (const uint8_t *)d;
    f.confidence_stride = 2;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, "confidence_stride", P_ANY);
    f = good;
    f.row_stride = (size_t)-1; /* huge */
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OVERFLOW, FN_COUNT, "row_stride", P_ANY);
    f = good;
    f.depth = (const char *)d + 2; /* misaligned float32 */
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, FN_COUNT, NULL, "align");
    f = good;
    f.width = 0x40000000u;
    f.height = 0x40000000u;
    f.row_stride = 0;
    EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OVERFLOW, FN_COUNT, NULL, P_ANY); /* 2^32 B rows x 2^30 */
    CHECK(n == 77);
    /* backproject's own arguments */
    EXPECT(fathom_depth_backproject(&good, NULL, FATHOM_FRAME_OPTICAL, NULL, NULL, NULL, 6, &n), FATHOM_ERR_NULL_POINTER,
           FN_BP, "out_points", P_NULL);
    EXPECT(fathom_depth_backproject(&good, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 6, NULL),
           FATHOM_ERR_NULL_POINTER, FN_BP, "out_count", P_NULL);
    EXPECT(fathom_depth_backproject(&good, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, (size_t)-1, &n),
           FATHOM_ERR_OVERFLOW, FN_BP, "capacity", P_ANY);
}

int main(void) {
    test_init();
    test_frames();
    test_formats();
    test_selection();
    test_normals();
    test_capacity();
    test_sampling();
    test_bad_frames();
    return check_summary("test_depth");
}
