/* Capture reports (fathom.h, "Capture reports"): fathom_capture_* and fathom_scan_report / fathom_report_*.
 *
 * The ABI is what is tested here (the geometry is the core tests' job): the options' documented defaults, NULL
 * arguments (FATHOM_ERR_NULL_POINTER naming the function and the argument), bad options (naming the field as
 * "options.<field>"), a depth frame without a pose, timestamps out of order leaving the capture unchanged,
 * FATHOM_ERR_NO_DATA before any depth, and a small synthetic capture (cameras on a circle looking down at a
 * floor at y = 0, z-depth rendered here by a ray / plane intersection) written with fathom_scan_writer_* into a
 * mkdtemp directory, then reported by fathom_scan_report (progress callback, cancellation), read back through
 * fathom_report_get_summary / _json (its size protocol) / _cloud / _save, and fed live, frame by frame, to a
 * capture (fathom_capture_add_frame with fathom_scan_frame when fathom_capture_wants_depth says so, else
 * fathom_capture_add_pose), which must give the same summary. */
#define _XOPEN_SOURCE 700
#include "fathom.h"
#include "check.h"
#include "tempdir.h"
#include "expect.h"
#include "testmath.h"
#include "report_json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define W 32            /* depth grid */
#define H 24
#define RGB_W 640       /* the RGB image the intrinsics refer to: 20x the depth grid */
#define RGB_H 480
#define N 10            /* frames */
#define SAMPLES (W * H)
#define SCAN_ID "capture_test"
#define NS_PER_S 1000000000LL
#define DEG (T_PI / 180)

static char DIR_PATH[256];

static int file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- The synthetic capture ------------------------------------------------------------------------------ */

static int64_t time_of(int f) { return 3 * NS_PER_S + (int64_t)f * (NS_PER_S / 10); }
static fathom_intrinsics k_of(void) { return t_intr(500, 500, 320, 240, RGB_W, RGB_H); }

/* Camera f's place on the circle: even frames step 0.25 rad around it (25 cm: fused); odd frames sit 0.01 rad
 * (1 cm, 0.6 degrees) past the previous one (under fuse_distance and fuse_angle: not fused). */
static double angle_of(int f) { return 0.25 * (f / 2) + (f % 2 ? 0.01 : 0); }

#include "floor_capture.h"

/* A box about the origin (inside the cameras' view) reaching 5 cm below the floor, so that the floor's points
 * near the origin are clearly inside it. */
static fathom_box floor_box(void) {
    fathom_box b;
    memset(&b, 0, sizeof b);
    b.center = v3(0, 0.15f, 0);
    b.scale = v3(0.6f, 0.4f, 0.5f);
    b.rot_y = 0.3f;
    b.floor = -0.05f;
    b.has_floor = 1;
    return b;
}

/* ---- Helpers ------------------------------------------------------------------------------------------------ */

static int same_vec3(fathom_vec3 a, fathom_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static int same_motion_state(const fathom_motion_state *a, const fathom_motion_state *b) {
    return a->timestamp == b->timestamp && same_vec3(a->velocity, b->velocity) && a->speed == b->speed &&
           a->angular_speed == b->angular_speed && a->guidance == b->guidance &&
           a->capture_interval == b->capture_interval && a->time_to_capture == b->time_to_capture &&
           a->captured == b->captured && a->skipped == b->skipped && a->restarted == b->restarted;
}

static int same_status(const fathom_capture_status *a, const fathom_capture_status *b) {
    return a->frames == b->frames && a->fused_frames == b->fused_frames && a->cloud_points == b->cloud_points &&
           a->captures == b->captures && same_motion_state(&a->motion, &b->motion);
}

static int same_box(const fathom_box *a, const fathom_box *b) {
    return same_vec3(a->center, b->center) && same_vec3(a->scale, b->scale) && a->rot_y == b->rot_y &&
           a->floor == b->floor && a->has_floor == b->has_floor;
}

/* Two summaries equal field by field (exactly: the same computation on the same data). */
static int same_summary(const fathom_report_summary *a, const fathom_report_summary *b) {
    const fathom_trajectory_summary *ta = &a->trajectory, *tb = &b->trajectory;
    const fathom_coverage_summary *ca = &a->coverage, *cb = &b->coverage;
    int f;
    if (a->frames != b->frames || a->fused_frames != b->fused_frames || a->duration != b->duration) return 0;
    if (a->box_source != b->box_source || (a->box_source != FATHOM_BOX_NONE && !same_box(&a->box, &b->box))) return 0;
    if (a->has_floor != b->has_floor ||
        (a->has_floor && (a->floor_height != b->floor_height || !same_vec3(a->floor_normal, b->floor_normal))))
        return 0;
    if (a->has_focus != b->has_focus || (a->has_focus && !same_vec3(a->focus, b->focus))) return 0;
    if (a->cloud_points != b->cloud_points || a->object_points != b->object_points) return 0;
    if (a->has_trajectory != b->has_trajectory) return 0;
    if (a->has_trajectory &&
        (ta->duration != tb->duration || ta->path_length != tb->path_length || ta->speed_p10 != tb->speed_p10 ||
         ta->speed_p50 != tb->speed_p50 || ta->speed_p90 != tb->speed_p90 || ta->speed_max != tb->speed_max ||
         ta->time_too_slow != tb->time_too_slow || ta->time_too_fast != tb->time_too_fast ||
         ta->angular_speed_max != tb->angular_speed_max || ta->steps != tb->steps))
        return 0;
    if (a->has_coverage != b->has_coverage) return 0;
    if (a->has_coverage) {
        if (ca->views != cb->views || ca->counted != cb->counted || ca->faces_complete != cb->faces_complete ||
            ca->faces_needed != cb->faces_needed || ca->complete != cb->complete || ca->angular_score != cb->angular_score)
            return 0;
        for (f = 0; f < 6; f++)
            if (a->face_counts[f] != b->face_counts[f]) return 0;
    }
    return a->captures == b->captures && a->selected_frames == b->selected_frames && a->warning_count == b->warning_count;
}

/* The "element vertex N" count of a PLY file's header, or -1. */
static long ply_vertex_count(const char *path) {
    FILE *f = fopen(path, "rb");
    char line[256];
    long n = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "element vertex %ld", &n) == 1) break;
        if (strncmp(line, "end_header", 10) == 0) break;
    }
    fclose(f);
    return n;
}

