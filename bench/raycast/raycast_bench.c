/* Ray casting against triangle meshes: Fathom (libfathom.so) side by side with Embree 3 (Debian
 * libembree-dev), in one process, on the meshes and rays of reference/anchors.md.
 *
 * Meshes (generated here, deterministic):
 *   sphere5  icosphere, 5 subdivisions of an icosahedron, vertices on the unit sphere: 20,480 triangles
 *   sphere8  icosphere, 8 subdivisions: 1,310,720 triangles (both closed: every edge shared by 2 faces)
 *   soup1m   1,000,000 unconnected small triangles: centroid uniform in [-0.98, 0.98]^3, two edge vectors
 *            from the first vertex with random directions and lengths uniform in [0.01, 0.02]
 * Rays (N = 1,000,000 each by default, unit directions, fixed seeds):
 *   rand     origins uniform in [-1, 1]^3, directions uniform on the unit sphere (incoherent)
 *   cam      origin (0, 0, 3), through points uniform in [-1.2, 1.2]^2 at z = 0 (a tapping user)
 *   inside   (spheres only) origins uniform in the ball of radius 0.5, uniform directions: every ray
 *            must hit the closed mesh
 *
 * Engines, all single-threaded on one pinned core (the first CPU of the inherited affinity mask):
 *   fathom          fathom_mesh_create (FATHOM_MESH_COPY); fathom_mesh_intersect_batch /
 *                   fathom_mesh_occluded_batch with threads = 1, tmin = 0, tmax = INFINITY
 *   embree default  rtcNewDevice("threads=1"); scene flags none, default build quality (MEDIUM); vertex
 *                   and index buffers from rtcSetNewGeometryBuffer + memcpy; rtcIntersect1 / rtcOccluded1
 *                   in a plain loop, one ray at a time, as a user writes it
 *   embree robust   the same with RTC_SCENE_FLAG_ROBUST (watertight traversal and triangle test)
 * Build times include copying the buffers (both engines copy). Memory: Fathom's fathom_mesh_info
 * memory_bytes; Embree's bytes come from rtcSetDeviceMemoryMonitorFunction (net bytes the scene holds
 * after rtcCommitScene: geometry buffers + BVH; what Embree itself accounts for).
 * In Fathom's order: the same rays traced by Embree in the order Fathom's batch traces them
 * (fathom_mesh_ray_order, computed once outside the timing), three Embree settings (default, robust, and
 * RTC_BUILD_QUALITY_HIGH with default flags; "best" = the fastest of them per mesh and ray set):
 *   full     Embree writes the whole fathom_hit record of each ray (t, point = org + tfar dir, unit normal from
 *            Ng, u, v, primitive, front face = dot(dir, normal) < 0) into a 44-byte fathom_hit array at the
 *            ray's own index (scattered back, as Fathom does); timed round-robin with Fathom's batch
 *            (threads = 1) and with fathom_mesh_ray_order itself (the ordering's cost per batch)
 *   compact  fathom_mesh_intersect_batch_compact (t and primitive only) against Embree writing only t and
 *            primID at the ray's index, round-robin
 *   lean     memory-lean meshes: Fathom's FATHOM_MESH_COMPACT mesh (its batch, full output) against Embree's
 *            RTC_SCENE_FLAG_COMPACT scene (MEDIUM build) writing the same records in that mesh's order,
 *            round-robin; the lean mesh's t and triangle must be bit-identical to the copied mesh's
 * Memory per triangle, counted as a user's process sees it: each structure built in a fresh child process
 * (fork), its resident set's growth over the build (malloc_trim before and after), so everything it keeps
 * counts (Fathom's copies for export, Embree's geometry buffers); Fathom copy and compact, Embree MEDIUM and
 * COMPACT, 3 rounds interleaved, median.
 * Checks: Fathom's compact output bit-identical to its full batch's t and primitive on every ray; Embree on
 * Fathom's order gives bit for bit its results in the caller's order; the full records compared field by
 * field with Fathom's where both hit the same triangle.
 * Then Fathom's batch mode on all online CPUs: threads = 1, 2 and 0 (= one per CPU), the affinity
 * widened to every online CPU for that part only. With --core-probe CMD, CMD (bench/benchlib.py
 * --core-probe) runs first and prints the share of a whole core a second thread gets; below 0.85 the
 * scaling is not timed ("not measured"), only the thread counts' results are checked.
 *
 * Timing: every engine runs once untimed on every ray (its results are the ones checked), then --repeat
 * timed runs, round-robin (one run of each engine per round) so that all see the same machine conditions;
 * tables show the median. When --repeat rounds on every ray would exceed --budget seconds, the timed runs
 * cast only the first rays of the set (the 'timed' column says how many), and builds run fewer rounds
 * (at least 3). Output: tables, PASS/FAIL lines of the targets, and a JSON file (--json).
 * --dump DIR writes the meshes, rays and Fathom's hits as .npy files for bench/raycast.py.
 *
 * Build: cc -O2 -march=native -I include raycast_bench.c /abs/libfathom.so -Wl,-rpath,DIR -lembree3 -lm
 * (bench/raycast.py does this). Exit status: 0, or 1 if Fathom failed a call or gave wrong results
 * (misses on a closed mesh, hits that disagree with Embree robust, results depending on threads, a compact
 * output differing from the full batch's). */

#define _GNU_SOURCE
#include <embree3/rtcore.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fathom.h"

#define MAX_RUNS 64
#define T_TOL 1e-4f /* agreement of two engines' t (unit directions: meters), absolute */
#define CORE_SHARE_MIN 0.85 /* a second thread must get at least this share of a whole core for scaling figures */

/* ---------------------------------------------------------------------------------------------- */
/* Small utilities                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

static double cpu_s(void) { /* CPU time of the whole process, all threads */
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds all processes spent busy on all CPUs since boot (/proc/stat), or NAN */
static double system_busy_s(void) {
    FILE *f = fopen("/proc/stat", "r");
    unsigned long long v[8] = {0};
    int got = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                         &v[6], &v[7]) : 0;
    if (f) fclose(f);
    if (got < 8) return NAN;
    /* user nice system idle iowait irq softirq steal: everything but idle and iowait */
    return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / (double)sysconf(_SC_CLK_TCK);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "raycast_bench: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

static void *xmalloc(size_t n) {
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 64) != 0) die("out of memory (%zu bytes)", n);
    memset(p, 0, n); /* fault the pages in before anything is timed */
    return p;
}

static void fathom_check(const char *what, fathom_status st) {
    if (st != FATHOM_OK) {
        fprintf(stderr, "raycast_bench: %s failed: %s: %s\n", what, fathom_status_name(st), fathom_last_error());
        exit(1);
    }
}

/* xoshiro256** seeded through splitmix64: the same numbers on every machine. */
typedef struct { uint64_t s[4]; } rng_t;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static rng_t rng_seed(uint64_t seed) {
    rng_t r;
    for (int i = 0; i < 4; i++) r.s[i] = splitmix64(&seed);
    return r;
}

static uint64_t rng_next(rng_t *r) {
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* uniform in [0, 1) with 53 random bits */
static double rng_unit(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static double rng_range(rng_t *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }

/* uniform on the unit sphere (Archimedes: z uniform in [-1, 1], angle uniform) */
static void rng_dir(rng_t *r, double d[3]) {
    double z = 2.0 * rng_unit(r) - 1.0, phi = 2.0 * M_PI * rng_unit(r), s = sqrt(fmax(0.0, 1.0 - z * z));
    d[0] = s * cos(phi);
    d[1] = s * sin(phi);
    d[2] = z;
}

static void set_ray(float *ray, const double o[3], const double d[3]) {
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; k++) {
        ray[k] = (float)o[k];
        ray[3 + k] = (float)(d[k] / len);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Meshes and rays                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    const char *desc;
    float *vertices;     /* xyz, stride 12 */
    uint32_t *indices;   /* 3 per triangle */
    size_t nv, nt;
    bool closed;
} mesh_t;

/* Edge -> midpoint vertex, open addressing (keys a < b packed in 64 bits). */
typedef struct { uint64_t *keys; uint32_t *vals; size_t mask; } edge_map;

static uint32_t midpoint(edge_map *m, uint32_t a, uint32_t b, double *v, size_t *nv) {
    if (a > b) { uint32_t t = a; a = b; b = t; }
    uint64_t key = ((uint64_t)a << 32) | b;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & m->mask;
    while (m->keys[h] != UINT64_MAX) {
        if (m->keys[h] == key) return m->vals[h];
        h = (h + 1) & m->mask;
    }
    uint32_t idx = (uint32_t)*nv;
    double p[3], len = 0;
    for (int k = 0; k < 3; k++) { p[k] = 0.5 * (v[3 * a + k] + v[3 * b + k]); len += p[k] * p[k]; }
    len = sqrt(len);
    for (int k = 0; k < 3; k++) v[3 * idx + k] = p[k] / len;
    (*nv)++;
    m->keys[h] = key;
    m->vals[h] = idx;
    return idx;
}

/* Icosphere: the icosahedron (counter-clockwise faces seen from outside), each triangle split into 4 with
 * the edge midpoints pushed onto the unit sphere, `levels` times; midpoints shared, so the mesh is closed. */
static mesh_t make_icosphere(const char *name, int levels) {
    const double t = (1.0 + sqrt(5.0)) / 2.0;
    const double ico_v[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                                 {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    const uint32_t ico_f[20][3] = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                                   {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8},
                                   {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
    size_t nt_final = 20, nv_final;
    for (int l = 0; l < levels; l++) nt_final *= 4;
    nv_final = nt_final / 2 + 2; /* Euler: V - E + F = 2, E = 3F/2 */
    double *v = malloc(nv_final * 3 * sizeof(double));
    uint32_t *f = malloc(nt_final * 3 * sizeof(uint32_t)), *g = malloc(nt_final * 3 * sizeof(uint32_t));
    if (!v || !f || !g) die("out of memory");
    size_t nv = 12, nt = 20;
    for (int i = 0; i < 12; i++) {
        double len = sqrt(ico_v[i][0] * ico_v[i][0] + ico_v[i][1] * ico_v[i][1] + ico_v[i][2] * ico_v[i][2]);
        for (int k = 0; k < 3; k++) v[3 * i + k] = ico_v[i][k] / len;
    }
    memcpy(f, ico_f, sizeof ico_f);
    for (int l = 0; l < levels; l++) {
        size_t edges = nt * 3 / 2, cap = 1;
        while (cap < 2 * edges) cap <<= 1;
        edge_map m = {malloc(cap * sizeof(uint64_t)), malloc(cap * sizeof(uint32_t)), cap - 1};
        if (!m.keys || !m.vals) die("out of memory");
        memset(m.keys, 0xFF, cap * sizeof(uint64_t));
        for (size_t i = 0; i < nt; i++) {
            uint32_t a = f[3 * i], b = f[3 * i + 1], c = f[3 * i + 2];
            uint32_t ab = midpoint(&m, a, b, v, &nv), bc = midpoint(&m, b, c, v, &nv), ca = midpoint(&m, c, a, v, &nv);
            uint32_t *o = g + 12 * i;
            uint32_t tri[12] = {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca};
            memcpy(o, tri, sizeof tri);
        }
        free(m.keys);
        free(m.vals);
        uint32_t *tmp = f; f = g; g = tmp;
        nt *= 4;
    }
    if (nv != nv_final || nt != nt_final) die("icosphere: %zu vertices, %zu triangles (expected %zu, %zu)", nv, nt, nv_final, nt_final);
    mesh_t mesh = {name, NULL, xmalloc(nv * 12), xmalloc(nt * 12), nv, nt, true};
    for (size_t i = 0; i < 3 * nv; i++) mesh.vertices[i] = (float)v[i];
    memcpy(mesh.indices, f, nt * 12);
    free(v); free(f); free(g);
    return mesh;
}

static mesh_t make_soup(const char *name, size_t nt, uint64_t seed) {
    mesh_t mesh = {name, NULL, xmalloc(nt * 36), xmalloc(nt * 12), 3 * nt, nt, false};
    rng_t r = rng_seed(seed);
    for (size_t i = 0; i < nt; i++) {
        double c[3], e1[3], e2[3];
        for (int k = 0; k < 3; k++) c[k] = rng_range(&r, -0.98, 0.98);
        rng_dir(&r, e1);
        rng_dir(&r, e2);
        double l1 = rng_range(&r, 0.01, 0.02), l2 = rng_range(&r, 0.01, 0.02);
        for (int k = 0; k < 3; k++) {
            e1[k] *= l1;
            e2[k] *= l2;
            double v0 = c[k] - (e1[k] + e2[k]) / 3.0; /* centroid at c */
            mesh.vertices[9 * i + k] = (float)v0;
            mesh.vertices[9 * i + 3 + k] = (float)(v0 + e1[k]);
            mesh.vertices[9 * i + 6 + k] = (float)(v0 + e2[k]);
        }
        for (int k = 0; k < 3; k++) mesh.indices[3 * i + k] = (uint32_t)(3 * i + k);
    }
    return mesh;
}

static void free_mesh(mesh_t *m) { free(m->vertices); free(m->indices); m->vertices = NULL; m->indices = NULL; }

typedef struct {
    const char *name;
    const char *desc;
    float *rays; /* n x 6 floats: origin, unit direction (the fathom_ray layout) */
    size_t n;
} rayset_t;

static rayset_t make_rays_rand(size_t n, uint64_t seed) {
    rayset_t s = {"rand", "origins uniform in [-1,1]^3, uniform directions", xmalloc(n * 24), n};
    rng_t r = rng_seed(seed);
    for (size_t i = 0; i < n; i++) {
        double o[3], d[3];
        for (int k = 0; k < 3; k++) o[k] = rng_range(&r, -1.0, 1.0);
        rng_dir(&r, d);
        set_ray(s.rays + 6 * i, o, d);
    }
    return s;
}

static rayset_t make_rays_cam(size_t n, uint64_t seed) {
    rayset_t s = {"cam", "from (0,0,3) through uniform points of [-1.2,1.2]^2 at z=0", xmalloc(n * 24), n};
    rng_t r = rng_seed(seed);
    const double eye[3] = {0.0, 0.0, 3.0};
    for (size_t i = 0; i < n; i++) {
        double x = rng_range(&r, -1.2, 1.2), y = rng_range(&r, -1.2, 1.2);
        double d[3] = {x - eye[0], y - eye[1], 0.0 - eye[2]};
        set_ray(s.rays + 6 * i, eye, d);
    }
    return s;
}

static rayset_t make_rays_inside(size_t n, uint64_t seed) {
    rayset_t s = {"inside", "origins uniform in the ball of radius 0.5, uniform directions", xmalloc(n * 24), n};
    rng_t r = rng_seed(seed);
    for (size_t i = 0; i < n; i++) {
        double o[3], d[3];
        do {
            for (int k = 0; k < 3; k++) o[k] = rng_range(&r, -0.5, 0.5);
        } while (o[0] * o[0] + o[1] * o[1] + o[2] * o[2] > 0.25);
        rng_dir(&r, d);
        set_ray(s.rays + 6 * i, o, d);
    }
    return s;
}

/* .npy (version 1.0) writer, little-endian */
static void write_npy(const char *dir, const char *name, const char *descr, size_t rows, size_t cols,
                      const void *data, size_t bytes) {
    if (!dir) return;
    char path[4096], header[256];
    snprintf(path, sizeof path, "%s/%s.npy", dir, name);
    int hl = cols ? snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }", descr, rows, cols)
                  : snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }", descr, rows);
    int total = 10 + hl + 1;
    int pad = (64 - total % 64) % 64;
    FILE *fp = fopen(path, "wb");
    if (!fp) die("cannot write %s: %s", path, strerror(errno));
    unsigned char magic[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)((hl + pad + 1) & 0xFF),
                               (unsigned char)((hl + pad + 1) >> 8)};
    fwrite(magic, 1, 10, fp);
    fwrite(header, 1, (size_t)hl, fp);
    for (int i = 0; i < pad; i++) fputc(' ', fp);
    fputc('\n', fp);
    if (fwrite(data, 1, bytes, fp) != bytes || fclose(fp) != 0) die("cannot write %s", path);
}

/* ---------------------------------------------------------------------------------------------- */
/* Timing                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

typedef struct {
    double runs[MAX_RUNS];
    int n;
    size_t items; /* rays per timed run (0 for builds) */
} timing_t;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double t_median(const timing_t *t) {
    if (t->n == 0) return NAN;
    double s[MAX_RUNS];
    memcpy(s, t->runs, sizeof(double) * (size_t)t->n);
    qsort(s, (size_t)t->n, sizeof(double), cmp_double);
    return t->n % 2 ? s[t->n / 2] : 0.5 * (s[t->n / 2 - 1] + s[t->n / 2]);
}

static double t_min(const timing_t *t) {
    double m = INFINITY;
    for (int i = 0; i < t->n; i++) m = fmin(m, t->runs[i]);
    return t->n ? m : NAN;
}

static void t_add(timing_t *t, double s) {
    if (t->n < MAX_RUNS) t->runs[t->n++] = s;
}

/* ---------------------------------------------------------------------------------------------- */
/* CPU affinity                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

static const char *load_average(void) {
    static char buf[64];
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f || !fgets(buf, sizeof buf, f)) snprintf(buf, sizeof buf, "?");
    if (f) fclose(f);
    char *p = buf;
    for (int sp = 0; *p; p++)
        if (*p == ' ' && ++sp == 3) { *p = 0; break; }
    return buf;
}

static int g_core = -1;

static void pin_one_core(void) {
    cpu_set_t set;
    if (g_core < 0) {
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) != 0) die("sched_getaffinity: %s", strerror(errno));
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set)) { g_core = c; break; }
    }
    CPU_ZERO(&set);
    CPU_SET(g_core, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) die("sched_setaffinity(%d): %s", g_core, strerror(errno));
}

static int unpin_all_cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (long c = 0; c < n && c < CPU_SETSIZE; c++) CPU_SET((int)c, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) die("sched_setaffinity(all): %s", strerror(errno));
    return (int)n;
}

/* ---------------------------------------------------------------------------------------------- */
/* Engines                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

enum { E_FATHOM, E_EMB_DEFAULT, E_EMB_ROBUST, N_ENGINES };
static const char *engine_key[N_ENGINES] = {"fathom", "embree_default", "embree_robust"};

static RTCDevice g_device;
static long long g_embree_bytes, g_embree_peak;

static bool memory_monitor(void *user, ssize_t bytes, bool post) {
    (void)user; (void)post;
    g_embree_bytes += bytes;
    if (g_embree_bytes > g_embree_peak) g_embree_peak = g_embree_bytes;
    return true;
}

static void embree_error(void *user, enum RTCError code, const char *str) {
    (void)user;
    die("embree error %d: %s", (int)code, str ? str : "");
}

/* Embree settings traced in Fathom's order: scene flags and build quality */
enum { S_DEFAULT, S_ROBUST, S_HIGH, N_SETTINGS };
static const char *setting_key[N_SETTINGS] = {"embree_default", "embree_robust", "embree_high_quality"};
static const char *setting_label[N_SETTINGS] = {"default", "robust", "high"};

/* A scene of the mesh on `device`: the buffers copied in (rtcSetNewGeometryBuffer + memcpy), then committed. */
static RTCScene embree_build_scene(RTCDevice device, const mesh_t *m, enum RTCSceneFlags flags, enum RTCBuildQuality quality) {
    RTCScene scene = rtcNewScene(device);
    rtcSetSceneFlags(scene, flags);
    rtcSetSceneBuildQuality(scene, quality);
    RTCGeometry geom = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    float *vb = rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 12, m->nv);
    memcpy(vb, m->vertices, m->nv * 12);
    uint32_t *ib = rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 12, m->nt);
    memcpy(ib, m->indices, m->nt * 12);
    rtcCommitGeometry(geom);
    rtcAttachGeometry(scene, geom);
    rtcReleaseGeometry(geom);
    rtcCommitScene(scene);
    return scene;
}

