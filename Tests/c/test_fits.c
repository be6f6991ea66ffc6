/* Least-squares fits across the C ABI (fathom.h, "Least-squares fits"): 2D lines (ordinary and total), 3D lines,
 * planes, and their RANSAC variants, on point sets whose exact answer is known by construction: points built as
 * centre + t_k d + s_k h n with sum s = sum t s = 0 (and the same for every pair of offset patterns), so the
 * covariance is diagonal in the basis (d, n, ...), the exact answer is d (or n), the centroid is the centre, and
 * the residuals are |s_k| h. Every field of fathom_line_fit and fathom_plane_fit, the sign convention, strides
 * (records with unread padding), float points, inlier masks, reproducible seeds; then degenerate input
 * (DEGENERATE), NaN (NOT_FINITE), count 0 (OUT_OF_RANGE), bad arguments. The same constructions are in
 * Tests/FathomCoreTests/DepthFitTests.swift ("Line and plane fits"). */
#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Zero-sum, mutually orthogonal patterns over 8 points (any two have a zero dot product). */
static const double PT[8] = {-3, -1, 1, 3, -3, -1, 1, 3};
static const double PA[8] = {1, -1, -1, 1, -1, 1, 1, -1};
static const double PB[8] = {1, 1, -1, -1, -1, -1, 1, 1};

#define CHECK_D3(v, x, y, z, tol)          \
    do {                                    \
        CHECK_NEAR((v)[0], (x), (tol));     \
        CHECK_NEAR((v)[1], (y), (tol));     \
        CHECK_NEAR((v)[2], (z), (tol));     \
    } while (0)

/* The sign convention: the largest-magnitude component positive. */
static void canonical(double v[3]) {
    int i, m = 0;
    for (i = 1; i < 3; i++)
        if (fabs(v[i]) > fabs(v[m])) m = i;
    if (v[m] < 0) {
        v[0] = -v[0];
        v[1] = -v[1];
        v[2] = -v[2];
    }
}

