/* Version, status names and the thread-local last error. */
#define _POSIX_C_SOURCE 200809L

#include "fathom.h"
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void test_version(void) {
    char expected[64];
    const char *v = fathom_version();

    check_section("version");
    snprintf(expected, sizeof expected, "%d.%d.%d", FATHOM_VERSION_MAJOR, FATHOM_VERSION_MINOR,
             FATHOM_VERSION_PATCH);
    CHECK(v != NULL);
    if (v != NULL) CHECK(strcmp(v, expected) == 0);
    CHECK(fathom_version() == v);          /* a constant string */
    CHECK(fathom_version_number() == (uint32_t)FATHOM_VERSION_NUMBER);
    CHECK(FATHOM_VERSION_NUMBER == FATHOM_VERSION_MAJOR * 10000 + FATHOM_VERSION_MINOR * 100 + FATHOM_VERSION_PATCH);
    CHECK(fathom_version_number() ==
          (uint32_t)(FATHOM_VERSION_MAJOR * 10000 + FATHOM_VERSION_MINOR * 100 + FATHOM_VERSION_PATCH));
}

static void test_status_names(void) {
    static const struct {
        fathom_status status;
        int value;
        const char *name;
    } table[] = {
        {FATHOM_OK, 0, "FATHOM_OK"},
        {FATHOM_ERR_NULL_POINTER, 1, "FATHOM_ERR_NULL_POINTER"},
        {FATHOM_ERR_NOT_FINITE, 2, "FATHOM_ERR_NOT_FINITE"},
        {FATHOM_ERR_OUT_OF_RANGE, 3, "FATHOM_ERR_OUT_OF_RANGE"},
        {FATHOM_ERR_OVERFLOW, 4, "FATHOM_ERR_OVERFLOW"},
        {FATHOM_ERR_BUFFER_TOO_SMALL, 5, "FATHOM_ERR_BUFFER_TOO_SMALL"},
        {FATHOM_ERR_NOT_RIGID, 6, "FATHOM_ERR_NOT_RIGID"},
        {FATHOM_ERR_DEGENERATE, 7, "FATHOM_ERR_DEGENERATE"},
        {FATHOM_ERR_INVALID_STATE, 8, "FATHOM_ERR_INVALID_STATE"},
        {FATHOM_ERR_PARSE, 9, "FATHOM_ERR_PARSE"},
        {FATHOM_ERR_FORMAT, 10, "FATHOM_ERR_FORMAT"},
        {FATHOM_ERR_NOT_A_BOX, 11, "FATHOM_ERR_NOT_A_BOX"},
        {FATHOM_ERR_IO, 12, "FATHOM_ERR_IO"},
        {FATHOM_ERR_LAPACK, 13, "FATHOM_ERR_LAPACK"},
        {FATHOM_ERR_OUT_OF_MEMORY, 14, "FATHOM_ERR_OUT_OF_MEMORY"},
        {FATHOM_ERR_NO_DATA, 15, "FATHOM_ERR_NO_DATA"},
    };
    static const int unknown[] = {16, 17, 100, -1, 0x7fffffff};
    size_t i;

    check_section("status names");
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        const char *name = fathom_status_name(table[i].status);
        CHECK((int)table[i].status == table[i].value);
        CHECK(name != NULL);
        if (name != NULL) {
            CHECK(strcmp(name, table[i].name) == 0);
            if (strcmp(name, table[i].name) != 0)
                printf("    status %d: got \"%s\", expected \"%s\"\n", table[i].value, name, table[i].name);
        }
        CHECK(fathom_status_name(table[i].status) == name); /* constant string */
    }
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *name = fathom_status_name((fathom_status)unknown[i]);
        CHECK(name != NULL);
        if (name != NULL) CHECK(strcmp(name, "FATHOM_UNKNOWN_STATUS") == 0);
    }
}

/* ---- last error: thread-local ---------------------------------------------------------------- */

struct thread_result {
    int fresh_empty;          /* "" before this thread's first failure */
    fathom_status status;     /* the status of this thread's failing call */
    char after_own[256];      /* the message right after the failing call */
    char after_other[256];    /* the message after the other thread has failed too */
    char after_success[256];  /* the message after a successful call on this thread */
};

static pthread_barrier_t barrier;

static void copy_message(char *dst, size_t size) {
    const char *m = fathom_last_error();
    snprintf(dst, size, "%s", m ? m : "(NULL)");
}

