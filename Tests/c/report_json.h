/* The text of a report's JSON through fathom_report_json's size protocol, for the C tests. */
#ifndef FATHOM_TEST_REPORT_JSON_H
#define FATHOM_TEST_REPORT_JSON_H

#include <stdlib.h>

#include "fathom.h"

/* The report's JSON text (the caller frees it); NULL on failure. */
static char *report_json(const fathom_report *r) {
    size_t n = 0;
    char *text;
    if (fathom_report_json(r, NULL, 0, &n) != FATHOM_ERR_BUFFER_TOO_SMALL) return NULL;
    text = (char *)malloc(n + 1);
    if (text && fathom_report_json(r, text, n + 1, &n) != FATHOM_OK) {
        free(text);
        return NULL;
    }
    return text;
}

#endif