static void test_line2(void) {
    double p[8], q[32], s[64];
    fathom_line_fit f;
    int k;
    check_section("fit_line2 ordinary: y = 2x + 1 plus offsets orthogonal to 1 and x");
    {
        /* x = 0..3 (centred -1.5 .. 1.5), offsets e = (+0.1, -0.1, -0.1, +0.1): sum e = 0, sum x e = 0, so the
         * normal equations give slope 2 and intercept 1 exactly; vertical residuals 0.1 each. */
        const double e[4] = {0.1, -0.1, -0.1, 0.1};
        for (k = 0; k < 4; k++) {
            p[2 * k] = k;
            p[2 * k + 1] = 2 * k + 1 + e[k];
        }
        CHECK_OK(fathom_fit_line2(p, 4, 0, FATHOM_FIT_ORDINARY, &f));
        CHECK_D3(f.point, 1.5, 4, 0, 1e-12);
        CHECK_D3(f.direction, 1 / sqrt(5), 2 / sqrt(5), 0, 1e-12);
        CHECK_NEAR(f.rms, 0.1, 1e-12);
        CHECK_NEAR(f.max_residual, 0.1, 1e-12);
        /* projections (5 xc + 2 e) / sqrt 5: min at x = 0 (-7.5 + 0.2), max at x = 3 (7.5 + 0.2) */
        CHECK_NEAR(f.t_min, -7.3 / sqrt(5), 1e-12);
        CHECK_NEAR(f.t_max, 7.7 / sqrt(5), 1e-12);
        CHECK(f.used == 4);
    }
    check_section("fit_line2 total: symmetric perpendicular offsets (exact answer)");
    {
        /* d = (0.6, 0.8), n = (-0.8, 0.6), centre (2, -1), h = 0.05: t = -3, -1, 1, 3; s = +1, -1, -1, +1. */
        const double t[4] = {-3, -1, 1, 3}, sg[4] = {1, -1, -1, 1}, h = 0.05;
        for (k = 0; k < 4; k++) {
            p[2 * k] = 2 + 0.6 * t[k] - 0.8 * sg[k] * h;
            p[2 * k + 1] = -1 + 0.8 * t[k] + 0.6 * sg[k] * h;
        }
        CHECK_OK(fathom_fit_line2(p, 4, 0, FATHOM_FIT_TOTAL, &f));
        CHECK_D3(f.point, 2, -1, 0, 1e-12);
        CHECK_D3(f.direction, 0.6, 0.8, 0, 1e-12);
        CHECK_NEAR(f.rms, h, 1e-12);
        CHECK_NEAR(f.max_residual, h, 1e-12);
        CHECK_NEAR(f.t_min, -3, 1e-12);
        CHECK_NEAR(f.t_max, 3, 1e-12);
        /* The same points reversed and negated direction: the sign convention keeps (0.6, 0.8). */
        for (k = 0; k < 4; k++) {
            q[2 * k] = p[2 * (3 - k)];
            q[2 * k + 1] = p[2 * (3 - k) + 1];
        }
        CHECK_OK(fathom_fit_line2(q, 4, 0, FATHOM_FIT_TOTAL, &f));
        CHECK_D3(f.direction, 0.6, 0.8, 0, 1e-12);
        /* A line mostly along -x: direction (-0.96, 0.28) becomes (0.96, -0.28). */
        for (k = 0; k < 4; k++) {
            q[2 * k] = -0.96 * t[k] - 0.28 * sg[k] * h;
            q[2 * k + 1] = 0.28 * t[k] - 0.96 * sg[k] * h;
        }
        CHECK_OK(fathom_fit_line2(q, 4, 0, FATHOM_FIT_TOTAL, &f));
        CHECK_D3(f.direction, 0.96, -0.28, 0, 1e-12);
        CHECK_NEAR(f.rms, h, 1e-12);
    }
    check_section("fit_line2: strides (points inside larger records)");
    {
        /* records of 4 doubles: x, y, garbage (NaN: must not be read), garbage */
        double rec[32];
        fathom_line_fit g;
        for (k = 0; k < 8; k++) {
            rec[4 * k] = 0.3 * k;
            rec[4 * k + 1] = 1 - 0.2 * k + 0.01 * PA[k];
            rec[4 * k + 2] = NAN;
            rec[4 * k + 3] = 1e300;
            p[0] = 0;
        }
        for (k = 0; k < 8; k++) {
            s[2 * k] = rec[4 * k];
            s[2 * k + 1] = rec[4 * k + 1];
        }
        CHECK_OK(fathom_fit_line2(rec, 8, 32, FATHOM_FIT_TOTAL, &f));
        CHECK_OK(fathom_fit_line2(s, 8, 16, FATHOM_FIT_TOTAL, &g));
        CHECK(memcmp(&f, &g, sizeof f) == 0);
        CHECK_OK(fathom_fit_line2(rec, 8, 32, FATHOM_FIT_ORDINARY, &f));
        CHECK_OK(fathom_fit_line2(s, 8, 0, FATHOM_FIT_ORDINARY, &g));
        CHECK(memcmp(&f, &g, sizeof f) == 0);
    }
}

