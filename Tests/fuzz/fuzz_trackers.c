/* Fuzz target: the capture-guidance handles fed with sequences of poses and frames (fathom_coverage_*,
 * fathom_motion_*, fathom_capture_* and the fathom_report_* of a capture). Each input drives one handle through
 * up to 32 steps: mostly a camera orbiting a box on a floor (rigid poses looking at it, depth maps ray-cast from
 * that scene), with far, NaN and non-rigid poses and timestamps out of order, equal or huge mixed in.
 * Batches run beside a twin handle fed the same views one at a time: the header promises the same results.
 * After every failed call that takes a handle, the handle's getters must report what they did before. */
#define _DEFAULT_SOURCE
#include "fuzz.h"
#include "fuzz_files.h"

#include <unistd.h>

#define MAX_STEPS 32
#define MAX_BATCH 24

static float near_float(float a, float b) { return fabsf(a - b) <= 1e-6f * fabsf(b); }

/* ---------------------------------------------------------------------------------------------- */
/* Scene: a box on a floor, cameras around it                                                      */
/* ---------------------------------------------------------------------------------------------- */

typedef struct world {
    fathom_vec3 target;     /* what the cameras look at: the object's centre */
    fathom_vec3 half;       /* the object's half extents (axis-aligned, standing on the floor) */
    float floor_y;
    float radius, height;   /* orbit */
    float angle;            /* current orbit angle */
    int64_t time;           /* last timestamp handed out */
    int have_time;
} world;

static fathom_vec3 v3(float x, float y, float z) {
    fathom_vec3 v = {x, y, z};
    return v;
}

static fathom_vec3 vsub(fathom_vec3 a, fathom_vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }

static fathom_vec3 vcross(fathom_vec3 a, fathom_vec3 b) {
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static int vnormalize(fathom_vec3 *v) {
    float n = sqrtf(v->x * v->x + v->y * v->y + v->z * v->z);
    if (!(n > 1e-6f) || !isfinite(n)) return 0;
    v->x /= n; v->y /= n; v->z /= n;
    return 1;
}

static fathom_pose identity_pose(void) {
    fathom_pose p;
    memset(&p, 0, sizeof p);
    p.m[0] = p.m[5] = p.m[10] = p.m[15] = 1;
    return p;
}

/* An ARKit camera (x right, y up, looking along -z) at `eye` looking at `at`. */
static fathom_pose look_at(fathom_vec3 eye, fathom_vec3 at) {
    fathom_vec3 f = vsub(at, eye), up = v3(0, 1, 0);
    fathom_pose p = identity_pose();
    if (!vnormalize(&f)) f = v3(0, 0, -1);
    fathom_vec3 right = vcross(f, up);
    if (!vnormalize(&right)) right = v3(1, 0, 0);
    fathom_vec3 cup = vcross(right, f);
    p.m[0] = right.x; p.m[1] = right.y; p.m[2] = right.z;
    p.m[4] = cup.x; p.m[5] = cup.y; p.m[6] = cup.z;
    p.m[8] = -f.x; p.m[9] = -f.y; p.m[10] = -f.z;
    p.m[12] = eye.x; p.m[13] = eye.y; p.m[14] = eye.z;
    return p;
}

static void make_world(fz_input *in, world *w) {
    memset(w, 0, sizeof *w);
    w->floor_y = (int8_t)fz_u8(in) / 64.0f;
    /* One read per statement: the order of a call's arguments is unspecified (gcc and clang differ). */
    w->half.x = 0.05f + fz_u8(in) / 512.0f;
    w->half.y = 0.05f + fz_u8(in) / 512.0f;
    w->half.z = 0.05f + fz_u8(in) / 512.0f;
    w->target.x = (int8_t)fz_u8(in) / 32.0f;
    w->target.y = w->floor_y + w->half.y;
    w->target.z = (int8_t)fz_u8(in) / 32.0f;
    w->radius = 0.2f + fz_u8(in) / 128.0f;
    w->height = (int8_t)fz_u8(in) / 128.0f;
    w->angle = fz_u8(in) * (FZ_PI_F / 128);
}

/* The next camera pose: mostly the orbit moved on by a small step, sometimes any pose, far away, NaN, or a
 * rigid pose bent a little out of rigid. */
static fathom_pose next_pose(fz_input *in, world *w) {
    uint8_t kind = fz_u8(in);
    if (kind < 170) {
        w->angle += (int8_t)fz_u8(in) / 512.0f;
        float r = w->radius * (1 + (int8_t)fz_u8(in) / 1024.0f);
        fathom_vec3 eye = v3(w->target.x + r * cosf(w->angle), w->target.y + w->height + (int8_t)fz_u8(in) / 2048.0f,
                             w->target.z + r * sinf(w->angle));
        fathom_vec3 at = v3(w->target.x + (int8_t)fz_u8(in) / 1024.0f, w->target.y, w->target.z);
        return look_at(eye, at);
    }
    if (kind < 200) return fz_pose(in);
    fathom_pose p = look_at(v3(w->target.x + w->radius, w->target.y, w->target.z), w->target);
    if (kind < 215) {
        p.m[12] = fz_float(in); /* far away, or NaN */
        p.m[13] = fz_float(in);
        p.m[14] = fz_float(in);
    } else if (kind < 235) {
        int index = fz_u8(in) % 16;
        p.m[index] += fz_u8(in) < 128 ? 1e-4f * (int8_t)fz_u8(in) : fz_float(in); /* slightly off, or way off */
    } else {
        p.m[fz_u8(in) % 16] = NAN;
    }
    return p;
}

/* The next timestamp (nanoseconds): mostly a frame later, sometimes equal, earlier, a long gap, an extreme. */
static int64_t next_time(fz_input *in, world *w) {
    uint8_t kind = fz_u8(in);
    uint64_t last = (uint64_t)w->time, t;
    if (!w->have_time) last = (uint64_t)(int64_t)((int8_t)fz_u8(in)) * 1000000000u;
    if (kind < 170) t = last + 16666667u / 4 * (1 + fz_u8(in) % 16);
    else if (kind < 190) t = last;
    else if (kind < 205) t = last - 1 - fz_u8(in) * 1000000u;
    else if (kind < 225) t = last + ((uint64_t)1 << (fz_u8(in) % 63));
    else if (kind < 235) t = kind & 1 ? (uint64_t)INT64_MAX - fz_u8(in) : (uint64_t)INT64_MIN + fz_u8(in);
    else t = fz_u64(in);
    int64_t value;
    memcpy(&value, &t, sizeof value);
    w->time = value;
    w->have_time = 1;
    return value;
}

static fathom_intrinsics camera_intrinsics(fz_input *in) {
    uint8_t kind = fz_u8(in);
    if (kind >= 230) return fz_intrinsics(in);
    fathom_intrinsics k;
    k.width = 64 + (uint32_t)(fz_u8(in) % 8) * 64;
    k.height = k.width * 3 / 4;
    k.fx = k.fy = k.width * (0.5f + fz_u8(in) / 256.0f);
    k.cx = k.width / 2.0f;
    k.cy = k.height / 2.0f;
    return k;
}

static fathom_box fuzz_box(fz_input *in, const world *w) {
    fathom_box b;
    uint8_t kind = fz_u8(in);
    fathom_vec3 scale = v3(2 * w->half.x, 2 * w->half.y, 2 * w->half.z);
    fathom_vec3 center = w->target;
    float rot = 0;
    if (kind >= 160) {
        center = fz_vec3(in);
        scale = fz_vec3(in);
        rot = fz_float(in);
    } else if (kind >= 100) {
        rot = fz_u8(in) / 40.0f;
        scale.x *= 1 + (int8_t)fz_u8(in) / 256.0f;
    }
    if (FZ(fathom_box_init, center, scale, rot, &b) != FATHOM_OK) {
        b.center = center;
        b.scale = scale;
        b.rot_y = rot;
        b.floor = 0;
        b.has_floor = 0;
    }
    uint8_t floor = fz_u8(in);
    if (floor < 100) {
        if (FZ(fathom_box_set_floor, &b, floor < 80 ? w->floor_y : fz_float(in)) != FATHOM_OK) b.has_floor = 0;
    } else if (floor >= 250) {
        /* has_floor's byte: 0 or 1, or (as memcpy can leave it) another, which is refused. */
        fz_set_bool_byte(&b.has_floor, fz_bool_byte_of(fz_u32(in)));
        b.floor = fz_float(in);
    }
    return b;
}

/* ---------------------------------------------------------------------------------------------- */
/* Coverage                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static void coverage_options(fz_input *in, fathom_coverage_options *o) {
    fz_poison(o, sizeof *o);
    if (FZ(fathom_coverage_options_init, o) != FATHOM_OK) fz_broken("fathom_coverage_options_init", "failed");
    if (o->goal != 10 || o->cells != 4 || o->rings != 4 || o->sectors != 12 || o->hemisphere != -1 ||
        o->exclude_bottom != -1 || o->min_distance != 0 || o->max_distance != INFINITY || o->min_in_view != 0 ||
        !near_float(o->min_separation_angle, 5 * FZ_PI_F / 180) || !near_float(o->min_separation_distance, 0.1f) ||
        !fz_all_zero(o->reserved, sizeof o->reserved))
        fz_broken("fathom_coverage_options_init", "the defaults are not the documented ones");
    uint8_t fields = fz_u8(in);
    if (fields & 1) o->goal = fz_u8(in) < 240 ? fz_u8(in) % 12 : fz_u32(in);
    if (fields & 2) o->cells = fz_u8(in) < 240 ? fz_u8(in) % 66 : fz_u32(in);
    if (fields & 4) {
        uint8_t k = fz_u8(in);
        if (k < 200) {
            o->rings = 1 + fz_u8(in) % 16;
            o->sectors = 1 + fz_u8(in) % 32;
        } else if (k < 240) {
            o->rings = 1 + fz_u8(in) % 256; /* up to 4096 bins, or past it */
            o->sectors = 1 + fz_u8(in) % 256;
        } else {
            o->rings = fz_u32(in);
            o->sectors = fz_u32(in);
        }
    }
    if (fields & 8) {
        o->hemisphere = (int32_t)(fz_u8(in) % 4) - 1;
        o->exclude_bottom = (int32_t)(fz_u8(in) % 4) - 1;
        uint8_t odd = fz_u8(in);
        if (odd == 255) o->hemisphere = (int32_t)fz_u32(in);
        if (odd == 254) { /* a reserved word: refused unless 0 (one read per statement) */
            size_t word = fz_u8(in) % (sizeof o->reserved / sizeof o->reserved[0]);
            o->reserved[word] = fz_u32(in);
        }
    }
    if (fields & 16) {
        o->min_distance = fz_u8(in) < 200 ? fz_u8(in) / 256.0f : fz_float(in);
        o->max_distance = fz_u8(in) < 200 ? o->min_distance + fz_u8(in) / 64.0f : fz_float(in);
    }
    if (fields & 32) o->min_in_view = fz_u8(in) < 200 ? fz_u8(in) / 200.0f : fz_float(in);
    if (fields & 64) o->min_separation_angle = fz_u8(in) < 200 ? fz_u8(in) / 512.0f : fz_float(in);
    if (fields & 128) o->min_separation_distance = fz_u8(in) < 200 ? fz_u8(in) / 512.0f : fz_float(in);
}

