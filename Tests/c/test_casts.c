/* Primitive casts across the C ABI: fathom_ray_plane, fathom_ray_floor, fathom_ray_sphere, fathom_ray_obb and
 * fathom_ray_triangle. Hand-derived cases (every number worked out in the comments): every field of fathom_hit and
 * fathom_box_hit, both sides, ranges, misses, bad input. Every cast reports only hits with tmin <= t <= tmax; t is
 * in units of |direction|; a miss is NO_HIT, t = INFINITY, rest 0. Random spheres, rotated boxes and triangles
 * against Double references (the quadratic, a slab test, Moeller-Trumbore) are in
 * Tests/FathomCoreTests/RayCastPrimitiveTests.swift. */
#include "fathom.h"
#include "check.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MISS(h) CHECK(t_hit_is_miss(&(h)))
#define INF ((float)INFINITY)

/* The fields every non-mesh hit has: u = v = 0 (not a triangle), classification 0, reserved 0. */
#define CHECK_PLAIN_HIT(h, prim) \
    CHECK((h).primitive == (prim) && (h).u == 0 && (h).v == 0 && (h).classification == 0 && (h).reserved[0] == 0 && \
          (h).reserved[1] == 0)

static void test_plane(void) {
    fathom_ray r;
    fathom_hit h;
    const double s = sqrt(0.5);

    check_section("ray_plane");
    /* From (0, 5, 0) down with |d| = 2 onto y = 1: t = (1 - 5) / -2 = 2 (units of |d|), point (0, 1, 0). */
    r = t_ray(0, 5, 0, 0, -2, 0);
    CHECK_OK(fathom_ray_plane(&r, 0, INF, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK_NEAR(h.t, 2, 1e-6);
    CHECK_VEC3(h.point, 0, 1, 0, 1e-6);
    CHECK_VEC3(h.normal, 0, 1, 0, 1e-7);
    CHECK(h.front_face == 1);
    CHECK_PLAIN_HIT(h, 0);
    /* A non-unit normal is reported unit: plane x + y = 2 through (1, 1, 0), normal (3, 3, 0).
     * Ray from (0, 0, 5) along (1, 1, 0): t = 1, point (1, 1, 5); dot(d, n) > 0 -> back face. */
    r = t_ray(0, 0, 5, 1, 1, 0);
    CHECK_OK(fathom_ray_plane(&r, 0, INF, v3(1, 1, 0), v3(3, 3, 0), &h));
    CHECK_NEAR(h.t, 1, 1e-6);
    CHECK_VEC3(h.point, 1, 1, 5, 1e-6);
    CHECK_VEC3(h.normal, s, s, 0, 1e-6);
    CHECK(h.front_face == 0);
    /* The same plane with the normal flipped: same t, the normal as given (not turned to the ray), front. */
    CHECK_OK(fathom_ray_plane(&r, 0, INF, v3(1, 1, 0), v3(-1, -1, 0), &h));
    CHECK_NEAR(h.t, 1, 1e-6);
    CHECK_VEC3(h.normal, -s, -s, 0, 1e-6);
    CHECK(h.front_face == 1);
    /* Oblique: plane through (1, 2, 3) with normal (1, 2, 2)/3; ray from (0, 0, 0) along (1, 1, 1):
     * t = n.(p - o) / n.d = (1 + 4 + 6) / (1 + 2 + 2) = 11/5 = 2.2, point (2.2, 2.2, 2.2). */
    r = t_ray(0, 0, 0, 1, 1, 1);
    CHECK_OK(fathom_ray_plane(&r, 0, INF, v3(1, 2, 3), v3(1, 2, 2), &h));
    CHECK_NEAR(h.t, 2.2, 1e-6);
    CHECK_VEC3(h.point, 2.2, 2.2, 2.2, 1e-6);
    CHECK_VEC3(h.normal, 1 / 3.0, 2 / 3.0, 2 / 3.0, 1e-6);
    CHECK(h.front_face == 0);

    check_section("ray_plane: misses");
    /* Parallel, above the plane. */
    r = t_ray(0, 5, 0, 1, 0, 0);
    t_fill(&h, sizeof h);
    CHECK_OK(fathom_ray_plane(&r, 0, INF, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK_MISS(h);
    /* In the plane. */
    r = t_ray(0, 1, 0, 1, 0, 1);
    CHECK_OK(fathom_ray_plane(&r, 0, INF, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK_MISS(h);
    /* Plane behind the origin. */
    r = t_ray(0, 5, 0, 0, 1, 0);
    CHECK_OK(fathom_ray_plane(&r, 0, INF, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK_MISS(h);

    check_section("ray_plane: [tmin, tmax]");
    /* Hit at t = 2 exactly ((1 - 5) / -2). */
    r = t_ray(0, 5, 0, 0, -2, 0);
    CHECK_OK(fathom_ray_plane(&r, 0, 1.99f, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK_MISS(h);
    CHECK_OK(fathom_ray_plane(&r, 2.01f, INF, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK_MISS(h);
    CHECK_OK(fathom_ray_plane(&r, 1.99f, 2.01f, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK_NEAR(h.t, 2, 1e-6);
    /* The range is closed: tmin = tmax = 2. */
    CHECK_OK(fathom_ray_plane(&r, 2, 2, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK(h.primitive == 0 && h.t == 2);
    /* A finite tmax. */
    CHECK_OK(fathom_ray_plane(&r, 0, 100, v3(0, 1, 0), v3(0, 1, 0), &h));
    CHECK_NEAR(h.t, 2, 1e-6);
}

static void test_floor(void) {
    fathom_ray r;
    fathom_hit h;

    check_section("ray_floor");
    /* From (1, 2, 3) along (0, -1, 1) onto y = 0.5: t = 1.5, point (1, 0.5, 4.5), normal +y, front. */
    r = t_ray(1, 2, 3, 0, -1, 1);
    CHECK_OK(fathom_ray_floor(&r, 0, INF, 0.5f, &h));
    CHECK_NEAR(h.t, 1.5, 1e-6);
    CHECK_VEC3(h.point, 1, 0.5, 4.5, 1e-6);
    CHECK_VEC3(h.normal, 0, 1, 0, 0);
    CHECK(h.front_face == 1);
    CHECK_PLAIN_HIT(h, 0);
    /* From below, going up with |d| = 4: t = (0.5 - (-1.5)) / 4 = 0.5, back face, normal still +y. */
    r = t_ray(0, -1.5, 0, 0, 4, 0);
    CHECK_OK(fathom_ray_floor(&r, 0, INF, 0.5f, &h));
    CHECK_NEAR(h.t, 0.5, 1e-6);
    CHECK_VEC3(h.point, 0, 0.5, 0, 1e-6);
    CHECK_VEC3(h.normal, 0, 1, 0, 0);
    CHECK(h.front_face == 0);
    /* Horizontal: parallel, a miss. Going up from above: a miss. */
    r = t_ray(0, 2, 0, 1, 0, 0);
    CHECK_OK(fathom_ray_floor(&r, 0, INF, 0.5f, &h));
    CHECK_MISS(h);
    r = t_ray(0, 2, 0, 0.1, 1, 0);
    CHECK_OK(fathom_ray_floor(&r, 0, INF, 0.5f, &h));
    CHECK_MISS(h);
    /* [tmin, tmax] around t = 1.5. */
    r = t_ray(1, 2, 3, 0, -1, 1);
    CHECK_OK(fathom_ray_floor(&r, 0, 1.4f, 0.5f, &h));
    CHECK_MISS(h);
    CHECK_OK(fathom_ray_floor(&r, 1.6f, 10, 0.5f, &h));
    CHECK_MISS(h);
    CHECK_OK(fathom_ray_floor(&r, 1.4f, 1.6f, 0.5f, &h));
    CHECK_NEAR(h.t, 1.5, 1e-6);
    /* A negative floor height. */
    r = t_ray(0, 0, 0, 0, -1, 0);
    CHECK_OK(fathom_ray_floor(&r, 0, INF, -1.25f, &h));
    CHECK_NEAR(h.t, 1.25, 1e-6);
    CHECK_VEC3(h.point, 0, -1.25, 0, 1e-6);
}

static void test_sphere(void) {
    fathom_ray r;
    fathom_hit h;
    const fathom_vec3 c = {1, 2, 3};
    const double s3 = sqrt(3.0);

    check_section("ray_sphere: from outside");
    /* Centre (1, 2, 3), radius 2. From (1, 2, -5) along +z: enters at z = 1, t = 6; normal (0, 0, -1). */
    r = t_ray(1, 2, -5, 0, 0, 1);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_NEAR(h.t, 6, 1e-5);
    CHECK_VEC3(h.point, 1, 2, 1, 1e-5);
    CHECK_VEC3(h.normal, 0, 0, -1, 1e-6);
    CHECK(h.front_face == 1);
    CHECK_PLAIN_HIT(h, 0);
    /* |d| = 4: t in units of |d| = 1.5. */
    r = t_ray(1, 2, -5, 0, 0, 4);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_NEAR(h.t, 1.5, 1e-5);
    CHECK_VEC3(h.point, 1, 2, 1, 1e-5);
    /* Off axis by 1 in x: enters at z = 3 - sqrt(4 - 1), t = 8 - sqrt 3, normal (1, 0, -sqrt 3)/2. */
    r = t_ray(2, 2, -5, 0, 0, 1);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_NEAR(h.t, 8 - s3, 1e-5);
    CHECK_VEC3(h.point, 2, 2, 3 - s3, 1e-5);
    CHECK_VEC3(h.normal, 0.5, 0, -s3 / 2, 1e-5);
    CHECK(h.front_face == 1);
    /* Diagonal: from c + (5, 5, 5)/sqrt 3 * 3 ... simpler: from (1 + 6, 2, 3) along (-1, 0, 0): t = 4, point (3, 2, 3). */
    r = t_ray(7, 2, 3, -1, 0, 0);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_NEAR(h.t, 4, 1e-5);
    CHECK_VEC3(h.normal, 1, 0, 0, 1e-6);

    check_section("ray_sphere: from inside");
    /* From the centre along +x: exits at (3, 2, 3), t = 2, outward normal (1, 0, 0), back face. */
    r = t_ray(1, 2, 3, 1, 0, 0);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_NEAR(h.t, 2, 1e-5);
    CHECK_VEC3(h.point, 3, 2, 3, 1e-5);
    CHECK_VEC3(h.normal, 1, 0, 0, 1e-6);
    CHECK(h.front_face == 0);
    /* From (1, 2, 2) (1 below the centre in z) along -z: exits at z = 1, t = 1. */
    r = t_ray(1, 2, 2, 0, 0, -1);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_NEAR(h.t, 1, 1e-5);
    CHECK_VEC3(h.normal, 0, 0, -1, 1e-6);
    CHECK(h.front_face == 0);

    check_section("ray_sphere: grazing and missing");
    /* Offset 1.999 from the axis: t = 8 - sqrt(4 - 1.999^2) = 8 - sqrt(0.003999). */
    r = t_ray(1 + 1.999, 2, -5, 0, 0, 1);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    {
        double x = (double)(float)(1 + 1.999) - 1;
        CHECK_NEAR(h.t, 8 - sqrt(4 - x * x), 2e-4);
        CHECK_NEAR(h.normal.x, x / 2, 1e-4);
    }
    CHECK(h.front_face == 1);
    /* Offset 2.001: misses. */
    r = t_ray(1 + 2.001, 2, -5, 0, 0, 1);
    t_fill(&h, sizeof h);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_MISS(h);
    /* The sphere behind the ray. */
    r = t_ray(1, 2, 10, 0, 0, 1);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_MISS(h);
    /* Pointing away, far off. */
    r = t_ray(100, 100, 100, 1, 1, 1);
    CHECK_OK(fathom_ray_sphere(&r, 0, INF, c, 2, &h));
    CHECK_MISS(h);

    check_section("ray_sphere: [tmin, tmax]");
    /* From (1, 2, -5) along +z the line crosses at t = 6 (entry) and t = 10 (exit). */
    r = t_ray(1, 2, -5, 0, 0, 1);
    CHECK_OK(fathom_ray_sphere(&r, 0, 5.9f, c, 2, &h));
    CHECK_MISS(h);
    /* tmin past the entry: the exit at t = 10 is the first crossing in range, outward normal +z, back face. */
    CHECK_OK(fathom_ray_sphere(&r, 7, INF, c, 2, &h));
    CHECK_NEAR(h.t, 10, 1e-5);
    CHECK_VEC3(h.point, 1, 2, 5, 1e-5);
    CHECK_VEC3(h.normal, 0, 0, 1, 1e-6);
    CHECK(h.front_face == 0);
    /* Between the two crossings: nothing in [7, 9]. */
    CHECK_OK(fathom_ray_sphere(&r, 7, 9, c, 2, &h));
    CHECK_MISS(h);
    /* Past both. */
    CHECK_OK(fathom_ray_sphere(&r, 10.5f, INF, c, 2, &h));
    CHECK_MISS(h);
    CHECK_OK(fathom_ray_sphere(&r, 5.9f, 6.1f, c, 2, &h));
    CHECK_NEAR(h.t, 6, 1e-5);
}

/* ---- oriented boxes ------------------------------------------------------------------------------- */

static fathom_obb make_obb(fathom_vec3 c, fathom_vec3 s, fathom_quat q) {
    fathom_obb o;
    o.center = c;
    o.scale = s;
    o.rotation = q;
    return o;
}

static void test_obb_hand(void) {
    fathom_obb o = make_obb(v3(0, 0, 0), v3(2, 4, 6), q4(0, 0, 0, 1));
    fathom_box_hit b;
    fathom_ray r;

    check_section("ray_obb: axis-aligned box 2 x 4 x 6 at the origin");
    /* From (0, 0, -10) along +z: enters the front (z = -3) at t = 7, leaves the back (z = 3) at t = 13. */
    r = t_ray(0, 0, -10, 0, 0, 1);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_NEAR(b.t_enter, 7, 1e-5);
    CHECK_NEAR(b.t_exit, 13, 1e-5);
    CHECK(b.face_enter == FATHOM_FACE_FRONT);
    CHECK(b.face_exit == FATHOM_FACE_BACK);
    CHECK(b.origin_inside == 0);
    CHECK_NEAR(b.hit.t, 7, 1e-5);
    CHECK_VEC3(b.hit.point, 0, 0, -3, 1e-5);
    CHECK_VEC3(b.hit.normal, 0, 0, -1, 1e-6);
    CHECK(b.hit.primitive == FATHOM_FACE_FRONT);
    CHECK(b.hit.front_face == 1);
    CHECK(b.hit.u == 0 && b.hit.v == 0 && b.hit.classification == 0);
    /* From (5, 0.5, 1) along -x: right face (x = 1) at t = 4, left (x = -1) at t = 6. */
    r = t_ray(5, 0.5, 1, -1, 0, 0);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_NEAR(b.t_enter, 4, 1e-5);
    CHECK_NEAR(b.t_exit, 6, 1e-5);
    CHECK(b.face_enter == FATHOM_FACE_RIGHT && b.face_exit == FATHOM_FACE_LEFT);
    CHECK_VEC3(b.hit.point, 1, 0.5, 1, 1e-5);
    CHECK_VEC3(b.hit.normal, 1, 0, 0, 1e-6);
    CHECK(b.hit.primitive == FATHOM_FACE_RIGHT);
    /* From (0.3, -7, 0.2) along (0, 2, 0): bottom (y = -2) at t = 2.5, top (y = 2) at t = 4.5. */
    r = t_ray(0.3, -7, 0.2, 0, 2, 0);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_NEAR(b.t_enter, 2.5, 1e-5);
    CHECK_NEAR(b.t_exit, 4.5, 1e-5);
    CHECK(b.face_enter == FATHOM_FACE_BOTTOM && b.face_exit == FATHOM_FACE_TOP);
    CHECK_VEC3(b.hit.point, 0.3, -2, 0.2, 1e-5);
    CHECK_VEC3(b.hit.normal, 0, -1, 0, 1e-6);
    /* Diagonal from (-4, 0, -4) along (1, 0, 1): x-slab [3, 5], z-slab [1, 7] -> enters the left face at t = 3
     * (point (-1, 0, -1)), leaves the right face at t = 5 (point (1, 0, 1)). */
    r = t_ray(-4, 0, -4, 1, 0, 1);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_NEAR(b.t_enter, 3, 1e-5);
    CHECK_NEAR(b.t_exit, 5, 1e-5);
    CHECK(b.face_enter == FATHOM_FACE_LEFT && b.face_exit == FATHOM_FACE_RIGHT);
    CHECK_VEC3(b.hit.point, -1, 0, -1, 1e-5);

    check_section("ray_obb: origin inside");
    /* From the centre along +z: t_enter = -3 (behind), t_exit = 3; the hit is the exit, a back face. */
    r = t_ray(0, 0, 0, 0, 0, 1);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK(b.origin_inside == 1);
    CHECK_NEAR(b.t_enter, -3, 1e-5);
    CHECK_NEAR(b.t_exit, 3, 1e-5);
    CHECK(b.face_enter == FATHOM_FACE_FRONT && b.face_exit == FATHOM_FACE_BACK);
    CHECK_NEAR(b.hit.t, 3, 1e-5);
    CHECK_VEC3(b.hit.point, 0, 0, 3, 1e-5);
    CHECK_VEC3(b.hit.normal, 0, 0, 1, 1e-6);
    CHECK(b.hit.primitive == FATHOM_FACE_BACK);
    CHECK(b.hit.front_face == 0);
    /* From (0.5, 1, 2) along (0, -0.5, 0): leaves through the bottom (y = -2) at t = 6, entered at t = -2. */
    r = t_ray(0.5, 1, 2, 0, -0.5, 0);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK(b.origin_inside == 1);
    CHECK_NEAR(b.t_enter, -2, 1e-5);
    CHECK_NEAR(b.t_exit, 6, 1e-5);
    CHECK(b.hit.primitive == FATHOM_FACE_BOTTOM);
    CHECK_VEC3(b.hit.point, 0.5, -2, 2, 1e-5);
    /* On a face counts as inside: (0, 0, -3) along +z, t_enter 0, t_exit 6. */
    r = t_ray(0, 0, -3, 0, 0, 1);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK(b.origin_inside == 1);
    CHECK_NEAR(b.t_enter, 0, 1e-6);
    CHECK_NEAR(b.t_exit, 6, 1e-5);

    check_section("ray_obb: misses");
    /* The line misses the box: everything 0 and the hit a miss. */
    r = t_ray(5, 5, 5, 1, 0, 0);
    t_fill(&b, sizeof b);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_MISS(b.hit);
    CHECK(b.t_enter == 0 && b.t_exit == 0 && b.face_enter == 0 && b.face_exit == 0);
    CHECK(b.origin_inside == 0);
    r = t_ray(0, 0, -10, 0, 1, 0.1); /* passes above */
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_MISS(b.hit);
    CHECK(b.t_enter == 0 && b.t_exit == 0 && b.face_enter == 0 && b.face_exit == 0);
    /* Parallel to a slab, outside it. */
    r = t_ray(1.5, 0, -10, 0, 0, 1);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_MISS(b.hit);
    /* The box behind the ray: no crossing at t >= 0. */
    r = t_ray(0, 0, 10, 0, 0, 1);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_MISS(b.hit);
    CHECK(b.origin_inside == 0);

    check_section("ray_obb: [tmin, tmax]");
    r = t_ray(0, 0, -10, 0, 0, 1);
    CHECK_OK(fathom_ray_obb(&r, 0, 6.9f, &o, &b));
    CHECK_MISS(b.hit);
    /* tmin between entry (7) and exit (13): the first crossing in range is the exit, through the back. */
    CHECK_OK(fathom_ray_obb(&r, 8, INF, &o, &b));
    CHECK_NEAR(b.hit.t, 13, 1e-5);
    CHECK(b.hit.primitive == FATHOM_FACE_BACK);
    CHECK_VEC3(b.hit.normal, 0, 0, 1, 1e-6);
    CHECK(b.hit.front_face == 0);
    CHECK_NEAR(b.t_enter, 7, 1e-5);
    CHECK_NEAR(b.t_exit, 13, 1e-5);
    /* Nothing in [8, 12] or past 13. */
    CHECK_OK(fathom_ray_obb(&r, 8, 12, &o, &b));
    CHECK_MISS(b.hit);
    CHECK_OK(fathom_ray_obb(&r, 13.5f, INF, &o, &b));
    CHECK_MISS(b.hit);
    CHECK_OK(fathom_ray_obb(&r, 6.9f, 7.1f, &o, &b));
    CHECK_NEAR(b.hit.t, 7, 1e-5);
    CHECK(b.hit.primitive == FATHOM_FACE_FRONT);
}

static void test_obb_rotated(void) {
    fathom_obb o;
    fathom_box_hit b;
    fathom_ray r;

    check_section("ray_obb: box turned 90 degrees about y");
    /* R_y(90deg) takes local +z to world +x: from (10, 0, 0) along -x the ray meets the local back face
     * (outward normal world +x) at x = sz/2 = 3, t = 7, and leaves through the front at t = 13. */
    o = make_obb(v3(0, 0, 0), v3(2, 4, 6), q4(0, (float)sqrt(0.5), 0, (float)sqrt(0.5)));
    r = t_ray(10, 0, 0, -1, 0, 0);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_NEAR(b.t_enter, 7, 1e-5);
    CHECK_NEAR(b.t_exit, 13, 1e-5);
    CHECK(b.face_enter == FATHOM_FACE_BACK && b.face_exit == FATHOM_FACE_FRONT);
    CHECK_VEC3(b.hit.normal, 1, 0, 0, 1e-6);
    CHECK_VEC3(b.hit.point, 3, 0, 0, 1e-5);
    /* Local +x is world -z: from (0, 0, 10) along -z, local x decreases -> enters the left face (x_local = -1
     * is world z = +1) at t = 9. */
    r = t_ray(0, 0, 10, 0, 0, -1);
    CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
    CHECK_NEAR(b.t_enter, 9, 1e-5);
    CHECK_NEAR(b.t_exit, 11, 1e-5);
    CHECK(b.face_enter == FATHOM_FACE_LEFT && b.face_exit == FATHOM_FACE_RIGHT);
    CHECK_VEC3(b.hit.normal, 0, 0, 1, 1e-6);

    check_section("ray_obb: box tilted 45 degrees about z");
    /* A 2 x 2 x 2 cube turned 45 degrees about z, at (1, 2, 3). A ray along -x at the centre's height meets
     * the edge between local +x and +y... instead go along the local x axis, world (cos 45, sin 45, 0):
     * from centre - 5 * (s, s, 0) along (s, s, 0) -> enters the left face at t = 4, leaves right at t = 6. */
    o = make_obb(v3(1, 2, 3), v3(2, 2, 2), q4(0, 0, (float)sin(T_PI / 8), (float)cos(T_PI / 8)));
    {
        double s = sqrt(0.5);
        r = t_ray(1 - 5 * s, 2 - 5 * s, 3, s, s, 0);
        CHECK_OK(fathom_ray_obb(&r, 0, INF, &o, &b));
        CHECK_NEAR(b.t_enter, 4, 1e-5);
        CHECK_NEAR(b.t_exit, 6, 1e-5);
        CHECK(b.face_enter == FATHOM_FACE_LEFT && b.face_exit == FATHOM_FACE_RIGHT);
        CHECK_VEC3(b.hit.normal, -s, -s, 0, 1e-5);
        CHECK_VEC3(b.hit.point, 1 - s, 2 - s, 3, 1e-5);
    }
}

/* ---- triangles --------------------------------------------------------------------------------- */

static void test_triangle(void) {
    fathom_vec3 a = {0, 0, 0}, b = {1, 0, 0}, c = {0, 1, 0};
    fathom_ray r;
    fathom_hit h;

    check_section("ray_triangle: hand cases");
    /* Triangle (0,0,0), (1,0,0), (0,1,0): normal (b - a) x (c - a) = +z. From (0.2, 0.3, 5) along -z: t = 5,
     * point (0.2, 0.3, 0) = (1 - u - v) a + u b + v c with u = 0.2, v = 0.3; front face. */
    r = t_ray(0.2, 0.3, 5, 0, 0, -1);
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, a, b, c, &h));
    CHECK_NEAR(h.t, 5, 1e-6);
    CHECK_VEC3(h.point, 0.2, 0.3, 0, 1e-6);
    CHECK_VEC3(h.normal, 0, 0, 1, 1e-7);
    CHECK_NEAR(h.u, 0.2, 1e-6);
    CHECK_NEAR(h.v, 0.3, 1e-6);
    CHECK(h.front_face == 1);
    CHECK(h.primitive == 0 && h.classification == 0 && h.reserved[0] == 0 && h.reserved[1] == 0);
    /* From below with |d| = 2: t = 2.5, the back face (both sides are hit), normal still +z. */
    r = t_ray(0.2, 0.3, -5, 0, 0, 2);
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, a, b, c, &h));
    CHECK_NEAR(h.t, 2.5, 1e-6);
    CHECK_VEC3(h.normal, 0, 0, 1, 1e-7);
    CHECK(h.front_face == 0);
    CHECK_NEAR(h.u, 0.2, 1e-6);
    CHECK_NEAR(h.v, 0.3, 1e-6);
    /* Swapping b and c flips the normal and the roles of u and v. */
    r = t_ray(0.2, 0.3, 5, 0, 0, -1);
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, a, c, b, &h));
    CHECK_VEC3(h.normal, 0, 0, -1, 1e-7);
    CHECK(h.front_face == 0);
    CHECK_NEAR(h.u, 0.3, 1e-6);
    CHECK_NEAR(h.v, 0.2, 1e-6);
    /* A triangle in 3D: (1, 0, 0), (0, 2, 0), (0, 0, 3); plane x + y/2 + z/3 = 1, normal (6, 3, 2)/7.
     * From the origin along (1, 1, 1): t = 1 / (1 + 1/2 + 1/3) = 6/11, point (6/11)(1, 1, 1);
     * u = y/2 = 3/11 (weight of v1), v = z/3 = 2/11 (weight of v2). */
    r = t_ray(0, 0, 0, 1, 1, 1);
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, v3(1, 0, 0), v3(0, 2, 0), v3(0, 0, 3), &h));
    CHECK_NEAR(h.t, 6.0 / 11, 1e-6);
    CHECK_VEC3(h.point, 6.0 / 11, 6.0 / 11, 6.0 / 11, 1e-6);
    CHECK_VEC3(h.normal, 6.0 / 7, 3.0 / 7, 2.0 / 7, 1e-6);
    CHECK_NEAR(h.u, 3.0 / 11, 1e-6);
    CHECK_NEAR(h.v, 2.0 / 11, 1e-6);
    CHECK(h.front_face == 0);

    check_section("ray_triangle: misses");
    r = t_ray(0.6, 0.6, 5, 0, 0, -1); /* u + v = 1.2 */
    t_fill(&h, sizeof h);
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, a, b, c, &h));
    CHECK_MISS(h);
    r = t_ray(-0.1, 0.3, 5, 0, 0, -1); /* left of the edge x = 0 */
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, a, b, c, &h));
    CHECK_MISS(h);
    r = t_ray(0.2, 0.3, 5, 0, 0, 1); /* pointing away */
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, a, b, c, &h));
    CHECK_MISS(h);
    r = t_ray(-1, 0.2, 0, 1, 0, 0); /* in the triangle's plane */
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, a, b, c, &h));
    CHECK_MISS(h);
    r = t_ray(-1, 0.2, 1, 1, 0, 0); /* parallel to it */
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, a, b, c, &h));
    CHECK_MISS(h);
    /* Degenerate triangles are never hit: collinear, and all three at one point. */
    r = t_ray(0.5, 0, 5, 0, 0, -1);
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, v3(0, 0, 0), v3(1, 0, 0), v3(2, 0, 0), &h));
    CHECK_MISS(h);
    r = t_ray(0, 0, 5, 0, 0, -1);
    CHECK_OK(fathom_ray_triangle(&r, 0, INF, v3(0, 0, 0), v3(0, 0, 0), v3(0, 0, 0), &h));
    CHECK_MISS(h);

    check_section("ray_triangle: [tmin, tmax]");
    r = t_ray(0.2, 0.3, 5, 0, 0, -1);
    CHECK_OK(fathom_ray_triangle(&r, 0, 4.99f, a, b, c, &h));
    CHECK_MISS(h);
    CHECK_OK(fathom_ray_triangle(&r, 5.01f, INF, a, b, c, &h));
    CHECK_MISS(h);
    CHECK_OK(fathom_ray_triangle(&r, 4.99f, 5.01f, a, b, c, &h));
    CHECK_NEAR(h.t, 5, 1e-6);
}

