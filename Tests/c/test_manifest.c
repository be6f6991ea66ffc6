/* The capture app's manifest (boundingbox.json) across the C ABI: write/read round trips, the buffer-size protocol,
 * the written corners (by hand for a turned and a floor-clamped box; otherwise those fathom_box_corners gives, under
 * their names), hand-written JSON (valid, truncated, missing or mistyped fields, corners that are not a box), files.
 * The written JSON decoded independently against the box's formula, for any angle, is in
 * Tests/FathomCoreTests/ManifestTests.swift. */
#define _POSIX_C_SOURCE 200809L

#include "fathom.h"
#include "check.h"
#include "testmath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOL 2e-5

static const char *const CORNER_NAMES[8] = {
    "top_left_front", "top_right_front", "bot_right_front", "bot_left_front",
    "top_left_back",  "top_right_back",  "bot_right_back",  "bot_left_back",
};

static const int SIGN[8][3] = {
    {-1, +1, -1}, {+1, +1, -1}, {+1, -1, -1}, {-1, -1, -1},
    {-1, +1, +1}, {+1, +1, +1}, {+1, -1, +1}, {-1, -1, +1},
};

/* Centre (1, 2, 3), scale (2, 4, 6) (half extents 1, 2, 3), rot 0: corners worked out by hand. */
static const char VALID_AA[] =
    "{\"center\": {\"x\": 1, \"y\": 2, \"z\": 3},\n"
    " \"rad_rot_about_y\": 0,\n"
    " \"positions\": {\n"
    "  \"top_left_front\": {\"x\": 0, \"y\": 4, \"z\": 0},\n"
    "  \"top_right_front\": {\"x\": 2, \"y\": 4, \"z\": 0},\n"
    "  \"bot_right_front\": {\"x\": 2, \"y\": 0, \"z\": 0},\n"
    "  \"bot_left_front\": {\"x\": 0, \"y\": 0, \"z\": 0},\n"
    "  \"top_left_back\": {\"x\": 0, \"y\": 4, \"z\": 6},\n"
    "  \"top_right_back\": {\"x\": 2, \"y\": 4, \"z\": 6},\n"
    "  \"bot_right_back\": {\"x\": 2, \"y\": 0, \"z\": 6},\n"
    "  \"bot_left_back\": {\"x\": 0, \"y\": 0, \"z\": 6}\n"
    " },\n"
    " \"entity_anchor_4x4\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}";

/* The same box, keys in another order, other whitespace, numbers in other spellings. */
static const char VALID_AA_REORDERED[] =
    "{\t\"entity_anchor_4x4\":[[1.0,0,0,0],[0,1.0,0,0],[0,0,1.0,0],[0,0,0,1.0]],"
    "\"positions\":{\"bot_left_back\":{\"z\":6.0,\"y\":0,\"x\":0},\"bot_right_back\":{\"x\":2,\"y\":0,\"z\":6},"
    "\"top_right_back\":{\"x\":2e0,\"y\":4,\"z\":6},\"top_left_back\":{\"x\":-0.0,\"y\":4,\"z\":6},"
    "\"bot_left_front\":{\"x\":0,\"y\":0,\"z\":0},\"bot_right_front\":{\"x\":2,\"y\":0,\"z\":0},"
    "\"top_right_front\":{\"x\":2,\"y\":4,\"z\":0},\"top_left_front\":{\"x\":0,\"y\":4.0E0,\"z\":0}},\r\n"
    "\"rad_rot_about_y\":0.0,   \"center\":{\"z\":3,\"x\":1,\"y\":2}}\n";

/* Centre 0, scale (2, 2, 4), rot 90 degrees: R_y(90) (x, y, z) = (z, y, -x), so
 * TLF (-1, 1, -2) -> (-2, 1, 1), TRF (1, 1, -2) -> (-2, 1, -1), BRF -> (-2, -1, -1), BLF -> (-2, -1, 1),
 * TLB (-1, 1, 2) -> (2, 1, 1), TRB -> (2, 1, -1), BRB -> (2, -1, -1), BLB -> (2, -1, 1). */
static const char VALID_ROT90[] =
    "{\"center\": {\"x\": 0, \"y\": 0, \"z\": 0}, \"rad_rot_about_y\": 1.5707963,"
    " \"positions\": {"
    "\"top_left_front\": {\"x\": -2, \"y\": 1, \"z\": 1},"
    "\"top_right_front\": {\"x\": -2, \"y\": 1, \"z\": -1},"
    "\"bot_right_front\": {\"x\": -2, \"y\": -1, \"z\": -1},"
    "\"bot_left_front\": {\"x\": -2, \"y\": -1, \"z\": 1},"
    "\"top_left_back\": {\"x\": 2, \"y\": 1, \"z\": 1},"
    "\"top_right_back\": {\"x\": 2, \"y\": 1, \"z\": -1},"
    "\"bot_right_back\": {\"x\": 2, \"y\": -1, \"z\": -1},"
    "\"bot_left_back\": {\"x\": 2, \"y\": -1, \"z\": 1}},"
    " \"entity_anchor_4x4\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}";

