/*
 * mesh_checks.h — what the mesh targets (fuzz_mesh_arrays, fuzz_mesh_file) check of every mesh they make: its
 * getters (capacities too small first, NULL outputs, nothing written past the count), its info against them, a
 * failed call leaving it as it was, and the round trip through a file. Include after fuzz.h.
 */
#ifndef FATHOM_FUZZ_MESH_CHECKS_H
#define FATHOM_FUZZ_MESH_CHECKS_H

#include "fuzz.h"

#include <unistd.h>

/** A mesh's contents as its getters report them (malloc'd arrays, freed by mesh_contents_free). */
typedef struct mesh_contents {
    fathom_mesh_info info;
    float *vertices;     /* vertex_count * 3 */
    uint32_t *indices;   /* triangle_count * 3 */
    uint8_t *classes;    /* triangle_count, or NULL when the mesh has none */
} mesh_contents;

static inline void mesh_contents_free(mesh_contents *c) {
    free(c->vertices);
    free(c->indices);
    free(c->classes);
}

/** Reads a mesh back through its getters, checking capacities (too small first: nothing written) and NULLs. */
static inline mesh_contents mesh_read(fz_input *in, const fathom_mesh *mesh) {
    mesh_contents c;
    fathom_status s;
    fz_poison(&c.info, sizeof c.info);
    s = FZ(fathom_mesh_get_info, mesh, &c.info);
    if (s != FATHOM_OK) fz_broken("fathom_mesh_get_info", "failed on a valid mesh");
    size_t vc = (size_t)c.info.vertex_count, tc = (size_t)c.info.triangle_count;
    if (vc > (1u << 24) || tc > (1u << 24)) fz_broken("fathom_mesh_get_info", "implausible counts");
    if (!fz_all_zero(c.info.reserved, sizeof c.info.reserved)) fz_broken("fathom_mesh_get_info", "the reserved words are not 0");

    /* Vertices: a capacity too small, then enough (a little more: what is past vertex_count stays as it was). */
    size_t extra = fz_u8(in) % 3;
    c.vertices = fz_malloc((vc + extra) * 3 * sizeof(float));
    if (vc > 0) {
        size_t small = fz_count(in, vc - 1);
        fz_poison(c.vertices, (vc + extra) * 3 * sizeof(float));
        s = FZ(fathom_mesh_vertices, mesh, c.vertices, small);
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_broken("fathom_mesh_vertices", "a capacity too small was not refused");
        fz_untouched(s, "fathom_mesh_vertices", c.vertices, (vc + extra) * 3 * sizeof(float));
        if (fz_u8(in) < 16) {
            s = FZ(fathom_mesh_vertices, mesh, NULL, vc + extra);
            if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_mesh_vertices", "NULL out was not refused");
        }
    }
    fz_poison(c.vertices, (vc + extra) * 3 * sizeof(float));
    s = FZ(fathom_mesh_vertices, mesh, vc == 0 && fz_u8(in) < 128 ? NULL : c.vertices, vc + extra);
    if (s != FATHOM_OK) fz_broken("fathom_mesh_vertices", "failed with enough capacity");
    fz_untouched_past("fathom_mesh_vertices (past vertex_count)", c.vertices + 3 * vc,
                      extra * 3 * sizeof(float));

    extra = fz_u8(in) % 3;
    c.indices = fz_malloc((tc + extra) * 3 * sizeof(uint32_t));
    if (tc > 0) {
        size_t small = fz_count(in, tc - 1);
        fz_poison(c.indices, (tc + extra) * 3 * sizeof(uint32_t));
        s = FZ(fathom_mesh_triangles, mesh, c.indices, small);
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_broken("fathom_mesh_triangles", "a capacity too small was not refused");
        fz_untouched(s, "fathom_mesh_triangles", c.indices, (tc + extra) * 3 * sizeof(uint32_t));
        if (fz_u8(in) < 16) {
            s = FZ(fathom_mesh_triangles, mesh, NULL, tc + extra);
            if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_mesh_triangles", "NULL out was not refused");
        }
    }
    fz_poison(c.indices, (tc + extra) * 3 * sizeof(uint32_t));
    s = FZ(fathom_mesh_triangles, mesh, tc == 0 && fz_u8(in) < 128 ? NULL : c.indices, tc + extra);
    if (s != FATHOM_OK) fz_broken("fathom_mesh_triangles", "failed with enough capacity");
    fz_untouched_past("fathom_mesh_triangles (past triangle_count)", c.indices + 3 * tc,
                      extra * 3 * sizeof(uint32_t));
    for (size_t i = 0; i < 3 * tc; i++)
        if (c.indices[i] >= vc) fz_broken("fathom_mesh_triangles", "an index out of range");

    extra = fz_u8(in) % 3;
    c.classes = fz_malloc(tc + extra);
    if (tc > 0) {
        size_t small = fz_count(in, tc - 1);
        fz_poison(c.classes, tc + extra);
        s = FZ(fathom_mesh_classes, mesh, c.classes, small);
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL && s != FATHOM_ERR_NO_DATA)
            fz_broken("fathom_mesh_classes", "a capacity too small was not refused");
        fz_untouched(s, "fathom_mesh_classes", c.classes, tc + extra);
    }
    fz_poison(c.classes, tc + extra);
    s = FZ(fathom_mesh_classes, mesh, c.classes, tc + extra); /* (not said to take NULL for no triangles) */
    fz_untouched(s, "fathom_mesh_classes", c.classes, tc + extra);
    if (s == FATHOM_ERR_NO_DATA) {
        free(c.classes);
        c.classes = NULL;
    } else if (s != FATHOM_OK) {
        fz_broken("fathom_mesh_classes", "failed with enough capacity");
    } else {
        fz_untouched_past("fathom_mesh_classes (past triangle_count)", c.classes + tc, extra);
        for (size_t i = 0; i < tc; i++)
            if (c.classes[i] > FATHOM_CLASS_DOOR) fz_broken("fathom_mesh_classes", "a class above 7");
    }

    /* The info's bounds are those of every vertex. */
    fathom_vec3 lo = {0, 0, 0}, hi = {0, 0, 0};
    for (size_t i = 0; i < vc; i++) {
        const float *v = c.vertices + 3 * i;
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) fz_broken("fathom_mesh_vertices", "a vertex is not finite");
        if (i == 0 || v[0] < lo.x) lo.x = v[0];
        if (i == 0 || v[1] < lo.y) lo.y = v[1];
        if (i == 0 || v[2] < lo.z) lo.z = v[2];
        if (i == 0 || v[0] > hi.x) hi.x = v[0];
        if (i == 0 || v[1] > hi.y) hi.y = v[1];
        if (i == 0 || v[2] > hi.z) hi.z = v[2];
    }
    if (lo.x != c.info.bounds_min.x || lo.y != c.info.bounds_min.y || lo.z != c.info.bounds_min.z ||
        hi.x != c.info.bounds_max.x || hi.y != c.info.bounds_max.y || hi.z != c.info.bounds_max.z)
        fz_broken("fathom_mesh_get_info", "bounds are not those of the vertices");
    if (!(c.info.surface_area >= 0) || !isfinite(c.info.surface_area))
        fz_broken("fathom_mesh_get_info", "surface_area is negative or not finite");
    if (c.info.bvh_width == 0) fz_broken("fathom_mesh_get_info", "bvh_width is 0");
    if (c.info.bvh_bytes > c.info.memory_bytes) fz_broken("fathom_mesh_get_info", "bvh_bytes > memory_bytes");
    return c;
}