/* ---- bad input ---------------------------------------------------------------------------------- */

static void test_bad_input(void) {
    fathom_obb o = make_obb(v3(0, 0, 0), v3(2, 4, 6), q4(0, 0, 0, 1)), ob;
    fathom_ray good = t_ray(0, 5, 0, 0, -1, 0), zero = t_ray(0, 5, 0, 0, 0, 0), nan_o = t_ray(NAN, 5, 0, 0, -1, 0),
               inf_d = t_ray(0, 5, 0, 0, -INFINITY, 0);
    fathom_vec3 a = {0, 0, 0}, b = {1, 0, 0}, c = {0, 1, 0}, up = {0, 1, 0};
    fathom_hit h;
    fathom_box_hit bh;

    check_section("bad input: rays and ranges");
    t_fill(&h, sizeof h);
    t_fill(&bh, sizeof bh);
    CHECK_STATUS(fathom_ray_plane(&zero, 0, INF, a, up, &h), FATHOM_ERR_DEGENERATE);
    CHECK_ERROR_MENTIONS("fathom_ray_plane");
    CHECK_ERROR_MENTIONS("direction");
    CHECK_STATUS(fathom_ray_floor(&zero, 0, INF, 0, &h), FATHOM_ERR_DEGENERATE);
    CHECK_STATUS(fathom_ray_sphere(&zero, 0, INF, a, 1, &h), FATHOM_ERR_DEGENERATE);
    CHECK_STATUS(fathom_ray_obb(&zero, 0, INF, &o, &bh), FATHOM_ERR_DEGENERATE);
    CHECK_STATUS(fathom_ray_triangle(&zero, 0, INF, a, b, c, &h), FATHOM_ERR_DEGENERATE);
    CHECK_STATUS(fathom_ray_plane(&nan_o, 0, INF, a, up, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("origin");
    CHECK_STATUS(fathom_ray_floor(&nan_o, 0, INF, 0, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_sphere(&nan_o, 0, INF, a, 1, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_obb(&nan_o, 0, INF, &o, &bh), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_triangle(&nan_o, 0, INF, a, b, c, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_plane(&inf_d, 0, INF, a, up, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("direction");
    CHECK_STATUS(fathom_ray_triangle(&inf_d, 0, INF, a, b, c, &h), FATHOM_ERR_NOT_FINITE);
    /* tmin > tmax, tmin < 0, NaN range ends. */
    CHECK_STATUS(fathom_ray_plane(&good, 2, 1, a, up, &h), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("tmin");
    CHECK_STATUS(fathom_ray_floor(&good, 2, 1, 0, &h), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_ray_sphere(&good, 2, 1, a, 1, &h), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_ray_obb(&good, 2, 1, &o, &bh), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_ray_triangle(&good, 2, 1, a, b, c, &h), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_ray_plane(&good, -1, 1, a, up, &h), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("tmin");
    CHECK_STATUS(fathom_ray_triangle(&good, -0.5f, INF, a, b, c, &h), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_ray_obb(&good, -0.5f, INF, &o, &bh), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_ray_plane(&good, (float)NAN, INF, a, up, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_plane(&good, 0, (float)NAN, a, up, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("tmax");
    CHECK_STATUS(fathom_ray_sphere(&good, 0, (float)NAN, a, 1, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_plane(&good, -INF, INF, a, up, &h), FATHOM_ERR_NOT_FINITE); /* only tmax may be infinite */
    CHECK_STATUS(fathom_ray_plane(&good, INF, INF, a, up, &h), FATHOM_ERR_NOT_FINITE);
    CHECK(t_untouched(&h, sizeof h));
    CHECK(t_untouched(&bh, sizeof bh));

    check_section("bad input: shapes");
    CHECK_STATUS(fathom_ray_plane(&good, 0, INF, a, v3(0, 0, 0), &h), FATHOM_ERR_DEGENERATE);
    CHECK_ERROR_MENTIONS("normal");
    CHECK_STATUS(fathom_ray_plane(&good, 0, INF, a, v3(0, (float)NAN, 0), &h), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_plane(&good, 0, INF, v3((float)INFINITY, 0, 0), up, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("point");
    CHECK_STATUS(fathom_ray_floor(&good, 0, INF, (float)NAN, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("height");
    CHECK_STATUS(fathom_ray_sphere(&good, 0, INF, a, 0, &h), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("radius");
    CHECK_STATUS(fathom_ray_sphere(&good, 0, INF, a, -1, &h), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_ray_sphere(&good, 0, INF, a, (float)NAN, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_sphere(&good, 0, INF, v3(0, (float)NAN, 0), 1, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("center");
    ob = o;
    ob.scale.y = 0;
    CHECK_STATUS(fathom_ray_obb(&good, 0, INF, &ob, &bh), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("scale");
    ob = o;
    ob.rotation = q4(0, 0, 0, 2);
    CHECK_STATUS(fathom_ray_obb(&good, 0, INF, &ob, &bh), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("rotation");
    ob = o;
    ob.center.z = (float)NAN;
    CHECK_STATUS(fathom_ray_obb(&good, 0, INF, &ob, &bh), FATHOM_ERR_NOT_FINITE);
    CHECK_STATUS(fathom_ray_triangle(&good, 0, INF, a, v3((float)NAN, 0, 0), c, &h), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("v1");
    CHECK(t_untouched(&h, sizeof h));
    CHECK(t_untouched(&bh, sizeof bh));

    check_section("bad input: NULL pointers");
    CHECK_STATUS(fathom_ray_plane(NULL, 0, INF, a, up, &h), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("ray");
    CHECK_STATUS(fathom_ray_plane(&good, 0, INF, a, up, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out");
    CHECK_STATUS(fathom_ray_floor(NULL, 0, INF, 0, &h), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ray_floor(&good, 0, INF, 0, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ray_sphere(NULL, 0, INF, a, 1, &h), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ray_sphere(&good, 0, INF, a, 1, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ray_obb(NULL, 0, INF, &o, &bh), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ray_obb(&good, 0, INF, NULL, &bh), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("obb");
    CHECK_STATUS(fathom_ray_obb(&good, 0, INF, &o, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ray_triangle(NULL, 0, INF, a, b, c, &h), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ray_triangle(&good, 0, INF, a, b, c, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK(t_untouched(&h, sizeof h));
}

int main(void) {
    test_plane();
    test_floor();
    test_sphere();
    test_obb_hand();
    test_obb_rotated();
    test_triangle();
    test_bad_input();
    return check_summary("test_casts");
}