static RTCScene embree_build_quality(const mesh_t *m, bool robust, enum RTCBuildQuality quality) {
    return embree_build_scene(g_device, m, robust ? RTC_SCENE_FLAG_ROBUST : RTC_SCENE_FLAG_NONE, quality);
}

static RTCScene embree_build(const mesh_t *m, bool robust) { return embree_build_quality(m, robust, RTC_BUILD_QUALITY_MEDIUM); }

static fathom_mesh *fathom_build(const mesh_t *m) {
    fathom_mesh *mesh = NULL;
    fathom_check("fathom_mesh_create",
                 fathom_mesh_create(m->vertices, m->nv, 12, m->indices, m->nt, NULL, FATHOM_MESH_COPY, &mesh));
    return mesh;
}

/* Closest hits: t (INFINITY on a miss) and primitive (FATHOM_NO_HIT on a miss) per ray. */
typedef struct {
    float *t;
    uint32_t *prim;
    bool *occluded;
} results_t;

static results_t results_alloc(size_t n) {
    results_t r = {xmalloc(n * 4), xmalloc(n * 4), xmalloc(n * sizeof(bool))};
    return r;
}

static void results_free(results_t *r) { free(r->t); free(r->prim); free(r->occluded); }

static void embree_closest(RTCScene scene, const float *rays, size_t n, results_t *out) {
    struct RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    for (size_t i = 0; i < n; i++) {
        const float *r = rays + 6 * i;
        struct RTCRayHit rh;
        rh.ray.org_x = r[0]; rh.ray.org_y = r[1]; rh.ray.org_z = r[2];
        rh.ray.dir_x = r[3]; rh.ray.dir_y = r[4]; rh.ray.dir_z = r[5];
        rh.ray.tnear = 0.0f;
        rh.ray.tfar = INFINITY;
        rh.ray.time = 0.0f;
        rh.ray.mask = 0xFFFFFFFFu;
        rh.ray.id = 0;
        rh.ray.flags = 0;
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(scene, &ctx, &rh);
        bool hit = rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
        out->t[i] = hit ? rh.ray.tfar : INFINITY;
        out->prim[i] = hit ? rh.hit.primID : FATHOM_NO_HIT;
    }
}

static void embree_occluded(RTCScene scene, const float *rays, size_t n, results_t *out) {
    struct RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    for (size_t i = 0; i < n; i++) {
        const float *r = rays + 6 * i;
        struct RTCRay ray;
        ray.org_x = r[0]; ray.org_y = r[1]; ray.org_z = r[2];
        ray.dir_x = r[3]; ray.dir_y = r[4]; ray.dir_z = r[5];
        ray.tnear = 0.0f;
        ray.tfar = INFINITY;
        ray.time = 0.0f;
        ray.mask = 0xFFFFFFFFu;
        ray.id = 0;
        ray.flags = 0;
        rtcOccluded1(scene, &ctx, &ray);
        out->occluded[i] = ray.tfar < 0.0f; /* Embree sets tfar = -inf when occluded */
    }
}

/* Embree on the rays in Fathom's order (order[j] = the ray traced j-th), writing the whole fathom_hit record at
 * the ray's own index, as a caller filling Fathom's output type from Embree's hit would: t = tfar, point =
 * org + t dir, normal = Ng / |Ng| (Embree's Ng is (v1 - v0) x (v2 - v0), Fathom's side), u, v as Embree gives
 * them (the same barycentric convention), front face = dot(dir, normal) < 0; a miss as Fathom writes it. */
static void embree_full_ordered(RTCScene scene, const float *rays, const uint32_t *order, size_t n, fathom_hit *out) {
    struct RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    for (size_t j = 0; j < n; j++) {
        size_t i = order[j];
        const float *r = rays + 6 * i;
        struct RTCRayHit rh;
        rh.ray.org_x = r[0]; rh.ray.org_y = r[1]; rh.ray.org_z = r[2];
        rh.ray.dir_x = r[3]; rh.ray.dir_y = r[4]; rh.ray.dir_z = r[5];
        rh.ray.tnear = 0.0f;
        rh.ray.tfar = INFINITY;
        rh.ray.time = 0.0f;
        rh.ray.mask = 0xFFFFFFFFu;
        rh.ray.id = 0;
        rh.ray.flags = 0;
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(scene, &ctx, &rh);
        fathom_hit *h = out + i;
        if (rh.hit.geomID != RTC_INVALID_GEOMETRY_ID) {
            float t = rh.ray.tfar, nx = rh.hit.Ng_x, ny = rh.hit.Ng_y, nz = rh.hit.Ng_z;
            float inv = 1.0f / sqrtf(nx * nx + ny * ny + nz * nz);
            nx *= inv; ny *= inv; nz *= inv;
            h->t = t;
            h->point.x = r[0] + t * r[3];
            h->point.y = r[1] + t * r[4];
            h->point.z = r[2] + t * r[5];
            h->normal.x = nx; h->normal.y = ny; h->normal.z = nz;
            h->u = rh.hit.u;
            h->v = rh.hit.v;
            h->primitive = rh.hit.primID;
            h->classification = 0;
            h->front_face = r[3] * nx + r[4] * ny + r[5] * nz < 0.0f;
            h->reserved[0] = h->reserved[1] = 0;
        } else {
            memset(h, 0, sizeof *h);
            h->t = INFINITY;
            h->primitive = FATHOM_NO_HIT;
        }
    }
}

/* The same, writing only t (INFINITY on a miss) and the triangle (FATHOM_NO_HIT), at the ray's index. */
static void embree_compact_ordered(RTCScene scene, const float *rays, const uint32_t *order, size_t n, float *out_t,
                                   uint32_t *out_prim) {
    struct RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    for (size_t j = 0; j < n; j++) {
        size_t i = order[j];
        const float *r = rays + 6 * i;
        struct RTCRayHit rh;
        rh.ray.org_x = r[0]; rh.ray.org_y = r[1]; rh.ray.org_z = r[2];
        rh.ray.dir_x = r[3]; rh.ray.dir_y = r[4]; rh.ray.dir_z = r[5];
        rh.ray.tnear = 0.0f;
        rh.ray.tfar = INFINITY;
        rh.ray.time = 0.0f;
        rh.ray.mask = 0xFFFFFFFFu;
        rh.ray.id = 0;
        rh.ray.flags = 0;
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(scene, &ctx, &rh);
        bool hit = rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
        out_t[i] = hit ? rh.ray.tfar : INFINITY;
        out_prim[i] = hit ? rh.hit.primID : FATHOM_NO_HIT;
    }
}

static fathom_hit *g_hits; /* Fathom's output buffer, sized for the largest ray set */

/* Batch options: tmin 0, tmax INFINITY (the defaults) and `threads`. */
static fathom_batch_options batch_options(uint32_t threads) {
    fathom_batch_options opt;
    fathom_check("fathom_batch_options_init", fathom_batch_options_init(&opt));
    opt.threads = threads;
    return opt;
}

static void fathom_closest(fathom_mesh *mesh, const float *rays, size_t n, uint32_t threads, results_t *out) {
    const fathom_batch_options opt = batch_options(threads);
    fathom_check("fathom_mesh_intersect_batch",
                 fathom_mesh_intersect_batch(mesh, (const fathom_ray *)rays, n, &opt, g_hits));
    if (out)
        for (size_t i = 0; i < n; i++) {
            out->t[i] = g_hits[i].primitive == FATHOM_NO_HIT ? INFINITY : g_hits[i].t;
            out->prim[i] = g_hits[i].primitive;
        }
}

static void fathom_occluded(fathom_mesh *mesh, const float *rays, size_t n, uint32_t threads, results_t *out) {
    const fathom_batch_options opt = batch_options(threads);
    fathom_check("fathom_mesh_occluded_batch",
                 fathom_mesh_occluded_batch(mesh, (const fathom_ray *)rays, n, &opt, out->occluded));
}

typedef struct {
    const mesh_t *mesh;
    fathom_mesh *fathom;
    RTCScene embree[N_ENGINES]; /* [E_EMB_DEFAULT], [E_EMB_ROBUST] */
    RTCScene setting[N_SETTINGS]; /* the scenes traced in Fathom's order: default, robust (the two above), high */
    fathom_mesh *lean;            /* FATHOM_MESH_COMPACT */
    RTCScene embree_lean;         /* RTC_SCENE_FLAG_COMPACT, MEDIUM build */
} built_t;

static void run_closest(int e, const built_t *b, const rayset_t *rs, results_t *out) {
    if (e == E_FATHOM) fathom_closest(b->fathom, rs->rays, rs->n, 1, out);
    else embree_closest(b->embree[e], rs->rays, rs->n, out);
}

