/* Fuzz target: depth frames and the length measurements on them (fathom_depth_*, fathom_length_*,
 * fathom_mask_endpoints). Each input builds one depth map (float32, float16 or uint16, <= 64x64, any row stride,
 * an optional confidence map, any range, scale, intrinsics and pose), usually a tilted plane with an object on it
 * under a fish-like mask (an ellipse, bent, with a forked tail and flipped pixels) of its own resolution, then
 * makes a sequence of calls on it. Where the header states a result exactly (which samples are valid, their order,
 * the nearest and median samples, the optical Z), the harness computes it too and compares. */
#include "fuzz.h"

#define MAX_GRID 64
#define MAX_STEPS 12

typedef struct scene {
    fathom_depth_frame frame;
    uint8_t *depth_block;       /* malloc'd; frame.depth points into it */
    size_t depth_bytes;         /* bytes readable from frame.depth */
    uint8_t *confidence;        /* malloc'd or NULL */
    int sample_bytes;           /* of frame.format (4 for an unknown format) */
    size_t stride;              /* effective row stride when it is sane, else 0 */
    size_t confidence_stride;   /* effective, when sane */
    uint8_t *mask_data;         /* malloc'd */
    fathom_mask mask;
    size_t mask_stride;         /* effective, when sane, else 0 */
    int mask_valid;             /* the mask struct is one the library must accept */
    size_t mask_inside;         /* inside pixels, when valid */
} scene;

/* ---------------------------------------------------------------------------------------------- */
/* Values                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

static uint16_t float_to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u, exponent = (x >> 23) & 0xffu, mantissa = x & 0x7fffffu;
    if (exponent == 0xff) return (uint16_t)(sign | 0x7c00u | (mantissa ? 0x200u : 0));
    int e = (int)exponent - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        mantissa |= 0x800000u;
        return (uint16_t)(sign | (mantissa >> (14 - e)));
    }
    return (uint16_t)(sign | ((uint32_t)e << 10) | (mantissa >> 13));
}

static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
    if (exponent == 0) {
        float value = ldexpf((float)mantissa, -24);
        return sign ? -value : value;
    }
    uint32_t bits = exponent == 31 ? (sign | 0x7f800000u | (mantissa << 13))
                                   : (sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* The stored value of sample (i, j) in meters, as the header defines it: stored * scale. */
static float stored_meters(const scene *sc, uint32_t i, uint32_t j) {
    const uint8_t *row = (const uint8_t *)sc->frame.depth + (size_t)j * sc->stride;
    switch (sc->frame.format) {
    case FATHOM_DEPTH_FLOAT16: {
        uint16_t h;
        memcpy(&h, row + 2 * (size_t)i, 2);
        return half_to_float(h) * sc->frame.scale;
    }
    case FATHOM_DEPTH_UINT16: {
        uint16_t u;
        memcpy(&u, row + 2 * (size_t)i, 2);
        return (float)u * sc->frame.scale;
    }
    default: {
        float f;
        memcpy(&f, row + 4 * (size_t)i, 4);
        return f * sc->frame.scale;
    }
    }
}

/* Whether sample (i, j) is valid (finite, > 0, in range, confident enough); its depth in *d. */
static int sample_valid(const scene *sc, uint32_t i, uint32_t j, float *d) {
    float v = stored_meters(sc, i, j);
    if (!(v > 0) || !(v >= sc->frame.min_depth) || !(v <= sc->frame.max_depth) || !(v < INFINITY)) return 0;
    if (sc->frame.confidence && sc->frame.confidence[(size_t)j * sc->confidence_stride + i] < sc->frame.min_confidence)
        return 0;
    *d = v;
    return 1;
}

static int mask_at(const fathom_mask *m, size_t stride, uint32_t x, uint32_t y) { return m->data[(size_t)y * stride + x] != 0; }

/* ---------------------------------------------------------------------------------------------- */
/* Building the scene                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* A fish-like blob: an ellipse along a bent midline, an optional forked tail, then flipped pixels. */
static void draw_fish(fz_input *in, uint8_t *data, uint32_t w, uint32_t h, size_t stride) {
    double cx = (fz_u8(in) / 255.0) * w, cy = (fz_u8(in) / 255.0) * h;
    double a = 0.5 + (fz_u8(in) / 255.0) * w * 0.6, b = 0.3 + (fz_u8(in) / 255.0) * h * 0.3;
    double angle = fz_u8(in) * (3.14159265358979 / 128.0);
    double bend = ((int8_t)fz_u8(in)) / 128.0 / (a + 1.0);
    uint8_t tail = fz_u8(in);
    double ca = cos(angle), sa = sin(angle);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            double px = x + 0.5 - cx, py = y + 0.5 - cy;
            double along = px * ca + py * sa, across = -px * sa + py * ca;
            across -= bend * along * along;
            int inside = (along * along) / (a * a) + (across * across) / (b * b) <= 1.0;
            if (!inside && tail & 1) {
                /* A forked tail beyond the +along end: two lobes spreading from the stalk. */
                double t = along - a * 0.85, spread = b * (0.3 + 1.2 * t / (a * 0.5 + 1.0));
                double lobe = fabs(fabs(across) - spread * 0.6);
                inside = t >= 0 && t <= a * 0.5 + 1.0 && lobe <= 0.5 + (tail >> 5) * 0.25;
            }
            data[(size_t)y * stride + x] = inside ? (uint8_t)(1 + (tail & 2 ? x : 0xfe)) : 0;
        }
    }
    size_t flips = fz_count(in, 32);
    for (size_t k = 0; k < flips; k++) {
        uint32_t x = fz_u8(in) % w, y = fz_u8(in) % h;
        uint8_t *p = &data[(size_t)y * stride + x];
        *p = *p ? 0 : fz_u8(in) | 1;
    }
}

