/* Hostile files and paths (issue 27), from C: every loader and writer given a FIFO is refused promptly
 * (FATHOM_ERR_IO, "not a regular file") instead of blocking in open(2); writes are atomic (a write that fails
 * midway leaves the old file and no temporary; a new file is mode 0644; a scan writer destroyed unfinished
 * leaves nothing); paths that are not UTF-8 are refused (FATHOM_ERR_OUT_OF_RANGE, "not UTF-8") and nothing
 * appears at the path with U+FFFD in place of the byte; fathom_scan_point_cloud returns only finite points.
 *
 * Each call that could block, or that needs RLIMIT_FSIZE, runs in a forked child under alarm(LIMIT_SECONDS):
 * before the fix the loaders' fopen "rb" waited for a writer and the writers' fopen "wb" for a reader of the
 * FIFO forever; here SIGALRM kills the child and the check fails instead of hanging `make test`. */
#define _XOPEN_SOURCE 700
#include "fathom.h"
#include "check.h"
#include "tempdir.h"
#include "testmath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIMIT_SECONDS 5
#define W 32
#define H 24
#define NPOINTS 1000

static char DIR_PATH[256];
static float POINTS[NPOINTS * 3];

/* ---- running a call in a child ---------------------------------------------------------------------- */

typedef fathom_status (*call_fn)(const char *path);

typedef struct outcome {
    int blocked;            /* the child was still in the call after LIMIT_SECONDS (killed by SIGALRM) */
    int died;               /* the child ended otherwise without a result */
    fathom_status status;
    char message[1024];
} outcome;

typedef struct child_result {
    fathom_status status;
    char message[1024];
} child_result;

/* fn(path) in a forked child; fsize_limit > 0 sets RLIMIT_FSIZE there (SIGXFSZ ignored: write(2) fails with
 * EFBIG past the limit). */
static outcome run_limited(call_fn fn, const char *path, long fsize_limit) {
    outcome o;
    child_result r;
    int fds[2], st = 0;
    size_t got = 0;
    pid_t pid;
    memset(&o, 0, sizeof o);
    memset(&r, 0, sizeof r);
    if (pipe(fds) != 0) {
        o.died = 1;
        return o;
    }
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        size_t done = 0;
        close(fds[0]);
        alarm(LIMIT_SECONDS);
        if (fsize_limit > 0) {
            struct rlimit rl;
            signal(SIGXFSZ, SIG_IGN);
            rl.rlim_cur = (rlim_t)fsize_limit;
            rl.rlim_max = RLIM_INFINITY;
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(3);
        }
        r.status = fn(path);
        snprintf(r.message, sizeof r.message, "%s", r.status == FATHOM_OK ? "" : fathom_last_error());
        while (done < sizeof r) {
            ssize_t n = write(fds[1], (const char *)&r + done, sizeof r - done);
            if (n <= 0) _exit(2);
            done += (size_t)n;
        }
        _exit(0);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        o.died = 1;
        return o;
    }
    /* A child stuck in the call holds the pipe open until SIGALRM ends it: read returns 0 then. */
    while (got < sizeof r) {
        ssize_t n = read(fds[0], (char *)&r + got, sizeof r - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (got < sizeof r) {
        if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) o.blocked = 1;
        else o.died = 1;
        return o;
    }
    o.status = r.status;
    memcpy(o.message, r.message, sizeof o.message);
    o.message[sizeof o.message - 1] = '\0';
    return o;
}

/* The outcome is `want` and its message contains `needle` and (if not NULL) `path`. */
static void expect_outcome(outcome o, fathom_status want, const char *needle, const char *path, const char *what,
                           const char *file, int line) {
    if (o.blocked) {
        check_fail_(file, line, what);
        printf("    blocked: no result after %d s (killed)\n", LIMIT_SECONDS);
        return;
    }
    if (o.died) {
        check_fail_(file, line, what);
        printf("    the child died without a result\n");
        return;
    }
    if (o.status != want || strstr(o.message, needle) == NULL || (path != NULL && strstr(o.message, path) == NULL)) {
        check_fail_(file, line, what);
        printf("    got %s \"%s\"; expected %s with \"%s\"%s%s\n", fathom_status_name(o.status), o.message,
               fathom_status_name(want), needle, path ? " and " : "", path ? path : "");
        fflush(stdout);
        return;
    }
    check_pass_();
}

