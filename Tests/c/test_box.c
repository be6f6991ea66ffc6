/* The capture app's yaw-only box across the C ABI: init and check, corners, edits, faces, face distances.
 * Expected values are literals worked out by hand in the comments, for boxes turned by 0 or 90 degrees
 * (R_y(90) (x, y, z) = (z, y, -x)) so that each is exact; statuses, and boxes bit-for-bit unchanged after a failed
 * edit. box.md's formulas for any angle are checked against Double references in Tests/FathomCoreTests
 * (BoxTests: corners; BoxEditsTests: edits, extend/shrink; BoxFacesTests: faces and face distances). */
#include "fathom.h"
#include "check.h"
#include "testmath.h"

#include <math.h>
#include <string.h>

#define TOL 2e-5
#define S2 0.70710678118654752

/* Local corner signs in FATHOM_CORNER_* order (box.md's table). */
static const int SIGN[8][3] = {
    {-1, +1, -1}, {+1, +1, -1}, {+1, -1, -1}, {-1, -1, -1},
    {-1, +1, +1}, {+1, +1, +1}, {+1, -1, +1}, {-1, -1, +1},
};

static fathom_box make_box(float cx, float cy, float cz, float sx, float sy, float sz, float rot) {
    fathom_box b;
    CHECK_OK(fathom_box_init(v3(cx, cy, cz), v3(sx, sy, sz), rot, &b));
    return b;
}

/* The corners of a box turned by 90 degrees, by hand: corner = centre + R_y(90) (+-sx/2, +-sy/2, +-sz/2) with
 * R_y(90) (x, y, z) = (z, y, -x); with a floor, bottom corners below it raised to it. */
static void corners_rot90(double cx, double cy, double cz, double sx, double sy, double sz, int has_floor,
                          double floor_y, double out[8][3]) {
    int i;
    for (i = 0; i < 8; i++) {
        out[i][0] = cx + SIGN[i][2] * sz / 2;
        out[i][1] = cy + SIGN[i][1] * sy / 2;
        out[i][2] = cz - SIGN[i][0] * sx / 2;
        if (has_floor && SIGN[i][1] < 0 && out[i][1] < floor_y) out[i][1] = floor_y;
    }
}

static void check_corners(const fathom_vec3 got[8], double e[8][3], double tol, int line) {
    int i, ok = 1;
    for (i = 0; i < 8; i++)
        ok = ok && fabs(got[i].x - e[i][0]) <= tol && fabs(got[i].y - e[i][1]) <= tol && fabs(got[i].z - e[i][2]) <= tol;
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "corners match");
        for (i = 0; i < 8; i++)
            printf("    [%d] got (%.7g, %.7g, %.7g) expected (%.7g, %.7g, %.7g)\n", i, (double)got[i].x,
                   (double)got[i].y, (double)got[i].z, e[i][0], e[i][1], e[i][2]);
    }
}

static void check_box_fields(const fathom_box *b, double cx, double cy, double cz, double sx, double sy, double sz,
                             double rot, double tol, int line) {
    int ok = fabs(b->center.x - cx) <= tol && fabs(b->center.y - cy) <= tol && fabs(b->center.z - cz) <= tol &&
             fabs(b->scale.x - sx) <= tol && fabs(b->scale.y - sy) <= tol && fabs(b->scale.z - sz) <= tol &&
             fabs(b->rot_y - rot) <= tol;
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "box fields match");
        printf("    got center (%.7g, %.7g, %.7g) scale (%.7g, %.7g, %.7g) rot %.7g\n", (double)b->center.x,
               (double)b->center.y, (double)b->center.z, (double)b->scale.x, (double)b->scale.y,
               (double)b->scale.z, (double)b->rot_y);
        printf("    expected center (%.7g, %.7g, %.7g) scale (%.7g, %.7g, %.7g) rot %.7g\n", cx, cy, cz, sx, sy, sz,
               rot);
    }
}

#define SAME_BOX(a, b) CHECK(memcmp(&(a), &(b), sizeof(fathom_box)) == 0)

/* ---- init, check, corners ------------------------------------------------------------------- */

