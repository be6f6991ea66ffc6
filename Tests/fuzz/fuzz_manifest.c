/* Fuzz target: the capture app's manifest, boundingbox.json (fathom_box_manifest_*). The input is JSON text.
 * It is read from memory and, through a file, loaded (the two must agree). A manifest that reads is written back:
 * the buffer-size protocol (too-small capacities report the length and write nothing), the text (NUL-terminated,
 * nothing past it), and the round trip the header describes: the centre and angle as written, the scale from the
 * corners, the floor when it clamps the bottom corners, none otherwise. The written text is also saved and
 * loaded through a file. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "fuzz.h"
#include "fuzz_files.h"

#include <stdlib.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------------------------- */
/* One temp directory per process                                                                  */
/* ---------------------------------------------------------------------------------------------- */

static const char *temp_dir;
static char input_path[128], output_path[128];

static void temp_ready(void) {
    if (temp_dir) return;
    temp_dir = fz_temp_dir("fathom-fuzz-manifest-XXXXXX");
    fz_path_join(input_path, sizeof input_path, temp_dir, "in.json");
    fz_path_join(output_path, sizeof output_path, temp_dir, "boundingbox.json");
}

/* ---------------------------------------------------------------------------------------------- */
/* Round trip                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

static double max_abs(const fathom_box *box) {
    fathom_vec3 corners[8];
    double m = fmax(fabs((double)box->center.x), fmax(fabs((double)box->center.y), fabs((double)box->center.z)));
    if (fathom_box_corners(box, corners) == FATHOM_OK)
        for (int i = 0; i < 8; i++)
            m = fmax(m, fmax(fabs((double)corners[i].x), fmax(fabs((double)corners[i].y), fabs((double)corners[i].z))));
    return m;
}

/* Writes `box` through the buffer-size protocol; returns the malloc'd text (length in *length), or NULL. */
static char *write_manifest(const fathom_box *box, size_t *length, uint8_t salt) {
    size_t len;
    fz_poison(&len, sizeof len);
    fathom_status s = FZ(fathom_box_manifest_write, box, NULL, 0, &len);
    fz_need(s == FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_box_manifest_write", "capacity 0 is not BUFFER_TOO_SMALL");
    fz_need(len > 0 && len < 100000, "fathom_box_manifest_write", "capacity 0 does not report the length");
    size_t needed = len;
    /* Too small: exactly the text without its NUL, and some smaller capacity. */
    size_t capacities[2] = {needed, salt % (needed + 1)};
    for (int i = 0; i < 2; i++) {
        size_t capacity = capacities[i];
        char *small = malloc(capacity ? capacity : 1);
        if (!small) abort();
        fz_poison(small, capacity);
        fz_poison(&len, sizeof len);
        s = FZ(fathom_box_manifest_write, box, small, capacity, &len);
        fz_need(s == FATHOM_ERR_BUFFER_TOO_SMALL, "fathom_box_manifest_write", "a capacity < length + 1 was accepted");
        fz_need(len == needed, "fathom_box_manifest_write", "BUFFER_TOO_SMALL did not report the length needed");
        fz_untouched(s, "fathom_box_manifest_write", small, capacity);
        free(small);
    }
    /* NULL buffer with room claimed, NULL out_length: refused, nothing written. */
    fz_poison(&len, sizeof len);
    s = FZ(fathom_box_manifest_write, box, NULL, needed + 1 + salt, &len);
    fz_need(s != FATHOM_OK, "fathom_box_manifest_write", "a NULL buffer was accepted");
    if (s != FATHOM_ERR_BUFFER_TOO_SMALL) fz_untouched(s, "fathom_box_manifest_write", &len, sizeof len);
    char probe[8];
    s = FZ(fathom_box_manifest_write, box, probe, sizeof probe, NULL);
    fz_need(s != FATHOM_OK, "fathom_box_manifest_write", "a NULL out_length was accepted");
    /* Exactly enough, with poisoned bytes after the capacity to catch a write past it. */
    size_t slack = salt % 16;
    char *text = malloc(needed + 1 + slack);
    if (!text) abort();
    fz_poison(text, needed + 1 + slack);
    fz_poison(&len, sizeof len);
    s = FZ(fathom_box_manifest_write, box, text, needed + 1, &len);
    fz_need(s == FATHOM_OK, "fathom_box_manifest_write", "refused length + 1 bytes");
    fz_need(len == needed, "fathom_box_manifest_write", "the length written differs from the length asked");
    fz_need(text[needed] == '\0' && strlen(text) == needed, "fathom_box_manifest_write", "the text is not NUL-terminated at its length");
    fz_untouched(FATHOM_ERR_OUT_OF_RANGE, "fathom_box_manifest_write", text + needed + 1, slack);
    *length = needed;
    return text;
}

static void round_trip(const fathom_box *box, uint8_t salt) {
    fz_need(FZ(fathom_box_check, box) == FATHOM_OK, "fathom_box_manifest_read", "the box read fails fathom_box_check");
    size_t length;
    char *text = write_manifest(box, &length, salt);
    fathom_box back;
    fz_poison(&back, sizeof back);
    fathom_status s = FZ(fathom_box_manifest_read, text, length, &back);
    fz_need(s == FATHOM_OK, "fathom_box_manifest_read", "a manifest written by fathom_box_manifest_write does not read back");
    /* What the header promises of the round trip: centre and angle as written; the scale from the corners; the
     * floor when the bottom corners are clamped above the box's unclamped bottom, else none. The reader's
     * tolerance is 32 float epsilons of the largest coordinate; allow a few times that. */
    double m = max_abs(box);
    double tolerance = 4 * 32 * 1.1920929e-7 * fmax(m, 1.1754944e-38);
    fz_need(back.center.x == box->center.x && back.center.y == box->center.y && back.center.z == box->center.z,
            "fathom_box_manifest_read", "the centre does not read back as written");
    fz_need(back.rot_y == box->rot_y, "fathom_box_manifest_read", "rad_rot_about_y does not read back as written");
    fz_need(fabs((double)back.scale.x - box->scale.x) <= tolerance && fabs((double)back.scale.y - box->scale.y) <= tolerance &&
                fabs((double)back.scale.z - box->scale.z) <= tolerance,
            "fathom_box_manifest_read", "the scale does not read back from the corners");
    double bottom = (double)box->center.y - box->scale.y / 2.0;
    if (box->has_floor && box->floor > bottom + tolerance) {
        fz_need(back.has_floor == 1, "fathom_box_manifest_read", "a floor clamping the bottom corners did not read back");
        fz_need(fabs((double)back.floor - box->floor) <= tolerance, "fathom_box_manifest_read", "the floor read back differs");
    } else if (!box->has_floor || box->floor <= bottom) {
        fz_need(back.has_floor == 0, "fathom_box_manifest_read", "an unclamped box read back with a floor");
    }
    fathom_vec3 a[8], b[8];
    if (fathom_box_corners(box, a) == FATHOM_OK && FZ(fathom_box_corners, &back, b) == FATHOM_OK)
        for (int i = 0; i < 8; i++)
            fz_need(fabs((double)a[i].x - b[i].x) <= tolerance && fabs((double)a[i].y - b[i].y) <= tolerance &&
                        fabs((double)a[i].z - b[i].z) <= tolerance,
                    "fathom_box_manifest_read", "a corner of the box read back moved");
    /* The same through a file: save writes the same manifest, load reads it to the same box. */
    if (salt & 1) {
        fathom_status saved = FZ(fathom_box_manifest_save, box, output_path);
        fz_need(saved == FATHOM_OK, "fathom_box_manifest_save", "could not save to a temp file");
        fathom_box loaded;
        fz_poison(&loaded, sizeof loaded);
        s = FZ(fathom_box_manifest_load, output_path, &loaded);
        fz_need(s == FATHOM_OK, "fathom_box_manifest_load", "a saved manifest does not load");
        fz_need(fz_same_box(&loaded, &back), "fathom_box_manifest_load",
                "the saved and loaded box differs from the written and read one");
    }
    /* An invalid box is not written (nothing through out_length). */
    fathom_box bad = *box;
    fz_set_bool_byte(&bad.has_floor, (uint8_t)(2 + salt % 254)); /* a byte neither false (0) nor true (1) */
    size_t len;
    fz_poison(&len, sizeof len);
    s = FZ(fathom_box_manifest_write, &bad, text, length + 1, &len);
    fz_need(s != FATHOM_OK, "fathom_box_manifest_write", "an invalid box was written");
    fz_untouched(s, "fathom_box_manifest_write", &len, sizeof len);
    s = FZ(fathom_box_manifest_save, &bad, output_path);
    fz_need(s != FATHOM_OK, "fathom_box_manifest_save", "an invalid box was saved");
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    temp_ready();
    const char *json = (const char *)data;
    uint8_t salt = 0;
    for (size_t i = 0; i < size; i++) salt = (uint8_t)(salt * 31 + data[i]);
    fathom_box box;
    fz_poison(&box, sizeof box);
    fathom_status s = FZ(fathom_box_manifest_read, size ? json : "", size, &box);
    fz_untouched(s, "fathom_box_manifest_read", &box, sizeof box);
    /* The header's outcomes of reading text: not JSON, a missing, mistyped or non-finite field, or corners that
     * are not a box. */
    fz_need(s == FATHOM_OK || s == FATHOM_ERR_PARSE || s == FATHOM_ERR_FORMAT || s == FATHOM_ERR_NOT_A_BOX,
            "fathom_box_manifest_read", "a status other than PARSE, FORMAT or NOT_A_BOX for text");
    /* NULL text or output. */
    fathom_box other;
    fz_poison(&other, sizeof other);
    fathom_status t = FZ(fathom_box_manifest_read, NULL, size, &other);
    fz_need(t != FATHOM_OK, "fathom_box_manifest_read", "NULL json accepted");
    fz_untouched(t, "fathom_box_manifest_read", &other, sizeof other);
    fz_need(FZ(fathom_box_manifest_read, size ? json : "", size, NULL) != FATHOM_OK, "fathom_box_manifest_read", "NULL out accepted");
    /* The same bytes from a file: the same status and box. */
    if (salt % 4 == 0 || s == FATHOM_OK) {
        fz_write_file(input_path, data, size);
        fz_poison(&other, sizeof other);
        t = FZ(fathom_box_manifest_load, input_path, &other);
        fz_untouched(t, "fathom_box_manifest_load", &other, sizeof other);
        fz_need(t == s, "fathom_box_manifest_load", "loading a file differs from reading its bytes");
        if (t == FATHOM_OK) fz_need(fz_same_box(&other, &box), "fathom_box_manifest_load", "loaded a different box");
    }
    if (salt % 64 == 1) {
        /* A directory and a missing file: FATHOM_ERR_IO, nothing written. */
        fz_poison(&other, sizeof other);
        t = FZ(fathom_box_manifest_load, temp_dir, &other);
        fz_need(t == FATHOM_ERR_IO, "fathom_box_manifest_load", "a directory is not FATHOM_ERR_IO");
        fz_untouched(t, "fathom_box_manifest_load", &other, sizeof other);
        char missing[160];
        snprintf(missing, sizeof missing, "%s/no/such/boundingbox.json", temp_dir);
        t = FZ(fathom_box_manifest_load, missing, &other);
        fz_need(t == FATHOM_ERR_IO, "fathom_box_manifest_load", "a missing file is not FATHOM_ERR_IO");
        fz_untouched(t, "fathom_box_manifest_load", &other, sizeof other);
        fz_need(FZ(fathom_box_manifest_load, NULL, &other) != FATHOM_OK, "fathom_box_manifest_load", "a NULL path accepted");
        if (s == FATHOM_OK) {
            fz_need(FZ(fathom_box_manifest_save, &box, missing) == FATHOM_ERR_IO, "fathom_box_manifest_save",
                    "saving into a missing directory is not FATHOM_ERR_IO");
            fz_need(FZ(fathom_box_manifest_save, &box, NULL) != FATHOM_OK, "fathom_box_manifest_save", "a NULL path accepted");
        }
        fz_need(FZ(fathom_box_manifest_save, NULL, output_path) != FATHOM_OK, "fathom_box_manifest_save", "a NULL box accepted");
    }
    if (s == FATHOM_OK) round_trip(&box, salt);
    return 0;
}
