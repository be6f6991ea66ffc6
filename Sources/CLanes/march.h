// The batch ray order's march through a mesh's occupancy grid (Swift's `OccupancyGrid`), eight rays at a time in the
// lanes of one vector: each step of a lane is a jump over a cube of empty cells, not a cell, and the eight lanes'
// steps are independent, so they overlap where a single ray's chain of dependent steps would wait. A lane whose ray
// stops takes a new one (from rays started ahead of time), so lanes do not idle while the slowest ray of eight marches.
#ifndef FATHOM_MARCH_H
#define FATHOM_MARCH_H

#include "lanes.h"

/// Cells per axis of the grid.
#define FATHOM_GRID_CELLS 32

/// Steps of a lane at most: every step moves a cell coordinate at least one cell, one way per axis (3 x 32), and a few
/// more for rounding. A lane still marching after them predicts nothing.
#define FATHOM_GRID_MAX_STEPS 100

/// distance[index[i]] per lane. With AVX2 one gather of the 4 bytes at each index (the table must have 3 bytes after
/// its last cell), low byte kept; elsewhere bytes read into an array that is then loaded whole (written into the
/// vector lane by lane, each write went through memory and stalled the next).
static inline __attribute__((always_inline)) fathom_lanes_i8 fathom_march_gather(const uint8_t *distance,
                                                                                fathom_lanes_i8 index) {
#if defined(__AVX2__)
    typedef int v8si __attribute__((vector_size(32)));
    v8si words = __builtin_ia32_gatherd_d256((v8si){0}, (const int *)distance, (v8si)index, (v8si){-1, -1, -1, -1, -1, -1, -1, -1}, 1);
    return (fathom_lanes_i8)words & 0xff;
#else
    int32_t lanes[8];
    for (int i = 0; i < 8; i++) lanes[i] = distance[index[i]];
    fathom_lanes_i8 k;
    __builtin_memcpy(&k, lanes, sizeof k);
    return k;
#endif
}

/// The cell of a grid coordinate: clamped to [0, top] first (NaN to 0), so the truncating conversion is in range.
static inline __attribute__((always_inline)) fathom_lanes_i8 fathom_march_cells(fathom_lanes_f8 x, float top) {
    return __builtin_convertvector(fathom_lanes_min(fathom_lanes_max(x, (fathom_lanes_f8)0), (fathom_lanes_f8)top), fathom_lanes_i8);
}

/// Eight rays' march. Each axis along which a ray runs backward is mirrored (coordinate 32 - x), so every ray runs
/// forward and leaves a cell through its upper faces: the ray in those grid coordinates (cell units, the grid spanning
/// [0, 32] on each axis, with the ray's own parameter t) and the reciprocals of its direction, the range of t left, the
/// current cell (mirrored, as its octant's table is), the offset of that table (`octant`), and which lanes still march.
typedef struct {
    fathom_lanes_f8 gx, gy, gz, vx, vy, vz, ix, iy, iz, t, end;
    fathom_lanes_i8 cx, cy, cz, octant, active;
    /// Where the lanes that stopped in an occupied cell (`found`) stopped: the t in the middle of their way through it.
    fathom_lanes_f8 middle;
    fathom_lanes_i8 found;
} fathom_march_lanes;

/// Eight rays in lanes: origin and direction, one vector per coordinate.
typedef struct {
    fathom_lanes_f8 ox, oy, oz, dx, dy, dz;
} fathom_march_ray_lanes;

/// Words w ..< w + 4 of the ray at `ray` and of the one four rays on, as one 8-lane row (a 16-byte load inserted into
/// the high half).
static inline __attribute__((always_inline)) fathom_lanes_f8 fathom_march_row(const float *ray, int w) {
    fathom_lanes_f4 low, high;
    __builtin_memcpy(&low, ray + w, 16);
    __builtin_memcpy(&high, ray + 24 + w, 16);
    return __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7);
}