static void build_mask(fz_input *in, scene *sc) {
    uint8_t kind = fz_u8(in);
    uint32_t w, h;
    if (kind % 4 == 0) {
        w = sc->frame.width;
        h = sc->frame.height;
    } else {
        w = 1 + fz_u8(in) % MAX_GRID;
        h = 1 + fz_u8(in) % MAX_GRID;
    }
    size_t stride;
    uint8_t stride_kind = fz_u8(in);
    sc->mask_valid = 1;
    switch (stride_kind % 8) {
    case 0: case 1: case 2: stride = 0; break;
    case 3: stride = w; break;
    case 4: stride = w + 1 + fz_u8(in) % 7; break;
    case 5: stride = w - 1; sc->mask_valid = stride == 0; break;     /* too small, unless it reads as 0 */
    case 6: stride = SIZE_MAX - fz_u8(in); sc->mask_valid = 0; break; /* overflows */
    default: stride = w; break;
    }
    size_t real = stride == 0 ? w : stride;
    if (!sc->mask_valid) real = w;
    sc->mask_stride = real;
    size_t bytes = real * h;
    sc->mask_data = malloc(bytes);
    if (!sc->mask_data) abort();
    memset(sc->mask_data, 0x5a, bytes); /* the padding past each row's width is not mask */
    uint8_t content = fz_u8(in);
    if (content < 170) {
        draw_fish(in, sc->mask_data, w, h, real);
    } else if (content < 220) {
        uint8_t byte = 0;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                size_t bit = (size_t)y * w + x;
                if (bit % 8 == 0) byte = fz_u8(in);
                sc->mask_data[(size_t)y * real + x] = (byte >> (bit % 8)) & 1 ? 0xff : 0;
            }
    } else {
        uint8_t fill = content < 240 ? 0 : 1;
        for (uint32_t y = 0; y < h; y++) memset(sc->mask_data + (size_t)y * real, fill, w);
        if (content == 255) {
        uint32_t y = fz_u8(in) % h, x = fz_u8(in) % w;
        sc->mask_data[(size_t)y * real + x] ^= 1;
    }
    }
    sc->mask.data = sc->mask_data;
    sc->mask.width = w;
    sc->mask.height = h;
    sc->mask.row_stride = stride;
    /* Rarely a mask the library must refuse: zero size, NULL data. */
    uint8_t bad = fz_u8(in);
    if (bad == 251) { sc->mask.width = 0; sc->mask_valid = 0; }
    if (bad == 252) { sc->mask.height = 0; sc->mask_valid = 0; }
    if (bad == 253) { sc->mask.data = NULL; sc->mask_valid = 0; }
    sc->mask_inside = 0;
    if (sc->mask_valid)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) sc->mask_inside += mask_at(&sc->mask, real, x, y);
}

static fathom_intrinsics scene_intrinsics(fz_input *in, uint32_t w, uint32_t h) {
    if (fz_u8(in) >= 224) return fz_intrinsics(in);
    static const float factors[] = {1.0f, 2.0f, 3.0f, 4.0f, 7.5f, 0.5f, 1.5f, 10.0f};
    fathom_intrinsics k;
    float factor = factors[fz_u8(in) % 8];
    k.width = (uint32_t)(w * factor) ? (uint32_t)(w * factor) : 1;
    k.height = (uint32_t)(h * factor) ? (uint32_t)(h * factor) : 1;
    float f = k.width * (0.4f + fz_u8(in) / 128.0f);
    k.fx = f;
    k.fy = fz_u8(in) < 200 ? f : f * (0.5f + fz_u8(in) / 255.0f);
    k.cx = k.width / 2.0f + (int8_t)fz_u8(in) / 16.0f;
    k.cy = k.height / 2.0f + (int8_t)fz_u8(in) / 16.0f;
    return k;
}

static void write_sample(scene *sc, uint32_t i, uint32_t j, float meters) {
    uint8_t *row = (uint8_t *)sc->frame.depth + (size_t)j * sc->stride;
    switch (sc->frame.format) {
    case FATHOM_DEPTH_FLOAT16: {
        uint16_t hbits = float_to_half(meters / sc->frame.scale);
        memcpy(row + 2 * (size_t)i, &hbits, 2);
        break;
    }
    case FATHOM_DEPTH_UINT16: {
        float units = meters / sc->frame.scale;
        uint16_t u = !(units >= 0) ? 0 : units > 65535.0f ? 65535 : (uint16_t)(units + 0.5f);
        memcpy(row + 2 * (size_t)i, &u, 2);
        break;
    }
    default: {
        float stored = sc->frame.scale == 1.0f ? meters : meters / sc->frame.scale;
        memcpy(row + 4 * (size_t)i, &stored, 4);
        break;
    }
    }
}

/* The frame (returns 0 when its description is one whose data the harness cannot lay out: then no query
 * reads it, and it is only handed to the library in a form it must refuse). */