static void test_init_check(void) {
    fathom_box b, bad;

    check_section("box_init / box_check");
    b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
    CHECK(b.center.x == 1.0f && b.center.y == 2.0f && b.center.z == 3.0f);
    CHECK(b.scale.x == 0.4f && b.scale.y == 0.6f && b.scale.z == 0.8f);
    CHECK(b.rot_y == 0.5f);
    CHECK(b.has_floor == 0);
    CHECK_OK(fathom_box_check(&b));
    /* rot_y is not wrapped. */
    b = make_box(0, 0, 0, 1, 1, 1, 7.0f);
    CHECK(b.rot_y == 7.0f);
    b = make_box(0, 0, 0, 1, 1, 1, -20.0f);
    CHECK(b.rot_y == -20.0f);

    bad = b;
    t_set_bool_byte(&bad.has_floor, 2);
    CHECK_STATUS(fathom_box_check(&bad), FATHOM_ERR_OUT_OF_RANGE);
    bad = b;
    t_set_bool_byte(&bad.has_floor, 0xFF);
    CHECK_STATUS(fathom_box_check(&bad), FATHOM_ERR_OUT_OF_RANGE);
    bad = b;
    bad.scale.x = 0.0f;
    CHECK_STATUS(fathom_box_check(&bad), FATHOM_ERR_OUT_OF_RANGE);
    bad = b;
    bad.scale.z = -1.0f;
    CHECK_STATUS(fathom_box_check(&bad), FATHOM_ERR_OUT_OF_RANGE);
    bad = b;
    bad.center.y = (float)NAN;
    CHECK_STATUS(fathom_box_check(&bad), FATHOM_ERR_NOT_FINITE);
    bad = b;
    bad.rot_y = (float)INFINITY;
    CHECK_STATUS(fathom_box_check(&bad), FATHOM_ERR_NOT_FINITE);
    bad = b;
    bad.has_floor = 1;
    bad.floor = (float)NAN;
    CHECK_STATUS(fathom_box_check(&bad), FATHOM_ERR_NOT_FINITE);
    bad.floor = -0.5f;
    CHECK_OK(fathom_box_check(&bad));
}

static void test_corners(void) {
    fathom_box b;
    fathom_vec3 c[8];
    double e[8][3];

    check_section("box_corners");
    {
        /* Axis-aligned, centre (0, 1, 0), scale (2, 2, 4): half extents (1, 1, 2). */
        static double lit[8][3] = {
            {-1, 2, -2}, {1, 2, -2}, {1, 0, -2}, {-1, 0, -2}, /* TLF TRF BRF BLF */
            {-1, 2, 2},  {1, 2, 2},  {1, 0, 2},  {-1, 0, 2},  /* TLB TRB BRB BLB */
        };
        b = make_box(0, 1, 0, 2, 2, 4, 0);
        CHECK_OK(fathom_box_corners(&b, c));
        check_corners(c, lit, 1e-6, __LINE__);
    }
    {
        /* rot_y = 90 degrees, centre 0, scale (2, 2, 4): R_y(90) (x, y, z) = (z, y, -x).
         * TLF (-1, 1, -2) -> (-2, 1, 1); TRF (1, 1, -2) -> (-2, 1, -1); and so on. */
        static double lit[8][3] = {
            {-2, 1, 1}, {-2, 1, -1}, {-2, -1, -1}, {-2, -1, 1},
            {2, 1, 1},  {2, 1, -1},  {2, -1, -1},  {2, -1, 1},
        };
        b = make_box(0, 0, 0, 2, 2, 4, (float)(T_PI / 2));
        CHECK_OK(fathom_box_corners(&b, c));
        check_corners(c, lit, 1e-6, __LINE__);
    }
    {
        /* Not wrapped: 90 degrees plus two turns, and minus 270 degrees, give the same corners. */
        corners_rot90(1, 2, 3, 0.4f, 0.6f, 0.8f, 0, 0, e);
        b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, (float)(T_PI / 2));
        CHECK_OK(fathom_box_corners(&b, c));
        check_corners(c, e, TOL, __LINE__);
        CHECK_VEC3(c[FATHOM_CORNER_TOP_LEFT_FRONT], 0.6, 2.3, 3.2, TOL); /* (1 - 0.4, 2 + 0.3, 3 + 0.2) */
        b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, (float)(T_PI / 2 + 4 * T_PI));
        CHECK_OK(fathom_box_corners(&b, c));
        check_corners(c, e, 1e-5, __LINE__);
        b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, (float)(-3 * T_PI / 2));
        CHECK_OK(fathom_box_corners(&b, c));
        check_corners(c, e, 1e-5, __LINE__);
    }
    {
        /* Floor: centre y 0.5, sy 2: bottom at -0.5, top at 1.5. Floor 0 raises the bottom corners to 0. */
        b = make_box(0, 0.5f, 0, 1, 2, 1, (float)(T_PI / 2));
        CHECK_OK(fathom_box_set_floor(&b, 0.0f));
        CHECK(b.has_floor == 1 && b.floor == 0.0f);
        CHECK(b.center.y == 0.5f); /* the box does not move */
        CHECK_OK(fathom_box_corners(&b, c));
        corners_rot90(0, 0.5, 0, 1, 2, 1, 1, 0, e);
        check_corners(c, e, TOL, __LINE__);
        CHECK(c[0].y == 1.5f && c[2].y == 0.0f);
        /* A floor below the bottom changes nothing. */
        CHECK_OK(fathom_box_set_floor(&b, -1.0f));
        CHECK_OK(fathom_box_corners(&b, c));
        corners_rot90(0, 0.5, 0, 1, 2, 1, 0, 0, e);
        check_corners(c, e, TOL, __LINE__);
        /* Cleared: unclamped again. */
        CHECK_OK(fathom_box_set_floor(&b, 0.25f));
        CHECK_OK(fathom_box_clear_floor(&b));
        CHECK(b.has_floor == 0);
        CHECK(b.center.y == 0.5f && b.scale.y == 2.0f);
        CHECK_OK(fathom_box_corners(&b, c));
        check_corners(c, e, TOL, __LINE__);
    }
}