static void coverage_summary(const fathom_coverage *c, fathom_coverage_summary *s) {
    fz_poison(s, sizeof *s);
    if (FZ(fathom_coverage_get_summary, c, s) != FATHOM_OK) fz_broken("fathom_coverage_get_summary", "failed on a tracker");
    if (fz_bool_byte(&s->complete) > 1) fz_broken("fathom_coverage_get_summary", "complete is neither false (0) nor true (1)");
    if (!fz_all_zero(s->reserved, sizeof s->reserved)) fz_broken("fathom_coverage_get_summary", "the reserved words are not 0");
}

/* The same summary, field by field and bit for bit (it has padding after `complete`, which memcmp would compare). */
static int same_coverage_summary(const fathom_coverage_summary *a, const fathom_coverage_summary *b) {
    return a->views == b->views && a->counted == b->counted && a->faces_complete == b->faces_complete &&
           a->faces_needed == b->faces_needed && fz_bool_byte(&a->complete) == fz_bool_byte(&b->complete) &&
           memcmp(&a->angular_score, &b->angular_score, sizeof a->angular_score) == 0 &&
           memcmp(a->reserved, b->reserved, sizeof a->reserved) == 0;
}

/* The same face coverage, field by field and bit for bit (it has padding after `needed`). */
static int same_face_coverage(const fathom_face_coverage *a, const fathom_face_coverage *b) {
    return a->count == b->count && memcmp(&a->progress, &b->progress, sizeof a->progress) == 0 &&
           memcmp(a->color, b->color, sizeof a->color) == 0 && memcmp(&a->opacity, &b->opacity, sizeof a->opacity) == 0 &&
           a->complete == b->complete && fz_bool_byte(&a->needed) == fz_bool_byte(&b->needed);
}

static void coverage_same(const fathom_coverage *c, const fathom_coverage_summary *before, const char *function) {
    fathom_coverage_summary after;
    coverage_summary(c, &after);
    if (!same_coverage_summary(before, &after)) fz_broken(function, "a failed call changed the tracker's summary");
}

/* What the header says the numbers of a tracker satisfy. */
static void coverage_consistent(const fathom_coverage *c, uint32_t cells, uint32_t bins, uint32_t goal) {
    fathom_coverage_summary s;
    coverage_summary(c, &s);
    if (s.counted > s.views || (s.faces_needed != 5 && s.faces_needed != 6) || s.faces_complete > s.faces_needed ||
        s.complete != (s.faces_complete == s.faces_needed) || !(s.angular_score >= 0 && s.angular_score <= 1))
        fz_broken("fathom_coverage_get_summary", "the summary is inconsistent");
    uint64_t face_total = 0, needed = 0, complete = 0;
    uint32_t *counts = malloc(sizeof(uint32_t) * (cells * cells > bins ? cells * cells : bins));
    if (!counts) abort();
    for (uint32_t f = 0; f < 6; f++) {
        fathom_face_coverage fc;
        fz_poison(&fc, sizeof fc);
        if (FZ(fathom_coverage_face, c, f, &fc) != FATHOM_OK) fz_broken("fathom_coverage_face", "failed on a face");
        if (fz_bool_byte(&fc.needed) > 1) fz_broken("fathom_coverage_face", "needed is neither false (0) nor true (1)");
        face_total += fc.count;
        needed += fc.needed;
        complete += fc.needed && fc.complete;
        float progress = fc.count >= goal ? 1.0f : (float)fc.count / (float)goal;
        if (fc.complete != (fc.count >= goal) || fabsf(fc.progress - progress) > 1e-6f ||
            fabsf(fc.opacity - (progress < 1 ? 0.25f + 0.5f * progress : 0.0f)) > 1e-6f ||
            fabsf(fc.color[0] - (1 - progress)) > 1e-6f || fabsf(fc.color[1] - 1) > 1e-6f ||
            fabsf(fc.color[2] - progress) > 1e-6f)
            fz_broken("fathom_coverage_face", "count, progress, colour, opacity and complete disagree");
        fz_poison(counts, sizeof(uint32_t) * cells * cells);
        if (FZ(fathom_coverage_cells, c, f, counts, cells * cells) != FATHOM_OK) fz_broken("fathom_coverage_cells", "failed");
        uint64_t sum = 0;
        for (uint32_t k = 0; k < cells * cells; k++) sum += counts[k];
        if (sum != fc.count) fz_broken("fathom_coverage_cells", "a face's cells do not add up to its count");
    }
    if (face_total != s.counted) fz_broken("fathom_coverage_face", "the faces' counts do not add up to the counted views");
    if (needed != s.faces_needed || complete != s.faces_complete)
        fz_broken("fathom_coverage_get_summary", "faces_needed / faces_complete disagree with the faces");
    fz_poison(counts, sizeof(uint32_t) * bins);
    if (FZ(fathom_coverage_bins, c, counts, NULL, bins) != FATHOM_OK) fz_broken("fathom_coverage_bins", "failed");
    uint64_t sum = 0, filled = 0;
    for (uint32_t k = 0; k < bins; k++) { sum += counts[k]; filled += counts[k] > 0; }
    if (sum != s.counted) fz_broken("fathom_coverage_bins", "the bins do not add up to the counted views");
    if (fabsf(s.angular_score - (float)filled / (float)bins) > 1e-6f)
        fz_broken("fathom_coverage_get_summary", "angular_score is not the fraction of filled bins");
    free(counts);
}

/* Two trackers agree on everything (a batch's and its twin's fed one view at a time). */
static void coverage_twins(const fathom_coverage *a, const fathom_coverage *b, uint32_t cells, uint32_t bins) {
    fathom_coverage_summary sa, sb;
    coverage_summary(a, &sa);
    coverage_summary(b, &sb);
    if (!same_coverage_summary(&sa, &sb)) fz_broken("fathom_coverage_record_batch", "the summary differs from single records'");
    size_t n = cells * cells > bins ? cells * cells : bins;
    uint32_t *ca = malloc(n * sizeof *ca), *cb = malloc(n * sizeof *cb);
    if (!ca || !cb) abort();
    for (uint32_t f = 0; f < 6; f++) {
        fathom_face_coverage fa, fb;
        fz_poison(&fa, sizeof fa);
        fz_poison(&fb, sizeof fb);
        FZ(fathom_coverage_face, a, f, &fa);
        FZ(fathom_coverage_face, b, f, &fb);
        if (!same_face_coverage(&fa, &fb)) fz_broken("fathom_coverage_record_batch", "a face differs from single records'");
        FZ(fathom_coverage_cells, a, f, ca, cells * cells);
        FZ(fathom_coverage_cells, b, f, cb, cells * cells);
        if (memcmp(ca, cb, cells * cells * sizeof *ca) != 0)
            fz_broken("fathom_coverage_record_batch", "the cells differ from single records'");
    }
    FZ(fathom_coverage_bins, a, ca, NULL, bins);
    FZ(fathom_coverage_bins, b, cb, NULL, bins);
    if (memcmp(ca, cb, bins * sizeof *ca) != 0) fz_broken("fathom_coverage_record_batch", "the bins differ from single records'");
    free(ca);
    free(cb);
}