static void build_scene(fz_input *in, scene *sc) {
    memset(sc, 0, sizeof *sc);
    uint8_t format_kind = fz_u8(in);
    uint32_t format = format_kind < 190 ? FATHOM_DEPTH_FLOAT32
                    : format_kind < 215 ? FATHOM_DEPTH_FLOAT16
                    : format_kind < 245 ? FATHOM_DEPTH_UINT16 : fz_u32(in);
    uint8_t size_kind = fz_u8(in);
    uint32_t w = 1 + fz_u8(in) % (size_kind < 128 ? 24 : MAX_GRID);
    uint32_t h = 1 + fz_u8(in) % (size_kind < 128 ? 24 : MAX_GRID);
    sc->sample_bytes = format == FATHOM_DEPTH_FLOAT16 || format == FATHOM_DEPTH_UINT16 ? 2 : 4;
    size_t packed = (size_t)w * sc->sample_bytes;
    size_t stride;
    int sane = 1;
    uint8_t stride_kind = fz_u8(in);
    switch (stride_kind % 10) {
    case 0: case 1: case 2: case 3: stride = 0; break;
    case 4: stride = packed; break;
    case 5: stride = packed + (size_t)sc->sample_bytes * (1 + fz_u8(in) % 8); break;
    case 6: stride = packed + 1 + fz_u8(in) % 3; break;                    /* misaligned, or odd */
    case 7: stride = packed - sc->sample_bytes; sane = stride == 0; break; /* too small */
    case 8: stride = SIZE_MAX - fz_u8(in); sane = 0; break;                /* above SIZE_MAX / 2 */
    default: stride = ((size_t)INT64_MAX / 2 / h + 1 + 7) & ~(size_t)7; sane = 0; break; /* stride * height overflows */
    }
    sc->stride = sane ? (stride ? stride : packed) : packed;
    sc->depth_bytes = (size_t)(h - 1) * sc->stride + packed;
    /* The block is 8-aligned (malloc); an offset of 1 or 2 bytes misaligns the samples. */
    uint8_t offset = fz_u8(in) >= 250 ? 1 + (fz_u8(in) & 1) : 0;
    sc->depth_block = malloc(sc->depth_bytes + 8);
    if (!sc->depth_block) abort();
    memset(sc->depth_block, 0x7f, sc->depth_bytes + 8);
    const void *depth = sc->depth_block + offset;

    fathom_intrinsics k = scene_intrinsics(in, w, h);
    fathom_depth_frame *f = &sc->frame;
    fz_poison(f, sizeof *f);
    fathom_status s = FZ(fathom_depth_frame_init, f, depth, format, w, h, &k);
    if (s != FATHOM_OK) fz_broken("fathom_depth_frame_init", "refused a frame it promises to check nothing of");
    /* What init promises to fill. */
    if (f->depth != depth || f->format != format || f->width != w || f->height != h || f->row_stride != 0 ||
        f->confidence != NULL || fz_bool_byte(&f->has_pose) != 0 || !fz_all_zero(f->reserved, sizeof f->reserved) ||
        f->min_depth != 0 || f->max_depth != INFINITY ||
        f->scale != (format == FATHOM_DEPTH_UINT16 ? 0.001f : 1.0f) || memcmp(&f->intrinsics, &k, sizeof k) != 0)
        fz_broken("fathom_depth_frame_init", "the frame is not the documented packed, unconfident, unposed default");
    f->row_stride = stride;
    if (fz_u8(in) >= 224) f->scale = fz_u8(in) < 128 ? fz_float(in) : ldexpf(1.0f, (int)(fz_u8(in) % 40) - 30);

    /* Depth: a tilted plane at d0 with an object raised toward the camera under the mask, or raw values. */
    build_mask(in, sc);
    uint8_t content = fz_u8(in);
    float d0 = 0.15f + fz_u8(in) / 64.0f, gx = (int8_t)fz_u8(in) / 2048.0f, gy = (int8_t)fz_u8(in) / 2048.0f;
    float bump = fz_u8(in) / 512.0f, ripple = fz_u8(in) / 65536.0f;
    float constant = fz_float(in);
    for (uint32_t j = 0; j < h; j++) {
        for (uint32_t i = 0; i < w; i++) {
            float d;
            if (content < 150 || content >= 250) {
                d = d0 + gx * (float)i + gy * (float)j + ripple * (float)((i * 7 + j * 13) % 5);
                if (content < 150 && sc->mask_valid) {
                    uint32_t mx = (uint32_t)(((uint64_t)(2 * i + 1) * sc->mask.width) / (2 * (uint64_t)w));
                    uint32_t my = (uint32_t)(((uint64_t)(2 * j + 1) * sc->mask.height) / (2 * (uint64_t)h));
                    if (mask_at(&sc->mask, sc->mask_stride, mx, my)) d -= bump;
                }
            } else if (content < 200) {
                d = fz_float(in);
            } else {
                d = constant;
            }
            write_sample(sc, i, j, d);
        }
    }
    /* Holes and outliers: NaN, 0, negative, huge, flying pixels. */
    size_t spots = fz_count(in, 24);
    for (size_t n = 0; n < spots; n++) {
        uint32_t i = fz_u8(in) % w, j = fz_u8(in) % h;
        write_sample(sc, i, j, fz_u8(in) < 128 ? fz_float(in) : d0 * (0.5f + fz_u8(in) / 128.0f));
    }
    if (sc->frame.format == FATHOM_DEPTH_FLOAT32 && fz_u8(in) >= 240) {
        uint32_t bits = fz_u32(in); /* any bit pattern in one sample */
        uint32_t j = fz_u8(in) % h, i = fz_u8(in) % w;
        memcpy((uint8_t *)sc->frame.depth + (size_t)j * sc->stride + 4 * (size_t)i, &bits, 4);
    }

    /* Confidence. */
    uint8_t confidence_kind = fz_u8(in);
    if (confidence_kind < 80) {
        size_t cstride;
        int csane = 1;
        switch (fz_u8(in) % 6) {
        case 0: case 1: case 2: cstride = 0; break;
        case 3: cstride = w + 1 + fz_u8(in) % 5; break;
        case 4: cstride = w - 1; csane = cstride == 0; break;
        default: cstride = SIZE_MAX - fz_u8(in); csane = 0; break;
        }
        sc->confidence_stride = csane ? (cstride ? cstride : w) : w;
        size_t cbytes = (size_t)(h - 1) * sc->confidence_stride + w;
        sc->confidence = malloc(cbytes);
        if (!sc->confidence) abort();
        uint8_t seed = fz_u8(in);
        for (size_t n = 0; n < cbytes; n++) sc->confidence[n] = (uint8_t)((n * 131u + seed) % (seed < 200 ? 3 : 256));
        f->confidence = sc->confidence;
        f->confidence_stride = cstride;
        f->min_confidence = confidence_kind < 60 ? fz_u8(in) % 4 : fz_u8(in);
    }
    uint8_t range_kind = fz_u8(in);
    if (range_kind >= 160) {
        f->min_depth = range_kind < 200 ? fz_u8(in) / 128.0f : fz_float(in);
        f->max_depth = range_kind < 200 ? f->min_depth + fz_u8(in) / 32.0f : fz_float(in);
    }
    uint8_t pose_kind = fz_u8(in);
    if (pose_kind >= 96) {
        f->camera_to_world = fz_pose(in);
        /* has_pose's byte: true, or (as memcpy can leave it) any byte, which the library refuses unless 0 or 1. */
        if (pose_kind < 250) f->has_pose = true;
        else fz_set_bool_byte(&f->has_pose, fz_bool_byte_of(fz_u32(in)));
    }
    if (fz_u8(in) == 255) { /* reserved bytes: the first, a middle and the last */
        f->reserved[0] = fz_u8(in);
        f->reserved[sizeof f->reserved / 2] = fz_u8(in);
        f->reserved[sizeof f->reserved - 1] = fz_u8(in);
    }
}

/* Whether a frame the library accepted could have been accepted: the parts of its description the harness
 * relies on to read it (size, format, strides, alignment). */
static int frame_readable(const scene *sc) {
    const fathom_depth_frame *f = &sc->frame;
    if (f->format > FATHOM_DEPTH_UINT16 || f->width == 0 || f->height == 0) return 0;
    size_t packed = (size_t)f->width * sc->sample_bytes;
    if (f->row_stride != 0 && (f->row_stride < packed || f->row_stride != sc->stride)) return 0;
    if ((uintptr_t)f->depth % (uintptr_t)sc->sample_bytes != 0 || sc->stride % (size_t)sc->sample_bytes != 0) return 0;
    if (f->confidence && f->confidence_stride != 0 &&
        (f->confidence_stride < f->width || f->confidence_stride != sc->confidence_stride))
        return 0;
    return 1;
}

/* For the report of a broken promise. */
static void describe_frame(const scene *sc) {
    const fathom_depth_frame *f = &sc->frame;
    fprintf(stderr, "frame %ux%u format %u scale %.9g range [%g, %g] pose %u, RGB intrinsics fx %.9g fy %.9g cx %.9g cy %.9g %ux%u\n",
            f->width, f->height, f->format, f->scale, f->min_depth, f->max_depth, (unsigned)fz_bool_byte(&f->has_pose),
            f->intrinsics.fx, f->intrinsics.fy,
            f->intrinsics.cx, f->intrinsics.cy, f->intrinsics.width, f->intrinsics.height);
}

static void check_accepted(fathom_status s, const scene *sc, const char *function) {
    if (s == FATHOM_OK && !frame_readable(sc)) fz_broken(function, "accepted a frame whose stride, format or alignment is invalid");
    if (s == FATHOM_OK && fz_bool_byte(&sc->frame.has_pose) > 1)
        fz_broken(function, "accepted a frame whose has_pose is neither false (0) nor true (1)");
    if (s == FATHOM_OK && !fz_all_zero(sc->frame.reserved, sizeof sc->frame.reserved))
        fz_broken(function, "accepted a frame with a nonzero reserved byte");
}

/* ---------------------------------------------------------------------------------------------- */
/* Selections and the samples they hold                                                            */
/* ---------------------------------------------------------------------------------------------- */

typedef struct sel_box {
    fathom_depth_selection sel;
    int use;        /* 0: NULL selection */
    int valid;      /* the rectangle and step are valid for the frame and the mask is valid */
    uint64_t x0, y0, x1, y1, step;
} sel_box;

