/* Threads sharing one mesh, threads sharing one open scan, and threads each with its own coverage tracker: the
 * header's thread-safety promises, run under ThreadSanitizer by `make test-sanitize` (and plainly by `make test`).
 * Every thread's answers must equal the single-threaded ones. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tempdir.h"
#include "fathom.h"

#define THREADS 8
#define RAYS 2000
#define GRID 24

static float g_vertices[(GRID + 1) * (GRID + 1) * 3];
static uint32_t g_indices[GRID * GRID * 6];
static fathom_ray g_rays[RAYS];
static fathom_hit g_expected[RAYS];
static fathom_mesh *g_mesh;

/* A wavy height field 2 x 2 m, and rays from above at spread angles. */
static void make_scene(void) {
    int i, j, k = 0;
    for (j = 0; j <= GRID; j++)
        for (i = 0; i <= GRID; i++) {
            float x = -1.0f + 2.0f * (float)i / GRID, z = -1.0f + 2.0f * (float)j / GRID;
            g_vertices[k++] = x;
            g_vertices[k++] = 0.1f * (float)((i * 7 + j * 3) % 5) / 5.0f;
            g_vertices[k++] = z;
        }
    k = 0;
    for (j = 0; j < GRID; j++)
        for (i = 0; i < GRID; i++) {
            uint32_t a = (uint32_t)(j * (GRID + 1) + i), b = a + 1, c = a + GRID + 1, d = c + 1;
            g_indices[k++] = a; g_indices[k++] = c; g_indices[k++] = b;
            g_indices[k++] = b; g_indices[k++] = c; g_indices[k++] = d;
        }
    for (i = 0; i < RAYS; i++) {
        float s = (float)i / RAYS;
        fathom_ray r = {{-1.2f + 2.4f * s, 2.0f, 1.1f - 2.2f * (float)((i * 37) % RAYS) / RAYS}, {0.1f - 0.2f * s, -1.0f, 0.05f}};
        g_rays[i] = r;
    }
}

static void *cast_all(void *arg) {
    int *mismatches = arg, i;
    for (i = 0; i < RAYS; i++) {
        fathom_hit hit;
        if (fathom_mesh_intersect(g_mesh, &g_rays[i], 0.0f, 1e30f, &hit) != FATHOM_OK ||
            memcmp(&hit, &g_expected[i], sizeof hit) != 0)
            (*mismatches)++;
    }
    return NULL;
}

/* Each thread records the same orbit into its own tracker; the counts must match the single-threaded ones. */
static fathom_box g_box;
static uint32_t g_counts[6];

static void orbit(fathom_coverage *coverage) {
    int k;
    for (k = 0; k < 72; k++) {
        float a = (float)k * 0.0872665f, c = cosf(a), s = sinf(a);
        /* camera at (2s, 0.3, 2c) looking at the origin: -z axis toward the box, +y up */
        fathom_pose pose = {{c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 2 * s, 0.3f, 2 * c, 1}};
        fathom_coverage_record(coverage, &pose, NULL, NULL);
    }
}

static void *track(void *arg) {
    int *mismatches = arg;
    fathom_coverage *coverage = NULL;
    uint32_t face;
    if (fathom_coverage_create(&g_box, NULL, &coverage) != FATHOM_OK) { (*mismatches)++; return NULL; }
    orbit(coverage);
    for (face = 0; face < 6; face++) {
        fathom_face_coverage f;
        if (fathom_coverage_face(coverage, face, &f) != FATHOM_OK || f.count != g_counts[face]) (*mismatches)++;
    }
    fathom_coverage_destroy(coverage);
    return NULL;
}

/* A scan of FRAMES frames of SW x SH float16 depth, written with the library's writer; threads read every frame
 * of one open scan in different orders. */
#define FRAMES 24
#define SW 32
#define SH 24
static fathom_scan *g_scan;
static uint16_t g_frames[FRAMES][SW * SH];

