/* expect.h — checks that a call fails with the documented status and a message that names the
 * function, the argument and the problem. Shared by the bad-input test programs. */
#ifndef FATHOM_TEST_EXPECT_H
#define FATHOM_TEST_EXPECT_H

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fathom.h"

/* Problems, as alternatives any of which the message must mention (case-insensitive, '|'-separated). */
#define P_NULL "null"
#define P_FINITE "nan|finite|inf"
#define P_ANY ""

static inline int ci_contains(const char *hay, const char *needle, size_t n) {
    size_t i, j;
    if (n == 0) return 1;
    for (i = 0; hay[i] != '\0'; i++) {
        for (j = 0; j < n && hay[i + j] != '\0'; j++)
            if (tolower((unsigned char)hay[i + j]) != tolower((unsigned char)needle[j])) break;
        if (j == n) return 1;
    }
    return 0;
}

static inline int mentions_any(const char *msg, const char *alternatives) {
    const char *p = alternatives;
    if (*p == '\0') return 1;
    while (*p != '\0') {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (ci_contains(msg, p, n)) return 1;
        if (!bar) break;
        p = bar + 1;
    }
    return 0;
}

/* The call's status is `want`; the message names `fn` and `arg` (NULL: any) and mentions one of `problem`. */
static inline void expect_error(fathom_status got, fathom_status want, const char *fn, const char *arg,
                                const char *problem, const char *call, const char *file, int line) {
    const char *msg = fathom_last_error();
    if (got == want) {
        check_pass_();
    } else {
        check_fail_(file, line, call);
        printf("    got %s, expected %s; last error \"%s\"\n", fathom_status_name(got), fathom_status_name(want),
               got == FATHOM_OK ? "(none: the call succeeded)" : msg);
        fflush(stdout);
        return;
    }
    if (msg != NULL && strstr(msg, fn) != NULL && (arg == NULL || strstr(msg, arg) != NULL) &&
        mentions_any(msg, problem)) {
        check_pass_();
    } else {
        check_fail_(file, line, "fathom_last_error() names the function, the argument and the problem");
        printf("    call %s\n    wanted \"%s\", \"%s\", one of \"%s\"; got \"%s\"\n", call, fn, arg ? arg : "",
               problem, msg ? msg : "(NULL)");
        fflush(stdout);
    }
}

#define EXPECT(call, status, fn, arg, problem) \
    expect_error((call), (status), (fn), (arg), (problem), #call, __FILE__, __LINE__)

#endif
