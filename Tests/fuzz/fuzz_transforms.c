/* Fuzz target: NeRF-style transforms.json (fathom.h, "NeRF-style transforms.json").
 *
 * Input: the bytes of a transforms.json, written as such into a per-process /dev/shm folder. The calls'
 * other arguments (rate, capacities, NULLs) come from a hash of the input, so each input always makes the
 * same calls. fathom_transforms_read reads it into a handle at rate 0 (the reference) and at another rate
 * (frames per second, bad values, rates putting the last timestamp near 2^63); a failed read leaves *out NULL,
 * a valid rate is refused only for timestamps beyond int64, and the rate does not change a file's error. From
 * each handle, fathom_transforms_frames is asked for the count (capacity 0, NULL arrays), with an array NULL and
 * room, with too small a capacity, then with enough, and fathom_transforms_paths likewise (the length, too small,
 * a NULL buffer with room, then enough); each is then asked again and must give the same frames or bytes. The
 * frames must be what the header says (timestamps round(i * 1e9 / rate), rigid poses, valid intrinsics), with
 * one NUL-terminated path each, and the two rates' handles the same poses, intrinsics and paths. NULL handles,
 * paths and out-pointers must be FATHOM_ERR_NULL_POINTER (fathom_transforms_destroy(NULL) does nothing). What
 * reads is saved with fathom_transforms_save (with and without its file paths) and read back: the same
 * timestamps, poses, intrinsics and file paths must come out. Bad saves (NULLs, non-rigid poses, bad intrinsics,
 * bad paths, overflowing counts) must fail.
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

/* A non-NULL pointer value that a failed read must replace with NULL. */
static int not_null_object;
#define NOT_NULL ((fathom_transforms *)(void *)&not_null_object)

/* fathom_transforms_read of `path` at `rate` into *out (NULL on failure, which it checks). */
static fathom_status read_file(const char *path, double rate, fathom_transforms **out) {
    const char *f = "fathom_transforms_read";
    *out = NOT_NULL;
    fathom_status s = FZ(fathom_transforms_read, path, rate, out);
    if (s != FATHOM_OK) {
        if (*out != NULL) fz_broken(f, "a failed read did not leave *out NULL");
        return s;
    }
    if (*out == NULL || *out == NOT_NULL) fz_broken(f, "a successful read gave no handle");
    if (!(rate >= 0 && isfinite(rate))) fz_broken(f, "a rate that is negative or not finite was accepted");
    return s;
}

/* fathom_transforms_frames of `t` (read at `rate`): the count first, an array NULL with room, too small a
 * capacity, then enough, then once more. out->count gets the count; the arrays are filled (FATHOM_OK) unless
 * there are more than MAX_FRAMES frames (FATHOM_ERR_BUFFER_TOO_SMALL, the arrays NULL). */