/* ---- edits ------------------------------------------------------------------------------------ */

static void test_center_edits(void) {
    fathom_box b, before;

    check_section("center edits");
    b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
    CHECK_OK(fathom_box_set_center(&b, v3(-1, 0.5f, 4)));
    check_box_fields(&b, -1, 0.5, 4, 0.4f, 0.6f, 0.8f, 0.5f, 0, __LINE__);
    CHECK_OK(fathom_box_update_center(&b, v3(0.25f, -0.5f, 1)));
    check_box_fields(&b, -0.75, 0, 5, 0.4f, 0.6f, 0.8f, 0.5f, 1e-6, __LINE__);
    {
        /* Camera turned 90 degrees about y (its +x looks along world -z), translation ignored:
         * (0.1, 0, 0) in the camera frame is R_y(90) (0.1, 0, 0) = (0, 0, -0.1) in the world. */
        double r[9];
        fathom_pose cam;
        t_rot_y(T_PI / 2, r);
        cam = t_pose(r, 5, 5, 5);
        b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
        CHECK_OK(fathom_box_update_center_in_camera(&b, v3(0.1f, 0, 0), &cam));
        check_box_fields(&b, 1, 2, 2.9, 0.4f, 0.6f, 0.8f, 0.5f, 1e-6, __LINE__);
    }
    {
        /* A camera turned 90 degrees about x: R_x(90) (x, y, z) = (x, -z, y), so the camera-frame offset
         * (0.1, -0.2, 0.3) is (0.1, -0.3, -0.2) in the world. */
        double r[9];
        fathom_pose cam;
        t_rot_x(T_PI / 2, r);
        cam = t_pose(r, -2, 1, 0);
        b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
        CHECK_OK(fathom_box_update_center_in_camera(&b, v3(0.1f, -0.2f, 0.3f), &cam));
        check_box_fields(&b, 1.1, 1.7, 2.8, 0.4f, 0.6f, 0.8f, 0.5f, 1e-6, __LINE__);
        /* A camera that is not rigid: refused, box unchanged. */
        cam.m[0] = 1.5f;
        before = b;
        CHECK_STATUS(fathom_box_update_center_in_camera(&b, v3(0.1f, 0, 0), &cam), FATHOM_ERR_NOT_RIGID);
        SAME_BOX(b, before);
    }
    {
        /* On the floor: needs a floor; then centre = (x, floor + sy/2, z) = (0.7, 0.2 + 0.3, -1.2). */
        b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
        before = b;
        CHECK_STATUS(fathom_box_set_center_on_floor(&b, 0.7f, -1.2f), FATHOM_ERR_INVALID_STATE);
        SAME_BOX(b, before);
        CHECK_OK(fathom_box_set_floor(&b, 0.2f));
        CHECK_OK(fathom_box_set_center_on_floor(&b, 0.7f, -1.2f));
        check_box_fields(&b, 0.7f, 0.5, -1.2f, 0.4f, 0.6f, 0.8f, 0.5f, 1e-6, __LINE__);
        CHECK(b.has_floor == 1 && b.floor == 0.2f);
    }
}

