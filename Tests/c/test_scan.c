/* Scans (fathom.h, "Scans"): a writer -> open round trip compared byte for byte with the data the test made
 * (float16 depth written as bit patterns computed here, confidence, timestamps, RGB intrinsics and rigid poses),
 * opening by folder / metadata / any file, the info and text outputs, fathom_scan_frame feeding
 * fathom_depth_backproject (expected points from the header's formulas in double precision), and the ABI's
 * statuses and messages: NULLs, bad options, out-of-range indices, too-small capacities (which report the size
 * needed), failed calls leaving their outputs unchanged, refused frames writing nothing, and damaged files. */
#define _XOPEN_SOURCE 700
#include "fathom.h"
#include "check.h"
#include "tempdir.h"
#include "expect.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define W 32
#define H 24
#define N 5
#define SAMPLES (W * H)
#define SCAN_ID "20240611_101530_C0FFEE"

static char DIR_PATH[256];

/* IEEE half bits of v, for v = 0 or a normal value that is exact in half precision (checked). */
static uint16_t half_bits(double v) {
    int e;
    double m;
    if (v == 0) return 0;
    m = frexp(v, &e); /* v = m * 2^e, m in [0.5, 1) */
    m = m * 2 - 1;    /* v = (1 + m) * 2^(e - 1) */
    e -= 1;
    if (e < -14 || e > 15 || m * 1024 != floor(m * 1024)) {
        printf("half_bits: %g is not exact in half precision\n", v);
        abort();
    }
    return (uint16_t)(((e + 15) << 10) | (int)(m * 1024));
}

/* The test's data: depth meters (0 = no sample), confidence, time, intrinsics and pose of frame f. */
static double depth_m(int f, int i, int j) {
    if ((i + 3 * j + f) % 17 == 0) return 0;
    return 0.5 + ((i * 7 + j * 3 + f * 5) % 200) / 64.0;
}
static uint8_t conf_of(int f, int i, int j) { return (uint8_t)((i + j + f) % 3); }
static int64_t time_of(int f) { return 280670466266040LL + 16666667LL * f + (f % 2 ? 1200 : -800); }
static fathom_intrinsics k_of(int f) { return t_intr(500.0f + (float)f, 502.25f, 320.5f, 240.25f, 640, 480); }
static fathom_pose pose_of(int f) {
    double ry[9], rx[9], r[9];
    t_rot_y(0.3 + 0.1 * f, ry);
    t_rot_x(-0.2, rx);
    t_mat3_mul(ry, rx, r);
    return t_pose(r, 0.1 * f, 1.4, -0.5);
}

static void frame_data(int f, uint16_t depth[SAMPLES], uint8_t conf[SAMPLES]) {
    int i, j;
    for (j = 0; j < H; j++)
        for (i = 0; i < W; i++) {
            depth[j * W + i] = half_bits(depth_m(f, i, j));
            conf[j * W + i] = conf_of(f, i, j);
        }
}

static fathom_scan_writer_options small_options(void) {
    fathom_scan_writer_options o;
    CHECK_OK(fathom_scan_writer_options_init(&o));
    o.depth_width = W;
    o.depth_height = H;
    o.rgb_width = 640;
    o.rgb_height = 480;
    return o;
}

/* Writes the test scan (N frames) into dir; returns 1 on success. */
static int write_scan(const char *dir, const char *id, int with_confidence) {
    fathom_scan_writer_options o = small_options();
    fathom_scan_writer *w = NULL;
    uint16_t depth[SAMPLES];
    uint8_t conf[SAMPLES];
    int f, ok = 1;
    o.with_confidence = with_confidence != 0;
    if (fathom_scan_writer_create(dir, id, &o, &w) != FATHOM_OK) {
        printf("    fathom_scan_writer_create: %s\n", fathom_last_error());
        return 0;
    }
    for (f = 0; f < N; f++) {
        fathom_intrinsics k = k_of(f);
        fathom_pose p = pose_of(f);
        frame_data(f, depth, conf);
        if (fathom_scan_writer_append(w, time_of(f), &k, &p, depth, sizeof depth, with_confidence ? conf : NULL,
                                      with_confidence ? sizeof conf : 0) != FATHOM_OK) {
            printf("    fathom_scan_writer_append: %s\n", fathom_last_error());
            ok = 0;
        }
    }
    if (fathom_scan_writer_finish(w) != FATHOM_OK) ok = 0;
    fathom_scan_writer_destroy(w);
    return ok;
}

/* ---- writer -> open, byte for byte ---------------------------------------------------------------- */
static void test_round_trip(void) {
    fathom_scan *s = NULL;
    fathom_scan_info info;
    int64_t ts[N];
    fathom_pose poses[N];
    fathom_intrinsics ks[N];
    uint16_t depth[SAMPLES], want_depth[SAMPLES];
    uint8_t conf[SAMPLES], want_conf[SAMPLES];
    char id[64];
    size_t len = 0;
    int f, i, bad;
    const int order[8] = {4, 0, 2, 2, 1, 3, 0, 4};
    const char *names[4] = {SCAN_ID ".json", SCAN_ID ".depth.zlib", SCAN_ID ".confidence.zlib", SCAN_ID ".jsonl"};

    check_section("scan writer -> fathom_scan_open: byte for byte");
    CHECK(write_scan(DIR_PATH, SCAN_ID, 1));
    CHECK_OK(fathom_scan_open(DIR_PATH, &s));
    if (!s) return;
    memset(&info, 0x5A, sizeof info);
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count == N);
    CHECK(info.depth_width == W && info.depth_height == H);
    CHECK(info.depth_format == FATHOM_DEPTH_FLOAT16);
    CHECK(info.depth_scale == 1.0f);
    CHECK(info.rgb_width == 640 && info.rgb_height == 480);
    CHECK(info.has_confidence == 1);
    CHECK(info.warning_count == 0);
    CHECK(info.frequency == 60.0);
    CHECK_OK(fathom_scan_id(s, id, sizeof id, &len));
    CHECK(len == strlen(SCAN_ID) && strcmp(id, SCAN_ID) == 0);

    CHECK_OK(fathom_scan_timestamps(s, ts, N));
    CHECK_OK(fathom_scan_poses(s, poses, N));
    CHECK_OK(fathom_scan_intrinsics(s, ks, N));
    for (f = 0; f < N; f++) {
        fathom_pose p = pose_of(f);
        fathom_intrinsics k = k_of(f);
        CHECK(ts[f] == time_of(f));
        CHECK(memcmp(&poses[f], &p, sizeof p) == 0); /* rigid to float rounding: kept exactly as written */
        CHECK(ks[f].fx == k.fx && ks[f].fy == k.fy && ks[f].cx == k.cx && ks[f].cy == k.cy);
        CHECK(ks[f].width == 640 && ks[f].height == 480);
    }
    /* frames in any order, compared with the bytes the test made */
    for (i = 0; i < 8; i++) {
        f = order[i];
        frame_data(f, want_depth, want_conf);
        memset(depth, 0xEE, sizeof depth);
        memset(conf, 0xEE, sizeof conf);
        CHECK_OK(fathom_scan_read_depth(s, (uint64_t)f, depth, sizeof depth));
        CHECK_OK(fathom_scan_read_confidence(s, (uint64_t)f, conf, sizeof conf));
        CHECK(memcmp(depth, want_depth, sizeof depth) == 0);
        CHECK(memcmp(conf, want_conf, sizeof conf) == 0);
    }
    fathom_scan_destroy(s);

    check_section("fathom_scan_open_with: NULL options are the defaults; indexed while reading, the same frames");
    for (i = 0; i < 2; i++) {
        fathom_scan_open_options o;
        memset(&o, 0xFF, sizeof o);
        CHECK_OK(fathom_scan_open_options_init(&o));
        CHECK(t_bool_byte(&o.index_while_reading) == 0 && t_all_zero(o.reserved, sizeof o.reserved));
        o.index_while_reading = i == 1;
        s = NULL;
        CHECK_OK(fathom_scan_open_with(DIR_PATH, i == 0 ? NULL : &o, &s));
        if (!s) continue;
        CHECK_OK(fathom_scan_get_info(s, &info));
        CHECK(info.frame_count == N && info.warning_count == 0);
        for (f = 0, bad = 0; f < N; f++) {
            frame_data(f, want_depth, want_conf);
            if (fathom_scan_read_depth(s, (uint64_t)f, depth, sizeof depth) != FATHOM_OK ||
                fathom_scan_read_confidence(s, (uint64_t)f, conf, sizeof conf) != FATHOM_OK ||
                memcmp(depth, want_depth, sizeof depth) != 0 || memcmp(conf, want_conf, sizeof conf) != 0)
                bad++;
        }
        CHECK(bad == 0);
        fathom_scan_destroy(s);
    }

    check_section("fathom_scan_open: by the metadata or any file of the scan");
    for (i = 0; i < 4; i++) {
        s = NULL;
        CHECK_OK(fathom_scan_open(path_in(DIR_PATH, names[i]), &s));
        bad = !s || fathom_scan_get_info(s, &info) != FATHOM_OK || info.frame_count != N;
        CHECK(!bad);
        fathom_scan_destroy(s);
    }
    fathom_scan_destroy(NULL);
}

/* ---- fathom_scan_frame -> fathom_depth_backproject --------------------------------------------------- */
static void test_frame_backprojection(void) {
    fathom_scan *s = NULL;
    fathom_depth_frame fr;
    uint16_t depth[SAMPLES];
    uint8_t conf[SAMPLES];
    float pts[3 * SAMPLES];
    uint32_t pix[2 * SAMPLES];
    size_t n = 0, count = 0, want = 0, want_confident = 0;
    const int f = 2;
    fathom_intrinsics k = k_of(f);
    fathom_pose p = pose_of(f);
    double fx = k.fx * (double)W / 640, fy = k.fy * (double)H / 480;
    double cx = k.cx * (double)W / 640, cy = k.cy * (double)H / 480;
    int i, j, bad = 0;

    check_section("fathom_scan_frame: a depth frame with the frame's intrinsics and pose");
    CHECK_OK(fathom_scan_open(DIR_PATH, &s));
    if (!s) return;
    memset(&fr, 0x5A, sizeof fr);
    CHECK_OK(fathom_scan_frame(s, (uint64_t)f, depth, sizeof depth, conf, sizeof conf, &fr));
    CHECK(fr.depth == depth && fr.confidence == conf);
    CHECK(fr.format == FATHOM_DEPTH_FLOAT16 && fr.width == W && fr.height == H && fr.scale == 1.0f);
    CHECK(fr.row_stride == 0 && fr.min_confidence == 0 && fr.min_depth == 0 && isinf(fr.max_depth));
    CHECK(fr.has_pose == true && memcmp(&fr.camera_to_world, &p, sizeof p) == 0);
    CHECK(t_bool_byte(&fr.has_pose) == 1 && t_all_zero(fr.reserved, sizeof fr.reserved)); /* over the 0x5A fill */
    CHECK(fr.intrinsics.fx == k.fx && fr.intrinsics.cy == k.cy && fr.intrinsics.width == 640);

    for (j = 0; j < H; j++)
        for (i = 0; i < W; i++)
            if (depth_m(f, i, j) > 0) {
                want++;
                if (conf_of(f, i, j) >= 2) want_confident++;
            }
    CHECK_OK(fathom_depth_backproject(&fr, NULL, FATHOM_FRAME_WORLD, pts, pix, NULL, SAMPLES, &n));
    CHECK(n == want);
    for (j = 0, count = 0; j < H; j++)
        for (i = 0; i < W; i++) {
            double d = depth_m(f, i, j), cam[3], world[3];
            int r;
            if (d <= 0) continue;
            cam[0] = (i + 0.5 - cx) / fx * d;
            cam[1] = -((j + 0.5 - cy) / fy * d);
            cam[2] = -d;
            for (r = 0; r < 3; r++)
                world[r] = p.m[r] * cam[0] + p.m[4 + r] * cam[1] + p.m[8 + r] * cam[2] + p.m[12 + r];
            if (count < n) {
                if (pix[2 * count] != (uint32_t)i || pix[2 * count + 1] != (uint32_t)j) bad++;
                for (r = 0; r < 3; r++)
                    if (!(fabs(pts[3 * count + r] - world[r]) <= 2e-5 * (1 + fabs(world[r])))) bad++;
            }
            count++;
        }
    CHECK(bad == 0);
    fr.min_confidence = 2;
    CHECK_OK(fathom_depth_count(&fr, NULL, &n));
    CHECK(n == want_confident);
    /* without a confidence buffer, the frame has none */
    CHECK_OK(fathom_scan_frame(s, (uint64_t)f, depth, sizeof depth, NULL, 0, &fr));
    CHECK(fr.confidence == NULL);
    fr.min_confidence = 2;
    CHECK_OK(fathom_depth_count(&fr, NULL, &n));
    CHECK(n == want);
    fathom_scan_destroy(s);
}