static void test_line3_plane(void) {
    /* An orthonormal basis: d = (2, -1, 2) / 3, e1 = (1, 2, 0) / sqrt 5 (d . e1 = 0), e2 = d x e1 = (-4, 2, 5) / (3 sqrt 5)
     * (|(-4, 2, 5)| = sqrt 45 = 3 sqrt 5). */
    const double r5 = sqrt(5.0);
    const double d[3] = {2.0 / 3, -1.0 / 3, 2.0 / 3}, e1[3] = {1 / r5, 2 / r5, 0},
                 e2[3] = {-4 / (3 * r5), 2 / (3 * r5), 5 / (3 * r5)};
    double p[24], c[3] = {0.5, -2, 3.25};
    fathom_line_fit f;
    fathom_plane_fit pl;
    int k, i;
    check_section("fit_line3: centre + t d + h (a e1 + b e2) with orthogonal patterns (exact answer)");
    {
        const double h = 0.02;
        double want[3] = {d[0], d[1], d[2]};
        for (k = 0; k < 8; k++)
            for (i = 0; i < 3; i++) p[3 * k + i] = c[i] + PT[k] * d[i] + h * (PA[k] * e1[i] + PB[k] * e2[i]);
        canonical(want);
        CHECK_OK(fathom_fit_line3(p, 8, 0, &f));
        CHECK_D3(f.point, c[0], c[1], c[2], 1e-12);
        CHECK_D3(f.direction, want[0], want[1], want[2], 1e-12);
        CHECK_NEAR(f.rms, h * sqrt(2), 1e-12);
        CHECK_NEAR(f.max_residual, h * sqrt(2), 1e-12);
        /* t along the canonical direction: +-3 */
        CHECK_NEAR(f.t_min, -3, 1e-12);
        CHECK_NEAR(f.t_max, 3, 1e-12);
        CHECK(f.used == 8);
        /* Far from the origin (1e4 m): the answer keeps its precision. */
        for (k = 0; k < 8; k++)
            for (i = 0; i < 3; i++) p[3 * k + i] += 1e4;
        CHECK_OK(fathom_fit_line3(p, 8, 0, &f));
        CHECK_D3(f.point, c[0] + 1e4, c[1] + 1e4, c[2] + 1e4, 1e-9);
        CHECK_D3(f.direction, want[0], want[1], want[2], 1e-9);
        CHECK_NEAR(f.rms, h * sqrt(2), 1e-9);
    }
    check_section("fit_line3: two points, and a stride");
    {
        double two[6] = {1, 2, 3, 1, 2, 1}; /* along -z: direction (0, 0, 1) after the sign rule */
        double rec[8 * 5];
        fathom_line_fit g;
        CHECK_OK(fathom_fit_line3(two, 2, 0, &f));
        CHECK_D3(f.point, 1, 2, 2, 1e-15);
        CHECK_D3(f.direction, 0, 0, 1, 1e-15);
        CHECK_NEAR(f.rms, 0, 1e-15);
        CHECK_NEAR(f.t_min, -1, 1e-15);
        CHECK_NEAR(f.t_max, 1, 1e-15);
        for (k = 0; k < 8; k++)
            for (i = 0; i < 3; i++) p[3 * k + i] = c[i] + PT[k] * d[i] + 0.01 * (PA[k] * e1[i] + PB[k] * e2[i]);
        for (k = 0; k < 8; k++) {
            for (i = 0; i < 3; i++) rec[5 * k + i] = p[3 * k + i];
            rec[5 * k + 3] = NAN;
            rec[5 * k + 4] = -INFINITY;
        }
        CHECK_OK(fathom_fit_line3(rec, 8, 40, &f));
        CHECK_OK(fathom_fit_line3(p, 8, 24, &g));
        CHECK(memcmp(&f, &g, sizeof f) == 0);
    }
    check_section("fit_plane: centre + a u + b v + h s n with orthogonal patterns (exact answer)");
    {
        /* in-plane u = e1 (spread 0.1 PT), v = e2 (spread 0.3 PB), normal d with offsets h PA */
        const double h = 0.005;
        double want[3] = {d[0], d[1], d[2]};
        for (k = 0; k < 8; k++)
            for (i = 0; i < 3; i++) p[3 * k + i] = c[i] + 0.1 * PT[k] * e1[i] + 0.3 * PB[k] * e2[i] + h * PA[k] * d[i];
        canonical(want);
        CHECK_OK(fathom_fit_plane(p, 8, 0, &pl));
        CHECK_D3(pl.point, c[0], c[1], c[2], 1e-12);
        CHECK_D3(pl.normal, want[0], want[1], want[2], 1e-10);
        CHECK_NEAR(pl.rms, h, 1e-12);
        CHECK_NEAR(pl.max_residual, h, 1e-12);
        CHECK(pl.used == 8);
        /* three points: the plane through them, rms 0; normal of (0,0,1), (1,0,1), (0,1,1) is (0, 0, 1) */
        {
            double tri[9] = {0, 0, 1, 1, 0, 1, 0, 1, 1};
            CHECK_OK(fathom_fit_plane(tri, 3, 0, &pl));
            CHECK_D3(pl.normal, 0, 0, 1, 1e-12);
            CHECK_D3(pl.point, 1.0 / 3, 1.0 / 3, 1, 1e-12);
            CHECK_NEAR(pl.rms, 0, 1e-12);
        }
        /* z = 0.2 x - 0.1 y + 1 on a 3x3 grid: normal (-0.2, 0.1, 1) / |.|, rms 0 */
        {
            double g[27], nn = sqrt(0.04 + 0.01 + 1);
            for (k = 0; k < 9; k++) {
                g[3 * k] = k % 3;
                g[3 * k + 1] = k / 3;
                g[3 * k + 2] = 0.2 * g[3 * k] - 0.1 * g[3 * k + 1] + 1;
            }
            CHECK_OK(fathom_fit_plane(g, 9, 0, &pl));
            CHECK_D3(pl.normal, -0.2 / nn, 0.1 / nn, 1 / nn, 1e-12);
            CHECK_D3(pl.point, 1, 1, 1.1, 1e-12);
            CHECK_NEAR(pl.rms, 0, 1e-12);
        }
    }
}