static void test_scale_angle_edits(void) {
    fathom_box b;

    check_section("scale and angle edits");
    b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
    CHECK_OK(fathom_box_set_scale(&b, v3(1, 2, 3)));
    check_box_fields(&b, 1, 2, 3, 1, 2, 3, 0.5f, 0, __LINE__); /* no floor: the centre stays */
    CHECK_OK(fathom_box_update_scale(&b, v3(2, 0.5f, 1.5f)));
    check_box_fields(&b, 1, 2, 3, 2, 1, 4.5, 0.5f, 1e-6, __LINE__);
    /* With a floor, both re-seat the box: centre.y = floor + sy/2. */
    CHECK_OK(fathom_box_set_floor(&b, 0.1f));
    CHECK(b.center.y == 2.0f); /* set_floor does not move it */
    CHECK_OK(fathom_box_set_scale(&b, v3(0.4f, 0.6f, 0.8f)));
    check_box_fields(&b, 1, 0.1f + 0.3f, 3, 0.4f, 0.6f, 0.8f, 0.5f, 1e-6, __LINE__);
    CHECK_OK(fathom_box_set_center(&b, v3(1, 5, 3))); /* lift it off the floor */
    CHECK_OK(fathom_box_update_scale(&b, v3(2, 0.5f, 1.5f)));
    check_box_fields(&b, 1, 0.1f + 0.15f, 3, 0.8f, 0.3f, 1.2f, 0.5f, 1e-6, __LINE__);
    CHECK(b.has_floor == 1 && b.floor == 0.1f);

    b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
    CHECK_OK(fathom_box_set_angle(&b, -1.25f));
    CHECK(b.rot_y == -1.25f);
    CHECK_OK(fathom_box_update_angle(&b, 0.25f));
    CHECK_NEAR(b.rot_y, -1.0, 1e-7);
    CHECK_OK(fathom_box_set_angle(&b, 3.0f));
    CHECK_OK(fathom_box_update_angle(&b, 4.0f));
    CHECK_NEAR(b.rot_y, 7.0, 1e-6); /* not wrapped */
    check_box_fields(&b, 1, 2, 3, 0.4f, 0.6f, 0.8f, 7.0, 1e-6, __LINE__);
}

