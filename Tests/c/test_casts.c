/* Primitive casts: fathom_ray_plane, fathom_ray_floor, fathom_ray_sphere, fathom_ray_obb and fathom_ray_triangle.
 * Hand-derived cases (every number worked out in the comments), then random cases against plain double
 * arithmetic written here: a slab test in the box frame, Moller-Trumbore for triangles. Every cast reports
 * only hits with tmin <= t <= tmax; t is in units of |direction|; a miss is NO_HIT, t = INFINITY, rest 0. */
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

    check_section("ray_sphere: random rays against the quadratic in double");
    {
        unsigned long st = 3;
        int i, bad = 0, n_hit = 0;
        for (i = 0; i < 2000; i++) {
            double o[3], d[3], cc[3], rad = 0.1 + 2 * t_rand(&st), oc[3], a, b, q, disc, t0, t1, texp = -1;
            fathom_vec3 cf;
            float tmin = (i % 4 == 0) ? (float)(3 * t_rand(&st)) : 0.0f;
            int inside_margin = 1;
            fathom_hit hh;
            cc[0] = 4 * t_rand(&st) - 2;
            cc[1] = 4 * t_rand(&st) - 2;
            cc[2] = 4 * t_rand(&st) - 2;
            cf = t_v3(cc[0], cc[1], cc[2]);
            rad = (float)rad;
            o[0] = (float)(8 * t_rand(&st) - 4);
            o[1] = (float)(8 * t_rand(&st) - 4);
            o[2] = (float)(8 * t_rand(&st) - 4);
            /* Aimed at a point within 1.3 radii of the centre: mostly hits, some misses, some from inside. */
            t_rand_in_ball(&st, 1.3 * rad, d);
            d[0] += cc[0] - o[0];
            d[1] += cc[1] - o[1];
            d[2] += cc[2] - o[2];
            t_normalize(d);
            {
                double k = 0.25 + 2 * t_rand(&st);
                d[0] = (float)(d[0] * k);
                d[1] = (float)(d[1] * k);
                d[2] = (float)(d[2] * k);
            }
            cc[0] = cf.x;
            cc[1] = cf.y;
            cc[2] = cf.z;
            t_sub(o, cc, oc);
            a = t_dot(d, d);
            b = t_dot(oc, d);
            q = t_dot(oc, oc) - rad * rad;
            disc = b * b - a * q;
            if (disc > 0) {
                t0 = (-b - sqrt(disc)) / a;
                t1 = (-b + sqrt(disc)) / a;
                if (t0 >= tmin) texp = t0;
                else if (t1 >= tmin) texp = t1;
                /* Too close to call: grazing (passing farther than 0.995 r from the centre), or a crossing
                 * within 1e-4 of tmin. */
                if (disc < 1e-2 * a * rad * rad || fabs(t0 - tmin) < 1e-4 * (1 + fabs(t0)) ||
                    fabs(t1 - tmin) < 1e-4 * (1 + fabs(t1)))
                    inside_margin = 0;
            } else if (disc > -1e-2 * a * rad * rad) {
                inside_margin = 0;
            }
            if (!inside_margin) continue;
            if (fathom_ray_sphere(&(fathom_ray){t_v3(o[0], o[1], o[2]), t_v3(d[0], d[1], d[2])}, tmin, INF, cf,
                                  (float)rad, &hh) != FATHOM_OK) {
                bad++;
                continue;
            }
            if (texp < 0) {
                if (!t_hit_is_miss(&hh) && bad++ < 3) printf("    sphere ray %d: hit at %g, expected a miss\n", i, (double)hh.t);
            } else {
                double p[3], n[3];
                n_hit++;
                p[0] = o[0] + texp * d[0];
                p[1] = o[1] + texp * d[1];
                p[2] = o[2] + texp * d[2];
                t_sub(p, cc, n);
                t_normalize(n);
                /* Float conditioning of the quadratic: X = disc / a = r^2 - (distance of the line from the
                 * centre)^2 carries an error of about 4e-7 (|oc|^2 + r^2) when computed in float; the root moves
                 * by that over 2 sqrt(X), over |d| in units of t. */
                double X = disc / a, dl = sqrt(a);
                double tol_t = 1e-4 * (1 + texp) + 4e-7 * (t_dot(oc, oc) + rad * rad) / (2 * sqrt(X)) / dl;
                double tol_n = 1e-3 + 2 * tol_t * dl / rad;
                if (hh.primitive != 0 || fabs(hh.t - texp) > tol_t || fabs(hh.normal.x - n[0]) > tol_n ||
                    fabs(hh.normal.y - n[1]) > tol_n || fabs(hh.normal.z - n[2]) > tol_n ||
                    hh.front_face != (t_dot(d, n) < 0)) {
                    if (bad++ < 3)
                        printf("    sphere ray %d: t %.7g (expected %.7g), normal (%g, %g, %g) (expected (%g, %g, %g)), "
                               "front %d\n",
                               i, (double)hh.t, texp, (double)hh.normal.x, (double)hh.normal.y, (double)hh.normal.z,
                               n[0], n[1], n[2], hh.front_face);
                }
            }
        }
        CHECK(bad == 0);
        CHECK(n_hit > 1000);
        printf("    (%d hits compared)\n", n_hit);
    }
}