static void run_occluded(int e, const built_t *b, const rayset_t *rs, results_t *out) {
    if (e == E_FATHOM) fathom_occluded(b->fathom, rs->rays, rs->n, 1, out);
    else embree_occluded(b->embree[e], rs->rays, rs->n, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* Agreement                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

typedef struct {
    size_t n;
    size_t same;          /* both miss, or same triangle with |dt| <= T_TOL */
    size_t other_tri;     /* different triangle, same t within T_TOL (a shared edge or vertex, or overlap) */
    size_t fathom_farther;/* both hit, Fathom's t larger by more than T_TOL (Fathom missed a closer hit) */
    size_t fathom_nearer; /* both hit, Fathom's t smaller by more than T_TOL */
    size_t fathom_only;   /* Fathom hits, the other misses */
    size_t other_only;    /* the other hits, Fathom misses */
    size_t occl_differ;   /* occlusion flags that differ */
    double max_dt_same;   /* largest |dt| among rays hitting the same triangle */
    /* every disagreement above, judged in double precision from the float32 inputs: */
    size_t rounding;      /* the disputed hit is within rounding of a triangle's edge (or the ray ~parallel) */
    size_t fathom_wrong;  /* Fathom missed a clear hit, reported a clear miss as a hit, or has the worse t */
    size_t other_wrong;   /* the same for the other engine */
} agree_t;

/* Ray i against triangle p in double precision: t, the signed distance of the hit point from the
 * triangle's nearest edge (> 0 inside), |cos| of the angle between the ray and the normal, and the
 * distance under which float32 rounding decides (2^-20 of the largest coordinate relative to the ray's
 * origin, i.e. a few float32 ulps: a watertight float32 test is exact only after that translation). */
typedef struct { double t, margin, cosang, tol; } exact_t;

static exact_t exact_hit(const mesh_t *m, const float *ray, uint32_t p) {
    double o[3], d[3], v[3][3], scale = 0;
    for (int k = 0; k < 3; k++) {
        o[k] = ray[k];
        d[k] = ray[3 + k];
        scale = fmax(scale, fabs(o[k]));
    }
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++) {
            v[j][k] = m->vertices[3 * (size_t)m->indices[3 * (size_t)p + j] + k];
            scale = fmax(scale, fabs(v[j][k] - o[k]));
        }
#define SUB(r, x, y) double r[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]}
#define CROSS(r, x, y) double r[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]}
#define DOT(x, y) (x[0] * y[0] + x[1] * y[1] + x[2] * y[2])
    SUB(e1, v[1], v[0]);
    SUB(e2, v[2], v[0]);
    CROSS(n, e1, e2);
    double nn = sqrt(DOT(n, n)), dn = DOT(d, n);
    SUB(ao, v[0], o);
    exact_t x = {DOT(ao, n) / dn, -INFINITY, fabs(dn) / (sqrt(DOT(d, d)) * nn), scale * 0x1p-20};
    if (!(nn > 0) || !isfinite(x.t)) return x;
    double pt[3] = {o[0] + x.t * d[0], o[1] + x.t * d[1], o[2] + x.t * d[2]};
    for (int j = 0; j < 3; j++) { /* barycentric of vertex j times the height over the opposite edge */
        const double *b = v[(j + 1) % 3], *c = v[(j + 2) % 3];
        SUB(bp, b, pt);
        SUB(cp, c, pt);
        SUB(edge, c, b);
        CROSS(w, bp, cp);
        double dist = DOT(w, n) / nn / sqrt(DOT(edge, edge));
        if (j == 0 || dist < x.margin) x.margin = dist;
    }
#undef SUB
#undef CROSS
#undef DOT
    return x;
}

/* A hit (triangle p at distance t) that only one engine reports before the other's: clearly a hit, clearly
 * not, or within rounding. Returns +1 (clear hit), -1 (clearly not a hit), 0 (rounding). */
static int judge_hit(const mesh_t *m, const float *ray, uint32_t p) {
    exact_t x = exact_hit(m, ray, p);
    if (!(x.t >= -x.tol) || x.margin < -x.tol) return -1;
    if (x.margin > x.tol && x.t > x.tol) return 1;
    return 0;
}

static agree_t compare(const results_t *f, const results_t *o, size_t n, bool with_occlusion, const mesh_t *m,
                       const float *rays) {
    agree_t a = {0};
    a.n = n;
    for (size_t i = 0; i < n; i++) {
        const float *ray = rays + 6 * i;
        bool fh = f->prim[i] != FATHOM_NO_HIT, oh = o->prim[i] != FATHOM_NO_HIT;
        int disputed = 0; /* +1: Fathom's hit is the one the other lacks; -1: the other's hit */
        if (!fh && !oh) a.same++;
        else if (fh && !oh) a.fathom_only++, disputed = 1;
        else if (!fh && oh) a.other_only++, disputed = -1;
        else {
            float dt = f->t[i] - o->t[i];
            if (fabsf(dt) <= T_TOL) {
                if (f->prim[i] == o->prim[i]) {
                    a.same++;
                    if (fabs(dt) > a.max_dt_same) a.max_dt_same = fabs(dt);
                } else a.other_tri++;
            } else {
                if (dt > 0) a.fathom_farther++, disputed = -1;
                else a.fathom_nearer++, disputed = 1;
                if (f->prim[i] == o->prim[i]) { /* same triangle, different t: whose t is right? */
                    exact_t x = exact_hit(m, ray, f->prim[i]);
                    if (fabs((double)dt) * x.cosang <= x.tol) a.rounding++;
                    else if (fabs(f->t[i] - x.t) > fabs(o->t[i] - x.t)) a.fathom_wrong++;
                    else a.other_wrong++;
                    disputed = 0;
                }
            }
        }
        if (disputed) {
            int j = judge_hit(m, ray, disputed > 0 ? f->prim[i] : o->prim[i]);
            if (j == 0) a.rounding++;
            else if ((j > 0) == (disputed > 0)) a.other_wrong++; /* the disputed hit is real: the other missed it */
            else a.fathom_wrong++;
        }
        if (with_occlusion && f->occluded[i] != o->occluded[i]) a.occl_differ++;
    }
    return a;
}

static double agree_fraction(const agree_t *a) { return a->n ? (double)(a->same + a->other_tri) / (double)a->n : NAN; }
static size_t disagreements(const agree_t *a) { return a->fathom_farther + a->fathom_nearer + a->fathom_only + a->other_only; }

/* ---------------------------------------------------------------------------------------------- */
/* Results                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Embree's full fathom_hit records against Fathom's, over the rays where both hit the same triangle */
typedef struct {
    size_t same_triangle;    /* rays where both hit the same triangle: the maxima below are over these */
    double max_dt;           /* largest |t difference| */
    double max_dpoint;       /* largest |point difference| (max over x, y, z) */
    double max_normal_deg;   /* largest angle between the two unit normals, degrees */
    double max_normal_len;   /* largest | |normal| - 1 | of Embree's normals */
    double max_duv;          /* largest |u difference| or |v difference| */
    size_t front_differ;     /* front-face flags that differ (the ray not grazing the triangle: |cos| > 1e-5) */
    size_t front_grazing;    /* ... and those that differ on a grazing ray (rounding) */
    size_t class_differ;     /* classification or reserved bytes that differ */
    size_t miss_differ;      /* both miss, but the records are not bit-identical */
} record_diff_t;

typedef struct {
    const rayset_t *rs;
    timing_t closest[N_ENGINES], occluded[N_ENGINES];
    size_t hits[N_ENGINES], occluded_count[N_ENGINES];
    agree_t agree[N_ENGINES];       /* Fathom vs [E_EMB_DEFAULT], [E_EMB_ROBUST] */
    size_t fathom_self_occl_differ; /* Fathom occluded != (Fathom closest hit) */
    /* in Fathom's order (measure_ordered) */
    bool ordered;                   /* the blocks below ran */
    bool order_identity;            /* Fathom traces these rays in the caller's order */
    size_t order_timed_identity;    /* ... and the timed runs' first rays (1 if so) */
    timing_t ord_fathom;            /* full output: fathom_mesh_intersect_batch, threads = 1 */
    timing_t ord_order;             /* fathom_mesh_ray_order, threads = 1 (same round-robin) */
    timing_t ord_embree[N_SETTINGS];/* Embree in Fathom's order, full fathom_hit output */
    timing_t cmp_fathom;            /* fathom_mesh_intersect_batch_compact */
    timing_t cmp_embree[N_SETTINGS];/* Embree in Fathom's order, t and primID only */
    agree_t ord_agree[N_SETTINGS];  /* Fathom vs Embree setting s (t, triangle; judged as above) */
    record_diff_t ord_diff[N_SETTINGS];
    size_t ord_vs_caller_differ[N_SETTINGS]; /* Embree s in Fathom's order vs in the caller's order: t or primID
                                                bits differ (default, robust; must be 0) */
    size_t ord_compact_differ[N_SETTINGS];   /* Embree s compact vs its full records' t, primitive (must be 0) */
    size_t compact_differ;          /* Fathom compact vs fathom_mesh_intersect_batch: t or primitive bits differ */
    timing_t lean_fathom;           /* FATHOM_MESH_COMPACT mesh, fathom_mesh_intersect_batch, threads = 1 */
    timing_t lean_embree;           /* RTC_SCENE_FLAG_COMPACT scene in that mesh's order, full output */
    size_t lean_differ;             /* the lean mesh vs the copied mesh: t or primitive bits differ (must be 0) */
    agree_t lean_agree;             /* the lean mesh vs Embree COMPACT */
    bool order_stable;              /* two fathom_mesh_ray_order calls gave the same order */
    double order_all_s, batch_all_s;/* fathom_mesh_ray_order and the batch on every ray of the set (the untimed run) */
    bool scaling_checked;           /* threads = 2 and 0 run untimed and compared with threads = 1 */
    bool scaled;                    /* the scaling was timed (not: no second CPU, or the core probe said no) */
    double core_share;              /* the core probe: share of a whole core a second thread gets (NAN: none) */
    bool busy_during;               /* timed, but other processes left a second thread < CORE_SHARE_MIN of a core */
    char core_msg[256];             /* its description */
    timing_t scaling[3];            /* threads = 1, 2, 0 */
    double scaling_cpu[3];          /* CPU time / wall time over the timed runs: ~ the threads actually busy */
    double scaling_others;          /* CPUs used on average by other processes during those runs */
    bool scaling_identical;         /* t and triangle with 2 and 0 threads bit-identical to 1 thread's */
} rayset_result;

typedef struct {
    const mesh_t *mesh;
    timing_t build[N_ENGINES];
    double bytes[N_ENGINES];            /* held by the built structure */
    double embree_peak[N_ENGINES];      /* Embree's peak during the build (monitor) */
    fathom_mesh_info info;
    double high_build_s, high_bytes;    /* Embree RTC_BUILD_QUALITY_HIGH (the third setting): one untimed-round build */
    double resident[4][3];              /* resident growth per triangle: LEAN_* structure, rounds (measure_resident) */
    rayset_result rs[2];
    bool has_inside;
    rayset_result inside;
    size_t inside_misses[N_ENGINES];
    size_t inside_occl_misses[N_ENGINES];
} mesh_result;

static int g_repeat = 9;
static int g_ncpu = 1;
static bool g_scaling = true;
static const char *g_dump = NULL;
static double g_budget = 10.0; /* seconds of timed runs per block (one query on one ray set, all engines) */
static bool g_reduced;          /* some block was timed on fewer rays than the set has */
static bool g_ordered = true;   /* the blocks in Fathom's order (--no-ordered skips them) */
static const char *g_core_probe; /* --core-probe CMD: prints "<share of a core> <description>" */
static double g_core_share = NAN; /* --core-share X: that share given instead of probed */

/* Rays to time so that g_repeat rounds of `round_s` (measured on n rays) fit in the budget: all of them
 * when they fit, else the first n * budget / (repeat * round_s), in thousands, at least 10,000. */
static size_t timed_rays(double round_s, size_t n) {
    if (round_s * g_repeat <= g_budget) return n;
    double f = g_budget / (round_s * g_repeat);
    size_t k = (size_t)((double)n * f) / 1000 * 1000;
    if (k < 10000) k = 10000;
    if (k >= n) return n;
    g_reduced = true;
    return k;
}

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Embree's records (setting s) against Fathom's: the t/triangle agreement (as compare()) and, where both hit
 * the same triangle, every field. */
static record_diff_t record_diff(const fathom_hit *f, const fathom_hit *e, size_t n, const float *rays) {
    record_diff_t d = {0};
    for (size_t i = 0; i < n; i++) {
        const fathom_hit *a = f + i, *b = e + i;
        if (a->primitive == FATHOM_NO_HIT && b->primitive == FATHOM_NO_HIT) {
            d.miss_differ += memcmp(a, b, sizeof *a) != 0;
            continue;
        }
        if (a->primitive != b->primitive) continue;
        d.same_triangle++;
        d.max_dt = fmax(d.max_dt, fabs((double)a->t - (double)b->t));
        d.max_dpoint = fmax(d.max_dpoint, fmax(fabs((double)a->point.x - b->point.x),
                                               fmax(fabs((double)a->point.y - b->point.y), fabs((double)a->point.z - b->point.z))));
        double ax = a->normal.x, ay = a->normal.y, az = a->normal.z, bx = b->normal.x, by = b->normal.y, bz = b->normal.z;
        double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
        double ang = atan2(sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz) * 180.0 / M_PI;
        d.max_normal_deg = fmax(d.max_normal_deg, ang);
        d.max_normal_len = fmax(d.max_normal_len, fabs(sqrt(bx * bx + by * by + bz * bz) - 1.0));
        d.max_duv = fmax(d.max_duv, fmax(fabs((double)a->u - b->u), fabs((double)a->v - b->v)));
        if (a->front_face != b->front_face) { /* within rounding when the ray grazes the triangle */
            const float *r = rays + 6 * i;
            if (fabs(r[3] * ax + r[4] * ay + r[5] * az) > 1e-5) d.front_differ++;
            else d.front_grazing++;
        }
        d.class_differ += a->classification != b->classification || a->reserved[0] != b->reserved[0] ||
                          a->reserved[1] != b->reserved[1];
    }
    return d;
}

/* The rays in Fathom's order: two round-robin blocks (full output: Fathom's batch, fathom_mesh_ray_order and
 * Embree's settings writing fathom_hit records; compact: Fathom's compact batch and Embree writing t and
 * primID), each with its own untimed run on every ray (the checked results) and the budget of a block.
 * `r` holds the closest-hit results of the block before (Fathom, and Embree in the caller's order). */
static void measure_ordered(const built_t *b, const rayset_t *rs, rayset_result *res, const results_t *r) {
    size_t n = rs->n;
    const fathom_batch_options opt = batch_options(1);
    const fathom_ray *rays = (const fathom_ray *)rs->rays;
    uint32_t *order = xmalloc(n * 4), *order2 = xmalloc(n * 4), *order_sub = xmalloc(n * 4);
    fathom_hit *ehits = xmalloc(n * sizeof(fathom_hit));
    float *ct = xmalloc(n * 4);
    uint32_t *cp = xmalloc(n * 4);
    results_t er[N_SETTINGS];
    for (int s = 0; s < N_SETTINGS; s++) er[s] = results_alloc(n);
    res->ordered = true;

    /* the order, once, outside the timing; it must be a permutation */
    fathom_check("fathom_mesh_ray_order", fathom_mesh_ray_order(b->fathom, rays, n, &opt, order));
    memset(order2, 0, n * 4);
    res->order_identity = true;
    for (size_t j = 0; j < n; j++) {
        if (order[j] >= n || order2[order[j]]) die("fathom_mesh_ray_order: not a permutation of 0..%zu (index %zu)", n - 1, j);
        order2[order[j]] = 1;
        res->order_identity &= order[j] == j;
    }

    /* full output: one untimed run of each on every ray */
    double round_s = 0, t0 = now_s();
    fathom_check("fathom_mesh_intersect_batch", fathom_mesh_intersect_batch(b->fathom, rays, n, &opt, g_hits));
    res->batch_all_s = now_s() - t0;
    round_s += res->batch_all_s;
    t0 = now_s();
    fathom_check("fathom_mesh_ray_order", fathom_mesh_ray_order(b->fathom, rays, n, &opt, order2));
    res->order_all_s = now_s() - t0;
    round_s += res->order_all_s;
    res->order_stable = memcmp(order, order2, n * 4) == 0;
    results_t fr = results_alloc(n); /* Fathom's t and triangle from this run */
    for (size_t i = 0; i < n; i++) {
        fr.t[i] = g_hits[i].primitive == FATHOM_NO_HIT ? INFINITY : g_hits[i].t;
        fr.prim[i] = g_hits[i].primitive;
    }
    for (int s = 0; s < N_SETTINGS; s++) {
        t0 = now_s();
        embree_full_ordered(b->setting[s], rs->rays, order, n, ehits);
        round_s += now_s() - t0;
        for (size_t i = 0; i < n; i++) {
            er[s].t[i] = ehits[i].t;
            er[s].prim[i] = ehits[i].primitive;
        }
        res->ord_agree[s] = compare(&fr, &er[s], n, false, b->mesh, rs->rays);
        res->ord_diff[s] = record_diff(g_hits, ehits, n, rs->rays);
        if (s == S_DEFAULT || s == S_ROBUST) {
            const results_t *caller = &r[s == S_DEFAULT ? E_EMB_DEFAULT : E_EMB_ROBUST];
            for (size_t i = 0; i < n; i++)
                res->ord_vs_caller_differ[s] += er[s].prim[i] != caller->prim[i] || !same_bits(er[s].t[i], caller->t[i]);
        }
    }
    size_t m = timed_rays(round_s, n);
    const uint32_t *ord = order;
    if (m < n) {
        fathom_check("fathom_mesh_ray_order", fathom_mesh_ray_order(b->fathom, rays, m, &opt, order_sub));
        ord = order_sub;
    }
    res->order_timed_identity = 1;
    for (size_t j = 0; j < m; j++)
        if (ord[j] != j) { res->order_timed_identity = 0; break; }
    for (int k = 0; k < g_repeat; k++) {
        t0 = now_s();
        fathom_check("fathom_mesh_intersect_batch", fathom_mesh_intersect_batch(b->fathom, rays, m, &opt, g_hits));
        t_add(&res->ord_fathom, now_s() - t0);
        t0 = now_s();
        fathom_check("fathom_mesh_ray_order", fathom_mesh_ray_order(b->fathom, rays, m, &opt, order2));
        t_add(&res->ord_order, now_s() - t0);
        for (int s = 0; s < N_SETTINGS; s++) {
            t0 = now_s();
            embree_full_ordered(b->setting[s], rs->rays, ord, m, ehits);
            t_add(&res->ord_embree[s], now_s() - t0);
        }
    }
    res->ord_fathom.items = res->ord_order.items = m;
    for (int s = 0; s < N_SETTINGS; s++) res->ord_embree[s].items = m;

    /* compact output: untimed run on every ray, checked bit for bit against the full batch's t and primitive */
    round_s = 0;
    t0 = now_s();
    fathom_check("fathom_mesh_intersect_batch_compact",
                 fathom_mesh_intersect_batch_compact(b->fathom, rays, n, &opt, ct, cp));
    round_s += now_s() - t0;
    for (size_t i = 0; i < n; i++) res->compact_differ += cp[i] != fr.prim[i] || !same_bits(ct[i], fr.t[i]);
    for (int s = 0; s < N_SETTINGS; s++) {
        t0 = now_s();
        embree_compact_ordered(b->setting[s], rs->rays, order, n, ct, cp);
        round_s += now_s() - t0;
        for (size_t i = 0; i < n; i++) res->ord_compact_differ[s] += cp[i] != er[s].prim[i] || !same_bits(ct[i], er[s].t[i]);
    }
    size_t m2 = timed_rays(round_s, n);
    ord = order;
    if (m2 < n) {
        fathom_check("fathom_mesh_ray_order", fathom_mesh_ray_order(b->fathom, rays, m2, &opt, order_sub));
        ord = order_sub;
    }
    for (int k = 0; k < g_repeat; k++) {
        t0 = now_s();
        fathom_check("fathom_mesh_intersect_batch_compact",
                     fathom_mesh_intersect_batch_compact(b->fathom, rays, m2, &opt, ct, cp));
        t_add(&res->cmp_fathom, now_s() - t0);
        for (int s = 0; s < N_SETTINGS; s++) {
            t0 = now_s();
            embree_compact_ordered(b->setting[s], rs->rays, ord, m2, ct, cp);
            t_add(&res->cmp_embree[s], now_s() - t0);
        }
    }
    res->cmp_fathom.items = m2;
    for (int s = 0; s < N_SETTINGS; s++) res->cmp_embree[s].items = m2;

    results_free(&fr);
    for (int s = 0; s < N_SETTINGS; s++) results_free(&er[s]);
    free(order); free(order2); free(order_sub); free(ehits); free(ct); free(cp);
}

/* Memory-lean meshes in the lean mesh's own order: its batch (full output) against Embree COMPACT writing the same
 * records, one untimed run on every ray (the checked results), then round-robin within the budget. `fathom_r`: the
 * copied mesh's closest hits in the caller's order (the block before), which the lean mesh must give bit for bit. */
static void measure_lean(const built_t *b, const rayset_t *rs, rayset_result *res, const results_t *fathom_r) {
    size_t n = rs->n;
    const fathom_batch_options opt = batch_options(1);
    const fathom_ray *rays = (const fathom_ray *)rs->rays;
    uint32_t *order = xmalloc(n * 4), *order_sub = xmalloc(n * 4);
    fathom_hit *ehits = xmalloc(n * sizeof(fathom_hit));
    results_t lr = results_alloc(n), er = results_alloc(n);
    fathom_check("fathom_mesh_ray_order", fathom_mesh_ray_order(b->lean, rays, n, &opt, order));
    double t0 = now_s();
    fathom_check("fathom_mesh_intersect_batch", fathom_mesh_intersect_batch(b->lean, rays, n, &opt, g_hits));
    embree_full_ordered(b->embree_lean, rs->rays, order, n, ehits);
    double round_s = now_s() - t0;
    for (size_t i = 0; i < n; i++) {
        lr.t[i] = g_hits[i].primitive == FATHOM_NO_HIT ? INFINITY : g_hits[i].t;
        lr.prim[i] = g_hits[i].primitive;
        er.t[i] = ehits[i].t;
        er.prim[i] = ehits[i].primitive;
        res->lean_differ += lr.prim[i] != fathom_r->prim[i] || !same_bits(lr.t[i], fathom_r->t[i]);
    }
    res->lean_agree = compare(&lr, &er, n, false, b->mesh, rs->rays);
    size_t m = timed_rays(round_s, n);
    const uint32_t *ord = order;
    if (m < n) {
        fathom_check("fathom_mesh_ray_order", fathom_mesh_ray_order(b->lean, rays, m, &opt, order_sub));
        ord = order_sub;
    }
    for (int k = 0; k < g_repeat; k++) {
        t0 = now_s();
        fathom_check("fathom_mesh_intersect_batch", fathom_mesh_intersect_batch(b->lean, rays, m, &opt, g_hits));
        t_add(&res->lean_fathom, now_s() - t0);
        t0 = now_s();
        embree_full_ordered(b->embree_lean, rs->rays, ord, m, ehits);
        t_add(&res->lean_embree, now_s() - t0);
    }
    res->lean_fathom.items = res->lean_embree.items = m;
    results_free(&lr);
    results_free(&er);
    free(order); free(order_sub); free(ehits);
}

/* The structures whose resident memory is measured, in measure_resident's order. */
enum { LEAN_FATHOM_COPY, LEAN_FATHOM_COMPACT, LEAN_EMBREE_MEDIUM, LEAN_EMBREE_COMPACT };
static const char *resident_label[4] = {"fathom copy", "fathom compact", "embree medium", "embree compact"};

static long resident_bytes(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &pages, &resident) != 2) die("cannot read /proc/self/statm");
    fclose(f);
    return resident * sysconf(_SC_PAGESIZE);
}