#define EXPECT_OUTCOME(o, want, needle, path) \
    expect_outcome((o), (want), (needle), (path), #o " is " #want " mentioning " #needle, __FILE__, __LINE__)
#define NOT_REGULAR "is not a regular file"
#define NOT_REPLACED "is not a regular file: not replaced"

/* ---- files and folders ------------------------------------------------------------------------------ */

static int make_fifo(const char *path) {
    if (mkfifo(path, 0644) == 0) return 1;
    printf("    cannot make the FIFO %s\n", path);
    return 0;
}

static int is_fifo(const char *path) {
    struct stat info;
    return lstat(path, &info) == 0 && S_ISFIFO(info.st_mode);
}

static int exists(const char *path) {
    struct stat info;
    return lstat(path, &info) == 0;
}

static int write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    int ok;
    if (!f) return 0;
    ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* The file's bytes equal `text`. */
static int file_is(const char *path, const char *text) {
    char buf[4096];
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

/* Entries of `dir` other than "." and ".."; *dotted gets those whose names start with '.' (temporaries). */
static int count_entries(const char *dir, int *dotted) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (dotted) *dotted = 0;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        n++;
        if (dotted && e->d_name[0] == '.') (*dotted)++;
    }
    closedir(d);
    return n;
}

/* dir/name into `out` (PATH_BYTES), returned. */
#define PATH_BYTES 512
static const char *join(char *out, const char *dir, const char *name) {
    snprintf(out, PATH_BYTES, "%s/%s", dir, name);
    return out;
}

/* A fresh, empty folder DIR_PATH/name into `out`. */
static const char *fresh_dir(char *out, const char *name) {
    join(out, DIR_PATH, name);
    if (mkdir(out, 0755) != 0) printf("    cannot make %s\n", out);
    return out;
}

/* A scan `scan` of `frames` frames, W x H float32 depth (each frame `depth`), no confidence, identity poses. */
static int write_scan(const char *dir, const float *depth, const fathom_intrinsics *k, int frames) {
    fathom_scan_writer_options o;
    fathom_scan_writer *w = NULL;
    fathom_pose p;
    double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    int f, ok = 1;
    p = t_pose(r, 0, 0, 0);
    fathom_scan_writer_options_init(&o);
    o.depth_width = W;
    o.depth_height = H;
    o.rgb_width = k->width;
    o.rgb_height = k->height;
    o.depth_format = FATHOM_DEPTH_FLOAT32;
    o.with_confidence = 0;
    if (fathom_scan_writer_create(dir, "scan", &o, &w) != FATHOM_OK) {
        printf("    fathom_scan_writer_create: %s\n", fathom_last_error());
        return 0;
    }
    for (f = 0; f < frames; f++)
        if (fathom_scan_writer_append(w, (int64_t)f * 16666667, k, &p, depth, W * H * sizeof(float), NULL, 0) != FATHOM_OK) {
            printf("    fathom_scan_writer_append: %s\n", fathom_last_error());
            ok = 0;
        }
    if (fathom_scan_writer_finish(w) != FATHOM_OK) {
        printf("    fathom_scan_writer_finish: %s\n", fathom_last_error());
        ok = 0;
    }
    fathom_scan_writer_destroy(w);
    return ok;
}

static int write_flat_scan(const char *dir) {
    static float depth[W * H];
    fathom_intrinsics k = t_intr(200, 200, 80, 60, 160, 120);
    int i;
    for (i = 0; i < W * H; i++) depth[i] = 1.0f;
    return write_scan(dir, depth, &k, 3);
}

/* ---- the calls ------------------------------------------------------------------------------------- */

static fathom_mesh *G_MESH;
static fathom_point_cloud *G_CLOUD;
static fathom_scan *G_SCAN;
static fathom_report *G_REPORT;

