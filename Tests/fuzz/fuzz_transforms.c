/* Fuzz target: NeRF-style transforms.json (fathom.h, "NeRF-style transforms.json").
 *
 * Input: the bytes of a transforms.json, written as such into a per-process /dev/shm folder. The calls'
 * other arguments (rate, capacities, NULLs) come from a hash of the input, so each input always makes the
 * same calls. fathom_transforms_load is called for the count (capacity 0, NULL arrays), with too small a
 * capacity, then with enough; fathom_transforms_file_paths likewise; both must agree on the file's errors.
 * What loads is saved with fathom_transforms_save (with and without its file paths) and reloaded: the same
 * poses, intrinsics and file paths must read back. Bad saves (NULLs, non-rigid poses, bad intrinsics, bad
 * paths, overflowing counts) must fail.
 */
#define _XOPEN_SOURCE 700
#include "fuzz.h"
#include "fuzz_files.h"

#include <sys/stat.h>
#include <unistd.h>

/* Frames beyond this are counted but not loaded into arrays by the harness. */
#define MAX_FRAMES 4096

/* The files, in the per-process temporary directory. */
static char file_path[128], saved_path[128], missing_path[128];

static void setup(void) {
    if (file_path[0]) return;
    const char *root = fz_temp_dir("fathom-fuzz-transforms-XXXXXX");
    fz_path_join(file_path, sizeof file_path, root, "transforms.json");
    fz_path_join(saved_path, sizeof saved_path, root, "saved.json");
    fz_path_join(missing_path, sizeof missing_path, root, "missing/transforms.json");
}

/* The arguments' bytes: splitmix64 of a hash of the input. */
static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Timestamp i as the header gives it: i for rate 0, else round(i * 1e9 / rate); 0 when it does not fit. */
static int expected_timestamp(size_t i, double rate, int64_t *out) {
    if (rate == 0) {
        *out = (int64_t)i;
        return 1;
    }
    double t = round((double)i * 1e9 / rate);
    if (!(t < 9223372036854775808.0 && t >= -9223372036854775808.0)) return 0;
    *out = (int64_t)t;
    return 1;
}

typedef struct loaded {
    size_t count;
    int64_t *timestamps;
    fathom_pose *poses;
    fathom_intrinsics *intrinsics;
} loaded;

/* fathom_transforms_load of `path` at `rate`: the count first, too small a capacity, then enough.
 * Returns the status of the full load (FATHOM_OK with `out` filled) or of the first failure. */