/// `count` (0...8) rays, rays[6 i ..< 6 i + 6] = origin xyz, direction xyz, in lanes; lanes from `count` on hold ray 0
/// (none read past ray count - 1). Eight rays: the first four words of rays k and k + 4 loaded as one 8-lane row, and
/// the last four as another, then both halves' 4 x 4 transposes at once, in-lane shuffles (inserting the 48 words lane
/// by lane was a chain of blends per coordinate). Fewer: word by word. With AVX the rows pass an empty asm statement,
/// so that LLVM does not fold the shuffles back into scalar loads and blends (`fathom_lanes_transposed`).
static inline __attribute__((always_inline)) fathom_march_ray_lanes fathom_march_load_rays(const float *rays, int count) {
    fathom_march_ray_lanes l;
    if (count < 8) {
        for (int i = 0; i < 8; i++) {
            const float *r = rays + 6 * (i < count ? i : 0);
            l.ox[i] = r[0]; l.oy[i] = r[1]; l.oz[i] = r[2];
            l.dx[i] = r[3]; l.dy[i] = r[4]; l.dz[i] = r[5];
        }
        return l;
    }
    fathom_lanes_f8 h[4] = {fathom_march_row(rays, 0), fathom_march_row(rays + 6, 0), fathom_march_row(rays + 12, 0),
                            fathom_march_row(rays + 18, 0)};
    fathom_lanes_f8 t[4] = {fathom_march_row(rays, 2), fathom_march_row(rays + 6, 2), fathom_march_row(rays + 12, 2),
                            fathom_march_row(rays + 18, 2)};
    // (ox0 ox1 oy0 oy1 | ox4 ox5 oy4 oy5) and the same for rays 2, 3 | 6, 7; then words 2 and 3 of each.
    fathom_lanes_f8 a = __builtin_shufflevector(h[0], h[1], 0, 8, 1, 9, 4, 12, 5, 13);
    fathom_lanes_f8 b = __builtin_shufflevector(h[2], h[3], 0, 8, 1, 9, 4, 12, 5, 13);
    fathom_lanes_f8 c = __builtin_shufflevector(h[0], h[1], 2, 10, 3, 11, 6, 14, 7, 15);
    fathom_lanes_f8 d = __builtin_shufflevector(h[2], h[3], 2, 10, 3, 11, 6, 14, 7, 15);
    fathom_lanes_f8 e = __builtin_shufflevector(t[0], t[1], 2, 10, 3, 11, 6, 14, 7, 15);
    fathom_lanes_f8 f = __builtin_shufflevector(t[2], t[3], 2, 10, 3, 11, 6, 14, 7, 15);
    l.ox = __builtin_shufflevector(a, b, 0, 1, 8, 9, 4, 5, 12, 13);
    l.oy = __builtin_shufflevector(a, b, 2, 3, 10, 11, 6, 7, 14, 15);
    l.oz = __builtin_shufflevector(c, d, 0, 1, 8, 9, 4, 5, 12, 13);
    l.dx = __builtin_shufflevector(c, d, 2, 3, 10, 11, 6, 7, 14, 15);
    l.dy = __builtin_shufflevector(e, f, 0, 1, 8, 9, 4, 5, 12, 13);
    l.dz = __builtin_shufflevector(e, f, 2, 3, 10, 11, 6, 7, 14, 15);
#if defined(__AVX__)
    __asm__("" : "+x"(l.ox), "+x"(l.oy), "+x"(l.oz), "+x"(l.dx), "+x"(l.dy), "+x"(l.dz));
#endif
    return l;
}

/// The points origin + t x direction of `count` (0...8) rays, rays[6 i ..< 6 i + 6] = origin xyz, direction xyz, with
/// t in lane i: to x[i], y[i], z[i] for i < count.
static inline __attribute__((always_inline)) void fathom_march_points(const float *rays, int count, fathom_lanes_f8 t,
                                                                     float *x, float *y, float *z) {
    if (count < 8) {
        for (int i = 0; i < count; i++) {
            const float *r = rays + 6 * i;
            x[i] = r[0] + t[i] * r[3]; y[i] = r[1] + t[i] * r[4]; z[i] = r[2] + t[i] * r[5];
        }
        return;
    }
    fathom_march_ray_lanes l = fathom_march_load_rays(rays, 8);
    fathom_lanes_f8 px = l.ox + t * l.dx, py = l.oy + t * l.dy, pz = l.oz + t * l.dz;
    __builtin_memcpy(x, &px, 32); __builtin_memcpy(y, &py, 32); __builtin_memcpy(z, &pz, 32);
}