static void make_selection(fz_input *in, const scene *sc, sel_box *b) {
    uint32_t w = sc->frame.width, h = sc->frame.height;
    memset(b, 0, sizeof *b);
    uint8_t kind = fz_u8(in);
    b->use = kind >= 40;
    if (!b->use) {
        b->valid = 1;
        b->x0 = 0; b->y0 = 0; b->x1 = w; b->y1 = h; b->step = 1;
        return;
    }
    fathom_depth_selection *s = &b->sel;
    if (kind < 200) {
        s->x0 = fz_u8(in) % w;
        s->y0 = fz_u8(in) % h;
        s->x1 = s->x0 + 1 + fz_u8(in) % (w - s->x0);
        s->y1 = s->y0 + 1 + fz_u8(in) % (h - s->y0);
        if (fz_u8(in) < 64) { s->x1 = 0; s->y1 = 0; }
        s->step = 1 + fz_u8(in) % 4;
    } else {
        s->x0 = fz_u8(in) < 128 ? fz_u8(in) : fz_u32(in);
        s->y0 = fz_u8(in) < 128 ? fz_u8(in) : fz_u32(in);
        s->x1 = fz_u8(in) < 128 ? fz_u8(in) : fz_u32(in);
        s->y1 = fz_u8(in) < 128 ? fz_u8(in) : fz_u32(in);
        s->step = fz_u8(in) < 128 ? fz_u8(in) : fz_u32(in);
    }
    s->mask = fz_u8(in) < 110 ? &sc->mask : NULL;
    int whole = s->x1 == 0 && s->y1 == 0;
    b->x0 = s->x0; b->y0 = s->y0;
    b->x1 = whole ? w : s->x1;
    b->y1 = whole ? h : s->y1;
    b->step = s->step;
    b->valid = b->step >= 1 && b->x1 <= w && b->y1 <= h && b->x0 < b->x1 && b->y0 < b->y1 && (!s->mask || sc->mask_valid);
}

/* The selected samples, (column, row) pairs into `pixels` (may be NULL) and depths into `depths`, in row order. */
static size_t selected_samples(const scene *sc, const sel_box *b, uint32_t *pixels, float *depths) {
    size_t n = 0;
    const fathom_mask *m = b->use ? b->sel.mask : NULL;
    for (uint64_t j = b->y0; j < b->y1; j += b->step) {
        for (uint64_t i = b->x0; i < b->x1; i += b->step) {
            if (m) {
                uint32_t mx = (uint32_t)(((2 * i + 1) * m->width) / (2 * (uint64_t)sc->frame.width));
                uint32_t my = (uint32_t)(((2 * j + 1) * m->height) / (2 * (uint64_t)sc->frame.height));
                if (!mask_at(m, sc->mask_stride, mx, my)) continue;
            }
            float d;
            if (!sample_valid(sc, (uint32_t)i, (uint32_t)j, &d)) continue;
            if (pixels) { pixels[2 * n] = (uint32_t)i; pixels[2 * n + 1] = (uint32_t)j; }
            if (depths) depths[n] = d;
            n++;
        }
    }
    return n;
}

static void do_count(fz_input *in, scene *sc) {
    sel_box b;
    make_selection(in, sc, &b);
    size_t count;
    fz_poison(&count, sizeof count);
    int null_out = fz_u8(in) == 0x4e;
    fathom_status s = FZ(fathom_depth_count, &sc->frame, b.use ? &b.sel : NULL, null_out ? NULL : &count);
    fz_untouched(s, "fathom_depth_count", &count, sizeof count);
    check_accepted(s, sc, "fathom_depth_count");
    if (s == FATHOM_OK && null_out) fz_broken("fathom_depth_count", "accepted a NULL out_count");
    if (s != FATHOM_OK) return;
    if (!b.valid) fz_broken("fathom_depth_count", "accepted an invalid selection");
    if (count != selected_samples(sc, &b, NULL, NULL))
        fz_broken("fathom_depth_count", "the count is not the number of valid selected samples");
}

