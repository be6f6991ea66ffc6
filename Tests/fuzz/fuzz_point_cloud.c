/* Fuzz target: point clouds and PLY. The input is written to a .ply file and read with
 * fathom_point_cloud_load_ply (ascii, binary little- and big-endian; x y z float or double, normals, colours,
 * confidence, other properties and elements read past). A cloud that loads is read back through its getters
 * (capacities too small first) and saved with fathom_point_cloud_save_ply in each fathom_ply_format, which the
 * loader must read back exactly. An input whose first byte is not 'p' (no PLY file) also drives, with that
 * byte as flags, fathom_ply_write_points on fuzzed arrays (strides, NULLs, misaligned normals, non-finite
 * values), whose file must read back to the same values, and which writes nothing on error. */
#define _XOPEN_SOURCE 700
#include "fuzz.h"
#include "fuzz_files.h"

#include <unistd.h>

#define MAX_POINTS 64

/* The per-process temporary directory, and the files in it. */
#define TEMP_DIR "fathom-fuzz-point_cloud-XXXXXX"
static const char *const temp_names[] = {"input.ply", "saved.ply", "written.ply"};

/* fathom_point_cloud_load_ply for the loading checks of fuzz_files.h (out: a fathom_point_cloud **). */
static fathom_status load_cloud(const char *path, void *out) { return fathom_point_cloud_load_ply(path, out); }

