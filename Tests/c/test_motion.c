/* Camera speed across the C ABI (fathom.h, "Capture guidance"): fathom_motion_* and fathom_trajectory_*.
 *
 * Expected values are worked out by hand in the comments from the header and reference/capture-guidance.md:
 * velocity = (p1 - p0) / (t1 - t0) of consecutive accepted poses, speed = |velocity|, angular speed =
 * angle(R0^T R1) / dt, smoothing v += alpha (v_new - v) with alpha = 1 - exp(-dt / tau), the app's thresholds
 * 5 / 8 / 10 in/s (0.127 / 0.2032 / 0.254 m/s) with "slightly" bands of 20%, and the app's capture interval
 * (first capture 3 s after the first pose; after a capture: [8, 10) in/s -> 1 s, [5, 8) -> 2 s, < 5 -> 3 s,
 * >= 10 -> unchanged), on poses turned about one coordinate axis. The rotation angle against Double and the
 * interval policy step by step are also in Tests/FathomCoreTests/GuidanceTests.swift ("Motion"); batch = single
 * updates there too (GuidanceBatchTests). */
#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FN_CREATE "fathom_motion_create"
#define FN_UPDATE "fathom_motion_update"
#define FN_BATCH "fathom_motion_update_batch"
#define FN_SUMMARY "fathom_trajectory_summarize"
#define FN_SELECT "fathom_trajectory_select"

#define NS_PER_S 1000000000LL
#define IN_PER_S 0.0254 /* meters per second in one inch per second */

/* A pose turned by `a` about one coordinate axis (0: x, 1: y, 2: z), at (x, y, z). */
static fathom_pose pose_axis(int axis, double a, double x, double y, double z) {
    double r[9];
    if (axis == 0) t_rot_x(a, r);
    else if (axis == 1) t_rot_y(a, r);
    else t_rot_z(a, r);
    return t_pose(r, x, y, z);
}

static fathom_pose pose_at(double x, double y, double z) { return pose_axis(1, 0, x, y, z); }

static fathom_motion *make_motion(const fathom_motion_options *o) {
    fathom_motion *m = NULL;
    CHECK_OK(fathom_motion_create(o, &m));
    return m;
}

/* Two states equal field by field (exactly: the same computation). */
static int same_state(const fathom_motion_state *a, const fathom_motion_state *b) {
    return a->timestamp == b->timestamp && a->velocity.x == b->velocity.x && a->velocity.y == b->velocity.y &&
           a->velocity.z == b->velocity.z && a->speed == b->speed && a->angular_speed == b->angular_speed &&
           a->guidance == b->guidance && a->capture_interval == b->capture_interval &&
           a->time_to_capture == b->time_to_capture && a->captured == b->captured && a->skipped == b->skipped &&
           a->restarted == b->restarted;
}

static void test_options(void) {
    fathom_motion_options o;
    fathom_motion_state s;
    fathom_motion *m;

    check_section("options: the app's defaults in m/s");
    t_fill(&o, sizeof o);
    CHECK_OK(fathom_motion_options_init(&o));
    CHECK(o.time_constant == 0);
    CHECK_NEAR(o.slow_speed, 5 * IN_PER_S, 1e-7);   /* 0.127 */
    CHECK_NEAR(o.brisk_speed, 8 * IN_PER_S, 1e-7);  /* 0.2032 */
    CHECK_NEAR(o.fast_speed, 10 * IN_PER_S, 1e-7);  /* 0.254 */
    CHECK_NEAR(o.slightly, 0.2, 1e-7);
    CHECK_NEAR(o.max_gap, 0.5, 1e-7);
    CHECK(o.intervals[0] == 1 && o.intervals[1] == 2 && o.intervals[2] == 3);

    check_section("state before the first pose: all zero, guidance UNKNOWN");
    m = make_motion(NULL);
    t_fill(&s, sizeof s);
    CHECK_OK(fathom_motion_get_state(m, &s));
    CHECK(s.timestamp == 0 && s.velocity.x == 0 && s.velocity.y == 0 && s.velocity.z == 0 && s.speed == 0 &&
          s.angular_speed == 0 && s.guidance == FATHOM_GUIDANCE_UNKNOWN && s.capture_interval == 0 &&
          s.time_to_capture == 0 && s.captured == 0 && s.skipped == 0 && s.restarted == 0);
    fathom_motion_destroy(m);
}