static void do_backproject(fz_input *in, scene *sc) {
    sel_box b;
    make_selection(in, sc, &b);
    uint32_t out_frame = fz_u8(in) < 250 ? fz_u8(in) % 3 : fz_u32(in);
    int with_pixels = fz_u8(in) & 1, with_normals = fz_u8(in) & 1;
    const fathom_depth_selection *selp = b.use ? &b.sel : NULL;
    /* The full count from the harness (valid selections) bounds the buffers; a short capacity first. */
    size_t expected = b.valid ? selected_samples(sc, &b, NULL, NULL) : 0;
    size_t first_capacity = expected ? fz_count(in, expected - 1) : 0;
    size_t capacities[2] = {first_capacity, expected};
    float *points[2] = {NULL, NULL};
    uint32_t *pix[2] = {NULL, NULL};
    fathom_status st[2];
    size_t counts[2];
    for (int pass = 0; pass < 2; pass++) {
        size_t cap = capacities[pass];
        int null_points = cap == 0 && fz_u8(in) < 128;
        points[pass] = malloc(cap ? cap * 3 * sizeof(float) : 1);
        pix[pass] = malloc(cap ? cap * 2 * sizeof(uint32_t) : 1);
        float *normals = malloc(cap ? cap * 3 * sizeof(float) : 1);
        if (!points[pass] || !pix[pass] || !normals) abort();
        fz_poison(points[pass], cap ? cap * 3 * sizeof(float) : 1);
        fz_poison(pix[pass], cap ? cap * 2 * sizeof(uint32_t) : 1);
        fz_poison(normals, cap ? cap * 3 * sizeof(float) : 1);
        fz_poison(&counts[pass], sizeof counts[pass]);
        st[pass] = FZ(fathom_depth_backproject, &sc->frame, selp, out_frame, null_points ? NULL : points[pass],
                      with_pixels ? pix[pass] : NULL, with_normals ? normals : NULL, cap, &counts[pass]);
        fathom_status s = st[pass];
        check_accepted(s, sc, "fathom_depth_backproject");
        if (s == FATHOM_OK || s == FATHOM_ERR_BUFFER_TOO_SMALL) {
            if (!b.valid) fz_broken("fathom_depth_backproject", "accepted an invalid selection");
            if (out_frame > FATHOM_FRAME_WORLD || (out_frame == FATHOM_FRAME_WORLD && fz_bool_byte(&sc->frame.has_pose) != 1))
                fz_broken("fathom_depth_backproject", "accepted an invalid out_frame");
            if (counts[pass] != expected)
                fz_broken("fathom_depth_backproject", "out_count is not the number of valid selected samples");
            if ((s == FATHOM_OK) != (expected <= cap))
                fz_broken("fathom_depth_backproject", "BUFFER_TOO_SMALL does not match capacity < count");
            size_t written = expected < cap ? expected : cap;
            /* Points, pixels and normals: exactly the first `written` slots, nothing after. */
            for (size_t n = written * 3 * sizeof(float); n < (cap ? cap * 3 * sizeof(float) : 0); n++)
                if (((uint8_t *)points[pass])[n] != FZ_POISON) fz_broken("fathom_depth_backproject", "wrote past out_count");
            if (written) {
                uint32_t *want = malloc(expected * 2 * sizeof(uint32_t));
                float *depths = malloc(expected * sizeof(float));
                if (!want || !depths) abort();
                selected_samples(sc, &b, want, depths);
                if (with_pixels && memcmp(want, pix[pass], written * 2 * sizeof(uint32_t)) != 0)
                    fz_broken("fathom_depth_backproject", "out_pixels are not the valid selected samples in row order");
                for (size_t n = 0; n < written && out_frame != FATHOM_FRAME_WORLD; n++) {
                    float z = points[pass][3 * n + 2];
                    float want_z = out_frame == FATHOM_FRAME_OPTICAL ? depths[n] : -depths[n];
                    if (!fz_same_float(z, want_z)) {
                        describe_frame(sc);
                        fprintf(stderr, "point %zu, sample (%u, %u): z %.9g, depth %.9g, out_frame %u\n", n, want[2 * n],
                                want[2 * n + 1], z, depths[n], out_frame);
                        fz_broken("fathom_depth_backproject", "a point's Z is not its sample's depth");
                    }
                }
                free(want);
                free(depths);
            }
            if (with_normals)
                for (size_t n = 0; n < written; n++) {
                    float *v = &normals[3 * n];
                    double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
                    if (!(len == 0 || fabs(len - 1) < 5e-3)) {
                        describe_frame(sc);
                        fprintf(stderr, "normal %zu (%g, %g, %g), length %g, out_frame %u\n", n, v[0], v[1], v[2], len, out_frame);
                        fz_broken("fathom_depth_backproject", "a normal is neither unit nor zero");
                    }
                }
        } else {
            fz_untouched(s, "fathom_depth_backproject", &counts[pass], sizeof counts[pass]);
            fz_untouched(s, "fathom_depth_backproject", points[pass], cap ? cap * 3 * sizeof(float) : 1);
            fz_untouched(s, "fathom_depth_backproject", pix[pass], cap ? cap * 2 * sizeof(uint32_t) : 1);
            fz_untouched(s, "fathom_depth_backproject", normals, cap ? cap * 3 * sizeof(float) : 1);
        }
        free(normals);
        if (first_capacity == expected) break; /* expected 0: one call says it all */
    }
    /* The short call wrote the first points of the full call. */
    if (first_capacity < expected && st[0] == FATHOM_ERR_BUFFER_TOO_SMALL && st[1] == FATHOM_OK &&
        memcmp(points[0], points[1], first_capacity * 3 * sizeof(float)) != 0)
        fz_broken("fathom_depth_backproject", "a short capacity's points differ from the first points of the whole");
    for (int pass = 0; pass < 2; pass++) {
        free(points[pass]);
        free(pix[pass]);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Sampling                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static float pick_u(fz_input *in, float extent) {
    uint8_t kind = fz_u8(in);
    if (kind < 200) {
        float whole = fz_u8(in);
        return (whole + fz_u8(in) / 256.0f) / 256.0f * extent;
    }
    if (kind < 230) return fz_float(in);
    return kind & 1 ? extent : nextafterf(extent, 0);
}

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* The header's reading of (u, v): 1 with the depth in *out, 0 for no valid sample, -1 when not stated exactly. */
static int expected_sample(const scene *sc, float u, float v, uint32_t sampling, uint32_t window, float *out) {
    const fathom_depth_frame *f = &sc->frame;
    float x = u * (float)f->width / (float)f->intrinsics.width, y = v * (float)f->height / (float)f->intrinsics.height;
    if (!(x >= 0 && x < 1e9f && y >= 0 && y < 1e9f)) return -1;
    uint32_t i = (uint32_t)x < f->width ? (uint32_t)x : f->width - 1;
    uint32_t j = (uint32_t)y < f->height ? (uint32_t)y : f->height - 1;
    if (sampling == FATHOM_SAMPLE_NEAREST) return sample_valid(sc, i, j, out);
    if (sampling != FATHOM_SAMPLE_MEDIAN) return -1;
    int64_t r = window / 2;
    float values[MAX_GRID * MAX_GRID];
    size_t n = 0;
    for (int64_t jj = (int64_t)j - r < 0 ? 0 : (int64_t)j - r; jj <= (int64_t)j + r && jj < (int64_t)f->height; jj++)
        for (int64_t ii = (int64_t)i - r < 0 ? 0 : (int64_t)i - r; ii <= (int64_t)i + r && ii < (int64_t)f->width; ii++) {
            float d;
            if (sample_valid(sc, (uint32_t)ii, (uint32_t)jj, &d)) values[n++] = d;
        }
    if (n == 0) return 0;
    qsort(values, n, sizeof values[0], cmp_float);
    *out = values[(n - 1) / 2];
    return 1;
}

static void do_sample(fz_input *in, scene *sc, int point) {
    const fathom_depth_frame *f = &sc->frame;
    float u = pick_u(in, (float)f->intrinsics.width), v = pick_u(in, (float)f->intrinsics.height);
    uint32_t sampling = fz_u8(in) < 250 ? fz_u8(in) % 3 : fz_u32(in);
    uint8_t wk = fz_u8(in);
    uint32_t window = wk < 200 ? 1u + 2u * (wk % 6u) : wk < 230 ? 2u * (wk % 4u) : fz_u32(in);
    int null_out = fz_u8(in) == 0x4e;
    float depth;
    fathom_status s;
    if (!point) {
        fz_poison(&depth, sizeof depth);
        s = FZ(fathom_depth_sample, f, u, v, sampling, window, null_out ? NULL : &depth);
        fz_untouched(s, "fathom_depth_sample", &depth, sizeof depth);
    } else {
        uint32_t out_frame = fz_u8(in) < 250 ? fz_u8(in) % 3 : fz_u32(in);
        fathom_vec3 p;
        fz_poison(&p, sizeof p);
        s = FZ(fathom_depth_point, f, u, v, sampling, window, out_frame, null_out ? NULL : &p);
        fz_untouched(s, "fathom_depth_point", &p, sizeof p);
        if (s == FATHOM_OK &&
            (out_frame > FATHOM_FRAME_WORLD || (out_frame == FATHOM_FRAME_WORLD && fz_bool_byte(&f->has_pose) != 1)))
            fz_broken("fathom_depth_point", "accepted an invalid out_frame");
        if (s == FATHOM_OK && out_frame != FATHOM_FRAME_WORLD) {
            /* Its depth is fathom_depth_sample's, and the point is ((u - cx) / fx * d, (v - cy) / fy * d, d). */
            float d;
            fathom_status s2 = FZ(fathom_depth_sample, f, u, v, sampling, window, &d);
            if (s2 != FATHOM_OK) fz_broken("fathom_depth_point", "succeeded where fathom_depth_sample fails");
            float x = (u - f->intrinsics.cx) / f->intrinsics.fx * d, y = (v - f->intrinsics.cy) / f->intrinsics.fy * d;
            float sign = out_frame == FATHOM_FRAME_OPTICAL ? 1.0f : -1.0f;
            if (!fz_same_float(p.x, x) || !fz_same_float(p.y, sign * y) || !fz_same_float(p.z, sign * d))
                fz_broken("fathom_depth_point", "the point is not the back-projection of the sampled depth");
        }
        depth = p.z;
    }
    const char *name = point ? "fathom_depth_point" : "fathom_depth_sample";
    check_accepted(s, sc, name);
    if (s == FATHOM_OK && null_out) fz_broken(name, "accepted a NULL out-pointer");
    if (s == FATHOM_OK && !(u >= 0 && u < (float)f->intrinsics.width && v >= 0 && v < (float)f->intrinsics.height))
        fz_broken(name, "accepted a pixel outside the RGB image");
    if (s == FATHOM_OK && sampling == FATHOM_SAMPLE_MEDIAN && (window == 0 || window % 2 == 0))
        fz_broken(name, "accepted an even or zero median window");
    if (point || !(s == FATHOM_OK || s == FATHOM_ERR_NO_DATA)) return;
    if (sampling == FATHOM_SAMPLE_BILINEAR && s == FATHOM_OK && !(depth > 0 && depth < INFINITY))
        fz_broken(name, "a bilinear depth is not a positive finite value");
    float want;
    int e = expected_sample(sc, u, v, sampling, window, &want);
    if (e < 0) return;
    if (e == 0 && s == FATHOM_OK) fz_broken(name, "a depth where no valid sample is");
    if (e == 1 && s != FATHOM_OK) fz_broken(name, "no depth where a valid sample is");
    if (e == 1 && !fz_same_float(depth, want)) fz_broken(name, "the depth is not the nearest or median valid sample");
}

/* ---------------------------------------------------------------------------------------------- */
/* Lengths                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static void make_options(fz_input *in, fathom_length_options *o) {
    fz_poison(o, sizeof *o);
    if (FZ(fathom_length_options_init, o) != FATHOM_OK) fz_broken("fathom_length_options_init", "failed");
    if (o->keypoint_depth != FATHOM_KEYPOINT_MEDIAN || o->window != 5 || o->out_frame != FATHOM_FRAME_CAMERA ||
        o->trim_points != 0 || o->trim_fraction != 0 || o->plane.threshold != 0.005 || o->plane.iterations != 100 ||
        !fz_all_zero(o->plane.reserved, sizeof o->plane.reserved) || o->plane.seed != 0 || o->depth_noise != 0.005 ||
        o->depth_noise_growth != 2 || o->pixel_noise != 1 || o->edge_noise != 1 || !fz_all_zero(o->reserved, sizeof o->reserved))
        fz_broken("fathom_length_options_init", "the defaults are not the documented ones");
    uint8_t fields = fz_u8(in), more = fz_u8(in);
    if (fields & 1) o->keypoint_depth = fz_u8(in) < 240 ? fz_u8(in) % 3 : fz_u32(in);
    if (fields & 2) {
        uint8_t k = fz_u8(in);
        o->window = k < 200 ? 1u + 2u * (k % 8u) : k < 230 ? 2u * (k % 4u) : fz_u32(in);
    }
    if (fields & 4) o->out_frame = fz_u8(in) < 240 ? fz_u8(in) % 3 : fz_u32(in);
    if (fields & 8) o->trim_points = fz_u8(in) < 200 ? fz_u8(in) % 8 : fz_u32(in);
    if (fields & 16) o->trim_fraction = fz_u8(in) < 200 ? fz_u8(in) / 1024.0 : fz_double(in);
    if (fields & 32) {
        o->plane.threshold = fz_u8(in) < 200 ? fz_u8(in) / 4096.0 : fz_double(in);
        /* Few iterations: a caller asking for billions gets them, slowly. */
        o->plane.iterations = fz_u8(in) < 250 ? fz_u8(in) : fz_u32(in) % 4096;
        o->plane.seed = fz_u64(in);
    }
    if (fields & 64) { /* one reserved word, which the library must refuse unless 0 (one read per statement) */
        size_t word = fz_u8(in) % (sizeof o->plane.reserved / sizeof o->plane.reserved[0]);
        o->plane.reserved[word] = fz_u32(in);
    }
    if (fields & 128) {
        o->depth_noise = fz_u8(in) < 200 ? fz_u8(in) / 8192.0 : fz_double(in);
        o->depth_noise_growth = fz_u8(in) < 200 ? fz_u8(in) / 64.0 : fz_double(in);
    }
    if (more & 1) o->pixel_noise = fz_u8(in) < 200 ? fz_u8(in) / 32.0 : fz_double(in);
    if (more & 2) o->edge_noise = fz_u8(in) < 200 ? fz_u8(in) / 32.0 : fz_double(in);
    if (more & 4) {
        size_t word = fz_u8(in) % (sizeof o->reserved / sizeof o->reserved[0]);
        o->reserved[word] = fz_u32(in);
    }
}