static void test_ransac(void) {
    double pts[3 * 120];
    fathom_ransac_options o;
    fathom_line_fit f, g;
    fathom_plane_fit pl, pl2;
    unsigned long st = 12345;
    int k;
    check_section("fit_line_ransac 2D: 40 points on y = 0.5 x - 1, 20 far outliers");
    for (k = 0; k < 40; k++) {
        pts[2 * k] = 0.1 * k;
        pts[2 * k + 1] = 0.5 * pts[2 * k] - 1;
    }
    for (k = 40; k < 60; k++) {
        double x = 4 * t_rand(&st), off = 0.5 + 2 * t_rand(&st); /* at least 0.5 off the line vertically */
        pts[2 * k] = x;
        pts[2 * k + 1] = 0.5 * x - 1 + (k % 2 ? off : -off);
    }
    memset(&o, 0, sizeof o);
    o.threshold = 0.01;
    o.iterations = 200;
    o.seed = 42;
    CHECK_OK(fathom_fit_line_ransac(pts, 60, 0, 2, &o, &f, NULL));
    CHECK(f.used == 40);
    {
        /* The inliers: the 40 points on the line, not the 20 at least 0.45 m from it (0.5 vertically). */
        uint8_t inliers[60];
        memset(inliers, 0xAB, sizeof inliers);
        CHECK_OK(fathom_fit_line_ransac(pts, 60, 0, 2, &o, &g, inliers));
        for (k = 0; k < 60; k++) CHECK(inliers[k] == (k < 40));
        CHECK(memcmp(&f, &g, sizeof f) == 0);
    }
    CHECK_D3(f.direction, 2 / sqrt(5), 1 / sqrt(5), 0, 1e-9);
    CHECK_D3(f.point, 1.95, 0.5 * 1.95 - 1, 0, 1e-9);
    CHECK_NEAR(f.rms, 0, 1e-9);
    CHECK_NEAR(f.t_max - f.t_min, 3.9 * sqrt(1.25), 1e-9);
    /* reproducible: the same seed gives the same bytes (other seeds finding the same line: DepthFitTests.swift) */
    CHECK_OK(fathom_fit_line_ransac(pts, 60, 0, 2, &o, &g, NULL));
    CHECK(memcmp(&f, &g, sizeof f) == 0);

    check_section("fit_line_ransac 3D: dimensions = 3 reads triples; 8 points on a line, 4 far off it");
    {
        /* Points (1, -2, 0.5) + 0.3 k (2, -1, 2) / 3 for k = 0..7 (d = (2, -1, 2) / 3 is a unit vector: 4 + 1 + 4 = 9),
         * then 4 points 1 m off the line along (1, 2, 0) / sqrt 5 (d . (1, 2, 0) = 0). The refit is the line itself:
         * direction d (its largest component, x = z = 2/3, positive), centroid at k = 3.5: (1.7, -2.35, 1.2), extent
         * 7 * 0.3 = 2.1; the mask marks the first 8. */
        const double off = 1 / sqrt(5.0);
        uint8_t inliers[12];
        for (k = 0; k < 8; k++) {
            pts[3 * k] = 1 + 0.2 * k;
            pts[3 * k + 1] = -2 - 0.1 * k;
            pts[3 * k + 2] = 0.5 + 0.2 * k;
        }
        for (k = 8; k < 12; k++) {
            double t = 0.3 * (k - 8) * 2; /* spread along the line: 0, 0.6, 1.2, 1.8 */
            pts[3 * k] = 1 + t * 2 / 3 + off;
            pts[3 * k + 1] = -2 - t / 3 + 2 * off;
            pts[3 * k + 2] = 0.5 + t * 2 / 3;
        }
        o.seed = 1;
        o.threshold = 1e-3;
        memset(inliers, 0xAB, sizeof inliers);
        CHECK_OK(fathom_fit_line_ransac(pts, 12, 0, 3, &o, &f, inliers));
        CHECK(f.used == 8);
        for (k = 0; k < 12; k++) CHECK(inliers[k] == (k < 8));
        CHECK_D3(f.direction, 2.0 / 3, -1.0 / 3, 2.0 / 3, 1e-9);
        CHECK_D3(f.point, 1.7, -2.35, 1.2, 1e-9);
        CHECK_NEAR(f.t_max - f.t_min, 2.1, 1e-9);
    }
    check_section("fit_plane_ransac: 60 points on z = 0.2 x - 0.1 y + 1, 40 outliers >= 0.3 away");
    {
        double nn = sqrt(0.04 + 0.01 + 1), nz[3] = {-0.2 / nn, 0.1 / nn, 1 / nn};
        for (k = 0; k < 60; k++) {
            double x = (k % 10) * 0.2, y = (k / 10) * 0.25;
            pts[3 * k] = x;
            pts[3 * k + 1] = y;
            pts[3 * k + 2] = 0.2 * x - 0.1 * y + 1;
        }
        for (k = 60; k < 100; k++) {
            double x = 2 * t_rand(&st), y = 1.5 * t_rand(&st);
            pts[3 * k] = x;
            pts[3 * k + 1] = y;
            pts[3 * k + 2] = 0.2 * x - 0.1 * y + 1 + (k % 2 ? 1 : -1) * (0.3 + t_rand(&st));
        }
        o.threshold = 0.01;
        o.iterations = 300;
        o.seed = 2024;
        CHECK_OK(fathom_fit_plane_ransac(pts, 100, 0, &o, &pl, NULL));
        CHECK(pl.used == 60);
        {
            /* The inliers: the 60 points on the plane, not the 40 at least 0.29 m from it. A failed call (a
             * reserved field set) writes nothing. */
            uint8_t inliers[100];
            memset(inliers, 0xAB, sizeof inliers);
            o.reserved = 1;
            EXPECT(fathom_fit_plane_ransac(pts, 100, 0, &o, &pl2, inliers), FATHOM_ERR_OUT_OF_RANGE,
                   "fathom_fit_plane_ransac", "options.reserved is reserved and must be 0, got 1", P_ANY);
            for (k = 0; k < 100; k++) CHECK(inliers[k] == 0xAB);
            o.reserved = 0;
            CHECK_OK(fathom_fit_plane_ransac(pts, 100, 0, &o, &pl2, inliers));
            for (k = 0; k < 100; k++) CHECK(inliers[k] == (k < 60));
        }
        CHECK_D3(pl.normal, nz[0], nz[1], nz[2], 1e-9);
        CHECK_D3(pl.point, 0.9, 0.625, 0.2 * 0.9 - 0.1 * 0.625 + 1, 1e-9);
        CHECK_NEAR(pl.rms, 0, 1e-9);
        CHECK_NEAR(pl.max_residual, 0, 1e-9);
        CHECK_OK(fathom_fit_plane_ransac(pts, 100, 0, &o, &pl2, NULL));
        CHECK(memcmp(&pl, &pl2, sizeof pl) == 0);
        /* One iteration from another seed may pick outliers: whatever it picks, the answer is finite, and the
         * same seed still reproduces it. */
        o.iterations = 1;
        o.seed = 99;
        if (fathom_fit_plane_ransac(pts, 100, 0, &o, &pl, NULL) == FATHOM_OK) {
            CHECK(isfinite(pl.normal[0]) && isfinite(pl.rms));
            CHECK_OK(fathom_fit_plane_ransac(pts, 100, 0, &o, &pl2, NULL));
            CHECK(memcmp(&pl, &pl2, sizeof pl) == 0);
        }
        /* Strided: records of 4 doubles */
        {
            static double rec[4 * 100];
            for (k = 0; k < 100; k++) {
                rec[4 * k] = pts[3 * k];
                rec[4 * k + 1] = pts[3 * k + 1];
                rec[4 * k + 2] = pts[3 * k + 2];
                rec[4 * k + 3] = NAN;
            }
            o.iterations = 300;
            o.seed = 2024;
            CHECK_OK(fathom_fit_plane_ransac(pts, 100, 0, &o, &pl, NULL));
            CHECK_OK(fathom_fit_plane_ransac(rec, 100, 32, &o, &pl2, NULL));
            CHECK(memcmp(&pl, &pl2, sizeof pl) == 0);
        }
    }
}