/** Whether the file at `path` holds exactly `size` bytes equal to `data`. */
static int file_equals(const char *path, const void *data, size_t size) {
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    uint8_t buffer[64];
    size_t n = fread(buffer, 1, sizeof buffer, file);
    fclose(file);
    return n == size && memcmp(buffer, data, size) == 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* What a cloud reports                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/** A cloud's contents as its getters report them (malloc'd; NULL for what it lacks). */
typedef struct cloud_contents {
    fathom_point_cloud_info info;
    float *points, *normals;
    uint8_t *colors, *confidence;
} cloud_contents;

static void cloud_contents_free(cloud_contents *c) {
    free(c->points);
    free(c->normals);
    free(c->colors);
    free(c->confidence);
}

typedef fathom_status (*float_getter)(const fathom_point_cloud *, float *, size_t);
typedef fathom_status (*byte_getter)(const fathom_point_cloud *, uint8_t *, size_t);

/** One getter of `width` elements of `size` bytes per point: a capacity too small (nothing written), then enough
 *  (nothing written past count). Returns the array, or NULL when the getter says FATHOM_ERR_NO_DATA (only
 *  allowed when `present` is 0). `null_ok`: the header lets `out` be NULL for an empty cloud. */
static void *get_array(fz_input *in, const fathom_point_cloud *cloud, size_t count, size_t width, size_t size,
                       float_getter get_floats, byte_getter get_bytes, const char *function, int present, int null_ok) {
    size_t extra = fz_u8(in) % 3, bytes = (count + extra) * width * size;
    uint8_t *out = fz_malloc(bytes);
    fathom_status s;
#define CALL(buffer, capacity)                                                                              \
    (get_floats ? fz_checked(get_floats(cloud, (float *)(void *)(buffer), capacity), function)               \
                : fz_checked(get_bytes(cloud, (uint8_t *)(buffer), capacity), function))
    if (count > 0) {
        size_t small = fz_count(in, count - 1);
        fz_poison(out, bytes);
        s = CALL(out, small);
        /* Either error may come first for what the cloud lacks. */
        if (present ? s != FATHOM_ERR_BUFFER_TOO_SMALL : s != FATHOM_ERR_BUFFER_TOO_SMALL && s != FATHOM_ERR_NO_DATA)
            fz_broken(function, "a capacity too small was not refused");
        fz_untouched(s, function, out, bytes);
        if (fz_u8(in) < 16) {
            s = CALL(NULL, count + extra);
            if (present ? s != FATHOM_ERR_NULL_POINTER : s != FATHOM_ERR_NULL_POINTER && s != FATHOM_ERR_NO_DATA)
                fz_broken(function, "NULL out with capacity was not refused");
        }
    }
    fz_poison(out, bytes);
    s = CALL(count == 0 && null_ok && fz_u8(in) < 128 ? NULL : out, count + extra);
    fz_untouched(s, function, out, bytes);
#undef CALL
    if (s == FATHOM_ERR_NO_DATA) {
        if (present) fz_broken(function, "FATHOM_ERR_NO_DATA for what the cloud has");
        free(out);
        return NULL;
    }
    if (s != FATHOM_OK) fz_broken(function, "failed with enough capacity");
    if (!present) fz_broken(function, "data the cloud's info says it lacks");
    fz_untouched_past(function, out + count * width * size, extra * width * size);
    return out;
}

static cloud_contents cloud_read(fz_input *in, const fathom_point_cloud *cloud) {
    cloud_contents c;
    fz_poison(&c.info, sizeof c.info);
    fathom_status s = FZ(fathom_point_cloud_get_info, cloud, &c.info);
    if (s != FATHOM_OK) fz_broken("fathom_point_cloud_get_info", "failed on a valid cloud");
    if (c.info.count > (1u << 24) || fz_bool_byte(&c.info.has_normals) > 1 || fz_bool_byte(&c.info.has_colors) > 1 ||
        fz_bool_byte(&c.info.has_confidence) > 1)
        fz_broken("fathom_point_cloud_get_info", "implausible info");
    if (!fz_all_zero(c.info.reserved, sizeof c.info.reserved))
        fz_broken("fathom_point_cloud_get_info", "the reserved words are not 0");
    size_t n = (size_t)c.info.count;
    c.points = get_array(in, cloud, n, 3, sizeof(float), fathom_point_cloud_points, NULL, "fathom_point_cloud_points", 1, 1);
    c.normals = get_array(in, cloud, n, 3, sizeof(float), fathom_point_cloud_normals, NULL, "fathom_point_cloud_normals",
                          (int)c.info.has_normals, 1);
    c.colors = get_array(in, cloud, n, 3, 1, NULL, fathom_point_cloud_colors, "fathom_point_cloud_colors", (int)c.info.has_colors, 0);
    c.confidence = get_array(in, cloud, n, 1, 1, NULL, fathom_point_cloud_confidence, "fathom_point_cloud_confidence",
                             (int)c.info.has_confidence, 0);
    for (size_t i = 0; i < 3 * n; i++) {
        if (!isfinite(c.points[i])) fz_broken("fathom_point_cloud_points", "a point is not finite");
        if (c.normals && !isfinite(c.normals[i])) fz_broken("fathom_point_cloud_normals", "a normal is not finite");
    }
    return c;
}

static int same_info(const fathom_point_cloud_info *a, const fathom_point_cloud_info *b) {
    return a->count == b->count && a->has_normals == b->has_normals && a->has_colors == b->has_colors &&
           a->has_confidence == b->has_confidence;
}

/** After a failed call taking the cloud: what it reports is as before. */
static void cloud_same(const fathom_point_cloud *cloud, const fathom_point_cloud_info *before, const char *function) {
    fathom_point_cloud_info now;
    if (fathom_point_cloud_get_info(cloud, &now) != FATHOM_OK || !same_info(&now, before))
        fz_broken(function, "a failed call changed the cloud");
}

static void print_float_difference(const char *what, const float *a, const float *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(float)) != 0) {
            uint32_t x, y;
            memcpy(&x, &a[i], sizeof x);
            memcpy(&y, &b[i], sizeof y);
            fprintf(stderr, "%s[%zu]: expected %.9g (0x%08x), read back %.9g (0x%08x)\n", what, i, (double)a[i], (unsigned)x,
                    (double)b[i], (unsigned)y);
            return;
        }
}

/** `c` (what was written) and `d` (what was read back) hold the same, bit for bit. */
static void same_contents(const cloud_contents *c, const cloud_contents *d, const char *function, const char *promise) {
    size_t n = (size_t)c->info.count;
    if (!same_info(&c->info, &d->info)) fz_broken(function, promise);
    if (memcmp(c->points, d->points, 3 * n * sizeof(float)) != 0) {
        print_float_difference("points", c->points, d->points, 3 * n);
        fz_broken(function, promise);
    }
    if (c->normals && memcmp(c->normals, d->normals, 3 * n * sizeof(float)) != 0) {
        print_float_difference("normals", c->normals, d->normals, 3 * n);
        fz_broken(function, promise);
    }
    if ((c->colors && memcmp(c->colors, d->colors, 3 * n) != 0) || (c->confidence && memcmp(c->confidence, d->confidence, n) != 0))
        fz_broken(function, promise);
}