/// Starts the march of `count` (0...8) rays, rays[6 i ..< 6 i + 6] = origin xyz, direction xyz (world frame), within
/// [tmin, tmax]: lane i at the cell where ray i enters the grid, inactive when it does not.
static inline __attribute__((always_inline)) void fathom_march_start(fathom_march_lanes *m, const float *frame,
                                                                    const float *rays, int count, float tmin, float tmax) {
    fathom_march_ray_lanes ray = fathom_march_load_rays(rays, count);
    fathom_lanes_f8 ox = ray.ox, oy = ray.oy, oz = ray.oz, dx = ray.dx, dy = ray.dy, dz = ray.dz;
    const fathom_lanes_f8 size = (fathom_lanes_f8)(float)FATHOM_GRID_CELLS;
    fathom_lanes_f8 gx = (ox - frame[0]) * frame[3], gy = (oy - frame[1]) * frame[4], gz = (oz - frame[2]) * frame[5];
    fathom_lanes_f8 vx = dx * frame[3], vy = dy * frame[4], vz = dz * frame[5];
    // Mirrored where the direction's sign bit is set (-0 too: it runs along the axis either way).
    fathom_lanes_i8 negX = (fathom_lanes_i8)vx < 0, negY = (fathom_lanes_i8)vy < 0, negZ = (fathom_lanes_i8)vz < 0;
    m->gx = fathom_lanes_select(negX, size - gx, gx); m->vx = fathom_lanes_select(negX, -vx, vx);
    m->gy = fathom_lanes_select(negY, size - gy, gy); m->vy = fathom_lanes_select(negY, -vy, vy);
    m->gz = fathom_lanes_select(negZ, size - gz, gz); m->vz = fathom_lanes_select(negZ, -vz, vz);
    m->octant = (negX & 1 << 15) | (negY & 1 << 16) | (negZ & 1 << 17);
    m->ix = 1 / m->vx; m->iy = 1 / m->vy; m->iz = 1 / m->vz;
    // The range of t inside the grid: from the lower faces to the upper ones.
    fathom_lanes_f8 ax = (0 - m->gx) * m->ix, bx = (size - m->gx) * m->ix;
    fathom_lanes_f8 ay = (0 - m->gy) * m->iy, by = (size - m->gy) * m->iy;
    fathom_lanes_f8 az = (0 - m->gz) * m->iz, bz = (size - m->gz) * m->iz;
    m->t = fathom_lanes_max(az, fathom_lanes_max(ay, fathom_lanes_max(ax, (fathom_lanes_f8)tmin)));
    m->end = fathom_lanes_min(bz, fathom_lanes_min(by, fathom_lanes_min(bx, (fathom_lanes_f8)tmax)));
    const fathom_lanes_i8 lane = {0, 1, 2, 3, 4, 5, 6, 7};
    m->active = (m->t <= m->end) & (lane < count);
    // A ray entering on the grid's upper faces (coordinate 32) starts in the last cell.
    const float lastCell = FATHOM_GRID_CELLS - 1;
    m->cx = fathom_march_cells(m->gx + m->t * m->vx, lastCell);
    m->cy = fathom_march_cells(m->gy + m->t * m->vy, lastCell);
    m->cz = fathom_march_cells(m->gz + m->t * m->vz, lastCell);
    m->middle = m->t;
    m->found = (fathom_lanes_i8)0;
}