static void check_view(const fathom_view_result *r, uint32_t cells, uint32_t bins, const char *function) {
    if (r->status > FATHOM_VIEW_TOO_SIMILAR || (r->face > 5 && r->face != FATHOM_NO_HIT) ||
        (r->face != FATHOM_NO_HIT && r->cell >= cells * cells) || r->bin >= bins ||
        (r->completed_face > 5 && r->completed_face != FATHOM_NO_HIT) ||
        (r->status == FATHOM_VIEW_COUNTED && r->face == FATHOM_NO_HIT) ||
        (r->status == FATHOM_VIEW_MISSED && r->distance != 0) ||
        (r->completed_face != FATHOM_NO_HIT && (r->status != FATHOM_VIEW_COUNTED || r->completed_face != r->face)))
        fz_broken(function, "a view result outside its documented values");
}

static void run_coverage(fz_input *in) {
    world w;
    make_world(in, &w);
    fathom_coverage_options o;
    coverage_options(in, &o);
    int with_options = fz_u8(in) >= 20;
    fathom_box box = fuzz_box(in, &w);
    uint8_t nulls = fz_u8(in);
    fathom_coverage *c, *twin = NULL;
    fz_poison(&c, sizeof c);
    fathom_status s = FZ(fathom_coverage_create, nulls == 0x4e ? NULL : &box, with_options ? &o : NULL,
                         nulls == 0x4f ? NULL : &c);
    fz_untouched(s, "fathom_coverage_create", &c, sizeof c);
    if (s != FATHOM_OK) return;
    if (nulls == 0x4e || nulls == 0x4f) fz_broken("fathom_coverage_create", "accepted a NULL pointer");
    if (FZ(fathom_coverage_create, &box, with_options ? &o : NULL, &twin) != FATHOM_OK)
        fz_broken("fathom_coverage_create", "refused what it accepted a moment ago");
    fathom_coverage_options used;
    if (with_options) used = o; else FZ(fathom_coverage_options_init, &used);
    uint32_t cells = used.cells, bins = used.rings * used.sectors, goal = used.goal;
    if (goal < 1 || cells < 1 || cells > 64 || used.rings < 1 || used.rings > 256 || used.sectors < 1 || used.sectors > 256 ||
        bins > 4096 || used.hemisphere < -1 || used.hemisphere > 1 || used.exclude_bottom < -1 || used.exclude_bottom > 1 ||
        !(used.min_distance >= 0) || !isfinite(used.min_distance) || !(used.max_distance >= used.min_distance) ||
        !(used.min_in_view >= 0 && used.min_in_view <= 1) || !(used.min_separation_angle >= 0) ||
        !isfinite(used.min_separation_angle) || !(used.min_separation_distance >= 0) || !isfinite(used.min_separation_distance) ||
        !fz_all_zero(used.reserved, sizeof used.reserved))
        fz_broken("fathom_coverage_create", "accepted options outside their ranges (or a reserved word set)");
    if (fz_bool_byte(&box.has_floor) > 1) fz_broken("fathom_coverage_create", "accepted a box whose has_floor is not 0 or 1");
    fathom_intrinsics k = camera_intrinsics(in);
    size_t steps = 1 + fz_count(in, MAX_STEPS - 1);
    for (size_t n = 0; n < steps; n++) {
        fathom_coverage_summary before;
        coverage_summary(c, &before);
        uint8_t op = fz_u8(in);
        switch (op % 10) {
        case 0: case 1: case 2: { /* one view, on both */
            fathom_pose pose = next_pose(in, &w);
            uint8_t args = fz_u8(in);
            const fathom_intrinsics *kp = args & 1 ? &k : NULL;
            fathom_view_result r, r2;
            fz_poison(&r, sizeof r);
            s = FZ(fathom_coverage_record, args == 0x4e ? NULL : c, args == 0x4f ? NULL : &pose, kp, args & 2 ? NULL : &r);
            fz_untouched(s, "fathom_coverage_record", &r, sizeof r);
            if (args == 0x4e) { if (s == FATHOM_OK) fz_broken("fathom_coverage_record", "accepted a NULL tracker"); break; }
            if (args == 0x4f) { if (s == FATHOM_OK) fz_broken("fathom_coverage_record", "accepted a NULL pose"); break; }
            fathom_status s2 = FZ(fathom_coverage_record, twin, &pose, kp, &r2);
            if (s != s2) fz_broken("fathom_coverage_record", "the same view recorded differently");
            if (s != FATHOM_OK) { coverage_same(c, &before, "fathom_coverage_record"); break; }
            check_view(&r2, cells, bins, "fathom_coverage_record");
            if (!(args & 2) && memcmp(&r, &r2, sizeof r) != 0) fz_broken("fathom_coverage_record", "the same view gave two results");
            fathom_coverage_summary after;
            coverage_summary(c, &after);
            if (after.views != before.views + 1 || after.counted != before.counted + (r2.status == FATHOM_VIEW_COUNTED))
                fz_broken("fathom_coverage_record", "views / counted did not move by the view");
            break;
        }
        case 3: case 4: { /* a batch, and the same views one by one on the twin */
            size_t count = fz_u8(in) < 250 ? 1 + fz_count(in, MAX_BATCH - 1) : 0;
            fathom_pose poses[MAX_BATCH];
            fathom_view_result out[MAX_BATCH], single[MAX_BATCH];
            for (size_t i = 0; i < count; i++) poses[i] = next_pose(in, &w);
            uint8_t args = fz_u8(in);
            const fathom_intrinsics *kp = args & 1 ? &k : NULL;
            fz_poison(out, sizeof out);
            s = FZ(fathom_coverage_record_batch, c, args == 0x4f ? NULL : poses, count, kp, args & 2 ? NULL : out);
            if (args == 0x4f || count == 0) {
                if (s == FATHOM_OK) fz_broken("fathom_coverage_record_batch", "accepted no poses");
                fz_untouched(s, "fathom_coverage_record_batch", out, sizeof out);
                coverage_same(c, &before, "fathom_coverage_record_batch");
                break;
            }
            size_t done = 0;
            fathom_status s2 = FATHOM_OK;
            for (; done < count; done++) {
                s2 = FZ(fathom_coverage_record, twin, &poses[done], kp, &single[done]);
                if (s2 != FATHOM_OK) break;
            }
            if ((s == FATHOM_OK) != (s2 == FATHOM_OK))
                fz_broken("fathom_coverage_record_batch", "succeeded or failed where single records do not");
            if (!(args & 2)) {
                if (memcmp(out, single, done * sizeof out[0]) != 0)
                    fz_broken("fathom_coverage_record_batch", "the results differ from single records'");
                fz_untouched(FATHOM_ERR_OUT_OF_RANGE, "fathom_coverage_record_batch", out + done, (MAX_BATCH - done) * sizeof out[0]);
            }
            coverage_twins(c, twin, cells, bins);
            fathom_coverage_summary after;
            coverage_summary(c, &after);
            if (after.views != before.views + done) fz_broken("fathom_coverage_record_batch", "views did not move by the views recorded");
            break;
        }
        case 5: { /* the getters with short capacities and bad faces */
            uint32_t face = fz_u8(in) < 240 ? fz_u8(in) % 6 : fz_u32(in);
            fathom_face_coverage fc;
            fz_poison(&fc, sizeof fc);
            s = FZ(fathom_coverage_face, c, face, &fc);
            fz_untouched(s, "fathom_coverage_face", &fc, sizeof fc);
            if ((s == FATHOM_OK) != (face < 6)) fz_broken("fathom_coverage_face", "face index and status disagree");
            size_t want = (size_t)cells * cells, cap = fz_u8(in) < 128 ? fz_count(in, want) : want;
            uint32_t *counts = malloc((cap ? cap : 1) * sizeof *counts);
            if (!counts) abort();
            fz_poison(counts, (cap ? cap : 1) * sizeof *counts);
            s = FZ(fathom_coverage_cells, c, face, cap || fz_u8(in) & 1 ? counts : NULL, cap);
            fz_untouched(s, "fathom_coverage_cells", counts, (cap ? cap : 1) * sizeof *counts);
            if (s == FATHOM_OK && (cap < want || face >= 6)) fz_broken("fathom_coverage_cells", "accepted a short buffer or a bad face");
            free(counts);
            cap = fz_u8(in) < 128 ? fz_count(in, bins) : bins;
            counts = malloc((cap ? cap : 1) * sizeof *counts);
            float *directions = malloc((cap ? cap : 1) * 3 * sizeof *directions);
            if (!counts || !directions) abort();
            fz_poison(counts, (cap ? cap : 1) * sizeof *counts);
            fz_poison(directions, (cap ? cap : 1) * 3 * sizeof *directions);
            int with_directions = fz_u8(in) & 1;
            s = FZ(fathom_coverage_bins, c, cap || fz_u8(in) & 1 ? counts : NULL, with_directions ? directions : NULL, cap);
            fz_untouched(s, "fathom_coverage_bins", counts, (cap ? cap : 1) * sizeof *counts);
            fz_untouched(s, "fathom_coverage_bins", directions, (cap ? cap : 1) * 3 * sizeof *directions);
            if (s == FATHOM_OK && cap < bins) fz_broken("fathom_coverage_bins", "accepted a short buffer");
            if (s == FATHOM_OK && with_directions)
                for (uint32_t b = 0; b < bins; b++) {
                    float *d = &directions[3 * b];
                    if (!(fabsf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - 1) < 1e-4f))
                        fz_broken("fathom_coverage_bins", "a bin direction is not unit");
                    if (used.hemisphere == 1 && d[1] < -1e-6f) fz_broken("fathom_coverage_bins", "a hemisphere bin points down");
                }
            free(counts);
            free(directions);
            if (s != FATHOM_OK) coverage_same(c, &before, "fathom_coverage_bins");
            break;
        }
        case 6: { /* where to go next */
            float distance = fz_u8(in) < 100 ? 0 : fz_float(in);
            fathom_vec3 dir, pos;
            fz_poison(&dir, sizeof dir);
            fz_poison(&pos, sizeof pos);
            uint8_t args = fz_u8(in);
            s = FZ(fathom_coverage_next_view, c, distance, args == 0x4e ? NULL : &dir, args == 0x4f ? NULL : &pos);
            fz_untouched(s, "fathom_coverage_next_view", &dir, sizeof dir);
            fz_untouched(s, "fathom_coverage_next_view", &pos, sizeof pos);
            if (s == FATHOM_OK) {
                if (args == 0x4e || args == 0x4f) fz_broken("fathom_coverage_next_view", "accepted a NULL output");
                if (!isfinite(distance) || (distance <= 0 && before.counted == 0))
                    fz_broken("fathom_coverage_next_view", "a position without a finite distance or a counted view");
                if (!(fabsf(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z - 1) < 1e-4f))
                    fz_broken("fathom_coverage_next_view", "the direction is not unit");
            } else {
                if (isfinite(distance) && distance > 0 && args != 0x4e && args != 0x4f)
                    fz_broken("fathom_coverage_next_view", "failed with a distance given");
                coverage_same(c, &before, "fathom_coverage_next_view");
            }
            break;
        }
        case 7: /* reset both */
            if (fz_u8(in) == 0x4e) {
                if (FZ(fathom_coverage_reset, NULL) == FATHOM_OK) fz_broken("fathom_coverage_reset", "accepted NULL");
                break;
            }
            if (FZ(fathom_coverage_reset, c) != FATHOM_OK || FZ(fathom_coverage_reset, twin) != FATHOM_OK)
                fz_broken("fathom_coverage_reset", "failed");
            {
                fathom_coverage_summary after;
                coverage_summary(c, &after);
                if (after.views != 0 || after.counted != 0 || after.faces_complete != 0 || after.angular_score != 0)
                    fz_broken("fathom_coverage_reset", "views remain after a reset");
            }
            break;
        case 8: { /* NULL and bad arguments to the getters */
            fathom_coverage_summary sum;
            fz_poison(&sum, sizeof sum);
            s = FZ(fathom_coverage_get_summary, NULL, &sum);
            fz_untouched(s, "fathom_coverage_get_summary", &sum, sizeof sum);
            if (s == FATHOM_OK || FZ(fathom_coverage_get_summary, c, NULL) == FATHOM_OK)
                fz_broken("fathom_coverage_get_summary", "accepted NULL");
            fathom_view_result r;
            fathom_pose pose = next_pose(in, &w);
            fz_poison(&r, sizeof r);
            s = FZ(fathom_coverage_record_batch, NULL, &pose, 1, NULL, &r);
            fz_untouched(s, "fathom_coverage_record_batch", &r, sizeof r);
            if (s == FATHOM_OK) fz_broken("fathom_coverage_record_batch", "accepted a NULL tracker");
            /* A count whose byte size overflows (with no buffer: the header promises no overflow error here). */
            s = FZ(fathom_coverage_record_batch, c, NULL, SIZE_MAX - fz_u8(in), NULL, NULL);
            if (s == FATHOM_OK) fz_broken("fathom_coverage_record_batch", "accepted an overflowing count");
            coverage_same(c, &before, "fathom_coverage_record_batch");
            break;
        }
        default:
            coverage_consistent(c, cells, bins, goal);
            break;
        }
    }
    coverage_consistent(c, cells, bins, goal);
    coverage_twins(c, twin, cells, bins);
    fathom_coverage_destroy(c);
    fathom_coverage_destroy(twin);
    fathom_coverage_destroy(NULL);
}

