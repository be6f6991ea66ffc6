/* Point clouds and PLY, mesh export, transforms.json through the C ABI: statuses, NULL arguments,
 * capacities (too small, exact, size queries), formats and strides, round trips against the values written,
 * files written here byte by byte (big-endian doubles, row-major JSON), a transforms.json handle asked more than
 * once (the same frames and paths each time; NULL after a failed read), and bad files and arguments with the
 * status and a message naming the function and the argument, file, frame or key. */
#define _XOPEN_SOURCE 700

#include "fathom.h"
#include "check.h"
#include "tempdir.h"
#include "testmath.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char TMP[64];

static const char *tmp_path(const char *name) {
    static char paths[8][256];
    static int next = 0;
    char *p = paths[next];
    next = (next + 1) % 8;
    snprintf(p, 256, "%s/%s", TMP, name);
    return p;
}

static int file_exists(const char *path) { return access(path, F_OK) == 0; }

static int same_floats(const float *a, const float *b, size_t n) { return memcmp(a, b, n * sizeof(float)) == 0; }

/* Six points with normals, colours and confidence; point 1 has extreme magnitudes. */
static float P[6][3] = {{0, 0, 0}, {1e-30f, -1e30f, -0.0f}, {1, 2, 3}, {0.1f, 0.2f, 0.3f}, {-5, 4.25f, 1.0f / 3}, {7, 8, 9}};
static float N[6][3] = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {0, 0, -1}, {0.6f, 0.8f, 0}, {0, -0.6f, 0.8f}};
static uint8_t C[6][3] = {{0, 0, 0}, {255, 255, 255}, {1, 2, 3}, {10, 20, 30}, {200, 100, 0}, {7, 8, 9}};
static uint8_t CONF[6] = {0, 1, 2, 2, 1, 0};