/* Thread A fails in fathom_quat_normalize (zero quaternion). */
static void *thread_a(void *arg) {
    struct thread_result *r = (struct thread_result *)arg;
    fathom_quat zero = {0.0f, 0.0f, 0.0f, 0.0f}, out;
    const char *m = fathom_last_error();
    r->fresh_empty = m != NULL && m[0] == '\0';
    pthread_barrier_wait(&barrier); /* 1: both threads have read their fresh message */
    r->status = fathom_quat_normalize(zero, &out);
    copy_message(r->after_own, sizeof r->after_own);
    pthread_barrier_wait(&barrier); /* 2: A has failed */
    pthread_barrier_wait(&barrier); /* 3: B has failed */
    copy_message(r->after_other, sizeof r->after_other);
    {
        fathom_quat one = {0.0f, 0.0f, 0.0f, 2.0f};
        (void)fathom_quat_normalize(one, &out); /* succeeds; must not clear the message */
    }
    copy_message(r->after_success, sizeof r->after_success);
    return NULL;
}

/* Thread B fails in fathom_box_init (negative scale.y) after A has failed. */
static void *thread_b(void *arg) {
    struct thread_result *r = (struct thread_result *)arg;
    fathom_vec3 center = {0.0f, 0.0f, 0.0f}, scale = {1.0f, -0.2f, 1.0f};
    fathom_box box;
    const char *m = fathom_last_error();
    r->fresh_empty = m != NULL && m[0] == '\0';
    pthread_barrier_wait(&barrier); /* 1 */
    pthread_barrier_wait(&barrier); /* 2: A has failed */
    r->status = fathom_box_init(center, scale, 0.0f, &box);
    copy_message(r->after_own, sizeof r->after_own);
    pthread_barrier_wait(&barrier); /* 3 */
    copy_message(r->after_other, sizeof r->after_other);
    copy_message(r->after_success, sizeof r->after_success);
    return NULL;
}

static void test_last_error(void) {
    pthread_t ta, tb;
    struct thread_result ra, rb;
    fathom_quat q;
    char main_msg[256];

    check_section("last error");
    /* Nothing has failed on the main thread yet. */
    CHECK(fathom_last_error() != NULL);
    CHECK(strcmp(fathom_last_error(), "") == 0);

    /* A failure on the main thread, seen by neither worker thread. */
    {
        fathom_vec3 zero = {0.0f, 0.0f, 0.0f};
        CHECK_STATUS(fathom_quat_from_axis_angle(zero, 1.0f, &q), FATHOM_ERR_DEGENERATE);
        CHECK_ERROR_MENTIONS("fathom_quat_from_axis_angle");
        copy_message(main_msg, sizeof main_msg);
        CHECK(strlen(main_msg) > strlen("fathom_quat_from_axis_angle"));
    }

    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    CHECK(pthread_barrier_init(&barrier, NULL, 2) == 0);
    CHECK(pthread_create(&ta, NULL, thread_a, &ra) == 0);
    CHECK(pthread_create(&tb, NULL, thread_b, &rb) == 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_barrier_destroy(&barrier);

    CHECK(ra.fresh_empty); /* the main thread's error is not visible in a new thread */
    CHECK(rb.fresh_empty);
    CHECK(ra.status == FATHOM_ERR_DEGENERATE);
    CHECK(rb.status == FATHOM_ERR_OUT_OF_RANGE);
    CHECK(strstr(ra.after_own, "fathom_quat_normalize") != NULL);
    CHECK(strstr(rb.after_own, "fathom_box_init") != NULL);
    CHECK(strstr(rb.after_own, "scale") != NULL);
    /* B's failure did not overwrite A's message, nor A's B's. */
    CHECK(strcmp(ra.after_other, ra.after_own) == 0);
    CHECK(strstr(ra.after_other, "fathom_box_init") == NULL);
    CHECK(strcmp(rb.after_other, rb.after_own) == 0);
    /* A success does not clear the message. */
    CHECK(strcmp(ra.after_success, ra.after_own) == 0);
    if (strcmp(ra.after_other, ra.after_own) != 0)
        printf("    thread A: \"%s\" became \"%s\"\n", ra.after_own, ra.after_other);

    /* The main thread's message is untouched by the threads' failures. */
    CHECK(strcmp(fathom_last_error(), main_msg) == 0);

    /* A success on the main thread does not clear it; the next failure replaces it. */
    {
        fathom_vec3 axis = {0.0f, 1.0f, 0.0f};
        fathom_quat zero = {0.0f, 0.0f, 0.0f, 0.0f};
        CHECK_OK(fathom_quat_from_axis_angle(axis, 1.0f, &q));
        CHECK(strcmp(fathom_last_error(), main_msg) == 0);
        CHECK_STATUS(fathom_quat_normalize(zero, &q), FATHOM_ERR_DEGENERATE);
        CHECK_ERROR_MENTIONS("fathom_quat_normalize");
    }
}

int main(void) {
    test_version();
    test_status_names();
    test_last_error();
    return check_summary("test_version_status");
}