static void test_velocity(void) {
    fathom_motion *m;
    fathom_motion_state s;
    fathom_pose p0, p1;
    const int64_t t0 = 7 * NS_PER_S + 123; /* any origin */

    check_section("velocity, speed and angular speed of two hand-made poses");
    /* R0 = R_x(0.4); R1 = R_x(0.43): R0^T R1 = R_x(0.03) turns 0.03 rad, in 0.1 s -> 0.3 rad/s.
     * Positions (1, 2, 3) -> (1.015, 2, 3.02): velocity (0.15, 0, 0.2) m/s, speed 0.25 m/s (9.84 in/s):
     * within 20% below 10 in/s -> SLIGHTLY_FAST. */
    p0 = pose_axis(0, 0.4, 1, 2, 3);
    p1 = pose_axis(0, 0.43, 1.015, 2, 3.02);
    m = make_motion(NULL);
    t_fill(&s, sizeof s);
    CHECK_OK(fathom_motion_update(m, t0, &p0, &s));
    /* The first pose: no speed yet, the capture clock starts (first capture due 3 s later). */
    CHECK(s.timestamp == t0);
    CHECK(s.guidance == FATHOM_GUIDANCE_UNKNOWN);
    CHECK(s.speed == 0 && s.angular_speed == 0);
    CHECK_NEAR(s.capture_interval, 3, 1e-6);
    CHECK_NEAR(s.time_to_capture, 3, 1e-6);
    CHECK(s.captured == 0 && s.skipped == 0 && s.restarted == 0);

    CHECK_OK(fathom_motion_update(m, t0 + NS_PER_S / 10, &p1, &s));
    CHECK(s.timestamp == t0 + NS_PER_S / 10);
    CHECK_VEC3(s.velocity, 0.15, 0, 0.2, 2e-5);
    CHECK_NEAR(s.speed, 0.25, 2e-5);
    CHECK_NEAR(s.angular_speed, 0.3, 1e-4);
    CHECK(s.guidance == FATHOM_GUIDANCE_SLIGHTLY_FAST);
    CHECK_NEAR(s.time_to_capture, 2.9, 1e-5);
    CHECK(s.captured == 0 && s.skipped == 0 && s.restarted == 0);
    fathom_motion_destroy(m);

    check_section("angular speed of a half turn and more");
    /* 3.0 rad about z in 1 s -> 3.0 rad/s (the relative rotation's angle, near pi); positions equal -> speed 0. */
    m = make_motion(NULL);
    p0 = pose_axis(2, 0.1, 0, 0, 0);
    p1 = pose_axis(2, 3.1, 0, 0, 0);
    CHECK_OK(fathom_motion_update(m, 0, &p0, NULL));
    CHECK_OK(fathom_motion_update(m, NS_PER_S / 4, &p1, &s));
    CHECK_NEAR(s.angular_speed, 3.0 / 0.25, 1e-3);
    CHECK(s.speed == 0);
    CHECK(s.guidance == FATHOM_GUIDANCE_TOO_SLOW);
    fathom_motion_destroy(m);
}

/* The guidance of one step of `speed` m/s (0.1 s along a skew direction) with options o. */
static uint32_t guidance_of(const fathom_motion_options *o, double speed) {
    fathom_motion *m = make_motion(o);
    fathom_motion_state s;
    fathom_pose a = pose_at(0.5, 1, -2), b;
    double d = speed * 0.1;
    /* along (2, 1, -2)/3 */
    b = pose_at(0.5 + d * 2 / 3, 1 + d / 3, -2 - d * 2 / 3);
    s.guidance = 99;
    CHECK_OK(fathom_motion_update(m, 1000, &a, NULL));
    CHECK_OK(fathom_motion_update(m, 1000 + NS_PER_S / 10, &b, &s));
    CHECK_NEAR(s.speed, speed, 1e-5 + 1e-5 * speed);
    fathom_motion_destroy(m);
    return s.guidance;
}

static void test_guidance(void) {
    fathom_motion_options o;

    check_section("guidance bands at the app's 5 / 10 in/s with 20% 'slightly' bands");
    /* TOO_SLOW < 5 in/s <= SLIGHTLY_SLOW < 6 in/s <= OK <= 8 in/s < SLIGHTLY_FAST <= 10 in/s < TOO_FAST.
     * Speeds a little either side of each boundary (in in/s). */
    CHECK(guidance_of(NULL, 0.0) == FATHOM_GUIDANCE_TOO_SLOW);
    CHECK(guidance_of(NULL, 4.95 * IN_PER_S) == FATHOM_GUIDANCE_TOO_SLOW);
    CHECK(guidance_of(NULL, 5.05 * IN_PER_S) == FATHOM_GUIDANCE_SLIGHTLY_SLOW);
    CHECK(guidance_of(NULL, 5.95 * IN_PER_S) == FATHOM_GUIDANCE_SLIGHTLY_SLOW);
    CHECK(guidance_of(NULL, 6.05 * IN_PER_S) == FATHOM_GUIDANCE_OK);
    CHECK(guidance_of(NULL, 7.95 * IN_PER_S) == FATHOM_GUIDANCE_OK);
    CHECK(guidance_of(NULL, 8.05 * IN_PER_S) == FATHOM_GUIDANCE_SLIGHTLY_FAST);
    CHECK(guidance_of(NULL, 9.95 * IN_PER_S) == FATHOM_GUIDANCE_SLIGHTLY_FAST);
    CHECK(guidance_of(NULL, 10.05 * IN_PER_S) == FATHOM_GUIDANCE_TOO_FAST);
    CHECK(guidance_of(NULL, 40 * IN_PER_S) == FATHOM_GUIDANCE_TOO_FAST);

    check_section("guidance bands with other thresholds (slow 1, fast 4, slightly 0.5)");
    /* TOO_SLOW < 1 <= SLIGHTLY_SLOW < 1.5 <= OK <= 2 < SLIGHTLY_FAST <= 4 < TOO_FAST (brisk plays no part). */
    CHECK_OK(fathom_motion_options_init(&o));
    o.slow_speed = 1;
    o.brisk_speed = 3;
    o.fast_speed = 4;
    o.slightly = 0.5f;
    CHECK(guidance_of(&o, 0.9) == FATHOM_GUIDANCE_TOO_SLOW);
    CHECK(guidance_of(&o, 1.1) == FATHOM_GUIDANCE_SLIGHTLY_SLOW);
    CHECK(guidance_of(&o, 1.45) == FATHOM_GUIDANCE_SLIGHTLY_SLOW);
    CHECK(guidance_of(&o, 1.55) == FATHOM_GUIDANCE_OK);
    CHECK(guidance_of(&o, 1.95) == FATHOM_GUIDANCE_OK);
    CHECK(guidance_of(&o, 2.05) == FATHOM_GUIDANCE_SLIGHTLY_FAST);
    CHECK(guidance_of(&o, 3.5) == FATHOM_GUIDANCE_SLIGHTLY_FAST);
    CHECK(guidance_of(&o, 4.1) == FATHOM_GUIDANCE_TOO_FAST);
    /* slightly = 0: no slightly bands. */
    o.slightly = 0;
    CHECK(guidance_of(&o, 1.05) == FATHOM_GUIDANCE_OK);
    CHECK(guidance_of(&o, 3.95) == FATHOM_GUIDANCE_OK);
}