/* ---------------------------------------------------------------------------------------------- */
/* Motion                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

static void motion_options(fz_input *in, fathom_motion_options *o) {
    fz_poison(o, sizeof *o);
    if (FZ(fathom_motion_options_init, o) != FATHOM_OK) fz_broken("fathom_motion_options_init", "failed");
    if (o->time_constant != 0 || !near_float(o->slow_speed, 0.127f) || !near_float(o->brisk_speed, 0.2032f) ||
        !near_float(o->fast_speed, 0.254f) || !near_float(o->slightly, 0.2f) || !near_float(o->max_gap, 0.5f) ||
        o->intervals[0] != 1 || o->intervals[1] != 2 || o->intervals[2] != 3 || !fz_all_zero(o->reserved, sizeof o->reserved))
        fz_broken("fathom_motion_options_init", "the defaults are not the documented ones");
    uint8_t fields = fz_u8(in);
    if (fields & 1) o->time_constant = fz_u8(in) < 200 ? fz_u8(in) / 256.0f : fz_float(in);
    if (fields & 2) {
        o->slow_speed = fz_u8(in) < 200 ? fz_u8(in) / 512.0f : fz_float(in);
        o->brisk_speed = fz_u8(in) < 200 ? o->slow_speed + fz_u8(in) / 512.0f : fz_float(in);
        o->fast_speed = fz_u8(in) < 200 ? o->brisk_speed + fz_u8(in) / 512.0f : fz_float(in);
    }
    if (fields & 4) o->slightly = fz_u8(in) < 200 ? fz_u8(in) / 256.0f : fz_float(in);
    if (fields & 8) o->max_gap = fz_u8(in) < 200 ? fz_u8(in) / 128.0f : fz_float(in);
    if (fields & 16)
        for (int i = 0; i < 3; i++) o->intervals[i] = fz_u8(in) < 200 ? fz_u8(in) / 32.0f : fz_float(in);
    if (fields & 32) { /* a reserved word: refused unless 0 (one read per statement) */
        size_t word = fz_u8(in) % (sizeof o->reserved / sizeof o->reserved[0]);
        o->reserved[word] = fz_u32(in);
    }
}

static int motion_options_valid(const fathom_motion_options *o) {
    return isfinite(o->time_constant) && o->time_constant >= 0 && isfinite(o->slow_speed) && o->slow_speed > 0 &&
           isfinite(o->brisk_speed) && isfinite(o->fast_speed) && o->slow_speed <= o->brisk_speed &&
           o->brisk_speed <= o->fast_speed && isfinite(o->slightly) && o->slightly >= 0 && o->slightly < 1 &&
           isfinite(o->max_gap) && o->max_gap > 0 && isfinite(o->intervals[0]) && o->intervals[0] > 0 &&
           isfinite(o->intervals[1]) && o->intervals[1] > 0 && isfinite(o->intervals[2]) && o->intervals[2] > 0 &&
           fz_all_zero(o->reserved, sizeof o->reserved);
}

static int same_state(const fathom_motion_state *a, const fathom_motion_state *b) {
    return a->timestamp == b->timestamp && fz_same_float(a->velocity.x, b->velocity.x) && fz_same_float(a->velocity.y, b->velocity.y) &&
           fz_same_float(a->velocity.z, b->velocity.z) && fz_same_float(a->speed, b->speed) &&
           fz_same_float(a->angular_speed, b->angular_speed) && a->guidance == b->guidance &&
           fz_same_float(a->capture_interval, b->capture_interval) && fz_same_float(a->time_to_capture, b->time_to_capture) &&
           a->captured == b->captured && a->skipped == b->skipped && a->restarted == b->restarted;
}

/* The state's flags as the library wrote them: each byte 0 or 1 (checked before any is read as a bool). */
static void state_flags(const fathom_motion_state *s, const char *function) {
    if (fz_bool_byte(&s->captured) > 1 || fz_bool_byte(&s->skipped) > 1 || fz_bool_byte(&s->restarted) > 1)
        fz_broken(function, "a flag of the state is neither false (0) nor true (1)");
}

static void motion_state(const fathom_motion *m, fathom_motion_state *s) {
    fz_poison(s, sizeof *s);
    if (FZ(fathom_motion_get_state, m, s) != FATHOM_OK) fz_broken("fathom_motion_get_state", "failed on a tracker");
    state_flags(s, "fathom_motion_get_state");
}

