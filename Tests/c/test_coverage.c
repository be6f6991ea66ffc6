/* Face coverage across the C ABI (fathom.h, "Capture guidance"): fathom_coverage_*.
 *
 * Cameras are placed by hand looking at known faces; every expected value is worked out by hand in the comments
 * from the header
 * and reference/capture-guidance.md: the face the optical axis (camera -z) meets first, its distance, the cell
 * a = floor((coordinate / extent + 1/2) * cells) along the face's two local axes ((x, y) front/back, (z, y)
 * left/right, (x, z) bottom/top), the equal-area view bin (ring from the height y of the direction box centre ->
 * camera: (y + 1) / 2 on the sphere, max(y, 0) on the upper hemisphere; sector from atan2(z, x) measured from +x
 * toward +z), the app's progress min(count / goal, 1), colour (1 - p) yellow + p cyan, opacity 0.25 + 0.5 p
 * (0 once complete), and the rules that reject views. */
#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FN_CREATE "fathom_coverage_create"
#define FN_RECORD "fathom_coverage_record"
#define FN_BATCH "fathom_coverage_record_batch"

/* The test box: centre (1, 0.5, -2), full extents (0.8, 1.0, 0.6), no floor. */
static fathom_box test_box(float rot_y) {
    fathom_box b;
    memset(&b, 0, sizeof b);
    b.center = v3(1, 0.5f, -2);
    b.scale = v3(0.8f, 1.0f, 0.6f);
    b.rot_y = rot_y;
    return b;
}

/* A camera at `eye` whose optical axis (-z) points along `dir` (any length); `up` picks the roll. */
static fathom_pose camera_dir(const double eye[3], const double dir[3], const double up[3]) {
    double z[3] = {-dir[0], -dir[1], -dir[2]}, x[3], y[3], r[9];
    t_normalize(z);
    t_cross(up, z, x);
    t_normalize(x);
    t_cross(z, x, y);
    r[0] = x[0]; r[1] = x[1]; r[2] = x[2];
    r[3] = y[0]; r[4] = y[1]; r[5] = y[2];
    r[6] = z[0]; r[7] = z[1]; r[8] = z[2];
    return t_pose(r, eye[0], eye[1], eye[2]);
}

static const double UP[3] = {0, 1, 0};

/* A camera at centre + R_y(rot_y) * local_eye looking along R_y(rot_y) * local_dir (the box frame). */
static fathom_pose camera_local(const fathom_box *b, double lx, double ly, double lz, double dx, double dy, double dz) {
    double le[3] = {lx, ly, lz}, ld[3] = {dx, dy, dz}, e[3], d[3], up[3] = {0, 1, 0};
    t_ry_apply(b->rot_y, le, e);
    t_ry_apply(b->rot_y, ld, d);
    e[0] += b->center.x;
    e[1] += b->center.y;
    e[2] += b->center.z;
    if (fabs(dx) < 1e-12 && fabs(dz) < 1e-12) { /* looking straight up or down: roll from local -z */
        double lu[3] = {0, 0, -1};
        t_ry_apply(b->rot_y, lu, up);
    }
    return camera_dir(e, d, up);
}

static fathom_coverage *make_cov(const fathom_box *b, const fathom_coverage_options *o) {
    fathom_coverage *c = NULL;
    CHECK_OK(fathom_coverage_create(b, o, &c));
    return c;
}

static fathom_coverage_options opts(uint32_t goal, float min_sep_angle) {
    fathom_coverage_options o;
    fathom_coverage_options_init(&o);
    o.goal = goal;
    o.min_separation_angle = min_sep_angle;
    return o;
}

static void test_defaults(void) {
    fathom_coverage_options o;
    check_section("options: defaults");
    t_fill(&o, sizeof o);
    CHECK_OK(fathom_coverage_options_init(&o));
    CHECK(o.goal == 10 && o.cells == 4 && o.rings == 4 && o.sectors == 12);
    CHECK(o.hemisphere == -1 && o.exclude_bottom == -1);
    CHECK(o.min_distance == 0 && isinf(o.max_distance) && o.max_distance > 0);
    CHECK(o.min_in_view == 0);
    CHECK_NEAR(o.min_separation_angle, 5 * T_PI / 180, 1e-7);
    CHECK_NEAR(o.min_separation_distance, 0.1, 1e-7);
}

