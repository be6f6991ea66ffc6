/* Least-squares fits across the C ABI (fathom.h, "Least-squares fits"): 2D lines (ordinary and total), 3D lines,
 * planes, and their RANSAC variants, on point sets whose exact answer is known by construction: points built as
 * centre + t_k d + s_k h n with sum s = sum t s = 0 (and the same for every pair of offset patterns), so the
 * covariance is diagonal in the basis (d, n, ...), the exact answer is d (or n), the centroid is the centre, and
 * the residuals are |s_k| h. Every field of fathom_line_fit and fathom_plane_fit, the sign convention, strides
 * (records with unread padding), float points, inlier masks, reproducible seeds; then degenerate input
 * (DEGENERATE), NaN (NOT_FINITE), count 0 (OUT_OF_RANGE), bad arguments; and RANSAC's confidence: its range, the
 * first sample reaching a tiny one, the final fit being the least-squares fit of the masked points, and the
 * documented stopping rule against fits of k samples. The same constructions are in
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
    o.confidence = 1; /* every sample drawn (a zeroed struct's confidence 0 is refused) */
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
             * reserved word set) writes nothing. */
            uint8_t inliers[100];
            size_t w;
            memset(inliers, 0xAB, sizeof inliers);
            for (w = 0; w < sizeof o.reserved / sizeof o.reserved[0]; w++) {
                o.reserved[w] = 1;
                EXPECT(fathom_fit_plane_ransac(pts, 100, 0, &o, &pl2, inliers), FATHOM_ERR_OUT_OF_RANGE,
                       "fathom_fit_plane_ransac", "options.reserved", P_ANY);
                o.reserved[w] = 0;
            }
            for (k = 0; k < 100; k++) CHECK(inliers[k] == 0xAB);
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
    o.confidence = 1;
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

/* ---- RANSAC's confidence: when the search stops ---------------------------------------------------------- */

/* The mask's points, packed (3 doubles each, or 2 for dimensions 2); returns how many. */
static size_t masked(const double *p, size_t n, int dims, const uint8_t *mask, double *out) {
    size_t i, m = 0;
    int q;
    for (i = 0; i < n; i++)
        if (mask[i]) {
            for (q = 0; q < dims; q++) out[dims * m + q] = p[dims * i + q];
            m++;
        }
    return m;
}

/* Bad confidence values: NaN is NOT_FINITE; 0, -0, negative, above 1 (the next double after 1 too) OUT_OF_RANGE,
 * naming "confidence", the outputs untouched. 1 and the smallest positive double are accepted. */