/* ---- statuses, messages, capacities, unchanged outputs ----------------------------------------------- */
static void test_bad_calls(void) {
    fathom_scan *s = NULL, *sentinel = (fathom_scan *)&s;
    fathom_scan_info info, info0;
    fathom_depth_frame fr, fr0;
    int64_t ts[N + 1];
    fathom_pose poses[N];
    fathom_intrinsics ks[N];
    uint16_t depth[SAMPLES + 1];
    uint8_t conf[SAMPLES];
    char text[64];
    size_t len = 0;
    int i, unchanged;
    const size_t id_len = strlen(SCAN_ID);

    check_section("fathom_scan_open: NULLs, missing files");
    EXPECT(fathom_scan_open(NULL, &s), FATHOM_ERR_NULL_POINTER, "fathom_scan_open", "path", P_NULL);
    EXPECT(fathom_scan_open(DIR_PATH, NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_open", "out", P_NULL);
    s = sentinel;
    EXPECT(fathom_scan_open("/nonexistent/fathom/scan.json", &s), FATHOM_ERR_IO, "fathom_scan_open",
           "/nonexistent/fathom/scan.json", P_ANY);
    CHECK(s == sentinel); /* a failed open leaves *out alone */
    EXPECT(fathom_scan_open(path_in(DIR_PATH, "other_id.json"), &s), FATHOM_ERR_IO, "fathom_scan_open", "other_id.json",
           P_ANY);
    s = NULL;
    CHECK_OK(fathom_scan_open(DIR_PATH, &s));
    if (!s) return;

    check_section("fathom_scan_open_with: options checked");
    {
        fathom_scan_open_options o;
        fathom_scan *t = sentinel;
        CHECK_OK(fathom_scan_open_options_init(&o));
        t_set_bool_byte(&o.index_while_reading, 2);
        EXPECT(fathom_scan_open_with(DIR_PATH, &o, &t), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_open_with",
               "options.index_while_reading", "got 2");
        CHECK_OK(fathom_scan_open_options_init(&o));
        o.reserved[3] = 1;
        EXPECT(fathom_scan_open_with(DIR_PATH, &o, &t), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_open_with",
               "options.reserved", P_ANY);
        CHECK(t == sentinel);
        EXPECT(fathom_scan_open_options_init(NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_open_options_init", "options",
               P_NULL);
        EXPECT(fathom_scan_open_with(NULL, NULL, &t), FATHOM_ERR_NULL_POINTER, "fathom_scan_open_with", "path", P_NULL);
    }

    check_section("fathom_scan_get_info / id / warning");
    EXPECT(fathom_scan_get_info(NULL, &info), FATHOM_ERR_NULL_POINTER, "fathom_scan_get_info", "scan", P_NULL);
    EXPECT(fathom_scan_get_info(s, NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_get_info", "out", P_NULL);
    memset(&info, 0x33, sizeof info);
    memcpy(&info0, &info, sizeof info);
    EXPECT(fathom_scan_get_info(NULL, &info), FATHOM_ERR_NULL_POINTER, "fathom_scan_get_info", "scan", P_NULL);
    CHECK(memcmp(&info, &info0, sizeof info) == 0);
    /* capacity: length + 1 bytes are needed; the needed length is reported, the buffer untouched */
    memset(text, 'x', sizeof text);
    len = 0;
    EXPECT(fathom_scan_id(s, text, id_len, &len), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_scan_id", "capacity",
           "needed");
    CHECK(len == id_len);
    for (i = 0, unchanged = 1; i < (int)sizeof text; i++) unchanged &= text[i] == 'x';
    CHECK(unchanged);
    len = 0;
    EXPECT(fathom_scan_id(s, NULL, 0, &len), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_scan_id", NULL, P_ANY);
    CHECK(len == id_len); /* the way to ask for the length */
    CHECK_OK(fathom_scan_id(s, text, id_len + 1, &len));
    CHECK(strcmp(text, SCAN_ID) == 0);
    EXPECT(fathom_scan_id(s, NULL, 64, &len), FATHOM_ERR_NULL_POINTER, "fathom_scan_id", "buffer", P_NULL);
    EXPECT(fathom_scan_id(s, text, sizeof text, NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_id", "out_length", P_NULL);
    EXPECT(fathom_scan_warning(s, 0, text, sizeof text, &len), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_warning", "index",
           "range");

    check_section("per-frame arrays: capacities");
    for (i = 0; i <= N; i++) ts[i] = -7;
    EXPECT(fathom_scan_timestamps(s, ts, N - 1), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_scan_timestamps", "capacity", "5");
    for (i = 0, unchanged = 1; i <= N; i++) unchanged &= ts[i] == -7;
    CHECK(unchanged);
    CHECK_OK(fathom_scan_timestamps(s, ts, N + 1)); /* more room than needed is fine */
    CHECK(ts[N] == -7 && ts[0] == time_of(0));
    EXPECT(fathom_scan_timestamps(s, NULL, N), FATHOM_ERR_NULL_POINTER, "fathom_scan_timestamps", "out", P_NULL);
    EXPECT(fathom_scan_poses(s, poses, 0), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_scan_poses", "capacity", "5");
    EXPECT(fathom_scan_intrinsics(s, ks, 2), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_scan_intrinsics", "capacity", "5");
    EXPECT(fathom_scan_poses(NULL, poses, N), FATHOM_ERR_NULL_POINTER, "fathom_scan_poses", "scan", P_NULL);

    check_section("frames: index, capacity, alignment");
    for (i = 0; i <= SAMPLES; i++) depth[i] = 0xABCD;
    EXPECT(fathom_scan_read_depth(s, N, depth, SAMPLES * 2), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_read_depth", "5",
           "range");
    EXPECT(fathom_scan_read_depth(s, UINT64_MAX, depth, SAMPLES * 2), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_read_depth",
           NULL, "range");
    EXPECT(fathom_scan_read_depth(s, 0, depth, SAMPLES * 2 - 1), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_scan_read_depth",
           "1536", P_ANY); /* names the bytes needed */
    for (i = 0, unchanged = 1; i <= SAMPLES; i++) unchanged &= depth[i] == 0xABCD;
    CHECK(unchanged);
    EXPECT(fathom_scan_read_depth(s, 0, NULL, SAMPLES * 2), FATHOM_ERR_NULL_POINTER, "fathom_scan_read_depth", "out",
           P_NULL);
    EXPECT(fathom_scan_read_confidence(s, 0, conf, SAMPLES - 1), FATHOM_ERR_BUFFER_TOO_SMALL,
           "fathom_scan_read_confidence", "768", P_ANY);
    EXPECT(fathom_scan_read_confidence(s, 9, conf, SAMPLES), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_read_confidence",
           NULL, "range");
    memset(&fr, 0x5A, sizeof fr);
    memcpy(&fr0, &fr, sizeof fr);
    EXPECT(fathom_scan_frame(s, N, depth, SAMPLES * 2, conf, SAMPLES, &fr), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_frame",
           "index", "range");
    EXPECT(fathom_scan_frame(s, 0, depth, SAMPLES * 2 - 2, conf, SAMPLES, &fr), FATHOM_ERR_BUFFER_TOO_SMALL,
           "fathom_scan_frame", "1536", P_ANY);
    EXPECT(fathom_scan_frame(s, 0, depth, SAMPLES * 2, conf, 10, &fr), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_scan_frame",
           "768", P_ANY);
    EXPECT(fathom_scan_frame(s, 0, (char *)depth + 1, SAMPLES * 2, conf, SAMPLES, &fr), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_scan_frame", "depth", "align");
    EXPECT(fathom_scan_frame(s, 0, NULL, SAMPLES * 2, conf, SAMPLES, &fr), FATHOM_ERR_NULL_POINTER, "fathom_scan_frame",
           "depth", P_NULL);
    EXPECT(fathom_scan_frame(s, 0, depth, SAMPLES * 2, conf, SAMPLES, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_scan_frame", "out", P_NULL);
    CHECK(memcmp(&fr, &fr0, sizeof fr) == 0);
    for (i = 0, unchanged = 1; i <= SAMPLES; i++) unchanged &= depth[i] == 0xABCD;
    CHECK(unchanged);
    fathom_scan_destroy(s);
}

/* ---- the writer's checks --------------------------------------------------------------------------- */
static void test_writer_checks(void) {
    fathom_scan_writer_options o, d;
    fathom_scan_writer *w = NULL, *wsentinel = (fathom_scan_writer *)&w;
    fathom_scan *s = NULL;
    fathom_scan_info info;
    uint16_t depth[SAMPLES], got[SAMPLES];
    uint8_t conf[SAMPLES];
    fathom_intrinsics k = k_of(0), bad_k = k_of(0);
    fathom_pose p = pose_of(0), scaled = pose_of(0);
    char dir[300];

    check_section("fathom_scan_writer_options_init: the documented defaults");
    memset(&d, 0x5A, sizeof d);
    CHECK_OK(fathom_scan_writer_options_init(&d));
    CHECK(d.depth_width == 256 && d.depth_height == 192 && d.rgb_width == 1920 && d.rgb_height == 1440);
    CHECK(d.depth_format == FATHOM_DEPTH_FLOAT16 && d.with_confidence == true && d.zlib_wrapped == false &&
          d.frequency == 60);
    CHECK(t_bool_byte(&d.with_confidence) == 1 && t_bool_byte(&d.zlib_wrapped) == 0);
    CHECK(t_all_zero(d.reserved, sizeof d.reserved));
    EXPECT(fathom_scan_writer_options_init(NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_writer_options_init", "options",
           P_NULL);

    check_section("fathom_scan_writer_create: bad options");
    snprintf(dir, sizeof dir, "%s/w", DIR_PATH);
    w = wsentinel;
    o = small_options();
    o.depth_format = 7;
    EXPECT(fathom_scan_writer_create(dir, "x", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
           "depth_format", P_ANY);
    o = small_options();
    t_set_bool_byte(&o.with_confidence, 2); /* a byte neither false nor true */
    EXPECT(fathom_scan_writer_create(dir, "x", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
           "with_confidence", P_ANY);
    o = small_options();
    t_set_bool_byte(&o.zlib_wrapped, 9);
    EXPECT(fathom_scan_writer_create(dir, "x", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
           "zlib_wrapped", P_ANY);
    o = small_options();
    o.depth_width = 0;
    EXPECT(fathom_scan_writer_create(dir, "x", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
           "depth width", P_ANY);
    o = small_options();
    o.rgb_height = 70000;
    EXPECT(fathom_scan_writer_create(dir, "x", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
           "rgb height", P_ANY);
    o = small_options();
    o.frequency = NAN;
    EXPECT(fathom_scan_writer_create(dir, "x", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
           "frequency", P_ANY);
    o = small_options();
    EXPECT(fathom_scan_writer_create(dir, "a/b", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
           "scan_id", P_ANY);
    EXPECT(fathom_scan_writer_create(dir, "a.b", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
           "scan_id", P_ANY);
    EXPECT(fathom_scan_writer_create(NULL, "x", &o, &w), FATHOM_ERR_NULL_POINTER, "fathom_scan_writer_create",
           "directory", P_NULL);
    EXPECT(fathom_scan_writer_create(dir, NULL, &o, &w), FATHOM_ERR_NULL_POINTER, "fathom_scan_writer_create", "scan_id",
           P_NULL);
    EXPECT(fathom_scan_writer_create(dir, "x", &o, NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_writer_create", "out",
           P_NULL);
    EXPECT(fathom_scan_writer_create("/nonexistent/fathom/deeper", "x", &o, &w), FATHOM_ERR_IO,
           "fathom_scan_writer_create", "/nonexistent/fathom/deeper", P_ANY);
    CHECK(w == wsentinel);
    fathom_scan_writer_destroy(NULL);

    check_section("fathom_scan_writer_append: refused frames write nothing");
    w = NULL;
    CHECK_OK(fathom_scan_writer_create(dir, "x", &o, &w));
    if (!w) return;
    frame_data(0, depth, conf);
    CHECK_OK(fathom_scan_writer_append(w, 1000, &k, &p, depth, sizeof depth, conf, sizeof conf));
    EXPECT(fathom_scan_writer_append(w, 999, &k, &p, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_scan_writer_append", "timestamp", "earlier");
    EXPECT(fathom_scan_writer_append(w, 2000, &k, &p, depth, sizeof depth - 2, conf, sizeof conf), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_scan_writer_append", "1536", P_ANY);
    EXPECT(fathom_scan_writer_append(w, 2000, &k, &p, depth, sizeof depth, conf, sizeof conf - 1),
           FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_append", "confidence", P_ANY);
    EXPECT(fathom_scan_writer_append(w, 2000, &k, &p, depth, sizeof depth, NULL, 0), FATHOM_ERR_NULL_POINTER,
           "fathom_scan_writer_append", "confidence", P_NULL);
    conf[100] = 3;
    EXPECT(fathom_scan_writer_append(w, 2000, &k, &p, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_scan_writer_append", "confidence[100]", P_ANY);
    conf[100] = 2;
    scaled.m[0] *= 1.1f;
    EXPECT(fathom_scan_writer_append(w, 2000, &k, &scaled, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_NOT_RIGID,
           "fathom_scan_writer_append", "camera_to_world", P_ANY);
    bad_k.fx = NAN;
    EXPECT(fathom_scan_writer_append(w, 2000, &bad_k, &p, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_NOT_FINITE,
           "fathom_scan_writer_append", "fx", P_FINITE);
    EXPECT(fathom_scan_writer_append(w, 2000, NULL, &p, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_NULL_POINTER,
           "fathom_scan_writer_append", "rgb", P_NULL);
    EXPECT(fathom_scan_writer_append(w, 2000, &k, NULL, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_NULL_POINTER,
           "fathom_scan_writer_append", "camera_to_world", P_NULL);
    EXPECT(fathom_scan_writer_append(w, 2000, &k, &p, NULL, sizeof depth, conf, sizeof conf), FATHOM_ERR_NULL_POINTER,
           "fathom_scan_writer_append", "depth", P_NULL);
    EXPECT(fathom_scan_writer_append(NULL, 2000, &k, &p, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_NULL_POINTER,
           "fathom_scan_writer_append", "writer", P_NULL);
    CHECK_OK(fathom_scan_writer_append(w, 1000, &k, &p, depth, sizeof depth, conf, sizeof conf)); /* equal time: fine */
    CHECK_OK(fathom_scan_writer_finish(w));
    CHECK_OK(fathom_scan_writer_finish(w)); /* again: nothing to do */
    EXPECT(fathom_scan_writer_append(w, 3000, &k, &p, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_INVALID_STATE,
           "fathom_scan_writer_append", NULL, "finished");
    EXPECT(fathom_scan_writer_finish(NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_writer_finish", "writer", P_NULL);
    fathom_scan_writer_destroy(w);
    CHECK_OK(fathom_scan_open(path_in(dir, "x.json"), &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count == 2 && info.warning_count == 0);
    CHECK_OK(fathom_scan_read_depth(s, 1, got, sizeof got));
    CHECK(memcmp(got, depth, sizeof got) == 0);
    memset(conf, 9, sizeof conf);
    CHECK_OK(fathom_scan_read_confidence(s, 1, conf, sizeof conf));
    CHECK(conf[100] == 2 && conf[101] == conf_of(0, 101 % W, 101 / W)); /* the frame appended last: conf[100] = 2 */
    fathom_scan_destroy(s);

    check_section("a writer without confidence");
    o.with_confidence = 0;
    o.depth_format = FATHOM_DEPTH_UINT16;
    o.zlib_wrapped = 1;
    w = NULL;
    CHECK_OK(fathom_scan_writer_create(dir, "y", &o, &w));
    if (!w) return;
    EXPECT(fathom_scan_writer_append(w, 1, &k, &p, depth, sizeof depth, conf, sizeof conf), FATHOM_ERR_INVALID_STATE,
           "fathom_scan_writer_append", NULL, "confidence");
    CHECK_OK(fathom_scan_writer_append(w, 1, &k, &p, depth, sizeof depth, NULL, 0));
    CHECK_OK(fathom_scan_writer_finish(w));
    fathom_scan_writer_destroy(w);
    s = NULL;
    CHECK_OK(fathom_scan_open(path_in(dir, "y.jsonl"), &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count == 1 && info.has_confidence == 0 && info.depth_format == FATHOM_DEPTH_UINT16);
    CHECK(info.depth_scale == 0.001f);
    EXPECT(fathom_scan_read_confidence(s, 0, conf, sizeof conf), FATHOM_ERR_NO_DATA, "fathom_scan_read_confidence",
           NULL, "confidence");
    CHECK_OK(fathom_scan_read_depth(s, 0, got, sizeof got));
    CHECK(memcmp(got, depth, sizeof got) == 0); /* the same 16-bit words, now read as millimetres */
    fathom_scan_destroy(s);
}

/* ---- damaged files --------------------------------------------------------------------------------- */
static void test_damage(void) {
    fathom_scan *s = NULL;
    fathom_scan_info info;
    struct stat st;
    char dir[300], warning[512];
    size_t len = 0;
    uint32_t i;
    int cut_warned = 0;
    FILE *f;
    fathom_scan_open_options lazy;
    uint64_t whole, k;
    uint16_t depth[SAMPLES], want_depth[SAMPLES];
    uint8_t want_conf[SAMPLES];

    check_section("a depth stream cut short keeps its whole frames, with warnings");
    snprintf(dir, sizeof dir, "%s/cut", DIR_PATH);
    CHECK(write_scan(dir, SCAN_ID, 1));
    CHECK(stat(path_in(dir, SCAN_ID ".depth.zlib"), &st) == 0);
    CHECK(truncate(path_in(dir, SCAN_ID ".depth.zlib"), st.st_size * 6 / 10) == 0);
    CHECK_OK(fathom_scan_open(dir, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count >= 1 && info.frame_count < N);
    CHECK(info.warning_count >= 2); /* the cut, the counts that disagree */
    for (i = 0; i < info.warning_count; i++) {
        CHECK_OK(fathom_scan_warning(s, i, warning, sizeof warning, &len));
        if (strstr(warning, ".depth.zlib") && strstr(warning, "cut")) cut_warned = 1;
    }
    CHECK(cut_warned);
    whole = info.frame_count;
    fathom_scan_destroy(s);

    check_section("indexed while reading: the frames listed, the cut found by the read that reaches it");
    CHECK_OK(fathom_scan_open_options_init(&lazy));
    lazy.index_while_reading = true;
    s = NULL;
    CHECK_OK(fathom_scan_open_with(dir, &lazy, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count == N && info.warning_count == 0); /* the camera info and metadata agree; the stream is not counted */
    for (k = 0; k < whole; k++) {
        frame_data((int)k, want_depth, want_conf);
        memset(depth, 0xEE, sizeof depth);
        CHECK_OK(fathom_scan_read_depth(s, k, depth, sizeof depth));
        CHECK(memcmp(depth, want_depth, sizeof depth) == 0);
    }
    memset(depth, 0xEE, sizeof depth);
    EXPECT(fathom_scan_read_depth(s, whole, depth, sizeof depth), FATHOM_ERR_FORMAT, "fathom_scan_read_depth",
           SCAN_ID ".depth.zlib", "is not in the stream");
    CHECK(depth[0] == 0xEEEE && depth[SAMPLES - 1] == 0xEEEE);
    fathom_scan_destroy(s);

    check_section("an empty depth stream is an error naming it");
    f = fopen(path_in(dir, SCAN_ID ".depth.zlib"), "wb");
    CHECK(f != NULL);
    if (f) fclose(f);
    s = NULL;
    EXPECT(fathom_scan_open(dir, &s), FATHOM_ERR_FORMAT, "fathom_scan_open", SCAN_ID ".depth.zlib", "empty");
    CHECK(s == NULL);
}

/* ---- other formats: fathom_scan_write to a Stray folder and back ---------------------------------- */

static char FORMATS_DIR[256];

/* A uint16 millimetre scan: depth 0 (none) at some samples, else 300 ... 4999 mm; the RGB image Stray Scanner's
 * 1920 x 1440 video (a Stray folder's intrinsics refer to it). */
static uint16_t mm_of(int f, int i, int j) {
    if ((2 * i + j + f) % 13 == 0) return 0;
    return (uint16_t)(300 + (i * 37 + j * 101 + f * 211) % 4700);
}
static fathom_intrinsics k_1920(int f) { return t_intr(1500.5f + (float)f, 1502.25f, 961.5f, 719.75f, 1920, 1440); }

static void mm_frame(int f, uint16_t depth[SAMPLES], uint8_t conf[SAMPLES]) {
    int i, j;
    for (j = 0; j < H; j++)
        for (i = 0; i < W; i++) {
            depth[j * W + i] = mm_of(f, i, j);
            conf[j * W + i] = conf_of(f, i, j);
        }
}

static int write_mm_scan(const char *dir, const char *id) {
    fathom_scan_writer_options o = small_options();
    fathom_scan_writer *w = NULL;
    uint16_t depth[SAMPLES];
    uint8_t conf[SAMPLES];
    int f, ok = 1;
    o.depth_format = FATHOM_DEPTH_UINT16;
    o.rgb_width = 1920;
    o.rgb_height = 1440;
    if (fathom_scan_writer_create(dir, id, &o, &w) != FATHOM_OK) {
        printf("    fathom_scan_writer_create: %s\n", fathom_last_error());
        return 0;
    }
    for (f = 0; f < N; f++) {
        fathom_intrinsics k = k_1920(f);
        fathom_pose p = pose_of(f);
        mm_frame(f, depth, conf);
        if (fathom_scan_writer_append(w, time_of(f), &k, &p, depth, sizeof depth, conf, sizeof conf) != FATHOM_OK) {
            printf("    fathom_scan_writer_append: %s\n", fathom_last_error());
            ok = 0;
        }
    }
    if (fathom_scan_writer_finish(w) != FATHOM_OK) ok = 0;
    fathom_scan_writer_destroy(w);
    return ok;
}

/* The progress callback's log: every call has done <= total, done counting up by one, the same total. */
typedef struct progress_log {
    uint64_t calls, total, stop_at;
    int bad;
} progress_log;

static int log_progress(void *user, uint64_t done, uint64_t total) {
    progress_log *p = (progress_log *)user;
    p->calls++;
    if (done > total || done != p->calls || (p->calls > 1 && total != p->total)) p->bad++;
    p->total = total;
    return p->stop_at != 0 && done >= p->stop_at ? 7 : 0;
}

static int file_exists(const char *path) { return access(path, F_OK) == 0; }

/* The per-frame arrays of an opened scan with N frames or fewer, into the caller's arrays. */
static void read_arrays(const fathom_scan *s, int64_t ts[N], fathom_pose poses[N], fathom_intrinsics ks[N]) {
    CHECK_OK(fathom_scan_timestamps(s, ts, N));
    CHECK_OK(fathom_scan_poses(s, poses, N));
    CHECK_OK(fathom_scan_intrinsics(s, ks, N));
}

static int pose_near(const fathom_pose *a, const fathom_pose *b, double tol) {
    int e;
    for (e = 0; e < 16; e++)
        if (!(fabs((double)a->m[e] - b->m[e]) <= tol)) return 0;
    return 1;
}

static void test_write_stray(void) {
    char src[300], stray[300], back[300], warning[512];
    fathom_scan *s = NULL, *t = NULL;
    fathom_scan_info info;
    int64_t ts[N];
    fathom_pose poses[N];
    fathom_intrinsics ks[N];
    uint16_t mm[SAMPLES], got_mm[SAMPLES];
    uint8_t conf[SAMPLES], got_conf[SAMPLES];
    float meters[SAMPLES];
    progress_log log = {0, 0, 0, 0};
    size_t len = 0;
    uint32_t i, before;
    int f, k, bad, named_missing = 0, named_cut = 0;
    struct stat st;

    check_section("fathom_scan_write: a uint16 scan to a Stray folder");
    snprintf(src, sizeof src, "%s/mm", FORMATS_DIR);
    snprintf(stray, sizeof stray, "%s/stray", FORMATS_DIR);
    snprintf(back, sizeof back, "%s/back", FORMATS_DIR);
    CHECK(write_mm_scan(src, "mm_scan"));
    CHECK_OK(fathom_scan_open(src, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.format == FATHOM_SCAN_SCANNER && info.depth_format == FATHOM_DEPTH_UINT16);
    CHECK_OK(fathom_scan_write(s, stray, FATHOM_SCAN_STRAY, log_progress, &log));
    CHECK(log.calls == N && log.total == N && log.bad == 0);
    fathom_scan_destroy(s);
    CHECK(file_exists(path_in(stray, "odometry.csv")) && file_exists(path_in(stray, "camera_matrix.csv")));
    CHECK(file_exists(path_in(stray, "depth/000000.png")) && file_exists(path_in(stray, "depth/000004.png")));
    CHECK(file_exists(path_in(stray, "confidence/000004.png")) && !file_exists(path_in(stray, "depth/000005.png")));

    check_section("fathom_scan_open: the Stray folder");
    s = NULL;
    CHECK_OK(fathom_scan_open(stray, &s));
    if (!s) return;
    memset(&info, 0x5A, sizeof info);
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.format == FATHOM_SCAN_STRAY);
    CHECK(info.frame_count == N);
    CHECK(info.depth_width == W && info.depth_height == H);
    CHECK(info.depth_format == FATHOM_DEPTH_FLOAT32 && info.depth_scale == 1.0f);
    CHECK(info.rgb_width == 1920 && info.rgb_height == 1440);
    CHECK(info.has_confidence == 1);
    CHECK(info.warning_count == 0);
    /* 1 / the median period: the periods are 16666667 + 2000 (0 -> 1, 2 -> 3) and 16666667 - 2000 (1 -> 2,
     * 3 -> 4); sorted, element 4 / 2 = 2 of them is 16668667 ns. */
    CHECK_NEAR(info.frequency, 1e9 / 16668667.0, 1e-9);
    CHECK_OK(fathom_scan_id(s, warning, sizeof warning, &len));
    CHECK(strcmp(warning, "stray") == 0); /* the folder's name */
    read_arrays(s, ts, poses, ks);
    for (f = 0, bad = 0; f < N; f++) {
        fathom_intrinsics kk = k_1920(f);
        fathom_pose p = pose_of(f);
        bad += ts[f] != time_of(f); /* nanoseconds, exactly */
        bad += !(ks[f].fx == kk.fx && ks[f].fy == kk.fy && ks[f].cx == kk.cx && ks[f].cy == kk.cy);
        bad += !(ks[f].width == 1920 && ks[f].height == 1440);
        bad += !pose_near(&poses[f], &p, 1e-6); /* ARKit axes again, within float rounding */
    }
    CHECK(bad == 0);
    for (f = 0, bad = 0; f < N; f++) {
        mm_frame(f, mm, conf);
        memset(meters, 0x5A, sizeof meters);
        memset(got_conf, 0x5A, sizeof got_conf);
        CHECK_OK(fathom_scan_read_depth(s, (uint64_t)f, meters, sizeof meters));
        CHECK_OK(fathom_scan_read_confidence(s, (uint64_t)f, got_conf, sizeof got_conf));
        for (k = 0; k < SAMPLES; k++) bad += meters[k] != (float)mm[k] * 0.001f; /* the header's uint16 * 0.001f */
        bad += memcmp(got_conf, conf, sizeof conf) != 0;
    }
    CHECK(bad == 0);
    /* by any of its files */
    {
        const char *files[4] = {"odometry.csv", "camera_matrix.csv", "depth/000002.png", "confidence/000000.png"};
        for (k = 0; k < 4; k++) {
            fathom_scan_info fi;
            t = NULL;
            CHECK_OK(fathom_scan_open(path_in(stray, files[k]), &t));
            CHECK(t && fathom_scan_get_info(t, &fi) == FATHOM_OK && fi.format == FATHOM_SCAN_STRAY && fi.frame_count == N);
            fathom_scan_destroy(t);
        }
    }

    check_section("fathom_scan_write: the Stray scan back to a scanner-app scan");
    CHECK_OK(fathom_scan_write(s, back, FATHOM_SCAN_SCANNER, NULL, NULL));
    fathom_scan_destroy(s);
    CHECK(file_exists(path_in(back, "stray.json")) && file_exists(path_in(back, "stray.depth.zlib")));
    s = NULL;
    CHECK_OK(fathom_scan_open(back, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.format == FATHOM_SCAN_SCANNER);
    CHECK(info.frame_count == N && info.depth_width == W && info.depth_height == H);
    CHECK(info.depth_format == FATHOM_DEPTH_UINT16 && info.depth_scale == 0.001f); /* PNG sources as millimetres */
    CHECK(info.has_confidence == 1 && info.warning_count == 0);
    CHECK(info.rgb_width == 1920 && info.rgb_height == 1440);
    CHECK_OK(fathom_scan_id(s, warning, sizeof warning, &len));
    CHECK(strcmp(warning, "stray") == 0);
    read_arrays(s, ts, poses, ks);
    for (f = 0, bad = 0; f < N; f++) {
        fathom_intrinsics kk = k_1920(f);
        fathom_pose p = pose_of(f);
        bad += ts[f] != time_of(f);
        bad += !(ks[f].fx == kk.fx && ks[f].fy == kk.fy && ks[f].cx == kk.cx && ks[f].cy == kk.cy);
        bad += !pose_near(&poses[f], &p, 1e-6);
        mm_frame(f, mm, conf);
        memset(got_mm, 0x5A, sizeof got_mm);
        CHECK_OK(fathom_scan_read_depth(s, (uint64_t)f, got_mm, sizeof got_mm));
        CHECK_OK(fathom_scan_read_confidence(s, (uint64_t)f, got_conf, sizeof got_conf));
        bad += memcmp(got_mm, mm, sizeof mm) != 0; /* the same uint16 samples */
        bad += memcmp(got_conf, conf, sizeof conf) != 0;
    }
    CHECK(bad == 0);
    fathom_scan_destroy(s);

    check_section("a Stray folder with a depth PNG missing and one cut: frames skipped, warnings naming them");
    s = NULL;
    CHECK_OK(fathom_scan_open(stray, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    before = info.warning_count;
    fathom_scan_destroy(s);
    CHECK(unlink(path_in(stray, "depth/000001.png")) == 0);
    CHECK(stat(path_in(stray, "depth/000003.png"), &st) == 0);
    CHECK(truncate(path_in(stray, "depth/000003.png"), st.st_size / 2) == 0);
    s = NULL;
    CHECK_OK(fathom_scan_open(stray, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count == N - 2);
    CHECK(info.warning_count >= before + 2);
    for (i = 0; i < info.warning_count; i++) {
        CHECK_OK(fathom_scan_warning(s, i, warning, sizeof warning, &len));
        CHECK(len == strlen(warning));
        if (strstr(warning, "depth/000001.png")) named_missing = 1;
        if (strstr(warning, "depth/000003.png")) named_cut = 1;
    }
    CHECK(named_missing && named_cut);
    /* the frames kept are 0, 2 and 4, with their own data */
    CHECK_OK(fathom_scan_timestamps(s, ts, N - 2));
    CHECK(ts[0] == time_of(0) && ts[1] == time_of(2) && ts[2] == time_of(4));
    mm_frame(2, mm, conf);
    CHECK_OK(fathom_scan_read_depth(s, 1, meters, sizeof meters));
    for (k = 0, bad = 0; k < SAMPLES; k++) bad += meters[k] != (float)mm[k] * 0.001f;
    CHECK(bad == 0);
    EXPECT(fathom_scan_read_depth(s, N - 2, meters, sizeof meters), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_read_depth",
           NULL, "range");
    fathom_scan_destroy(s);
}

/* A float16 scan (the test scan, RGB 640 x 480) to Stray: depth rounded to the millimetre; timestamps kept
 * exactly; intrinsics scaled to Stray's 1920 x 1440 video (fathom_scan_write): fx * 1920 / 640, cx * 1920 / 640,
 * fy * 1440 / 480, cy * 1440 / 480, here each exactly 3 times the scan's (500 + f, 502.25, 320.5, 240.25). */
static void test_write_stray_float16(void) {
    char stray[300];
    fathom_scan *s = NULL;
    fathom_scan_info info;
    int64_t ts[N];
    fathom_pose poses[N];
    fathom_intrinsics ks[N];
    float meters[SAMPLES];
    uint8_t conf[SAMPLES], want_conf[SAMPLES];
    uint16_t unused[SAMPLES];
    int f, i, j, bad = 0, k_bad = 0;

    check_section("fathom_scan_write: a float16 scan to Stray (depth rounded to the millimetre, intrinsics scaled)");
    snprintf(stray, sizeof stray, "%s/f16-stray", FORMATS_DIR);
    CHECK(write_scan(path_in(FORMATS_DIR, "f16"), SCAN_ID, 1));
    CHECK_OK(fathom_scan_open(path_in(FORMATS_DIR, "f16"), &s));
    if (!s) return;
    CHECK_OK(fathom_scan_write(s, stray, FATHOM_SCAN_STRAY, NULL, NULL));
    fathom_scan_destroy(s);
    s = NULL;
    CHECK_OK(fathom_scan_open(stray, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.format == FATHOM_SCAN_STRAY && info.frame_count == N && info.depth_format == FATHOM_DEPTH_FLOAT32);
    CHECK(info.rgb_width == 1920 && info.rgb_height == 1440); /* the video the intrinsics now refer to */
    read_arrays(s, ts, poses, ks);
    for (f = 0; f < N; f++) {
        fathom_intrinsics k = k_of(f);
        bad += ts[f] != time_of(f);
        k_bad += !(ks[f].fx == 3 * k.fx && ks[f].fy == 3 * k.fy && ks[f].cx == 3 * k.cx && ks[f].cy == 3 * k.cy);
        k_bad += !(ks[f].width == 1920 && ks[f].height == 1440);
        frame_data(f, unused, want_conf);
        CHECK_OK(fathom_scan_read_depth(s, (uint64_t)f, meters, sizeof meters));
        CHECK_OK(fathom_scan_read_confidence(s, (uint64_t)f, conf, sizeof conf));
        /* 0.5 + n / 64 m is 500 + 15.625 n mm, exact in float; rounded half away from zero as lround does */
        for (j = 0; j < H; j++)
            for (i = 0; i < W; i++)
                bad += meters[j * W + i] != (float)lround(depth_m(f, i, j) * 1000) * 0.001f;
        bad += memcmp(conf, want_conf, sizeof conf) != 0;
    }
    CHECK(bad == 0);
    CHECK(k_bad == 0);
    if (k_bad) printf("    frame 0's intrinsics read %g %g %g %g of %u x %u\n", ks[0].fx, ks[0].fy, ks[0].cx, ks[0].cy, ks[0].width, ks[0].height);
    fathom_scan_destroy(s);
}

/* ---- more of the formats: Stray's intrinsics, timestamps, grid limits, confidence, uint16 meters ---------- */

/* A uint16 scan of `n` frames of a w x h grid (the writer's millimetres) into dir, RGB rgb_w x rgb_h, at `times`
 * (NULL: time_of) with intrinsics `ks` (NULL: k_any(f) of that RGB size); depth sample k of frame f is
 * u16_sample(mode, f, k), confidence conf_sample(f, k) when with_conf. Returns 1 on success. */
static uint16_t u16_sample(int mode, int f, size_t k) {
    if ((k + 3 * (size_t)f) % 13 == 0) return 0;
    /* mode 0: 300 ... 4999 (millimetres); mode 1: 1 ... 70 (meters, some beyond Stray's 65.535 m) */
    return mode == 0 ? (uint16_t)(300 + (k * 37 + (size_t)f * 211) % 4700) : (uint16_t)(1 + (k * 7 + (size_t)f) % 70);
}
static uint8_t conf_sample(int f, size_t k) { return (uint8_t)((k + (size_t)f) % 3); }
static fathom_intrinsics k_any(int f, uint32_t rgb_w, uint32_t rgb_h) {
    return t_intr(1000.5f + (float)f, 1002.25f, 600.5f, 400.75f, rgb_w, rgb_h);
}

static int write_u16(const char *dir, const char *id, uint32_t w, uint32_t h, uint32_t rgb_w, uint32_t rgb_h, int n,
                     const int64_t *times, const fathom_intrinsics *ks, int mode, int with_conf) {
    fathom_scan_writer_options o;
    fathom_scan_writer *wr = NULL;
    size_t samples = (size_t)w * h, k;
    uint16_t *depth = (uint16_t *)malloc(samples * 2);
    uint8_t *conf = (uint8_t *)malloc(samples);
    int f, ok = depth && conf;
    CHECK_OK(fathom_scan_writer_options_init(&o));
    o.depth_width = w;
    o.depth_height = h;
    o.rgb_width = rgb_w;
    o.rgb_height = rgb_h;
    o.depth_format = FATHOM_DEPTH_UINT16;
    o.with_confidence = with_conf != 0;
    if (ok && fathom_scan_writer_create(dir, id, &o, &wr) != FATHOM_OK) {
        printf("    fathom_scan_writer_create: %s\n", fathom_last_error());
        ok = 0;
    }
    for (f = 0; ok && f < n; f++) {
        fathom_intrinsics kk = ks ? ks[f] : k_any(f, rgb_w, rgb_h);
        fathom_pose p = pose_of(f);
        for (k = 0; k < samples; k++) {
            depth[k] = u16_sample(mode, f, k);
            conf[k] = conf_sample(f, k);
        }
        if (fathom_scan_writer_append(wr, times ? times[f] : time_of(f), &kk, &p, depth, samples * 2,
                                      with_conf ? conf : NULL, with_conf ? samples : 0) != FATHOM_OK) {
            printf("    fathom_scan_writer_append: %s\n", fathom_last_error());
            ok = 0;
        }
    }
    if (wr && fathom_scan_writer_finish(wr) != FATHOM_OK) ok = 0;
    fathom_scan_writer_destroy(wr);
    free(depth);
    free(conf);
    return ok;
}

/* Opens `src` and writes it to `dst` as `format`; the status of fathom_scan_write (progress logged in `log`,
 * which may be NULL). */
static fathom_status convert_scan(const char *src, const char *dst, uint32_t format, progress_log *log) {
    fathom_scan *s = NULL;
    fathom_status st;
    if (fathom_scan_open(src, &s) != FATHOM_OK) {
        printf("    fathom_scan_open(%s): %s\n", src, fathom_last_error());
        return FATHOM_ERR_IO;
    }
    st = fathom_scan_write(s, dst, format, log ? log_progress : NULL, log);
    fathom_scan_destroy(s);
    return st;
}

/* A whole file (NUL-terminated, malloc'd) or NULL; its size in *size. */
static char *read_whole(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *p;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    p = (char *)malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p) p[n] = 0;
    if (size) *size = (size_t)n;
    return p;
}

/* PNG files made here: chunks with their CRC-32, image data as a zlib stream of stored blocks. */
static uint32_t crc32_of(const unsigned char *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        c ^= p[i];
        for (k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

static void png_chunk(t_buf *b, const char *type, const unsigned char *data, size_t n) {
    size_t start;
    t_buf_u32(b, (uint32_t)n, 1);
    start = b->n;
    t_buf_put(b, type, 4);
    if (n) t_buf_put(b, data, n);
    t_buf_u32(b, crc32_of(b->p + start, n + 4), 1);
}

/* Stored DEFLATE blocks of `raw` (the raw stream the scanner app writes, or a zlib stream's body). */
static void deflate_stored(t_buf *z, const unsigned char *raw, size_t n) {
    size_t at = 0;
    do {
        size_t len = n - at < 65535 ? n - at : 65535;
        t_buf_u8(z, at + len >= n ? 1 : 0);
        t_buf_u8(z, (unsigned)(len & 0xFF));
        t_buf_u8(z, (unsigned)(len >> 8));
        t_buf_u8(z, (unsigned)(~len & 0xFF));
        t_buf_u8(z, (unsigned)((~len >> 8) & 0xFF));
        if (len) t_buf_put(z, raw + at, len);
        at += len;
    } while (at < n);
}

/* A grayscale PNG of w x h samples (`bits` 8 or 16, big-endian); `samples` NULL writes the header and an image
 * data chunk of one zero byte only (a PNG whose size the reader judges from its header, never decoded). */
static int write_png(const char *path, uint32_t w, uint32_t h, int bits, const uint16_t *samples) {
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    unsigned char ihdr[13];
    t_buf b = {NULL, 0, 0}, raw = {NULL, 0, 0}, z = {NULL, 0, 0};
    uint32_t x, y, s1 = 1, s2 = 0;
    size_t i;
    int ok;
    for (i = 0; i < 4; i++) {
        ihdr[i] = (unsigned char)(w >> (24 - 8 * i));
        ihdr[4 + i] = (unsigned char)(h >> (24 - 8 * i));
    }
    ihdr[8] = (unsigned char)bits;
    ihdr[9] = ihdr[10] = ihdr[11] = ihdr[12] = 0;
    if (samples) {
        for (y = 0; y < h; y++) {
            t_buf_u8(&raw, 0); /* filter: none */
            for (x = 0; x < w; x++) {
                uint16_t v = samples[(size_t)y * w + x];
                if (bits == 16) t_buf_u8(&raw, v >> 8);
                t_buf_u8(&raw, v & 0xFF);
            }
        }
        for (i = 0; i < raw.n; i++) {
            s1 = (s1 + raw.p[i]) % 65521;
            s2 = (s2 + s1) % 65521;
        }
        t_buf_u8(&z, 0x78);
        t_buf_u8(&z, 0x01);
        deflate_stored(&z, raw.p, raw.n);
        t_buf_u32(&z, (s2 << 16) | s1, 1);
    } else {
        t_buf_u8(&z, 0);
    }
    t_buf_put(&b, signature, 8);
    png_chunk(&b, "IHDR", ihdr, sizeof ihdr);
    png_chunk(&b, "IDAT", z.p, z.n);
    png_chunk(&b, "IEND", NULL, 0);
    ok = t_write_file(path, b.p, b.n);
    t_buf_free(&b);
    t_buf_free(&raw);
    t_buf_free(&z);
    return ok;
}

/* The n-th number (from 0) of a camera_matrix.csv's nine, or NAN. */
static double matrix_number(const char *text, int n) {
    const char *p = text;
    char *end;
    double v = NAN;
    int i;
    for (i = 0; i <= n; i++) {
        while (*p == ',' || *p == '\n' || *p == '\r' || *p == ' ') p++;
        v = strtod(p, &end);
        if (end == p) return NAN;
        p = end;
    }
    return v;
}

/* Stray's intrinsics are its 1920 x 1440 video's: a scan of another RGB size is scaled (fx * 1920 / w,
 * cx * 1920 / w, fy * 1440 / h, cy * 1440 / h); a copy of it back to a scanner-app scan keeps them. */
static void test_stray_intrinsics(void) {
    char src[300], stray[300], back[300], *text;
    fathom_scan *s = NULL;
    fathom_scan_info info;
    int64_t ts[N];
    fathom_pose poses[N];
    fathom_intrinsics ks[N], kk[N], back_ks[N];
    int f, bad = 0;

    check_section("fathom_scan_write to Stray: RGB 1280 x 720 intrinsics scaled by 1.5 and 2 (exact)");
    snprintf(src, sizeof src, "%s/rgb720", FORMATS_DIR);
    snprintf(stray, sizeof stray, "%s/rgb720-stray", FORMATS_DIR);
    snprintf(back, sizeof back, "%s/rgb720-back", FORMATS_DIR);
    for (f = 0; f < N; f++) kk[f] = t_intr(700.5f + (float)f, 702.25f, 640.5f, 360.25f, 1280, 720);
    CHECK(write_u16(src, "rgb720", 8, 6, 1280, 720, N, NULL, kk, 0, 1));
    CHECK_OK(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL));
    CHECK_OK(fathom_scan_open(stray, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count == N && info.rgb_width == 1920 && info.rgb_height == 1440);
    read_arrays(s, ts, poses, ks);
    /* 1920 / 1280 = 1.5 and 1440 / 720 = 2: (700.5 + f) * 1.5, 702.25 * 2 = 1404.5, 640.5 * 1.5 = 960.75,
     * 360.25 * 2 = 720.5, every one exact in float */
    for (f = 0; f < N; f++) {
        bad += !(ks[f].fx == (700.5f + (float)f) * 1.5f && ks[f].fy == 1404.5f && ks[f].cx == 960.75f && ks[f].cy == 720.5f);
        bad += !(ks[f].width == 1920 && ks[f].height == 1440);
        bad += ts[f] != time_of(f);
    }
    CHECK(bad == 0);
    fathom_scan_destroy(s);
    /* camera_matrix.csv: the first frame's intrinsics, of the video */
    text = read_whole(path_in(stray, "camera_matrix.csv"), NULL);
    CHECK(text != NULL);
    if (text) {
        CHECK(matrix_number(text, 0) == 1050.75 && matrix_number(text, 2) == 960.75);
        CHECK(matrix_number(text, 4) == 1404.5 && matrix_number(text, 5) == 720.5);
        CHECK(matrix_number(text, 1) == 0 && matrix_number(text, 3) == 0 && matrix_number(text, 8) == 1);
        free(text);
    }

    check_section("the Stray copy back to a scanner-app scan: 1920 x 1440 with the scaled intrinsics, exactly");
    CHECK_OK(convert_scan(stray, back, FATHOM_SCAN_SCANNER, NULL));
    s = NULL;
    CHECK_OK(fathom_scan_open(back, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.rgb_width == 1920 && info.rgb_height == 1440);
    read_arrays(s, ts, poses, back_ks);
    for (f = 0, bad = 0; f < N; f++)
        bad += memcmp(&back_ks[f], &ks[f], sizeof ks[f]) != 0;
    CHECK(bad == 0);
    fathom_scan_destroy(s);

    check_section("fathom_scan_write to Stray: RGB 1000 x 750, fx * 1920 / 1000 to float rounding");
    snprintf(src, sizeof src, "%s/rgb750", FORMATS_DIR);
    snprintf(stray, sizeof stray, "%s/rgb750-stray", FORMATS_DIR);
    for (f = 0; f < N; f++) kk[f] = t_intr(777.7f + (float)f, 779.3f, 500.1f, 375.3f, 1000, 750);
    CHECK(write_u16(src, "rgb750", 8, 6, 1000, 750, N, NULL, kk, 0, 0));
    CHECK_OK(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL));
    s = NULL;
    CHECK_OK(fathom_scan_open(stray, &s));
    if (!s) return;
    read_arrays(s, ts, poses, ks);
    for (f = 0, bad = 0; f < N; f++) {
        /* the header's formula in double; the library's float arithmetic is within two roundings of it */
        bad += !(fabs(ks[f].fx - (double)kk[f].fx * 1920 / 1000) <= 2.5e-7 * ks[f].fx);
        bad += !(fabs(ks[f].cx - (double)kk[f].cx * 1920 / 1000) <= 2.5e-7 * ks[f].cx);
        bad += !(fabs(ks[f].fy - (double)kk[f].fy * 1440 / 750) <= 2.5e-7 * ks[f].fy);
        bad += !(fabs(ks[f].cy - (double)kk[f].cy * 1440 / 750) <= 2.5e-7 * ks[f].cy);
        bad += !(ks[f].width == 1920 && ks[f].height == 1440);
    }
    CHECK(bad == 0);
    fathom_scan_destroy(s);

    check_section("fathom_scan_write to Stray: RGB 1920 x 1440 intrinsics kept exactly (nothing to scale)");
    snprintf(src, sizeof src, "%s/rgb1440", FORMATS_DIR);
    snprintf(stray, sizeof stray, "%s/rgb1440-stray", FORMATS_DIR);
    for (f = 0; f < N; f++) kk[f] = t_intr(1493.1839f + (float)f, 1497.3f, 961.1f, 719.3f, 1920, 1440);
    CHECK(write_u16(src, "rgb1440", 8, 6, 1920, 1440, N, NULL, kk, 0, 0));
    CHECK_OK(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL));
    s = NULL;
    CHECK_OK(fathom_scan_open(stray, &s));
    if (!s) return;
    read_arrays(s, ts, poses, ks);
    for (f = 0, bad = 0; f < N; f++) bad += memcmp(&ks[f], &kk[f], sizeof ks[f]) != 0;
    CHECK(bad == 0);
    fathom_scan_destroy(s);
}

/* Writes a Stray odometry.csv (no per-frame intrinsics: camera_matrix.csv's) of `rows` rows into dir: row r is
 * timestamp cell times[r], frame r, position x_cells[r] (NULL: "0.1"), 1.4, -0.5, the identity quaternion.
 * Cells are given with their lengths (they may hold a NUL byte). */
typedef struct cell {
    const char *text;
    size_t length;
} cell;
#define CELL(s) {s, sizeof(s) - 1}

static int write_odometry(const char *dir, int rows, const cell *times, const cell *x_cells) {
    t_buf b = {NULL, 0, 0};
    char tail[96];
    int r, ok;
    t_buf_str(&b, "timestamp, frame, x, y, z, qx, qy, qz, qw\n");
    for (r = 0; r < rows; r++) {
        t_buf_put(&b, times[r].text, times[r].length);
        snprintf(tail, sizeof tail, ", %06d, ", r);
        t_buf_str(&b, tail);
        if (x_cells && x_cells[r].text) t_buf_put(&b, x_cells[r].text, x_cells[r].length);
        else t_buf_str(&b, "0.1");
        t_buf_str(&b, ", 1.4, -0.5, 0, 0, 0, 1\n");
    }
    ok = t_write_file(path_in(dir, "odometry.csv"), b.p, b.n);
    t_buf_free(&b);
    return ok;
}

/* Every warning of `s` has no NUL before its length; returns 1 when one holds both `a` and `b`. */
static int warned(const fathom_scan *s, const char *a, const char *b) {
    fathom_scan_info info;
    char text[1024];
    size_t len = 0;
    uint32_t i;
    int found = 0;
    if (fathom_scan_get_info(s, &info) != FATHOM_OK) return 0;
    for (i = 0; i < info.warning_count; i++) {
        if (fathom_scan_warning(s, i, text, sizeof text, &len) != FATHOM_OK) continue;
        CHECK(strlen(text) == len); /* no NUL byte inside a warning */
        if (strstr(text, a) && (!b || strstr(text, b))) found = 1;
    }
    return found;
}

/* Timestamps: equal ones are allowed in Stray copies (the writer refuses only decreasing ones; the reader skips
 * only rows going back in time); |t| >= 9e18 ns is FATHOM_ERR_OUT_OF_RANGE for Stray, the frames before it
 * written; a cell holding a NUL byte is not a number. */
static void test_stray_timestamps(void) {
    char src[300], stray[300], odo[300];
    fathom_scan *s = NULL;
    fathom_scan_info info;
    int64_t ts[N];
    fathom_pose poses[N];
    fathom_intrinsics ks[N];
    progress_log log = {0, 0, 0, 0};
    int f, bad = 0;
    const int64_t T = 1000000000123LL, D = 16666667;

    check_section("fathom_scan_write to Stray: equal timestamps are written and read back");
    {
        const int64_t equal[N] = {T, T, T + D, T + 2 * D, T + 3 * D};
        snprintf(src, sizeof src, "%s/equal", FORMATS_DIR);
        snprintf(stray, sizeof stray, "%s/equal-stray", FORMATS_DIR);
        CHECK(write_u16(src, "equal", 8, 6, 1920, 1440, N, equal, NULL, 0, 1));
        CHECK_OK(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL));
        CHECK_OK(fathom_scan_open(stray, &s));
        if (!s) return;
        CHECK_OK(fathom_scan_get_info(s, &info));
        CHECK(info.frame_count == N);
        CHECK(info.warning_count == 0);
        /* the periods 0, D, D, D: the median is D */
        CHECK_NEAR(info.frequency, 1e9 / (double)D, 1e-9);
        read_arrays(s, ts, poses, ks);
        for (f = 0; f < N; f++) bad += ts[f] != equal[f];
        CHECK(bad == 0);
        fathom_scan_destroy(s);
    }

    check_section("a Stray odometry.csv: a row going back in time is skipped with a warning, an equal one kept");
    snprintf(odo, sizeof odo, "%s/odometry", FORMATS_DIR);
    CHECK_OK(convert_scan(path_in(FORMATS_DIR, "mm"), odo, FATHOM_SCAN_STRAY, NULL));
    {
        /* rows 0 ... 4 at 1.0, 1.1, 1.05 (back: skipped), 1.1 (equal to the last row kept), 1.2 s */
        const cell times[N] = {CELL("1.0"), CELL("1.1"), CELL("1.05"), CELL("1.1"), CELL("1.2")};
        CHECK(write_odometry(odo, N, times, NULL));
        s = NULL;
        CHECK_OK(fathom_scan_open(odo, &s));
        if (!s) return;
        CHECK_OK(fathom_scan_get_info(s, &info));
        CHECK(info.frame_count == N - 1);
        CHECK(warned(s, "odometry.csv", "1.05"));
        read_arrays(s, ts, poses, ks);
        CHECK(ts[0] == 1000000000LL && ts[1] == 1100000000LL && ts[2] == 1100000000LL && ts[3] == 1200000000LL);
        /* the frames kept are the files' 0, 1, 3 and 4: frame 3's depth is the mm scan's frame 3 */
        {
            uint16_t mm[SAMPLES];
            uint8_t conf[SAMPLES];
            float meters[SAMPLES];
            int k;
            mm_frame(3, mm, conf);
            CHECK_OK(fathom_scan_read_depth(s, 2, meters, sizeof meters));
            for (k = 0, bad = 0; k < SAMPLES; k++) bad += meters[k] != (float)mm[k] * 0.001f;
            CHECK(bad == 0);
        }
        fathom_scan_destroy(s);
    }

    check_section("a Stray odometry.csv: cells holding a NUL byte are not numbers (rows skipped, warnings escape them)");
    {
        /* row 2's x cell is "0", NUL, "5"; row 3's timestamp cell is "1.3", NUL */
        const cell times[N] = {CELL("1.0"), CELL("1.1"), CELL("1.2"), CELL("1.3\0"), CELL("1.4")};
        const cell xs[N] = {{NULL, 0}, {NULL, 0}, CELL("0\0" "5"), {NULL, 0}, {NULL, 0}};
        CHECK(write_odometry(odo, N, times, xs));
        s = NULL;
        CHECK_OK(fathom_scan_open(odo, &s));
        if (!s) return;
        CHECK_OK(fathom_scan_get_info(s, &info));
        CHECK(info.frame_count == N - 2);
        /* the first row skipped is quoted, its NUL escaped (no NUL byte in any warning: warned checks that) */
        CHECK(warned(s, "odometry.csv", "\\0"));
        read_arrays(s, ts, poses, ks);
        CHECK(ts[0] == 1000000000LL && ts[1] == 1100000000LL && ts[2] == 1400000000LL);
        fathom_scan_destroy(s);
    }

    check_section("fathom_scan_write to Stray: a timestamp of 9e18 ns or more is FATHOM_ERR_OUT_OF_RANGE, earlier frames stay");
    {
        const int64_t far[N] = {T, T + D, 9000000000000000000LL, INT64_MAX, INT64_MAX};
        snprintf(src, sizeof src, "%s/far", FORMATS_DIR);
        snprintf(stray, sizeof stray, "%s/far-stray", FORMATS_DIR);
        CHECK(write_u16(src, "far", 8, 6, 1920, 1440, N, far, NULL, 0, 1));
        EXPECT(convert_scan(src, stray, FATHOM_SCAN_STRAY, &log), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_write",
               "timestamp", "9e18");
        CHECK(log.calls == 2 && log.total == N && log.bad == 0); /* like a cancel after frame 1 */
        CHECK(file_exists(path_in(stray, "depth/000000.png")) && file_exists(path_in(stray, "depth/000001.png")));
        CHECK(file_exists(path_in(stray, "confidence/000001.png")));
        CHECK(!file_exists(path_in(stray, "depth/000002.png")) && !file_exists(path_in(stray, "confidence/000002.png")));
        /* a scanner-app copy holds them */
        CHECK_OK(convert_scan(src, path_in(FORMATS_DIR, "far-scanner"), FATHOM_SCAN_SCANNER, NULL));
        s = NULL;
        CHECK_OK(fathom_scan_open(path_in(FORMATS_DIR, "far-scanner"), &s));
        if (s) {
            CHECK_OK(fathom_scan_timestamps(s, ts, N));
            CHECK(memcmp(ts, far, sizeof far) == 0);
            fathom_scan_destroy(s);
        }
    }
    {
        const int64_t low[2] = {-9000000000000000000LL, 0};
        const int64_t lowest[2] = {INT64_MIN + 1, 0};
        snprintf(src, sizeof src, "%s/low", FORMATS_DIR);
        snprintf(stray, sizeof stray, "%s/low-stray", FORMATS_DIR);
        CHECK(write_u16(src, "low", 8, 6, 1920, 1440, 2, low, NULL, 0, 1));
        EXPECT(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_write",
               "timestamp", "9e18");
        CHECK(!file_exists(path_in(stray, "depth/000000.png")));
        snprintf(src, sizeof src, "%s/lowest", FORMATS_DIR);
        snprintf(stray, sizeof stray, "%s/lowest-stray", FORMATS_DIR);
        CHECK(write_u16(src, "lowest", 8, 6, 1920, 1440, 2, lowest, NULL, 0, 1));
        EXPECT(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_write",
               "timestamp", "9e18");
        CHECK(!file_exists(path_in(stray, "depth/000000.png")));
    }

    check_section("fathom_scan_write to Stray: timestamps just inside +-9e18 ns read back exactly");
    {
        const int64_t inside[2] = {-8999999999999000000LL, 8999999999999000000LL};
        snprintf(src, sizeof src, "%s/inside", FORMATS_DIR);
        snprintf(stray, sizeof stray, "%s/inside-stray", FORMATS_DIR);
        CHECK(write_u16(src, "inside", 8, 6, 1920, 1440, 2, inside, NULL, 0, 1));
        CHECK_OK(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL));
        s = NULL;
        CHECK_OK(fathom_scan_open(stray, &s));
        if (s) {
            CHECK_OK(fathom_scan_get_info(s, &info));
            CHECK(info.frame_count == 2 && info.warning_count == 0);
            CHECK_OK(fathom_scan_timestamps(s, ts, N));
            CHECK(ts[0] == inside[0] && ts[1] == inside[1]);
            fathom_scan_destroy(s);
        }
    }
}

/* Stray writes depth grids up to 4096 x 4096; a PNG depth grid of more than 4194304 pixels is a skipped frame. */
static void test_stray_grid_limits(void) {
    char src[300], stray[300];
    fathom_scan *s = NULL;
    fathom_scan_info info;

    check_section("fathom_scan_write to Stray: a depth grid wider or taller than 4096 is FATHOM_ERR_OUT_OF_RANGE");
    snprintf(src, sizeof src, "%s/wide", FORMATS_DIR);
    snprintf(stray, sizeof stray, "%s/wide-stray", FORMATS_DIR);
    CHECK(write_u16(src, "wide", 4097, 1, 1920, 1440, 2, NULL, NULL, 0, 1));
    EXPECT(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_write",
           "depth width", "4096");
    CHECK(!file_exists(stray)); /* refused before anything was written */
    CHECK_OK(convert_scan(src, path_in(FORMATS_DIR, "wide-scanner"), FATHOM_SCAN_SCANNER, NULL)); /* Stray's limit */
    snprintf(src, sizeof src, "%s/tall", FORMATS_DIR);
    snprintf(stray, sizeof stray, "%s/tall-stray", FORMATS_DIR);
    CHECK(write_u16(src, "tall", 2, 4097, 1920, 1440, 1, NULL, NULL, 0, 0));
    EXPECT(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_write",
           "depth height", "4096");
    CHECK(!file_exists(stray));

    check_section("fathom_scan_write to Stray: 4096 x 1024 (4194304 pixels, at both limits) is written and read");
    snprintf(src, sizeof src, "%s/edge", FORMATS_DIR);
    snprintf(stray, sizeof stray, "%s/edge-stray", FORMATS_DIR);
    CHECK(write_u16(src, "edge", 4096, 1024, 1920, 1440, 1, NULL, NULL, 0, 0));
    CHECK_OK(convert_scan(src, stray, FATHOM_SCAN_STRAY, NULL));
    CHECK_OK(fathom_scan_open(stray, &s));
    if (s) {
        float *meters = (float *)malloc((size_t)4096 * 1024 * 4);
        size_t k;
        int bad = 0;
        CHECK_OK(fathom_scan_get_info(s, &info));
        CHECK(info.frame_count == 1 && info.depth_width == 4096 && info.depth_height == 1024 && info.warning_count == 0);
        CHECK(meters != NULL);
        if (meters) {
            CHECK_OK(fathom_scan_read_depth(s, 0, meters, (size_t)4096 * 1024 * 4));
            for (k = 0; k < (size_t)4096 * 1024; k++) bad += meters[k] != (float)u16_sample(0, 0, k) * 0.001f;
            CHECK(bad == 0);
            free(meters);
        }
        fathom_scan_destroy(s);
    }

    check_section("a Stray depth PNG of 4096 x 1025 (more than 4194304 pixels) is a skipped frame");
    snprintf(stray, sizeof stray, "%s/big-png", FORMATS_DIR);
    CHECK_OK(convert_scan(path_in(FORMATS_DIR, "mm"), stray, FATHOM_SCAN_STRAY, NULL));
    CHECK(write_png(path_in(stray, "depth/000000.png"), 4096, 1025, 16, NULL));
    CHECK(write_png(path_in(stray, "confidence/000000.png"), 4096, 1025, 8, NULL));
    s = NULL;
    CHECK_OK(fathom_scan_open(stray, &s));
    if (s) {
        int64_t ts[N];
        CHECK_OK(fathom_scan_get_info(s, &info));
        CHECK(info.frame_count == N - 1 && info.depth_width == W && info.depth_height == H);
        CHECK(warned(s, "depth/000000.png", NULL));
        CHECK_OK(fathom_scan_timestamps(s, ts, N));
        CHECK(ts[0] == time_of(1));
        fathom_scan_destroy(s);
    }
    /* as the only frames: nothing readable */
    snprintf(stray, sizeof stray, "%s/big-only", FORMATS_DIR);
    CHECK_OK(convert_scan(path_in(FORMATS_DIR, "mm"), stray, FATHOM_SCAN_STRAY, NULL));
    {
        int f;
        char name[64];
        for (f = 0; f < N; f++) {
            snprintf(name, sizeof name, "depth/%06d.png", f);
            CHECK(write_png(path_in(stray, name), 4096, 1025, 16, NULL));
        }
    }
    s = NULL;
    EXPECT(fathom_scan_open(stray, &s), FATHOM_ERR_FORMAT, "fathom_scan_open", "depth/000000.png", P_ANY);
    CHECK(s == NULL);
}

/* Confidence above 2 is damage: it reads as 0 from a Stray PNG, and fathom_scan_write writes it as 0 in both
 * formats. */
static uint8_t damaged_conf(int f, size_t k) {
    static const uint8_t values[7] = {0, 1, 2, 3, 7, 200, 255};
    return values[(k + 2 * (size_t)f) % 7];
}

static void test_confidence_damage(void) {
    char src[300], stray[300], back[300];
    unsigned char raw[N * SAMPLES];
    uint8_t conf[SAMPLES];
    uint16_t samples[SAMPLES];
    t_buf z = {NULL, 0, 0};
    fathom_scan *s = NULL;
    size_t k;
    int f, i, bad = 0;

    check_section("a Stray confidence PNG holding values above 2: they read as 0");
    snprintf(stray, sizeof stray, "%s/conf-png", FORMATS_DIR);
    CHECK_OK(convert_scan(path_in(FORMATS_DIR, "mm"), stray, FATHOM_SCAN_STRAY, NULL));
    for (k = 0; k < SAMPLES; k++) samples[k] = damaged_conf(1, k);
    CHECK(write_png(path_in(stray, "confidence/000001.png"), W, H, 8, samples));
    CHECK_OK(fathom_scan_open(stray, &s));
    if (!s) return;
    memset(conf, 0x5A, sizeof conf);
    CHECK_OK(fathom_scan_read_confidence(s, 1, conf, sizeof conf));
    for (k = 0; k < SAMPLES; k++) bad += conf[k] != (samples[k] > 2 ? 0 : samples[k]);
    CHECK(bad == 0);
    /* written again: the values read */
    snprintf(back, sizeof back, "%s/conf-png-back", FORMATS_DIR);
    CHECK_OK(fathom_scan_write(s, back, FATHOM_SCAN_SCANNER, NULL, NULL));
    fathom_scan_destroy(s);
    s = NULL;
    CHECK_OK(fathom_scan_open(back, &s));
    if (s) {
        uint8_t got[SAMPLES];
        CHECK_OK(fathom_scan_read_confidence(s, 1, got, sizeof got));
        CHECK(memcmp(got, conf, sizeof got) == 0);
        fathom_scan_destroy(s);
    }

    check_section("fathom_scan_write: a scanner-app scan's confidence above 2 is written as 0 (scanner and Stray)");
    snprintf(src, sizeof src, "%s/conf-stream", FORMATS_DIR);
    CHECK(write_mm_scan(src, "conf_stream"));
    /* the confidence stream replaced by raw DEFLATE (as the app writes it) of values 0, 1, 2, 3, 7, 200, 255 */
    for (f = 0; f < N; f++)
        for (k = 0; k < SAMPLES; k++) raw[(size_t)f * SAMPLES + k] = damaged_conf(f, k);
    deflate_stored(&z, raw, sizeof raw);
    CHECK(t_write_file(path_in(src, "conf_stream.confidence.zlib"), z.p, z.n));
    t_buf_free(&z);
    for (i = 0; i < 2; i++) {
        const uint32_t format = i == 0 ? FATHOM_SCAN_SCANNER : FATHOM_SCAN_STRAY;
        snprintf(back, sizeof back, "%s/conf-stream-%d", FORMATS_DIR, i);
        CHECK_OK(convert_scan(src, back, format, NULL));
        s = NULL;
        CHECK_OK(fathom_scan_open(back, &s));
        if (!s) continue;
        for (f = 0, bad = 0; f < N; f++) {
            memset(conf, 0x5A, sizeof conf);
            CHECK_OK(fathom_scan_read_confidence(s, (uint64_t)f, conf, sizeof conf));
            for (k = 0; k < SAMPLES; k++) {
                uint8_t v = damaged_conf(f, k);
                bad += conf[k] != (v > 2 ? 0 : v);
            }
        }
        CHECK(bad == 0);
        fathom_scan_destroy(s);
    }
}

/* Depth in its stored form for a scanner-app copy: uint16 millimetres stay uint16 millimetres; uint16 in other
 * units (meters: depth_unit "m", scale 1) become FLOAT32 meters, the same meters. */
static void test_uint16_units(void) {
    char src[300], dst[300], *json, *at;
    fathom_scan *s = NULL;
    fathom_scan_info info;
    float meters[48];
    uint16_t u[48];
    size_t size = 0, k;
    int f, bad = 0;

    check_section("fathom_scan_write: a uint16 millimetre scan to a scanner-app scan stays uint16 millimetres");
    snprintf(dst, sizeof dst, "%s/mm-scanner", FORMATS_DIR);
    CHECK_OK(convert_scan(path_in(FORMATS_DIR, "mm"), dst, FATHOM_SCAN_SCANNER, NULL));
    CHECK_OK(fathom_scan_open(dst, &s));
    if (s) {
        uint16_t mm[SAMPLES], got[SAMPLES];
        uint8_t conf[SAMPLES];
        CHECK_OK(fathom_scan_get_info(s, &info));
        CHECK(info.depth_format == FATHOM_DEPTH_UINT16 && info.depth_scale == 0.001f);
        for (f = 0; f < N; f++) {
            mm_frame(f, mm, conf);
            CHECK_OK(fathom_scan_read_depth(s, (uint64_t)f, got, sizeof got));
            bad += memcmp(got, mm, sizeof mm) != 0;
        }
        CHECK(bad == 0);
        fathom_scan_destroy(s);
    }

    check_section("fathom_scan_write: a uint16 scan in meters to a scanner-app scan is FLOAT32 meters");
    snprintf(src, sizeof src, "%s/metres", FORMATS_DIR);
    CHECK(write_u16(src, "metres", 8, 6, 1920, 1440, N, NULL, NULL, 1, 1));
    json = read_whole(path_in(src, "metres.json"), &size);
    CHECK(json != NULL);
    if (!json) return;
    at = strstr(json, "\"depth_unit\":\"mm\"");
    CHECK(at != NULL);
    if (at) {
        memmove(at + 15, at + 16, strlen(at + 16) + 1); /* "mm" -> "m" */
        CHECK(t_write_file(path_in(src, "metres.json"), json, size - 1));
    }
    free(json);
    s = NULL;
    CHECK_OK(fathom_scan_open(src, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.depth_format == FATHOM_DEPTH_UINT16 && info.depth_scale == 1.0f);
    fathom_scan_destroy(s);
    snprintf(dst, sizeof dst, "%s/metres-scanner", FORMATS_DIR);
    CHECK_OK(convert_scan(src, dst, FATHOM_SCAN_SCANNER, NULL));
    s = NULL;
    CHECK_OK(fathom_scan_open(dst, &s));
    if (s) {
        CHECK_OK(fathom_scan_get_info(s, &info));
        CHECK(info.depth_format == FATHOM_DEPTH_FLOAT32 && info.depth_scale == 1.0f);
        CHECK(info.frame_count == N && info.has_confidence == 1);
        for (f = 0, bad = 0; f < N; f++) {
            memset(meters, 0x5A, sizeof meters);
            CHECK_OK(fathom_scan_read_depth(s, (uint64_t)f, meters, sizeof meters));
            for (k = 0; k < 48; k++) bad += meters[k] != (float)u16_sample(1, f, k); /* n meters * 1 */
        }
        CHECK(bad == 0);
        fathom_scan_destroy(s);
    }
    check_section("fathom_scan_write: the uint16 meters to Stray (whole meters in millimetres, 0 beyond 65.535 m)");
    snprintf(dst, sizeof dst, "%s/metres-stray", FORMATS_DIR);
    CHECK_OK(convert_scan(src, dst, FATHOM_SCAN_STRAY, NULL));
    s = NULL;
    CHECK_OK(fathom_scan_open(dst, &s));
    if (s) {
        for (f = 0, bad = 0; f < N; f++) {
            CHECK_OK(fathom_scan_read_depth(s, (uint64_t)f, meters, sizeof meters));
            for (k = 0; k < 48; k++) {
                u[k] = u16_sample(1, f, k);
                bad += meters[k] != (u[k] <= 65 ? (float)(u[k] * 1000) * 0.001f : 0.0f);
            }
        }
        CHECK(bad == 0);
        fathom_scan_destroy(s);
    }
}

static void test_write_bad_calls(void) {
    char dir[300], blocker[300], under_file[320], empty[300];
    fathom_scan *s = NULL, *sentinel = (fathom_scan *)&s, *opened = NULL;
    progress_log log = {0, 0, 2, 0};
    FILE *f;

    check_section("fathom_scan_write: NULLs, formats, cancelling, folders that cannot be made");
    CHECK_OK(fathom_scan_open(path_in(FORMATS_DIR, "mm"), &opened));
    if (!opened) return;
    snprintf(dir, sizeof dir, "%s/bad", FORMATS_DIR);
    EXPECT(fathom_scan_write(NULL, dir, FATHOM_SCAN_STRAY, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_write",
           "scan", P_NULL);
    EXPECT(fathom_scan_write(opened, NULL, FATHOM_SCAN_STRAY, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_write",
           "directory", P_NULL);
    EXPECT(fathom_scan_write(opened, dir, FATHOM_SCAN_NERFSTUDIO, NULL, NULL), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_scan_write", "format", "2");
    EXPECT(fathom_scan_write(opened, dir, 99, NULL, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_write", "format", "99");
    CHECK(!file_exists(dir)); /* refused before anything was written */

    /* cancelled after the second frame: the files written so far stay */
    EXPECT(fathom_scan_write(opened, dir, FATHOM_SCAN_STRAY, log_progress, &log), FATHOM_ERR_INVALID_STATE,
           "fathom_scan_write", NULL, "cancel");
    CHECK(log.calls == 2 && log.total == N && log.bad == 0);
    CHECK(file_exists(path_in(dir, "depth/000001.png")) && !file_exists(path_in(dir, "depth/000002.png")));
    log.calls = 0;
    log.stop_at = 1;
    EXPECT(fathom_scan_write(opened, path_in(FORMATS_DIR, "bad-scanner"), FATHOM_SCAN_SCANNER, log_progress, &log),
           FATHOM_ERR_INVALID_STATE, "fathom_scan_write", NULL, "cancel");
    CHECK(log.calls == 1 && log.total == N && log.bad == 0);

    /* a folder under a regular file, a folder whose parent is missing */
    snprintf(blocker, sizeof blocker, "%s/a-file", FORMATS_DIR);
    f = fopen(blocker, "wb");
    CHECK(f != NULL);
    if (f) fclose(f);
    snprintf(under_file, sizeof under_file, "%s/sub", blocker);
    EXPECT(fathom_scan_write(opened, under_file, FATHOM_SCAN_STRAY, NULL, NULL), FATHOM_ERR_IO, "fathom_scan_write",
           "a-file/sub", P_ANY);
    EXPECT(fathom_scan_write(opened, under_file, FATHOM_SCAN_SCANNER, NULL, NULL), FATHOM_ERR_IO, "fathom_scan_write",
           "a-file/sub", P_ANY);
    EXPECT(fathom_scan_write(opened, "/nonexistent/fathom/deeper", FATHOM_SCAN_STRAY, NULL, NULL), FATHOM_ERR_IO,
           "fathom_scan_write", "/nonexistent/fathom/deeper", P_ANY);
    EXPECT(fathom_scan_write(opened, "/nonexistent/fathom/deeper", FATHOM_SCAN_SCANNER, NULL, NULL), FATHOM_ERR_IO,
           "fathom_scan_write", "/nonexistent/fathom/deeper", P_ANY);
    fathom_scan_destroy(opened);

    check_section("fathom_scan_open: a folder holding no scan of any format");
    snprintf(empty, sizeof empty, "%s/empty", FORMATS_DIR);
    CHECK(mkdir(empty, 0755) == 0);
    s = sentinel;
    EXPECT(fathom_scan_open(empty, &s), FATHOM_ERR_FORMAT, "fathom_scan_open", "empty", "not a scan");
    CHECK(s == sentinel);
    /* one of Stray's two CSV files alone, and an unrelated file */
    f = fopen(path_in(empty, "camera_matrix.csv"), "wb");
    if (f) {
        fputs("1500,0,960\n0,1500,720\n0,0,1\n", f);
        fclose(f);
    }
    CHECK(t_write_file(path_in(empty, "notes.txt"), "hello\n", 6));
    EXPECT(fathom_scan_open(empty, &s), FATHOM_ERR_FORMAT, "fathom_scan_open", "empty", "not a scan");
    CHECK(s == sentinel);
}

int main(void) {
    if (!make_temp_dir(DIR_PATH, sizeof DIR_PATH, "scan-test")) return 1;
    test_round_trip();
    test_frame_backprojection();
    test_bad_calls();
    test_writer_checks();
    test_damage();
    remove_tree(DIR_PATH);
    if (!make_temp_dir(FORMATS_DIR, sizeof FORMATS_DIR, "scan-formats")) return 1;
    test_write_stray();
    test_write_stray_float16();
    test_stray_intrinsics();
    test_stray_timestamps();
    test_stray_grid_limits();
    test_confidence_damage();
    test_uint16_units();
    test_write_bad_calls();
    remove_tree(FORMATS_DIR);
    return check_summary("test_scan");
}