/// One step of every active lane: a lane in an occupied cell stops there, keeping the t in the middle of its way
/// through the cell; the others jump past the cube of empty cells ahead of them that the distance promises, and stop
/// when they leave the grid or the range of t. No branch on the lanes: which ones stop is as good as random.
static inline __attribute__((always_inline)) void fathom_march_step(fathom_march_lanes *m, const uint8_t *distance) {
    fathom_lanes_i8 k = fathom_march_gather(distance, m->cx | m->cy << 5 | m->cz << 10 | m->octant);
    // The cube of k cells a side from the cell on, ahead of the ray, is empty (none when k = 0): the ray leaves it
    // through the first of its upper faces, cell + max(k, 1) on each axis.
    fathom_lanes_i8 occupied = k == 0;
    fathom_lanes_i8 above = k - occupied;  // occupied is -1 or 0: k, or 1 for k = 0
    fathom_lanes_i8 highX = m->cx + above, highY = m->cy + above, highZ = m->cz + above;
    fathom_lanes_f8 ex = (__builtin_convertvector(highX, fathom_lanes_f8) - m->gx) * m->ix;
    fathom_lanes_f8 ey = (__builtin_convertvector(highY, fathom_lanes_f8) - m->gy) * m->iy;
    fathom_lanes_f8 ez = (__builtin_convertvector(highZ, fathom_lanes_f8) - m->gz) * m->iz;
    fathom_lanes_f8 exit = fathom_lanes_min(ez, fathom_lanes_min(ey, fathom_lanes_min(ex, (fathom_lanes_f8)__builtin_inff())));

    fathom_lanes_i8 stopped = occupied & m->active;
    fathom_lanes_f8 middle = 0.5f * (m->t + fathom_lanes_max(fathom_lanes_min(exit, m->end), m->t));
    middle = fathom_lanes_select((middle - middle) == (fathom_lanes_f8)0, middle, m->t);  // not finite: the entry
    m->middle = fathom_lanes_select(stopped, middle, m->middle);
    m->found |= stopped;
    m->active &= ~occupied;
    // Past the cube: t moves to its exit, and each coordinate to the cell of the point there, at least the cell beyond
    // the cube on the axes whose face the ray leaves through (against rounding, and at an edge or corner, all of them).
    m->t = fathom_lanes_max(exit, m->t);
    m->active &= m->t <= m->end;
    // 32: past the grid.
    const float past = FATHOM_GRID_CELLS;
    fathom_lanes_i8 px = fathom_march_cells(m->gx + m->t * m->vx, past), py = fathom_march_cells(m->gy + m->t * m->vy, past),
                    pz = fathom_march_cells(m->gz + m->t * m->vz, past);
    fathom_lanes_i8 cx = fathom_lanes_select_int(ex <= exit, fathom_lanes_max_int(px, highX), px);
    fathom_lanes_i8 cy = fathom_lanes_select_int(ey <= exit, fathom_lanes_max_int(py, highY), py);
    fathom_lanes_i8 cz = fathom_lanes_select_int(ez <= exit, fathom_lanes_max_int(pz, highZ), pz);
    m->active &= ((cx | cy | cz) & ~31) == 0;  // past the grid (32 and more)
    m->cx = cx & 31; m->cy = cy & 31; m->cz = cz & 31;
}

/// Writes the results of the march's `lanes` first lanes, rays[6 i ..< 6 i + 6] lane i's ray: found[i], and the point
/// origin + middle x direction to x[i], y[i], z[i] (meaningless, but written, where nothing was found).
static inline __attribute__((always_inline)) void fathom_march_finish(const fathom_march_lanes *m, const float *rays,
                                                                     int lanes, float *x, float *y, float *z,
                                                                     uint8_t *found) {
    uint32_t bits = fathom_lanes_sign_bits(m->found);
    for (int i = 0; i < lanes; i++) found[i] = bits >> i & 1;
    fathom_march_points(rays, lanes, m->middle, x, y, z);
}

/// `fathom_grid_march` for a grid whose cells nearly all hold a triangle, where most rays stop in their first cell:
/// two groups of eight rays step together until all sixteen stop, and then take the next sixteen. Taking rays lane by
/// lane costs more than it saves there (bench/README.md, "The march's idle lanes"). The same results.
static inline void fathom_grid_march_dense(const uint8_t *distance, const float *frame, const float *rays, int count,
                                           float tmin, float tmax, float *x, float *y, float *z, uint8_t *found) {
    for (int first = 0; first < count; first += 16) {
        int rest = count - first;
        int lanesA = rest < 8 ? rest : 8, lanesB = rest <= 8 ? 0 : rest < 16 ? rest - 8 : 8;
        // A group without rays reads the first group's (its lanes inactive), never past the end.
        const float *raysA = rays + 6 * first, *raysB = lanesB > 0 ? raysA + 48 : raysA;
        fathom_march_lanes a, b;
        fathom_march_start(&a, frame, raysA, lanesA, tmin, tmax);
        fathom_march_start(&b, frame, raysB, lanesB, tmin, tmax);
        for (int step = 0; step < FATHOM_GRID_MAX_STEPS && fathom_lanes_sign_bits(a.active | b.active) != 0; step++) {
            fathom_march_step(&a, distance);
            fathom_march_step(&b, distance);
        }
        fathom_march_finish(&a, raysA, lanesA, x + first, y + first, z + first, found + first);
        fathom_march_finish(&b, raysB, lanesB, x + first + 8, y + first + 8, z + first + 8, found + first + 8);
    }
}