static fathom_status call_mesh_load(const char *path) {
    fathom_mesh *m = NULL;
    fathom_status s = fathom_mesh_load(path, &m);
    fathom_mesh_destroy(m);
    return s;
}
static fathom_status call_cloud_load(const char *path) {
    fathom_point_cloud *c = NULL;
    fathom_status s = fathom_point_cloud_load_ply(path, &c);
    fathom_point_cloud_destroy(c);
    return s;
}
static fathom_status call_manifest_load(const char *path) {
    fathom_box b;
    return fathom_box_manifest_load(path, &b);
}
static fathom_status call_transforms_read(const char *path) {
    fathom_transforms *t = NULL;
    fathom_status s = fathom_transforms_read(path, 0, &t);
    fathom_transforms_destroy(t);
    return s;
}
static fathom_status call_scan_open(const char *path) {
    fathom_scan *s = NULL;
    fathom_status st = fathom_scan_open(path, &s);
    fathom_scan_destroy(s);
    return st;
}
static fathom_status call_scan_report(const char *path) {
    fathom_scan *s = NULL;
    fathom_report *r = NULL;
    fathom_status st = fathom_scan_open(path, &s);
    if (st != FATHOM_OK) return st;
    st = fathom_scan_report(s, NULL, NULL, NULL, NULL, &r);
    fathom_report_destroy(r);
    fathom_scan_destroy(s);
    return st;
}
static fathom_status call_ply_write(const char *path) {
    return fathom_ply_write_points(path, POINTS, NPOINTS, 12, NULL, NULL, NULL, FATHOM_PLY_BINARY);
}
static fathom_status call_cloud_save(const char *path) { return fathom_point_cloud_save_ply(G_CLOUD, path, FATHOM_PLY_ASCII); }
static fathom_status call_mesh_save(const char *path) { return fathom_mesh_save(G_MESH, path); }
static fathom_status call_manifest_save(const char *path) {
    fathom_box b;
    fathom_status s = fathom_box_init(v3(0.1f, 0.5f, -2), v3(0.4f, 1, 0.3f), 0.3f, &b);
    return s != FATHOM_OK ? s : fathom_box_manifest_save(&b, path);
}
static fathom_status call_transforms_save(const char *path) {
    fathom_pose poses[20];
    fathom_intrinsics ks[20];
    double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    int i;
    for (i = 0; i < 20; i++) {
        poses[i] = t_pose(r, 0.1 * i, 0, 0);
        ks[i] = t_intr(200, 200, 80, 60, 160, 120);
    }
    return fathom_transforms_save(path, poses, ks, 20, NULL);
}
static fathom_status call_writer_create(const char *path) {
    fathom_scan_writer *w = NULL;
    fathom_status s = fathom_scan_writer_create(path, "scan", NULL, &w);
    fathom_scan_writer_destroy(w);
    return s;
}
static fathom_status call_writer_create_bad_id(const char *path) {
    fathom_scan_writer *w = NULL;
    fathom_status s = fathom_scan_writer_create(path, "i\xff", NULL, &w);
    fathom_scan_writer_destroy(w);
    return s;
}
static fathom_status call_scan_write(const char *path) { return fathom_scan_write(G_SCAN, path, FATHOM_SCAN_SCANNER, NULL, NULL); }
static fathom_status call_report_save(const char *path) { return fathom_report_save(G_REPORT, path); }

/* ---- 1. FIFOs -------------------------------------------------------------------------------------- */

static void test_fifo_loaders(void) {
    char p[PATH_BYTES], d[PATH_BYTES];
    const char *names[3] = {"scan.depth.zlib", "scan.jsonl", "scan.json"};
    const char *dirs[3] = {"fifo-depth", "fifo-jsonl", "fifo-json"};
    int i;
    check_section("loaders refuse a FIFO without blocking");
    if (make_fifo(join(p, DIR_PATH, "fifo.obj"))) EXPECT_OUTCOME(run_limited(call_mesh_load, p, 0), FATHOM_ERR_IO, NOT_REGULAR, p);
    CHECK(is_fifo(p));
    if (make_fifo(join(p, DIR_PATH, "fifo.ply"))) EXPECT_OUTCOME(run_limited(call_cloud_load, p, 0), FATHOM_ERR_IO, NOT_REGULAR, p);
    if (make_fifo(join(p, DIR_PATH, "boundingbox.json")))
        EXPECT_OUTCOME(run_limited(call_manifest_load, p, 0), FATHOM_ERR_IO, NOT_REGULAR, p);
    if (make_fifo(join(p, DIR_PATH, "transforms.json"))) {
        EXPECT_OUTCOME(run_limited(call_transforms_read, p, 0), FATHOM_ERR_IO, NOT_REGULAR, p);
        EXPECT_OUTCOME(run_limited(call_scan_open, p, 0), FATHOM_ERR_IO, NOT_REGULAR, p);
    }
    CHECK(is_fifo(p));

    check_section("fathom_scan_open: a scan whose stream, camera info or metadata is a FIFO");
    for (i = 0; i < 3; i++) {
        fresh_dir(d, dirs[i]);
        if (!write_flat_scan(d) || unlink(join(p, d, names[i])) != 0 || !make_fifo(p)) {
            CHECK(0);
            continue;
        }
        EXPECT_OUTCOME(run_limited(call_scan_open, d, 0), FATHOM_ERR_IO, NOT_REGULAR, p);
    }

    check_section("fathom_scan_report: boundingbox.json beside the scan is a FIFO");
    fresh_dir(d, "fifo-box");
    if (write_flat_scan(d) && make_fifo(join(p, d, "boundingbox.json")))
        EXPECT_OUTCOME(run_limited(call_scan_report, d, 0), FATHOM_ERR_IO, NOT_REGULAR, p);
}

