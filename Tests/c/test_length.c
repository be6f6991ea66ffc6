/* Object length from depth (fathom.h, "Object length from depth") across the C ABI: option defaults; the keypoint
 * and polyline functions' arguments, enums, frames and every field of fathom_length, with values worked out by hand
 * on a flat wall (the geometry of the keypoint and polyline lengths and their error bars is checked once, against
 * the header's model, in Tests/FathomCoreTests/KeypointLengthTests.swift); the length of an analytic strip rendered
 * into a depth map, by its mask and its midline; mask endpoints of hand-drawn masks; and bad input, each with its
 * status and a message naming the argument.
 *
 * Optical point of RGB pixel (u, v) at depth d = ((u - cx) / fx d, (v - cy) / fy d, d), camera = (X, -Y, -Z). */
#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FN_KP "fathom_length_keypoints"
#define FN_MASK "fathom_length_mask"
#define FN_POLY "fathom_length_polyline"
#define FN_ENDS "fathom_mask_endpoints"

static fathom_depth_frame frame_of(const void *d, uint32_t fmt, uint32_t w, uint32_t h, const fathom_intrinsics *k) {
    fathom_depth_frame f;
    CHECK_OK(fathom_depth_frame_init(&f, d, fmt, w, h, k));
    return f;
}

static double dist3(const double a[3], const double b[3]) {
    double d[3];
    t_sub(a, b, d);
    return sqrt(t_dot(d, d));
}

static void test_options(void) {
    fathom_length_options o;
    check_section("length_options_init: defaults of the header");
    memset(&o, 0x5A, sizeof o);
    CHECK_OK(fathom_length_options_init(&o));
    CHECK(o.keypoint_depth == FATHOM_KEYPOINT_MEDIAN);
    CHECK(o.window == 5);
    CHECK(o.out_frame == FATHOM_FRAME_CAMERA);
    CHECK(o.trim_points == 0);
    CHECK(o.trim_fraction == 0);
    CHECK(o.edge_noise == 1);
    CHECK(o.plane.threshold == 0.005);
    CHECK(o.plane.iterations == 100);
    CHECK(t_all_zero(o.plane.reserved, sizeof o.plane.reserved));
    CHECK(t_all_zero(o.reserved, sizeof o.reserved));
    CHECK(o.plane.seed == 0);
    CHECK(o.plane.confidence == 1); /* all 100 samples drawn */
    CHECK(o.depth_noise == 0.005);
    CHECK(o.depth_noise_growth == 2);
    CHECK(o.pixel_noise == 1);
    EXPECT(fathom_length_options_init(NULL), FATHOM_ERR_NULL_POINTER, "fathom_length_options_init", "options", P_NULL);
}

/* ---- keypoints on a wall -------------------------------------------------------------------------- */

/* RGB 640x480 with fx 500, fy 400 (unequal: a swapped axis shows), cx 320, cy 240; the depth grid a quarter of it,
 * 160x120, every sample at 1.5 m (sample (i, j) under RGB [4i, 4i + 4) x [4j, 4j + 4)). */
enum { WW = 160, WH = 120 };
static fathom_intrinsics wall_k(void) { return t_intr(500, 400, 320, 240, 640, 480); }

