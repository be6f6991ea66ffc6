/* Fuzz target: triangle mesh files. The input is written to a file and read with fathom_mesh_load (OBJ or PLY,
 * chosen by its contents: v/f records, negative indices, polygons, comments, vt/vn slots, a BOM; ascii and
 * binary little-endian PLY with float or double vertices, int/uint index lists, a classification property).
 * A mesh that loads is read back through its getters (capacities too small first), checked against the same
 * arrays given to fathom_mesh_create, and saved to .ply and .obj and reloaded: the same vertices bit for bit,
 * the same triangles and (PLY) classes. */
#define _XOPEN_SOURCE 700
#include "fuzz.h"
#include "fuzz_files.h"
#include "mesh_checks.h"

/* The per-process temporary directory, and the files in it. */
#define TEMP_DIR "fathom-fuzz-mesh_file-XXXXXX"
static const char *const temp_names[] = {"input.obj", "out.ply", "out.obj"};

/* fathom_mesh_load for the loading checks of fuzz_files.h (out: a fathom_mesh **). */
static fathom_status load_mesh(const char *path, void *out) { return fathom_mesh_load(path, out); }

/** The loaded arrays given to fathom_mesh_create make a mesh that reports the same. */
static void same_as_created(fz_input *in, const mesh_contents *c) {
    size_t vc = (size_t)c->info.vertex_count, tc = (size_t)c->info.triangle_count;
    fathom_mesh *made;
    fz_poison(&made, sizeof made);
    uint32_t flags = fz_u8(in) & 1 ? FATHOM_MESH_BORROW : FATHOM_MESH_COPY;
    fathom_status s = FZ(fathom_mesh_create, c->vertices, vc, 12, c->indices, tc, c->classes, flags, &made);
    fz_untouched(s, "fathom_mesh_create", &made, sizeof made);
    if (s != FATHOM_OK) fz_broken("fathom_mesh_create", "refused the arrays of a loaded mesh");
    mesh_contents d = mesh_read(in, made);
    if (d.info.vertex_count != vc || d.info.triangle_count != tc ||
        memcmp(&d.info.bounds_min, &c->info.bounds_min, sizeof(fathom_vec3)) != 0 ||
        memcmp(&d.info.bounds_max, &c->info.bounds_max, sizeof(fathom_vec3)) != 0 ||
        !(fabs(d.info.surface_area - c->info.surface_area) <= 1e-9 * c->info.surface_area))
        fz_broken("fathom_mesh_create", "the loaded arrays make a mesh with other sizes, bounds or area");
    if (memcmp(d.vertices, c->vertices, 3 * vc * sizeof(float)) != 0 || memcmp(d.indices, c->indices, 3 * tc * sizeof(uint32_t)) != 0 ||
        (d.classes == NULL) != (c->classes == NULL) || (c->classes && memcmp(d.classes, c->classes, tc) != 0))
        fz_broken("fathom_mesh_create", "the loaded arrays do not read back from a mesh made of them");
    mesh_contents_free(&d);
    fathom_mesh_destroy(made);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[128];
    fathom_mesh *mesh;
    fz_temp_path(TEMP_DIR, temp_names[0], path, sizeof path);
    fz_load_refuses_bad_paths(load_mesh, "fathom_mesh_load", path, "no-such-file.obj", &mesh, sizeof mesh);
    if (fz_load_input(load_mesh, "fathom_mesh_load", path, data, size, &mesh, sizeof mesh) == FATHOM_OK) {
        /* The choices of capacities and flags come from the file's own bytes, from its end. */
        uint8_t choices[64];
        fz_input in = fz_input_from_end(data, size, choices, sizeof choices);
        mesh_contents c = mesh_read(&in, mesh);
        same_as_created(&in, &c);
        char out[128];
        mesh_round_trip(&in, mesh, &c, fz_temp_path(TEMP_DIR, temp_names[1], out, sizeof out), 1);
        mesh_round_trip(&in, mesh, &c, fz_temp_path(TEMP_DIR, temp_names[2], out, sizeof out), 0);
        mesh_contents_free(&c);
        fathom_mesh_destroy(mesh);
    }
    return 0;
}