/// Rays whose starts `fathom_grid_march` computes at once, for its lanes to take from as they free.
#define FATHOM_MARCH_STAGE 256

/// A group takes new rays into its free lanes (those whose rays stopped) once this many are free: fewer idles the lanes
/// less but takes rays more often, each time a permute and a blend per field of state (bench/README.md, "The march's
/// idle lanes").
#define FATHOM_MARCH_REFILL 4

/// lanes[index[i]] in lane i (index 0...7): one vpermd with AVX2.
static inline __attribute__((always_inline)) fathom_lanes_i8 fathom_march_permute(fathom_lanes_i8 lanes, fathom_lanes_i8 index) {
#if defined(__AVX2__)
    typedef int v8si __attribute__((vector_size(32)));
    return (fathom_lanes_i8)__builtin_ia32_permvarsi256((v8si)lanes, (v8si)index);
#else
    fathom_lanes_i8 r;
    for (int i = 0; i < 8; i++) r[i] = lanes[index[i] & 7];
    return r;
#endif
}

/// The starts of up to FATHOM_MARCH_STAGE rays, one row per field of `fathom_march_lanes` but the results (middle and
/// found), ray r at column r, and 8 more columns of inactive lanes, so that 8 columns read from any ray on lie inside.
typedef struct {
    int32_t field[16][FATHOM_MARCH_STAGE + 8];
    /// The results of the rays, as a lane last held them (ray FATHOM_MARCH_STAGE: a lane holding none). 7 more columns
    /// of middle, so that 8 read from any ray on lie inside (those past the rays are not used).
    float middle[FATHOM_MARCH_STAGE + 8];
    int32_t found[FATHOM_MARCH_STAGE + 1];
} fathom_march_stage;

/// A group of lanes with the rays they hold: ray[i] is the index (in the stage) of lane i's ray (FATHOM_MARCH_STAGE
/// for none), steps[i] the steps it has taken.
typedef struct {
    fathom_march_lanes m;
    fathom_lanes_i8 ray, steps;
} fathom_march_group;

#define FATHOM_MARCH_FIELDS(X) \
    X(0, gx, f) X(1, gy, f) X(2, gz, f) X(3, vx, f) X(4, vy, f) X(5, vz, f) X(6, ix, f) X(7, iy, f) X(8, iz, f) \
    X(9, t, f) X(10, end, f) X(11, cx, i) X(12, cy, i) X(13, cz, i) X(14, octant, i) X(15, active, i)

/// Stages the starts of `count` rays (1...FATHOM_MARCH_STAGE) of `rays`, 8 at a time.
static inline __attribute__((always_inline)) void fathom_march_stage_rays(fathom_march_stage *stage, const float *frame,
                                                                         const float *rays, int count, float tmin, float tmax) {
    for (int first = 0; first < count + 8; first += 8) {
        int lanes = count - first < 0 ? 0 : count - first < 8 ? count - first : 8;
        fathom_march_lanes m;
        fathom_march_start(&m, frame, lanes > 0 ? rays + 6 * first : rays, lanes, tmin, tmax);
#define FATHOM_MARCH_STAGE_FIELD(k, name, kind) __builtin_memcpy(&stage->field[k][first], &m.name, 32);
        FATHOM_MARCH_FIELDS(FATHOM_MARCH_STAGE_FIELD)
#undef FATHOM_MARCH_STAGE_FIELD
    }
}

/// Records every lane's result (middle and found) as its ray's in the stage: eight stores each, without a branch. A lane
/// still marching records a result that it records again once it stops; one that stopped records the same again.
static inline __attribute__((always_inline)) void fathom_march_record(const fathom_march_group *g, fathom_march_stage *stage) {
    float middle[8];
    int32_t found[8], ray[8];
    __builtin_memcpy(middle, &g->m.middle, 32);
    __builtin_memcpy(found, &g->m.found, 32);
    __builtin_memcpy(ray, &g->ray, 32);
    for (int i = 0; i < 8; i++) {
        stage->middle[ray[i]] = middle[i];
        stage->found[ray[i]] = found[i];
    }
}

