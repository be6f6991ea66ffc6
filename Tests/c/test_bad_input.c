/* Bad input across the ABI: each gives its documented status, fathom_last_error() names the function, the
 * argument and the problem, outputs are not written, and an edited box is bit-for-bit unchanged after a failed
 * edit. No input may crash the process (a crash fails this program). */
#include "fathom.h"
#include "check.h"
#include "expect.h"
#include "testmath.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


static fathom_pose rigid_pose(void) {
    double r[9];
    t_rot_y(0.3, r);
    return t_pose(r, 1, 2, 3);
}

static fathom_box good_box(void) {
    fathom_box b;
    fathom_status s = fathom_box_init(v3(1, 2, 3), v3(0.4f, 0.6f, 0.8f), 0.5f, &b);
    if (s != FATHOM_OK) printf("    (fathom_box_init failed: %s)\n", fathom_last_error());
    return b;
}

static fathom_obb good_obb(void) {
    fathom_obb o;
    o.center = v3(0, 0, 0);
    o.scale = v3(2, 4, 6);
    o.rotation = q4(0, 0, 0, 1);
    return o;
}


/* 30 points (xyz, 4 floats per point) for the buffer functions. */
static float PTS[30 * 4];

static void init_points(void) {
    int i;
    unsigned long st = 5;
    for (i = 0; i < 30 * 4; i++) PTS[i] = (float)(t_rand(&st) * 2 - 1);
}

/* ---- NULL pointers ---------------------------------------------------------------------------- */