static fathom_status load(fz_input *in, const char *path, double rate, loaded *out) {
    const char *f = "fathom_transforms_load";
    size_t count;
    memset(out, 0, sizeof *out);
    fz_poison(&count, sizeof count);
    fathom_status s = FZ(fathom_transforms_load, path, rate, NULL, NULL, NULL, 0, &count);
    if (s != FATHOM_OK && s != FATHOM_ERR_BUFFER_TOO_SMALL) {
        fz_untouched(s, f, &count, sizeof count);
        return s;
    }
    if (s == FATHOM_OK && count != 0) fz_broken(f, "capacity 0 held frames");
    if (s == FATHOM_ERR_BUFFER_TOO_SMALL && count == 0) fz_broken(f, "capacity 0 was too small for 0 frames");
    if (!(rate >= 0 && isfinite(rate))) fz_broken(f, "a rate that is negative or not finite was accepted");
    int64_t last;
    if (count > 0 && !expected_timestamp(count - 1, rate, &last)) fz_broken(f, "timestamps that overflow int64 were accepted");
    if (count > MAX_FRAMES) return FATHOM_ERR_BUFFER_TOO_SMALL;

    uint8_t mode = fz_u8(in);
    if (mode & 1) {
        /* Capacity > 0 with one array NULL. */
        size_t capacity = count + 1 + fz_u8(in) % 4;
        int64_t *t = fz_malloc(capacity * sizeof *t);
        fathom_pose *p = fz_malloc(capacity * sizeof *p);
        fathom_intrinsics *k = fz_malloc(capacity * sizeof *k);
        size_t other;
        uint8_t which = fz_u8(in) % 3;
        fz_poison(t, capacity * sizeof *t);
        fz_poison(p, capacity * sizeof *p);
        fz_poison(k, capacity * sizeof *k);
        fz_poison(&other, sizeof other);
        s = FZ(fathom_transforms_load, path, rate, which == 0 ? NULL : t, which == 1 ? NULL : p, which == 2 ? NULL : k,
               capacity, &other);
        if (s == FATHOM_OK) fz_broken(f, "a NULL array with capacity > 0 was accepted");
        fz_untouched(s, f, t, capacity * sizeof *t);
        fz_untouched(s, f, p, capacity * sizeof *p);
        fz_untouched(s, f, k, capacity * sizeof *k);
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_untouched(s, f, &other, sizeof other);
        free(t);
        free(p);
        free(k);
    }
    if (count > 0 && (mode & 2)) {
        size_t capacity = mode & 4 ? count - 1 : fz_u32(in) % count;
        int64_t *t = fz_malloc(capacity * sizeof *t);
        fathom_pose *p = fz_malloc(capacity * sizeof *p);
        fathom_intrinsics *k = fz_malloc(capacity * sizeof *k);
        size_t other;
        fz_poison(t, capacity * sizeof *t);
        fz_poison(p, capacity * sizeof *p);
        fz_poison(k, capacity * sizeof *k);
        fz_poison(&other, sizeof other);
        int nulls = capacity == 0 && (mode & 8);
        s = FZ(fathom_transforms_load, path, rate, nulls ? NULL : t, nulls ? NULL : p, nulls ? NULL : k, capacity, &other);
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_broken(f, "too small a capacity was not FATHOM_ERR_BUFFER_TOO_SMALL");
        if (other != count) fz_broken(f, "the count changed between calls");
        fz_untouched(s, f, t, capacity * sizeof *t);
        fz_untouched(s, f, p, capacity * sizeof *p);
        fz_untouched(s, f, k, capacity * sizeof *k);
        free(t);
        free(p);
        free(k);
    }
    size_t extra = mode & 16 ? fz_u8(in) % 4 : 0, capacity = count + extra;
    out->count = count;
    out->timestamps = fz_malloc(capacity * sizeof *out->timestamps);
    out->poses = fz_malloc(capacity * sizeof *out->poses);
    out->intrinsics = fz_malloc(capacity * sizeof *out->intrinsics);
    fz_poison(out->timestamps, capacity * sizeof *out->timestamps);
    fz_poison(out->poses, capacity * sizeof *out->poses);
    fz_poison(out->intrinsics, capacity * sizeof *out->intrinsics);
    size_t got;
    fz_poison(&got, sizeof got);
    /* Capacity 0 with the arrays given is fine too. */
    s = FZ(fathom_transforms_load, path, rate, out->timestamps, out->poses, out->intrinsics, capacity, &got);
    if (s != FATHOM_OK) fz_broken(f, "the capacity it asked for was not enough");
    if (got != count) fz_broken(f, "the count changed between calls");
    fz_untouched(1, f, out->timestamps + count, extra * sizeof *out->timestamps);
    fz_untouched(1, f, out->poses + count, extra * sizeof *out->poses);
    fz_untouched(1, f, out->intrinsics + count, extra * sizeof *out->intrinsics);
    for (size_t i = 0; i < count; i++) {
        int64_t t;
        if (!expected_timestamp(i, rate, &t) || out->timestamps[i] != t) fz_broken(f, "a timestamp is not round(i * 1e9 / rate)");
        if (fathom_pose_check_rigid(&out->poses[i], 2e-3f) != FATHOM_OK) fz_broken(f, "a loaded pose is not rigid");
        const fathom_intrinsics *k = &out->intrinsics[i];
        if (!(k->fx > 0 && k->fy > 0 && isfinite(k->fx) && isfinite(k->fy) && isfinite(k->cx) && isfinite(k->cy)))
            fz_broken(f, "loaded intrinsics are not valid");
        if (k->width < 1 || k->width > 1000000 || k->height < 1 || k->height > 1000000)
            fz_broken(f, "w or h outside 1...1000000");
    }
    return FATHOM_OK;
}

static void free_loaded(loaded *l) {
    free(l->timestamps);
    free(l->poses);
    free(l->intrinsics);
    memset(l, 0, sizeof *l);
}

/* fathom_transforms_file_paths: the length first, too small, NULL with room, then enough. Returns the
 * status and, on success, the bytes (malloc'd) and their length. */
