/* Threads sharing one mesh and each with its own coverage tracker: the header's thread-safety promises, run
 * under ThreadSanitizer by `make test-sanitize` (and plainly by `make test`). Every thread's answers must equal
 * the single-threaded ones. */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "check.h"
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