static void test_confidence_values(void) {
    double pts[3 * 12];
    float ptsf[3 * 12];
    fathom_ransac_options o;
    fathom_line_fit f, fb;
    fathom_plane_fit pl, plb;
    uint8_t mask[12];
    const double out_of_range[] = {0.0, -0.0, -0.5, -1e-300, 1.5, 2, 1e300};
    size_t i;
    int k;
    check_section("ransac options: confidence must be in (0, 1] (NaN: NOT_FINITE, else OUT_OF_RANGE)");
    /* 12 points of the plane z = 1 + 0.1 x in general position (x, y from the generator); a line's RANSAC reads the
     * same numbers. */
    {
        unsigned long st = 5;
        for (k = 0; k < 12; k++) {
            pts[3 * k] = t_rand(&st);
            pts[3 * k + 1] = t_rand(&st);
            pts[3 * k + 2] = 1 + 0.1 * pts[3 * k];
            ptsf[3 * k] = (float)pts[3 * k];
            ptsf[3 * k + 1] = (float)pts[3 * k + 1];
            ptsf[3 * k + 2] = (float)pts[3 * k + 2];
        }
    }
    CHECK_OK(fathom_ransac_options_init(&o));
    memset(&f, 0x5A, sizeof f);
    memset(&pl, 0x5A, sizeof pl);
    fb = f;
    plb = pl;
    memset(mask, 0xAB, sizeof mask);
    o.confidence = NAN;
    EXPECT(fathom_fit_plane_ransac(pts, 12, 0, &o, &pl, mask), FATHOM_ERR_NOT_FINITE, "fathom_fit_plane_ransac",
           "confidence", P_FINITE);
    EXPECT(fathom_fit_line_ransac(pts, 12, 0, 3, &o, &f, mask), FATHOM_ERR_NOT_FINITE, "fathom_fit_line_ransac",
           "confidence", P_FINITE);
    EXPECT(fathom_fit_line_ransac(pts, 12, 0, 2, &o, &f, mask), FATHOM_ERR_NOT_FINITE, "fathom_fit_line_ransac",
           "confidence", P_FINITE);
    EXPECT(fathom_fit_plane_ransacf(ptsf, 12, 0, &o, &pl, mask), FATHOM_ERR_NOT_FINITE, "fathom_fit_plane_ransacf",
           "confidence", P_FINITE);
    EXPECT(fathom_fit_line_ransacf(ptsf, 12, 0, 3, &o, &f, mask), FATHOM_ERR_NOT_FINITE, "fathom_fit_line_ransacf",
           "confidence", P_FINITE);
    for (i = 0; i < sizeof out_of_range / sizeof out_of_range[0]; i++) {
        o.confidence = out_of_range[i];
        EXPECT(fathom_fit_plane_ransac(pts, 12, 0, &o, &pl, mask), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_plane_ransac",
               "confidence", P_ANY);
        EXPECT(fathom_fit_line_ransac(pts, 12, 0, 3, &o, &f, mask), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line_ransac",
               "confidence", P_ANY);
        EXPECT(fathom_fit_line_ransacf(ptsf, 12, 0, 2, &o, &f, mask), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_line_ransacf",
               "confidence", P_ANY);
    }
    o.confidence = nextafter(1.0, 2.0); /* 1 + 2^-52 */
    EXPECT(fathom_fit_plane_ransacf(ptsf, 12, 0, &o, &pl, mask), FATHOM_ERR_OUT_OF_RANGE, "fathom_fit_plane_ransacf",
           "confidence", P_ANY);
    /* Infinities: out of (0, 1], and not finite; either status, as long as the message names the confidence. */
    o.confidence = INFINITY;
    {
        fathom_status s = fathom_fit_plane_ransac(pts, 12, 0, &o, &pl, mask);
        CHECK(s == FATHOM_ERR_OUT_OF_RANGE || s == FATHOM_ERR_NOT_FINITE);
        CHECK_ERROR_MENTIONS("confidence");
        o.confidence = -INFINITY;
        s = fathom_fit_line_ransac(pts, 12, 0, 3, &o, &f, mask);
        CHECK(s == FATHOM_ERR_OUT_OF_RANGE || s == FATHOM_ERR_NOT_FINITE);
        CHECK_ERROR_MENTIONS("confidence");
    }
    CHECK(memcmp(&f, &fb, sizeof f) == 0);
    CHECK(memcmp(&pl, &plb, sizeof pl) == 0);
    for (k = 0; k < 12; k++) CHECK(mask[k] == 0xAB);
    /* The ends of the range: 1 (every sample) and the smallest positive double (stop at the first valid sample).
     * All 12 points are on the plane: used 12, the mask all ones. */
    o.confidence = 1;
    CHECK_OK(fathom_fit_plane_ransac(pts, 12, 0, &o, &pl, mask));
    CHECK(pl.used == 12);
    for (k = 0; k < 12; k++) CHECK(mask[k] == 1);
    o.confidence = nextafter(0.0, 1.0);
    memset(mask, 0xAB, sizeof mask);
    CHECK_OK(fathom_fit_plane_ransac(pts, 12, 0, &o, &pl, mask));
    CHECK(pl.used == 12);
    for (k = 0; k < 12; k++) CHECK(mask[k] == 1);
    CHECK_OK(fathom_fit_line_ransac(pts, 12, 0, 3, &o, &f, NULL));
}

/* A confidence so small that the first valid sample reaches it (1 - (1 - w^s)^1 >= 1e-12 for any sample whose own
 * s points count as inliers: w >= s / n) stops the search there: the fit and the mask are those of one iteration
 * with the same seed (confidence 1, iterations 1), whatever the seed. The points are in general position (no
 * collinear triple, no coincident pair), so the first sample is always valid. Then the exact plane with far
 * outliers under the default options: the plane, exactly the on-plane points in the mask, and the plain
 * least-squares fit of the masked points. */