/* The capture timeline: 81 poses at 10 Hz; the speed of step k (from pose k-1 to k) by segment. */
#define TL_N 81
static double timeline_speed(int k) {
    if (k <= 30) return 6.0 * IN_PER_S;   /* [5, 8) in/s */
    if (k <= 50) return 12.0 * IN_PER_S;  /* >= 10 in/s */
    if (k <= 70) return 9.0 * IN_PER_S;   /* [8, 10) in/s */
    return 2.0 * IN_PER_S;                /* < 5 in/s */
}

static void make_timeline(int64_t t0, int64_t *ts, fathom_pose *poses) {
    double x = 0.3, z = -1.0, heading = 0.0;
    int k;
    for (k = 0; k < TL_N; k++) {
        if (k > 0) {
            double v = timeline_speed(k);
            heading += 0.05; /* walking along a slow curve */
            x += v * 0.1 * cos(heading);
            z += v * 0.1 * sin(heading);
        }
        ts[k] = t0 + (int64_t)k * (NS_PER_S / 10);
        poses[k] = pose_axis(1, -heading, x, 1.4, z);
    }
}

static void test_capture_interval(void) {
    int64_t ts[TL_N];
    fathom_pose poses[TL_N];
    fathom_motion_state single[TL_N], batch[TL_N];
    fathom_motion *a, *b;
    const int64_t t0 = -2 * NS_PER_S; /* negative origins are fine */
    int k, captures = 0, same = 1;

    check_section("capture interval: first capture 3 s after the first pose, then 2 / unchanged / 1 / 3 s");
    make_timeline(t0, ts, poses);
    a = make_motion(NULL);
    for (k = 0; k < TL_N; k++) CHECK_OK(fathom_motion_update(a, ts[k], &poses[k], &single[k]));
    for (k = 0; k < TL_N; k++) captures += single[k].captured != 0;
    /* Captures at 3.0 s (6 in/s -> 2 s, next at 5), 5.0 s (12 in/s -> unchanged 2 s, next at 7), 7.0 s (9 in/s ->
     * 1 s, next at 8), 8.0 s (2 in/s -> 3 s, next at 11). */
    CHECK(captures == 4);
    CHECK(single[30].captured == 1 && single[30].capture_interval == 2);
    CHECK(single[50].captured == 1 && single[50].capture_interval == 2 && single[50].guidance == FATHOM_GUIDANCE_TOO_FAST);
    CHECK(single[70].captured == 1 && single[70].capture_interval == 1);
    CHECK(single[80].captured == 1 && single[80].capture_interval == 3);
    CHECK(single[0].captured == 0);
    CHECK(single[29].captured == 0 && single[31].captured == 0);
    /* The time to the next capture and the interval in between: at 0 s 3 (3 s); at 1 s 2 (3 s); at 3 s 2 (2 s);
     * at 4 s 1 (2 s); at 6 s 1 (2 s); at 7.5 s 0.5 (1 s); at 8 s 3 (3 s). */
    CHECK_NEAR(single[0].time_to_capture, 3, 1e-5);
    CHECK_NEAR(single[10].time_to_capture, 2, 1e-5);
    CHECK_NEAR(single[10].capture_interval, 3, 1e-6);
    CHECK_NEAR(single[30].time_to_capture, 2, 1e-5);
    CHECK_NEAR(single[40].time_to_capture, 1, 1e-5);
    CHECK_NEAR(single[40].capture_interval, 2, 1e-6);
    CHECK_NEAR(single[60].time_to_capture, 1, 1e-5);
    CHECK_NEAR(single[75].time_to_capture, 0.5, 1e-5);
    CHECK_NEAR(single[75].capture_interval, 1, 1e-6);
    CHECK_NEAR(single[80].time_to_capture, 3, 1e-5);
    /* The speeds of the segments (m/s): 6, 12, 9 and 2 in/s. */
    CHECK_NEAR(single[10].speed, 6 * IN_PER_S, 1e-5);
    CHECK_NEAR(single[40].speed, 12 * IN_PER_S, 1e-5);
    CHECK_NEAR(single[60].speed, 9 * IN_PER_S, 1e-5);
    CHECK_NEAR(single[75].speed, 2 * IN_PER_S, 1e-5);

    check_section("batch = single updates");
    b = make_motion(NULL);
    memset(batch, 0, sizeof batch);
    CHECK_OK(fathom_motion_update_batch(b, ts, poses, TL_N, batch));
    for (k = 0; k < TL_N; k++)
        if (!same_state(&single[k], &batch[k])) {
            if (same) printf("    state %d differs between batch and single updates\n", k);
            same = 0;
        }
    CHECK(same);
    /* out may be NULL: the tracker still advances. */
    fathom_motion_reset(b);
    CHECK_OK(fathom_motion_update_batch(b, ts, poses, TL_N, NULL));
    CHECK_OK(fathom_motion_get_state(b, &batch[0]));
    CHECK(same_state(&batch[0], &single[TL_N - 1]));
    fathom_motion_destroy(a);
    fathom_motion_destroy(b);
}