/* The whole file as a NUL-terminated string (caller frees), or NULL. */
static char *read_text(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    char *text;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    text = (char *)malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (text) text[n] = '\0';
    if (length) *length = (size_t)n;
    fclose(f);
    return text;
}

/* Progress callback: records the calls; stops (returns 1) after `stop_at` frames when stop_at > 0. */
typedef struct progress_log {
    uint64_t done[64];
    uint64_t total[64];
    int calls;
    int stop_at;
} progress_log;

static int on_progress(void *user, uint64_t done, uint64_t total) {
    progress_log *log = (progress_log *)user;
    if (log->calls < 64) {
        log->done[log->calls] = done;
        log->total[log->calls] = total;
    }
    log->calls++;
    return log->stop_at > 0 && (int)done >= log->stop_at;
}

/* A depth frame of constant depth (8 x 6, 1.5 m), with the pose given (or none). */
static float FLAT[48];
static fathom_depth_frame flat_frame(const fathom_pose *pose) {
    fathom_depth_frame f;
    fathom_intrinsics k = t_intr(8, 8, 4, 3, 8, 6);
    int i;
    for (i = 0; i < 48; i++) FLAT[i] = 1.5f;
    CHECK_OK(fathom_depth_frame_init(&f, FLAT, FATHOM_DEPTH_FLOAT32, 8, 6, &k));
    if (pose) {
        f.camera_to_world = *pose;
        f.has_pose = 1;
    }
    return f;
}

/* ---- Tests -------------------------------------------------------------------------------------------------- */

static void test_defaults(void) {
    fathom_capture_options o;
    fathom_motion_options m;
    fathom_coverage_options c;

    check_section("fathom_capture_options_init: the header's defaults");
    t_fill(&o, sizeof o);
    CHECK_OK(fathom_capture_options_init(&o));
    CHECK(o.min_confidence == 2);
    CHECK(o.max_depth == 5.0f);
    CHECK(o.voxel == 0.01f);
    CHECK(o.fuse_distance == 0.05f);
    CHECK_NEAR(o.fuse_angle, 5 * DEG, 1e-7);
    CHECK(o.min_voxel_points == 2);
    CHECK(o.floor_threshold == 0.02f);
    CHECK(o.floor_iterations == 300);
    CHECK_NEAR(o.floor_max_tilt, 5 * DEG, 1e-7);
    CHECK(o.object_clearance == 0.02f);
    CHECK(o.floor_min_area == 0.25f);
    CHECK_NEAR(o.orbit_min_span, 90 * DEG, 1e-7);
    CHECK(o.orbit_min_views == 10);
    CHECK(o.select_distance == 0.10f);
    CHECK_NEAR(o.select_angle, 10 * DEG, 1e-7);
    CHECK(o.seed == 1);
    /* The nested options are those of fathom_motion_options_init and fathom_coverage_options_init. */
    CHECK_OK(fathom_motion_options_init(&m));
    CHECK(o.motion.time_constant == m.time_constant && o.motion.slow_speed == m.slow_speed &&
          o.motion.brisk_speed == m.brisk_speed && o.motion.fast_speed == m.fast_speed &&
          o.motion.slightly == m.slightly && o.motion.max_gap == m.max_gap &&
          o.motion.intervals[0] == m.intervals[0] && o.motion.intervals[1] == m.intervals[1] &&
          o.motion.intervals[2] == m.intervals[2]);
    CHECK_OK(fathom_coverage_options_init(&c));
    CHECK(o.coverage.goal == c.goal && o.coverage.cells == c.cells && o.coverage.rings == c.rings &&
          o.coverage.sectors == c.sectors && o.coverage.hemisphere == c.hemisphere &&
          o.coverage.exclude_bottom == c.exclude_bottom && o.coverage.min_distance == c.min_distance &&
          o.coverage.max_distance == c.max_distance && o.coverage.min_in_view == c.min_in_view &&
          o.coverage.min_separation_angle == c.min_separation_angle &&
          o.coverage.min_separation_distance == c.min_separation_distance);
    CHECK(o.motion.slow_speed > 0.1269f && o.motion.slow_speed < 0.1271f); /* 5 in/s: really the defaults */
    CHECK(o.coverage.goal == 10);
}

