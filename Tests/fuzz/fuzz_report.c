/* Fuzz target: a report read back from its JSON (fathom_report_from_json) and written out again
 * (fathom_report_json, fathom_report_html, fathom_report_get_summary, fathom_report_save).
 *
 * Input: the JSON text, all of it (report.json's schema, README.md "report.json, field by field"; report.dict).
 * The two clouds' counts are read from the text's "cloud_points" and "object_points" (their first occurrence,
 * at most MAX_POINTS each; a fuzzed small count otherwise), so that a valid report meets the count check. The
 * other arguments (the clouds' points and strides, NULLs, a count off by one, a non-finite point, capacities,
 * whether to save) come from a hash of the input, so each input always makes the same calls.
 * Checks, besides fuzz.h's promises (a failed call returns a listed status, names itself in fathom_last_error()
 * and writes nothing to *out):
 *  - a NULL json or out, a NULL cloud with points, a bad stride or alignment, a non-finite point: refused;
 *  - with valid clouds, text that is not JSON (RFC 8259, UTF-8, no NUL; checked here) is FATHOM_ERR_PARSE and JSON
 *    is not (a schema error is FORMAT); text nested 64 deep or holding an unpaired escaped surrogate is left out;
 *  - a report read has the clouds it was given, bit for bit (fathom_report_cloud, the summary's counts), and a
 *    valid box when it has one;
 *  - fathom_report_json and fathom_report_html keep the buffer rules (a short capacity gets the length and
 *    nothing written, exactly enough gets the NUL-terminated text and nothing past it, NULL out_length
 *    refused); the JSON is valid UTF-8, the page too, starting "<!DOCTYPE html>" and ending "</html>\n";
 *  - the JSON read back with the same clouds is a report whose JSON and page are the same bytes (a fixed point:
 *    "saving or showing it gives what the original gives, byte for byte");
 *  - sometimes, fathom_report_save into an empty folder writes report.json (the JSON and a newline, which reads
 *    back to the same report), cloud.ply and object.ply (exactly when there is a box) that load to the clouds
 *    given, report.html (the page) and the figures (coverage.svg and view-bins.svg exactly when there is
 *    coverage); a regular file, or a folder inside one, is FATHOM_ERR_IO. The folder is removed after.
 * Seeds: reports written by `fathom-cli demo` and by the Python binding on rendered rooms
 * (Bindings/python/tests/_room_scenes.py), cut to a few frames and points, and hand-made variants (nulls
 * wherever allowed, numbers at the float and int64 limits, coverage bins at their limits, strings, layouts),
 * some with trailing whitespace chosen so that they save; and one of each error.
 */
#define _XOPEN_SOURCE 700
#include "fuzz.h"
#include "fuzz_files.h"

#include <sys/stat.h>
#include <unistd.h>

#define TEMP_DIR "fathom-fuzz-report-XXXXXX"
/* Counts in the text above this are not met (the call then fails the count check). */
#define MAX_POINTS 2048

static char save_dir[128], file_path[128];

static void setup(void) {
    if (save_dir[0]) return;
    fz_temp_path(TEMP_DIR, "report", save_dir, sizeof save_dir);
    fz_temp_path(TEMP_DIR, "file", file_path, sizeof file_path);
    fz_write_file(file_path, "not a folder", 12);
}

/* ---------------------------------------------------------------------------------------------- */
/* The arguments                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* `n` bytes of splitmix64 from `state` into `out`. */
static void stream(uint64_t *state, uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = splitmix(state);
        memcpy(out + i, &v, n - i < 8 ? n - i : 8);
    }
}