static void test_smoothing(void) {
    fathom_motion_options o;
    fathom_motion *m;
    fathom_motion_state s;
    fathom_pose p0, p1, p2, p3;
    double alpha, vx, vy, vz, w;

    check_section("smoothing: alpha = 1 - exp(-dt / tau), first velocity taken as it is");
    CHECK_OK(fathom_motion_options_init(&o));
    o.time_constant = 0.2f;
    m = make_motion(&o);
    /* Step 1 (dt 0.1 s): velocity (0.1, 0, 0), 0.02 rad about y -> 0.2 rad/s: taken as it is.
     * Step 2 (dt 0.05 s): raw velocity (0, 0, 0.3), raw angular 0.6 rad/s (0.03 rad about y more):
     *   alpha = 1 - exp(-0.25); v = (0.1, 0, 0) + alpha ((0, 0, 0.3) - (0.1, 0, 0)); w = 0.2 + alpha (0.6 - 0.2).
     * Step 3 (dt 0.2 s): raw velocity (0, -0.05, 0), angular 0: alpha = 1 - exp(-1). */
    p0 = pose_axis(1, 0, 0, 0, 0);
    p1 = pose_axis(1, 0.02, 0.01, 0, 0);
    p2 = pose_axis(1, 0.05, 0.01, 0, 0.015);
    p3 = pose_axis(1, 0.05, 0.01, -0.01, 0.015);
    CHECK_OK(fathom_motion_update(m, 0, &p0, &s));
    CHECK_OK(fathom_motion_update(m, NS_PER_S / 10, &p1, &s));
    CHECK_VEC3(s.velocity, 0.1, 0, 0, 2e-6);
    CHECK_NEAR(s.angular_speed, 0.2, 1e-4);
    CHECK_OK(fathom_motion_update(m, 150000000, &p2, &s));
    alpha = 1 - exp(-0.05 / 0.2);
    vx = 0.1 + alpha * (0 - 0.1);
    vy = 0;
    vz = 0 + alpha * (0.3 - 0);
    w = 0.2 + alpha * (0.6 - 0.2);
    CHECK_VEC3(s.velocity, vx, vy, vz, 1e-5);
    CHECK_NEAR(s.speed, sqrt(vx * vx + vz * vz), 1e-5);
    CHECK_NEAR(s.angular_speed, w, 2e-4);
    CHECK_OK(fathom_motion_update(m, 350000000, &p3, &s));
    alpha = 1 - exp(-0.2 / 0.2);
    vx += alpha * (0 - vx);
    vy += alpha * (-0.05 - vy);
    vz += alpha * (0 - vz);
    w += alpha * (0 - w);
    CHECK_VEC3(s.velocity, vx, vy, vz, 1e-5);
    CHECK_NEAR(s.speed, sqrt(vx * vx + vy * vy + vz * vz), 1e-5);
    CHECK_NEAR(s.angular_speed, w, 2e-4);

    check_section("smoothing restarts after a gap: the first velocity after it is taken as it is");
    /* 0.6 s > max_gap 0.5 s: restarted, speed 0, UNKNOWN; then 0.1 s at (0.2, 0, 0) m/s: exactly that. */
    p0 = pose_at(0.5, 0, 0.015);
    CHECK_OK(fathom_motion_update(m, 950000000, &p0, &s));
    CHECK(s.restarted == 1);
    CHECK(s.guidance == FATHOM_GUIDANCE_UNKNOWN);
    CHECK(s.speed == 0 && s.angular_speed == 0 && s.velocity.x == 0 && s.velocity.y == 0 && s.velocity.z == 0);
    p1 = pose_at(0.52, 0, 0.015);
    CHECK_OK(fathom_motion_update(m, 1050000000, &p1, &s));
    CHECK(s.restarted == 0);
    CHECK_VEC3(s.velocity, 0.2, 0, 0, 2e-5);
    CHECK(s.guidance == FATHOM_GUIDANCE_OK);
    fathom_motion_destroy(m);
}