/* Resident growth per triangle of each structure, built in a fresh child process (the mesh's arrays, made by the
 * parent, are shared and already resident), 3 rounds interleaved. */
static void measure_resident(const mesh_t *m, mesh_result *res) {
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 4; s++) {
            int fd[2];
            if (pipe(fd) != 0) die("pipe: %s", strerror(errno));
            fflush(stdout);
            pid_t pid = fork();
            if (pid < 0) die("fork: %s", strerror(errno));
            if (pid == 0) {
                close(fd[0]);
                RTCDevice device = s >= LEAN_EMBREE_MEDIUM ? rtcNewDevice("threads=1") : NULL;
                malloc_trim(0);
                long before = resident_bytes();
                fathom_mesh *mesh = NULL;
                if (s < LEAN_EMBREE_MEDIUM)
                    fathom_check("fathom_mesh_create", fathom_mesh_create(m->vertices, m->nv, 12, m->indices, m->nt, NULL,
                                                                          s == LEAN_FATHOM_COPY ? FATHOM_MESH_COPY : FATHOM_MESH_COMPACT, &mesh));
                else
                    (void)embree_build_scene(device, m, s == LEAN_EMBREE_MEDIUM ? RTC_SCENE_FLAG_NONE : RTC_SCENE_FLAG_COMPACT,
                                             RTC_BUILD_QUALITY_MEDIUM);
                malloc_trim(0);
                double per_triangle = (double)(resident_bytes() - before) / (double)m->nt;
                if (write(fd[1], &per_triangle, sizeof per_triangle) != (ssize_t)sizeof per_triangle) _exit(1);
                _exit(0);
            }
            close(fd[1]);
            double per_triangle = NAN;
            if (read(fd[0], &per_triangle, sizeof per_triangle) != (ssize_t)sizeof per_triangle) per_triangle = NAN;
            close(fd[0]);
            int status = 0;
            waitpid(pid, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) die("the memory child of %s failed", resident_label[s]);
            res->resident[s][k] = per_triangle;
        }
}

static double median3(const double *x) {
    double a = x[0], b = x[1], c = x[2];
    return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

/* The share of a whole core a second thread gets, from --core-share or the --core-probe command (its output's
 * last line: "<share> <description>"); NAN when neither is given or the probe failed. */
static double core_probe(char *msg, size_t cap) {
    if (!isnan(g_core_share)) {
        snprintf(msg, cap, "given by --core-share");
        return g_core_share;
    }
    snprintf(msg, cap, "no core probe");
    if (!g_core_probe) return NAN;
    fflush(stdout);
    FILE *p = popen(g_core_probe, "r");
    if (!p) {
        snprintf(msg, cap, "core probe failed: %s", strerror(errno));
        return NAN;
    }
    char line[512], last[512] = "";
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0]) snprintf(last, sizeof last, "%s", line);
    }
    int rc = pclose(p);
    char *end = NULL;
    double share = strtod(last, &end);
    if (rc != 0 || end == last || !isfinite(share)) { /* a share below 0 is a measurement: both at once gave less than one core alone */
        snprintf(msg, cap, "core probe failed (exit status %d: %.200s)", rc, last);
        return NAN;
    }
    while (*end == ' ') end++;
    snprintf(msg, cap, "%s", end);
    return share;
}

static void measure_rayset(const built_t *b, const rayset_t *rs, rayset_result *res, const char *mesh_name,
                           bool quick) {
    memset(res, 0, sizeof *res);
    res->rs = rs;
    size_t n = rs->n;
    results_t r[N_ENGINES];
    for (int e = 0; e < N_ENGINES; e++) r[e] = results_alloc(n);
    int repeat = quick ? 0 : g_repeat;
    rayset_t sub = *rs; /* the first sub.n rays: what the timed runs cast */

    /* closest hit: one untimed run per engine on every ray (the checked results), then round-robin timed
     * runs (one of each engine per round) */
    double round_s = 0;
    for (int e = 0; e < N_ENGINES; e++) {
        double t0 = now_s();
        run_closest(e, b, rs, &r[e]);
        round_s += now_s() - t0;
    }
    sub.n = timed_rays(round_s, n);
    for (int k = 0; k < repeat; k++)
        for (int e = 0; e < N_ENGINES; e++) {
            double t0 = now_s();
            /* Fathom's output is its fathom_hit array; Embree's (deterministic) t and primID overwrite r[e] */
            run_closest(e, b, &sub, e == E_FATHOM ? NULL : &r[e]);
            t_add(&res->closest[e], now_s() - t0);
        }
    for (int e = 0; e < N_ENGINES; e++) res->closest[e].items = sub.n;
    /* occlusion */
    round_s = 0;
    for (int e = 0; e < N_ENGINES; e++) {
        double t0 = now_s();
        run_occluded(e, b, rs, &r[e]);
        round_s += now_s() - t0;
    }
    sub.n = timed_rays(round_s, n);
    results_t scratch = results_alloc(n);
    for (int k = 0; k < repeat; k++)
        for (int e = 0; e < N_ENGINES; e++) {
            double t0 = now_s();
            run_occluded(e, b, &sub, &scratch);
            t_add(&res->occluded[e], now_s() - t0);
        }
    results_free(&scratch);
    for (int e = 0; e < N_ENGINES; e++) res->occluded[e].items = sub.n;
    for (int e = 0; e < N_ENGINES; e++) {
        for (size_t i = 0; i < n; i++) {
            res->hits[e] += r[e].prim[i] != FATHOM_NO_HIT;
            res->occluded_count[e] += r[e].occluded[i] != 0;
        }
    }
    for (size_t i = 0; i < n; i++) res->fathom_self_occl_differ += (r[E_FATHOM].prim[i] != FATHOM_NO_HIT) != (r[E_FATHOM].occluded[i] != 0);
    res->agree[E_EMB_DEFAULT] = compare(&r[E_FATHOM], &r[E_EMB_DEFAULT], n, true, b->mesh, rs->rays);
    res->agree[E_EMB_ROBUST] = compare(&r[E_FATHOM], &r[E_EMB_ROBUST], n, true, b->mesh, rs->rays);

    if (!quick && g_ordered) {
        measure_ordered(b, rs, res, r);
        measure_lean(b, rs, res, &r[E_FATHOM]);
    }

    if (g_dump) {
        char name[256];
        snprintf(name, sizeof name, "%s_%s_fathom_t", mesh_name, rs->name);
        write_npy(g_dump, name, "<f4", n, 0, r[E_FATHOM].t, n * 4);
        snprintf(name, sizeof name, "%s_%s_fathom_prim", mesh_name, rs->name);
        write_npy(g_dump, name, "<u4", n, 0, r[E_FATHOM].prim, n * 4);
    }

    /* batch mode on every online CPU: threads = 1, 2, 0, round-robin; results must not depend on it */
    if (!quick && g_scaling) {
        res->scaling_checked = true;
        unpin_all_cores();
        const uint32_t threads[3] = {1, 2, 0};
        res->scaling_identical = true;
        /* one single-threaded Fathom run on all rays, from the timings above */
        round_s = t_median(&res->closest[E_FATHOM]) * (double)n / (double)res->closest[E_FATHOM].items;
        for (int j = 1; j < 3; j++) { /* untimed, on all rays: t and triangle bit-identical to threads = 1 */
            double t0 = now_s();
            fathom_closest(b->fathom, rs->rays, n, threads[j], NULL);
            round_s += now_s() - t0;
            for (size_t i = 0; i < n; i++) {
                float t = g_hits[i].primitive == FATHOM_NO_HIT ? INFINITY : g_hits[i].t;
                if (g_hits[i].primitive != r[E_FATHOM].prim[i] || memcmp(&t, &r[E_FATHOM].t[i], 4) != 0) {
                    res->scaling_identical = false;
                    break;
                }
            }
        }
        /* does a second thread get a whole core here? (bench/benchlib.py's probe, just before the timing) */
        res->core_share = core_probe(res->core_msg, sizeof res->core_msg);
        if (g_core_probe || !isnan(g_core_share))
            printf("    core probe: %s\n", res->core_msg);
        res->scaled = g_ncpu >= 2 && !(res->core_share < CORE_SHARE_MIN);
        sub.n = timed_rays(round_s, n);
        double cpu[3] = {0}, wall[3] = {0};
        double busy0 = system_busy_s(), cpu0 = cpu_s(), wall0 = now_s();
        for (int k = 0; res->scaled && k < g_repeat; k++)
            for (int j = 0; j < 3; j++) {
                double c0 = cpu_s(), t0 = now_s();
                fathom_closest(b->fathom, sub.rays, sub.n, threads[j], NULL);
                double dt = now_s() - t0;
                cpu[j] += cpu_s() - c0;
                wall[j] += dt;
                t_add(&res->scaling[j], dt);
            }
        for (int j = 0; j < 3; j++) res->scaling_cpu[j] = res->scaled ? cpu[j] / wall[j] : NAN;
        res->scaling_others = res->scaled ? fmax(0.0, ((system_busy_s() - busy0) - (cpu_s() - cpu0)) / (now_s() - wall0)) : NAN;
        /* the probe's question asked again of the timed runs themselves: what other processes used meanwhile
         * leaves a second thread at most (online CPUs - others - 1) of a core */
        res->busy_during = res->scaled && fmin(1.0, g_ncpu - res->scaling_others - 1.0) < CORE_SHARE_MIN;
        for (int j = 0; j < 3; j++) res->scaling[j].items = sub.n;
        pin_one_core();
    }
    for (int e = 0; e < N_ENGINES; e++) results_free(&r[e]);
}