static void test_faces_cells_bins(void) {
    fathom_box b = test_box(0);
    fathom_coverage_options o = opts(10, 0);
    fathom_coverage *c = make_cov(&b, &o);
    fathom_view_result r;
    fathom_pose cam;

    check_section("front face: face, distance, cell, bin");
    /* Camera at local (0.25, -0.3, -3) looking along +z: meets the front face (z = -0.3) at local (0.25, -0.3):
     * distance 2.7; a = floor((0.25 / 0.8 + 0.5) 4) = floor(3.25) = 3, b = floor((-0.3 / 1 + 0.5) 4) = 0 -> cell 3.
     * Direction to the camera (0.25, -0.3, -3)/|.|: y = -0.0992 -> (y + 1)/2 = 0.45 -> ring 1 of 4; azimuth
     * atan2(-3, 0.25) = -85.2 deg = 274.8 deg -> sector 9 of 12 -> bin 21. */
    cam = camera_local(&b, 0.25, -0.3, -3, 0, 0, 1);
    t_fill(&r, sizeof r);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    CHECK(r.face == FATHOM_FACE_FRONT);
    CHECK(r.cell == 3);
    CHECK(r.bin == 21);
    CHECK_NEAR(r.distance, 2.7, 1e-5);
    CHECK(r.completed_face == FATHOM_NO_HIT);

    check_section("left, right, back, top, bottom faces and their cells");
    /* Left (local -x): from local (-3, 0.2, 0.1) along +x: hit local (-0.4, 0.2, 0.1), distance 2.6;
     * a from z: floor((0.1/0.6 + 0.5) 4) = 2, b from y: floor((0.2 + 0.5) 4) = 2 -> cell 10. */
    cam = camera_local(&b, -3, 0.2, 0.1, 1, 0, 0);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_LEFT && r.cell == 10);
    CHECK_NEAR(r.distance, 2.6, 1e-5);
    /* Right (local +x): from local (2, -0.45, -0.29) along -x: hit at x = 0.4, distance 1.6;
     * a from z: floor((-0.29/0.6 + 0.5) 4) = floor(0.0667) = 0, b from y: floor(0.05 * 4) = 0 -> cell 0. */
    cam = camera_local(&b, 2, -0.45, -0.29, -1, 0, 0);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_RIGHT && r.cell == 0);
    CHECK_NEAR(r.distance, 1.6, 1e-5);
    /* Back (local +z): from local (-0.39, 0.49, 4) along -z: distance 3.7; a = floor(0.0125 * 4) = 0,
     * b = floor(0.99 * 4) = 3 -> cell 12. */
    cam = camera_local(&b, -0.39, 0.49, 4, 0, 0, -1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_BACK && r.cell == 12);
    CHECK_NEAR(r.distance, 3.7, 1e-5);
    /* Top (local +y): from local (-0.3, 3, 0.2) straight down: distance 2.5; a from x: floor((-0.375 + 0.5) 4) = 0,
     * b from z: floor((0.2/0.6 + 0.5) 4) = 3 -> cell 12. Direction straight up-ish: y = 3/|(-0.3, 3, 0.2)| = 0.9928
     * -> ring 3; azimuth atan2(0.2, -0.3) = 146.3 deg -> sector 4 -> bin 40. */
    cam = camera_local(&b, -0.3, 3, 0.2, 0, -1, 0);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_TOP && r.cell == 12);
    CHECK_NEAR(r.distance, 2.5, 1e-5);
    CHECK(r.bin == 40);
    /* Bottom (local -y): from local (0.35, -2, -0.05) straight up: distance 1.5; a = floor((0.4375 + 0.5) 4) = 3,
     * b from z: floor((-0.0833 + 0.5) 4) = 1 -> cell 7. y = -0.98 -> ring 0. */
    cam = camera_local(&b, 0.35, -2, -0.05, 0, 1, 0);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_BOTTOM && r.cell == 7);
    CHECK_NEAR(r.distance, 1.5, 1e-5);
    CHECK(r.bin / 12 == 0);

    check_section("the first face met: an oblique axis through two faces");
    /* From local (-2, 0, -2) towards the centre: the axis (1, 0, 1)/sqrt 2 reaches the plane x = -0.4 at t = 1.6 sqrt 2
     * (z = -0.4, outside |z| <= 0.3) and the plane z = -0.3 at t = 1.7 sqrt 2 (x = -0.3, inside): front face first,
     * distance 1.7 sqrt 2; a = floor((-0.3/0.8 + 0.5) 4) = 0, b = floor(0.5 * 4) = 2 -> cell 8. */
    cam = camera_local(&b, -2, 0, -2, 1, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_FRONT && r.cell == 8);
    CHECK_NEAR(r.distance, 1.7 * sqrt(2.0), 1e-5);

    check_section("per-face and per-cell counts");
    {
        uint32_t cells[16];
        fathom_face_coverage f;
        int i, total = 0;
        t_fill(cells, sizeof cells);
        CHECK_OK(fathom_coverage_cells(c, FATHOM_FACE_FRONT, cells, 16));
        for (i = 0; i < 16; i++) total += (int)cells[i];
        CHECK(cells[3] == 1 && cells[8] == 1 && total == 2);
        CHECK_OK(fathom_coverage_cells(c, FATHOM_FACE_TOP, cells, 16));
        CHECK(cells[12] == 1);
        CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_FRONT, &f));
        CHECK(f.count == 2);
        CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_LEFT, &f));
        CHECK(f.count == 1);
    }
    fathom_coverage_destroy(c);

    check_section("a box turned about y: cells in the box's own frame");
    /* rot_y = 0.5: camera at local (0.1, 0.2, -3) looking along local +z: front, distance 2.7,
     * a = floor((0.125 + 0.5) 4) = 2, b = floor(0.7 * 4) = 2 -> cell 10. */
    b = test_box(0.5f);
    c = make_cov(&b, &o);
    cam = camera_local(&b, 0.1, 0.2, -3, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_FRONT && r.cell == 10);
    CHECK_NEAR(r.distance, 2.7, 1e-5);
    /* The direction box centre -> camera is R_y(0.5) (0.1, 0.2, -3) / |.| = (-1.3505, 0.2, -2.6807) / 3.0083 (x =
     * cos 0.5 * 0.1 + sin 0.5 * -3, z = -sin 0.5 * 0.1 + cos 0.5 * -3): y = 0.0665 -> (y + 1)/2 = 0.533 -> ring 2;
     * azimuth atan2(-2.6807, -1.3505) = 243.3 deg -> sector 8 -> bin 32 (the unturned direction would be bin 33). */
    CHECK(r.bin == 32);
    /* Right face of the turned box: from local (3, 0, 0) along local -x. */
    cam = camera_local(&b, 3, 0, 0, -1, 0, 0);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_RIGHT);
    CHECK_NEAR(r.distance, 2.6, 1e-5);
    fathom_coverage_destroy(c);

    check_section("8 cells per face");
    {
        fathom_coverage_options o8 = opts(10, 0);
        o8.cells = 8;
        b = test_box(0);
        c = make_cov(&b, &o8);
        /* a = floor((0.25/0.8 + 0.5) 8) = 6, b = floor(0.2 * 8) = 1 -> 1 * 8 + 6 = 14. */
        cam = camera_local(&b, 0.25, -0.3, -3, 0, 0, 1);
        CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
        CHECK(r.cell == 14);
        fathom_coverage_destroy(c);
    }
}

