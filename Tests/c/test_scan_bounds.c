/* Bounds on what a scan's files can cost, and messages that say where a file is wrong, from C:
 *  1. a decompression bomb (a depth stream of a 3-frame scan that inflates to 10 GiB of zeros and never ends,
 *     raw, garbled at its end, or zlib-wrapped) opens in well under 2 s with 3 frames, saying the stream holds
 *     more than the scan can use; a camera info file with 100,000 extra lines (and then a line that is not JSON)
 *     opens with 3 frames, saying the lines from 4 on were not read;
 *  2. the capture option plausible_depth: its default, its range, and the report's warning about depth beyond it;
 *  3. JSON errors name the file, the line, the byte and what was found (transforms.json, a scan's metadata, a
 *     camera info line).
 * Links zlib (the bombs are made here with zlib's own deflate). */
#define _XOPEN_SOURCE 700
#include "fathom.h"
#include "check.h"
#include "tempdir.h"
#include "testmath.h"
#include "report_json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#define W 32
#define H 24
#define FRAMES 3
#define PATH_BYTES 512

/* float16 bit patterns: 1.0 = 2^0 -> biased exponent 15 -> 15 << 10 = 0x3C00; 30.0 = 1.875 * 2^4 -> exponent
 * 19 << 10 = 0x4C00, mantissa 0.875 * 1024 = 896 = 0x380 -> 0x4F80; 0.0 = 0x0000. */
#define HALF_ONE 0x3C00
#define HALF_THIRTY 0x4F80

static char DIR_PATH[256];

/* ---- files ----------------------------------------------------------------------------------------------- */

/* dir/name into `out` (PATH_BYTES), returned; "" if it does not fit. */
static const char *join(char *out, const char *dir, const char *name) {
    int n = snprintf(out, PATH_BYTES, "%s/%s", dir, name);
    if (n < 0 || n >= PATH_BYTES) out[0] = '\0';
    return out;
}

/* The whole file as a NUL-terminated string (the caller frees it), *size its length; NULL when unreadable. */
static char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        text = (char *)malloc((size_t)n + 1);
        if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
            text[n] = '\0';
            if (size) *size = (size_t)n;
        } else {
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    return text;
}