/* ---- oriented boxes ------------------------------------------------------------------------------- */

static fathom_obb make_obb(fathom_vec3 c, fathom_vec3 s, const double q[4]) {
    fathom_obb o;
    o.center = c;
    o.scale = s;
    o.rotation = t_fq(q);
    return o;
}

/* Face index of local axis k (0 x, 1 y, 2 z) on side sign (-1, +1). */
static uint32_t face_of(int axis, int sign) {
    static const uint32_t neg[3] = {FATHOM_FACE_LEFT, FATHOM_FACE_BOTTOM, FATHOM_FACE_FRONT};
    static const uint32_t pos[3] = {FATHOM_FACE_RIGHT, FATHOM_FACE_TOP, FATHOM_FACE_BACK};
    return sign < 0 ? neg[axis] : pos[axis];
}

/* The slab test in double, in the box frame. Returns 0 when the line misses. Also the gaps between the
 * winning slab and the runner-up at entry and exit (a face is only well defined when the gap is not tiny). */
typedef struct {
    double t_enter, t_exit;
    int axis_enter, sign_enter, axis_exit, sign_exit;
    double gap_enter, gap_exit;
} slab_result;

static int slab(const double c[3], const double half[3], const double R[9], const double o[3], const double d[3],
                slab_result *out) {
    double Rt[9], ol[3], dl[3], oc[3];
    double nears[3], fars[3];
    int k, axis_n = -1, axis_f = -1;
    double tn = -INFINITY, tf = INFINITY;
    t_mat3_transpose(R, Rt);
    t_sub(o, c, oc);
    t_mat3_apply(Rt, oc, ol);
    t_mat3_apply(Rt, d, dl);
    for (k = 0; k < 3; k++) {
        if (dl[k] == 0) {
            if (fabs(ol[k]) > half[k]) return 0;
            nears[k] = -INFINITY;
            fars[k] = INFINITY;
            continue;
        }
        {
            double t1 = (-half[k] - ol[k]) / dl[k], t2 = (half[k] - ol[k]) / dl[k];
            nears[k] = t1 < t2 ? t1 : t2;
            fars[k] = t1 < t2 ? t2 : t1;
        }
        if (nears[k] > tn) {
            tn = nears[k];
            axis_n = k;
        }
        if (fars[k] < tf) {
            tf = fars[k];
            axis_f = k;
        }
    }
    if (tn > tf || axis_n < 0) return 0;
    out->t_enter = tn;
    out->t_exit = tf;
    out->axis_enter = axis_n;
    out->axis_exit = axis_f;
    out->sign_enter = dl[axis_n] > 0 ? -1 : 1;
    out->sign_exit = dl[axis_f] > 0 ? 1 : -1;
    out->gap_enter = INFINITY;
    out->gap_exit = INFINITY;
    for (k = 0; k < 3; k++) {
        if (k != axis_n && tn - nears[k] < out->gap_enter) out->gap_enter = tn - nears[k];
        if (k != axis_f && fars[k] - tf < out->gap_exit) out->gap_exit = fars[k] - tf;
    }
    return 1;
}

