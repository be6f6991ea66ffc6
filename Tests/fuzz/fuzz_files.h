/*
 * fuzz_files.h — files for the targets that read or write them: one temporary directory per process (under
 * /dev/shm, removed at exit with all it holds), writing the input to a file, and the checks every loader of a
 * file gets (paths that cannot be loaded, NULL arguments, a regular file's failure being about its contents).
 * Include after fuzz.h, in a file that defines _XOPEN_SOURCE 700 (or _DEFAULT_SOURCE) before its first #include
 * (mkdtemp, opendir).
 */
#ifndef FATHOM_FUZZ_FILES_H
#define FATHOM_FUZZ_FILES_H

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <unistd.h>

#if !defined(_XOPEN_SOURCE) && !defined(_DEFAULT_SOURCE)
#error "fuzz_files.h: define _XOPEN_SOURCE 700 before the first #include"
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Paths and the temporary directory                                                               */
/* ---------------------------------------------------------------------------------------------- */

/** dir/name into `out` (`size` bytes); aborts if it does not fit. */
static inline void fz_path_join(char *out, size_t size, const char *dir, const char *name) {
    if ((size_t)snprintf(out, size, "%s/%s", dir, name) >= size) abort();
}

/** Removes the files in `dir` (and the files of its subfolders, which it then removes). */
static inline void fz_clear_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char path[512];
        fz_path_join(path, sizeof path, dir, e->d_name);
        if (unlink(path) != 0 && (errno == EISDIR || errno == EPERM)) {
            fz_clear_dir(path);
            rmdir(path);
        }
    }
    closedir(d);
}

static char fz_temp_directory[64];

static inline void fz_remove_temp_dir(void) {
    fz_clear_dir(fz_temp_directory);
    rmdir(fz_temp_directory);
}

/** The process's temporary directory, made at the first call from `name_template` (a mkdtemp template such as
 *  "fathom-fuzz-scan-XXXXXX") under /dev/shm, or under /tmp when /dev/shm cannot take it, and removed with all it
 *  holds at exit. Later calls give the same directory (their template is not used). */
static inline const char *fz_temp_dir(const char *name_template) {
    if (!fz_temp_directory[0]) {
        fz_path_join(fz_temp_directory, sizeof fz_temp_directory, "/dev/shm", name_template);
        if (!mkdtemp(fz_temp_directory)) {
            fz_path_join(fz_temp_directory, sizeof fz_temp_directory, "/tmp", name_template);
            if (!mkdtemp(fz_temp_directory)) {
                perror("mkdtemp");
                abort();
            }
        }
        atexit(fz_remove_temp_dir);
    }
    return fz_temp_directory;
}

/** The path of `name` in the temporary directory (fz_temp_dir(name_template)), into `path` (`size` bytes), which it
 *  returns. */
static inline const char *fz_temp_path(const char *name_template, const char *name, char *path, size_t size) {
    fz_path_join(path, size, fz_temp_dir(name_template), name);
    return path;
}

/** Writes `size` bytes to the file at `path` (made or emptied first); aborts when it cannot. */
static inline void fz_write_file(const char *path, const void *data, size_t size) {
    FILE *file = fopen(path, "wb");
    if (!file || (size && fwrite(data, 1, size, file) != size) || fclose(file) != 0) {
        perror(path);
        abort();
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Loading files                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/** A loader of the header's, fathom_status load(const char *path, T **out), wrapped to take `out` as a void
 *  pointer (to the caller's T *), so that the checks below serve every type:
 *      static fathom_status load_mesh(const char *path, void *out) { return fathom_mesh_load(path, out); } */
typedef fathom_status (*fz_loader)(const char *path, void *out);

/** Paths that cannot be loaded, and NULL arguments, once per process (they do not depend on the input): a NULL
 *  path or out is FATHOM_ERR_NULL_POINTER, a missing file (`missing_name` in the temporary directory) and the
 *  directory itself are FATHOM_ERR_IO, and a failed call writes nothing to *out. `load` is named `function`;
 *  `path` is a file in the temporary directory (made already); `out` points to the caller's T * (`out_size`
 *  bytes). */
static inline void fz_load_refuses_bad_paths(fz_loader load, const char *function, const char *path,
                                             const char *missing_name, void *out, size_t out_size) {
    static int done = 0;
    if (done) return;
    done = 1;
    char missing[160];
    fathom_status s;
    fz_poison(out, out_size);
    s = fz_checked(load(NULL, out), function);
    if (s != FATHOM_ERR_NULL_POINTER) fz_broken(function, "a NULL path was not FATHOM_ERR_NULL_POINTER");
    fz_untouched(s, function, out, out_size);
    s = fz_checked(load(path, NULL), function);
    if (s != FATHOM_ERR_NULL_POINTER) fz_broken(function, "a NULL out was not FATHOM_ERR_NULL_POINTER");
    fz_path_join(missing, sizeof missing, fz_temp_directory, missing_name);
    s = fz_checked(load(missing, out), function);
    if (s != FATHOM_ERR_IO) fz_broken(function, "a missing file was not FATHOM_ERR_IO");
    fz_untouched(s, function, out, out_size);
    s = fz_checked(load(fz_temp_directory, out), function);
    if (s != FATHOM_ERR_IO) fz_broken(function, "a directory was not FATHOM_ERR_IO");
    fz_untouched(s, function, out, out_size);
}

/** Writes the fuzzer's input to `path` and loads it with `load` (named `function`) into *out (`out_size` bytes,
 *  poisoned first): a failed load writes nothing and, the file being a regular one, fails for its contents
 *  (FATHOM_ERR_PARSE, FATHOM_ERR_FORMAT, or FATHOM_ERR_NO_DATA for a file without the data sought). Returns the
 *  load's status. */
static inline fathom_status fz_load_input(fz_loader load, const char *function, const char *path, const uint8_t *data,
                                          size_t size, void *out, size_t out_size) {
    fz_write_file(path, data, size);
    fz_poison(out, out_size);
    fathom_status s = fz_checked(load(path, out), function);
    fz_untouched(s, function, out, out_size);
    if (s != FATHOM_OK && s != FATHOM_ERR_PARSE && s != FATHOM_ERR_FORMAT && s != FATHOM_ERR_NO_DATA) {
        /* A readable file's problems are in its contents (a mesh file without triangles holds no data). */
        fprintf(stderr, "%s\n", fathom_last_error());
        fz_broken(function, "a regular file's contents failed with neither FATHOM_ERR_PARSE, FATHOM_ERR_FORMAT nor NO_DATA");
    }
    return s;
}

#endif