static void test_fifo_writers(void) {
    char p[PATH_BYTES], d[PATH_BYTES];
    const char *names[6] = {"points.ply", "cloud.ply", "mesh.ply", "mesh.obj", "boundingbox.json", "transforms.json"};
    const call_fn calls[6] = {call_ply_write, call_cloud_save, call_mesh_save, call_mesh_save, call_manifest_save,
                              call_transforms_save};
    int i, dotted = 0;
    check_section("writers refuse a FIFO target without blocking, and leave it a FIFO");
    fresh_dir(d, "fifo-writers");
    for (i = 0; i < 6; i++) {
        if (!make_fifo(join(p, d, names[i]))) continue;
        EXPECT_OUTCOME(run_limited(calls[i], p, 0), FATHOM_ERR_IO, NOT_REPLACED, p);
        CHECK(is_fifo(p));
    }
    CHECK(count_entries(d, &dotted) == 6 && dotted == 0);

    check_section("fathom_scan_writer_create / fathom_scan_write / fathom_report_save into a FIFO");
    fresh_dir(d, "fifo-scan-writer");
    if (make_fifo(join(p, d, "scan.depth.zlib")))
        EXPECT_OUTCOME(run_limited(call_writer_create, d, 0), FATHOM_ERR_IO, NOT_REPLACED, p);
    CHECK(is_fifo(p) && count_entries(d, NULL) == 1);
    fresh_dir(d, "fifo-scan-write");
    if (make_fifo(join(p, d, "scan.jsonl"))) EXPECT_OUTCOME(run_limited(call_scan_write, d, 0), FATHOM_ERR_IO, NOT_REPLACED, p);
    CHECK(is_fifo(p) && count_entries(d, &dotted) >= 1 && dotted == 0);
    fresh_dir(d, "fifo-report");
    if (make_fifo(join(p, d, "report.json"))) EXPECT_OUTCOME(run_limited(call_report_save, d, 0), FATHOM_ERR_IO, NOT_REPLACED, p);
    CHECK(is_fifo(p) && count_entries(d, NULL) == 1); /* report.json is the first file: nothing else written */
}

/* ---- 2. atomic writes ------------------------------------------------------------------------------ */

static void test_atomic_writes(void) {
    char p[PATH_BYTES], d[PATH_BYTES];
    const char *old = "old content, which a failed write must leave as it was\n";
    const char *names[3] = {"points.ply", "mesh.obj", "transforms.json"};
    const call_fn calls[3] = {call_ply_write, call_mesh_save, call_transforms_save};
    struct stat info;
    int i, dotted = 0;
    check_section("a write failing midway (EFBIG after 64 bytes) leaves the old file and no temporary");
    fresh_dir(d, "atomic");
    for (i = 0; i < 3; i++) {
        CHECK(write_file(join(p, d, names[i]), old));
        EXPECT_OUTCOME(run_limited(calls[i], p, 64), FATHOM_ERR_IO, "cannot write", p);
        CHECK(file_is(p, old));
    }
    CHECK(count_entries(d, &dotted) == 3 && dotted == 0);

    check_section("a write failing midway leaves no file where there was none");
    fresh_dir(d, "atomic-new");
    EXPECT_OUTCOME(run_limited(call_ply_write, join(p, d, "points.ply"), 64), FATHOM_ERR_IO, "cannot write", p);
    EXPECT_OUTCOME(run_limited(call_cloud_save, join(p, d, "cloud.ply"), 64), FATHOM_ERR_IO, "cannot write", p);
    CHECK(count_entries(d, NULL) == 0);

    check_section("a successful write replaces the file, mode 0644, no temporary");
    join(d, DIR_PATH, "atomic");
    CHECK_OK(call_ply_write(join(p, d, "points.ply")));
    CHECK(!file_is(p, old) && stat(p, &info) == 0 && (info.st_mode & 07777) == 0644 && info.st_size > 64);
    CHECK(count_entries(d, &dotted) == 3 && dotted == 0);
    CHECK_OK(call_ply_write(join(p, d, "new.ply")));
    CHECK(stat(p, &info) == 0 && (info.st_mode & 07777) == 0644);

    check_section("a scan writer destroyed unfinished leaves nothing");
    fresh_dir(d, "dropped-writer");
    {
        fathom_scan_writer *w = NULL;
        fathom_scan_writer_options opts;
        static uint16_t depth[256 * 192];
        static uint8_t conf[256 * 192];
        fathom_intrinsics k = t_intr(1500, 1500, 960, 720, 1920, 1440);
        double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        fathom_pose pose = t_pose(r, 0, 0, 0);
        fathom_scan_writer_options_init(&opts);
        CHECK_OK(fathom_scan_writer_create(d, "scan", &opts, &w));
        CHECK_OK(fathom_scan_writer_append(w, 1000, &k, &pose, depth, sizeof depth, conf, sizeof conf));
        fathom_scan_writer_destroy(w);
    }
    CHECK(count_entries(d, NULL) == 0);
}