static void measure_mesh(const mesh_t *m, rayset_t *sets, const rayset_t *inside, mesh_result *res) {
    memset(res, 0, sizeof *res);
    res->mesh = m;
    write_npy(g_dump, m->name, "<f4", m->nv, 3, m->vertices, m->nv * 12);
    char iname[256];
    snprintf(iname, sizeof iname, "%s_indices", m->name);
    write_npy(g_dump, iname, "<u4", m->nt, 3, m->indices, m->nt * 12);

    /* builds: one untimed round, then round-robin (fewer rounds, at least 3, when g_repeat rounds would
     * take more than twice the budget); keep the last of each */
    built_t b = {0};
    b.mesh = m;
    int rounds = g_repeat;
    for (int k = 0; k <= rounds; k++) {
        double round_t0 = now_s();
        for (int e = 0; e < N_ENGINES; e++) {
            if (e == E_FATHOM) {
                fathom_mesh_destroy(b.fathom);
                b.fathom = NULL;
                double t0 = now_s();
                b.fathom = fathom_build(m);
                double dt = now_s() - t0;
                if (k) t_add(&res->build[e], dt);
            } else {
                if (b.embree[e]) rtcReleaseScene(b.embree[e]);
                b.embree[e] = NULL;
                long long before = g_embree_bytes;
                g_embree_peak = g_embree_bytes;
                double t0 = now_s();
                b.embree[e] = embree_build(m, e == E_EMB_ROBUST);
                double dt = now_s() - t0;
                if (k) t_add(&res->build[e], dt);
                res->bytes[e] = (double)(g_embree_bytes - before);
                res->embree_peak[e] = (double)(g_embree_peak - before);
            }
        }
        if (k == 0) {
            double round_s = now_s() - round_t0;
            if (round_s * g_repeat > 2 * g_budget) {
                rounds = (int)(2 * g_budget / round_s);
                if (rounds < 3) rounds = 3;
                if (rounds < g_repeat) g_reduced = true;
                else rounds = g_repeat;
            }
        }
    }
    b.setting[S_DEFAULT] = b.embree[E_EMB_DEFAULT];
    b.setting[S_ROBUST] = b.embree[E_EMB_ROBUST];
    if (g_ordered) { /* the high-quality build, once (not a timed row of the build table) */
        long long before = g_embree_bytes;
        double t0 = now_s();
        b.setting[S_HIGH] = embree_build_quality(m, false, RTC_BUILD_QUALITY_HIGH);
        res->high_build_s = now_s() - t0;
        res->high_bytes = (double)(g_embree_bytes - before);
        fathom_check("fathom_mesh_create", fathom_mesh_create(m->vertices, m->nv, 12, m->indices, m->nt, NULL,
                                                              FATHOM_MESH_COMPACT, &b.lean));
        b.embree_lean = embree_build_scene(g_device, m, RTC_SCENE_FLAG_COMPACT, RTC_BUILD_QUALITY_MEDIUM);
        measure_resident(m, res);
    }
    fathom_check("fathom_mesh_get_info", fathom_mesh_get_info(b.fathom, &res->info));
    res->bytes[E_FATHOM] = (double)res->info.memory_bytes;
    if (res->info.triangle_count != m->nt || res->info.vertex_count != m->nv)
        fprintf(stderr, "raycast_bench: WARNING: %s: fathom_mesh_get_info says %llu triangles, %llu vertices\n", m->name,
                (unsigned long long)res->info.triangle_count, (unsigned long long)res->info.vertex_count);

    for (int s = 0; s < 2; s++) {
        printf("  %s x %s ...\n", m->name, sets[s].name);
        fflush(stdout);
        measure_rayset(&b, &sets[s], &res->rs[s], m->name, false);
    }
    if (m->closed && inside) {
        printf("  %s x inside ...\n", m->name);
        fflush(stdout);
        res->has_inside = true;
        measure_rayset(&b, inside, &res->inside, m->name, true);
        for (int e = 0; e < N_ENGINES; e++) {
            res->inside_misses[e] = inside->n - res->inside.hits[e];
            res->inside_occl_misses[e] = inside->n - res->inside.occluded_count[e];
        }
    }
    fathom_mesh_destroy(b.fathom);
    rtcReleaseScene(b.embree[E_EMB_DEFAULT]);
    rtcReleaseScene(b.embree[E_EMB_ROBUST]);
    if (b.setting[S_HIGH]) rtcReleaseScene(b.setting[S_HIGH]);
    fathom_mesh_destroy(b.lean);
    if (b.embree_lean) rtcReleaseScene(b.embree_lean);
}

/* ---------------------------------------------------------------------------------------------- */
/* Report                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

typedef struct {
    char label[160];
    char detail[320];
    int ok; /* 1 pass, 0 fail, -1 not measurable (N/A) */
} target_t;

static target_t g_targets[64];
static int g_ntargets;
static char g_problems[64][320];
static int g_nproblems;

static void target(int ok, const char *label, const char *fmt, ...) {
    if (g_ntargets >= 64) return;
    target_t *t = &g_targets[g_ntargets++];
    t->ok = ok;
    snprintf(t->label, sizeof t->label, "%s", label);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->detail, sizeof t->detail, fmt, ap);
    va_end(ap);
    printf("  %s  %s: %s\n", ok > 0 ? "PASS" : ok < 0 ? "N/A " : "FAIL", t->label, t->detail);
}

static void problem(const char *fmt, ...) {
    if (g_nproblems >= 64) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_problems[g_nproblems++], sizeof g_problems[0], fmt, ap);
    va_end(ap);
}

static double mrays(const timing_t *t) { return (double)t->items / t_median(t) / 1e6; }

/* median / min - 1 of a timing: how far the typical run is from the best one */
static double t_spread(const timing_t *t) { return t_median(t) / t_min(t) - 1.0; }

/* Per-round ratios num.runs[k] / den.runs[k] (the engines ran in the same rounds): median, min and max. */
typedef struct { double med, lo, hi; } ratio_t;

static ratio_t round_ratios(const timing_t *num, const timing_t *den) {
    ratio_t q = {NAN, NAN, NAN};
    int n = num->n < den->n ? num->n : den->n;
    if (n == 0) return q;
    timing_t x = {{0}, 0, 0};
    for (int k = 0; k < n; k++) t_add(&x, num->runs[k] / den->runs[k]);
    q.med = t_median(&x);
    q.lo = t_min(&x);
    q.hi = -INFINITY;
    for (int k = 0; k < n; k++) q.hi = fmax(q.hi, x.runs[k]);
    return q;
}

/* The fastest Embree setting (lowest median time) of a block */
static int best_setting(const timing_t *t) {
    int best = 0;
    for (int s = 1; s < N_SETTINGS; s++)
        if (t_median(&t[s]) < t_median(&t[best])) best = s;
    return best;
}

static void scaling_not_measured(const rayset_result *r, char *out, size_t cap) {
    if (g_ncpu < 2) snprintf(out, cap, "not measured: only one online CPU");
    else if (r->scaled) { /* busy_during */
        char before[40];
        if (isnan(r->core_share)) snprintf(before, sizeof before, "none or failed");
        else snprintf(before, sizeof before, "%.0f%%", 100 * fmax(0.0, r->core_share));
        snprintf(out, cap, "not measured: the host does not give a second thread a whole core (other processes used "
                 "%.2f CPUs during the runs, leaving it %.0f%% of a core; the probe before: %s)", r->scaling_others,
                 100 * fmax(0.0, fmin(1.0, g_ncpu - r->scaling_others - 1.0)), before);
    }
    else snprintf(out, cap, "not measured: the host does not give a second thread a whole core (measured %.0f%% of a core)",
                  100 * fmax(0.0, r->core_share));
}

static void print_ordered_tables(mesh_result *mr, int nm) {
    printf("\nclosest hit in Fathom's order (fathom_mesh_ray_order, computed outside the timing), FULL output: each engine\n"
           "fills the 44-byte fathom_hit of every ray at the ray's own index; one core, Mrays/s, median of %d rounds\n"
           "(round-robin with Fathom) and (spread = median/min - 1); x = best Embree's time / Fathom's, per round: median\n"
           "[min-max] (> 1: Fathom faster)\n", g_repeat);
    printf("%-8s %-5s %6s %-7s %14s %14s %14s %14s  %-7s %-19s %s\n", "mesh", "rays", "timed", "order", "fathom batch", "emb-default",
           "emb-robust", "emb-high", "best", "x best/fathom", "x best/(fathom - ray_order)");
    printf("---------------------------------------------------------------------------------------------------------------------------------------------------\n");
    for (int i = 0; i < nm; i++)
        for (int s = 0; s < 2; s++) {
            rayset_result *r = &mr[i].rs[s];
            if (!r->ordered) continue;
            char cell[1 + N_SETTINGS][32];
            snprintf(cell[0], 32, "%.2f (%.0f%%)", mrays(&r->ord_fathom), 100 * t_spread(&r->ord_fathom));
            for (int e = 0; e < N_SETTINGS; e++)
                snprintf(cell[1 + e], 32, "%.2f (%.0f%%)", mrays(&r->ord_embree[e]), 100 * t_spread(&r->ord_embree[e]));
            int best = best_setting(r->ord_embree);
            ratio_t q = round_ratios(&r->ord_embree[best], &r->ord_fathom);
            timing_t trav = {{0}, 0, r->ord_fathom.items}; /* Fathom's batch minus fathom_mesh_ray_order, per round */
            for (int k = 0; k < r->ord_fathom.n && k < r->ord_order.n; k++) t_add(&trav, r->ord_fathom.runs[k] - r->ord_order.runs[k]);
            ratio_t qt = round_ratios(&r->ord_embree[best], &trav);
            char c1[40];
            snprintf(c1, sizeof c1, "%.2f [%.2f-%.2f]", q.med, q.lo, q.hi);
            printf("%-8s %-5s %5zuk %-7s %14s %14s %14s %14s  %-7s %-19s %.2f [%.2f-%.2f]\n", mr[i].mesh->name, r->rs->name,
                   r->ord_fathom.items / 1000, r->order_timed_identity ? "caller" : "fathom", cell[0], cell[1], cell[2], cell[3],
                   setting_label[best], c1, qt.med, qt.lo, qt.hi);
        }
    printf("(order 'caller': Fathom traces this batch in the caller's order (small mesh or batch), so Embree does too;\n"
           " x best/(fathom - ray_order): against Fathom's batch time less the time of ordering the rays, measured in the\n"
           " same round: roughly Fathom's traversal and output on equal terms with Embree's, which gets the order free)\n");

    printf("\nthe ordering's cost: fathom_mesh_ray_order (threads = 1) in the same rounds as Fathom's batch above; ms per run,\n"
           "median (spread); share = order time / batch time, per round: median [min-max]; 'all rays': the same share\n"
           "on every ray of the set, from the one untimed run of each (the share depends on the batch size)\n");
    printf("%-8s %-5s %6s %-7s %16s %16s  %-22s %s\n", "mesh", "rays", "timed", "order", "ray_order ms", "batch ms",
           "share of the batch", "all rays (1 run)");
    for (int i = 0; i < nm; i++)
        for (int s = 0; s < 2; s++) {
            rayset_result *r = &mr[i].rs[s];
            if (!r->ordered) continue;
            char c1[32], c2[32];
            snprintf(c1, 32, "%.2f (%.0f%%)", 1e3 * t_median(&r->ord_order), 100 * t_spread(&r->ord_order));
            snprintf(c2, 32, "%.2f (%.0f%%)", 1e3 * t_median(&r->ord_fathom), 100 * t_spread(&r->ord_fathom));
            ratio_t q = round_ratios(&r->ord_order, &r->ord_fathom);
            char c3[40];
            snprintf(c3, sizeof c3, "%.1f%% [%.1f-%.1f%%]", 100 * q.med, 100 * q.lo, 100 * q.hi);
            printf("%-8s %-5s %5zuk %-7s %16s %16s  %-22s %zuk: %.0f / %.0f ms = %.1f%%\n", mr[i].mesh->name, r->rs->name,
                   r->ord_order.items / 1000, r->order_timed_identity ? "caller" : "fathom", c1, c2, c3, r->rs->n / 1000,
                   1e3 * r->order_all_s, 1e3 * r->batch_all_s, 100 * r->order_all_s / r->batch_all_s);
        }

    printf("\nclosest hit in Fathom's order, COMPACT output (t and triangle only): fathom_mesh_intersect_batch_compact vs\n"
           "Embree writing tfar and primID at the ray's index; Mrays/s, median (spread); x as above\n");
    printf("%-8s %-5s %6s %14s %14s %14s %14s  %-7s %s\n", "mesh", "rays", "timed", "fathom compact", "emb-default",
           "emb-robust", "emb-high", "best", "x best/fathom");
    printf("------------------------------------------------------------------------------------------------------------\n");
    for (int i = 0; i < nm; i++)
        for (int s = 0; s < 2; s++) {
            rayset_result *r = &mr[i].rs[s];
            if (!r->ordered) continue;
            char cell[1 + N_SETTINGS][32];
            snprintf(cell[0], 32, "%.2f (%.0f%%)", mrays(&r->cmp_fathom), 100 * t_spread(&r->cmp_fathom));
            for (int e = 0; e < N_SETTINGS; e++)
                snprintf(cell[1 + e], 32, "%.2f (%.0f%%)", mrays(&r->cmp_embree[e]), 100 * t_spread(&r->cmp_embree[e]));
            int best = best_setting(r->cmp_embree);
            ratio_t q = round_ratios(&r->cmp_embree[best], &r->cmp_fathom);
            printf("%-8s %-5s %5zuk %14s %14s %14s %14s  %-7s %.2f [%.2f-%.2f]\n", mr[i].mesh->name, r->rs->name,
                   r->cmp_fathom.items / 1000, cell[0], cell[1], cell[2], cell[3], setting_label[best], q.med, q.lo, q.hi);
        }

    printf("\nchecks in Fathom's order, on every ray: Embree's full records vs Fathom's (agree as above; where both hit the\n"
           "same triangle: largest |dt|, |dpoint|, angle between the normals, |du|,|dv|, front-face flags that differ);\n"
           "'order=caller' = rays whose t or primID differ from the same Embree in the caller's order (must be 0);\n"
           "'cmp=full' = Embree compact vs its own full records (must be 0); fathom compact = rays whose t or primitive\n"
           "bits differ from fathom_mesh_intersect_batch's (must be 0)\n");
    printf("%-8s %-5s %-8s %-30s %9s %9s %9s %9s %6s %11s %9s  %s\n", "mesh", "rays", "embree", "agree (t, triangle)",
           "max dt", "max dpt", "max ndeg", "max duv", "front", "order=caller", "cmp=full", "fathom compact");
    for (int i = 0; i < nm; i++)
        for (int s = 0; s < 2; s++) {
            rayset_result *r = &mr[i].rs[s];
            if (!r->ordered) continue;
            for (int e = 0; e < N_SETTINGS; e++) {
                agree_t *a = &r->ord_agree[e];
                record_diff_t *d = &r->ord_diff[e];
                char ag[64], oc[16];
                snprintf(ag, sizeof ag, "%.4f%% (%zu off, %zu F-wrong)", 100 * agree_fraction(a), disagreements(a), a->fathom_wrong);
                if (e == S_HIGH) snprintf(oc, sizeof oc, "-");
                else snprintf(oc, sizeof oc, "%zu", r->ord_vs_caller_differ[e]);
                printf("%-8s %-5s %-8s %-30s %9.1e %9.1e %9.1e %9.1e %6zu %11s %9zu  %s\n", mr[i].mesh->name, r->rs->name,
                       setting_label[e], ag, d->max_dt, d->max_dpoint, d->max_normal_deg, d->max_duv, d->front_differ, oc,
                       r->ord_compact_differ[e], e ? "" : r->compact_differ ? "DIFFER" : "identical on every ray");
            }
        }
    for (int i = 0; i < nm; i++)
        printf("  %s: embree high-quality build (RTC_BUILD_QUALITY_HIGH, one run) %.3f s, %.1f B/tri\n", mr[i].mesh->name,
               mr[i].high_build_s, mr[i].high_bytes / (double)mr[i].mesh->nt);

    printf("\nmemory per triangle as a process sees it: resident growth over the build in a fresh child process (everything\n"
           "the structure keeps: Fathom's copies for export, Embree's geometry buffers), bytes, median [min-max] of 3\n");
    printf("%-8s", "mesh");
    for (int s = 0; s < 4; s++) printf(" %22s", resident_label[s]);
    printf("\n");
    for (int i = 0; i < nm; i++) {
        printf("%-8s", mr[i].mesh->name);
        for (int s = 0; s < 4; s++) {
            const double *x = mr[i].resident[s];
            char cell[48];
            snprintf(cell, sizeof cell, "%.1f [%.1f-%.1f]", median3(x), fmin(x[0], fmin(x[1], x[2])), fmax(x[0], fmax(x[1], x[2])));
            printf(" %22s", cell);
        }
        printf("\n");
    }

    printf("\nmemory-lean meshes, closest hit, FULL output: Fathom's FATHOM_MESH_COMPACT mesh (its batch, in its own order)\n"
           "against Embree's RTC_SCENE_FLAG_COMPACT scene (MEDIUM build) on the same rays in that order; Mrays/s, median of\n"
           "%d rounds (spread); x = Embree's time / Fathom's per round: median [min-max] (> 1: Fathom faster)\n", g_repeat);
    printf("%-8s %-5s %6s %16s %16s  %-19s %s\n", "mesh", "rays", "timed", "fathom compact", "embree compact", "x embree/fathom",
           "agreement (t, triangle); fathom compact = copy");
    for (int i = 0; i < nm; i++)
        for (int s = 0; s < 2; s++) {
            rayset_result *r = &mr[i].rs[s];
            if (!r->ordered) continue;
            char f[32], e[32], ag[64];
            snprintf(f, sizeof f, "%.2f (%.0f%%)", mrays(&r->lean_fathom), 100 * t_spread(&r->lean_fathom));
            snprintf(e, sizeof e, "%.2f (%.0f%%)", mrays(&r->lean_embree), 100 * t_spread(&r->lean_embree));
            snprintf(ag, sizeof ag, "%.4f%% (%zu off, %zu F-wrong)", 100 * agree_fraction(&r->lean_agree),
                     disagreements(&r->lean_agree), r->lean_agree.fathom_wrong);
            ratio_t q = round_ratios(&r->lean_embree, &r->lean_fathom);
            printf("%-8s %-5s %5zuk %16s %16s  %.2f [%.2f-%.2f]    %s; %s\n", mr[i].mesh->name, r->rs->name,
                   r->lean_fathom.items / 1000, f, e, q.med, q.lo, q.hi, ag,
                   r->lean_differ ? "DIFFER" : "bit-identical on every ray");
        }
}