static void test_write_and_read(void) {
    uint32_t format;
    check_section("write points, read them back (binary and ascii, every optional array)");
    for (format = FATHOM_PLY_BINARY; format <= FATHOM_PLY_ASCII; format++) {
        int mask;
        for (mask = 0; mask < 8; mask++) {
            const int wn = mask & 1, wc = (mask >> 1) & 1, wq = (mask >> 2) & 1;
            const char *path = tmp_path("cloud.ply");
            fathom_point_cloud *cloud = NULL;
            fathom_point_cloud_info info;
            float pts[18], nrm[18];
            uint8_t col[18], conf[6];
            CHECK_OK(fathom_ply_write_points(path, &P[0][0], 6, 12, wn ? &N[0][0] : NULL, wc ? &C[0][0] : NULL,
                                             wq ? CONF : NULL, format));
            CHECK_OK(fathom_point_cloud_load_ply(path, &cloud));
            if (!cloud) continue;
            CHECK_OK(fathom_point_cloud_get_info(cloud, &info));
            CHECK(info.count == 6);
            CHECK(info.has_normals == (wn != 0) && info.has_colors == (wc != 0) && info.has_confidence == (wq != 0));
            CHECK_OK(fathom_point_cloud_points(cloud, pts, 6));
            CHECK(same_floats(pts, &P[0][0], 18)); /* bit for bit, ascii included (-0.0 too) */
            if (wn) {
                CHECK_OK(fathom_point_cloud_normals(cloud, nrm, 6));
                CHECK(same_floats(nrm, &N[0][0], 18));
            } else {
                CHECK_STATUS(fathom_point_cloud_normals(cloud, nrm, 6), FATHOM_ERR_NO_DATA);
                CHECK_ERROR_MENTIONS("fathom_point_cloud_normals");
            }
            if (wc) {
                CHECK_OK(fathom_point_cloud_colors(cloud, col, 6));
                CHECK(memcmp(col, C, 18) == 0);
            } else {
                CHECK_STATUS(fathom_point_cloud_colors(cloud, col, 6), FATHOM_ERR_NO_DATA);
            }
            if (wq) {
                CHECK_OK(fathom_point_cloud_confidence(cloud, conf, 6));
                CHECK(memcmp(conf, CONF, 6) == 0);
            } else {
                CHECK_STATUS(fathom_point_cloud_confidence(cloud, conf, 6), FATHOM_ERR_NO_DATA);
            }
            /* save_ply in the other format, read again. */
            CHECK_OK(fathom_point_cloud_save_ply(cloud, tmp_path("again.ply"), 1 - format));
            fathom_point_cloud_destroy(cloud);
            cloud = NULL;
            CHECK_OK(fathom_point_cloud_load_ply(tmp_path("again.ply"), &cloud));
            if (cloud) {
                memset(pts, 0, sizeof pts);
                CHECK_OK(fathom_point_cloud_points(cloud, pts, 6));
                CHECK(same_floats(pts, &P[0][0], 18));
                fathom_point_cloud_destroy(cloud);
            }
        }
    }

    check_section("the ascii file's text");
    {
        FILE *f;
        char text[1024];
        size_t n;
        CHECK_OK(fathom_ply_write_points(tmp_path("a.ply"), &P[2][0], 1, 12, NULL, &C[2][0], &CONF[2], FATHOM_PLY_ASCII));
        f = fopen(tmp_path("a.ply"), "rb");
        CHECK(f != NULL);
        if (f) {
            n = fread(text, 1, sizeof text - 1, f);
            fclose(f);
            text[n] = '\0';
            CHECK(strcmp(text, "ply\nformat ascii 1.0\ncomment written by Fathom\nelement vertex 1\nproperty float x\n"
                               "property float y\nproperty float z\nproperty uchar red\nproperty uchar green\n"
                               "property uchar blue\nproperty uchar confidence\nend_header\n1 2 3 1 2 3 2\n") == 0);
        }
    }

    check_section("interleaved points (stride 24) and an empty cloud");
    {
        float xyzn[4][6] = {{1, 2, 3, 9, 9, 9}, {4, 5, 6, 9, 9, 9}, {7, 8, 9, 9, 9, 9}, {-1, -2, -3, 9, 9, 9}};
        float pts[12];
        fathom_point_cloud *cloud = NULL;
        fathom_point_cloud_info info;
        CHECK_OK(fathom_ply_write_points(tmp_path("s.ply"), &xyzn[0][0], 4, 24, NULL, NULL, NULL, FATHOM_PLY_BINARY));
        CHECK_OK(fathom_point_cloud_load_ply(tmp_path("s.ply"), &cloud));
        if (cloud) {
            int i;
            CHECK_OK(fathom_point_cloud_points(cloud, pts, 4));
            for (i = 0; i < 4; i++) CHECK(same_floats(pts + 3 * i, xyzn[i], 3));
            fathom_point_cloud_destroy(cloud);
        }
        cloud = NULL;
        CHECK_OK(fathom_ply_write_points(tmp_path("e.ply"), NULL, 0, 0, NULL, NULL, NULL, FATHOM_PLY_ASCII));
        CHECK_OK(fathom_point_cloud_load_ply(tmp_path("e.ply"), &cloud));
        if (cloud) {
            CHECK_OK(fathom_point_cloud_get_info(cloud, &info));
            CHECK(info.count == 0);
            CHECK_OK(fathom_point_cloud_points(cloud, NULL, 0)); /* nothing to copy: NULL is fine */
            fathom_point_cloud_destroy(cloud);
        }
    }
}