static fathom_status file_paths(fz_input *in, const char *path, char **out, size_t *out_length) {
    const char *f = "fathom_transforms_file_paths";
    size_t length;
    *out = NULL;
    fz_poison(&length, sizeof length);
    fathom_status s = FZ(fathom_transforms_file_paths, path, NULL, 0, &length);
    if (s != FATHOM_OK && s != FATHOM_ERR_BUFFER_TOO_SMALL) {
        fz_untouched(s, f, &length, sizeof length);
        return s;
    }
    if (s == FATHOM_OK && length != 0) fz_broken(f, "capacity 0 held paths");
    if (s == FATHOM_ERR_BUFFER_TOO_SMALL && length == 0) fz_broken(f, "capacity 0 was too small for 0 bytes");
    if (length > ((size_t)1 << 30)) fz_broken(f, "more bytes than the file");
    uint8_t mode = fz_u8(in);
    if (length > 0 && (mode & 1)) {
        size_t capacity = mode & 2 ? length - 1 : fz_u32(in) % length;
        char *small = fz_malloc(capacity);
        size_t other;
        fz_poison(small, capacity);
        fz_poison(&other, sizeof other);
        s = FZ(fathom_transforms_file_paths, path, small, capacity, &other);
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_broken(f, "too small a capacity was not FATHOM_ERR_BUFFER_TOO_SMALL");
        if (other != length) fz_broken(f, "the length changed between calls");
        fz_untouched(s, f, small, capacity);
        free(small);
    }
    if (length > 0 && mode % 8 == 4) {
        /* Room enough but no buffer: an error that writes nothing. */
        size_t other;
        fz_poison(&other, sizeof other);
        s = FZ(fathom_transforms_file_paths, path, NULL, length + fz_u8(in), &other);
        if (s == FATHOM_OK) fz_broken(f, "a NULL buffer with room was accepted");
        fz_untouched(s, f, &other, sizeof other);
    }
    size_t extra = mode & 16 ? fz_u8(in) % 8 : 0, capacity = length + extra;
    char *buffer = fz_malloc(capacity);
    size_t got;
    fz_poison(buffer, capacity);
    fz_poison(&got, sizeof got);
    s = FZ(fathom_transforms_file_paths, path, capacity ? buffer : NULL, capacity, &got);
    if (s != FATHOM_OK) fz_broken(f, "the capacity it asked for was not enough");
    if (got != length) fz_broken(f, "the length changed between calls");
    if (length > 0 && buffer[length - 1] != 0) fz_broken(f, "the last path is not NUL-terminated");
    fz_untouched(1, f, buffer + length, extra);
    *out = buffer;
    *out_length = length;
    return FATHOM_OK;
}

/* The number of NUL-terminated paths in (bytes, length), pointers to them in `paths` (may be NULL). */
static size_t split_paths(const char *bytes, size_t length, const char **paths) {
    size_t n = 0, start = 0;
    for (size_t i = 0; i < length; i++)
        if (bytes[i] == 0) {
            if (paths) paths[n] = bytes + start;
            n++;
            start = i + 1;
        }
    return n;
}

static int same_intrinsics(const fathom_intrinsics *a, const fathom_intrinsics *b) {
    return a->fx == b->fx && a->fy == b->fy && a->cx == b->cx && a->cy == b->cy && a->width == b->width &&
           a->height == b->height;
}