/* ---------------------------------------------------------------------------------------------- */
/* Save and reload                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

static void save_and_reload(fz_input *in, const fathom_point_cloud *cloud, const cloud_contents *c) {
    char path[128];
    fz_temp_path(TEMP_DIR, temp_names[1], path, sizeof path);
    for (uint32_t format = FATHOM_PLY_BINARY; format <= FATHOM_PLY_ASCII; format++) {
        unlink(path);
        fathom_status s = FZ(fathom_point_cloud_save_ply, cloud, path, format);
        if (s != FATHOM_OK) fz_broken("fathom_point_cloud_save_ply", "failed on a valid cloud");
        fathom_point_cloud *back;
        fz_poison(&back, sizeof back);
        s = FZ(fathom_point_cloud_load_ply, path, &back);
        fz_untouched(s, "fathom_point_cloud_load_ply", &back, sizeof back);
        if (s != FATHOM_OK) {
            fprintf(stderr, "format %u: %s\n", (unsigned)format, fathom_last_error());
            fz_broken("fathom_point_cloud_save_ply", "a saved cloud does not load back");
        }
        cloud_contents d = cloud_read(in, back);
        same_contents(c, &d, "fathom_point_cloud_save_ply", format == FATHOM_PLY_ASCII ? "ascii: does not read back exactly"
                                                                                         : "binary: does not read back exactly");
        cloud_contents_free(&d);
        fathom_point_cloud_destroy(back);
    }
    unlink(path);
    /* A format out of the enum, and paths that cannot be written. */
    uint8_t bad = fz_u8(in);
    if (bad < 32) {
        uint32_t format = bad < 16 ? 2u + bad : fz_u32(in) | 2u;
        fathom_status s = FZ(fathom_point_cloud_save_ply, cloud, path, format);
        if (s != FATHOM_ERR_OUT_OF_RANGE) fz_broken("fathom_point_cloud_save_ply", "a format out of the enum was not FATHOM_ERR_OUT_OF_RANGE");
        cloud_same(cloud, &c->info, "fathom_point_cloud_save_ply");
        s = FZ(fathom_point_cloud_save_ply, cloud, NULL, FATHOM_PLY_BINARY);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_point_cloud_save_ply", "a NULL path was not FATHOM_ERR_NULL_POINTER");
        s = FZ(fathom_point_cloud_save_ply, NULL, path, FATHOM_PLY_BINARY);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_point_cloud_save_ply", "a NULL cloud was not FATHOM_ERR_NULL_POINTER");
        char missing[160];
        fz_temp_path(TEMP_DIR, "no-such-directory/c.ply", missing, sizeof missing);
        s = FZ(fathom_point_cloud_save_ply, cloud, missing, bad & 1);
        if (s != FATHOM_ERR_IO) fz_broken("fathom_point_cloud_save_ply", "an unwritable path was not FATHOM_ERR_IO");
        cloud_same(cloud, &c->info, "fathom_point_cloud_save_ply");
        fathom_point_cloud_info info;
        fz_poison(&info, sizeof info);
        s = FZ(fathom_point_cloud_get_info, NULL, &info);
        fz_untouched(s, "fathom_point_cloud_get_info", &info, sizeof info);
        if (s != FATHOM_ERR_NULL_POINTER || FZ(fathom_point_cloud_get_info, cloud, NULL) != FATHOM_ERR_NULL_POINTER)
            fz_broken("fathom_point_cloud_get_info", "a NULL argument was not FATHOM_ERR_NULL_POINTER");
        float point[3];
        fz_poison(point, sizeof point);
        s = FZ(fathom_point_cloud_points, NULL, point, 1);
        fz_untouched(s, "fathom_point_cloud_points", point, sizeof point);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_point_cloud_points", "a NULL cloud was not FATHOM_ERR_NULL_POINTER");
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* fathom_ply_write_points from arrays                                                              */
/* ---------------------------------------------------------------------------------------------- */

static const uint8_t sentinel[] = "not written by a failed call\n";

/** Huge counts whose count * stride overflows, with NULL or small buffers: refused before anything is read. */
static void overflowing_count(fz_input *in, const char *path) {
    float points[6] = {0, 0, 0, 1, 1, 1};
    uint8_t kind = fz_u8(in);
    size_t stride = 12 + 4 * (size_t)(kind % 4);
    size_t count = SIZE_MAX / stride + 1 + fz_u8(in);
    fz_write_file(path, sentinel, sizeof sentinel);
    fathom_status s = FZ(fathom_ply_write_points, path, kind & 4 ? NULL : points, count, stride, NULL, NULL, NULL,
                         FATHOM_PLY_BINARY);
    if (s == FATHOM_OK) fz_broken("fathom_ply_write_points", "an overflowing count was accepted");
    if (!(kind & 4) && s != FATHOM_ERR_OVERFLOW) fz_broken("fathom_ply_write_points", "an overflowing count was not FATHOM_ERR_OVERFLOW");
    if (!file_equals(path, sentinel, sizeof sentinel)) fz_broken("fathom_ply_write_points", "a failed call wrote the file");
}

static void write_points(fz_input *in, uint8_t flags) {
    char path[128];
    fz_temp_path(TEMP_DIR, temp_names[2], path, sizeof path);
    uint32_t format = flags & 1 ? FATHOM_PLY_ASCII : FATHOM_PLY_BINARY;
    if ((flags & 0x60) == 0x60) format = fz_u8(in) < 128 ? fz_u8(in) % 4 : fz_u32(in);
    int with_normals = (flags >> 1) & 1, with_colors = (flags >> 2) & 1, with_confidence = (flags >> 3) & 1;

    uint8_t stride_kind = fz_u8(in);
    size_t stride = stride_kind < 220 ? 12 + 4 * (size_t)(stride_kind % 4) : (size_t)fz_u8(in);
    size_t count = fz_count(in, MAX_POINTS);
    uint8_t odd = fz_u8(in); /* misalignments and NULLs, sometimes */
    size_t misalign = odd == 1 ? 1 + fz_u8(in) % 3 : 0, normals_misalign = odd == 2 ? 1 + fz_u8(in) % 3 : 0;
    size_t step = stride > 12 ? stride : 12, bytes = count * step + 16;
    uint8_t *buffer = fz_malloc(bytes + 4);
    memset(buffer, 0, bytes + 4);
    for (size_t i = 0; i < (bytes - misalign) / 4; i++) {
        float f = fz_float(in);
        memcpy(buffer + misalign + 4 * i, &f, sizeof f);
    }
    uint8_t *normal_buffer = fz_malloc(3 * count * sizeof(float) + 4);
    for (size_t i = 0; i < 3 * count; i++) {
        /* mostly unit-ish normals, sometimes any float */
        float f = fz_u8(in) < 240 ? (float)(int8_t)fz_u8(in) / 127.0f : fz_float(in);
        memcpy(normal_buffer + normals_misalign + 4 * i, &f, sizeof f);
    }
    uint8_t *colors = fz_malloc(3 * count), *confidence = fz_malloc(count);
    for (size_t i = 0; i < 3 * count; i++) colors[i] = fz_u8(in);
    for (size_t i = 0; i < count; i++) confidence[i] = fz_u8(in) % 3;

    const float *points = (const float *)(void *)(buffer + misalign);
    const float *normals = (const float *)(void *)(normal_buffer + normals_misalign);
    const float *points_arg = odd == 3 || (count == 0 && odd == 4) ? NULL : points;
    const char *path_arg = odd == 5 ? NULL : path;

    /* What the header allows. */
    int bad_range = format > FATHOM_PLY_ASCII, bad_null = path_arg == NULL, bad_finite = 0;
    if (count > 0) {
        bad_null |= points_arg == NULL;
        bad_range |= stride < 12 || stride % 4 != 0 || misalign != 0 || (with_normals && normals_misalign != 0);
        if (stride >= 12 && stride % 4 == 0)
            for (size_t i = 0; i < count; i++) {
                float p[3];
                memcpy(p, buffer + misalign + i * stride, sizeof p);
                if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) bad_finite = 1;
            }
        if (with_normals)
            for (size_t i = 0; i < 3 * count; i++) {
                float f;
                memcpy(&f, normal_buffer + normals_misalign + 4 * i, sizeof f);
                if (!isfinite(f)) bad_finite = 1;
            }
    }
    int faults = bad_range + bad_null + bad_finite;
    /* No points: whether the stride and alignment still count is not said. */
    int ambiguous = count == 0 && (stride < 12 || stride % 4 != 0 || misalign != 0);

    fz_write_file(path, sentinel, sizeof sentinel);
    fathom_status s = FZ(fathom_ply_write_points, path_arg, points_arg, count, stride, with_normals ? normals : NULL,
                         with_colors ? colors : NULL, with_confidence ? confidence : NULL, format);
    if (!ambiguous && (s == FATHOM_OK) != (faults == 0))
        fz_broken("fathom_ply_write_points", faults ? "invalid arguments were accepted" : "valid arguments failed");
    if (!ambiguous && faults == 1) {
        fathom_status expected = bad_range ? FATHOM_ERR_OUT_OF_RANGE : bad_null ? FATHOM_ERR_NULL_POINTER : FATHOM_ERR_NOT_FINITE;
        if (s != expected) fz_broken("fathom_ply_write_points", "not the status of its one bad argument");
    }
    if (s != FATHOM_OK) {
        if (!file_equals(path, sentinel, sizeof sentinel)) fz_broken("fathom_ply_write_points", "a failed call wrote the file");
    } else {
        /* Read back: exactly what was given. */
        fathom_point_cloud *cloud;
        fz_poison(&cloud, sizeof cloud);
        s = FZ(fathom_point_cloud_load_ply, path, &cloud);
        fz_untouched(s, "fathom_point_cloud_load_ply", &cloud, sizeof cloud);
        if (s != FATHOM_OK) {
            fprintf(stderr, "%s\n", fathom_last_error());
            fz_broken("fathom_ply_write_points", "the file written does not load");
        }
        cloud_contents given;
        given.info.count = count;
        given.info.has_normals = with_normals != 0;
        given.info.has_colors = with_colors != 0;
        given.info.has_confidence = with_confidence != 0;
        given.points = fz_malloc(3 * count * sizeof(float));
        for (size_t i = 0; i < count; i++) memcpy(given.points + 3 * i, buffer + misalign + i * stride, 3 * sizeof(float));
        given.normals = with_normals ? fz_malloc(3 * count * sizeof(float)) : NULL;
        if (with_normals) memcpy(given.normals, normal_buffer + normals_misalign, 3 * count * sizeof(float));
        given.colors = with_colors ? fz_malloc(3 * count) : NULL;
        if (with_colors) memcpy(given.colors, colors, 3 * count);
        given.confidence = with_confidence ? fz_malloc(count) : NULL;
        if (with_confidence) memcpy(given.confidence, confidence, count);
        cloud_contents back = cloud_read(in, cloud);
        same_contents(&given, &back, "fathom_ply_write_points", format == FATHOM_PLY_ASCII ? "ascii: does not read back exactly"
                                                                                             : "binary: does not read back exactly");
        cloud_contents_free(&back);
        fathom_point_cloud_destroy(cloud);
        cloud_contents_free(&given);
    }
    unlink(path);
    if (fz_u8(in) == 0) overflowing_count(in, path);
    unlink(path);
    free(buffer);
    free(normal_buffer);
    free(colors);
    free(confidence);
}

/* ---------------------------------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[128];
    fathom_point_cloud *cloud;
    fz_temp_path(TEMP_DIR, temp_names[0], path, sizeof path);
    fz_load_refuses_bad_paths(load_cloud, "fathom_point_cloud_load_ply", path, "no-such-file.ply", &cloud, sizeof cloud);
    if (fz_load_input(load_cloud, "fathom_point_cloud_load_ply", path, data, size, &cloud, sizeof cloud) == FATHOM_OK) {
        /* The choices of capacities come from the file's own bytes, from its end. */
        uint8_t choices[64];
        fz_input in = fz_input_from_end(data, size, choices, sizeof choices);
        cloud_contents c = cloud_read(&in, cloud);
        save_and_reload(&in, cloud, &c);
        cloud_contents_free(&c);
        fathom_point_cloud_destroy(cloud);
    }
    /* Not a PLY file: the first byte is the flags of fathom_ply_write_points, the rest its arrays. */
    if (size > 0 && data[0] != 'p') {
        fz_input in = {data + 1, size - 1};
        write_points(&in, data[0]);
    }
    return 0;
}
