/* The rules fathom.h 1.0 freezes (README, "What 1.0 promises"):
 *  - layouts: C bool fields of one byte, fathom_hit still 44 bytes, the reserved words at the end of every struct
 *    that may grow (their sizes and offsets as the header declares them);
 *  - inputs: every options struct's _init (and fathom_depth_frame_init) zeroes its reserved words; a nonzero
 *    reserved word, in any position, is FATHOM_ERR_OUT_OF_RANGE naming "<name>.reserved", and nothing is written;
 *    a bool holding a byte other than 0 or 1 (as memset or memcpy can leave it) is FATHOM_ERR_OUT_OF_RANGE naming
 *    the field (box.has_floor, frame.has_pose, options.with_confidence, options.zlib_wrapped);
 *  - outputs: every info and summary struct comes back with its reserved words 0 and its bools 0 or 1, over a
 *    caller's 0xFF fill;
 *  - the bool out-parameters (fathom_mesh_occluded, fathom_mesh_occluded_batch, fathom_capture_wants_depth) write
 *    exactly 1 (true) or 0 (false), with the meaning the int ones had: occluded exactly when
 *    fathom_mesh_intersect hits in the range, depth wanted for a capture's first frame and not for its pose again;
 *  - fathom_scan_destroy (fathom_scan_close before 1.0) takes NULL; the mesh flags are the enum fathom_mesh_flags;
 *    the version's major is 1.
 * The scan and capture parts use a small synthetic capture (cameras on a circle looking down at a floor at y = 0)
 * written with fathom_scan_writer_* into a mkdtemp directory. */
#define _XOPEN_SOURCE 700
#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "tempdir.h"
#include "testmath.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 32            /* the scan's depth grid */
#define H 24
#define RGB_W 640       /* the RGB image its intrinsics refer to */
#define RGB_H 480
#define N 6             /* frames */
#define SAMPLES (W * H)
#define SCAN_ID "abi_test"
#define NS_PER_S 1000000000LL

/* The number of elements of an array member. */
#define WORDS(array) (sizeof(array) / sizeof((array)[0]))

/* Bytes a bool must not hold: each is refused where an input struct has a bool. */
static const unsigned char BAD_BOOL[] = {2, 0x80, 0xFF};

static char DIR_PATH[256];

/* ---- The synthetic capture -------------------------------------------------------------------------------------- */

static int64_t time_of(int f) { return 3 * NS_PER_S + (int64_t)f * (NS_PER_S / 10); }
static fathom_intrinsics k_of(void) { return t_intr(500, 500, 320, 240, RGB_W, RGB_H); }

/* Camera f's place on the circle: 0.25 rad apart. */
static double angle_of(int f) { return 0.25 * f; }

#include "floor_capture.h"

/* A box about the origin standing on the floor (y = 0). */
static fathom_box floor_box(void) {
    fathom_box b;
    CHECK_OK(fathom_box_init(v3(0, 0.2f, 0), v3(0.6f, 0.4f, 0.5f), 0.3f, &b));
    CHECK_OK(fathom_box_set_floor(&b, 0));
    return b;
}

/* A depth frame of constant depth (8 x 6, 1.5 m, the RGB image the same size), with a pose. */
static float FLAT[48];
static fathom_depth_frame flat_frame(void) {
    fathom_depth_frame f;
    fathom_intrinsics k = t_intr(8, 8, 4, 3, 8, 6);
    double r[9];
    int i;
    for (i = 0; i < 48; i++) FLAT[i] = 1.5f;
    CHECK_OK(fathom_depth_frame_init(&f, FLAT, FATHOM_DEPTH_FLOAT32, 8, 6, &k));
    t_rot_y(0.2, r);
    f.camera_to_world = t_pose(r, 0.5, 1.5, 2);
    f.has_pose = true;
    return f;
}

/* The unit cube as a mesh (12 triangles). */
static fathom_mesh *cube_mesh(void) {
    uint32_t idx[36];
    fathom_mesh *m = NULL;
    t_cube_triangles(idx);
    CHECK_OK(fathom_mesh_create(&T_CUBE_V[0][0], 8, 12, idx, 12, NULL, FATHOM_MESH_COPY, &m));
    return m;
}

/* ---- Layouts ---------------------------------------------------------------------------------------------------- */

/* The reserved words close the struct: only alignment padding (less than 8 bytes) may follow them. */
#define RESERVED_LAST(T) \
    (offsetof(T, reserved) + sizeof(((T *)0)->reserved) <= sizeof(T) && \
     sizeof(T) - (offsetof(T, reserved) + sizeof(((T *)0)->reserved)) < 8)