/* ---- 3. paths that are not UTF-8 -------------------------------------------------------------------- */

static void test_paths_not_utf8(void) {
    char d[PATH_BYTES], p[PATH_BYTES], bad[PATH_BYTES], replaced[PATH_BYTES], mesh[PATH_BYTES], scan[PATH_BYTES];
    outcome o;
    check_section("writers refuse a path that is not UTF-8 and write nothing elsewhere");
    fresh_dir(d, "utf8");
    join(bad, d, "d\xff");
    join(replaced, d, "d\xef\xbf\xbd"); /* U+FFFD, what String(cString:) made of the byte */
    CHECK(mkdir(bad, 0755) == 0 && mkdir(replaced, 0755) == 0);
    o = run_limited(call_ply_write, join(p, d, "d\xff/p.ply"), 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_ply_write_points");
    o = run_limited(call_manifest_save, join(p, d, "d\xff/boundingbox.json"), 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_box_manifest_save");
    o = run_limited(call_transforms_save, join(p, d, "t\xff.json"), 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_transforms_save");
    o = run_limited(call_writer_create, join(p, d, "s\xff"), 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_scan_writer_create");
    o = run_limited(call_writer_create_bad_id, d, 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "scan_id");
    o = run_limited(call_scan_write, join(p, d, "s\xff"), 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_scan_write");
    o = run_limited(call_report_save, join(p, d, "r\xff"), 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_report_save");
    /* Only the two folders made here, both empty: no "t\xef\xbf\xbd.json", "s\xef\xbf\xbd", scan or report files. */
    CHECK(count_entries(d, NULL) == 2);
    CHECK(count_entries(bad, NULL) == 0 && count_entries(replaced, NULL) == 0);

    check_section("readers refuse a path that is not UTF-8, saying so (the file exists)");
    join(mesh, d, "m\xff.obj");
    join(scan, d, "scan\xff");
    CHECK(write_file(mesh, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"));
    CHECK(write_flat_scan(join(p, d, "scan-ok")) && rename(p, scan) == 0);
    o = run_limited(call_mesh_load, mesh, 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_mesh_load");
    CHECK(strstr(o.message, "No such file") == NULL);
    o = run_limited(call_scan_open, scan, 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_scan_open");
    o = run_limited(call_cloud_load, join(p, d, "c\xff.ply"), 0);
    EXPECT_OUTCOME(o, FATHOM_ERR_OUT_OF_RANGE, "not UTF-8", "fathom_point_cloud_load_ply");
    CHECK(exists(mesh) && exists(scan));
}

/* ---- 4. a scan's point cloud is finite -------------------------------------------------------------- */

static void test_scan_cloud_is_finite(void) {
    static float depth[W * H];
    char d[PATH_BYTES], p[PATH_BYTES];
    float *points = NULL;
    fathom_intrinsics k = t_intr(1e-3f, 1e-3f, 80, 60, 160, 120);
    fathom_scan *s = NULL;
    fathom_point_cloud *cloud = NULL;
    fathom_point_cloud_info info;
    size_t i;
    int finite = 1;
    check_section("fathom_scan_point_cloud: 3e38 m through a 1e-3 px lens is dropped; the cloud can be saved");
    /* Depth grid intrinsics: fx' = 1e-3 * 32 / 160 = 2e-4, cx' = 16, cy' = 12. A 1 m sample at column i is at
     * x = (i + 0.5 - 16) / 2e-4, |x| <= 77500: finite. A 3e38 m sample is at |x| >= 0.5 / 2e-4 * 3e38 = 7.5e41,
     * beyond FLT_MAX (3.4e38): invalid. Four such samples (row, column): (0, 0), (2, 3), (20, 30), (23, 31). */
    for (i = 0; i < W * H; i++) depth[i] = 1.0f;
    depth[0 * W + 0] = 3e38f;
    depth[2 * W + 3] = 3e38f;
    depth[20 * W + 30] = 3e38f;
    depth[23 * W + 31] = 3e38f;
    fresh_dir(d, "huge-depth");
    if (!write_scan(d, depth, &k, 1)) {
        CHECK(0);
        return;
    }
    CHECK_OK(fathom_scan_open(d, &s));
    CHECK_OK(fathom_scan_point_cloud(s, NULL, &cloud));
    if (cloud == NULL) {
        fathom_scan_destroy(s);
        return;
    }
    CHECK_OK(fathom_point_cloud_get_info(cloud, &info));
    CHECK(info.count == W * H - 4);
    points = (float *)malloc((size_t)info.count * 3 * sizeof(float) + 1);
    CHECK_OK(fathom_point_cloud_points(cloud, points, (size_t)info.count));
    for (i = 0; i < (size_t)info.count * 3; i++) finite &= isfinite(points[i]) ? 1 : 0;
    CHECK(finite);
    /* Sample (column 16, row 12): 12 * 32 + 16 = 400 row by row, minus the 2 dropped before it (rows 0 and 2):
     * point 398. Optical (0.5 / 2e-4, 0.5 / 2e-4, 1) = (2500, 2500, 1); world (identity pose, ARKit axes):
     * (2500, -2500, -1). */
    if (info.count == W * H - 4) {
        CHECK_NEAR(points[398 * 3 + 0], 2500, 0.05);
        CHECK_NEAR(points[398 * 3 + 1], -2500, 0.05);
        CHECK_NEAR(points[398 * 3 + 2], -1, 1e-6);
    }
    CHECK_OK(fathom_point_cloud_save_ply(cloud, join(p, d, "cloud.ply"), FATHOM_PLY_BINARY));
    CHECK_OK(fathom_ply_write_points(join(p, d, "points.ply"), points, (size_t)info.count, 12, NULL, NULL, NULL,
                                     FATHOM_PLY_ASCII));
    free(points);
    fathom_point_cloud_destroy(cloud);
    fathom_scan_destroy(s);
}

int main(void) {
    char p[PATH_BYTES];
    float vertices[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t triangle[3] = {0, 1, 2};
    unsigned long state = 27;
    int i;
    if (!make_temp_dir(DIR_PATH, sizeof DIR_PATH, "hostile")) return 1;
    for (i = 0; i < NPOINTS * 3; i++) POINTS[i] = (float)(t_rand(&state) * 2 - 1);

    /* What the writers write: a mesh, a cloud, a scan and its report, made here once. */
    CHECK_OK(fathom_mesh_create(vertices, 3, 12, triangle, 1, NULL, FATHOM_MESH_COPY, &G_MESH));
    CHECK_OK(call_ply_write(join(p, DIR_PATH, "source.ply")));
    CHECK_OK(fathom_point_cloud_load_ply(p, &G_CLOUD));
    CHECK(unlink(p) == 0);
    CHECK(write_flat_scan(fresh_dir(p, "source-scan")));
    CHECK_OK(fathom_scan_open(p, &G_SCAN));
    if (G_SCAN) CHECK_OK(fathom_scan_report(G_SCAN, NULL, NULL, NULL, NULL, &G_REPORT));
    if (!G_MESH || !G_CLOUD || !G_SCAN || !G_REPORT) return check_summary("test_hostile_files");

    test_fifo_loaders();
    test_fifo_writers();
    test_atomic_writes();
    test_paths_not_utf8();
    test_scan_cloud_is_finite();

    fathom_report_destroy(G_REPORT);
    fathom_scan_destroy(G_SCAN);
    fathom_point_cloud_destroy(G_CLOUD);
    fathom_mesh_destroy(G_MESH);
    remove_tree(DIR_PATH);
    return check_summary("test_hostile_files");
}