/* The header's rules for a state after an accepted pose. */
static void check_state(const fathom_motion_state *s, const fathom_motion_options *o, const char *function) {
    state_flags(s, function);
    if (s->guidance > FATHOM_GUIDANCE_TOO_FAST) fz_broken(function, "a state outside its documented values");
    if (!fz_same_float(s->capture_interval, o->intervals[0]) && !fz_same_float(s->capture_interval, o->intervals[1]) &&
        !fz_same_float(s->capture_interval, o->intervals[2]))
        fz_broken(function, "capture_interval is none of the intervals");
    float v = s->speed, slow = o->slow_speed, fast = o->fast_speed;
    int ok = 1;
    switch (s->guidance) {
    case FATHOM_GUIDANCE_TOO_SLOW: ok = v < slow; break;
    case FATHOM_GUIDANCE_SLIGHTLY_SLOW: ok = slow <= v && v < slow * (1 + o->slightly); break;
    case FATHOM_GUIDANCE_OK: ok = slow * (1 + o->slightly) <= v && v <= fast * (1 - o->slightly); break;
    case FATHOM_GUIDANCE_SLIGHTLY_FAST: ok = fast * (1 - o->slightly) < v && v <= fast; break;
    case FATHOM_GUIDANCE_TOO_FAST: ok = v > fast; break;
    default: break;
    }
    if (!ok) {
        fprintf(stderr, "speed %.9g guidance %u; slow %.9g brisk %.9g fast %.9g slightly %.9g; velocity (%g, %g, %g)\n", v,
                s->guidance, slow, o->brisk_speed, fast, o->slightly, s->velocity.x, s->velocity.y, s->velocity.z);
        fz_broken(function, "the guidance does not match the speed");
    }
    if (s->guidance != FATHOM_GUIDANCE_UNKNOWN && isfinite(s->velocity.x) && isfinite(s->velocity.y) && isfinite(s->velocity.z)) {
        double norm = sqrt((double)s->velocity.x * s->velocity.x + (double)s->velocity.y * s->velocity.y +
                           (double)s->velocity.z * s->velocity.z);
        /* Between 1e-15 and 1e18 m/s: outside, the squares of the components leave the normal float range. */
        if (norm > 1e-15 && norm < 1e18 && fabs(norm - s->speed) > 1e-5 * norm + 1e-30) {
            fprintf(stderr, "velocity (%g, %g, %g) speed %g guidance %u\n", s->velocity.x, s->velocity.y, s->velocity.z, s->speed,
                    s->guidance);
            fz_broken(function, "speed is not |velocity|");
        }
    }
}

static void run_motion(fz_input *in) {
    world w;
    make_world(in, &w);
    fathom_motion_options o;
    motion_options(in, &o);
    int with_options = fz_u8(in) >= 20;
    uint8_t nulls = fz_u8(in);
    fathom_motion *m, *twin = NULL;
    fz_poison(&m, sizeof m);
    fathom_status s = FZ(fathom_motion_create, with_options ? &o : NULL, nulls == 0x4f ? NULL : &m);
    fz_untouched(s, "fathom_motion_create", &m, sizeof m);
    if (s != FATHOM_OK) {
        if (with_options && motion_options_valid(&o) && nulls != 0x4f) fz_broken("fathom_motion_create", "refused valid options");
        return;
    }
    if (nulls == 0x4f) fz_broken("fathom_motion_create", "accepted a NULL out");
    if (with_options && !motion_options_valid(&o)) fz_broken("fathom_motion_create", "accepted invalid options");
    if (!with_options) FZ(fathom_motion_options_init, &o);
    if (FZ(fathom_motion_create, &o, &twin) != FATHOM_OK) fz_broken("fathom_motion_create", "refused what it accepted");
    fathom_motion_state st;
    motion_state(m, &st);
    if (st.timestamp != 0 || st.speed != 0 || st.guidance != FATHOM_GUIDANCE_UNKNOWN || st.captured || st.skipped || st.restarted)
        fz_broken("fathom_motion_get_state", "a new tracker's state is not all zero");
    int accepted = 0; /* a pose has been accepted since creation or reset */
    int64_t last = 0;
    size_t steps = 1 + fz_count(in, MAX_STEPS - 1);
    for (size_t n = 0; n < steps; n++) {
        fathom_motion_state before;
        motion_state(m, &before);
        switch (fz_u8(in) % 6) {
        case 0: case 1: case 2: { /* one pose, on both */
            int64_t t = next_time(in, &w);
            fathom_pose pose = next_pose(in, &w);
            uint8_t args = fz_u8(in);
            fathom_motion_state r, r2;
            fz_poison(&r, sizeof r);
            s = FZ(fathom_motion_update, args == 0x4e ? NULL : m, t, args == 0x4f ? NULL : &pose, args & 1 ? NULL : &r);
            fz_untouched(s, "fathom_motion_update", &r, sizeof r);
            if (args == 0x4e || args == 0x4f) {
                if (s == FATHOM_OK) fz_broken("fathom_motion_update", "accepted a NULL pointer");
                break;
            }
            fathom_status s2 = FZ(fathom_motion_update, twin, t, &pose, &r2);
            if (s != s2) fz_broken("fathom_motion_update", "the same pose updated differently");
            if (s != FATHOM_OK) {
                fathom_motion_state after;
                motion_state(m, &after);
                if (!same_state(&before, &after)) fz_broken("fathom_motion_update", "a failed update changed the state");
                w.time = last;
                w.have_time = accepted;
                break;
            }
            if (accepted && t < last) fz_broken("fathom_motion_update", "accepted an earlier timestamp");
            if (!(args & 1) && !same_state(&r, &r2)) fz_broken("fathom_motion_update", "the same pose gave two states");
            fathom_motion_state now;
            motion_state(m, &now);
            if (!same_state(&now, &r2)) fz_broken("fathom_motion_update", "get_state differs from the update's state");
            if (accepted && t == last) {
                /* Skipped: nothing changes but the per-update flags. */
                fathom_motion_state want = before;
                want.skipped = 1;
                want.captured = 0;
                want.restarted = 0;
                if (!same_state(&now, &want)) fz_broken("fathom_motion_update", "a repeated timestamp changed more than the flags");
            } else if (now.skipped || now.timestamp != t) {
                fz_broken("fathom_motion_update", "an accepted pose is not the state's timestamp");
            }
            check_state(&now, &o, "fathom_motion_update");
            accepted = 1;
            last = t;
            break;
        }
        case 3: { /* a batch, and the same poses one by one on the twin */
            size_t count = fz_u8(in) < 250 ? 1 + fz_count(in, MAX_BATCH - 1) : 0;
            int64_t times[MAX_BATCH];
            fathom_pose poses[MAX_BATCH];
            fathom_motion_state out[MAX_BATCH], single[MAX_BATCH];
            for (size_t i = 0; i < count; i++) {
                times[i] = next_time(in, &w);
                poses[i] = next_pose(in, &w);
            }
            uint8_t args = fz_u8(in);
            fz_poison(out, sizeof out);
            s = FZ(fathom_motion_update_batch, m, args == 0x4e ? NULL : times, args == 0x4f ? NULL : poses, count,
                   args & 1 ? NULL : out);
            if (args == 0x4e || args == 0x4f || count == 0) {
                if (s == FATHOM_OK) fz_broken("fathom_motion_update_batch", "accepted no poses");
                fz_untouched(s, "fathom_motion_update_batch", out, sizeof out);
                fathom_motion_state after;
                motion_state(m, &after);
                if (!same_state(&before, &after)) fz_broken("fathom_motion_update_batch", "a refused batch changed the state");
                break;
            }
            size_t done = 0;
            fathom_status s2 = FATHOM_OK;
            for (; done < count; done++) {
                s2 = FZ(fathom_motion_update, twin, times[done], &poses[done], &single[done]);
                if (s2 != FATHOM_OK) break;
                accepted = 1;
                last = single[done].timestamp;
            }
            if ((s == FATHOM_OK) != (s2 == FATHOM_OK))
                fz_broken("fathom_motion_update_batch", "succeeded or failed where single updates do not");
            if (!(args & 1)) {
                for (size_t i = 0; i < done; i++)
                    if (!same_state(&out[i], &single[i])) {
                        fprintf(stderr, "state %zu of %zu\n", i, count);
                        fz_broken("fathom_motion_update_batch", "a state differs from single updates'");
                    }
                fz_untouched(FATHOM_ERR_OUT_OF_RANGE, "fathom_motion_update_batch", out + done, (MAX_BATCH - done) * sizeof out[0]);
            }
            fathom_motion_state a, b;
            motion_state(m, &a);
            motion_state(twin, &b);
            if (!same_state(&a, &b)) fz_broken("fathom_motion_update_batch", "the state differs from single updates'");
            if (done) check_state(&a, &o, "fathom_motion_update_batch");
            break;
        }
        case 4: /* reset both */
            if (fz_u8(in) == 0x4e) {
                if (FZ(fathom_motion_reset, NULL) == FATHOM_OK) fz_broken("fathom_motion_reset", "accepted NULL");
                break;
            }
            if (FZ(fathom_motion_reset, m) != FATHOM_OK || FZ(fathom_motion_reset, twin) != FATHOM_OK)
                fz_broken("fathom_motion_reset", "failed");
            motion_state(m, &st);
            if (st.timestamp != 0 || st.speed != 0 || st.guidance != FATHOM_GUIDANCE_UNKNOWN)
                fz_broken("fathom_motion_reset", "the state is not all zero after a reset");
            accepted = 0;
            break;
        default: { /* NULL and overflowing arguments */
            fathom_motion_state r;
            fz_poison(&r, sizeof r);
            s = FZ(fathom_motion_get_state, NULL, &r);
            fz_untouched(s, "fathom_motion_get_state", &r, sizeof r);
            if (s == FATHOM_OK || FZ(fathom_motion_get_state, m, NULL) == FATHOM_OK)
                fz_broken("fathom_motion_get_state", "accepted NULL");
            int64_t t = next_time(in, &w);
            fathom_pose pose = next_pose(in, &w);
            (void)t;
            (void)pose;
            s = FZ(fathom_motion_update_batch, m, NULL, NULL, SIZE_MAX - fz_u8(in), NULL);
            if (s == FATHOM_OK) fz_broken("fathom_motion_update_batch", "accepted an overflowing count");
            fathom_motion_state after;
            motion_state(m, &after);
            if (!same_state(&before, &after)) fz_broken("fathom_motion_update_batch", "a refused batch changed the state");
            w.time = last;
            break;
        }
        }
    }
    fathom_motion_destroy(m);
    fathom_motion_destroy(twin);
    fathom_motion_destroy(NULL);
}