/// Gives the group's free lanes (bits `lanes`) the stage's next rays, from ray *next on, while there are (of `count`):
/// each field's 8 columns from *next on permuted so that the k-th free lane gets ray *next + k, and blended in.
static inline __attribute__((always_inline)) void fathom_march_take(fathom_march_group *g, uint32_t lanes,
                                                                   const fathom_march_stage *stage, int *next, int count) {
    // The k-th free lane (from 0) takes ray *next + k: k from the free lanes' running count (an exclusive prefix sum
    // over the lanes, in three shifted adds), for k below the rays left.
    const fathom_lanes_i8 lane = {0, 1, 2, 3, 4, 5, 6, 7}, zero = 0;
    fathom_lanes_i8 free = (((fathom_lanes_i8)0 + (int32_t)lanes) >> lane) & 1;
    fathom_lanes_i8 upTo = free + __builtin_shufflevector(free, zero, 8, 0, 1, 2, 3, 4, 5, 6);
    upTo += __builtin_shufflevector(upTo, zero, 8, 8, 0, 1, 2, 3, 4, 5);
    upTo += __builtin_shufflevector(upTo, zero, 8, 8, 8, 8, 0, 1, 2, 3);
    fathom_lanes_i8 take = (free == 1) & (upTo <= count - *next), index = upTo - 1;
#define FATHOM_MARCH_TAKE_FIELD(k, name, kind)                                                              \
    {                                                                                                      \
        fathom_lanes_i8 column;                                                                            \
        __builtin_memcpy(&column, &stage->field[k][*next], 32);                                           \
        fathom_lanes_i8 moved = fathom_march_permute(column, index);                                      \
        g->m.name = (fathom_lanes_##kind##8)fathom_lanes_select_int(take, moved, (fathom_lanes_i8)g->m.name); \
    }
    FATHOM_MARCH_FIELDS(FATHOM_MARCH_TAKE_FIELD)
#undef FATHOM_MARCH_TAKE_FIELD
    g->m.middle = fathom_lanes_select(take, g->m.t, g->m.middle);
    g->m.found &= ~take;
    g->ray = fathom_lanes_select_int(take, *next + index, g->ray);
    g->steps &= ~take;
    *next += __builtin_popcount(fathom_lanes_sign_bits(take));
}

/// One step of the group's active lanes; a lane stops after FATHOM_GRID_MAX_STEPS steps.
static inline __attribute__((always_inline)) void fathom_march_group_step(fathom_march_group *g, const uint8_t *distance) {
    fathom_march_step(&g->m, distance);
    g->steps += 1;
    g->m.active &= g->steps < FATHOM_GRID_MAX_STEPS;
}

/// While there are rays to take and FATHOM_MARCH_REFILL of the group's lanes are free, records the lanes' results and
/// gives the free ones new rays (a free lane that is not given one keeps its result until the end). Returns whether a
/// lane is active.
static inline __attribute__((always_inline)) int fathom_march_refill(fathom_march_group *g, fathom_march_stage *stage, int *next,
                                                                    int count) {
    uint32_t idle = ~fathom_lanes_sign_bits(g->m.active) & 0xff;
    if (*next < count && __builtin_popcount(idle) >= FATHOM_MARCH_REFILL) {
        fathom_march_record(g, stage);
        fathom_march_take(g, idle, stage, next, count);
    }
    return fathom_lanes_sign_bits(g->m.active) != 0;
}

/// The first occupied cell of each of `count` rays, rays[6 i ..< 6 i + 6] = origin xyz, direction xyz (world frame),
/// within [tmin, tmax]. `distance` has eight tables of one byte per cell, one per octant o of directions (bit 0 set for
/// rays toward lower x, bit 1 lower y, bit 2 lower z), in the octant's mirrored coordinates (x' = 31 - x where bit 0 is
/// set, ...): cell (x', y', z') at o x 32768 + x' + 32 y' + 1024 z' holds 0 where a triangle lies, else the Chebyshev
/// distance in cells to the nearest such cell at equal or higher mirrored coordinates on every axis (any value above
/// 31 when there is none); and 3 more bytes after the last table (read, not used). `frame`: the grid's corner xyz and
/// its cells per unit along each axis. For ray i, found[i] = 1 when it meets an occupied cell within [tmin, tmax] (in
/// FATHOM_GRID_MAX_STEPS steps), with (x[i], y[i], z[i]) the point in the middle of its way through that cell (world
/// frame); found[i] = 0 otherwise, the point then written but meaningless.
///
/// From a cell at distance k >= 1, the cube of k cells a side from it on, ahead of the ray on every axis, is empty: the
/// ray (running forward in mirrored coordinates) stays in it until it leaves through an upper face, and a lane jumps
/// to there and the cell beyond, so it meets the same first occupied cell as a cell-by-cell march. Plane distances
/// that are NaN (a ray lying in a cell's bounding plane: 0 x infinity) bound nothing, as in the BVH's box test.
///
/// Rays take from 1 to dozens of steps, so a group of eight that ran until its last lane stopped would keep most lanes
/// idle. Instead, the starts of FATHOM_MARCH_STAGE rays are staged, and a group's lanes take new rays from there as
/// they free. Three groups step in one loop: a step waits on its gather and the arithmetic after it, which the other
/// groups' steps fill. Each ray's march is the same whichever lane runs it, so the results are too.
static inline void fathom_grid_march(const uint8_t *distance, const float *frame, const float *rays, int count, float tmin,
                                     float tmax, float *x, float *y, float *z, uint8_t *found) {
    fathom_march_stage stage;
    for (int first = 0; first < count; first += FATHOM_MARCH_STAGE) {
        int staged = count - first < FATHOM_MARCH_STAGE ? count - first : FATHOM_MARCH_STAGE;
        const float *r = rays + 6 * first;
        fathom_march_stage_rays(&stage, frame, r, staged, tmin, tmax);
        // The groups start with every lane free and inactive.
        fathom_march_group g0;
#define FATHOM_MARCH_FREE_FIELD(k, name, kind) __builtin_memcpy(&g0.m.name, &stage.field[k][staged], 32);
        FATHOM_MARCH_FIELDS(FATHOM_MARCH_FREE_FIELD)
#undef FATHOM_MARCH_FREE_FIELD
        g0.m.middle = 0; g0.m.found = 0;
        g0.ray = FATHOM_MARCH_STAGE; g0.steps = 0;
        fathom_march_group a = g0, b = g0, c = g0;
        int next = 0;
        int active = fathom_march_refill(&a, &stage, &next, staged) | fathom_march_refill(&b, &stage, &next, staged) |
                     fathom_march_refill(&c, &stage, &next, staged);
        // The rays after these, which the next stage (or the caller's next call) reads, are prefetched two lines per
        // round of steps: the stepping reads no rays, so the hardware's prefetcher falls behind while it runs.
        const char *after = (const char *)(r + 6 * staged);
        intptr_t ahead = 0;
        while (active | (next < staged)) {
            if (ahead < 24 * FATHOM_MARCH_STAGE) {
                fathom_lanes_prefetch(after, ahead);
                fathom_lanes_prefetch(after, ahead + 64);
                ahead += 128;
            }
            fathom_march_group_step(&a, distance);
            fathom_march_group_step(&b, distance);
            fathom_march_group_step(&c, distance);
            active = fathom_march_refill(&a, &stage, &next, staged);
            active |= fathom_march_refill(&b, &stage, &next, staged);
            active |= fathom_march_refill(&c, &stage, &next, staged);
        }
        fathom_march_record(&a, &stage);
        fathom_march_record(&b, &stage);
        fathom_march_record(&c, &stage);
        for (int i = 0; i < staged; i += 8) {
            int lanes = staged - i < 8 ? staged - i : 8;
            fathom_lanes_f8 t;
            __builtin_memcpy(&t, &stage.middle[i], 32);
            for (int j = 0; j < lanes; j++) found[first + i + j] = stage.found[i + j] != 0;
            fathom_march_points(r + 6 * i, lanes, t, x + first + i, y + first + i, z + first + i);
        }
    }
}

#endif