static int write_scan(const char *dir) {
    fathom_scan_writer_options o;
    fathom_scan_writer *w = NULL;
    fathom_intrinsics k = {600, 600, 320, 240, 640, 480};
    int f, i, ok = 1;
    if (fathom_scan_writer_options_init(&o) != FATHOM_OK) return 0;
    o.depth_width = SW; o.depth_height = SH; o.rgb_width = 640; o.rgb_height = 480; o.with_confidence = 0;
    if (fathom_scan_writer_create(dir, "threads", &o, &w) != FATHOM_OK) return 0;
    for (f = 0; f < FRAMES && ok; f++) {
        fathom_pose p = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.01f * (float)f, 0, 0, 1}};
        for (i = 0; i < SW * SH; i++) g_frames[f][i] = (uint16_t)(0x3C00 + (uint16_t)((f * 131 + i * 7) % 1024));
        ok = fathom_scan_writer_append(w, 1000000LL * f, &k, &p, g_frames[f], sizeof g_frames[f], NULL, 0) == FATHOM_OK;
    }
    ok = ok && fathom_scan_writer_finish(w) == FATHOM_OK;
    fathom_scan_writer_destroy(w);
    return ok;
}

/* slot[0]: the thread's number (each starts at another frame); slot[THREADS]: its mismatches. */
static void *read_frames(void *arg) {
    int *slot = arg, n;
    uint16_t depth[SW * SH];
    for (n = 0; n < FRAMES; n++) {
        int f = (n * 7 + slot[0]) % FRAMES;
        if (fathom_scan_read_depth(g_scan, (uint64_t)f, depth, sizeof depth) != FATHOM_OK ||
            memcmp(depth, g_frames[f], sizeof depth) != 0)
            slot[THREADS]++;
    }
    return NULL;
}

int main(void) {
    pthread_t threads[THREADS];
    int mismatches[THREADS], i;
    fathom_coverage *coverage = NULL;
    uint32_t face;
    fathom_vec3 center = {0, 0.25f, 0}, scale = {0.4f, 0.5f, 0.3f};

    check_section("8 threads casting against one mesh");
    make_scene();
    CHECK_OK(fathom_mesh_create(g_vertices, (GRID + 1) * (GRID + 1), 12, g_indices, GRID * GRID * 2, NULL,
                                FATHOM_MESH_COPY, &g_mesh));
    for (i = 0; i < RAYS; i++) CHECK_OK(fathom_mesh_intersect(g_mesh, &g_rays[i], 0.0f, 1e30f, &g_expected[i]));
    for (i = 0; i < THREADS; i++) { mismatches[i] = 0; pthread_create(&threads[i], NULL, cast_all, &mismatches[i]); }
    for (i = 0; i < THREADS; i++) { pthread_join(threads[i], NULL); CHECK(mismatches[i] == 0); }
    fathom_mesh_destroy(g_mesh);

    check_section("8 threads reading one open scan");
    {
        char dir[64], path[128];
        int slots[2 * THREADS];
        CHECK(make_temp_dir(dir, sizeof dir, "threads"));
        CHECK(write_scan(dir));
        snprintf(path, sizeof path, "%s/threads.json", dir);
        CHECK_OK(fathom_scan_open(path, &g_scan));
        memset(slots, 0, sizeof slots);
        for (i = 0; i < THREADS; i++) slots[i] = i;
        for (i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, read_frames, &slots[i]);
        for (i = 0; i < THREADS; i++) { pthread_join(threads[i], NULL); CHECK(slots[i + THREADS] == 0); }
        fathom_scan_destroy(g_scan);
        CHECK(remove_tree(dir));
    }

    check_section("one coverage tracker per thread");
    CHECK_OK(fathom_box_init(center, scale, 0.3f, &g_box));
    CHECK_OK(fathom_coverage_create(&g_box, NULL, &coverage));
    orbit(coverage);
    for (face = 0; face < 6; face++) {
        fathom_face_coverage f;
        CHECK_OK(fathom_coverage_face(coverage, face, &f));
        g_counts[face] = f.count;
    }
    fathom_coverage_destroy(coverage);
    CHECK(g_counts[0] + g_counts[1] + g_counts[2] + g_counts[3] > 0);
    for (i = 0; i < THREADS; i++) { mismatches[i] = 0; pthread_create(&threads[i], NULL, track, &mismatches[i]); }
    for (i = 0; i < THREADS; i++) { pthread_join(threads[i], NULL); CHECK(mismatches[i] == 0); }
    return check_summary("test_threads");
}
