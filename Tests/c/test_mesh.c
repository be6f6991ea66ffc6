/* Triangle meshes and their BVH across the C ABI: fathom_mesh_create (copy and borrow: a copy owns its data,
 * a borrowing mesh reads the caller's buffers; strides with padding), hits on a hand-made cube, a closed icosphere
 * (rays from inside always hit, through shared vertices and edges exactly once), occlusion, intersect_all and the
 * batch entry points (bit-identical to single rays, independent of the thread count; the compact t and primitive
 * batch bit-identical to the full records; the tracing order of large batches on a large mesh, a permutation
 * independent of the thread count), classes, get_info,
 * face_geometry, loading OBJ and PLY files written here, and the capture app's tap flows with values worked out
 * by hand. Closest hits, occlusion and all crossings of random triangle soups against a brute force in Double are
 * checked in Tests/FathomCoreTests/MeshQueryTests.swift ("random soups: ... equal the brute force"), bounds and
 * face geometry there too. */
#define _XOPEN_SOURCE 700

#include "fathom.h"
#include "check.h"
#include "testmath.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INF ((float)INFINITY)

static void print_hit(const char *what, const fathom_hit *h) {
    printf("    %s: prim %u t %.8g point (%.6g, %.6g, %.6g) normal (%.6g, %.6g, %.6g) uv (%.6g, %.6g) class %u front %u\n",
           what, h->primitive, (double)h->t, (double)h->point.x, (double)h->point.y, (double)h->point.z,
           (double)h->normal.x, (double)h->normal.y, (double)h->normal.z, (double)h->u, (double)h->v,
           h->classification, h->front_face);
}

/* ---- random meshes ------------------------------------------------------------------------------- */

typedef struct {
    float *v;        /* vertices, `stride` floats apart */
    size_t stride;   /* in floats */
    size_t nv;
    uint32_t *idx;
    size_t nt;
    uint8_t *classes;
} mesh_data;

static void random_soup(unsigned long seed, size_t nt, size_t stride, mesh_data *m) {
    unsigned long st = seed;
    size_t i, k;
    m->nt = nt;
    m->nv = nt * 3;
    m->stride = stride;
    m->v = (float *)malloc(m->nv * stride * sizeof(float));
    m->idx = (uint32_t *)malloc(nt * 3 * sizeof(uint32_t));
    m->classes = (uint8_t *)malloc(nt);
    if (!m->v || !m->idx || !m->classes) abort();
    for (i = 0; i < nt; i++) {
        double c[3];
        for (k = 0; k < 3; k++) c[k] = 2 * t_rand(&st) - 1;
        for (k = 0; k < 3; k++) {
            size_t vi = i * 3 + k, q;
            for (q = 0; q < 3; q++) m->v[vi * stride + q] = (float)(c[q] + 0.6 * t_rand(&st) - 0.3);
            for (q = 3; q < stride; q++) m->v[vi * stride + q] = 12345.0f; /* padding the mesh must not read */
        }
        /* Vertex order shuffled so that indices are not simply 0, 1, 2, ... */
        m->idx[i * 3] = (uint32_t)(i * 3 + 2);
        m->idx[i * 3 + 1] = (uint32_t)(i * 3);
        m->idx[i * 3 + 2] = (uint32_t)(i * 3 + 1);
        m->classes[i] = (uint8_t)(i % 8);
    }
}

static void md_free(mesh_data *m) {
    free(m->v);
    free(m->idx);
    free(m->classes);
    memset(m, 0, sizeof *m);
}

/* A ray from a random point in [-2, 2]^3: four times in five toward a random point of [-1, 1]^3 (where the
 * soup is), else in a random direction; |d| in [0.5, 2]. */
static fathom_ray random_ray(unsigned long *st) {
    double o[3], d[3], k = 0.5 + 1.5 * t_rand(st);
    int q;
    for (q = 0; q < 3; q++) o[q] = (float)(4 * t_rand(st) - 2);
    if (t_rand(st) < 0.8) {
        for (q = 0; q < 3; q++) d[q] = 2 * t_rand(st) - 1 - o[q];
        t_normalize(d);
    } else {
        t_rand_dir(st, d);
    }
    return t_ray(o[0], o[1], o[2], d[0] * k, d[1] * k, d[2] * k);
}

/* Two meshes of the same triangles answer `nrays` random rays alike, byte for byte: closest hit, occlusion (which
 * agrees with the closest hit) and all crossings (sorted: the first is the closest hit, and the classes are the
 * caller's). Returns the mismatches; *hits counts the rays that hit. */
static int compare_meshes(const fathom_mesh *a, const fathom_mesh *b, const uint8_t *classes, unsigned long seed,
                          int nrays, float tmin, float tmax, int *hits) {
    unsigned long st = seed;
    int i, bad = 0;
    *hits = 0;
    for (i = 0; i < nrays; i++) {
        fathom_ray r = random_ray(&st);
        fathom_hit ha, hb, all_a[64], all_b[64];
        size_t na = 999, nb = 998, j;
        bool occ;
        t_set_bool_byte(&occ, 0xA5); /* not written: neither 0 nor 1 */
        if (fathom_mesh_intersect(a, &r, tmin, tmax, &ha) != FATHOM_OK ||
            fathom_mesh_intersect(b, &r, tmin, tmax, &hb) != FATHOM_OK ||
            fathom_mesh_occluded(a, &r, tmin, tmax, &occ) != FATHOM_OK ||
            fathom_mesh_intersect_all(a, &r, tmin, tmax, all_a, 64, &na) != FATHOM_OK ||
            fathom_mesh_intersect_all(b, &r, tmin, tmax, all_b, 64, &nb) != FATHOM_OK) {
            if (bad++ < 3) printf("    ray %d: %s\n", i, fathom_last_error());
            continue;
        }
        if (ha.primitive != FATHOM_NO_HIT) (*hits)++;
        if (memcmp(&ha, &hb, sizeof ha) != 0) {
            if (bad++ < 3) {
                print_hit("mesh a", &ha);
                print_hit("mesh b", &hb);
            }
            continue;
        }
        if (t_bool_byte(&occ) != (ha.primitive != FATHOM_NO_HIT ? 1 : 0)) {
            if (bad++ < 3) printf("    ray %d: occluded byte %d but intersect primitive %u\n", i, t_bool_byte(&occ), ha.primitive);
            continue;
        }
        if (na != nb || memcmp(all_a, all_b, na * sizeof all_a[0]) != 0 || (na == 0) != (ha.primitive == FATHOM_NO_HIT) ||
            (na > 0 && (all_a[0].t != ha.t || all_a[0].primitive != ha.primitive))) {
            if (bad++ < 3) printf("    ray %d: %zu and %zu crossings, closest prim %u\n", i, na, nb, ha.primitive);
            continue;
        }
        for (j = 0; j < na; j++)
            if ((j > 0 && all_a[j].t < all_a[j - 1].t) || all_a[j].classification != classes[all_a[j].primitive]) {
                if (bad++ < 3) print_hit("crossing out of order or with the wrong class", &all_a[j]);
                break;
            }
    }
    return bad;
}

static void test_random_soup(void) {
    mesh_data ref, ref16;
    fathom_mesh *copy = NULL, *borrow = NULL;
    fathom_mesh_info ic, ib;
    int hits, bad;

    check_section("random soup: 500 triangles (stride 16, padding), copy vs borrow");
    random_soup(1234, 500, 4, &ref16); /* kept alive for the borrowed mesh */
    random_soup(1234, 500, 4, &ref);   /* the same numbers; the copy mesh's caller buffers are destroyed below */
    CHECK_OK(fathom_mesh_create(ref.v, ref.nv, 16, ref.idx, ref.nt, ref.classes, FATHOM_MESH_COPY, &copy));
    CHECK_OK(fathom_mesh_create(ref16.v, ref16.nv, 16, ref16.idx, ref16.nt, ref16.classes, FATHOM_MESH_BORROW, &borrow));
    if (!copy || !borrow) {
        CHECK(0);
        return;
    }
    /* The copy must not depend on the caller's buffers: scribble over them and free them. */
    memset(ref.v, 0xFF, ref.nv * 4 * sizeof(float)); /* NaNs */
    memset(ref.idx, 0x7F, ref.nt * 3 * sizeof(uint32_t));
    memset(ref.classes, 0x55, ref.nt);
    md_free(&ref);
    bad = compare_meshes(copy, borrow, ref16.classes, 77, 2000, 0, INF, &hits);
    CHECK(bad == 0);
    CHECK(hits > 1000);
    printf("    (2000 rays: %d hits compared)\n", hits);

    check_section("random soup: [tmin, tmax] = [0.5, 2] and a thin range");
    bad = compare_meshes(copy, borrow, ref16.classes, 78, 2000, 0.5f, 2.0f, &hits);
    CHECK(bad == 0);
    CHECK(hits > 500);
    bad = compare_meshes(copy, borrow, ref16.classes, 79, 1000, 1.0f, 1.0f + 1e-3f, &hits);
    CHECK(bad == 0);

    check_section("random soup: borrowed buffers stay the mesh's data while other allocations come and go");
    {
        int i;
        for (i = 0; i < 100; i++) {
            void *p = malloc((size_t)(i + 1) * 4096);
            if (p) memset(p, i, (size_t)(i + 1) * 4096);
            free(p);
        }
    }
    bad = compare_meshes(copy, borrow, ref16.classes, 80, 2000, 0.5f, 2.0f, &hits);
    CHECK(bad == 0);

    check_section("random soup: get_info, copy vs borrow");
    CHECK_OK(fathom_mesh_get_info(copy, &ic));
    CHECK_OK(fathom_mesh_get_info(borrow, &ib));
    CHECK(ic.vertex_count == 1500 && ic.triangle_count == 500);
    CHECK(ib.vertex_count == 1500 && ib.triangle_count == 500);
    CHECK(memcmp(&ic.bounds_min, &ib.bounds_min, sizeof ic.bounds_min) == 0);
    CHECK(memcmp(&ic.bounds_max, &ib.bounds_max, sizeof ic.bounds_max) == 0);
    CHECK(ic.surface_area == ib.surface_area && ic.surface_area > 0);
    /* The soup lies in [-1.3, 1.3]^3 (centres in [-1, 1], vertices within 0.3). */
    CHECK(ic.bounds_min.x >= -1.3f && ic.bounds_min.y >= -1.3f && ic.bounds_min.z >= -1.3f);
    CHECK(ic.bounds_max.x <= 1.3f && ic.bounds_max.y <= 1.3f && ic.bounds_max.z <= 1.3f);
    CHECK(ic.memory_bytes > 0 && ic.bvh_bytes > 0 && ic.bvh_bytes <= ic.memory_bytes);
    /* The copy holds copies of the caller's buffers; the borrowing mesh does not. */
    CHECK(ic.memory_bytes > ib.memory_bytes);
    CHECK(ib.memory_bytes >= ib.bvh_bytes && ib.bvh_bytes > 0);
    CHECK(ic.bvh_nodes >= 2 && ic.bvh_width >= 2 && ic.bvh_depth >= 1 && ic.bvh_depth < 64);
    CHECK(ib.bvh_nodes == ic.bvh_nodes && ib.bvh_width == ic.bvh_width);

    check_section("random soup: FATHOM_MESH_COMPACT copies once, indexes its copy, answers as the others");
    {
        mesh_data ref3;
        fathom_mesh *compact = NULL;
        fathom_mesh_info iz;
        random_soup(1234, 500, 4, &ref3);
        CHECK_OK(fathom_mesh_create(ref3.v, ref3.nv, 16, ref3.idx, ref3.nt, ref3.classes, FATHOM_MESH_COMPACT, &compact));
        memset(ref3.v, 0xFF, ref3.nv * 4 * sizeof(float)); /* the caller's buffers are not read after the call */
        memset(ref3.idx, 0x7F, ref3.nt * 3 * sizeof(uint32_t));
        memset(ref3.classes, 0x55, ref3.nt);
        md_free(&ref3);
        if (compact) {
            bad = compare_meshes(copy, compact, ref16.classes, 81, 2000, 0, INF, &hits);
            CHECK(bad == 0 && hits > 1000);
            CHECK_OK(fathom_mesh_get_info(compact, &iz));
            /* the borrowed mesh's BVH (vertex indices per leaf position), plus the vertices once, 12 bytes each */
            CHECK(iz.bvh_nodes == ib.bvh_nodes && iz.bvh_bytes == ib.bvh_bytes);
            CHECK(iz.memory_bytes == ib.memory_bytes + 12 * 1500);
            CHECK(iz.memory_bytes < ic.memory_bytes + 12 * 1500); /* the copy also keeps its vertices for export */
        }
        fathom_mesh_destroy(compact);
    }

    check_section("random soup: face_geometry, copy vs borrow, NULL outputs");
    {
        float *nrm = (float *)malloc(500 * 3 * sizeof(float)), *ar = (float *)malloc(500 * sizeof(float));
        float *nrm2 = (float *)malloc(500 * 3 * sizeof(float)), *ar2 = (float *)malloc(500 * sizeof(float));
        double sum = 0;
        size_t i;
        int bad_normal = 0;
        CHECK_OK(fathom_mesh_face_geometry(copy, nrm, ar));
        CHECK_OK(fathom_mesh_face_geometry(borrow, nrm2, ar2));
        CHECK(memcmp(nrm, nrm2, 500 * 3 * sizeof(float)) == 0);
        CHECK(memcmp(ar, ar2, 500 * sizeof(float)) == 0);
        /* Unit normals, and the areas add up to get_info's surface area. */
        for (i = 0; i < 500; i++) {
            double n2 = (double)nrm[3 * i] * nrm[3 * i] + (double)nrm[3 * i + 1] * nrm[3 * i + 1] +
                        (double)nrm[3 * i + 2] * nrm[3 * i + 2];
            if (fabs(n2 - 1) > 1e-5) bad_normal++;
            sum += ar[i];
        }
        CHECK(bad_normal == 0);
        CHECK_NEAR(sum, ic.surface_area, 1e-5 * sum);
        /* Either output may be NULL. */
        t_fill(ar2, 500 * sizeof(float));
        CHECK_OK(fathom_mesh_face_geometry(borrow, NULL, ar2));
        CHECK(memcmp(ar, ar2, 500 * sizeof(float)) == 0);
        CHECK_OK(fathom_mesh_face_geometry(borrow, NULL, NULL));
        free(nrm);
        free(ar);
        free(nrm2);
        free(ar2);
    }

    fathom_mesh_destroy(copy);
    fathom_mesh_destroy(borrow);
    md_free(&ref16);
}