static void test_progress_and_events(void) {
    fathom_box b = test_box(0);
    fathom_coverage_options o = opts(3, 0); /* goal 3, similarity off: the same pose counts each time */
    fathom_coverage *c = make_cov(&b, &o);
    fathom_view_result r;
    fathom_face_coverage f;
    fathom_pose front = camera_local(&b, 0, 0, -2, 0, 0, 1), left = camera_local(&b, -2, 0, 0, 1, 0, 0);
    int i, events = 0;

    check_section("progress, colour and opacity by the app's formulas; completion reported once");
    t_fill(&f, sizeof f);
    CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_FRONT, &f));
    CHECK(f.count == 0 && f.progress == 0 && f.complete == 0 && f.needed == 1);
    CHECK_NEAR(f.color[0], 1, 1e-7); /* yellow */
    CHECK_NEAR(f.color[1], 1, 1e-7);
    CHECK_NEAR(f.color[2], 0, 1e-7);
    CHECK_NEAR(f.opacity, 0.25, 1e-7);
    for (i = 1; i <= 5; i++) {
        double p = i < 3 ? i / 3.0 : 1.0;
        CHECK_OK(fathom_coverage_record(c, &front, NULL, &r));
        CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_FRONT);
        if (r.completed_face != FATHOM_NO_HIT) {
            events++;
            CHECK(i == 3 && r.completed_face == FATHOM_FACE_FRONT);
        }
        CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_FRONT, &f));
        CHECK(f.count == (uint32_t)i);
        CHECK_NEAR(f.progress, p, 1e-6);
        CHECK_NEAR(f.color[0], 1 - p, 1e-6);
        CHECK_NEAR(f.color[1], 1, 1e-6);
        CHECK_NEAR(f.color[2], p, 1e-6);
        CHECK_NEAR(f.opacity, i < 3 ? 0.25 + 0.5 * p : 0.0, 1e-6);
        CHECK(f.complete == (i >= 3));
    }
    CHECK(events == 1);
    /* A rejected view does not count toward the goal (here: none rejected); another face completes on its own. */
    events = 0;
    for (i = 1; i <= 4; i++) {
        CHECK_OK(fathom_coverage_record(c, &left, NULL, &r));
        if (r.completed_face != FATHOM_NO_HIT) {
            events++;
            CHECK(i == 3 && r.completed_face == FATHOM_FACE_LEFT);
        }
    }
    CHECK(events == 1);
    {
        fathom_coverage_summary s;
        CHECK_OK(fathom_coverage_get_summary(c, &s));
        CHECK(s.views == 9 && s.counted == 9 && s.faces_complete == 2 && s.faces_needed == 6 && s.complete == 0);
    }

    check_section("reset forgets counts and events");
    CHECK_OK(fathom_coverage_reset(c));
    CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_FRONT, &f));
    CHECK(f.count == 0 && f.complete == 0);
    {
        fathom_coverage_summary s;
        uint32_t cells[16], bins[48];
        int k, nz = 0;
        CHECK_OK(fathom_coverage_get_summary(c, &s));
        CHECK(s.views == 0 && s.counted == 0 && s.faces_complete == 0 && s.angular_score == 0);
        CHECK_OK(fathom_coverage_cells(c, FATHOM_FACE_FRONT, cells, 16));
        for (k = 0; k < 16; k++) nz += cells[k] != 0;
        CHECK_OK(fathom_coverage_bins(c, bins, NULL, 48));
        for (k = 0; k < 48; k++) nz += bins[k] != 0;
        CHECK(nz == 0);
    }
    {
        fathom_vec3 d, p;
        EXPECT(fathom_coverage_next_view(c, 0, &d, &p), FATHOM_ERR_INVALID_STATE, "fathom_coverage_next_view", NULL, P_ANY);
    }
    events = 0;
    for (i = 1; i <= 3; i++) {
        CHECK_OK(fathom_coverage_record(c, &front, NULL, &r));
        if (r.completed_face == FATHOM_FACE_FRONT) events++;
    }
    CHECK(events == 1 && r.completed_face == FATHOM_FACE_FRONT);
    fathom_coverage_destroy(c);
}

static void test_floor_and_bottom(void) {
    fathom_box b = test_box(0);
    fathom_coverage_options o = opts(1, 0);
    fathom_coverage *c;
    fathom_coverage_summary s;
    fathom_face_coverage f;
    fathom_view_result r;
    fathom_pose cams[5];
    int i;

    /* On a floor at y = 0.2 (the box reaches from 0 to 1): the clamped box spans y 0.2 ... 1.0, centre y 0.6. */
    b.has_floor = 1;
    b.floor = 0.2f;
    cams[0] = camera_local(&b, 0, 0, -2, 0, 0, 1);   /* front */
    cams[1] = camera_local(&b, -2, 0, 0, 1, 0, 0);   /* left */
    cams[2] = camera_local(&b, 2, 0, 0, -1, 0, 0);   /* right */
    cams[3] = camera_local(&b, 0, 2, 0, 0, -1, 0);   /* top */
    cams[4] = camera_local(&b, 0, 0, 2, 0, 0, -1);   /* back */

    check_section("floor: bottom excluded by default (-1), 5 faces needed");
    c = make_cov(&b, &o);
    CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_BOTTOM, &f));
    CHECK(f.needed == 0);
    CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_TOP, &f));
    CHECK(f.needed == 1);
    for (i = 0; i < 5; i++) {
        CHECK_OK(fathom_coverage_record(c, &cams[i], NULL, &r));
        CHECK(r.status == FATHOM_VIEW_COUNTED);
    }
    CHECK_OK(fathom_coverage_get_summary(c, &s));
    CHECK(s.faces_needed == 5 && s.faces_complete == 5 && s.complete == 1);
    fathom_coverage_destroy(c);

    check_section("floor with exclude_bottom = 0: the bottom is needed");
    o.exclude_bottom = 0;
    c = make_cov(&b, &o);
    for (i = 0; i < 5; i++) CHECK_OK(fathom_coverage_record(c, &cams[i], NULL, NULL));
    CHECK_OK(fathom_coverage_get_summary(c, &s));
    CHECK(s.faces_needed == 6 && s.faces_complete == 5 && s.complete == 0);
    CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_BOTTOM, &f));
    CHECK(f.needed == 1 && f.count == 0);
    fathom_coverage_destroy(c);

    check_section("no floor with exclude_bottom = 1: 5 faces needed; default without a floor: 6");
    b.has_floor = 0;
    o.exclude_bottom = 1;
    c = make_cov(&b, &o);
    CHECK_OK(fathom_coverage_get_summary(c, &s));
    CHECK(s.faces_needed == 5);
    fathom_coverage_destroy(c);
    o.exclude_bottom = -1;
    c = make_cov(&b, &o);
    CHECK_OK(fathom_coverage_get_summary(c, &s));
    CHECK(s.faces_needed == 6);
    fathom_coverage_destroy(c);

    check_section("floor-clamped box: cells and bins use the clamped box");
    /* Front face hit at world y = 0.3: clamped local y = (0.3 - 0.6) / 0.8 = -0.375 -> b = floor(0.125 * 4) = 0
     * (the unclamped box would give floor(0.3 * 4) = 1); local x 0.1 -> a = floor((0.1 / 0.8 + 0.5) 4) = 2.
     * Camera at (1.1, 0.3, -4): from the clamped centre (1, 0.6, -2) the direction (0.1, -0.3, -2) has y < 0, so on
     * the (default) hemisphere it is in ring 0; azimuth atan2(-2, 0.1) = 272.9 deg -> sector 9 -> bin 9. */
    b.has_floor = 1;
    b.floor = 0.2f;
    o = opts(1, 0);
    c = make_cov(&b, &o);
    {
        double eye[3] = {1.1, 0.3, -4}, dir[3] = {0, 0, 1};
        fathom_pose cam = camera_dir(eye, dir, UP);
        CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
        CHECK(r.status == FATHOM_VIEW_COUNTED && r.face == FATHOM_FACE_FRONT);
        CHECK(r.cell == 0 * 4 + 2);
        CHECK(r.bin == 9);
        /* From (1.1, 1.2, -4) along +z the axis passes above the clamped top (y = 1.0): a miss, still binned. The
         * direction (0.1, 0.6, -2) / 2.0905 has y = 0.287 -> ring 1 of the hemisphere; sector 9 -> bin 21. */
        eye[1] = 1.2;
        cam = camera_dir(eye, dir, UP);
        CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
        CHECK(r.status == FATHOM_VIEW_MISSED && r.face == FATHOM_NO_HIT && r.distance == 0);
        CHECK(r.bin == 21);
    }
    fathom_coverage_destroy(c);

    check_section("degenerate: a floor at or above the box's top");
    b.floor = 1.0f; /* top = 0.5 + 0.5 */
    {
        fathom_coverage *d = (fathom_coverage *)&o;
        EXPECT(fathom_coverage_create(&b, NULL, &d), FATHOM_ERR_DEGENERATE, FN_CREATE, "floor", P_ANY);
        CHECK(d == (fathom_coverage *)&o);
        b.floor = 5;
        EXPECT(fathom_coverage_create(&b, NULL, &d), FATHOM_ERR_DEGENERATE, FN_CREATE, "floor", P_ANY);
    }
}