static int write_bytes(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    int ok;
    if (!f) return 0;
    ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* Replaces the first `from` in the file by `to`; 0 (and a message) when the file or `from` is not there. */
static int replace_in_file(const char *path, const char *from, const char *to) {
    size_t size = 0, at, nf = strlen(from), nt = strlen(to);
    char *text = read_all(path, &size), *hit, *out;
    int ok;
    if (!text || (hit = strstr(text, from)) == NULL) {
        printf("    cannot find \"%s\" in %s\n", from, path);
        free(text);
        return 0;
    }
    at = (size_t)(hit - text);
    out = (char *)malloc(size - nf + nt + 1);
    if (!out) {
        free(text);
        return 0;
    }
    memcpy(out, text, at);
    memcpy(out + at, to, nt);
    memcpy(out + at + nt, hit + nf, size - at - nf);
    ok = write_bytes(path, out, size - nf + nt);
    free(out);
    free(text);
    return ok;
}

/* A 3-frame scan "scan" in `dir` written by the library: depth W x H float16, 1 m everywhere (a wall 1 m in front
 * of the camera), except frame 1, which has a 4 x 5 patch (rows 10...13, columns 12...16) of `patch` (a float16
 * bit pattern; HALF_ONE: no patch); confidence 2 (high) everywhere; RGB 160 x 120, fx = fy = 200, principal point
 * (80, 60); identity rotation, the camera at x = 0.1 * frame m (10 cm sideways per frame). */
static int write_scan(const char *dir, uint16_t patch) {
    static uint16_t depth[W * H];
    static uint8_t confidence[W * H];
    fathom_scan_writer_options o;
    fathom_scan_writer *w = NULL;
    fathom_intrinsics k = t_intr(200, 200, 80, 60, 160, 120);
    double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    int f, i, row, col, ok = 1;
    fathom_scan_writer_options_init(&o);
    o.depth_width = W;
    o.depth_height = H;
    o.rgb_width = 160;
    o.rgb_height = 120;
    o.depth_format = FATHOM_DEPTH_FLOAT16;
    o.with_confidence = 1;
    if (fathom_scan_writer_create(dir, "scan", &o, &w) != FATHOM_OK) {
        printf("    fathom_scan_writer_create: %s\n", fathom_last_error());
        return 0;
    }
    for (i = 0; i < W * H; i++) confidence[i] = 2;
    for (f = 0; f < FRAMES; f++) {
        fathom_pose p = t_pose(r, 0.1 * f, 0, 0);
        for (i = 0; i < W * H; i++) depth[i] = HALF_ONE;
        if (f == 1)
            for (row = 10; row < 14; row++)
                for (col = 12; col < 17; col++) depth[row * W + col] = patch;
        if (fathom_scan_writer_append(w, (int64_t)f * 16666667, &k, &p, depth, sizeof depth, confidence,
                                      sizeof confidence) != FATHOM_OK) {
            printf("    fathom_scan_writer_append: %s\n", fathom_last_error());
            ok = 0;
        }
    }
    if (fathom_scan_writer_finish(w) != FATHOM_OK) {
        printf("    fathom_scan_writer_finish: %s\n", fathom_last_error());
        ok = 0;
    }
    fathom_scan_writer_destroy(w);
    return ok;
}

/* A fresh folder DIR_PATH/name holding the scan of write_scan(patch), into `out`; NULL when it cannot. */
static const char *fresh_scan(char *out, const char *name, uint16_t patch) {
    join(out, DIR_PATH, name);
    if (!write_scan(out, patch)) {
        printf("    cannot write the scan %s\n", out);
        return NULL;
    }
    return out;
}

/* ---- warnings ---------------------------------------------------------------------------------------------- */

/* The number of the scan's warnings containing `a` and (if not NULL) `b`; -1 when they cannot be read. */
static int scan_warnings_with(const fathom_scan *s, const char *a, const char *b) {
    fathom_scan_info info;
    char text[4096];
    size_t n;
    uint32_t i;
    int count = 0;
    if (fathom_scan_get_info(s, &info) != FATHOM_OK) return -1;
    for (i = 0; i < info.warning_count; i++) {
        if (fathom_scan_warning(s, i, text, sizeof text, &n) != FATHOM_OK) return -1;
        if (strstr(text, a) != NULL && (b == NULL || strstr(text, b) != NULL)) count++;
    }
    return count;
}

static void print_scan_warnings(const fathom_scan *s) {
    fathom_scan_info info;
    char text[4096];
    size_t n;
    uint32_t i;
    if (fathom_scan_get_info(s, &info) != FATHOM_OK) return;
    printf("    the scan's %u warnings:\n", (unsigned)info.warning_count);
    for (i = 0; i < info.warning_count; i++)
        if (fathom_scan_warning(s, i, text, sizeof text, &n) == FATHOM_OK) printf("      \"%s\"\n", text);
    fflush(stdout);
}

/* One of the scan's warnings contains `a` and (if not NULL) `b`. */
#define CHECK_SCAN_WARNING(s, a, b)                                                                        \
    do {                                                                                                   \
        if (scan_warnings_with((s), (a), (b)) >= 1) {                                                      \
            check_pass_();                                                                                 \
        } else {                                                                                           \
            check_fail_(__FILE__, __LINE__, "a warning of " #s " contains " #a " and " #b);                 \
            print_scan_warnings(s);                                                                        \
        }                                                                                                  \
    } while (0)

/* The number of strings of the JSON text's "warnings" array containing `a` and (if not NULL) `b` (the strings
 * compared as written, escapes and all); -1 without a "warnings" array. */
static int json_warnings_with(const char *json, const char *a, const char *b) {
    static char item[8192];
    const char *p = strstr(json, "\"warnings\"");
    int count = 0;
    if (!p) return -1;
    p += strlen("\"warnings\"");
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    if (*p++ != ':') return -1;
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    if (*p++ != '[') return -1;
    for (;;) {
        size_t n = 0;
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == ',') p++;
        if (*p == ']') return count;
        if (*p++ != '"') return -1;
        while (*p != '\0' && *p != '"') {
            if (*p == '\\' && p[1] != '\0') {
                if (n + 2 < sizeof item) item[n++] = *p;
                p++;
            }
            if (n + 1 < sizeof item) item[n++] = *p;
            p++;
        }
        if (*p++ != '"') return -1;
        item[n] = '\0';
        if (strstr(item, a) != NULL && (b == NULL || strstr(item, b) != NULL)) count++;
    }
}

/* Checks that `expected` warnings of the report contain a and b (b may be NULL), printing the JSON if not. */
static void check_warnings(const fathom_report *r, const char *a, const char *b, int expected, const char *what) {
    char *json = report_json(r);
    CHECK(json != NULL);
    if (json) {
        if (json_warnings_with(json, a, b) == expected) {
            check_pass_();
        } else {
            check_fail_(__FILE__, __LINE__, what);
            printf("    report JSON: %.3000s\n", json);
        }
    }
    free(json);
}

/* The report of the scan in `dir` with max_depth INFINITY and plausible_depth `plausible`; NULL on failure. */
static fathom_report *report_of(const char *dir, float plausible) {
    fathom_scan *s = NULL;
    fathom_report *r = NULL;
    fathom_capture_options o;
    CHECK_OK(fathom_scan_open(dir, &s));
    if (!s) return NULL;
    CHECK_OK(fathom_capture_options_init(&o));
    o.max_depth = INFINITY;
    o.plausible_depth = plausible;
    CHECK_OK(fathom_scan_report(s, &o, NULL, NULL, NULL, &r));
    fathom_scan_destroy(s);
    return r;
}

/* ---- 1. decompression bombs ------------------------------------------------------------------------------- */

#define MIB (1024 * 1024)
#define BOMB_REPEATS 10240 /* 10240 MiB = 10 GiB */

/* 1 MiB of zeros deflated at level 9 with windowBits `bits` (-15 raw, 15 zlib-wrapped), ended by Z_FULL_FLUSH:
 * the compressed bytes (the caller frees them), *n their count; NULL on failure. */
static unsigned char *deflate_zeros(int bits, size_t *n) {
    z_stream z;
    unsigned char *in = (unsigned char *)calloc(MIB, 1), *out = NULL;
    uLong bound;
    int rc;
    memset(&z, 0, sizeof z);
    if (!in || deflateInit2(&z, 9, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(in);
        return NULL;
    }
    bound = deflateBound(&z, MIB) + 64;
    out = (unsigned char *)malloc(bound);
    if (out) {
        z.next_in = in;
        z.avail_in = MIB;
        z.next_out = out;
        z.avail_out = (uInt)bound;
        rc = deflate(&z, Z_FULL_FLUSH);
        /* All input taken and room left over: the flush is complete. */
        if (rc != Z_OK || z.avail_in != 0 || z.avail_out == 0) {
            free(out);
            out = NULL;
        } else {
            *n = (size_t)(bound - z.avail_out);
        }
    }
    deflateEnd(&z); /* Z_DATA_ERROR: the stream was left unfinished, on purpose */
    free(in);
    return out;
}

/* The raw block B and the zlib header, made once. */
static unsigned char *BLOCK;
static size_t BLOCK_BYTES;
static unsigned char ZLIB_HEADER[2];

static int make_block(void) {
    size_t wrapped_bytes = 0;
    unsigned char *wrapped;
    BLOCK = deflate_zeros(-15, &BLOCK_BYTES);
    wrapped = deflate_zeros(15, &wrapped_bytes);
    if (!BLOCK || !wrapped) {
        printf("    cannot deflate with zlib\n");
        free(wrapped);
        return 0;
    }
    memcpy(ZLIB_HEADER, wrapped, 2);
    /* The test's own premises: B is byte-aligned and ends in the full flush's empty stored block (00 00 FF FF,
     * no final block); DEFLATE expands at most 1032-fold, so B is more than 1 KiB; a zlib stream is its 2-byte
     * header, then the same blocks (its Adler-32 comes only at the end, which this stream never reaches). */
    CHECK(BLOCK_BYTES > 1016 && BLOCK_BYTES < 4096);
    CHECK(BLOCK_BYTES >= 4 && memcmp(BLOCK + BLOCK_BYTES - 4, "\x00\x00\xff\xff", 4) == 0);
    CHECK(wrapped_bytes == BLOCK_BYTES + 2 && memcmp(wrapped + 2, BLOCK, BLOCK_BYTES) == 0);
    CHECK((ZLIB_HEADER[0] * 256 + ZLIB_HEADER[1]) % 31 == 0 && (ZLIB_HEADER[0] & 0x0F) == 8);
    free(wrapped);
    return 1;
}

/* B B B inflates (raw) to 3 MiB of zeros and is not at its end: repeating B is valid DEFLATE without an end. */
static void check_block_repeats(void) {
    z_stream z;
    unsigned char *in = (unsigned char *)malloc(3 * BLOCK_BYTES), *out = (unsigned char *)malloc(3 * MIB + 16);
    size_t i;
    int rc, zeros = 1;
    memset(&z, 0, sizeof z);
    if (!in || !out || inflateInit2(&z, -15) != Z_OK) {
        CHECK(0);
        free(in);
        free(out);
        return;
    }
    for (i = 0; i < 3; i++) memcpy(in + i * BLOCK_BYTES, BLOCK, BLOCK_BYTES);
    z.next_in = in;
    z.avail_in = (uInt)(3 * BLOCK_BYTES);
    z.next_out = out;
    z.avail_out = 3 * MIB + 16;
    rc = inflate(&z, Z_SYNC_FLUSH);
    CHECK(rc == Z_OK && z.avail_in == 0 && z.total_out == 3 * MIB);
    for (i = 0; i < z.total_out; i++) zeros &= out[i] == 0;
    CHECK(zeros);
    inflateEnd(&z);
    free(in);
    free(out);
}

/* Writes the bomb to `path` piece by piece: the zlib header if `wrapped`, B 10240 times (10 GiB of zeros
 * inflated, about 10 MB here), then 64 bytes 0xFF if `garbled`. */
static int write_bomb(const char *path, int wrapped, int garbled) {
    unsigned char tail[64];
    FILE *f = fopen(path, "wb");
    int i, ok = 1;
    if (!f) return 0;
    if (wrapped) ok &= fwrite(ZLIB_HEADER, 1, 2, f) == 2;
    for (i = 0; i < BOMB_REPEATS && ok; i++) ok &= fwrite(BLOCK, 1, BLOCK_BYTES, f) == BLOCK_BYTES;
    memset(tail, 0xFF, sizeof tail);
    if (garbled) ok &= fwrite(tail, 1, sizeof tail, f) == sizeof tail;
    return fclose(f) == 0 && ok;
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_bomb(const char *name, int wrapped, int garbled) {
    static uint16_t depth[W * H];
    char d[PATH_BYTES], p[PATH_BYTES], section[200];
    fathom_scan *s = NULL;
    fathom_scan_info info;
    double start, elapsed;
    int i, zeros = 1;
    snprintf(section, sizeof section, "a depth stream inflating to 10 GiB without an end (%s) opens at once with 3 frames",
             name);
    check_section(section);
    if (!fresh_scan(d, name, HALF_ONE) || !write_bomb(join(p, d, "scan.depth.zlib"), wrapped, garbled)) {
        CHECK(0);
        return;
    }
    start = seconds_now();
    CHECK_OK(fathom_scan_open(d, &s));
    elapsed = seconds_now() - start;
    if (elapsed < 2.0) {
        check_pass_();
    } else {
        check_fail_(__FILE__, __LINE__, "fathom_scan_open of the bomb takes under 2 s");
        printf("    took %.2f s\n", elapsed);
    }
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count == 3);
    CHECK(info.depth_width == W && info.depth_height == H && info.depth_format == FATHOM_DEPTH_FLOAT16);
    CHECK_SCAN_WARNING(s, "holds more than the 3 frames the scan can use", NULL);
    CHECK_SCAN_WARNING(s, "frame counts disagree", "more than 3");
    /* Frame 2: the bytes 2 * 1536 ... 3 * 1536 of the stream's zeros, float16 0.0. */
    t_fill(depth, sizeof depth);
    CHECK_OK(fathom_scan_read_depth(s, 2, depth, sizeof depth));
    for (i = 0; i < W * H; i++) zeros &= depth[i] == 0;
    CHECK(zeros);
    fathom_scan_destroy(s);
}

static void test_long_camera_info(void) {
    char d[PATH_BYTES], p[PATH_BYTES];
    size_t size = 0, last_start, last_bytes, i;
    char *text;
    FILE *f;
    int ok;
    fathom_scan *s = NULL;
    fathom_scan_info info;
    check_section("a camera info file with 100,000 extra lines, then one that is not JSON, opens with 3 frames");
    if (!fresh_scan(d, "long-jsonl", HALF_ONE) || (text = read_all(join(p, d, "scan.jsonl"), &size)) == NULL) {
        CHECK(0);
        return;
    }
    /* The last line (with its newline) starts after the newline before the file's last byte. */
    CHECK(size >= 2 && text[size - 1] == '\n');
    last_start = size - 1;
    while (last_start > 0 && text[last_start - 1] != '\n') last_start--;
    last_bytes = size - last_start;
    f = fopen(p, "ab");
    ok = f != NULL;
    for (i = 0; ok && i < 100000; i++) ok &= fwrite(text + last_start, 1, last_bytes, f) == last_bytes;
    if (f) {
        ok &= fputs("this line is not JSON\n", f) >= 0;
        ok &= fclose(f) == 0;
    }
    free(text);
    CHECK(ok);
    CHECK_OK(fathom_scan_open(d, &s));
    if (!s) return;
    CHECK_OK(fathom_scan_get_info(s, &info));
    CHECK(info.frame_count == 3);
    CHECK_SCAN_WARNING(s, "holds more lines than the scan can use", "lines from 4 on");
    fathom_scan_destroy(s);
}

/* ---- 2. plausible_depth ------------------------------------------------------------------------------------ */

/* fathom_capture_create refuses plausible_depth = `value` with `status`, naming plausible_depth; nothing made. */
static void expect_bad_plausible(float value, fathom_status status, const char *what, int line) {
    fathom_capture_options o;
    fathom_capture *c = NULL;
    fathom_status got;
    CHECK_OK(fathom_capture_options_init(&o));
    o.plausible_depth = value;
    got = fathom_capture_create(&o, NULL, &c);
    if (got == status && strstr(fathom_last_error(), "plausible_depth") != NULL) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, what);
        printf("    got %s \"%s\"; expected %s naming plausible_depth\n", fathom_status_name(got),
               got == FATHOM_OK ? "" : fathom_last_error(), fathom_status_name(status));
        fflush(stdout);
    }
    CHECK(c == NULL);
    fathom_capture_destroy(c);
}