/* Centre (0, 1, 0), scale (2, 2, 2), standing on a floor at 0.5: the bottom corners (unclamped y = 0)
 * are raised to 0.5, above the box's own bottom, so the reader recovers the floor. */
static const char VALID_FLOOR[] =
    "{\"center\": {\"x\": 0, \"y\": 1, \"z\": 0}, \"rad_rot_about_y\": 0, \"positions\": {"
    "\"top_left_front\": {\"x\": -1, \"y\": 2, \"z\": -1},"
    "\"top_right_front\": {\"x\": 1, \"y\": 2, \"z\": -1},"
    "\"bot_right_front\": {\"x\": 1, \"y\": 0.5, \"z\": -1},"
    "\"bot_left_front\": {\"x\": -1, \"y\": 0.5, \"z\": -1},"
    "\"top_left_back\": {\"x\": -1, \"y\": 2, \"z\": 1},"
    "\"top_right_back\": {\"x\": 1, \"y\": 2, \"z\": 1},"
    "\"bot_right_back\": {\"x\": 1, \"y\": 0.5, \"z\": 1},"
    "\"bot_left_back\": {\"x\": -1, \"y\": 0.5, \"z\": 1}},"
    " \"entity_anchor_4x4\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}";

/* A copy of s with the first occurrence of `from` replaced by `to` (the test fails if `from` is absent). */
static char *replace(const char *s, const char *from, const char *to, int line) {
    const char *p = strstr(s, from);
    size_t n;
    char *r;
    if (p == NULL) {
        check_fail_(__FILE__, line, "test bug: substring to replace not found");
        printf("    \"%s\"\n", from);
        p = s + strlen(s);
        from = "";
    }
    n = strlen(s) - strlen(from) + strlen(to);
    r = (char *)malloc(n + 1);
    memcpy(r, s, (size_t)(p - s));
    memcpy(r + (p - s), to, strlen(to));
    strcpy(r + (p - s) + strlen(to), p + strlen(from));
    return r;
}

static fathom_status read_str(const char *json, fathom_box *out) {
    return fathom_box_manifest_read(json, strlen(json), out);
}

/* Reads a JSON variant and expects `status`; on failure the output box must be untouched. */
static void expect_read(const char *json, fathom_status status, int line) {
    fathom_box out, sentinel;
    fathom_status s;
    memset(&sentinel, 0xa5, sizeof sentinel);
    out = sentinel;
    s = read_str(json, &out);
    if (s == status) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "fathom_box_manifest_read status");
        printf("    got %s, expected %s; last error \"%s\"\n", fathom_status_name(s), fathom_status_name(status),
               s == FATHOM_OK ? "(none: the call succeeded)" : fathom_last_error());
    }
    if (s != FATHOM_OK) {
        if (memcmp(&out, &sentinel, sizeof out) == 0) check_pass_();
        else check_fail_(__FILE__, line, "the output box is not written on failure");
        if (strstr(fathom_last_error(), "fathom_box_manifest_read") != NULL) check_pass_();
        else {
            check_fail_(__FILE__, line, "the message names fathom_box_manifest_read");
            printf("    last error \"%s\"\n", fathom_last_error());
        }
    }
}

static void expect_read_replaced(const char *json, const char *from, const char *to, fathom_status status, int line) {
    char *v = replace(json, from, to, line);
    expect_read(v, status, line);
    free(v);
}

/* ---- an independent reader for the writer's output: find "key" then the numbers of x, y, z -------- */

static const char *after_key(const char *json, const char *key) {
    char pattern[64];
    const char *p;
    snprintf(pattern, sizeof pattern, "\"%s\"", key);
    p = strstr(json, pattern);
    if (p == NULL) return NULL;
    p += strlen(pattern);
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return *p == ':' ? p + 1 : NULL;
}

static int json_number(const char *p, double *out) {
    char *end;
    if (p == NULL) return 0;
    *out = strtod(p, &end);
    return end != p;
}