static void test_layouts(void) {
    check_section("layouts: bool is one byte, every bool field a bool");
    CHECK(sizeof(bool) == 1);
    CHECK(sizeof(((fathom_box *)0)->has_floor) == 1);
    CHECK(sizeof(((fathom_hit *)0)->front_face) == 1);
    CHECK(sizeof(((fathom_box_hit *)0)->origin_inside) == 1);
    CHECK(sizeof(((fathom_depth_frame *)0)->has_pose) == 1);
    CHECK(sizeof(((fathom_face_coverage *)0)->needed) == 1);
    /* The 1.0 brief lists fathom_face_coverage.complete among the bools (as the Python binding has it). */
    CHECK(sizeof(((fathom_face_coverage *)0)->complete) == sizeof(bool));
    CHECK(sizeof(((fathom_coverage_summary *)0)->complete) == 1);
    CHECK(sizeof(((fathom_motion_state *)0)->captured) == 1 && sizeof(((fathom_motion_state *)0)->skipped) == 1 &&
          sizeof(((fathom_motion_state *)0)->restarted) == 1);
    CHECK(sizeof(((fathom_point_cloud_info *)0)->has_normals) == 1 &&
          sizeof(((fathom_point_cloud_info *)0)->has_colors) == 1 &&
          sizeof(((fathom_point_cloud_info *)0)->has_confidence) == 1);
    CHECK(sizeof(((fathom_scan_info *)0)->has_confidence) == 1);
    CHECK(sizeof(((fathom_scan_open_options *)0)->index_while_reading) == 1);
    CHECK(sizeof(((fathom_scan_writer_options *)0)->with_confidence) == 1 &&
          sizeof(((fathom_scan_writer_options *)0)->zlib_wrapped) == 1);
    CHECK(sizeof(((fathom_report_summary *)0)->has_floor) == 1 && sizeof(((fathom_report_summary *)0)->has_focus) == 1 &&
          sizeof(((fathom_report_summary *)0)->has_trajectory) == 1 &&
          sizeof(((fathom_report_summary *)0)->has_coverage) == 1 &&
          sizeof(((fathom_report_summary *)0)->has_support) == 1 &&
          sizeof(((fathom_report_summary *)0)->has_ceiling) == 1 &&
          sizeof(((fathom_report_summary *)0)->object_capture) == 1);

    check_section("layouts: fathom_hit, fathom_box, fathom_box_hit");
    CHECK(sizeof(fathom_hit) == 44);
    CHECK(offsetof(fathom_hit, primitive) == 36 && offsetof(fathom_hit, classification) == 40 &&
          offsetof(fathom_hit, front_face) == 41 && offsetof(fathom_hit, reserved) == 42);
    CHECK(sizeof(fathom_box) == 36 && offsetof(fathom_box, floor) == 28 && offsetof(fathom_box, has_floor) == 32);
    CHECK(offsetof(fathom_box_hit, hit) == 0 && offsetof(fathom_box_hit, face_exit) == 56 &&
          offsetof(fathom_box_hit, origin_inside) == 60 && sizeof(fathom_box_hit) == 64);

    check_section("layouts: fathom_depth_frame ends has_pose, min_confidence, reserved[14]");
    CHECK(offsetof(fathom_depth_frame, has_pose) == offsetof(fathom_depth_frame, camera_to_world) + sizeof(fathom_pose));
    CHECK(offsetof(fathom_depth_frame, min_confidence) == offsetof(fathom_depth_frame, has_pose) + 1);
    CHECK(offsetof(fathom_depth_frame, reserved) == offsetof(fathom_depth_frame, has_pose) + 2);
    CHECK(WORDS(((fathom_depth_frame *)0)->reserved) == 14 && sizeof(((fathom_depth_frame *)0)->reserved) == 14);
    CHECK(offsetof(fathom_depth_frame, reserved) + 14 == sizeof(fathom_depth_frame)); /* no padding at the end */

    check_section("layouts: fathom_ransac_options {threshold, confidence, seed, iterations, reserved[5]}");
    CHECK(offsetof(fathom_ransac_options, threshold) == 0 && offsetof(fathom_ransac_options, confidence) == 8 &&
          offsetof(fathom_ransac_options, seed) == 16 && offsetof(fathom_ransac_options, iterations) == 24 &&
          offsetof(fathom_ransac_options, reserved) == 28);
    CHECK(WORDS(((fathom_ransac_options *)0)->reserved) == 5 && sizeof(fathom_ransac_options) == 48);

    check_section("layouts: uint32_t reserved[4] closes every other struct that may grow");
    CHECK(WORDS(((fathom_batch_options *)0)->reserved) == 4 && RESERVED_LAST(fathom_batch_options));
    CHECK(sizeof(fathom_batch_options) == 28 && offsetof(fathom_batch_options, reserved) == 12);
    CHECK(WORDS(((fathom_length_options *)0)->reserved) == 4 && RESERVED_LAST(fathom_length_options));
    CHECK(WORDS(((fathom_coverage_options *)0)->reserved) == 4 && RESERVED_LAST(fathom_coverage_options));
    CHECK(WORDS(((fathom_motion_options *)0)->reserved) == 4 && RESERVED_LAST(fathom_motion_options));
    CHECK(WORDS(((fathom_scan_cloud_options *)0)->reserved) == 4 && RESERVED_LAST(fathom_scan_cloud_options));
    CHECK(WORDS(((fathom_scan_open_options *)0)->reserved) == 4 && RESERVED_LAST(fathom_scan_open_options));
    CHECK(WORDS(((fathom_scan_writer_options *)0)->reserved) == 4 && RESERVED_LAST(fathom_scan_writer_options));
    CHECK(WORDS(((fathom_capture_options *)0)->reserved) == 4 && RESERVED_LAST(fathom_capture_options));
    CHECK(WORDS(((fathom_mesh_info *)0)->reserved) == 4 && RESERVED_LAST(fathom_mesh_info));
    CHECK(WORDS(((fathom_scan_info *)0)->reserved) == 4 && RESERVED_LAST(fathom_scan_info));
    CHECK(WORDS(((fathom_point_cloud_info *)0)->reserved) == 4 && RESERVED_LAST(fathom_point_cloud_info));
    CHECK(WORDS(((fathom_coverage_summary *)0)->reserved) == 4 && RESERVED_LAST(fathom_coverage_summary));
    CHECK(WORDS(((fathom_trajectory_summary *)0)->reserved) == 4 && RESERVED_LAST(fathom_trajectory_summary));
    CHECK(WORDS(((fathom_capture_status *)0)->reserved) == 4 && RESERVED_LAST(fathom_capture_status));
    CHECK(WORDS(((fathom_report_summary *)0)->reserved) == 4 && RESERVED_LAST(fathom_report_summary));
    CHECK(WORDS(((fathom_length *)0)->reserved) == 4 && RESERVED_LAST(fathom_length));
    CHECK(sizeof(((fathom_mesh_info *)0)->reserved[0]) == 4 && sizeof(((fathom_length *)0)->reserved[0]) == 4);

    check_section("the mesh flags: enum fathom_mesh_flags, COPY 0, BORROW 1 and COMPACT 2");
    {
        fathom_mesh_flags copy = FATHOM_MESH_COPY, borrow = FATHOM_MESH_BORROW, compact = FATHOM_MESH_COMPACT;
        uint32_t idx[36];
        fathom_mesh *m = NULL;
        CHECK(copy == 0 && borrow == 1 && compact == 2);
        t_cube_triangles(idx);
        CHECK_OK(fathom_mesh_create(&T_CUBE_V[0][0], 8, 12, idx, 12, NULL, (uint32_t)borrow, &m));
        fathom_mesh_destroy(m);
    }

    check_section("version: major 1, the library's the header's");
    CHECK(FATHOM_VERSION_MAJOR == 1);
    CHECK(fathom_version_number() / 10000 == FATHOM_VERSION_MAJOR);
    CHECK(fathom_version_number() >= FATHOM_VERSION_NUMBER);
}

/* ---- Inputs: the initializers zero the reserved words ----------------------------------------------------------- */

/* Declares `type var`, fills it with 0xFF bytes, runs `init` on it and checks that its reserved words came back 0. */
#define INIT_OVER_FF(type, var, init)                         \
    type var;                                                 \
    memset(&var, 0xFF, sizeof var);                           \
    CHECK_OK(init(&var));                                     \
    CHECK(t_all_zero(var.reserved, sizeof var.reserved))

