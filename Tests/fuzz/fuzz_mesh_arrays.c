/* Fuzz target: triangle meshes made from arrays (fathom_mesh_create: vertex strides and counts, out-of-range
 * indices and classes, degenerate, tiny and huge triangles, borrowed buffers), then every query on them
 * (fathom_mesh_get_info, _vertices, _triangles, _classes, _face_geometry, _intersect, _occluded,
 * _intersect_all and their batches) with fuzzed rays, ranges, capacities and options, and the round trip
 * fathom_mesh_save -> fathom_mesh_load through .ply and .obj, which must give back the same vertices (bit for
 * bit), triangles and (PLY) classes. */
#define _XOPEN_SOURCE 700
#include "fuzz.h"
#include "fuzz_files.h"
#include "mesh_checks.h"

#include <stddef.h>
#include <unistd.h>

#define MAX_VERTICES 64
#define MAX_TRIANGLES 64
#define MAX_RAYS 16

/* The per-process temporary directory, and the names a mesh is saved under (by extension: PLY, OBJ, others). */
#define TEMP_DIR "fathom-fuzz-mesh_arrays-XXXXXX"
static const char *const temp_names[] = {"m.ply", "m.PLY", "m.obj", "m.Obj", "m.stl", "m"};

/* ---------------------------------------------------------------------------------------------- */
/* Round trip through files                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/** Saves `mesh` (whose getters gave `c`) under a fuzzed name and loads it back (mesh_round_trip); an extension
 *  other than .ply or .obj fails with FATHOM_ERR_FORMAT and writes no file. Sometimes also paths that cannot be
 *  written. */