/* ---------------------------------------------------------------------------------------------- */
/* Capture and report                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* The per-process temporary directory (what is saved in it is removed at once). */
#define TEMP_DIR "fuzz_trackers_XXXXXX"

/* Removes a saved file; returns whether it was there. */
static int take_file(const char *dir, const char *name) {
    char path[128];
    fz_path_join(path, sizeof path, dir, name);
    return remove(path) == 0;
}

/* The same box (the floor height matters only when the box has one). */
static int same_box(const fathom_box *a, const fathom_box *b) {
    return memcmp(&a->center, &b->center, sizeof a->center) == 0 && memcmp(&a->scale, &b->scale, sizeof a->scale) == 0 &&
           fz_same_float(a->rot_y, b->rot_y) && fz_bool_byte(&a->has_floor) == fz_bool_byte(&b->has_floor) &&
           (!fz_bool_byte(&a->has_floor) || fz_same_float(a->floor, b->floor));
}

/* Whether any reserved word of capture options (or of the motion and coverage options in them) is set. */
static int capture_reserved_set(const fathom_capture_options *o) {
    return !fz_all_zero(o->reserved, sizeof o->reserved) || !fz_all_zero(o->motion.reserved, sizeof o->motion.reserved) ||
           !fz_all_zero(o->coverage.reserved, sizeof o->coverage.reserved);
}

static void capture_options(fz_input *in, fathom_capture_options *o) {
    fz_poison(o, sizeof *o);
    if (FZ(fathom_capture_options_init, o) != FATHOM_OK) fz_broken("fathom_capture_options_init", "failed");
    fathom_motion_options mo;
    fathom_coverage_options co;
    FZ(fathom_motion_options_init, &mo);
    FZ(fathom_coverage_options_init, &co);
    if (o->min_confidence != 2 || o->max_depth != 5 || !near_float(o->voxel, 0.01f) || !near_float(o->fuse_distance, 0.05f) ||
        !near_float(o->fuse_angle, 5 * FZ_PI_F / 180) || o->min_voxel_points != 2 || !near_float(o->floor_threshold, 0.02f) ||
        o->floor_iterations != 300 || !near_float(o->floor_max_tilt, 5 * FZ_PI_F / 180) ||
        !near_float(o->object_clearance, 0.02f) || !near_float(o->floor_min_area, 0.25f) ||
        !near_float(o->orbit_min_span, 90 * FZ_PI_F / 180) || o->orbit_min_views != 10 || !near_float(o->select_distance, 0.1f) ||
        !near_float(o->select_angle, 10 * FZ_PI_F / 180) || o->seed != 1 || memcmp(&o->motion, &mo, sizeof mo) != 0 ||
        memcmp(&o->coverage, &co, sizeof co) != 0 || capture_reserved_set(o))
        fz_broken("fathom_capture_options_init", "the defaults are not the documented ones");
    uint8_t fields = fz_u8(in), more = fz_u8(in);
    if (fields & 1) o->min_confidence = fz_u8(in) < 240 ? fz_u8(in) % 4 : fz_u32(in);
    if (fields & 2) o->max_depth = fz_u8(in) < 200 ? fz_u8(in) / 32.0f : fz_float(in);
    if (fields & 4) o->voxel = fz_u8(in) < 200 ? 0.002f + fz_u8(in) / 2048.0f : fz_float(in);
    if (fields & 8) {
        o->fuse_distance = fz_u8(in) < 200 ? fz_u8(in) / 1024.0f : fz_float(in);
        o->fuse_angle = fz_u8(in) < 200 ? fz_u8(in) / 512.0f : fz_float(in);
    }
    if (fields & 16) o->min_voxel_points = fz_u8(in) < 240 ? fz_u8(in) % 5 : fz_u32(in);
    if (fields & 32) {
        o->floor_threshold = fz_u8(in) < 200 ? fz_u8(in) / 2048.0f : fz_float(in);
        /* Few iterations (a caller asking for 100000 gets them, slowly); past the limit is refused. */
        uint8_t k = fz_u8(in);
        o->floor_iterations = k < 200 ? fz_u8(in) : k < 250 ? 100001u + fz_u32(in) % 1000 : fz_u32(in) % 2048;
    }
    if (fields & 64) o->floor_max_tilt = fz_u8(in) < 200 ? fz_u8(in) / 160.0f : fz_float(in);
    if (fields & 128) o->object_clearance = fz_u8(in) < 200 ? fz_u8(in) / 1024.0f : fz_float(in);
    if (more & 1) {
        o->select_distance = fz_u8(in) < 200 ? fz_u8(in) / 512.0f : fz_float(in);
        o->select_angle = fz_u8(in) < 200 ? fz_u8(in) / 256.0f : fz_float(in);
    }
    if (more & 2) o->seed = fz_u64(in);
    if (more & 16) {
        o->floor_min_area = fz_u8(in) < 200 ? fz_u8(in) / 64.0f : fz_float(in);
        o->orbit_min_span = fz_u8(in) < 200 ? fz_u8(in) / 32.0f : fz_float(in);
        o->orbit_min_views = fz_u8(in) < 200 ? fz_u8(in) % 20 : fz_u32(in);
    }
    if (more & 4) motion_options(in, &o->motion);
    if (more & 8) coverage_options(in, &o->coverage);
    if (more & 32) { /* a reserved word of the capture options: refused unless 0 (one read per statement) */
        size_t word = fz_u8(in) % (sizeof o->reserved / sizeof o->reserved[0]);
        o->reserved[word] = fz_u32(in);
    }
}

static void capture_status(const fathom_capture *c, fathom_capture_status *s) {
    fz_poison(s, sizeof *s);
    if (FZ(fathom_capture_get_status, c, s) != FATHOM_OK) fz_broken("fathom_capture_get_status", "failed on a capture");
    state_flags(&s->motion, "fathom_capture_get_status");
    if (!fz_all_zero(s->reserved, sizeof s->reserved)) fz_broken("fathom_capture_get_status", "the reserved words are not 0");
}

static int same_status(const fathom_capture_status *a, const fathom_capture_status *b) {
    return a->frames == b->frames && a->fused_frames == b->fused_frames && a->cloud_points == b->cloud_points &&
           a->captures == b->captures && same_state(&a->motion, &b->motion);
}

static void capture_same(const fathom_capture *c, const fathom_capture_status *before, const char *function) {
    fathom_capture_status after;
    capture_status(c, &after);
    if (!same_status(before, &after)) fz_broken(function, "a failed call changed the capture");
}

/* A depth map of the world seen from `pose`: the floor plane and the object's box, ray-cast per sample. */
static void render_depth(const world *w, const fathom_pose *pose, const fathom_intrinsics *k, float *depth, uint32_t dw,
                         uint32_t dh) {
    const float *m = pose->m;
    for (uint32_t j = 0; j < dh; j++) {
        for (uint32_t i = 0; i < dw; i++) {
            float u = (i + 0.5f) * k->width / dw, v = (j + 0.5f) * k->height / dh;
            /* Optical (X, Y, 1) is camera (X, -Y, -1); its world direction. */
            float cx = (u - k->cx) / k->fx, cy = -(v - k->cy) / k->fy, cz = -1;
            float dx = m[0] * cx + m[4] * cy + m[8] * cz, dy = m[1] * cx + m[5] * cy + m[9] * cz;
            float dz = m[2] * cx + m[6] * cy + m[10] * cz;
            float ox = m[12], oy = m[13], oz = m[14];
            float best = INFINITY;
            if (dy != 0) {
                float t = (w->floor_y - oy) / dy;
                if (t > 0) best = t;
            }
            /* Slabs of the axis-aligned object box. */
            float lo = 0, hi = INFINITY;
            const float o3[3] = {ox, oy, oz}, d3[3] = {dx, dy, dz};
            const float c3[3] = {w->target.x, w->target.y, w->target.z}, h3[3] = {w->half.x, w->half.y, w->half.z};
            for (int a = 0; a < 3 && lo <= hi; a++) {
                if (d3[a] == 0) {
                    if (fabsf(o3[a] - c3[a]) > h3[a]) hi = -1;
                    continue;
                }
                float t0 = (c3[a] - h3[a] - o3[a]) / d3[a], t1 = (c3[a] + h3[a] - o3[a]) / d3[a];
                if (t0 > t1) { float x = t0; t0 = t1; t1 = x; }
                if (t0 > lo) lo = t0;
                if (t1 < hi) hi = t1;
            }
            if (lo <= hi && lo > 0 && lo < best) best = lo;
            depth[(size_t)j * dw + i] = isfinite(best) ? best : 0;
        }
    }
}