static void test_timestamps(void) {
    fathom_motion *m;
    fathom_motion_state s, before, after;
    fathom_pose p0 = pose_at(0, 0, 0), p1 = pose_at(0.02, 0, 0), wild = pose_at(50, 50, 50), p2, scaled;

    check_section("repeated timestamps are skipped; earlier ones refused with nothing changed");
    m = make_motion(NULL);
    CHECK_OK(fathom_motion_update(m, 1000, &p0, NULL));
    CHECK_OK(fathom_motion_update(m, 1000 + NS_PER_S / 10, &p1, &before)); /* 0.2 m/s */
    CHECK_OK(fathom_motion_update(m, 1000 + NS_PER_S / 10, &wild, &s));
    CHECK(s.skipped == 1);
    CHECK(s.timestamp == before.timestamp && s.speed == before.speed && s.velocity.x == before.velocity.x &&
          s.guidance == before.guidance && s.time_to_capture == before.time_to_capture &&
          s.capture_interval == before.capture_interval && s.captured == 0 && s.restarted == 0);
    /* The next velocity is from the last accepted pose (p1), not the skipped one. */
    p2 = pose_at(0.035, 0, 0);
    CHECK_OK(fathom_motion_update(m, 1000 + 2 * (NS_PER_S / 10), &p2, &s));
    CHECK(s.skipped == 0);
    CHECK_VEC3(s.velocity, 0.15, 0, 0, 2e-5);

    /* Earlier timestamp: OUT_OF_RANGE naming the timestamp; the state (flags included) unchanged; out untouched. */
    CHECK_OK(fathom_motion_get_state(m, &before));
    t_fill(&s, sizeof s);
    EXPECT(fathom_motion_update(m, 1000 + NS_PER_S / 20, &wild, &s), FATHOM_ERR_OUT_OF_RANGE, FN_UPDATE, "timestamp",
           "before");
    CHECK(t_untouched(&s, sizeof s));
    CHECK_OK(fathom_motion_get_state(m, &after));
    CHECK(same_state(&before, &after));
    /* A bad pose changes nothing either. */
    scaled = pose_at(0.05, 0, 0);
    scaled.m[0] = 2;
    EXPECT(fathom_motion_update(m, 1000 + 3 * (NS_PER_S / 10), &scaled, &s), FATHOM_ERR_NOT_RIGID, FN_UPDATE,
           "camera_to_world", "rigid");
    CHECK_OK(fathom_motion_get_state(m, &after));
    CHECK(same_state(&before, &after));
    /* and the tracker carries on from p2. */
    p1 = pose_at(0.035, 0, 0.01);
    CHECK_OK(fathom_motion_update(m, 1000 + 3 * (NS_PER_S / 10), &p1, &s));
    CHECK_VEC3(s.velocity, 0, 0, 0.1, 2e-5);
    CHECK(s.guidance == FATHOM_GUIDANCE_TOO_SLOW);

    check_section("a skipped pose clears captured and restarted");
    p1 = pose_at(0.02, 0, 0);
    fathom_motion_reset(m);
    CHECK_OK(fathom_motion_update(m, 0, &p0, NULL));
    CHECK_OK(fathom_motion_update(m, 3 * NS_PER_S + 1, &p1, &s)); /* a gap of 3 s: restarted, and the capture is due */
    CHECK(s.restarted == 1 && s.captured == 1);
    /* Unknown speed at the capture: the interval stays 3 s. */
    CHECK_NEAR(s.capture_interval, 3, 1e-6);
    CHECK_NEAR(s.time_to_capture, 3, 1e-6);
    CHECK_OK(fathom_motion_update(m, 3 * NS_PER_S + 1, &p2, &s));
    CHECK(s.skipped == 1 && s.restarted == 0 && s.captured == 0);

    check_section("gaps: > max_gap restarts, below does not");
    fathom_motion_reset(m);
    CHECK_OK(fathom_motion_update(m, 0, &p0, NULL));
    CHECK_OK(fathom_motion_update(m, 450000000, &p1, &s)); /* 0.45 s <= 0.5 s: a step, 0.02 / 0.45 m/s */
    CHECK(s.restarted == 0);
    CHECK_NEAR(s.speed, 0.02 / 0.45, 1e-5);
    CHECK_OK(fathom_motion_update(m, 1050000000, &p2, &s)); /* 0.6 s: a gap */
    CHECK(s.restarted == 1 && s.guidance == FATHOM_GUIDANCE_UNKNOWN && s.speed == 0);
    CHECK_OK(fathom_motion_update(m, 1150000000, &p0, &s)); /* 0.1 s: 0.035 m back -> 0.35 m/s */
    CHECK(s.restarted == 0);
    CHECK_VEC3(s.velocity, -0.35, 0, 0, 2e-5);
    CHECK(s.guidance == FATHOM_GUIDANCE_TOO_FAST);
    /* max_gap is an option. */
    {
        fathom_motion_options o;
        fathom_motion *g;
        CHECK_OK(fathom_motion_options_init(&o));
        o.max_gap = 2;
        g = make_motion(&o);
        CHECK_OK(fathom_motion_update(g, 0, &p0, NULL));
        CHECK_OK(fathom_motion_update(g, 1500000000, &p1, &s));
        CHECK(s.restarted == 0);
        CHECK_NEAR(s.speed, 0.02 / 1.5, 1e-6);
        fathom_motion_destroy(g);
    }

    check_section("reset forgets every pose");
    CHECK_OK(fathom_motion_reset(m));
    CHECK_OK(fathom_motion_get_state(m, &s));
    CHECK(s.timestamp == 0 && s.speed == 0 && s.guidance == FATHOM_GUIDANCE_UNKNOWN && s.capture_interval == 0 &&
          s.time_to_capture == 0);
    /* After a reset an earlier timestamp is a first pose again. */
    CHECK_OK(fathom_motion_update(m, -5, &p1, &s));
    CHECK(s.timestamp == -5 && s.guidance == FATHOM_GUIDANCE_UNKNOWN && s.captured == 0);
    CHECK_NEAR(s.time_to_capture, 3, 1e-6);
    fathom_motion_destroy(m);
}

/* The trajectory functions through the ABI: each field of fathom_trajectory_summary, the options and the index
 * buffer, with values worked out by hand. Their geometry (nearest-rank percentiles, gaps and repeated timestamps, the
 * selection rule by distance, angle or either) is checked once in Tests/FathomCoreTests/TrajectoryTests.swift. */