static void test_obb_hand(void) {
    const double qi[4] = {0, 0, 0, 1};
    fathom_obb o = make_obb(v3(0, 0, 0), v3(2, 4, 6), qi);
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
    double q[4], R[9];
    fathom_obb o;
    fathom_box_hit b;
    fathom_ray r;

    check_section("ray_obb: box turned 90 degrees about y");
    /* R_y(90deg) takes local +z to world +x: from (10, 0, 0) along -x the ray meets the local back face
     * (outward normal world +x) at x = sz/2 = 3, t = 7, and leaves through the front at t = 13. */
    t_quat_axis_angle(0, 1, 0, T_PI / 2, q);
    o = make_obb(v3(0, 0, 0), v3(2, 4, 6), q);
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
    t_quat_axis_angle(0, 0, 1, T_PI / 4, q);
    o = make_obb(v3(1, 2, 3), v3(2, 2, 2), q);
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

    check_section("ray_obb: random rotated boxes against the slab test in double");
    {
        unsigned long st = 17;
        int i, bad = 0, checked_faces = 0, n_inside = 0;
        for (i = 0; i < 600; i++) {
            double ax[3], c[3], half[3], tgt[3], o3[3], d[3], loc[3], k;
            slab_result e;
            fathom_vec3 sc;
            int inside = (i % 3 == 2);
            float tmin = 0;
            t_rand_dir(&st, ax);
            t_quat_axis_angle(ax[0], ax[1], ax[2], 2 * T_PI * t_rand(&st), q);
            t_quat_to_mat3(q, R);
            c[0] = (float)(4 * t_rand(&st) - 2);
            c[1] = (float)(4 * t_rand(&st) - 2);
            c[2] = (float)(4 * t_rand(&st) - 2);
            sc = t_v3(0.2 + 2 * t_rand(&st), 0.2 + 2 * t_rand(&st), 0.2 + 2 * t_rand(&st));
            half[0] = sc.x / 2.0;
            half[1] = sc.y / 2.0;
            half[2] = sc.z / 2.0;
            o = make_obb(t_v3(c[0], c[1], c[2]), sc, q);
            /* The box's rotation as the library sees it: the float quaternion, normalized. */
            {
                double qf[4] = {o.rotation.x, o.rotation.y, o.rotation.z, o.rotation.w};
                double n = sqrt(qf[0] * qf[0] + qf[1] * qf[1] + qf[2] * qf[2] + qf[3] * qf[3]);
                qf[0] /= n;
                qf[1] /= n;
                qf[2] /= n;
                qf[3] /= n;
                t_quat_to_mat3(qf, R);
            }
            /* A target inside the box (local coordinates within 90% of the half extents). */
            loc[0] = (2 * t_rand(&st) - 1) * 0.9 * half[0];
            loc[1] = (2 * t_rand(&st) - 1) * 0.9 * half[1];
            loc[2] = (2 * t_rand(&st) - 1) * 0.9 * half[2];
            t_mat3_apply(R, loc, tgt);
            tgt[0] += c[0];
            tgt[1] += c[1];
            tgt[2] += c[2];
            if (inside) {
                o3[0] = (float)tgt[0];
                o3[1] = (float)tgt[1];
                o3[2] = (float)tgt[2];
                t_rand_dir(&st, d);
            } else {
                double dir[3];
                t_rand_dir(&st, dir);
                o3[0] = (float)(tgt[0] + 6 * dir[0]);
                o3[1] = (float)(tgt[1] + 6 * dir[1]);
                o3[2] = (float)(tgt[2] + 6 * dir[2]);
                t_sub(tgt, o3, d);
            }
            k = 0.3 + 3 * t_rand(&st);
            d[0] = (float)(d[0] * k);
            d[1] = (float)(d[1] * k);
            d[2] = (float)(d[2] * k);
            if (!slab(c, half, R, o3, d, &e)) {
                bad++;
                printf("    (test bug: the slab test misses ray %d)\n", i);
                continue;
            }
            r = t_ray(o3[0], o3[1], o3[2], d[0], d[1], d[2]);
            if (fathom_ray_obb(&r, tmin, INF, &o, &b) != FATHOM_OK) {
                if (bad++ < 3) printf("    ray %d: %s\n", i, fathom_last_error());
                continue;
            }
            {
                double tol_e = 1e-4 * (1 + fabs(e.t_enter)), tol_x = 1e-4 * (1 + fabs(e.t_exit));
                int ok = fabs(b.t_enter - e.t_enter) <= tol_e && fabs(b.t_exit - e.t_exit) <= tol_x;
                int exp_inside = e.t_enter <= 0 && e.t_exit >= 0;
                double tt = exp_inside ? e.t_exit : e.t_enter, nl[3] = {0, 0, 0}, nw[3];
                int axis = exp_inside ? e.axis_exit : e.axis_enter, sign = exp_inside ? e.sign_exit : e.sign_enter;
                double gap = exp_inside ? e.gap_exit : e.gap_enter;
                ok = ok && b.origin_inside == exp_inside && fabs(b.hit.t - tt) <= 1e-4 * (1 + tt) &&
                     b.hit.front_face == (exp_inside ? 0 : 1);
                if (exp_inside) n_inside++;
                if (gap > 1e-3 && e.gap_enter > 1e-3 && e.gap_exit > 1e-3) {
                    checked_faces++;
                    nl[axis] = sign;
                    t_mat3_apply(R, nl, nw);
                    ok = ok && b.face_enter == face_of(e.axis_enter, e.sign_enter) &&
                         b.face_exit == face_of(e.axis_exit, e.sign_exit) && b.hit.primitive == face_of(axis, sign) &&
                         fabs(b.hit.normal.x - nw[0]) < 1e-4 && fabs(b.hit.normal.y - nw[1]) < 1e-4 &&
                         fabs(b.hit.normal.z - nw[2]) < 1e-4;
                }
                ok = ok && fabs(b.hit.point.x - (o3[0] + tt * d[0])) < 1e-4 * (1 + fabs(tt)) &&
                     fabs(b.hit.point.y - (o3[1] + tt * d[1])) < 1e-4 * (1 + fabs(tt)) &&
                     fabs(b.hit.point.z - (o3[2] + tt * d[2])) < 1e-4 * (1 + fabs(tt));
                if (!ok && bad++ < 5)
                    printf("    ray %d: t_enter %.7g (%.7g), t_exit %.7g (%.7g), faces %u/%u (%u/%u), inside %d (%d), "
                           "hit t %.7g face %u normal (%g, %g, %g)\n",
                           i, (double)b.t_enter, e.t_enter, (double)b.t_exit, e.t_exit, b.face_enter, b.face_exit,
                           face_of(e.axis_enter, e.sign_enter), face_of(e.axis_exit, e.sign_exit), b.origin_inside,
                           exp_inside, (double)b.hit.t, b.hit.primitive, (double)b.hit.normal.x,
                           (double)b.hit.normal.y, (double)b.hit.normal.z);
            }
        }
        CHECK(bad == 0);
        CHECK(checked_faces > 400);
        CHECK(n_inside > 150);
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

    check_section("ray_triangle: random triangles against Moller-Trumbore in double");
    {
        unsigned long st = 99;
        int i, bad = 0, n_hit = 0, n_miss = 0;
        for (i = 0; i < 5000; i++) {
            double A[3], B[3], C[3], o[3], d[3], tgt[3], bu, bv, t, u, v, m, n[3], kk;
            float tmin = 0, tmax = INF;
            int k;
            fathom_hit hh;
            for (k = 0; k < 3; k++) {
                A[k] = (float)(4 * t_rand(&st) - 2);
                B[k] = (float)(4 * t_rand(&st) - 2);
                C[k] = (float)(4 * t_rand(&st) - 2);
            }
            /* Aim at barycentrics in [-0.2, 1]: about a third inside. */
            bu = -0.2 + 1.2 * t_rand(&st);
            bv = -0.2 + 1.2 * t_rand(&st);
            for (k = 0; k < 3; k++) tgt[k] = (1 - bu - bv) * A[k] + bu * B[k] + bv * C[k];
            t_rand_dir(&st, d);
            kk = 1 + 4 * t_rand(&st);
            for (k = 0; k < 3; k++) o[k] = (float)(tgt[k] - kk * d[k]);
            kk = 0.2 + 3 * t_rand(&st);
            for (k = 0; k < 3; k++) d[k] = (float)(d[k] * kk);
            if (i % 5 == 1) tmax = (float)(2 * t_rand(&st));
            if (i % 5 == 2) tmin = (float)(2 * t_rand(&st));
            if (t_tri_normal(A, B, C, n) < 1e-3) continue; /* skip slivers */
            if (!t_tri_line(o, d, A, B, C, &t, &u, &v, &m)) continue;
            if (fabs(m) < 1e-4 || fabs(t - tmin) < 1e-4 * (1 + t) || fabs(t - tmax) < 1e-4 * (1 + t)) continue;
            if (fathom_ray_triangle(&(fathom_ray){t_v3(o[0], o[1], o[2]), t_v3(d[0], d[1], d[2])}, tmin, tmax,
                                    t_v3(A[0], A[1], A[2]), t_v3(B[0], B[1], B[2]), t_v3(C[0], C[1], C[2]),
                                    &hh) != FATHOM_OK) {
                bad++;
                continue;
            }
            if (m > 0 && t >= tmin && t <= tmax) {
                int ok;
                n_hit++;
                ok = fabs(hh.t - t) <= 1e-4 * (1 + t) && fabs(hh.u - u) < 1e-4 && fabs(hh.v - v) < 1e-4 &&
                     fabs(hh.normal.x - n[0]) < 1e-5 && fabs(hh.normal.y - n[1]) < 1e-5 &&
                     fabs(hh.normal.z - n[2]) < 1e-5 && hh.front_face == (t_dot(d, n) < 0) && hh.primitive == 0 &&
                     fabs(hh.point.x - (o[0] + t * d[0])) < 1e-4 && fabs(hh.point.y - (o[1] + t * d[1])) < 1e-4 &&
                     fabs(hh.point.z - (o[2] + t * d[2])) < 1e-4;
                if (!ok && bad++ < 3)
                    printf("    triangle %d: t %.7g (%.7g) u %.6g (%.6g) v %.6g (%.6g) front %d\n", i, (double)hh.t, t,
                           (double)hh.u, u, (double)hh.v, v, hh.front_face);
            } else {
                n_miss++;
                if (!t_hit_is_miss(&hh) && bad++ < 3)
                    printf("    triangle %d: hit at t %.7g, expected a miss (t %.7g, margin %.3g, range [%g, %g])\n", i,
                           (double)hh.t, t, m, (double)tmin, (double)tmax);
            }
        }
        CHECK(bad == 0);
        CHECK(n_hit > 500 && n_miss > 500);
        printf("    (%d hits, %d misses compared)\n", n_hit, n_miss);
    }
}

/* ---- bad input ---------------------------------------------------------------------------------- */

static void test_bad_input(void) {
    const double qi[4] = {0, 0, 0, 1};
    fathom_obb o = make_obb(v3(0, 0, 0), v3(2, 4, 6), qi), ob;
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
