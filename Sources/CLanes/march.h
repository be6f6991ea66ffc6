// The batch ray order's march through a mesh's occupancy grid (Swift's `OccupancyGrid`), eight rays at a time in the
// lanes of one vector: each step of a lane is a jump over a cube of empty cells, not a cell, and the eight lanes'
// steps are independent, so they overlap where a single ray's chain of dependent steps would wait.
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
/// current cell (mirrored; `flip` turns it into the real cell's index), and which lanes still march.
typedef struct {
    fathom_lanes_f8 gx, gy, gz, vx, vy, vz, ix, iy, iz, t, end;
    fathom_lanes_i8 cx, cy, cz, flip, active;
    /// Where the lanes that stopped in an occupied cell (`found`) stopped: the t in the middle of their way through it.
    fathom_lanes_f8 middle;
    fathom_lanes_i8 found;
} fathom_march_lanes;

/// Starts the march of `count` (0...8) rays, rays[6 i ..< 6 i + 6] = origin xyz, direction xyz (world frame), within
/// [tmin, tmax]: lane i at the cell where ray i enters the grid, inactive when it does not.
static inline __attribute__((always_inline)) void fathom_march_start(fathom_march_lanes *m, const float *frame,
                                                                    const float *rays, int count, float tmin, float tmax) {
    fathom_lanes_f8 ox, oy, oz, dx, dy, dz;
    for (int i = 0; i < 8; i++) {
        const float *r = rays + 6 * (i < count ? i : 0);
        ox[i] = r[0]; oy[i] = r[1]; oz[i] = r[2];
        dx[i] = r[3]; dy[i] = r[4]; dz[i] = r[5];
    }
    const fathom_lanes_f8 size = (fathom_lanes_f8)(float)FATHOM_GRID_CELLS;
    fathom_lanes_f8 gx = (ox - frame[0]) * frame[3], gy = (oy - frame[1]) * frame[4], gz = (oz - frame[2]) * frame[5];
    fathom_lanes_f8 vx = dx * frame[3], vy = dy * frame[4], vz = dz * frame[5];
    // Mirrored where the direction's sign bit is set (-0 too: it runs along the axis either way).
    fathom_lanes_i8 negX = (fathom_lanes_i8)vx < 0, negY = (fathom_lanes_i8)vy < 0, negZ = (fathom_lanes_i8)vz < 0;
    m->gx = fathom_lanes_select(negX, size - gx, gx); m->vx = fathom_lanes_select(negX, -vx, vx);
    m->gy = fathom_lanes_select(negY, size - gy, gy); m->vy = fathom_lanes_select(negY, -vy, vy);
    m->gz = fathom_lanes_select(negZ, size - gz, gz); m->vz = fathom_lanes_select(negZ, -vz, vz);
    m->flip = (negX & 31) | (negY & 31) << 5 | (negZ & 31) << 10;
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
/// through the cell; the others jump past the cube of empty cells the distance promises, and stop when they leave the
/// grid or the range of t. No branch on the lanes: which ones stop is as good as random.
static inline __attribute__((always_inline)) void fathom_march_step(fathom_march_lanes *m, const uint8_t *distance) {
    fathom_lanes_i8 k = fathom_march_gather(distance, (m->cx | m->cy << 5 | m->cz << 10) ^ m->flip);
    // Every cell less than k away is empty (none when k = 0): the ray leaves the cube of them through the first of its
    // upper faces, cell + max(k, 1) on each axis.
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
    for (int i = 0; i < lanes; i++) {
        const float *r = rays + 6 * i;
        float t = m->middle[i];
        found[i] = bits >> i & 1;
        x[i] = r[0] + t * r[3]; y[i] = r[1] + t * r[4]; z[i] = r[2] + t * r[5];
    }
}

/// The first occupied cell of each of `count` rays, rays[6 i ..< 6 i + 6] = origin xyz, direction xyz (world frame),
/// within [tmin, tmax]. `distance` has one byte per cell (x, y, z) at x + 32 y + 1024 z: 0 where a triangle lies, else
/// the Chebyshev distance in cells to the nearest such cell (any value above 31 when there is none), and 3 more bytes
/// after the last cell (read, not used). `frame`: the grid's corner xyz and its cells per unit along each axis. For
/// ray i, found[i] = 1 when it meets an occupied cell within [tmin, tmax] (in FATHOM_GRID_MAX_STEPS steps), with
/// (x[i], y[i], z[i]) the point in the middle of its way through that cell (world frame); found[i] = 0 otherwise, the
/// point then written but meaningless.
///
/// From a cell at distance k >= 1, every cell less than k away is empty: a lane jumps to where the ray leaves that cube
/// and enters the cell beyond it, so it meets the same first occupied cell as a cell-by-cell march. Plane distances
/// that are NaN (a ray lying in a cell's bounding plane: 0 x infinity) bound nothing, as in the BVH's box test. Two
/// groups of eight lanes step in one loop: a step waits on its gather and the arithmetic after it, which the other
/// group's step fills.
static inline void fathom_grid_march(const uint8_t *distance, const float *frame, const float *rays, int count, float tmin,
                                     float tmax, float *x, float *y, float *z, uint8_t *found) {
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

#endif