static void test_trajectory_summary(void) {
    int64_t ts[8];
    fathom_pose p[8];
    fathom_trajectory_summary s;
    const double ms = NS_PER_S / 1000;

    check_section("trajectory summary: every field of a hand-made trajectory");
    /* t (s):  0, 0.1, 0.2, 0.2 (repeated: ignored), 0.3, 1.0 (gap 0.7 s: not a step), 1.1, 1.2
     * steps:  0->1 (0.003, 0, 0.004): 0.005 m -> 0.05 m/s TOO_SLOW, turn 0.01 rad -> 0.1 rad/s
     *         1->2 (0, 0.02, 0): 0.02 m -> 0.2 m/s OK, turn 0.02 rad -> 0.2 rad/s
     *         2->4 (0.018, 0, -0.024): 0.03 m -> 0.3 m/s TOO_FAST (pose 3, 10 m away and turned 2 rad, is skipped)
     *         4->5 gap: 1 m and 1 rad not counted
     *         5->6 (0, 0, 0.014): 0.14 m/s SLIGHTLY_SLOW
     *         6->7 (0.026, 0, 0): 0.26 m/s TOO_FAST, turn 0.08 rad -> 0.8 rad/s (the maximum)
     * speeds sorted: 0.05, 0.14, 0.2, 0.26, 0.3; nearest rank ceil(p n): p10 -> 1st, p50 -> 3rd, p90 -> 5th.
     * path 0.005 + 0.02 + 0.03 + 0.014 + 0.026 = 0.095 m; too slow 0.1 s; too fast 0.2 s; duration 1.2 s. */
    ts[0] = 0; ts[1] = (int64_t)(100 * ms); ts[2] = (int64_t)(200 * ms); ts[3] = ts[2];
    ts[4] = (int64_t)(300 * ms); ts[5] = (int64_t)(1000 * ms); ts[6] = (int64_t)(1100 * ms); ts[7] = (int64_t)(1200 * ms);
    p[0] = pose_axis(1, 0.00, 0, 1, 0);
    p[1] = pose_axis(1, 0.01, 0.003, 1, 0.004);
    p[2] = pose_axis(1, 0.03, 0.003, 1.02, 0.004);
    p[3] = pose_axis(0, 2.0, 10, 10, 10);
    p[4] = pose_axis(1, 0.03, 0.021, 1.02, -0.02);
    p[5] = pose_axis(1, 1.03, 1.021, 1.02, -0.02);
    p[6] = pose_axis(1, 1.03, 1.021, 1.02, -0.006);
    p[7] = pose_axis(1, 1.11, 1.047, 1.02, -0.006);
    t_fill(&s, sizeof s);
    CHECK_OK(fathom_trajectory_summarize(ts, p, 8, NULL, &s));
    CHECK(s.steps == 5);
    CHECK_NEAR(s.duration, 1.2, 1e-9);
    CHECK_NEAR(s.path_length, 0.095, 1e-6);
    CHECK_NEAR(s.speed_p10, 0.05, 2e-5);
    CHECK_NEAR(s.speed_p50, 0.2, 2e-5);
    CHECK_NEAR(s.speed_p90, 0.3, 2e-5);
    CHECK_NEAR(s.speed_max, 0.3, 2e-5);
    CHECK_NEAR(s.time_too_slow, 0.1, 1e-9);
    CHECK_NEAR(s.time_too_fast, 0.2, 1e-9);
    CHECK_NEAR(s.angular_speed_max, 0.8, 2e-4);

    check_section("trajectory summary: the options reach the tracker (fast_speed, max_gap)");
    {
        fathom_motion_options o;
        CHECK_OK(fathom_motion_options_init(&o));
        o.fast_speed = 0.35f; /* above every step: nothing too fast */
        CHECK_OK(fathom_trajectory_summarize(ts, p, 8, &o, &s));
        CHECK_NEAR(s.time_too_fast, 0, 1e-12);
        o.max_gap = 1; /* now 4->5 is a step: 1 m in 0.7 s, too fast even for 0.35 m/s */
        CHECK_OK(fathom_trajectory_summarize(ts, p, 8, &o, &s));
        CHECK(s.steps == 6);
        CHECK_NEAR(s.time_too_fast, 0.7, 1e-9);
    }

    check_section("trajectory summary: the percentile fields, all different");
    {
        /* 11 poses 0.1 s apart along x with step speeds 0.01 * (1..10) in a shuffled order:
         * p10 = 1st = 0.01, p50 = 5th = 0.05, p90 = 9th = 0.09, max 0.10. */
        static const int order[10] = {7, 3, 10, 1, 5, 9, 2, 8, 6, 4};
        int64_t t2[11];
        fathom_pose q[11];
        double x = 0;
        int i;
        for (i = 0; i < 11; i++) {
            if (i > 0) x += 0.01 * order[i - 1] * 0.1;
            t2[i] = (int64_t)i * (NS_PER_S / 10);
            q[i] = pose_at(x, 0, 0);
        }
        CHECK_OK(fathom_trajectory_summarize(t2, q, 11, NULL, &s));
        CHECK(s.steps == 10);
        CHECK_NEAR(s.speed_p10, 0.01, 1e-5);
        CHECK_NEAR(s.speed_p50, 0.05, 1e-5);
        CHECK_NEAR(s.speed_p90, 0.09, 1e-5);
        CHECK_NEAR(s.speed_max, 0.10, 1e-5);
    }

    check_section("trajectory summary: bad input");
    t_fill(&s, sizeof s);
    ts[4] = ts[2] - 1;
    EXPECT(fathom_trajectory_summarize(ts, p, 8, NULL, &s), FATHOM_ERR_OUT_OF_RANGE, FN_SUMMARY, "timestamps[4]", P_ANY);
    CHECK(t_untouched(&s, sizeof s));
    ts[4] = (int64_t)(300 * ms);
    EXPECT(fathom_trajectory_summarize(ts, p, 1, NULL, &s), FATHOM_ERR_OUT_OF_RANGE, FN_SUMMARY, "count", P_ANY);
    EXPECT(fathom_trajectory_summarize(NULL, p, 8, NULL, &s), FATHOM_ERR_NULL_POINTER, FN_SUMMARY, "timestamps", P_NULL);
    EXPECT(fathom_trajectory_summarize(ts, NULL, 8, NULL, &s), FATHOM_ERR_NULL_POINTER, FN_SUMMARY, "cameras_to_world",
           P_NULL);
    EXPECT(fathom_trajectory_summarize(ts, p, 8, NULL, NULL), FATHOM_ERR_NULL_POINTER, FN_SUMMARY, "out", P_NULL);
    p[6].m[13] = NAN;
    EXPECT(fathom_trajectory_summarize(ts, p, 8, NULL, &s), FATHOM_ERR_NOT_FINITE, FN_SUMMARY, "cameras_to_world[6]",
           P_FINITE);
    p[6].m[13] = 1.02f;
    p[2].m[5] = 1.5f;
    EXPECT(fathom_trajectory_summarize(ts, p, 8, NULL, &s), FATHOM_ERR_NOT_RIGID, FN_SUMMARY, "cameras_to_world[2]",
           "rigid");
    CHECK(t_untouched(&s, sizeof s));
    {
        fathom_motion_options o;
        CHECK_OK(fathom_motion_options_init(&o));
        o.slightly = 1;
        p[2] = pose_axis(1, 0.03, 0.003, 1.02, 0.004);
        EXPECT(fathom_trajectory_summarize(ts, p, 8, &o, &s), FATHOM_ERR_OUT_OF_RANGE, FN_SUMMARY, "slightly", P_ANY);
    }
}