/* Adds one frame with depth: returns the status, the frame's min_depth in *min_depth. */
static fathom_status add_depth_frame(fz_input *in, fathom_capture *c, world *w, int64_t t, const fathom_pose *pose,
                                     const fathom_intrinsics *k, fathom_motion_state *out, float *min_depth) {
    uint32_t dw = 1 + fz_u8(in) % 16, dh = 1 + fz_u8(in) % 12;
    uint8_t kind = fz_u8(in);
    float *depth = malloc((size_t)dw * dh * sizeof *depth);
    uint16_t *mm = malloc((size_t)dw * dh * sizeof *mm);
    uint8_t *confidence = malloc((size_t)dw * dh);
    if (!depth || !mm || !confidence) abort();
    render_depth(w, pose, k, depth, dw, dh);
    size_t spots = fz_count(in, 8);
    for (size_t n = 0; n < spots; n++) {
        uint32_t i = fz_u8(in) % dw, j = fz_u8(in) % dh;
        depth[(size_t)j * dw + i] = fz_float(in);
    }
    uint8_t seed = fz_u8(in);
    for (size_t n = 0; n < (size_t)dw * dh; n++) {
        confidence[n] = (uint8_t)((n * 7 + seed) % 3);
        float units = depth[n] * 1000;
        mm[n] = !(units >= 0) ? 0 : units > 65535 ? 65535 : (uint16_t)units;
    }
    fathom_depth_frame f;
    int as_mm = kind & 1;
    if (FZ(fathom_depth_frame_init, &f, as_mm ? (const void *)mm : (const void *)depth,
           as_mm ? FATHOM_DEPTH_UINT16 : FATHOM_DEPTH_FLOAT32, dw, dh, k) != FATHOM_OK)
        fz_broken("fathom_depth_frame_init", "failed");
    f.camera_to_world = *pose;
    /* has_pose's byte: true, false, or (as memcpy can leave it) another, which is refused. */
    if (kind < 250) f.has_pose = true;
    else if (kind == 250) f.has_pose = false;
    else fz_set_bool_byte(&f.has_pose, fz_bool_byte_of(fz_u32(in)));
    if (kind & 2) {
        f.confidence = confidence;
        f.min_confidence = fz_u8(in) % 4;
    }
    if (kind & 4) {
        f.min_depth = fz_u8(in) < 200 ? fz_u8(in) / 64.0f : fz_float(in);
        f.max_depth = fz_u8(in) < 200 ? f.min_depth + fz_u8(in) / 16.0f : fz_float(in);
    }
    *min_depth = f.min_depth;
    fathom_status s = FZ(fathom_capture_add_frame, c, t, kind == 0x4f ? NULL : &f, out);
    if (kind == 0x4f && s == FATHOM_OK) fz_broken("fathom_capture_add_frame", "accepted a NULL frame");
    if (s == FATHOM_OK && fz_bool_byte(&f.has_pose) != 1)
        fz_broken("fathom_capture_add_frame", "accepted a frame without a pose");
    free(depth);
    free(mm);
    free(confidence);
    return s;
}

static void point_cloud_count(fathom_point_cloud *cloud, uint64_t want, const char *function) {
    fathom_point_cloud_info info;
    fz_poison(&info, sizeof info);
    if (FZ(fathom_point_cloud_get_info, cloud, &info) != FATHOM_OK) fz_broken("fathom_point_cloud_get_info", "failed");
    if (info.count != want) fz_broken(function, "the cloud's size differs from the reported count");
    fathom_point_cloud_destroy(cloud);
}

static void check_report(fz_input *in, fathom_capture *c, const fathom_box *given) {
    fathom_capture_status st;
    capture_status(c, &st);
    fathom_report *r;
    fz_poison(&r, sizeof r);
    fathom_status s = FZ(fathom_capture_report, c, &r);
    fz_untouched(s, "fathom_capture_report", &r, sizeof r);
    capture_same(c, &st, "fathom_capture_report");
    if (s != FATHOM_OK) {
        if (st.frames > 0 && s == FATHOM_ERR_NO_DATA) fz_broken("fathom_capture_report", "NO_DATA for a capture with frames");
        return;
    }
    if (st.frames == 0) fz_broken("fathom_capture_report", "a report of no frame");
    fathom_report_summary sum;
    fz_poison(&sum, sizeof sum);
    if (FZ(fathom_report_get_summary, r, &sum) != FATHOM_OK) fz_broken("fathom_report_get_summary", "failed");
    fz_check_summary_form(&sum, "fathom_report_get_summary");
    if (sum.frames != st.frames || sum.fused_frames != st.fused_frames || sum.cloud_points != st.cloud_points ||
        sum.captures != st.captures || sum.has_trajectory != (st.frames >= 2) || sum.object_points > sum.cloud_points ||
        sum.box_source > FATHOM_BOX_FITTED || (given != NULL) != (sum.box_source == FATHOM_BOX_GIVEN) ||
        sum.has_coverage != (sum.box_source != FATHOM_BOX_NONE) || sum.selected_frames < 1 || sum.selected_frames > sum.frames)
        fz_broken("fathom_report_get_summary", "the report's numbers disagree with the capture's");
    if (given && !same_box(&sum.box, given)) fz_broken("fathom_report_get_summary", "the box is not the given box");
    if (sum.has_coverage) {
        uint64_t faces = 0;
        for (int f = 0; f < 6; f++) faces += sum.face_counts[f];
        if (faces != sum.coverage.counted || sum.coverage.views != sum.captures)
            fz_broken("fathom_report_get_summary", "the coverage does not count the captures");
        if (FZ(fathom_box_check, &sum.box) != FATHOM_OK) fz_broken("fathom_report_get_summary", "the report's box is invalid");
    }
    if (sum.has_floor && !(fabsf(sum.floor_normal.x * sum.floor_normal.x + sum.floor_normal.y * sum.floor_normal.y +
                                 sum.floor_normal.z * sum.floor_normal.z - 1) < 1e-4f && sum.floor_normal.y > 0))
        fz_broken("fathom_report_get_summary", "the floor normal is not unit and up");
    /* The JSON: a short capacity first (the size), then exactly enough. */
    size_t length, length2;
    fz_poison(&length, sizeof length);
    uint8_t k = fz_u8(in);
    size_t cap = k < 128 ? 0 : fz_count(in, 64);
    char *small = malloc(cap ? cap : 1);
    if (!small) abort();
    fz_poison(small, cap ? cap : 1);
    s = FZ(fathom_report_json, r, cap || (k & 1) ? small : NULL, cap, &length);
    if (s != FATHOM_ERR_BUFFER_TOO_SMALL) {
        if (s != FATHOM_OK || length + 1 > cap) fz_broken("fathom_report_json", "a short capacity is not BUFFER_TOO_SMALL");
    } else {
        fz_untouched(s, "fathom_report_json", small, cap ? cap : 1);
        if (length + 1 <= cap) fz_broken("fathom_report_json", "BUFFER_TOO_SMALL with room for the text");
    }
    free(small);
    char *json = malloc(length + 1);
    if (!json) abort();
    fz_poison(json, length + 1);
    if (FZ(fathom_report_json, r, json, length + 1, &length2) != FATHOM_OK) fz_broken("fathom_report_json", "failed with room");
    if (length2 != length || json[length] != 0 || strlen(json) != length || json[0] != '{')
        fz_broken("fathom_report_json", "the text is not the announced NUL-terminated JSON");
    free(json);
    if (FZ(fathom_report_json, r, NULL, 0, NULL) == FATHOM_OK) fz_broken("fathom_report_json", "accepted a NULL out_length");
    /* Clouds. */
    uint32_t which = fz_u8(in) < 240 ? fz_u8(in) % 2 : fz_u32(in);
    fathom_point_cloud *cloud;
    fz_poison(&cloud, sizeof cloud);
    s = FZ(fathom_report_cloud, r, which, &cloud);
    fz_untouched(s, "fathom_report_cloud", &cloud, sizeof cloud);
    if ((s == FATHOM_OK) != (which <= 1)) fz_broken("fathom_report_cloud", "the kind and the status disagree");
    if (s == FATHOM_OK) point_cloud_count(cloud, which == 0 ? sum.cloud_points : sum.object_points, "fathom_report_cloud");
    /* Saved to a directory under /dev/shm. */
    if (fz_u8(in) < 40) {
        char dir[96];
        fz_temp_path(TEMP_DIR, "report", dir, sizeof dir);
        if (FZ(fathom_report_save, r, dir) != FATHOM_OK) fz_broken("fathom_report_save", "could not write to /dev/shm");
        int json_saved = take_file(dir, "report.json"), cloud_saved = take_file(dir, "cloud.ply");
        int object_saved = take_file(dir, "object.ply");
        rmdir(dir);
        if (!json_saved || !cloud_saved || object_saved != (sum.box_source != FATHOM_BOX_NONE))
            fz_broken("fathom_report_save", "report.json, cloud.ply and (with a box) object.ply were not all written");
    }
    if (FZ(fathom_report_save, r, NULL) == FATHOM_OK) fz_broken("fathom_report_save", "accepted a NULL directory");
    fathom_report_destroy(r);
}