static void round_trip(fz_input *in, const fathom_mesh *mesh, const mesh_contents *c) {
    char path[128];
    fathom_status s;
    uint8_t which = fz_u8(in);
    const char *name = temp_names[which % 6];
    int ply = which % 6 < 2, obj = which % 6 == 2 || which % 6 == 3;
    fz_temp_path(TEMP_DIR, name, path, sizeof path);
    unlink(path);
    if (!ply && !obj) {
        s = FZ(fathom_mesh_save, mesh, path);
        if (s != FATHOM_ERR_FORMAT) fz_broken("fathom_mesh_save", "an unknown extension was not FATHOM_ERR_FORMAT");
        if (access(path, F_OK) == 0) fz_broken("fathom_mesh_save", "a failed save wrote a file");
        return;
    }
    mesh_round_trip(in, mesh, c, path, ply);

    /* Paths that cannot be written. */
    if (fz_u8(in) < 8) {
        s = FZ(fathom_mesh_save, mesh, NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_mesh_save", "a NULL path was not refused");
        char missing[160];
        fz_temp_path(TEMP_DIR, "no-such-directory/m.ply", missing, sizeof missing);
        s = FZ(fathom_mesh_save, mesh, missing);
        if (s != FATHOM_ERR_IO) fz_broken("fathom_mesh_save", "an unwritable path was not FATHOM_ERR_IO");
        mesh_same(mesh, &c->info, "fathom_mesh_save");
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Face geometry                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

static void face_geometry(fz_input *in, const fathom_mesh *mesh, const mesh_contents *c) {
    size_t tc = (size_t)c->info.triangle_count;
    uint8_t which = fz_u8(in);
    float *normals = fz_malloc((tc + 1) * 3 * sizeof(float)), *areas = fz_malloc((tc + 1) * sizeof(float));
    fz_poison(normals, (tc + 1) * 3 * sizeof(float));
    fz_poison(areas, (tc + 1) * sizeof(float));
    fathom_status s = FZ(fathom_mesh_face_geometry, which == 0 ? NULL : mesh, which & 2 ? NULL : normals,
                         which & 4 ? NULL : areas);
    if (which == 0) {
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_mesh_face_geometry", "a NULL mesh was not refused");
        fz_untouched(s, "fathom_mesh_face_geometry", normals, (tc + 1) * 3 * sizeof(float));
        fz_untouched(s, "fathom_mesh_face_geometry", areas, (tc + 1) * sizeof(float));
        free(normals);
        free(areas);
        return;
    }
    if (s != FATHOM_OK) fz_broken("fathom_mesh_face_geometry", "failed on a valid mesh");
    /* Nothing past triangle_count, nothing through an output not asked for. */
    fz_untouched_past("fathom_mesh_face_geometry (past triangle_count)", normals + 3 * tc,
                      3 * sizeof(float));
    fz_untouched_past("fathom_mesh_face_geometry (past triangle_count)", areas + tc, sizeof(float));
    if (which & 2) fz_untouched_past("fathom_mesh_face_geometry (normals not asked for)", normals,
                                     (tc + 1) * 3 * sizeof(float));
    if (which & 4) fz_untouched_past("fathom_mesh_face_geometry (areas not asked for)", areas,
                                     (tc + 1) * sizeof(float));
    double total = 0;
    for (size_t t = 0; t < tc; t++) {
        /* (v1 - v0) x (v2 - v0) in double, exact but for extreme exponents. */
        const float *a = c->vertices + 3 * c->indices[3 * t], *b = c->vertices + 3 * c->indices[3 * t + 1],
                    *d = c->vertices + 3 * c->indices[3 * t + 2];
        double e1[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
        double e2[3] = {(double)d[0] - a[0], (double)d[1] - a[1], (double)d[2] - a[2]};
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        total += l / 2;
        if (!(which & 4)) {
            double area = areas[t], expected = (double)(float)(l / 2);
            if (!(fabs(area - expected) <= 1e-6 * expected) && !(isinf(area) && isinf(expected)))
                fz_broken("fathom_mesh_face_geometry", "an area is not that of its triangle");
        }
        if (!(which & 2)) {
            const float *m = normals + 3 * t;
            if (l == 0) {
                if (m[0] != 0 || m[1] != 0 || m[2] != 0) fz_broken("fathom_mesh_face_geometry", "a degenerate triangle's normal is not 0");
            } else {
                for (int k = 0; k < 3; k++)
                    if (!(fabs((double)m[k] - n[k] / l) <= 1e-6)) fz_broken("fathom_mesh_face_geometry", "a normal is not that of its triangle");
            }
        }
    }
    if (!(fabs(c->info.surface_area - total) <= 1e-9 * total))
        fz_broken("fathom_mesh_get_info", "surface_area is not the sum of the triangle areas");
    free(normals);
    free(areas);
}

/* ---------------------------------------------------------------------------------------------- */
/* Rays                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

static int ray_valid(const fathom_ray *r) {
    const float *f = &r->origin.x;
    for (int i = 0; i < 6; i++)
        if (!isfinite(f[i])) return 0;
    float longest = fmaxf(fabsf(r->direction.x), fmaxf(fabsf(r->direction.y), fabsf(r->direction.z)));
    return longest >= 1e-18f && longest <= 1e18f;
}

static int range_valid(float tmin, float tmax) { return isfinite(tmin) && tmin >= 0 && !isnan(tmax) && tmax >= tmin; }

/** A ray: often aimed at a point of a triangle (a vertex, an edge, inside), else anywhere. */
static fathom_ray fuzz_ray(fz_input *in, const mesh_contents *c) {
    fathom_ray r;
    r.origin = fz_vec3(in);
    size_t tc = (size_t)c->info.triangle_count;
    uint8_t kind = fz_u8(in);
    if (kind < 160 && tc > 0) {
        const uint32_t *t = c->indices + 3 * (fz_u8(in) % tc);
        const float *a = c->vertices + 3 * t[0], *b = c->vertices + 3 * t[1], *d = c->vertices + 3 * t[2];
        float wu, wv;
        switch (kind % 4) {
        case 0: wu = 0; wv = 0; break;                /* a vertex */
        case 1: wu = 0.5f; wv = 0; break;             /* an edge's middle */
        case 2: wu = 1.0f / 3; wv = 1.0f / 3; break;  /* the centroid */
        default: wu = fz_u8(in) / 255.0f; wv = (1 - wu) * (fz_u8(in) / 255.0f); break;
        }
        float target[3];
        for (int k = 0; k < 3; k++) target[k] = (1 - wu - wv) * a[k] + wu * b[k] + wv * d[k];
        r.direction.x = target[0] - r.origin.x;
        r.direction.y = target[1] - r.origin.y;
        r.direction.z = target[2] - r.origin.z;
        if (kind & 0x40) { /* parallel rays: from afar along an axis */
            r.direction = (fathom_vec3){0, 0, 0};
            (&r.direction.x)[kind % 3] = kind & 0x20 ? 1.0f : -1.0f;
            r.origin.x = target[0] - (&r.direction.x)[0] * 8;
            r.origin.y = target[1] - (&r.direction.x)[1] * 8;
            r.origin.z = target[2] - (&r.direction.x)[2] * 8;
        }
    } else {
        r.direction = fz_vec3(in);
    }
    return r;
}

static void fuzz_range(fz_input *in, float *tmin, float *tmax) {
    uint8_t kind = fz_u8(in);
    if (kind < 128) {
        *tmin = 0;
        *tmax = INFINITY;
    } else if (kind < 192) {
        *tmin = kind & 1 ? 0 : fz_u8(in) / 16.0f;
        *tmax = kind & 2 ? INFINITY : *tmin + fz_u8(in) / 16.0f;
    } else {
        *tmin = fz_float(in);
        *tmax = fz_float(in);
    }
}

/** For a broken promise about a hit: the triangle and the ray. */
static void print_hit(const fathom_hit *h, const fathom_ray *ray, const mesh_contents *c) {
    const uint32_t *t = c->indices + 3 * h->primitive;
    for (int k = 0; k < 3; k++)
        fprintf(stderr, "triangle %u vertex %u: %.9g %.9g %.9g\n", h->primitive, t[k], (double)c->vertices[3 * t[k]],
                (double)c->vertices[3 * t[k] + 1], (double)c->vertices[3 * t[k] + 2]);
    fprintf(stderr, "ray origin %.9g %.9g %.9g direction %.9g %.9g %.9g\n", (double)ray->origin.x, (double)ray->origin.y,
            (double)ray->origin.z, (double)ray->direction.x, (double)ray->direction.y, (double)ray->direction.z);
    fprintf(stderr, "hit t %.9g point %.9g %.9g %.9g normal %.9g %.9g %.9g u %.9g v %.9g front_face %u\n", (double)h->t,
            (double)h->point.x, (double)h->point.y, (double)h->point.z, (double)h->normal.x, (double)h->normal.y,
            (double)h->normal.z, (double)h->u, (double)h->v, h->front_face);
}

/** The header's form of a hit or a miss. */
static void check_hit(const char *function, const fathom_hit *h, const fathom_ray *ray, float tmin, float tmax,
                      const mesh_contents *c) {
    if (h->primitive == FATHOM_NO_HIT) {
        if (!(isinf(h->t) && h->t > 0)) fz_broken(function, "a miss's t is not INFINITY");
        const uint8_t *bytes = (const uint8_t *)h;
        for (size_t i = offsetof(fathom_hit, point); i < sizeof *h; i++)
            if (i < offsetof(fathom_hit, primitive) || i >= offsetof(fathom_hit, classification))
                if (bytes[i] != 0) fz_broken(function, "a miss's fields are not 0");
        return;
    }
    if (h->primitive >= c->info.triangle_count) fz_broken(function, "a hit's primitive is not a triangle");
    if (!(h->t >= tmin && h->t <= tmax)) fz_broken(function, "a hit's t is outside [tmin, tmax]");
    if (h->classification != (c->classes ? c->classes[h->primitive] : 0))
        fz_broken(function, "a hit's classification is not its triangle's");
    if (fz_bool_byte(&h->front_face) > 1 || h->reserved[0] || h->reserved[1])
        fz_broken(function, "front_face or reserved out of form");
    /* The hit is where the ray meets the triangle: finite t, u and v; a point of the triangle (within its
     * bounds, up to rounding); and, unless the ray runs (nearly) in the triangle's plane, where t puts it:
     * origin + t * direction, up to rounding amplified by the grazing angle. */
    const uint32_t *tri = c->indices + 3 * h->primitive;
    const float *p = &h->point.x, *o = &ray->origin.x, *d = &ray->direction.x;
    if (!isfinite(h->t) || !isfinite(h->u) || !isfinite(h->v)) {
        print_hit(h, ray, c);
        fz_broken(function, "a hit's t, u or v is not finite");
    }
    const float *a = c->vertices + 3 * tri[0], *b = c->vertices + 3 * tri[1], *e = c->vertices + 3 * tri[2];
    double e1[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
    double e2[3] = {(double)e[0] - a[0], (double)e[1] - a[1], (double)e[2] - a[2]};
    double normal[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    double nl = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    double dl = sqrt((double)d[0] * d[0] + (double)d[1] * d[1] + (double)d[2] * d[2]);
    if (nl == 0) {
        print_hit(h, ray, c);
        fz_broken(function, "a degenerate (zero-area) triangle was hit");
    }
    /* Barycentrics of a point of the triangle, up to rounding. */
    if (!(h->u >= -1e-5f && h->v >= -1e-5f && h->u + h->v <= 1 + 1e-5f)) {
        print_hit(h, ray, c);
        fz_broken(function, "a hit's u, v are not barycentrics of a point of the triangle");
    }
    double sine = fabs(normal[0] * d[0] + normal[1] * d[1] + normal[2] * d[2]) / (nl * dl);
    /* Rounding in the ray's shear frame is relative to the largest magnitude in play, on any axis (the vertices
     * are taken relative to the origin there). */
    double magnitude = 0;
    for (int k = 0; k < 3; k++) {
        double m = fabs((double)o[k]) + fabs((double)h->t * d[k]) + fabs((double)a[k]) + fabs((double)b[k]) + fabs((double)e[k]);
        magnitude = m > magnitude ? m : magnitude;
    }
    for (int k = 0; k < 3; k++) {
        double lo = a[k], hi = a[k];
        lo = b[k] < lo ? b[k] : lo;
        lo = e[k] < lo ? e[k] : lo;
        hi = b[k] > hi ? b[k] : hi;
        hi = e[k] > hi ? e[k] : hi;
        double scale = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);
        double along = (double)o[k] + (double)h->t * d[k];
        double slack = 1e-5 * scale + 1e-37;
        int off_triangle = !((double)p[k] >= lo - slack && (double)p[k] <= hi + slack);
        /* The edge functions round by about eps * magnitude^2 each, and their sum (twice the triangle's projected
         * area, nl * sine) divides: a sliver far from the origin has a t good to little. */
        double slack_ray = (1e-5 * magnitude + 1e-6 * magnitude * magnitude * magnitude / nl) / sine + 1e-37;
        int off_ray = sine >= 1e-3 && !(fabs(along - p[k]) <= slack_ray);
        if (off_triangle || off_ray) {
            print_hit(h, ray, c);
            fprintf(stderr, "axis %d: triangle [%.9g, %.9g], origin + t * direction %.9g, sine of the angle to the plane %.3g\n", k,
                    lo, hi, along, sine);
            fz_broken(function, off_triangle ? "a hit's point is outside its triangle" : "a hit's point is not origin + t * direction");
        }
    }
    /* front_face: the ray meets the side the normal points to, where the sign is clear. */
    double facing = ((double)h->normal.x * d[0] + (double)h->normal.y * d[1] + (double)h->normal.z * d[2]) / dl;
    if ((facing < -1e-3 && h->front_face != 1) || (facing > 1e-3 && h->front_face != 0)) {
        print_hit(h, ray, c);
        fz_broken(function, "front_face disagrees with the normal");
    }
    double n = sqrt((double)h->normal.x * h->normal.x + (double)h->normal.y * h->normal.y + (double)h->normal.z * h->normal.z);
    if (!(fabs(n - 1) <= 1e-3)) {
        print_hit(h, ray, c);
        fz_broken(function, "a hit's normal is not unit");
    }
}

/** Where the ray meets the plane of hit h's triangle, in double: the exact t the float test rounds. */
static double plane_t(const fathom_hit *h, const fathom_ray *ray, const mesh_contents *c) {
    const uint32_t *tri = c->indices + 3 * h->primitive;
    const float *a = c->vertices + 3 * tri[0], *b = c->vertices + 3 * tri[1], *e = c->vertices + 3 * tri[2];
    const float *o = &ray->origin.x, *d = &ray->direction.x;
    double e1[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
    double e2[3] = {(double)e[0] - a[0], (double)e[1] - a[1], (double)e[2] - a[2]};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    double along = 0, toward = 0;
    for (int k = 0; k < 3; k++) {
        along += n[k] * ((double)a[k] - o[k]);
        toward += n[k] * d[k];
    }
    return along / toward;
}

/** fathom_mesh_intersect's hit against the first of intersect_all's crossings (both computed hits, so the closest hit
 *  is one of the list, and none is nearer than it). Computed t rounds: a crossing the float test puts nearer may be
 *  farther in exact arithmetic, so "nearer" is judged on the exact plane distances, up to each hit's own rounding. */
static void check_closest(const fathom_hit *hit, const fathom_hit *all, size_t count, const fathom_ray *ray,
                          const mesh_contents *c) {
    int listed = 0;
    for (size_t i = 0; i < count; i++) listed |= all[i].t == hit->t;
    double exact_hit = plane_t(hit, ray, c), exact_first = plane_t(&all[0], ray, c);
    double rounding = fabs(hit->t - exact_hit) + fabs(all[0].t - exact_first);
    int nearer = exact_first < exact_hit - rounding - 1e-9 * (fabs(exact_hit) + fabs(exact_first));
    if (!listed || nearer) {
        print_hit(hit, ray, c);
        for (size_t i = 0; i < count; i++) print_hit(&all[i], ray, c);
        fprintf(stderr, "exact plane t: closest hit %.9g, first crossing %.9g\n", exact_hit, exact_first);
        fz_broken("fathom_mesh_intersect_all", !listed ? "the closest hit is not among the crossings"
                                                        : "a crossing is nearer than the closest hit");
    }
}

/** intersect, occluded and intersect_all on one ray, checked against each other. Returns the status. */
static fathom_status one_ray(fz_input *in, const fathom_mesh *mesh, const mesh_contents *c, const fathom_ray *ray,
                             float tmin, float tmax) {
    int valid = ray_valid(ray) && range_valid(tmin, tmax);
    fathom_hit hit;
    fz_poison(&hit, sizeof hit);
    fathom_status s = FZ(fathom_mesh_intersect, mesh, ray, tmin, tmax, &hit);
    fz_untouched(s, "fathom_mesh_intersect", &hit, sizeof hit);
    if ((s == FATHOM_OK) != valid) fz_broken("fathom_mesh_intersect", valid ? "a valid ray failed" : "an invalid ray or range was accepted");
    if (s != FATHOM_OK) mesh_same(mesh, &c->info, "fathom_mesh_intersect");
    else check_hit("fathom_mesh_intersect", &hit, ray, tmin, tmax, c);

    /* The bool out at occluded[0]; the bytes after it must stay poison (the call stores one byte). */
    uint8_t occluded[8];
    fz_poison(occluded, sizeof occluded);
    fathom_status s2 = FZ(fathom_mesh_occluded, mesh, ray, tmin, tmax, (bool *)(void *)occluded);
    fz_untouched(s2, "fathom_mesh_occluded", occluded, sizeof occluded);
    fz_untouched_past("fathom_mesh_occluded", occluded + 1, sizeof occluded - 1);
    if (s2 != s) fz_broken("fathom_mesh_occluded", "a status other than fathom_mesh_intersect's");
    /* The byte written: 1 (true) exactly when fathom_mesh_intersect hits, else 0 (false), nothing else. */
    if (s2 == FATHOM_OK && occluded[0] != (hit.primitive != FATHOM_NO_HIT))
        fz_broken("fathom_mesh_occluded", "disagrees with fathom_mesh_intersect");

    /* All crossings: a fuzzed capacity (0 with NULL asks for the count), then enough. */
    size_t capacity = fz_count(in, 4);
    fathom_hit *all = fz_malloc((capacity + 2) * sizeof *all);
    size_t count;
    fz_poison(all, (capacity + 2) * sizeof *all);
    fz_poison(&count, sizeof count);
    s2 = FZ(fathom_mesh_intersect_all, mesh, ray, tmin, tmax, capacity == 0 && fz_u8(in) < 128 ? NULL : all, capacity,
            &count);
    if (s2 == FATHOM_ERR_BUFFER_TOO_SMALL) {
        if (s != FATHOM_OK || count <= capacity) fz_broken("fathom_mesh_intersect_all", "BUFFER_TOO_SMALL with room enough");
        fz_untouched(s2, "fathom_mesh_intersect_all (past capacity)", all + capacity, 2 * sizeof *all);
    } else {
        fz_untouched(s2, "fathom_mesh_intersect_all", all, (capacity + 2) * sizeof *all);
        fz_untouched(s2, "fathom_mesh_intersect_all", &count, sizeof count);
        if (s2 != s) fz_broken("fathom_mesh_intersect_all", "a status other than fathom_mesh_intersect's");
        if (s2 == FATHOM_OK) {
            if (count > capacity) fz_broken("fathom_mesh_intersect_all", "more crossings than capacity, yet OK");
            fz_untouched_past("fathom_mesh_intersect_all (past count)", all + count,
                              (capacity + 2 - count) * sizeof *all);
        }
    }
    if (s == FATHOM_OK) {
        if (count > 4 * c->info.triangle_count + 4) fz_broken("fathom_mesh_intersect_all", "more crossings than triangles");
        if ((count > 0) != (hit.primitive != FATHOM_NO_HIT))
            fz_broken("fathom_mesh_intersect_all", "disagrees with fathom_mesh_intersect on hit or miss");
        /* The whole list, and the prefix written before must be its start. */
        fathom_hit *full = fz_malloc((count + 1) * sizeof *full);
        size_t count2;
        fz_poison(full, (count + 1) * sizeof *full);
        fathom_status s3 = FZ(fathom_mesh_intersect_all, mesh, ray, tmin, tmax, full, count, &count2);
        if (s3 != FATHOM_OK || count2 != count) fz_broken("fathom_mesh_intersect_all", "not the same crossings twice");
        size_t written = count < capacity ? count : capacity;
        if (memcmp(full, all, written * sizeof *full) != 0)
            fz_broken("fathom_mesh_intersect_all", "the first `capacity` crossings are not the list's start");
        for (size_t i = 0; i < count; i++) {
            check_hit("fathom_mesh_intersect_all", &full[i], ray, tmin, tmax, c);
            if (full[i].primitive == FATHOM_NO_HIT) fz_broken("fathom_mesh_intersect_all", "a miss in the list");
            if (i > 0 && !(full[i - 1].t <= full[i].t)) fz_broken("fathom_mesh_intersect_all", "not sorted by t");
        }
        if (count > 0) check_closest(&hit, full, count, ray, c);
        free(full);
    }
    free(all);
    return s;
}

/** The batch calls, each result compared with the one-ray call's. */
static void batches(fz_input *in, const fathom_mesh *mesh, const mesh_contents *c, const fathom_ray *rays, size_t n) {
    fathom_batch_options options;
    if (fathom_batch_options_init(&options) != FATHOM_OK) fz_broken("fathom_batch_options_init", "failed");
    uint8_t kind = fz_u8(in);
    const fathom_batch_options *opt = kind < 64 ? NULL : &options;
    if (kind >= 252) options.reserved[kind % 4] = kind; /* a reserved word set: refused */
    fuzz_range(in, &options.tmin, &options.tmax);
    uint8_t threads = fz_u8(in);
    options.threads = threads < 200 ? threads % 3 : threads < 250 ? 1024u + threads % 2 : fz_u32(in);
    float tmin = opt ? options.tmin : 0, tmax = opt ? options.tmax : INFINITY;
    int valid = !opt || (range_valid(tmin, tmax) && options.threads <= 1024 &&
                         fz_all_zero(options.reserved, sizeof options.reserved));
    for (size_t i = 0; i < n; i++) valid = valid && ray_valid(&rays[i]);
    /* A NULL argument sometimes; count 0 (with real buffers: whether it may check more is not said). */
    uint8_t null = fz_u8(in) % 16;
    size_t count = null == 1 ? 0 : n;
    const fathom_mesh *m = null == 2 ? NULL : mesh;
    const fathom_ray *r = null == 3 ? NULL : rays;
    int args_valid = valid && m && r; /* all but the outputs */

    /* The one-ray answers, with the batch's range. */
    fathom_hit single[MAX_RAYS];
    bool single_occluded[MAX_RAYS];
    fathom_hit *single_all[MAX_RAYS];
    size_t single_count[MAX_RAYS];
    size_t total = 0;
    if (valid) {
        for (size_t i = 0; i < count; i++) {
            if (FZ(fathom_mesh_intersect, mesh, &rays[i], tmin, tmax, &single[i]) != FATHOM_OK ||
                FZ(fathom_mesh_occluded, mesh, &rays[i], tmin, tmax, &single_occluded[i]) != FATHOM_OK)
                fz_broken("fathom_mesh_intersect", "a valid ray failed");
            fathom_status s = FZ(fathom_mesh_intersect_all, mesh, &rays[i], tmin, tmax, NULL, 0, &single_count[i]);
            if (s != FATHOM_OK && s != FATHOM_ERR_BUFFER_TOO_SMALL)
                fz_broken("fathom_mesh_intersect_all", "asking for the count (NULL, capacity 0) failed");
            single_all[i] = fz_malloc((single_count[i] + 1) * sizeof(fathom_hit));
            size_t again;
            if (FZ(fathom_mesh_intersect_all, mesh, &rays[i], tmin, tmax, single_all[i], single_count[i], &again) != FATHOM_OK ||
                again != single_count[i])
                fz_broken("fathom_mesh_intersect_all", "failed with enough capacity");
            total += single_count[i];
        }
    }

    fathom_hit hits[MAX_RAYS + 1];
    fz_poison(hits, sizeof hits);
    int out_null = null == 4;
    fathom_status s = FZ(fathom_mesh_intersect_batch, m, r, count, opt, out_null ? NULL : hits);
    fz_untouched(s, "fathom_mesh_intersect_batch", hits, sizeof hits);
    if (count > 0 && (s == FATHOM_OK) != (args_valid && !out_null))
        fz_broken("fathom_mesh_intersect_batch", s == FATHOM_OK ? "an invalid argument was accepted" : "valid rays failed");
    if (count > 0 && s != FATHOM_OK && args_valid && out_null && s != FATHOM_ERR_NULL_POINTER)
        fz_broken("fathom_mesh_intersect_batch", "NULL out was not FATHOM_ERR_NULL_POINTER");
    if (s == FATHOM_OK) {
        if (count && memcmp(hits, single, count * sizeof *hits) != 0)
            fz_broken("fathom_mesh_intersect_batch", "a result differs from fathom_mesh_intersect's");
        fz_untouched_past("fathom_mesh_intersect_batch (past count)", hits + count, (MAX_RAYS + 1 - count) * sizeof *hits);
    } else {
        mesh_same(mesh, &c->info, "fathom_mesh_intersect_batch");
    }

    bool occluded[MAX_RAYS + 1];
    fz_poison(occluded, sizeof occluded);
    out_null = null == 5;
    s = FZ(fathom_mesh_occluded_batch, m, r, count, opt, out_null ? NULL : occluded);
    fz_untouched(s, "fathom_mesh_occluded_batch", occluded, sizeof occluded);
    if (count > 0 && (s == FATHOM_OK) != (args_valid && !out_null))
        fz_broken("fathom_mesh_occluded_batch", s == FATHOM_OK ? "an invalid argument was accepted" : "valid rays failed");
    if (count > 0 && s != FATHOM_OK && args_valid && out_null && s != FATHOM_ERR_NULL_POINTER)
        fz_broken("fathom_mesh_occluded_batch", "NULL out was not FATHOM_ERR_NULL_POINTER");
    if (s == FATHOM_OK) {
        if (count && memcmp(occluded, single_occluded, count * sizeof *occluded) != 0)
            fz_broken("fathom_mesh_occluded_batch", "a result differs from fathom_mesh_occluded's");
        fz_untouched_past("fathom_mesh_occluded_batch (past count)", occluded + count,
                          (MAX_RAYS + 1 - count) * sizeof *occluded);
    } else {
        mesh_same(mesh, &c->info, "fathom_mesh_occluded_batch");
    }

    /* All crossings: a fuzzed capacity, too small or enough. */
    size_t capacity = fz_u8(in) < 128 ? total + fz_u8(in) % 3 : fz_count(in, total + 2);
    fathom_hit *all = fz_malloc((capacity + 1) * sizeof *all);
    uint64_t offsets[MAX_RAYS + 2];
    fz_poison(all, (capacity + 1) * sizeof *all);
    fz_poison(offsets, sizeof offsets);
    int hits_null = null == 6 && total > 0 && capacity >= total, offsets_null = null == 7;
    s = FZ(fathom_mesh_intersect_all_batch, m, r, count, opt, hits_null ? NULL : all, capacity,
           offsets_null ? NULL : offsets);
    int valid_all = args_valid && !hits_null && !offsets_null;
    if (s == FATHOM_ERR_BUFFER_TOO_SMALL) {
        if (!args_valid || offsets_null || capacity >= total)
            fz_broken("fathom_mesh_intersect_all_batch", "BUFFER_TOO_SMALL with room enough");
        fz_untouched(s, "fathom_mesh_intersect_all_batch (hits)", all, (capacity + 1) * sizeof *all);
    } else {
        fz_untouched(s, "fathom_mesh_intersect_all_batch", all, (capacity + 1) * sizeof *all);
        fz_untouched(s, "fathom_mesh_intersect_all_batch", offsets, sizeof offsets);
        if (count > 0 && (s == FATHOM_OK) != (valid_all && capacity >= total))
            fz_broken("fathom_mesh_intersect_all_batch", s == FATHOM_OK ? "an invalid argument was accepted" : "valid rays failed");
        if (count > 0 && s != FATHOM_OK && args_valid && (hits_null || offsets_null) && s != FATHOM_ERR_NULL_POINTER)
            fz_broken("fathom_mesh_intersect_all_batch", "a NULL output was not FATHOM_ERR_NULL_POINTER");
    }
    if (s == FATHOM_OK || s == FATHOM_ERR_BUFFER_TOO_SMALL) {
        if (offsets[0] != 0) fz_broken("fathom_mesh_intersect_all_batch", "out_offsets[0] is not 0");
        if (valid)
            for (size_t i = 0; i < count; i++)
                if (offsets[i + 1] < offsets[i] || offsets[i + 1] - offsets[i] != single_count[i])
                    fz_broken("fathom_mesh_intersect_all_batch", "a ray's crossings differ in number from fathom_mesh_intersect_all's");
        fz_untouched_past("fathom_mesh_intersect_all_batch (past count + 1 offsets)", offsets + count + 1,
                          (MAX_RAYS + 1 - count) * sizeof *offsets);
    } else {
        mesh_same(mesh, &c->info, "fathom_mesh_intersect_all_batch");
    }
    if (s == FATHOM_OK && valid) {
        for (size_t i = 0; i < count; i++)
            if (single_count[i] && memcmp(all + offsets[i], single_all[i], single_count[i] * sizeof *all) != 0)
                fz_broken("fathom_mesh_intersect_all_batch", "a ray's crossings differ from fathom_mesh_intersect_all's");
        fz_untouched_past("fathom_mesh_intersect_all_batch (past the total)", all + total, (capacity + 1 - total) * sizeof *all);
    }
    if (valid)
        for (size_t i = 0; i < count; i++) free(single_all[i]);
    free(all);
}

/* ---------------------------------------------------------------------------------------------- */
/* Making the mesh                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/** Huge counts whose sizes overflow, with NULL or small buffers: refused before anything is read. */
static void overflowing_counts(fz_input *in) {
    float vertices[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    uint32_t indices[3] = {0, 1, 2};
    fathom_mesh *mesh;
    fathom_status s;
    uint8_t kind = fz_u8(in);
    fz_poison(&mesh, sizeof mesh);
    if (kind & 1) {
        /* vertex_count * stride overflows */
        size_t stride = 12 + 4 * (size_t)(fz_u8(in) % 4);
        size_t count = SIZE_MAX / stride + 1 + fz_u8(in);
        s = FZ(fathom_mesh_create, kind & 2 ? NULL : vertices, count, stride, indices, 1, NULL, FATHOM_MESH_COPY, &mesh);
        if (s == FATHOM_OK) fz_broken("fathom_mesh_create", "an overflowing vertex_count was accepted");
        if (!(kind & 2) && s != FATHOM_ERR_OVERFLOW) fz_broken("fathom_mesh_create", "an overflowing vertex_count was not FATHOM_ERR_OVERFLOW");
    } else {
        /* triangle_count * 12 overflows, or is above 2^28 - 1 (then with NULL indices). */
        size_t count = kind & 4 ? ((size_t)1 << 28) + fz_u8(in) : SIZE_MAX / 12 + 1 + fz_u8(in);
        int null = (kind & 4) || (kind & 2);
        s = FZ(fathom_mesh_create, vertices, 4, 12, null ? NULL : indices, count, NULL, FATHOM_MESH_COPY, &mesh);
        if (s == FATHOM_OK) fz_broken("fathom_mesh_create", "a triangle_count too large was accepted");
        if (!null && s != FATHOM_ERR_OVERFLOW) fz_broken("fathom_mesh_create", "an overflowing triangle_count was not FATHOM_ERR_OVERFLOW");
    }
    fz_untouched(s, "fathom_mesh_create", &mesh, sizeof mesh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    uint8_t mode = fz_u8(&in);
    uint32_t flags = mode & 1 ? FATHOM_MESH_BORROW : mode & 0x20 ? FATHOM_MESH_COMPACT : FATHOM_MESH_COPY;
    int with_classes = (mode >> 1) & 1;
    if ((mode & 0xF0) == 0xF0) flags = fz_u32(&in); /* any flags */

    /* The vertex buffer: a stride in bytes (valid ones mostly), sometimes misaligned. */
    uint8_t stride_kind = fz_u8(&in);
    size_t stride = stride_kind < 220 ? 12 + 4 * (size_t)(stride_kind % 4) : (size_t)fz_u8(&in);
    size_t vertex_count = fz_count(&in, MAX_VERTICES), triangle_count = fz_count(&in, MAX_TRIANGLES);
    size_t misalign = (mode & 0x1C) == 0x1C ? 1 + fz_u8(&in) % 3 : 0;
    size_t step = stride > 12 ? stride : 12;
    size_t bytes = vertex_count * step + 16;
    uint8_t *buffer = fz_malloc(bytes + 4);
    size_t float_count = (bytes - misalign) / 4;
    for (size_t i = 0; i < float_count; i++) {
        float f = fz_float(&in);
        memcpy(buffer + misalign + 4 * i, &f, 4);
    }
    memset(buffer + misalign + 4 * float_count, 0, bytes + 4 - misalign - 4 * float_count);
    const float *vertices = (const float *)(void *)(buffer + misalign);

    uint32_t *indices = fz_malloc(3 * triangle_count * sizeof(uint32_t));
    int bad_index = 0;
    for (size_t i = 0; i < 3 * triangle_count; i++) {
        uint8_t k = fz_u8(&in);
        indices[i] = k < 250 && vertex_count ? fz_u8(&in) % (uint32_t)vertex_count
                     : k < 253               ? (uint32_t)vertex_count + k % 3
                                             : fz_u32(&in);
        bad_index |= indices[i] >= vertex_count;
    }
    uint8_t *classes = fz_malloc(triangle_count);
    int bad_class = 0;
    for (size_t i = 0; i < triangle_count; i++) {
        uint8_t k = fz_u8(&in);
        classes[i] = k < 250 ? fz_u8(&in) % 8 : fz_u8(&in);
        bad_class |= classes[i] > FATHOM_CLASS_DOOR;
    }
    if (!with_classes) bad_class = 0;

    /* NULL arguments, sometimes. */
    uint8_t null = fz_u8(&in);
    const float *vertex_arg = null == 1 || (vertex_count == 0 && null < 128) ? NULL : vertices;
    const uint32_t *index_arg = null == 2 || (triangle_count == 0 && null < 128) ? NULL : indices;
    int out_null = null == 3;

    /* What the header allows. */
    int bad_range = flags > FATHOM_MESH_COMPACT || bad_index || bad_class ||
                    (vertex_count > 0 && (stride < 12 || stride % 4 != 0 || misalign != 0));
    int bad_null = out_null || (vertex_count > 0 && !vertex_arg) || (triangle_count > 0 && !index_arg);
    int bad_finite = 0;
    if (vertex_count > 0 && !(stride < 12 || stride % 4 != 0)) {
        for (size_t i = 0; i < vertex_count; i++) {
            float v[3];
            memcpy(v, buffer + misalign + i * stride, sizeof v);
            if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) bad_finite = 1;
        }
    }

    fathom_mesh *mesh;
    fz_poison(&mesh, sizeof mesh);
    fathom_status s = FZ(fathom_mesh_create, vertex_arg, vertex_count, stride, index_arg, triangle_count,
                         with_classes ? classes : NULL, flags, out_null ? NULL : &mesh);
    fz_untouched(s, "fathom_mesh_create", &mesh, sizeof mesh);
    int faults = bad_range + bad_null + bad_finite;
    /* No vertices (the point-buffer convention asks count >= 1), or NULL indices for no triangles (not said to be
     * allowed): either answer is taken. */
    int either = faults == 0 && (vertex_count == 0 || !index_arg);
    if (either && s != FATHOM_OK && s != FATHOM_ERR_OUT_OF_RANGE && s != FATHOM_ERR_NULL_POINTER)
        fz_broken("fathom_mesh_create", "an empty vertex or index buffer failed with an unexpected status");
    if (!either && (s == FATHOM_OK) != (faults == 0))
        fz_broken("fathom_mesh_create", faults ? "invalid arguments were accepted" : "valid arguments failed");
    if (faults == 1) {
        fathom_status expected = bad_range ? FATHOM_ERR_OUT_OF_RANGE : bad_null ? FATHOM_ERR_NULL_POINTER : FATHOM_ERR_NOT_FINITE;
        if (s != expected) fz_broken("fathom_mesh_create", "not the status of its one bad argument");
    }
    if (fz_u8(&in) == 0) overflowing_counts(&in);

    if (s == FATHOM_OK) {
        /* The input as given, packed, for the getters; then the buffers the mesh copied are overwritten (a
         * COPY or COMPACT mesh's caller may free them at once; index and class buffers are always copied). */
        float *given = fz_malloc(3 * vertex_count * sizeof(float));
        for (size_t i = 0; i < vertex_count; i++) memcpy(given + 3 * i, buffer + misalign + i * stride, 3 * sizeof(float));
        uint32_t *given_indices = fz_malloc(3 * triangle_count * sizeof(uint32_t));
        memcpy(given_indices, indices, 3 * triangle_count * sizeof(uint32_t));
        uint8_t *given_classes = fz_malloc(triangle_count);
        memcpy(given_classes, classes, triangle_count);
        if (flags != FATHOM_MESH_BORROW) memset(buffer, 0xEE, bytes + 4);
        memset(indices, 0xEE, 3 * triangle_count * sizeof(uint32_t));
        memset(classes, 0xEE, triangle_count);

        mesh_contents c = mesh_read(&in, mesh);
        if (c.info.vertex_count != vertex_count || c.info.triangle_count != triangle_count)
            fz_broken("fathom_mesh_get_info", "counts are not those given");
        if (memcmp(c.vertices, given, 3 * vertex_count * sizeof(float)) != 0)
            fz_broken("fathom_mesh_vertices", "not the vertices given");
        if (memcmp(c.indices, given_indices, 3 * triangle_count * sizeof(uint32_t)) != 0)
            fz_broken("fathom_mesh_triangles", "not the triangles given");
        if (c.classes && memcmp(c.classes, given_classes, triangle_count) != 0)
            fz_broken("fathom_mesh_classes", "not the classes given");
        free(given);
        free(given_indices);
        free(given_classes);
        if ((c.classes != NULL) != (with_classes != 0)) fz_broken("fathom_mesh_classes", "classes present or not as given");

        face_geometry(&in, mesh, &c);
        size_t n = fz_count(&in, MAX_RAYS);
        fathom_ray rays[MAX_RAYS];
        for (size_t i = 0; i < n; i++) {
            rays[i] = fuzz_ray(&in, &c);
            float tmin, tmax;
            fuzz_range(&in, &tmin, &tmax);
            one_ray(&in, mesh, &c, &rays[i], tmin, tmax);
        }
        if (n > 0) batches(&in, mesh, &c, rays, n);

        /* NULL mesh, ray and outputs. */
        if (n > 0 && fz_u8(&in) < 16) {
            fathom_hit hit;
            bool occluded;
            size_t count;
            fathom_mesh_info info;
            fathom_ray good = {{0, 0, 0}, {0, 0, 1}};
            fz_poison(&hit, sizeof hit);
            fz_poison(&occluded, sizeof occluded);
            fz_poison(&count, sizeof count);
            fz_poison(&info, sizeof info);
            if (FZ(fathom_mesh_intersect, NULL, &good, 0, INFINITY, &hit) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_intersect, mesh, NULL, 0, INFINITY, &hit) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_intersect, mesh, &good, 0, INFINITY, NULL) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_occluded, NULL, &good, 0, INFINITY, &occluded) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_occluded, mesh, NULL, 0, INFINITY, &occluded) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_occluded, mesh, &good, 0, INFINITY, NULL) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_intersect_all, NULL, &good, 0, INFINITY, &hit, 1, &count) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_intersect_all, mesh, NULL, 0, INFINITY, &hit, 1, &count) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_intersect_all, mesh, &good, 0, INFINITY, &hit, 1, NULL) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_get_info, NULL, &info) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_get_info, mesh, NULL) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_vertices, NULL, c.vertices, vertex_count) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_triangles, NULL, c.indices, triangle_count) != FATHOM_ERR_NULL_POINTER ||
                FZ(fathom_mesh_classes, NULL, c.classes, triangle_count) != FATHOM_ERR_NULL_POINTER)
                fz_broken("fathom_mesh_*", "a NULL argument was not FATHOM_ERR_NULL_POINTER");
            fz_untouched_past("fathom_mesh_*", &hit, sizeof hit);
            fz_untouched_past("fathom_mesh_*", &occluded, sizeof occluded);
            fz_untouched_past("fathom_mesh_*", &count, sizeof count);
            fz_untouched_past("fathom_mesh_*", &info, sizeof info);
            mesh_same(mesh, &c.info, "fathom_mesh_*");
        }

        round_trip(&in, mesh, &c);
        mesh_contents_free(&c);
        fathom_mesh_destroy(mesh);
    }
    free(buffer);
    free(indices);
    free(classes);
    return 0;
}