static void test_inits_zero_reserved(void) {
    check_section("every _init zeroes the reserved words (over a 0xFF fill)");
    { INIT_OVER_FF(fathom_batch_options, o, fathom_batch_options_init); }
    {
        INIT_OVER_FF(fathom_ransac_options, o, fathom_ransac_options_init);
        CHECK(o.threshold == 0.01 && o.confidence == 0.99 && o.seed == 0 && o.iterations == 1000);
    }
    {
        INIT_OVER_FF(fathom_length_options, o, fathom_length_options_init);
        CHECK(t_all_zero(o.plane.reserved, sizeof o.plane.reserved));
    }
    { INIT_OVER_FF(fathom_coverage_options, o, fathom_coverage_options_init); }
    { INIT_OVER_FF(fathom_motion_options, o, fathom_motion_options_init); }
    { INIT_OVER_FF(fathom_scan_cloud_options, o, fathom_scan_cloud_options_init); }
    {
        INIT_OVER_FF(fathom_scan_open_options, o, fathom_scan_open_options_init);
        CHECK(t_bool_byte(&o.index_while_reading) == 0);
    }
    {
        INIT_OVER_FF(fathom_scan_writer_options, o, fathom_scan_writer_options_init);
        CHECK(t_bool_byte(&o.with_confidence) == 1 && t_bool_byte(&o.zlib_wrapped) == 0);
    }
    {
        INIT_OVER_FF(fathom_capture_options, o, fathom_capture_options_init);
        CHECK(t_all_zero(o.motion.reserved, sizeof o.motion.reserved));
        CHECK(t_all_zero(o.coverage.reserved, sizeof o.coverage.reserved));
    }
    {
        fathom_depth_frame f;
        fathom_intrinsics k = t_intr(8, 8, 4, 3, 8, 6);
        memset(&f, 0xFF, sizeof f);
        CHECK_OK(fathom_depth_frame_init(&f, FLAT, FATHOM_DEPTH_FLOAT32, 8, 6, &k));
        CHECK(t_all_zero(f.reserved, sizeof f.reserved));
        CHECK(t_bool_byte(&f.has_pose) == 0 && f.min_confidence == 0);
    }
}

/* ---- Inputs: a nonzero reserved word is refused ----------------------------------------------------------------- */

static void test_batch_reserved(void) {
    fathom_mesh *m = cube_mesh();
    fathom_ray rays[2];
    fathom_hit hits[2], all[8];
    float ts[2];
    uint32_t prims[2], order[2];
    bool occ[2];
    uint64_t off[3];
    fathom_batch_options o;
    size_t w;

    check_section("fathom_batch_options: a reserved word set is FATHOM_ERR_OUT_OF_RANGE, nothing written");
    if (!m) return;
    rays[0] = t_ray(0.5, 0.5, -2, 0, 0, 1);
    rays[1] = t_ray(3, 3, -2, 0, 0, 1);
    CHECK_OK(fathom_batch_options_init(&o));
    CHECK_OK(fathom_mesh_intersect_batch(m, rays, 2, &o, hits)); /* the same options with the words 0: fine */
    for (w = 0; w < WORDS(o.reserved); w++) {
        CHECK_OK(fathom_batch_options_init(&o));
        o.reserved[w] = w == 3 ? 0x80000000u : 1;
        t_fill(hits, sizeof hits);
        t_fill(all, sizeof all);
        t_fill(ts, sizeof ts);
        t_fill(prims, sizeof prims);
        t_fill(order, sizeof order);
        t_fill(occ, sizeof occ);
        t_fill(off, sizeof off);
        EXPECT(fathom_mesh_intersect_batch(m, rays, 2, &o, hits), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_intersect_batch",
               "options.reserved", P_ANY);
        EXPECT(fathom_mesh_intersect_batch_compact(m, rays, 2, &o, ts, prims), FATHOM_ERR_OUT_OF_RANGE,
               "fathom_mesh_intersect_batch_compact", "options.reserved", P_ANY);
        EXPECT(fathom_mesh_ray_order(m, rays, 2, &o, order), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_ray_order",
               "options.reserved", P_ANY);
        EXPECT(fathom_mesh_occluded_batch(m, rays, 2, &o, occ), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_occluded_batch",
               "options.reserved", P_ANY);
        EXPECT(fathom_mesh_intersect_all_batch(m, rays, 2, &o, all, 8, off), FATHOM_ERR_OUT_OF_RANGE,
               "fathom_mesh_intersect_all_batch", "options.reserved", P_ANY);
        CHECK(t_untouched(hits, sizeof hits) && t_untouched(ts, sizeof ts) && t_untouched(prims, sizeof prims) &&
              t_untouched(order, sizeof order) && t_untouched(occ, sizeof occ) && t_untouched(all, sizeof all) &&
              t_untouched(off, sizeof off));
    }
    fathom_mesh_destroy(m);
}

static void test_ransac_reserved(void) {
    double p2[2 * 12], p3[3 * 12];
    float p3f[3 * 12];
    fathom_ransac_options o;
    fathom_line_fit line;
    fathom_plane_fit plane;
    uint8_t inliers[12];
    size_t w;
    int i;

    check_section("fathom_ransac_options: a reserved word set is FATHOM_ERR_OUT_OF_RANGE, nothing written");
    for (i = 0; i < 12; i++) {
        p2[2 * i] = 0.1 * i;
        p2[2 * i + 1] = 0.5 * p2[2 * i] + 1;
        p3[3 * i] = 0.1 * (i % 4);
        p3[3 * i + 1] = 0.2 * (i / 4);
        p3[3 * i + 2] = 0.3 * p3[3 * i] - 0.2 * p3[3 * i + 1] + 1;
        p3f[3 * i] = (float)p3[3 * i];
        p3f[3 * i + 1] = (float)p3[3 * i + 1];
        p3f[3 * i + 2] = (float)p3[3 * i + 2];
    }
    CHECK_OK(fathom_ransac_options_init(&o));
    CHECK_OK(fathom_fit_line_ransac(p2, 12, 0, 2, &o, &line, inliers)); /* the words 0: fine */
    CHECK_OK(fathom_fit_plane_ransac(p3, 12, 0, &o, &plane, inliers));
    for (w = 0; w < WORDS(o.reserved); w++) {
        CHECK_OK(fathom_ransac_options_init(&o));
        o.reserved[w] = 7;
        t_fill(&line, sizeof line);
        t_fill(&plane, sizeof plane);
        t_fill(inliers, sizeof inliers);
        EXPECT(fathom_fit_line_ransac(p2, 12, 0, 2, &o, &line, inliers), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line_ransac",
               "options.reserved", P_ANY);
        EXPECT(fathom_fit_plane_ransac(p3, 12, 0, &o, &plane, inliers), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_plane_ransac",
               "options.reserved", P_ANY);
        EXPECT(fathom_fit_plane_ransacf(p3f, 12, 0, &o, &plane, inliers), FATHOM_ERR_OUT_OF_RANGE,
               "fathom_fit_plane_ransacf", "options.reserved", P_ANY);
        EXPECT(fathom_fit_line_ransacf(p3f, 12, 0, 3, &o, &line, inliers), FATHOM_ERR_OUT_OF_RANGE,
               "fathom_fit_line_ransacf", "options.reserved", P_ANY);
        CHECK(t_untouched(&line, sizeof line) && t_untouched(&plane, sizeof plane) && t_untouched(inliers, sizeof inliers));
    }
}