static int options_valid(const fathom_length_options *o) {
    return o->keypoint_depth <= FATHOM_KEYPOINT_PLANE && o->window % 2 == 1 && o->out_frame <= FATHOM_FRAME_WORLD &&
           o->trim_fraction >= 0 && o->trim_fraction < 0.25 && o->plane.threshold > 0 && isfinite(o->plane.threshold) &&
           o->plane.iterations >= 1 && isfinite(o->depth_noise) && o->depth_noise >= 0 && isfinite(o->depth_noise_growth) &&
           o->depth_noise_growth >= 0 && isfinite(o->pixel_noise) && o->pixel_noise >= 0 && isfinite(o->edge_noise) &&
           o->edge_noise >= 0 && fz_all_zero(o->plane.reserved, sizeof o->plane.reserved) &&
           fz_all_zero(o->reserved, sizeof o->reserved);
}

/* A result the library reported as a success. */
static void check_length(const char *function, const fathom_length *r, const fathom_length_options *o, const scene *sc) {
    if (isnan(r->length) || r->length < 0 || isnan(r->sigma) || r->sigma < 0) {
        fprintf(stderr, "length %g sigma %g head (%g, %g, %g) tail (%g, %g, %g) rms %g samples %llu\n", r->length, r->sigma,
                r->head[0], r->head[1], r->head[2], r->tail[0], r->tail[1], r->tail[2], r->rms, (unsigned long long)r->samples);
        if (o)
            fprintf(stderr, "options: kp %u window %u frame %u trim %u %g plane %g/%u noise %g growth %g pixel %g edge %g\n",
                    o->keypoint_depth, o->window, o->out_frame, o->trim_points, o->trim_fraction, o->plane.threshold,
                    o->plane.iterations, o->depth_noise, o->depth_noise_growth, o->pixel_noise, o->edge_noise);
        describe_frame(sc);
    }
    if (isnan(r->length) || r->length < 0) fz_broken(function, "the length is negative or NaN");
    if (isnan(r->sigma) || r->sigma < 0) fz_broken(function, "sigma is negative or NaN");
    if (o && !options_valid(o)) fz_broken(function, "accepted invalid options");
    if (o && o->out_frame == FATHOM_FRAME_WORLD && fz_bool_byte(&sc->frame.has_pose) != 1)
        fz_broken(function, "accepted world-frame output without a pose");
}