static void print_tables(mesh_result *mr, int nm) {
    printf("\nclosest hit, one core, Mrays/s (median of %d runs, round-robin); F/E = Fathom's rate / Embree's (> 1: Fathom faster)\n", g_repeat);
    printf("%-8s %-5s %6s %8s %8s %8s %7s %7s  %-30s %-30s\n", "mesh", "rays", "timed", "fathom", "emb-def", "emb-rob",
           "F/Edef", "F/Erob", "agree vs emb-def", "agree vs emb-rob");
    printf("---------------------------------------------------------------------------------------------------------------------------\n");
    for (int i = 0; i < nm; i++)
        for (int s = 0; s < 2; s++) {
            rayset_result *r = &mr[i].rs[s];
            double f = mrays(&r->closest[0]), d = mrays(&r->closest[1]), rb = mrays(&r->closest[2]);
            char a1[64], a2[64];
            snprintf(a1, sizeof a1, "%.4f%% (%zu off, %zu F-wrong)", 100 * agree_fraction(&r->agree[1]),
                     disagreements(&r->agree[1]), r->agree[1].fathom_wrong);
            snprintf(a2, sizeof a2, "%.4f%% (%zu off, %zu F-wrong)", 100 * agree_fraction(&r->agree[2]),
                     disagreements(&r->agree[2]), r->agree[2].fathom_wrong);
            printf("%-8s %-5s %5zuk %8.2f %8.2f %8.2f %7.2f %7.2f  %-30s %-30s\n", mr[i].mesh->name, r->rs->name,
                   r->closest[0].items / 1000, f, d, rb, f / d, f / rb, a1, a2);
        }
    printf("(timed: rays per timed run, the first of the set's %zu when a run would exceed the time budget;\n"
           " agreement is always over all of them.)\n", mr[0].rs[0].rs->n);
    printf("(agree: both miss, or both hit with |t difference| <= %g, on the same triangle or, at a shared edge, a\n"
           " neighbour; 'off' = rays where one hits and the other misses, or the t differ; 'F-wrong' = those where\n"
           " Fathom is clearly wrong, judged in double precision (details below))\n", (double)T_TOL);

    printf("\nagreement details (Fathom vs Embree): same = same triangle and t; edge = other triangle, same t;\n"
           "F-far = Fathom's hit farther (it missed a nearer one); F-near = Fathom nearer; F-only / E-only = one hits;\n"
           "each of those judged in double precision: round = the disputed hit lies within float32 rounding of a\n"
           "triangle's edge (or the ray is ~parallel to it), F-wrong / E-wrong = that engine is clearly wrong;\n"
           "max dt = largest |t difference| on the same triangle; occl diff = occlusion answers that differ\n");
    printf("%-8s %-6s %-8s %9s %6s %6s %6s %6s %6s %6s %7s %7s %9s %9s\n", "mesh", "rays", "vs", "same", "edge", "F-far",
           "F-near", "F-only", "E-only", "round", "F-wrong", "E-wrong", "max dt", "occl diff");
    for (int i = 0; i < nm; i++)
        for (int s = 0; s < 3; s++) {
            rayset_result *r = s < 2 ? &mr[i].rs[s] : (mr[i].has_inside ? &mr[i].inside : NULL);
            if (!r) continue;
            for (int e = 1; e < N_ENGINES; e++) {
                agree_t *a = &r->agree[e];
                printf("%-8s %-6s %-8s %9zu %6zu %6zu %6zu %6zu %6zu %6zu %7zu %7zu %9.1e %9zu\n", mr[i].mesh->name,
                       r->rs->name, e == 1 ? "emb-def" : "emb-rob", a->same, a->other_tri, a->fathom_farther,
                       a->fathom_nearer, a->fathom_only, a->other_only, a->rounding, a->fathom_wrong, a->other_wrong,
                       a->max_dt_same, a->occl_differ);
            }
        }

    printf("\nocclusion (any hit), one core, Mrays/s (median of %d runs); x = its occlusion rate / its closest-hit rate\n", g_repeat);
    printf("%-8s %-5s %6s %8s %8s %8s %7s %7s  %8s %8s %8s\n", "mesh", "rays", "timed", "fathom", "emb-def", "emb-rob",
           "F/Edef", "F/Erob", "F x", "Edef x", "Erob x");
    printf("------------------------------------------------------------------------------------------\n");
    for (int i = 0; i < nm; i++)
        for (int s = 0; s < 2; s++) {
            rayset_result *r = &mr[i].rs[s];
            double f = mrays(&r->occluded[0]), d = mrays(&r->occluded[1]), rb = mrays(&r->occluded[2]);
            printf("%-8s %-5s %5zuk %8.2f %8.2f %8.2f %7.2f %7.2f  %8.2f %8.2f %8.2f\n", mr[i].mesh->name, r->rs->name,
                   r->occluded[0].items / 1000, f, d, rb, f / d, f / rb, f / mrays(&r->closest[0]),
                   d / mrays(&r->closest[1]), rb / mrays(&r->closest[2]));
        }

    printf("\nbuild (median of %d runs or fewer, see 'runs'; one core; including the copy of the buffers) and memory held after it\n", g_repeat);
    printf("%-8s %10s %4s %9s %9s %9s %7s %7s  %8s %8s %8s %8s\n", "mesh", "triangles", "runs", "fathom s", "emb-def",
           "emb-rob", "F/Edef", "F/Erob", "F B/tri", "F bvh", "Edef", "Erob");
    printf("------------------------------------------------------------------------------------------------------\n");
    for (int i = 0; i < nm; i++) {
        mesh_result *m = &mr[i];
        double nt = (double)m->mesh->nt;
        double f = t_median(&m->build[0]), d = t_median(&m->build[1]), rb = t_median(&m->build[2]);
        printf("%-8s %10zu %4d %9.4f %9.4f %9.4f %7.2f %7.2f  %8.1f %8.1f %8.1f %8.1f\n", m->mesh->name, m->mesh->nt, m->build[0].n, f, d, rb,
               f / d, f / rb, m->bytes[0] / nt, (double)m->info.bvh_bytes / nt, m->bytes[1] / nt, m->bytes[2] / nt);
    }
    printf("(B/tri = bytes per triangle including vertices and indices. Fathom: fathom_mesh_info.memory_bytes, 'bvh' its\n"
           " bvh_bytes. Embree: net bytes after rtcCommitScene from rtcSetDeviceMemoryMonitorFunction, i.e. the\n"
           " geometry buffers + BVH as Embree accounts them. F/E = Fathom's time / Embree's: < 1 is Fathom faster.)\n");
    for (int i = 0; i < nm; i++) {
        fathom_mesh_info *in = &mr[i].info;
        printf("  %s: fathom BVH %llu nodes, width %u, depth %u; embree peak during build: default %.1f, robust %.1f B/tri\n",
               mr[i].mesh->name, (unsigned long long)in->bvh_nodes, in->bvh_width, in->bvh_depth,
               mr[i].embree_peak[1] / (double)mr[i].mesh->nt, mr[i].embree_peak[2] / (double)mr[i].mesh->nt);
    }

    printf("\nrays from inside the closed spheres (origins in the ball of radius 0.5): misses (must be 0)\n");
    printf("%-8s %9s %14s %15s %15s %14s\n", "mesh", "rays", "fathom closest", "fathom occluded", "embree default",
           "embree robust");
    for (int i = 0; i < nm; i++) {
        if (!mr[i].has_inside) continue;
        printf("%-8s %9zu %14zu %15zu %15zu %14zu\n", mr[i].mesh->name, mr[i].inside.rs->n, mr[i].inside_misses[0],
               mr[i].inside_occl_misses[0], mr[i].inside_misses[1], mr[i].inside_misses[2]);
    }

    if (g_ordered) print_ordered_tables(mr, nm);

    if (g_scaling) {
        printf("\nFathom batch mode (fathom_mesh_intersect_batch) on all %d online CPUs, Mrays/s (median of %d)\n", g_ncpu, g_repeat);
        printf("%-8s %-5s %6s %10s %10s %10s %8s %8s %8s %6s  %s\n", "mesh", "rays", "timed", "threads=1", "threads=2", "threads=0",
               "2 vs 1", "0 vs 1", "cpu/wall", "others", "results");
        printf("-------------------------------------------------------------------------------------------------------\n");
        for (int i = 0; i < nm; i++)
            for (int s = 0; s < 2; s++) {
                rayset_result *r = &mr[i].rs[s];
                const char *same = r->scaling_identical ? "identical" : "DIFFER between thread counts";
                if (!r->scaled || r->busy_during) {
                    char why[240];
                    scaling_not_measured(r, why, sizeof why);
                    printf("%-8s %-5s  %s; results %s\n", mr[i].mesh->name, r->rs->name, why, same);
                    continue;
                }
                printf("%-8s %-5s %5zuk %10.2f %10.2f %10.2f %8.2f %8.2f %8.2f %6.2f  %s\n", mr[i].mesh->name, r->rs->name, r->scaling[0].items / 1000,
                       mrays(&r->scaling[0]), mrays(&r->scaling[1]), mrays(&r->scaling[2]),
                       t_median(&r->scaling[0]) / t_median(&r->scaling[1]),
                       t_median(&r->scaling[0]) / t_median(&r->scaling[2]), r->scaling_cpu[1], r->scaling_others,
                       same);
            }
        for (int i = 0; i < nm; i++)
            for (int s = 0; s < 2; s++) {
                rayset_result *r = &mr[i].rs[s];
                if (g_core_probe || !isnan(g_core_share))
                    printf("  core probe before %s %s: %s\n", mr[i].mesh->name, r->rs->name, r->core_msg);
            }
    }
}