static void test_confidence_first_sample(void) {
    enum { N = 40 };
    double p3[3 * N], p2[2 * N], sel[3 * N];
    fathom_ransac_options tiny, one;
    fathom_plane_fit a, b, ls;
    fathom_line_fit la, lb;
    uint8_t ma[N], mb[N];
    unsigned long st = 31;
    uint64_t seed;
    int k, plane_same = 0, line3_same = 0, line2_same = 0;
    check_section("ransac: confidence 1e-12 stops at the first sample (= 1 iteration, same seed)");
    /* 30 points within 4 mm of z = 0.3 x - 0.2 y + 1, 10 far off it; the first two coordinates also serve as 2D
     * points near the line y = 0.5 x (the last 10 off it). */
    for (k = 0; k < N; k++) {
        double x = 2 * t_rand(&st), y = 2 * t_rand(&st), noise = 0.008 * t_rand(&st) - 0.004;
        p3[3 * k] = x;
        p3[3 * k + 1] = y;
        p3[3 * k + 2] = 0.3 * x - 0.2 * y + 1 + (k < 30 ? noise : 0.5 + t_rand(&st));
        p2[2 * k] = x;
        p2[2 * k + 1] = 0.5 * x + (k < 30 ? noise : 0.5 + t_rand(&st));
    }
    CHECK_OK(fathom_ransac_options_init(&tiny));
    tiny.confidence = 1e-12;
    tiny.iterations = 1000;
    CHECK_OK(fathom_ransac_options_init(&one));
    one.confidence = 1;
    one.iterations = 1;
    for (seed = 0; seed < 16; seed++) {
        tiny.seed = one.seed = seed * 0x9E3779B97F4A7C15ULL;
        memset(ma, 0xAB, sizeof ma);
        memset(mb, 0xCD, sizeof mb);
        if (fathom_fit_plane_ransac(p3, N, 0, &tiny, &a, ma) == FATHOM_OK &&
            fathom_fit_plane_ransac(p3, N, 0, &one, &b, mb) == FATHOM_OK && memcmp(&a, &b, sizeof a) == 0 &&
            memcmp(ma, mb, sizeof ma) == 0)
            plane_same++;
        memset(ma, 0xAB, sizeof ma);
        memset(mb, 0xCD, sizeof mb);
        if (fathom_fit_line_ransac(p3, N, 0, 3, &tiny, &la, ma) == FATHOM_OK &&
            fathom_fit_line_ransac(p3, N, 0, 3, &one, &lb, mb) == FATHOM_OK && memcmp(&la, &lb, sizeof la) == 0 &&
            memcmp(ma, mb, sizeof ma) == 0)
            line3_same++;
        memset(ma, 0xAB, sizeof ma);
        memset(mb, 0xCD, sizeof mb);
        if (fathom_fit_line_ransac(p2, N, 0, 2, &tiny, &la, ma) == FATHOM_OK &&
            fathom_fit_line_ransac(p2, N, 0, 2, &one, &lb, mb) == FATHOM_OK && memcmp(&la, &lb, sizeof la) == 0 &&
            memcmp(ma, mb, sizeof ma) == 0)
            line2_same++;
    }
    CHECK(plane_same == 16);
    CHECK(line3_same == 16);
    CHECK(line2_same == 16);

    check_section("ransac: whatever refit is returned, it is the least-squares fit of the masked points");
    /* The noisy plane and line above (default options: threshold 0.01 > the 4 mm noise, outliers >= 0.5 off): the
     * fit is the plain fit (fathom_fit_plane, fathom_fit_line2 total) of the points its mask marks, byte for byte,
     * used = their number, and those are the 30 near points (the 10 others are >= 0.5 - 0.004 away along z or y,
     * which is >= 0.4 perpendicular for these slopes). */
    CHECK_OK(fathom_ransac_options_init(&tiny));
    memset(ma, 0xAB, sizeof ma);
    CHECK_OK(fathom_fit_plane_ransac(p3, N, 0, &tiny, &a, ma));
    {
        size_t m = masked(p3, N, 3, ma, sel);
        CHECK(m == 30 && a.used == 30);
        for (k = 0; k < N; k++) CHECK(ma[k] == (k < 30));
        CHECK_OK(fathom_fit_plane(sel, m, 0, &ls));
        CHECK(memcmp(&a, &ls, sizeof a) == 0);
    }
    memset(ma, 0xAB, sizeof ma);
    CHECK_OK(fathom_fit_line_ransac(p2, N, 0, 2, &tiny, &la, ma));
    {
        size_t m = masked(p2, N, 2, ma, sel);
        CHECK(m == 30 && la.used == 30);
        for (k = 0; k < N; k++) CHECK(ma[k] == (k < 30));
        CHECK_OK(fathom_fit_line2(sel, m, 0, FATHOM_FIT_TOTAL, &lb));
        CHECK(memcmp(&la, &lb, sizeof la) == 0);
    }

    check_section("ransac, default options: an exact plane (9 x 9 grid) and 20 points >= 0.3 off it");
    {
        /* Points c + a u + b v for a, b in {-0.4, -0.3, ..., 0.4} with u = (1, 2, 0) / sqrt 5, v = (-4, 2, 5) /
         * (3 sqrt 5) and n = u x v = (2, -1, 2) / 3 (the basis of test_line3_plane): centroid c (the grid is
         * symmetric), normal n (its largest component 2/3 positive), rms 0. The 20 outliers are c + in-plane offsets
         * +- (0.3 + r) n, r in [0, 1): at least 0.3 from the plane, so never within the default 0.01; a plane other
         * than the grid's meets the grid in a line and so holds fewer than 81 points: the grid's plane has the
         * most inliers. */
        const double r5 = sqrt(5.0);
        const double u[3] = {1 / r5, 2 / r5, 0}, v[3] = {-4 / (3 * r5), 2 / (3 * r5), 5 / (3 * r5)},
                     n[3] = {2.0 / 3, -1.0 / 3, 2.0 / 3}, c[3] = {0.25, -1.5, 2};
        double g[3 * 101];
        uint8_t mask[101];
        fathom_ransac_options o;
        int i, q;
        for (k = 0; k < 81; k++) {
            double aa = 0.1 * (k % 9 - 4), bb = 0.1 * (k / 9 - 4);
            for (q = 0; q < 3; q++) g[3 * k + q] = c[q] + aa * u[q] + bb * v[q];
        }
        for (k = 81; k < 101; k++) {
            double aa = t_rand(&st) - 0.5, bb = t_rand(&st) - 0.5, h = (k % 2 ? 1 : -1) * (0.3 + t_rand(&st));
            for (q = 0; q < 3; q++) g[3 * k + q] = c[q] + aa * u[q] + bb * v[q] + h * n[q];
        }
        CHECK_OK(fathom_ransac_options_init(&o));
        memset(mask, 0xAB, sizeof mask);
        CHECK_OK(fathom_fit_plane_ransac(g, 101, 0, &o, &a, mask));
        CHECK(a.used == 81);
        CHECK_D3(a.normal, n[0], n[1], n[2], 1e-12);
        CHECK_D3(a.point, c[0], c[1], c[2], 1e-12);
        CHECK_NEAR(a.rms, 0, 1e-12);
        CHECK_NEAR(a.max_residual, 0, 1e-12);
        for (i = 0; i < 101; i++) CHECK(mask[i] == (i < 81));
        CHECK_OK(fathom_fit_plane(g, 81, 0, &ls)); /* the masked points are the first 81 */
        CHECK(memcmp(&a, &ls, sizeof a) == 0);
        /* float points: the same as their widening (the grid is not exact in float, but the mask and used are) */
        {
            float gf[3 * 101];
            double gw[3 * 101];
            uint8_t maskf[101];
            for (i = 0; i < 3 * 101; i++) {
                gf[i] = (float)g[i];
                gw[i] = gf[i];
            }
            CHECK_OK(fathom_fit_plane_ransacf(gf, 101, 0, &o, &a, maskf));
            CHECK_OK(fathom_fit_plane_ransac(gw, 101, 0, &o, &b, mask));
            CHECK(memcmp(&a, &b, sizeof a) == 0 && memcmp(mask, maskf, sizeof mask) == 0);
            CHECK(a.used == 81);
            CHECK_D3(a.normal, n[0], n[1], n[2], 1e-6);
        }
    }
}

