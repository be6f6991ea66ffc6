/* Bad input to the mesh, cast-batch and tap functions: every pointer argument NULL, NaN and infinite numbers,
 * bad indices, classes, strides and flags, count * stride overflow, zero-area triangles, empty meshes, bad rays
 * and ranges (alone and inside a batch, named by index), malformed OBJ and PLY files (the line or byte of the
 * problem in the message) and missing files. Each gives its documented status and a message naming the
 * function and the argument; outputs are not written; nothing crashes. */
#define _XOPEN_SOURCE 700

#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "testmath.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INF ((float)INFINITY)

/* `number` appears in msg as a whole number (not part of a longer one). */
static int mentions_number(const char *msg, unsigned long long number) {
    char buf[32];
    const char *p = msg;
    size_t n;
    snprintf(buf, sizeof buf, "%llu", number);
    n = strlen(buf);
    while ((p = strstr(p, buf)) != NULL) {
        int before = p > msg && isdigit((unsigned char)p[-1]);
        int after = isdigit((unsigned char)p[n]);
        if (!before && !after) return 1;
        p++;
    }
    return 0;
}

/* The last error names these numbers (a triangle, an index, a ray). */
#define CHECK_MESSAGE_NUMBER(n)                                                                                    \
    do {                                                                                                           \
        if (mentions_number(fathom_last_error(), (n))) {                                                           \
            check_pass_();                                                                                         \
        } else {                                                                                                   \
            check_fail_(__FILE__, __LINE__, "fathom_last_error() mentions " #n);                                   \
            printf("    last error: \"%s\"\n", fathom_last_error());                                               \
        }                                                                                                          \
    } while (0)

/* A good little mesh: the unit cube. */
static uint32_t CUBE_I[36];
static fathom_mesh *CUBE;

/* A pointer value the library must not overwrite on failure. */
static int SENTINEL_OBJECT;
#define SENTINEL_MESH ((fathom_mesh *)(void *)&SENTINEL_OBJECT)

/* ---- NULL pointers -------------------------------------------------------------------------------- */

static void test_null_pointers(void) {
    fathom_mesh *m = SENTINEL_MESH;
    fathom_mesh_info info;
    fathom_ray ray = t_ray(0.5, 0.5, -2, 0, 0, 1), rays[2];
    fathom_hit h, hits[4];
    fathom_batch_options opt;
    bool occ;
    bool found;
    bool occs[2];
    uint64_t off[3];
    size_t n = 77;
    float nrm[36], ar[12], height = 5;
    fathom_intrinsics k = t_intr(500, 500, 320, 240, 640, 480);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    fathom_pose cam = t_pose(I, 0.5, 0.5, 3);
    fathom_box box;
    uint32_t face = 5;

    check_section("NULL pointers: mesh_create, mesh_load, destroy");
    rays[0] = ray;
    rays[1] = ray;
    t_set_bool_byte(&occ, 5); /* not written by a failed call */
    t_set_bool_byte(&found, 5);
    CHECK_OK(fathom_batch_options_init(&opt));
    opt.tmin = 0;
    opt.tmax = INF;
    opt.threads = 1;
    CHECK_OK(fathom_box_init(v3(0.5f, 0.5f, 0.5f), v3(1, 1, 1), 0, &box));
    CHECK_OK(fathom_box_set_floor(&box, 0));

    EXPECT(fathom_mesh_create(NULL, 8, 12, CUBE_I, 12, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_create", "vertices", P_NULL);
    EXPECT(fathom_mesh_create(&T_CUBE_V[0][0], 8, 12, NULL, 12, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_create", "indices", P_NULL);
    EXPECT(fathom_mesh_create(&T_CUBE_V[0][0], 8, 12, CUBE_I, 12, NULL, FATHOM_MESH_COPY, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_create", "out", P_NULL);
    EXPECT(fathom_mesh_create(NULL, 8, 12, CUBE_I, 12, NULL, FATHOM_MESH_BORROW, &m), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_create", "vertices", P_NULL);
    CHECK(m == SENTINEL_MESH);
    EXPECT(fathom_mesh_load(NULL, &m), FATHOM_ERR_NULL_POINTER, "fathom_mesh_load", "path", P_NULL);
    EXPECT(fathom_mesh_load("/nonexistent/x.obj", NULL), FATHOM_ERR_NULL_POINTER, "fathom_mesh_load", "out", P_NULL);
    CHECK(m == SENTINEL_MESH);
    fathom_mesh_destroy(NULL); /* allowed, does nothing */
    check_pass_();

    check_section("NULL pointers: queries");
    EXPECT(fathom_mesh_get_info(NULL, &info), FATHOM_ERR_NULL_POINTER, "fathom_mesh_get_info", "mesh", P_NULL);
    EXPECT(fathom_mesh_get_info(CUBE, NULL), FATHOM_ERR_NULL_POINTER, "fathom_mesh_get_info", "out", P_NULL);
    EXPECT(fathom_mesh_face_geometry(NULL, nrm, ar), FATHOM_ERR_NULL_POINTER, "fathom_mesh_face_geometry", "mesh", P_NULL);
    EXPECT(fathom_mesh_intersect(NULL, &ray, 0, INF, &h), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect", "mesh", P_NULL);
    EXPECT(fathom_mesh_intersect(CUBE, NULL, 0, INF, &h), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect", "ray", P_NULL);
    EXPECT(fathom_mesh_intersect(CUBE, &ray, 0, INF, NULL), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect", "out", P_NULL);
    EXPECT(fathom_mesh_occluded(NULL, &ray, 0, INF, &occ), FATHOM_ERR_NULL_POINTER, "fathom_mesh_occluded", "mesh", P_NULL);
    EXPECT(fathom_mesh_occluded(CUBE, NULL, 0, INF, &occ), FATHOM_ERR_NULL_POINTER, "fathom_mesh_occluded", "ray", P_NULL);
    EXPECT(fathom_mesh_occluded(CUBE, &ray, 0, INF, NULL), FATHOM_ERR_NULL_POINTER, "fathom_mesh_occluded", "out_occluded",
           P_NULL);
    EXPECT(fathom_mesh_intersect_all(NULL, &ray, 0, INF, hits, 4, &n), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect_all",
           "mesh", P_NULL);
    EXPECT(fathom_mesh_intersect_all(CUBE, NULL, 0, INF, hits, 4, &n), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect_all",
           "ray", P_NULL);
    EXPECT(fathom_mesh_intersect_all(CUBE, &ray, 0, INF, NULL, 4, &n), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect_all",
           "out", P_NULL);
    EXPECT(fathom_mesh_intersect_all(CUBE, &ray, 0, INF, hits, 4, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_intersect_all", "out_count", P_NULL);
    CHECK(t_bool_byte(&occ) == 5 && n == 77);

    check_section("NULL pointers: batches");
    EXPECT(fathom_mesh_intersect_batch(NULL, rays, 2, &opt, hits), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect_batch",
           "mesh", P_NULL);
    EXPECT(fathom_mesh_intersect_batch(CUBE, NULL, 2, &opt, hits), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect_batch",
           "rays", P_NULL);
    CHECK_OK(fathom_mesh_intersect_batch(CUBE, rays, 2, NULL, hits)); /* NULL options: {0, INFINITY, 0} */
    EXPECT(fathom_mesh_intersect_batch(CUBE, rays, 2, &opt, NULL), FATHOM_ERR_NULL_POINTER, "fathom_mesh_intersect_batch",
           "out", P_NULL);
    EXPECT(fathom_mesh_occluded_batch(NULL, rays, 2, &opt, occs), FATHOM_ERR_NULL_POINTER, "fathom_mesh_occluded_batch",
           "mesh", P_NULL);
    EXPECT(fathom_mesh_occluded_batch(CUBE, NULL, 2, &opt, occs), FATHOM_ERR_NULL_POINTER, "fathom_mesh_occluded_batch",
           "rays", P_NULL);
    CHECK_OK(fathom_mesh_occluded_batch(CUBE, rays, 2, NULL, occs));
    EXPECT(fathom_mesh_occluded_batch(CUBE, rays, 2, &opt, NULL), FATHOM_ERR_NULL_POINTER, "fathom_mesh_occluded_batch",
           "out_occluded", P_NULL);
    EXPECT(fathom_mesh_intersect_all_batch(NULL, rays, 2, &opt, hits, 4, off), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_intersect_all_batch", "mesh", P_NULL);
    EXPECT(fathom_mesh_intersect_all_batch(CUBE, NULL, 2, &opt, hits, 4, off), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_intersect_all_batch", "rays", P_NULL);
    CHECK_OK(fathom_mesh_intersect_all_batch(CUBE, rays, 2, NULL, hits, 4, off));
    EXPECT(fathom_mesh_intersect_all_batch(CUBE, rays, 2, &opt, NULL, 4, off), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_intersect_all_batch", "hits", P_NULL);
    EXPECT(fathom_mesh_intersect_all_batch(CUBE, rays, 2, &opt, hits, 4, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_mesh_intersect_all_batch", "out_offsets", P_NULL);
    {
        float ts[3] = {5, 5, 5};
        uint32_t prims[3] = {5, 5, 5}, order[3] = {5, 5, 5};
        EXPECT(fathom_mesh_intersect_batch_compact(NULL, rays, 2, &opt, ts, prims), FATHOM_ERR_NULL_POINTER,
               "fathom_mesh_intersect_batch_compact", "mesh", P_NULL);
        EXPECT(fathom_mesh_intersect_batch_compact(CUBE, NULL, 2, &opt, ts, prims), FATHOM_ERR_NULL_POINTER,
               "fathom_mesh_intersect_batch_compact", "rays", P_NULL);
        EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, 2, &opt, NULL, NULL), FATHOM_ERR_NULL_POINTER,
               "fathom_mesh_intersect_batch_compact", "out_t", P_NULL);
        CHECK_ERROR_MENTIONS("out_primitive");
        EXPECT(fathom_mesh_ray_order(NULL, rays, 2, &opt, order), FATHOM_ERR_NULL_POINTER, "fathom_mesh_ray_order", "mesh",
               P_NULL);
        EXPECT(fathom_mesh_ray_order(CUBE, NULL, 2, &opt, order), FATHOM_ERR_NULL_POINTER, "fathom_mesh_ray_order", "rays",
               P_NULL);
        EXPECT(fathom_mesh_ray_order(CUBE, rays, 2, &opt, NULL), FATHOM_ERR_NULL_POINTER, "fathom_mesh_ray_order",
               "out_order", P_NULL);
        CHECK(ts[0] == 5 && ts[2] == 5 && prims[0] == 5 && prims[2] == 5 && order[0] == 5 && order[2] == 5);
        /* NULL options: the defaults; either output alone. The ray from (0.5, 0.5, -2) along +z meets the cube's
         * -z face (triangles 0 and 1, the quad (0, 2, 3, 1) fanned) at t = 2. */
        CHECK_OK(fathom_mesh_intersect_batch_compact(CUBE, rays, 2, NULL, ts, NULL));
        CHECK(ts[0] == 2 && ts[1] == 2 && ts[2] == 5);
        CHECK_OK(fathom_mesh_intersect_batch_compact(CUBE, rays, 2, NULL, NULL, prims));
        CHECK(prims[0] <= 1 && prims[1] == prims[0] && prims[2] == 5);
        CHECK_OK(fathom_mesh_ray_order(CUBE, rays, 2, NULL, order));
        CHECK(order[0] == 0 && order[1] == 1 && order[2] == 5);
    }

    check_section("NULL pointers: taps");
    EXPECT(fathom_tap_floor_height(NULL, &cam, 1, 1, NULL, v3(0, 0, 0), v3(0, 1, 0), &height, &found),
           FATHOM_ERR_NULL_POINTER, "fathom_tap_floor_height", "intrinsics", P_NULL);
    EXPECT(fathom_tap_floor_height(&k, NULL, 1, 1, NULL, v3(0, 0, 0), v3(0, 1, 0), &height, &found),
           FATHOM_ERR_NULL_POINTER, "fathom_tap_floor_height", "camera_to_world", P_NULL);
    EXPECT(fathom_tap_floor_height(&k, &cam, 1, 1, NULL, v3(0, 0, 0), v3(0, 1, 0), NULL, &found), FATHOM_ERR_NULL_POINTER,
           "fathom_tap_floor_height", "out_height", P_NULL);
    EXPECT(fathom_tap_floor_height(&k, &cam, 1, 1, NULL, v3(0, 0, 0), v3(0, 1, 0), &height, NULL),
           FATHOM_ERR_NULL_POINTER, "fathom_tap_floor_height", "out_hit_found", P_NULL);
    EXPECT(fathom_tap_place_box(NULL, &cam, 1, 1, NULL, &box, &found), FATHOM_ERR_NULL_POINTER, "fathom_tap_place_box",
           "intrinsics", P_NULL);
    EXPECT(fathom_tap_place_box(&k, NULL, 1, 1, NULL, &box, &found), FATHOM_ERR_NULL_POINTER, "fathom_tap_place_box",
           "camera_to_world", P_NULL);
    EXPECT(fathom_tap_place_box(&k, &cam, 1, 1, NULL, NULL, &found), FATHOM_ERR_NULL_POINTER, "fathom_tap_place_box",
           "box", P_NULL);
    EXPECT(fathom_tap_place_box(&k, &cam, 1, 1, NULL, &box, NULL), FATHOM_ERR_NULL_POINTER, "fathom_tap_place_box",
           "out_hit_found", P_NULL);
    EXPECT(fathom_tap_box_face(NULL, &cam, 1, 1, &box, &face), FATHOM_ERR_NULL_POINTER, "fathom_tap_box_face", "intrinsics",
           P_NULL);
    EXPECT(fathom_tap_box_face(&k, NULL, 1, 1, &box, &face), FATHOM_ERR_NULL_POINTER, "fathom_tap_box_face",
           "camera_to_world", P_NULL);
    EXPECT(fathom_tap_box_face(&k, &cam, 1, 1, NULL, &face), FATHOM_ERR_NULL_POINTER, "fathom_tap_box_face", "box", P_NULL);
    EXPECT(fathom_tap_box_face(&k, &cam, 1, 1, &box, NULL), FATHOM_ERR_NULL_POINTER, "fathom_tap_box_face", "out_face",
           P_NULL);
    CHECK(height == 5 && t_bool_byte(&found) == 5 && face == 5);
}

/* ---- mesh_create: numbers, indices, classes, strides, flags, overflow ------------------------------ */

#define NV 30
#define NT 20

static float V[NV * 4];
static uint32_t IDX[NT * 3];
static uint8_t CLS[NT];

static void init_arrays(void) {
    unsigned long st = 3;
    int i;
    for (i = 0; i < NV * 4; i++) V[i] = (float)(t_rand(&st) * 2 - 1);
    for (i = 0; i < NT * 3; i++) IDX[i] = (uint32_t)((i * 7) % NV);
    for (i = 0; i < NT; i++) CLS[i] = (uint8_t)(i % 8);
}

static void test_create(void) {
    fathom_mesh *m = SENTINEL_MESH, *good = NULL;
    float v[NV * 4];
    uint32_t idx[NT * 3];
    uint8_t cls[NT];

    check_section("mesh_create: the good arrays are accepted (stride 16 and 12)");
    CHECK_OK(fathom_mesh_create(V, NV, 16, IDX, NT, CLS, FATHOM_MESH_COPY, &good));
    fathom_mesh_destroy(good);
    good = NULL;
    CHECK_OK(fathom_mesh_create(V, NV, 12, IDX, NT, NULL, FATHOM_MESH_BORROW, &good));
    fathom_mesh_destroy(good);

    check_section("mesh_create: NaN and infinite vertices");
    memcpy(v, V, sizeof v);
    v[5 * 4 + 1] = (float)NAN;
    EXPECT(fathom_mesh_create(v, NV, 16, IDX, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_NOT_FINITE, "fathom_mesh_create",
           "vert", P_FINITE);
    CHECK_MESSAGE_NUMBER(5);
    EXPECT(fathom_mesh_create(v, NV, 16, IDX, NT, NULL, FATHOM_MESH_BORROW, &m), FATHOM_ERR_NOT_FINITE,
           "fathom_mesh_create", "vert", P_FINITE);
    memcpy(v, V, sizeof v);
    v[(NV - 1) * 4 + 2] = (float)-INFINITY;
    EXPECT(fathom_mesh_create(v, NV, 16, IDX, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_NOT_FINITE, "fathom_mesh_create",
           "vert", P_FINITE);
    CHECK_MESSAGE_NUMBER(NV - 1);
    /* A NaN in the padding between vertices (stride 16: the 4th float) is not a vertex: accepted. */
    memcpy(v, V, sizeof v);
    v[3] = (float)NAN;
    v[7 * 4 + 3] = (float)INFINITY;
    CHECK_OK(fathom_mesh_create(v, NV, 16, IDX, NT, NULL, FATHOM_MESH_COPY, &good));
    fathom_mesh_destroy(good);
    /* A NaN in a vertex no triangle uses is still a bad vertex. */
    {
        float w[(NV + 1) * 3];
        memcpy(w, V, NV * 3 * sizeof(float));
        w[NV * 3] = (float)NAN;
        w[NV * 3 + 1] = 0;
        w[NV * 3 + 2] = 0;
        EXPECT(fathom_mesh_create(w, NV + 1, 12, IDX, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_NOT_FINITE,
               "fathom_mesh_create", "vert", P_FINITE);
    }
    CHECK(m == SENTINEL_MESH);

    check_section("mesh_create: indices out of range (the triangle and the index named)");
    memcpy(idx, IDX, sizeof idx);
    idx[17 * 3 + 1] = 12345;
    EXPECT(fathom_mesh_create(V, NV, 16, idx, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_create", "ind", P_ANY);
    CHECK_MESSAGE_NUMBER(17);
    CHECK_MESSAGE_NUMBER(12345);
    EXPECT(fathom_mesh_create(V, NV, 16, idx, NT, NULL, FATHOM_MESH_BORROW, &m), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_create", "ind", P_ANY);
    CHECK_MESSAGE_NUMBER(12345);
    /* Off by one: index == vertex_count. */
    memcpy(idx, IDX, sizeof idx);
    idx[13 * 3 + 2] = NV;
    EXPECT(fathom_mesh_create(V, NV, 16, idx, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_create", "ind", P_ANY);
    CHECK_MESSAGE_NUMBER(13);
    CHECK_MESSAGE_NUMBER(NV);
    /* The largest uint32 (-1 as a signed int). */
    memcpy(idx, IDX, sizeof idx);
    idx[0] = 0xFFFFFFFFu;
    EXPECT(fathom_mesh_create(V, NV, 16, idx, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_create", "ind", P_ANY);
    CHECK_MESSAGE_NUMBER(4294967295ull);
    /* The first bad index is the one named. */
    memcpy(idx, IDX, sizeof idx);
    idx[19 * 3] = 555;
    idx[4 * 3 + 2] = 444;
    EXPECT(fathom_mesh_create(V, NV, 16, idx, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_create", "ind", P_ANY);
    CHECK_MESSAGE_NUMBER(444);
    /* vertex_count 0 with triangles: every index is out of range (or the count is). */
    EXPECT(fathom_mesh_create(V, 0, 16, IDX, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_create",
           NULL, P_ANY);
    CHECK(m == SENTINEL_MESH);

    check_section("mesh_create: classes > FATHOM_CLASS_DOOR");
    memcpy(cls, CLS, sizeof cls);
    cls[11] = 8;
    EXPECT(fathom_mesh_create(V, NV, 16, IDX, NT, cls, FATHOM_MESH_COPY, &m), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_create",
           "class", P_ANY);
    CHECK_MESSAGE_NUMBER(11);
    cls[11] = 255;
    EXPECT(fathom_mesh_create(V, NV, 16, IDX, NT, cls, FATHOM_MESH_BORROW, &m), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_create", "class", P_ANY);
    CHECK_MESSAGE_NUMBER(255);
    cls[11] = 7; /* DOOR is the largest valid class */
    CHECK_OK(fathom_mesh_create(V, NV, 16, IDX, NT, cls, FATHOM_MESH_COPY, &good));
    fathom_mesh_destroy(good);
    CHECK(m == SENTINEL_MESH);

    check_section("mesh_create: strides, flags, alignment");
    {
        static const size_t bad_strides[] = {0, 4, 8, 11, 13, 14, 15, 18};
        size_t i;
        for (i = 0; i < sizeof bad_strides / sizeof bad_strides[0]; i++) {
            EXPECT(fathom_mesh_create(V, NV / 2, bad_strides[i], IDX, 2, NULL, FATHOM_MESH_COPY, &m),
                   FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_create", "stride", P_ANY);
        }
        EXPECT(fathom_mesh_create(V, NV, 12, IDX, NT, NULL, 3u, &m), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_create", "flags",
               P_ANY);
        EXPECT(fathom_mesh_create(V, NV, 12, IDX, NT, NULL, 0xFFFFFFFFu, &m), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_create",
               "flags", P_ANY);
        /* Borrowed vertices must be 4-byte aligned. A copy may accept them or refuse them, never crash. */
        {
            static float storage[NV * 3 + 4];
            const float *mis = (const float *)(const void *)((const char *)storage + 2);
            fathom_status s;
            memset(storage, 0, sizeof storage);
            EXPECT(fathom_mesh_create(mis, NV, 12, IDX, NT, NULL, FATHOM_MESH_BORROW, &m), FATHOM_ERR_OUT_OF_RANGE,
                   "fathom_mesh_create", "vertices", P_ANY);
            good = NULL;
            s = fathom_mesh_create(mis, NV, 12, IDX, NT, NULL, FATHOM_MESH_COPY, &good);
            CHECK(s == FATHOM_OK || s == FATHOM_ERR_OUT_OF_RANGE);
            if (s == FATHOM_OK) fathom_mesh_destroy(good);
        }
    }
    CHECK(m == SENTINEL_MESH);

    check_section("mesh_create: count * stride overflows");
    EXPECT(fathom_mesh_create(V, SIZE_MAX / 8, 16, IDX, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_create", NULL, P_ANY);
    EXPECT(fathom_mesh_create(V, SIZE_MAX / 12 + 1, 12, IDX, NT, NULL, FATHOM_MESH_BORROW, &m), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_create", NULL, P_ANY);
    EXPECT(fathom_mesh_create(V, 2, SIZE_MAX - 3, IDX, 0, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_create", NULL, P_ANY);
    EXPECT(fathom_mesh_create(V, SIZE_MAX / 2 + 1, 12, IDX, NT, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_create", NULL, P_ANY);
    /* triangle_count * 12 bytes of indices. */
    EXPECT(fathom_mesh_create(V, NV, 16, IDX, SIZE_MAX / 4, NULL, FATHOM_MESH_COPY, &m), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_create", NULL, P_ANY);
    EXPECT(fathom_mesh_create(V, NV, 16, IDX, SIZE_MAX / 12 + 1, CLS, FATHOM_MESH_BORROW, &m), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_create", NULL, P_ANY);
    CHECK(m == SENTINEL_MESH);
}

/* ---- zero-area triangles and empty meshes --------------------------------------------------------- */

static void test_degenerate_and_empty(void) {
    fathom_mesh *m = NULL;
    fathom_mesh_info info;
    fathom_hit h;
    fathom_ray r;
    size_t n;

    check_section("zero-area triangles: no error, never hit");
    {
        /* Every triangle degenerate: repeated indices, collinear points, one point. */
        const float v[] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0.5f, 1, 0};
        const uint32_t idx[] = {0, 0, 1, 0, 1, 2, 3, 3, 3, 2, 1, 0};
        float ar[4] = {9, 9, 9, 9}, nrm[12];
        CHECK_OK(fathom_mesh_create(v, 4, 12, idx, 4, NULL, FATHOM_MESH_COPY, &m));
        if (m) {
            int i, bad = 0;
            CHECK_OK(fathom_mesh_get_info(m, &info));
            CHECK(info.triangle_count == 4 && info.surface_area == 0);
            CHECK_OK(fathom_mesh_face_geometry(m, nrm, ar));
            for (i = 0; i < 4; i++)
                if (ar[i] != 0 || nrm[i * 3] != 0 || nrm[i * 3 + 1] != 0 || nrm[i * 3 + 2] != 0) bad++;
            CHECK(bad == 0);
            /* Rays straight through the segment and the point. */
            for (i = 0; i < 5; i++) {
                r = t_ray(0.5 * i, i == 4 ? 1 : 0, 1, 0, 0, -1);
                if (i == 4) r.origin.x = 0.5f;
                if (fathom_mesh_intersect(m, &r, 0, INF, &h) != FATHOM_OK || !t_hit_is_miss(&h)) bad++;
                n = 9;
                if (fathom_mesh_intersect_all(m, &r, 0, INF, &h, 1, &n) != FATHOM_OK || n != 0) bad++;
            }
            /* Along the segment's line. */
            r = t_ray(-1, 0, 0, 1, 0, 0);
            if (fathom_mesh_intersect(m, &r, 0, INF, &h) != FATHOM_OK || !t_hit_is_miss(&h)) bad++;
            CHECK(bad == 0);
            fathom_mesh_destroy(m);
        }
    }

    check_section("empty meshes");
    m = NULL;
    CHECK_OK(fathom_mesh_create(V, NV, 16, IDX, 0, NULL, FATHOM_MESH_COPY, &m));
    if (m) {
        bool occ;
        t_set_bool_byte(&occ, 7);
        CHECK_OK(fathom_mesh_get_info(m, &info));
        CHECK(info.triangle_count == 0 && info.surface_area == 0);
        r = t_ray(0, 0, 0, 0, 0, 1);
        CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
        CHECK(t_hit_is_miss(&h));
        CHECK_OK(fathom_mesh_occluded(m, &r, 0, INF, &occ));
        CHECK(t_bool_byte(&occ) == 0);
        fathom_mesh_destroy(m);
    }
    /* No vertices and no triangles: an empty mesh, or refused as a zero count; never a crash. */
    {
        fathom_status s;
        m = NULL;
        s = fathom_mesh_create(V, 0, 12, IDX, 0, NULL, FATHOM_MESH_COPY, &m);
        CHECK(s == FATHOM_OK || s == FATHOM_ERR_OUT_OF_RANGE);
        if (s == FATHOM_OK && m) {
            CHECK_OK(fathom_mesh_get_info(m, &info));
            CHECK(info.vertex_count == 0 && info.triangle_count == 0 && info.surface_area == 0);
            CHECK(info.bounds_min.x == 0 && info.bounds_min.y == 0 && info.bounds_min.z == 0 && info.bounds_max.x == 0 &&
                  info.bounds_max.y == 0 && info.bounds_max.z == 0);
            r = t_ray(0, 0, 0, 0, 0, 1);
            CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
            CHECK(t_hit_is_miss(&h));
            CHECK_OK(fathom_mesh_face_geometry(m, NULL, NULL));
            fathom_mesh_destroy(m);
        }
    }
}

/* ---- bad rays and ranges ------------------------------------------------------------------------------ */

static void test_rays(void) {
    fathom_ray good = t_ray(0.5, 0.5, -2, 0, 0, 1), zero = t_ray(0.5, 0.5, -2, 0, 0, 0),
               nan_o = t_ray(0.5, NAN, -2, 0, 0, 1), inf_d = t_ray(0.5, 0.5, -2, 0, INFINITY, 1);
    fathom_hit h, all[4];
    size_t n = 77;
    bool occ;

    check_section("single rays: zero and non-finite directions, NaN origins, bad ranges");
    t_set_bool_byte(&occ, 7); /* not written by a failed call */
    t_fill(&h, sizeof h);
    t_fill(all, sizeof all);
    EXPECT(fathom_mesh_intersect(CUBE, &zero, 0, INF, &h), FATHOM_ERR_DEGENERATE, "fathom_mesh_intersect", "direction",
           P_ANY);
    EXPECT(fathom_mesh_occluded(CUBE, &zero, 0, INF, &occ), FATHOM_ERR_DEGENERATE, "fathom_mesh_occluded", "direction",
           P_ANY);
    EXPECT(fathom_mesh_intersect_all(CUBE, &zero, 0, INF, all, 4, &n), FATHOM_ERR_DEGENERATE, "fathom_mesh_intersect_all",
           "direction", P_ANY);
    EXPECT(fathom_mesh_intersect(CUBE, &nan_o, 0, INF, &h), FATHOM_ERR_NOT_FINITE, "fathom_mesh_intersect", "origin",
           P_FINITE);
    EXPECT(fathom_mesh_occluded(CUBE, &nan_o, 0, INF, &occ), FATHOM_ERR_NOT_FINITE, "fathom_mesh_occluded", "origin",
           P_FINITE);
    EXPECT(fathom_mesh_intersect_all(CUBE, &nan_o, 0, INF, all, 4, &n), FATHOM_ERR_NOT_FINITE,
           "fathom_mesh_intersect_all", "origin", P_FINITE);
    EXPECT(fathom_mesh_intersect(CUBE, &inf_d, 0, INF, &h), FATHOM_ERR_NOT_FINITE, "fathom_mesh_intersect", "direction",
           P_FINITE);
    EXPECT(fathom_mesh_intersect(CUBE, &good, 2, 1, &h), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_intersect", "tmin", P_ANY);
    EXPECT(fathom_mesh_occluded(CUBE, &good, 2, 1, &occ), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_occluded", "tmin", P_ANY);
    EXPECT(fathom_mesh_intersect_all(CUBE, &good, 2, 1, all, 4, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_intersect_all",
           "tmin", P_ANY);
    EXPECT(fathom_mesh_intersect(CUBE, &good, -1, INF, &h), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_intersect", "tmin", P_ANY);
    EXPECT(fathom_mesh_occluded(CUBE, &good, -0.001f, 1, &occ), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_occluded", "tmin",
           P_ANY);
    EXPECT(fathom_mesh_intersect_all(CUBE, &good, -5, INF, all, 4, &n), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_intersect_all", "tmin", P_ANY);
    EXPECT(fathom_mesh_intersect(CUBE, &good, (float)NAN, INF, &h), FATHOM_ERR_NOT_FINITE, "fathom_mesh_intersect", "tmin",
           P_FINITE);
    EXPECT(fathom_mesh_intersect(CUBE, &good, 0, (float)NAN, &h), FATHOM_ERR_NOT_FINITE, "fathom_mesh_intersect", "tmax",
           P_FINITE);
    EXPECT(fathom_mesh_occluded(CUBE, &good, 0, (float)NAN, &occ), FATHOM_ERR_NOT_FINITE, "fathom_mesh_occluded", "tmax",
           P_FINITE);
    CHECK(t_untouched(&h, sizeof h));
    CHECK(t_untouched(all, sizeof all));
    CHECK(n == 77 && t_bool_byte(&occ) == 7);
    /* A tiny but non-zero direction is fine. */
    {
        fathom_ray tiny = t_ray(0.5, 0.5, -2, 0, 0, 1e-10);
        CHECK_OK(fathom_mesh_intersect(CUBE, &tiny, 0, INF, &h));
        CHECK(h.primitive != FATHOM_NO_HIT);
        CHECK_NEAR(h.t, 2e10, 2e5);
    }
}

/* ---- batches ------------------------------------------------------------------------------------------ */

#define NB 100

static void test_batches(void) {
    fathom_ray rays[NB];
    fathom_hit hits[NB * 2];
    bool occs[NB];
    uint64_t off[NB + 1];
    float ts[NB];
    uint32_t prims[NB], order[NB];
    fathom_batch_options opt;
    unsigned long st = 4;
    int i;

    for (i = 0; i < NB; i++) {
        double o[3], tgt[3], d[3];
        int k;
        t_rand_dir(&st, o);
        for (k = 0; k < 3; k++) {
            o[k] = 0.5 + 3 * o[k];
            tgt[k] = t_rand(&st);
        }
        t_sub(tgt, o, d);
        rays[i] = t_ray(o[0], o[1], o[2], d[0], d[1], d[2]);
    }
    CHECK_OK(fathom_batch_options_init(&opt));
    opt.tmin = 0;
    opt.tmax = INF;
    opt.threads = 2;

    check_section("batches: the good rays work");
    CHECK_OK(fathom_mesh_intersect_batch(CUBE, rays, NB, &opt, hits));
    CHECK_OK(fathom_mesh_intersect_all_batch(CUBE, rays, NB, &opt, hits, NB * 2, off));
    CHECK(off[NB] == 2 * NB);
    CHECK_OK(fathom_mesh_intersect_batch_compact(CUBE, rays, NB, &opt, ts, prims));
    CHECK_OK(fathom_mesh_ray_order(CUBE, rays, NB, &opt, order));

    check_section("batches: one bad ray fails the whole call, named by its index, before any work");
    {
        fathom_ray save = rays[37];
        rays[37].direction = v3(0, 0, 0);
        t_fill(hits, sizeof hits);
        t_fill(occs, sizeof occs);
        t_fill(off, sizeof off);
        EXPECT(fathom_mesh_intersect_batch(CUBE, rays, NB, &opt, hits), FATHOM_ERR_DEGENERATE, "fathom_mesh_intersect_batch",
               "rays", P_ANY);
        CHECK_MESSAGE_NUMBER(37);
        EXPECT(fathom_mesh_occluded_batch(CUBE, rays, NB, &opt, occs), FATHOM_ERR_DEGENERATE, "fathom_mesh_occluded_batch",
               "rays", P_ANY);
        CHECK_MESSAGE_NUMBER(37);
        EXPECT(fathom_mesh_intersect_all_batch(CUBE, rays, NB, &opt, hits, NB * 2, off), FATHOM_ERR_DEGENERATE,
               "fathom_mesh_intersect_all_batch", "rays", P_ANY);
        CHECK_MESSAGE_NUMBER(37);
        t_fill(ts, sizeof ts);
        t_fill(prims, sizeof prims);
        t_fill(order, sizeof order);
        EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, NB, &opt, ts, prims), FATHOM_ERR_DEGENERATE,
               "fathom_mesh_intersect_batch_compact", "rays", P_ANY);
        CHECK_MESSAGE_NUMBER(37);
        EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, NB, &opt, NULL, prims), FATHOM_ERR_DEGENERATE,
               "fathom_mesh_intersect_batch_compact", "rays", P_ANY);
        CHECK_MESSAGE_NUMBER(37);
        EXPECT(fathom_mesh_ray_order(CUBE, rays, NB, &opt, order), FATHOM_ERR_DEGENERATE, "fathom_mesh_ray_order", "rays",
               P_ANY);
        CHECK_MESSAGE_NUMBER(37);
        rays[37] = save;
        save = rays[41];
        rays[41].origin.y = (float)NAN;
        EXPECT(fathom_mesh_intersect_batch(CUBE, rays, NB, &opt, hits), FATHOM_ERR_NOT_FINITE, "fathom_mesh_intersect_batch",
               "rays", P_FINITE);
        CHECK_MESSAGE_NUMBER(41);
        EXPECT(fathom_mesh_occluded_batch(CUBE, rays, NB, &opt, occs), FATHOM_ERR_NOT_FINITE, "fathom_mesh_occluded_batch",
               "rays", P_FINITE);
        CHECK_MESSAGE_NUMBER(41);
        EXPECT(fathom_mesh_intersect_all_batch(CUBE, rays, NB, &opt, hits, NB * 2, off), FATHOM_ERR_NOT_FINITE,
               "fathom_mesh_intersect_all_batch", "rays", P_FINITE);
        CHECK_MESSAGE_NUMBER(41);
        EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, NB, &opt, ts, NULL), FATHOM_ERR_NOT_FINITE,
               "fathom_mesh_intersect_batch_compact", "rays", P_FINITE);
        CHECK_MESSAGE_NUMBER(41);
        EXPECT(fathom_mesh_ray_order(CUBE, rays, NB, &opt, order), FATHOM_ERR_NOT_FINITE, "fathom_mesh_ray_order", "rays",
               P_FINITE);
        CHECK_MESSAGE_NUMBER(41);
        rays[41] = save;
        /* The last ray, with an infinite direction. */
        save = rays[NB - 1];
        rays[NB - 1].direction.z = (float)-INFINITY;
        EXPECT(fathom_mesh_intersect_batch(CUBE, rays, NB, &opt, hits), FATHOM_ERR_NOT_FINITE, "fathom_mesh_intersect_batch",
               "rays", P_FINITE);
        CHECK_MESSAGE_NUMBER(NB - 1);
        EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, NB, &opt, ts, prims), FATHOM_ERR_NOT_FINITE,
               "fathom_mesh_intersect_batch_compact", "rays", P_FINITE);
        CHECK_MESSAGE_NUMBER(NB - 1);
        EXPECT(fathom_mesh_ray_order(CUBE, rays, NB, &opt, order), FATHOM_ERR_NOT_FINITE, "fathom_mesh_ray_order", "rays",
               P_FINITE);
        CHECK_MESSAGE_NUMBER(NB - 1);
        rays[NB - 1] = save;
        CHECK(t_untouched(hits, sizeof hits));
        CHECK(t_untouched(occs, sizeof occs));
        CHECK(t_untouched(off, sizeof off));
        CHECK(t_untouched(ts, sizeof ts));
        CHECK(t_untouched(prims, sizeof prims));
        CHECK(t_untouched(order, sizeof order));
    }

    check_section("batches: bad options");
    t_fill(hits, sizeof hits);
    opt.tmin = 2;
    opt.tmax = 1;
    EXPECT(fathom_mesh_intersect_batch(CUBE, rays, NB, &opt, hits), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_intersect_batch",
           "tmin", P_ANY);
    EXPECT(fathom_mesh_occluded_batch(CUBE, rays, NB, &opt, occs), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_occluded_batch",
           "tmin", P_ANY);
    EXPECT(fathom_mesh_intersect_all_batch(CUBE, rays, NB, &opt, hits, NB * 2, off), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_intersect_all_batch", "tmin", P_ANY);
    opt.tmin = -1;
    opt.tmax = INF;
    EXPECT(fathom_mesh_intersect_batch(CUBE, rays, NB, &opt, hits), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_intersect_batch",
           "tmin", P_ANY);
    opt.tmin = 0;
    opt.tmax = (float)NAN;
    EXPECT(fathom_mesh_intersect_batch(CUBE, rays, NB, &opt, hits), FATHOM_ERR_NOT_FINITE, "fathom_mesh_intersect_batch",
           "tmax", P_FINITE);
    CHECK(t_untouched(hits, sizeof hits));
    t_fill(ts, sizeof ts);
    t_fill(prims, sizeof prims);
    t_fill(order, sizeof order);
    EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, NB, &opt, ts, prims), FATHOM_ERR_NOT_FINITE,
           "fathom_mesh_intersect_batch_compact", "tmax", P_FINITE);
    EXPECT(fathom_mesh_ray_order(CUBE, rays, NB, &opt, order), FATHOM_ERR_NOT_FINITE, "fathom_mesh_ray_order", "tmax",
           P_FINITE);
    opt.tmin = 2;
    opt.tmax = 1;
    EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, NB, &opt, ts, prims), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_intersect_batch_compact", "tmin", P_ANY);
    EXPECT(fathom_mesh_ray_order(CUBE, rays, NB, &opt, order), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_ray_order", "tmin",
           P_ANY);
    opt.tmin = 0;
    opt.tmax = INF;
    opt.threads = 1025;
    EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, NB, &opt, ts, prims), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_mesh_intersect_batch_compact", "threads", P_ANY);
    EXPECT(fathom_mesh_ray_order(CUBE, rays, NB, &opt, order), FATHOM_ERR_OUT_OF_RANGE, "fathom_mesh_ray_order", "threads",
           P_ANY);
    opt.threads = 2;
    CHECK(t_untouched(ts, sizeof ts));
    CHECK(t_untouched(prims, sizeof prims));
    CHECK(t_untouched(order, sizeof order));
    opt.tmax = INF;

    check_section("batches: count * 24 bytes overflows");
    EXPECT(fathom_mesh_intersect_batch(CUBE, rays, SIZE_MAX / 8, &opt, hits), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_intersect_batch", NULL, P_ANY);
    EXPECT(fathom_mesh_occluded_batch(CUBE, rays, SIZE_MAX / 16, &opt, occs), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_occluded_batch", NULL, P_ANY);
    EXPECT(fathom_mesh_intersect_all_batch(CUBE, rays, SIZE_MAX / 8, &opt, hits, NB * 2, off), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_intersect_all_batch", NULL, P_ANY);
    /* Counts of 2^63 and more (negative as a signed integer), and count + 1 offsets with count = SIZE_MAX. */
    t_fill(hits, sizeof hits);
    t_fill(occs, sizeof occs);
    t_fill(off, sizeof off);
    EXPECT(fathom_mesh_intersect_batch(CUBE, rays, SIZE_MAX, &opt, hits), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_intersect_batch", NULL, P_ANY);
    EXPECT(fathom_mesh_intersect_batch(CUBE, rays, SIZE_MAX / 2 + 1, &opt, hits), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_intersect_batch", NULL, P_ANY);
    EXPECT(fathom_mesh_occluded_batch(CUBE, rays, SIZE_MAX, &opt, occs), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_occluded_batch", NULL, P_ANY);
    EXPECT(fathom_mesh_intersect_all_batch(CUBE, rays, SIZE_MAX, &opt, hits, NB * 2, off), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_intersect_all_batch", NULL, P_ANY);
    EXPECT(fathom_mesh_intersect_all_batch(CUBE, rays, SIZE_MAX / 2 + 1, &opt, hits, NB * 2, off), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_intersect_all_batch", NULL, P_ANY);
    EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, SIZE_MAX / 8, &opt, ts, prims), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_intersect_batch_compact", NULL, P_ANY);
    EXPECT(fathom_mesh_intersect_batch_compact(CUBE, rays, SIZE_MAX, &opt, ts, NULL), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_intersect_batch_compact", NULL, P_ANY);
    EXPECT(fathom_mesh_ray_order(CUBE, rays, SIZE_MAX / 8, &opt, order), FATHOM_ERR_OVERFLOW, "fathom_mesh_ray_order",
           NULL, P_ANY);
    EXPECT(fathom_mesh_ray_order(CUBE, rays, SIZE_MAX / 2 + 1, &opt, order), FATHOM_ERR_OVERFLOW,
           "fathom_mesh_ray_order", NULL, P_ANY);
    CHECK(t_untouched(hits, sizeof hits));
    CHECK(t_untouched(occs, sizeof occs));
    CHECK(t_untouched(off, sizeof off));
    CHECK(t_untouched(ts, sizeof ts));
    CHECK(t_untouched(prims, sizeof prims));
    CHECK(t_untouched(order, sizeof order));

    check_section("batches: count 0 (an empty batch, or refused; never a crash)");
    {
        fathom_status s = fathom_mesh_intersect_batch(CUBE, rays, 0, &opt, hits);
        CHECK(s == FATHOM_OK || s == FATHOM_ERR_OUT_OF_RANGE);
        s = fathom_mesh_occluded_batch(CUBE, rays, 0, &opt, occs);
        CHECK(s == FATHOM_OK || s == FATHOM_ERR_OUT_OF_RANGE);
        off[0] = 99;
        s = fathom_mesh_intersect_all_batch(CUBE, rays, 0, &opt, hits, 0, off);
        CHECK(s == FATHOM_OK || s == FATHOM_ERR_OUT_OF_RANGE);
        if (s == FATHOM_OK) CHECK(off[0] == 0);
        /* the compact batch and the order: count 0 is an empty batch (FATHOM_OK), nothing written */
        CHECK_OK(fathom_mesh_intersect_batch_compact(CUBE, rays, 0, &opt, ts, prims));
        CHECK_OK(fathom_mesh_ray_order(CUBE, rays, 0, &opt, order));
        CHECK(t_untouched(ts, sizeof ts) && t_untouched(prims, sizeof prims) && t_untouched(order, sizeof order));
    }
}

/* ---- files --------------------------------------------------------------------------------------- */

static char DIR_PATH[256];

static const char *path_of(const char *name) {
    static char buf[4][512];
    static int k = 0;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", DIR_PATH, name);
    return buf[k];
}

/* The number after the word `word` in msg (case-insensitive; up to 16 characters later), or -1. */
static long long number_after(const char *msg, const char *word) {
    size_t n = strlen(word), i, j;
    for (i = 0; msg[i] != '\0'; i++) {
        for (j = 0; j < n && msg[i + j] != '\0'; j++)
            if (tolower((unsigned char)msg[i + j]) != tolower((unsigned char)word[j])) break;
        if (j == n) {
            const char *p = msg + i + n;
            int skip = 0;
            while (*p != '\0' && !isdigit((unsigned char)*p) && skip < 16) {
                p++;
                skip++;
            }
            if (isdigit((unsigned char)*p)) return strtoll(p, NULL, 10);
        }
    }
    return -1;
}

/* Loads `name` (text `content`, or bytes) and expects PARSE or FORMAT with "line N" in the message, N in
 * [line_lo, line_hi] (line_lo > 0), or with "byte" and an offset in [byte_lo, byte_hi] (line_lo == 0). */
static void expect_file_error(const char *name, const void *content, size_t size, long long line_lo, long long line_hi,
                              long long byte_lo, long long byte_hi, long long decl_line, int line) {
    fathom_mesh *m = SENTINEL_MESH;
    fathom_status s;
    const char *msg;
    if (!t_write_file(path_of(name), content, size)) {
        check_fail_(__FILE__, line, "writing the test file");
        return;
    }
    s = fathom_mesh_load(path_of(name), &m);
    msg = fathom_last_error();
    if (s == FATHOM_ERR_PARSE || s == FATHOM_ERR_FORMAT) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, name);
        printf("    fathom_mesh_load(%s): got %s, expected FATHOM_ERR_PARSE or FATHOM_ERR_FORMAT; \"%s\"\n", name,
               fathom_status_name(s), s == FATHOM_OK ? "" : msg);
        if (s == FATHOM_OK && m != SENTINEL_MESH) fathom_mesh_destroy(m);
        return;
    }
    check_true_(m == SENTINEL_MESH, __FILE__, line, "*out untouched on failure");
    check_true_(strstr(msg, "fathom_mesh_load") != NULL, __FILE__, line, "the message names fathom_mesh_load");
    if (line_lo > 0) {
        long long got = number_after(msg, "line");
        if (got >= line_lo && got <= line_hi) {
            check_pass_();
        } else {
            check_fail_(__FILE__, line, "the message gives the line of the problem");
            printf("    %s: wanted line %lld", name, line_lo);
            if (line_hi != line_lo) printf(" (to %lld)", line_hi);
            printf("; got \"%s\"\n", msg);
        }
    } else {
        /* A byte offset at the problem; or, for a file whose size cannot hold what its header declares
         * (decl_line > 0), the header line of that declaration. */
        long long got = number_after(msg, "byte");
        if ((got >= byte_lo && got <= byte_hi) || (decl_line > 0 && number_after(msg, "line") == decl_line)) {
            check_pass_();
        } else {
            check_fail_(__FILE__, line, "the message gives the byte offset of the problem");
            printf("    %s: wanted \"byte\" and an offset in [%lld, %lld]", name, byte_lo, byte_hi);
            if (decl_line > 0) printf(" or the declaring header line %lld", decl_line);
            printf("; got \"%s\"\n", msg);
        }
    }
}

#define EXPECT_TEXT_ERROR(name, text, want_line) \
    expect_file_error((name), (text), strlen(text), (want_line), (want_line), 0, 0, 0, __LINE__)
#define EXPECT_BINARY_ERROR(name, bytes, size, lo, hi, decl_line) \
    expect_file_error((name), (bytes), (size), 0, 0, (long long)(lo), (long long)(hi), (decl_line), __LINE__)

static const char CUBE_OBJ_V[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n";

static void test_files(void) {
    char text[2048];
    t_buf b;
    size_t header_len;
    fathom_mesh *m = SENTINEL_MESH;

    snprintf(DIR_PATH, sizeof DIR_PATH, "%s", "/tmp/fathom-mesh-bad-XXXXXX");
    if (!mkdtemp(DIR_PATH)) {
        CHECK(0);
        return;
    }
    memset(&b, 0, sizeof b);

    check_section("missing and unreadable files");
    EXPECT(fathom_mesh_load(path_of("does-not-exist.obj"), &m), FATHOM_ERR_IO, "fathom_mesh_load", "does-not-exist.obj",
           P_ANY);
    EXPECT(fathom_mesh_load(DIR_PATH, &m), FATHOM_ERR_IO, "fathom_mesh_load", NULL, P_ANY); /* a directory */
    EXPECT(fathom_mesh_load("", &m), FATHOM_ERR_IO, "fathom_mesh_load", NULL, P_ANY);
    CHECK(m == SENTINEL_MESH);

    check_section("malformed OBJ: the line of the problem");
    /* line 3: a bad number */
    EXPECT_TEXT_ERROR("bad_number.obj", "v 0 0 0\nv 1 0 0\nv 0 1 x\nf 1 2 3\n", 3);
    EXPECT_TEXT_ERROR("bad_number2.obj", "# comment\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1.2.3 0 0\nf 1 2 3\n", 5);
    /* line 2: a missing coordinate */
    EXPECT_TEXT_ERROR("short_vertex.obj", "v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n", 2);
    /* face index 0 (OBJ indices start at 1), at line 10 */
    snprintf(text, sizeof text, "%sf 1 2 3\nf 1 0 3\n", CUBE_OBJ_V);
    EXPECT_TEXT_ERROR("index_zero.obj", text, 10);
    /* index out of range (99 > 8 vertices), at line 11 */
    snprintf(text, sizeof text, "%sf 1 2 3\nf 2 3 4\nf 1 2 99\n", CUBE_OBJ_V);
    EXPECT_TEXT_ERROR("index_high.obj", text, 11);
    /* a negative index reaching before the first vertex */
    snprintf(text, sizeof text, "%sf -1 -2 -9\n", CUBE_OBJ_V);
    EXPECT_TEXT_ERROR("index_negative.obj", text, 9);
    /* a face of two vertices */
    snprintf(text, sizeof text, "%sf 1 2\n", CUBE_OBJ_V);
    EXPECT_TEXT_ERROR("two_vertex_face.obj", text, 9);
    /* junk after an index */
    snprintf(text, sizeof text, "%sf 1 2 3x\n", CUBE_OBJ_V);
    EXPECT_TEXT_ERROR("index_junk.obj", text, 9);
    /* a huge index (overflows 32 and 64 bits) */
    snprintf(text, sizeof text, "%sf 1 2 99999999999999999999999\n", CUBE_OBJ_V);
    EXPECT_TEXT_ERROR("index_huge.obj", text, 9);
    /* a coordinate beyond float range, and a NaN: not finite */
    {
        fathom_status s;
        const char *cases[2] = {"v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n", "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n"};
        int c;
        for (c = 0; c < 2; c++) {
            const char *name = c ? "nan.obj" : "huge.obj";
            m = SENTINEL_MESH;
            CHECK(t_write_file(path_of(name), cases[c], strlen(cases[c])));
            s = fathom_mesh_load(path_of(name), &m);
            CHECK(s == FATHOM_ERR_PARSE || s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_NOT_FINITE);
            if (s == FATHOM_OK) {
                printf("    %s loaded\n", name);
                fathom_mesh_destroy(m);
            } else {
                CHECK(number_after(fathom_last_error(), "line") == 2);
            }
        }
    }

    check_section("malformed PLY (ascii): the line of the problem");
    {
        static const char head[] = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
                                   "property float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n";
        /* header: 9 lines; vertices on lines 10-13; faces on 14-15 */
        snprintf(text, sizeof text, "%s0 0 0\n1 0 0\n0 1 z\n1 1 0\n3 0 1 2\n3 1 3 2\n", head);
        EXPECT_TEXT_ERROR("ply_bad_number.ply", text, 12);
        snprintf(text, sizeof text, "%s0 0 0\n1 0 0\n0 1 0\n1 1 0\n3 0 1 2\n3 1 3 7\n", head);
        EXPECT_TEXT_ERROR("ply_index_high.ply", text, 15);
        /* Says 2 faces, has 1: the file ends after line 14, where line 15 should be; or the declaration
         * "element face 2" (line 7) is named. */
        snprintf(text, sizeof text, "%s0 0 0\n1 0 0\n0 1 0\n1 1 0\n3 0 1 2\n", head);
        {
            fathom_status st;
            long long ln;
            m = SENTINEL_MESH;
            CHECK(t_write_file(path_of("ply_lying_count.ply"), text, strlen(text)));
            st = fathom_mesh_load(path_of("ply_lying_count.ply"), &m);
            CHECK(st == FATHOM_ERR_PARSE || st == FATHOM_ERR_FORMAT);
            ln = number_after(fathom_last_error(), "line");
            CHECK(ln == 7 || ln == 14 || ln == 15);
            CHECK(m == SENTINEL_MESH);
        }
        /* A vertex with two numbers, and a face list that says 3 and gives 2. The numbers are written long
           so the file still has more bytes than the element counts need: the reader's up-front size check
           (which would name the declaration's line) passes and the record's own line is named. */
        snprintf(text, sizeof text, "%s0.000000 0.000000 0.000000\n1.000000 0.000000\n0.000000 1.000000 0.000000\n"
                 "1.000000 1.000000 0.000000\n3 0 1 2\n3 1 3 2\n", head);
        EXPECT_TEXT_ERROR("ply_short_vertex.ply", text, 11);
        snprintf(text, sizeof text, "%s0.000000 0.000000 0.000000\n1.000000 0.000000 0.000000\n0.000000 1.000000 0.000000\n"
                 "1.000000 1.000000 0.000000\n3 0 1\n3 1 3 2\n", head);
        EXPECT_TEXT_ERROR("ply_short_face.ply", text, 14);
        /* Header problems: an unknown type (line 4), no x property, no end_header. */
        EXPECT_TEXT_ERROR("ply_bad_type.ply",
                          "ply\nformat ascii 1.0\nelement vertex 1\nproperty float24 x\nproperty float y\n"
                          "property float z\nend_header\n0 0 0\n",
                          4);
        {
            fathom_status s;
            static const char nox[] = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float y\nproperty float z\n"
                                      "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0\n1 0\n"
                                      "0 1\n3 0 1 2\n";
            static const char noend[] = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                                        "property float z\n0 0 0\n1 0 0\n0 1 0\n";
            m = SENTINEL_MESH;
            CHECK(t_write_file(path_of("ply_no_x.ply"), nox, strlen(nox)));
            s = fathom_mesh_load(path_of("ply_no_x.ply"), &m);
            CHECK(s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_PARSE);
            CHECK(ci_contains(fathom_last_error(), "x", 1));
            CHECK(t_write_file(path_of("ply_no_end.ply"), noend, strlen(noend)));
            s = fathom_mesh_load(path_of("ply_no_end.ply"), &m);
            CHECK(s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_PARSE);
            CHECK(m == SENTINEL_MESH);
        }
    }

    check_section("malformed PLY (binary): the byte of the problem");
    t_ply_cube_binary(&b, 0, 0, &header_len);
    {
        /* Vertices: 8 * 12 bytes from header_len; faces: 13 bytes each after that. */
        const size_t faces_at = header_len + 96, full = b.n;
        unsigned char *copy = (unsigned char *)malloc(full + 64);
        CHECK(full == faces_at + 12 * 13);
        /* Truncated in the middle of face 5's indices. (Header: the vertex element is declared on line 4, the
         * face element on line 8.) */
        EXPECT_BINARY_ERROR("truncated.ply", b.p, faces_at + 5 * 13 + 6, faces_at, faces_at + 5 * 13 + 6, 8);
        /* Truncated in the vertices. */
        EXPECT_BINARY_ERROR("truncated_vertices.ply", b.p, header_len + 50, header_len, header_len + 50, 4);
        /* A face index out of range (99) in face 7. */
        memcpy(copy, b.p, full);
        copy[faces_at + 7 * 13 + 1 + 4] = 99;
        EXPECT_BINARY_ERROR("index_high.ply", copy, full, faces_at + 7 * 13, faces_at + 7 * 13 + 13, 0);
        /* A NaN vertex coordinate (vertex 3's y): refused (not finite), never loaded. */
        {
            fathom_status s;
            float nan = (float)NAN;
            uint32_t u;
            memcpy(copy, b.p, full);
            memcpy(&u, &nan, 4);
            copy[header_len + 3 * 12 + 4] = (unsigned char)u;
            copy[header_len + 3 * 12 + 5] = (unsigned char)(u >> 8);
            copy[header_len + 3 * 12 + 6] = (unsigned char)(u >> 16);
            copy[header_len + 3 * 12 + 7] = (unsigned char)(u >> 24);
            CHECK(t_write_file(path_of("nan.ply"), copy, full));
            m = SENTINEL_MESH;
            s = fathom_mesh_load(path_of("nan.ply"), &m);
            CHECK(s == FATHOM_ERR_PARSE || s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_NOT_FINITE);
            CHECK(m == SENTINEL_MESH);
        }
        /* The header says 13 faces; the file has 12. */
        {
            t_buf lie;
            char *at;
            memset(&lie, 0, sizeof lie);
            t_buf_put(&lie, b.p, full);
            at = strstr((char *)lie.p, "element face 12");
            if (at) at[14] = '3';
            EXPECT_BINARY_ERROR("lying_count.ply", lie.p, lie.n, faces_at, full, 8);
            t_buf_free(&lie);
        }
        /* A face list count of 200 (the file ends long before). */
        memcpy(copy, b.p, full);
        copy[faces_at + 11 * 13] = 200;
        EXPECT_BINARY_ERROR("long_list.ply", copy, full, faces_at + 11 * 13, full, 0);
        free(copy);
    }
    t_buf_free(&b);
    /* Big-endian: well-formed but not supported; the header line (2) names it. */
    t_ply_cube_binary(&b, 0, 1, &header_len);
    {
        fathom_status s;
        const char *msg;
        m = SENTINEL_MESH;
        CHECK(t_write_file(path_of("big_endian.ply"), b.p, b.n));
        s = fathom_mesh_load(path_of("big_endian.ply"), &m);
        msg = fathom_last_error();
        CHECK(s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_PARSE);
        if (s == FATHOM_OK) fathom_mesh_destroy(m);
        CHECK(m == SENTINEL_MESH || s == FATHOM_OK);
        CHECK(strstr(msg, "fathom_mesh_load") != NULL);
        CHECK(number_after(msg, "line") == 2 || number_after(msg, "byte") >= 0);
        CHECK(ci_contains(msg, "big", 3));
    }
    t_buf_free(&b);
    /* Binary class values above FATHOM_CLASS_DOOR. */
    t_ply_cube_binary(&b, 1, 0, &header_len);
    {
        const size_t faces_at = header_len + 96;
        b.p[faces_at + 4 * 14 + 13] = 9; /* face 4's classification */
        EXPECT_BINARY_ERROR("bad_class.ply", b.p, b.n, faces_at + 4 * 14, faces_at + 5 * 14, 0);
    }
    t_buf_free(&b);

    check_section("neither OBJ nor PLY");
    {
        unsigned char junk[256];
        int i;
        fathom_status s;
        for (i = 0; i < 256; i++) junk[i] = (unsigned char)(i * 73 + 19);
        CHECK(t_write_file(path_of("junk.bin"), junk, sizeof junk));
        m = SENTINEL_MESH;
        s = fathom_mesh_load(path_of("junk.bin"), &m);
        CHECK(s == FATHOM_ERR_PARSE || s == FATHOM_ERR_FORMAT);
        CHECK(m == SENTINEL_MESH);
        CHECK(t_write_file(path_of("ply_only.ply"), "ply\n", 4));
        s = fathom_mesh_load(path_of("ply_only.ply"), &m);
        CHECK(s == FATHOM_ERR_PARSE || s == FATHOM_ERR_FORMAT);
        CHECK(m == SENTINEL_MESH);
    }

    {
        static const char *names[] = {"bad_number.obj", "bad_number2.obj", "short_vertex.obj", "index_zero.obj",
                                      "index_high.obj", "index_negative.obj",
                                      "two_vertex_face.obj", "index_junk.obj", "index_huge.obj", "huge.obj", "nan.obj",
                                      "ply_bad_number.ply", "ply_index_high.ply", "ply_lying_count.ply",
                                      "ply_short_vertex.ply", "ply_short_face.ply", "ply_bad_type.ply", "ply_no_x.ply",
                                      "ply_no_end.ply", "truncated.ply", "truncated_vertices.ply", "index_high.ply",
                                      "nan.ply", "lying_count.ply", "long_list.ply", "big_endian.ply", "bad_class.ply",
                                      "junk.bin", "ply_only.ply"};
        size_t k;
        for (k = 0; k < sizeof names / sizeof names[0]; k++) remove(path_of(names[k]));
        if (rmdir(DIR_PATH) != 0) printf("    (could not remove %s)\n", DIR_PATH);
    }
}

/* ---- taps ------------------------------------------------------------------------------------------- */

static void test_taps(void) {
    fathom_intrinsics k = t_intr(500, 500, 320, 240, 640, 480), bad;
    double R[9];
    fathom_pose cam, skew;
    fathom_box box, before;
    float height = 5;
    bool found;
    uint32_t face = 5;
    const fathom_vec3 up = {0, 1, 0}, p0 = {0, 0, 0};

    t_set_bool_byte(&found, 5); /* not written by a failed call */

    t_rot_x(-T_PI / 4, R);
    cam = t_pose(R, 0, 1.5, 0);
    skew = cam;
    skew.m[5] *= 1.5f;
    CHECK_OK(fathom_box_init(v3(0, 0.5f, -2), v3(1, 1, 1), 0, &box));
    CHECK_OK(fathom_box_set_floor(&box, 0));
    before = box;

    check_section("taps: bad numbers");
    EXPECT(fathom_tap_floor_height(&k, &cam, (float)NAN, 1, NULL, p0, up, &height, &found), FATHOM_ERR_NOT_FINITE,
           "fathom_tap_floor_height", "u", P_FINITE);
    EXPECT(fathom_tap_floor_height(&k, &cam, 1, (float)INFINITY, NULL, p0, up, &height, &found), FATHOM_ERR_NOT_FINITE,
           "fathom_tap_floor_height", "v", P_FINITE);
    EXPECT(fathom_tap_floor_height(&k, &cam, 1, 1, NULL, v3(0, (float)NAN, 0), up, &height, &found), FATHOM_ERR_NOT_FINITE,
           "fathom_tap_floor_height", "plane_point", P_FINITE);
    EXPECT(fathom_tap_floor_height(&k, &cam, 1, 1, NULL, p0, v3((float)NAN, 1, 0), &height, &found), FATHOM_ERR_NOT_FINITE,
           "fathom_tap_floor_height", "plane_normal", P_FINITE);
    EXPECT(fathom_tap_floor_height(&k, &skew, 1, 1, NULL, p0, up, &height, &found), FATHOM_ERR_NOT_RIGID,
           "fathom_tap_floor_height", "camera_to_world", P_ANY);
    bad = k;
    bad.fx = 0;
    EXPECT(fathom_tap_floor_height(&bad, &cam, 1, 1, NULL, p0, up, &height, &found), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_tap_floor_height", "fx", P_ANY);
    CHECK(height == 5 && t_bool_byte(&found) == 5);

    EXPECT(fathom_tap_place_box(&k, &cam, (float)NAN, 1, NULL, &box, &found), FATHOM_ERR_NOT_FINITE, "fathom_tap_place_box",
           "u", P_FINITE);
    EXPECT(fathom_tap_place_box(&k, &skew, 1, 1, NULL, &box, &found), FATHOM_ERR_NOT_RIGID, "fathom_tap_place_box",
           "camera_to_world", P_ANY);
    box.scale.y = -1;
    before = box;
    EXPECT(fathom_tap_place_box(&k, &cam, 320, 240, NULL, &box, &found), FATHOM_ERR_OUT_OF_RANGE, "fathom_tap_place_box",
           "scale", P_ANY);
    CHECK(memcmp(&box, &before, sizeof box) == 0);
    box.scale.y = 1;
    t_set_bool_byte(&box.has_floor, 2);
    before = box;
    EXPECT(fathom_tap_place_box(&k, &cam, 320, 240, NULL, &box, &found), FATHOM_ERR_OUT_OF_RANGE, "fathom_tap_place_box",
           "has_floor", P_ANY);
    CHECK(memcmp(&box, &before, sizeof box) == 0);
    box.has_floor = 1;
    CHECK(t_bool_byte(&found) == 5);

    EXPECT(fathom_tap_box_face(&k, &cam, 1, (float)NAN, &box, &face), FATHOM_ERR_NOT_FINITE, "fathom_tap_box_face", "v",
           P_FINITE);
    EXPECT(fathom_tap_box_face(&k, &skew, 1, 1, &box, &face), FATHOM_ERR_NOT_RIGID, "fathom_tap_box_face",
           "camera_to_world", P_ANY);
    box.center.x = (float)NAN;
    EXPECT(fathom_tap_box_face(&k, &cam, 1, 1, &box, &face), FATHOM_ERR_NOT_FINITE, "fathom_tap_box_face", "center",
           P_FINITE);
    CHECK(face == 5);
}

int main(void) {
    init_arrays();
    t_cube_triangles(CUBE_I);
    if (fathom_mesh_create(&T_CUBE_V[0][0], 8, 12, CUBE_I, 12, NULL, FATHOM_MESH_COPY, &CUBE) != FATHOM_OK) {
        printf("cannot make the cube mesh: %s\n", fathom_last_error());
        return 1;
    }
    test_null_pointers();
    test_create();
    test_degenerate_and_empty();
    test_rays();
    test_batches();
    test_files();
    test_taps();
    fathom_mesh_destroy(CUBE);
    return check_summary("test_mesh_bad_input");
}
