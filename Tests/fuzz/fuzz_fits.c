/* Fuzz target: the line and plane fits and their RANSAC versions, on double points (and the same bytes as float
 * points, the f variants) of any value, count and stride (fathom_fit_*). */
#include "fuzz.h"

/* A RANSAC fit's inlier mask: on success 0 or 1 per point, as many ones as the fit used; otherwise (or when no
 * mask was passed) nothing written; a reserved word set is refused; never a byte past count. */
static void check_inliers(fathom_status s, const char *function, uint8_t *inliers, const uint8_t *mask, size_t count,
                          const fathom_ransac_options *options, uint64_t used) {
    if (!fz_all_zero(options->reserved, sizeof options->reserved) && s == FATHOM_OK)
        fz_broken(function, "a non-zero reserved word was accepted");
    fz_untouched_past(function, inliers + count, 1);
    if (!mask) {
        fz_untouched_past(function, inliers, count);
        return;
    }
    if (s != FATHOM_OK) {
        fz_untouched(s, function, inliers, count);
        return;
    }
    uint64_t ones = 0;
    for (size_t i = 0; i < count; i++) {
        if (inliers[i] > 1) fz_broken(function, "an inlier flag other than 0 or 1");
        ones += inliers[i];
    }
    if (ones != used) fz_broken(function, "the inlier mask does not hold `used` points");
}

static void fit(fz_input *in, const double *points, size_t count, size_t stride) {
    /* One read per statement (see fz_u64). Iterations stay few: a caller asking for billions gets them, slowly. */
    fathom_ransac_options ransac;
    if (fathom_ransac_options_init(&ransac) != FATHOM_OK) fz_broken("fathom_ransac_options_init", "failed");
    ransac.threshold = fz_double(in);
    ransac.iterations = fz_u8(in) < 250 ? fz_u8(in) + 1u : fz_u32(in) % 4096;
    if (fz_u8(in) >= 250) { /* one reserved word set (the value picks which) */
        uint32_t word = fz_u32(in);
        ransac.reserved[word % (sizeof ransac.reserved / sizeof ransac.reserved[0])] = word;
    }
    ransac.seed = fz_u64(in);
    fathom_line_fit line;
    fathom_plane_fit plane;
    fathom_status s;
    /* The RANSAC inlier mask: count bytes and one more that must stay as it was; NULL for odd counts. */
    uint8_t *inliers = malloc(count + 1);
    if (!inliers) abort();
    fz_poison(inliers, count + 1);
    uint8_t *mask = count & 1 ? NULL : inliers;
    /* The same bytes as floats for the f variants (the buffer holds count * stride bytes and more). */
    const float *narrow = (const float *)points;
    switch (fz_u8(in) % 10) {
    case 0:
        fz_poison(&line, sizeof line);
        s = FZ(fathom_fit_line2, points, count, stride, fz_u8(in) % 3, &line);
        fz_untouched(s, "fathom_fit_line2", &line, sizeof line);
        break;
    case 1:
        fz_poison(&line, sizeof line);
        s = FZ(fathom_fit_line3, points, count, stride, &line);
        fz_untouched(s, "fathom_fit_line3", &line, sizeof line);
        break;
    case 2:
        fz_poison(&line, sizeof line);
        s = FZ(fathom_fit_line_ransac, points, count, stride, fz_u8(in) % 5, &ransac, &line, mask);
        fz_untouched(s, "fathom_fit_line_ransac", &line, sizeof line);
        check_inliers(s, "fathom_fit_line_ransac", inliers, mask, count, &ransac, s == FATHOM_OK ? line.used : 0);
        break;
    case 3:
        fz_poison(&plane, sizeof plane);
        s = FZ(fathom_fit_plane, points, count, stride, &plane);
        fz_untouched(s, "fathom_fit_plane", &plane, sizeof plane);
        break;
    case 4:
        fz_poison(&plane, sizeof plane);
        s = FZ(fathom_fit_plane_ransac, points, count, stride, &ransac, &plane, mask);
        fz_untouched(s, "fathom_fit_plane_ransac", &plane, sizeof plane);
        check_inliers(s, "fathom_fit_plane_ransac", inliers, mask, count, &ransac, s == FATHOM_OK ? plane.used : 0);
        break;
    case 5:
        fz_poison(&line, sizeof line);
        s = FZ(fathom_fit_line2f, narrow, count, stride, fz_u8(in) % 3, &line);
        fz_untouched(s, "fathom_fit_line2f", &line, sizeof line);
        break;
    case 6:
        fz_poison(&line, sizeof line);
        s = FZ(fathom_fit_line3f, narrow, count, stride, &line);
        fz_untouched(s, "fathom_fit_line3f", &line, sizeof line);
        break;
    case 7:
        fz_poison(&line, sizeof line);
        s = FZ(fathom_fit_line_ransacf, narrow, count, stride, fz_u8(in) % 5, &ransac, &line, mask);
        fz_untouched(s, "fathom_fit_line_ransacf", &line, sizeof line);
        check_inliers(s, "fathom_fit_line_ransacf", inliers, mask, count, &ransac, s == FATHOM_OK ? line.used : 0);
        break;
    case 8:
        fz_poison(&plane, sizeof plane);
        s = FZ(fathom_fit_planef, narrow, count, stride, &plane);
        fz_untouched(s, "fathom_fit_planef", &plane, sizeof plane);
        break;
    default:
        fz_poison(&plane, sizeof plane);
        s = FZ(fathom_fit_plane_ransacf, narrow, count, stride, &ransac, &plane, mask);
        fz_untouched(s, "fathom_fit_plane_ransacf", &plane, sizeof plane);
        check_inliers(s, "fathom_fit_plane_ransacf", inliers, mask, count, &ransac, s == FATHOM_OK ? plane.used : 0);
        break;
    }
    free(inliers);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    /* A stride in doubles, 0 (packed) and odd byte strides included; the buffer always holds what
     * count * stride promises, so a read past it is the library's fault. */
    uint8_t stride_kind = fz_u8(&in);
    size_t stride = stride_kind < 200 ? 8 * (size_t)(stride_kind % 6) : (size_t)fz_u8(&in);
    size_t count = fz_count(&in, 64);
    size_t step = stride ? stride : 24;
    size_t bytes = count * step + 24;
    double *points = malloc(bytes);
    if (!points) abort();
    memset(points, 0, bytes);
    for (size_t i = 0; i < bytes / sizeof(double); i++) points[i] = fz_double(&in);
    fit(&in, points, count, stride);
    /* Overflowing sizes and NULL buffers with counts. */
    if (fz_u8(&in) == 0) {
        fathom_line_fit line;
        fz_poison(&line, sizeof line);
        const double *buffer = fz_u8(&in) ? points : NULL;
        size_t huge = SIZE_MAX / 16 + fz_u8(&in);
        fathom_status s = FZ(fathom_fit_line3, buffer, huge, 24, &line);
        if (s == FATHOM_OK) fz_broken("fathom_fit_line3", "an overflowing count was accepted");
        fz_untouched(s, "fathom_fit_line3", &line, sizeof line);
    }
    free(points);
    return 0;
}