static void test_extend_shrink(void) {
    static const double offsets[][3] = {
        {0, 0, -0.1}, /* front */
        {0, 0, 0.15}, /* back */
        {0.2, 0, 0},  /* right */
        {-0.05, 0, 0},/* left */
        {0, 0.3, 0},  /* top */
        {0, -0.1, 0}, /* bottom */
        {0.1, -0.2, 0.3},
    };
    const double rot = T_PI / 2;
    size_t k;

    check_section("extend_side / shrink_side");
    for (k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
        const double *o = offsets[k];
        /* The centre moves by R_y(90) (offset / 2) = (o.z / 2, o.y / 2, -o.x / 2), for extend and shrink alike. */
        double dc[3] = {o[2] / 2, o[1] / 2, -o[0] / 2};
        fathom_box b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, (float)rot), orig = b;

        /* extend: scale += |offset|. */
        CHECK_OK(fathom_box_extend_side(&b, v3((float)o[0], (float)o[1], (float)o[2])));
        check_box_fields(&b, 1 + dc[0], 2 + dc[1], 3 + dc[2], 0.4f + fabs(o[0]), 0.6f + fabs(o[1]),
                         0.8f + fabs(o[2]), rot, 1e-6, __LINE__);
        CHECK(b.has_floor == 0);

        /* shrink: scale -= |offset|; the face opposite the offset's sign moves in. */
        b = orig;
        CHECK_OK(fathom_box_shrink_side(&b, v3((float)o[0], (float)o[1], (float)o[2])));
        check_box_fields(&b, 1 + dc[0], 2 + dc[1], 3 + dc[2], 0.4f - fabs(o[0]), 0.6f - fabs(o[1]),
                         0.8f - fabs(o[2]), rot, 1e-6, __LINE__);

        /* Extend, then shrink with the opposite offset: the same face moves back; the original box. */
        b = orig;
        CHECK_OK(fathom_box_extend_side(&b, v3((float)o[0], (float)o[1], (float)o[2])));
        CHECK_OK(fathom_box_shrink_side(&b, v3((float)-o[0], (float)-o[1], (float)-o[2])));
        check_box_fields(&b, 1, 2, 3, 0.4f, 0.6f, 0.8f, rot, 2e-6, __LINE__);
    }
    {
        /* The corner opposite every sign of the offset stays: offset (+, -, +) keeps TLF (-, +, -). */
        fathom_box b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
        fathom_vec3 before[8], after[8];
        CHECK_OK(fathom_box_corners(&b, before));
        CHECK_OK(fathom_box_extend_side(&b, v3(0.1f, -0.2f, 0.3f)));
        CHECK_OK(fathom_box_corners(&b, after));
        CHECK_VEC3(after[FATHOM_CORNER_TOP_LEFT_FRONT], before[0].x, before[0].y, before[0].z, TOL);
        /* and shrinking with (+, +, -) keeps TRF (+, +, -). */
        b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, 0.5f);
        CHECK_OK(fathom_box_shrink_side(&b, v3(0.1f, 0.2f, -0.3f)));
        CHECK_OK(fathom_box_corners(&b, after));
        CHECK_VEC3(after[FATHOM_CORNER_TOP_RIGHT_FRONT], before[1].x, before[1].y, before[1].z, TOL);
        check_box_fields(&b, b.center.x, b.center.y, b.center.z, 0.3f, 0.4f, 0.5f, 0.5f, 1e-6, __LINE__);
    }
    {
        /* Shrinking to zero or past it: refused, box bit-for-bit unchanged. */
        fathom_box b = make_box(1, 2, 3, 0.4f, 0.6f, 0.8f, (float)rot), before = b;
        CHECK_STATUS(fathom_box_shrink_side(&b, v3(0, 0, 0.8f)), FATHOM_ERR_OUT_OF_RANGE);
        SAME_BOX(b, before);
        CHECK_STATUS(fathom_box_shrink_side(&b, v3(0, -0.9f, 0)), FATHOM_ERR_OUT_OF_RANGE);
        SAME_BOX(b, before);
        CHECK_STATUS(fathom_box_shrink_side(&b, v3(0.1f, 0.1f, -5)), FATHOM_ERR_OUT_OF_RANGE);
        SAME_BOX(b, before);
        CHECK_OK(fathom_box_shrink_side(&b, v3(0.39f, 0, 0)));
        CHECK_NEAR(b.scale.x, 0.01, 1e-6);
    }
}

/* ---- faces ----------------------------------------------------------------------------------- */

