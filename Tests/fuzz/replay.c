/*
 * replay.c — runs a fuzz target on files without libFuzzer: every file named on the command line, and every
 * file in every directory named (not recursive). `make test` builds each target with this driver against the
 * release library and replays its seed corpus and its regressions (every input that ever crashed a target).
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); return 1; }
    uint8_t *data = NULL;
    size_t size = 0, capacity = 0;
    for (;;) {
        if (size == capacity) {
            capacity = capacity ? 2 * capacity : 4096;
            uint8_t *grown = realloc(data, capacity);
            if (!grown) { fclose(file); free(data); return 1; }
            data = grown;
        }
        size_t n = fread(data + size, 1, capacity - size, file);
        if (n == 0) break;
        size += n;
    }
    int failed = ferror(file);
    fclose(file);
    if (failed) { perror(path); free(data); return 1; }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv) {
    int errors = 0, inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) != 0) { perror(argv[i]); errors++; continue; }
        if (!S_ISDIR(info.st_mode)) { errors += replay_file(argv[i]); inputs++; continue; }
        DIR *dir = opendir(argv[i]);
        if (!dir) { perror(argv[i]); errors++; continue; }
        for (struct dirent *entry; (entry = readdir(dir));) {
            if (entry->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], entry->d_name);
            errors += replay_file(path);
            inputs++;
        }
        closedir(dir);
    }
    printf("%s: %d inputs replayed%s\n", argv[0], inputs, errors ? ", some unreadable" : "");
    return errors ? 1 : 0;
}