static void test_null_arguments(void) {
    fathom_capture *cap = NULL;
    fathom_capture_status st;
    fathom_box box;
    fathom_coverage *cov = NULL;
    fathom_point_cloud *cloud = NULL;
    fathom_report *rep = NULL;
    fathom_report_summary sum;
    fathom_pose p = pose_of(0);
    fathom_intrinsics k = k_of();
    fathom_depth_frame frame = flat_frame(&p);
    bool wants;
    char buf[16];
    size_t len;

    check_section("NULL arguments: FATHOM_ERR_NULL_POINTER naming the function and the argument");
    EXPECT(fathom_capture_options_init(NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_options_init", "options", P_NULL);
    EXPECT(fathom_capture_create(NULL, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_create", "out", P_NULL);
    CHECK_OK(fathom_capture_create(NULL, NULL, &cap));
    CHECK(cap != NULL);
    if (!cap) return;
    EXPECT(fathom_capture_add_frame(NULL, 0, &frame, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_add_frame", "capture", P_NULL);
    EXPECT(fathom_capture_add_frame(cap, 0, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_add_frame", "frame", P_NULL);
    frame.depth = NULL;
    EXPECT(fathom_capture_add_frame(cap, 0, &frame, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_add_frame", "frame.depth", P_NULL);
    EXPECT(fathom_capture_add_pose(NULL, 0, &p, &k, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_add_pose", "capture", P_NULL);
    EXPECT(fathom_capture_add_pose(cap, 0, NULL, &k, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_add_pose", "camera_to_world", P_NULL);
    /* The header calls this argument `rgb`; the library's message says "intrinsics": either names it. */
    EXPECT(fathom_capture_add_pose(cap, 0, &p, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_add_pose", NULL, P_NULL);
    CHECK(strstr(fathom_last_error(), "rgb") != NULL || strstr(fathom_last_error(), "intrinsics") != NULL);
    EXPECT(fathom_capture_wants_depth(NULL, &p, &wants), FATHOM_ERR_NULL_POINTER, "fathom_capture_wants_depth", "capture", P_NULL);
    EXPECT(fathom_capture_wants_depth(cap, NULL, &wants), FATHOM_ERR_NULL_POINTER, "fathom_capture_wants_depth", "camera_to_world", P_NULL);
    EXPECT(fathom_capture_wants_depth(cap, &p, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_wants_depth", "out", P_NULL);
    EXPECT(fathom_capture_get_status(NULL, &st), FATHOM_ERR_NULL_POINTER, "fathom_capture_get_status", "capture", P_NULL);
    EXPECT(fathom_capture_get_status(cap, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_get_status", "out", P_NULL);
    EXPECT(fathom_capture_box(NULL, &box), FATHOM_ERR_NULL_POINTER, "fathom_capture_box", "capture", P_NULL);
    EXPECT(fathom_capture_box(cap, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_box", "out", P_NULL);
    EXPECT(fathom_capture_coverage(NULL, NULL, &cov), FATHOM_ERR_NULL_POINTER, "fathom_capture_coverage", "capture", P_NULL);
    EXPECT(fathom_capture_coverage(cap, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_coverage", "out", P_NULL);
    EXPECT(fathom_capture_cloud(NULL, &cloud), FATHOM_ERR_NULL_POINTER, "fathom_capture_cloud", "capture", P_NULL);
    EXPECT(fathom_capture_cloud(cap, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_cloud", "out", P_NULL);
    EXPECT(fathom_capture_report(NULL, &rep), FATHOM_ERR_NULL_POINTER, "fathom_capture_report", "capture", P_NULL);
    EXPECT(fathom_capture_report(cap, NULL), FATHOM_ERR_NULL_POINTER, "fathom_capture_report", "out", P_NULL);
    EXPECT(fathom_scan_report(NULL, NULL, NULL, NULL, NULL, &rep), FATHOM_ERR_NULL_POINTER, "fathom_scan_report", "scan", P_NULL);
    EXPECT(fathom_report_get_summary(NULL, &sum), FATHOM_ERR_NULL_POINTER, "fathom_report_get_summary", "report", P_NULL);
    EXPECT(fathom_report_json(NULL, buf, sizeof buf, &len), FATHOM_ERR_NULL_POINTER, "fathom_report_json", "report", P_NULL);
    EXPECT(fathom_report_cloud(NULL, FATHOM_REPORT_CLOUD, &cloud), FATHOM_ERR_NULL_POINTER, "fathom_report_cloud", "report", P_NULL);
    EXPECT(fathom_report_save(NULL, DIR_PATH), FATHOM_ERR_NULL_POINTER, "fathom_report_save", "report", P_NULL);
    CHECK(cov == NULL && cloud == NULL && rep == NULL);

    /* A report (of one pose-only frame) for the report functions' other arguments. */
    CHECK_OK(fathom_capture_add_pose(cap, time_of(0), &p, &k, NULL));
    CHECK_OK(fathom_capture_report(cap, &rep));
    CHECK(rep != NULL);
    if (rep) {
        EXPECT(fathom_report_get_summary(rep, NULL), FATHOM_ERR_NULL_POINTER, "fathom_report_get_summary", "out", P_NULL);
        EXPECT(fathom_report_json(rep, buf, sizeof buf, NULL), FATHOM_ERR_NULL_POINTER, "fathom_report_json", "out_length", P_NULL);
        EXPECT(fathom_report_json(rep, NULL, 100000, &len), FATHOM_ERR_NULL_POINTER, "fathom_report_json", "buffer", P_NULL);
        EXPECT(fathom_report_cloud(rep, FATHOM_REPORT_CLOUD, NULL), FATHOM_ERR_NULL_POINTER, "fathom_report_cloud", "out", P_NULL);
        EXPECT(fathom_report_save(rep, NULL), FATHOM_ERR_NULL_POINTER, "fathom_report_save", "directory", P_NULL);
    }
    fathom_report_destroy(rep);
    fathom_capture_destroy(cap);

    check_section("destroy functions accept NULL");
    fathom_capture_destroy(NULL);
    fathom_report_destroy(NULL);
    CHECK(1);
}

/* fathom_capture_create refuses options edited by `edit` with `status`, naming `field`, and leaves out NULL. */
#define BAD_OPTION(edit, status, field)                                                                      \
    do {                                                                                                     \
        fathom_capture_options o_;                                                                           \
        fathom_capture *c_ = NULL;                                                                           \
        CHECK_OK(fathom_capture_options_init(&o_));                                                          \
        edit;                                                                                                \
        EXPECT(fathom_capture_create(&o_, NULL, &c_), status, "fathom_capture_create", field, P_ANY);         \
        CHECK(c_ == NULL);                                                                                   \
        fathom_capture_destroy(c_);                                                                          \
    } while (0)

static void test_bad_options(void) {
    fathom_capture *c = NULL;
    fathom_box b = floor_box();

    check_section("bad options: FATHOM_ERR_OUT_OF_RANGE / NOT_FINITE naming options.<field>");
    BAD_OPTION(o_.voxel = 0, FATHOM_ERR_OUT_OF_RANGE, "options.voxel");
    BAD_OPTION(o_.voxel = 5e-5f, FATHOM_ERR_OUT_OF_RANGE, "options.voxel");
    BAD_OPTION(o_.voxel = NAN, FATHOM_ERR_NOT_FINITE, "options.voxel");
    BAD_OPTION(o_.max_depth = NAN, FATHOM_ERR_NOT_FINITE, "options.max_depth");
    BAD_OPTION(o_.max_depth = 0, FATHOM_ERR_OUT_OF_RANGE, "options.max_depth");
    BAD_OPTION(o_.fuse_distance = 0, FATHOM_ERR_OUT_OF_RANGE, "options.fuse_distance");
    BAD_OPTION(o_.fuse_angle = -1, FATHOM_ERR_OUT_OF_RANGE, "options.fuse_angle");
    BAD_OPTION(o_.min_voxel_points = 0, FATHOM_ERR_OUT_OF_RANGE, "options.min_voxel_points");
    BAD_OPTION(o_.floor_threshold = -0.01f, FATHOM_ERR_OUT_OF_RANGE, "options.floor_threshold");
    BAD_OPTION(o_.floor_iterations = 0, FATHOM_ERR_OUT_OF_RANGE, "options.floor_iterations");
    BAD_OPTION(o_.floor_iterations = 100001, FATHOM_ERR_OUT_OF_RANGE, "options.floor_iterations");
    BAD_OPTION(o_.floor_max_tilt = (float)(T_PI / 2), FATHOM_ERR_OUT_OF_RANGE, "options.floor_max_tilt");
    BAD_OPTION(o_.floor_max_tilt = 0, FATHOM_ERR_OUT_OF_RANGE, "options.floor_max_tilt");
    BAD_OPTION(o_.object_clearance = -0.01f, FATHOM_ERR_OUT_OF_RANGE, "options.object_clearance");
    BAD_OPTION(o_.floor_min_area = -1, FATHOM_ERR_OUT_OF_RANGE, "options.floor_min_area");
    BAD_OPTION(o_.floor_min_area = INFINITY, FATHOM_ERR_NOT_FINITE, "options.floor_min_area");
    BAD_OPTION(o_.orbit_min_span = 7, FATHOM_ERR_OUT_OF_RANGE, "options.orbit_min_span");
    BAD_OPTION(o_.orbit_min_span = NAN, FATHOM_ERR_NOT_FINITE, "options.orbit_min_span");
    BAD_OPTION(o_.orbit_min_views = 0, FATHOM_ERR_OUT_OF_RANGE, "options.orbit_min_views");
    BAD_OPTION(o_.select_distance = 0, FATHOM_ERR_OUT_OF_RANGE, "options.select_distance");
    BAD_OPTION(o_.select_angle = NAN, FATHOM_ERR_NOT_FINITE, "options.select_angle");
    BAD_OPTION(o_.min_confidence = 256, FATHOM_ERR_OUT_OF_RANGE, "options.min_confidence");
    /* Nested options: the motion and coverage fields are named. */
    BAD_OPTION(o_.motion.slow_speed = -1, FATHOM_ERR_OUT_OF_RANGE, "slow_speed");
    BAD_OPTION(o_.coverage.goal = 0, FATHOM_ERR_OUT_OF_RANGE, "goal");

    check_section("accepted edge values");
    {
        fathom_capture_options o;
        CHECK_OK(fathom_capture_options_init(&o));
        o.max_depth = INFINITY;
        o.voxel = 1e-4f;
        o.fuse_distance = INFINITY;
        o.floor_iterations = 100000;
        o.min_confidence = 255;
        o.object_clearance = 0;
        CHECK_OK(fathom_capture_create(&o, NULL, &c));
        CHECK(c != NULL);
        fathom_capture_destroy(c);
        c = NULL;
    }

    check_section("a bad box: named, nothing made");
    b.scale.y = 0;
    EXPECT(fathom_capture_create(NULL, &b, &c), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_create", "scale.y", P_ANY);
    CHECK(c == NULL);
    b = floor_box();
    b.center.x = NAN;
    EXPECT(fathom_capture_create(NULL, &b, &c), FATHOM_ERR_NOT_FINITE, "fathom_capture_create", "box.center.x", P_FINITE);
    CHECK(c == NULL);
    b = floor_box();
    CHECK_OK(fathom_capture_create(NULL, &b, &c));
    fathom_capture_destroy(c);
}

static void test_frames_and_state(void) {
    fathom_capture *c = NULL;
    fathom_capture_status before, after;
    fathom_motion_state ms;
    fathom_pose p0 = pose_of(0), p2 = pose_of(2), p4 = pose_of(4);
    fathom_intrinsics k = k_of();
    fathom_depth_frame nopose = flat_frame(NULL), framed;
    fathom_box box;
    fathom_coverage *cov = NULL;
    fathom_point_cloud *cloud = NULL;
    fathom_point_cloud_info info;
    bool wants = false; /* the first call must write true */

    CHECK_OK(fathom_capture_create(NULL, NULL, &c));
    if (!c) return;

    check_section("an empty capture: status zero, box NO_DATA, report NO_DATA");
    t_fill(&before, sizeof before);
    CHECK_OK(fathom_capture_get_status(c, &before));
    CHECK(before.frames == 0 && before.fused_frames == 0 && before.cloud_points == 0 && before.captures == 0);
    CHECK(before.motion.guidance == FATHOM_GUIDANCE_UNKNOWN);
    t_fill(&box, sizeof box);
    EXPECT(fathom_capture_box(c, &box), FATHOM_ERR_NO_DATA, "fathom_capture_box", NULL, P_ANY);
    CHECK(t_untouched(&box, sizeof box));
    {
        fathom_report *r = NULL;
        EXPECT(fathom_capture_report(c, &r), FATHOM_ERR_NO_DATA, "fathom_capture_report", NULL, P_ANY);
        CHECK(r == NULL);
    }
    CHECK_OK(fathom_capture_wants_depth(c, &p0, &wants));
    CHECK(wants == true); /* the first frame is always fused */

    check_section("a depth frame without a pose: FATHOM_ERR_INVALID_STATE, nothing added");
    EXPECT(fathom_capture_add_frame(c, time_of(0), &nopose, &ms), FATHOM_ERR_INVALID_STATE, "fathom_capture_add_frame",
           "has_pose", P_ANY);
    CHECK_OK(fathom_capture_get_status(c, &after));
    CHECK(same_status(&before, &after));

    check_section("pose-only frames: no depth yet, box still NO_DATA");
    CHECK_OK(fathom_capture_add_pose(c, time_of(0), &p0, &k, &ms));
    CHECK(ms.timestamp == time_of(0));
    CHECK_OK(fathom_capture_add_pose(c, time_of(1), &p2, &k, NULL));
    CHECK_OK(fathom_capture_get_status(c, &after));
    CHECK(after.frames == 2 && after.fused_frames == 0 && after.cloud_points == 0);
    EXPECT(fathom_capture_box(c, &box), FATHOM_ERR_NO_DATA, "fathom_capture_box", NULL, P_ANY);
    EXPECT(fathom_capture_coverage(c, NULL, &cov), FATHOM_ERR_NO_DATA, "fathom_capture_coverage", NULL, P_ANY);
    CHECK(cov == NULL);

    check_section("a frame with depth is fused; the cloud and status agree");
    framed = flat_frame(&p4);
    CHECK_OK(fathom_capture_add_frame(c, time_of(2), &framed, &ms));
    CHECK(ms.timestamp == time_of(2));
    CHECK_OK(fathom_capture_get_status(c, &before));
    CHECK(before.frames == 3 && before.fused_frames == 1 && before.cloud_points > 0);
    CHECK(same_motion_state(&before.motion, &ms));
    CHECK_OK(fathom_capture_cloud(c, &cloud));
    CHECK(cloud != NULL);
    if (cloud) {
        CHECK_OK(fathom_point_cloud_get_info(cloud, &info));
        CHECK(info.count == before.cloud_points);
        fathom_point_cloud_destroy(cloud);
    }
    CHECK_OK(fathom_capture_wants_depth(c, &p4, &wants));
    CHECK(wants == false); /* the same pose as the last fused frame */
    CHECK_OK(fathom_capture_wants_depth(c, &p0, &wants));
    CHECK(wants == true);

    check_section("timestamps out of order: FATHOM_ERR_OUT_OF_RANGE, status unchanged");
    EXPECT(fathom_capture_add_pose(c, time_of(2) - 1, &p0, &k, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_add_pose",
           "timestamp", P_ANY);
    CHECK_OK(fathom_capture_get_status(c, &after));
    CHECK(same_status(&before, &after));
    framed = flat_frame(&p0); /* would be fused */
    EXPECT(fathom_capture_add_frame(c, time_of(1), &framed, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_add_frame",
           "timestamp", P_ANY);
    CHECK_OK(fathom_capture_get_status(c, &after));
    CHECK(same_status(&before, &after));
    /* An equal timestamp is not earlier: accepted. */
    CHECK_OK(fathom_capture_add_pose(c, time_of(2), &p0, &k, &ms));
    CHECK(ms.skipped == 1);
    CHECK_OK(fathom_capture_get_status(c, &after));
    CHECK(after.frames == 4 && after.fused_frames == 1 && after.cloud_points == before.cloud_points);

    check_section("bad frame arguments are named");
    {
        fathom_pose bad = p0;
        bad.m[0] = 2; /* not rigid */
        EXPECT(fathom_capture_add_pose(c, time_of(5), &bad, &k, NULL), FATHOM_ERR_NOT_RIGID, "fathom_capture_add_pose",
               "camera_to_world", P_ANY);
        EXPECT(fathom_capture_wants_depth(c, &bad, &wants), FATHOM_ERR_NOT_RIGID, "fathom_capture_wants_depth",
               "camera_to_world", P_ANY);
        k.fx = -1;
        EXPECT(fathom_capture_add_pose(c, time_of(5), &p0, &k, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_add_pose",
               "fx", P_ANY);
        framed = flat_frame(&p0);
        framed.format = 7;
        EXPECT(fathom_capture_add_frame(c, time_of(5), &framed, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_capture_add_frame",
               "frame.format", P_ANY);
        CHECK_OK(fathom_capture_get_status(c, &before));
        CHECK(before.frames == 4);
    }

    check_section("coverage with a given box");
    box = floor_box();
    CHECK_OK(fathom_capture_coverage(c, &box, &cov));
    CHECK(cov != NULL);
    fathom_coverage_destroy(cov);
    fathom_capture_destroy(c);
}

static void test_scan_report(void) {
    const char *scan_dir = path_in(DIR_PATH, "scan");
    fathom_scan *scan = NULL;
    fathom_scan_info si;
    fathom_report *rep = NULL, *rep_box = NULL, *live_rep = NULL;
    fathom_report_summary sum, sum_box, live;
    fathom_capture_options opt;
    fathom_box box = floor_box();
    progress_log log;
    int i;

    check_section("a synthetic capture written with fathom_scan_writer_*, opened with fathom_scan_open");
    if (!write_capture(scan_dir)) {
        CHECK(0 && "could not write the capture");
        return;
    }
    CHECK_OK(fathom_scan_open(scan_dir, &scan));
    CHECK(scan != NULL);
    if (!scan) return;
    CHECK_OK(fathom_scan_get_info(scan, &si));
    CHECK(si.frame_count == N && si.depth_width == W && si.depth_height == H && si.has_confidence == 1);
    CHECK(si.warning_count == 0);

    check_section("fathom_scan_report: progress called once per frame, done = 1..N");
    memset(&log, 0, sizeof log);
    CHECK_OK(fathom_capture_options_init(&opt));
    CHECK_OK(fathom_scan_report(scan, &opt, NULL, on_progress, &log, &rep));
    CHECK(rep != NULL);
    CHECK(log.calls == N);
    for (i = 0; i < N && i < log.calls; i++) CHECK(log.done[i] == (uint64_t)(i + 1) && log.total[i] == N);

    check_section("the summary of a floor without an object");
    t_fill(&sum, sizeof sum);
    CHECK_OK(fathom_report_get_summary(rep, &sum));
    CHECK(sum.frames == N);
    CHECK(sum.fused_frames == N / 2); /* the odd frames are 1 cm / 0.6 degrees from the even ones */
    CHECK_NEAR(sum.duration, (N - 1) * 0.1, 1e-9);
    CHECK(sum.box_source == FATHOM_BOX_NONE);
    CHECK(sum.has_floor == 1);
    CHECK_NEAR(sum.floor_height, 0, 0.005);
    CHECK_VEC3(sum.floor_normal, 0, 1, 0, 1e-3);
    CHECK(sum.has_focus == 1);
    CHECK_VEC3(sum.focus, 0, 0, 0, 0.01); /* every camera looks at the origin */
    CHECK(sum.cloud_points > 100);
    CHECK(sum.object_points == 0);
    CHECK(sum.has_trajectory == 1 && sum.trajectory.steps == N - 1);
    CHECK(sum.has_coverage == 0);
    CHECK(sum.selected_frames >= 1 && sum.selected_frames <= N);
    CHECK(sum.warning_count == 1); /* no object: no box */

    check_section("fathom_report_json: the size protocol");
    {
        size_t len = 0, len2 = 0;
        char small[8], *text;
        t_fill(small, sizeof small);
        CHECK_STATUS(fathom_report_json(rep, NULL, 0, &len), FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(len > 100);
        CHECK_STATUS(fathom_report_json(rep, small, sizeof small, &len2), FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(len2 == len);
        CHECK(t_untouched(small, sizeof small));
        text = (char *)malloc(len + 1);
        if (text) {
            CHECK_STATUS(fathom_report_json(rep, text, len, &len2), FATHOM_ERR_BUFFER_TOO_SMALL); /* no room for the NUL */
            memset(text, 'x', len + 1);
            CHECK_OK(fathom_report_json(rep, text, len + 1, &len2));
            CHECK(len2 == len && strlen(text) == len);
            CHECK(text[0] == '{' && text[len - 1] == '}');
            CHECK(strstr(text, "\"frames\":10,") != NULL);
            CHECK(strstr(text, "\"box\":null") != NULL);
            CHECK(strstr(text, "\"box_source\":\"none\"") != NULL);
            CHECK(strstr(text, "\"scan_id\":\"" SCAN_ID "\"") != NULL);
            free(text);
        }
    }

    check_section("fathom_report_cloud: the fused cloud, the object cloud, a bad kind");
    {
        fathom_point_cloud *cl = NULL;
        fathom_point_cloud_info info;
        CHECK_OK(fathom_report_cloud(rep, FATHOM_REPORT_CLOUD, &cl));
        CHECK(cl != NULL);
        if (cl) {
            CHECK_OK(fathom_point_cloud_get_info(cl, &info));
            CHECK(info.count == sum.cloud_points);
            fathom_point_cloud_destroy(cl);
        }
        cl = NULL;
        CHECK_OK(fathom_report_cloud(rep, FATHOM_REPORT_OBJECT, &cl));
        if (cl) {
            CHECK_OK(fathom_point_cloud_get_info(cl, &info));
            CHECK(info.count == 0);
            fathom_point_cloud_destroy(cl);
        }
        cl = NULL;
        EXPECT(fathom_report_cloud(rep, 2, &cl), FATHOM_ERR_OUT_OF_RANGE, "fathom_report_cloud", "which", P_ANY);
        CHECK(cl == NULL);
    }

    check_section("fathom_report_save without a box: report.json, cloud.ply, the page and its figures; no object.ply, no coverage");
    {
        char out[512];
        char *json = report_json(rep), *saved;
        size_t n = 0;
        snprintf(out, sizeof out, "%s", path_in(DIR_PATH, "report-nobox"));
        CHECK_OK(fathom_report_save(rep, out));
        CHECK(file_exists(path_in(out, "report.json")) && file_exists(path_in(out, "cloud.ply")));
        CHECK(!file_exists(path_in(out, "object.ply")));
        CHECK(file_exists(path_in(out, "report.html")) && file_exists(path_in(out, "top-view.svg")) &&
              file_exists(path_in(out, "side-view.svg")) && file_exists(path_in(out, "speed.svg")));
        CHECK(!file_exists(path_in(out, "coverage.svg")) && !file_exists(path_in(out, "view-bins.svg")));
        CHECK(ply_vertex_count(path_in(out, "cloud.ply")) == (long)sum.cloud_points);
        saved = read_text(path_in(out, "report.json"), &n);
        CHECK(json != NULL && saved != NULL);
        if (json && saved) CHECK(n == strlen(json) + 1 && strncmp(saved, json, strlen(json)) == 0 && saved[n - 1] == '\n');
        free(json);
        free(saved);
        EXPECT(fathom_report_save(rep, "/nonexistent-dir/sub/out"), FATHOM_ERR_IO, "fathom_report_save", "/nonexistent-dir/sub/out", P_ANY);
    }

    check_section("fathom_scan_report with a given box; fathom_report_save writes object.ply");
    CHECK_OK(fathom_scan_report(scan, NULL, &box, NULL, NULL, &rep_box));
    CHECK(rep_box != NULL);
    if (rep_box) {
        const char *out = path_in(DIR_PATH, "report-box");
        CHECK_OK(fathom_report_get_summary(rep_box, &sum_box));
        CHECK(sum_box.box_source == FATHOM_BOX_GIVEN);
        CHECK(same_box(&sum_box.box, &box));
        CHECK(sum_box.cloud_points == sum.cloud_points);
        CHECK(sum_box.object_points > 0 && sum_box.object_points < sum_box.cloud_points);
        CHECK(sum_box.has_coverage == 1);
        CHECK(sum_box.warning_count == 0);
        CHECK_OK(fathom_report_save(rep_box, out));
        CHECK(file_exists(path_in(out, "report.json")) && file_exists(path_in(out, "cloud.ply")) &&
              file_exists(path_in(out, "object.ply")));
        CHECK(ply_vertex_count(path_in(out, "cloud.ply")) == (long)sum_box.cloud_points);
        CHECK(ply_vertex_count(path_in(out, "object.ply")) == (long)sum_box.object_points);
    }

    check_section("fathom_report_html, fathom_report_from_json: one writer, the same bytes from a report read back");
    if (rep_box) {
        const char *names[] = {"report.json", "report.html", "cloud.ply", "object.ply", "top-view.svg", "side-view.svg",
                               "speed.svg", "coverage.svg", "view-bins.svg"};
        char *json = report_json(rep_box), *html = NULL, *html2 = NULL, *json2 = NULL;
        size_t n = 0, n2 = 0, i;
        fathom_point_cloud *clouds[2] = {NULL, NULL};
        fathom_point_cloud_info info[2];
        float *points[2] = {NULL, NULL};
        fathom_report *back = NULL, *bad = NULL;
        CHECK_STATUS(fathom_report_html(rep_box, NULL, 0, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
        html = (char *)malloc(n + 1);
        if (html) {
            CHECK_OK(fathom_report_html(rep_box, html, n + 1, &n2));
            CHECK(n2 == n && strlen(html) == n);
            CHECK(strncmp(html, "<!DOCTYPE html>", 15) == 0);
            CHECK(strstr(html, "<table id=\"measurements\">") != NULL && strstr(html, "data-key=\"box_width\"") != NULL);
            CHECK(strstr(html, "<figure id=\"fig-coverage\">") != NULL && strstr(html, "http") == strstr(html, "http://www.w3.org/2000/svg"));
        }
        for (i = 0; i < 2; i++) {
            CHECK_OK(fathom_report_cloud(rep_box, (uint32_t)i, &clouds[i]));
            CHECK_OK(fathom_point_cloud_get_info(clouds[i], &info[i]));
            points[i] = (float *)malloc((info[i].count + 1) * 3 * sizeof(float));
            if (points[i]) CHECK_OK(fathom_point_cloud_points(clouds[i], points[i], info[i].count * 3));
        }
        CHECK(json != NULL && points[0] != NULL && points[1] != NULL);
        if (json && points[0] && points[1]) {
            char da[512], b[512];
            CHECK_OK(fathom_report_from_json(json, strlen(json), points[0], info[0].count, 12, points[1], info[1].count, 12, &back));
            CHECK(back != NULL);
            json2 = back ? report_json(back) : NULL;
            CHECK(json2 != NULL && strcmp(json, json2) == 0);
            if (back && fathom_report_html(back, NULL, 0, &n2) == FATHOM_ERR_BUFFER_TOO_SMALL && (html2 = (char *)malloc(n2 + 1)) != NULL) {
                CHECK_OK(fathom_report_html(back, html2, n2 + 1, &n2));
                CHECK(html != NULL && strcmp(html, html2) == 0);
            }
            snprintf(da, sizeof da, "%s", path_in(DIR_PATH, "report-original"));
            CHECK_OK(fathom_report_save(rep_box, da));
            snprintf(b, sizeof b, "%s", path_in(DIR_PATH, "report-read-back"));
            CHECK_OK(fathom_report_save(back, b));
            for (i = 0; i < sizeof names / sizeof names[0]; i++) {
                char pa[512];
                size_t la = 0, lb = 0;
                char *ta, *tb;
                snprintf(pa, sizeof pa, "%s", path_in(da, names[i]));
                ta = read_text(pa, &la);
                tb = read_text(path_in(b, names[i]), &lb);
                CHECK(ta != NULL && tb != NULL && la == lb && la > 0 && memcmp(ta, tb, la) == 0);
                free(ta);
                free(tb);
            }
            /* Text that is not JSON, a schema error, clouds that do not match the counts, non-finite points. */
            EXPECT(fathom_report_from_json("{", 1, NULL, 0, 12, NULL, 0, 12, &bad), FATHOM_ERR_PARSE, "fathom_report_from_json", "JSON", P_ANY);
            EXPECT(fathom_report_from_json("{}", 2, NULL, 0, 12, NULL, 0, 12, &bad), FATHOM_ERR_FORMAT, "fathom_report_from_json", "frames", P_ANY);
            EXPECT(fathom_report_from_json(json, strlen(json), points[0], info[0].count - 1, 12, points[1], info[1].count, 12, &bad),
                   FATHOM_ERR_FORMAT, "fathom_report_from_json", "cloud", P_ANY);
            points[1][4] = NAN;
            EXPECT(fathom_report_from_json(json, strlen(json), points[0], info[0].count, 12, points[1], info[1].count, 12, &bad),
                   FATHOM_ERR_NOT_FINITE, "fathom_report_from_json", "object", P_ANY);
            EXPECT(fathom_report_from_json(NULL, 0, NULL, 0, 12, NULL, 0, 12, &bad), FATHOM_ERR_NULL_POINTER, "fathom_report_from_json", "json", P_NULL);
            EXPECT(fathom_report_from_json(json, strlen(json), points[0], info[0].count, 12, points[1], info[1].count, 12, NULL),
                   FATHOM_ERR_NULL_POINTER, "fathom_report_from_json", "out", P_NULL);
            CHECK(bad == NULL);
        }
        fathom_report_destroy(back);
        for (i = 0; i < 2; i++) {
            fathom_point_cloud_destroy(clouds[i]);
            free(points[i]);
        }
        free(json);
        free(json2);
        free(html);
        free(html2);
    }

    check_section("cancelling from the progress callback: FATHOM_ERR_INVALID_STATE, no report");
    {
        fathom_report *r = NULL;
        memset(&log, 0, sizeof log);
        log.stop_at = 3;
        EXPECT(fathom_scan_report(scan, NULL, NULL, on_progress, &log, &r), FATHOM_ERR_INVALID_STATE, "fathom_scan_report",
               "cancelled", P_ANY);
        CHECK(r == NULL);
        CHECK(log.calls == 3);
    }

    check_section("fathom_scan_report: bad options and NULL out");
    {
        fathom_report *r = NULL;
        fathom_capture_options bad;
        CHECK_OK(fathom_capture_options_init(&bad));
        bad.voxel = 0;
        EXPECT(fathom_scan_report(scan, &bad, NULL, NULL, NULL, &r), FATHOM_ERR_OUT_OF_RANGE, "fathom_scan_report",
               "options.voxel", P_ANY);
        CHECK(r == NULL);
        EXPECT(fathom_scan_report(scan, NULL, NULL, NULL, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_scan_report", "out", P_NULL);
    }

    check_section("the live capture: fathom_scan_frame / fathom_capture_add_pose as wants_depth says, same summary");
    {
        int64_t ts[N];
        fathom_pose poses[N];
        fathom_intrinsics ks[N];
        static float depth[SAMPLES];
        static uint8_t conf[SAMPLES];
        fathom_capture *c = NULL;
        fathom_capture_status st;
        int pass, wanted = 0;
        CHECK_OK(fathom_scan_timestamps(scan, ts, N));
        CHECK_OK(fathom_scan_poses(scan, poses, N));
        CHECK_OK(fathom_scan_intrinsics(scan, ks, N));
        for (pass = 0; pass < 2; pass++) { /* without, then with the given box */
            CHECK_OK(fathom_capture_create(&opt, pass ? &box : NULL, &c));
            if (!c) continue;
            for (i = 0; i < N; i++) {
                bool wants = i % 2 != 0; /* the opposite of the answer: the call must write it */
                fathom_motion_state ms;
                CHECK_OK(fathom_capture_wants_depth(c, &poses[i], &wants));
                if (pass == 0) CHECK(wants == (i % 2 == 0));
                if (wants) {
                    fathom_depth_frame f;
                    wanted++;
                    CHECK_OK(fathom_scan_frame(scan, (uint64_t)i, depth, sizeof depth, conf, sizeof conf, &f));
                    CHECK_OK(fathom_capture_add_frame(c, ts[i], &f, &ms));
                } else {
                    CHECK_OK(fathom_capture_add_pose(c, ts[i], &poses[i], &ks[i], &ms));
                }
                CHECK(ms.timestamp == ts[i]);
            }
            CHECK_OK(fathom_capture_get_status(c, &st));
            CHECK(st.frames == N && st.fused_frames == N / 2);
            CHECK_OK(fathom_capture_report(c, &live_rep));
            if (live_rep) {
                const fathom_report_summary *want = pass ? &sum_box : &sum;
                CHECK_OK(fathom_report_get_summary(live_rep, &live));
                CHECK(same_summary(&live, want));
                CHECK(st.cloud_points == live.cloud_points && st.captures == live.captures);
                fathom_report_destroy(live_rep);
                live_rep = NULL;
            }
            if (pass == 1) {
                fathom_box now;
                CHECK_OK(fathom_capture_box(c, &now)); /* the given box */
                CHECK(same_box(&now, &box));
            } else {
                fathom_box now;
                EXPECT(fathom_capture_box(c, &now), FATHOM_ERR_NO_DATA, "fathom_capture_box", NULL, P_ANY); /* only a floor */
            }
            fathom_capture_destroy(c);
            c = NULL;
        }
        CHECK(wanted == N); /* N / 2 fused frames in each pass */
    }

    fathom_report_destroy(rep);
    fathom_report_destroy(rep_box);
    fathom_scan_destroy(scan);
}

int main(void) {
    if (!make_temp_dir(DIR_PATH, sizeof DIR_PATH, "capture-test")) return 1;
    test_defaults();
    test_null_arguments();
    test_bad_options();
    test_frames_and_state();
    test_scan_report();
    remove_tree(DIR_PATH);
    return check_summary("test_capture");
}