/** After a failed call taking the mesh: what it reports is as before. */
static inline void mesh_same(const fathom_mesh *mesh, const fathom_mesh_info *before, const char *function) {
    fathom_mesh_info now;
    if (fathom_mesh_get_info(mesh, &now) != FATHOM_OK || memcmp(&now, before, sizeof now) != 0)
        fz_broken(function, "a failed call changed the mesh");
}

/** Saves `mesh` (whose getters gave `c`) to `path` and loads it back, then removes the file: the save succeeds and
 *  leaves the mesh as it was; the file gives the same vertices bit for bit, the same triangles and bounds, and
 *  through PLY (`ply`) the same classes, through OBJ none; a mesh of no triangles is refused (FATHOM_ERR_NO_DATA). */
static inline void mesh_round_trip(fz_input *in, const fathom_mesh *mesh, const mesh_contents *c, const char *path,
                                   int ply) {
    fathom_status s = FZ(fathom_mesh_save, mesh, path);
    if (s != FATHOM_OK) fz_broken("fathom_mesh_save", "failed on a valid mesh");
    mesh_same(mesh, &c->info, "fathom_mesh_save");
    fathom_mesh *back;
    fz_poison(&back, sizeof back);
    s = FZ(fathom_mesh_load, path, &back);
    fz_untouched(s, "fathom_mesh_load", &back, sizeof back);
    unlink(path);
    /* A file without triangles is no mesh to cast rays at: the load refuses it. */
    if (c->info.triangle_count == 0) {
        if (s != FATHOM_ERR_NO_DATA) fz_broken("fathom_mesh_load", "a saved mesh of no triangles is not FATHOM_ERR_NO_DATA");
        if (s == FATHOM_OK) fathom_mesh_destroy(back);
        return;
    }
    if (s != FATHOM_OK) {
        fprintf(stderr, "reloading %s: %s\n", path, fathom_last_error());
        fz_broken("fathom_mesh_save", "a saved mesh does not load back");
    }
    mesh_contents d = mesh_read(in, back);
    if (d.info.vertex_count != c->info.vertex_count || d.info.triangle_count != c->info.triangle_count)
        fz_broken("fathom_mesh_save", "the counts do not read back");
    size_t vc = (size_t)c->info.vertex_count, tc = (size_t)c->info.triangle_count;
    for (size_t i = 0; i < 3 * vc; i++)
        if (memcmp(&d.vertices[i], &c->vertices[i], sizeof(float)) != 0) {
            uint32_t saved, read;
            memcpy(&saved, &c->vertices[i], sizeof saved);
            memcpy(&read, &d.vertices[i], sizeof read);
            fprintf(stderr, "%s: vertex %zu coordinate %zu: saved %.9g (0x%08x), read back %.9g (0x%08x)\n", path, i / 3,
                    i % 3, (double)c->vertices[i], (unsigned)saved, (double)d.vertices[i], (unsigned)read);
            fz_broken("fathom_mesh_save", "the vertices do not read back bit for bit");
        }
    if (memcmp(d.indices, c->indices, tc * 3 * sizeof(uint32_t)) != 0) fz_broken("fathom_mesh_save", "the triangles do not read back");
    if (ply) {
        if ((c->classes == NULL) != (d.classes == NULL) || (c->classes && memcmp(c->classes, d.classes, tc) != 0))
            fz_broken("fathom_mesh_save", "PLY: the classes do not read back");
    } else if (d.classes) {
        fz_broken("fathom_mesh_load", "an OBJ file gave classes");
    }
    if (memcmp(&d.info.bounds_min, &c->info.bounds_min, sizeof(fathom_vec3)) != 0 ||
        memcmp(&d.info.bounds_max, &c->info.bounds_max, sizeof(fathom_vec3)) != 0)
        fz_broken("fathom_mesh_load", "the reloaded mesh has other bounds");
    mesh_contents_free(&d);
    fathom_mesh_destroy(back);
}

#endif