/* The value of the first `"key"` in the text followed by ':' and digits, if it is at most MAX_POINTS; else -1. */
static long count_in_text(const uint8_t *data, size_t size, const char *key) {
    size_t k = strlen(key);
    for (size_t i = 0; i + k <= size; i++) {
        if (memcmp(data + i, key, k) != 0) continue;
        size_t j = i + k;
        while (j < size && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r')) j++;
        if (j >= size || data[j] != ':') continue;
        j++;
        while (j < size && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r')) j++;
        long value = 0;
        size_t digits = 0;
        while (j < size && data[j] >= '0' && data[j] <= '9' && value <= MAX_POINTS) {
            value = value * 10 + (data[j] - '0');
            j++;
            digits++;
        }
        return digits > 0 && value <= MAX_POINTS ? value : -1;
    }
    return -1;
}

/* A cloud argument: the point buffer (malloc'd, exactly (count - 1) * stride + 12 bytes, so that a read past the
 * last point shows under ASan), what the call is given, and whether it must be refused. */
typedef struct cloud_arg {
    uint8_t *memory;
    const float *points;
    size_t count, stride;
    int bad;         /* NULL with points, a bad stride or alignment: an argument error */
    int not_finite;  /* a coordinate that is NaN or infinite */
} cloud_arg;

static void make_cloud(fz_input *in, uint64_t *points_state, size_t count, cloud_arg *c) {
    memset(c, 0, sizeof *c);
    c->count = count;
    uint8_t kind = fz_u8(in);
    c->stride = kind % 8 < 5 ? 12 : kind % 8 == 5 ? 16 : 12 + 4 * (size_t)(fz_u8(in) % 8);
    int misaligned = 0;
    if (count > 0 && kind >= 248) {
        /* A stride below 12 or not a multiple of 4, or a pointer not 4-byte aligned. */
        static const size_t bad_strides[] = {0, 4, 8, 13, 14, 15, 18};
        uint8_t b = fz_u8(in) % 8;
        if (b < 7) c->stride = bad_strides[b];
        else misaligned = 1;
        c->bad = 1;
    }
    if (count == 0) {
        /* Count 0 allows NULL; sometimes a buffer anyway, with any stride. */
        if (kind & 16) {
            c->memory = fz_malloc(12);
            c->points = (const float *)c->memory;
        }
        return;
    }
    size_t floats_stride = c->stride / 4 ? c->stride / 4 : 1;
    size_t bytes = (count - 1) * (c->stride < 12 ? 12 : c->stride) + 12 + (size_t)misaligned;
    c->memory = fz_malloc(bytes);
    fz_poison(c->memory, bytes);
    float *p = (float *)(c->memory + misaligned);
    if (!c->bad) {
        /* Point values from their own stream: small ones, boundary ones, any bits (non-finite ones made finite). */
        uint8_t *values = fz_malloc(count * 3 * 6);
        stream(points_state, values, count * 3 * 6);
        fz_input v = {values, count * 3 * 6};
        for (size_t i = 0; i < count; i++)
            for (int a = 0; a < 3; a++) {
                float x = fz_float(&v);
                p[i * floats_stride + (size_t)a] = isfinite(x) ? x : (float)(int)(i % 7) - 3;
            }
        free(values);
        if (fz_u8(in) < 6) {
            static const float non_finite[] = {NAN, INFINITY, -INFINITY};
            size_t i = fz_u32(in) % count;
            size_t axis = fz_u8(in) % 3;
            p[i * floats_stride + axis] = non_finite[fz_u8(in) % 3];
            c->not_finite = 1;
        }
    }
    c->points = p;
    if (fz_u8(in) < 6) {
        c->points = NULL;
        c->bad = 1;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Text                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Whether `s` (`n` bytes) is valid UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
static int valid_utf8(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) { i++; continue; }
        size_t len;
        uint32_t cp, min;
        if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; min = 0x80; }
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; min = 0x800; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; min = 0x10000; }
        else return 0;
        if (i + len > n) return 0;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += len;
    }
    return 1;
}

/* RFC 8259 syntax, as far as the library's own check goes: JSON_VALID, JSON_INVALID, or JSON_UNKNOWN for text
 * nested 64 deep or more (the library's limit) or holding an escaped surrogate that is not part of a pair (valid
 * syntax whose meaning RFC 8259 leaves open). */