static void test_trajectory_select(void) {
    fathom_pose p[10];
    uint32_t idx[10];
    size_t n = 0;
    int i;

    check_section("frame selection by distance: the indices, and nothing written past them");
    /* x = 0.04 i: keep 0; then the first >= 0.1 m from 0 is 0.12 (i = 3); then >= 0.22 is 0.24 (i = 6);
     * then >= 0.34 is 0.36 (i = 9). */
    for (i = 0; i < 10; i++) p[i] = pose_at(0.04 * i, 1, 0);
    t_fill(idx, sizeof idx);
    CHECK_OK(fathom_trajectory_select(p, 10, 0.1f, INFINITY, idx, 10, &n));
    CHECK(n == 4);
    CHECK(idx[0] == 0 && idx[1] == 3 && idx[2] == 6 && idx[3] == 9);
    CHECK(t_untouched(&idx[4], 6 * sizeof idx[0]));
    /* A single pose: [0]. */
    CHECK_OK(fathom_trajectory_select(p, 1, 0.1f, 0.5f, idx, 10, &n));
    CHECK(n == 1 && idx[0] == 0);

    check_section("frame selection: capacity too small writes the first ones and the count");
    t_fill(idx, sizeof idx);
    EXPECT(fathom_trajectory_select(p, 10, 0.1f, INFINITY, idx, 2, &n), FATHOM_ERR_BUFFER_TOO_SMALL, FN_SELECT,
           "capacity", P_ANY);
    CHECK(n == 4);
    CHECK(idx[0] == 0 && idx[1] == 3);
    CHECK(t_untouched(&idx[2], 8 * sizeof idx[0]));
    n = 0;
    EXPECT(fathom_trajectory_select(p, 10, 0.1f, INFINITY, NULL, 0, &n), FATHOM_ERR_BUFFER_TOO_SMALL, FN_SELECT,
           "capacity", P_ANY);
    CHECK(n == 4);

    check_section("frame selection by angle (min_angle is the second threshold)");
    /* Fixed position, 0.15 i rad about y; min_angle 0.5: keep 0, 4 (0.6), 8 (1.2 - 0.6 = 0.6 >= 0.5). */
    for (i = 0; i < 10; i++) p[i] = pose_axis(1, 0.15 * i, 0, 1, 0);
    CHECK_OK(fathom_trajectory_select(p, 10, INFINITY, 0.5f, idx, 10, &n));
    CHECK(n == 3);
    CHECK(idx[0] == 0 && idx[1] == 4 && idx[2] == 8);

    check_section("frame selection: bad input");
    EXPECT(fathom_trajectory_select(p, 10, INFINITY, INFINITY, idx, 10, &n), FATHOM_ERR_OUT_OF_RANGE, FN_SELECT,
           "min_distance", P_ANY);
    EXPECT(fathom_trajectory_select(p, 10, NAN, 0.5f, idx, 10, &n), FATHOM_ERR_NOT_FINITE, FN_SELECT, "min_distance",
           P_ANY);
    EXPECT(fathom_trajectory_select(p, 10, 0.1f, -1, idx, 10, &n), FATHOM_ERR_OUT_OF_RANGE, FN_SELECT, "min_angle", P_ANY);
    EXPECT(fathom_trajectory_select(p, 10, 0, INFINITY, idx, 10, &n), FATHOM_ERR_OUT_OF_RANGE, FN_SELECT, "min_distance",
           P_ANY);
    EXPECT(fathom_trajectory_select(p, 0, 0.1f, 0.5f, idx, 10, &n), FATHOM_ERR_OUT_OF_RANGE, FN_SELECT, "count", P_ANY);
    EXPECT(fathom_trajectory_select(NULL, 10, 0.1f, 0.5f, idx, 10, &n), FATHOM_ERR_NULL_POINTER, FN_SELECT,
           "cameras_to_world", P_NULL);
    EXPECT(fathom_trajectory_select(p, 10, 0.1f, 0.5f, NULL, 10, &n), FATHOM_ERR_NULL_POINTER, FN_SELECT, "out_indices",
           P_NULL);
    EXPECT(fathom_trajectory_select(p, 10, 0.1f, 0.5f, idx, 10, NULL), FATHOM_ERR_NULL_POINTER, FN_SELECT, "out_count",
           P_NULL);
    p[7].m[15] = 0.5f;
    EXPECT(fathom_trajectory_select(p, 10, 0.1f, 0.5f, idx, 10, &n), FATHOM_ERR_NOT_RIGID, FN_SELECT,
           "cameras_to_world[7]", "rigid");
}

