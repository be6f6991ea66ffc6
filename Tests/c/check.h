/*
 * check.h — the tiny check framework of Fathom's C tests (C99 and C++11).
 *
 * Every CHECK* macro counts a pass or a failure; a failure prints file:line, the expression and, where it
 * helps, the values and fathom_last_error(). check_summary() prints "NAME: N passed, N failed" and returns
 * the process exit status (0 only when nothing failed). Counters are not thread-safe: check from the main
 * thread only.
 *
 * Expected values in the tests are worked out by hand (the derivation in a comment), never copied from the
 * library's output. The C tests check the ABI (arguments and results crossing it: units, frames, field order,
 * column-major matrices; statuses, bad input, outputs untouched on failure, ownership); the geometry is checked
 * once, against Double references, in Tests/FathomCoreTests.
 */
#ifndef FATHOM_TEST_CHECK_H
#define FATHOM_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fathom.h"

static int check_passed_ = 0;
static int check_failed_ = 0;

static inline void check_pass_(void) { check_passed_++; }

static inline void check_fail_(const char *file, int line, const char *expr) {
    check_failed_++;
    printf("%s:%d: FAIL: %s\n", file, line, expr);
    fflush(stdout);
}

static inline void check_true_(int ok, const char *file, int line, const char *expr) {
    if (ok) check_pass_(); else check_fail_(file, line, expr);
}

/* A section title, flushed so that a crash can be located from the output. */
static inline void check_section(const char *name) {
    printf("-- %s\n", name);
    fflush(stdout);
}

static inline int check_summary(const char *program) {
    printf("%s: %d passed, %d failed\n", program, check_passed_, check_failed_);
    fflush(stdout);
    return check_failed_ == 0 ? 0 : 1;
}

/* |a - b| <= tol (also fails when either is NaN). */
static inline int check_near_(double a, double b, double tol) {
    return fabs(a - b) <= tol;
}

#define CHECK(cond) check_true_((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* Compares a status with the expected one; on failure prints both names and the library's message. */
#define CHECK_STATUS(call, expected)                                                                      \
    do {                                                                                                  \
        fathom_status check_s_ = (call);                                                                  \
        fathom_status check_e_ = (expected);                                                              \
        if (check_s_ == check_e_) {                                                                       \
            check_pass_();                                                                                \
        } else {                                                                                          \
            check_fail_(__FILE__, __LINE__, #call " == " #expected);                                      \
            printf("    got %s (%d), expected %s (%d); last error: \"%s\"\n", fathom_status_name(check_s_), \
                   (int)check_s_, fathom_status_name(check_e_), (int)check_e_,                            \
                   check_s_ == FATHOM_OK ? "(none: the call succeeded)" : fathom_last_error());           \
            fflush(stdout);                                                                               \
        }                                                                                                 \
    } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, FATHOM_OK)

/* |a - b| <= tol, printing both values on failure. */
#define CHECK_NEAR(a, b, tol)                                                                             \
    do {                                                                                                  \
        double check_a_ = (double)(a);                                                                    \
        double check_b_ = (double)(b);                                                                    \
        if (check_near_(check_a_, check_b_, (double)(tol))) {                                             \
            check_pass_();                                                                                \
        } else {                                                                                          \
            check_fail_(__FILE__, __LINE__, "|" #a " - " #b "| <= " #tol);                                \
            printf("    got %.9g, expected %.9g (diff %.3g)\n", check_a_, check_b_, check_a_ - check_b_);  \
            fflush(stdout);                                                                               \
        }                                                                                                 \
    } while (0)

/* A fathom_vec3 against three expected numbers. */
#define CHECK_VEC3(v, ex, ey, ez, tol)                                                                    \
    do {                                                                                                  \
        fathom_vec3 check_v_ = (v);                                                                       \
        double check_x_ = (double)(ex), check_y_ = (double)(ey), check_z_ = (double)(ez);                 \
        if (check_near_(check_v_.x, check_x_, (tol)) && check_near_(check_v_.y, check_y_, (tol)) &&       \
            check_near_(check_v_.z, check_z_, (tol))) {                                                   \
            check_pass_();                                                                                \
        } else {                                                                                          \
            check_fail_(__FILE__, __LINE__, #v " == (" #ex ", " #ey ", " #ez ")");                        \
            printf("    got (%.9g, %.9g, %.9g), expected (%.9g, %.9g, %.9g)\n", (double)check_v_.x,       \
                   (double)check_v_.y, (double)check_v_.z, check_x_, check_y_, check_z_);                 \
            fflush(stdout);                                                                               \
        }                                                                                                 \
    } while (0)

/* A quaternion against an expected one, as rotations: q or -q (tolerance per component). */
#define CHECK_QUAT_ROT(q, ex, ey, ez, ew, tol)                                                            \
    do {                                                                                                  \
        fathom_quat check_q_ = (q);                                                                       \
        double check_e_[4] = {(double)(ex), (double)(ey), (double)(ez), (double)(ew)};                    \
        int check_p_ = 1, check_m_ = 1;                                                                   \
        check_p_ = check_near_(check_q_.x, check_e_[0], (tol)) && check_near_(check_q_.y, check_e_[1], (tol)) && \
                   check_near_(check_q_.z, check_e_[2], (tol)) && check_near_(check_q_.w, check_e_[3], (tol)); \
        check_m_ = check_near_(check_q_.x, -check_e_[0], (tol)) &&                                        \
                   check_near_(check_q_.y, -check_e_[1], (tol)) &&                                        \
                   check_near_(check_q_.z, -check_e_[2], (tol)) && check_near_(check_q_.w, -check_e_[3], (tol)); \
        if (check_p_ || check_m_) {                                                                       \
            check_pass_();                                                                                \
        } else {                                                                                          \
            check_fail_(__FILE__, __LINE__, #q " == +-(" #ex ", " #ey ", " #ez ", " #ew ")");             \
            printf("    got (%.9g, %.9g, %.9g, %.9g), expected +-(%.9g, %.9g, %.9g, %.9g)\n",              \
                   (double)check_q_.x, (double)check_q_.y, (double)check_q_.z, (double)check_q_.w,        \
                   check_e_[0], check_e_[1], check_e_[2], check_e_[3]);                                   \
            fflush(stdout);                                                                               \
        }                                                                                                 \
    } while (0)

/* The library's last error message contains `needle` (e.g. the function's or the argument's name). */
#define CHECK_ERROR_MENTIONS(needle)                                                                      \
    do {                                                                                                  \
        const char *check_m_ = fathom_last_error();                                                       \
        if (check_m_ != NULL && strstr(check_m_, (needle)) != NULL) {                                     \
            check_pass_();                                                                                \
        } else {                                                                                          \
            check_fail_(__FILE__, __LINE__, "fathom_last_error() mentions \"" needle "\"");               \
            printf("    last error: \"%s\"\n", check_m_ ? check_m_ : "(NULL)");                               \
            fflush(stdout);                                                                               \
        }                                                                                                 \
    } while (0)

#endif /* FATHOM_TEST_CHECK_H */