enum { JSON_INVALID = 0, JSON_VALID = 1, JSON_UNKNOWN = 2 };

typedef struct json_scan {
    const uint8_t *s;
    size_t n, i;
    int unknown;
} json_scan;

static void js_space(json_scan *j) {
    while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\n' || j->s[j->i] == '\r')) j->i++;
}

static int js_digits(json_scan *j) {
    size_t start = j->i;
    while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9') j->i++;
    return j->i > start;
}

static int js_hex(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int js_string(json_scan *j) {
    int high = 0; /* the last character was an escaped high surrogate */
    j->i++;
    while (j->i < j->n) {
        uint8_t c = j->s[j->i];
        if (c == '"') {
            if (high) j->unknown = 1;
            j->i++;
            return 1;
        }
        if (c < 0x20) return 0;
        if (c != '\\') {
            if (high) j->unknown = 1;
            high = 0;
            j->i++;
            continue;
        }
        if (j->i + 1 >= j->n) return 0;
        uint8_t e = j->s[j->i + 1];
        if (e != 'u') {
            if (!memchr("\"\\/bfnrt", e, 8)) return 0;
            if (high) j->unknown = 1;
            high = 0;
            j->i += 2;
            continue;
        }
        if (j->i + 6 > j->n) return 0;
        unsigned v = 0;
        for (size_t k = 2; k < 6; k++) {
            int d = js_hex(j->s[j->i + k]);
            if (d < 0) return 0;
            v = v * 16 + (unsigned)d;
        }
        if (v >= 0xD800 && v <= 0xDBFF) {
            if (high) j->unknown = 1;
            high = 1;
        } else {
            if ((v >= 0xDC00 && v <= 0xDFFF) != high) j->unknown = 1;
            high = 0;
        }
        j->i += 6;
    }
    return 0;
}

static int js_number(json_scan *j) {
    if (j->s[j->i] == '-') j->i++;
    if (j->i < j->n && j->s[j->i] == '0') j->i++;
    else if (!js_digits(j)) return 0;
    if (j->i < j->n && j->s[j->i] == '.') {
        j->i++;
        if (!js_digits(j)) return 0;
    }
    if (j->i < j->n && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
        j->i++;
        if (j->i < j->n && (j->s[j->i] == '+' || j->s[j->i] == '-')) j->i++;
        if (!js_digits(j)) return 0;
    }
    return 1;
}

static int js_literal(json_scan *j, const char *word) {
    size_t k = strlen(word);
    if (j->n - j->i < k || memcmp(j->s + j->i, word, k) != 0) return 0;
    j->i += k;
    return 1;
}

static int js_value(json_scan *j, int depth) {
    if (depth >= 64) {
        j->unknown = 1;
        return 0;
    }
    if (j->i >= j->n) return 0;
    uint8_t c = j->s[j->i];
    if (c == '{' || c == '[') {
        uint8_t close = c == '{' ? '}' : ']';
        j->i++;
        js_space(j);
        if (j->i < j->n && j->s[j->i] == close) {
            j->i++;
            return 1;
        }
        for (;;) {
            js_space(j);
            if (c == '{') {
                if (j->i >= j->n || j->s[j->i] != '"' || !js_string(j)) return 0;
                js_space(j);
                if (j->i >= j->n || j->s[j->i] != ':') return 0;
                j->i++;
                js_space(j);
            }
            if (!js_value(j, depth + 1)) return 0;
            js_space(j);
            if (j->i < j->n && j->s[j->i] == ',') {
                j->i++;
                continue;
            }
            if (j->i < j->n && j->s[j->i] == close) {
                j->i++;
                return 1;
            }
            return 0;
        }
    }
    if (c == '"') return js_string(j);
    if (c == 't') return js_literal(j, "true");
    if (c == 'f') return js_literal(j, "false");
    if (c == 'n') return js_literal(j, "null");
    if (c == '-' || (c >= '0' && c <= '9')) return js_number(j);
    return 0;
}

static int json_syntax(const uint8_t *s, size_t n) {
    if (!valid_utf8(s, n) || memchr(s, 0, n)) return JSON_INVALID;
    json_scan j = {s, n, 0, 0};
    js_space(&j);
    int ok = js_value(&j, 0);
    js_space(&j);
    if (j.unknown) return JSON_UNKNOWN;
    return ok && j.i == n ? JSON_VALID : JSON_INVALID;
}

typedef fathom_status (*text_fn)(const fathom_report *, char *, size_t, size_t *);

/* A text of the report (JSON or page) through the buffer rules: the length from capacity 0, a short capacity
 * (nothing written), NULL out_length and a NULL buffer with room (refused), then exactly enough (NUL-terminated,
 * nothing past it). Returns the malloc'd text, its length in *length. */
static char *report_text(fz_input *in, const fathom_report *r, text_fn call, const char *function, size_t *length) {
    size_t len;
    fz_poison(&len, sizeof len);
    fathom_status s = fz_checked(call(r, NULL, 0, &len), function);
    fz_need(s == FATHOM_ERR_BUFFER_TOO_SMALL, function, "capacity 0 is not BUFFER_TOO_SMALL");
    fz_need(len > 0 && len < ((size_t)1 << 31), function, "capacity 0 does not report the length");
    size_t needed = len;
    uint8_t mode = fz_u8(in);
    if (mode & 1) {
        size_t capacity = mode & 2 ? needed : fz_u32(in) % (needed + 1);
        char *small = fz_malloc(capacity);
        fz_poison(small, capacity);
        fz_poison(&len, sizeof len);
        s = fz_checked(call(r, capacity || (mode & 4) ? small : NULL, capacity, &len), function);
        fz_need(s == FATHOM_ERR_BUFFER_TOO_SMALL, function, "a capacity < length + 1 was not BUFFER_TOO_SMALL");
        fz_need(len == needed, function, "BUFFER_TOO_SMALL did not report the length needed");
        fz_untouched(s, function, small, capacity);
        free(small);
    }
    if (mode & 8) {
        char probe[8];
        fz_poison(probe, sizeof probe);
        s = fz_checked(call(r, probe, sizeof probe, NULL), function);
        fz_need(s != FATHOM_OK, function, "a NULL out_length was accepted");
        fz_untouched(s, function, probe, sizeof probe);
        fz_poison(&len, sizeof len);
        s = fz_checked(call(r, NULL, needed + 1 + fz_u8(in), &len), function);
        fz_need(s != FATHOM_OK, function, "a NULL buffer with room was accepted");
        fz_untouched(s, function, &len, sizeof len);
    }
    size_t slack = mode >> 4;
    char *text = fz_malloc(needed + 1 + slack);
    fz_poison(text, needed + 1 + slack);
    fz_poison(&len, sizeof len);
    s = fz_checked(call(r, text, needed + 1, &len), function);
    fz_need(s == FATHOM_OK, function, "refused length + 1 bytes");
    fz_need(len == needed, function, "the length written differs from the length asked");
    fz_need(text[needed] == '\0' && strlen(text) == needed, function, "the text is not NUL-terminated at its length");
    fz_untouched_past(function, text + needed + 1, slack);
    fz_need(valid_utf8((const uint8_t *)text, needed), function, "the text is not valid UTF-8");
    *length = needed;
    return text;
}

static int ends_with(const char *s, size_t n, const char *suffix) {
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading and saving                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* fathom_report_from_json of `json` with the clouds: the header's promises for the call. */
static fathom_status read_report(const char *json, size_t length, const cloud_arg *cloud, const cloud_arg *object,
                                 fathom_report **out) {
    int syntax = json_syntax((const uint8_t *)json, length);
    const char *f = "fathom_report_from_json";
    fathom_report *r;
    fz_poison(&r, sizeof r);
    fathom_status s = FZ(fathom_report_from_json, json, length, cloud->points, cloud->count, cloud->stride,
                         object->points, object->count, object->stride, &r);
    fz_untouched(s, f, &r, sizeof r);
    if (cloud->bad || object->bad)
        fz_need(s != FATHOM_OK, f, "a NULL cloud with points, a bad stride or alignment was accepted");
    if (cloud->not_finite || object->not_finite) fz_need(s != FATHOM_OK, f, "a point that is not finite was accepted");
    if (!cloud->bad && !object->bad && !cloud->not_finite && !object->not_finite) {
        /* Valid arguments: the text is the problem, if there is one. Text that is not JSON is FATHOM_ERR_PARSE,
         * JSON is not. Values of the box that are not finite or out of its range fail as the box's checks do. */
        fz_need(s == FATHOM_OK || s == FATHOM_ERR_PARSE || s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_NOT_FINITE ||
                    s == FATHOM_ERR_OUT_OF_RANGE,
                f, "valid clouds, and a status other than PARSE, FORMAT, NOT_FINITE or OUT_OF_RANGE");
        if (syntax == JSON_INVALID) fz_need(s == FATHOM_ERR_PARSE, f, "text that is not JSON was not FATHOM_ERR_PARSE");
        if (syntax == JSON_VALID)
            fz_need(s != FATHOM_ERR_PARSE, f, "valid JSON was FATHOM_ERR_PARSE (not a schema error, FORMAT)");
    }
    *out = s == FATHOM_OK ? r : NULL;
    return s;
}

/* The whole file at dir/name (malloc'd, NUL-terminated; length in *length), or NULL when there is none. */
static char *read_file(const char *dir, const char *name, size_t *length) {
    char path[256];
    fz_path_join(path, sizeof path, dir, name);
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    size_t size = 0, capacity = 4096;
    char *data = fz_malloc(capacity);
    for (;;) {
        if (size + 1 >= capacity) {
            capacity *= 2;
            char *grown = realloc(data, capacity);
            if (!grown) abort();
            data = grown;
        }
        size_t n = fread(data + size, 1, capacity - size - 1, file);
        if (n == 0) break;
        size += n;
    }
    fclose(file);
    data[size] = 0;
    *length = size;
    return data;
}

static int has_file(const char *dir, const char *name) {
    char path[256];
    struct stat info;
    fz_path_join(path, sizeof path, dir, name);
    return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

/* Whether `pc` (destroyed here) holds the points of `c`, bit for bit, in order. */
static int same_points(fathom_point_cloud *pc, const cloud_arg *c) {
    fathom_point_cloud_info info;
    fz_poison(&info, sizeof info);
    fz_need(FZ(fathom_point_cloud_get_info, pc, &info) == FATHOM_OK, "fathom_point_cloud_get_info", "failed");
    int same = info.count == c->count;
    if (same && c->count > 0) {
        float *xyz = fz_malloc(c->count * 3 * sizeof(float));
        fz_need(FZ(fathom_point_cloud_points, pc, xyz, c->count) == FATHOM_OK, "fathom_point_cloud_points", "failed");
        size_t floats_stride = c->stride / 4;
        same = memcmp(xyz, c->points, 3 * sizeof(float)) == 0;
        for (size_t i = 1; same && i < c->count; i++)
            same = memcmp(xyz + 3 * i, c->points + i * floats_stride, 3 * sizeof(float)) == 0;
        free(xyz);
    }
    fathom_point_cloud_destroy(pc);
    return same;
}

/* The cloud saved as dir/name, loaded: the points of `c`. */
static void check_ply(const char *name, const cloud_arg *c) {
    char path[256];
    fz_path_join(path, sizeof path, save_dir, name);
    fathom_point_cloud *pc;
    fathom_status s = FZ(fathom_point_cloud_load_ply, path, &pc);
    fz_need(s == FATHOM_OK, "fathom_report_save", "a cloud it wrote does not load");
    fz_need(same_points(pc, c), "fathom_report_save", "a cloud it wrote is not the cloud given");
}

static void check_save(const fathom_report *r, const fathom_report_summary *sum, const char *json, size_t json_length,
                       const char *html, size_t html_length, const cloud_arg *cloud, const cloud_arg *object) {
    const char *f = "fathom_report_save";
    fz_clear_dir(save_dir);
    rmdir(save_dir);
    fz_need(FZ(fathom_report_save, r, save_dir) == FATHOM_OK, f, "could not save into a new folder under /dev/shm");
    size_t length;
    char *saved = read_file(save_dir, "report.json", &length);
    int same = saved && length == json_length + 1 && saved[json_length] == '\n';
    same = same && memcmp(saved, json, json_length) == 0;
    fz_need(same, f, "report.json is not fathom_report_json's text and a newline");
    /* What was saved reads back (the newline is whitespace) to the same report. */
    fathom_report *back;
    fz_need(read_report(saved, length, cloud, object, &back) == FATHOM_OK, "fathom_report_from_json",
            "the saved report.json does not read back");
    size_t back_length;
    fz_need(FZ(fathom_report_json, back, saved, length + 1, &back_length) == FATHOM_OK && back_length == json_length &&
                memcmp(saved, json, json_length) == 0,
            "fathom_report_from_json", "the saved report.json reads back to another report");
    fathom_report_destroy(back);
    free(saved);
    saved = read_file(save_dir, "report.html", &length);
    fz_need(saved && length == html_length && memcmp(saved, html, html_length) == 0, f,
            "report.html is not fathom_report_html's page");
    free(saved);
    int box = sum->box_source != FATHOM_BOX_NONE;
    fz_need(has_file(save_dir, "cloud.ply"), f, "cloud.ply was not written");
    fz_need(has_file(save_dir, "object.ply") == box, f, "object.ply was not written exactly when there is a box");
    check_ply("cloud.ply", cloud);
    if (box) check_ply("object.ply", object);
    int views = has_file(save_dir, "top-view.svg") && has_file(save_dir, "side-view.svg");
    fz_need(views && has_file(save_dir, "speed.svg"), f, "top-view.svg, side-view.svg or speed.svg was not written");
    /* The JSON may hold a box without coverage, or coverage without a box: the coverage figures go with the
     * coverage. */
    int coverage = sum->has_coverage == 1;
    fz_need(has_file(save_dir, "coverage.svg") == coverage && has_file(save_dir, "view-bins.svg") == coverage, f,
            "coverage.svg and view-bins.svg were not written exactly when there is coverage");
    /* Those files and nothing else (no temporary files left). */
    DIR *d = opendir(save_dir);
    fz_need(d != NULL, f, "the folder cannot be listed");
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));) entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    fz_need(entries == 6 + box + 2 * coverage, f, "the folder holds other files than the report's");
    /* Again, into the folder it made: the same files, overwritten. */
    fz_need(FZ(fathom_report_save, r, save_dir) == FATHOM_OK, f, "could not save into an existing folder");
    fz_clear_dir(save_dir);
    rmdir(save_dir);
    /* A regular file is no folder, and a folder inside one cannot be made: FATHOM_ERR_IO. */
    fathom_status s = FZ(fathom_report_save, r, file_path);
    fz_need(s == FATHOM_ERR_IO, f, "a regular file as the folder was not FATHOM_ERR_IO");
    char inside[160];
    fz_path_join(inside, sizeof inside, file_path, "report");
    s = FZ(fathom_report_save, r, inside);
    fz_need(s == FATHOM_ERR_IO, f, "a folder inside a regular file was not FATHOM_ERR_IO");
    fz_need(FZ(fathom_report_save, r, NULL) != FATHOM_OK, f, "a NULL directory was accepted");
}

