/* Fuzz target: scans (fathom.h, "Scans") read and written, and the reports made from them.
 *
 * Input: the scan's files, separated by the 8-byte line "\n=FILE=\n", in this order: <id>.json,
 * <id>.depth.zlib, <id>.confidence.zlib, <id>.jsonl, boundingbox.json, then everything after the fifth
 * separator is control bytes (the fuzzed arguments of the calls; zeros past their end). Missing parts are
 * absent files; control byte 0's bits 0-4 remove file 0-4 as well; its bit 7 selects the writer mode.
 *  - Reader mode: the files go into a per-process /dev/shm scan folder, fathom_scan_open opens it (the
 *    folder, one of its files, NULLs, missing paths) and an opened scan goes through every reader: info, id,
 *    warnings, per-frame arrays, depth and confidence reads (indices in and out of range, capacities too
 *    small first), fathom_scan_frame, fathom_scan_point_cloud and fathom_scan_report with its getters; a
 *    scanner-app scan is also opened indexed while read and compared with it (index_while_reading).
 *  - Writer mode: a scan made by fathom_scan_writer_* from fuzzed options and frames (refused ones included)
 *    is opened back: what the writer accepted reads back (timestamps, intrinsics, stored depth and confidence
 *    bytes, poses exactly when rigid within 1e-5), then goes through the readers as above.
 *  - Folder modes, when the input begins with "=STRAY=\n" or "=NERFSTUDIO=\n" (then the parts and control bytes
 *    as above): a Stray Scanner folder (camera_matrix.csv, odometry.csv, depth/000000.png,
 *    confidence/000000.png, depth/000001.png) or a nerfstudio folder (transforms.json, depth/000000.png to
 *    depth/000003.png), with PNGs of further frames made by the harness from control bytes (of the scan's kind
 *    mostly; sometimes of another size, depth or colour type, cut or empty). A folder without its metadata is
 *    "not a scan"; an opened one is of its format, FLOAT32 meters (Stray's whole millimetres), and goes through
 *    the readers as above.
 * Every opened scan of modest size may also be converted (fathom_scan_write) to a scanner-app scan or a Stray
 * folder: refused arguments write nothing, a cancel stops it, a grid wider or taller than 4096 is refused for
 * Stray before anything is written, a timestamp of 9e18 ns or more (either sign) stops a Stray write with
 * FATHOM_ERR_OUT_OF_RANGE after the frames before it, and a copy written opens in its format with the scan's
 * frames, timestamps (equal ones included), intrinsics (a Stray copy's scaled to its 1920 x 1440 video),
 * positions and confidence (above 2 written as 0), its depth as the header says (uint16 in other units than
 * millimetres as FLOAT32 meters in a scanner-app copy). Stray confidence reads 0, 1 or 2.
 * Seeds are whole scans written by the library's writer (and damaged copies of them), and Stray folders written
 * by fathom_scan_write.
 */
#define _XOPEN_SOURCE 700
#include "fuzz.h"
#include "fuzz_files.h"

#include <sys/stat.h>
#include <unistd.h>

#define SCAN_ID "20240611_101530_C0FFEE"
#define SEPARATOR "\n=FILE=\n"
#define SEPARATOR_LEN 8
/* Frames larger than this are not read into buffers by the harness (capacity checks still run). */
#define MAX_FRAME_BYTES ((size_t)4 << 20)
#define CACHE 8

static const char *root; /* the per-process temporary directory */
static char scan_dir[128], writer_dir[128], report_dir[128], convert_dir[128], folder_dir[128];

static const char *const part_names[5] = {SCAN_ID ".json", SCAN_ID ".depth.zlib", SCAN_ID ".confidence.zlib",
                                          SCAN_ID ".jsonl", "boundingbox.json"};

/* ---------------------------------------------------------------------------------------------- */
/* Files                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

static void setup(void) {
    if (root) return;
    root = fz_temp_dir("fathom-fuzz-scan-XXXXXX");
    fz_path_join(scan_dir, sizeof scan_dir, root, "scan");
    fz_path_join(writer_dir, sizeof writer_dir, root, "w");
    fz_path_join(report_dir, sizeof report_dir, root, "report");
    fz_path_join(convert_dir, sizeof convert_dir, root, "convert");
    fz_path_join(folder_dir, sizeof folder_dir, root, "folder");
}

/* ---------------------------------------------------------------------------------------------- */
/* Small helpers                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

static size_t sample_bytes(uint32_t format) { return format == FATHOM_DEPTH_FLOAT32 ? 4 : 2; }

/* A frame index: in range mostly, sometimes just past the end or far out. */
static uint64_t pick_index(fz_input *in, uint64_t count) {
    switch (fz_u8(in) % 10) {
    case 0: return count;
    case 1: return UINT64_MAX;
    case 2: return fz_u64(in);
    case 3: return (uint64_t)INT64_MAX + 1;
    case 4: return count - 1;
    default: return fz_u32(in) % count;
    }
}

/* The header's text outputs (scan id, warnings, report JSON): capacity 0 with NULL asks for the length,
 * too small a capacity writes nothing, a NULL buffer with room is FATHOM_ERR_NULL_POINTER (writing nothing),
 * and enough room gives the NUL-terminated text. Returns the text (malloc'd) or NULL. */
typedef enum { TEXT_SCAN_ID, TEXT_WARNING, TEXT_REPORT_JSON } text_kind;

static fathom_status call_text(text_kind kind, const void *object, uint32_t index, char *buffer, size_t capacity,
                               size_t *length) {
    switch (kind) {
    case TEXT_SCAN_ID: return fz_checked(fathom_scan_id(object, buffer, capacity, length), "fathom_scan_id");
    case TEXT_WARNING:
        return fz_checked(fathom_scan_warning(object, index, buffer, capacity, length), "fathom_scan_warning");
    default: return fz_checked(fathom_report_json(object, buffer, capacity, length), "fathom_report_json");
    }
}

static const char *text_name(text_kind kind) {
    return kind == TEXT_SCAN_ID ? "fathom_scan_id" : kind == TEXT_WARNING ? "fathom_scan_warning" : "fathom_report_json";
}