static void evaluate(mesh_result *mr, int nm) {
    if (g_scaling) {
        printf("(not measured: the core probe (bench/benchlib.py --core-probe) found that a second thread gets less than\n"
               " %.0f%% of a core just before the runs, or other processes used so much CPU during the timed runs (others)\n"
               " that it got less; the timings of the latter are kept in the JSON. Rerun on an idle machine)\n",
               100 * CORE_SHARE_MIN);
        printf("(cpu/wall: process CPU time / wall time over the threads=2 runs: ~2 when both threads ran all along;\n"
               " ~2 without a speed-up means the threads are slowed by each other (shared writes, reference counting);\n"
               " ~1 means the second CPU was busy with other work or the second thread did not start; others: CPUs\n"
               " used on average by other processes meanwhile, from /proc/stat)\n");
    }
    printf("\ntargets (medians):\n");
    char label[160];
    for (int i = 0; i < nm; i++) {
        rayset_result *cam = &mr[i].rs[1];
        double x = t_median(&cam->closest[E_EMB_ROBUST]) / t_median(&cam->closest[E_FATHOM]);
        snprintf(label, sizeof label, "camera rays >= 1.0x Embree robust, %s", mr[i].mesh->name);
        target(x >= 1.0, label, "fathom %.2f / embree robust %.2f Mrays/s = %.3fx", mrays(&cam->closest[0]),
               mrays(&cam->closest[2]), x);
    }
    for (int i = 0; i < nm; i++) {
        rayset_result *rnd = &mr[i].rs[0];
        double x = t_median(&rnd->closest[E_EMB_DEFAULT]) / t_median(&rnd->closest[E_FATHOM]);
        snprintf(label, sizeof label, "incoherent rays >= 0.8x Embree default, %s", mr[i].mesh->name);
        target(x >= 0.8, label, "fathom %.2f / embree default %.2f Mrays/s = %.3fx", mrays(&rnd->closest[0]),
               mrays(&rnd->closest[1]), x);
    }
    for (int i = 0; i < nm; i++) {
        double f = t_median(&mr[i].build[E_FATHOM]), d = t_median(&mr[i].build[E_EMB_DEFAULT]);
        snprintf(label, sizeof label, "build time <= 1.5x Embree's (default), %s", mr[i].mesh->name);
        target(f <= 1.5 * d, label, "fathom %.4f s / embree %.4f s = %.3fx", f, d, f / d);
    }
    for (int i = 0; i < nm; i++) {
        double b = mr[i].bytes[E_FATHOM] / (double)mr[i].mesh->nt;
        snprintf(label, sizeof label, "<= 64 B per triangle in memory_bytes (the BVH with its vertices; export copies not "
                 "counted), %s", mr[i].mesh->name);
        double floor_b = ((double)mr[i].mesh->nv * 12 + (double)mr[i].mesh->nt * 12) / (double)mr[i].mesh->nt;
        target(b <= 64.0, label, "%.1f B/tri (vertices + indices alone: %.1f B/tri; embree default's own count %.1f)", b,
               floor_b, mr[i].bytes[E_EMB_DEFAULT] / (double)mr[i].mesh->nt);
    }
    for (int i = 0; i < nm; i++) {
        if (!mr[i].has_inside) continue;
        snprintf(label, sizeof label, "zero misses on the closed sphere, %s", mr[i].mesh->name);
        target(mr[i].inside_misses[0] == 0 && mr[i].inside_occl_misses[0] == 0, label,
               "%zu rays from inside: fathom %zu closest-hit / %zu occlusion misses (embree default %zu, robust %zu)",
               mr[i].inside.rs->n, mr[i].inside_misses[0], mr[i].inside_occl_misses[0], mr[i].inside_misses[1],
               mr[i].inside_misses[2]);
    }
    if (g_scaling)
        for (int i = 0; i < nm; i++)
            for (int s = 0; s < 2; s++) {
                rayset_result *r = &mr[i].rs[s];
                double x = t_median(&r->scaling[0]) / t_median(&r->scaling[1]);
                snprintf(label, sizeof label, ">= 1.8x speed-up from 1 to 2 cores (batch), %s %s", mr[i].mesh->name, r->rs->name);
                if (!r->scaled || r->busy_during) {
                    char why[240];
                    scaling_not_measured(r, why, sizeof why);
                    target(-1, label, "%s", why);
                    continue;
                }
                bool busy = x < 1.8 && r->scaling_others > 0.25; /* (not reached on 2 CPUs: busy_during above) */
                target(g_ncpu < 2 ? -1 : x >= 1.8 ? 1 : busy ? -1 : 0, label,
                       "threads=1 %.2f, threads=2 %.2f Mrays/s = %.3fx%s%s", mrays(&r->scaling[0]), mrays(&r->scaling[1]), x,
                       g_ncpu < 2 ? " (only one online CPU)" : "",
                       busy ? " (other processes used the second CPU meanwhile: rerun on an idle machine)" : "");
            }

    if (g_ordered)
        for (int i = 0; i < nm; i++) {
            rayset_result *r = &mr[i].rs[0]; /* rand: the incoherent batch */
            if (!r->ordered) continue;
            ratio_t q = round_ratios(&r->ord_order, &r->ord_fathom);
            snprintf(label, sizeof label, "ordering <= 10%% of an incoherent batch, %s rand", mr[i].mesh->name);
            if (r->order_timed_identity)
                target(-1, label, "not ordered: Fathom traces this batch in the caller's order (ray_order %.3f ms)",
                       1e3 * t_median(&r->ord_order));
            else
                target(q.med <= 0.10, label, "fathom_mesh_ray_order %.1f ms / fathom batch %.1f ms = %.1f%% on %zuk rays (per "
                       "round %.1f-%.1f%%; all %zuk rays, one run: %.1f%%)", 1e3 * t_median(&r->ord_order),
                       1e3 * t_median(&r->ord_fathom), 100 * q.med, r->ord_order.items / 1000, 100 * q.lo, 100 * q.hi,
                       r->rs->n / 1000, 100 * r->order_all_s / r->batch_all_s);
        }

    if (g_ordered)
        for (int i = 0; i < nm; i++) {
            double lean = median3(mr[i].resident[LEAN_FATHOM_COMPACT]), embree = median3(mr[i].resident[LEAN_EMBREE_COMPACT]);
            snprintf(label, sizeof label, "memory per triangle <= Embree COMPACT's, %s (FATHOM_MESH_COMPACT)", mr[i].mesh->name);
            target(lean <= embree, label, "%.1f B vs %.1f B (resident growth, median of 3; FATHOM_MESH_COPY %.1f B, Embree "
                   "MEDIUM %.1f B)", lean, embree, median3(mr[i].resident[LEAN_FATHOM_COPY]),
                   median3(mr[i].resident[LEAN_EMBREE_MEDIUM]));
        }

    /* wrong results, as opposed to missed speed targets */
    for (int i = 0; i < nm; i++) {
        for (int s = 0; s < 3; s++) {
            rayset_result *r = s < 2 ? &mr[i].rs[s] : (mr[i].has_inside ? &mr[i].inside : NULL);
            if (!r) continue;
            for (int e = 1; e < N_ENGINES; e++) {
                agree_t *a = &r->agree[e];
                if (a->fathom_wrong)
                    problem("%s %s: vs %s, Fathom is clearly wrong on %zu rays (of %zu disagreeing; F-far %zu, F-near %zu, "
                            "F-only %zu, E-only %zu; %zu within rounding)", mr[i].mesh->name, r->rs->name,
                            e == 1 ? "embree default" : "embree robust", a->fathom_wrong, disagreements(a),
                            a->fathom_farther, a->fathom_nearer, a->fathom_only, a->other_only, a->rounding);
            }
            if (r->fathom_self_occl_differ)
                problem("%s %s: fathom occluded differs from (closest hit found) for %zu rays", mr[i].mesh->name,
                        r->rs->name, r->fathom_self_occl_differ);
            if (r->scaling_checked && !r->scaling_identical)
                problem("%s %s: fathom's hits differ between threads=1, 2 and 0", mr[i].mesh->name, r->rs->name);
            if (r->ordered) {
                if (r->lean_differ)
                    problem("%s %s: the FATHOM_MESH_COMPACT mesh's t or triangle differs from the copied mesh's on %zu rays",
                            mr[i].mesh->name, r->rs->name, r->lean_differ);
                if (r->lean_agree.fathom_wrong)
                    problem("%s %s: vs embree compact, the FATHOM_MESH_COMPACT mesh is clearly wrong on %zu rays",
                            mr[i].mesh->name, r->rs->name, r->lean_agree.fathom_wrong);
                if (r->compact_differ)
                    problem("%s %s: fathom_mesh_intersect_batch_compact differs from fathom_mesh_intersect_batch's t or "
                            "primitive on %zu rays", mr[i].mesh->name, r->rs->name, r->compact_differ);
                if (!r->order_stable)
                    problem("%s %s: two fathom_mesh_ray_order calls gave different orders", mr[i].mesh->name, r->rs->name);
                for (int e = 0; e < N_SETTINGS; e++) {
                    agree_t *a = &r->ord_agree[e];
                    if (a->fathom_wrong)
                        problem("%s %s: vs embree %s in Fathom's order, Fathom is clearly wrong on %zu rays",
                                mr[i].mesh->name, r->rs->name, setting_label[e], a->fathom_wrong);
                    if (r->ord_vs_caller_differ[e] || r->ord_compact_differ[e])
                        problem("%s %s: harness: embree %s in Fathom's order differs from its caller-order run on %zu rays "
                                "and its compact run from its full records on %zu", mr[i].mesh->name, r->rs->name,
                                setting_label[e], r->ord_vs_caller_differ[e], r->ord_compact_differ[e]);
                    record_diff_t *d = &r->ord_diff[e];
                    /* gross errors only (a flipped normal is 180 degrees off, swapped or misplaced barycentrics O(1));
                     * rounding reaches ~0.02 degrees and ~0.01 in u, v on the 3 mm triangles of sphere8 seen from 3 m */
                    if (d->front_differ || d->class_differ || d->miss_differ || d->max_normal_deg > 1.0 ||
                        d->max_duv > 0.1 || d->max_normal_len > 1e-5)
                        problem("%s %s: embree %s's records differ from Fathom's on the same triangle beyond rounding "
                                "(front face %zu, class %zu, misses %zu, normal %.1e deg, |n|-1 %.1e, uv %.1e)",
                                mr[i].mesh->name, r->rs->name, setting_label[e], d->front_differ, d->class_differ,
                                d->miss_differ, d->max_normal_deg, d->max_normal_len, d->max_duv);
                }
            }
        }
        if (mr[i].has_inside && (mr[i].inside_misses[0] || mr[i].inside_occl_misses[0]))
            problem("%s: fathom lets %zu (closest) / %zu (occluded) rays from inside through the closed mesh",
                    mr[i].mesh->name, mr[i].inside_misses[0], mr[i].inside_occl_misses[0]);
    }
    if (g_nproblems) {
        printf("\nPROBLEMS:\n");
        for (int i = 0; i < g_nproblems; i++) printf("  %s\n", g_problems[i]);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* JSON                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

static void json_num(FILE *f, double x) {
    if (isfinite(x)) fprintf(f, "%.9g", x);
    else fprintf(f, "null");
}

static void json_timing(FILE *f, const timing_t *t) {
    fprintf(f, "{\"median_s\": ");
    json_num(f, t_median(t));
    fprintf(f, ", \"min_s\": ");
    json_num(f, t_min(t));
    fprintf(f, ", \"mrays_per_s\": ");
    json_num(f, t->items ? mrays(t) : NAN);
    fprintf(f, ", \"rays\": %zu", t->items);
    fprintf(f, ", \"runs_s\": [");
    for (int i = 0; i < t->n; i++) {
        if (i) fprintf(f, ", ");
        json_num(f, t->runs[i]);
    }
    fprintf(f, "]}");
}

static void json_agree(FILE *f, const agree_t *a) {
    fprintf(f, "{\"rays\": %zu, \"fraction\": ", a->n);
    json_num(f, agree_fraction(a));
    fprintf(f, ", \"same\": %zu, \"other_triangle_same_t\": %zu, \"fathom_farther\": %zu, \"fathom_nearer\": %zu, "
               "\"fathom_only\": %zu, \"other_only\": %zu, \"within_rounding\": %zu, \"fathom_wrong\": %zu, "
               "\"other_wrong\": %zu, \"occlusion_differs\": %zu, \"max_dt_same_triangle\": ",
            a->same, a->other_tri, a->fathom_farther, a->fathom_nearer, a->fathom_only, a->other_only, a->rounding,
            a->fathom_wrong, a->other_wrong, a->occl_differ);
    json_num(f, a->max_dt_same);
    fprintf(f, "}");
}

static void json_rayset(FILE *f, const rayset_result *r, bool timed) {
    size_t n = r->rs->n;
    fprintf(f, "{\"rays\": %zu, \"description\": \"%s\"", n, r->rs->desc);
    if (timed) {
        for (int q = 0; q < 2; q++) {
            fprintf(f, ", \"%s\": {", q ? "occluded" : "closest");
            for (int e = 0; e < N_ENGINES; e++) {
                fprintf(f, "%s\"%s\": ", e ? ", " : "", engine_key[e]);
                json_timing(f, q ? &r->occluded[e] : &r->closest[e]);
            }
            fprintf(f, "}");
        }
    }
    fprintf(f, ", \"hits\": {");
    for (int e = 0; e < N_ENGINES; e++) fprintf(f, "%s\"%s\": %zu", e ? ", " : "", engine_key[e], r->hits[e]);
    fprintf(f, "}, \"occluded_count\": {");
    for (int e = 0; e < N_ENGINES; e++) fprintf(f, "%s\"%s\": %zu", e ? ", " : "", engine_key[e], r->occluded_count[e]);
    fprintf(f, "}, \"agreement\": {\"embree_default\": ");
    json_agree(f, &r->agree[E_EMB_DEFAULT]);
    fprintf(f, ", \"embree_robust\": ");
    json_agree(f, &r->agree[E_EMB_ROBUST]);
    fprintf(f, "}, \"fathom_occluded_vs_closest_differ\": %zu", r->fathom_self_occl_differ);
    if (r->ordered) {
        int best = best_setting(r->ord_embree), bestc = best_setting(r->cmp_embree);
        ratio_t q = round_ratios(&r->ord_embree[best], &r->ord_fathom), qc = round_ratios(&r->cmp_embree[bestc], &r->cmp_fathom);
        ratio_t qo = round_ratios(&r->ord_order, &r->ord_fathom);
        fprintf(f, ",\n              \"fathom_order\": {\"identity\": %s, \"timed_identity\": %s, \"stable\": %s, \"full\": {\"fathom\": ",
                r->order_identity ? "true" : "false", r->order_timed_identity ? "true" : "false", r->order_stable ? "true" : "false");
        json_timing(f, &r->ord_fathom);
        fprintf(f, ", \"ray_order\": ");
        json_timing(f, &r->ord_order);
        for (int e = 0; e < N_SETTINGS; e++) {
            fprintf(f, ", \"%s\": ", setting_key[e]);
            json_timing(f, &r->ord_embree[e]);
        }
        fprintf(f, ", \"best\": \"%s\", \"best_over_fathom_per_round\": [", setting_key[best]);
        json_num(f, q.med); fprintf(f, ", "); json_num(f, q.lo); fprintf(f, ", "); json_num(f, q.hi);
        fprintf(f, "], \"order_over_batch_per_round\": [");
        json_num(f, qo.med); fprintf(f, ", "); json_num(f, qo.lo); fprintf(f, ", "); json_num(f, qo.hi);
        timing_t trav = {{0}, 0, r->ord_fathom.items};
        for (int k = 0; k < r->ord_fathom.n && k < r->ord_order.n; k++) t_add(&trav, r->ord_fathom.runs[k] - r->ord_order.runs[k]);
        ratio_t qt = round_ratios(&r->ord_embree[best], &trav);
        fprintf(f, "], \"all_rays_one_run\": {\"ray_order_s\": ");
        json_num(f, r->order_all_s);
        fprintf(f, ", \"batch_s\": ");
        json_num(f, r->batch_all_s);
        fprintf(f, "}, \"best_over_fathom_minus_order_per_round\": [");
        json_num(f, qt.med); fprintf(f, ", "); json_num(f, qt.lo); fprintf(f, ", "); json_num(f, qt.hi);
        fprintf(f, "]},\n               \"compact\": {\"fathom\": ");
        json_timing(f, &r->cmp_fathom);
        for (int e = 0; e < N_SETTINGS; e++) {
            fprintf(f, ", \"%s\": ", setting_key[e]);
            json_timing(f, &r->cmp_embree[e]);
        }
        fprintf(f, ", \"best\": \"%s\", \"best_over_fathom_per_round\": [", setting_key[bestc]);
        json_num(f, qc.med); fprintf(f, ", "); json_num(f, qc.lo); fprintf(f, ", "); json_num(f, qc.hi);
        fprintf(f, "], \"fathom_compact_differs_from_batch\": %zu},\n               \"checks\": {", r->compact_differ);
        for (int e = 0; e < N_SETTINGS; e++) {
            const record_diff_t *d = &r->ord_diff[e];
            fprintf(f, "%s\"%s\": {\"agreement\": ", e ? ", " : "", setting_key[e]);
            json_agree(f, &r->ord_agree[e]);
            fprintf(f, ", \"same_triangle\": %zu, \"max_dt\": ", d->same_triangle);
            json_num(f, d->max_dt);
            fprintf(f, ", \"max_dpoint\": ");
            json_num(f, d->max_dpoint);
            fprintf(f, ", \"max_normal_deg\": ");
            json_num(f, d->max_normal_deg);
            fprintf(f, ", \"max_normal_length_error\": ");
            json_num(f, d->max_normal_len);
            fprintf(f, ", \"max_duv\": ");
            json_num(f, d->max_duv);
            fprintf(f, ", \"front_differ\": %zu, \"front_differ_grazing\": %zu, \"class_differ\": %zu, \"miss_differ\": %zu, "
                       "\"differs_from_caller_order\": %zu, \"compact_differs_from_full\": %zu}",
                    d->front_differ, d->front_grazing, d->class_differ, d->miss_differ, r->ord_vs_caller_differ[e],
                    r->ord_compact_differ[e]);
        }
        ratio_t ql = round_ratios(&r->lean_embree, &r->lean_fathom);
        fprintf(f, "},\n               \"lean\": {\"fathom_compact\": ");
        json_timing(f, &r->lean_fathom);
        fprintf(f, ", \"embree_compact\": ");
        json_timing(f, &r->lean_embree);
        fprintf(f, ", \"embree_over_fathom_per_round\": [");
        json_num(f, ql.med); fprintf(f, ", "); json_num(f, ql.lo); fprintf(f, ", "); json_num(f, ql.hi);
        fprintf(f, "], \"differs_from_copy\": %zu, \"agreement\": ", r->lean_differ);
        json_agree(f, &r->lean_agree);
        fprintf(f, "}}");
    }
    if (r->scaling_checked && !r->scaled) {
        char why[200];
        scaling_not_measured(r, why, sizeof why);
        fprintf(f, ", \"batch_all_cpus\": {\"not_measured\": \"%s\", \"core_share\": ", why);
        json_num(f, r->core_share);
        fprintf(f, ", \"core_probe\": \"%s\", \"identical_results\": %s}", r->core_msg, r->scaling_identical ? "true" : "false");
    }
    if (r->scaled) {
        fprintf(f, ", \"batch_all_cpus\": {\"core_share\": ");
        json_num(f, r->core_share);
        if (r->busy_during) {
            char why[240];
            scaling_not_measured(r, why, sizeof why);
            fprintf(f, ", \"not_measured\": \"%s\"", why);
        }
        fprintf(f, ", \"core_probe\": \"%s\", \"threads_1\": ", r->core_msg);
        json_timing(f, &r->scaling[0]);
        fprintf(f, ", \"threads_2\": ");
        json_timing(f, &r->scaling[1]);
        fprintf(f, ", \"threads_0\": ");
        json_timing(f, &r->scaling[2]);
        fprintf(f, ", \"speedup_2_vs_1\": ");
        json_num(f, t_median(&r->scaling[0]) / t_median(&r->scaling[1]));
        fprintf(f, ", \"speedup_0_vs_1\": ");
        json_num(f, t_median(&r->scaling[0]) / t_median(&r->scaling[2]));
        fprintf(f, ", \"cpu_over_wall\": [%.3f, %.3f, %.3f], \"other_processes_cpus\": %.3f", r->scaling_cpu[0],
                r->scaling_cpu[1], r->scaling_cpu[2], r->scaling_others);
        fprintf(f, ", \"identical_results\": %s}", r->scaling_identical ? "true" : "false");
    }
    fprintf(f, "}");
}

static void write_json(const char *path, mesh_result *mr, int nm, size_t nrays, size_t ninside) {
    FILE *f = fopen(path, "w");
    if (!f) die("cannot write %s: %s", path, strerror(errno));
    fprintf(f, "{\n \"harness\": \"bench/raycast/raycast_bench.c\",\n \"fathom_version\": \"%s\",\n", fathom_version());
    fprintf(f, " \"embree_version\": \"%s\",\n \"embree_native_ray4_8_16\": [%d, %d, %d],\n", RTC_VERSION_STRING,
            (int)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_NATIVE_RAY4_SUPPORTED),
            (int)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_NATIVE_RAY8_SUPPORTED),
            (int)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_NATIVE_RAY16_SUPPORTED));
    fprintf(f, " \"pinned_core\": %d,\n \"online_cpus\": %d,\n \"repeat\": %d,\n \"rays\": %zu,\n \"inside_rays\": %zu,\n",
            g_core, g_ncpu, g_repeat, nrays, ninside);
    fprintf(f, " \"budget_s\": %g,\n \"reduced\": %s,\n \"load_average_end\": \"%s\",\n", g_budget,
            g_reduced ? "true" : "false", load_average());
    fprintf(f, " \"embree_memory\": \"net bytes after rtcCommitScene, from rtcSetDeviceMemoryMonitorFunction\",\n");
    fprintf(f, " \"agreement_t_tolerance\": %g,\n \"meshes\": {\n", (double)T_TOL);
    for (int i = 0; i < nm; i++) {
        mesh_result *m = &mr[i];
        fprintf(f, "  \"%s\": {\"triangles\": %zu, \"vertices\": %zu, \"closed\": %s, \"description\": \"%s\",\n   \"build\": {",
                m->mesh->name, m->mesh->nt, m->mesh->nv, m->mesh->closed ? "true" : "false", m->mesh->desc);
        for (int e = 0; e < N_ENGINES; e++) {
            fprintf(f, "%s\"%s\": ", e ? ", " : "", engine_key[e]);
            json_timing(f, &m->build[e]);
        }
        fprintf(f, "},\n   \"bytes\": {");
        for (int e = 0; e < N_ENGINES; e++) fprintf(f, "%s\"%s\": %.0f", e ? ", " : "", engine_key[e], m->bytes[e]);
        fprintf(f, "}, \"bytes_per_triangle\": {");
        for (int e = 0; e < N_ENGINES; e++) {
            fprintf(f, "%s\"%s\": ", e ? ", " : "", engine_key[e]);
            json_num(f, m->bytes[e] / (double)m->mesh->nt);
        }
        fprintf(f, "}, \"embree_peak_build_bytes\": {\"embree_default\": %.0f, \"embree_robust\": %.0f},\n",
                m->embree_peak[1], m->embree_peak[2]);
        if (g_ordered) {
            fprintf(f, "   \"resident_bytes_per_triangle\": {");
            for (int s = 0; s < 4; s++) {
                fprintf(f, "%s\"%s\": [", s ? ", " : "", resident_label[s]);
                for (int k = 0; k < 3; k++) { if (k) fprintf(f, ", "); json_num(f, m->resident[s][k]); }
                fprintf(f, "]");
            }
            fprintf(f, "},\n");
        }
        fprintf(f, "   \"fathom_info\": {\"memory_bytes\": %llu, \"bvh_bytes\": %llu, \"bvh_nodes\": %llu, \"bvh_depth\": %u, "
                   "\"bvh_width\": %u, \"surface_area\": %.9g},\n",
                (unsigned long long)m->info.memory_bytes, (unsigned long long)m->info.bvh_bytes,
                (unsigned long long)m->info.bvh_nodes, m->info.bvh_depth, m->info.bvh_width, m->info.surface_area);
        fprintf(f, "   \"rays\": {\"rand\": ");
        json_rayset(f, &m->rs[0], true);
        fprintf(f, ",\n            \"cam\": ");
        json_rayset(f, &m->rs[1], true);
        if (m->has_inside) {
            fprintf(f, ",\n            \"inside\": ");
            json_rayset(f, &m->inside, false);
        }
        fprintf(f, "}");
        if (m->has_inside) {
            fprintf(f, ",\n   \"inside_misses\": {");
            for (int e = 0; e < N_ENGINES; e++) fprintf(f, "%s\"%s\": %zu", e ? ", " : "", engine_key[e], m->inside_misses[e]);
            fprintf(f, ", \"fathom_occluded\": %zu}", m->inside_occl_misses[0]);
        }
        fprintf(f, "}%s\n", i + 1 < nm ? "," : "");
    }
    fprintf(f, " },\n \"targets\": [\n");
    for (int i = 0; i < g_ntargets; i++)
        fprintf(f, "  {\"label\": \"%s\", \"ok\": %s, \"detail\": \"%s\"}%s\n", g_targets[i].label,
                g_targets[i].ok > 0 ? "true" : g_targets[i].ok < 0 ? "null" : "false", g_targets[i].detail, i + 1 < g_ntargets ? "," : "");
    fprintf(f, " ],\n \"problems\": [");
    for (int i = 0; i < g_nproblems; i++) fprintf(f, "%s\n  \"%s\"", i ? "," : "", g_problems[i]);
    fprintf(f, "%s]\n}\n", g_nproblems ? "\n " : "");
    if (fclose(f) != 0) die("cannot write %s", path);
}