static void test_rules(void) {
    fathom_box b = test_box(0);
    fathom_coverage_options o = opts(10, 0);
    fathom_coverage *c;
    fathom_view_result r;
    fathom_pose cam;
    fathom_intrinsics k = t_intr(500, 500, 320, 240, 640, 480);
    fathom_coverage_summary s;

    check_section("missed: axis away from the box, camera inside the box");
    c = make_cov(&b, &o);
    cam = camera_local(&b, 0, 0, -2, 0, 0, -1); /* looking away */
    t_fill(&r, sizeof r);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_MISSED && r.face == FATHOM_NO_HIT && r.distance == 0 &&
          r.completed_face == FATHOM_NO_HIT);
    cam = camera_local(&b, 0.1, 0.1, 0.1, 0, 0, 1); /* inside */
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_MISSED);
    cam = camera_local(&b, 0, 0.6, -2, 0, 0, 1); /* passes above the top (y = 0.5) */
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_MISSED);
    CHECK_OK(fathom_coverage_get_summary(c, &s));
    CHECK(s.views == 3 && s.counted == 0);
    fathom_coverage_destroy(c);

    check_section("too close / too far: [min_distance, max_distance] = [1, 2]");
    o.min_distance = 1;
    o.max_distance = 2;
    c = make_cov(&b, &o);
    cam = camera_local(&b, 0.1, 0, -3, 0, 0, 1); /* 2.7 */
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_TOO_FAR && r.face == FATHOM_FACE_FRONT && r.cell == 2 * 4 + 2);
    CHECK_NEAR(r.distance, 2.7, 1e-5);
    cam = camera_local(&b, 0.1, 0, -0.8, 0, 0, 1); /* 0.5 */
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_TOO_CLOSE && r.face == FATHOM_FACE_FRONT);
    CHECK_NEAR(r.distance, 0.5, 1e-5);
    cam = camera_local(&b, 0.1, 0, -1.8, 0, 0, 1); /* 1.5 */
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    CHECK_OK(fathom_coverage_get_summary(c, &s));
    CHECK(s.views == 3 && s.counted == 1);
    {
        fathom_face_coverage f;
        CHECK_OK(fathom_coverage_face(c, FATHOM_FACE_FRONT, &f));
        CHECK(f.count == 1);
    }
    fathom_coverage_destroy(c);

    check_section("out of frame: the fraction of corners inside the image");
    /* fx = fy = 500, 640 x 480, principal point at the centre. From local (0, 0, -3) looking at the front face:
     * front corners at depth 2.7 project to u = 320 +- 500 * 0.4 / 2.7 = 320 +- 74, v = 240 +- 92.6 (inside);
     * back corners at depth 3.3 also inside: 8/8. From local (0, 0, -0.8): front corners at depth 0.5 ->
     * u = 320 +- 400 (outside); back corners at depth 1.1 -> u = 320 +- 182, v = 240 +- 227 (inside): 4/8. */
    o = opts(10, 0);
    o.min_in_view = 0.5f;
    c = make_cov(&b, &o);
    cam = camera_local(&b, 0, 0, -3, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, &k, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    cam = camera_local(&b, 0, 0, -0.8, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, &k, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED); /* 0.5 >= 0.5 */
    fathom_coverage_destroy(c);
    o.min_in_view = 0.6f;
    c = make_cov(&b, &o);
    CHECK_OK(fathom_coverage_record(c, &cam, &k, &r));
    CHECK(r.status == FATHOM_VIEW_OUT_OF_FRAME && r.face == FATHOM_FACE_FRONT);
    CHECK_NEAR(r.distance, 0.5, 1e-5);
    /* Without intrinsics min_in_view is not checked. */
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    /* A narrow lens (fx = 5000): corners 0.4 m off the axis at depth 2.7 land 740 px from the centre: none inside. */
    {
        fathom_intrinsics narrow = t_intr(5000, 5000, 320, 240, 640, 480);
        cam = camera_local(&b, 0, 0, -3, 0, 0, 1);
        CHECK_OK(fathom_coverage_record(c, &cam, &narrow, &r));
        CHECK(r.status == FATHOM_VIEW_OUT_OF_FRAME);
    }
    fathom_coverage_destroy(c);

    check_section("too similar: within min_separation_angle and min_separation_distance of a counted view");
    o = opts(10, (float)(5 * T_PI / 180)); /* defaults: 5 degrees and 0.1 m */
    c = make_cov(&b, &o);
    cam = camera_local(&b, 0, 0, -3, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    /* Standing still: the same pose again. */
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_TOO_SIMILAR && r.face == FATHOM_FACE_FRONT);
    /* 0.05 m to the side at 3 m: 0.05 m and ~1 degree -> too similar. */
    cam = camera_local(&b, 0.05, 0, -3, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_TOO_SIMILAR);
    /* 0.2 m to the side: farther than 0.1 m -> counted (even though only ~4 degrees). */
    cam = camera_local(&b, 0.2, 0, -3, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    /* Close to the box: 0.08 m to the side at 0.6 m from the centre: within 0.1 m but atan(0.08 / 0.6) = 7.6 deg
     * > 5 deg apart -> counted; then 0.01 m further: 0.96 deg from the last -> too similar. */
    cam = camera_local(&b, 0, 0, -0.6, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    cam = camera_local(&b, 0.08, 0, -0.6, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    cam = camera_local(&b, 0.09, 0, -0.6, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_TOO_SIMILAR);
    /* Turning the camera does not matter (directions are from the box centre to the camera's position). */
    {
        double le[3] = {0, 0, -3}, dir[3] = {0.05, 0.02, 1}, e[3];
        e[0] = le[0] + 1; e[1] = le[1] + 0.5; e[2] = le[2] - 2;
        cam = camera_dir(e, dir, UP);
        CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
        CHECK(r.status == FATHOM_VIEW_TOO_SIMILAR);
    }
    CHECK_OK(fathom_coverage_get_summary(c, &s));
    CHECK(s.views == 8 && s.counted == 4);
    /* After a reset the memory is gone. */
    CHECK_OK(fathom_coverage_reset(c));
    cam = camera_local(&b, 0, 0, -3, 0, 0, 1);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    fathom_coverage_destroy(c);
    /* min_separation_distance = 0 also turns the check off. */
    o.min_separation_distance = 0;
    c = make_cov(&b, &o);
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
    CHECK(r.status == FATHOM_VIEW_COUNTED);
    fathom_coverage_destroy(c);
}

/* The bins' and the next view's buffers and fields through the ABI, with a few hand values: the direction array's
 * (x, y, z) order, out_direction and out_position, the distance argument (<= 0: the last counted view's) and the
 * angular score. The binning, the next-view rule and the score are checked once in
 * Tests/FathomCoreTests/ViewBinsTests.swift. */
static void test_bins_and_next_view(void) {
    fathom_box b = test_box(0);
    fathom_coverage_options o = opts(10, 0);
    fathom_coverage *c;
    uint32_t counts[8];
    float dirs[24];
    fathom_vec3 d, p;
    fathom_view_result r;
    fathom_coverage_summary s;
    const double c45 = sqrt(0.5), r45 = sqrt(0.375); /* sqrt(0.75) * sqrt(1/2) */
    int i;

    check_section("bin counts and centre directions: 2 rings x 4 sectors, sphere and hemisphere");
    /* Sphere: ring middles at heights 0.25 and 0.75 of [0, 1] -> y = -0.5 and 0.5 (radius sqrt(0.75)); sector middles
     * at 45, 135, 225, 315 degrees from +x toward +z. Bin 1 (ring 0, 135 degrees): (-r45, -0.5, r45); bin 7 (ring 1,
     * 315 degrees): (r45, 0.5, -r45): x, y and z all differ, so a wrong order would show. */
    o.rings = 2;
    o.sectors = 4;
    o.hemisphere = 0;
    c = make_cov(&b, &o);
    t_fill(counts, sizeof counts);
    t_fill(dirs, sizeof dirs);
    CHECK_OK(fathom_coverage_bins(c, counts, dirs, 8));
    for (i = 0; i < 8; i++) CHECK(counts[i] == 0);
    CHECK_VEC3(v3(dirs[3], dirs[4], dirs[5]), -r45, -0.5, r45, 1e-6);
    CHECK_VEC3(v3(dirs[21], dirs[22], dirs[23]), r45, 0.5, -r45, 1e-6);
    /* Capacity in bins; directions may be NULL. */
    EXPECT(fathom_coverage_bins(c, counts, dirs, 7), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_coverage_bins", "capacity", P_ANY);
    CHECK_OK(fathom_coverage_bins(c, counts, NULL, 8));
    fathom_coverage_destroy(c);
    /* Hemisphere: heights 0.25 and 0.75 are the y themselves; bin 5 (ring 1, 135 degrees):
     * (-sqrt(1 - 0.5625) c45, 0.75, sqrt(1 - 0.5625) c45) = (-0.467707, 0.75, 0.467707). */
    o.hemisphere = 1;
    c = make_cov(&b, &o);
    CHECK_OK(fathom_coverage_bins(c, counts, dirs, 8));
    CHECK_VEC3(v3(dirs[15], dirs[16], dirs[17]), -0.467707, 0.75, 0.467707, 1e-6);
    fathom_coverage_destroy(c);

    check_section("next view: 1 ring x 4 sectors (centres at y = 0, azimuth 45, 135, 225, 315 degrees)");
    o = opts(10, 0);
    o.rings = 1;
    o.sectors = 4;
    o.hemisphere = 0;
    c = make_cov(&b, &o);
    /* No view: every bin has 0 and no covered bin: ties -> the lowest index, bin 0 = (c45, 0, c45); position at
     * the given distance 2 from the centre (1, 0.5, -2). */
    t_fill(&d, sizeof d);
    t_fill(&p, sizeof p);
    CHECK_OK(fathom_coverage_next_view(c, 2, &d, &p));
    CHECK_VEC3(d, c45, 0, c45, 1e-6);
    CHECK_VEC3(p, 1 + 2 * c45, 0.5, -2 + 2 * c45, 1e-5);
    /* No counted view and distance 0: INVALID_STATE, the outputs untouched. */
    t_fill(&d, sizeof d);
    t_fill(&p, sizeof p);
    EXPECT(fathom_coverage_next_view(c, 0, &d, &p), FATHOM_ERR_INVALID_STATE, "fathom_coverage_next_view", NULL, P_ANY);
    CHECK(t_untouched(&d, sizeof d) && t_untouched(&p, sizeof p));
    /* One view from sector 0 (camera at centre + 3 (c45, 0, c45), looking at the centre): the next is bin 2,
     * (-c45, 0, -c45); distance 0 or below: the last counted view's 3 m from the centre; 1.5: 1.5 m. A quarter of the
     * bins hold a view. */
    {
        double eye[3] = {1 + 3 * c45, 0.5, -2 + 3 * c45}, look[3] = {-1, 0, -1};
        fathom_pose cam = camera_dir(eye, look, UP);
        CHECK_OK(fathom_coverage_record(c, &cam, NULL, &r));
        CHECK(r.status == FATHOM_VIEW_COUNTED && r.bin == 0);
    }
    CHECK_OK(fathom_coverage_next_view(c, 0, &d, &p));
    CHECK_VEC3(d, -c45, 0, -c45, 1e-6);
    CHECK_VEC3(p, 1 - 3 * c45, 0.5, -2 - 3 * c45, 1e-5);
    CHECK_OK(fathom_coverage_next_view(c, -1, &d, &p));
    CHECK_VEC3(p, 1 - 3 * c45, 0.5, -2 - 3 * c45, 1e-5);
    CHECK_OK(fathom_coverage_next_view(c, 1.5f, &d, &p));
    CHECK_VEC3(p, 1 - 1.5 * c45, 0.5, -2 - 1.5 * c45, 1e-5);
    CHECK_OK(fathom_coverage_get_summary(c, &s));
    CHECK_NEAR(s.angular_score, 0.25, 1e-7);
    CHECK_OK(fathom_coverage_bins(c, counts, NULL, 4));
    CHECK(counts[0] == 1 && counts[1] == 0 && counts[2] == 0 && counts[3] == 0);
    fathom_coverage_destroy(c);
}

static void test_batch(void) {
    enum { N = 400 };
    fathom_box b = test_box(0.3f);
    fathom_coverage_options o;
    fathom_coverage *single, *batch;
    fathom_pose cams[N];
    fathom_view_result rs[N], rb[N];
    fathom_intrinsics k = t_intr(400, 400, 320, 240, 640, 480);
    unsigned long st = 12345;
    int i, same = 1, counted = 0, f;
    uint32_t c1[16], c2[16], b1[48], b2[48];
    fathom_coverage_summary s1, s2;

    check_section("batch = single records (similarity and in-frame rules on)");
    CHECK_OK(fathom_coverage_options_init(&o));
    o.goal = 5;
    o.min_in_view = 0.5f;
    o.max_distance = 3.5f;
    for (i = 0; i < N; i++) {
        /* Cameras on a sphere of radius 1.5 ... 4 around the centre, looking near the centre. */
        double dir[3], eye[3], target[3], look[3], rad = 1.5 + 2.5 * t_rand(&st);
        t_rand_dir(&st, dir);
        eye[0] = 1 + rad * dir[0];
        eye[1] = 0.5 + rad * dir[1];
        eye[2] = -2 + rad * dir[2];
        target[0] = 1 + 0.6 * (t_rand(&st) - 0.5);
        target[1] = 0.5 + 0.8 * (t_rand(&st) - 0.5);
        target[2] = -2 + 0.6 * (t_rand(&st) - 0.5);
        look[0] = target[0] - eye[0];
        look[1] = target[1] - eye[1];
        look[2] = target[2] - eye[2];
        if (fabs(dir[1]) > 0.99) {
            double up[3] = {1, 0, 0};
            cams[i] = camera_dir(eye, look, up);
        } else {
            cams[i] = camera_dir(eye, look, UP);
        }
    }
    single = make_cov(&b, &o);
    batch = make_cov(&b, &o);
    for (i = 0; i < N; i++) CHECK_OK(fathom_coverage_record(single, &cams[i], &k, &rs[i]));
    memset(rb, 0, sizeof rb);
    CHECK_OK(fathom_coverage_record_batch(batch, cams, N, &k, rb));
    for (i = 0; i < N; i++) {
        if (rs[i].status != rb[i].status || rs[i].face != rb[i].face || rs[i].cell != rb[i].cell ||
            rs[i].bin != rb[i].bin || rs[i].distance != rb[i].distance || rs[i].completed_face != rb[i].completed_face) {
            if (same) printf("    view %d differs\n", i);
            same = 0;
        }
        counted += rs[i].status == FATHOM_VIEW_COUNTED;
    }
    CHECK(same);
    CHECK(counted > 20); /* the set exercises counting, and the rules reject some */
    CHECK(counted < N);
    CHECK_OK(fathom_coverage_get_summary(single, &s1));
    CHECK_OK(fathom_coverage_get_summary(batch, &s2));
    CHECK(s1.views == N && s2.views == N && s1.counted == (uint64_t)counted && s2.counted == s1.counted &&
          s1.faces_complete == s2.faces_complete && s1.angular_score == s2.angular_score);
    for (f = 0; f < 6; f++) {
        CHECK_OK(fathom_coverage_cells(single, (uint32_t)f, c1, 16));
        CHECK_OK(fathom_coverage_cells(batch, (uint32_t)f, c2, 16));
        CHECK(memcmp(c1, c2, sizeof c1) == 0);
    }
    CHECK_OK(fathom_coverage_bins(single, b1, NULL, 48));
    CHECK_OK(fathom_coverage_bins(batch, b2, NULL, 48));
    CHECK(memcmp(b1, b2, sizeof b1) == 0);
    /* Per-face counts = the counted results per face; bins likewise. */
    {
        uint32_t per_face[6] = {0, 0, 0, 0, 0, 0}, per_bin[48];
        fathom_face_coverage fc;
        int ok = 1;
        memset(per_bin, 0, sizeof per_bin);
        for (i = 0; i < N; i++)
            if (rs[i].status == FATHOM_VIEW_COUNTED) {
                per_face[rs[i].face]++;
                per_bin[rs[i].bin]++;
            }
        for (f = 0; f < 6; f++) {
            CHECK_OK(fathom_coverage_face(batch, (uint32_t)f, &fc));
            ok = ok && fc.count == per_face[f];
        }
        CHECK(ok);
        CHECK(memcmp(per_bin, b2, sizeof per_bin) == 0);
    }
    /* out may be NULL. */
    fathom_coverage_reset(batch);
    CHECK_OK(fathom_coverage_record_batch(batch, cams, N, &k, NULL));
    CHECK_OK(fathom_coverage_get_summary(batch, &s2));
    CHECK(s2.counted == s1.counted);
    fathom_coverage_destroy(single);
    fathom_coverage_destroy(batch);
}

static void test_bad_input(void) {
    fathom_box b = test_box(0);
    fathom_coverage_options o;
    fathom_coverage *c, *keep;
    fathom_pose cam = camera_local(&b, 0, 0, -3, 0, 0, 1), bad, cams[4];
    fathom_view_result r;
    fathom_coverage_summary s;
    fathom_face_coverage f;
    uint32_t cells[16];
    fathom_vec3 d, p;
    fathom_intrinsics k = t_intr(500, 500, 320, 240, 640, 480);

    check_section("coverage: bad options name the setting");
#define BAD_OPTION(field, value, status, name)                                                                 \
    do {                                                                                                       \
        CHECK_OK(fathom_coverage_options_init(&o));                                                            \
        o.field = (value);                                                                                     \
        c = (fathom_coverage *)&o;                                                                             \
        EXPECT(fathom_coverage_create(&b, &o, &c), status, FN_CREATE, name, P_ANY);                            \
        CHECK(c == (fathom_coverage *)&o);                                                                     \
    } while (0)
    BAD_OPTION(goal, 0, FATHOM_ERR_OUT_OF_RANGE, "goal");
    BAD_OPTION(cells, 0, FATHOM_ERR_OUT_OF_RANGE, "cells");
    BAD_OPTION(cells, 65, FATHOM_ERR_OUT_OF_RANGE, "cells");
    BAD_OPTION(rings, 0, FATHOM_ERR_OUT_OF_RANGE, "rings");
    BAD_OPTION(sectors, 257, FATHOM_ERR_OUT_OF_RANGE, "sectors");
    BAD_OPTION(hemisphere, 2, FATHOM_ERR_OUT_OF_RANGE, "hemisphere");
    BAD_OPTION(exclude_bottom, -2, FATHOM_ERR_OUT_OF_RANGE, "exclude_bottom");
    BAD_OPTION(min_distance, -1, FATHOM_ERR_OUT_OF_RANGE, "min_distance");
    BAD_OPTION(min_distance, NAN, FATHOM_ERR_NOT_FINITE, "min_distance");
    BAD_OPTION(max_distance, NAN, FATHOM_ERR_NOT_FINITE, "max_distance");
    BAD_OPTION(min_in_view, 1.5f, FATHOM_ERR_OUT_OF_RANGE, "min_in_view");
    BAD_OPTION(min_in_view, -0.5f, FATHOM_ERR_OUT_OF_RANGE, "min_in_view");
    BAD_OPTION(min_separation_angle, NAN, FATHOM_ERR_NOT_FINITE, "min_separation_angle");
    BAD_OPTION(min_separation_distance, -0.1f, FATHOM_ERR_OUT_OF_RANGE, "min_separation_distance");
    /* rings * sectors > 4096 (each within 1...256). */
    CHECK_OK(fathom_coverage_options_init(&o));
    o.rings = 64;
    o.sectors = 65;
    EXPECT(fathom_coverage_create(&b, &o, &c), FATHOM_ERR_OUT_OF_RANGE, FN_CREATE, "rings", P_ANY);
    o.sectors = 64; /* 4096 exactly is allowed */
    c = make_cov(&b, &o);
    fathom_coverage_destroy(c);
    /* max_distance < min_distance. */
    CHECK_OK(fathom_coverage_options_init(&o));
    o.min_distance = 2;
    o.max_distance = 1;
    EXPECT(fathom_coverage_create(&b, &o, &c), FATHOM_ERR_OUT_OF_RANGE, FN_CREATE, "max_distance", P_ANY);
#undef BAD_OPTION

    check_section("coverage: bad box, NULL pointers");
    b.scale.y = 0;
    EXPECT(fathom_coverage_create(&b, NULL, &c), FATHOM_ERR_OUT_OF_RANGE, FN_CREATE, "scale", P_ANY);
    b = test_box(0);
    b.center.x = NAN;
    EXPECT(fathom_coverage_create(&b, NULL, &c), FATHOM_ERR_NOT_FINITE, FN_CREATE, "center", P_FINITE);
    b = test_box(0);
    t_set_bool_byte(&b.has_floor, 2);
    EXPECT(fathom_coverage_create(&b, NULL, &c), FATHOM_ERR_OUT_OF_RANGE, FN_CREATE, "has_floor", P_ANY);
    b = test_box(0);
    EXPECT(fathom_coverage_create(NULL, NULL, &c), FATHOM_ERR_NULL_POINTER, FN_CREATE, "box", P_NULL);
    EXPECT(fathom_coverage_create(&b, NULL, NULL), FATHOM_ERR_NULL_POINTER, FN_CREATE, "out", P_NULL);
    EXPECT(fathom_coverage_options_init(NULL), FATHOM_ERR_NULL_POINTER, "fathom_coverage_options_init", "options", P_NULL);
    fathom_coverage_destroy(NULL);

    keep = make_cov(&b, NULL);
    EXPECT(fathom_coverage_record(NULL, &cam, NULL, &r), FATHOM_ERR_NULL_POINTER, FN_RECORD, "coverage", P_NULL);
    EXPECT(fathom_coverage_record(keep, NULL, NULL, &r), FATHOM_ERR_NULL_POINTER, FN_RECORD, "camera_to_world", P_NULL);
    EXPECT(fathom_coverage_face(NULL, 0, &f), FATHOM_ERR_NULL_POINTER, "fathom_coverage_face", "coverage", P_NULL);
    EXPECT(fathom_coverage_face(keep, 0, NULL), FATHOM_ERR_NULL_POINTER, "fathom_coverage_face", "out", P_NULL);
    EXPECT(fathom_coverage_face(keep, 6, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_coverage_face", "face", P_ANY);
    EXPECT(fathom_coverage_get_summary(NULL, &s), FATHOM_ERR_NULL_POINTER, "fathom_coverage_get_summary", "coverage", P_NULL);
    EXPECT(fathom_coverage_get_summary(keep, NULL), FATHOM_ERR_NULL_POINTER, "fathom_coverage_get_summary", "out", P_NULL);
    EXPECT(fathom_coverage_cells(keep, 6, cells, 16), FATHOM_ERR_OUT_OF_RANGE, "fathom_coverage_cells", "face", P_ANY);
    EXPECT(fathom_coverage_cells(keep, 0, NULL, 16), FATHOM_ERR_NULL_POINTER, "fathom_coverage_cells", "out_counts", P_NULL);
    t_fill(cells, sizeof cells);
    EXPECT(fathom_coverage_cells(keep, 0, cells, 15), FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_coverage_cells", "capacity",
           P_ANY);
    CHECK(t_untouched(cells, sizeof cells));
    EXPECT(fathom_coverage_cells(NULL, 0, cells, 16), FATHOM_ERR_NULL_POINTER, "fathom_coverage_cells", "coverage", P_NULL);
    EXPECT(fathom_coverage_bins(keep, NULL, NULL, 48), FATHOM_ERR_NULL_POINTER, "fathom_coverage_bins", "out_counts", P_NULL);
    EXPECT(fathom_coverage_next_view(NULL, 1, &d, &p), FATHOM_ERR_NULL_POINTER, "fathom_coverage_next_view", "coverage",
           P_NULL);
    EXPECT(fathom_coverage_next_view(keep, 1, NULL, &p), FATHOM_ERR_NULL_POINTER, "fathom_coverage_next_view",
           "out_direction", P_NULL);
    EXPECT(fathom_coverage_next_view(keep, 1, &d, NULL), FATHOM_ERR_NULL_POINTER, "fathom_coverage_next_view",
           "out_position", P_NULL);
    EXPECT(fathom_coverage_next_view(keep, NAN, &d, &p), FATHOM_ERR_NOT_FINITE, "fathom_coverage_next_view", "distance",
           P_FINITE);
    EXPECT(fathom_coverage_reset(NULL), FATHOM_ERR_NULL_POINTER, "fathom_coverage_reset", "coverage", P_NULL);

    check_section("coverage: NaN / non-rigid poses and bad intrinsics record nothing");
    bad = cam;
    bad.m[14] = NAN;
    EXPECT(fathom_coverage_record(keep, &bad, NULL, &r), FATHOM_ERR_NOT_FINITE, FN_RECORD, "camera_to_world", P_FINITE);
    bad = cam;
    bad.m[0] *= 1.01f;
    EXPECT(fathom_coverage_record(keep, &bad, NULL, &r), FATHOM_ERR_NOT_RIGID, FN_RECORD, "camera_to_world", "rigid");
    k.fx = 0;
    EXPECT(fathom_coverage_record(keep, &cam, &k, &r), FATHOM_ERR_OUT_OF_RANGE, FN_RECORD, "fx", P_ANY);
    k.fx = 500;
    k.height = 0;
    EXPECT(fathom_coverage_record(keep, &cam, &k, &r), FATHOM_ERR_OUT_OF_RANGE, FN_RECORD, "height", P_ANY);
    k.height = 480;
    CHECK_OK(fathom_coverage_get_summary(keep, &s));
    CHECK(s.views == 0 && s.counted == 0);

    check_section("coverage batch: count 0, NULL, a bad pose stops with its index (the views before stay)");
    cams[0] = camera_local(&b, 0, 0, -3, 0, 0, 1);
    cams[1] = camera_local(&b, -3, 0, 0, 1, 0, 0);
    cams[2] = cams[0];
    cams[2].m[5] = 0.5f;
    cams[3] = camera_local(&b, 3, 0, 0, -1, 0, 0);
    EXPECT(fathom_coverage_record_batch(keep, cams, 0, NULL, NULL), FATHOM_ERR_OUT_OF_RANGE, FN_BATCH, "count", P_ANY);
    EXPECT(fathom_coverage_record_batch(keep, NULL, 4, NULL, NULL), FATHOM_ERR_NULL_POINTER, FN_BATCH, "cameras_to_world",
           P_NULL);
    EXPECT(fathom_coverage_record_batch(NULL, cams, 4, NULL, NULL), FATHOM_ERR_NULL_POINTER, FN_BATCH, "coverage", P_NULL);
    k.fy = NAN;
    EXPECT(fathom_coverage_record_batch(keep, cams, 4, &k, NULL), FATHOM_ERR_NOT_FINITE, FN_BATCH, "fy", P_FINITE);
    k.fy = 500;
    CHECK_OK(fathom_coverage_get_summary(keep, &s));
    CHECK(s.views == 0);
    EXPECT(fathom_coverage_record_batch(keep, cams, 4, NULL, NULL), FATHOM_ERR_NOT_RIGID, FN_BATCH, "cameras_to_world[2]",
           "rigid");
    CHECK_OK(fathom_coverage_get_summary(keep, &s));
    CHECK(s.views == 2 && s.counted == 2);
    fathom_coverage_destroy(keep);

    check_section("coverage: extreme but finite cameras do not crash");
    {
        /* A box at the origin; cameras very far away (1e30 m) looking at it, and a camera a hair below the centre
         * (its direction to the camera is too small to normalize). None may trap; results must be valid enums. */
        fathom_box z;
        double eye[3], dir[3];
        fathom_pose far;
        memset(&z, 0, sizeof z);
        z.scale = v3(1, 1, 1);
        keep = make_cov(&z, NULL);
        eye[0] = 1e30; eye[1] = 3e29; eye[2] = 2e29;
        dir[0] = -eye[0]; dir[1] = -eye[1]; dir[2] = -eye[2];
        far = camera_dir(eye, dir, UP);
        CHECK_OK(fathom_coverage_record(keep, &far, NULL, &r));
        CHECK(r.status <= FATHOM_VIEW_TOO_SIMILAR && r.bin < 48 && r.cell < 16);
        eye[0] = 0; eye[1] = -1e-23; eye[2] = 0;
        dir[0] = 0; dir[1] = 0; dir[2] = 1;
        far = camera_dir(eye, dir, UP);
        CHECK_OK(fathom_coverage_record(keep, &far, NULL, &r));
        CHECK(r.status == FATHOM_VIEW_MISSED && r.bin < 48);
        fathom_coverage_destroy(keep);
    }
}

int main(void) {
    test_defaults();
    test_faces_cells_bins();
    test_progress_and_events();
    test_floor_and_bottom();
    test_rules();
    test_bins_and_next_view();
    test_batch();
    test_bad_input();
    return check_summary("test_coverage");
}