static void test_null_pointers(void) {
    fathom_quat q = q4(0, 0, 0, 1), qo;
    fathom_vec3 v = v3(1, 2, 3), vo;
    fathom_pose p = rigid_pose(), po;
    fathom_box b = good_box(), bo;
    fathom_obb o = good_obb(), oo;
    float m9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, m16[16], f, f6[6];
    fathom_vec3 c8[8];
    fathom_face faces[6];
    size_t n;
    uint8_t mask[30];
    uint64_t idx[30];
    char buf[8192];
    fathom_label_request lr;
    fathom_label_placement lp;
    int i;

    check_section("NULL pointers");
    for (i = 0; i < 16; i++) m16[i] = (i % 5 == 0) ? 1.0f : 0.0f;

    EXPECT(fathom_quat_from_axis_angle(v, 1.0f, NULL), FATHOM_ERR_NULL_POINTER, "fathom_quat_from_axis_angle", "out", P_NULL);
    EXPECT(fathom_quat_from_matrix(NULL, &qo), FATHOM_ERR_NULL_POINTER, "fathom_quat_from_matrix", "matrix", P_NULL);
    EXPECT(fathom_quat_from_matrix(m9, NULL), FATHOM_ERR_NULL_POINTER, "fathom_quat_from_matrix", "out", P_NULL);
    EXPECT(fathom_quat_to_matrix(q, NULL), FATHOM_ERR_NULL_POINTER, "fathom_quat_to_matrix", "out", P_NULL);
    EXPECT(fathom_quat_multiply(q, q, NULL), FATHOM_ERR_NULL_POINTER, "fathom_quat_multiply", "out", P_NULL);
    EXPECT(fathom_quat_normalize(q, NULL), FATHOM_ERR_NULL_POINTER, "fathom_quat_normalize", "out", P_NULL);
    EXPECT(fathom_quat_slerp(q, q, 0.5f, NULL), FATHOM_ERR_NULL_POINTER, "fathom_quat_slerp", "out", P_NULL);
    EXPECT(fathom_quat_angle_between(q, q, NULL), FATHOM_ERR_NULL_POINTER, "fathom_quat_angle_between", "out_radians", P_NULL);
    EXPECT(fathom_quat_rotate(q, v, NULL), FATHOM_ERR_NULL_POINTER, "fathom_quat_rotate", "out", P_NULL);

    EXPECT(fathom_pose_from_rotation_translation(q, v, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_pose_from_rotation_translation", "out", P_NULL);
    EXPECT(fathom_pose_to_rotation_translation(NULL, &qo, &vo), FATHOM_ERR_NULL_POINTER,
           "fathom_pose_to_rotation_translation", "pose", P_NULL);
    EXPECT(fathom_pose_to_rotation_translation(&p, NULL, &vo), FATHOM_ERR_NULL_POINTER,
           "fathom_pose_to_rotation_translation", "out_rotation", P_NULL);
    EXPECT(fathom_pose_to_rotation_translation(&p, &qo, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_pose_to_rotation_translation", "out_translation", P_NULL);
    EXPECT(fathom_pose_from_row_major(NULL, &po), FATHOM_ERR_NULL_POINTER, "fathom_pose_from_row_major", "rows", P_NULL);
    EXPECT(fathom_pose_from_row_major(m16, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_from_row_major", "out", P_NULL);
    EXPECT(fathom_pose_to_row_major(NULL, m16), FATHOM_ERR_NULL_POINTER, "fathom_pose_to_row_major", "pose", P_NULL);
    EXPECT(fathom_pose_to_row_major(&p, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_to_row_major", "out_rows", P_NULL);
    EXPECT(fathom_pose_check_rigid(NULL, 1e-3f), FATHOM_ERR_NULL_POINTER, "fathom_pose_check_rigid", "pose", P_NULL);
    EXPECT(fathom_pose_orthonormalize(NULL, 0.01f, &po), FATHOM_ERR_NULL_POINTER, "fathom_pose_orthonormalize", "pose", P_NULL);
    EXPECT(fathom_pose_orthonormalize(&p, 0.01f, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_orthonormalize", "out", P_NULL);
    EXPECT(fathom_pose_compose(NULL, &p, &po), FATHOM_ERR_NULL_POINTER, "fathom_pose_compose", "a", P_NULL);
    EXPECT(fathom_pose_compose(&p, NULL, &po), FATHOM_ERR_NULL_POINTER, "fathom_pose_compose", "b", P_NULL);
    EXPECT(fathom_pose_compose(&p, &p, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_compose", "out", P_NULL);
    EXPECT(fathom_pose_invert(NULL, &po), FATHOM_ERR_NULL_POINTER, "fathom_pose_invert", "pose", P_NULL);
    EXPECT(fathom_pose_invert(&p, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_invert", "out", P_NULL);
    EXPECT(fathom_pose_transform_point(NULL, v, &vo), FATHOM_ERR_NULL_POINTER, "fathom_pose_transform_point", "pose", P_NULL);
    EXPECT(fathom_pose_transform_point(&p, v, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_transform_point", "out", P_NULL);
    EXPECT(fathom_pose_transform_direction(NULL, v, &vo), FATHOM_ERR_NULL_POINTER, "fathom_pose_transform_direction",
           "pose", P_NULL);
    EXPECT(fathom_pose_transform_direction(&p, v, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_transform_direction",
           "out", P_NULL);
    {
        float out[30 * 3];
        EXPECT(fathom_pose_transform_points(NULL, PTS, 30, 16, out), FATHOM_ERR_NULL_POINTER,
               "fathom_pose_transform_points", "pose", P_NULL);
        EXPECT(fathom_pose_transform_points(&p, NULL, 30, 16, out), FATHOM_ERR_NULL_POINTER,
               "fathom_pose_transform_points", "points", P_NULL);
        EXPECT(fathom_pose_transform_points(&p, PTS, 30, 16, NULL), FATHOM_ERR_NULL_POINTER,
               "fathom_pose_transform_points", "out", P_NULL);
    }
    EXPECT(fathom_pose_yaw(NULL, &f), FATHOM_ERR_NULL_POINTER, "fathom_pose_yaw", "pose", P_NULL);
    EXPECT(fathom_pose_yaw(&p, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_yaw", "out_radians", P_NULL);
    EXPECT(fathom_pose_distance(NULL, &p, &f, &f), FATHOM_ERR_NULL_POINTER, "fathom_pose_distance", "a", P_NULL);
    EXPECT(fathom_pose_distance(&p, NULL, &f, &f), FATHOM_ERR_NULL_POINTER, "fathom_pose_distance", "b", P_NULL);
    EXPECT(fathom_pose_distance(&p, &p, NULL, &f), FATHOM_ERR_NULL_POINTER, "fathom_pose_distance", "out_meters", P_NULL);
    EXPECT(fathom_pose_distance(&p, &p, &f, NULL), FATHOM_ERR_NULL_POINTER, "fathom_pose_distance", "out_radians", P_NULL);

    /* Boxes. */
    EXPECT(fathom_box_init(v, v, 0, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_init", "out", P_NULL);
    EXPECT(fathom_box_check(NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_check", "box", P_NULL);
    EXPECT(fathom_box_corners(NULL, c8), FATHOM_ERR_NULL_POINTER, "fathom_box_corners", "box", P_NULL);
    EXPECT(fathom_box_corners(&b, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_corners", "out_corners", P_NULL);
    EXPECT(fathom_box_set_center(NULL, v), FATHOM_ERR_NULL_POINTER, "fathom_box_set_center", "box", P_NULL);
    EXPECT(fathom_box_update_center(NULL, v), FATHOM_ERR_NULL_POINTER, "fathom_box_update_center", "box", P_NULL);
    EXPECT(fathom_box_update_center_in_camera(NULL, v, &p), FATHOM_ERR_NULL_POINTER,
           "fathom_box_update_center_in_camera", "box", P_NULL);
    bo = b;
    EXPECT(fathom_box_update_center_in_camera(&b, v, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_box_update_center_in_camera", "camera", P_NULL);
    CHECK(memcmp(&b, &bo, sizeof b) == 0);
    EXPECT(fathom_box_set_center_on_floor(NULL, 0, 0), FATHOM_ERR_NULL_POINTER, "fathom_box_set_center_on_floor", "box",
           P_NULL);
    EXPECT(fathom_box_set_scale(NULL, v), FATHOM_ERR_NULL_POINTER, "fathom_box_set_scale", "box", P_NULL);
    EXPECT(fathom_box_update_scale(NULL, v), FATHOM_ERR_NULL_POINTER, "fathom_box_update_scale", "box", P_NULL);
    EXPECT(fathom_box_set_angle(NULL, 1), FATHOM_ERR_NULL_POINTER, "fathom_box_set_angle", "box", P_NULL);
    EXPECT(fathom_box_update_angle(NULL, 1), FATHOM_ERR_NULL_POINTER, "fathom_box_update_angle", "box", P_NULL);
    EXPECT(fathom_box_set_floor(NULL, 0), FATHOM_ERR_NULL_POINTER, "fathom_box_set_floor", "box", P_NULL);
    EXPECT(fathom_box_clear_floor(NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_clear_floor", "box", P_NULL);
    EXPECT(fathom_box_extend_side(NULL, v), FATHOM_ERR_NULL_POINTER, "fathom_box_extend_side", "box", P_NULL);
    EXPECT(fathom_box_shrink_side(NULL, v), FATHOM_ERR_NULL_POINTER, "fathom_box_shrink_side", "box", P_NULL);
    EXPECT(fathom_box_faces(NULL, faces), FATHOM_ERR_NULL_POINTER, "fathom_box_faces", "box", P_NULL);
    EXPECT(fathom_box_faces(&b, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_faces", "out_faces", P_NULL);
    EXPECT(fathom_box_face_distances(NULL, v, f6), FATHOM_ERR_NULL_POINTER, "fathom_box_face_distances", "box", P_NULL);
    EXPECT(fathom_box_face_distances(&b, v, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_face_distances", "out_distances",
           P_NULL);

    /* Manifests. buffer may be NULL only when it is too small anyway (capacity 0). */
    EXPECT(fathom_box_manifest_write(NULL, buf, sizeof buf, &n), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_write",
           "box", P_NULL);
    EXPECT(fathom_box_manifest_write(&b, NULL, 100000, &n), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_write",
           "buffer", P_NULL);
    EXPECT(fathom_box_manifest_write(&b, buf, sizeof buf, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_write",
           "out_length", P_NULL);
    EXPECT(fathom_box_manifest_read(NULL, 10, &bo), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_read", "json", P_NULL);
    EXPECT(fathom_box_manifest_read("{}", 2, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_read", "out", P_NULL);
    EXPECT(fathom_box_manifest_save(NULL, "/tmp/x.json"), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_save", "box",
           P_NULL);
    EXPECT(fathom_box_manifest_save(&b, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_save", "path", P_NULL);
    EXPECT(fathom_box_manifest_load(NULL, &bo), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_load", "path", P_NULL);
    EXPECT(fathom_box_manifest_load("/tmp/x.json", NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_manifest_load", "out",
           P_NULL);

    /* Oriented boxes and buffers. */
    EXPECT(fathom_box_to_obb(NULL, &oo), FATHOM_ERR_NULL_POINTER, "fathom_box_to_obb", "box", P_NULL);
    EXPECT(fathom_box_to_obb(&b, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_to_obb", "out", P_NULL);
    EXPECT(fathom_obb_check(NULL), FATHOM_ERR_NULL_POINTER, "fathom_obb_check", "obb", P_NULL);
    EXPECT(fathom_obb_corners(NULL, c8), FATHOM_ERR_NULL_POINTER, "fathom_obb_corners", "obb", P_NULL);
    EXPECT(fathom_obb_corners(&o, NULL), FATHOM_ERR_NULL_POINTER, "fathom_obb_corners", "out_corners", P_NULL);
    EXPECT(fathom_obb_volume(NULL, &f), FATHOM_ERR_NULL_POINTER, "fathom_obb_volume", "obb", P_NULL);
    EXPECT(fathom_obb_volume(&o, NULL), FATHOM_ERR_NULL_POINTER, "fathom_obb_volume", "out_volume", P_NULL);
    EXPECT(fathom_obb_count_inside(NULL, PTS, 30, 16, &n), FATHOM_ERR_NULL_POINTER, "fathom_obb_count_inside", "obb", P_NULL);
    EXPECT(fathom_obb_count_inside(&o, NULL, 30, 16, &n), FATHOM_ERR_NULL_POINTER, "fathom_obb_count_inside", "points",
           P_NULL);
    EXPECT(fathom_obb_count_inside(&o, PTS, 30, 16, NULL), FATHOM_ERR_NULL_POINTER, "fathom_obb_count_inside",
           "out_inside", P_NULL);
    EXPECT(fathom_obb_mask_inside(NULL, PTS, 30, 16, mask, &n), FATHOM_ERR_NULL_POINTER, "fathom_obb_mask_inside", "obb",
           P_NULL);
    EXPECT(fathom_obb_mask_inside(&o, NULL, 30, 16, mask, &n), FATHOM_ERR_NULL_POINTER, "fathom_obb_mask_inside",
           "points", P_NULL);
    EXPECT(fathom_obb_mask_inside(&o, PTS, 30, 16, NULL, &n), FATHOM_ERR_NULL_POINTER, "fathom_obb_mask_inside",
           "out_mask", P_NULL);
    CHECK_OK(fathom_obb_mask_inside(&o, PTS, 30, 16, mask, NULL)); /* out_inside may be NULL */
    EXPECT(fathom_obb_indices_inside(NULL, PTS, 30, 16, idx, 30, &n), FATHOM_ERR_NULL_POINTER,
           "fathom_obb_indices_inside", "obb", P_NULL);
    EXPECT(fathom_obb_indices_inside(&o, NULL, 30, 16, idx, 30, &n), FATHOM_ERR_NULL_POINTER,
           "fathom_obb_indices_inside", "points", P_NULL);
    EXPECT(fathom_obb_indices_inside(&o, PTS, 30, 16, NULL, 5, &n), FATHOM_ERR_NULL_POINTER,
           "fathom_obb_indices_inside", "out_indices", P_NULL);
    EXPECT(fathom_obb_indices_inside(&o, PTS, 30, 16, idx, 30, NULL), FATHOM_ERR_NULL_POINTER,
           "fathom_obb_indices_inside", "out_inside", P_NULL);
    {
        float d[30];
        EXPECT(fathom_obb_signed_distances(NULL, PTS, 30, 16, d), FATHOM_ERR_NULL_POINTER, "fathom_obb_signed_distances",
               "obb", P_NULL);
        EXPECT(fathom_obb_signed_distances(&o, NULL, 30, 16, d), FATHOM_ERR_NULL_POINTER, "fathom_obb_signed_distances",
               "points", P_NULL);
        EXPECT(fathom_obb_signed_distances(&o, PTS, 30, 16, NULL), FATHOM_ERR_NULL_POINTER,
               "fathom_obb_signed_distances", "out_distances", P_NULL);
    }
    EXPECT(fathom_obb_fit_pca(NULL, 30, 16, &oo, &f), FATHOM_ERR_NULL_POINTER, "fathom_obb_fit_pca", "points", P_NULL);
    EXPECT(fathom_obb_fit_pca(PTS, 30, 16, NULL, &f), FATHOM_ERR_NULL_POINTER, "fathom_obb_fit_pca", "out", P_NULL);
    EXPECT(fathom_obb_fit_pca(PTS, 30, 16, &oo, NULL), FATHOM_ERR_NULL_POINTER, "fathom_obb_fit_pca", "out_volume", P_NULL);
    EXPECT(fathom_box_fit_upright(NULL, 30, 16, &bo, &f), FATHOM_ERR_NULL_POINTER, "fathom_box_fit_upright", "points",
           P_NULL);
    EXPECT(fathom_box_fit_upright(PTS, 30, 16, NULL, &f), FATHOM_ERR_NULL_POINTER, "fathom_box_fit_upright", "out", P_NULL);
    EXPECT(fathom_box_fit_upright(PTS, 30, 16, &bo, NULL), FATHOM_ERR_NULL_POINTER, "fathom_box_fit_upright",
           "out_volume", P_NULL);

    /* Tags and labels. */
    EXPECT(fathom_tag_world_pose(NULL, &p, &po), FATHOM_ERR_NULL_POINTER, "fathom_tag_world_pose", "camera_to_world",
           P_NULL);
    EXPECT(fathom_tag_world_pose(&p, NULL, &po), FATHOM_ERR_NULL_POINTER, "fathom_tag_world_pose", "tag_in_optical",
           P_NULL);
    EXPECT(fathom_tag_world_pose(&p, &p, NULL), FATHOM_ERR_NULL_POINTER, "fathom_tag_world_pose", "out", P_NULL);
    EXPECT(fathom_tag_snap_vertical(NULL, &po), FATHOM_ERR_NULL_POINTER, "fathom_tag_snap_vertical", "tag", P_NULL);
    EXPECT(fathom_tag_snap_vertical(&p, NULL), FATHOM_ERR_NULL_POINTER, "fathom_tag_snap_vertical", "out", P_NULL);
    EXPECT(fathom_covariance_rotate(NULL, m9, m9), FATHOM_ERR_NULL_POINTER, "fathom_covariance_rotate", "rotation", P_NULL);
    EXPECT(fathom_covariance_rotate(&p, NULL, m9), FATHOM_ERR_NULL_POINTER, "fathom_covariance_rotate", "covariance",
           P_NULL);
    EXPECT(fathom_covariance_rotate(&p, m9, NULL), FATHOM_ERR_NULL_POINTER, "fathom_covariance_rotate", "out", P_NULL);
    EXPECT(fathom_tag_fuse(NULL, NULL, 1, &po, NULL), FATHOM_ERR_NULL_POINTER, "fathom_tag_fuse", "poses", P_NULL);
    EXPECT(fathom_tag_fuse(&p, NULL, 1, NULL, NULL), FATHOM_ERR_NULL_POINTER, "fathom_tag_fuse", "out", P_NULL);
    CHECK_OK(fathom_tag_fuse(&p, NULL, 1, &po, NULL)); /* covariances and out_covariance may be NULL */
    memset(&lr, 0, sizeof lr);
    lr.target_width = lr.target_height = lr.panel_width = lr.panel_height = 0.1f;
    EXPECT(fathom_label_place(NULL, &lp), FATHOM_ERR_NULL_POINTER, "fathom_label_place", "request", P_NULL);
    EXPECT(fathom_label_place(&lr, NULL), FATHOM_ERR_NULL_POINTER, "fathom_label_place", "out", P_NULL);
    CHECK_OK(fathom_label_place(&lr, &lp));
    (void)qo;
    (void)vo;
}

/* ---- NaN and infinity in every kind of float argument -------------------------------------- */

static void test_not_finite(void) {
    const float bad[3] = {(float)NAN, (float)INFINITY, (float)-INFINITY};
    fathom_quat q = q4(0, 0, 0, 1), qo;
    fathom_vec3 vo;
    fathom_pose p = rigid_pose(), po;
    fathom_box b = good_box(), before;
    float f, f6[6];
    int k, i;

    check_section("NaN / infinity: scalar floats");
    for (k = 0; k < 3; k++) {
        float x = bad[k];
        before = b;
        EXPECT(fathom_quat_from_axis_angle(v3(0, 1, 0), x, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_from_axis_angle",
               "angle", P_FINITE);
        EXPECT(fathom_quat_slerp(q, q, x, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_slerp", "t", P_FINITE);
        EXPECT(fathom_box_init(v3(0, 0, 0), v3(1, 1, 1), x, &b), FATHOM_ERR_NOT_FINITE, "fathom_box_init", "rot_y",
               P_FINITE);
        EXPECT(fathom_box_set_angle(&b, x), FATHOM_ERR_NOT_FINITE, "fathom_box_set_angle", "radians", P_FINITE);
        EXPECT(fathom_box_update_angle(&b, x), FATHOM_ERR_NOT_FINITE, "fathom_box_update_angle", "radians", P_FINITE);
        EXPECT(fathom_box_set_floor(&b, x), FATHOM_ERR_NOT_FINITE, "fathom_box_set_floor", "height", P_FINITE);
        CHECK(memcmp(&b, &before, sizeof b) == 0);
        CHECK_OK(fathom_box_set_floor(&b, 0.0f));
        before = b;
        EXPECT(fathom_box_set_center_on_floor(&b, x, 0), FATHOM_ERR_NOT_FINITE, "fathom_box_set_center_on_floor", "x",
               P_FINITE);
        EXPECT(fathom_box_set_center_on_floor(&b, 0, x), FATHOM_ERR_NOT_FINITE, "fathom_box_set_center_on_floor", "z",
               P_FINITE);
        CHECK(memcmp(&b, &before, sizeof b) == 0);
        CHECK_OK(fathom_box_clear_floor(&b));
        EXPECT(fathom_pose_check_rigid(&p, x), FATHOM_ERR_NOT_FINITE, "fathom_pose_check_rigid", "tolerance", P_FINITE);
        EXPECT(fathom_pose_orthonormalize(&p, x, &po), FATHOM_ERR_NOT_FINITE, "fathom_pose_orthonormalize",
               "max_deviation", P_FINITE);
    }

    check_section("NaN / infinity: vec3 components");
    for (k = 0; k < 3; k++)
        for (i = 0; i < 3; i++) {
            fathom_vec3 v = v3(0.1f, 0.1f, 0.1f);
            float *c = i == 0 ? &v.x : (i == 1 ? &v.y : &v.z);
            *c = bad[k];
            b = good_box();
            before = b;
            EXPECT(fathom_box_init(v, v3(1, 1, 1), 0, &b), FATHOM_ERR_NOT_FINITE, "fathom_box_init", "center", P_FINITE);
            EXPECT(fathom_box_init(v3(0, 0, 0), v, 0, &b), FATHOM_ERR_NOT_FINITE, "fathom_box_init", "scale", P_FINITE);
            EXPECT(fathom_box_set_center(&b, v), FATHOM_ERR_NOT_FINITE, "fathom_box_set_center", "center", P_FINITE);
            EXPECT(fathom_box_update_center(&b, v), FATHOM_ERR_NOT_FINITE, "fathom_box_update_center", "offset", P_FINITE);
            EXPECT(fathom_box_update_center_in_camera(&b, v, &p), FATHOM_ERR_NOT_FINITE,
                   "fathom_box_update_center_in_camera", "offset", P_FINITE);
            EXPECT(fathom_box_set_scale(&b, v), FATHOM_ERR_NOT_FINITE, "fathom_box_set_scale", "scale", P_FINITE);
            EXPECT(fathom_box_update_scale(&b, v), FATHOM_ERR_NOT_FINITE, "fathom_box_update_scale", "multiplier", P_FINITE);
            EXPECT(fathom_box_extend_side(&b, v), FATHOM_ERR_NOT_FINITE, "fathom_box_extend_side", "offset", P_FINITE);
            EXPECT(fathom_box_shrink_side(&b, v), FATHOM_ERR_NOT_FINITE, "fathom_box_shrink_side", "offset", P_FINITE);
            CHECK(memcmp(&b, &before, sizeof b) == 0);
            EXPECT(fathom_box_face_distances(&b, v, f6), FATHOM_ERR_NOT_FINITE, "fathom_box_face_distances", "point",
                   P_FINITE);
            EXPECT(fathom_quat_from_axis_angle(v, 1, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_from_axis_angle", "axis",
                   P_FINITE);
            EXPECT(fathom_quat_rotate(q, v, &vo), FATHOM_ERR_NOT_FINITE, "fathom_quat_rotate", "v", P_FINITE);
            EXPECT(fathom_pose_from_rotation_translation(q, v, &po), FATHOM_ERR_NOT_FINITE,
                   "fathom_pose_from_rotation_translation", "t", P_FINITE);
            EXPECT(fathom_pose_transform_point(&p, v, &vo), FATHOM_ERR_NOT_FINITE, "fathom_pose_transform_point", "point",
                   P_FINITE);
            EXPECT(fathom_pose_transform_direction(&p, v, &vo), FATHOM_ERR_NOT_FINITE, "fathom_pose_transform_direction",
                   "direction", P_FINITE);
        }

    check_section("NaN / infinity: quaternion components");
    for (k = 0; k < 3; k++)
        for (i = 0; i < 4; i++) {
            fathom_quat bq = q4(0, 0, 0, 1);
            float m9[9];
            float *c = i == 0 ? &bq.x : (i == 1 ? &bq.y : (i == 2 ? &bq.z : &bq.w));
            *c = bad[k];
            EXPECT(fathom_quat_multiply(bq, q, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_multiply", "a", P_FINITE);
            EXPECT(fathom_quat_multiply(q, bq, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_multiply", "b", P_FINITE);
            EXPECT(fathom_quat_normalize(bq, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_normalize", "q", P_FINITE);
            EXPECT(fathom_quat_slerp(bq, q, 0.5f, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_slerp", "a", P_FINITE);
            EXPECT(fathom_quat_slerp(q, bq, 0.5f, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_slerp", "b", P_FINITE);
            EXPECT(fathom_quat_angle_between(bq, q, &f), FATHOM_ERR_NOT_FINITE, "fathom_quat_angle_between", "a", P_FINITE);
            EXPECT(fathom_quat_rotate(bq, v3(1, 0, 0), &vo), FATHOM_ERR_NOT_FINITE, "fathom_quat_rotate", "q", P_FINITE);
            EXPECT(fathom_quat_to_matrix(bq, m9), FATHOM_ERR_NOT_FINITE, "fathom_quat_to_matrix", "q", P_FINITE);
            EXPECT(fathom_pose_from_rotation_translation(bq, v3(0, 0, 0), &po), FATHOM_ERR_NOT_FINITE,
                   "fathom_pose_from_rotation_translation", "q", P_FINITE);
        }

    check_section("NaN / infinity: float arrays and poses");
    for (k = 0; k < 3; k++) {
        int e;
        for (e = 0; e < 9; e++) {
            float m9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, out9[9];
            m9[e] = bad[k];
            EXPECT(fathom_quat_from_matrix(m9, &qo), FATHOM_ERR_NOT_FINITE, "fathom_quat_from_matrix", "matrix", P_FINITE);
            EXPECT(fathom_covariance_rotate(&p, m9, out9), FATHOM_ERR_NOT_FINITE, "fathom_covariance_rotate", "covariance",
                   P_FINITE);
            EXPECT(fathom_tag_fuse(&p, m9, 1, &po, NULL), FATHOM_ERR_NOT_FINITE, "fathom_tag_fuse", "covariances", P_FINITE);
        }
        for (e = 0; e < 16; e++) {
            float rows[16];
            fathom_pose bp = rigid_pose(), poses2[2];
            b = good_box();
            before = b;
            CHECK_OK(fathom_pose_to_row_major(&bp, rows));
            rows[e] = bad[k];
            bp.m[e] = bad[k];
            poses2[0] = rigid_pose();
            poses2[1] = bp;
            EXPECT(fathom_pose_from_row_major(rows, &po), FATHOM_ERR_NOT_FINITE, "fathom_pose_from_row_major", "rows",
                   P_FINITE);
            EXPECT(fathom_pose_check_rigid(&bp, 1e-3f), FATHOM_ERR_NOT_FINITE, "fathom_pose_check_rigid", "pose", P_FINITE);
            EXPECT(fathom_pose_orthonormalize(&bp, 0.1f, &po), FATHOM_ERR_NOT_FINITE, "fathom_pose_orthonormalize", "pose",
                   P_FINITE);
            EXPECT(fathom_pose_invert(&bp, &po), FATHOM_ERR_NOT_FINITE, "fathom_pose_invert", "pose", P_FINITE);
            EXPECT(fathom_pose_compose(&p, &bp, &po), FATHOM_ERR_NOT_FINITE, "fathom_pose_compose", "b", P_FINITE);
            EXPECT(fathom_pose_to_rotation_translation(&bp, &qo, &vo), FATHOM_ERR_NOT_FINITE,
                   "fathom_pose_to_rotation_translation", "pose", P_FINITE);
            EXPECT(fathom_pose_yaw(&bp, &f), FATHOM_ERR_NOT_FINITE, "fathom_pose_yaw", "pose", P_FINITE);
            EXPECT(fathom_pose_transform_point(&bp, v3(1, 1, 1), &vo), FATHOM_ERR_NOT_FINITE,
                   "fathom_pose_transform_point", "pose", P_FINITE);
            EXPECT(fathom_tag_world_pose(&p, &bp, &po), FATHOM_ERR_NOT_FINITE, "fathom_tag_world_pose", "tag_in_optical",
                   P_FINITE);
            EXPECT(fathom_tag_snap_vertical(&bp, &po), FATHOM_ERR_NOT_FINITE, "fathom_tag_snap_vertical", "tag", P_FINITE);
            EXPECT(fathom_tag_fuse(poses2, NULL, 2, &po, NULL), FATHOM_ERR_NOT_FINITE, "fathom_tag_fuse", "poses", P_FINITE);
            EXPECT(fathom_box_update_center_in_camera(&b, v3(0.1f, 0, 0), &bp), FATHOM_ERR_NOT_FINITE,
                   "fathom_box_update_center_in_camera", "camera", P_FINITE);
            CHECK(memcmp(&b, &before, sizeof b) == 0);
        }
    }

    check_section("NaN / infinity: struct fields (box, obb, label request)");
    for (k = 0; k < 3; k++) {
        fathom_vec3 c8[8];
        fathom_box bb;
        fathom_obb o;
        size_t n;
        fathom_label_request lr;
        fathom_label_placement lp;
        int fld;
        for (fld = 0; fld < 4; fld++) {
            bb = good_box();
            if (fld == 0) bb.center.x = bad[k];
            if (fld == 1) bb.scale.z = bad[k];
            if (fld == 2) bb.rot_y = bad[k];
            if (fld == 3) bb.has_floor = 1, bb.floor = bad[k];
            before = bb;
            EXPECT(fathom_box_check(&bb), FATHOM_ERR_NOT_FINITE, "fathom_box_check", NULL, P_FINITE);
            EXPECT(fathom_box_corners(&bb, c8), FATHOM_ERR_NOT_FINITE, "fathom_box_corners", "box", P_FINITE);
            EXPECT(fathom_box_set_center(&bb, v3(0, 0, 0)), FATHOM_ERR_NOT_FINITE, "fathom_box_set_center", "box", P_FINITE);
            EXPECT(fathom_box_set_angle(&bb, 0.1f), FATHOM_ERR_NOT_FINITE, "fathom_box_set_angle", "box", P_FINITE);
            EXPECT(fathom_box_extend_side(&bb, v3(0, 0, 0.1f)), FATHOM_ERR_NOT_FINITE, "fathom_box_extend_side", "box",
                   P_FINITE);
            CHECK(memcmp(&bb, &before, sizeof bb) == 0);
        }
        for (fld = 0; fld < 3; fld++) {
            o = good_obb();
            if (fld == 0) o.center.y = bad[k];
            if (fld == 1) o.scale.x = bad[k];
            if (fld == 2) o.rotation.z = bad[k];
            EXPECT(fathom_obb_check(&o), FATHOM_ERR_NOT_FINITE, "fathom_obb_check", NULL, P_FINITE);
            EXPECT(fathom_obb_count_inside(&o, PTS, 30, 16, &n), FATHOM_ERR_NOT_FINITE, "fathom_obb_count_inside", "obb",
                   P_FINITE);
            EXPECT(fathom_obb_corners(&o, c8), FATHOM_ERR_NOT_FINITE, "fathom_obb_corners", "obb", P_FINITE);
        }
        for (fld = 0; fld < 6; fld++) {
            memset(&lr, 0, sizeof lr);
            lr.anchor = FATHOM_ANCHOR_TOP;
            lr.target_width = lr.target_height = lr.panel_width = lr.panel_height = 0.1f;
            if (fld == 0) lr.target_width = bad[k];
            if (fld == 1) lr.target_height = bad[k];
            if (fld == 2) lr.panel_width = bad[k];
            if (fld == 3) lr.panel_height = bad[k];
            if (fld == 4) lr.relative_position.z = bad[k];
            if (fld == 5) lr.position_offset.x = bad[k];
            EXPECT(fathom_label_place(&lr, &lp), FATHOM_ERR_NOT_FINITE, "fathom_label_place", NULL, P_FINITE);
        }
    }

    check_section("NaN / infinity: point buffers");
    {
        float pts[30 * 4], out[30 * 3], d[30];
        fathom_obb o = good_obb(), oo;
        fathom_box bo;
        size_t n;
        memcpy(pts, PTS, sizeof pts);
        pts[17 * 4 + 1] = (float)NAN;
        EXPECT(fathom_pose_transform_points(&p, pts, 30, 16, out), FATHOM_ERR_NOT_FINITE, "fathom_pose_transform_points",
               "points", P_FINITE);
        EXPECT(fathom_obb_signed_distances(&o, pts, 30, 16, d), FATHOM_ERR_NOT_FINITE, "fathom_obb_signed_distances",
               "points", P_FINITE);
        EXPECT(fathom_obb_fit_pca(pts, 30, 16, &oo, &f), FATHOM_ERR_NOT_FINITE, "fathom_obb_fit_pca", "points", P_FINITE);
        EXPECT(fathom_box_fit_upright(pts, 30, 16, &bo, &f), FATHOM_ERR_NOT_FINITE, "fathom_box_fit_upright", "points",
               P_FINITE);
        /* Containment takes NaN and infinite points as outside: no error. */
        CHECK_OK(fathom_obb_count_inside(&o, pts, 30, 16, &n));
        pts[3 * 4] = (float)INFINITY;
        CHECK_OK(fathom_obb_count_inside(&o, pts, 30, 16, &n));
        /* The 4th float of each point is not a coordinate: NaN there is fine everywhere. */
        memcpy(pts, PTS, sizeof pts);
        for (i = 0; i < 30; i++) pts[i * 4 + 3] = (float)NAN;
        CHECK_OK(fathom_pose_transform_points(&p, pts, 30, 16, out));
        CHECK_OK(fathom_obb_signed_distances(&o, pts, 30, 16, d));
        CHECK_OK(fathom_obb_fit_pca(pts, 30, 16, &oo, &f));
        CHECK_OK(fathom_box_fit_upright(pts, 30, 16, &bo, &f));
    }
}

/* ---- ranges: scales, rotations, tolerances, enums --------------------------------------------- */

static void test_ranges(void) {
    fathom_box b = good_box(), before, bo;
    fathom_pose p = rigid_pose(), po;
    fathom_vec3 vo;
    fathom_quat qo;
    float m9[9];

    check_section("zero and negative scales");
    /* The documented example message. */
    EXPECT(fathom_box_set_scale(&b, v3(1, -0.2f, 1)), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_set_scale", "scale.y", "-0.2");
    EXPECT(fathom_box_init(v3(0, 0, 0), v3(0, 1, 1), 0, &bo), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_init", "scale.x", P_ANY);
    EXPECT(fathom_box_init(v3(0, 0, 0), v3(1, 1, -3), 0, &bo), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_init", "scale.z", P_ANY);
    before = b;
    EXPECT(fathom_box_set_scale(&b, v3(0, 1, 1)), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_set_scale", "scale.x", P_ANY);
    EXPECT(fathom_box_update_scale(&b, v3(1, 0, 1)), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_update_scale", "multiplier.y",
           P_ANY);
    EXPECT(fathom_box_update_scale(&b, v3(1, 1, -1)), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_update_scale", "multiplier.z",
           P_ANY);
    EXPECT(fathom_box_shrink_side(&b, v3(0, 0, 0.8f)), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_shrink_side", "offset", P_ANY);
    EXPECT(fathom_box_shrink_side(&b, v3(-0.5f, 0, 0)), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_shrink_side", "offset", P_ANY);
    CHECK(memcmp(&b, &before, sizeof b) == 0);
    {
        /* A box whose own fields are invalid is refused by every function taking it. */
        fathom_box bad = good_box();
        fathom_vec3 c8[8];
        bad.scale.y = 0;
        before = bad;
        EXPECT(fathom_box_corners(&bad, c8), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_corners", "scale", P_ANY);
        EXPECT(fathom_box_set_center(&bad, v3(0, 0, 0)), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_set_center", "scale", P_ANY);
        EXPECT(fathom_box_set_angle(&bad, 1), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_set_angle", "scale", P_ANY);
        CHECK(memcmp(&bad, &before, sizeof bad) == 0);
        bad = good_box();
        t_set_bool_byte(&bad.has_floor, 2);
        before = bad;
        EXPECT(fathom_box_check(&bad), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_check", "has_floor", P_ANY);
        EXPECT(fathom_box_clear_floor(&bad), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_clear_floor", "has_floor", P_ANY);
        EXPECT(fathom_box_set_floor(&bad, 0), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_set_floor", "has_floor", P_ANY);
        CHECK(memcmp(&bad, &before, sizeof bad) == 0);
    }
    {
        fathom_obb o = good_obb();
        o.scale.z = 0;
        EXPECT(fathom_obb_check(&o), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_check", "scale", P_ANY);
        o = good_obb();
        o.scale.x = -1;
        EXPECT(fathom_obb_volume(&o, m9), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_volume", "scale", P_ANY);
    }

    check_section("results that would not be finite");
    {
        /* Edits whose result overflows float: refused (any error), box unchanged and still valid.
           A box is valid while |center| + 2 * scale and the volume stay finite. */
        fathom_box big;
        fathom_status s;
        CHECK_OK(fathom_box_init(v3(1e38f, 0, 0), v3(1e38f, 1, 1), 0, &big));
        EXPECT(fathom_box_init(v3(3e38f, 0, 0), v3(3e38f, 1, 1), 0, &big), FATHOM_ERR_NOT_FINITE, "fathom_box_init",
               "scale", P_ANY);
        before = big;
        s = fathom_box_update_center(&big, v3(3e38f, 0, 0));
        CHECK(s != FATHOM_OK);
        s = fathom_box_update_scale(&big, v3(10, 1, 1));
        CHECK(s != FATHOM_OK);
        s = fathom_box_extend_side(&big, v3(3e38f, 0, 0));
        CHECK(s != FATHOM_OK);
        CHECK(memcmp(&big, &before, sizeof big) == 0);
        CHECK_OK(fathom_box_check(&big));
    }

    check_section("rotations that are not unit, tolerances <= 0");
    EXPECT(fathom_quat_rotate(q4(0, 0, 0, 2), v3(1, 0, 0), &vo), FATHOM_ERR_OUT_OF_RANGE, "fathom_quat_rotate", "q", P_ANY);
    EXPECT(fathom_quat_to_matrix(q4(0, 0.5f, 0, 0.5f), m9), FATHOM_ERR_OUT_OF_RANGE, "fathom_quat_to_matrix", "q", P_ANY);
    EXPECT(fathom_pose_from_rotation_translation(q4(0, 0, 0, 1.01f), v3(0, 0, 0), &po), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_pose_from_rotation_translation", "q", P_ANY);
    EXPECT(fathom_pose_from_rotation_translation(q4(0, 0, 0, 0), v3(0, 0, 0), &po), FATHOM_ERR_OUT_OF_RANGE,
           "fathom_pose_from_rotation_translation", "q", P_ANY);
    EXPECT(fathom_pose_check_rigid(&p, 0), FATHOM_ERR_OUT_OF_RANGE, "fathom_pose_check_rigid", "tolerance", P_ANY);
    EXPECT(fathom_pose_check_rigid(&p, -1e-3f), FATHOM_ERR_OUT_OF_RANGE, "fathom_pose_check_rigid", "tolerance", P_ANY);
    EXPECT(fathom_pose_orthonormalize(&p, 0, &po), FATHOM_ERR_OUT_OF_RANGE, "fathom_pose_orthonormalize", "max_deviation",
           P_ANY);
    EXPECT(fathom_quat_from_axis_angle(v3(0, 0, 0), 1, &qo), FATHOM_ERR_DEGENERATE, "fathom_quat_from_axis_angle", "axis",
           P_ANY);

    check_section("bad enum values");
    {
        fathom_label_request lr;
        fathom_label_placement lp;
        static const int32_t bad_anchors[] = {7, 8, -1, 1000, INT32_MIN};
        static const int32_t bad_targets[] = {2, -1, 99, INT32_MAX};
        size_t i;
        memset(&lr, 0, sizeof lr);
        lr.target_width = lr.target_height = lr.panel_width = lr.panel_height = 0.1f;
        for (i = 0; i < sizeof bad_anchors / sizeof bad_anchors[0]; i++) {
            lr.anchor = bad_anchors[i];
            EXPECT(fathom_label_place(&lr, &lp), FATHOM_ERR_OUT_OF_RANGE, "fathom_label_place", "anchor", P_ANY);
        }
        lr.anchor = FATHOM_ANCHOR_TOP;
        for (i = 0; i < sizeof bad_targets / sizeof bad_targets[0]; i++) {
            lr.target = bad_targets[i];
            EXPECT(fathom_label_place(&lr, &lp), FATHOM_ERR_OUT_OF_RANGE, "fathom_label_place", "target", P_ANY);
        }
        lr.target = FATHOM_LABEL_ON_PANEL;
        lr.panel_width = 0;
        EXPECT(fathom_label_place(&lr, &lp), FATHOM_ERR_OUT_OF_RANGE, "fathom_label_place", "panel_width", P_ANY);
        lr.panel_width = 0.1f;
        lr.target_height = -1;
        EXPECT(fathom_label_place(&lr, &lp), FATHOM_ERR_OUT_OF_RANGE, "fathom_label_place", "target_height", P_ANY);
    }

    check_section("non-rigid poses");
    {
        fathom_pose bad = rigid_pose(), scaled;
        float f, rows[16];
        int i;
        scaled = bad;
        for (i = 0; i < 11; i++)
            if (i % 4 != 3) scaled.m[i] *= 1.1f;
        bad.m[7] = 0.5f; /* bottom row */
        b = good_box();
        before = b;
        EXPECT(fathom_box_update_center_in_camera(&b, v3(0.1f, 0, 0), &scaled), FATHOM_ERR_NOT_RIGID,
               "fathom_box_update_center_in_camera", "camera", P_ANY);
        EXPECT(fathom_box_update_center_in_camera(&b, v3(0.1f, 0, 0), &bad), FATHOM_ERR_NOT_RIGID,
               "fathom_box_update_center_in_camera", "camera", P_ANY);
        CHECK(memcmp(&b, &before, sizeof b) == 0);
        EXPECT(fathom_pose_invert(&scaled, &po), FATHOM_ERR_NOT_RIGID, "fathom_pose_invert", "pose", P_ANY);
        EXPECT(fathom_pose_compose(&scaled, &p, &po), FATHOM_ERR_NOT_RIGID, "fathom_pose_compose", "a", P_ANY);
        EXPECT(fathom_pose_compose(&p, &bad, &po), FATHOM_ERR_NOT_RIGID, "fathom_pose_compose", "b", P_ANY);
        EXPECT(fathom_pose_transform_point(&scaled, v3(1, 1, 1), &vo), FATHOM_ERR_NOT_RIGID, "fathom_pose_transform_point",
               "pose", P_ANY);
        EXPECT(fathom_pose_transform_direction(&bad, v3(1, 1, 1), &vo), FATHOM_ERR_NOT_RIGID,
               "fathom_pose_transform_direction", "pose", P_ANY);
        {
            float out[30 * 3];
            EXPECT(fathom_pose_transform_points(&scaled, PTS, 30, 16, out), FATHOM_ERR_NOT_RIGID,
                   "fathom_pose_transform_points", "pose", P_ANY);
        }
        EXPECT(fathom_pose_yaw(&scaled, &f), FATHOM_ERR_NOT_RIGID, "fathom_pose_yaw", "pose", P_ANY);
        EXPECT(fathom_pose_distance(&p, &scaled, &f, &f), FATHOM_ERR_NOT_RIGID, "fathom_pose_distance", "b", P_ANY);
        EXPECT(fathom_pose_to_rotation_translation(&scaled, &qo, &vo), FATHOM_ERR_NOT_RIGID,
               "fathom_pose_to_rotation_translation", "pose", P_ANY);
        EXPECT(fathom_pose_to_row_major(&bad, rows), FATHOM_ERR_NOT_RIGID, "fathom_pose_to_row_major", "pose", P_ANY);
        EXPECT(fathom_tag_world_pose(&scaled, &p, &po), FATHOM_ERR_NOT_RIGID, "fathom_tag_world_pose", "camera_to_world",
               P_ANY);
        EXPECT(fathom_tag_snap_vertical(&scaled, &po), FATHOM_ERR_NOT_RIGID, "fathom_tag_snap_vertical", "tag", P_ANY);
        {
            float cov[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, out9[9];
            EXPECT(fathom_covariance_rotate(&scaled, cov, out9), FATHOM_ERR_NOT_RIGID, "fathom_covariance_rotate",
                   "rotation", P_ANY);
        }
    }
}

/* ---- counts, strides, overflow ------------------------------------------------------------- */

static void test_buffers(void) {
    fathom_obb o = good_obb(), oo;
    fathom_pose p = rigid_pose(), po;
    fathom_box bo;
    float out[30 * 3], d[30], f;
    size_t n = 777;
    uint8_t mask[30];
    uint64_t idx[30];
    static const size_t bad_strides[] = {0, 4, 8, 11, 13, 14, 15, 18};
    size_t i;

    check_section("count 0");
    EXPECT(fathom_pose_transform_points(&p, PTS, 0, 16, out), FATHOM_ERR_OUT_OF_RANGE, "fathom_pose_transform_points",
           "count", P_ANY);
    EXPECT(fathom_obb_count_inside(&o, PTS, 0, 16, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_count_inside", "count", P_ANY);
    CHECK(n == 777); /* not written */
    EXPECT(fathom_obb_mask_inside(&o, PTS, 0, 16, mask, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_mask_inside", "count",
           P_ANY);
    EXPECT(fathom_obb_indices_inside(&o, PTS, 0, 16, idx, 30, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_indices_inside",
           "count", P_ANY);
    EXPECT(fathom_obb_signed_distances(&o, PTS, 0, 16, d), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_signed_distances", "count",
           P_ANY);
    EXPECT(fathom_obb_fit_pca(PTS, 0, 16, &oo, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_fit_pca", "count", P_ANY);
    EXPECT(fathom_box_fit_upright(PTS, 0, 16, &bo, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_fit_upright", "count", P_ANY);
    EXPECT(fathom_tag_fuse(&p, NULL, 0, &po, NULL), FATHOM_ERR_OUT_OF_RANGE, "fathom_tag_fuse", "count", P_ANY);

    check_section("count * stride overflows");
    {
        const size_t huge = SIZE_MAX / 8; /* * 16 overflows */
        const size_t neg = SIZE_MAX / 2 + 1; /* negative as a signed integer */
        n = 777;
        EXPECT(fathom_obb_count_inside(&o, PTS, huge, 16, &n), FATHOM_ERR_OVERFLOW, "fathom_obb_count_inside", NULL, P_ANY);
        CHECK(n == 777);
        EXPECT(fathom_obb_count_inside(&o, PTS, SIZE_MAX, 12, &n), FATHOM_ERR_OVERFLOW, "fathom_obb_count_inside", NULL,
               P_ANY);
        EXPECT(fathom_obb_count_inside(&o, PTS, neg, 12, &n), FATHOM_ERR_OVERFLOW, "fathom_obb_count_inside", NULL, P_ANY);
        EXPECT(fathom_obb_count_inside(&o, PTS, 2, SIZE_MAX - 3, &n), FATHOM_ERR_OVERFLOW, "fathom_obb_count_inside", NULL,
               P_ANY);
        EXPECT(fathom_obb_mask_inside(&o, PTS, huge, 16, mask, &n), FATHOM_ERR_OVERFLOW, "fathom_obb_mask_inside", NULL,
               P_ANY);
        EXPECT(fathom_obb_indices_inside(&o, PTS, huge, 16, idx, 30, &n), FATHOM_ERR_OVERFLOW, "fathom_obb_indices_inside",
               NULL, P_ANY);
        EXPECT(fathom_obb_signed_distances(&o, PTS, huge, 16, d), FATHOM_ERR_OVERFLOW, "fathom_obb_signed_distances", NULL,
               P_ANY);
        EXPECT(fathom_pose_transform_points(&p, PTS, huge, 16, out), FATHOM_ERR_OVERFLOW, "fathom_pose_transform_points",
               NULL, P_ANY);
        EXPECT(fathom_pose_transform_points(&p, PTS, SIZE_MAX / 12 + 1, 12, out), FATHOM_ERR_OVERFLOW,
               "fathom_pose_transform_points", NULL, P_ANY);
        EXPECT(fathom_obb_fit_pca(PTS, huge, 16, &oo, &f), FATHOM_ERR_OVERFLOW, "fathom_obb_fit_pca", NULL, P_ANY);
        EXPECT(fathom_box_fit_upright(PTS, huge, 16, &bo, &f), FATHOM_ERR_OVERFLOW, "fathom_box_fit_upright", NULL, P_ANY);
        /* 64-byte poses and 36-byte covariances. */
        EXPECT(fathom_tag_fuse(&p, NULL, SIZE_MAX / 32, &po, NULL), FATHOM_ERR_OVERFLOW, "fathom_tag_fuse", NULL, P_ANY);
    }

    check_section("strides below 12 or not a multiple of 4");
    for (i = 0; i < sizeof bad_strides / sizeof bad_strides[0]; i++) {
        size_t s = bad_strides[i];
        n = 777;
        EXPECT(fathom_obb_count_inside(&o, PTS, 3, s, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_count_inside", "stride",
               P_ANY);
        CHECK(n == 777);
        EXPECT(fathom_obb_mask_inside(&o, PTS, 3, s, mask, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_mask_inside", "stride",
               P_ANY);
        EXPECT(fathom_obb_indices_inside(&o, PTS, 3, s, idx, 30, &n), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_indices_inside",
               "stride", P_ANY);
        EXPECT(fathom_obb_signed_distances(&o, PTS, 3, s, d), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_signed_distances",
               "stride", P_ANY);
        EXPECT(fathom_pose_transform_points(&p, PTS, 3, s, out), FATHOM_ERR_OUT_OF_RANGE, "fathom_pose_transform_points",
               "stride", P_ANY);
        EXPECT(fathom_obb_fit_pca(PTS, 10, s, &oo, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_obb_fit_pca", "stride", P_ANY);
        EXPECT(fathom_box_fit_upright(PTS, 10, s, &bo, &f), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_fit_upright", "stride",
               P_ANY);
    }
    {
        /* A pointer that is not 4-byte aligned: refused (OUT_OF_RANGE) or handled, never a crash. */
        static float storage[31 * 4];
        const float *mis = (const float *)(const void *)((const char *)storage + 2);
        fathom_status s;
        memset(storage, 0, sizeof storage);
        s = fathom_obb_count_inside(&o, mis, 30, 16, &n);
        CHECK(s == FATHOM_OK || s == FATHOM_ERR_OUT_OF_RANGE);
        s = fathom_pose_transform_points(&p, mis, 30, 16, out);
        CHECK(s == FATHOM_OK || s == FATHOM_ERR_OUT_OF_RANGE);
    }
}

/* ---- states and manifests ------------------------------------------------------------------ */

static void test_states_and_manifests(void) {
    fathom_box b = good_box(), before, out;
    fathom_face faces[6];
    fathom_obb o;

    check_section("invalid state and degenerate boxes");
    before = b;
    EXPECT(fathom_box_set_center_on_floor(&b, 1, 1), FATHOM_ERR_INVALID_STATE, "fathom_box_set_center_on_floor", NULL,
           "floor");
    CHECK(memcmp(&b, &before, sizeof b) == 0);
    CHECK_OK(fathom_box_set_floor(&b, 100.0f)); /* above the whole box */
    EXPECT(fathom_box_faces(&b, faces), FATHOM_ERR_DEGENERATE, "fathom_box_faces", NULL, P_ANY);
    EXPECT(fathom_box_to_obb(&b, &o), FATHOM_ERR_DEGENERATE, "fathom_box_to_obb", NULL, P_ANY);

    check_section("manifests");
    {
        static const char ok[] =
            "{\"center\": {\"x\": 0, \"y\": 0, \"z\": 0}, \"rad_rot_about_y\": 0, \"positions\": {"
            "\"top_left_front\": {\"x\": -1, \"y\": 1, \"z\": -1}, \"top_right_front\": {\"x\": 1, \"y\": 1, \"z\": -1},"
            "\"bot_right_front\": {\"x\": 1, \"y\": -1, \"z\": -1}, \"bot_left_front\": {\"x\": -1, \"y\": -1, \"z\": -1},"
            "\"top_left_back\": {\"x\": -1, \"y\": 1, \"z\": 1}, \"top_right_back\": {\"x\": 1, \"y\": 1, \"z\": 1},"
            "\"bot_right_back\": {\"x\": 1, \"y\": -1, \"z\": 1}, \"bot_left_back\": {\"x\": -1, \"y\": -1, \"z\": 1}},"
            " \"entity_anchor_4x4\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}";
        char buf[sizeof ok + 16];
        memset(&out, 0x5c, sizeof out);
        before = out;
        CHECK_OK(fathom_box_manifest_read(ok, strlen(ok), &b));
        CHECK_VEC3(b.scale, 2, 2, 2, 1e-6);
        /* truncated */
        EXPECT(fathom_box_manifest_read(ok, strlen(ok) - 1, &out), FATHOM_ERR_PARSE, "fathom_box_manifest_read", NULL,
               P_ANY);
        EXPECT(fathom_box_manifest_read(ok, 10, &out), FATHOM_ERR_PARSE, "fathom_box_manifest_read", NULL, P_ANY);
        /* missing field: rad_rot_about_y renamed */
        memcpy(buf, ok, sizeof ok);
        memcpy(strstr(buf, "rad_rot_about_y"), "rad_rot_about_x", 15);
        EXPECT(fathom_box_manifest_read(buf, strlen(buf), &out), FATHOM_ERR_FORMAT, "fathom_box_manifest_read",
               "rad_rot_about_y", P_ANY);
        /* mistyped: the angle as a string */
        memcpy(buf, ok, sizeof ok);
        memcpy(strstr(buf, "\"rad_rot_about_y\": 0,"), "\"rad_rot_about_y\":\"\",", 21);
        EXPECT(fathom_box_manifest_read(buf, strlen(buf), &out), FATHOM_ERR_FORMAT, "fathom_box_manifest_read",
               "rad_rot_about_y", P_ANY);
        /* not a box: one corner off by 0.5 */
        memcpy(buf, ok, sizeof ok);
        memcpy(strstr(buf, "\"bot_right_back\": {\"x\": 1,"), "\"bot_right_back\": {\"x\": 3,", 25);
        EXPECT(fathom_box_manifest_read(buf, strlen(buf), &out), FATHOM_ERR_NOT_A_BOX, "fathom_box_manifest_read",
               "bot_right_back", P_ANY);
        CHECK(memcmp(&out, &before, sizeof out) == 0);
        /* binary garbage */
        {
            char garbage[64];
            int i;
            for (i = 0; i < 64; i++) garbage[i] = (char)(i * 37 + 11);
            EXPECT(fathom_box_manifest_read(garbage, sizeof garbage, &out), FATHOM_ERR_PARSE, "fathom_box_manifest_read",
                   NULL, P_ANY);
        }
        /* a huge length over a short string is the caller's bug, but a length of SIZE_MAX must not be trusted
         * for an allocation: not tested (it would read past the buffer). */
    }
    {
        /* manifest_write: a bad box, and a capacity too small leaves the buffer untouched. */
        fathom_box bad = good_box();
        char buf[16];
        size_t len = 5;
        bad.scale.x = -1;
        EXPECT(fathom_box_manifest_write(&bad, NULL, 0, &len), FATHOM_ERR_OUT_OF_RANGE, "fathom_box_manifest_write",
               "scale", P_ANY);
        CHECK(len == 5);
        memset(buf, '#', sizeof buf);
        CHECK_STATUS(fathom_box_manifest_write(&b, buf, sizeof buf, &len), FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(buf[0] == '#' && buf[15] == '#');
        EXPECT(fathom_box_manifest_save(&bad, "/tmp/fathom-never-written.json"), FATHOM_ERR_OUT_OF_RANGE,
               "fathom_box_manifest_save", "scale", P_ANY);
    }
}

/* Inputs that once killed the host (issue 15's crash classes): each is a status now, and the outputs stay. */
static void test_crash_classes(void) {
    double huge[3 * 4] = {1e154, 0, 0, -1e154, 1, 0, 0, 1e154, 1, 2e154, 2, 3};
    fathom_line_fit line;
    fathom_plane_fit plane;
    fathom_mesh *mesh = (fathom_mesh *)&line; /* any non-NULL sentinel: a failed load leaves it */
    fathom_box box;
    check_section("crash classes: overflowing fits, devices as files");
    CHECK_STATUS(fathom_fit_line3(huge, 4, 0, &line), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_fit_plane(huge, 4, 0, &plane), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_STATUS(fathom_mesh_load("/dev/zero", &mesh), FATHOM_ERR_IO);
    CHECK(mesh == (fathom_mesh *)&line);
    CHECK_STATUS(fathom_mesh_load("/", &mesh), FATHOM_ERR_IO);
    CHECK_STATUS(fathom_box_manifest_load("/dev/zero", &box), FATHOM_ERR_IO);

    /* Counts no buffer could hold: the copies they asked for used to overflow before anything was read. */
    check_section("crash classes: counts whose copies overflow");
    int64_t times[2] = {0, 1};
    fathom_pose poses[2] = {{{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}, {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}};
    fathom_intrinsics k = {500, 500, 320, 240, 640, 480};
    fathom_intrinsics ks[2] = {k, k};
    fathom_trajectory_summary summary;
    fathom_pose fused;
    CHECK_STATUS(fathom_trajectory_summarize(times, poses, SIZE_MAX / 4, NULL, &summary), FATHOM_ERR_OVERFLOW);
    CHECK_STATUS(fathom_tag_fuse(poses, NULL, SIZE_MAX / 64, &fused, NULL), FATHOM_ERR_OVERFLOW);
    CHECK_STATUS(fathom_transforms_save("/nonexistent/transforms.json", poses, ks, SIZE_MAX / 2 / 65, NULL), FATHOM_ERR_OVERFLOW);
}

int main(void) {
    init_points();
    test_crash_classes();
    test_null_pointers();
    test_not_finite();
    test_ranges();
    test_buffers();
    test_states_and_manifests();
    return check_summary("test_bad_input");
}