static void run_capture(fz_input *in) {
    world w;
    make_world(in, &w);
    fathom_capture_options o;
    capture_options(in, &o);
    uint8_t kind = fz_u8(in);
    int with_options = kind >= 20;
    fathom_box box = fuzz_box(in, &w);
    const fathom_box *given = kind & 1 ? &box : NULL;
    fathom_capture *c;
    fz_poison(&c, sizeof c);
    fathom_status s = FZ(fathom_capture_create, with_options ? &o : NULL, given, kind == 0x4f ? NULL : &c);
    fz_untouched(s, "fathom_capture_create", &c, sizeof c);
    if (s != FATHOM_OK) return;
    if (kind == 0x4f) fz_broken("fathom_capture_create", "accepted a NULL out");
    if (with_options && capture_reserved_set(&o)) fz_broken("fathom_capture_create", "accepted options with a reserved word set");
    if (given && fz_bool_byte(&given->has_floor) > 1)
        fz_broken("fathom_capture_create", "accepted a box whose has_floor is not 0 or 1");
    if (!with_options) FZ(fathom_capture_options_init, &o);
    fathom_intrinsics k = camera_intrinsics(in);
    size_t steps = 1 + fz_count(in, MAX_STEPS - 1);
    for (size_t n = 0; n < steps; n++) {
        fathom_capture_status before;
        capture_status(c, &before);
        uint8_t op = fz_u8(in) % 10;
        switch (op) {
        case 0: case 1: case 2: case 3: { /* a frame with or without depth */
            int64_t t = next_time(in, &w);
            fathom_pose pose = next_pose(in, &w);
            /* The bool out at wants_bytes[0]; the bytes after it must stay poison (the call stores one byte). */
            uint8_t wants_bytes[8];
            fz_poison(wants_bytes, sizeof wants_bytes);
            s = FZ(fathom_capture_wants_depth, c, &pose, (bool *)(void *)wants_bytes);
            fz_untouched(s, "fathom_capture_wants_depth", wants_bytes, sizeof wants_bytes);
            fz_untouched_past("fathom_capture_wants_depth", wants_bytes + 1, sizeof wants_bytes - 1);
            /* The byte written: 0 (false) or 1 (true); 2 stands for unknown (the call failed). */
            int wants = s == FATHOM_OK ? wants_bytes[0] : 2;
            if (s == FATHOM_OK && wants > 1) fz_broken("fathom_capture_wants_depth", "neither false (0) nor true (1)");
            fathom_motion_state out;
            fz_poison(&out, sizeof out);
            float min_depth = 0;
            int with_out = fz_u8(in) & 1;
            if (op == 0) {
                uint8_t args = fz_u8(in);
                s = FZ(fathom_capture_add_pose, c, t, args == 0x4f ? NULL : &pose, args == 0x4e ? NULL : &k,
                       with_out ? &out : NULL);
                if ((args == 0x4e || args == 0x4f) && s == FATHOM_OK) fz_broken("fathom_capture_add_pose", "accepted NULL");
            } else {
                s = add_depth_frame(in, c, &w, t, &pose, &k, with_out ? &out : NULL, &min_depth);
            }
            const char *name = op == 0 ? "fathom_capture_add_pose" : "fathom_capture_add_frame";
            fz_untouched(s, name, &out, sizeof out);
            if (s != FATHOM_OK) {
                capture_same(c, &before, name);
                w.time = before.motion.timestamp; /* go on from the last frame taken */
                w.have_time = before.frames > 0;
                break;
            }
            fathom_capture_status after;
            capture_status(c, &after);
            if (after.frames != before.frames + 1) fz_broken(name, "frames did not move by one");
            if (before.frames > 0 && t < before.motion.timestamp) fz_broken(name, "accepted an earlier timestamp");
            if (with_out && !same_state(&out, &after.motion)) fz_broken(name, "out differs from the status' motion");
            uint64_t fused = after.fused_frames - before.fused_frames;
            if (fused > 1 || (op == 0 && fused) || (fused && wants == 0) || (op != 0 && wants == 1 && min_depth == 0 && !fused))
                fz_broken(name, "fused_frames disagrees with fathom_capture_wants_depth");
            if (after.cloud_points < before.cloud_points) fz_broken(name, "the cloud shrank");
            break;
        }
        case 4: { /* the box */
            fathom_box b;
            fz_poison(&b, sizeof b);
            s = FZ(fathom_capture_box, c, &b);
            fz_untouched(s, "fathom_capture_box", &b, sizeof b);
            if (s == FATHOM_OK) {
                if (FZ(fathom_box_check, &b) != FATHOM_OK) fz_broken("fathom_capture_box", "an invalid box");
                if (given && !same_box(&b, given)) fz_broken("fathom_capture_box", "not the given box");
            } else if (given) {
                fz_broken("fathom_capture_box", "no box although one was given");
            }
            capture_same(c, &before, "fathom_capture_box");
            break;
        }
        case 5: { /* coverage of the captured views */
            fathom_box other = fuzz_box(in, &w);
            uint8_t args = fz_u8(in);
            fathom_coverage *cov;
            fz_poison(&cov, sizeof cov);
            s = FZ(fathom_capture_coverage, c, args & 1 ? &other : NULL, &cov);
            fz_untouched(s, "fathom_capture_coverage", &cov, sizeof cov);
            capture_same(c, &before, "fathom_capture_coverage");
            if (s != FATHOM_OK) break;
            fathom_coverage_summary sum;
            coverage_summary(cov, &sum);
            if (sum.views != before.captures) fz_broken("fathom_capture_coverage", "the tracker does not hold the captured views");
            fathom_coverage_destroy(cov);
            break;
        }
        case 6: { /* the fused cloud */
            fathom_point_cloud *cloud;
            fz_poison(&cloud, sizeof cloud);
            s = FZ(fathom_capture_cloud, c, fz_u8(in) == 0x4f ? NULL : &cloud);
            fz_untouched(s, "fathom_capture_cloud", &cloud, sizeof cloud);
            capture_same(c, &before, "fathom_capture_cloud");
            if (s == FATHOM_OK) point_cloud_count(cloud, before.cloud_points, "fathom_capture_cloud");
            break;
        }
        case 7: check_report(in, c, given); break;
        case 8: { /* NULL handles */
            fathom_capture_status st;
            fz_poison(&st, sizeof st);
            s = FZ(fathom_capture_get_status, NULL, &st);
            fz_untouched(s, "fathom_capture_get_status", &st, sizeof st);
            if (s == FATHOM_OK) fz_broken("fathom_capture_get_status", "accepted NULL");
            fathom_report_summary rs;
            fz_poison(&rs, sizeof rs);
            s = FZ(fathom_report_get_summary, NULL, &rs);
            fz_untouched(s, "fathom_report_get_summary", &rs, sizeof rs);
            if (s == FATHOM_OK) fz_broken("fathom_report_get_summary", "accepted NULL");
            bool wants;
            fathom_pose pose = next_pose(in, &w);
            if (FZ(fathom_capture_wants_depth, NULL, &pose, &wants) == FATHOM_OK ||
                FZ(fathom_capture_wants_depth, c, &pose, NULL) == FATHOM_OK)
                fz_broken("fathom_capture_wants_depth", "accepted NULL");
            capture_same(c, &before, "fathom_capture_wants_depth");
            break;
        }
        default: { /* a pose at a time out of order on purpose */
            fathom_pose pose = next_pose(in, &w);
            uint64_t back = (uint64_t)before.motion.timestamp - 1 - fz_u8(in);
            int64_t t;
            memcpy(&t, &back, sizeof t);
            s = FZ(fathom_capture_add_pose, c, t, &pose, &k, NULL);
            if (before.frames && s == FATHOM_OK && t < before.motion.timestamp)
                fz_broken("fathom_capture_add_pose", "accepted an earlier timestamp");
            if (s != FATHOM_OK) {
                capture_same(c, &before, "fathom_capture_add_pose");
            } else {
                w.time = t;
                w.have_time = 1;
            }
            break;
        }
        }
    }
    check_report(in, c, given);
    fathom_capture_destroy(c);
    fathom_capture_destroy(NULL);
    fathom_report_destroy(NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    switch (fz_u8(&in) % 3) {
    case 0: run_coverage(&in); break;
    case 1: run_motion(&in); break;
    default: run_capture(&in); break;
    }
    return 0;
}
