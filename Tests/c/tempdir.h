/* A temporary directory for the tests that write files. Include after defining _XOPEN_SOURCE 700 (mkdtemp). */
#ifndef FATHOM_TEST_TEMPDIR_H
#define FATHOM_TEST_TEMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* Makes /tmp/fathom-NAME-XXXXXX into `path` (`size` bytes); 0 when it cannot. */
static inline int make_temp_dir(char *path, size_t size, const char *name) {
    snprintf(path, size, "/tmp/fathom-%s-XXXXXX", name);
    if (mkdtemp(path) == NULL) {
        printf("%s: cannot make a temporary directory\n", name);
        return 0;
    }
    return 1;
}

/* Removes `dir` and everything in it; 0 when it cannot. */
static inline int remove_tree(const char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) == 0) return 1;
    printf("could not remove %s\n", dir);
    return 0;
}

/* dir/name in one of 8 rotating buffers (so a call can take a few paths at once). */
static inline const char *path_in(const char *dir, const char *name) {
    static char buf[8][512];
    static int k = 0;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

#endif