/* The object value of `key`, then its x, y and z members (searched inside that object). */
static int json_vec(const char *json, const char *key, double out[3]) {
    const char *obj = after_key(json, key), *close;
    char buf[512];
    size_t n;
    if (obj == NULL) return 0;
    close = strchr(obj, '}');
    if (close == NULL) return 0;
    n = (size_t)(close - obj) + 1;
    if (n >= sizeof buf) return 0;
    memcpy(buf, obj, n);
    buf[n] = '\0';
    return json_number(after_key(buf, "x"), &out[0]) && json_number(after_key(buf, "y"), &out[1]) &&
           json_number(after_key(buf, "z"), &out[2]);
}

/* Checks the writer's JSON: centre, angle, the anchor, and the eight corners under their names: `corners` if given
 * (worked out by hand), else the box's corners as fathom_box_corners gives them (floor-clamped). */
static void check_written_json(const char *json, const fathom_box *b, const double (*corners)[3], int line) {
    double v[3], rot;
    fathom_vec3 c[8];
    int i, ok = 1;
    ok = ok && json_vec(json, "center", v) && fabs(v[0] - b->center.x) < 1e-5 && fabs(v[1] - b->center.y) < 1e-5 &&
         fabs(v[2] - b->center.z) < 1e-5;
    ok = ok && json_number(after_key(json, "rad_rot_about_y"), &rot) && fabs(rot - b->rot_y) < 1e-5;
    ok = ok && fathom_box_corners(b, c) == FATHOM_OK;
    for (i = 0; i < 8 && ok; i++) {
        double w[3];
        w[0] = corners ? corners[i][0] : c[i].x;
        w[1] = corners ? corners[i][1] : c[i].y;
        w[2] = corners ? corners[i][2] : c[i].z;
        if (!json_vec(json, CORNER_NAMES[i], v) || fabs(v[0] - w[0]) > 1e-5 || fabs(v[1] - w[1]) > 1e-5 ||
            fabs(v[2] - w[2]) > 1e-5) {
            ok = 0;
            printf("    corner %s: expected (%.7g, %.7g, %.7g)\n", CORNER_NAMES[i], w[0], w[1], w[2]);
        }
    }
    ok = ok && strstr(json, "\"entity_anchor_4x4\"") != NULL && strstr(json, "\"positions\"") != NULL;
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "the written JSON has the box's centre, angle and corners");
        printf("    JSON: %s\n", json);
    }
}

static fathom_box make_box(float cx, float cy, float cz, float sx, float sy, float sz, float rot) {
    fathom_box b;
    fathom_vec3 c, s;
    c.x = cx;
    c.y = cy;
    c.z = cz;
    s.x = sx;
    s.y = sy;
    s.z = sz;
    CHECK_OK(fathom_box_init(c, s, rot, &b));
    return b;
}

static void check_box_near(const fathom_box *got, const fathom_box *e, double tol, int line) {
    int ok = fabs(got->center.x - e->center.x) <= tol && fabs(got->center.y - e->center.y) <= tol &&
             fabs(got->center.z - e->center.z) <= tol && fabs(got->scale.x - e->scale.x) <= tol &&
             fabs(got->scale.y - e->scale.y) <= tol && fabs(got->scale.z - e->scale.z) <= tol &&
             fabs(got->rot_y - e->rot_y) <= tol && got->has_floor == e->has_floor &&
             (!e->has_floor || fabs(got->floor - e->floor) <= tol);
    if (ok) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "box read back matches");
        printf("    got c (%.7g %.7g %.7g) s (%.7g %.7g %.7g) rot %.7g floor %d %.7g\n", (double)got->center.x,
               (double)got->center.y, (double)got->center.z, (double)got->scale.x, (double)got->scale.y,
               (double)got->scale.z, (double)got->rot_y, (int)got->has_floor, (double)got->floor);
        printf("    exp c (%.7g %.7g %.7g) s (%.7g %.7g %.7g) rot %.7g floor %d %.7g\n", (double)e->center.x,
               (double)e->center.y, (double)e->center.z, (double)e->scale.x, (double)e->scale.y, (double)e->scale.z,
               (double)e->rot_y, (int)e->has_floor, (double)e->floor);
    }
}

/* ---- tests ----------------------------------------------------------------------------------- */