static void pick_keypoints(fz_input *in, scene *sc, float *hu, float *hv, float *tu, float *tv) {
    const fathom_intrinsics *k = &sc->frame.intrinsics;
    uint8_t kind = fz_u8(in);
    if (kind < 100 && sc->mask_valid && sc->mask_inside >= 2) {
        float e0[2], e1[2];
        if (FZ(fathom_mask_endpoints, &sc->mask, e0, e1, NULL) == FATHOM_OK) {
            float sx = (float)k->width / (float)sc->mask.width, sy = (float)k->height / (float)sc->mask.height;
            *hu = e0[0] * sx; *hv = e0[1] * sy;
            *tu = e1[0] * sx; *tv = e1[1] * sy;
            return;
        }
    }
    *hu = pick_u(in, (float)k->width);
    *hv = pick_u(in, (float)k->height);
    *tu = kind == 255 ? *hu : pick_u(in, (float)k->width);
    *tv = kind == 255 ? *hv : pick_u(in, (float)k->height);
}

static void do_keypoints(fz_input *in, scene *sc) {
    fathom_length_options o;
    make_options(in, &o);
    int with_options = fz_u8(in) >= 30, with_mask = fz_u8(in) < 160, null_out = fz_u8(in) == 0x4e;
    float hu, hv, tu, tv;
    pick_keypoints(in, sc, &hu, &hv, &tu, &tv);
    fathom_length r;
    fz_poison(&r, sizeof r);
    fathom_status s = FZ(fathom_length_keypoints, &sc->frame, hu, hv, tu, tv, with_mask ? &sc->mask : NULL,
                         with_options ? &o : NULL, null_out ? NULL : &r);
    fz_untouched(s, "fathom_length_keypoints", &r, sizeof r);
    check_accepted(s, sc, "fathom_length_keypoints");
    if (s != FATHOM_OK) return;
    if (null_out) fz_broken("fathom_length_keypoints", "accepted a NULL out");
    if (with_options && o.keypoint_depth == FATHOM_KEYPOINT_PLANE && !with_mask)
        fz_broken("fathom_length_keypoints", "plane keypoints without a mask");
    if (with_mask && !sc->mask_valid) fz_broken("fathom_length_keypoints", "accepted an invalid mask");
    check_length("fathom_length_keypoints", &r, with_options ? &o : NULL, sc);
    if (hu == tu && hv == tv) fz_broken("fathom_length_keypoints", "accepted head == tail");
    if (!fz_same_float(r.head_pixel[0], hu) || !fz_same_float(r.head_pixel[1], hv) || !fz_same_float(r.tail_pixel[0], tu) ||
        !fz_same_float(r.tail_pixel[1], tv))
        fz_broken("fathom_length_keypoints", "head_pixel / tail_pixel are not the keypoints");
    double dx = r.head[0] - r.tail[0], dy = r.head[1] - r.tail[1], dz = r.head[2] - r.tail[2];
    double distance = sqrt(dx * dx + dy * dy + dz * dz), magnitude = 0;
    for (int c = 0; c < 3; c++) magnitude = fmax(magnitude, fmax(fabs(r.head[c]), fabs(r.tail[c])));
    /* Far from the world origin (a pose's translation of 1e38) the coordinates keep only their own precision. */
    if (isfinite(r.length) && isfinite(distance) && fabs(distance - r.length) > 1e-4 * r.length + 1e-6 + 1e-9 * magnitude) {
        describe_frame(sc);
        fprintf(stderr, "length %.9g, distance %.9g, head (%g, %g, %g), tail (%g, %g, %g)\n", r.length, distance, r.head[0],
                r.head[1], r.head[2], r.tail[0], r.tail[1], r.tail[2]);
        fz_broken("fathom_length_keypoints", "the length is not the distance between head and tail");
    }
}

static void do_polyline(fz_input *in, scene *sc) {
    fathom_length_options o;
    make_options(in, &o);
    int with_options = fz_u8(in) >= 30, with_mask = fz_u8(in) < 100;
    uint8_t kind = fz_u8(in);
    size_t count = kind < 230 ? 1 + fz_count(in, 63) : kind < 240 ? 0 : 1;
    float *pixels = malloc(count ? 2 * count * sizeof(float) : 1);
    if (!pixels) abort();
    float hu, hv, tu, tv;
    pick_keypoints(in, sc, &hu, &hv, &tu, &tv);
    for (size_t n = 0; n < count; n++) {
        float t = count > 1 ? (float)n / (float)(count - 1) : 0.0f;
        uint8_t jitter = fz_u8(in);
        if (jitter < 240) {
            pixels[2 * n] = hu + (tu - hu) * t + (int8_t)fz_u8(in) / 64.0f;
            pixels[2 * n + 1] = hv + (tv - hv) * t + (int8_t)fz_u8(in) / 64.0f;
        } else {
            pixels[2 * n] = fz_float(in);
            pixels[2 * n + 1] = fz_float(in);
        }
    }
    const float *arg = pixels;
    size_t arg_count = count;
    uint8_t abuse = fz_u8(in);
    if (abuse == 250) arg = NULL;
    if (abuse == 251) { arg = NULL; arg_count = SIZE_MAX / 8 + fz_u8(in); }
    if (abuse == 252) { arg = NULL; arg_count = SIZE_MAX - fz_u8(in); }
    fathom_length r;
    fz_poison(&r, sizeof r);
    fathom_status s = FZ(fathom_length_polyline, &sc->frame, arg, arg_count, with_mask ? &sc->mask : NULL,
                         with_options ? &o : NULL, &r);
    fz_untouched(s, "fathom_length_polyline", &r, sizeof r);
    check_accepted(s, sc, "fathom_length_polyline");
    if (s == FATHOM_OK) {
        if (arg == NULL || arg_count == 0) fz_broken("fathom_length_polyline", "accepted no pixels");
        if (with_options && o.keypoint_depth == FATHOM_KEYPOINT_PLANE && !with_mask)
            fz_broken("fathom_length_polyline", "plane depth without a mask");
        check_length("fathom_length_polyline", &r, with_options ? &o : NULL, sc);
    }
    free(pixels);
}

static void do_mask_length(fz_input *in, scene *sc, int midline) {
    fathom_length_options o;
    make_options(in, &o);
    int with_options = fz_u8(in) >= 30, null_mask = fz_u8(in) == 0x4e, null_out = fz_u8(in) == 0x4f;
    const char *name = midline ? "fathom_length_midline" : "fathom_length_mask";
    fathom_length r;
    fz_poison(&r, sizeof r);
    fathom_status s;
    size_t curve_count = 0;
    double *curve = NULL;
    if (!midline) {
        s = FZ(fathom_length_mask, &sc->frame, null_mask ? NULL : &sc->mask, with_options ? &o : NULL, null_out ? NULL : &r);
    } else {
        uint8_t ck = fz_u8(in);
        int with_curve = ck < 180;
        curve_count = ck < 150 ? 2 + fz_count(in, 62) : ck < 180 ? (size_t)(ck & 1) : ck < 200 ? 0 : fz_u64(in);
        size_t slots = with_curve ? (curve_count ? curve_count : 1) : 1;
        curve = malloc(slots * 3 * sizeof(double));
        if (!curve) abort();
        fz_poison(curve, slots * 3 * sizeof(double));
        s = FZ(fathom_length_midline, &sc->frame, null_mask ? NULL : &sc->mask, with_options ? &o : NULL,
               null_out ? NULL : &r, with_curve ? curve : NULL, curve_count);
        fz_untouched(s, name, curve, slots * 3 * sizeof(double));
        if (s == FATHOM_OK && with_curve) {
            if (curve_count < 2) fz_broken(name, "accepted curve_count < 2");
            for (size_t n = 0; n < curve_count * 3; n++)
                if (isnan(curve[n])) fz_broken(name, "a curve point is NaN");
        }
        if (!with_curve) curve_count = 0;
    }
    fz_untouched(s, name, &r, sizeof r);
    check_accepted(s, sc, name);
    if (s == FATHOM_OK) {
        if (null_mask || null_out) fz_broken(name, "accepted a NULL mask or out");
        if (!sc->mask_valid) fz_broken(name, "accepted an invalid mask");
        if (sc->mask_inside == 0) fz_broken(name, "measured an empty mask");
        check_length(name, &r, with_options ? &o : NULL, sc);
    }
    free(curve);
}