static void test_faces(void) {
    /* Axis-aligned box: centre (1, 2, 3), scale (2, 4, 6), half extents (1, 2, 3).
     * Face centres and outward normals, in FATHOM_FACE_* order: */
    static const double center_aa[6][3] = {{1, 2, 0}, {0, 2, 3}, {2, 2, 3}, {1, 0, 3}, {1, 4, 3}, {1, 2, 6}};
    static const double normal_aa[6][3] = {{0, 0, -1}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, 1}};
    /* Orientations worked out from the triples (x = B - A, z = x × (C - A), y = z × x):
     *  front: x = -X, z = -Z, y = +Y          -> 180 deg about y:  (0, 1, 0, 0)
     *  left:  x = +Z, z = -X, y = +Y          -> -90 deg about y:  (0, -s, 0, s)
     *  right: x = -Z, z = +X, y = +Y          -> +90 deg about y:  (0, s, 0, s)
     *  bottom: x = +X, z = -Y, y = +Z         -> +90 deg about x:  (s, 0, 0, s)
     *  top:   x = -X, z = +Y, y = +Z          -> 180 deg about (0, 1, 1)/sqrt 2: (0, s, s, 0)
     *  back:  x = +X, z = +Z, y = +Y          -> identity:         (0, 0, 0, 1)          (s = sqrt 1/2) */
    static const double quat_aa[6][4] = {
        {0, 1, 0, 0}, {0, -S2, 0, S2}, {0, S2, 0, S2}, {S2, 0, 0, S2}, {0, S2, S2, 0}, {0, 0, 0, 1},
    };
    fathom_box b;
    fathom_face f[6];
    int i;

    check_section("box_faces");
    b = make_box(1, 2, 3, 2, 4, 6, 0);
    CHECK_OK(fathom_box_faces(&b, f));
    for (i = 0; i < 6; i++) {
        CHECK_VEC3(f[i].center, center_aa[i][0], center_aa[i][1], center_aa[i][2], TOL);
        CHECK_VEC3(f[i].normal, normal_aa[i][0], normal_aa[i][1], normal_aa[i][2], TOL);
        CHECK_QUAT_ROT(f[i].orientation, quat_aa[i][0], quat_aa[i][1], quat_aa[i][2], quat_aa[i][3], TOL);
    }

    /* Turned by 90 degrees about y: everything turns with R_y(90) (x, y, z) = (z, y, -x): the centres' offsets
     * from (1, 2, 3), front (0, 0, -3) -> (-3, 0, 0), left (-1, 0, 0) -> (0, 0, 1), right -> (0, 0, -1), bottom and
     * top stay, back (0, 0, 3) -> (3, 0, 0); the normals likewise. The orientations are q_y(90) * q_face, each
     * face's frame turned: front x = -X -> +Z, z = -Z -> -X: -90 deg about y; left x = +Z -> +X, z = -X -> +Z:
     * identity; right: 180 deg about y; bottom x -> -Z, y -> +X, z -> -Y: (1/2, 1/2, -1/2, 1/2); top x -> +Z,
     * y -> +X, z -> +Y (the cyclic permutation, -120 deg about (1, 1, 1)): (1/2, 1/2, 1/2, -1/2); back: q_y(90). */
    {
        static const double center_90[6][3] = {{-2, 2, 3}, {1, 2, 4}, {1, 2, 2}, {1, 0, 3}, {1, 4, 3}, {4, 2, 3}};
        static const double normal_90[6][3] = {{-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}, {0, 1, 0}, {1, 0, 0}};
        static const double quat_90[6][4] = {
            {0, -S2, 0, S2}, {0, 0, 0, 1}, {0, 1, 0, 0}, {0.5, 0.5, -0.5, 0.5}, {0.5, 0.5, 0.5, -0.5}, {0, S2, 0, S2},
        };
        b = make_box(1, 2, 3, 2, 4, 6, (float)(T_PI / 2));
        CHECK_OK(fathom_box_faces(&b, f));
        for (i = 0; i < 6; i++) {
            CHECK_VEC3(f[i].center, center_90[i][0], center_90[i][1], center_90[i][2], TOL);
            CHECK_VEC3(f[i].normal, normal_90[i][0], normal_90[i][1], normal_90[i][2], TOL);
            CHECK_QUAT_ROT(f[i].orientation, quat_90[i][0], quat_90[i][1], quat_90[i][2], quat_90[i][3], TOL);
        }
    }

    /* A floor clamping the bottom: centre 0, scale (2, 2, 2), floor -0.5. Side faces' centres are the means of
     * two top corners (y = 1) and two clamped bottom corners (y = -0.5): y = 0.25. */
    {
        static const double c_fl[6][3] = {{0, 0.25, -1}, {-1, 0.25, 0}, {1, 0.25, 0}, {0, -0.5, 0}, {0, 1, 0}, {0, 0.25, 1}};
        fathom_box before;
        fathom_face sentinel[6];
        b = make_box(0, 0, 0, 2, 2, 2, 0);
        CHECK_OK(fathom_box_set_floor(&b, -0.5f));
        CHECK_OK(fathom_box_faces(&b, f));
        for (i = 0; i < 6; i++) {
            CHECK_VEC3(f[i].center, c_fl[i][0], c_fl[i][1], c_fl[i][2], TOL);
            CHECK_VEC3(f[i].normal, normal_aa[i][0], normal_aa[i][1], normal_aa[i][2], TOL);
            CHECK_QUAT_ROT(f[i].orientation, quat_aa[i][0], quat_aa[i][1], quat_aa[i][2], quat_aa[i][3], TOL);
        }
        /* Flat: the top at (or below) the floor. */
        CHECK_OK(fathom_box_set_floor(&b, 1.0f));
        before = b;
        memset(sentinel, 0x5a, sizeof sentinel);
        memcpy(f, sentinel, sizeof f);
        CHECK_STATUS(fathom_box_faces(&b, f), FATHOM_ERR_DEGENERATE);
        CHECK(memcmp(f, sentinel, sizeof f) == 0); /* nothing written on failure */
        SAME_BOX(b, before);
        CHECK_OK(fathom_box_set_floor(&b, 3.0f));
        CHECK_STATUS(fathom_box_faces(&b, f), FATHOM_ERR_DEGENERATE);
    }
}