/* NULL arguments that do not depend on the input, once per process. */
static void null_arguments(void) {
    static int done = 0;
    if (done) return;
    done = 1;
    static const char json[] = "{}";
    fathom_report *r;
    fz_poison(&r, sizeof r);
    fathom_status s = FZ(fathom_report_from_json, NULL, 2, NULL, 0, 12, NULL, 0, 12, &r);
    fz_need(s == FATHOM_ERR_NULL_POINTER, "fathom_report_from_json", "a NULL json was not FATHOM_ERR_NULL_POINTER");
    fz_untouched(s, "fathom_report_from_json", &r, sizeof r);
    s = FZ(fathom_report_from_json, json, 2, NULL, 0, 12, NULL, 0, 12, NULL);
    fz_need(s == FATHOM_ERR_NULL_POINTER, "fathom_report_from_json", "a NULL out was not FATHOM_ERR_NULL_POINTER");
    size_t length;
    char buffer[8];
    fz_poison(&length, sizeof length);
    fz_poison(buffer, sizeof buffer);
    s = FZ(fathom_report_json, NULL, buffer, sizeof buffer, &length);
    fz_need(s != FATHOM_OK, "fathom_report_json", "a NULL report was accepted");
    fz_untouched(s, "fathom_report_json", &length, sizeof length);
    fz_untouched(s, "fathom_report_json", buffer, sizeof buffer);
    s = FZ(fathom_report_html, NULL, buffer, sizeof buffer, &length);
    fz_need(s != FATHOM_OK, "fathom_report_html", "a NULL report was accepted");
    fz_untouched(s, "fathom_report_html", &length, sizeof length);
    fz_untouched(s, "fathom_report_html", buffer, sizeof buffer);
    fathom_report_summary sum;
    fz_poison(&sum, sizeof sum);
    s = FZ(fathom_report_get_summary, NULL, &sum);
    fz_need(s != FATHOM_OK, "fathom_report_get_summary", "a NULL report was accepted");
    fz_untouched(s, "fathom_report_get_summary", &sum, sizeof sum);
    fz_need(FZ(fathom_report_save, NULL, save_dir) != FATHOM_OK, "fathom_report_save", "a NULL report was accepted");
    fathom_report_destroy(NULL);
}

