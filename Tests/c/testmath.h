/*
 * testmath.h — what the C tests build their inputs with: the header's small structs, rotation matrices about
 * the coordinate axes and poses made from them, rays, a small deterministic random generator, sentinel fills,
 * the unit cube as a mesh and byte buffers for writing mesh files. It holds no reference implementation of the
 * library's geometry: that is checked once, against Double references, in Tests/FathomCoreTests; the C tests
 * check the ABI with values worked out by hand.
 * Matrices are column-major like the library's: element (r, c) of a 3x3 at m[c*3 + r], of a 4x4 at m[c*4 + r].
 */
#ifndef FATHOM_TEST_MATH_H
#define FATHOM_TEST_MATH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fathom.h"

#define T_PI 3.14159265358979323846

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

/* R_y(a) * (x, y, z), written from box.md: x' = cos a x + sin a z, z' = -sin a x + cos a z (to place cameras and
 * write manifests). */
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

/* ---- Rays, triangles, random directions ---------------------------------------------------------- */

static inline fathom_intrinsics t_intr(float fx, float fy, float cx, float cy, uint32_t w, uint32_t h) {
    fathom_intrinsics k;
    k.fx = fx;
    k.fy = fy;
    k.cx = cx;
    k.cy = cy;
    k.width = w;
    k.height = h;
    return k;
}

static inline fathom_ray t_ray(double ox, double oy, double oz, double dx, double dy, double dz) {
    fathom_ray r;
    r.origin = t_v3(ox, oy, oz);
    r.direction = t_v3(dx, dy, dz);
    return r;
}