static void test_capacities_and_nulls(void) {
    fathom_point_cloud *cloud = NULL;
    fathom_point_cloud *sentinel = (fathom_point_cloud *)&cloud;
    fathom_point_cloud *out = sentinel;
    fathom_point_cloud_info info;
    float pts[18];
    uint8_t col[18];
    const char *path = tmp_path("c.ply");
    check_section("capacities");
    CHECK_OK(fathom_ply_write_points(path, &P[0][0], 6, 12, &N[0][0], &C[0][0], CONF, FATHOM_PLY_BINARY));
    CHECK_OK(fathom_point_cloud_load_ply(path, &cloud));
    if (!cloud) return;
    pts[0] = 42.0f;
    CHECK_STATUS(fathom_point_cloud_points(cloud, pts, 5), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK_ERROR_MENTIONS("capacity 5");
    CHECK(pts[0] == 42.0f); /* nothing written */
    CHECK_STATUS(fathom_point_cloud_points(cloud, NULL, 0), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(fathom_point_cloud_normals(cloud, pts, 1), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(fathom_point_cloud_colors(cloud, col, 5), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(fathom_point_cloud_confidence(cloud, col, 5), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK_OK(fathom_point_cloud_points(cloud, pts, SIZE_MAX)); /* a large capacity is fine */

    check_section("NULL arguments");
    CHECK_STATUS(fathom_point_cloud_load_ply(NULL, &out), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("path");
    CHECK_STATUS(fathom_point_cloud_load_ply(path, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK(out == sentinel);
    CHECK_STATUS(fathom_point_cloud_get_info(NULL, &info), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("cloud");
    CHECK_STATUS(fathom_point_cloud_get_info(cloud, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_point_cloud_points(NULL, pts, 6), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_point_cloud_points(cloud, NULL, 6), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("fathom_point_cloud_points: out");
    CHECK_STATUS(fathom_point_cloud_colors(cloud, NULL, 6), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_point_cloud_save_ply(NULL, path, 0), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_point_cloud_save_ply(cloud, NULL, 0), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ply_write_points(NULL, &P[0][0], 6, 12, NULL, NULL, NULL, 0), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_ply_write_points(path, NULL, 6, 12, NULL, NULL, NULL, 0), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("points");
    fathom_point_cloud_destroy(NULL);

    check_section("bad formats, strides, counts and values");
    unlink(tmp_path("bad.ply"));
    CHECK_STATUS(fathom_point_cloud_save_ply(cloud, tmp_path("bad.ply"), 2), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("format");
    CHECK_STATUS(fathom_ply_write_points(tmp_path("bad.ply"), &P[0][0], 6, 12, NULL, NULL, NULL, 7), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_ply_write_points(tmp_path("bad.ply"), &P[0][0], 6, 8, NULL, NULL, NULL, 0), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("stride");
    CHECK_STATUS(fathom_ply_write_points(tmp_path("bad.ply"), &P[0][0], SIZE_MAX / 8, 16, NULL, NULL, NULL, 0),
                 FATHOM_ERR_OVERFLOW);
    CHECK_STATUS(fathom_ply_write_points(tmp_path("bad.ply"), &P[0][0], (size_t)-1, 12, NULL, NULL, NULL, 0),
                 FATHOM_ERR_OVERFLOW);
    {
        float bad[2][3] = {{0, 0, 0}, {0, NAN, 0}};
        float badn[2][3] = {{0, 0, 1}, {INFINITY, 0, 0}};
        CHECK_STATUS(fathom_ply_write_points(tmp_path("bad.ply"), &bad[0][0], 2, 12, NULL, NULL, NULL, 0), FATHOM_ERR_NOT_FINITE);
        CHECK_ERROR_MENTIONS("points[1]");
        CHECK_STATUS(fathom_ply_write_points(tmp_path("bad.ply"), &P[0][0], 2, 12, &badn[0][0], NULL, NULL, 0),
                     FATHOM_ERR_NOT_FINITE);
        CHECK_ERROR_MENTIONS("normals[1]");
    }
    CHECK(!file_exists(tmp_path("bad.ply"))); /* nothing written by a refused call */
    CHECK_STATUS(fathom_ply_write_points("/nonexistent-dir/x.ply", &P[0][0], 6, 12, NULL, NULL, NULL, 0), FATHOM_ERR_IO);
    fathom_point_cloud_destroy(cloud);
}

static void test_files(void) {
    fathom_point_cloud *cloud = NULL;
    t_buf b;
    float pts[6];
    check_section("a big-endian file with double x y z and extra properties, written byte by byte");
    memset(&b, 0, sizeof b);
    t_buf_str(&b, "ply\nformat binary_big_endian 1.0\ncomment by hand\nelement camera 1\nproperty float f\n"
                  "element vertex 2\nproperty double x\nproperty double y\nproperty double z\nproperty uchar alpha\n"
                  "property list uchar int ids\nend_header\n");
    t_buf_put(&b, "\x3f\x80\x00\x00", 4); /* camera f = 1.0f, big-endian */
    t_buf_f64(&b, 0.1, 1);
    t_buf_f64(&b, -2.5, 1);
    t_buf_f64(&b, 3.0, 1);
    t_buf_put(&b, "\xff\x02\x00\x00\x00\x01\x00\x00\x00\x02", 10); /* alpha, a list of 2 ints */
    t_buf_f64(&b, 4.0, 1);
    t_buf_f64(&b, 5.0, 1);
    t_buf_f64(&b, 6.0, 1);
    t_buf_put(&b, "\x00\x00", 2); /* alpha, an empty list */
    CHECK(t_write_file(tmp_path("be.ply"), b.p, b.n));
    CHECK_OK(fathom_point_cloud_load_ply(tmp_path("be.ply"), &cloud));
    if (cloud) {
        CHECK_OK(fathom_point_cloud_points(cloud, pts, 2));
        CHECK(pts[0] == (float)0.1 && pts[1] == -2.5f && pts[2] == 3.0f); /* doubles rounded to float */
        CHECK(pts[3] == 4.0f && pts[4] == 5.0f && pts[5] == 6.0f);
        fathom_point_cloud_destroy(cloud);
    }

    check_section("a cut file names the file and where");
    cloud = (fathom_point_cloud *)&b;
    CHECK(t_write_file(tmp_path("cut.ply"), b.p, b.n - 3));
    CHECK_STATUS(fathom_point_cloud_load_ply(tmp_path("cut.ply"), &cloud), FATHOM_ERR_PARSE);
    CHECK_ERROR_MENTIONS("cut.ply");
    CHECK_ERROR_MENTIONS("byte offset");
    CHECK(cloud == (fathom_point_cloud *)&b); /* untouched */
    t_buf_free(&b);

    check_section("not a PLY, a missing file, a header without x");
    CHECK(t_write_file(tmp_path("x.ply"), "v 1 2 3\n", 8));
    CHECK_STATUS(fathom_point_cloud_load_ply(tmp_path("x.ply"), &cloud), FATHOM_ERR_PARSE);
    CHECK_STATUS(fathom_point_cloud_load_ply(tmp_path("missing.ply"), &cloud), FATHOM_ERR_IO);
    {
        const char *text = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float y\nproperty float z\nend_header\n1 2\n";
        CHECK(t_write_file(tmp_path("nox.ply"), text, strlen(text)));
        CHECK_STATUS(fathom_point_cloud_load_ply(tmp_path("nox.ply"), &cloud), FATHOM_ERR_FORMAT);
        CHECK_ERROR_MENTIONS("no x property");
    }
}

/* ---- mesh export -------------------------------------------------------------------------------- */

static void test_mesh_export(void) {
    /* Five vertices, the last unused; triangle 2 is degenerate (collinear). */
    const float v[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}, {9, 9, 9}};
    const uint32_t t[3][3] = {{0, 1, 2}, {1, 3, 2}, {0, 1, 3}};
    const uint8_t classes[3] = {1, 2, 7};
    const char *exts[2] = {"m.ply", "m.obj"};
    fathom_mesh *mesh = NULL, *plain = NULL, *borrowed = NULL;
    float outv[15];
    uint32_t outt[9];
    uint8_t outc[3];
    int e;
    check_section("fathom_mesh_vertices / triangles / classes give back the input");
    CHECK_OK(fathom_mesh_create(&v[0][0], 5, 12, &t[0][0], 3, classes, FATHOM_MESH_COPY, &mesh));
    CHECK_OK(fathom_mesh_create(&v[0][0], 5, 12, &t[0][0], 3, NULL, FATHOM_MESH_COPY, &plain));
    CHECK_OK(fathom_mesh_create(&v[0][0], 5, 12, &t[0][0], 3, NULL, FATHOM_MESH_BORROW, &borrowed));
    if (!mesh || !plain || !borrowed) return;
    CHECK_OK(fathom_mesh_vertices(mesh, outv, 5));
    CHECK(same_floats(outv, &v[0][0], 15));
    memset(outv, 0, sizeof outv);
    CHECK_OK(fathom_mesh_vertices(borrowed, outv, 5));
    CHECK(same_floats(outv, &v[0][0], 15));
    CHECK_OK(fathom_mesh_triangles(mesh, outt, 3));
    CHECK(memcmp(outt, t, sizeof t) == 0);
    CHECK_OK(fathom_mesh_classes(mesh, outc, 3));
    CHECK(memcmp(outc, classes, 3) == 0);
    CHECK_STATUS(fathom_mesh_classes(plain, outc, 3), FATHOM_ERR_NO_DATA);

    check_section("capacities and NULLs");
    outv[0] = 42.0f;
    CHECK_STATUS(fathom_mesh_vertices(mesh, outv, 4), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(outv[0] == 42.0f);
    CHECK_STATUS(fathom_mesh_triangles(mesh, outt, 2), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(fathom_mesh_classes(mesh, outc, 0), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(fathom_mesh_vertices(NULL, outv, 5), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("mesh");
    CHECK_STATUS(fathom_mesh_vertices(mesh, NULL, 5), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_mesh_triangles(mesh, NULL, 3), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_mesh_save(NULL, tmp_path("m.ply")), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_mesh_save(mesh, NULL), FATHOM_ERR_NULL_POINTER);

    check_section("save as PLY and OBJ, load back");
    for (e = 0; e < 2; e++) {
        fathom_mesh *loaded = NULL;
        fathom_mesh_info info;
        CHECK_OK(fathom_mesh_save(mesh, tmp_path(exts[e])));
        CHECK_OK(fathom_mesh_load(tmp_path(exts[e]), &loaded));
        if (!loaded) continue;
        CHECK_OK(fathom_mesh_get_info(loaded, &info));
        CHECK(info.vertex_count == 5 && info.triangle_count == 3);
        CHECK_OK(fathom_mesh_vertices(loaded, outv, 5));
        CHECK(same_floats(outv, &v[0][0], 15));
        CHECK_OK(fathom_mesh_triangles(loaded, outt, 3));
        CHECK(memcmp(outt, t, sizeof t) == 0);
        if (e == 0) {
            CHECK_OK(fathom_mesh_classes(loaded, outc, 3));
            CHECK(memcmp(outc, classes, 3) == 0);
        } else {
            CHECK_STATUS(fathom_mesh_classes(loaded, outc, 3), FATHOM_ERR_NO_DATA); /* OBJ has none */
        }
        {
            fathom_ray ray = {{0.25f, 0.25f, 1}, {0, 0, -1}};
            fathom_hit hit;
            CHECK_OK(fathom_mesh_intersect(loaded, &ray, 0, INFINITY, &hit));
            CHECK(hit.primitive == 0 && hit.t == 1.0f);
        }
        fathom_mesh_destroy(loaded);
    }
    CHECK_STATUS(fathom_mesh_save(mesh, tmp_path("m.stl")), FATHOM_ERR_FORMAT);
    CHECK_ERROR_MENTIONS("extension");
    CHECK(!file_exists(tmp_path("m.stl")));
    CHECK_STATUS(fathom_mesh_save(mesh, "/nonexistent-dir/m.ply"), FATHOM_ERR_IO);
    fathom_mesh_destroy(mesh);
    fathom_mesh_destroy(plain);
    fathom_mesh_destroy(borrowed);
}

/* ---- transforms.json ---------------------------------------------------------------------------- */

static void write_text(const char *path, const char *text) { CHECK(t_write_file(path, text, strlen(text))); }

/* A pointer value that a failed fathom_transforms_read must replace with NULL. */
static int SENTINEL_OBJECT;
#define SENTINEL_TRANSFORMS ((fathom_transforms *)(void *)&SENTINEL_OBJECT)

/* fathom_transforms_read of `path` expected to fail with `expected`: *out is NULL afterwards. A macro, so that
 * a failure names the caller's line. */
#define CHECK_READ_FAILS(path, rate, expected)                                                            \
    do {                                                                                                  \
        fathom_transforms *check_t_ = SENTINEL_TRANSFORMS;                                                \
        CHECK_STATUS(fathom_transforms_read((path), (rate), &check_t_), (expected));                      \
        CHECK(check_t_ == NULL);                                                                          \
        if (check_t_ != SENTINEL_TRANSFORMS) fathom_transforms_destroy(check_t_);                         \
    } while (0)

static void test_transforms(void) {
    /* Frame 0: identity at (1, 2, 3). Frame 1: 90 degrees about y (x -> -z), at (0, 0, -1), its own fl_x. */
    const char *json =
        "{\"w\": 640, \"h\": 480, \"fl_x\": 500, \"cy\": 250.5, \"aabb_scale\": 16,\n"
        " \"frames\": [\n"
        "  {\"file_path\": \"images/a.png\", \"transform_matrix\": [[1,0,0,1],[0,1,0,2],[0,0,1,3],[0,0,0,1]]},\n"
        "  {\"file_path\": \"images/b.png\", \"fl_x\": 600, \"transform_matrix\": [[0,0,1,0],[0,1,0,0],[-1,0,0,-1],[0,0,0,1]]},\n"
        "  {\"transform_matrix\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}\n"
        " ]}\n";
    const char *path = tmp_path("transforms.json");
    int64_t ts[3];
    fathom_pose poses[3];
    fathom_intrinsics ks[3];
    size_t count = 99, length = 0;
    char names[64];
    fathom_transforms *t = NULL, *t30 = NULL;
    check_section("transforms.json: sizes, poses (row-major in the file), intrinsics, timestamps");
    write_text(path, json);
    CHECK_OK(fathom_transforms_read(path, 0, &t));
    CHECK(t != NULL);
    CHECK_STATUS(fathom_transforms_frames(t, NULL, NULL, NULL, 0, &count), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(count == 3);
    CHECK_STATUS(fathom_transforms_frames(t, ts, poses, ks, 2, &count), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK_OK(fathom_transforms_frames(t, ts, poses, ks, 3, &count));
    CHECK(count == 3 && ts[0] == 0 && ts[1] == 1 && ts[2] == 2);
    /* Column-major: translation at 12..14; frame 1's column 0 (its x axis) is (0, 0, -1). */
    CHECK(poses[0].m[12] == 1 && poses[0].m[13] == 2 && poses[0].m[14] == 3 && poses[0].m[0] == 1);
    CHECK(poses[1].m[0] == 0 && poses[1].m[2] == -1 && poses[1].m[8] == 1 && poses[1].m[14] == -1);
    CHECK(ks[0].fx == 500 && ks[0].fy == 500 && ks[0].cx == 320 && ks[0].cy == 250.5f);
    CHECK(ks[0].width == 640 && ks[0].height == 480);
    CHECK(ks[1].fx == 600 && ks[1].fy == 600); /* fl_y defaults to the frame's own fl_x */
    CHECK_OK(fathom_transforms_read(path, 30, &t30));
    CHECK_OK(fathom_transforms_frames(t30, ts, poses, ks, 3, &count));
    CHECK(ts[1] == 33333333 && ts[2] == 66666667); /* round(i * 1e9 / 30) */

    check_section("one handle asked again: the same frames; a too small capacity writes nothing");
    {
        int64_t ts2[4];
        fathom_pose poses2[4];
        fathom_intrinsics ks2[4];
        size_t count2 = 0;
        memset(ts2, 0xA5, sizeof ts2);
        memset(poses2, 0xA5, sizeof poses2);
        memset(ks2, 0xA5, sizeof ks2);
        CHECK_STATUS(fathom_transforms_frames(t, ts2, poses2, ks2, 2, &count2), FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(count2 == 3);
        CHECK(((const unsigned char *)ts2)[0] == 0xA5 && ((const unsigned char *)poses2)[0] == 0xA5 &&
              ((const unsigned char *)ks2)[0] == 0xA5);
        /* Room for 4: three frames written, the fourth slot untouched. */
        CHECK_OK(fathom_transforms_frames(t, ts2, poses2, ks2, 4, &count2));
        CHECK(count2 == 3 && ts2[0] == 0 && ts2[1] == 1 && ts2[2] == 2);
        CHECK(((const unsigned char *)&ts2[3])[0] == 0xA5 && ((const unsigned char *)&poses2[3])[0] == 0xA5);
        /* The rate changes the timestamps only. */
        CHECK(memcmp(poses2, poses, sizeof poses) == 0 && memcmp(ks2, ks, sizeof ks) == 0);
        CHECK_OK(fathom_transforms_frames(t30, ts2, poses2, ks2, 3, &count2));
        CHECK(count2 == 3 && memcmp(ts2, ts, sizeof ts) == 0);
        CHECK(memcmp(poses2, poses, sizeof poses) == 0 && memcmp(ks2, ks, sizeof ks) == 0);
    }

    check_section("file paths");
    CHECK_STATUS(fathom_transforms_paths(t, NULL, 0, &length), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(length == 12 + 1 + 12 + 1 + 1);
    memset(names, '#', sizeof names);
    CHECK_STATUS(fathom_transforms_paths(t, names, 26, &length), FATHOM_ERR_BUFFER_TOO_SMALL);
    CHECK(length == 27 && names[0] == '#' && names[25] == '#');
    CHECK_OK(fathom_transforms_paths(t, names, sizeof names, &length));
    CHECK(length == 27 && memcmp(names, "images/a.png\0images/b.png\0\0", 27) == 0);
    {
        /* Asked again, and from the handle read at another rate: the same bytes. */
        char again[64];
        size_t again_length = 0;
        memset(again, '#', sizeof again);
        CHECK_OK(fathom_transforms_paths(t, again, sizeof again, &again_length));
        CHECK(again_length == 27 && memcmp(again, names, 27) == 0 && again[27] == '#');
        memset(again, '#', sizeof again);
        CHECK_OK(fathom_transforms_paths(t30, again, 27, &again_length));
        CHECK(again_length == 27 && memcmp(again, names, 27) == 0);
    }
    fathom_transforms_destroy(t30);
    t30 = NULL;

    check_section("save and read back");
    {
        const char *paths[3] = {"x.png", "quote\".png", "z.png"};
        fathom_pose back[3];
        fathom_intrinsics kback[3];
        fathom_transforms *saved = NULL, *none = NULL;
        int i;
        CHECK_OK(fathom_transforms_save(tmp_path("out.json"), poses, ks, 3, paths));
        CHECK_OK(fathom_transforms_read(tmp_path("out.json"), 0, &saved));
        CHECK_OK(fathom_transforms_frames(saved, ts, back, kback, 3, &count));
        CHECK(count == 3);
        for (i = 0; i < 3; i++) {
            CHECK(memcmp(&back[i], &poses[i], sizeof back[i]) == 0);
            CHECK(memcmp(&kback[i], &ks[i], sizeof kback[i]) == 0);
        }
        CHECK_OK(fathom_transforms_paths(saved, names, sizeof names, &length));
        CHECK(length == 6 + 11 + 6 && memcmp(names, "x.png\0quote\".png\0z.png\0", length) == 0);
        fathom_transforms_destroy(saved);
        CHECK_OK(fathom_transforms_save(tmp_path("none.json"), NULL, NULL, 0, NULL));
        CHECK_OK(fathom_transforms_read(tmp_path("none.json"), 0, &none));
        CHECK_OK(fathom_transforms_frames(none, NULL, NULL, NULL, 0, &count));
        CHECK(count == 0);
        length = 99;
        CHECK_OK(fathom_transforms_paths(none, NULL, 0, &length));
        CHECK(length == 0);
        fathom_transforms_destroy(none);
    }

    check_section("bad arguments");
    CHECK_STATUS(fathom_transforms_read(NULL, 0, &t30), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("path");
    CHECK_STATUS(fathom_transforms_read(path, 0, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out");
    CHECK_READ_FAILS(NULL, 0, FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_transforms_read(path, -1, &t30), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("rate");
    CHECK_READ_FAILS(path, -1, FATHOM_ERR_OUT_OF_RANGE);
    CHECK_READ_FAILS(path, NAN, FATHOM_ERR_NOT_FINITE);
    CHECK_READ_FAILS(path, 1e-12, FATHOM_ERR_OVERFLOW); /* frame 2 at 2e21 ns */
    /* The path is checked first, then the rate, then out. */
    CHECK_STATUS(fathom_transforms_read(NULL, -1, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("path");
    CHECK_STATUS(fathom_transforms_read(path, NAN, NULL), FATHOM_ERR_NOT_FINITE);
    count = 99;
    CHECK_STATUS(fathom_transforms_frames(NULL, ts, poses, ks, 3, &count), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("transforms");
    CHECK(count == 99);
    CHECK_STATUS(fathom_transforms_frames(t, NULL, poses, ks, 3, &count), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out_timestamps");
    CHECK_STATUS(fathom_transforms_frames(t, ts, NULL, ks, 3, &count), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out_poses");
    CHECK_STATUS(fathom_transforms_frames(t, ts, poses, NULL, 3, &count), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out_intrinsics");
    CHECK_STATUS(fathom_transforms_frames(t, ts, poses, ks, 3, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out_count");
    CHECK(count == 99);
    length = 99;
    CHECK_STATUS(fathom_transforms_paths(NULL, names, sizeof names, &length), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("transforms");
    CHECK_STATUS(fathom_transforms_paths(t, NULL, sizeof names, &length), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("buffer");
    CHECK_STATUS(fathom_transforms_paths(t, names, sizeof names, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("out_length");
    CHECK(length == 99);
    fathom_transforms_destroy(NULL); /* allowed, does nothing */
    check_pass_();
    fathom_transforms_destroy(t);
    t = NULL;
    CHECK_STATUS(fathom_transforms_save(tmp_path("bad.json"), NULL, ks, 3, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("poses");
    {
        const char *with_null[3] = {"a", NULL, "c"};
        fathom_pose scaled = poses[0];
        fathom_pose bad[2];
        fathom_intrinsics zero = ks[0];
        CHECK_STATUS(fathom_transforms_save(tmp_path("bad.json"), poses, ks, 3, with_null), FATHOM_ERR_NULL_POINTER);
        CHECK_ERROR_MENTIONS("file_paths[1]");
        scaled.m[0] = 2;
        bad[0] = poses[0];
        bad[1] = scaled;
        CHECK_STATUS(fathom_transforms_save(tmp_path("bad.json"), bad, ks, 2, NULL), FATHOM_ERR_NOT_RIGID);
        CHECK_ERROR_MENTIONS("poses[1]");
        zero.width = 0;
        CHECK_STATUS(fathom_transforms_save(tmp_path("bad.json"), poses, &zero, 1, NULL), FATHOM_ERR_OUT_OF_RANGE);
        CHECK_ERROR_MENTIONS("intrinsics[0].width");
        CHECK(!file_exists(tmp_path("bad.json")));
    }

    check_section("bad files name the frame and the key; *out is NULL");
    write_text(tmp_path("b1.json"), "{\"w\": 4, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": "
                                    "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}, {\"file_path\": \"x\"}]}");
    CHECK_READ_FAILS(tmp_path("b1.json"), 0, FATHOM_ERR_FORMAT);
    CHECK_ERROR_MENTIONS("frames[1].transform_matrix");
    write_text(tmp_path("b2.json"), "{\"w\": 4, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": "
                                    "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}, {\"transform_matrix\": "
                                    "[[1,0,0,0],[0,1,0,0],[0,0,3,0],[0,0,0,1]]}]}");
    CHECK_READ_FAILS(tmp_path("b2.json"), 0, FATHOM_ERR_NOT_RIGID);
    CHECK_ERROR_MENTIONS("frame 1");
    write_text(tmp_path("b3.json"), "{\"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": "
                                    "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}");
    CHECK_READ_FAILS(tmp_path("b3.json"), 0, FATHOM_ERR_FORMAT);
    CHECK_ERROR_MENTIONS("frame 0: no w");
    write_text(tmp_path("b4.json"), "{\"frames\": [");
    CHECK_READ_FAILS(tmp_path("b4.json"), 0, FATHOM_ERR_PARSE);
    /* A NUL in a path would name another file once handed to the system: refused when the file is read. */
    write_text(tmp_path("b5.json"), "{\"w\": 4, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"file_path\": \"a\\u0000b\", "
                                    "\"transform_matrix\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}");
    CHECK_READ_FAILS(tmp_path("b5.json"), 0, FATHOM_ERR_FORMAT);
    CHECK_ERROR_MENTIONS("frames[0].file_path");
    CHECK_ERROR_MENTIONS("NUL");
    CHECK_READ_FAILS(tmp_path("missing.json"), 0, FATHOM_ERR_IO);
    CHECK_READ_FAILS(TMP, 0, FATHOM_ERR_IO); /* a folder */
}

int main(void) {
    if (!make_temp_dir(TMP, sizeof TMP, "ply-test")) return 1;
    test_write_and_read();
    test_capacities_and_nulls();
    test_files();
    test_mesh_export();
    test_transforms();
    remove_tree(TMP);
    return check_summary("test_pointcloud");
}