static void do_endpoints(fz_input *in, scene *sc) {
    uint8_t kind = fz_u8(in);
    int with_axis = kind & 1, null_end = kind == 255, null_mask = kind == 254;
    float e0[2], e1[2];
    fathom_line_fit axis;
    fz_poison(e0, sizeof e0);
    fz_poison(e1, sizeof e1);
    fz_poison(&axis, sizeof axis);
    fathom_status s = FZ(fathom_mask_endpoints, null_mask ? NULL : &sc->mask, e0, null_end ? NULL : e1,
                         with_axis ? &axis : NULL);
    fz_untouched(s, "fathom_mask_endpoints", e0, sizeof e0);
    fz_untouched(s, "fathom_mask_endpoints", e1, sizeof e1);
    fz_untouched(s, "fathom_mask_endpoints", &axis, sizeof axis);
    if (null_end || null_mask) {
        if (s == FATHOM_OK) fz_broken("fathom_mask_endpoints", "accepted a NULL pointer");
        return;
    }
    if (!sc->mask_valid) {
        if (s == FATHOM_OK) fz_broken("fathom_mask_endpoints", "accepted an invalid mask");
        return;
    }
    if (sc->mask_inside == 0 && s != FATHOM_ERR_NO_DATA) fz_broken("fathom_mask_endpoints", "an empty mask is not NO_DATA");
    if (sc->mask_inside == 1 && s != FATHOM_ERR_DEGENERATE) fz_broken("fathom_mask_endpoints", "one pixel is not DEGENERATE");
    if (sc->mask_inside >= 2 && s != FATHOM_OK) fz_broken("fathom_mask_endpoints", "failed on a mask of two or more pixels");
    if (s != FATHOM_OK) return;
    /* Both ends are the centres of inside pixels. */
    const float *ends[2] = {e0, e1};
    for (int e = 0; e < 2; e++) {
        float x = ends[e][0] - 0.5f, y = ends[e][1] - 0.5f;
        if (!(x >= 0 && y >= 0 && x < (float)sc->mask.width && y < (float)sc->mask.height) || x != floorf(x) ||
            y != floorf(y) || !mask_at(&sc->mask, sc->mask_stride, (uint32_t)x, (uint32_t)y))
            fz_broken("fathom_mask_endpoints", "an end is not the centre of an inside pixel");
    }
    if (with_axis) {
        double t0 = (e0[0] - axis.point[0]) * axis.direction[0] + (e0[1] - axis.point[1]) * axis.direction[1];
        double t1 = (e1[0] - axis.point[0]) * axis.direction[0] + (e1[1] - axis.point[1]) * axis.direction[1];
        if (!(t0 <= t1 + 1e-9)) fz_broken("fathom_mask_endpoints", "end0 does not have the smaller projection");
    }
}

/* NULL arguments of fathom_depth_frame_init, and queries on a NULL frame. */
static void do_nulls(fz_input *in, scene *sc) {
    fathom_depth_frame f;
    fathom_intrinsics k = sc->frame.intrinsics;
    fz_poison(&f, sizeof f);
    uint8_t which = fz_u8(in) % 4;
    fathom_status s;
    switch (which) {
    case 0:
        s = FZ(fathom_depth_frame_init, NULL, sc->frame.depth, sc->frame.format, 1, 1, &k);
        if (s == FATHOM_OK) fz_broken("fathom_depth_frame_init", "accepted a NULL frame");
        break;
    case 1:
        s = FZ(fathom_depth_frame_init, &f, sc->frame.depth, sc->frame.format, 1, 1, NULL);
        fz_untouched(s, "fathom_depth_frame_init", &f, sizeof f);
        if (s == FATHOM_OK) fz_broken("fathom_depth_frame_init", "accepted NULL intrinsics");
        break;
    case 2: {
        /* A NULL depth buffer is for the queries to refuse. */
        uint32_t format = fz_u32(in), width = fz_u32(in), height = fz_u32(in);
        s = FZ(fathom_depth_frame_init, &f, NULL, format, width, height, &k);
        if (s != FATHOM_OK) fz_broken("fathom_depth_frame_init", "refused a frame it promises to check nothing of");
        size_t count;
        fz_poison(&count, sizeof count);
        s = FZ(fathom_depth_count, &f, NULL, &count);
        fz_untouched(s, "fathom_depth_count", &count, sizeof count);
        if (s == FATHOM_OK) fz_broken("fathom_depth_count", "accepted a NULL depth buffer");
        break;
    }
    default: {
        size_t count;
        fz_poison(&count, sizeof count);
        s = FZ(fathom_depth_count, NULL, NULL, &count);
        fz_untouched(s, "fathom_depth_count", &count, sizeof count);
        if (s == FATHOM_OK) fz_broken("fathom_depth_count", "accepted a NULL frame");
        fathom_length r;
        fz_poison(&r, sizeof r);
        s = FZ(fathom_length_mask, NULL, &sc->mask, NULL, &r);
        fz_untouched(s, "fathom_length_mask", &r, sizeof r);
        if (s == FATHOM_OK) fz_broken("fathom_length_mask", "accepted a NULL frame");
        s = FZ(fathom_length_options_init, NULL);
        if (s == FATHOM_OK) fz_broken("fathom_length_options_init", "accepted NULL");
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    scene sc;
    build_scene(&in, &sc);
    size_t steps = 1 + fz_count(&in, MAX_STEPS - 1);
    for (size_t n = 0; n < steps; n++) {
        switch (fz_u8(&in) % 12) {
        case 0: do_count(&in, &sc); break;
        case 1: do_backproject(&in, &sc); break;
        case 2: do_sample(&in, &sc, 0); break;
        case 3: do_sample(&in, &sc, 1); break;
        case 4: do_keypoints(&in, &sc); break;
        case 5: do_polyline(&in, &sc); break;
        case 6: case 7: do_mask_length(&in, &sc, 0); break;
        case 8: case 9: do_mask_length(&in, &sc, 1); break;
        case 10: do_endpoints(&in, &sc); break;
        default: do_nulls(&in, &sc); break;
        }
    }
    free(sc.depth_block);
    free(sc.confidence);
    free(sc.mask_data);
    return 0;
}