static void test_keypoints(void) {
    static float d[WW * WH];
    fathom_intrinsics k = wall_k();
    fathom_depth_frame f;
    fathom_length_options o;
    fathom_length L;
    size_t i;
    for (i = 0; i < WW * WH; i++) d[i] = 1.5f;
    f = frame_of(d, FATHOM_DEPTH_FLOAT32, WW, WH, &k);

    check_section("length_keypoints: every field, nearest depth, optical frame");
    /* Head (120, 160): ray ((120 - 320) / 500, (160 - 240) / 400, 1) = (-0.4, -0.2, 1), at 1.5 m (-0.6, -0.3, 1.5);
     * tail (520, 320): (0.6, 0.3, 1.5). L = 1.5 |(0.8, 0.4)| = 1.341641. The header's error bar with
     * e = -(2, 1, 0) / sqrt 5: per end (e.x 1.5 / 500)^2 + (e.y 1.5 / 400)^2 (pixel noise 1) = 7.2e-6 + 2.8125e-6, and
     * (e . ray 0.005 * 1.5^2)^2 = (0.01125 / sqrt 5)^2 = 2.53125e-5 (its depth noise, one reading): sigma^2 = 7.065e-5,
     * sigma = 0.00840536. */
    CHECK_OK(fathom_length_options_init(&o));
    o.keypoint_depth = FATHOM_KEYPOINT_NEAREST;
    o.out_frame = FATHOM_FRAME_OPTICAL;
    memset(&L, 0x44, sizeof L);
    CHECK_OK(fathom_length_keypoints(&f, 120, 160, 520, 320, NULL, &o, &L));
    CHECK_NEAR(L.length, 1.341641, 1e-6);
    CHECK_NEAR(L.sigma, 0.00840536, 1e-8);
    CHECK_NEAR(L.head[0], -0.6, 1e-6);
    CHECK_NEAR(L.head[1], -0.3, 1e-6);
    CHECK_NEAR(L.head[2], 1.5, 1e-7);
    CHECK_NEAR(L.tail[0], 0.6, 1e-6);
    CHECK_NEAR(L.tail[1], 0.3, 1e-6);
    CHECK_NEAR(L.tail[2], 1.5, 1e-7);
    CHECK(L.head_pixel[0] == 120 && L.head_pixel[1] == 160);
    CHECK(L.tail_pixel[0] == 520 && L.tail_pixel[1] == 320);
    CHECK(L.rms == 0);
    CHECK(L.samples == 2);

    check_section("length_keypoints: options NULL (median of 5x5, camera frame); head and tail swapped");
    CHECK_OK(fathom_length_keypoints(&f, 120, 160, 520, 320, NULL, NULL, &L));
    CHECK_NEAR(L.length, 1.341641, 1e-6);
    CHECK_NEAR(L.head[0], -0.6, 1e-6);
    CHECK_NEAR(L.head[1], 0.3, 1e-6);
    CHECK_NEAR(L.head[2], -1.5, 1e-7);
    CHECK(L.samples == 50);
    /* The median of 25 readings: the depth noise times sqrt(pi / 50): sigma^2 = 2 (1.00125e-5 + 2.53125e-5 pi / 50). */
    CHECK_NEAR(L.sigma, 0.00481725, 1e-8);
    CHECK_OK(fathom_length_keypoints(&f, 520, 320, 120, 160, NULL, NULL, &L));
    CHECK_NEAR(L.length, 1.341641, 1e-6);
    CHECK_NEAR(L.head[0], 0.6, 1e-6);
    CHECK(L.head_pixel[0] == 520 && L.tail_pixel[0] == 120);

    check_section("length_keypoints: world frame");
    {
        /* R_y(90 degrees) takes camera (x, y, z) to world (z, y, -x); t = (3, 1.5, -2): the camera point (X, -Y, -Z) of
         * optical (X, Y, Z) is world (-Z + 3, -Y + 1.5, -X - 2): head (1.5, 1.8, -1.4), tail (1.5, 1.2, -2.6). */
        double r[9];
        t_rot_y(T_PI / 2, r);
        f.camera_to_world = t_pose(r, 3, 1.5, -2);
        f.has_pose = 1;
        o.out_frame = FATHOM_FRAME_WORLD;
        CHECK_OK(fathom_length_keypoints(&f, 120, 160, 520, 320, NULL, &o, &L));
        CHECK_NEAR(L.head[0], 1.5, 1e-5);
        CHECK_NEAR(L.head[1], 1.8, 1e-5);
        CHECK_NEAR(L.head[2], -1.4, 1e-5);
        CHECK_NEAR(L.tail[0], 1.5, 1e-5);
        CHECK_NEAR(L.tail[1], 1.2, 1e-5);
        CHECK_NEAR(L.tail[2], -2.6, 1e-5);
        CHECK_NEAR(L.length, 1.341641, 1e-6);
        f.has_pose = 0;
        EXPECT(fathom_length_keypoints(&f, 120, 160, 520, 320, NULL, &o, &L), FATHOM_ERR_INVALID_STATE, FN_KP, "pose",
               P_ANY);
    }

    check_section("length_keypoints: outside the image, no depth, NaN, same pixel (out untouched)");
    o.out_frame = FATHOM_FRAME_CAMERA;
    memset(&L, 0x44, sizeof L);
    EXPECT(fathom_length_keypoints(&f, 640, 160, 520, 320, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "head",
           "outside");
    EXPECT(fathom_length_keypoints(&f, 120, 160, 10, -0.5f, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "tail",
           "outside");
    EXPECT(fathom_length_keypoints(&f, NAN, 160, 520, 320, NULL, &o, &L), FATHOM_ERR_NOT_FINITE, FN_KP, "head", P_FINITE);
    EXPECT(fathom_length_keypoints(&f, 120, 160, 520, INFINITY, NULL, &o, &L), FATHOM_ERR_NOT_FINITE, FN_KP, "tail",
           P_FINITE);
    EXPECT(fathom_length_keypoints(&f, 120, 160, 120, 160, NULL, &o, &L), FATHOM_ERR_DEGENERATE, FN_KP, NULL, P_ANY);
    /* Plane depth needs the mask. */
    o.keypoint_depth = FATHOM_KEYPOINT_PLANE;
    EXPECT(fathom_length_keypoints(&f, 120, 160, 520, 320, NULL, &o, &L), FATHOM_ERR_NULL_POINTER, FN_KP, "mask", P_NULL);
    o.keypoint_depth = FATHOM_KEYPOINT_NEAREST;
    /* The tail's sample (520 / 4, 320 / 4) = (130, 80) invalid: nearest has no data; the median of its 5x5 window
     * still has 24 samples. */
    d[80 * WW + 130] = NAN;
    EXPECT(fathom_length_keypoints(&f, 120, 160, 520, 320, NULL, &o, &L), FATHOM_ERR_NO_DATA, FN_KP, "tail", P_ANY);
    {
        fathom_length before;
        memset(&before, 0x44, sizeof before);
        CHECK(memcmp(&L, &before, sizeof L) == 0);
    }
    o.keypoint_depth = FATHOM_KEYPOINT_MEDIAN;
    CHECK_OK(fathom_length_keypoints(&f, 120, 160, 520, 320, NULL, &o, &L));
    CHECK(L.samples == 49);
    {
        /* every sample of the tail's 5x5 window invalid (zero, negative, Inf, NaN) */
        size_t j;
        for (j = 78; j <= 82; j++)
            for (i = 128; i <= 132; i++)
                d[j * WW + i] = (j + i) % 4 == 0 ? 0.0f : (j + i) % 4 == 1 ? -1.0f : (j + i) % 4 == 2 ? INFINITY : NAN;
        EXPECT(fathom_length_keypoints(&f, 120, 160, 520, 320, NULL, &o, &L), FATHOM_ERR_NO_DATA, FN_KP, "tail", P_ANY);
    }
    CHECK(L.samples == 49); /* unchanged by the failed call */
}

/* ---- an analytic strip rendered into a depth map ---------------------------------------------------- */

/* RGB 640x480, fx = fy = 500, cx 320, cy 240; depth grid 320x240 (fx' 250, cx' 160, cy' 120). The strip lies on the
 * plane z = 1 + 0.2 x (optical), centred at C, length 0.5 along e (20 degrees from the plane's x direction towards
 * +y), width 0.04 across; the background is at 3 m. */
enum { SW = 320, SH = 240 };
#define STRIP_L 0.5
#define STRIP_W 0.04
static float g_depth[SW * SH];
static uint8_t g_mask[SW * SH];
static double g_c[3], g_e[3], g_f[3];

static fathom_intrinsics strip_k(void) { return t_intr(500, 500, 320, 240, 640, 480); }

static int render_strip(void) {
    double ex[3] = {1, 0, 0.2}, ey[3] = {0, 1, 0}, a = 20 * T_PI / 180;
    int i, j, n = 0;
    t_normalize(ex);
    g_c[0] = 0.02;
    g_c[1] = -0.01;
    g_c[2] = 1 + 0.2 * g_c[0];
    for (i = 0; i < 3; i++) {
        g_e[i] = cos(a) * ex[i] + sin(a) * ey[i];
        g_f[i] = -sin(a) * ex[i] + cos(a) * ey[i];
    }
    for (j = 0; j < SH; j++)
        for (i = 0; i < SW; i++) {
            double rx = (i + 0.5 - 160) / 250.0, ry = (j + 0.5 - 120) / 250.0, d = 1 / (1 - 0.2 * rx);
            double p[3] = {rx * d, ry * d, d}, q[3];
            int in;
            t_sub(p, g_c, q);
            in = fabs(t_dot(q, g_e)) <= STRIP_L / 2 && fabs(t_dot(q, g_f)) <= STRIP_W / 2;
            g_mask[j * SW + i] = (uint8_t)(in ? 255 : 0);
            g_depth[j * SW + i] = in ? (float)d : 3.0f;
            n += in;
        }
    return n;
}

/* The RGB pixel of optical point p. */
static void project_rgb(const double p[3], float uv[2]) {
    uv[0] = (float)(500 * p[0] / p[2] + 320);
    uv[1] = (float)(500 * p[1] / p[2] + 240);
}

static void test_strip(void) {
    fathom_intrinsics k = strip_k();
    fathom_depth_frame f;
    fathom_mask m;
    fathom_length L;
    int n = render_strip(), i;
    double head[3], tail[3], hc[3], tc[3];
    float hp[2], tp[2];
    for (i = 0; i < 3; i++) {
        head[i] = g_c[i] - STRIP_L / 2 * g_e[i];
        tail[i] = g_c[i] + STRIP_L / 2 * g_e[i];
    }
    hc[0] = head[0], hc[1] = -head[1], hc[2] = -head[2];
    tc[0] = tail[0], tc[1] = -tail[1], tc[2] = -tail[2];
    project_rgb(head, hp);
    project_rgb(tail, tp);
    f = frame_of(g_depth, FATHOM_DEPTH_FLOAT32, SW, SH, &k);
    m.data = g_mask;
    m.width = SW;
    m.height = SH;
    m.row_stride = 0;
    /* ~0.5 x 0.04 m at ~4 mm per sample: about 1,200 samples */
    CHECK(n > 1000 && n < 1500);

    check_section("length_mask: the strip's length from every masked sample");
    CHECK_OK(fathom_length_mask(&f, &m, NULL, &L));
    printf("    strip: %d samples, length %.5f m (true %.3f), sigma %.5f, rms %.5f\n", n, L.length, STRIP_L, L.sigma,
           L.rms);
    CHECK_NEAR(L.length, STRIP_L, 0.008); /* two samples' spacing at this depth */
    CHECK(L.sigma > 0 && L.sigma < 0.01);
    CHECK(L.samples > 0 && L.samples <= (uint64_t)n); /* the body plane's inliers */
    CHECK(L.rms >= 0 && L.rms < 0.005);               /* the flat strip's samples about its plane */
    /* the fitted direction's x is its largest component (positive), so the head is the -e end; camera frame */
    CHECK(dist3(L.head, hc) < 0.012);
    CHECK(dist3(L.tail, tc) < 0.012);
    CHECK_NEAR(dist3(L.head, L.tail), L.length, 1e-9);
    CHECK(fabs(L.head_pixel[0] - hp[0]) < 6 && fabs(L.head_pixel[1] - hp[1]) < 6);
    CHECK(fabs(L.tail_pixel[0] - tp[0]) < 6 && fabs(L.tail_pixel[1] - tp[1]) < 6);
    /* A mask at twice the resolution, each depth sample's 2x2 block set: the same body, the same length within
     * a mask pixel's quantisation. */
    {
        static uint8_t big[640 * 480];
        fathom_mask mb;
        fathom_length L2;
        int j;
        memset(big, 0, sizeof big);
        for (j = 0; j < SH; j++)
            for (i = 0; i < SW; i++) {
                uint8_t v = g_mask[j * SW + i];
                big[2 * j * 640 + 2 * i] = big[2 * j * 640 + 2 * i + 1] = v;
                big[(2 * j + 1) * 640 + 2 * i] = big[(2 * j + 1) * 640 + 2 * i + 1] = v;
            }
        mb.data = big;
        mb.width = 640;
        mb.height = 480;
        mb.row_stride = 0;
        CHECK_OK(fathom_length_mask(&f, &mb, NULL, &L2));
        CHECK(L2.samples == L.samples);
        CHECK_NEAR(L2.length, L.length, 0.004);
    }
    check_section("length_midline: a straight strip's midline is its length; the curve is evenly spaced");
    {
        fathom_length M;
        double curve[3 * 9];
        int j;
        CHECK_OK(fathom_length_midline(&f, &m, NULL, &M, curve, 9));
        CHECK_NEAR(M.length, L.length, 0.003);
        CHECK(M.sigma > 0 && M.sigma < 0.01);
        /* the curve lies on the plane; the ends sit at the body's height there, within the noise */
        CHECK(dist3(curve, M.head) < 2e-3 && dist3(curve + 24, M.tail) < 2e-3);
        for (j = 1; j < 9; j++) CHECK_NEAR(dist3(curve + 3 * j, curve + 3 * (j - 1)), M.length / 8, 0.002);
        CHECK_OK(fathom_length_midline(&f, &m, NULL, &M, NULL, 0));
        CHECK_STATUS(fathom_length_midline(&f, &m, NULL, &M, curve, 1), FATHOM_ERR_OUT_OF_RANGE);
        CHECK_STATUS(fathom_length_midline(&f, NULL, NULL, &M, curve, 9), FATHOM_ERR_NULL_POINTER);
    }
    /* Holes in the depth under the mask (NaN, 0, low confidence) are skipped: the length barely changes. */
    {
        static uint8_t conf[SW * SH];
        int holes = 0, j;
        memset(conf, 2, sizeof conf);
        for (j = 0; j < SH; j++)
            for (i = 0; i < SW; i++)
                if (g_mask[j * SW + i] && (i * 7 + j * 3) % 11 == 0) {
                    conf[j * SW + i] = 0;
                    holes++;
                }
        f.confidence = conf;
        f.min_confidence = 1;
        CHECK_OK(fathom_length_mask(&f, &m, NULL, &L));
        CHECK(L.samples == (uint64_t)(n - holes));
        CHECK_NEAR(L.length, STRIP_L, 0.01);
        f.confidence = NULL;
        f.min_confidence = 0;
    }
}

/* ---- polyline on the wall, with a hole -------------------------------------------------------------- */
static void test_polyline(void) {
    static float d[WW * WH];
    static uint8_t everywhere[WW * WH];
    fathom_intrinsics k = wall_k();
    fathom_depth_frame f;
    fathom_mask m;
    fathom_length_options o;
    fathom_length L;
    float px[14];
    size_t i;
    int q;
    for (i = 0; i < WW * WH; i++) d[i] = 1.5f;
    f = frame_of(d, FATHOM_DEPTH_FLOAT32, WW, WH, &k);
    /* 7 pixels from (100, 400) in steps of (60, -40); the last one's sample (460 / 4, 160 / 4) = (115, 40) invalid */
    for (q = 0; q < 7; q++) {
        px[2 * q] = (float)(100 + 60 * q);
        px[2 * q + 1] = (float)(400 - 40 * q);
    }
    d[40 * WW + 115] = 0;
    CHECK_OK(fathom_length_options_init(&o));
    o.keypoint_depth = FATHOM_KEYPOINT_NEAREST;
    o.out_frame = FATHOM_FRAME_OPTICAL;
    check_section("length_polyline: (u, v) pairs read in order; pixels without depth skipped");
    /* From (100, 400): ray (-0.44, 0.4, 1), at 1.5 m (-0.66, 0.6, 1.5), to (400, 200): (0.16, -0.1, 1) -> (0.24, -0.15,
     * 1.5): L = 1.5 |(0.6, -0.5)| = 1.171537. The head is the end with the smaller projection on the fitted direction
     * (its largest component, x, positive): (100, 400), whatever the order. The error bar is the keypoints' along the
     * line, e = -(0.6, -0.5, 0) / sqrt 0.61: per end (e.x 0.003)^2 + (e.y 0.00375)^2 = 1.10748e-5 and (e . ray 0.01125)^2
     * with e . ray = 0.594091 and -0.186934: sigma^2 = 2 * 1.10748e-5 + 4.46695e-5 + 4.42263e-6, sigma = 0.00844048. */
    CHECK_OK(fathom_length_polyline(&f, px, 7, NULL, &o, &L));
    CHECK_NEAR(L.length, 1.171537, 1e-6);
    CHECK_NEAR(L.head[0], -0.66, 1e-6);
    CHECK_NEAR(L.head[1], 0.6, 1e-6);
    CHECK_NEAR(L.tail[0], 0.24, 1e-6);
    CHECK_NEAR(L.tail[1], -0.15, 1e-6);
    CHECK(L.head_pixel[0] == 100 && L.head_pixel[1] == 400);
    CHECK(L.tail_pixel[0] == 400 && L.tail_pixel[1] == 200);
    CHECK(L.samples == 6);
    CHECK(L.rms < 1e-6);
    CHECK_NEAR(L.sigma, 0.00844048, 1e-8);
    {
        float rv[14];
        for (q = 0; q < 7; q++) {
            rv[2 * q] = px[2 * (6 - q)];
            rv[2 * q + 1] = px[2 * (6 - q) + 1];
        }
        CHECK_OK(fathom_length_polyline(&f, rv, 7, NULL, &o, &L));
        CHECK_NEAR(L.length, 1.171537, 1e-6);
        CHECK(L.head_pixel[0] == 100 && L.head_pixel[1] == 400);
    }
    check_section("length_polyline: plane depth through the mask (the wall's plane, all its samples)");
    memset(everywhere, 1, sizeof everywhere);
    m.data = everywhere;
    m.width = WW;
    m.height = WH;
    m.row_stride = 0;
    o.keypoint_depth = FATHOM_KEYPOINT_PLANE;
    /* On the plane every pixel has depth, the last one too: from (100, 400) to (460, 160): rays (-0.44, 0.4, 1) and
     * (0.28, -0.2, 1): L = 1.5 |(0.72, -0.6)| = 1.405845; the samples are the plane's inliers, every valid one. */
    CHECK_OK(fathom_length_polyline(&f, px, 7, &m, &o, &L));
    CHECK_NEAR(L.length, 1.405845, 1e-6);
    CHECK(L.samples == WW * WH - 1);
    check_section("length_polyline: too few valid points, bad arguments");
    o.keypoint_depth = FATHOM_KEYPOINT_NEAREST;
    EXPECT(fathom_length_polyline(&f, px + 10, 2, NULL, &o, &L), FATHOM_ERR_NO_DATA, FN_POLY, NULL, P_ANY);
    EXPECT(fathom_length_polyline(&f, px, 1, NULL, &o, &L), FATHOM_ERR_NO_DATA, FN_POLY, NULL, P_ANY);
    EXPECT(fathom_length_polyline(&f, px, 0, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_POLY, "count", P_ANY);
    EXPECT(fathom_length_polyline(&f, NULL, 3, NULL, &o, &L), FATHOM_ERR_NULL_POINTER, FN_POLY, "pixels", P_NULL);
    EXPECT(fathom_length_polyline(&f, px, 3, NULL, &o, NULL), FATHOM_ERR_NULL_POINTER, FN_POLY, "out", P_NULL);
    EXPECT(fathom_length_polyline(&f, px, (size_t)-1, NULL, &o, &L), FATHOM_ERR_OVERFLOW, FN_POLY, "count", P_ANY);
    px[2] = 5000;
    EXPECT(fathom_length_polyline(&f, px, 3, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_POLY, "pixels[1]", "outside");
    px[2] = NAN;
    EXPECT(fathom_length_polyline(&f, px, 3, NULL, &o, &L), FATHOM_ERR_NOT_FINITE, FN_POLY, "pixels[1]", P_FINITE);
    px[2] = 160;
    o.keypoint_depth = FATHOM_KEYPOINT_PLANE;
    EXPECT(fathom_length_polyline(&f, px, 3, NULL, &o, &L), FATHOM_ERR_NULL_POINTER, FN_POLY, "mask", P_NULL);
}

/* ---- mask endpoints -------------------------------------------------------------------------------- */
static void test_endpoints(void) {
    uint8_t m[10 * 8];
    fathom_mask mk;
    float e0[2], e1[2];
    fathom_line_fit ax;
    int i, j;
    mk.data = m;
    mk.width = 10;
    mk.height = 8;
    mk.row_stride = 0;

    check_section("mask_endpoints: a horizontal bar, rows 2..4, columns 1..8");
    memset(m, 0, sizeof m);
    for (j = 2; j <= 4; j++)
        for (i = 1; i <= 8; i++) m[j * 10 + i] = 1;
    /* centroid (5, 3.5) (pixel centres); axis (1, 0); extreme columns 1 and 8, the middle row nearest the axis */
    CHECK_OK(fathom_mask_endpoints(&mk, e0, e1, &ax));
    CHECK(e0[0] == 1.5f && e0[1] == 3.5f);
    CHECK(e1[0] == 8.5f && e1[1] == 3.5f);
    CHECK_NEAR(ax.point[0], 5, 1e-12);
    CHECK_NEAR(ax.point[1], 3.5, 1e-12);
    CHECK_NEAR(ax.direction[0], 1, 1e-12);
    CHECK_NEAR(ax.direction[1], 0, 1e-12);
    CHECK_NEAR(ax.t_min, -3.5, 1e-12);
    CHECK_NEAR(ax.t_max, 3.5, 1e-12);
    CHECK(ax.used == 24);
    /* var across = ((−1)^2 + 0 + 1^2) / 3 = 2/3: rms sqrt(2/3) */
    CHECK_NEAR(ax.rms, sqrt(2.0 / 3), 1e-12);

    check_section("mask_endpoints: a diagonal stroke, an axis-aligned stroke with a stride, one pixel, empty");
    memset(m, 0, sizeof m);
    for (i = 0; i < 7; i++) m[i * 10 + i] = 9;
    CHECK_OK(fathom_mask_endpoints(&mk, e0, e1, NULL));
    CHECK(e0[0] == 0.5f && e0[1] == 0.5f);
    CHECK(e1[0] == 6.5f && e1[1] == 6.5f);
    CHECK_OK(fathom_mask_endpoints(&mk, e0, e1, &ax));
    CHECK_NEAR(ax.direction[0], sqrt(0.5), 1e-12);
    CHECK_NEAR(ax.direction[1], sqrt(0.5), 1e-12);
    CHECK_NEAR(ax.rms, 0, 1e-12);
    {
        /* a vertical stroke in a 3x6 mask stored with row stride 5 (padding set to 1: must not be read) */
        uint8_t s[30];
        memset(s, 1, sizeof s);
        for (j = 0; j < 6; j++)
            for (i = 0; i < 3; i++) s[j * 5 + i] = (uint8_t)(i == 1 && j >= 1);
        mk.data = s;
        mk.width = 3;
        mk.height = 6;
        mk.row_stride = 5;
        CHECK_OK(fathom_mask_endpoints(&mk, e0, e1, &ax));
        CHECK(e0[0] == 1.5f && e0[1] == 1.5f);
        CHECK(e1[0] == 1.5f && e1[1] == 5.5f);
        CHECK_NEAR(ax.direction[1], 1, 1e-12);
        mk.row_stride = 2;
        EXPECT(fathom_mask_endpoints(&mk, e0, e1, &ax), FATHOM_ERR_OUT_OF_RANGE, FN_ENDS, "row_stride", P_ANY);
        mk.data = m;
        mk.width = 10;
        mk.height = 8;
        mk.row_stride = 0;
    }
    memset(m, 0, sizeof m);
    m[3 * 10 + 4] = 1;
    e0[0] = e0[1] = 77;
    EXPECT(fathom_mask_endpoints(&mk, e0, e1, &ax), FATHOM_ERR_DEGENERATE, FN_ENDS, NULL, P_ANY);
    m[3 * 10 + 4] = 0;
    EXPECT(fathom_mask_endpoints(&mk, e0, e1, &ax), FATHOM_ERR_NO_DATA, FN_ENDS, NULL, "empty");
    CHECK(e0[0] == 77 && e0[1] == 77);
    EXPECT(fathom_mask_endpoints(NULL, e0, e1, &ax), FATHOM_ERR_NULL_POINTER, FN_ENDS, "mask", P_NULL);
    EXPECT(fathom_mask_endpoints(&mk, NULL, e1, &ax), FATHOM_ERR_NULL_POINTER, FN_ENDS, "out_end0", P_NULL);
    EXPECT(fathom_mask_endpoints(&mk, e0, NULL, &ax), FATHOM_ERR_NULL_POINTER, FN_ENDS, "out_end1", P_NULL);
    mk.data = NULL;
    EXPECT(fathom_mask_endpoints(&mk, e0, e1, &ax), FATHOM_ERR_NULL_POINTER, FN_ENDS, "mask", P_NULL);
    mk.data = m;
    mk.height = 0;
    EXPECT(fathom_mask_endpoints(&mk, e0, e1, &ax), FATHOM_ERR_OUT_OF_RANGE, FN_ENDS, "mask", P_ANY);
}

/* ---- bad input to the length functions ------------------------------------------------------------- */
static void test_bad(void) {
    static float d[16 * 12];
    uint8_t mk[16 * 12];
    fathom_intrinsics k = t_intr(20, 20, 8, 6, 16, 12);
    fathom_depth_frame f, good;
    fathom_mask m;
    fathom_length_options o;
    fathom_length L, before;
    size_t i;
    for (i = 0; i < 16 * 12; i++) d[i] = 1.0f;
    memset(mk, 1, sizeof mk);
    good = frame_of(d, FATHOM_DEPTH_FLOAT32, 16, 12, &k);
    m.data = mk;
    m.width = 16;
    m.height = 12;
    m.row_stride = 0;
    memset(&L, 0x21, sizeof L);
    before = L;

    check_section("length: empty mask, all-invalid depth -> NO_DATA");
    memset(mk, 0, sizeof mk);
    EXPECT(fathom_length_mask(&good, &m, NULL, &L), FATHOM_ERR_NO_DATA, FN_MASK, "mask", P_ANY);
    mk[5 * 16 + 5] = 1;
    EXPECT(fathom_length_mask(&good, &m, NULL, &L), FATHOM_ERR_NO_DATA, FN_MASK, NULL, P_ANY);
    memset(mk, 1, sizeof mk);
    for (i = 0; i < 16 * 12; i++) d[i] = NAN;
    EXPECT(fathom_length_mask(&good, &m, NULL, &L), FATHOM_ERR_NO_DATA, FN_MASK, NULL, P_ANY);
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, NULL, NULL, &L), FATHOM_ERR_NO_DATA, FN_KP, "head", P_ANY);
    CHECK_OK(fathom_length_options_init(&o));
    o.keypoint_depth = FATHOM_KEYPOINT_PLANE;
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, &m, &o, &L), FATHOM_ERR_NO_DATA, FN_KP, "mask", P_ANY);
    CHECK(memcmp(&L, &before, sizeof L) == 0);
    for (i = 0; i < 16 * 12; i++) d[i] = 1.0f;
    /* a fronto-parallel flat map under a full mask is a plane, but a mask on one row of samples is collinear */
    memset(mk, 0, sizeof mk);
    for (i = 0; i < 16; i++) mk[6 * 16 + i] = 1;
    CHECK(fathom_length_keypoints(&good, 3, 6.5f, 10, 6.5f, &m, &o, &L) == FATHOM_ERR_DEGENERATE);
    memset(mk, 1, sizeof mk);
    CHECK_OK(fathom_length_keypoints(&good, 3, 3, 11, 9, &m, &o, &L));
    CHECK_NEAR(L.length, sqrt(64.0 + 36.0) / 20, 1e-6);

    check_section("length: NULL pointers, sizes, zero intrinsics, bad enums and options");
    EXPECT(fathom_length_mask(NULL, &m, NULL, &L), FATHOM_ERR_NULL_POINTER, FN_MASK, "frame", P_NULL);
    EXPECT(fathom_length_mask(&good, NULL, NULL, &L), FATHOM_ERR_NULL_POINTER, FN_MASK, "mask", P_NULL);
    EXPECT(fathom_length_mask(&good, &m, NULL, NULL), FATHOM_ERR_NULL_POINTER, FN_MASK, "out", P_NULL);
    EXPECT(fathom_length_keypoints(NULL, 3, 3, 10, 8, NULL, NULL, &L), FATHOM_ERR_NULL_POINTER, FN_KP, "frame", P_NULL);
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, NULL, NULL, NULL), FATHOM_ERR_NULL_POINTER, FN_KP, "out",
           P_NULL);
    m.width = 0;
    EXPECT(fathom_length_mask(&good, &m, NULL, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, "mask", P_ANY);
    m.width = 16;
    m.row_stride = 15;
    EXPECT(fathom_length_mask(&good, &m, NULL, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, "row_stride", P_ANY);
    m.row_stride = 0;
    f = good;
    f.width = 0;
    EXPECT(fathom_length_mask(&f, &m, NULL, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, NULL, P_ANY);
    f = good;
    f.intrinsics.fx = 0;
    EXPECT(fathom_length_mask(&f, &m, NULL, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, "fx", P_ANY);
    f = good;
    f.intrinsics.fy = -20;
    EXPECT(fathom_length_keypoints(&f, 3, 3, 10, 8, NULL, NULL, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "fy", P_ANY);
    f = good;
    f.intrinsics.height = 0;
    EXPECT(fathom_length_keypoints(&f, 3, 3, 10, 8, NULL, NULL, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "height", P_ANY);
    f = good;
    f.format = 9;
    EXPECT(fathom_length_keypoints(&f, 3, 3, 10, 8, NULL, NULL, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "format", P_ANY);
    CHECK_OK(fathom_length_options_init(&o));
    o.keypoint_depth = 3;
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "keypoint_depth",
           P_ANY);
    CHECK_OK(fathom_length_options_init(&o));
    o.out_frame = 3;
    EXPECT(fathom_length_mask(&good, &m, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, "out_frame", P_ANY);
    CHECK_OK(fathom_length_options_init(&o));
    o.window = 4;
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "window", P_ANY);
    o.window = 0;
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "window", P_ANY);
    CHECK_OK(fathom_length_options_init(&o));
    o.trim_fraction = 0.25;
    EXPECT(fathom_length_mask(&good, &m, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, "trim_fraction", P_ANY);
    o.trim_fraction = NAN;
    EXPECT(fathom_length_mask(&good, &m, &o, &L), FATHOM_ERR_NOT_FINITE, FN_MASK, "trim_fraction", P_FINITE);
    CHECK_OK(fathom_length_options_init(&o));
    o.depth_noise = -1;
    EXPECT(fathom_length_mask(&good, &m, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, "depth_noise", P_ANY);
    CHECK_OK(fathom_length_options_init(&o));
    o.pixel_noise = INFINITY;
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, NULL, &o, &L), FATHOM_ERR_NOT_FINITE, FN_KP, "pixel_noise",
           P_FINITE);
    CHECK_OK(fathom_length_options_init(&o));
    o.plane.threshold = 0;
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_KP, "threshold",
           P_ANY);
    CHECK_OK(fathom_length_options_init(&o));
    o.plane.iterations = 0;
    EXPECT(fathom_length_mask(&good, &m, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, "iterations", P_ANY);
    CHECK_OK(fathom_length_options_init(&o));
    o.plane.confidence = 0;
    EXPECT(fathom_length_mask(&good, &m, &o, &L), FATHOM_ERR_OUT_OF_RANGE, FN_MASK, "confidence", P_ANY);
    o.plane.confidence = NAN;
    EXPECT(fathom_length_keypoints(&good, 3, 3, 10, 8, NULL, &o, &L), FATHOM_ERR_NOT_FINITE, FN_KP, "confidence",
           P_FINITE);
    CHECK_OK(fathom_length_options_init(&o));
    o.out_frame = FATHOM_FRAME_WORLD;
    EXPECT(fathom_length_mask(&good, &m, &o, &L), FATHOM_ERR_INVALID_STATE, FN_MASK, "pose", P_ANY);
    /* a very large trim leaves at least the two central projections: still a result, never a crash */
    CHECK_OK(fathom_length_options_init(&o));
    o.trim_points = 0xFFFFFFFFu;
    CHECK_OK(fathom_length_mask(&good, &m, &o, &L));
    CHECK(isfinite(L.length) && L.length >= 0);
}

int main(void) {
    test_options();
    test_keypoints();
    test_strip();
    test_polyline();
    test_endpoints();
    test_bad();
    return check_summary("test_length");
}