/* The stopping rule itself, "stop after k samples once 1 - (1 - w^s)^k >= confidence, w the best sample's inlier
 * fraction so far": 30 2D points, 12 on the line y = 0 (A), 5 on y = 10 + 0.37 x (B), 13 scattered, threshold 1e-3.
 * The test checks by brute force over all 435 pairs that the line through a pair of A holds exactly the 12 A
 * points, a pair of B exactly the 5, and any other pair only its own two, with no point between 0.5 and 2
 * thresholds of any of them. So a fit after k samples (confidence 1, iterations k) has used = the best sample's
 * inlier count w_k n, and the documented search with confidence c stops at the first k with
 * 1 - (1 - w_k^2)^k >= c; with iterations 1000 and confidence c it must return the k-sample fit, byte for byte. */
static void test_confidence_stopping_rule(void) {
    enum { N = 30, K = 120 };
    static const double cs[] = {0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99};
    double p[2 * N];
    unsigned long st = 7;
    int i, j, k, q, borderline = 0, odd = 0, checked = 0, agree = 0, shown = 0;
    check_section("ransac: the search stops at the first k with 1 - (1 - w^2)^k >= confidence");
    for (k = 0; k < 12; k++) {
        p[2 * k] = 0.5 * k;
        p[2 * k + 1] = 0;
    }
    for (k = 12; k < 17; k++) {
        double x = 0.7 * (k - 12) + 0.13;
        p[2 * k] = x;
        p[2 * k + 1] = 10 + 0.37 * x;
    }
    for (k = 17; k < N; k++) {
        p[2 * k] = 20 * t_rand(&st) - 10;
        p[2 * k + 1] = 3 + 4 * t_rand(&st);
    }
    /* The test's own check of its points. */
    for (i = 0; i < N; i++)
        for (j = i + 1; j < N; j++) {
            double dx = p[2 * j] - p[2 * i], dy = p[2 * j + 1] - p[2 * i + 1], len = sqrt(dx * dx + dy * dy);
            int in = 0, want = (i < 12 && j < 12) ? 12 : (i >= 12 && i < 17 && j >= 12 && j < 17) ? 5 : 2;
            for (q = 0; q < N; q++) {
                double d = fabs((p[2 * q] - p[2 * i]) * dy - (p[2 * q + 1] - p[2 * i + 1]) * dx) / len;
                if (d <= 1e-3) in++;
                if (d > 0.5e-3 && d < 2e-3) borderline++;
            }
            if (in != want) odd++;
        }
    CHECK(borderline == 0 && odd == 0);
    for (q = 0; q < 40; q++) {
        fathom_ransac_options o;
        fathom_line_fit after[K + 1], f;
        uint64_t used[K + 1];
        size_t c;
        CHECK_OK(fathom_ransac_options_init(&o));
        o.threshold = 1e-3;
        o.seed = (uint64_t)q;
        o.confidence = 1;
        for (k = 1; k <= K; k++) {
            o.iterations = (uint32_t)k;
            if (fathom_fit_line_ransac(p, N, 0, 2, &o, &after[k], NULL) != FATHOM_OK) break;
            used[k] = after[k].used;
        }
        CHECK(k == K + 1);
        if (k != K + 1) continue;
        for (c = 0; c < sizeof cs / sizeof cs[0]; c++) {
            int stop = 0, near_edge = 0;
            for (k = 1; k <= K && !stop; k++) {
                double w = (double)used[k] / N, reached = 1 - pow(1 - w * w, k);
                if (fabs(reached - cs[c]) < 1e-9) near_edge = 1;
                if (reached >= cs[c]) stop = k;
            }
            if (!stop || near_edge) continue; /* beyond the probes, or too close to call */
            o.confidence = cs[c];
            o.iterations = 1000;
            checked++;
            if (fathom_fit_line_ransac(p, N, 0, 2, &o, &f, NULL) == FATHOM_OK &&
                memcmp(&f, &after[stop], sizeof f) == 0) {
                agree++;
            } else if (shown++ < 4) {
                printf("    seed %d, confidence %g: should stop after %d samples (best %llu of %d points inliers), "
                       "a fit of %llu points instead of %llu\n",
                       q, cs[c], stop, (unsigned long long)used[stop], N, (unsigned long long)f.used,
                       (unsigned long long)used[stop]);
            }
        }
    }
    CHECK(checked >= 200);
    CHECK(agree == checked);
    printf("    (%d of %d seed and confidence pairs stop where the rule says)\n", agree, checked);
}

/* The option initializers: the header's defaults, and zero reserved words (where a later 1.x puts its settings:
 * a struct not started from its initializer may hold garbage there, which the fits refuse). */
static void test_option_inits(void) {
    fathom_ransac_options o;
    fathom_batch_options b;
    check_section("fathom_ransac_options_init and fathom_batch_options_init");
    memset(&o, 0xAB, sizeof o);
    CHECK_OK(fathom_ransac_options_init(&o));
    CHECK(o.threshold == 0.01 && o.iterations == 1000 && o.seed == 0);
    CHECK(t_all_zero(o.reserved, sizeof o.reserved));
    CHECK(o.confidence == 0.99);
    memset(&b, 0xAB, sizeof b);
    CHECK_OK(fathom_batch_options_init(&b));
    CHECK(b.tmin == 0 && isinf(b.tmax) && b.tmax > 0 && b.threads == 0);
    CHECK(t_all_zero(b.reserved, sizeof b.reserved));
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
    test_confidence_values();
    test_confidence_first_sample();
    test_confidence_stopping_rule();
    return check_summary("test_fits");
}