#define EXPECT_BAD_PLAUSIBLE(value, status) \
    expect_bad_plausible((value), (status), "plausible_depth = " #value " is " #status, __LINE__)

static void test_plausible_depth(void) {
    fathom_capture_options o;
    fathom_capture *c = NULL;
    fathom_report *r;
    fathom_report_summary sum;
    char d[PATH_BYTES];

    check_section("plausible_depth: default 50, > 0 or INFINITY");
    t_fill(&o, sizeof o);
    CHECK_OK(fathom_capture_options_init(&o));
    CHECK(o.plausible_depth == 50.0f);
    CHECK(o.max_depth == 5.0f && o.voxel == 0.01f); /* its neighbours in the struct, as documented */
    EXPECT_BAD_PLAUSIBLE(0.0f, FATHOM_ERR_OUT_OF_RANGE);
    EXPECT_BAD_PLAUSIBLE(-1.0f, FATHOM_ERR_OUT_OF_RANGE);
    EXPECT_BAD_PLAUSIBLE(NAN, FATHOM_ERR_NOT_FINITE);
    CHECK_OK(fathom_capture_options_init(&o));
    o.plausible_depth = INFINITY;
    CHECK_OK(fathom_capture_create(&o, NULL, &c));
    CHECK(c != NULL);
    fathom_capture_destroy(c);

    check_section("plausible_depth 20: frame 1's 20 samples of 30 m are counted in a warning");
    if (!fresh_scan(d, "plausible", HALF_THIRTY)) {
        CHECK(0);
        return;
    }
    r = report_of(d, 20.0f);
    if (r) {
        /* Every frame is fused: the camera moves 10 cm (>= fuse_distance 5 cm) from one frame to the next. */
        CHECK_OK(fathom_report_get_summary(r, &sum));
        CHECK(sum.frames == 3 && sum.fused_frames == 3);
        check_warnings(r, "beyond 20 m", "frame 1: 20", 1,
                       "a warning of the report says \"beyond 20 m\" and \"frame 1: 20\"");
        fathom_report_destroy(r);
    }

    check_section("plausible_depth 50 (the default): 30 m is plausible, no warning");
    r = report_of(d, 50.0f);
    if (r) {
        check_warnings(r, "no sensor gives", NULL, 0, "no warning of the report says \"no sensor gives\"");
        fathom_report_destroy(r);
    }
}

/* ---- 3. JSON errors name the file, the line, the byte and what was found ------------------------------------ */

/* The last error contains `needle` (a runtime string). */
static void expect_mentions(const char *needle, int line) {
    const char *m = fathom_last_error();
    if (m != NULL && strstr(m, needle) != NULL) {
        check_pass_();
    } else {
        check_fail_(__FILE__, line, "fathom_last_error() mentions the text");
        printf("    wanted \"%s\"; last error \"%s\"\n", needle, m ? m : "(NULL)");
        fflush(stdout);
    }
}

#define EXPECT_MENTIONS(needle) expect_mentions((needle), __LINE__)

static void test_json_errors(void) {
    const char *text = "{\n  \"frames\": [],\n  \"w\": 640,,\n}\n";
    char p[PATH_BYTES], d[PATH_BYTES], where[64];
    const char *second;
    fathom_transforms *t = NULL;
    fathom_scan *s = NULL;

    check_section("fathom_transforms_read: a syntax error names the path, the line, the byte and what was found");
    /* The second of the two commas on line 3; the byte is its offset from the file's start (0 for the '{'). */
    second = strstr(text, ",,") + 1;
    snprintf(where, sizeof where, "line 3, byte %d", (int)(second - text));
    CHECK(write_bytes(join(p, DIR_PATH, "bad-transforms.json"), text, strlen(text)));
    CHECK_STATUS(fathom_transforms_read(p, 0, &t), FATHOM_ERR_PARSE);
    EXPECT_MENTIONS(p);
    EXPECT_MENTIONS(where);
    CHECK_ERROR_MENTIONS("found ','");
    CHECK(t == NULL);
    fathom_transforms_destroy(t);

    check_section("fathom_scan_open: a metadata number_of_frames of 1e30 names the field and the value");
    if (fresh_scan(d, "metadata-1e30", HALF_ONE)) {
        /* The writer's first stream is the color camera's; its number_of_frames is the file's first. */
        CHECK(replace_in_file(join(p, d, "scan.json"), "\"number_of_frames\":3", "\"number_of_frames\":1e30"));
        CHECK_STATUS(fathom_scan_open(d, &s), FATHOM_ERR_FORMAT);
        CHECK_ERROR_MENTIONS("streams[0].number_of_frames");
        CHECK_ERROR_MENTIONS("1e30");
        CHECK(s == NULL);
        fathom_scan_destroy(s);
        s = NULL;
    } else {
        CHECK(0);
    }

    check_section("fathom_scan_open: a camera info timestamp of 2^63 names the file, the line and the field");
    if (fresh_scan(d, "timestamp-2e63", HALF_ONE)) {
        /* Line 2 is frame 1's, at 16666667 ns; 9223372036854775808 = 2^63 = INT64_MAX + 1. */
        CHECK(replace_in_file(join(p, d, "scan.jsonl"), "\"timestamp\":16666667,", "\"timestamp\":9223372036854775808,"));
        CHECK_STATUS(fathom_scan_open(d, &s), FATHOM_ERR_FORMAT);
        EXPECT_MENTIONS(p);
        CHECK_ERROR_MENTIONS("line 2");
        CHECK_ERROR_MENTIONS("field timestamp");
        CHECK(s == NULL);
        fathom_scan_destroy(s);
    } else {
        CHECK(0);
    }
}

int main(void) {
    if (!make_temp_dir(DIR_PATH, sizeof DIR_PATH, "scan-bounds")) return 1;
    if (make_block()) {
        check_block_repeats();
        test_bomb("raw", 0, 0);
        test_bomb("raw-garbled-end", 0, 1);
        test_bomb("zlib-wrapped", 1, 0);
    } else {
        CHECK(0);
    }
    test_long_camera_info();
    test_plausible_depth();
    test_json_errors();
    free(BLOCK);
    remove_tree(DIR_PATH);
    return check_summary("test_scan_bounds");
}