static void test_depth_and_length_reserved(void) {
    fathom_depth_frame f;
    fathom_length_options o;
    fathom_length L;
    size_t n, w;
    float pts[3 * 48], d;
    fathom_vec3 p;
    size_t k;

    check_section("fathom_depth_frame: a reserved byte set is FATHOM_ERR_OUT_OF_RANGE naming frame.reserved");
    f = flat_frame();
    CHECK_OK(fathom_depth_count(&f, NULL, &n));
    CHECK(n == 48);
    for (w = 0; w < WORDS(f.reserved); w++) {
        f = flat_frame();
        f.reserved[w] = (uint8_t)(1 + w);
        n = 77;
        EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_depth_count", "frame.reserved", P_ANY);
        CHECK(n == 77);
    }
    f = flat_frame();
    f.reserved[sizeof f.reserved - 1] = 0xFF;
    t_fill(pts, sizeof pts);
    t_fill(&d, sizeof d);
    t_fill(&p, sizeof p);
    t_fill(&L, sizeof L);
    n = 77;
    EXPECT(fathom_depth_backproject(&f, NULL, FATHOM_FRAME_OPTICAL, pts, NULL, NULL, 48, &n), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_depth_backproject", "frame.reserved", P_ANY);
    EXPECT(fathom_depth_sample(&f, 4, 3, FATHOM_SAMPLE_NEAREST, 1, &d), FATHOM_ERR_OUT_OF_RANGE, "fathom_depth_sample",
           "frame.reserved", P_ANY);
    EXPECT(fathom_depth_point(&f, 4, 3, FATHOM_SAMPLE_NEAREST, 1, FATHOM_FRAME_WORLD, &p), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_depth_point", "frame.reserved", P_ANY);
    EXPECT(fathom_length_keypoints(&f, 1.5f, 1.5f, 6.5f, 4.5f, NULL, NULL, &L), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_length_keypoints", "frame.reserved", P_ANY);
    CHECK(n == 77 && t_untouched(pts, sizeof pts) && t_untouched(&d, sizeof d) && t_untouched(&p, sizeof p) &&
          t_untouched(&L, sizeof L));

    check_section("fathom_length_options: a reserved word set (its own, its plane's) is FATHOM_ERR_OUT_OF_RANGE");
    f = flat_frame();
    CHECK_OK(fathom_length_options_init(&o));
    o.keypoint_depth = FATHOM_KEYPOINT_NEAREST;
    CHECK_OK(fathom_length_keypoints(&f, 1.5f, 1.5f, 6.5f, 4.5f, NULL, &o, &L)); /* the words 0: fine */
    for (w = 0; w < WORDS(o.reserved); w++) {
        CHECK_OK(fathom_length_options_init(&o));
        o.keypoint_depth = FATHOM_KEYPOINT_NEAREST;
        o.reserved[w] = 1;
        t_fill(&L, sizeof L);
        EXPECT(fathom_length_keypoints(&f, 1.5f, 1.5f, 6.5f, 4.5f, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE,
               "fathom_length_keypoints", "options.reserved", P_ANY);
        CHECK(t_untouched(&L, sizeof L));
    }
    for (k = 0; k < WORDS(o.plane.reserved); k++) {
        CHECK_OK(fathom_length_options_init(&o));
        o.keypoint_depth = FATHOM_KEYPOINT_NEAREST;
        o.plane.reserved[k] = 1;
        t_fill(&L, sizeof L);
        EXPECT(fathom_length_keypoints(&f, 1.5f, 1.5f, 6.5f, 4.5f, NULL, &o, &L), FATHOM_ERR_OUT_OF_RANGE,
               "fathom_length_keypoints", "options.plane.reserved", P_ANY);
        CHECK(t_untouched(&L, sizeof L));
    }
}

static void test_trackers_reserved(void) {
    fathom_box box = floor_box();
    fathom_coverage_options co;
    fathom_motion_options mo;
    fathom_capture_options cap;
    fathom_coverage *cov = NULL, *cov_sentinel = (fathom_coverage *)&cov;
    fathom_motion *mot = NULL, *mot_sentinel = (fathom_motion *)&mot;
    fathom_capture *c = NULL, *c_sentinel = (fathom_capture *)&c;
    fathom_trajectory_summary ts;
    int64_t times[3];
    fathom_pose poses[3];
    size_t w;
    int i;

    check_section("fathom_coverage_options: a reserved word set is FATHOM_ERR_OUT_OF_RANGE, no tracker");
    for (w = 0; w < WORDS(co.reserved); w++) {
        CHECK_OK(fathom_coverage_options_init(&co));
        co.reserved[w] = 1;
        cov = cov_sentinel;
        EXPECT(fathom_coverage_create(&box, &co, &cov), FATHOM_ERR_OUT_OF_RANGE, "fathom_coverage_create",
               "options.reserved", P_ANY);
        CHECK(cov == cov_sentinel);
    }

    check_section("fathom_motion_options: a reserved word set is FATHOM_ERR_OUT_OF_RANGE (create, summarize)");
    for (i = 0; i < 3; i++) {
        times[i] = time_of(i);
        poses[i] = pose_of(i);
    }
    for (w = 0; w < WORDS(mo.reserved); w++) {
        CHECK_OK(fathom_motion_options_init(&mo));
        mo.reserved[w] = 1;
        mot = mot_sentinel;
        EXPECT(fathom_motion_create(&mo, &mot), FATHOM_ERR_OUT_OF_RANGE, "fathom_motion_create", "options.reserved", P_ANY);
        CHECK(mot == mot_sentinel);
        t_fill(&ts, sizeof ts);
        EXPECT(fathom_trajectory_summarize(times, poses, 3, &mo, &ts), FATHOM_ERR_OUT_OF_RANGE,
               "fathom_trajectory_summarize", "options.reserved", P_ANY);
        CHECK(t_untouched(&ts, sizeof ts));
    }

    check_section("fathom_capture_options: a reserved word set (its own, its motion's, its coverage's) is refused");
    for (w = 0; w < WORDS(cap.reserved); w++) {
        CHECK_OK(fathom_capture_options_init(&cap));
        cap.reserved[w] = 1;
        c = c_sentinel;
        EXPECT(fathom_capture_create(&cap, NULL, &c), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_create", "options.reserved",
               P_ANY);
        CHECK(c == c_sentinel);
    }
    for (w = 0; w < WORDS(cap.motion.reserved); w++) {
        CHECK_OK(fathom_capture_options_init(&cap));
        cap.motion.reserved[w] = 1;
        c = c_sentinel;
        EXPECT(fathom_capture_create(&cap, NULL, &c), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_create", "motion", P_ANY);
        CHECK_ERROR_MENTIONS("reserved");
        CHECK(c == c_sentinel);
    }
    for (w = 0; w < WORDS(cap.coverage.reserved); w++) {
        CHECK_OK(fathom_capture_options_init(&cap));
        cap.coverage.reserved[w] = 1;
        c = c_sentinel;
        EXPECT(fathom_capture_create(&cap, NULL, &c), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_create", "coverage", P_ANY);
        CHECK_ERROR_MENTIONS("reserved");
        CHECK(c == c_sentinel);
    }
    CHECK_OK(fathom_capture_options_init(&cap));
    CHECK_OK(fathom_capture_create(&cap, NULL, &c)); /* all words 0: fine */
    if (c) {
        fathom_depth_frame f = flat_frame();
        fathom_capture_status before, after;
        CHECK_OK(fathom_capture_get_status(c, &before));
        f.reserved[0] = 1;
        EXPECT(fathom_capture_add_frame(c, time_of(0), &f, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_add_frame",
               "frame.reserved", P_ANY);
        CHECK_OK(fathom_capture_get_status(c, &after));
        CHECK(after.frames == before.frames && after.fused_frames == before.fused_frames);
        fathom_capture_destroy(c);
    }
}

static void test_scan_reserved(const fathom_scan *scan) {
    fathom_scan_cloud_options co;
    fathom_scan_writer_options wo;
    fathom_capture_options cap;
    fathom_point_cloud *cloud = NULL, *cloud_sentinel = (fathom_point_cloud *)&cloud;
    fathom_scan_writer *w = NULL, *w_sentinel = (fathom_scan_writer *)&w;
    fathom_report *r = NULL, *r_sentinel = (fathom_report *)&r;
    char dir[300];
    size_t k;

    check_section("fathom_scan_cloud_options: a reserved word set is FATHOM_ERR_OUT_OF_RANGE, no cloud");
    for (k = 0; k < WORDS(co.reserved); k++) {
        CHECK_OK(fathom_scan_cloud_options_init(&co));
        co.reserved[k] = 1;
        cloud = cloud_sentinel;
        EXPECT(fathom_scan_point_cloud(scan, &co, &cloud), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_point_cloud",
               "options.reserved", P_ANY);
        CHECK(cloud == cloud_sentinel);
    }

    check_section("fathom_scan_writer_options: a reserved word set is FATHOM_ERR_OUT_OF_RANGE, no writer");
    snprintf(dir, sizeof dir, "%s/w", DIR_PATH);
    for (k = 0; k < WORDS(wo.reserved); k++) {
        CHECK_OK(fathom_scan_writer_options_init(&wo));
        wo.reserved[k] = 1;
        w = w_sentinel;
        EXPECT(fathom_scan_writer_create(dir, "x", &wo, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
               "options.reserved", P_ANY);
        CHECK(w == w_sentinel);
    }

    check_section("fathom_scan_report: capture options with a reserved word set are refused, no report");
    for (k = 0; k < WORDS(cap.reserved); k++) {
        CHECK_OK(fathom_capture_options_init(&cap));
        cap.reserved[k] = 1;
        r = r_sentinel;
        EXPECT(fathom_scan_report(scan, &cap, NULL, NULL, NULL, &r), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_report",
               "options.reserved", P_ANY);
        CHECK(r == r_sentinel);
    }
}

/* ---- Inputs: a bool holding a byte other than 0 or 1 is refused ------------------------------------------------- */

static void test_bool_bytes_refused(const fathom_scan *scan) {
    size_t b;

    check_section("box.has_floor: a byte other than 0 or 1 is FATHOM_ERR_OUT_OF_RANGE naming has_floor");
    for (b = 0; b < sizeof BAD_BOOL; b++) {
        fathom_box box = floor_box(), before;
        fathom_vec3 c8[8];
        fathom_coverage *cov = NULL, *cov_sentinel = (fathom_coverage *)&cov;
        fathom_capture *cap = NULL, *cap_sentinel = (fathom_capture *)&cap;
        fathom_report *r = NULL, *r_sentinel = (fathom_report *)&r;
        fathom_intrinsics k = k_of();
        fathom_pose cam = pose_of(0);
        uint32_t face = 77;
        t_set_bool_byte(&box.has_floor, BAD_BOOL[b]);
        memcpy(&before, &box, sizeof box);
        t_fill(c8, sizeof c8);
        EXPECT(fathom_box_check(&box), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_check", "has_floor", P_ANY);
        EXPECT(fathom_box_corners(&box, c8), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_corners", "has_floor", P_ANY);
        EXPECT(fathom_box_set_floor(&box, 0.1f), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_set_floor", "has_floor", P_ANY);
        EXPECT(fathom_box_clear_floor(&box), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_clear_floor", "has_floor", P_ANY);
        EXPECT(fathom_tap_box_face(&k, &cam, 320, 240, &box, &face), FATHOM_ERR_OUT_OF_RANGE, "fathom_tap_box_face",
               "has_floor", P_ANY);
        cov = cov_sentinel;
        EXPECT(fathom_coverage_create(&box, NULL, &cov), FATHOM_ERR_OUT_OF_RANGE, "fathom_coverage_create", "has_floor",
               P_ANY);
        cap = cap_sentinel;
        EXPECT(fathom_capture_create(NULL, &box, &cap), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_create", "has_floor",
               P_ANY);
        if (scan) {
            r = r_sentinel;
            EXPECT(fathom_scan_report(scan, NULL, &box, NULL, NULL, &r), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_report",
                   "has_floor", P_ANY);
            CHECK(r == r_sentinel);
        }
        CHECK(memcmp(&box, &before, sizeof box) == 0 && t_untouched(c8, sizeof c8) && face == 77);
        CHECK(cov == cov_sentinel && cap == cap_sentinel);
    }

    check_section("frame.has_pose: a byte other than 0 or 1 is FATHOM_ERR_OUT_OF_RANGE naming has_pose");
    for (b = 0; b < sizeof BAD_BOOL; b++) {
        fathom_depth_frame f = flat_frame();
        fathom_capture *c = NULL;
        size_t n = 77;
        t_set_bool_byte(&f.has_pose, BAD_BOOL[b]);
        EXPECT(fathom_depth_count(&f, NULL, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_depth_count", "has_pose", P_ANY);
        CHECK(n == 77);
        CHECK_OK(fathom_capture_create(NULL, NULL, &c));
        if (c) {
            EXPECT(fathom_capture_add_frame(c, time_of(0), &f, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_add_frame",
                   "has_pose", P_ANY);
            fathom_capture_destroy(c);
        }
    }

    check_section("options.with_confidence, options.zlib_wrapped: a byte other than 0 or 1 is FATHOM_ERR_OUT_OF_RANGE");
    for (b = 0; b < sizeof BAD_BOOL; b++) {
        fathom_scan_writer_options o;
        fathom_scan_writer *w = NULL, *w_sentinel = (fathom_scan_writer *)&w;
        char dir[300];
        snprintf(dir, sizeof dir, "%s/bools", DIR_PATH);
        CHECK_OK(fathom_scan_writer_options_init(&o));
        t_set_bool_byte(&o.with_confidence, BAD_BOOL[b]);
        w = w_sentinel;
        EXPECT(fathom_scan_writer_create(dir, "x", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
               "options.with_confidence", P_ANY);
        CHECK(w == w_sentinel);
        CHECK_OK(fathom_scan_writer_options_init(&o));
        t_set_bool_byte(&o.zlib_wrapped, BAD_BOOL[b]);
        EXPECT(fathom_scan_writer_create(dir, "x", &o, &w), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_writer_create",
               "options.zlib_wrapped", P_ANY);
        CHECK(w == w_sentinel);
    }
    {
        /* true and false themselves are fine. */
        fathom_scan_writer_options o;
        fathom_scan_writer *w = NULL;
        char dir[300];
        snprintf(dir, sizeof dir, "%s/bools", DIR_PATH);
        CHECK_OK(fathom_scan_writer_options_init(&o));
        o.with_confidence = false;
        o.zlib_wrapped = true;
        CHECK_OK(fathom_scan_writer_create(dir, "x", &o, &w));
        fathom_scan_writer_destroy(w); /* not finished: leaves none of its files */
    }
}

/* ---- Outputs: reserved words 0 and bools 0 or 1, over a 0xFF fill ----------------------------------------------- */

static void test_outputs(const fathom_scan *scan) {
    check_section("fathom_mesh_get_info: reserved 0");
    {
        fathom_mesh *m = cube_mesh();
        fathom_mesh_info info;
        if (m) {
            memset(&info, 0xFF, sizeof info);
            CHECK_OK(fathom_mesh_get_info(m, &info));
            CHECK(info.triangle_count == 12 && t_all_zero(info.reserved, sizeof info.reserved));
            fathom_mesh_destroy(m);
        }
    }

    check_section("fathom_ray_obb, fathom_ray_sphere: origin_inside and front_face 0 or 1");
    {
        fathom_obb obb;
        fathom_box_hit bh;
        fathom_hit h;
        fathom_ray outside = t_ray(0, 0, -5, 0, 0, 1), inside = t_ray(0, 0, 0, 0, 0, 1);
        obb.center = v3(0, 0, 0);
        obb.scale = v3(2, 2, 2);
        obb.rotation = q4(0, 0, 0, 1);
        memset(&bh, 0xFF, sizeof bh);
        CHECK_OK(fathom_ray_obb(&outside, 0, INFINITY, &obb, &bh));
        CHECK(t_bool_byte(&bh.origin_inside) == 0 && t_bool_byte(&bh.hit.front_face) == 1);
        memset(&bh, 0xFF, sizeof bh);
        CHECK_OK(fathom_ray_obb(&inside, 0, INFINITY, &obb, &bh));
        CHECK(t_bool_byte(&bh.origin_inside) == 1 && t_bool_byte(&bh.hit.front_face) == 0);
        memset(&h, 0xFF, sizeof h);
        CHECK_OK(fathom_ray_sphere(&inside, 0, INFINITY, v3(0, 0, 0), 1, &h));
        CHECK(t_bool_byte(&h.front_face) == 0 && h.reserved[0] == 0 && h.reserved[1] == 0);
    }

    check_section("fathom_point_cloud_get_info: has_* 0 or 1 as the cloud holds them, reserved 0");
    {
        const float pts[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        const float nrm[9] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
        const uint8_t conf[3] = {0, 1, 2};
        const char *path = path_in(DIR_PATH, "cloud.ply");
        fathom_point_cloud *cloud = NULL;
        fathom_point_cloud_info info;
        CHECK_OK(fathom_ply_write_points(path, pts, 3, 12, nrm, NULL, conf, FATHOM_PLY_BINARY));
        CHECK_OK(fathom_point_cloud_load_ply(path, &cloud));
        if (cloud) {
            memset(&info, 0xFF, sizeof info);
            CHECK_OK(fathom_point_cloud_get_info(cloud, &info));
            CHECK(info.count == 3);
            CHECK(t_bool_byte(&info.has_normals) == 1 && t_bool_byte(&info.has_colors) == 0 &&
                  t_bool_byte(&info.has_confidence) == 1);
            CHECK(t_all_zero(info.reserved, sizeof info.reserved));
            fathom_point_cloud_destroy(cloud);
        }
    }

    check_section("fathom_coverage_get_summary / _face: complete and needed 0 or 1, reserved 0");
    {
        fathom_box box = floor_box();
        fathom_coverage *cov = NULL;
        fathom_coverage_summary s;
        fathom_face_coverage fc;
        int f;
        CHECK_OK(fathom_coverage_create(&box, NULL, &cov));
        if (cov) {
            fathom_pose cams[N];
            for (f = 0; f < N; f++) cams[f] = pose_of(f);
            CHECK_OK(fathom_coverage_record_batch(cov, cams, N, NULL, NULL));
            memset(&s, 0xFF, sizeof s);
            CHECK_OK(fathom_coverage_get_summary(cov, &s));
            CHECK(s.views == N && t_bool_byte(&s.complete) == 0);
            CHECK(t_all_zero(s.reserved, sizeof s.reserved));
            for (f = 0; f < 6; f++) {
                memset(&fc, 0xFF, sizeof fc);
                CHECK_OK(fathom_coverage_face(cov, (uint32_t)f, &fc));
                /* With a floor the bottom face is not needed (exclude_bottom -1: 1 when the box has a floor). */
                CHECK(t_bool_byte(&fc.needed) == (f == FATHOM_FACE_BOTTOM ? 0 : 1));
                CHECK(fc.complete == 0);
            }
            fathom_coverage_destroy(cov);
        }
    }

    check_section("fathom_motion_update / _get_state: captured, skipped, restarted 0 or 1");
    {
        fathom_motion *m = NULL;
        fathom_motion_state st;
        fathom_pose p = pose_of(0);
        CHECK_OK(fathom_motion_create(NULL, &m));
        if (m) {
            memset(&st, 0xFF, sizeof st);
            CHECK_OK(fathom_motion_update(m, time_of(0), &p, &st));
            CHECK(t_bool_byte(&st.captured) == 0 && t_bool_byte(&st.skipped) == 0 && t_bool_byte(&st.restarted) <= 1);
            memset(&st, 0xFF, sizeof st);
            CHECK_OK(fathom_motion_update(m, time_of(0), &p, &st)); /* the same timestamp: skipped */
            CHECK(t_bool_byte(&st.skipped) == 1 && t_bool_byte(&st.captured) == 0 && t_bool_byte(&st.restarted) == 0);
            memset(&st, 0xFF, sizeof st);
            CHECK_OK(fathom_motion_get_state(m, &st));
            CHECK(t_bool_byte(&st.captured) <= 1 && t_bool_byte(&st.skipped) <= 1 && t_bool_byte(&st.restarted) <= 1);
            fathom_motion_destroy(m);
        }
    }

    check_section("fathom_trajectory_summarize: reserved 0");
    {
        int64_t times[N];
        fathom_pose poses[N];
        fathom_trajectory_summary ts;
        int f;
        for (f = 0; f < N; f++) {
            times[f] = time_of(f);
            poses[f] = pose_of(f);
        }
        memset(&ts, 0xFF, sizeof ts);
        CHECK_OK(fathom_trajectory_summarize(times, poses, N, NULL, &ts));
        CHECK(ts.steps == N - 1 && t_all_zero(ts.reserved, sizeof ts.reserved));
    }

    check_section("fathom_length_keypoints: reserved 0");
    {
        fathom_depth_frame f = flat_frame();
        fathom_length_options o;
        fathom_length L;
        CHECK_OK(fathom_length_options_init(&o));
        o.keypoint_depth = FATHOM_KEYPOINT_NEAREST;
        memset(&L, 0xFF, sizeof L);
        CHECK_OK(fathom_length_keypoints(&f, 1.5f, 1.5f, 6.5f, 4.5f, NULL, &o, &L));
        CHECK(L.length > 0 && t_all_zero(L.reserved, sizeof L.reserved));
    }

    if (!scan) return;
    check_section("fathom_scan_get_info: has_confidence 1, reserved 0");
    {
        fathom_scan_info info;
        memset(&info, 0xFF, sizeof info);
        CHECK_OK(fathom_scan_get_info(scan, &info));
        CHECK(info.frame_count == N && t_bool_byte(&info.has_confidence) == 1);
        CHECK(t_all_zero(info.reserved, sizeof info.reserved));
    }

    check_section("fathom_scan_frame: has_pose 1, reserved 0");
    {
        static float depth[SAMPLES];
        static uint8_t conf[SAMPLES];
        fathom_depth_frame f;
        memset(&f, 0xFF, sizeof f);
        CHECK_OK(fathom_scan_frame(scan, 1, depth, sizeof depth, conf, sizeof conf, &f));
        CHECK(t_bool_byte(&f.has_pose) == 1 && f.min_confidence == 0 && t_all_zero(f.reserved, sizeof f.reserved));
    }

    check_section("fathom_report_get_summary: its bools 0 or 1, its and its parts' reserved 0 (with and without a box)");
    {
        int pass;
        for (pass = 0; pass < 2; pass++) {
            fathom_box box = floor_box();
            fathom_report *r = NULL;
            fathom_report_summary s;
            CHECK_OK(fathom_scan_report(scan, NULL, pass ? &box : NULL, NULL, NULL, &r));
            if (!r) continue;
            memset(&s, 0xFF, sizeof s);
            CHECK_OK(fathom_report_get_summary(r, &s));
            CHECK(s.frames == N);
            CHECK(t_bool_byte(&s.has_floor) <= 1 && t_bool_byte(&s.has_focus) <= 1 &&
                  t_bool_byte(&s.has_support) <= 1 && t_bool_byte(&s.has_ceiling) <= 1 &&
                  t_bool_byte(&s.object_capture) <= 1);
            CHECK(t_bool_byte(&s.has_trajectory) == 1); /* N >= 2 frames */
            CHECK(t_bool_byte(&s.has_coverage) == (pass ? 1 : (s.box_source != FATHOM_BOX_NONE)));
            CHECK(t_bool_byte(&s.coverage.complete) <= 1);
            if (pass) CHECK(s.box_source == FATHOM_BOX_GIVEN && t_bool_byte(&s.box.has_floor) == 1);
            CHECK(t_all_zero(s.reserved, sizeof s.reserved));
            CHECK(t_all_zero(s.trajectory.reserved, sizeof s.trajectory.reserved));
            CHECK(t_all_zero(s.coverage.reserved, sizeof s.coverage.reserved));
            fathom_report_destroy(r);
        }
    }
}

/* ---- The bool out-parameters ------------------------------------------------------------------------------------ */

/* A bool out-parameter in the middle of guard bytes: the library must store its one byte, 0 or 1, and nothing around
 * it (a wider store, of a uint32_t say, would overwrite the caller's neighbouring variables). */
typedef struct guarded_bool {
    unsigned char bytes[16];
} guarded_bool;

#define GUARDED_AT 4

static bool *guard_bool(guarded_bool *g) {
    memset(g->bytes, 0xA5, sizeof g->bytes);
    return (bool *)(void *)&g->bytes[GUARDED_AT];
}

/* The byte stored (0xA5 when none was), or -1 when a guard byte changed. */
static int guarded_value(const guarded_bool *g) {
    size_t i;
    for (i = 0; i < sizeof g->bytes; i++)
        if (i != GUARDED_AT && g->bytes[i] != 0xA5) return -1;
    return g->bytes[GUARDED_AT];
}

static void test_bool_outs(const fathom_scan *scan) {
    check_section("fathom_mesh_occluded: 1 exactly where fathom_mesh_intersect hits in the range, else 0");
    {
        fathom_mesh *m = cube_mesh();
        /* Rays at the unit cube [0, 1]^3: through it, beside it, toward it but stopped short by tmax, from inside,
         * away from it, and grazing past a corner. */
        static const double R[][6] = {
            {0.5, 0.5, -2, 0, 0, 1}, {1.5, 0.5, -2, 0, 0, 1}, {0.5, 0.5, -2, 0, 0, 1}, {0.5, 0.5, 0.5, 1, 0, 0},
            {0.5, 0.5, -2, 0, 0, -1}, {-1, -1, -1, 1, 1, 1.2}, {0.3, 2, 0.7, 0, -1, 0}, {2, 2, 2, -1, -1, -1},
        };
        static const float TMAX[] = {INFINITY, INFINITY, 1.5f, INFINITY, INFINITY, INFINITY, 0.5f, INFINITY};
        fathom_ray rays[8];
        bool occ[8], batch[8];
        guarded_bool g;
        int hits = 0, misses = 0;
        size_t i;
        if (m) {
            for (i = 0; i < 8; i++) {
                fathom_hit h;
                rays[i] = t_ray(R[i][0], R[i][1], R[i][2], R[i][3], R[i][4], R[i][5]);
                CHECK_OK(fathom_mesh_intersect(m, &rays[i], 0, TMAX[i], &h));
                CHECK_OK(fathom_mesh_occluded(m, &rays[i], 0, TMAX[i], guard_bool(&g)));
                CHECK(guarded_value(&g) == (h.primitive != FATHOM_NO_HIT ? 1 : 0)); /* one byte, 0 or 1 */
                t_set_bool_byte(&occ[i], (unsigned char)guarded_value(&g));
                if (h.primitive != FATHOM_NO_HIT) hits++;
                else misses++;
            }
            CHECK(hits >= 3 && misses >= 3); /* both answers were asked for */
            CHECK(occ[0] == true && occ[1] == false && occ[2] == false && occ[3] == true && occ[4] == false);

            check_section("fathom_mesh_occluded_batch: the single rays' bytes");
            {
                fathom_batch_options o;
                CHECK_OK(fathom_batch_options_init(&o));
                o.threads = 2;
                t_fill(batch, sizeof batch);
                CHECK_OK(fathom_mesh_occluded_batch(m, rays, 6, &o, batch)); /* the first six: tmax INFINITY */
                CHECK(memcmp(batch, occ, 2 * sizeof(bool)) == 0 && t_bool_byte(&batch[2]) == 1 &&
                      memcmp(batch + 3, occ + 3, 3 * sizeof(bool)) == 0);
                CHECK(t_untouched(batch + 6, 2 * sizeof(bool)));
            }
            fathom_mesh_destroy(m);
        }
    }

    check_section("fathom_capture_wants_depth: 1 for a capture's first frame, 0 for its pose again");
    if (scan) {
        fathom_capture *c = NULL;
        fathom_pose p0 = pose_of(0);
        guarded_bool wants;
        static float depth[SAMPLES];
        static uint8_t conf[SAMPLES];
        fathom_depth_frame f;
        CHECK_OK(fathom_capture_create(NULL, NULL, &c));
        if (c) {
            CHECK_OK(fathom_capture_wants_depth(c, &p0, guard_bool(&wants)));
            CHECK(guarded_value(&wants) == 1); /* one byte, 1 */
            CHECK_OK(fathom_scan_frame(scan, 0, depth, sizeof depth, conf, sizeof conf, &f));
            CHECK_OK(fathom_capture_add_frame(c, time_of(0), &f, NULL));
            CHECK_OK(fathom_capture_wants_depth(c, &p0, guard_bool(&wants)));
            CHECK(guarded_value(&wants) == 0); /* one byte, 0 */
            {
                fathom_capture_status st;
                memset(&st, 0xFF, sizeof st);
                CHECK_OK(fathom_capture_get_status(c, &st));
                CHECK(st.frames == 1 && st.fused_frames == 1);
                CHECK(t_all_zero(st.reserved, sizeof st.reserved));
                CHECK(t_bool_byte(&st.motion.captured) <= 1 && t_bool_byte(&st.motion.skipped) <= 1 &&
                      t_bool_byte(&st.motion.restarted) <= 1);
            }
            fathom_capture_destroy(c);
        }
    }
}

/* ---- Renamed and NULL-tolerant destroys ------------------------------------------------------------------------- */

static void test_destroy_null(void) {
    check_section("fathom_scan_destroy (and every destroy) takes NULL");
    fathom_scan_destroy(NULL);
    fathom_mesh_destroy(NULL);
    fathom_point_cloud_destroy(NULL);
    fathom_coverage_destroy(NULL);
    fathom_motion_destroy(NULL);
    fathom_scan_writer_destroy(NULL);
    fathom_transforms_destroy(NULL);
    fathom_capture_destroy(NULL);
    fathom_report_destroy(NULL);
    check_pass_();
}

int main(void) {
    fathom_scan *scan = NULL;
    int have_scan;
    if (!make_temp_dir(DIR_PATH, sizeof DIR_PATH, "abi")) return 1;
    have_scan = write_capture(DIR_PATH);
    CHECK(have_scan);
    if (have_scan) CHECK_OK(fathom_scan_open(path_in(DIR_PATH, SCAN_ID ".json"), &scan));

    test_layouts();
    test_inits_zero_reserved();
    test_batch_reserved();
    test_ransac_reserved();
    test_depth_and_length_reserved();
    test_trackers_reserved();
    if (scan) test_scan_reserved(scan);
    test_bool_bytes_refused(scan);
    test_outputs(scan);
    test_bool_outs(scan);
    test_destroy_null();

    fathom_scan_destroy(scan);
    remove_tree(DIR_PATH);
    return check_summary("test_abi_1_0");
}