static void test_buffer_protocol(void) {
    fathom_box b = make_box(0.1f, 0.2f, -1.5f, 0.3f, 0.4f, 0.5f, 0.7f);
    size_t len = 12345, len2 = 0;
    char *buf;

    check_section("manifest_write buffer protocol");
    /* Ask for the size. */
    CHECK_STATUS(fathom_box_manifest_write(&b, NULL, 0, &len), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(len > 100 && len < 100000);
    if (len == 12345 || len >= 100000) return;
    buf = (char *)malloc(len + 16);
    /* Room for the text but not the NUL: too small, nothing written. */
    memset(buf, '#', len + 16);
    len2 = 0;
    CHECK_STATUS(fathom_box_manifest_write(&b, buf, len, &len2), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(len2 == len);
    {
        size_t i, untouched = 1;
        for (i = 0; i < len + 16; i++) untouched = untouched && buf[i] == '#';
        CHECK(untouched);
    }
    /* A capacity of 1. */
    len2 = 0;
    CHECK_STATUS(fathom_box_manifest_write(&b, buf, 1, &len2), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(len2 == len && buf[0] == '#');
    /* Exactly enough. */
    len2 = 0;
    CHECK_OK(fathom_box_manifest_write(&b, buf, len + 1, &len2));
    CHECK(len2 == len);
    CHECK(buf[len] == '\0');
    CHECK(strlen(buf) == len);
    CHECK(buf[len + 1] == '#'); /* nothing past capacity */
    check_written_json(buf, &b, NULL, __LINE__);
    /* Plenty: the same text. */
    {
        char big[8192];
        size_t len3 = 0;
        CHECK_OK(fathom_box_manifest_write(&b, big, sizeof big, &len3));
        CHECK(len3 == len);
        CHECK(strcmp(big, buf) == 0);
    }
    free(buf);
}

static void round_trip(const fathom_box *b, const fathom_box *expected, int line) {
    char buf[8192];
    size_t len = 0;
    fathom_box out;
    memset(&out, 0, sizeof out);
    if (fathom_box_manifest_write(b, buf, sizeof buf, &len) != FATHOM_OK) {
        check_fail_(__FILE__, line, "fathom_box_manifest_write");
        printf("    %s\n", fathom_last_error());
        return;
    }
    check_pass_();
    check_written_json(buf, b, NULL, line);
    if (fathom_box_manifest_read(buf, len, &out) != FATHOM_OK) {
        check_fail_(__FILE__, line, "fathom_box_manifest_read of the written manifest");
        printf("    %s\n    JSON: %s\n", fathom_last_error(), buf);
        return;
    }
    check_pass_();
    check_box_near(&out, expected, TOL, line);
}

static void test_round_trip(void) {
    fathom_box b, e;

    check_section("manifest_write: corners by hand");
    {
        /* The boxes of VALID_ROT90 and VALID_FLOOR (their corners worked out there). */
        static const double rot90[8][3] = {{-2, 1, 1}, {-2, 1, -1}, {-2, -1, -1}, {-2, -1, 1},
                                           {2, 1, 1},  {2, 1, -1},  {2, -1, -1},  {2, -1, 1}};
        static const double floor05[8][3] = {{-1, 2, -1}, {1, 2, -1}, {1, 0.5, -1}, {-1, 0.5, -1},
                                             {-1, 2, 1},  {1, 2, 1},  {1, 0.5, 1},  {-1, 0.5, 1}};
        char buf[8192];
        size_t len = 0;
        b = make_box(0, 0, 0, 2, 2, 4, (float)(T_PI / 2));
        CHECK_OK(fathom_box_manifest_write(&b, buf, sizeof buf, &len));
        check_written_json(buf, &b, rot90, __LINE__);
        b = make_box(0, 1, 0, 2, 2, 2, 0);
        CHECK_OK(fathom_box_set_floor(&b, 0.5f));
        CHECK_OK(fathom_box_manifest_write(&b, buf, sizeof buf, &len));
        check_written_json(buf, &b, floor05, __LINE__);
    }

    check_section("manifest round trip");
    b = make_box(0.1f, 0.2f, -1.5f, 0.3f, 0.4f, 0.5f, 0.7f);
    round_trip(&b, &b, __LINE__);
    b = make_box(-3, 0, 12.5f, 2, 0.05f, 1, -2.9f);
    round_trip(&b, &b, __LINE__);
    /* Not wrapped: 7 rad is written and read as 7. */
    b = make_box(0, 0, 0, 1, 2, 3, 7.0f);
    round_trip(&b, &b, __LINE__);
    /* Standing on a floor that clamps the bottom: the floor is recovered, the scale from the top corners. */
    b = make_box(0, 1, 0, 0.5f, 2, 0.5f, -0.4f);
    CHECK_OK(fathom_box_set_floor(&b, 0.5f));
    round_trip(&b, &b, __LINE__);
    /* A floor that does not clamp reads back without a floor. */
    b = make_box(0, 1, 0, 0.5f, 2, 0.5f, -0.4f);
    CHECK_OK(fathom_box_set_floor(&b, -1.0f));
    e = b;
    e.has_floor = 0;
    round_trip(&b, &e, __LINE__);
}

static void test_valid_handwritten(void) {
    fathom_box out, e;

    check_section("manifest_read: hand-written JSON");
    e = make_box(1, 2, 3, 2, 4, 6, 0);
    memset(&out, 0, sizeof out);
    CHECK_OK(read_str(VALID_AA, &out));
    check_box_near(&out, &e, 1e-6, __LINE__);
    CHECK_OK(read_str(VALID_AA_REORDERED, &out));
    check_box_near(&out, &e, 1e-6, __LINE__);
    {
        /* `length` bytes, not NUL-terminated. */
        size_t n = strlen(VALID_AA);
        char *exact = (char *)malloc(n);
        memcpy(exact, VALID_AA, n);
        CHECK_OK(fathom_box_manifest_read(exact, n, &out));
        check_box_near(&out, &e, 1e-6, __LINE__);
        free(exact);
    }
    e = make_box(0, 0, 0, 2, 2, 4, 1.5707963f);
    CHECK_OK(read_str(VALID_ROT90, &out));
    check_box_near(&out, &e, 1e-5, __LINE__);
    e = make_box(0, 1, 0, 2, 2, 2, 0);
    e.has_floor = 1;
    e.floor = 0.5f;
    CHECK_OK(read_str(VALID_FLOOR, &out));
    check_box_near(&out, &e, 1e-6, __LINE__);
    {
        /* Corners written with 6 decimals (as a JSON writer of the app might): still a box. */
        char json[4096];
        int i, n;
        const double c[3] = {0.25, 1.1, -2}, s[3] = {0.3, 0.45, 0.6}, rot = 2.2;
        n = snprintf(json, sizeof json, "{\"center\": {\"x\": %.6f, \"y\": %.6f, \"z\": %.6f}, \"rad_rot_about_y\": %.6f, "
                     "\"positions\": {", c[0], c[1], c[2], rot);
        for (i = 0; i < 8; i++) {
            double l[3] = {SIGN[i][0] * s[0] / 2, SIGN[i][1] * s[1] / 2, SIGN[i][2] * s[2] / 2}, w[3];
            t_ry_apply(rot, l, w);
            n += snprintf(json + n, sizeof json - (size_t)n, "%s\"%s\": {\"x\": %.6f, \"y\": %.6f, \"z\": %.6f}",
                          i ? ", " : "", CORNER_NAMES[i], c[0] + w[0], c[1] + w[1], c[2] + w[2]);
        }
        snprintf(json + n, sizeof json - (size_t)n,
                 "}, \"entity_anchor_4x4\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}");
        e = make_box((float)c[0], (float)c[1], (float)c[2], (float)s[0], (float)s[1], (float)s[2], (float)rot);
        CHECK_OK(read_str(json, &out));
        check_box_near(&out, &e, 1e-5, __LINE__);
    }
}

static void test_parse_errors(void) {
    size_t n = strlen(VALID_AA), cut, wrong = 0;

    check_section("manifest_read: not JSON -> FATHOM_ERR_PARSE");
    /* Every proper prefix of the manifest is truncated JSON. */
    for (cut = 0; cut < n; cut++) {
        fathom_box out;
        fathom_status s = fathom_box_manifest_read(VALID_AA, cut, &out);
        if (s != FATHOM_ERR_PARSE) {
            if (wrong < 5) printf("    prefix of %zu bytes: %s (%s)\n", cut, fathom_status_name(s), fathom_last_error());
            wrong++;
        }
    }
    CHECK(wrong == 0);
    expect_read("", FATHOM_ERR_PARSE, __LINE__);
    expect_read("   ", FATHOM_ERR_PARSE, __LINE__);
    expect_read("{", FATHOM_ERR_PARSE, __LINE__);
    expect_read("{\"center\": {\"x\": 1, \"y\": 2, \"z\": 3},", FATHOM_ERR_PARSE, __LINE__);
    expect_read("nul", FATHOM_ERR_PARSE, __LINE__);
    /* Malformed: a trailing comma, a missing colon, single quotes, a bare word, trailing garbage. */
    expect_read_replaced(VALID_AA, "\"z\": 6}\n }", "\"z\": 6},\n }", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "[0,0,0,1]]}", "[0,0,0,1],]}", FATHOM_ERR_PARSE, __LINE__);  /* in an array */
    expect_read_replaced(VALID_AA, "[0,0,0,1]]}", "[0,0,0,1,]]}", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\" 0", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\"", "'rad_rot_about_y'", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\": zero", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "[0,0,0,1]]}", "[0,0,0,1]]} x", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "[0,0,0,1]]}", "[0,0,0,1]]}}", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\": NaN", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\": 0x10", FATHOM_ERR_PARSE, __LINE__);
    expect_read_replaced(VALID_AA, "{\"x\": 1, \"y\": 2", "{\"x\": 1. , \"y\": 2", FATHOM_ERR_PARSE, __LINE__);
    {
        /* Deep nesting: refused, never a stack overflow. */
        size_t n = 1000000, i;
        char *deep = (char *)malloc(n);
        fathom_box out;
        memset(deep, '[', n);
        CHECK_STATUS(fathom_box_manifest_read(deep, n, &out), FATHOM_ERR_PARSE);
        for (i = 0; i + 5 <= n; i += 5) memcpy(deep + i, "{\"a\":", 5);
        CHECK_STATUS(fathom_box_manifest_read(deep, n, &out), FATHOM_ERR_PARSE);
        /* Closed, so well-formed: not a manifest either way (FORMAT, or PARSE from a depth limit). */
        for (i = 0; i < n / 2; i++) deep[i] = '[';
        for (; i < n; i++) deep[i] = ']';
        {
            fathom_status s = fathom_box_manifest_read(deep, n, &out);
            CHECK(s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_PARSE);
        }
        free(deep);
    }
    {
        /* A NUL byte inside the stated length. */
        fathom_box out;
        char withnul[sizeof VALID_AA];
        memcpy(withnul, VALID_AA, sizeof VALID_AA);
        withnul[20] = '\0';
        CHECK_STATUS(fathom_box_manifest_read(withnul, sizeof VALID_AA - 1, &out), FATHOM_ERR_PARSE);
    }
}

static void test_format_errors(void) {
    check_section("manifest_read: missing or mistyped field -> FATHOM_ERR_FORMAT");
    /* Missing fields. */
    expect_read_replaced(VALID_AA, " \"rad_rot_about_y\": 0,\n", "", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "{\"center\": {\"x\": 1, \"y\": 2, \"z\": 3},\n", "{", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "{\"x\": 1, \"y\": 2, \"z\": 3}", "{\"x\": 1, \"y\": 2}", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "  \"top_right_back\": {\"x\": 2, \"y\": 4, \"z\": 6},\n", "", FATHOM_ERR_FORMAT,
                         __LINE__);
    expect_read_replaced(VALID_AA, "\"bot_left_front\": {\"x\": 0, \"y\": 0, \"z\": 0}",
                         "\"bot_left_front\": {\"x\": 0, \"z\": 0}", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, ",\n \"entity_anchor_4x4\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]", "",
                         FATHOM_ERR_FORMAT, __LINE__);
    /* A misspelt corner name (so one of the eight is missing). */
    expect_read_replaced(VALID_AA, "\"bot_left_back\"", "\"bottom_left_back\"", FATHOM_ERR_FORMAT, __LINE__);
    /* Mistyped fields. */
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\": \"0\"", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\": null", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\": [0]", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "{\"x\": 1, \"y\": 2, \"z\": 3}", "[1, 2, 3]", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "{\"x\": 1, \"y\": 2, \"z\": 3}", "{\"x\": 1, \"y\": true, \"z\": 3}",
                         FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "\"top_left_front\": {\"x\": 0, \"y\": 4, \"z\": 0}",
                         "\"top_left_front\": {\"x\": \"0\", \"y\": 4, \"z\": 0}", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "\"top_left_front\": {\"x\": 0, \"y\": 4, \"z\": 0}", "\"top_left_front\": 0",
                         FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]", "[[1,0,0],[0,1,0],[0,0,1]]",
                         FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]", "\"identity\"", FATHOM_ERR_FORMAT,
                         __LINE__);
    expect_read("[1, 2, 3]", FATHOM_ERR_FORMAT, __LINE__);
    expect_read("{}", FATHOM_ERR_FORMAT, __LINE__);
    expect_read("42", FATHOM_ERR_FORMAT, __LINE__);
    /* A non-identity entity anchor (a translation in the last column). */
    expect_read_replaced(VALID_AA, "[0,0,0,1]]}", "[0.5,0,0,1]]}", FATHOM_ERR_FORMAT, __LINE__);
    expect_read_replaced(VALID_AA, "[[1,0,0,0],[0,1,0,0]", "[[0,1,0,0],[-1,0,0,0]", FATHOM_ERR_FORMAT, __LINE__);
    {
        /* A number too large for any float: either refused as not JSON or as a non-finite field, never OK. */
        char *v = replace(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\": 1e999", __LINE__);
        fathom_box out;
        fathom_status s = read_str(v, &out);
        CHECK(s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_PARSE);
        free(v);
        v = replace(VALID_AA, "{\"x\": 1, \"y\": 2, \"z\": 3}", "{\"x\": 1e39, \"y\": 2, \"z\": 3}", __LINE__);
        s = read_str(v, &out); /* finite as a double, infinite as a float */
        CHECK(s != FATHOM_OK);
        free(v);
    }
}