static inline void t_sub(const double a[3], const double b[3], double out[3]) {
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

/* The unit normal of (b - a) x (c - a); zero for a degenerate triangle. Returns twice the area. (The mesh tests
 * check their own fixtures' winding with it.) */
static inline double t_tri_normal(const double a[3], const double b[3], const double c[3], double n[3]) {
    double e1[3], e2[3], len;
    t_sub(b, a, e1);
    t_sub(c, a, e2);
    t_cross(e1, e2, n);
    len = sqrt(t_dot(n, n));
    if (len > 0) {
        n[0] /= len;
        n[1] /= len;
        n[2] /= len;
    }
    return len;
}

/* A random unit vector (uniform on the sphere). */
static inline void t_rand_dir(unsigned long *st, double d[3]) {
    double z = 2 * t_rand(st) - 1, a = 2 * T_PI * t_rand(st), r = sqrt(1 - z * z);
    d[0] = r * cos(a);
    d[1] = r * sin(a);
    d[2] = z;
}

/* A random point uniform in the ball of radius `radius` about the origin. */
static inline void t_rand_in_ball(unsigned long *st, double radius, double p[3]) {
    do {
        p[0] = 2 * t_rand(st) - 1;
        p[1] = 2 * t_rand(st) - 1;
        p[2] = 2 * t_rand(st) - 1;
    } while (t_dot(p, p) > 1);
    p[0] *= radius;
    p[1] *= radius;
    p[2] *= radius;
}

/* A miss as the header defines it: primitive FATHOM_NO_HIT, t = +INFINITY, every other field 0. */
static inline int t_hit_is_miss(const fathom_hit *h) {
    return h->primitive == FATHOM_NO_HIT && isinf(h->t) && h->t > 0 && h->point.x == 0 && h->point.y == 0 &&
           h->point.z == 0 && h->normal.x == 0 && h->normal.y == 0 && h->normal.z == 0 && h->u == 0 && h->v == 0 &&
           h->classification == 0 && h->front_face == 0 && h->reserved[0] == 0 && h->reserved[1] == 0;
}

/* Stores `byte` in a bool field, as a caller's memset or memcpy would (assigning 2 to a bool stores 1): a byte
 * other than 0 or 1 in an input struct's bool is FATHOM_ERR_OUT_OF_RANGE naming the field. */
static inline void t_set_bool_byte(bool *field, unsigned char byte) { memcpy(field, &byte, 1); }

/* The byte a bool holds, read without loading it as a bool: 0 or 1 when the library wrote it, and the caller's
 * sentinel (t_set_bool_byte) when it did not. */
static inline int t_bool_byte(const bool *field) {
    unsigned char byte;
    memcpy(&byte, field, 1);
    return byte;
}

/* Every one of `n` bytes is 0 (the reserved words of a struct the library wrote or initialized). */
static inline int t_all_zero(const void *p, size_t n) {
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (c[i] != 0) return 0;
    return 1;
}

/* Fills `n` bytes with a recognizable pattern, and checks it is still there (outputs not written). */
static inline void t_fill(void *p, size_t n) { memset(p, 0xA5, n); }
static inline int t_untouched(const void *p, size_t n) {
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (c[i] != 0xA5) return 0;
    return 1;
}

/* ---- The unit cube [0, 1]^3 as a mesh, and byte buffers for writing mesh files ----------------------- */

/* Vertex i is (i & 1, (i >> 1) & 1, (i >> 2) & 1). */
static const float T_CUBE_V[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
/* Faces as quads, counter-clockwise seen from outside ((b - a) x (c - a) points out), in the order -z, -x, +x,
 * -y, +y, +z (the -z face uses only vertices 0..3). */
static const uint32_t T_CUBE_QUADS[6][4] = {{0, 2, 3, 1}, {0, 4, 6, 2}, {1, 3, 7, 5},
                                            {0, 1, 5, 4}, {2, 6, 7, 3}, {4, 5, 7, 6}};
static const float T_CUBE_NORMALS[6][3] = {{0, 0, -1}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, 1}};

/* The 12 triangles of the cube, each quad (a, b, c, d) fanned into (a, b, c), (a, c, d). */
static inline void t_cube_triangles(uint32_t idx[36]) {
    int f;
    for (f = 0; f < 6; f++) {
        const uint32_t *q = T_CUBE_QUADS[f];
        idx[f * 6 + 0] = q[0];
        idx[f * 6 + 1] = q[1];
        idx[f * 6 + 2] = q[2];
        idx[f * 6 + 3] = q[0];
        idx[f * 6 + 4] = q[2];
        idx[f * 6 + 5] = q[3];
    }
}

typedef struct t_buf {
    unsigned char *p;
    size_t n, cap;
} t_buf;

static inline void t_buf_put(t_buf *b, const void *src, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->n + n) cap *= 2;
        b->p = (unsigned char *)realloc(b->p, cap);
        if (!b->p) abort();
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}
static inline void t_buf_str(t_buf *b, const char *s) { t_buf_put(b, s, strlen(s)); }
static inline void t_buf_u8(t_buf *b, unsigned v) {
    unsigned char c = (unsigned char)v;
    t_buf_put(b, &c, 1);
}
/* Little-endian (or big-endian with be = 1) 4- and 8-byte values. */
static inline void t_buf_u32(t_buf *b, uint32_t v, int be) {
    unsigned char c[4];
    int i;
    for (i = 0; i < 4; i++) c[be ? 3 - i : i] = (unsigned char)(v >> (8 * i));
    t_buf_put(b, c, 4);
}
static inline void t_buf_f32(t_buf *b, float f, int be) {
    uint32_t u;
    memcpy(&u, &f, 4);
    t_buf_u32(b, u, be);
}
static inline void t_buf_f64(t_buf *b, double d, int be) {
    uint64_t u;
    unsigned char c[8];
    int i;
    memcpy(&u, &d, 8);
    for (i = 0; i < 8; i++) c[be ? 7 - i : i] = (unsigned char)(u >> (8 * i));
    t_buf_put(b, c, 8);
}
static inline void t_buf_free(t_buf *b) {
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

/* Writes n bytes to path; returns 1 on success. */
static inline int t_write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    int ok;
    if (!f) return 0;
    ok = fwrite(data, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    return ok;
}

/* A binary PLY of the unit cube: float x y z, faces as "list uchar int vertex_indices" (12 triangles, the
 * fan of T_CUBE_QUADS), with a face property "uchar classification" = triangle index % 8 when with_class.
 * be = 1 writes binary_big_endian. *header_len gets the header's length in bytes. */
static inline void t_ply_cube_binary(t_buf *b, int with_class, int be, size_t *header_len) {
    uint32_t idx[36];
    int i;
    t_cube_triangles(idx);
    t_buf_str(b, "ply\n");
    t_buf_str(b, be ? "format binary_big_endian 1.0\n" : "format binary_little_endian 1.0\n");
    t_buf_str(b, "comment the unit cube\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
                 "element face 12\nproperty list uchar int vertex_indices\n");
    if (with_class) t_buf_str(b, "property uchar classification\n");
    t_buf_str(b, "end_header\n");
    if (header_len) *header_len = b->n;
    for (i = 0; i < 8; i++) {
        t_buf_f32(b, T_CUBE_V[i][0], be);
        t_buf_f32(b, T_CUBE_V[i][1], be);
        t_buf_f32(b, T_CUBE_V[i][2], be);
    }
    for (i = 0; i < 12; i++) {
        t_buf_u8(b, 3);
        t_buf_u32(b, idx[i * 3], be);
        t_buf_u32(b, idx[i * 3 + 1], be);
        t_buf_u32(b, idx[i * 3 + 2], be);
        if (with_class) t_buf_u8(b, (unsigned)(i % 8));
    }
}

#endif /* FATHOM_TEST_MATH_H */