static char *get_text(fz_input *in, text_kind kind, const void *object, uint32_t index) {
    const char *name = text_name(kind);
    size_t length;
    fz_poison(&length, sizeof length);
    fathom_status s = call_text(kind, object, index, NULL, 0, &length);
    if (s == FATHOM_OK) fz_broken(name, "capacity 0 was enough for a NUL-terminated text");
    if (s != FATHOM_ERR_BUFFER_TOO_SMALL) {
        fz_untouched(s, name, &length, sizeof length);
        return NULL;
    }
    if (length > ((size_t)64 << 20)) fz_broken(name, "a text longer than 64 MiB");
    uint8_t variant = fz_u8(in);
    if (variant % 4 == 1) {
        /* Room enough but no buffer: an error that writes nothing. */
        size_t other;
        fz_poison(&other, sizeof other);
        s = call_text(kind, object, index, NULL, length + 1 + fz_u8(in), &other);
        if (s == FATHOM_OK) fz_broken(name, "a NULL buffer was accepted");
        fz_untouched(s, name, &other, sizeof other);
    }
    if (variant % 3 == 0) {
        /* One byte short (no room for the NUL), or anything shorter. */
        size_t capacity = variant & 0x80 ? length : (length ? fz_u32(in) % length : 0);
        char *small = fz_malloc(capacity);
        size_t other;
        fz_poison(small, capacity);
        fz_poison(&other, sizeof other);
        s = call_text(kind, object, index, small, capacity, &other);
        if (s == FATHOM_OK) fz_broken(name, "too small a capacity was accepted");
        fz_untouched(s, name, small, capacity);
        if (s == FATHOM_ERR_BUFFER_TOO_SMALL && other != length) fz_broken(name, "the length needed changed");
        if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_untouched(s, name, &other, sizeof other);
        free(small);
    }
    size_t capacity = length + 1 + (variant & 0x40 ? fz_u8(in) : 0);
    char *text = fz_malloc(capacity);
    size_t got;
    fz_poison(text, capacity);
    fz_poison(&got, sizeof got);
    s = call_text(kind, object, index, text, capacity, &got);
    if (s != FATHOM_OK) fz_broken(name, "the capacity it asked for was not enough");
    if (got != length) fz_broken(name, "the length differs from the one asked for");
    if (text[length] != 0) fz_broken(name, "the text is not NUL-terminated at its length");
    if (strlen(text) != length) fz_broken(name, "the text holds a NUL before its length");
    for (size_t i = length + 1; i < capacity; i++)
        if ((uint8_t)text[i] != FZ_POISON) fz_broken(name, "wrote past the NUL");
    return text;
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading an opened scan                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* The first read of up to CACHE frames, to compare later reads of the same frame with. */
typedef struct frame_cache {
    uint64_t index[CACHE];
    uint8_t *bytes[CACHE];
    int used;
} frame_cache;

static void cache_check(frame_cache *cache, uint64_t index, const uint8_t *bytes, size_t size, const char *function) {
    for (int i = 0; i < cache->used; i++)
        if (cache->index[i] == index) {
            if (memcmp(cache->bytes[i], bytes, size) != 0) fz_broken(function, "a frame read twice differs");
            return;
        }
    if (cache->used == CACHE) return;
    cache->index[cache->used] = index;
    cache->bytes[cache->used] = fz_malloc(size);
    memcpy(cache->bytes[cache->used], bytes, size);
    cache->used++;
}

static void cache_free(frame_cache *cache) {
    for (int i = 0; i < cache->used; i++) free(cache->bytes[i]);
    cache->used = 0;
}

typedef struct scan_state {
    const fathom_scan *scan;
    fathom_scan_info info;
    size_t depth_bytes, confidence_bytes;
    int64_t *timestamps;
    fathom_pose *poses;
    fathom_intrinsics *intrinsics;
    frame_cache depth_cache, confidence_cache;
} scan_state;

static void check_info(const fathom_scan_info *info) {
    const char *f = "fathom_scan_get_info";
    if (info->frame_count < 1) fz_broken(f, "an opened scan has no frame");
    if (info->depth_width < 1 || info->depth_height < 1 || info->depth_width > 65535 || info->depth_height > 65535)
        fz_broken(f, "a depth grid outside 1...65535");
    if (info->depth_format > FATHOM_DEPTH_UINT16) fz_broken(f, "depth_format out of the enum");
    if (info->depth_format == FATHOM_DEPTH_UINT16 ? !(info->depth_scale == 0.001f || info->depth_scale == 1.0f)
                                                  : info->depth_scale != 1.0f)
        fz_broken(f, "depth_scale is neither 1 nor 0.001 (for uint16)");
    if (info->rgb_width < 1 || info->rgb_height < 1) fz_broken(f, "an RGB image of no pixels");
    if (fz_bool_byte(&info->has_confidence) > 1) fz_broken(f, "has_confidence not false (0) or true (1)");
    if (!fz_all_zero(info->reserved, sizeof info->reserved)) fz_broken(f, "the reserved words are not 0");
    /* A scanner-app scan's metadata of more pixels does not open; a Stray PNG of more pixels is a skipped frame. */
    if (info->format != FATHOM_SCAN_NERFSTUDIO && (uint64_t)info->depth_width * info->depth_height > 4194304)
        fz_broken(f, "a depth grid of more than 4194304 pixels");
    if (info->format > FATHOM_SCAN_NERFSTUDIO) fz_broken(f, "format out of the enum");
}

/* The same info, field by field (fathom_scan_info has padding after has_confidence, which memcmp would compare). */
static int same_info(const fathom_scan_info *a, const fathom_scan_info *b) {
    return a->frame_count == b->frame_count && a->depth_width == b->depth_width && a->depth_height == b->depth_height &&
           a->depth_format == b->depth_format && memcmp(&a->depth_scale, &b->depth_scale, sizeof a->depth_scale) == 0 &&
           a->rgb_width == b->rgb_width && a->rgb_height == b->rgb_height && a->has_confidence == b->has_confidence &&
           a->warning_count == b->warning_count && memcmp(&a->frequency, &b->frequency, sizeof a->frequency) == 0 &&
           a->format == b->format;
}

/* Confidence read from a Stray folder: 0, 1 or 2 (a PNG value above 2 is damage and reads as 0). */
static void stray_confidence(const fathom_scan_info *info, const uint8_t *conf, size_t n, const char *function) {
    if (info->format != FATHOM_SCAN_STRAY) return;
    for (size_t k = 0; k < n; k++)
        if (conf[k] > 2) fz_broken(function, "Stray confidence above 2 did not read as 0");
}

/* The per-frame arrays: a capacity one short first (nothing written), then enough. */
static void read_arrays(fz_input *in, scan_state *st) {
    const fathom_scan *scan = st->scan;
    size_t n = (size_t)st->info.frame_count;
    fathom_status s;
    uint8_t mode = fz_u8(in);
    if (mode & 1) {
        size_t small = fz_u8(in) & 1 ? n - 1 : fz_count(in, n - 1);
        int64_t *t = fz_malloc(small * sizeof *t);
        fathom_pose *p = fz_malloc(small * sizeof *p);
        fathom_intrinsics *k = fz_malloc(small * sizeof *k);
        fz_poison(t, small * sizeof *t);
        fz_poison(p, small * sizeof *p);
        fz_poison(k, small * sizeof *k);
        s = FZ(fathom_scan_timestamps, scan, small ? t : NULL, small);
        if (s == FATHOM_OK) fz_broken("fathom_scan_timestamps", "too small a capacity was accepted");
        fz_untouched(s, "fathom_scan_timestamps", t, small * sizeof *t);
        s = FZ(fathom_scan_poses, scan, small ? p : NULL, small);
        if (s == FATHOM_OK) fz_broken("fathom_scan_poses", "too small a capacity was accepted");
        fz_untouched(s, "fathom_scan_poses", p, small * sizeof *p);
        s = FZ(fathom_scan_intrinsics, scan, small ? k : NULL, small);
        if (s == FATHOM_OK) fz_broken("fathom_scan_intrinsics", "too small a capacity was accepted");
        fz_untouched(s, "fathom_scan_intrinsics", k, small * sizeof *k);
        free(t);
        free(p);
        free(k);
    }
    if (mode & 2) {
        s = FZ(fathom_scan_timestamps, scan, NULL, n + fz_u8(in));
        if (s == FATHOM_OK) fz_broken("fathom_scan_timestamps", "a NULL output was accepted");
        s = FZ(fathom_scan_poses, NULL, st->poses, n);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_scan_poses", "a NULL scan was not FATHOM_ERR_NULL_POINTER");
    }
    size_t extra = mode & 4 ? fz_u8(in) % 4 : 0;
    size_t capacity = n + extra;
    st->timestamps = fz_malloc(capacity * sizeof *st->timestamps);
    st->poses = fz_malloc(capacity * sizeof *st->poses);
    st->intrinsics = fz_malloc(capacity * sizeof *st->intrinsics);
    fz_poison(st->timestamps, capacity * sizeof *st->timestamps);
    fz_poison(st->poses, capacity * sizeof *st->poses);
    fz_poison(st->intrinsics, capacity * sizeof *st->intrinsics);
    if (FZ(fathom_scan_timestamps, scan, st->timestamps, capacity) != FATHOM_OK)
        fz_broken("fathom_scan_timestamps", "frame_count elements were not enough");
    if (FZ(fathom_scan_poses, scan, st->poses, capacity) != FATHOM_OK)
        fz_broken("fathom_scan_poses", "frame_count elements were not enough");
    if (FZ(fathom_scan_intrinsics, scan, st->intrinsics, capacity) != FATHOM_OK)
        fz_broken("fathom_scan_intrinsics", "frame_count elements were not enough");
    /* Elements past frame_count stay as they were. */
    fz_untouched(1, "fathom_scan_timestamps", st->timestamps + n, extra * sizeof *st->timestamps);
    fz_untouched(1, "fathom_scan_poses", st->poses + n, extra * sizeof *st->poses);
    fz_untouched(1, "fathom_scan_intrinsics", st->intrinsics + n, extra * sizeof *st->intrinsics);
    for (size_t i = 0; i < n; i++) {
        /* Poses are rigid (kept within 1e-5, else re-orthonormalized); intrinsics valid, of the RGB image. */
        if (fathom_pose_check_rigid(&st->poses[i], 2e-3f) != FATHOM_OK) fz_broken("fathom_scan_poses", "a pose is not rigid");
        const fathom_intrinsics *k = &st->intrinsics[i];
        if (!(k->fx > 0 && k->fy > 0 && isfinite(k->fx) && isfinite(k->fy) && isfinite(k->cx) && isfinite(k->cy)))
            fz_broken("fathom_scan_intrinsics", "invalid intrinsics");
        if (k->width != st->info.rgb_width || k->height != st->info.rgb_height)
            fz_broken("fathom_scan_intrinsics", "intrinsics not of the RGB image of the info");
    }
}

/* A frame in range of an opened scan reads, except that a PNG frame is decoded only when read (the header): its
 * data may then be bad (FATHOM_ERR_FORMAT) or its file gone (FATHOM_ERR_IO). */
static int read_may_fail(const scan_state *st, fathom_status s) {
    return st->info.format != FATHOM_SCAN_SCANNER && (s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_IO);
}

static void read_frames(fz_input *in, scan_state *st) {
    const fathom_scan *scan = st->scan;
    const uint64_t count = st->info.frame_count;
    const size_t db = st->depth_bytes, cb = st->confidence_bytes;
    const int readable = db <= MAX_FRAME_BYTES;
    int reads = fz_u8(in) % 6;
    for (int r = 0; r < reads; r++) {
        uint8_t op = fz_u8(in);
        uint64_t index = pick_index(in, count);
        int in_range = index < count;
        fathom_status s;
        if (op % 3 == 0) {
            /* fathom_scan_read_depth: too small first, then the frame's bytes. */
            size_t small = op & 0x10 ? db - 1 : (size_t)fz_u32(in) % db;
            if (small <= MAX_FRAME_BYTES) {
                uint8_t *buf = fz_malloc(small);
                fz_poison(buf, small);
                s = FZ(fathom_scan_read_depth, scan, index, small ? buf : NULL, small);
                if (s == FATHOM_OK) fz_broken("fathom_scan_read_depth", "too small a capacity was accepted");
                fz_untouched(s, "fathom_scan_read_depth", buf, small);
                free(buf);
            }
            if (!readable) continue;
            size_t extra = op & 0x20 ? fz_u8(in) : 0;
            uint8_t *buf = fz_malloc(db + extra);
            fz_poison(buf, db + extra);
            s = FZ(fathom_scan_read_depth, scan, index, op & 0x40 && op & 0x80 ? NULL : buf, db + extra);
            if (s == FATHOM_OK && !in_range) fz_broken("fathom_scan_read_depth", "an index out of range was accepted");
            if (s == FATHOM_OK && op & 0x40 && op & 0x80) fz_broken("fathom_scan_read_depth", "a NULL output was accepted");
            fz_untouched(s, "fathom_scan_read_depth", buf, db + extra);
            if (s == FATHOM_OK) {
                fz_untouched(1, "fathom_scan_read_depth", buf + db, extra);
                cache_check(&st->depth_cache, index, buf, db, "fathom_scan_read_depth");
            } else if (in_range && !(op & 0x40 && op & 0x80) && !read_may_fail(st, s)) {
                fz_broken("fathom_scan_read_depth", "a frame in range of an opened scan did not read");
            }
            free(buf);
        } else if (op % 3 == 1) {
            size_t small = op & 0x10 ? cb - 1 : (size_t)fz_u32(in) % cb;
            if (small <= MAX_FRAME_BYTES) {
                uint8_t *buf = fz_malloc(small);
                fz_poison(buf, small);
                s = FZ(fathom_scan_read_confidence, scan, index, small ? buf : NULL, small);
                if (s == FATHOM_OK) fz_broken("fathom_scan_read_confidence", "too small a capacity was accepted");
                fz_untouched(s, "fathom_scan_read_confidence", buf, small);
                free(buf);
            }
            if (!readable) continue;
            uint8_t *buf = fz_malloc(cb);
            fz_poison(buf, cb);
            s = FZ(fathom_scan_read_confidence, scan, index, buf, cb);
            if (s == FATHOM_OK && !in_range) fz_broken("fathom_scan_read_confidence", "an index out of range was accepted");
            if (s == FATHOM_OK && !st->info.has_confidence)
                fz_broken("fathom_scan_read_confidence", "a scan without confidence read some");
            if (s != FATHOM_OK && in_range && st->info.has_confidence && !read_may_fail(st, s))
                fz_broken("fathom_scan_read_confidence", "a frame in range of an opened scan did not read");
            if (s == FATHOM_ERR_NO_DATA && st->info.has_confidence)
                fz_broken("fathom_scan_read_confidence", "FATHOM_ERR_NO_DATA with a confidence stream");
            fz_untouched(s, "fathom_scan_read_confidence", buf, cb);
            if (s == FATHOM_OK) {
                stray_confidence(&st->info, buf, cb, "fathom_scan_read_confidence");
                cache_check(&st->confidence_cache, index, buf, cb, "fathom_scan_read_confidence");
            }
            free(buf);
        } else {
            if (!readable) continue;
            /* fathom_scan_frame: the depth buffer NULL, misaligned or short; the confidence NULL or short. */
            size_t ss = sample_bytes(st->info.depth_format);
            uint8_t dmode = fz_u8(in) % 8, cmode = fz_u8(in) % 6;
            size_t dcap = dmode == 3 ? (size_t)fz_u32(in) % db : db;
            size_t ccap = cmode == 2 ? (size_t)fz_u32(in) % cb : cb + (cmode == 3 ? fz_u8(in) : 0);
            uint8_t *dbuf = fz_malloc(db + 1), *cbuf = fz_malloc(ccap);
            uint8_t *depth = dmode == 1 ? NULL : dmode == 2 ? dbuf + 1 : dbuf;
            uint8_t *conf = cmode == 0 || cmode == 4 ? NULL : cbuf;
            fathom_depth_frame frame;
            int null_out = fz_u8(in) == 0;
            fz_poison(dbuf, db + 1);
            fz_poison(cbuf, ccap);
            fz_poison(&frame, sizeof frame);
            s = FZ(fathom_scan_frame, scan, index, depth, dcap, conf, conf ? ccap : (size_t)fz_u8(in),
                   null_out ? NULL : &frame);
            const char *f = "fathom_scan_frame";
            int misaligned = dmode == 2 && ss > 1;
            if (s == FATHOM_OK) {
                if (!in_range) fz_broken(f, "an index out of range was accepted");
                if (!depth || null_out) fz_broken(f, "a NULL pointer was accepted");
                if (misaligned) fz_broken(f, "a misaligned depth buffer was accepted");
                if (dcap < db) fz_broken(f, "too small a depth capacity was accepted");
                if (conf && ccap < cb) fz_broken(f, "too small a confidence capacity was accepted");
                if (frame.depth != depth) fz_broken(f, "the frame does not borrow the depth buffer");
                if (frame.format != st->info.depth_format || frame.width != st->info.depth_width ||
                    frame.height != st->info.depth_height || frame.scale != st->info.depth_scale)
                    fz_broken(f, "the frame's format, size or scale differ from the info");
                if (frame.row_stride != 0 || frame.min_confidence != 0 || frame.min_depth != 0 ||
                    !(isinf(frame.max_depth) && frame.max_depth > 0) || fz_bool_byte(&frame.has_pose) != 1 ||
                    !fz_all_zero(frame.reserved, sizeof frame.reserved))
                    fz_broken(f, "the frame's stride, confidence threshold, range, has_pose or reserved are not as documented");
                if (frame.confidence != (conf && st->info.has_confidence ? conf : NULL))
                    fz_broken(f, "the frame's confidence is not the buffer given (or set without a confidence stream)");
                size_t i = (size_t)index;
                if (memcmp(&frame.camera_to_world, &st->poses[i], sizeof frame.camera_to_world) != 0)
                    fz_broken(f, "the frame's pose differs from fathom_scan_poses");
                if (memcmp(&frame.intrinsics, &st->intrinsics[i], sizeof frame.intrinsics) != 0)
                    fz_broken(f, "the frame's intrinsics differ from fathom_scan_intrinsics");
                cache_check(&st->depth_cache, index, depth, db, f);
                if (frame.confidence) {
                    stray_confidence(&st->info, conf, cb, f);
                    cache_check(&st->confidence_cache, index, conf, cb, f);
                }
                else if (conf) fz_untouched(1, f, conf, ccap);
                if (!misaligned && dmode != 2) fz_untouched(1, f, dbuf + db, 1);
            } else {
                if (in_range && depth && !misaligned && dcap >= db && !null_out && !(conf && ccap < cb) && !read_may_fail(st, s))
                    fz_broken(f, "a valid frame read failed");
                fz_untouched(s, f, dbuf, db + 1);
                fz_untouched(s, f, cbuf, ccap);
                fz_untouched(s, f, &frame, sizeof frame);
            }
            free(dbuf);
            free(cbuf);
        }
    }
}

static void check_cloud(const fathom_point_cloud *cloud, uint64_t max_points, const char *function) {
    fathom_point_cloud_info ci;
    fz_poison(&ci, sizeof ci);
    if (FZ(fathom_point_cloud_get_info, cloud, &ci) != FATHOM_OK) fz_broken(function, "its cloud has no info");
    if (ci.count > max_points) fz_broken(function, "more points than samples");
    if (ci.count > ((uint64_t)1 << 22)) return;
    size_t n = (size_t)ci.count;
    float *points = fz_malloc(n * 3 * sizeof(float));
    fathom_status s = FZ(fathom_point_cloud_points, cloud, n ? points : NULL, n);
    if (s != FATHOM_OK) fz_broken("fathom_point_cloud_points", "count points were not enough");
    free(points);
}

static void point_cloud(fz_input *in, scan_state *st) {
    fathom_scan_cloud_options options, copy;
    fathom_scan_cloud_options *op = NULL;
    uint8_t mode = fz_u8(in);
    int invalid = 0;
    if (mode % 4 != 0) {
        fz_poison(&options, sizeof options);
        if (FZ(fathom_scan_cloud_options_init, &options) != FATHOM_OK) fz_broken("fathom_scan_cloud_options_init", "failed");
        if (options.min_confidence != 2 || !(isinf(options.max_depth) && options.max_depth > 0) || options.voxel != 0 ||
            options.frame_step != 1 || !fz_all_zero(options.reserved, sizeof options.reserved))
            fz_broken("fathom_scan_cloud_options_init", "defaults differ from the header's");
        if (mode & 0x04) options.min_confidence = fz_u8(in) < 240 ? fz_u8(in) % 4 : fz_u32(in);
        if (mode & 0x08) options.max_depth = fz_float(in);
        if (mode & 0x10) {
            uint8_t v = fz_u8(in);
            options.voxel = v < 64 ? 1e-4f : v < 128 ? 0.01f : v < 160 ? 9.9e-5f : fz_float(in);
        }
        if (mode & 0x20) options.frame_step = fz_u8(in) < 240 ? fz_u8(in) % 5 : fz_u32(in);
        if (mode & 0x40) { /* a reserved word: refused unless 0 (one read per statement) */
            size_t word = fz_u8(in) % (sizeof options.reserved / sizeof options.reserved[0]);
            options.reserved[word] = fz_u32(in);
        }
        invalid = options.min_confidence > 255 || !(options.max_depth > 0) ||
                  !(options.voxel == 0 || (options.voxel >= 1e-4f && isfinite(options.voxel))) || options.frame_step < 1 ||
                  !fz_all_zero(options.reserved, sizeof options.reserved);
        op = &options;
        copy = options;
    }
    fathom_point_cloud *cloud;
    fz_poison(&cloud, sizeof cloud);
    fathom_status s = FZ(fathom_scan_point_cloud, st->scan, op, mode == 0x80 ? NULL : &cloud);
    fz_untouched(s, "fathom_scan_point_cloud", &cloud, sizeof cloud);
    if (op && memcmp(&copy, op, sizeof copy) != 0) fz_broken("fathom_scan_point_cloud", "changed its options");
    if (s != FATHOM_OK) return;
    if (mode == 0x80) fz_broken("fathom_scan_point_cloud", "a NULL output was accepted");
    if (invalid) fz_broken("fathom_scan_point_cloud", "invalid options were accepted");
    check_cloud(cloud, st->info.frame_count * st->info.depth_width * st->info.depth_height, "fathom_scan_point_cloud");
    fathom_point_cloud_destroy(cloud);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reports                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef struct progress_state {
    uint64_t calls, total, cancel_at;
    int cancelled;
} progress_state;

static int progress(void *user, uint64_t done, uint64_t total) {
    progress_state *p = user;
    p->calls++;
    if (done != p->calls) fz_broken("fathom_scan_report", "progress done is not the frames done so far");
    if (total != p->total) fz_broken("fathom_scan_report", "progress total is not the frame count");
    if (p->calls == p->cancel_at) {
        p->cancelled = 1;
        return 1 + (int)(p->calls % 3);
    }
    return 0;
}

static void capture_options(fz_input *in, fathom_capture_options *o) {
    uint32_t mask = fz_u32(in);
    if (mask & 1u << 0) o->min_confidence = fz_u8(in) < 240 ? fz_u8(in) % 4 : fz_u32(in);
    if (mask & 1u << 1) o->max_depth = fz_float(in);
    if (mask & 1u << 2) {
        uint8_t v = fz_u8(in);
        o->voxel = v < 64 ? 1e-4f : v < 128 ? 0.05f : fz_float(in);
    }
    if (mask & 1u << 3) o->fuse_distance = fz_float(in);
    if (mask & 1u << 4) o->fuse_angle = fz_float(in);
    if (mask & 1u << 5) o->min_voxel_points = fz_u8(in) < 240 ? fz_u8(in) % 8 : fz_u32(in);
    if (mask & 1u << 6) o->floor_threshold = fz_float(in);
    /* Few RANSAC iterations (a caller asking for many gets them, slowly), sometimes the limits. */
    if (mask & 1u << 7) {
        uint8_t v = fz_u8(in);
        o->floor_iterations = v < 200 ? v : v < 220 ? 0 : v < 240 ? 100001 : fz_u32(in) % 2048;
        if (v >= 240 && (fz_u32(in) & 1)) o->floor_iterations |= 0x80000000u;
    }
    if (mask & 1u << 8) o->floor_max_tilt = fz_float(in);
    if (mask & 1u << 9) o->object_clearance = fz_float(in);
    if (mask & 1u << 10) o->select_distance = fz_float(in);
    if (mask & 1u << 11) o->select_angle = fz_float(in);
    if (mask & 1u << 12) o->seed = fz_u64(in);
    if (mask & 1u << 13) o->motion.time_constant = fz_float(in);
    if (mask & 1u << 14) {
        o->motion.slow_speed = fz_float(in);
        o->motion.brisk_speed = fz_float(in);
        o->motion.fast_speed = fz_float(in);
    }
    if (mask & 1u << 15) o->motion.slightly = fz_float(in);
    if (mask & 1u << 16) o->motion.max_gap = fz_float(in);
    if (mask & 1u << 17) o->motion.intervals[fz_u8(in) % 3] = fz_float(in);
    if (mask & 1u << 18) o->coverage.goal = fz_u8(in) < 240 ? fz_u8(in) % 20 : fz_u32(in);
    if (mask & 1u << 19) o->coverage.cells = fz_u8(in) < 240 ? fz_u8(in) % 70 : fz_u32(in);
    if (mask & 1u << 20) {
        o->coverage.rings = fz_u8(in) < 240 ? fz_u8(in) : fz_u32(in);
        o->coverage.sectors = fz_u8(in) < 240 ? fz_u8(in) : fz_u32(in);
    }
    if (mask & 1u << 21) o->coverage.hemisphere = (int8_t)fz_u8(in) % 3;
    if (mask & 1u << 22) o->coverage.exclude_bottom = (int8_t)fz_u8(in);
    if (mask & 1u << 23) {
        o->coverage.min_distance = fz_float(in);
        o->coverage.max_distance = fz_float(in);
    }
    if (mask & 1u << 24) o->coverage.min_in_view = fz_float(in);
    if (mask & 1u << 25) o->coverage.min_separation_angle = fz_float(in);
    if (mask & 1u << 26) o->coverage.min_separation_distance = fz_float(in);
    /* A reserved word of the options or of the motion or coverage options in them: refused unless 0. */
    if (mask & 1u << 27) {
        size_t word = fz_u8(in) % (sizeof o->reserved / sizeof o->reserved[0]);
        o->reserved[word] = fz_u32(in);
    }
    if (mask & 1u << 28) {
        size_t word = fz_u8(in) % (sizeof o->motion.reserved / sizeof o->motion.reserved[0]);
        o->motion.reserved[word] = fz_u32(in);
    }
    if (mask & 1u << 29) {
        size_t word = fz_u8(in) % (sizeof o->coverage.reserved / sizeof o->coverage.reserved[0]);
        o->coverage.reserved[word] = fz_u32(in);
    }
}

/* Whether any reserved word of capture options (or of the motion and coverage options in them) is set. */
static int capture_reserved_set(const fathom_capture_options *o) {
    return !fz_all_zero(o->reserved, sizeof o->reserved) || !fz_all_zero(o->motion.reserved, sizeof o->motion.reserved) ||
           !fz_all_zero(o->coverage.reserved, sizeof o->coverage.reserved);
}

static void report_getters(fz_input *in, const fathom_report *report, const scan_state *st, int fresh_box) {
    fathom_report_summary summary;
    fz_poison(&summary, sizeof summary);
    int null_out = fz_u8(in) == 1;
    fathom_status s = FZ(fathom_report_get_summary, report, null_out ? NULL : &summary);
    fz_untouched(s, "fathom_report_get_summary", &summary, sizeof summary);
    if (s == FATHOM_OK && null_out) fz_broken("fathom_report_get_summary", "a NULL output was accepted");
    if (s != FATHOM_OK && !null_out) fz_broken("fathom_report_get_summary", "failed on a report");
    if (s == FATHOM_OK) {
        fz_check_summary_form(&summary, "fathom_report_get_summary");
        /* Frames whose timestamp goes back are skipped, and a warning says so: never more frames than the scan's,
         * and fewer only with a warning. */
        if (summary.frames > st->info.frame_count || (summary.frames < st->info.frame_count && summary.warning_count == 0))
            fz_broken("fathom_scan_report", "the report's frames are not the scan's, less those a warning names");
        if (summary.fused_frames > summary.frames) fz_broken("fathom_scan_report", "more frames fused than added");
        if (summary.box_source > FATHOM_BOX_FITTED) fz_broken("fathom_scan_report", "box_source out of the enum");
        if (fresh_box && summary.box_source != FATHOM_BOX_GIVEN) fz_broken("fathom_scan_report", "a given box is not GIVEN");
        if (summary.warning_count < st->info.warning_count)
            fz_broken("fathom_scan_report", "the report has fewer warnings than the scan");
    }
    char *json = get_text(in, TEXT_REPORT_JSON, report, 0);
    free(json);
    uint8_t which = fz_u8(in);
    uint32_t kind = which < 200 ? which % 2u : which < 240 ? 2u + which % 3u : fz_u32(in);
    fathom_point_cloud *cloud;
    fz_poison(&cloud, sizeof cloud);
    s = FZ(fathom_report_cloud, report, kind, &cloud);
    fz_untouched(s, "fathom_report_cloud", &cloud, sizeof cloud);
    if (s == FATHOM_OK) {
        if (kind > FATHOM_REPORT_OBJECT) fz_broken("fathom_report_cloud", "a kind out of the enum was accepted");
        check_cloud(cloud, UINT64_MAX, "fathom_report_cloud");
        fathom_point_cloud_destroy(cloud);
    } else if (kind <= FATHOM_REPORT_OBJECT) {
        fz_broken("fathom_report_cloud", "a valid kind failed");
    }
    uint8_t save = fz_u8(in);
    if (save == 7) {
        FZ(fathom_report_save, report, report_dir);
    } else if (save == 8) {
        s = FZ(fathom_report_save, report, NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_report_save", "a NULL directory was not FATHOM_ERR_NULL_POINTER");
    }
}

static void report(fz_input *in, scan_state *st) {
    uint8_t mode = fz_u8(in);
    fathom_capture_options options, copy;
    const fathom_capture_options *op = NULL;
    if (mode & 1) {
        if (FZ(fathom_capture_options_init, &options) != FATHOM_OK) fz_broken("fathom_capture_options_init", "failed");
        if (capture_reserved_set(&options)) fz_broken("fathom_capture_options_init", "a reserved word is not 0");
        if (mode & 2) capture_options(in, &options);
        op = &options;
        copy = options;
    }
    fathom_box box;
    const fathom_box *bp = NULL;
    if (mode & 4) {
        box.center = fz_vec3(in);
        box.scale = fz_vec3(in);
        if (fz_u8(in) < 200) {
            box.scale.x = fabsf(box.scale.x) + 0.25f;
            box.scale.y = fabsf(box.scale.y) + 0.25f;
            box.scale.z = fabsf(box.scale.z) + 0.25f;
        }
        box.rot_y = fz_float(in);
        box.floor = fz_float(in);
        /* has_floor's byte: 0 or 1, or (as memcpy can leave it) another, which is refused. */
        if (fz_u8(in) < 240) box.has_floor = fz_u8(in) % 2;
        else fz_set_bool_byte(&box.has_floor, fz_bool_byte_of(fz_u32(in)));
        bp = &box;
    }
    progress_state ps = {0, st->info.frame_count, 0, 0};
    int with_progress = (mode & 8) != 0;
    if (with_progress && (fz_u8(in) & 1)) ps.cancel_at = 1 + fz_u32(in) % (st->info.frame_count + 1);
    fathom_report *r;
    fz_poison(&r, sizeof r);
    fathom_status s = FZ(fathom_scan_report, st->scan, op, bp, with_progress ? progress : NULL, &ps,
                         mode == 0x10 ? NULL : &r);
    fz_untouched(s, "fathom_scan_report", &r, sizeof r);
    if (op && memcmp(&copy, op, sizeof copy) != 0) fz_broken("fathom_scan_report", "changed its options");
    if (ps.cancelled && s != FATHOM_ERR_INVALID_STATE) fz_broken("fathom_scan_report", "a cancel did not stop the report");
    if (s == FATHOM_OK && with_progress && ps.calls != st->info.frame_count)
        fz_broken("fathom_scan_report", "progress was not called after every frame");
    if (s != FATHOM_OK) return;
    if (mode == 0x10) fz_broken("fathom_scan_report", "a NULL output was accepted");
    if (op && capture_reserved_set(op)) fz_broken("fathom_scan_report", "options with a reserved word set were accepted");
    if (bp && fz_bool_byte(&bp->has_floor) > 1)
        fz_broken("fathom_scan_report", "a box whose has_floor is not 0 or 1 was accepted");
    report_getters(in, r, st, bp != NULL);
    fathom_report_destroy(r);
}

/* ---------------------------------------------------------------------------------------------- */
/* Converting: fathom_scan_write to a scanner-app scan or a Stray folder, and the copy read back    */
/* ---------------------------------------------------------------------------------------------- */

/* Conversions write every frame: only for scans of modest size. */
#define MAX_CONVERT_FRAMES 16
#define MAX_CONVERT_SAMPLES ((uint64_t)1 << 16)
/* Frames of a copy compared sample by sample with the scan's. */
#define COMPARED_FRAMES 4

typedef struct write_progress {
    uint64_t calls, total, cancel_at;
    int cancelled;
} write_progress;

static int write_progress_fn(void *user, uint64_t done, uint64_t total) {
    write_progress *p = user;
    p->calls++;
    if (done > total) fz_broken("fathom_scan_write", "progress done > total");
    if (done != p->calls) fz_broken("fathom_scan_write", "progress done is not the frames written so far");
    if (total != p->total) fz_broken("fathom_scan_write", "progress total is not the frame count");
    if (p->calls == p->cancel_at) {
        p->cancelled = 1;
        return -1 - (int)(p->calls % 3);
    }
    return 0;
}

/* IEEE half to float (exact). */
static float half_to_float(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m + 1024), e - 25);
    return h & 0x8000 ? -v : v;
}

/* Stored sample k of a frame in meters, as a depth frame reads it. */
static float sample_meters(const fathom_scan_info *info, const uint8_t *frame, size_t k) {
    switch (info->depth_format) {
    case FATHOM_DEPTH_FLOAT16: {
        uint16_t h;
        memcpy(&h, frame + 2 * k, 2);
        return half_to_float(h) * info->depth_scale;
    }
    case FATHOM_DEPTH_UINT16: {
        uint16_t u;
        memcpy(&u, frame + 2 * k, 2);
        return (float)u * info->depth_scale;
    }
    default: {
        float f;
        memcpy(&f, frame + 4 * k, 4);
        return f * info->depth_scale;
    }
    }
}

/* A Stray folder's depth: the meters rounded to whole millimetres (0 where none, or beyond 65.535 m), which
 * read back as mm * 0.001f. */
static float stray_meters(float m) {
    float mm = roundf(m * 1000.0f);
    return mm >= 1 && mm <= 65535 ? (float)(uint16_t)mm * 0.001f : 0.0f;
}

/* A Stray copy's intrinsic `got` of the scan's `value` for an RGB side `from` pixels long: scaled to Stray's video
 * side `to` (fx * 1920 / w, cx * 1920 / w, fy * 1440 / h, cy * 1440 / h), within two float roundings of the exact
 * value (and a few subnormal steps of it). */
static int scaled_to_video(float got, float value, uint32_t to, uint32_t from) {
    double want = (double)value * to / from;
    return fabs((double)got - want) <= 2.5e-7 * fabs(want) + 1e-44;
}

/* Uint16 depth in other units than millimetres (a scanner-app scan's depth_unit "m"): a scanner-app copy holds it
 * as FLOAT32 meters. */
static int uint16_not_mm(const fathom_scan_info *info) {
    return info->format == FATHOM_SCAN_SCANNER && info->depth_format == FATHOM_DEPTH_UINT16 && info->depth_scale != 0.001f;
}

/* The copy written by fathom_scan_write opens in `format` and holds the scan's frames as the header says. */
static void check_copy(const scan_state *st, uint32_t format, const char *path) {
    const char *fn = "fathom_scan_write (the copy read back)";
    const fathom_scan_info *src = &st->info;
    const int png_source = src->format != FATHOM_SCAN_SCANNER;
    const int video_size = src->rgb_width == 1920 && src->rgb_height == 1440;
    fathom_scan *copy;
    fz_poison(&copy, sizeof copy);
    fathom_status s = FZ(fathom_scan_open, path, &copy);
    if (s != FATHOM_OK) {
        fprintf(stderr, "%s\n", fathom_last_error());
        fz_broken(fn, "the copy does not open");
    }
    fathom_scan_info info;
    if (FZ(fathom_scan_get_info, copy, &info) != FATHOM_OK) fz_broken(fn, "no info");
    check_info(&info);
    if (info.format != format) fz_broken(fn, "the copy is not of the format written");
    if (info.frame_count != src->frame_count) fz_broken(fn, "the copy's frame count differs (a frame was not written)");
    if (info.depth_width != src->depth_width || info.depth_height != src->depth_height)
        fz_broken(fn, "the copy's depth grid differs");
    if (info.has_confidence != src->has_confidence) fz_broken(fn, "confidence was not kept");
    if (format == FATHOM_SCAN_STRAY) {
        if (info.depth_format != FATHOM_DEPTH_FLOAT32 || info.depth_scale != 1.0f) fz_broken(fn, "Stray depth is not FLOAT32 meters");
        /* Stray's intrinsics are its 1920 x 1440 video's: another RGB size is scaled to it (checked per frame below). */
        if (info.rgb_width != 1920 || info.rgb_height != 1440) fz_broken(fn, "a Stray folder's RGB image is not 1920 x 1440");
    } else {
        /* PNG sources: millimetres as UINT16 millimetres (Stray's always), other units as FLOAT32 meters; a scanner-app
         * scan's depth in its stored form, read as the same meters. */
        if (png_source) {
            if (info.depth_format == FATHOM_DEPTH_UINT16 ? info.depth_scale != 0.001f
                                                         : info.depth_format != FATHOM_DEPTH_FLOAT32 || info.depth_scale != 1.0f)
                fz_broken(fn, "a PNG source's scanner copy is neither UINT16 millimetres nor FLOAT32 meters");
            if (src->format == FATHOM_SCAN_STRAY && info.depth_format != FATHOM_DEPTH_UINT16)
                fz_broken(fn, "a Stray folder's millimetres were not written as UINT16 millimetres");
        } else if (uint16_not_mm(src)) {
            if (info.depth_format != FATHOM_DEPTH_FLOAT32 || info.depth_scale != 1.0f)
                fz_broken(fn, "uint16 depth in other units than millimetres was not written as FLOAT32 meters");
        } else if (info.depth_format != src->depth_format || info.depth_scale != src->depth_scale) {
            fz_broken(fn, "the scanner copy's depth is not in its stored form of the same scale");
        }
        if (info.rgb_width != src->rgb_width || info.rgb_height != src->rgb_height) fz_broken(fn, "the RGB size was not kept");
    }
    size_t n = (size_t)src->frame_count;
    int64_t *ts = fz_malloc(n * sizeof *ts);
    fathom_pose *poses = fz_malloc(n * sizeof *poses);
    fathom_intrinsics *ks = fz_malloc(n * sizeof *ks);
    if (FZ(fathom_scan_timestamps, copy, ts, n) != FATHOM_OK || FZ(fathom_scan_poses, copy, poses, n) != FATHOM_OK ||
        FZ(fathom_scan_intrinsics, copy, ks, n) != FATHOM_OK)
        fz_broken(fn, "the per-frame arrays do not read");
    for (size_t i = 0; i < n; i++) {
        if (ts[i] != st->timestamps[i]) fz_broken(fn, "a timestamp was not kept exactly");
        const fathom_intrinsics *a = &ks[i], *b = &st->intrinsics[i];
        if (format == FATHOM_SCAN_STRAY && !video_size) {
            if (!scaled_to_video(a->fx, b->fx, 1920, src->rgb_width) || !scaled_to_video(a->cx, b->cx, 1920, src->rgb_width) ||
                !scaled_to_video(a->fy, b->fy, 1440, src->rgb_height) || !scaled_to_video(a->cy, b->cy, 1440, src->rgb_height))
                fz_broken(fn, "a Stray copy's intrinsics are not the scan's scaled to the 1920 x 1440 video");
        } else if (a->fx != b->fx || a->fy != b->fy || a->cx != b->cx || a->cy != b->cy) {
            fz_broken(fn, "intrinsics were not kept exactly");
        }
        if (a->width != info.rgb_width || a->height != info.rgb_height) fz_broken(fn, "intrinsics not of the copy's RGB image");
        const fathom_pose *p = &poses[i], *q = &st->poses[i];
        if (p->m[12] != q->m[12] || p->m[13] != q->m[13] || p->m[14] != q->m[14]) fz_broken(fn, "a position was not kept");
        if (format == FATHOM_SCAN_SCANNER && fathom_pose_check_rigid(q, 0.9e-5f) == FATHOM_OK) {
            if (memcmp(p->m, q->m, sizeof p->m) != 0) fz_broken(fn, "a pose rigid within 1e-5 was not kept as written");
        } else {
            if (fathom_pose_check_rigid(p, 2e-3f) != FATHOM_OK) fz_broken(fn, "a pose of the copy is not rigid");
            /* Stray: a quaternion in OpenCV axes, "within float rounding". */
            for (int e = 0; e < 12; e++)
                if (!(fabsf(p->m[e] - q->m[e]) <= 2e-4f)) fz_broken(fn, "a rotation differs beyond float rounding");
        }
    }
    size_t samples = (size_t)src->depth_width * src->depth_height;
    size_t db = st->depth_bytes, cdb = samples * sample_bytes(info.depth_format);
    uint8_t *a = fz_malloc(db), *b = fz_malloc(cdb), *ca = fz_malloc(samples), *cb = fz_malloc(samples);
    for (size_t i = 0; i < n && i < COMPARED_FRAMES; i++) {
        if (FZ(fathom_scan_read_depth, st->scan, i, a, db) != FATHOM_OK) fz_broken(fn, "the scan's frame does not read");
        if (FZ(fathom_scan_read_depth, copy, i, b, cdb) != FATHOM_OK) fz_broken(fn, "a frame of the copy does not read");
        if (format == FATHOM_SCAN_STRAY) {
            for (size_t k = 0; k < samples; k++) {
                float got, want = stray_meters(sample_meters(src, a, k));
                memcpy(&got, b + 4 * k, 4);
                if (got != want) fz_broken(fn, "Stray depth is not the meters rounded to the millimetre");
            }
        } else if (png_source && info.depth_format == FATHOM_DEPTH_UINT16) {
            for (size_t k = 0; k < samples; k++) {
                uint16_t got;
                memcpy(&got, b + 2 * k, 2);
                if ((float)got * 0.001f != sample_meters(src, a, k)) fz_broken(fn, "millimetres do not read back as the same meters");
            }
        } else if (uint16_not_mm(src)) {
            for (size_t k = 0; k < samples; k++) {
                float got;
                memcpy(&got, b + 4 * k, 4);
                if (got != sample_meters(src, a, k)) fz_broken(fn, "uint16 depth does not read back as the same FLOAT32 meters");
            }
        } else if (memcmp(a, b, db) != 0) {
            fz_broken(fn, "depth was not written in its stored form");
        }
        if (src->has_confidence) {
            if (FZ(fathom_scan_read_confidence, st->scan, i, ca, samples) != FATHOM_OK ||
                FZ(fathom_scan_read_confidence, copy, i, cb, samples) != FATHOM_OK)
                fz_broken(fn, "confidence does not read");
            stray_confidence(src, ca, samples, "fathom_scan_read_confidence");
            stray_confidence(&info, cb, samples, fn);
            /* kept exactly, except that a value above 2 (damage) is written as 0 */
            for (size_t k = 0; k < samples; k++)
                if (cb[k] != (ca[k] > 2 ? 0 : ca[k])) fz_broken(fn, "confidence was not kept (values above 2 as 0)");
        }
    }
    free(a);
    free(b);
    free(ca);
    free(cb);
    free(ts);
    free(poses);
    free(ks);
    fathom_scan_destroy(copy);
}

/* fathom_scan_write: a refused call (NULLs, formats, a folder that cannot be made) writes nothing; a valid one
 * (with progress, cancelled or not) writes a copy that opens as the header says. */
/* The status of a Stray write for a frame's RGB intrinsics, scaled to the 1920 x 1440 video as the header says
 * (sx = 1920 / width, sy = 1440 / height in float; fx and fy finite and > 0, then cx and cy finite). */
static fathom_status stray_intrinsics_status(const fathom_intrinsics *k) {
    if (k->width == 1920 && k->height == 1440) return FATHOM_OK;
    const float sx = 1920.0f / (float)k->width, sy = 1440.0f / (float)k->height;
    const float fx = k->fx * sx, fy = k->fy * sy, cx = k->cx * sx, cy = k->cy * sy;
    if (!isfinite(fx)) return FATHOM_ERR_NOT_FINITE;
    if (!(fx > 0)) return FATHOM_ERR_OUT_OF_RANGE;
    if (!isfinite(fy)) return FATHOM_ERR_NOT_FINITE;
    if (!(fy > 0)) return FATHOM_ERR_OUT_OF_RANGE;
    if (!isfinite(cx) || !isfinite(cy)) return FATHOM_ERR_NOT_FINITE;
    return FATHOM_OK;
}

static void convert(fz_input *in, const scan_state *st) {
    const char *f = "fathom_scan_write";
    char path[256];
    fathom_status s;
    fz_clear_dir(convert_dir);
    rmdir(convert_dir);
    uint8_t bad = fz_u8(in);
    switch (bad % 8) {
    case 1:
        s = FZ(fathom_scan_write, NULL, convert_dir, bad >> 7, NULL, NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken(f, "a NULL scan was not FATHOM_ERR_NULL_POINTER");
        break;
    case 2:
        s = FZ(fathom_scan_write, st->scan, NULL, bad >> 7, NULL, NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken(f, "a NULL directory was not FATHOM_ERR_NULL_POINTER");
        break;
    case 3:
    case 4: {
        uint32_t format = bad % 8 == 3 ? FATHOM_SCAN_NERFSTUDIO : fz_u32(in);
        s = FZ(fathom_scan_write, st->scan, convert_dir, format, NULL, NULL);
        if (format > FATHOM_SCAN_STRAY && s != FATHOM_ERR_OUT_OF_RANGE)
            fz_broken(f, "a format other than SCANNER or STRAY was not FATHOM_ERR_OUT_OF_RANGE");
        break;
    }
    case 5: {
        /* a folder under a regular file */
        fz_path_join(path, sizeof path, root, "convert-file");
        fz_write_file(path, "x", 1);
        fz_path_join(path, sizeof path, root, "convert-file/sub");
        s = FZ(fathom_scan_write, st->scan, path, bad >> 7, NULL, NULL);
        /* (a Stray write of a grid over 4096 has two faults: either may be the one reported) */
        const int too_large = bad >> 7 == FATHOM_SCAN_STRAY && (st->info.depth_width > 4096 || st->info.depth_height > 4096);
        if (s != FATHOM_ERR_IO && !(too_large && s == FATHOM_ERR_OUT_OF_RANGE))
            fz_broken(f, "a folder that cannot be made was not FATHOM_ERR_IO");
        break;
    }
    default: s = FATHOM_OK; break;
    }
    if (s != FATHOM_OK && s != FATHOM_ERR_IO && access(convert_dir, F_OK) == 0) fz_broken(f, "a refused call wrote files");
    fz_clear_dir(convert_dir);
    rmdir(convert_dir);

    uint8_t mode = fz_u8(in);
    if (!(mode & 1)) return;
    if (st->info.frame_count > MAX_CONVERT_FRAMES || st->info.frame_count * st->confidence_bytes > MAX_CONVERT_SAMPLES) return;
    uint32_t format = (mode >> 1) & 1;
    const uint64_t count = st->info.frame_count;
    /* What the header says the write does, frame by frame in order: a Stray grid wider or taller than 4096 is
     * refused before anything is written; a PNG scan's frame is decoded when read, and one that does not read stops
     * the write with that read's status; a Stray frame whose timestamp is 9e18 ns or more from 0 stops it with
     * FATHOM_ERR_OUT_OF_RANGE, and one whose intrinsics scale past the float range with their status. The frames
     * before the one that stops it stay written, progress called after each. */
    const int too_large = format == FATHOM_SCAN_STRAY && (st->info.depth_width > 4096 || st->info.depth_height > 4096);
    uint64_t stop_at = count;
    fathom_status stop_status = FATHOM_OK;
    if (!too_large) {
        uint8_t *buf = fz_malloc(st->depth_bytes > st->confidence_bytes ? st->depth_bytes : st->confidence_bytes);
        for (uint64_t i = 0; i < count && stop_status == FATHOM_OK; i++) {
            if (st->info.format != FATHOM_SCAN_SCANNER) {
                stop_status = FZ(fathom_scan_read_depth, st->scan, i, buf, st->depth_bytes);
                if (stop_status == FATHOM_OK && st->info.has_confidence)
                    stop_status = FZ(fathom_scan_read_confidence, st->scan, i, buf, st->confidence_bytes);
            }
            const int64_t t = st->timestamps[i];
            /* Both writers take frames in time order: one earlier than the frame before stops the write. */
            if (stop_status == FATHOM_OK && i > 0 && t < st->timestamps[i - 1]) stop_status = FATHOM_ERR_OUT_OF_RANGE;
            if (stop_status == FATHOM_OK && format == FATHOM_SCAN_STRAY && (t >= 9000000000000000000LL || t <= -9000000000000000000LL))
                stop_status = FATHOM_ERR_OUT_OF_RANGE;
            if (stop_status == FATHOM_OK && format == FATHOM_SCAN_STRAY) stop_status = stray_intrinsics_status(&st->intrinsics[i]);
            if (stop_status != FATHOM_OK) stop_at = i;
        }
        free(buf);
    }
    write_progress p = {0, count, 0, 0};
    int with_progress = (mode & 4) != 0;
    if (with_progress && (mode & 8)) p.cancel_at = 1 + fz_u32(in) % count;
    s = FZ(fathom_scan_write, st->scan, convert_dir, format, with_progress ? write_progress_fn : NULL, &p);
    if (too_large) {
        if (s != FATHOM_ERR_OUT_OF_RANGE) fz_broken(f, "a Stray write of a grid wider or taller than 4096 was not FATHOM_ERR_OUT_OF_RANGE");
        if (p.calls != 0 || access(convert_dir, F_OK) == 0) fz_broken(f, "a refused Stray write (grid over 4096) wrote files");
    } else if (p.cancelled) {
        if (s != FATHOM_ERR_INVALID_STATE) fz_broken(f, "a cancel did not stop the write with FATHOM_ERR_INVALID_STATE");
        if (p.cancel_at > stop_at) fz_broken(f, "the write went on past the frame that stops it");
    } else if (stop_status != FATHOM_OK) {
        if (s != stop_status) {
            fprintf(stderr, "%s\n", fathom_last_error());
            fz_broken(f, "a write stopped by a frame (a PNG that does not read, a timestamp earlier than the frame before, a "
                         "Stray timestamp beyond 9e18 ns or intrinsics beyond the float range) failed otherwise");
        }
        if (with_progress && p.calls != stop_at) fz_broken(f, "progress was not called after each frame before the one that stops the write");
        if (format == FATHOM_SCAN_STRAY) {
            /* the frames before it stay written; the one that stops it is not */
            char name[32];
            for (uint64_t i = 0; i <= stop_at; i++) {
                snprintf(name, sizeof name, "depth/%06llu.png", (unsigned long long)i);
                fz_path_join(path, sizeof path, convert_dir, name);
                if ((access(path, F_OK) == 0) != (i < stop_at))
                    fz_broken(f, i < stop_at ? "a frame before the one that stopped a Stray write is not written"
                                             : "the frame that stopped a Stray write was written");
            }
        }
    } else if (s != FATHOM_OK) {
        fprintf(stderr, "%s\n", fathom_last_error());
        fz_broken(f, "a valid call on an opened scan failed (the header: writes every frame)");
    } else {
        if (with_progress && p.calls != count) fz_broken(f, "progress was not called after every frame");
        check_copy(st, format, convert_dir);
    }
    fz_clear_dir(convert_dir);
    rmdir(convert_dir);
}

/* Everything that reads an opened scan. `expected_id` may be NULL (not checked). */
static void exercise_scan(fz_input *in, const fathom_scan *scan, const char *expected_id, scan_state *st) {
    memset(st, 0, sizeof *st);
    st->scan = scan;
    fathom_status s;
    fz_poison(&st->info, sizeof st->info);
    if (FZ(fathom_scan_get_info, scan, &st->info) != FATHOM_OK) fz_broken("fathom_scan_get_info", "an opened scan has no info");
    check_info(&st->info);
    st->depth_bytes = (size_t)st->info.depth_width * st->info.depth_height * sample_bytes(st->info.depth_format);
    st->confidence_bytes = (size_t)st->info.depth_width * st->info.depth_height;
    if (fz_u8(in) == 3) {
        fathom_scan_info other;
        fz_poison(&other, sizeof other);
        s = FZ(fathom_scan_get_info, NULL, &other);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_scan_get_info", "a NULL scan was not FATHOM_ERR_NULL_POINTER");
        fz_untouched(s, "fathom_scan_get_info", &other, sizeof other);
        s = FZ(fathom_scan_get_info, scan, NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_scan_get_info", "a NULL output was not FATHOM_ERR_NULL_POINTER");
    }

    char *id = get_text(in, TEXT_SCAN_ID, scan, 0);
    if (!id) fz_broken("fathom_scan_id", "an opened scan has no id");
    if (expected_id && strcmp(id, expected_id) != 0) fz_broken("fathom_scan_id", "the id is not the files' stem");
    free(id);

    uint32_t warnings = st->info.warning_count < 8 ? st->info.warning_count : 8;
    for (uint32_t i = 0; i < warnings; i++) free(get_text(in, TEXT_WARNING, scan, i));
    {
        uint32_t index = fz_u8(in) < 128 ? st->info.warning_count : st->info.warning_count + fz_u32(in);
        if (index >= st->info.warning_count) {
            char buf[16];
            size_t length;
            fz_poison(buf, sizeof buf);
            fz_poison(&length, sizeof length);
            s = FZ(fathom_scan_warning, scan, index, buf, sizeof buf, &length);
            if (s == FATHOM_OK) fz_broken("fathom_scan_warning", "an index out of range was accepted");
            fz_untouched(s, "fathom_scan_warning", buf, sizeof buf);
            fz_untouched(s, "fathom_scan_warning", &length, sizeof length);
        }
    }

    read_arrays(in, st);
    read_frames(in, st);
    uint8_t what = fz_u8(in);
    /* The cloud and the report read every frame: only for scans of modest size. */
    uint64_t samples = st->info.frame_count * st->confidence_bytes;
    if (samples <= ((uint64_t)1 << 20)) {
        if (what & 1) point_cloud(in, st);
        if (what & 2) report(in, st);
    }
    if (what & 4) convert(in, st);
    /* The failed calls above left the scan as it was (compared field by field: the struct's tail padding is no
     * part of the info). */
    fathom_scan_info after;
    fz_poison(&after, sizeof after);
    if (FZ(fathom_scan_get_info, scan, &after) != FATHOM_OK || !same_info(&after, &st->info))
        fz_broken("fathom_scan_get_info", "the scan's info changed");
    free(st->timestamps);
    free(st->poses);
    free(st->intrinsics);
    cache_free(&st->depth_cache);
    cache_free(&st->confidence_cache);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reader mode                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* The same scan indexed while read (fathom_scan_open_with): it lists at least the frames the scan indexed at
 * opening counts; those read the same bytes (in an order from the input), and a frame past them either fails
 * with FATHOM_ERR_FORMAT (the read met the damage) or, inflated from the damaged block before inflate failed in
 * it (which opening drops), reads. `eager` is the scan's info. */
static void index_while_reading(fz_input *in, const char *path, const fathom_scan_info *eager, const fathom_scan *scan) {
    const char *fn = "fathom_scan_open_with";
    fathom_scan_open_options o;
    fz_poison(&o, sizeof o);
    if (FZ(fathom_scan_open_options_init, &o) != FATHOM_OK) fz_broken("fathom_scan_open_options_init", "refused a valid struct");
    o.index_while_reading = true;
    fathom_scan *lazy;
    fathom_status s = FZ(fathom_scan_open_with, path, &o, &lazy);
    if (s != FATHOM_OK) fz_broken(fn, "a scan that opened indexed at opening did not open indexed while read");
    fathom_scan_info info;
    fz_poison(&info, sizeof info);
    if (FZ(fathom_scan_get_info, lazy, &info) != FATHOM_OK) fz_broken("fathom_scan_get_info", "an opened scan has no info");
    check_info(&info);
    if (info.frame_count < eager->frame_count) fz_broken(fn, "lists fewer frames than the scan indexed at opening");
    if (info.depth_width != eager->depth_width || info.depth_height != eager->depth_height ||
        info.depth_format != eager->depth_format || info.has_confidence != eager->has_confidence)
        fz_broken(fn, "describes the frames otherwise than the scan indexed at opening");
    const size_t db = (size_t)eager->depth_width * eager->depth_height * sample_bytes(eager->depth_format);
    const size_t cb = (size_t)eager->depth_width * eager->depth_height;
    uint8_t *a = fz_malloc(db), *b = fz_malloc(db), *ca = fz_malloc(cb), *cbuf = fz_malloc(cb);
    int reads = 1 + fz_u8(in) % 6;
    for (int r = 0; r < reads; r++) {
        /* Mostly in order from a start the input picks, sometimes past the frames counted at opening. */
        uint64_t index = fz_u8(in) < 200 ? (uint64_t)r + fz_u8(in) % 4 : eager->frame_count + fz_u8(in) % 3;
        if (index >= info.frame_count) continue;
        fathom_depth_frame frame;
        s = FZ(fathom_scan_frame, lazy, index, b, db, info.has_confidence ? cbuf : NULL, cb, &frame);
        if (index >= eager->frame_count) {
            if (s != FATHOM_OK && s != FATHOM_ERR_FORMAT) fz_broken(fn, "a frame past the damage failed otherwise than FORMAT");
            continue;
        }
        if (s != FATHOM_OK) fz_broken(fn, "a frame the scan indexed at opening reads did not read");
        if (FZ(fathom_scan_read_depth, scan, index, a, db) != FATHOM_OK) fz_broken("fathom_scan_read_depth", "the scan's frame does not read");
        if (memcmp(a, b, db) != 0) fz_broken(fn, "a frame read otherwise than from the scan indexed at opening");
        if (info.has_confidence) {
            if (FZ(fathom_scan_read_confidence, scan, index, ca, cb) != FATHOM_OK)
                fz_broken("fathom_scan_read_confidence", "the scan's confidence does not read");
            if (memcmp(ca, cbuf, cb) != 0) fz_broken(fn, "a confidence frame read otherwise than from the scan indexed at opening");
        }
    }
    free(a);
    free(b);
    free(ca);
    free(cbuf);
    fathom_scan_destroy(lazy);
}

static void reader_mode(fz_input *in, uint8_t flags) {
    char path[256];
    uint8_t how = fz_u8(in);
    const char *open_path = path;
    fathom_scan **out;
    fathom_scan *scan;
    switch (how % 12) {
    case 0: fz_path_join(path, sizeof path, scan_dir, part_names[0]); break;
    case 1: fz_path_join(path, sizeof path, scan_dir, part_names[3]); break;
    case 2: fz_path_join(path, sizeof path, scan_dir, part_names[1]); break;
    case 3: fz_path_join(path, sizeof path, scan_dir, part_names[2]); break;
    case 4: fz_path_join(path, sizeof path, scan_dir, SCAN_ID ".mp4"); break; /* a file of the scan that is absent */
    case 5: fz_path_join(path, sizeof path, scan_dir, "other_id.json"); break;
    case 6: fz_path_join(path, sizeof path, scan_dir, "boundingbox.json"); break;
    case 7: open_path = how & 0x80 ? NULL : root; break;
    default: open_path = scan_dir; break;
    }
    out = how == 0x47 ? NULL : &scan;
    fz_poison(&scan, sizeof scan);
    fathom_status s = FZ(fathom_scan_open, open_path, out);
    fz_untouched(s, "fathom_scan_open", &scan, sizeof scan);
    if (s != FATHOM_OK) {
        if (!open_path || !out) {
            if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_scan_open", "a NULL argument was not FATHOM_ERR_NULL_POINTER");
        }
        return;
    }
    if (!open_path || !out) fz_broken("fathom_scan_open", "a NULL argument was accepted");
    if ((flags & 1) && how % 12 != 5 && how % 12 != 6 && how % 12 != 7)
        fz_broken("fathom_scan_open", "a scan without its metadata opened");
    scan_state st;
    exercise_scan(in, scan, how % 12 <= 4 || how % 12 >= 8 ? SCAN_ID : NULL, &st);
    fathom_scan_info info;
    if (FZ(fathom_scan_get_info, scan, &info) != FATHOM_OK) fz_broken("fathom_scan_get_info", "an opened scan has no info");
    if (info.format == FATHOM_SCAN_SCANNER && (uint64_t)info.depth_width * info.depth_height * 4 <= MAX_FRAME_BYTES && fz_u8(in) & 1)
        index_while_reading(in, open_path, &info, scan);
    fathom_scan_destroy(scan);
}

/* ---------------------------------------------------------------------------------------------- */
/* Writer mode                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

typedef struct written_frame {
    int64_t timestamp;
    fathom_intrinsics rgb;
    fathom_pose pose;
    uint8_t *depth, *confidence;
} written_frame;

#define MAX_WRITTEN 8

/* a + b, wrapping around (timestamps near the ends of int64). */
static int64_t wrap_add(int64_t a, int64_t b) {
    uint64_t sum = (uint64_t)a + (uint64_t)b;
    int64_t value;
    memcpy(&value, &sum, sizeof value);
    return value;
}

static uint32_t fz_side(fz_input *in) {
    uint8_t v = fz_u8(in);
    if (v < 232) return 1 + v % 12;
    switch (v % 6) {
    case 0: return 0;
    case 1: return 65535;
    case 2: return 65536;
    case 3: return 256;
    default: return fz_u32(in);
    }
}

static void writer_mode(fz_input *in) {
    fathom_scan_writer_options options;
    if (FZ(fathom_scan_writer_options_init, &options) != FATHOM_OK) fz_broken("fathom_scan_writer_options_init", "failed");
    if (options.depth_width != 256 || options.depth_height != 192 || options.rgb_width != 1920 ||
        options.rgb_height != 1440 || options.depth_format != FATHOM_DEPTH_FLOAT16 ||
        fz_bool_byte(&options.with_confidence) != 1 || fz_bool_byte(&options.zlib_wrapped) != 0 || options.frequency != 60 ||
        !fz_all_zero(options.reserved, sizeof options.reserved))
        fz_broken("fathom_scan_writer_options_init", "defaults differ from the header's");
    uint8_t mode = fz_u8(in);
    const fathom_scan_writer_options *op = NULL;
    if (mode % 8 != 0) {
        options.depth_width = fz_side(in);
        options.depth_height = fz_side(in);
        if (mode & 0x08) {
            options.rgb_width = fz_side(in) * 16;
            options.rgb_height = fz_side(in) * 16;
        }
        uint8_t v = fz_u8(in);
        options.depth_format = v < 240 ? v % 3 : fz_u32(in);
        /* The bools' bytes: 0 or 1, or (as memcpy can leave them) another, which is refused. */
        v = fz_u8(in);
        if (v < 240) options.with_confidence = v % 2;
        else fz_set_bool_byte(&options.with_confidence, fz_bool_byte_of(fz_u32(in)));
        v = fz_u8(in);
        if (v < 240) options.zlib_wrapped = v % 2;
        else fz_set_bool_byte(&options.zlib_wrapped, fz_bool_byte_of(fz_u32(in)));
        if (mode & 0x10) options.frequency = fz_double(in);
        if (mode & 0x20) { /* a reserved word: refused unless 0 */
            size_t word = fz_u8(in) % (sizeof options.reserved / sizeof options.reserved[0]);
            options.reserved[word] = fz_u32(in);
        }
        op = &options;
    }
    const fathom_scan_writer_options o = options;
    int valid_options = o.depth_width >= 1 && o.depth_width <= 65535 && o.depth_height >= 1 && o.depth_height <= 65535 &&
                        (uint64_t)o.depth_width * o.depth_height <= 4194304 &&
                        o.rgb_width >= 1 && o.rgb_width <= 65535 && o.rgb_height >= 1 && o.rgb_height <= 65535 &&
                        o.depth_format <= FATHOM_DEPTH_UINT16 && fz_bool_byte(&o.with_confidence) <= 1 &&
                        fz_bool_byte(&o.zlib_wrapped) <= 1 && o.frequency > 0 && isfinite(o.frequency) &&
                        fz_all_zero(o.reserved, sizeof o.reserved);

    /* The folder (created by the writer), the scan id, NULLs. */
    char bad_dir[256];
    const char *dir = writer_dir, *id = "w";
    int bad_args = 0;
    uint8_t where = fz_u8(in);
    switch (where % 16) {
    case 0: dir = NULL; bad_args = 1; break;
    case 1: id = NULL; bad_args = 1; break;
    case 2: id = ""; bad_args = 1; break;
    case 3: id = "a/b"; bad_args = 1; break;
    case 4: id = "a.b"; bad_args = 1; break;
    case 5: fz_path_join(bad_dir, sizeof bad_dir, writer_dir, "missing/deeper"); dir = bad_dir; bad_args = 1; break;
    case 6: id = SCAN_ID; break;
    case 7: mkdir(writer_dir, 0755); break; /* the folder exists */
    default: break;
    }
    fathom_scan_writer *writer;
    fathom_scan_writer **out = where == 0x18 ? NULL : &writer;
    fz_poison(&writer, sizeof writer);
    fathom_status s = FZ(fathom_scan_writer_create, dir, id, op, out);
    fz_untouched(s, "fathom_scan_writer_create", &writer, sizeof writer);
    if (s != FATHOM_OK) {
        if (valid_options && !bad_args && out) fz_broken("fathom_scan_writer_create", "valid arguments were refused");
        return;
    }
    if (!valid_options) fz_broken("fathom_scan_writer_create", "invalid options were accepted");
    if (bad_args || !out) fz_broken("fathom_scan_writer_create", "an invalid folder, scan id or NULL was accepted");

    const size_t ss = sample_bytes(o.depth_format);
    const size_t samples = (size_t)o.depth_width * o.depth_height, db = samples * ss;
    const int feasible = samples <= ((size_t)1 << 16);
    written_frame frames[MAX_WRITTEN];
    int accepted = 0, finished = 0, all_exact = 1;
    int64_t last = INT64_MIN;
    int attempts = fz_u8(in) % 7;
    uint8_t *depth = feasible ? fz_malloc(db + 8) : NULL, *conf = feasible ? fz_malloc(samples + 8) : NULL;
    for (int a = 0; a < attempts; a++) {
        uint8_t f = fz_u8(in);
        int64_t timestamp;
        switch (f % 8) {
        case 0: timestamp = (int64_t)fz_u64(in); break;
        case 1: timestamp = accepted ? wrap_add(last, -1 - (int64_t)fz_u8(in)) : INT64_MIN; break;
        case 2: timestamp = accepted ? last : INT64_MAX; break;
        default: timestamp = accepted ? wrap_add(last, (int64_t)(fz_u32(in) % 100000000u)) : 280670466266040LL; break;
        }
        fathom_intrinsics rgb = fz_intrinsics(in);
        if (fz_u8(in) < 200) { /* mostly a plausible camera */
            rgb.fx = fabsf(rgb.fx) + 10;
            rgb.fy = fabsf(rgb.fy) + 10;
        }
        fathom_pose pose = fz_pose(in);
        const int null_rgb = f == 0x10, null_pose = f == 0x20, null_depth = f == 0x30;
        size_t depth_bytes = 0, confidence_bytes = 0;
        const uint8_t *cp = NULL;
        int conf_bad = 0;
        if (feasible) {
            size_t k = fz_u8(in) < 240 ? 8 : fz_u8(in) % 17u;
            depth_bytes = db + 8 >= k ? db + 8 - k : 0;
            /* Stored samples: fuzzed bits, or depths of a few centimetres to meters. */
            uint8_t fill = fz_u8(in);
            for (size_t i = 0; i < db + 8; i += ss) {
                if (fill & 1) {
                    for (size_t b = 0; b < ss; b++) depth[i + b] = fz_u8(in);
                } else {
                    uint16_t v = (uint16_t)(0x3800 + (fz_u8(in) << 2)); /* float16 0.5 ... 4 */
                    if (o.depth_format == FATHOM_DEPTH_UINT16) v = (uint16_t)(300 + fz_u8(in) * 8);
                    if (o.depth_format == FATHOM_DEPTH_FLOAT32) {
                        float m = 0.5f + fz_u8(in) / 64.0f;
                        memcpy(depth + i, &m, 4);
                    } else {
                        memcpy(depth + i, &v, 2);
                    }
                }
            }
            uint8_t cm = fz_u8(in);
            if (cm < 230 ? o.with_confidence : cm % 2) {
                size_t k = fz_u8(in) < 240 ? 8 : fz_u8(in) % 17u;
                confidence_bytes = samples + 8 >= k ? samples + 8 - k : 0;
                for (size_t i = 0; i < samples + 8; i++) conf[i] = fz_u8(in) < 250 ? fz_u8(in) % 3 : fz_u8(in);
                for (size_t i = 0; i < confidence_bytes && i < samples + 8; i++) conf_bad |= conf[i] > 2;
                cp = conf;
            }
        } else {
            depth = fz_malloc(64);
            memset(depth, 0, 64);
            depth_bytes = fz_u8(in) % 65;
        }
        s = FZ(fathom_scan_writer_append, fz_u8(in) == 0x33 ? NULL : writer, timestamp, null_rgb ? NULL : &rgb,
               null_pose ? NULL : &pose, null_depth ? NULL : depth, depth_bytes, cp, confidence_bytes);
        if (!feasible) {
            free(depth);
            depth = NULL;
        }
        if (s != FATHOM_OK) continue;
        const char *fn = "fathom_scan_writer_append";
        if (null_rgb || null_pose || null_depth) fz_broken(fn, "a NULL argument was accepted");
        if (depth_bytes != db) fz_broken(fn, "a depth of the wrong size was accepted");
        if ((cp != NULL) != (o.with_confidence == 1)) fz_broken(fn, "confidence given without a stream, or missing");
        if (cp && (confidence_bytes != samples || conf_bad)) fz_broken(fn, "bad confidence was accepted");
        if (accepted && timestamp < last) fz_broken(fn, "a timestamp earlier than the last was accepted");
        if (fathom_pose_check_rigid(&pose, FATHOM_RIGID_TOLERANCE * 1.01f) != FATHOM_OK)
            fz_broken(fn, "a pose that is not rigid was accepted");
        if (!(rgb.fx > 0 && rgb.fy > 0 && isfinite(rgb.fx) && isfinite(rgb.fy) && isfinite(rgb.cx) && isfinite(rgb.cy)))
            fz_broken(fn, "invalid intrinsics were accepted");
        last = timestamp;
        if (accepted < MAX_WRITTEN) {
            written_frame *w = &frames[accepted];
            w->timestamp = timestamp;
            w->rgb = rgb;
            w->pose = pose;
            w->depth = fz_malloc(db);
            memcpy(w->depth, depth, db);
            w->confidence = NULL;
            if (cp) {
                w->confidence = fz_malloc(samples);
                memcpy(w->confidence, conf, samples);
            }
        }
        accepted++;
    }
    free(depth);
    free(conf);

    uint8_t end = fz_u8(in);
    if (end % 8 != 0) {
        s = FZ(fathom_scan_writer_finish, writer);
        if (s != FATHOM_OK) fz_broken("fathom_scan_writer_finish", "failed on a folder of its own");
        finished = 1;
        if (end & 0x08) {
            if (FZ(fathom_scan_writer_finish, writer) != FATHOM_OK) fz_broken("fathom_scan_writer_finish", "a second finish failed");
        }
        if (end & 0x10) {
            fathom_pose pose = fz_pose(in);
            fathom_intrinsics rgb = {500, 500, 320, 240, 640, 480};
            uint16_t d[4] = {0};
            s = FZ(fathom_scan_writer_append, writer, INT64_MAX, &rgb, &pose, d, sizeof d, NULL, 0);
            if (s == FATHOM_OK) fz_broken("fathom_scan_writer_append", "a frame after finish was accepted");
        }
    }
    if (end == 0x40) {
        s = FZ(fathom_scan_writer_finish, NULL);
        if (s != FATHOM_ERR_NULL_POINTER) fz_broken("fathom_scan_writer_finish", "a NULL writer was not FATHOM_ERR_NULL_POINTER");
    }
    fathom_scan_writer_destroy(writer);
    fathom_scan_writer_destroy(NULL);

    /* Read it back. */
    char path[256];
    const char *stem = id;
    if (end & 0x20) {
        char name[64];
        snprintf(name, sizeof name, "%s.json", stem);
        fz_path_join(path, sizeof path, dir, name);
    } else {
        snprintf(path, sizeof path, "%s", dir);
    }
    fathom_scan *scan;
    fz_poison(&scan, sizeof scan);
    s = FZ(fathom_scan_open, path, &scan);
    fz_untouched(s, "fathom_scan_open", &scan, sizeof scan);
    if (s != FATHOM_OK) {
        if (finished && accepted > 0) fz_broken("fathom_scan_open", "a finished scan with frames does not open");
    } else if (finished && accepted > 0) {
        /* What the writer accepted reads back. */
        const char *fn = "fathom_scan_open (written scan)";
        fathom_scan_info info;
        if (FZ(fathom_scan_get_info, scan, &info) != FATHOM_OK) fz_broken("fathom_scan_get_info", "no info");
        if (info.frame_count != (uint64_t)accepted) fz_broken(fn, "the frame count is not the frames appended");
        if (info.depth_width != o.depth_width || info.depth_height != o.depth_height || info.depth_format != o.depth_format ||
            info.rgb_width != o.rgb_width || info.rgb_height != o.rgb_height || info.has_confidence != o.with_confidence)
            fz_broken(fn, "the info differs from the writer's options");
        if (info.depth_scale != (o.depth_format == FATHOM_DEPTH_UINT16 ? 0.001f : 1.0f))
            fz_broken(fn, "the depth scale is not as the writer's format says");
        if (info.frequency != o.frequency) fz_broken(fn, "the frequency differs from the writer's");
        int n = accepted < MAX_WRITTEN ? accepted : MAX_WRITTEN;
        int64_t *ts = fz_malloc((size_t)accepted * sizeof *ts);
        fathom_pose *poses = fz_malloc((size_t)accepted * sizeof *poses);
        fathom_intrinsics *ks = fz_malloc((size_t)accepted * sizeof *ks);
        if (FZ(fathom_scan_timestamps, scan, ts, (size_t)accepted) != FATHOM_OK ||
            FZ(fathom_scan_poses, scan, poses, (size_t)accepted) != FATHOM_OK ||
            FZ(fathom_scan_intrinsics, scan, ks, (size_t)accepted) != FATHOM_OK)
            fz_broken(fn, "the per-frame arrays do not read");
        uint8_t *got = fz_malloc(db), *got_conf = fz_malloc(samples);
        for (int i = 0; i < n; i++) {
            const written_frame *w = &frames[i];
            if (ts[i] != w->timestamp) fz_broken(fn, "a timestamp does not read back");
            if (ks[i].fx != w->rgb.fx || ks[i].fy != w->rgb.fy || ks[i].cx != w->rgb.cx || ks[i].cy != w->rgb.cy ||
                ks[i].width != o.rgb_width || ks[i].height != o.rgb_height)
                fz_broken(fn, "intrinsics do not read back");
            if (fathom_pose_check_rigid(&w->pose, 0.9e-5f) == FATHOM_OK) {
                for (int e = 0; e < 16; e++)
                    if (poses[i].m[e] != w->pose.m[e]) fz_broken(fn, "a pose rigid within 1e-5 does not read back as written");
            } else {
                all_exact = 0;
                if (fathom_pose_check_rigid(&poses[i], 2e-3f) != FATHOM_OK) fz_broken(fn, "a pose reads back not rigid");
            }
        }
        /* Frames in a fuzzed order. */
        int reads = n + fz_u8(in) % 4;
        for (int r = 0; r < reads; r++) {
            int i = r < n && fz_u8(in) < 128 ? r : (int)(fz_u8(in) % n);
            fz_poison(got, db);
            if (FZ(fathom_scan_read_depth, scan, (uint64_t)i, got, db) != FATHOM_OK) fz_broken(fn, "a frame does not read");
            if (memcmp(got, frames[i].depth, db) != 0) fz_broken(fn, "stored depth does not read back byte for byte");
            if (frames[i].confidence) {
                if (FZ(fathom_scan_read_confidence, scan, (uint64_t)i, got_conf, samples) != FATHOM_OK)
                    fz_broken(fn, "a confidence frame does not read");
                if (memcmp(got_conf, frames[i].confidence, samples) != 0) fz_broken(fn, "confidence does not read back");
            }
        }
        for (int i = n; i < accepted && i < n + 2; i++)
            if (FZ(fathom_scan_read_depth, scan, (uint64_t)i, got, db) != FATHOM_OK) fz_broken(fn, "a frame does not read");
        if (all_exact && info.warning_count != 0) fz_broken(fn, "a written scan opens with warnings");
        free(got);
        free(got_conf);
        free(ts);
        free(poses);
        free(ks);
    }
    if (s == FATHOM_OK) {
        scan_state st;
        exercise_scan(in, scan, NULL, &st);
        fathom_scan_destroy(scan);
    }
    for (int i = 0; i < accepted && i < MAX_WRITTEN; i++) {
        free(frames[i].depth);
        free(frames[i].confidence);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Folder modes: a Stray Scanner folder or a nerfstudio transforms.json with depth PNGs             */
/* ---------------------------------------------------------------------------------------------- */

#define STRAY_PREFIX "=STRAY=\n"
#define NERFSTUDIO_PREFIX "=NERFSTUDIO=\n"
/* Depth (and confidence) PNGs depth/000000.png ... of the frames the harness can make. */
#define FOLDER_FRAMES 4

typedef struct png_buf {
    uint8_t *p;
    size_t n, cap;
} png_buf;

static void png_put(png_buf *b, const void *src, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + n) cap *= 2;
        uint8_t *grown = realloc(b->p, cap);
        if (!grown) abort();
        b->p = grown;
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void png_u32(png_buf *b, uint32_t v) {
    uint8_t c[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    png_put(b, c, 4);
}

static uint32_t crc32_of(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

/* A chunk: length, type, data, CRC of type and data. */
static void png_chunk(png_buf *b, const char type[4], const uint8_t *data, size_t n) {
    png_u32(b, (uint32_t)n);
    size_t start = b->n;
    png_put(b, type, 4);
    if (n) png_put(b, data, n);
    png_u32(b, crc32_of(b->p + start, n + 4));
}

/* A grayscale PNG (colour type `color`, `bits` per sample) of width x height samples from `samples` (16-bit:
 * each sample's value; 8-bit: its low byte); the image data is a zlib stream of stored blocks. */
static void png_encode(png_buf *b, uint32_t width, uint32_t height, uint8_t bits, uint8_t color, const uint16_t *samples) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    uint8_t ihdr[13] = {(uint8_t)(width >> 24), (uint8_t)(width >> 16), (uint8_t)(width >> 8), (uint8_t)width,
                        (uint8_t)(height >> 24), (uint8_t)(height >> 16), (uint8_t)(height >> 8), (uint8_t)height,
                        bits, color, 0, 0, 0};
    size_t channels = color == 2 ? 3 : 1, bytes = bits == 16 ? 2 : 1;
    size_t row = 1 + width * channels * bytes, raw_size = row * height;
    uint8_t *raw = fz_malloc(raw_size);
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *r = raw + y * row;
        r[0] = 0; /* filter: none */
        for (uint32_t x = 0; x < width * channels; x++) {
            uint16_t v = samples[(y * width * channels + x) % (width * height)];
            if (bytes == 2) {
                r[1 + 2 * x] = (uint8_t)(v >> 8);
                r[2 + 2 * x] = (uint8_t)v;
            } else {
                r[1 + x] = (uint8_t)v;
            }
        }
    }
    png_buf z = {0};
    uint8_t header[2] = {0x78, 0x01};
    png_put(&z, header, 2);
    uint32_t s1 = 1, s2 = 0;
    for (size_t i = 0; i < raw_size; i++) {
        s1 = (s1 + raw[i]) % 65521;
        s2 = (s2 + s1) % 65521;
    }
    for (size_t at = 0; at < raw_size || at == 0; at += 65535) {
        size_t len = raw_size - at < 65535 ? raw_size - at : 65535;
        uint8_t block[5] = {at + len >= raw_size ? 1 : 0, (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)~len, (uint8_t)(~len >> 8)};
        png_put(&z, block, 5);
        png_put(&z, raw + at, len);
        if (raw_size == 0) break;
    }
    uint8_t adler[4] = {(uint8_t)(s2 >> 8), (uint8_t)s2, (uint8_t)(s1 >> 8), (uint8_t)s1};
    png_put(&z, adler, 4);
    png_put(b, signature, 8);
    png_chunk(b, "IHDR", ihdr, sizeof ihdr);
    png_chunk(b, "IDAT", z.p, z.n);
    png_chunk(b, "IEND", NULL, 0);
    free(z.p);
    free(raw);
}

/* Writes a PNG made from the control bytes to `path`: mostly one of the scan's kind (`bits`-bit grayscale of
 * width x height), sometimes of another size, depth or colour type, cut short or empty. */
static void write_made_png(fz_input *in, const char *path, uint32_t width, uint32_t height, uint8_t bits) {
    uint8_t kind = fz_u8(in);
    uint8_t color = 0;
    if (kind >= 200) {
        switch (kind % 6) {
        case 0: width += 1; break;
        case 1: height = 1 + fz_u8(in) % 9; break;
        case 2: bits = bits == 16 ? 8 : 16; break;
        case 3: color = 2; break;
        default: break; /* cut or empty below */
        }
    }
    size_t count = (size_t)width * height;
    uint16_t *samples = fz_malloc(count * sizeof *samples);
    uint8_t fill = fz_u8(in);
    for (size_t i = 0; i < count; i++) {
        /* One read per statement (see fz_u64). */
        uint8_t low = fz_u8(in);
        if (bits == 8) {
            samples[i] = (fill & 3) == 3 ? low : low % 3; /* confidence: 0, 1, 2, or any byte */
        } else if (fill & 1) {
            uint8_t high = fz_u8(in);
            samples[i] = (uint16_t)(low | high << 8);
        } else {
            samples[i] = low < 32 ? 0 : (uint16_t)(300 + fz_u8(in) * 16); /* none, or 0.3 ... 4.4 m */
        }
    }
    png_buf b = {0};
    png_encode(&b, width, height, bits, color, samples);
    size_t size = b.n;
    if (kind >= 200 && kind % 6 == 4) size = fz_u32(in) % b.n; /* cut */
    if (kind >= 200 && kind % 6 == 5) size = 0;
    fz_write_file(path, b.p, size);
    free(b.p);
    free(samples);
}

/* The folder modes. Stray: parts 0-4 are camera_matrix.csv, odometry.csv, depth/000000.png,
 * confidence/000000.png, depth/000001.png. Nerfstudio: part 0 is transforms.json, parts 1-4 depth/000000.png to
 * depth/000003.png. Control byte 0's bits 0-4 leave part 0-4 out; bit 5 (Stray): no confidence folder; bit 6:
 * open a file of the folder rather than the folder. Then the harness makes the PNGs of up to FOLDER_FRAMES frames
 * that no part gave (fz_u8 % 5 of them), of a fuzzed size. An opened scan goes through every reader, and is
 * converted. */
static void folder_mode(int stray, const uint8_t *const part[6], const size_t part_size[6], int parts) {
    fz_input in = {parts == 6 ? part[5] : NULL, parts == 6 ? part_size[5] : 0};
    uint8_t flags = fz_u8(&in);
    char path[256], depth_dir[160], conf_dir[160];
    const int with_confidence = stray && !(flags & 0x20);
    fz_path_join(depth_dir, sizeof depth_dir, folder_dir, "depth");
    fz_path_join(conf_dir, sizeof conf_dir, folder_dir, "confidence");
    mkdir(folder_dir, 0755);
    mkdir(depth_dir, 0755);
    if (with_confidence) mkdir(conf_dir, 0755);
    static const char *const stray_names[5] = {"camera_matrix.csv", "odometry.csv", "depth/000000.png",
                                               "confidence/000000.png", "depth/000001.png"};
    static const char *const nerf_names[5] = {"transforms.json", "depth/000000.png", "depth/000001.png",
                                              "depth/000002.png", "depth/000003.png"};
    const char *const *names = stray ? stray_names : nerf_names;
    int given_depth[FOLDER_FRAMES] = {0}, given_conf[FOLDER_FRAMES] = {0};
    int metadata = 1;
    for (int i = 0; i < 5; i++) {
        int present = i < parts - (parts == 6) && !(flags & (1u << i));
        if (stray && i == 3 && !with_confidence) present = 0;
        if (!present) {
            if (i == 0 || (stray && i == 1)) metadata = 0;
            continue;
        }
        fz_path_join(path, sizeof path, folder_dir, names[i]);
        fz_write_file(path, part[i], part_size[i]);
        if (stray && i == 2) given_depth[0] = 1;
        if (stray && i == 3) given_conf[0] = 1;
        if (stray && i == 4) given_depth[1] = 1;
        if (!stray && i >= 1) given_depth[i - 1] = 1;
    }
    /* The PNGs made by the harness. */
    uint32_t width = 1 + fz_u8(&in) % 8, height = 1 + fz_u8(&in) % 8;
    int made = fz_u8(&in) % (FOLDER_FRAMES + 1);
    for (int k = 0; k < made; k++) {
        char name[64];
        if (!given_depth[k]) {
            snprintf(name, sizeof name, "depth/%06d.png", k);
            fz_path_join(path, sizeof path, folder_dir, name);
            write_made_png(&in, path, width, height, 16);
        }
        if (with_confidence && !given_conf[k]) {
            snprintf(name, sizeof name, "confidence/%06d.png", k);
            fz_path_join(path, sizeof path, folder_dir, name);
            write_made_png(&in, path, width, height, 8);
        }
    }

    const char *open_path = folder_dir;
    if (flags & 0x40) {
        uint8_t which = fz_u8(&in) % 3;
        const char *file = stray ? (which == 0 ? "odometry.csv" : which == 1 ? "camera_matrix.csv" : "depth/000000.png")
                                 : "transforms.json";
        fz_path_join(path, sizeof path, folder_dir, file);
        open_path = path;
    }
    fathom_scan *scan;
    fz_poison(&scan, sizeof scan);
    fathom_status s = FZ(fathom_scan_open, open_path, &scan);
    fz_untouched(s, "fathom_scan_open", &scan, sizeof scan);
    if (s != FATHOM_OK) {
        /* A folder holding neither format (nor a scanner-app scan) is not a scan. */
        if (!metadata && open_path == folder_dir &&
            (s != FATHOM_ERR_FORMAT || !strstr(fathom_last_error(), "not a scan")))
            fz_broken("fathom_scan_open", "a folder holding no scan was not FATHOM_ERR_FORMAT \"not a scan\"");
        return;
    }
    if (!metadata && open_path == folder_dir) fz_broken("fathom_scan_open", "a folder without its metadata opened");
    fathom_scan_info info;
    if (FZ(fathom_scan_get_info, scan, &info) != FATHOM_OK) fz_broken("fathom_scan_get_info", "an opened scan has no info");
    const char *f = "fathom_scan_open (folder)";
    if (info.format != (stray ? FATHOM_SCAN_STRAY : FATHOM_SCAN_NERFSTUDIO)) fz_broken(f, "the format is not the folder's");
    if (info.depth_format != FATHOM_DEPTH_FLOAT32 || info.depth_scale != 1.0f) fz_broken(f, "PNG depth is not FLOAT32 meters");
    if (stray) {
        if (info.rgb_width != 1920 || info.rgb_height != 1440) fz_broken(f, "a Stray folder's RGB image is not 1920 x 1440");
        if (fz_bool_byte(&info.has_confidence) != with_confidence)
            fz_broken(f, "has_confidence is not whether confidence/ exists");
        /* 16-bit millimetres: every sample is a whole number of millimetres. */
        size_t samples = (size_t)info.depth_width * info.depth_height;
        if (samples <= ((size_t)1 << 20)) {
            float *depth = fz_malloc(samples * 4);
            if (FZ(fathom_scan_read_depth, scan, 0, depth, samples * 4) == FATHOM_OK) {
                for (size_t k = 0; k < samples; k++) {
                    float mm = roundf(depth[k] * 1000.0f);
                    if (!(mm >= 0 && mm <= 65535 && (float)(uint16_t)mm * 0.001f == depth[k]))
                        fz_broken(f, "Stray depth is not uint16 millimetres * 0.001f");
                }
            }
            free(depth);
        }
    } else if (info.has_confidence) {
        fz_broken(f, "a nerfstudio scan has confidence");
    }
    scan_state st;
    exercise_scan(&in, scan, NULL, &st);
    fathom_scan_destroy(scan);
}

/* ---------------------------------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    setup();
    fz_clear_dir(scan_dir);
    fz_clear_dir(writer_dir);
    rmdir(writer_dir);
    fz_clear_dir(report_dir);
    rmdir(report_dir);
    fz_clear_dir(folder_dir);
    rmdir(folder_dir);
    mkdir(scan_dir, 0755);

    /* A folder mode's prefix. */
    int folder = 0;
    if (size >= sizeof STRAY_PREFIX - 1 && memcmp(data, STRAY_PREFIX, sizeof STRAY_PREFIX - 1) == 0) {
        folder = 1;
        data += sizeof STRAY_PREFIX - 1;
        size -= sizeof STRAY_PREFIX - 1;
    } else if (size >= sizeof NERFSTUDIO_PREFIX - 1 && memcmp(data, NERFSTUDIO_PREFIX, sizeof NERFSTUDIO_PREFIX - 1) == 0) {
        folder = 2;
        data += sizeof NERFSTUDIO_PREFIX - 1;
        size -= sizeof NERFSTUDIO_PREFIX - 1;
    }

    /* Split: five files, then the control bytes. */
    const uint8_t *part[6] = {0};
    size_t part_size[6] = {0};
    int parts = 0;
    size_t start = 0;
    for (size_t i = 0; parts < 5 && i + SEPARATOR_LEN <= size; i++) {
        if (memcmp(data + i, SEPARATOR, SEPARATOR_LEN) != 0) continue;
        part[parts] = data + start;
        part_size[parts] = i - start;
        parts++;
        start = i + SEPARATOR_LEN;
        i = start - 1;
    }
    part[parts] = data + start;
    part_size[parts] = size - start;
    parts++;
    if (folder) {
        folder_mode(folder == 1, part, part_size, parts);
        return 0;
    }
    fz_input in = {parts == 6 ? part[5] : NULL, parts == 6 ? part_size[5] : 0};
    uint8_t flags = fz_u8(&in);
    if (flags & 0x80) {
        writer_mode(&in);
        return 0;
    }
    for (int i = 0; i < 5 && i < parts; i++) {
        if (flags & (1u << i)) continue;
        char path[256];
        fz_path_join(path, sizeof path, scan_dir, part_names[i]);
        fz_write_file(path, part[i], part_size[i]);
    }
    reader_mode(&in, flags);
    return 0;
}