static void test_not_a_box(void) {
    check_section("manifest_read: corners not a box -> FATHOM_ERR_NOT_A_BOX");
    /* One corner moved by 0.1: the message names it. */
    expect_read_replaced(VALID_AA, "\"top_right_back\": {\"x\": 2,", "\"top_right_back\": {\"x\": 2.1,",
                         FATHOM_ERR_NOT_A_BOX, __LINE__);
    CHECK_ERROR_MENTIONS("top_right_back");
    expect_read_replaced(VALID_AA, "\"bot_left_front\": {\"x\": 0, \"y\": 0,", "\"bot_left_front\": {\"x\": 0, \"y\": -0.2,",
                         FATHOM_ERR_NOT_A_BOX, __LINE__);
    CHECK_ERROR_MENTIONS("bot_left_front");
    /* The corners of an axis-aligned box with a stated angle of 0.3. */
    expect_read_replaced(VALID_AA, "\"rad_rot_about_y\": 0", "\"rad_rot_about_y\": 0.3", FATHOM_ERR_NOT_A_BOX, __LINE__);
    /* A centre that is not the corners' centre. */
    expect_read_replaced(VALID_AA, "{\"x\": 1, \"y\": 2, \"z\": 3}", "{\"x\": 1, \"y\": 2, \"z\": 3.5}",
                         FATHOM_ERR_NOT_A_BOX, __LINE__);
    {
        /* Top and bottom swapped (top corners at y = 0, bottom corners at y = 4). */
        char *a = replace(VALID_AA, "\"top_left_front\": {\"x\": 0, \"y\": 4", "\"top_left_front\": {\"x\": 0, \"y\": 0", __LINE__);
        char *b = replace(a, "\"top_right_front\": {\"x\": 2, \"y\": 4", "\"top_right_front\": {\"x\": 2, \"y\": 0", __LINE__);
        char *c = replace(b, "\"bot_right_front\": {\"x\": 2, \"y\": 0", "\"bot_right_front\": {\"x\": 2, \"y\": 4", __LINE__);
        char *d = replace(c, "\"bot_left_front\": {\"x\": 0, \"y\": 0", "\"bot_left_front\": {\"x\": 0, \"y\": 4", __LINE__);
        char *e = replace(d, "\"top_left_back\": {\"x\": 0, \"y\": 4", "\"top_left_back\": {\"x\": 0, \"y\": 0", __LINE__);
        char *f = replace(e, "\"top_right_back\": {\"x\": 2, \"y\": 4", "\"top_right_back\": {\"x\": 2, \"y\": 0", __LINE__);
        char *g = replace(f, "\"bot_right_back\": {\"x\": 2, \"y\": 0", "\"bot_right_back\": {\"x\": 2, \"y\": 4", __LINE__);
        char *h = replace(g, "\"bot_left_back\": {\"x\": 0, \"y\": 0", "\"bot_left_back\": {\"x\": 0, \"y\": 4", __LINE__);
        expect_read(h, FATHOM_ERR_NOT_A_BOX, __LINE__);
        free(a), free(b), free(c), free(d), free(e), free(f), free(g), free(h);
    }
    {
        /* Zero width: every corner at x = 1 (the centre's x). */
        static const char flat[] =
            "{\"center\": {\"x\": 1, \"y\": 2, \"z\": 3}, \"rad_rot_about_y\": 0, \"positions\": {"
            "\"top_left_front\": {\"x\": 1, \"y\": 4, \"z\": 0}, \"top_right_front\": {\"x\": 1, \"y\": 4, \"z\": 0},"
            "\"bot_right_front\": {\"x\": 1, \"y\": 0, \"z\": 0}, \"bot_left_front\": {\"x\": 1, \"y\": 0, \"z\": 0},"
            "\"top_left_back\": {\"x\": 1, \"y\": 4, \"z\": 6}, \"top_right_back\": {\"x\": 1, \"y\": 4, \"z\": 6},"
            "\"bot_right_back\": {\"x\": 1, \"y\": 0, \"z\": 6}, \"bot_left_back\": {\"x\": 1, \"y\": 0, \"z\": 6}},"
            " \"entity_anchor_4x4\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}";
        expect_read(flat, FATHOM_ERR_NOT_A_BOX, __LINE__);
    }
    /* Left and right swapped on every corner: a mirror image, which no rotation gives. */
    {
        static const char *const from[8][2] = {
            {"\"top_left_front\": {\"x\": 0,", "\"top_left_front\": {\"x\": 2,"},
            {"\"top_right_front\": {\"x\": 2,", "\"top_right_front\": {\"x\": 0,"},
            {"\"bot_right_front\": {\"x\": 2,", "\"bot_right_front\": {\"x\": 0,"},
            {"\"bot_left_front\": {\"x\": 0,", "\"bot_left_front\": {\"x\": 2,"},
            {"\"top_left_back\": {\"x\": 0,", "\"top_left_back\": {\"x\": 2,"},
            {"\"top_right_back\": {\"x\": 2,", "\"top_right_back\": {\"x\": 0,"},
            {"\"bot_right_back\": {\"x\": 2,", "\"bot_right_back\": {\"x\": 0,"},
            {"\"bot_left_back\": {\"x\": 0,", "\"bot_left_back\": {\"x\": 2,"},
        };
        char *cur = replace(VALID_AA, "", "", __LINE__), *next;
        int i;
        for (i = 0; i < 8; i++) {
            next = replace(cur, from[i][0], from[i][1], __LINE__);
            free(cur);
            cur = next;
        }
        expect_read(cur, FATHOM_ERR_NOT_A_BOX, __LINE__);
        free(cur);
    }
}