/* Saves what was loaded, reloads it, and compares. */
static void round_trip(fz_input *in, const loaded *l, double rate, const char *paths, size_t paths_length) {
    const char *f = "fathom_transforms_save";
    const size_t n = l->count;
    const char **names = NULL;
    uint8_t mode = fz_u8(in);
    int with_paths = (mode & 1) && paths;
    if (with_paths) {
        names = fz_malloc(n * sizeof *names);
        if (split_paths(paths, paths_length, names) != n) fz_broken("fathom_transforms_file_paths", "not one path per frame");
    }
    fathom_status s = FZ(fathom_transforms_save, saved_path, n ? l->poses : NULL, n ? l->intrinsics : NULL, n,
                         with_paths ? names : NULL);
    if (s != FATHOM_OK) fz_broken(f, "what fathom_transforms_load gave could not be saved");
    loaded back;
    s = load(in, saved_path, rate, &back);
    if (s != FATHOM_OK) fz_broken(f, "a saved file does not load");
    if (back.count != n) fz_broken(f, "the frame count does not read back");
    for (size_t i = 0; i < n; i++) {
        if (back.timestamps[i] != l->timestamps[i]) fz_broken(f, "timestamps differ after a round trip");
        for (int e = 0; e < 16; e++)
            if (back.poses[i].m[e] != l->poses[i].m[e]) fz_broken(f, "a pose does not read back");
        if (!same_intrinsics(&back.intrinsics[i], &l->intrinsics[i])) fz_broken(f, "intrinsics do not read back");
    }
    free_loaded(&back);
    char *again = NULL;
    size_t again_length = 0;
    s = file_paths(in, saved_path, &again, &again_length);
    if (s != FATHOM_OK) fz_broken(f, "the saved file's paths do not read");
    if (with_paths) {
        if (again_length != paths_length || memcmp(again, paths, paths_length) != 0)
            fz_broken(f, "file paths do not read back");
    } else if (again_length != n) {
        fz_broken(f, "a file saved without paths has some");
    }
    free(again);

    /* Bad saves: each must fail. */
    uint8_t bad = fz_u8(in);
    fathom_status b = FATHOM_OK;
    const char *what = NULL;
    if (n > 0 && bad % 8 == 1) {
        fathom_pose *p = fz_malloc(n * sizeof *p);
        memcpy(p, l->poses, n * sizeof *p);
        size_t i = fz_u32(in) % n;
        p[i].m[fz_u8(in) % 16] += fz_u8(in) & 1 ? 0.5f : fz_float(in);
        if (fathom_pose_check_rigid(&p[i], 1.01e-3f) != FATHOM_OK) {
            b = FZ(fathom_transforms_save, saved_path, p, l->intrinsics, n, NULL);
            what = "a pose that is not rigid was saved";
        }
        free(p);
    } else if (n > 0 && bad % 8 == 2) {
        fathom_intrinsics *k = fz_malloc(n * sizeof *k);
        memcpy(k, l->intrinsics, n * sizeof *k);
        size_t i = fz_u32(in) % n;
        switch (fz_u8(in) % 5) {
        case 0: k[i].fx = fz_u8(in) & 1 ? 0 : -k[i].fx; break;
        case 1: k[i].fy = NAN; break;
        case 2: k[i].cx = INFINITY; break;
        case 3: k[i].width = 0; break;
        default: k[i].height = 0; break;
        }
        b = FZ(fathom_transforms_save, saved_path, l->poses, k, n, NULL);
        what = "invalid intrinsics were saved";
        free(k);
    } else if (n > 0 && bad % 8 == 3) {
        const char **p = fz_malloc(n * sizeof *p);
        for (size_t i = 0; i < n; i++) p[i] = "images/frame_00001.png";
        size_t i = fz_u32(in) % n;
        p[i] = fz_u8(in) & 1 ? NULL : "bad \xC3\x28 utf-8 \xFF";
        b = FZ(fathom_transforms_save, saved_path, l->poses, l->intrinsics, n, p);
        what = "a NULL or invalid UTF-8 file path was saved";
        free(p);
    } else if (bad % 8 == 4) {
        b = FZ(fathom_transforms_save, NULL, l->poses, l->intrinsics, n, NULL);
        what = "a NULL path was accepted";
    } else if (n > 0 && bad % 8 == 5) {
        b = FZ(fathom_transforms_save, saved_path, fz_u8(in) & 1 ? NULL : l->poses, NULL, n, NULL);
        what = "NULL arrays with frames were accepted";
    } else if (bad % 8 == 6) {
        /* A count whose size overflows, with NULL arrays: refused before anything is read. */
        b = FZ(fathom_transforms_save, saved_path, NULL, NULL, SIZE_MAX / 64 + 1 + fz_u8(in), NULL);
        what = "an overflowing count was accepted";
    } else if (bad % 8 == 7) {
        b = FZ(fathom_transforms_save, missing_path, n ? l->poses : NULL, n ? l->intrinsics : NULL, n, NULL);
        what = "a file in a missing folder was saved";
    }
    if (what && b == FATHOM_OK) fz_broken(f, what);
    free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    setup();
    unlink(saved_path);
    fz_write_file(file_path, data, size);

    /* The arguments, from a hash of the input. */
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
    uint8_t args[96];
    for (size_t i = 0; i < sizeof args; i += 8) {
        uint64_t v = splitmix(&h);
        memcpy(args + i, &v, 8);
    }
    fz_input in = {args, sizeof args};

    /* NULL arguments. */
    uint8_t nulls = fz_u8(&in);
    if (nulls == 1 || nulls == 2) {
        size_t count;
        fz_poison(&count, sizeof count);
        fathom_status s = FZ(fathom_transforms_load, nulls == 1 ? NULL : file_path, 0, NULL, NULL, NULL, 0,
                             nulls == 1 ? &count : NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_transforms_load", "a NULL argument was not FATHOM_ERR_NULL_POINTER");
        fz_untouched(s, "fathom_transforms_load", &count, sizeof count);
        s = FZ(fathom_transforms_file_paths, nulls == 1 ? NULL : file_path, NULL, 0, nulls == 1 ? &count : NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_transforms_file_paths", "a NULL argument was not FATHOM_ERR_NULL_POINTER");
        fz_untouched(s, "fathom_transforms_file_paths", &count, sizeof count);
    }

    /* The reference: rate 0 (frame indices). */
    loaded l;
    fathom_status s0 = load(&in, file_path, 0, &l);

    /* The paths report the same errors as the load (whose rate 0 cannot be wrong). */
    char *paths = NULL;
    size_t paths_length = 0;
    fathom_status sp = file_paths(&in, file_path, &paths, &paths_length);
    if (s0 != FATHOM_ERR_BUFFER_TOO_SMALL && (sp == FATHOM_OK) != (s0 == FATHOM_OK))
        fz_broken("fathom_transforms_file_paths", "succeeds where fathom_transforms_load fails, or the reverse");
    if (s0 != FATHOM_OK && s0 != FATHOM_ERR_BUFFER_TOO_SMALL && sp != s0)
        fz_broken("fathom_transforms_file_paths", "fails differently from fathom_transforms_load");
    if (s0 == FATHOM_OK && sp == FATHOM_OK && split_paths(paths, paths_length, NULL) != l.count)
        fz_broken("fathom_transforms_file_paths", "not one NUL-terminated path per frame");

    /* Another rate: frames per second, bad values, and rates putting the last timestamp near 2^63. */
    double rate;
    uint8_t r = fz_u8(&in);
    size_t n = l.count;
    switch (r % 12) {
    case 0: rate = 30; break;
    case 1: rate = 60; break;
    case 2: rate = 0.001; break;
    case 3: rate = -1; break;
    case 4: rate = NAN; break;
    case 5: rate = INFINITY; break;
    case 6: rate = 1e-300; break;
    case 7: rate = n > 1 ? (double)(n - 1) * 1e9 / 9.21e18 : 1e-9; break; /* last timestamp 9.21e18 < 2^63 */
    case 8: rate = n > 1 ? (double)(n - 1) * 1e9 / 9.3e18 : 1e-9; break;  /* beyond 2^63 */
    case 9: rate = 2.9997; break;
    default: rate = fz_double(&in); break;
    }
    loaded lr;
    fathom_status sr = load(&in, file_path, rate, &lr);
    if (s0 == FATHOM_OK && sr != FATHOM_OK) {
        int64_t last;
        int fits = n == 0 || expected_timestamp(n - 1, rate, &last);
        if (rate >= 0 && isfinite(rate) && fits) fz_broken("fathom_transforms_load", "a valid rate was refused");
        if (sr == FATHOM_ERR_OVERFLOW && fits)
            fz_broken("fathom_transforms_load", "FATHOM_ERR_OVERFLOW for timestamps that fit int64");
    }
    if (s0 == FATHOM_OK && sr == FATHOM_OK) {
        for (size_t i = 0; i < n; i++)
            if (memcmp(&lr.poses[i], &l.poses[i], sizeof l.poses[i]) != 0 ||
                memcmp(&lr.intrinsics[i], &l.intrinsics[i], sizeof l.intrinsics[i]) != 0)
                fz_broken("fathom_transforms_load", "the rate changed the poses or intrinsics");
        round_trip(&in, &lr, rate, sp == FATHOM_OK ? paths : NULL, paths_length);
    } else if (s0 == FATHOM_OK) {
        round_trip(&in, &l, 0, sp == FATHOM_OK ? paths : NULL, paths_length);
    }
    free_loaded(&l);
    free_loaded(&lr);
    free(paths);
    return 0;
}