/* A report read: its summary, its JSON and page, the JSON read back, and sometimes a save. */
static void check_report(fz_input *in, const fathom_report *r, const cloud_arg *cloud, const cloud_arg *object) {
    /* The summary: the clouds given, a valid box. */
    const char *fs = "fathom_report_get_summary";
    fathom_report_summary sum;
    fz_poison(&sum, sizeof sum);
    fz_need(FZ(fathom_report_get_summary, r, &sum) == FATHOM_OK, fs, "failed on a report read from JSON");
    fz_check_summary_form(&sum, fs);
    fz_need(sum.cloud_points == cloud->count && sum.object_points == object->count, fs,
            "cloud_points or object_points is not the count of the cloud given");
    fz_need(sum.box_source <= FATHOM_BOX_FITTED, fs, "box_source out of the enum");
    if (sum.box_source != FATHOM_BOX_NONE)
        fz_need(FZ(fathom_box_check, &sum.box) == FATHOM_OK, fs, "the report's box fails fathom_box_check");
    fz_need(FZ(fathom_report_get_summary, r, NULL) != FATHOM_OK, fs, "a NULL out was accepted");

    /* The clouds: the points given, bit for bit; a kind past FATHOM_REPORT_OBJECT is refused. */
    for (uint32_t which = 0; which < 2; which++) {
        fathom_point_cloud *pc;
        fz_need(FZ(fathom_report_cloud, r, which, &pc) == FATHOM_OK, "fathom_report_cloud",
                "failed on a report read from JSON");
        fz_need(same_points(pc, which == 0 ? cloud : object), "fathom_report_from_json",
                "a cloud of the report is not the one given");
    }
    uint8_t kind = fz_u8(in);
    if (kind >= 240) {
        fathom_point_cloud *pc;
        fz_poison(&pc, sizeof pc);
        fathom_status s = FZ(fathom_report_cloud, r, kind == 255 ? UINT32_MAX : 2u + kind % 4, &pc);
        fz_need(s != FATHOM_OK, "fathom_report_cloud", "a kind past FATHOM_REPORT_OBJECT was accepted");
        fz_untouched(s, "fathom_report_cloud", &pc, sizeof pc);
    }

    /* The JSON and the page. */
    size_t json_length, html_length;
    char *text = report_text(in, r, fathom_report_json, "fathom_report_json", &json_length);
    int object_text = text[0] == '{' && text[json_length - 1] == '}';
    fz_need(object_text && json_syntax((const uint8_t *)text, json_length) == JSON_VALID,
            "fathom_report_json", "the text is not a JSON object (RFC 8259)");
    char *html = report_text(in, r, fathom_report_html, "fathom_report_html", &html_length);
    fz_need(strncmp(html, "<!DOCTYPE html>", 15) == 0 && ends_with(html, html_length, "</html>\n"),
            "fathom_report_html", "the page does not start with <!DOCTYPE html> and end with </html> and a newline");

    /* Read back with the same clouds: the same JSON and the same page, byte for byte. */
    fathom_report *again;
    fz_need(read_report(text, json_length, cloud, object, &again) == FATHOM_OK, "fathom_report_from_json",
            "fathom_report_json's text does not read back");
    size_t json_length2, html_length2;
    char *text2 = report_text(in, again, fathom_report_json, "fathom_report_json", &json_length2);
    fz_need(json_length2 == json_length && memcmp(text, text2, json_length) == 0, "fathom_report_from_json",
            "the JSON read back does not write the same JSON");
    char *html2 = report_text(in, again, fathom_report_html, "fathom_report_html", &html_length2);
    fz_need(html_length2 == html_length && memcmp(html, html2, html_length) == 0, "fathom_report_from_json",
            "the JSON read back does not show the same page");
    fathom_report_summary sum2;
    fz_poison(&sum2, sizeof sum2);
    fz_need(FZ(fathom_report_get_summary, again, &sum2) == FATHOM_OK, fs, "failed on a report read back");
    fz_check_summary_form(&sum2, fs);
    fz_need(sum2.cloud_points == cloud->count && sum2.object_points == object->count &&
                sum2.box_source == sum.box_source && sum2.frames == sum.frames &&
                sum2.fused_frames == sum.fused_frames && sum2.captures == sum.captures &&
                sum2.selected_frames == sum.selected_frames && sum2.warning_count == sum.warning_count,
            "fathom_report_from_json", "the report read back has other numbers");
    fathom_report_destroy(again);
    free(text2);
    free(html2);

    /* Saved, sometimes. */
    if (fz_u8(in) < 24) check_save(r, &sum, text, json_length, html, html_length, cloud, object);
    free(text);
    free(html);
}

