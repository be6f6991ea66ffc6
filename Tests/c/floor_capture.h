/* A scan of the floor y = 0 seen by moving cameras, written with fathom_scan_writer: the capture tests' input.
 * Before including this file define W and H (the depth grid, SAMPLES = W * H), RGB_W and RGB_H (the RGB image the
 * intrinsics refer to), N (frames) and SCAN_ID, and the functions angle_of(f) (frame f's place on the cameras'
 * circle, radians), k_of() (the RGB intrinsics) and time_of(f) (nanoseconds). */
#ifndef FATHOM_TEST_FLOOR_CAPTURE_H
#define FATHOM_TEST_FLOOR_CAPTURE_H

/* Camera f on a circle of radius 1 m, 1 m above the floor, at angle_of(f), looking at the origin (x right, y up,
 * z back, column-major rotation r; position o). */
static void camera_of(int f, double r[9], double o[3]) {
    double a = angle_of(f), fwd[3], right[3], up[3], wup[3] = {0, 1, 0};
    o[0] = cos(a);
    o[1] = 1;
    o[2] = sin(a);
    fwd[0] = -o[0];
    fwd[1] = -o[1];
    fwd[2] = -o[2];
    t_normalize(fwd);
    t_cross(fwd, wup, right);
    t_normalize(right);
    t_cross(right, fwd, up);
    r[0] = right[0], r[1] = right[1], r[2] = right[2];
    r[3] = up[0], r[4] = up[1], r[5] = up[2];
    r[6] = -fwd[0], r[7] = -fwd[1], r[8] = -fwd[2];
}

static fathom_pose pose_of(int f) {
    double r[9], o[3];
    camera_of(f, r, o);
    return t_pose(r, o[0], o[1], o[2]);
}

/* z-depth of the floor y = 0 seen by camera f: the depth-grid intrinsics are the RGB ones / 20 (fx 25, cx 16,
 * cy 12); sample (i, j) looks along R ((i + 0.5 - cx) / fx, -(j + 0.5 - cy) / fy, -1), whose ray parameter at
 * the floor is the z-depth. No hit (or farther than 5 m): 0, no sample. Confidence 2 everywhere. */
static void render(int f, float depth[SAMPLES], uint8_t conf[SAMPLES]) {
    double r[9], o[3], v[3], d[3];
    int i, j;
    camera_of(f, r, o);
    for (j = 0; j < H; j++)
        for (i = 0; i < W; i++) {
            double s;
            v[0] = (i + 0.5 - 16) / 25.0;
            v[1] = -(j + 0.5 - 12) / 25.0;
            v[2] = -1;
            t_mat3_apply(r, v, d);
            s = d[1] < 0 ? -o[1] / d[1] : 0;
            depth[j * W + i] = (float)(s < 5 ? s : 0);
            conf[j * W + i] = 2;
        }
}

/* Writes the capture into `dir`; returns 1 on success. */
static int write_capture(const char *dir) {
    fathom_scan_writer_options o;
    fathom_scan_writer *w = NULL;
    static float depth[SAMPLES];
    static uint8_t conf[SAMPLES];
    int f, ok = 1;
    CHECK_OK(fathom_scan_writer_options_init(&o));
    o.depth_width = W;
    o.depth_height = H;
    o.rgb_width = RGB_W;
    o.rgb_height = RGB_H;
    o.depth_format = FATHOM_DEPTH_FLOAT32;
    o.frequency = 10;
    if (fathom_scan_writer_create(dir, SCAN_ID, &o, &w) != FATHOM_OK) {
        printf("    fathom_scan_writer_create: %s\n", fathom_last_error());
        return 0;
    }
    for (f = 0; f < N && ok; f++) {
        fathom_intrinsics k = k_of();
        fathom_pose p = pose_of(f);
        render(f, depth, conf);
        if (fathom_scan_writer_append(w, time_of(f), &k, &p, depth, sizeof depth, conf, sizeof conf) != FATHOM_OK) {
            printf("    fathom_scan_writer_append: %s\n", fathom_last_error());
            ok = 0;
        }
    }
    if (ok && fathom_scan_writer_finish(w) != FATHOM_OK) {
        printf("    fathom_scan_writer_finish: %s\n", fathom_last_error());
        ok = 0;
    }
    fathom_scan_writer_destroy(w);
    return ok;
}

#endif