static void test_files(void) {
    char dir[] = "/tmp/fathom-test-manifest-XXXXXX";
    char path[256], badpath[256];
    fathom_box b = make_box(0.1f, 0.2f, -1.5f, 0.3f, 0.4f, 0.5f, 0.7f), out;

    check_section("manifest_save / manifest_load");
    if (mkdtemp(dir) == NULL) {
        CHECK(0 && "mkdtemp failed");
        return;
    }
    snprintf(path, sizeof path, "%s/boundingbox.json", dir);
    CHECK_OK(fathom_box_manifest_save(&b, path));
    memset(&out, 0, sizeof out);
    CHECK_OK(fathom_box_manifest_load(path, &out));
    check_box_near(&out, &b, TOL, __LINE__);
    {
        /* The file holds the same text as manifest_write. */
        char text[8192], file[8192];
        size_t len = 0, got;
        FILE *f = fopen(path, "rb");
        CHECK_OK(fathom_box_manifest_write(&b, text, sizeof text, &len));
        CHECK(f != NULL);
        if (f != NULL) {
            got = fread(file, 1, sizeof file, f);
            fclose(f);
            CHECK(got == len || (got == len + 1 && file[len] == '\n'));
            CHECK(memcmp(file, text, len) == 0);
        }
    }
    /* Replaced by a second save. */
    {
        fathom_box b2 = make_box(5, 6, 7, 1, 1, 1, -1);
        CHECK_OK(fathom_box_manifest_save(&b2, path));
        CHECK_OK(fathom_box_manifest_load(path, &out));
        check_box_near(&out, &b2, TOL, __LINE__);
    }
    /* A file with truncated JSON, and an empty file: parse errors. */
    {
        FILE *f = fopen(path, "wb");
        if (f != NULL) {
            fwrite(VALID_AA, 1, strlen(VALID_AA) / 2, f);
            fclose(f);
        }
        CHECK_STATUS(fathom_box_manifest_load(path, &out), FATHOM_ERR_PARSE);
        f = fopen(path, "wb");
        if (f != NULL) fclose(f);
        CHECK_STATUS(fathom_box_manifest_load(path, &out), FATHOM_ERR_PARSE);
        f = fopen(path, "wb");
        if (f != NULL) {
            fputs(VALID_FLOOR, f);
            fclose(f);
        }
        CHECK_OK(fathom_box_manifest_load(path, &out));
        CHECK(out.has_floor == 1);
    }
    /* Unreadable and unwritable paths. */
    snprintf(badpath, sizeof badpath, "%s/no/such/dir/boundingbox.json", dir);
    {
        fathom_box before;
        memset(&out, 0x3c, sizeof out);
        before = out;
        CHECK_STATUS(fathom_box_manifest_load(badpath, &out), FATHOM_ERR_IO);
        CHECK(memcmp(&out, &before, sizeof out) == 0);
        CHECK_ERROR_MENTIONS("fathom_box_manifest_load");
        CHECK_STATUS(fathom_box_manifest_save(&b, badpath), FATHOM_ERR_IO);
        CHECK_ERROR_MENTIONS("fathom_box_manifest_save");
        CHECK_STATUS(fathom_box_manifest_load(dir, &out), FATHOM_ERR_IO); /* a directory */
        CHECK_STATUS(fathom_box_manifest_save(&b, dir), FATHOM_ERR_IO);
        CHECK_STATUS(fathom_box_manifest_load("", &out), FATHOM_ERR_IO);
    }
    unlink(path);
    rmdir(dir);
}

int main(void) {
    test_buffer_protocol();
    test_round_trip();
    test_valid_handwritten();
    test_parse_errors();
    test_format_errors();
    test_not_a_box();
    test_files();
    return check_summary("test_manifest");
}