/* ---------------------------------------------------------------------------------------------- */
/* The target                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    setup();
    null_arguments();

    /* The arguments, from a hash of the input. */
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
    uint64_t points_state = h ^ 0x5851F42D4C957F2Dull;
    uint8_t args[96];
    stream(&h, args, sizeof args);
    fz_input in = {args, sizeof args};

    /* The counts the text states (or small ones), sometimes one off. */
    long text_cloud = count_in_text(data, size, "\"cloud_points\"");
    long text_object = count_in_text(data, size, "\"object_points\"");
    size_t cloud_count = text_cloud >= 0 ? (size_t)text_cloud : fz_count(&in, 8);
    size_t object_count = text_object >= 0 ? (size_t)text_object : fz_count(&in, 8);
    uint8_t off = fz_u8(&in);
    if (off == 1) cloud_count++;
    if (off == 2 && object_count > 0) object_count--;
    cloud_arg cloud, object;
    make_cloud(&in, &points_state, cloud_count, &cloud);
    make_cloud(&in, &points_state, object_count, &object);

    const char *json = size ? (const char *)data : "";
    fathom_report *r;
    if (read_report(json, size, &cloud, &object, &r) == FATHOM_OK) {
        check_report(&in, r, &cloud, &object);
        fathom_report_destroy(r);
    }
    free(cloud.memory);
    free(object.memory);
    return 0;
}