/* ---------------------------------------------------------------------------------------------- */

static void usage(void) {
    printf("usage: raycast_bench [--rays N] [--inside-rays N] [--repeat R] [--meshes sphere5,sphere8,soup1m]\n"
           "                     [--budget SECONDS] [--no-scaling] [--no-ordered] [--core-probe CMD | --core-share X]\n"
           "                     [--json PATH] [--dump DIR]\n"
           "  --budget: seconds of timed runs per query and ray set (all engines); a slower block is timed on\n"
           "            the first rays of the set only (default 10)\n"
           "  --no-ordered: skip the blocks in Fathom's order (Embree on fathom_mesh_ray_order's order, full and\n"
           "            compact output)\n"
           "  --core-probe CMD: run CMD before each thread-scaling block; its last line is \"<share> <text>\", the\n"
           "            share of a whole core a second thread gets (bench/benchlib.py --core-probe); below %.2f the\n"
           "            scaling is not timed. --core-share X: that share given instead\n", CORE_SHARE_MIN);
}

int main(int argc, char **argv) {
    size_t nrays = 1000000, ninside = 1000000;
    const char *json = NULL, *meshes = "sphere5,sphere8,soup1m";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--rays") && v) nrays = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--inside-rays") && v) ninside = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--repeat") && v) g_repeat = atoi(v), i++;
        else if (!strcmp(a, "--meshes") && v) meshes = v, i++;
        else if (!strcmp(a, "--json") && v) json = v, i++;
        else if (!strcmp(a, "--dump") && v) g_dump = v, i++;
        else if (!strcmp(a, "--budget") && v) g_budget = atof(v), i++;
        else if (!strcmp(a, "--no-scaling")) g_scaling = false;
        else if (!strcmp(a, "--no-ordered")) g_ordered = false;
        else if (!strcmp(a, "--core-probe") && v) g_core_probe = v, i++;
        else if (!strcmp(a, "--core-share") && v) g_core_share = atof(v), i++;
        else { usage(); return !strcmp(a, "--help") ? 0 : 2; }
    }
    if (g_repeat < 1 || g_repeat > MAX_RUNS) die("--repeat must be 1..%d", MAX_RUNS);
    if (!(g_budget > 0)) die("--budget must be > 0");
    if (nrays < 1 || ninside < 1) die("--rays and --inside-rays must be >= 1");
    if (g_dump) mkdir(g_dump, 0777);
    setvbuf(stdout, NULL, _IOLBF, 0);

    pin_one_core();
    g_ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    g_device = rtcNewDevice("threads=1");
    if (!g_device) die("rtcNewDevice failed: %d", (int)rtcGetDeviceError(NULL));
    rtcSetDeviceErrorFunction(g_device, embree_error, NULL);
    rtcSetDeviceMemoryMonitorFunction(g_device, memory_monitor, NULL);

    printf("raycast_bench: fathom %s; embree %s (runtime %ld.%ld.%ld, native ray4/8/16: %ld/%ld/%ld), device \"threads=1\"\n",
           fathom_version(), RTC_VERSION_STRING, (long)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_VERSION_MAJOR),
           (long)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_VERSION_MINOR),
           (long)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_VERSION_PATCH),
           (long)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_NATIVE_RAY4_SUPPORTED),
           (long)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_NATIVE_RAY8_SUPPORTED),
           (long)rtcGetDeviceProperty(g_device, RTC_DEVICE_PROPERTY_NATIVE_RAY16_SUPPORTED));
    printf("pinned to CPU %d of %d online; %zu rays per set, %zu from inside; %d timed runs per engine after one untimed;\n"
           "time budget %.0f s of timed runs per query and ray set; load average %s\n",
           g_core, g_ncpu, nrays, ninside, g_repeat, g_budget, load_average());

    double t0 = now_s();
    rayset_t sets[2] = {make_rays_rand(nrays, 0x52414E44ull), make_rays_cam(nrays, 0x43414D00ull)};
    rayset_t inside = make_rays_inside(ninside, 0x494E5349ull);
    write_npy(g_dump, "rays_rand", "<f4", nrays, 6, sets[0].rays, nrays * 24);
    write_npy(g_dump, "rays_cam", "<f4", nrays, 6, sets[1].rays, nrays * 24);
    write_npy(g_dump, "rays_inside", "<f4", ninside, 6, inside.rays, ninside * 24);
    g_hits = xmalloc((nrays > ninside ? nrays : ninside) * sizeof(fathom_hit));

    mesh_result mr[3];
    int nm = 0;
    char list[256];
    snprintf(list, sizeof list, "%s", meshes);
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        mesh_t m;
        if (!strcmp(tok, "sphere5")) m = make_icosphere("sphere5", 5), m.desc = "icosphere, 5 subdivisions, unit radius";
        else if (!strcmp(tok, "sphere8")) m = make_icosphere("sphere8", 8), m.desc = "icosphere, 8 subdivisions, unit radius";
        else if (!strcmp(tok, "soup1m")) m = make_soup("soup1m", 1000000, 0x534F5550ull),
             m.desc = "1M unconnected triangles, centroids in [-0.98,0.98]^3, edges 0.01-0.02";
        else die("unknown mesh %s (sphere5, sphere8, soup1m)", tok);
        if (nm >= 3) die("at most 3 meshes");
        mesh_t *keep = malloc(sizeof *keep);
        *keep = m;
        printf("%s: %s, %zu triangles, %zu vertices [generated in %.1f s]\n", m.name, m.desc, m.nt, m.nv, now_s() - t0);
        measure_mesh(keep, sets, &inside, &mr[nm]);
        free_mesh(keep); /* the results keep the name and sizes */
        nm++;
        t0 = now_s();
    }

    print_tables(mr, nm);
    evaluate(mr, nm);
    if (g_reduced)
        printf("\nNOTE: some blocks were timed on fewer rays (column 'timed') or builds on fewer runs ('runs') to keep\n"
               "within the time budget (--budget %.0f s per block); the checks always use every ray.\n", g_budget);
    printf("load average at the end: %s (1/5/15 min; other work on the machine makes the timings noisy)\n", load_average());
    if (json) {
        write_json(json, mr, nm, nrays, ninside);
        printf("\n(raw numbers: %s)\n", json);
    }
    rtcReleaseDevice(g_device);
    return g_nproblems ? 1 : 0;
}