/* ---- the icosphere --------------------------------------------------------------------------------- */

typedef struct {
    float *v;
    size_t nv;
    uint32_t *idx;
    size_t nt;
    uint32_t (*edges)[2]; /* every undirected edge once */
    size_t ne;
} sphere_data;

#define HASH_SIZE 65536u

typedef struct {
    uint64_t key;
    uint32_t val;
    int used;
} hash_slot;

static uint32_t hash_find(hash_slot *h, uint64_t key, int *found) {
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 48) & (HASH_SIZE - 1);
    while (h[i].used && h[i].key != key) i = (i + 1) & (HASH_SIZE - 1);
    *found = h[i].used;
    return i;
}

/* An icosahedron subdivided `levels` times, vertices on the unit sphere, shared between triangles, every
 * triangle counter-clockwise seen from outside. Built in double, stored as float. Centrally symmetric:
 * -v is a vertex whenever v is (exactly, in float). */
static void icosphere(int levels, sphere_data *s) {
    const double phi = (1 + sqrt(5.0)) / 2;
    const double base[12][3] = {{-1, phi, 0}, {1, phi, 0}, {-1, -phi, 0}, {1, -phi, 0}, {0, -1, phi}, {0, 1, phi},
                                {0, -1, -phi}, {0, 1, -phi}, {phi, 0, -1}, {phi, 0, 1}, {-phi, 0, -1}, {-phi, 0, 1}};
    static const uint32_t faces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                          {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                          {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                          {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    size_t maxv = 12, maxt = 20, nv = 12, nt = 20, i;
    int l;
    double *dv;
    uint32_t *ti, *tn;
    hash_slot *h = (hash_slot *)calloc(HASH_SIZE, sizeof(hash_slot));
    for (l = 0; l < levels; l++) {
        maxv = maxv * 4 - 6;
        maxt *= 4;
    }
    dv = (double *)malloc(maxv * 3 * sizeof(double));
    ti = (uint32_t *)malloc(maxt * 3 * sizeof(uint32_t));
    tn = (uint32_t *)malloc(maxt * 3 * sizeof(uint32_t));
    if (!dv || !ti || !tn || !h) abort();
    for (i = 0; i < 12; i++) {
        double p[3] = {base[i][0], base[i][1], base[i][2]};
        t_normalize(p);
        memcpy(&dv[i * 3], p, sizeof p);
    }
    memcpy(ti, faces, sizeof faces);
    for (l = 0; l < levels; l++) {
        size_t f;
        memset(h, 0, HASH_SIZE * sizeof(hash_slot));
        for (f = 0; f < nt; f++) {
            uint32_t c[3], m[3];
            int e;
            memcpy(c, &ti[f * 3], sizeof c);
            for (e = 0; e < 3; e++) {
                uint32_t a = c[e], b = c[(e + 1) % 3];
                uint64_t key = a < b ? ((uint64_t)a << 32 | b) : ((uint64_t)b << 32 | a);
                int found;
                uint32_t slot = hash_find(h, key, &found);
                if (!found) {
                    double p[3];
                    int k;
                    for (k = 0; k < 3; k++) p[k] = dv[a * 3 + k] + dv[b * 3 + k];
                    t_normalize(p);
                    memcpy(&dv[nv * 3], p, sizeof p);
                    h[slot].used = 1;
                    h[slot].key = key;
                    h[slot].val = (uint32_t)nv++;
                }
                m[e] = h[slot].val; /* m[0] = mid(c0, c1), m[1] = mid(c1, c2), m[2] = mid(c2, c0) */
            }
            {
                uint32_t four[12] = {c[0], m[0], m[2], c[1], m[1], m[0], c[2], m[2], m[1], m[0], m[1], m[2]};
                memcpy(&tn[f * 12], four, sizeof four);
            }
        }
        nt *= 4;
        {
            uint32_t *sw = ti;
            ti = tn;
            tn = sw;
        }
    }
    s->nv = nv;
    s->nt = nt;
    s->v = (float *)malloc(nv * 3 * sizeof(float));
    if (!s->v) abort();
    for (i = 0; i < nv * 3; i++) s->v[i] = (float)dv[i];
    s->idx = ti;
    free(tn);
    free(dv);
    /* Undirected edges: each directed edge a -> b with a < b (with consistent winding, each undirected edge
     * appears once in each direction, so this lists each once). */
    s->edges = (uint32_t(*)[2])malloc(nt * 3 / 2 * sizeof *s->edges);
    s->ne = 0;
    for (i = 0; i < nt; i++) {
        int e;
        for (e = 0; e < 3; e++) {
            uint32_t a = s->idx[i * 3 + e], b = s->idx[i * 3 + (e + 1) % 3];
            if (a < b && s->ne < nt * 3 / 2) {
                s->edges[s->ne][0] = a;
                s->edges[s->ne][1] = b;
                s->ne++;
            }
        }
    }
    free(h);
}

static void sphere_free(sphere_data *s) {
    free(s->v);
    free(s->idx);
    free(s->edges);
}

/* The test's own checks of its icosphere: closed (every directed edge has its reverse), outward winding. */
static void check_icosphere(const sphere_data *s) {
    hash_slot *h = (hash_slot *)calloc(HASH_SIZE, sizeof(hash_slot));
    size_t i, unmatched = 0, inward = 0, dup = 0;
    if (!h) abort();
    for (i = 0; i < s->nt * 3; i++) {
        uint32_t a = s->idx[i], b = s->idx[(i / 3) * 3 + (i % 3 + 1) % 3];
        int found;
        uint32_t slot = hash_find(h, (uint64_t)a << 32 | b, &found);
        if (found) dup++;
        h[slot].used = 1;
        h[slot].key = (uint64_t)a << 32 | b;
    }
    for (i = 0; i < s->nt * 3; i++) {
        uint32_t a = s->idx[i], b = s->idx[(i / 3) * 3 + (i % 3 + 1) % 3];
        int found;
        hash_find(h, (uint64_t)b << 32 | a, &found);
        if (!found) unmatched++;
    }
    for (i = 0; i < s->nt; i++) {
        double a[3], b[3], c[3], n[3], cen[3];
        int k;
        for (k = 0; k < 3; k++) {
            a[k] = s->v[s->idx[i * 3] * 3 + k];
            b[k] = s->v[s->idx[i * 3 + 1] * 3 + k];
            c[k] = s->v[s->idx[i * 3 + 2] * 3 + k];
            cen[k] = a[k] + b[k] + c[k];
        }
        t_tri_normal(a, b, c, n);
        if (t_dot(n, cen) <= 0) inward++;
    }
    CHECK(dup == 0 && unmatched == 0 && inward == 0);
    free(h);
}

/* Rays for the sphere tests. kind 0: from a random point within radius 0.9, random direction (1 crossing);
 * 1: from radius 3 toward a random point within radius 0.5 (2 crossings); 2: from radius 3 pointing away
 * (0 crossings). */
static fathom_ray sphere_ray(unsigned long *st, int kind) {
    double o[3], d[3], p[3], k = 0.5 + 2 * t_rand(st);
    int q;
    if (kind == 0) {
        t_rand_in_ball(st, 0.9, o);
        t_rand_dir(st, d);
    } else {
        t_rand_dir(st, o);
        for (q = 0; q < 3; q++) o[q] *= 3;
        if (kind == 1) {
            t_rand_in_ball(st, 0.5, p);
            t_sub(p, o, d);
        } else {
            t_rand_in_ball(st, 0.5, p);
            for (q = 0; q < 3; q++) d[q] = o[q] + p[q];
        }
    }
    return t_ray(o[0], o[1], o[2], d[0] * k, d[1] * k, d[2] * k);
}

typedef struct {
    const fathom_mesh *mesh;
    const fathom_ray *rays;
    size_t count;
    fathom_hit *out;
    int failures;
} thread_job;

static void *thread_main(void *arg) {
    thread_job *j = (thread_job *)arg;
    size_t i;
    for (i = 0; i < j->count; i++)
        if (fathom_mesh_intersect(j->mesh, &j->rays[i], 0, INF, &j->out[i]) != FATHOM_OK) j->failures++;
    return NULL;
}

static void test_icosphere(void) {
    sphere_data s;
    fathom_mesh *m = NULL, *mc = NULL;
    uint8_t *classes;
    size_t i;

    check_section("icosphere: construction (the test's own checks)");
    icosphere(4, &s);
    CHECK(s.nv == 2562 && s.nt == 5120 && s.ne == 7680);
    check_icosphere(&s);
    classes = (uint8_t *)malloc(s.nt);
    for (i = 0; i < s.nt; i++) classes[i] = (uint8_t)((i * 7) % 8);
    CHECK_OK(fathom_mesh_create(s.v, s.nv, 12, s.idx, s.nt, NULL, FATHOM_MESH_COPY, &m));
    CHECK_OK(fathom_mesh_create(s.v, s.nv, 12, s.idx, s.nt, classes, FATHOM_MESH_COPY, &mc));
    if (!m || !mc) {
        CHECK(0);
        return;
    }

    check_section("icosphere: get_info");
    {
        fathom_mesh_info info;
        CHECK_OK(fathom_mesh_get_info(m, &info));
        CHECK(info.vertex_count == 2562 && info.triangle_count == 5120);
        /* (+-1, 0, 0), (0, +-1, 0) and (0, 0, +-1) are vertices (the midpoints of the edges (phi, 0, +-1),
         * (+-1, phi, 0) and (0, +-1, phi) pushed out to the sphere), and no vertex is farther out. */
        CHECK_VEC3(info.bounds_min, -1, -1, -1, 1e-6);
        CHECK_VEC3(info.bounds_max, 1, 1, 1, 1e-6);
        /* A polyhedron inscribed in the unit sphere: a little less than 4 pi. */
        CHECK(info.surface_area < 4 * T_PI && info.surface_area > 0.99 * 4 * T_PI);
        CHECK(info.memory_bytes == info.bvh_bytes); /* no classes */
        CHECK(info.bvh_bytes >= 5120 * 36);          /* each triangle's vertices, 9 floats */
        CHECK(info.bvh_bytes > 0 && info.bvh_nodes >= 2 && info.bvh_width >= 2);
        CHECK(info.bvh_depth >= 2 && info.bvh_depth < 64);
        printf("    (BVH: width %u, %llu nodes, depth %u, %llu bytes of %llu)\n", info.bvh_width,
               (unsigned long long)info.bvh_nodes, info.bvh_depth, (unsigned long long)info.bvh_bytes,
               (unsigned long long)info.memory_bytes);
    }

    check_section("icosphere: 100000 rays from inside all hit");
    {
        const size_t N = 100000;
        fathom_ray *rays = (fathom_ray *)malloc(N * sizeof(fathom_ray));
        fathom_hit *hits = (fathom_hit *)malloc(N * sizeof(fathom_hit));
        fathom_batch_options opt;
        unsigned long st = 5;
        size_t misses = 0, wrong = 0;
        for (i = 0; i < N; i++) rays[i] = sphere_ray(&st, 0);
        CHECK_OK(fathom_batch_options_init(&opt));
        opt.tmin = 0;
        opt.tmax = INF;
        opt.threads = 0;
        CHECK_OK(fathom_mesh_intersect_batch(m, rays, N, &opt, hits));
        for (i = 0; i < N; i++) {
            const fathom_hit *h = &hits[i];
            double p[3] = {h->point.x, h->point.y, h->point.z}, r = sqrt(t_dot(p, p));
            double q[3] = {rays[i].origin.x + (double)h->t * rays[i].direction.x,
                           rays[i].origin.y + (double)h->t * rays[i].direction.y,
                           rays[i].origin.z + (double)h->t * rays[i].direction.z};
            if (h->primitive == FATHOM_NO_HIT) {
                if (misses++ < 3)
                    printf("    miss from (%.9g, %.9g, %.9g) along (%.9g, %.9g, %.9g)\n", (double)rays[i].origin.x,
                           (double)rays[i].origin.y, (double)rays[i].origin.z, (double)rays[i].direction.x,
                           (double)rays[i].direction.y, (double)rays[i].direction.z);
                continue;
            }
            /* From inside a convex closed mesh with outward normals: every hit is a back face, on the surface. */
            if (h->front_face != 0 || r < 0.998 || r > 1 + 1e-5 || fabs(q[0] - p[0]) > 1e-5 || fabs(q[1] - p[1]) > 1e-5 ||
                fabs(q[2] - p[2]) > 1e-5 || h->primitive >= s.nt) {
                if (wrong++ < 3) print_hit("wrong hit from inside", h);
            }
        }
        CHECK(misses == 0);
        CHECK(wrong == 0);
        printf("    (%zu misses of %zu)\n", misses, N);

        check_section("icosphere: intersect_all from inside gives exactly 1 crossing");
        {
            size_t wrong_count = 0, wrong_hit = 0;
            for (i = 0; i < 5000; i++) {
                fathom_hit all[8];
                size_t n = 999;
                if (fathom_mesh_intersect_all(m, &rays[i], 0, INF, all, 8, &n) != FATHOM_OK || n != 1) {
                    if (wrong_count++ < 3) printf("    ray %zu: %zu crossings\n", i, n);
                    continue;
                }
                if (fabs(all[0].t - hits[i].t) > 1e-6 * (1 + hits[i].t) || all[0].front_face != 0) wrong_hit++;
            }
            CHECK(wrong_count == 0);
            CHECK(wrong_hit == 0);
        }
        free(rays);
        free(hits);
    }

    check_section("icosphere: intersect_all from outside through the sphere gives 2");
    {
        unsigned long st = 6;
        size_t wrong_count = 0, wrong_hit = 0, wrong_miss = 0;
        for (i = 0; i < 5000; i++) {
            fathom_ray r = sphere_ray(&st, 1), away = sphere_ray(&st, 2);
            fathom_hit all[8], h;
            size_t n = 999;
            if (fathom_mesh_intersect_all(m, &r, 0, INF, all, 8, &n) != FATHOM_OK || n != 2) {
                if (wrong_count++ < 3) printf("    ray %zu: %zu crossings\n", i, n);
                continue;
            }
            if (fathom_mesh_intersect(m, &r, 0, INF, &h) != FATHOM_OK) h.t = -1;
            if (!(all[0].t < all[1].t) || all[0].front_face != 1 || all[1].front_face != 0 ||
                fabs(all[0].t - h.t) > 1e-6 * (1 + h.t))
                wrong_hit++;
            /* A ray pointing away misses: count 0 and a miss. */
            n = 999;
            if (fathom_mesh_intersect_all(m, &away, 0, INF, all, 8, &n) != FATHOM_OK || n != 0) wrong_miss++;
            if (fathom_mesh_intersect(m, &away, 0, INF, &h) != FATHOM_OK || !t_hit_is_miss(&h)) wrong_miss++;
        }
        CHECK(wrong_count == 0);
        CHECK(wrong_hit == 0);
        CHECK(wrong_miss == 0);
    }

    check_section("icosphere: rays through every shared vertex and edge midpoint hit exactly once");
    {
        size_t vmiss = 0, vcount = 0, emiss = 0, ecount = 0, vout = 0, eout = 0;
        for (i = 0; i < s.nv; i++) {
            const float *p = &s.v[i * 3];
            fathom_ray r;
            fathom_hit h, all[8];
            size_t n = 999;
            /* From the centre straight at the vertex: the line passes exactly through it at t = 1. */
            r.origin = v3(0, 0, 0);
            r.direction = v3(p[0], p[1], p[2]);
            if (fathom_mesh_intersect(m, &r, 0, INF, &h) != FATHOM_OK || h.primitive == FATHOM_NO_HIT ||
                fabs(h.t - 1) > 1e-5) {
                if (vmiss++ < 3) print_hit("through a vertex from the centre", &h);
            }
            if (fathom_mesh_intersect_all(m, &r, 0, INF, all, 8, &n) != FATHOM_OK || n != 1) {
                if (vcount++ < 3) printf("    vertex %zu from the centre: %zu crossings\n", i, n);
            }
            /* From outside, 2v, back through v (t = 1), the centre (t = 2) and the antipodal vertex -v (t = 3). */
            r.origin = v3(2 * p[0], 2 * p[1], 2 * p[2]);
            r.direction = v3(-p[0], -p[1], -p[2]);
            n = 999;
            if (fathom_mesh_intersect_all(m, &r, 0, INF, all, 8, &n) != FATHOM_OK || n != 2 ||
                fabs(all[0].t - 1) > 1e-5 || fabs(all[1].t - 3) > 1e-5) {
                if (vout++ < 3) printf("    vertex %zu from outside: %zu crossings\n", i, n);
            }
        }
        for (i = 0; i < s.ne; i++) {
            const float *a = &s.v[s.edges[i][0] * 3], *b = &s.v[s.edges[i][1] * 3];
            fathom_vec3 mid = v3((a[0] + b[0]) * 0.5f, (a[1] + b[1]) * 0.5f, (a[2] + b[2]) * 0.5f);
            fathom_ray r;
            fathom_hit h, all[8];
            size_t n = 999;
            r.origin = v3(0, 0, 0);
            r.direction = mid;
            if (fathom_mesh_intersect(m, &r, 0, INF, &h) != FATHOM_OK || h.primitive == FATHOM_NO_HIT ||
                fabs(h.t - 1) > 1e-5) {
                if (emiss++ < 3) print_hit("through an edge midpoint from the centre", &h);
            }
            if (fathom_mesh_intersect_all(m, &r, 0, INF, all, 8, &n) != FATHOM_OK || n != 1) {
                if (ecount++ < 3) printf("    edge %zu (%u, %u) from the centre: %zu crossings\n", i, s.edges[i][0],
                                         s.edges[i][1], n);
            }
            r.origin = v3(2 * mid.x, 2 * mid.y, 2 * mid.z);
            r.direction = v3(-mid.x, -mid.y, -mid.z);
            n = 999;
            if (fathom_mesh_intersect_all(m, &r, 0, INF, all, 8, &n) != FATHOM_OK || n != 2) {
                if (eout++ < 3) printf("    edge %zu from outside: %zu crossings\n", i, n);
            }
        }
        CHECK(vmiss == 0);
        CHECK(vcount == 0);
        CHECK(vout == 0);
        CHECK(emiss == 0);
        CHECK(ecount == 0);
        CHECK(eout == 0);
    }

    check_section("icosphere: [tmin, tmax] between the two crossings");
    {
        /* From (0, 0, -3) along +z: crossings near t = 2 and t = 4 (the poles are at radius ~1). */
        fathom_ray r = t_ray(0.01, 0.02, -3, 0, 0, 1);
        fathom_hit h, all[4];
        size_t n;
        bool occ = true;
        CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
        CHECK(h.front_face == 1 && h.t > 1.99 && h.t < 2.01);
        CHECK_OK(fathom_mesh_intersect(m, &r, 3, INF, &h));
        CHECK(h.front_face == 0 && h.t > 3.99 && h.t < 4.01);
        CHECK_OK(fathom_mesh_intersect(m, &r, 2.5f, 3.5f, &h));
        CHECK(t_hit_is_miss(&h));
        CHECK_OK(fathom_mesh_occluded(m, &r, 2.5f, 3.5f, &occ));
        CHECK(occ == false);
        CHECK_OK(fathom_mesh_occluded(m, &r, 2.5f, 4.5f, &occ));
        CHECK(occ == true);
        CHECK_OK(fathom_mesh_intersect_all(m, &r, 3, INF, all, 4, &n));
        CHECK(n == 1 && all[0].front_face == 0);
        CHECK_OK(fathom_mesh_intersect_all(m, &r, 0, 3, all, 4, &n));
        CHECK(n == 1 && all[0].front_face == 1);
        CHECK_OK(fathom_mesh_intersect_all(m, &r, 2.5f, 3.5f, all, 4, &n));
        CHECK(n == 0);

        check_section("icosphere: intersect_all with too small a buffer");
        t_fill(all, sizeof all);
        n = 0;
        CHECK_STATUS(fathom_mesh_intersect_all(m, &r, 0, INF, all, 1, &n), FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(n == 2);
        CHECK(all[0].front_face == 1 && all[0].t > 1.99 && all[0].t < 2.01);
        CHECK(t_untouched(&all[1], 3 * sizeof all[0]));
    }

    check_section("icosphere: classes");
    {
        unsigned long st = 8;
        size_t wrong = 0;
        for (i = 0; i < 3000; i++) {
            fathom_ray r = sphere_ray(&st, (int)(i % 2));
            fathom_hit h, h0, all[4];
            size_t n = 0, j;
            if (fathom_mesh_intersect(mc, &r, 0, INF, &h) != FATHOM_OK || h.primitive >= s.nt ||
                h.classification != classes[h.primitive]) {
                wrong++;
                continue;
            }
            /* The mesh without classes: the same hit, class 0. */
            if (fathom_mesh_intersect(m, &r, 0, INF, &h0) != FATHOM_OK || h0.primitive != h.primitive ||
                h0.classification != 0)
                wrong++;
            if (fathom_mesh_intersect_all(mc, &r, 0, INF, all, 4, &n) != FATHOM_OK) wrong++;
            for (j = 0; j < n && j < 4; j++)
                if (all[j].primitive >= s.nt || all[j].classification != classes[all[j].primitive]) wrong++;
        }
        CHECK(wrong == 0);
    }

    check_section("icosphere: occluded agrees with intersect");
    {
        unsigned long st = 9;
        size_t wrong = 0;
        for (i = 0; i < 5000; i++) {
            fathom_ray r = sphere_ray(&st, (int)(i % 3));
            float tmax = (i % 4 == 0) ? INF : (float)(4 * t_rand(&st));
            fathom_hit h;
            bool occ;
            t_set_bool_byte(&occ, 0xA5); /* not written: neither 0 nor 1 */
            if (fathom_mesh_intersect(m, &r, 0, tmax, &h) != FATHOM_OK ||
                fathom_mesh_occluded(m, &r, 0, tmax, &occ) != FATHOM_OK)
                wrong++;
            else if (t_bool_byte(&occ) != (h.primitive != FATHOM_NO_HIT ? 1 : 0)) {
                /* Only a hit within a hair of tmax may go either way. */
                if (!(h.primitive != FATHOM_NO_HIT ? fabs(h.t - tmax) < 1e-5 : 0) && wrong++ < 3)
                    printf("    ray %zu: occluded byte %d, intersect prim %u t %g, tmax %g\n", i, t_bool_byte(&occ), h.primitive,
                           (double)h.t, (double)tmax);
            }
        }
        CHECK(wrong == 0);
    }

    check_section("icosphere: batches are bit-identical to single rays, for any thread count");
    {
        const size_t N = 20000;
        static const uint32_t thread_counts[] = {0, 1, 2, 3, 7, 64};
        fathom_ray *rays = (fathom_ray *)malloc(N * sizeof(fathom_ray));
        fathom_hit *single = (fathom_hit *)malloc(N * sizeof(fathom_hit));
        fathom_hit *batch = (fathom_hit *)malloc(N * sizeof(fathom_hit));
        bool *occ_single = (bool *)malloc(N * sizeof(bool)), *occ_batch = (bool *)malloc(N * sizeof(bool));
        fathom_batch_options opt;
        unsigned long st = 10;
        size_t k, r;
        int pass;
        for (i = 0; i < N; i++) {
            if (i % 4 == 3) {
                rays[i] = random_ray(&st);
            } else {
                rays[i] = sphere_ray(&st, (int)(i % 4));
            }
        }
        CHECK_OK(fathom_batch_options_init(&opt));
        for (pass = 0; pass < 2; pass++) {
            opt.tmin = pass ? 0.5f : 0.0f;
            opt.tmax = pass ? 2.5f : INF;
            for (i = 0; i < N; i++) {
                if (fathom_mesh_intersect(mc, &rays[i], opt.tmin, opt.tmax, &single[i]) != FATHOM_OK) break;
                if (fathom_mesh_occluded(mc, &rays[i], opt.tmin, opt.tmax, &occ_single[i]) != FATHOM_OK) break;
            }
            CHECK(i == N);
            for (k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
                opt.threads = thread_counts[k];
                t_fill(batch, N * sizeof(fathom_hit));
                CHECK_OK(fathom_mesh_intersect_batch(mc, rays, N, &opt, batch));
                CHECK(memcmp(batch, single, N * sizeof(fathom_hit)) == 0);
                t_fill(occ_batch, N * sizeof(bool));
                CHECK_OK(fathom_mesh_occluded_batch(mc, rays, N, &opt, occ_batch));
                CHECK(memcmp(occ_batch, occ_single, N * sizeof(bool)) == 0);
            }
            /* A batch of one, and a batch over a slice in the middle. */
            opt.threads = 2;
            CHECK_OK(fathom_mesh_intersect_batch(mc, rays + 777, 1, &opt, batch));
            CHECK(memcmp(batch, single + 777, sizeof(fathom_hit)) == 0);
            CHECK_OK(fathom_mesh_intersect_batch(mc, rays + 1001, 3333, &opt, batch));
            CHECK(memcmp(batch, single + 1001, 3333 * sizeof(fathom_hit)) == 0);
        }

        check_section("icosphere: many threads on one mesh at once");
        {
            pthread_t th[4];
            thread_job jobs[4];
            fathom_hit *outs = (fathom_hit *)malloc(4 * N * sizeof(fathom_hit));
            int started[4] = {0, 0, 0, 0}, failures = 0;
            for (i = 0; i < N; i++)
                if (fathom_mesh_intersect(mc, &rays[i], 0, INF, &single[i]) != FATHOM_OK) failures++;
            for (k = 0; k < 4; k++) {
                jobs[k].mesh = mc;
                jobs[k].rays = rays;
                jobs[k].count = N;
                jobs[k].out = outs + k * N;
                jobs[k].failures = 0;
                started[k] = pthread_create(&th[k], NULL, thread_main, &jobs[k]) == 0;
            }
            for (k = 0; k < 4; k++)
                if (started[k]) pthread_join(th[k], NULL);
            for (k = 0; k < 4; k++) {
                CHECK(started[k]);
                CHECK(jobs[k].failures == 0);
                CHECK(memcmp(outs + k * N, single, N * sizeof(fathom_hit)) == 0);
            }
            CHECK(failures == 0);
            free(outs);
        }

        check_section("icosphere: intersect_all_batch and its offsets");
        {
            const size_t M = 3000;
            uint64_t *expect_off = (uint64_t *)malloc((M + 1) * sizeof(uint64_t));
            uint64_t *off = (uint64_t *)malloc((M + 1) * sizeof(uint64_t));
            fathom_hit *expect_hits = (fathom_hit *)malloc(M * 8 * sizeof(fathom_hit));
            fathom_hit *hits = (fathom_hit *)malloc(M * 8 * sizeof(fathom_hit));
            size_t total = 0;
            opt.tmin = 0;
            opt.tmax = INF;
            expect_off[0] = 0;
            for (r = 0; r < M; r++) {
                size_t n = 0;
                if (fathom_mesh_intersect_all(mc, &rays[r], 0, INF, expect_hits + total, 8, &n) != FATHOM_OK) n = 0;
                total += n;
                expect_off[r + 1] = total;
            }
            /* 3000 rays of kinds 0, 1, 2, random: about 750 + 1500 + 0 + a few. */
            CHECK(total > 2000);
            for (k = 0; k < 4; k++) {
                opt.threads = thread_counts[k];
                t_fill(hits, M * 8 * sizeof(fathom_hit));
                t_fill(off, (M + 1) * sizeof(uint64_t));
                CHECK_OK(fathom_mesh_intersect_all_batch(mc, rays, M, &opt, hits, total, off));
                CHECK(memcmp(off, expect_off, (M + 1) * sizeof(uint64_t)) == 0);
                CHECK(memcmp(hits, expect_hits, total * sizeof(fathom_hit)) == 0);
                CHECK(t_untouched(hits + total, (M * 8 - total) * sizeof(fathom_hit)));
            }
            /* One short: offsets filled completely, the total needed at the end, no hit written. */
            t_fill(hits, M * 8 * sizeof(fathom_hit));
            t_fill(off, (M + 1) * sizeof(uint64_t));
            CHECK_STATUS(fathom_mesh_intersect_all_batch(mc, rays, M, &opt, hits, total - 1, off),
                         FATHOM_ERR_BUFFER_TOO_SMALL);
            CHECK(memcmp(off, expect_off, (M + 1) * sizeof(uint64_t)) == 0);
            CHECK(off[M] == total);
            CHECK(t_untouched(hits, M * 8 * sizeof(fathom_hit)));
            /* Capacity 0: only the offsets. */
            t_fill(off, (M + 1) * sizeof(uint64_t));
            CHECK_STATUS(fathom_mesh_intersect_all_batch(mc, rays, M, &opt, hits, 0, off), FATHOM_ERR_BUFFER_TOO_SMALL);
            CHECK(memcmp(off, expect_off, (M + 1) * sizeof(uint64_t)) == 0);
            CHECK(t_untouched(hits, M * 8 * sizeof(fathom_hit)));
            /* More than enough. */
            CHECK_OK(fathom_mesh_intersect_all_batch(mc, rays, M, &opt, hits, M * 8, off));
            CHECK(memcmp(hits, expect_hits, total * sizeof(fathom_hit)) == 0);
            /* With a range [0.5, 2.5]. */
            {
                opt.tmin = 0.5f;
                opt.tmax = 2.5f;
                expect_off[0] = 0;
                total = 0;
                for (r = 0; r < M; r++) {
                    size_t n = 0;
                    if (fathom_mesh_intersect_all(mc, &rays[r], 0.5f, 2.5f, expect_hits + total, 8, &n) != FATHOM_OK) n = 0;
                    total += n;
                    expect_off[r + 1] = total;
                }
                opt.threads = 2;
                CHECK_OK(fathom_mesh_intersect_all_batch(mc, rays, M, &opt, hits, M * 8, off));
                CHECK(memcmp(off, expect_off, (M + 1) * sizeof(uint64_t)) == 0);
                CHECK(memcmp(hits, expect_hits, total * sizeof(fathom_hit)) == 0);
            }
            free(expect_off);
            free(off);
            free(expect_hits);
            free(hits);
        }
        free(rays);
        free(single);
        free(batch);
        free(occ_single);
        free(occ_batch);
    }

    fathom_mesh_destroy(m);
    fathom_mesh_destroy(mc);
    free(classes);
    sphere_free(&s);
}

/* ---- the unit cube: info, face geometry, files ---------------------------------------------------- */

static fathom_mesh *cube_mesh(const uint8_t *classes) {
    uint32_t idx[36];
    fathom_mesh *m = NULL;
    t_cube_triangles(idx);
    if (fathom_mesh_create(&T_CUBE_V[0][0], 8, 12, idx, 12, classes, FATHOM_MESH_COPY, &m) != FATHOM_OK) {
        printf("    (cube mesh: %s)\n", fathom_last_error());
        return NULL;
    }
    return m;
}

static void test_cube(void) {
    fathom_mesh *m = cube_mesh(NULL);
    fathom_mesh_info info;
    float nrm[36], ar[12];
    int f, k, tri_ok = 1;

    check_section("unit cube: the test's own winding");
    {
        uint32_t idx[36];
        t_cube_triangles(idx);
        for (f = 0; f < 12; f++) {
            double a[3], b[3], c[3], n[3];
            for (k = 0; k < 3; k++) {
                a[k] = T_CUBE_V[idx[f * 3]][k];
                b[k] = T_CUBE_V[idx[f * 3 + 1]][k];
                c[k] = T_CUBE_V[idx[f * 3 + 2]][k];
            }
            t_tri_normal(a, b, c, n);
            for (k = 0; k < 3; k++)
                if (n[k] != T_CUBE_NORMALS[f / 2][k]) tri_ok = 0;
        }
        CHECK(tri_ok);
    }
    if (!m) {
        CHECK(0);
        return;
    }

    check_section("unit cube: get_info");
    CHECK_OK(fathom_mesh_get_info(m, &info));
    CHECK(info.vertex_count == 8);
    CHECK(info.triangle_count == 12);
    CHECK_VEC3(info.bounds_min, 0, 0, 0, 0);
    CHECK_VEC3(info.bounds_max, 1, 1, 1, 0);
    CHECK_NEAR(info.surface_area, 6, 1e-9);
    CHECK(info.bvh_width >= 2);
    CHECK(info.memory_bytes > 0);
    CHECK(info.bvh_nodes >= 1);
    CHECK(info.memory_bytes >= info.bvh_bytes);

    check_section("unit cube: face_geometry");
    CHECK_OK(fathom_mesh_face_geometry(m, nrm, ar));
    for (f = 0; f < 12; f++) {
        CHECK_VEC3(v3(nrm[f * 3], nrm[f * 3 + 1], nrm[f * 3 + 2]), T_CUBE_NORMALS[f / 2][0], T_CUBE_NORMALS[f / 2][1],
                   T_CUBE_NORMALS[f / 2][2], 1e-7);
        CHECK_NEAR(ar[f], 0.5, 1e-7);
    }
    t_fill(ar, sizeof ar);
    CHECK_OK(fathom_mesh_face_geometry(m, nrm, NULL));
    CHECK(t_untouched(ar, sizeof ar));

    check_section("unit cube: hits on each face");
    {
        /* Rays from outside, square on to the centre of each face (through the fan's shared diagonal!),
         * and off the diagonal. */
        for (f = 0; f < 6; f++) {
            fathom_hit h;
            fathom_ray r;
            double n[3] = {T_CUBE_NORMALS[f][0], T_CUBE_NORMALS[f][1], T_CUBE_NORMALS[f][2]};
            double c[3] = {0.5 + 0.5 * n[0], 0.5 + 0.5 * n[1], 0.5 + 0.5 * n[2]};
            r = t_ray(c[0] + 2 * n[0], c[1] + 2 * n[1], c[2] + 2 * n[2], -n[0], -n[1], -n[2]);
            CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
            CHECK(h.primitive == (uint32_t)(2 * f) || h.primitive == (uint32_t)(2 * f + 1));
            CHECK_NEAR(h.t, 2, 1e-6);
            CHECK_VEC3(h.normal, n[0], n[1], n[2], 1e-7);
            CHECK(h.front_face == 1);
            {
                fathom_hit all[4];
                size_t cnt = 0;
                CHECK_OK(fathom_mesh_intersect_all(m, &r, 0, INF, all, 4, &cnt));
                CHECK(cnt == 2); /* in through this face's diagonal, out through the opposite face's */
                CHECK_NEAR(all[0].t, 2, 1e-6);
                CHECK_NEAR(all[1].t, 3, 1e-6);
            }
        }
    }
    fathom_mesh_destroy(m);
}

/* Same hits on two meshes for rays from outside at random points in the cube, plus the face centres. */
static int same_hits(const fathom_mesh *a, const fathom_mesh *b, int check_class) {
    unsigned long st = 31;
    int i, bad = 0;
    for (i = 0; i < 400; i++) {
        double o[3], tgt[3], d[3];
        fathom_ray r;
        fathom_hit ha, hb;
        int k;
        t_rand_dir(&st, o);
        for (k = 0; k < 3; k++) {
            o[k] = 0.5 + 3 * o[k];
            tgt[k] = (i < 50) ? 0.5 : t_rand(&st);
        }
        t_sub(tgt, o, d);
        r = t_ray(o[0], o[1], o[2], d[0], d[1], d[2]);
        if (fathom_mesh_intersect(a, &r, 0, INF, &ha) != FATHOM_OK || fathom_mesh_intersect(b, &r, 0, INF, &hb) != FATHOM_OK) {
            bad++;
            continue;
        }
        if (ha.primitive != hb.primitive || fabs(ha.t - hb.t) > 1e-6 || fabs(ha.normal.x - hb.normal.x) > 1e-6 ||
            fabs(ha.normal.y - hb.normal.y) > 1e-6 || fabs(ha.normal.z - hb.normal.z) > 1e-6 ||
            ha.front_face != hb.front_face || (check_class && ha.classification != hb.classification) ||
            ha.primitive == FATHOM_NO_HIT) {
            if (bad++ < 3) {
                print_hit("from arrays", &ha);
                print_hit("from the file", &hb);
            }
        }
    }
    return bad == 0;
}

static char TMPDIR_PATH[256];

static const char *tmp_path(const char *name) {
    static char buf[8][512];
    static int k = 0;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", TMPDIR_PATH, name);
    return buf[k];
}


/* Loads a file and checks it gives the cube's hits. */
static void check_loaded_cube(const char *name, const fathom_mesh *ref, int check_class, int line) {
    fathom_mesh *m = NULL;
    fathom_mesh_info info;
    fathom_status s = fathom_mesh_load(tmp_path(name), &m);
    if (s != FATHOM_OK) {
        check_fail_(__FILE__, line, name);
        printf("    fathom_mesh_load(%s): %s: %s\n", name, fathom_status_name(s), fathom_last_error());
        return;
    }
    check_pass_();
    if (fathom_mesh_get_info(m, &info) != FATHOM_OK || info.vertex_count != 8 || info.triangle_count != 12) {
        check_fail_(__FILE__, line, "loaded cube: 8 vertices, 12 triangles");
        printf("    %s: %llu vertices, %llu triangles\n", name, (unsigned long long)info.vertex_count,
               (unsigned long long)info.triangle_count);
    } else {
        check_pass_();
    }
    check_true_(same_hits(ref, m, check_class), __FILE__, line, "the loaded cube gives the same hits as the arrays");
    fathom_mesh_destroy(m);
}

static void test_files(void) {
    fathom_mesh *cube = cube_mesh(NULL), *cube_classes;
    uint8_t classes[12];
    uint32_t idx[36];
    t_buf b;
    char line[256];
    int i, f;

    for (i = 0; i < 12; i++) classes[i] = (uint8_t)(i % 8);
    cube_classes = cube_mesh(classes);
    t_cube_triangles(idx);
    if (!cube || !cube_classes) {
        CHECK(0);
        return;
    }
    snprintf(TMPDIR_PATH, sizeof TMPDIR_PATH, "%s", "/tmp/fathom-mesh-test-XXXXXX");
    if (!mkdtemp(TMPDIR_PATH)) {
        CHECK(0);
        return;
    }

    check_section("OBJ: triangles");
    memset(&b, 0, sizeof b);
    for (i = 0; i < 8; i++) {
        snprintf(line, sizeof line, "v %g %g %g\n", (double)T_CUBE_V[i][0], (double)T_CUBE_V[i][1], (double)T_CUBE_V[i][2]);
        t_buf_str(&b, line);
    }
    for (i = 0; i < 12; i++) {
        snprintf(line, sizeof line, "f %u %u %u\n", idx[i * 3] + 1, idx[i * 3 + 1] + 1, idx[i * 3 + 2] + 1);
        t_buf_str(&b, line);
    }
    CHECK(t_write_file(tmp_path("cube.obj"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("cube.obj", cube, 0, __LINE__);

    check_section("OBJ: quads, fanned");
    for (i = 0; i < 8; i++) {
        snprintf(line, sizeof line, "v %g %g %g\n", (double)T_CUBE_V[i][0], (double)T_CUBE_V[i][1], (double)T_CUBE_V[i][2]);
        t_buf_str(&b, line);
    }
    for (f = 0; f < 6; f++) {
        const uint32_t *q = T_CUBE_QUADS[f];
        snprintf(line, sizeof line, "f %u %u %u %u\n", q[0] + 1, q[1] + 1, q[2] + 1, q[3] + 1);
        t_buf_str(&b, line);
    }
    CHECK(t_write_file(tmp_path("cube_quads.obj"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("cube_quads.obj", cube, 0, __LINE__);

    check_section("OBJ: negative (relative) indices");
    /* The first 4 vertices, then the -z face (vertices 0, 2, 3, 1) relative to 4 vertices read so far;
     * then the other 4 vertices and the other faces relative to 8, one of them mixing 1-based and negative. */
    for (i = 0; i < 4; i++) {
        snprintf(line, sizeof line, "v %g %g %g\n", (double)T_CUBE_V[i][0], (double)T_CUBE_V[i][1], (double)T_CUBE_V[i][2]);
        t_buf_str(&b, line);
    }
    t_buf_str(&b, "f -4 -2 -1 -3\n");
    for (i = 4; i < 8; i++) {
        snprintf(line, sizeof line, "v %g %g %g\n", (double)T_CUBE_V[i][0], (double)T_CUBE_V[i][1], (double)T_CUBE_V[i][2]);
        t_buf_str(&b, line);
    }
    for (f = 1; f < 6; f++) {
        const uint32_t *q = T_CUBE_QUADS[f];
        if (f == 2) /* +x: 1, 3, 7, 5 as "2 -5 -1 -3" */
            snprintf(line, sizeof line, "f %u %d %d %d\n", q[0] + 1, (int)q[1] - 8, (int)q[2] - 8, (int)q[3] - 8);
        else
            snprintf(line, sizeof line, "f %d %d %d %d\n", (int)q[0] - 8, (int)q[1] - 8, (int)q[2] - 8, (int)q[3] - 8);
        t_buf_str(&b, line);
    }
    CHECK(t_write_file(tmp_path("cube_negative.obj"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("cube_negative.obj", cube, 0, __LINE__);

    check_section("OBJ: what exporters write (comments, o/g/s/usemtl, vt/vn, v/vt/vn faces, CRLF)");
    t_buf_str(&b, "# exported by a scanner app\r\nmtllib cube.mtl\r\no Cube\r\n");
    for (i = 0; i < 8; i++) {
        snprintf(line, sizeof line, "v  %.6f %.6f %.6f\r\n", (double)T_CUBE_V[i][0], (double)T_CUBE_V[i][1],
                 (double)T_CUBE_V[i][2]);
        t_buf_str(&b, line);
    }
    t_buf_str(&b, "vt 0 0\r\nvt 1 0\r\nvt 1 1\r\nvt 0 1\r\n");
    for (f = 0; f < 6; f++) {
        snprintf(line, sizeof line, "vn %g %g %g\r\n", (double)T_CUBE_NORMALS[f][0], (double)T_CUBE_NORMALS[f][1],
                 (double)T_CUBE_NORMALS[f][2]);
        t_buf_str(&b, line);
    }
    t_buf_str(&b, "g side\r\nusemtl material_0\r\ns off\r\n\r\n");
    for (f = 0; f < 6; f++) {
        const uint32_t *q = T_CUBE_QUADS[f];
        if (f % 3 == 0)
            snprintf(line, sizeof line, "f %u/1/%d %u/2/%d %u/3/%d %u/4/%d\r\n", q[0] + 1, f + 1, q[1] + 1, f + 1,
                     q[2] + 1, f + 1, q[3] + 1, f + 1);
        else if (f % 3 == 1)
            snprintf(line, sizeof line, "f %u//%d %u//%d %u//%d %u//%d  \r\n", q[0] + 1, f + 1, q[1] + 1, f + 1,
                     q[2] + 1, f + 1, q[3] + 1, f + 1);
        else
            snprintf(line, sizeof line, "f\t%u/1 %u/2 %u/3 %u/4\r\n", q[0] + 1, q[1] + 1, q[2] + 1, q[3] + 1);
        t_buf_str(&b, line);
    }
    CHECK(t_write_file(tmp_path("cube_exporter.obj"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("cube_exporter.obj", cube, 0, __LINE__);

    check_section("PLY: ascii");
    t_buf_str(&b, "ply\nformat ascii 1.0\ncomment the unit cube\nelement vertex 8\nproperty float x\nproperty float y\n"
                  "property float z\nelement face 12\nproperty list uchar int vertex_indices\nend_header\n");
    for (i = 0; i < 8; i++) {
        snprintf(line, sizeof line, "%g %g %g\n", (double)T_CUBE_V[i][0], (double)T_CUBE_V[i][1], (double)T_CUBE_V[i][2]);
        t_buf_str(&b, line);
    }
    for (i = 0; i < 12; i++) {
        snprintf(line, sizeof line, "3 %u %u %u\n", idx[i * 3], idx[i * 3 + 1], idx[i * 3 + 2]);
        t_buf_str(&b, line);
    }
    CHECK(t_write_file(tmp_path("cube_ascii.ply"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("cube_ascii.ply", cube, 0, __LINE__);

    check_section("OBJ and ascii PLY without a newline at the end");
    {
        char *text = (char *)malloc(4096);
        FILE *f;
        size_t len = 0;
        f = fopen(tmp_path("cube_ascii.ply"), "rb");
        if (f && text) {
            len = fread(text, 1, 4096, f);
            fclose(f);
        }
        CHECK(len > 0 && text[len - 1] == '\n');
        if (len > 0) CHECK(t_write_file(tmp_path("cube_nonl.ply"), text, len - 1));
        free(text);
        check_loaded_cube("cube_nonl.ply", cube, 0, __LINE__);
        f = fopen(tmp_path("cube.obj"), "rb");
        text = (char *)malloc(4096);
        len = 0;
        if (f && text) {
            len = fread(text, 1, 4096, f);
            fclose(f);
        }
        CHECK(len > 0 && text[len - 1] == '\n');
        if (len > 0) CHECK(t_write_file(tmp_path("cube_nonl.obj"), text, len - 1));
        free(text);
        check_loaded_cube("cube_nonl.obj", cube, 0, __LINE__);
    }

    check_section("PLY: ascii with classes (face property \"label\") and \"vertex_index\"");
    t_buf_str(&b, "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
                  "element face 12\nproperty list uchar uint vertex_index\nproperty uchar label\nend_header\n");
    for (i = 0; i < 8; i++) {
        snprintf(line, sizeof line, "%g %g %g\n", (double)T_CUBE_V[i][0], (double)T_CUBE_V[i][1], (double)T_CUBE_V[i][2]);
        t_buf_str(&b, line);
    }
    for (i = 0; i < 12; i++) {
        snprintf(line, sizeof line, "3 %u %u %u %d\n", idx[i * 3], idx[i * 3 + 1], idx[i * 3 + 2], i % 8);
        t_buf_str(&b, line);
    }
    CHECK(t_write_file(tmp_path("cube_ascii_label.ply"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("cube_ascii_label.ply", cube_classes, 1, __LINE__);

    check_section("PLY: binary little-endian with classes");
    t_ply_cube_binary(&b, 1, 0, NULL);
    CHECK(t_write_file(tmp_path("cube_binary.ply"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("cube_binary.ply", cube_classes, 1, __LINE__);

    check_section("PLY: binary, double vertices with normals and colours, uint indices, label; named .dat");
    t_buf_str(&b, "ply\nformat binary_little_endian 1.0\nelement vertex 8\nproperty double x\nproperty double y\n"
                  "property double z\nproperty float nx\nproperty float ny\nproperty float nz\nproperty uchar red\n"
                  "property uchar green\nproperty uchar blue\nelement face 12\nproperty list uchar uint vertex_indices\n"
                  "property uchar label\nend_header\n");
    for (i = 0; i < 8; i++) {
        t_buf_f64(&b, T_CUBE_V[i][0], 0);
        t_buf_f64(&b, T_CUBE_V[i][1], 0);
        t_buf_f64(&b, T_CUBE_V[i][2], 0);
        t_buf_f32(&b, 0.25f, 0);
        t_buf_f32(&b, -7.0f, 0);
        t_buf_f32(&b, 1e30f, 0);
        t_buf_u8(&b, 200);
        t_buf_u8(&b, 100);
        t_buf_u8(&b, 50);
    }
    for (i = 0; i < 12; i++) {
        t_buf_u8(&b, 3);
        t_buf_u32(&b, idx[i * 3], 0);
        t_buf_u32(&b, idx[i * 3 + 1], 0);
        t_buf_u32(&b, idx[i * 3 + 2], 0);
        t_buf_u8(&b, (unsigned)(i % 8));
    }
    CHECK(t_write_file(tmp_path("scan.dat"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("scan.dat", cube_classes, 1, __LINE__);

    check_section("PLY: binary with the sized type names (float32, uint8, int32)");
    t_buf_str(&b, "ply\nformat binary_little_endian 1.0\nelement vertex 8\nproperty float32 x\nproperty float32 y\n"
                  "property float32 z\nelement face 12\nproperty list uint8 int32 vertex_indices\nend_header\n");
    for (i = 0; i < 8; i++) {
        t_buf_f32(&b, T_CUBE_V[i][0], 0);
        t_buf_f32(&b, T_CUBE_V[i][1], 0);
        t_buf_f32(&b, T_CUBE_V[i][2], 0);
    }
    for (i = 0; i < 12; i++) {
        t_buf_u8(&b, 3);
        t_buf_u32(&b, idx[i * 3], 0);
        t_buf_u32(&b, idx[i * 3 + 1], 0);
        t_buf_u32(&b, idx[i * 3 + 2], 0);
    }
    CHECK(t_write_file(tmp_path("cube_sized.ply"), b.p, b.n));
    t_buf_free(&b);
    check_loaded_cube("cube_sized.ply", cube, 0, __LINE__);

    {
        static const char *names[] = {"cube.obj", "cube_quads.obj", "cube_negative.obj", "cube_exporter.obj",
                                      "cube_ascii.ply", "cube_nonl.ply", "cube_nonl.obj", "cube_ascii_label.ply", "cube_binary.ply", "scan.dat",
                                      "cube_sized.ply"};
        size_t k;
        for (k = 0; k < sizeof names / sizeof names[0]; k++) remove(tmp_path(names[k]));
        rmdir(TMPDIR_PATH);
    }
    fathom_mesh_destroy(cube);
    fathom_mesh_destroy(cube_classes);
}

/* ---- degenerate triangles and the empty mesh ------------------------------------------------------------ */

static void test_degenerate_and_empty(void) {
    /* Triangle 0 is real: (-1, -1, 0), (3, -1, 0), (-1, 3, 0), area 8, normal +z. Triangle 1 repeats an index:
     * (0, 0, 0), (0, 0, 0), (1, 0, 0), a segment inside triangle 0. Triangle 2 is collinear along x at y = 2
     * and triangle 3 has all three vertices at (0.5, 3, 0), both outside triangle 0 (x + y > 2). */
    const float v[] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 2, 0, 2, 2, 0, 0.5f, 3, 0, -1, -1, 0, 3, -1, 0, -1, 3, 0};
    const uint32_t idx[] = {6, 7, 8, 0, 0, 1, 2, 3, 4, 5, 5, 5};
    fathom_mesh *m = NULL, *e = NULL;
    fathom_hit h, all[4];
    fathom_mesh_info info;
    float nrm[12], ar[4];
    size_t n;
    bool occ;

    check_section("degenerate triangles: kept, never hit");
    CHECK_OK(fathom_mesh_create(v, 9, 12, idx, 4, NULL, FATHOM_MESH_COPY, &m));
    if (m) {
        fathom_ray r;
        CHECK_OK(fathom_mesh_get_info(m, &info));
        CHECK(info.triangle_count == 4);
        CHECK_NEAR(info.surface_area, 8, 1e-9);
        CHECK_OK(fathom_mesh_face_geometry(m, nrm, ar));
        CHECK(ar[0] == 8 && ar[1] == 0 && ar[2] == 0 && ar[3] == 0);
        CHECK(nrm[3] == 0 && nrm[4] == 0 && nrm[5] == 0 && nrm[6] == 0 && nrm[7] == 0 && nrm[8] == 0 && nrm[9] == 0 &&
              nrm[10] == 0 && nrm[11] == 0);
        CHECK_VEC3(v3(nrm[0], nrm[1], nrm[2]), 0, 0, 1, 0);
        /* Through the repeated-index triangle's segment, inside triangle 0: only triangle 0, once. */
        r = t_ray(0.5, 0, 1, 0, 0, -1);
        CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
        CHECK(h.primitive == 0);
        CHECK_OK(fathom_mesh_intersect_all(m, &r, 0, INF, all, 4, &n));
        CHECK(n == 1 && all[0].primitive == 0);
        /* Exactly through the collinear one's segment and the single point: misses. */
        r = t_ray(1.5, 2, 1, 0, 0, -1);
        CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
        CHECK(t_hit_is_miss(&h));
        CHECK_OK(fathom_mesh_intersect_all(m, &r, 0, INF, all, 4, &n));
        CHECK(n == 0);
        r = t_ray(0.5, 3, 1, 0, 0, -1);
        CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
        CHECK(t_hit_is_miss(&h));
        t_set_bool_byte(&occ, 0xA5);
        CHECK_OK(fathom_mesh_occluded(m, &r, 0, INF, &occ));
        CHECK(t_bool_byte(&occ) == 0);
        /* Obliquely through the single point, and through the middle of the collinear segment. */
        r = t_ray(-0.5, 3, -1, 1, 0, 1);
        CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
        CHECK(t_hit_is_miss(&h));
        r = t_ray(1, 1, -1, 0, 1, 1);
        CHECK_OK(fathom_mesh_intersect(m, &r, 0, INF, &h));
        CHECK(t_hit_is_miss(&h));
        fathom_mesh_destroy(m);
    }

    check_section("empty mesh: every ray misses");
    CHECK_OK(fathom_mesh_create(v, 9, 12, idx, 0, NULL, FATHOM_MESH_COPY, &e));
    if (e) {
        fathom_ray rays[3];
        fathom_hit hits[3];
        bool occs[3];
        uint64_t off[4];
        fathom_batch_options opt;
        rays[0] = t_ray(0.2, 0.2, 1, 0, 0, -1);
        rays[1] = t_ray(0, 0, 0, 1, 1, 1);
        rays[2] = t_ray(5, 5, 5, -1, -1, -1);
        CHECK_OK(fathom_mesh_get_info(e, &info));
        CHECK(info.triangle_count == 0);
        CHECK(info.surface_area == 0);
        CHECK_OK(fathom_mesh_intersect(e, &rays[0], 0, INF, &h));
        CHECK(t_hit_is_miss(&h));
        t_set_bool_byte(&occ, 0xA5);
        CHECK_OK(fathom_mesh_occluded(e, &rays[0], 0, INF, &occ));
        CHECK(t_bool_byte(&occ) == 0);
        n = 99;
        CHECK_OK(fathom_mesh_intersect_all(e, &rays[0], 0, INF, all, 4, &n));
        CHECK(n == 0);
        CHECK_OK(fathom_batch_options_init(&opt));
        opt.tmin = 0;
        opt.tmax = INF;
        opt.threads = 2;
        CHECK_OK(fathom_mesh_intersect_batch(e, rays, 3, &opt, hits));
        CHECK(t_hit_is_miss(&hits[0]) && t_hit_is_miss(&hits[1]) && t_hit_is_miss(&hits[2]));
        memset(occs, 7, sizeof occs);
        CHECK_OK(fathom_mesh_occluded_batch(e, rays, 3, &opt, occs));
        CHECK(t_bool_byte(&occs[0]) == 0 && t_bool_byte(&occs[1]) == 0 && t_bool_byte(&occs[2]) == 0);
        CHECK_OK(fathom_mesh_intersect_all_batch(e, rays, 3, &opt, hits, 3, off));
        CHECK(off[0] == 0 && off[1] == 0 && off[2] == 0 && off[3] == 0);
        CHECK_OK(fathom_mesh_face_geometry(e, nrm, ar));
        fathom_mesh_destroy(e);
    }
}

/* ---- tap flows ------------------------------------------------------------------------------------- */

static fathom_intrinsics TK;
static double TR[9];
static const double TT[3] = {0.2, 1.5, 0.1};
static fathom_pose TAP_CAM;

/* The ramp y = 0.3 + 0.1 x over x, z in [-10, 10], as two triangles. */
static const float RAMP_V[] = {-10, -0.7f, -10, 10, 1.3f, -10, 10, 1.3f, 10, -10, -0.7f, 10};
static const uint32_t RAMP_I[] = {0, 2, 1, 0, 3, 2};

static void test_taps(void) {
    const float flat_v[] = {-10, 0.3f, -10, 10, 0.3f, -10, 10, 0.3f, 10, -10, 0.3f, 10};
    const float far_v[] = {50, 0.3f, -10, 60, 0.3f, -10, 60, 0.3f, 10, 50, 0.3f, 10};
    const uint32_t quad_i[] = {0, 2, 1, 0, 3, 2};
    fathom_mesh *flat = NULL, *far = NULL, *ramp = NULL;
    const fathom_vec3 zero = {0, 0, 0}, up = {0, 1, 0}, p02 = {0, 0.2f, 0};
    float height;
    bool found;

    TK = t_intr(500, 500, 320, 240, 640, 480);
    t_rot_x(-T_PI / 4, TR); /* pitched 45 degrees down */
    TAP_CAM = t_pose(TR, TT[0], TT[1], TT[2]);
    CHECK_OK(fathom_mesh_create(flat_v, 4, 12, quad_i, 2, NULL, FATHOM_MESH_COPY, &flat));
    CHECK_OK(fathom_mesh_create(far_v, 4, 12, quad_i, 2, NULL, FATHOM_MESH_COPY, &far));
    CHECK_OK(fathom_mesh_create(RAMP_V, 4, 12, RAMP_I, 2, NULL, FATHOM_MESH_COPY, &ramp));
    if (!flat || !far || !ramp) {
        CHECK(0);
        return;
    }

    check_section("tap_floor_height: a plane only");
    height = 123;
    t_set_bool_byte(&found, 0xA5); /* neither 0 nor 1: a call that succeeds writes exactly 0 or 1 */
    CHECK_OK(fathom_tap_floor_height(&TK, &TAP_CAM, 400, 300, NULL, p02, up, &height, &found));
    CHECK(t_bool_byte(&found) == 1);
    CHECK_NEAR(height, 0.2, 1e-6);
    /* The camera at (0.2, 1.5, 0.1) pitched 45 degrees down: the tap at the principal point (320, 240) runs along
     * (0, -1, -1)/sqrt 2, through (0.2, 1.5 - s, 0.1 - s) at distance s sqrt 2. A tilted plane through (0, 0.2, 0)
     * with normal (0.1, 1, 0.2): 0.1 * 0.2 + (1.3 - s) + 0.2 (0.1 - s) = 0 gives s = 1.34 / 1.2; height
     * 1.5 - 1.34 / 1.2 = 23/60. */
    t_set_bool_byte(&found, 0xA5);
    CHECK_OK(fathom_tap_floor_height(&TK, &TAP_CAM, 320, 240, NULL, p02, v3(0.1f, 1, 0.2f), &height, &found));
    CHECK(t_bool_byte(&found) == 1);
    CHECK_NEAR(height, 23.0 / 60, 1e-5);
    /* No plane (zero normal) and no mesh: nothing hit, height untouched. */
    height = 123;
    t_set_bool_byte(&found, 0xA5);
    CHECK_OK(fathom_tap_floor_height(&TK, &TAP_CAM, 400, 300, NULL, zero, zero, &height, &found));
    CHECK(t_bool_byte(&found) == 0);
    CHECK(height == 123);
    /* Looking up: the plane below is behind the ray. */
    {
        double Ru[9];
        fathom_pose upcam;
        t_rot_x(T_PI / 4, Ru);
        upcam = t_pose(Ru, TT[0], TT[1], TT[2]);
        t_set_bool_byte(&found, 0xA5);
        CHECK_OK(fathom_tap_floor_height(&TK, &upcam, 320, 240, NULL, p02, up, &height, &found));
        CHECK(t_bool_byte(&found) == 0);
        CHECK(height == 123);
    }

    check_section("tap_floor_height: with a floor mesh");
    t_set_bool_byte(&found, 0xA5);
    CHECK_OK(fathom_tap_floor_height(&TK, &TAP_CAM, 400, 300, flat, p02, up, &height, &found));
    CHECK(t_bool_byte(&found) == 1);
    CHECK_NEAR(height, 0.3, 1e-6); /* the mesh first */
    t_set_bool_byte(&found, 0xA5);
    CHECK_OK(fathom_tap_floor_height(&TK, &TAP_CAM, 400, 300, flat, zero, zero, &height, &found));
    CHECK(t_bool_byte(&found) == 1);
    CHECK_NEAR(height, 0.3, 1e-6);
    /* A mesh that the ray misses: the plane. */
    t_set_bool_byte(&found, 0xA5);
    CHECK_OK(fathom_tap_floor_height(&TK, &TAP_CAM, 400, 300, far, p02, up, &height, &found));
    CHECK(t_bool_byte(&found) == 1);
    CHECK_NEAR(height, 0.2, 1e-6);
    height = 123;
    t_set_bool_byte(&found, 0xA5);
    CHECK_OK(fathom_tap_floor_height(&TK, &TAP_CAM, 400, 300, far, zero, zero, &height, &found));
    CHECK(t_bool_byte(&found) == 0);
    CHECK(height == 123);
    /* The ramp: the tap at the principal point stays at x = 0.2, where the ramp is at y = 0.3 + 0.02 = 0.32. */
    t_set_bool_byte(&found, 0xA5);
    CHECK_OK(fathom_tap_floor_height(&TK, &TAP_CAM, 320, 240, ramp, p02, up, &height, &found));
    CHECK(t_bool_byte(&found) == 1);
    CHECK_NEAR(height, 0.32, 1e-5);

    check_section("tap_place_box");
    {
        fathom_box box, before;
        CHECK_OK(fathom_box_init(v3(5, 5, 5), v3(0.4f, 0.6f, 0.8f), 0.3f, &box));
        CHECK_OK(fathom_box_set_floor(&box, 0.3f));
        before = box;
        /* No mesh: onto the box's floor plane y = 0.3; the box stands there: centre (x, 0.3 + 0.6/2, z). The tap at
         * the principal point goes down 1.2 and forward 1.2 from (0.2, 1.5, 0.1): (0.2, 0.3, -1.1). */
        t_set_bool_byte(&found, 0xA5);
        CHECK_OK(fathom_tap_place_box(&TK, &TAP_CAM, 320, 240, NULL, &box, &found));
        CHECK(t_bool_byte(&found) == 1);
        CHECK_VEC3(box.center, 0.2, 0.6, -1.1, 1e-5);
        CHECK(memcmp(&box.scale, &before.scale, sizeof box.scale) == 0 && box.rot_y == before.rot_y &&
              box.floor == before.floor && t_bool_byte(&box.has_floor) == 1);
        /* A mesh that is missed: the floor plane again. */
        box = before;
        t_set_bool_byte(&found, 0xA5);
        CHECK_OK(fathom_tap_place_box(&TK, &TAP_CAM, 320, 240, far, &box, &found));
        CHECK(t_bool_byte(&found) == 1);
        CHECK_VEC3(box.center, 0.2, 0.6, -1.1, 1e-5);
        /* The ramp: met at y = 0.32, 1.18 down and forward: x, z = (0.2, -1.08); standing on the box's floor
         * (y = 0.3 + 0.3). */
        box = before;
        t_set_bool_byte(&found, 0xA5);
        CHECK_OK(fathom_tap_place_box(&TK, &TAP_CAM, 320, 240, ramp, &box, &found));
        CHECK(t_bool_byte(&found) == 1);
        CHECK_VEC3(box.center, 0.2, 0.6, -1.08, 1e-5);
        /* Looking up: nothing hit, the box unchanged. */
        {
            double Ru[9];
            fathom_pose upcam;
            t_rot_x(T_PI / 4, Ru);
            upcam = t_pose(Ru, TT[0], TT[1], TT[2]);
            box = before;
            t_set_bool_byte(&found, 0xA5);
            CHECK_OK(fathom_tap_place_box(&TK, &upcam, 320, 240, NULL, &box, &found));
            CHECK(t_bool_byte(&found) == 0);
            CHECK(memcmp(&box, &before, sizeof box) == 0);
        }
        /* Without a floor: INVALID_STATE, unchanged. */
        CHECK_OK(fathom_box_clear_floor(&box));
        before = box;
        t_set_bool_byte(&found, 0xA5);
        CHECK_STATUS(fathom_tap_place_box(&TK, &TAP_CAM, 400, 300, flat, &box, &found), FATHOM_ERR_INVALID_STATE);
        CHECK_ERROR_MENTIONS("fathom_tap_place_box");
        CHECK_ERROR_MENTIONS("floor");
        CHECK(memcmp(&box, &before, sizeof box) == 0);
        CHECK(t_bool_byte(&found) == 0xA5); /* a failed call writes nothing */
    }

    check_section("tap_box_face");
    {
        fathom_box box;
        double R[9];
        fathom_pose cam;
        uint32_t face = 99;
        CHECK_OK(fathom_box_init(v3(0, 0.5f, 0), v3(1, 1, 1), 0, &box));
        /* The front is local -z. A camera at (0, 0.5, -3) turned 180 degrees about y looks along +z at it. */
        t_rot_y(T_PI, R);
        cam = t_pose(R, 0, 0.5, -3);
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 320, 240, &box, &face));
        CHECK(face == FATHOM_FACE_FRONT);
        /* Off to the side of the image: the ray passes the box. u = 0: camera direction (-0.64, 0, -1), world
         * (0.64, 0, 1): at z = -0.5 it is at x = 1.6. */
        face = 99;
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 0, 240, &box, &face));
        CHECK(face == FATHOM_NO_HIT);
        /* From behind (camera at +z looking along -z): the back. */
        t_rot_y(0, R);
        cam = t_pose(R, 0.1, 0.6, 3);
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 320, 240, &box, &face));
        CHECK(face == FATHOM_FACE_BACK);
        /* From above looking down (R_x(-90deg) takes -z to -y): the top. */
        t_rot_x(-T_PI / 2, R);
        cam = t_pose(R, 0.1, 5, 0.2);
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 320, 240, &box, &face));
        CHECK(face == FATHOM_FACE_TOP);
        /* From inside the box, looking along +z: the exit face, the back. */
        t_rot_y(T_PI, R);
        cam = t_pose(R, 0, 0.5, 0);
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 320, 240, &box, &face));
        CHECK(face == FATHOM_FACE_BACK);
        /* The box turned 90 degrees: R_y(90deg) takes local -z to world -x; a camera at (-3, 0.5, 0) looking
         * along +x (R_y(-90deg)) sees its front. */
        CHECK_OK(fathom_box_set_angle(&box, (float)(T_PI / 2)));
        t_rot_y(-T_PI / 2, R);
        cam = t_pose(R, -3, 0.5, 0);
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 320, 240, &box, &face));
        CHECK(face == FATHOM_FACE_FRONT);
        /* ... and its right side (local +x = world -z) from a camera at (0, 0.5, -3) looking along +z. */
        t_rot_y(T_PI, R);
        cam = t_pose(R, 0, 0.5, -3);
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 320, 240, &box, &face));
        CHECK(face == FATHOM_FACE_RIGHT);
        /* A floor at 0.5 clamps the box to y in [0.5, 1]: a ray at y = 0.25 passes below it; one at 0.75 hits. */
        CHECK_OK(fathom_box_set_angle(&box, 0));
        CHECK_OK(fathom_box_set_floor(&box, 0.5f));
        cam = t_pose(R, 0, 0.25, -3);
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 320, 240, &box, &face));
        CHECK(face == FATHOM_NO_HIT);
        cam = t_pose(R, 0, 0.75, -3);
        CHECK_OK(fathom_tap_box_face(&TK, &cam, 320, 240, &box, &face));
        CHECK(face == FATHOM_FACE_FRONT);
    }

    fathom_mesh_destroy(flat);
    fathom_mesh_destroy(far);
    fathom_mesh_destroy(ramp);
}

/* ---- compact batches and the tracing order ------------------------------------------------------------ */

/* The unit square at z = 2 as two triangles: 0 = (0,0,2), (1,0,2), (1,1,2) (the half with y < x) and 1 = (0,0,2),
 * (1,1,2), (0,1,2) (the half with y > x). Rays along z from z = 0 (t = 2 / |dz|), from above, and misses. */
static const float QUAD_V[] = {0, 0, 2, 1, 0, 2, 1, 1, 2, 0, 1, 2};
static const uint32_t QUAD_I[] = {0, 1, 2, 0, 2, 3};
#define NQ 8

static void quad_rays(fathom_ray r[NQ], float want_t[NQ], uint32_t want_p[NQ]) {
    r[0] = t_ray(0.75, 0.25, 0, 0, 0, 1);   /* triangle 0 at t = 2 */
    r[1] = t_ray(0.25, 0.75, 0, 0, 0, 2);   /* triangle 1 at t = 1 (|d| = 2) */
    r[2] = t_ray(0.5, 0.125, 5, 0, 0, -0.5); /* from above, triangle 0 at t = 3 / 0.5 = 6 */
    r[3] = t_ray(2, 2, 0, 0, 0, 1);         /* beside the square: miss */
    r[4] = t_ray(0.5, 0.25, 0, 0, 0, -1);   /* away from it: miss */
    r[5] = t_ray(0.25, 0.5, 1, 1, 0, 0);    /* parallel to it, below: miss */
    r[6] = t_ray(0.125, 0.875, -2, 0, 0, 0.25); /* triangle 1 at t = 4 / 0.25 = 16 */
    r[7] = t_ray(0.9, 0.1, 2.5, 0, 0, -1);  /* triangle 0 at t = 0.5 */
    want_t[0] = 2;
    want_p[0] = 0;
    want_t[1] = 1;
    want_p[1] = 1;
    want_t[2] = 6;
    want_p[2] = 0;
    want_t[3] = want_t[4] = want_t[5] = INF;
    want_p[3] = want_p[4] = want_p[5] = FATHOM_NO_HIT;
    want_t[6] = 16;
    want_p[6] = 1;
    want_t[7] = 0.5f;
    want_p[7] = 0;
}

/* t and primitive of full hits, for comparing with the compact outputs bit for bit. */
static int compact_matches(const fathom_hit *full, const float *t, const uint32_t *prim, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (t != NULL && memcmp(&t[i], &full[i].t, sizeof(float)) != 0) return 0;
        if (prim != NULL && prim[i] != full[i].primitive) return 0;
    }
    return 1;
}

static void test_compact_small(void) {
    fathom_mesh *m = NULL;
    fathom_ray rays[NQ];
    float want_t[NQ], t[NQ + 4];
    uint32_t want_p[NQ], prim[NQ + 4], order[NQ + 4];
    fathom_hit full[NQ];
    fathom_batch_options opt;
    size_t i;
    int same_t, same_p;

    check_section("intersect_batch_compact: a square of two triangles, hits and misses known by hand");
    CHECK_OK(fathom_mesh_create(QUAD_V, 4, 12, QUAD_I, 2, NULL, FATHOM_MESH_COPY, &m));
    if (!m) return;
    quad_rays(rays, want_t, want_p);
    CHECK_OK(fathom_batch_options_init(&opt));
    opt.threads = 2;
    t_fill(t, sizeof t);
    t_fill(prim, sizeof prim);
    CHECK_OK(fathom_mesh_intersect_batch_compact(m, rays, NQ, &opt, t, prim));
    same_t = same_p = 1;
    for (i = 0; i < NQ; i++) {
        if (!(t[i] == want_t[i])) same_t = 0; /* exact: t = a distance along z over |dz|, powers of two */
        if (prim[i] != want_p[i]) same_p = 0;
        if (!same_t || !same_p) {
            printf("    ray %zu: t %.9g primitive %u, expected %.9g and %u\n", i, (double)t[i], prim[i],
                   (double)want_t[i], want_p[i]);
            break;
        }
    }
    CHECK(same_t);
    CHECK(same_p);
    CHECK(isinf(t[3]) && t[3] > 0 && prim[4] == FATHOM_NO_HIT && prim[5] == 0xFFFFFFFFu);
    CHECK(t_untouched(t + NQ, 4 * sizeof(float)) && t_untouched(prim + NQ, 4 * sizeof(uint32_t)));
    /* The full records of the same batch, and of single rays: the same t and primitive, bit for bit. */
    CHECK_OK(fathom_mesh_intersect_batch(m, rays, NQ, &opt, full));
    CHECK(compact_matches(full, t, prim, NQ));
    for (i = 0; i < NQ; i++) {
        fathom_hit h;
        CHECK_OK(fathom_mesh_intersect(m, &rays[i], 0, INF, &h));
        CHECK(memcmp(&h.t, &t[i], sizeof(float)) == 0 && h.primitive == prim[i]);
    }

    check_section("intersect_batch_compact: a range [0.75, 2] (t = 0.5, 6 and 16 out of it)");
    opt.tmin = 0.75f;
    opt.tmax = 2;
    t_fill(t, sizeof t);
    t_fill(prim, sizeof prim);
    CHECK_OK(fathom_mesh_intersect_batch_compact(m, rays, NQ, &opt, t, prim));
    CHECK(t[0] == 2 && prim[0] == 0); /* t = tmax counts */
    CHECK(t[1] == 1 && prim[1] == 1);
    CHECK(isinf(t[2]) && prim[2] == FATHOM_NO_HIT);
    CHECK(isinf(t[6]) && prim[6] == FATHOM_NO_HIT);
    CHECK(isinf(t[7]) && prim[7] == FATHOM_NO_HIT);
    CHECK_OK(fathom_mesh_intersect_batch(m, rays, NQ, &opt, full));
    CHECK(compact_matches(full, t, prim, NQ));
    CHECK(t_untouched(t + NQ, 4 * sizeof(float)) && t_untouched(prim + NQ, 4 * sizeof(uint32_t)));

    check_section("intersect_batch_compact: either output NULL (nothing written past count), not both; count 0");
    CHECK_OK(fathom_batch_options_init(&opt));
    t_fill(t, sizeof t);
    t_fill(prim, sizeof prim);
    CHECK_OK(fathom_mesh_intersect_batch_compact(m, rays, NQ, &opt, t, NULL));
    CHECK(memcmp(t, want_t, sizeof want_t) == 0);
    CHECK(t_untouched(t + NQ, 4 * sizeof(float)));
    CHECK(t_untouched(prim, sizeof prim));
    t_fill(t, sizeof t);
    CHECK_OK(fathom_mesh_intersect_batch_compact(m, rays, NQ, NULL, NULL, prim)); /* NULL options: the defaults */
    CHECK(memcmp(prim, want_p, sizeof want_p) == 0);
    CHECK(t_untouched(prim + NQ, 4 * sizeof(uint32_t)));
    CHECK(t_untouched(t, sizeof t));
    t_fill(prim, sizeof prim);
    CHECK_STATUS(fathom_mesh_intersect_batch_compact(m, rays, NQ, &opt, NULL, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK_ERROR_MENTIONS("fathom_mesh_intersect_batch_compact");
    CHECK_ERROR_MENTIONS("out_t");
    CHECK_ERROR_MENTIONS("out_primitive");
    CHECK_OK(fathom_mesh_intersect_batch_compact(m, rays, 0, &opt, t, prim));
    CHECK(t_untouched(t, sizeof t) && t_untouched(prim, sizeof prim));
    /* A batch of one in the middle. */
    CHECK_OK(fathom_mesh_intersect_batch_compact(m, rays + 6, 1, &opt, t, prim));
    CHECK(t[0] == 16 && prim[0] == 1 && t_untouched(t + 1, sizeof(float)) && t_untouched(prim + 1, sizeof(uint32_t)));

    check_section("mesh_ray_order: the caller's order for a small batch");
    t_fill(order, sizeof order);
    CHECK_OK(fathom_mesh_ray_order(m, rays, NQ, &opt, order));
    for (i = 0; i < NQ; i++) CHECK(order[i] == i);
    CHECK(t_untouched(order + NQ, 4 * sizeof(uint32_t)));
    t_fill(order, sizeof order);
    CHECK_OK(fathom_mesh_ray_order(m, rays, 0, &opt, order));
    CHECK(t_untouched(order, sizeof order));
    fathom_mesh_destroy(m);
}

/* 1 if order[0..n) holds every index below n once. */
static int is_permutation(const uint32_t *order, size_t n) {
    uint8_t *seen = (uint8_t *)calloc(n ? n : 1, 1);
    size_t i;
    int ok = seen != NULL;
    for (i = 0; ok && i < n; i++) {
        if (order[i] >= n || seen[order[i]]) ok = 0;
        else seen[order[i]] = 1;
    }
    free(seen);
    return ok;
}

static int is_identity(const uint32_t *order, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (order[i] != i) return 0;
    return 1;
}

/* A mesh of 1 MB or more (an icosphere of 81920 triangles) and batches of 4096 rays or more are traced in an
 * order of their own: fathom_mesh_ray_order gives it, a permutation; tracing the rays in that order gives each
 * ray its own result. Below 4096 rays, and on a small mesh (the 5120-triangle icosphere, under 1 MB), the order
 * is the caller's. */
static void test_ray_order_large(void) {
    const size_t N = 20000;
    sphere_data s, small;
    fathom_mesh *m = NULL, *ms = NULL;
    fathom_mesh_info info;
    fathom_ray *rays, *permuted;
    float *t, *t2;
    uint32_t *prim, *prim2, *order, *order2;
    fathom_hit *full;
    fathom_batch_options opt;
    unsigned long st = 21;
    size_t i, wrong = 0, misses = 0;
    static const uint32_t thread_counts[] = {0, 1, 2, 5};

    check_section("mesh_ray_order: an icosphere of 81920 triangles (>= 1 MB), 20000 rays from inside");
    icosphere(6, &s);
    CHECK(s.nv == 40962 && s.nt == 81920); /* V = 10 * 4^6 + 2, F = 20 * 4^6 */
    CHECK_OK(fathom_mesh_create(s.v, s.nv, 12, s.idx, s.nt, NULL, FATHOM_MESH_COPY, &m));
    icosphere(4, &small);
    CHECK_OK(fathom_mesh_create(small.v, small.nv, 12, small.idx, small.nt, NULL, FATHOM_MESH_COPY, &ms));
    rays = (fathom_ray *)malloc(N * sizeof *rays);
    permuted = (fathom_ray *)malloc(N * sizeof *permuted);
    t = (float *)malloc(N * sizeof *t);
    t2 = (float *)malloc(N * sizeof *t2);
    prim = (uint32_t *)malloc(N * sizeof *prim);
    prim2 = (uint32_t *)malloc(N * sizeof *prim2);
    order = (uint32_t *)malloc((N + 4) * sizeof *order);
    order2 = (uint32_t *)malloc((N + 4) * sizeof *order2);
    full = (fathom_hit *)malloc(N * sizeof *full);
    if (!m || !ms || !rays || !permuted || !t || !t2 || !prim || !prim2 || !order || !order2 || !full) {
        CHECK(0);
        return;
    }
    CHECK_OK(fathom_mesh_get_info(m, &info));
    CHECK(info.memory_bytes >= (1u << 20));
    printf("    (81920 triangles: %llu bytes)\n", (unsigned long long)info.memory_bytes);
    CHECK_OK(fathom_mesh_get_info(ms, &info));
    CHECK(info.memory_bytes < 1000000); /* under 1 MB however it is counted */
    for (i = 0; i < N; i++) rays[i] = sphere_ray(&st, 0);

    CHECK_OK(fathom_batch_options_init(&opt));
    opt.threads = 1;
    t_fill(order, (N + 4) * sizeof *order);
    CHECK_OK(fathom_mesh_ray_order(m, rays, N, &opt, order));
    CHECK(is_permutation(order, N));
    CHECK(!is_identity(order, N));
    CHECK(t_untouched(order + N, 4 * sizeof *order));
    for (i = 0; i < sizeof thread_counts / sizeof thread_counts[0]; i++) { /* 0, 1, 2, 5 against 1 */
        opt.threads = thread_counts[i];
        t_fill(order2, (N + 4) * sizeof *order2);
        CHECK_OK(fathom_mesh_ray_order(m, rays, N, &opt, order2));
        CHECK(memcmp(order, order2, N * sizeof *order) == 0);
    }

    check_section("mesh_ray_order: the permuted rays, traced compact, give each ray its own result");
    opt.threads = 0;
    CHECK_OK(fathom_mesh_intersect_batch(m, rays, N, &opt, full));
    for (i = 0; i < sizeof thread_counts / sizeof thread_counts[0]; i++) {
        opt.threads = thread_counts[i];
        t_fill(t, N * sizeof *t);
        t_fill(prim, N * sizeof *prim);
        CHECK_OK(fathom_mesh_intersect_batch_compact(m, rays, N, &opt, t, prim));
        CHECK(compact_matches(full, t, prim, N));
    }
    for (i = 0; i < N; i++) {
        /* From inside the closed sphere every ray hits (watertight): a triangle, at a finite t > 0. */
        if (prim[i] >= s.nt || !(t[i] > 0) || !isfinite(t[i])) misses++;
        permuted[i] = rays[order[i]];
    }
    CHECK(misses == 0);
    opt.threads = 2;
    CHECK_OK(fathom_mesh_intersect_batch_compact(m, permuted, N, &opt, t2, prim2));
    for (i = 0; i < N; i++)
        if (memcmp(&t2[i], &t[order[i]], sizeof(float)) != 0 || prim2[i] != prim[order[i]]) wrong++;
    CHECK(wrong == 0);

    check_section("mesh_ray_order: the caller's order below 4096 rays, and on a mesh under 1 MB");
    t_fill(order2, (N + 4) * sizeof *order2);
    CHECK_OK(fathom_mesh_ray_order(m, rays, 4095, &opt, order2));
    CHECK(is_identity(order2, 4095));
    CHECK(t_untouched(order2 + 4095, 4 * sizeof *order2));
    CHECK_OK(fathom_mesh_ray_order(m, rays, 4096, &opt, order2));
    CHECK(is_permutation(order2, 4096));
    CHECK_OK(fathom_mesh_ray_order(ms, rays, N, &opt, order2));
    CHECK(is_identity(order2, N));
    CHECK_OK(fathom_mesh_ray_order(ms, rays, N, NULL, order2));
    CHECK(is_identity(order2, N));

    fathom_mesh_destroy(m);
    fathom_mesh_destroy(ms);
    sphere_free(&s);
    sphere_free(&small);
    free(rays);
    free(permuted);
    free(t);
    free(t2);
    free(prim);
    free(prim2);
    free(order);
    free(order2);
    free(full);
}

int main(void) {
    test_cube();
    test_degenerate_and_empty();
    test_random_soup();
    test_icosphere();
    test_files();
    test_taps();
    test_compact_small();
    test_ray_order_large();
    return check_summary("test_mesh");
}
