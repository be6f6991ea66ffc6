/*
 * testmath.h — plain double-precision arithmetic the tests use to derive expected values independently of
 * the library: rotation matrices written out from their definitions, the Hamilton product, 4x4 products.
 * Matrices are column-major like the library's: element (r, c) of a 3x3 at m[c*3 + r], of a 4x4 at m[c*4 + r].
 */
#ifndef FATHOM_TEST_MATH_H
#define FATHOM_TEST_MATH_H

#include <math.h>
#include <string.h>

#include "fathom.h"

#define T_PI 3.14159265358979323846

/* R_y(a) * (x, y, z), written from box.md: x' = cos a x + sin a z, z' = -sin a x + cos a z. */
/* Constructors for the header's small value structs, shared by every test program. */
static inline fathom_vec3 v3(float x, float y, float z) {
    fathom_vec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static inline fathom_quat q4(float x, float y, float z, float w) {
    fathom_quat q;
    q.x = x;
    q.y = y;
    q.z = z;
    q.w = w;
    return q;
}

static inline void t_ry_apply(double a, const double v[3], double out[3]) {
    double c = cos(a), s = sin(a);
    double x = c * v[0] + s * v[2];
    double z = -s * v[0] + c * v[2];
    out[0] = x;
    out[1] = v[1];
    out[2] = z;
}

/* 3x3 rotation matrices (column-major) about the coordinate axes, right-hand rule. */
static inline void t_rot_x(double a, double m[9]) {
    double c = cos(a), s = sin(a);
    double r[9] = {1, 0, 0, 0, c, s, 0, -s, c};
    memcpy(m, r, sizeof r);
}
static inline void t_rot_y(double a, double m[9]) {
    double c = cos(a), s = sin(a);
    double r[9] = {c, 0, -s, 0, 1, 0, s, 0, c};
    memcpy(m, r, sizeof r);
}
static inline void t_rot_z(double a, double m[9]) {
    double c = cos(a), s = sin(a);
    double r[9] = {c, s, 0, -s, c, 0, 0, 0, 1};
    memcpy(m, r, sizeof r);
}

/* out = a * b for 3x3 column-major matrices (out may not alias). */
static inline void t_mat3_mul(const double a[9], const double b[9], double out[9]) {
    int r, c, k;
    for (c = 0; c < 3; c++)
        for (r = 0; r < 3; r++) {
            double s = 0;
            for (k = 0; k < 3; k++) s += a[k * 3 + r] * b[c * 3 + k];
            out[c * 3 + r] = s;
        }
}

static inline void t_mat3_apply(const double m[9], const double v[3], double out[3]) {
    int r;
    for (r = 0; r < 3; r++) out[r] = m[r] * v[0] + m[3 + r] * v[1] + m[6 + r] * v[2];
}

static inline void t_mat3_transpose(const double m[9], double out[9]) {
    int r, c;
    for (c = 0; c < 3; c++)
        for (r = 0; r < 3; r++) out[r * 3 + c] = m[c * 3 + r];
}

/* out = a * b for 4x4 column-major matrices (out may not alias). */
static inline void t_mat4_mul(const double a[16], const double b[16], double out[16]) {
    int r, c, k;
    for (c = 0; c < 4; c++)
        for (r = 0; r < 4; r++) {
            double s = 0;
            for (k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = s;
        }
}

/* A 4x4 from a 3x3 rotation and a translation. */
static inline void t_mat4_from(const double r[9], double tx, double ty, double tz, double out[16]) {
    int i, j;
    for (i = 0; i < 16; i++) out[i] = 0;
    for (j = 0; j < 3; j++)
        for (i = 0; i < 3; i++) out[j * 4 + i] = r[j * 3 + i];
    out[12] = tx;
    out[13] = ty;
    out[14] = tz;
    out[15] = 1;
}

static inline fathom_pose t_pose_from_mat4(const double m[16]) {
    fathom_pose p;
    int i;
    for (i = 0; i < 16; i++) p.m[i] = (float)m[i];
    return p;
}

static inline fathom_pose t_pose(const double r[9], double tx, double ty, double tz) {
    double m[16];
    t_mat4_from(r, tx, ty, tz, m);
    return t_pose_from_mat4(m);
}

/* Quaternions as double[4] = (x, y, z, w). */
static inline void t_quat_axis_angle(double ax, double ay, double az, double angle, double q[4]) {
    double n = sqrt(ax * ax + ay * ay + az * az), s = sin(angle / 2);
    q[0] = ax / n * s;
    q[1] = ay / n * s;
    q[2] = az / n * s;
    q[3] = cos(angle / 2);
}

/* Hamilton product a * b: (a.w b.v + b.w a.v + a.v x b.v, a.w b.w - a.v . b.v). */
static inline void t_quat_mul(const double a[4], const double b[4], double out[4]) {
    double x = a[3] * b[0] + b[3] * a[0] + (a[1] * b[2] - a[2] * b[1]);
    double y = a[3] * b[1] + b[3] * a[1] + (a[2] * b[0] - a[0] * b[2]);
    double z = a[3] * b[2] + b[3] * a[2] + (a[0] * b[1] - a[1] * b[0]);
    double w = a[3] * b[3] - (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

/* The rotation matrix of a unit quaternion (the textbook formula), column-major. */
static inline void t_quat_to_mat3(const double q[4], double m[9]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    /* column 0 */
    m[0] = 1 - 2 * (y * y + z * z);
    m[1] = 2 * (x * y + z * w);
    m[2] = 2 * (x * z - y * w);
    /* column 1 */
    m[3] = 2 * (x * y - z * w);
    m[4] = 1 - 2 * (x * x + z * z);
    m[5] = 2 * (y * z + x * w);
    /* column 2 */
    m[6] = 2 * (x * z + y * w);
    m[7] = 2 * (y * z - x * w);
    m[8] = 1 - 2 * (x * x + y * y);
}

static inline fathom_quat t_fq(const double q[4]) {
    fathom_quat r;
    r.x = (float)q[0];
    r.y = (float)q[1];
    r.z = (float)q[2];
    r.w = (float)q[3];
    return r;
}

static inline fathom_vec3 t_v3(double x, double y, double z) {
    fathom_vec3 v;
    v.x = (float)x;
    v.y = (float)y;
    v.z = (float)z;
    return v;
}

static inline void t_cross(const double a[3], const double b[3], double out[3]) {
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline double t_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline void t_normalize(double v[3]) {
    double n = sqrt(t_dot(v, v));
    v[0] /= n;
    v[1] /= n;
    v[2] /= n;
}

/* A small deterministic generator (numbers in [0, 1)), so runs are reproducible. */
static inline double t_rand(unsigned long *state) {
    *state = (*state * 6364136223846793005UL + 1442695040888963407UL) & 0xffffffffffffffffUL;
    return (double)((*state >> 11) & ((1UL << 53) - 1)) / 9007199254740992.0;
}

#endif /* FATHOM_TEST_MATH_H */