static void test_face_distances(void) {
    fathom_box b;
    float d[6];

    check_section("box_face_distances");
    /* Centre (1, 2, 3), half extents (1, 2, 3), rot 0; point (1.5, 1, 7) is l = (0.5, -1, 4) from the centre:
     * front -l.z - 3 = -7, left -l.x - 1 = -1.5, right l.x - 1 = -0.5, bottom -l.y - 2 = -1, top l.y - 2 = -3,
     * back l.z - 3 = 1. */
    b = make_box(1, 2, 3, 2, 4, 6, 0);
    CHECK_OK(fathom_box_face_distances(&b, v3(1.5f, 1, 7), d));
    CHECK_NEAR(d[FATHOM_FACE_FRONT], -7, TOL);
    CHECK_NEAR(d[FATHOM_FACE_LEFT], -1.5, TOL);
    CHECK_NEAR(d[FATHOM_FACE_RIGHT], -0.5, TOL);
    CHECK_NEAR(d[FATHOM_FACE_BOTTOM], -1, TOL);
    CHECK_NEAR(d[FATHOM_FACE_TOP], -3, TOL);
    CHECK_NEAR(d[FATHOM_FACE_BACK], 1, TOL);
    /* The centre: minus the half extents. */
    CHECK_OK(fathom_box_face_distances(&b, v3(1, 2, 3), d));
    CHECK_NEAR(d[0], -3, TOL);
    CHECK_NEAR(d[1], -1, TOL);
    CHECK_NEAR(d[2], -1, TOL);
    CHECK_NEAR(d[3], -2, TOL);
    CHECK_NEAR(d[4], -2, TOL);
    CHECK_NEAR(d[5], -3, TOL);
    /* Turned by 90 degrees: local coordinates l = R_y(-90) (p - c), R_y(-90) (x, y, z) = (-z, y, x). The point
     * (0.3, 2.5, 4.1) is (-0.7, 0.5, 1.1) from the centre: l = (-1.1, 0.5, -0.7); front -l.z - 3 = -2.3, left
     * -l.x - 1 = 0.1, right l.x - 1 = -2.1, bottom -l.y - 2 = -2.5, top l.y - 2 = -1.5, back l.z - 3 = -3.7. */
    b = make_box(1, 2, 3, 2, 4, 6, (float)(T_PI / 2));
    CHECK_OK(fathom_box_face_distances(&b, v3(0.3f, 2.5f, 4.1f), d));
    CHECK_NEAR(d[FATHOM_FACE_FRONT], -2.3, TOL);
    CHECK_NEAR(d[FATHOM_FACE_LEFT], 0.1, TOL);
    CHECK_NEAR(d[FATHOM_FACE_RIGHT], -2.1, TOL);
    CHECK_NEAR(d[FATHOM_FACE_BOTTOM], -2.5, TOL);
    CHECK_NEAR(d[FATHOM_FACE_TOP], -1.5, TOL);
    CHECK_NEAR(d[FATHOM_FACE_BACK], -3.7, TOL);
    /* With a floor above the bottom, the bottom face is at the floor: centre 0, half extents (1, 2, 3),
     * floor -1: bottom distance of the origin = -1 - 0 = -1. */
    b = make_box(0, 0, 0, 2, 4, 6, 0);
    CHECK_OK(fathom_box_set_floor(&b, -1.0f));
    CHECK_OK(fathom_box_face_distances(&b, v3(0, 0, 0), d));
    CHECK_NEAR(d[FATHOM_FACE_BOTTOM], -1, TOL);
    CHECK_NEAR(d[FATHOM_FACE_TOP], -2, TOL);
    CHECK_NEAR(d[FATHOM_FACE_FRONT], -3, TOL);
    CHECK_OK(fathom_box_face_distances(&b, v3(0, -1.5f, 0), d));
    CHECK_NEAR(d[FATHOM_FACE_BOTTOM], 0.5, TOL); /* below the floor: outside */
}

int main(void) {
    test_init_check();
    test_corners();
    test_center_edits();
    test_scale_angle_edits();
    test_extend_shrink();
    test_faces();
    test_face_distances();
    return check_summary("test_box");
}