static fathom_status frames(fz_input *in, const fathom_transforms *t, double rate, loaded *out) {
    const char *f = "fathom_transforms_frames";
    size_t count;
    memset(out, 0, sizeof *out);
    fz_poison(&count, sizeof count);
    fathom_status s = FZ(fathom_transforms_frames, t, NULL, NULL, NULL, 0, &count);
    if (s != FATHOM_OK && s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_broken(f, "the count of a handle was refused");
    if (s == FATHOM_OK && count != 0) fz_broken(f, "capacity 0 held frames");
    if (s == FATHOM_ERR_BUFFER_TOO_SMALL && count == 0) fz_broken(f, "capacity 0 was too small for 0 frames");
    int64_t last;
    if (count > 0 && !expected_timestamp(count - 1, rate, &last))
        fz_broken("fathom_transforms_read", "timestamps that overflow int64 were accepted");
    out->count = count;
    if (count > MAX_FRAMES) return FATHOM_ERR_BUFFER_TOO_SMALL;

    uint8_t mode = fz_u8(in);
    if (mode & 1) {
        /* Capacity > 0 with one array NULL. */
        size_t capacity = count + 1 + fz_u8(in) % 4;
        int64_t *ts = fz_malloc(capacity * sizeof *ts);
        fathom_pose *p = fz_malloc(capacity * sizeof *p);
        fathom_intrinsics *k = fz_malloc(capacity * sizeof *k);
        size_t other;
        uint8_t which = fz_u8(in) % 3;
        fz_poison(ts, capacity * sizeof *ts);
        fz_poison(p, capacity * sizeof *p);
        fz_poison(k, capacity * sizeof *k);
        fz_poison(&other, sizeof other);
        s = FZ(fathom_transforms_frames, t, which == 0 ? NULL : ts, which == 1 ? NULL : p, which == 2 ? NULL : k,
               capacity, &other);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken(f, "a NULL array with capacity > 0 was not FATHOM_ERR_NULL_POINTER");
        fz_untouched(s, f, ts, capacity * sizeof *ts);
        fz_untouched(s, f, p, capacity * sizeof *p);
        fz_untouched(s, f, k, capacity * sizeof *k);
        fz_untouched(s, f, &other, sizeof other);
        free(ts);
        free(p);
        free(k);
    }
    if (count > 0 && (mode & 2)) {
        size_t capacity = mode & 4 ? count - 1 : fz_u32(in) % count;
        int64_t *ts = fz_malloc(capacity * sizeof *ts);
        fathom_pose *p = fz_malloc(capacity * sizeof *p);
        fathom_intrinsics *k = fz_malloc(capacity * sizeof *k);
        size_t other;
        fz_poison(ts, capacity * sizeof *ts);
        fz_poison(p, capacity * sizeof *p);
        fz_poison(k, capacity * sizeof *k);
        fz_poison(&other, sizeof other);
        int nulls = capacity == 0 && (mode & 8);
        s = FZ(fathom_transforms_frames, t, nulls ? NULL : ts, nulls ? NULL : p, nulls ? NULL : k, capacity, &other);
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_broken(f, "too small a capacity was not FATHOM_ERR_BUFFER_TOO_SMALL");
        if (other != count) fz_broken(f, "the count changed between calls");
        fz_untouched(s, f, ts, capacity * sizeof *ts);
        fz_untouched(s, f, p, capacity * sizeof *p);
        fz_untouched(s, f, k, capacity * sizeof *k);
        free(ts);
        free(p);
        free(k);
    }
    size_t extra = mode & 16 ? fz_u8(in) % 4 : 0, capacity = count + extra;
    out->timestamps = fz_malloc(capacity * sizeof *out->timestamps);
    out->poses = fz_malloc(capacity * sizeof *out->poses);
    out->intrinsics = fz_malloc(capacity * sizeof *out->intrinsics);
    fz_poison(out->timestamps, capacity * sizeof *out->timestamps);
    fz_poison(out->poses, capacity * sizeof *out->poses);
    fz_poison(out->intrinsics, capacity * sizeof *out->intrinsics);
    size_t got;
    fz_poison(&got, sizeof got);
    /* Capacity 0 with the arrays given is fine too. */
    s = FZ(fathom_transforms_frames, t, out->timestamps, out->poses, out->intrinsics, capacity, &got);
    if (s != FATHOM_OK) fz_broken(f, "the capacity it asked for was not enough");
    if (got != count) fz_broken(f, "the count changed between calls");
    fz_untouched_past(f, out->timestamps + count, extra * sizeof *out->timestamps);
    fz_untouched_past(f, out->poses + count, extra * sizeof *out->poses);
    fz_untouched_past(f, out->intrinsics + count, extra * sizeof *out->intrinsics);
    for (size_t i = 0; i < count; i++) {
        int64_t ti;
        if (!expected_timestamp(i, rate, &ti) || out->timestamps[i] != ti) fz_broken(f, "a timestamp is not round(i * 1e9 / rate)");
        if (fathom_pose_check_rigid(&out->poses[i], 2e-3f) != FATHOM_OK) fz_broken(f, "a pose read is not rigid");
        const fathom_intrinsics *k = &out->intrinsics[i];
        if (!(k->fx > 0 && k->fy > 0 && isfinite(k->fx) && isfinite(k->fy) && isfinite(k->cx) && isfinite(k->cy)))
            fz_broken(f, "intrinsics read are not valid");
        if (k->width < 1 || k->width > 1000000 || k->height < 1 || k->height > 1000000)
            fz_broken(f, "w or h outside 1...1000000");
    }

    /* Asked again: the same frames. */
    int64_t *ts = fz_malloc(count * sizeof *ts);
    fathom_pose *p = fz_malloc(count * sizeof *p);
    fathom_intrinsics *k = fz_malloc(count * sizeof *k);
    s = FZ(fathom_transforms_frames, t, count ? ts : NULL, count ? p : NULL, count ? k : NULL, count, &got);
    if (s != FATHOM_OK || got != count) fz_broken(f, "asked again, the frames could not be had");
    if (memcmp(ts, out->timestamps, count * sizeof *ts) != 0 || memcmp(p, out->poses, count * sizeof *p) != 0 ||
        memcmp(k, out->intrinsics, count * sizeof *k) != 0)
        fz_broken(f, "asked again, the frames differ");
    free(ts);
    free(p);
    free(k);
    return FATHOM_OK;
}

static void free_loaded(loaded *l) {
    free(l->timestamps);
    free(l->poses);
    free(l->intrinsics);
    memset(l, 0, sizeof *l);
}

/* fathom_transforms_paths of `t`: the length first, too small, NULL with room, then enough, then once more.
 * Returns the bytes (malloc'd) and puts their length in *out_length. */
static char *paths_of(fz_input *in, const fathom_transforms *t, size_t *out_length) {
    const char *f = "fathom_transforms_paths";
    size_t length;
    fz_poison(&length, sizeof length);
    fathom_status s = FZ(fathom_transforms_paths, t, NULL, 0, &length);
    if (s != FATHOM_OK && s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_broken(f, "the length of a handle's paths was refused");
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
        s = FZ(fathom_transforms_paths, t, small, capacity, &other);
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_broken(f, "too small a capacity was not FATHOM_ERR_BUFFER_TOO_SMALL");
        if (other != length) fz_broken(f, "the length changed between calls");
        fz_untouched(s, f, small, capacity);
        free(small);
    }
    if (length > 0 && mode % 8 == 4) {
        /* Room enough but no buffer: an error that writes nothing. */
        size_t other;
        fz_poison(&other, sizeof other);
        s = FZ(fathom_transforms_paths, t, NULL, length + fz_u8(in), &other);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken(f, "a NULL buffer with room was not FATHOM_ERR_NULL_POINTER");
        fz_untouched(s, f, &other, sizeof other);
    }
    size_t extra = mode & 16 ? fz_u8(in) % 8 : 0, capacity = length + extra;
    char *buffer = fz_malloc(capacity);
    size_t got;
    fz_poison(buffer, capacity);
    fz_poison(&got, sizeof got);
    s = FZ(fathom_transforms_paths, t, capacity ? buffer : NULL, capacity, &got);
    if (s != FATHOM_OK) fz_broken(f, "the capacity it asked for was not enough");
    if (got != length) fz_broken(f, "the length changed between calls");
    if (length > 0 && buffer[length - 1] != 0) fz_broken(f, "the last path is not NUL-terminated");
    fz_untouched_past(f, buffer + length, extra);

    /* Asked again: the same bytes. */
    char *again = fz_malloc(length);
    s = FZ(fathom_transforms_paths, t, length ? again : NULL, length, &got);
    if (s != FATHOM_OK || got != length || memcmp(again, buffer, length) != 0) fz_broken(f, "asked again, the paths differ");
    free(again);
    *out_length = length;
    return buffer;
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
        if (split_paths(paths, paths_length, names) != n) fz_broken("fathom_transforms_paths", "not one path per frame");
    }
    fathom_status s = FZ(fathom_transforms_save, saved_path, n ? l->poses : NULL, n ? l->intrinsics : NULL, n,
                         with_paths ? names : NULL);
    if (s != FATHOM_OK) fz_broken(f, "what fathom_transforms_frames gave could not be saved");
    fathom_transforms *t;
    s = read_file(saved_path, rate, &t);
    if (s != FATHOM_OK) fz_broken(f, "a saved file does not read");
    loaded back;
    s = frames(in, t, rate, &back);
    if (s != FATHOM_OK) fz_broken(f, "a saved file's frames do not read");
    if (back.count != n) fz_broken(f, "the frame count does not read back");
    for (size_t i = 0; i < n; i++) {
        if (back.timestamps[i] != l->timestamps[i]) fz_broken(f, "timestamps differ after a round trip");
        for (int e = 0; e < 16; e++)
            if (back.poses[i].m[e] != l->poses[i].m[e]) fz_broken(f, "a pose does not read back");
        if (!same_intrinsics(&back.intrinsics[i], &l->intrinsics[i])) fz_broken(f, "intrinsics do not read back");
    }
    free_loaded(&back);
    size_t again_length = 0;
    char *again = paths_of(in, t, &again_length);
    fathom_transforms_destroy(t);
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

    /* NULL arguments: a NULL path, handle or out-pointer. */
    uint8_t nulls = fz_u8(&in);
    if (nulls == 1) {
        fathom_transforms *t = NOT_NULL;
        size_t count;
        fathom_status s = FZ(fathom_transforms_read, NULL, 0, &t);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_transforms_read", "a NULL path was not FATHOM_ERR_NULL_POINTER");
        if (t != NULL) fz_broken("fathom_transforms_read", "a failed read did not leave *out NULL");
        s = FZ(fathom_transforms_read, file_path, 0, NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_transforms_read", "a NULL out was not FATHOM_ERR_NULL_POINTER");
        fz_poison(&count, sizeof count);
        s = FZ(fathom_transforms_frames, NULL, NULL, NULL, NULL, 0, &count);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_transforms_frames", "a NULL handle was not FATHOM_ERR_NULL_POINTER");
        fz_untouched(s, "fathom_transforms_frames", &count, sizeof count);
        s = FZ(fathom_transforms_paths, NULL, NULL, 0, &count);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_transforms_paths", "a NULL handle was not FATHOM_ERR_NULL_POINTER");
        fz_untouched(s, "fathom_transforms_paths", &count, sizeof count);
        fathom_transforms_destroy(NULL);
    }

    /* The reference: rate 0 (frame indices). s0 is the read's status, then the frames' (FATHOM_ERR_BUFFER_TOO_SMALL
     * for more than MAX_FRAMES). */
    fathom_transforms *t0;
    loaded l = {0};
    char *paths = NULL;
    size_t paths_length = 0;
    fathom_status read0 = read_file(file_path, 0, &t0), s0 = read0;
    if (read0 == FATHOM_OK) {
        if (nulls == 2) {
            fathom_status s = FZ(fathom_transforms_frames, t0, NULL, NULL, NULL, 0, NULL);
            if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_transforms_frames", "a NULL out_count was not FATHOM_ERR_NULL_POINTER");
            s = FZ(fathom_transforms_paths, t0, NULL, 0, NULL);
            if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_transforms_paths", "a NULL out_length was not FATHOM_ERR_NULL_POINTER");
        }
        s0 = frames(&in, t0, 0, &l);
        paths = paths_of(&in, t0, &paths_length);
        if (split_paths(paths, paths_length, NULL) != l.count)
            fz_broken("fathom_transforms_paths", "not one NUL-terminated path per frame");
    }

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
    int valid_rate = rate >= 0 && isfinite(rate);
    fathom_transforms *tr;
    loaded lr = {0};
    fathom_status readr = read_file(file_path, rate, &tr), sr = readr;
    if (readr == FATHOM_OK) sr = frames(&in, tr, rate, &lr);
    if (read0 != FATHOM_OK && valid_rate && readr != read0)
        fz_broken("fathom_transforms_read", "the rate changed a file's error");
    if (read0 == FATHOM_OK && readr != FATHOM_OK) {
        int64_t last;
        int fits = n == 0 || expected_timestamp(n - 1, rate, &last);
        if (valid_rate && fits) fz_broken("fathom_transforms_read", "a valid rate was refused");
        if (readr == FATHOM_ERR_OVERFLOW && fits)
            fz_broken("fathom_transforms_read", "FATHOM_ERR_OVERFLOW for timestamps that fit int64");
    }
    if (read0 == FATHOM_OK && readr == FATHOM_OK) {
        if (lr.count != n) fz_broken("fathom_transforms_frames", "the rate changed the frame count");
        size_t rate_paths_length = 0;
        char *rate_paths = paths_of(&in, tr, &rate_paths_length);
        if (rate_paths_length != paths_length || memcmp(rate_paths, paths, paths_length) != 0)
            fz_broken("fathom_transforms_paths", "the rate changed the paths");
        free(rate_paths);
    }
    if (s0 == FATHOM_OK && sr == FATHOM_OK) {
        for (size_t i = 0; i < n; i++)
            if (memcmp(&lr.poses[i], &l.poses[i], sizeof l.poses[i]) != 0 ||
                memcmp(&lr.intrinsics[i], &l.intrinsics[i], sizeof l.intrinsics[i]) != 0)
                fz_broken("fathom_transforms_frames", "the rate changed the poses or intrinsics");
        round_trip(&in, &lr, rate, paths, paths_length);
    } else if (s0 == FATHOM_OK) {
        round_trip(&in, &l, 0, paths, paths_length);
    }
    fathom_transforms_destroy(t0);
    fathom_transforms_destroy(tr);
    free_loaded(&l);
    free_loaded(&lr);
    free(paths);
    return 0;
}