static void test_bad(void) {
    double p[24] = {0}, two[4] = {1, 2, 1, 3}, col[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    fathom_line_fit f, before;
    fathom_plane_fit pl;
    fathom_ransac_options o;
    int k;
    memset(&o, 0, sizeof o);
    o.threshold = 0.01;
    o.iterations = 10;
    check_section("fits: degenerate input");
    for (k = 0; k < 8; k++) {
        p[3 * k] = 1.5;
        p[3 * k + 1] = -2;
        p[3 * k + 2] = 7;
    }
    memset(&f, 0x33, sizeof f);
    before = f;
    EXPECT(fathom_fit_line3(p, 1, 0, &f), FATHOM_ERR_DEGENERATE, "fathom_fit_line3", NULL, P_ANY);
    EXPECT(fathom_fit_line3(p, 8, 0, &f), FATHOM_ERR_DEGENERATE, "fathom_fit_line3", NULL, "coincide");
    EXPECT(fathom_fit_line2(p, 8, 24, FATHOM_FIT_TOTAL, &f), FATHOM_ERR_DEGENERATE, "fathom_fit_line2", NULL, P_ANY);
    CHECK(memcmp(&f, &before, sizeof f) == 0);
    /* Spread 1e-12 at coordinates ~7: below 1e-9 of the largest coordinate. */
    p[0] += 1e-12;
    EXPECT(fathom_fit_line3(p, 8, 0, &f), FATHOM_ERR_DEGENERATE, "fathom_fit_line3", NULL, P_ANY);
    /* Equal x: no ordinary fit; the total fit is the vertical line. */
    EXPECT(fathom_fit_line2(two, 2, 0, FATHOM_FIT_ORDINARY, &f), FATHOM_ERR_DEGENERATE, "fathom_fit_line2", NULL,
           P_ANY);
    CHECK_OK(fathom_fit_line2(two, 2, 0, FATHOM_FIT_TOTAL, &f));
    CHECK_D3(f.direction, 0, 1, 0, 1e-15);
    EXPECT(fathom_fit_line2(two, 1, 0, FATHOM_FIT_ORDINARY, &f), FATHOM_ERR_DEGENERATE, "fathom_fit_line2", NULL, P_ANY);
    /* Planes: fewer than 3 points, coincident, collinear. */
    EXPECT(fathom_fit_plane(col, 2, 0, &pl), FATHOM_ERR_DEGENERATE, "fathom_fit_plane", NULL, P_ANY);
    EXPECT(fathom_fit_plane(p, 8, 0, &pl), FATHOM_ERR_DEGENERATE, "fathom_fit_plane", NULL, P_ANY);
    EXPECT(fathom_fit_plane(col, 4, 0, &pl), FATHOM_ERR_DEGENERATE, "fathom_fit_plane", NULL, "collinear");
    EXPECT(fathom_fit_plane_ransac(col, 4, 0, &o, &pl, NULL), FATHOM_ERR_DEGENERATE, "fathom_fit_plane_ransac", NULL, P_ANY);
    EXPECT(fathom_fit_plane_ransac(col, 2, 0, &o, &pl, NULL), FATHOM_ERR_DEGENERATE, "fathom_fit_plane_ransac", NULL, P_ANY);
    EXPECT(fathom_fit_line_ransac(p, 8, 0, 3, &o, &f, NULL), FATHOM_ERR_DEGENERATE, "fathom_fit_line_ransac", NULL, P_ANY);
    EXPECT(fathom_fit_line_ransac(p, 1, 0, 3, &o, &f, NULL), FATHOM_ERR_DEGENERATE, "fathom_fit_line_ransac", NULL, P_ANY);

    check_section("fits: NaN, count 0, strides, NULL, bad enums, bad options");
    for (k = 0; k < 12; k++) col[k] = k * 0.37 + (k % 3) * (k % 5);
    col[7] = NAN;
    EXPECT(fathom_fit_line3(col, 4, 0, &f), FATHOM_ERR_NOT_FINITE, "fathom_fit_line3", "points", P_FINITE);
    EXPECT(fathom_fit_plane(col, 4, 0, &pl), FATHOM_ERR_NOT_FINITE, "fathom_fit_plane", "points", P_FINITE);
    EXPECT(fathom_fit_line2(col, 6, 0, FATHOM_FIT_TOTAL, &f), FATHOM_ERR_NOT_FINITE, "fathom_fit_line2", "points",
           P_FINITE);
    col[7] = INFINITY;
    EXPECT(fathom_fit_plane_ransac(col, 4, 0, &o, &pl, NULL), FATHOM_ERR_NOT_FINITE, "fathom_fit_plane_ransac", "points",
           P_FINITE);
    EXPECT(fathom_fit_line_ransac(col, 6, 0, 2, &o, &f, NULL), FATHOM_ERR_NOT_FINITE, "fathom_fit_line_ransac", "points",
           P_FINITE);
    col[7] = 1;
    /* a NaN in the stride's gap is not read (checked in the stride tests); one past count is not read either */
    col[9] = NAN;
    CHECK_OK(fathom_fit_line3(col, 3, 0, &f));
    EXPECT(fathom_fit_line3(col, 0, 0, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line3", "count", P_ANY);
    EXPECT(fathom_fit_line2(col, 0, 0, 0, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line2", "count", P_ANY);
    EXPECT(fathom_fit_plane(col, 0, 0, &pl), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_plane", "count", P_ANY);
    EXPECT(fathom_fit_plane_ransac(col, 0, 0, &o, &pl, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_plane_ransac", "count",
           P_ANY);
    EXPECT(fathom_fit_line_ransac(col, 0, 0, 3, &o, &f, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line_ransac", "count",
           P_ANY);
    EXPECT(fathom_fit_line3(col, 3, 16, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line3", "stride", P_ANY);
    EXPECT(fathom_fit_line3(col, 3, 28, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line3", "stride", P_ANY);
    EXPECT(fathom_fit_line2(col, 3, 8, 1, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line2", "stride", P_ANY);
    CHECK_OK(fathom_fit_line2(col, 3, 24, 1, &f));
    EXPECT(fathom_fit_line3(col, (size_t)-1 / 16, 24, &f), FATHOM_ERR_OVERFLOW, "fathom_fit_line3", NULL, P_ANY);
    EXPECT(fathom_fit_line3(col, (size_t)-1, 0, &f), FATHOM_ERR_OVERFLOW, "fathom_fit_line3", "count", P_ANY);
    EXPECT(fathom_fit_line3((const double *)((const char *)col + 4), 3, 0, &f), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_fit_line3", NULL, "align");
    EXPECT(fathom_fit_line3(NULL, 3, 0, &f), FATHOM_ERR_NULL_POINTER, "fathom_fit_line3", "points", P_NULL);
    EXPECT(fathom_fit_line3(col, 3, 0, NULL), FATHOM_ERR_NULL_POINTER, "fathom_fit_line3", "out", P_NULL);
    EXPECT(fathom_fit_line2(col, 3, 0, 2, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line2", "method", P_ANY);
    EXPECT(fathom_fit_plane(NULL, 3, 0, &pl), FATHOM_ERR_NULL_POINTER, "fathom_fit_plane", "points", P_NULL);
    EXPECT(fathom_fit_plane(col, 3, 0, NULL), FATHOM_ERR_NULL_POINTER, "fathom_fit_plane", "out", P_NULL);
    EXPECT(fathom_fit_line_ransac(col, 3, 0, 4, &o, &f, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line_ransac",
           "dimensions", P_ANY);
    EXPECT(fathom_fit_line_ransac(col, 3, 0, 3, NULL, &f, NULL), FATHOM_ERR_NULL_POINTER, "fathom_fit_line_ransac",
           "options", P_NULL);
    EXPECT(fathom_fit_plane_ransac(col, 3, 0, &o, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_fit_plane_ransac", "out",
           P_NULL);
    o.threshold = 0;
    EXPECT(fathom_fit_plane_ransac(col, 3, 0, &o, &pl, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_plane_ransac",
           "threshold", P_ANY);
    o.threshold = NAN;
    EXPECT(fathom_fit_line_ransac(col, 3, 0, 3, &o, &f, NULL), FATHOM_ERR_NOT_FINITE, "fathom_fit_line_ransac", "threshold",
           P_FINITE);
    o.threshold = 0.1;
    o.iterations = 0;
    EXPECT(fathom_fit_plane_ransac(col, 3, 0, &o, &pl, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_plane_ransac",
           "iterations", P_ANY);
}

/* The option initializers: the header's defaults, and a zero reserved field (a braced {0.01, 500, 1} would put
 * the seed there, which the fits refuse). */
static void test_option_inits(void) {
    fathom_ransac_options o;
    fathom_batch_options b;
    check_section("fathom_ransac_options_init and fathom_batch_options_init");
    memset(&o, 0xAB, sizeof o);
    CHECK_OK(fathom_ransac_options_init(&o));
    CHECK(o.threshold == 0.01 && o.iterations == 1000 && o.reserved == 0 && o.seed == 0);
    memset(&b, 0xAB, sizeof b);
    CHECK_OK(fathom_batch_options_init(&b));
    CHECK(b.tmin == 0 && isinf(b.tmax) && b.tmax > 0 && b.threads == 0);
    EXPECT(fathom_ransac_options_init(NULL), FATHOM_ERR_NULL_POINTER, "fathom_ransac_options_init", "options", P_ANY);
    EXPECT(fathom_batch_options_init(NULL), FATHOM_ERR_NULL_POINTER, "fathom_batch_options_init", "options", P_ANY);
}

/* The f variants read float points in place and fit them as their double widening (exact): the same bytes. */
static void test_float_points(void) {
    float narrow[4 * 40];
    double wide[3 * 40];
    fathom_plane_fit a, b;
    fathom_line_fit la, lb;
    fathom_ransac_options o;
    uint8_t ia[40], ib[40];
    unsigned long st = 99;
    int k;
    check_section("fathom_fit_*f: float points (strided records of 4 floats) fit as their widened doubles");
    for (k = 0; k < 40; k++) {
        narrow[4 * k] = (float)(2 * t_rand(&st));
        narrow[4 * k + 1] = (float)(t_rand(&st));
        narrow[4 * k + 2] = (float)(0.3 * narrow[4 * k] - 0.2 * narrow[4 * k + 1] + 1 + (k % 5 == 0 ? 0.5 : 0.001 * t_rand(&st)));
        narrow[4 * k + 3] = NAN; /* never read: the fourth float of each record */
        wide[3 * k] = narrow[4 * k];
        wide[3 * k + 1] = narrow[4 * k + 1];
        wide[3 * k + 2] = narrow[4 * k + 2];
    }
    CHECK_OK(fathom_fit_planef(narrow, 40, 16, &a));
    CHECK_OK(fathom_fit_plane(wide, 40, 0, &b));
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK_OK(fathom_fit_line3f(narrow, 40, 16, &la));
    CHECK_OK(fathom_fit_line3(wide, 40, 0, &lb));
    CHECK(memcmp(&la, &lb, sizeof la) == 0);
    CHECK_OK(fathom_fit_line2f(narrow, 40, 16, FATHOM_FIT_ORDINARY, &la));
    CHECK_OK(fathom_fit_line2(wide, 40, 24, FATHOM_FIT_ORDINARY, &lb));
    CHECK(memcmp(&la, &lb, sizeof la) == 0);
    CHECK_OK(fathom_ransac_options_init(&o));
    CHECK_OK(fathom_fit_plane_ransacf(narrow, 40, 16, &o, &a, ia));
    CHECK_OK(fathom_fit_plane_ransac(wide, 40, 0, &o, &b, ib));
    CHECK(memcmp(&a, &b, sizeof a) == 0 && memcmp(ia, ib, sizeof ia) == 0);
    CHECK(a.used == 32); /* the 8 points 0.5 off the plane are out */
    CHECK_OK(fathom_fit_line_ransacf(narrow, 40, 16, 3, &o, &la, ia));
    CHECK_OK(fathom_fit_line_ransac(wide, 40, 0, 3, &o, &lb, ib));
    CHECK(memcmp(&la, &lb, sizeof la) == 0 && memcmp(ia, ib, sizeof ia) == 0);
    /* Float strides: multiples of 4, at least 12 for 3D; 4-byte alignment. */
    EXPECT(fathom_fit_planef(narrow, 40, 8, &a), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_planef", "stride", P_ANY);
    EXPECT(fathom_fit_planef(narrow, 40, 14, &a), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_planef", "stride", P_ANY);
    EXPECT(fathom_fit_planef((const float *)((const char *)narrow + 2), 4, 16, &a), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_fit_planef", "aligned", P_ANY);
    EXPECT(fathom_fit_line3f(NULL, 4, 0, &la), FATHOM_ERR_NULL_POINTER, "fathom_fit_line3f", "points", P_ANY);
}

int main(void) {
    test_option_inits();
    test_float_points();
    test_line2();
    test_line3_plane();
    test_ransac();
    test_bad();
    return check_summary("test_fits");
}