static void test_bad_input(void) {
    fathom_motion_options o;
    fathom_motion *m = NULL, *keep;
    fathom_motion_state s, before, after;
    fathom_pose p = pose_at(0, 0, 0), bad;
    int64_t ts[4] = {0, 100, 200, 300};
    fathom_pose ps[4];

    check_section("motion: bad options");
#define BAD_OPTION(field, value, status, name)                                                                 \
    do {                                                                                                       \
        CHECK_OK(fathom_motion_options_init(&o));                                                              \
        o.field = (value);                                                                                     \
        m = (fathom_motion *)&o;                                                                               \
        EXPECT(fathom_motion_create(&o, &m), status, FN_CREATE, name, P_ANY);                                  \
        CHECK(m == (fathom_motion *)&o);                                                                       \
    } while (0)
    BAD_OPTION(time_constant, -1, FATHOM_ERR_OUT_OF_RANGE, "time_constant");
    BAD_OPTION(time_constant, NAN, FATHOM_ERR_NOT_FINITE, "time_constant");
    BAD_OPTION(slow_speed, 0, FATHOM_ERR_OUT_OF_RANGE, "slow_speed");
    BAD_OPTION(slow_speed, 0.25f, FATHOM_ERR_OUT_OF_RANGE, "slow");
    BAD_OPTION(fast_speed, 0.2f, FATHOM_ERR_OUT_OF_RANGE, "fast");
    BAD_OPTION(fast_speed, INFINITY, FATHOM_ERR_NOT_FINITE, "fast_speed");
    BAD_OPTION(slightly, 1, FATHOM_ERR_OUT_OF_RANGE, "slightly");
    BAD_OPTION(slightly, -0.1f, FATHOM_ERR_OUT_OF_RANGE, "slightly");
    BAD_OPTION(max_gap, 0, FATHOM_ERR_OUT_OF_RANGE, "max_gap");
    BAD_OPTION(intervals[1], 0, FATHOM_ERR_OUT_OF_RANGE, "intervals");
    BAD_OPTION(intervals[2], NAN, FATHOM_ERR_NOT_FINITE, "intervals");
#undef BAD_OPTION
    EXPECT(fathom_motion_create(NULL, NULL), FATHOM_ERR_NULL_POINTER, FN_CREATE, "out", P_NULL);
    EXPECT(fathom_motion_options_init(NULL), FATHOM_ERR_NULL_POINTER, "fathom_motion_options_init", "options", P_NULL);

    check_section("motion: NULL handles and pointers");
    keep = make_motion(NULL);
    EXPECT(fathom_motion_update(NULL, 0, &p, &s), FATHOM_ERR_NULL_POINTER, FN_UPDATE, "motion", P_NULL);
    EXPECT(fathom_motion_update(keep, 0, NULL, &s), FATHOM_ERR_NULL_POINTER, FN_UPDATE, "camera_to_world", P_NULL);
    EXPECT(fathom_motion_get_state(NULL, &s), FATHOM_ERR_NULL_POINTER, "fathom_motion_get_state", "motion", P_NULL);
    EXPECT(fathom_motion_get_state(keep, NULL), FATHOM_ERR_NULL_POINTER, "fathom_motion_get_state", "out", P_NULL);
    EXPECT(fathom_motion_reset(NULL), FATHOM_ERR_NULL_POINTER, "fathom_motion_reset", "motion", P_NULL);
    fathom_motion_destroy(NULL);
    ps[0] = pose_at(0, 0, 0);
    ps[1] = pose_at(0, 0, 1e-8f);
    ps[2] = pose_at(0, 0, 2e-8f);
    ps[3] = pose_at(0, 0, 3e-8f);
    EXPECT(fathom_motion_update_batch(NULL, ts, ps, 4, NULL), FATHOM_ERR_NULL_POINTER, FN_BATCH, "motion", P_NULL);
    EXPECT(fathom_motion_update_batch(keep, NULL, ps, 4, NULL), FATHOM_ERR_NULL_POINTER, FN_BATCH, "timestamps", P_NULL);
    EXPECT(fathom_motion_update_batch(keep, ts, NULL, 4, NULL), FATHOM_ERR_NULL_POINTER, FN_BATCH, "cameras_to_world",
           P_NULL);
    EXPECT(fathom_motion_update_batch(keep, ts, ps, 0, NULL), FATHOM_ERR_OUT_OF_RANGE, FN_BATCH, "count", P_ANY);
    CHECK_OK(fathom_motion_get_state(keep, &s));
    CHECK(s.timestamp == 0 && s.capture_interval == 0); /* nothing applied */

    check_section("motion: NaN and non-rigid poses change nothing");
    CHECK_OK(fathom_motion_update(keep, 50, &p, NULL));
    CHECK_OK(fathom_motion_get_state(keep, &before));
    bad = pose_at(0, 0, 0);
    bad.m[12] = NAN;
    EXPECT(fathom_motion_update(keep, 60, &bad, &s), FATHOM_ERR_NOT_FINITE, FN_UPDATE, "camera_to_world", P_FINITE);
    bad = pose_at(0, 0, 0);
    bad.m[4] = 0.1f; /* a shear */
    EXPECT(fathom_motion_update(keep, 60, &bad, &s), FATHOM_ERR_NOT_RIGID, FN_UPDATE, "camera_to_world", "rigid");
    bad = pose_at(0, 0, 0);
    bad.m[3] = 0.5f; /* bottom row */
    EXPECT(fathom_motion_update(keep, 60, &bad, &s), FATHOM_ERR_NOT_RIGID, FN_UPDATE, "camera_to_world", "rigid");
    bad = pose_at(0, 0, 0);
    bad.m[10] = -1; /* a reflection */
    EXPECT(fathom_motion_update(keep, 60, &bad, &s), FATHOM_ERR_NOT_RIGID, FN_UPDATE, "camera_to_world", P_ANY);
    CHECK_OK(fathom_motion_get_state(keep, &after));
    CHECK(same_state(&before, &after));

    check_section("motion batch: stops at the bad index, the poses before stay applied");
    fathom_motion_reset(keep);
    ps[2].m[0] = 3;
    EXPECT(fathom_motion_update_batch(keep, ts, ps, 4, NULL), FATHOM_ERR_NOT_RIGID, FN_BATCH, "cameras_to_world[2]",
           "rigid");
    CHECK_OK(fathom_motion_get_state(keep, &s));
    CHECK(s.timestamp == 100);
    ps[2] = pose_at(0, 0, 2e-8f);
    fathom_motion_reset(keep);
    ts[2] = 50;
    EXPECT(fathom_motion_update_batch(keep, ts, ps, 4, NULL), FATHOM_ERR_OUT_OF_RANGE, FN_BATCH, "timestamps[2]", P_ANY);
    CHECK_OK(fathom_motion_get_state(keep, &s));
    CHECK(s.timestamp == 100);
    fathom_motion_destroy(keep);
}

int main(void) {
    test_options();
    test_velocity();
    test_guidance();
    test_capture_interval();
    test_smoothing();
    test_timestamps();
    test_trajectory_summary();
    test_trajectory_select();
    test_bad_input();
    return check_summary("test_motion");
}
