/*
 * fathom.h — the C interface of Fathom, a geometry and measurement engine for AR capture data.
 *
 * This header is the reference for the C ABI of libfathom.so. Swift imports the same file (module
 * CFathom), so the structs below are the single definition of every value that crosses the ABI.
 *
 * Conventions (every function, unless its comment says otherwise):
 *  - Units are meters and radians. The world frame is right-handed, +y up (gravity aligned).
 *  - Every fallible function returns a fathom_status; FATHOM_OK (0) is success. Results are written
 *    through out-pointers, and only on success. On failure, an object the call was to change keeps its
 *    old value, and fathom_last_error() names the function and the argument that was wrong.
 *  - Every pointer argument is required (non-NULL) unless its comment says "may be NULL".
 *  - Every float argument must be finite (no NaN, no infinity) unless its comment says otherwise.
 *  - Matrices are 4x4 float, column-major like simd and ARKit: element (row r, column c) at m[c*4 + r].
 *    3x3 matrices are 9 floats, column-major: element (r, c) at m[c*3 + r].
 *  - Quaternions are stored (x, y, z, w): vector part first, real part last, like simd_quatf.
 *  - Point buffers are (pointer, count, stride in bytes): point i's x, y, z are three consecutive
 *    float32 at byte offset i * stride. The pointer must be 4-byte aligned, the stride a multiple of 4
 *    and at least 12, and count >= 1 (else FATHOM_ERR_OUT_OF_RANGE); count * stride must not overflow
 *    (FATHOM_ERR_OVERFLOW). The caller owns the buffer; it is read only during the call.
 *  - A quaternion used as a rotation must have |q| within 1e-3 of 1 (else FATHOM_ERR_OUT_OF_RANGE).
 *  - Thread safety: every function is reentrant and may be called from many threads at once, as long
 *    as no two threads write the same output or the same in-out value (such as a fathom_box being edited).
 *
 * C99; usable from C++.
 */
#ifndef FATHOM_H
#define FATHOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Version                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The project's one statement of its version: the library, the Swift module, the Python package and fathom.pc
   take theirs from these three lines. */
#define FATHOM_VERSION_MAJOR 1
#define FATHOM_VERSION_MINOR 0
#define FATHOM_VERSION_PATCH 0
/** MAJOR * 10000 + MINOR * 100 + PATCH, comparable with fathom_version_number(). */
#define FATHOM_VERSION_NUMBER (FATHOM_VERSION_MAJOR * 10000 + FATHOM_VERSION_MINOR * 100 + FATHOM_VERSION_PATCH)

/** The library's version as "MAJOR.MINOR.PATCH"; a constant string, never NULL. */
const char *fathom_version(void);

/** The library's version as MAJOR * 10000 + MINOR * 100 + PATCH; compare with FATHOM_VERSION_NUMBER
 *  to check at run time that the library matches the header a program was built with. */
uint32_t fathom_version_number(void);

/* ---------------------------------------------------------------------------------------------- */
/* Status codes and errors                                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef enum fathom_status {
    FATHOM_OK = 0,                      /**< success */
    FATHOM_ERR_NULL_POINTER = 1,        /**< a required pointer argument was NULL */
    FATHOM_ERR_NOT_FINITE = 2,          /**< a number was NaN or infinite */
    FATHOM_ERR_OUT_OF_RANGE = 3,        /**< a value outside its documented range (scale <= 0, count 0, bad enum;
                                             a path that is not UTF-8: paths are taken as UTF-8 only) */
    FATHOM_ERR_OVERFLOW = 4,            /**< a size computation (count * stride) overflows */
    FATHOM_ERR_BUFFER_TOO_SMALL = 5,    /**< an output buffer's capacity is less than the size needed */
    FATHOM_ERR_NOT_RIGID = 6,           /**< a matrix is not a rigid transform (rotation + translation) within tolerance */
    FATHOM_ERR_DEGENERATE = 7,          /**< geometry too degenerate for the operation (coincident points, zero vector) */
    FATHOM_ERR_INVALID_STATE = 8,       /**< the object lacks what the call needs (a box without a floor) */
    FATHOM_ERR_PARSE = 9,               /**< text that is not well-formed (truncated or malformed JSON) */
    FATHOM_ERR_FORMAT = 10,             /**< well-formed data with a missing or mistyped field (unknown fields are ignored) */
    FATHOM_ERR_NOT_A_BOX = 11,          /**< eight corners that do not form a box of the kind expected */
    FATHOM_ERR_IO = 12,                 /**< a file could not be opened, read or written; a path that is not a
                                             regular file (a device, FIFO or directory) is neither read nor
                                             replaced, and opening one never blocks; a file that changes size or
                                             fails midway is an error and nothing is kept; files are written under
                                             a temporary name and renamed into place, so a write that fails
                                             leaves the old file (or none) */
    FATHOM_ERR_LAPACK = 13,             /**< a LAPACK routine reported failure */
    FATHOM_ERR_OUT_OF_MEMORY = 14,      /**< an allocation failed */
    FATHOM_ERR_NO_DATA = 15             /**< no valid sample where one is needed (invalid depth under a keypoint, an
                                             empty or all-invalid mask) */
} fathom_status;

/** The name of a status code ("FATHOM_ERR_NOT_RIGID"); a constant string, "FATHOM_UNKNOWN_STATUS" for
 *  values not in the enum. Never NULL. */
const char *fathom_status_name(fathom_status status);

/** The message of the last failed call on the calling thread, naming the function and the argument
 *  ("fathom_box_set_scale: scale.y must be > 0, got -0.2"); "" if no call on this thread has failed.
 *  The string is owned by the library and stays valid until the next failing call on the same thread.
 *  Successful calls do not clear it. Thread-local: other threads' errors never overwrite it. */
const char *fathom_last_error(void);

/* ---------------------------------------------------------------------------------------------- */
/* Value types                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/** A 3-vector: a point (meters) or a direction, in the frame its function names. */
typedef struct fathom_vec3 {
    float x, y, z;
} fathom_vec3;

/** A quaternion stored (x, y, z, w): vector part first, real part w last (the simd_quatf order).
 *  Rotations are unit quaternions; functions taking a rotation require |q| within 1e-3 of 1 and
 *  normalize it before use. q and -q are the same rotation. */
typedef struct fathom_quat {
    float x, y, z, w;
} fathom_quat;

/** A 4x4 float matrix, column-major: element (row r, column c) at m[c*4 + r]; translation at
 *  m[12], m[13], m[14]. As a pose it maps points of its local frame into its parent frame
 *  (a camera pose is camera-to-world: world = T * camera). */
typedef struct fathom_pose {
    float m[16];
} fathom_pose;

/** Pinhole camera intrinsics in pixels of an image of width x height pixels. Pixel (0, 0) is the
 *  top-left corner of the top-left pixel; u grows to the right, v downward. */
typedef struct fathom_intrinsics {
    float fx, fy;        /**< focal lengths, pixels, > 0 */
    float cx, cy;        /**< principal point from the image's top-left corner, pixels */
    uint32_t width;      /**< image width, pixels, >= 1 */
    uint32_t height;     /**< image height, pixels, >= 1 */
} fathom_intrinsics;

/** Tolerance used where a function checks that a pose is rigid: the largest absolute entry of
 *  R^T R - I and of the bottom row minus (0, 0, 0, 1). */
#define FATHOM_RIGID_TOLERANCE 1e-3f

/* ---------------------------------------------------------------------------------------------- */
/* Quaternions                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/** The rotation by `angle` radians about `axis` (right-hand rule). `axis` need not be unit length
 *  but must not be zero (FATHOM_ERR_DEGENERATE). */
fathom_status fathom_quat_from_axis_angle(fathom_vec3 axis, float angle, fathom_quat *out);

/** The unit quaternion of a 3x3 rotation matrix (column-major). FATHOM_ERR_NOT_RIGID if the matrix
 *  is not a proper rotation within FATHOM_RIGID_TOLERANCE (orthonormal, determinant +1). */
fathom_status fathom_quat_from_matrix(const float matrix[9], fathom_quat *out);

/** The 3x3 rotation matrix (column-major) of a rotation quaternion. */
fathom_status fathom_quat_to_matrix(fathom_quat q, float out[9]);

/** The Hamilton product a * b: the rotation b followed by a. Inputs need not be unit. */
fathom_status fathom_quat_multiply(fathom_quat a, fathom_quat b, fathom_quat *out);

/** q / |q|. FATHOM_ERR_DEGENERATE if |q| is 0 (or too small to normalize). */
fathom_status fathom_quat_normalize(fathom_quat q, fathom_quat *out);

/** Spherical linear interpolation between rotations a (t = 0) and b (t = 1) along the shorter arc.
 *  t is any finite number (values outside [0, 1] extrapolate). The result is unit. */
fathom_status fathom_quat_slerp(fathom_quat a, fathom_quat b, float t, fathom_quat *out);

/** The angle of the rotation taking a to b, radians in [0, pi] (q and -q give the same angle). */
fathom_status fathom_quat_angle_between(fathom_quat a, fathom_quat b, float *out_radians);

/** v rotated by the rotation q. */
fathom_status fathom_quat_rotate(fathom_quat q, fathom_vec3 v, fathom_vec3 *out);

/* ---------------------------------------------------------------------------------------------- */
/* Rigid poses                                                                                     */
/* ---------------------------------------------------------------------------------------------- */
/* Functions reading a pose check it is rigid within FATHOM_RIGID_TOLERANCE and return
 * FATHOM_ERR_NOT_RIGID otherwise (use fathom_pose_orthonormalize to repair a slightly off one). */

/** The pose with rotation q and translation t. */
fathom_status fathom_pose_from_rotation_translation(fathom_quat q, fathom_vec3 t, fathom_pose *out);

/** The rotation (unit quaternion, w >= 0) and translation of a rigid pose. */
fathom_status fathom_pose_to_rotation_translation(const fathom_pose *pose, fathom_quat *out_rotation,
                                                 fathom_vec3 *out_translation);

/** A pose from 16 floats in row-major order (element (r, c) at rows[r*4 + c]), as written by tools
 *  that nest matrices row by row. The result must be rigid. */
fathom_status fathom_pose_from_row_major(const float rows[16], fathom_pose *out);

/** The 16 floats of a pose in row-major order. */
fathom_status fathom_pose_to_row_major(const fathom_pose *pose, float out_rows[16]);

/** FATHOM_OK if `pose` is rigid within `tolerance` (> 0; see FATHOM_RIGID_TOLERANCE for the measure),
 *  else FATHOM_ERR_NOT_RIGID with the deviation in the message. */
fathom_status fathom_pose_check_rigid(const fathom_pose *pose, float tolerance);

/** The rigid pose nearest to `pose`: the rotation part replaced by the closest rotation matrix
 *  (polar decomposition by SVD, LAPACK), the bottom row set to (0, 0, 0, 1), translation kept.
 *  FATHOM_ERR_NOT_RIGID if the input deviates from rigid by more than `max_deviation` (> 0), so that a
 *  matrix that was never a pose (a scale, a shear, a projection) is refused rather than "repaired". */
fathom_status fathom_pose_orthonormalize(const fathom_pose *pose, float max_deviation, fathom_pose *out);

/** a * b: the pose b followed by a (if b is camera-to-world and a is world-to-map, the result is
 *  camera-to-map). */
fathom_status fathom_pose_compose(const fathom_pose *a, const fathom_pose *b, fathom_pose *out);

/** The inverse of a rigid pose: (R^T, -R^T t); FATHOM_ERR_NOT_FINITE when -R^T t leaves the float range. */
fathom_status fathom_pose_invert(const fathom_pose *pose, fathom_pose *out);

/** How a tool writes a camera pose (the world frame is the tool's own; only the camera's axes and the direction
 *  of the transform differ). */
typedef enum fathom_pose_convention {
    FATHOM_POSE_ARKIT = 0,                  /* camera-to-world, camera x right, y up, looking along -z (OpenGL):
                                               ARKit, the scanner app's .jsonl, transforms.json (instant-ngp,
                                               nerfstudio), this library */
    FATHOM_POSE_OPENCV = 1,                 /* camera-to-world, camera x right, y down, looking along +z: Stray
                                               Scanner's odometry.csv, Open3D / Redwood trajectory.log, OpenCV */
    FATHOM_POSE_OPENCV_WORLD_TO_CAMERA = 2  /* world-to-camera, OpenCV camera axes: COLMAP images.txt, Open3D's
                                               camera extrinsic */
} fathom_pose_convention;

/** `count` rigid poses (may be 0) written in convention `from`, in convention `to` (fathom_pose_convention) into
 *  `out` (`out` may equal `poses`). ARKit <-> OpenCV multiplies by diag(1, -1, -1, 1) on the right (exact);
 *  world-to-camera is the inverse of camera-to-world. FATHOM_ERR_NOT_RIGID names the first pose that is not
 *  rigid, FATHOM_ERR_NOT_FINITE the first whose inverse's translation leaves the float range (out is then
 *  unchanged); FATHOM_ERR_OUT_OF_RANGE for an unknown convention. */
fathom_status fathom_poses_convert(const fathom_pose *poses, size_t count, uint32_t from, uint32_t to, fathom_pose *out);

/** pose * (p, 1): a point mapped from the pose's local frame to its parent frame. */
fathom_status fathom_pose_transform_point(const fathom_pose *pose, fathom_vec3 point, fathom_vec3 *out);

/** pose * (d, 0): a direction rotated from the pose's local frame to its parent frame. */
fathom_status fathom_pose_transform_direction(const fathom_pose *pose, fathom_vec3 direction, fathom_vec3 *out);

/** Maps `count` points (stride `stride` bytes) through the pose into `out`, packed as count * 3 floats.
 *  `out` may equal `points` only when stride == 12. Every input point must be finite, and so must every
 *  result (FATHOM_ERR_NOT_FINITE; `out` is then partly written). */
fathom_status fathom_pose_transform_points(const fathom_pose *pose, const float *points, size_t count,
                                           size_t stride, float *out);

/** The heading of a pose about world +y, radians in (-pi, pi]: the angle a with R_y(a) taking local +z
 *  to the horizontal projection of the pose's local +z axis (so a box with rot_y = yaw faces the same
 *  way). When local +z is vertical (a camera looking straight down), local +x decides instead. */
fathom_status fathom_pose_yaw(const fathom_pose *pose, float *out_radians);

/** The distance between the two poses' origins (meters) and the angle of the rotation between them
 *  (radians, [0, pi]). */
fathom_status fathom_pose_distance(const fathom_pose *a, const fathom_pose *b, float *out_meters,
                                   float *out_radians);

/* ---------------------------------------------------------------------------------------------- */
/* The capture app's box: yaw-only, optionally standing on a floor                                  */
/* ---------------------------------------------------------------------------------------------- */

/** An oriented box rotated about world +y only, as the capture app places it around an object.
 *  Local axes: +x right, +y up, +z back; the front face is local -z. */
typedef struct fathom_box {
    fathom_vec3 center;   /**< world meters */
    fathom_vec3 scale;    /**< full extents along local x, y, z, meters, each > 0 */
    float rot_y;          /**< rotation about world +y, radians (any finite value; not wrapped) */
    float floor;          /**< world height (y) of the surface the box stands on; used when has_floor != 0 */
    bool has_floor;       /**< false: no floor; true: floor set (bottom corners are clamped to y >= floor) */
} fathom_box;

/** Corner indices (the capture app's order). */
enum {
    FATHOM_CORNER_TOP_LEFT_FRONT = 0,   /* local sign (-, +, -) */
    FATHOM_CORNER_TOP_RIGHT_FRONT = 1,  /* (+, +, -) */
    FATHOM_CORNER_BOT_RIGHT_FRONT = 2,  /* (+, -, -) */
    FATHOM_CORNER_BOT_LEFT_FRONT = 3,   /* (-, -, -) */
    FATHOM_CORNER_TOP_LEFT_BACK = 4,    /* (-, +, +) */
    FATHOM_CORNER_TOP_RIGHT_BACK = 5,   /* (+, +, +) */
    FATHOM_CORNER_BOT_RIGHT_BACK = 6,   /* (+, -, +) */
    FATHOM_CORNER_BOT_LEFT_BACK = 7     /* (-, -, +) */
};

/** Face indices (the capture app's order, also used for face coverage). */
enum {
    FATHOM_FACE_FRONT = 0,   /* local -z */
    FATHOM_FACE_LEFT = 1,    /* local -x */
    FATHOM_FACE_RIGHT = 2,   /* local +x */
    FATHOM_FACE_BOTTOM = 3,  /* local -y */
    FATHOM_FACE_TOP = 4,     /* local +y */
    FATHOM_FACE_BACK = 5     /* local +z */
};

/** One face of a box. */
typedef struct fathom_face {
    fathom_vec3 center;       /**< mean of the face's four corners, world meters */
    fathom_vec3 normal;       /**< outward unit normal, world */
    fathom_quat orientation;  /**< the face's frame: local x along an edge, local z = the outward normal */
} fathom_face;

/** A box with the given centre, scale (each > 0) and rotation about +y, without a floor. */
fathom_status fathom_box_init(fathom_vec3 center, fathom_vec3 scale, float rot_y, fathom_box *out);

/** FATHOM_OK if every field of `box` is valid (finite, scale > 0, and corners and
 *  volume within float range: |center| + 2 * (sx + sy + sz) in each axis, sx * sy * sz and, with a floor,
 *  floor + sy finite, else FATHOM_ERR_NOT_FINITE);
 *  otherwise the status of the first bad field. Every function taking a box performs this check, and
 *  an edit whose result would fail it is refused. */
fathom_status fathom_box_check(const fathom_box *box);

/** The 8 corners in FATHOM_CORNER_* order: center + R_y(rot_y) * (±sx/2, ±sy/2, ±sz/2), with each
 *  bottom corner's y raised to the floor when a floor is set and the corner is below it. */
fathom_status fathom_box_corners(const fathom_box *box, fathom_vec3 out_corners[8]);

/* Edits. Each changes *box in place and on success leaves the new values there (the caller reads the
 * changed fields back, as the capture app does with its return values). On failure *box is unchanged. */

/** center = `center`. */
fathom_status fathom_box_set_center(fathom_box *box, fathom_vec3 center);

/** center += offset (world). */
fathom_status fathom_box_update_center(fathom_box *box, fathom_vec3 offset);

/** center += R_camera * offset: a translation given in the frame of `camera` (camera-to-world, rigid),
 *  so "0.1 m to the right of where the phone points" is (0.1, 0, 0). */
fathom_status fathom_box_update_center_in_camera(fathom_box *box, fathom_vec3 offset, const fathom_pose *camera);

/** center = (x, floor + sy/2, z): the box stands on the floor at (x, z). FATHOM_ERR_INVALID_STATE if
 *  the box has no floor. (The capture app calls this set_center_xy.) */
fathom_status fathom_box_set_center_on_floor(fathom_box *box, float x, float z);

/** scale = `scale` (each > 0). With a floor set, the box is re-seated: center.y = floor + sy/2. */
fathom_status fathom_box_set_scale(fathom_box *box, fathom_vec3 scale);

/** scale *= multiplier per axis (each > 0). With a floor set, re-seated as in fathom_box_set_scale. */
fathom_status fathom_box_update_scale(fathom_box *box, fathom_vec3 multiplier);

/** rot_y = radians. */
fathom_status fathom_box_set_angle(fathom_box *box, float radians);

/** rot_y += radians. */
fathom_status fathom_box_update_angle(fathom_box *box, float radians);

/** Sets the floor height (world y); the box does not move, its bottom corners are clamped to it. */
fathom_status fathom_box_set_floor(fathom_box *box, float height);

/** Removes the floor. */
fathom_status fathom_box_clear_floor(fathom_box *box);

/** Moves the face on the side of `offset` (a local vector such as (0, 0, -0.1) for the front) outward
 *  by |offset| per axis while the opposite face stays: scale += |offset|, center += R_y * offset / 2. */
fathom_status fathom_box_extend_side(fathom_box *box, fathom_vec3 offset);

/** Moves the face opposite the sign of `offset` inward: scale -= |offset|, center += R_y * offset / 2.
 *  FATHOM_ERR_OUT_OF_RANGE if any resulting scale would be <= 0 (the box is left unchanged). */
fathom_status fathom_box_shrink_side(fathom_box *box, fathom_vec3 offset);

/** The 6 faces in FATHOM_FACE_* order, built from the (floor-clamped) corners: centre = mean of the
 *  face's corners; orientation from corner triples (A, B, C) with x = normalize(B - A),
 *  z = normalize(cross(x, C - A)), y = cross(z, x); normal = z. FATHOM_ERR_DEGENERATE if the floor
 *  clamps the box flat (its top is at or below the floor). */
fathom_status fathom_box_faces(const fathom_box *box, fathom_face out_faces[6]);

/** Signed distance (meters) from `point` to the plane of each face, in FATHOM_FACE_* order: positive
 *  on the outer side of the face, negative inside. The point is inside the box when all six are <= 0. */
fathom_status fathom_box_face_distances(const fathom_box *box, fathom_vec3 point, float out_distances[6]);

/* ---------------------------------------------------------------------------------------------- */
/* The capture app's manifest: boundingbox.json                                                    */
/* ---------------------------------------------------------------------------------------------- */
/* {"center": {"x":..,"y":..,"z":..}, "rad_rot_about_y": .., "positions": {"top_left_front": {..}, ...
 *  all eight corners ...}, "entity_anchor_4x4": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}
 * The scale is not stored: a reader recovers it from the corners, and the floor from the bottom corners
 * when they are clamped above the box's unclamped bottom. An unclamped box reads back without a floor. */

/** Writes the manifest of `box` as JSON (UTF-8, NUL-terminated) into `buffer` of `capacity` bytes.
 *  *out_length receives the length without the NUL. If capacity < length + 1, returns
 *  FATHOM_ERR_BUFFER_TOO_SMALL with *out_length set and nothing written; `buffer` may then be NULL
 *  (pass capacity 0 to ask for the size). */
fathom_status fathom_box_manifest_write(const fathom_box *box, char *buffer, size_t capacity, size_t *out_length);

/** Reads a manifest from `length` bytes of JSON text. FATHOM_ERR_PARSE for text that is not JSON
 *  (truncated, malformed, not UTF-8), FATHOM_ERR_FORMAT for a missing, mistyped or non-finite field or a
 *  non-identity entity_anchor_4x4, FATHOM_ERR_NOT_A_BOX when the corners do not form a yaw-rotated box
 *  about the stated center and angle (the message gives the reason and the worst corner). */
fathom_status fathom_box_manifest_read(const char *json, size_t length, fathom_box *out);

/** fathom_box_manifest_write to the file at `path` (created or replaced). FATHOM_ERR_IO on failure. */
fathom_status fathom_box_manifest_save(const fathom_box *box, const char *path);

/** fathom_box_manifest_read from the file at `path`. FATHOM_ERR_IO if it cannot be read. */
fathom_status fathom_box_manifest_load(const char *path, fathom_box *out);

/* ---------------------------------------------------------------------------------------------- */
/* General oriented boxes, point culling and box fits                                               */
/* ---------------------------------------------------------------------------------------------- */

/** An oriented box with any 3D rotation. Its local frame: center + rotation * local. */
typedef struct fathom_obb {
    fathom_vec3 center;    /**< meters */
    fathom_vec3 scale;     /**< full extents along local x, y, z, meters, each > 0 */
    fathom_quat rotation;  /**< local-to-world rotation, unit within 1e-3 */
} fathom_obb;

/** The oriented box a fathom_box describes: its corners' box, i.e. with the bottom raised to the floor
 *  when a floor is set and the box reaches below it. FATHOM_ERR_DEGENERATE if that leaves no height. */
fathom_status fathom_box_to_obb(const fathom_box *box, fathom_obb *out);

/** FATHOM_OK if every field of `obb` is valid: finite, scale > 0 (FATHOM_ERR_OUT_OF_RANGE), rotation
 *  unit within 1e-3 (FATHOM_ERR_OUT_OF_RANGE), corners and volume within float range as for a box. */
fathom_status fathom_obb_check(const fathom_obb *obb);

/** The 8 corners in FATHOM_CORNER_* order (local signs as for fathom_box). */
fathom_status fathom_obb_corners(const fathom_obb *obb, fathom_vec3 out_corners[8]);

/** The box's volume, cubic meters. */
fathom_status fathom_obb_volume(const fathom_obb *obb, float *out_volume);

/* Point containment: a point is inside when its local coordinates satisfy |l_i| <= scale_i / 2 for each
 * axis (faces count as inside). Points with a NaN coordinate are outside; infinite ones are outside.
 * Single-threaded, streaming, SIMD; the points are read once. */

/** The number of points inside `obb`. */
fathom_status fathom_obb_count_inside(const fathom_obb *obb, const float *points, size_t count, size_t stride,
                                      size_t *out_inside);

/** out_mask[i] = 1 if point i is inside, else 0 (count bytes). Optionally (may be NULL) the number inside. */
fathom_status fathom_obb_mask_inside(const fathom_obb *obb, const float *points, size_t count, size_t stride,
                                     uint8_t *out_mask, size_t *out_inside);

/** The indices of the points inside, ascending, into out_indices (capacity entries). *out_inside gets
 *  the number of points inside. If that exceeds capacity, the first `capacity` indices are written and
 *  FATHOM_ERR_BUFFER_TOO_SMALL is returned. out_indices may be NULL when capacity is 0. */
fathom_status fathom_obb_indices_inside(const fathom_obb *obb, const float *points, size_t count, size_t stride,
                                        uint64_t *out_indices, size_t capacity, size_t *out_inside);

/** out_distances[i] = signed Euclidean distance (meters) from point i to the box's surface: negative
 *  inside (minus the distance to the nearest face), positive outside. Points must be finite. */
fathom_status fathom_obb_signed_distances(const fathom_obb *obb, const float *points, size_t count, size_t stride,
                                          float *out_distances);

/** The box aligned with the principal axes of the points (eigenvectors of their covariance, LAPACK
 *  dsyevd, largest variance first as local x) that encloses them all. Needs >= 4 points that do not
 *  all lie on one plane (FATHOM_ERR_DEGENERATE). Points must be finite. *out_volume = its volume. */
fathom_status fathom_obb_fit_pca(const float *points, size_t count, size_t stride, fathom_obb *out,
                                 float *out_volume);

/** The yaw-only box of least footprint around points of an object standing upright: the minimum-area
 *  rectangle of the convex hull of the points' x-z projection, y from the lowest to the highest point.
 *  rot_y in [0, pi/2) (the local x axis is the rectangle's first edge direction). The result has no
 *  floor; fathom_obb_count_inside of its fathom_box_to_obb counts every point. Needs points that span an
 *  area in x-z and a height in y (FATHOM_ERR_DEGENERATE). *out_volume = its volume. */
fathom_status fathom_box_fit_upright(const float *points, size_t count, size_t stride, fathom_box *out,
                                     float *out_volume);

/* ---------------------------------------------------------------------------------------------- */
/* Tags and placement                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/** A fiducial tag's world pose from the camera pose (camera-to-world, ARKit axes) and the tag's pose in
 *  the camera's optical frame (x right, y down, z forward, as a PnP solve gives it):
 *  T_world_tag = camera_to_world * F * tag_in_optical, F = diag(1, -1, -1, 1). */
fathom_status fathom_tag_world_pose(const fathom_pose *camera_to_world, const fathom_pose *tag_in_optical,
                                    fathom_pose *out);

/** The tag turned about its own x axis so that its z axis (the normal) is horizontal, keeping the
 *  z direction nearest to the original; translation kept. FATHOM_ERR_DEGENERATE if the tag's x axis is
 *  vertical (within 1e-4), where no turn about x can make z horizontal. */
fathom_status fathom_tag_snap_vertical(const fathom_pose *tag, fathom_pose *out);

/** R * S * R^T: a 3x3 covariance (column-major, symmetric) expressed in the frame the rotation of
 *  `rotation` maps into. The translation of `rotation` is ignored. */
fathom_status fathom_covariance_rotate(const fathom_pose *rotation, const float covariance[9], float out[9]);

/** Fuses `count` (>= 1) observations of one tag (world poses) into one pose.
 *  With `covariances` (count * 9 floats, each a symmetric positive definite 3x3 position covariance,
 *  column-major): position = information-weighted mean (sum S_i^-1)^-1 * sum S_i^-1 p_i, and rotation =
 *  the weighted quaternion average (eigenvector of sum w_i q_i q_i^T, LAPACK) with w_i = 1 / trace(S_i).
 *  `covariances` may be NULL: equal weights. `out_covariance` (may be NULL) receives the fused position
 *  covariance: (sum S_i^-1)^-1, or without input covariances the sample covariance of the positions
 *  (normalized by count - 1) divided by count (all zeros for a single observation). FATHOM_ERR_OUT_OF_RANGE for a covariance that
 *  is not symmetric positive definite, or a fused position or covariance beyond the float range;
 *  FATHOM_ERR_DEGENERATE when the rotations cancel out. */
fathom_status fathom_tag_fuse(const fathom_pose *poses, const float *covariances, size_t count, fathom_pose *out,
                              float out_covariance[9]);

/** Where a label (a flat panel) goes relative to its target. */
typedef enum fathom_anchor_point {
    FATHOM_ANCHOR_AUTO = 0,      /**< the first of TOP, BOTTOM, LEADING, TRAILING not in used_anchors, else TOP */
    FATHOM_ANCHOR_CENTER = 1,    /**< centred on the target */
    FATHOM_ANCHOR_LEADING = 2,   /**< beside the target's left edge */
    FATHOM_ANCHOR_TRAILING = 3,  /**< beside the target's right edge */
    FATHOM_ANCHOR_TOP = 4,       /**< above the target's top edge */
    FATHOM_ANCHOR_BOTTOM = 5,    /**< below the target's bottom edge */
    FATHOM_ANCHOR_COVER = 6      /**< covering the target (same place as CENTER) */
} fathom_anchor_point;

/** What a label is placed against. */
typedef enum fathom_label_target {
    FATHOM_LABEL_ON_IMAGE = 0,   /**< a tracked image: it lies in its own x-z plane, +x right, +z toward its
                                      bottom edge; the panel is turned -90 degrees about x to lie on it */
    FATHOM_LABEL_ON_PANEL = 1    /**< a parent panel: placed in the parent's x-y plane, top = +y; not turned */
} fathom_label_target;

/** A label placement request (a struct so it can grow without new functions). */
typedef struct fathom_label_request {
    int32_t anchor;                  /**< a fathom_anchor_point */
    int32_t target;                  /**< a fathom_label_target */
    float target_width;              /**< W: the tracked image's (or parent panel's) width, meters, > 0 */
    float target_height;             /**< H: its height, meters, > 0 */
    float panel_width;               /**< w: the label panel's width, meters, > 0 */
    float panel_height;              /**< h: its height, meters, > 0 */
    fathom_vec3 relative_position;   /**< added to the position, in the target's frame, meters */
    fathom_vec3 position_offset;     /**< added to the position, in the target's frame, meters */
    uint32_t used_anchors;           /**< for AUTO: bit (1u << point) set for each fathom_anchor_point already
                                          taken by another label of the same target */
} fathom_label_request;

/** A label's placement in its target's frame. */
typedef struct fathom_label_placement {
    fathom_vec3 position;      /**< panel centre: relative_position + position_offset + anchor offset */
    fathom_quat orientation;   /**< panel rotation: -90 degrees about x on an image, identity on a panel */
    int32_t anchor;            /**< the anchor point used (AUTO resolved) */
} fathom_label_placement;

/** Places a label. Anchor offsets on an image (x, 0, z): center/cover (0, 0), top (0, -(H/2 + h/2)),
 *  bottom (0, +(H/2 + h/2)), leading (-(W/2 + w/2), 0), trailing (+(W/2 + w/2), 0). On a panel the same
 *  offsets lie in x-y with top = +y: top (0, +(H/2 + h/2), 0), bottom (0, -(H/2 + h/2), 0).
 *  FATHOM_ERR_OUT_OF_RANGE for an unknown anchor or target, or a size <= 0. */
fathom_status fathom_label_place(const fathom_label_request *request, fathom_label_placement *out);

/* ---------------------------------------------------------------------------------------------- */
/* Cameras                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/** The intrinsics of the same sensor at another resolution: fx' = fx * w'/w, cx' = cx * w'/w,
 *  fy' = fy * h'/h, cy' = cy * h'/h (e.g. from the 1920x1440 RGB image to the 256x192 depth map).
 *  FATHOM_ERR_OUT_OF_RANGE for a zero size or focal length <= 0. */
fathom_status fathom_intrinsics_scale(const fathom_intrinsics *intrinsics, uint32_t width, uint32_t height,
                                      fathom_intrinsics *out);

/* ---------------------------------------------------------------------------------------------- */
/* Rays, cameras and primitive casts                                                                */
/* ---------------------------------------------------------------------------------------------- */
/* Pixel coordinates are continuous: (0, 0) is the top-left corner of the top-left pixel, so the centre
 * of pixel (column i, row j) is (i + 0.5, j + 0.5). Every cast takes a range [tmin, tmax] (0 <= tmin <=
 * tmax, tmax may be INFINITY) and reports hits with tmin <= t <= tmax only. Directions need not be unit:
 * t is measured in units of the direction's length (meters for a unit direction). A non-finite direction
 * is FATHOM_ERR_NOT_FINITE; a zero direction, or one whose components are all below 1e-18 in magnitude,
 * is FATHOM_ERR_DEGENERATE; a direction with a component above 1e18 in magnitude, tmin > tmax or tmin < 0
 * is FATHOM_ERR_OUT_OF_RANGE. */

/** A ray: points origin + t * direction. 6 floats, so an (N, 6) float32 array is an array of rays. */
typedef struct fathom_ray {
    fathom_vec3 origin;
    fathom_vec3 direction;
} fathom_ray;

/** The primitive value of a miss. */
#define FATHOM_NO_HIT 0xFFFFFFFFu

/** A ray's hit. On a miss: primitive = FATHOM_NO_HIT, t = INFINITY, all other fields 0. */
typedef struct fathom_hit {
    float t;                /**< distance along the ray, in units of |direction| */
    fathom_vec3 point;      /**< origin + t * direction */
    fathom_vec3 normal;     /**< unit geometric normal: a mesh triangle's (v1 - v0) x (v2 - v0) side, a plane's
                                 given normal, a box face's outward normal, a sphere's outward normal */
    float u, v;             /**< barycentrics of a triangle hit: point = (1-u-v) v0 + u v1 + v v2; else 0 */
    uint32_t primitive;     /**< triangle index, box face index (FATHOM_FACE_*), 0 for planes and spheres */
    uint8_t classification; /**< a mesh triangle's class (fathom_mesh_class), else 0 */
    bool front_face;        /**< true if the ray meets the side the normal points to (dot(direction, normal) < 0) */
    uint8_t reserved[2];    /**< 0 */
} fathom_hit;

/** Where fathom_camera_project puts a point. */
enum {
    FATHOM_PROJECT_BEHIND = 1u,   /* the point is not in front of the camera (camera-frame z >= 0); u, v are 0 */
    FATHOM_PROJECT_OUTSIDE = 2u   /* in front, but u or v is outside [0, width] x [0, height] (beyond the float
                                     range they are clamped to -+FLT_MAX) */
};

/** The ray from the camera centre through pixel (u, v): direction in the camera frame
 *  ((u - cx) / fx, -(v - cy) / fy, -1), normalized, rotated by the camera pose (camera-to-world, ARKit
 *  axes). u and v may lie outside the image. */
fathom_status fathom_camera_ray(const fathom_intrinsics *intrinsics, const fathom_pose *camera_to_world,
                                float u, float v, fathom_ray *out);

/** Projects a world point to pixel coordinates. *out_flags gets FATHOM_PROJECT_* bits (0: visible). */
fathom_status fathom_camera_project(const fathom_intrinsics *intrinsics, const fathom_pose *camera_to_world,
                                    fathom_vec3 point, float *out_u, float *out_v, uint32_t *out_flags);

/** Rays through the centres of a grid of pixels: every `step`-th column and row (step >= 1), starting at
 *  pixel centre (0.5, 0.5), row by row. The grid has ceil(width/step) * ceil(height/step) rays;
 *  *out_count gets that number. If capacity is smaller, nothing is written and FATHOM_ERR_BUFFER_TOO_SMALL
 *  is returned (out may then be NULL). */
fathom_status fathom_camera_grid_rays(const fathom_intrinsics *intrinsics, const fathom_pose *camera_to_world,
                                      uint32_t step, fathom_ray *out, size_t capacity, size_t *out_count);

/** Ray against the plane through `point` with normal `normal` (non-zero). A ray in the plane or parallel
 *  to it misses. */
fathom_status fathom_ray_plane(const fathom_ray *ray, float tmin, float tmax, fathom_vec3 point, fathom_vec3 normal,
                               fathom_hit *out);

/** Ray against the horizontal plane y = height (the floor), normal +y. */
fathom_status fathom_ray_floor(const fathom_ray *ray, float tmin, float tmax, float height, fathom_hit *out);

/** Ray against a sphere (radius > 0). From inside, the exit point is hit (front_face = 0). */
fathom_status fathom_ray_sphere(const fathom_ray *ray, float tmin, float tmax, fathom_vec3 center, float radius,
                                fathom_hit *out);

/** Ray against an oriented box, with both crossings. */
typedef struct fathom_box_hit {
    fathom_hit hit;          /**< the first crossing within [tmin, tmax] (entry, or exit from inside) */
    float t_enter, t_exit;   /**< where the ray's line enters and leaves the box (t_enter < 0 from inside) */
    uint32_t face_enter;     /**< FATHOM_FACE_* of the entry face */
    uint32_t face_exit;      /**< FATHOM_FACE_* of the exit face */
    bool origin_inside;      /**< true if the ray's origin is inside the box (faces count as inside) */
} fathom_box_hit;

/** Ray against an oriented box (slab test in the box frame). On a miss hit.primitive = FATHOM_NO_HIT and
 *  t_enter, t_exit, face_enter and face_exit are 0. Face indices follow FATHOM_FACE_* (local axes). */
fathom_status fathom_ray_obb(const fathom_ray *ray, float tmin, float tmax, const fathom_obb *obb, fathom_box_hit *out);

/** Ray against one triangle (the same watertight test the meshes use; both sides are hit; a zero-area
 *  triangle is never hit). */
fathom_status fathom_ray_triangle(const fathom_ray *ray, float tmin, float tmax, fathom_vec3 v0, fathom_vec3 v1,
                                  fathom_vec3 v2, fathom_hit *out);

/* ---------------------------------------------------------------------------------------------- */
/* Triangle meshes and their BVH                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/** A triangle mesh with its acceleration structure. Immutable once made: every query may run on many
 *  threads at once on the same mesh. Destroy it once, after the last query. */
typedef struct fathom_mesh fathom_mesh;

/** ARKit's mesh classification of a face. */
typedef enum fathom_mesh_class {
    FATHOM_CLASS_NONE = 0,
    FATHOM_CLASS_WALL = 1,
    FATHOM_CLASS_FLOOR = 2,
    FATHOM_CLASS_CEILING = 3,
    FATHOM_CLASS_TABLE = 4,
    FATHOM_CLASS_SEAT = 5,
    FATHOM_CLASS_WINDOW = 6,
    FATHOM_CLASS_DOOR = 7
} fathom_mesh_class;

/** How fathom_mesh_create keeps the caller's buffers (its `flags`, one of these). */
typedef enum fathom_mesh_flags {
    FATHOM_MESH_COPY = 0,     /* copy the vertex, index and class buffers (they may be freed after the call);
                                 the leaves hold each triangle's vertices, for the fastest traversal */
    FATHOM_MESH_BORROW = 1,   /* keep pointers to the caller's buffers: they must stay valid and unchanged
                                 until fathom_mesh_destroy; vertices 4-byte aligned; the leaves hold vertex
                                 indices into the caller's vertex buffer */
    FATHOM_MESH_COMPACT = 2   /* copy the buffers (they may be freed after the call), the vertices once, packed,
                                 and keep the leaves as vertex indices into that copy, as with FATHOM_MESH_BORROW:
                                 the least memory per triangle, a slower traversal; at most 2^32 vertices */
} fathom_mesh_flags;

/** Makes a mesh from `vertex_count` vertices (float32 xyz, byte stride >= 12, multiple of 4) and
 *  `triangle_count` triangles (3 uint32 indices each, every index < vertex_count), with optional per-face
 *  classes (`classes`, triangle_count bytes, each <= FATHOM_CLASS_DOOR; may be NULL), and builds its BVH.
 *  Vertices must be finite. Degenerate (zero-area) triangles are kept but never hit. triangle_count may
 *  be 0 (an empty mesh: every ray misses) and at most 2^28 - 1. FATHOM_ERR_OUT_OF_RANGE names the first
 *  bad index or class. With FATHOM_MESH_BORROW the mesh reads the vertex buffer in place; the index and
 *  class buffers are copied into the BVH's order either way. */
fathom_status fathom_mesh_create(const float *vertices, size_t vertex_count, size_t vertex_stride,
                                 const uint32_t *indices, size_t triangle_count, const uint8_t *classes,
                                 uint32_t flags /* fathom_mesh_flags */, fathom_mesh **out);

/** Loads a mesh from a Wavefront OBJ (v and f records; polygons are fanned into triangles; negative indices
 *  allowed; face vertices i, i/t, i/t/n, i//n, with empty texture or normal slots as in i// or i/t/; a line
 *  ending with a backslash continues on the next) or a PLY file (ascii or binary_little_endian; vertex x y z as
 *  float or double, faces as a list of int/uint indices; an optional uchar face property "classification" or
 *  "label" becomes the class, 0...7). Chosen by the file's contents. FATHOM_ERR_IO if unreadable;
 *  FATHOM_ERR_PARSE / FATHOM_ERR_FORMAT with the line (OBJ, ascii PLY) or byte offset (binary PLY) where the
 *  problem is found (an element count too large for the rest of the file is reported at its declaration's line;
 *  a class value above 7 is FATHOM_ERR_FORMAT). */
fathom_status fathom_mesh_load(const char *path, fathom_mesh **out);

/** Frees a mesh; NULL is allowed and does nothing. */
void fathom_mesh_destroy(fathom_mesh *mesh);

/** Sizes and bounds of a mesh. */
typedef struct fathom_mesh_info {
    uint64_t vertex_count;
    uint64_t triangle_count;
    fathom_vec3 bounds_min;     /**< of all vertices, used by a triangle or not (0 without vertices) */
    fathom_vec3 bounds_max;
    double surface_area;        /**< sum of triangle areas, square meters */
    uint64_t memory_bytes;      /**< bytes held by the mesh: the BVH, a FATHOM_MESH_COMPACT mesh's vertices, its
                                     copy of the classes and, when those reach 1 MB, a 32 KiB grid of where the
                                     triangles lie (the batch ray order's predictor); not the copy of the
                                     indices (and, with FATHOM_MESH_COPY, of the vertices) kept for export */
    uint64_t bvh_bytes;         /**< of which the BVH: nodes and per triangle its vertices in SIMD lanes
                                     (FATHOM_MESH_COPY) or its vertex indices (FATHOM_MESH_BORROW,
                                     FATHOM_MESH_COMPACT), plus padding of leaves to blocks of 4 */
    uint64_t bvh_nodes;         /**< number of BVH nodes */
    uint32_t bvh_depth;         /**< depth of the deepest leaf */
    uint32_t bvh_width;         /**< children per node */
    uint32_t reserved[4];           /**< 0: room for values added in 1.x */
} fathom_mesh_info;

/** Fills *out with the mesh's sizes and bounds. */
fathom_status fathom_mesh_get_info(const fathom_mesh *mesh, fathom_mesh_info *out);

/** Per-triangle unit normals ((v1 - v0) x (v2 - v0), normalized; 0 for degenerate triangles) as
 *  triangle_count * 3 floats, and areas as triangle_count floats; either output may be NULL. */
fathom_status fathom_mesh_face_geometry(const fathom_mesh *mesh, float *out_normals, float *out_areas);

/** The closest hit within [tmin, tmax] (watertight: a ray through a shared edge or vertex of a closed
 *  mesh hits once, never zero times). */
fathom_status fathom_mesh_intersect(const fathom_mesh *mesh, const fathom_ray *ray, float tmin, float tmax,
                                    fathom_hit *out);

/** *out_occluded = true if any triangle is hit within [tmin, tmax] (faster than the closest hit). */
fathom_status fathom_mesh_occluded(const fathom_mesh *mesh, const fathom_ray *ray, float tmin, float tmax,
                                   bool *out_occluded);

/** Every surface crossing within [tmin, tmax], sorted by t; a crossing through a shared edge or vertex
 *  is reported once. *out_count gets the number of crossings; if it exceeds capacity, the first
 *  `capacity` are written and FATHOM_ERR_BUFFER_TOO_SMALL is returned. `out` may be NULL when capacity
 *  is 0 (to ask for the count). */
fathom_status fathom_mesh_intersect_all(const fathom_mesh *mesh, const fathom_ray *ray, float tmin, float tmax,
                                        fathom_hit *out, size_t capacity, size_t *out_count);

/** Options for the batch queries; fathom_batch_options_init fills the defaults. A NULL options pointer means
 *  the defaults: {0, INFINITY, 0}. */
typedef struct fathom_batch_options {
    float tmin, tmax;     /**< the range for every ray */
    uint32_t threads;     /**< worker threads, 1...1024 (more is FATHOM_ERR_OUT_OF_RANGE); 0 = one per online CPU.
                               Results do not depend on it. */
    uint32_t reserved[4];           /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_batch_options;

/** Fills *options with the defaults: tmin 0, tmax INFINITY, threads 0 (one per online CPU). */
fathom_status fathom_batch_options_init(fathom_batch_options *options);

/** Closest hits of `count` rays into out[count]. `options` may be NULL (defaults). A ray with a zero or
 *  non-finite direction fails the whole call with its index in the message, before any work. Batches of 4096
 *  rays or more on a mesh of 1 MB or more (fathom_mesh_info.memory_bytes) are traced in an order of their own,
 *  sorted by where each ray is likely to end (predicted from 1024 sample rays traced first: the point at their
 *  median hit distance when those agree, else the first cell of a coarse 32^3 grid over the mesh that holds a
 *  triangle, unless that median point lies nearer the sample's hits, as in a volume full of triangles), so rays
 *  bound for the same part of the mesh share the cache (bench/README.md, "Batch ray order", has
 *  what it gains and costs).
 *  Longer batches are ordered in windows of 4,194,304 rays, so the ordering holds at most 64 MiB (16 bytes per
 *  ray) at a time. Eight rays in a row of that order (or of the caller's) that leave one point in directions within
 *  about 3 degrees of each other, as a camera's do, are traced together as a packet: each node is read once for the
 *  eight, and each ray keeps its own box and triangle tests. Every result still depends on its own ray only (of
 *  equally near triangles, the same one is reported whatever the order), as do the batch calls below. */
fathom_status fathom_mesh_intersect_batch(const fathom_mesh *mesh, const fathom_ray *rays, size_t count,
                                          const fathom_batch_options *options, fathom_hit *out);

/** Closest hits as distance and triangle only (a depth map rendered from a mesh needs no more): out_t[i] = the
 *  hit's t (INFINITY on a miss), out_primitive[i] = its triangle (FATHOM_NO_HIT on a miss), the same values as
 *  fathom_mesh_intersect_batch's t and primitive. Either output may be NULL when not wanted, not both
 *  (FATHOM_ERR_NULL_POINTER). */
fathom_status fathom_mesh_intersect_batch_compact(const fathom_mesh *mesh, const fathom_ray *rays, size_t count,
                                                  const fathom_batch_options *options, float *out_t,
                                                  uint32_t *out_primitive);

/** The order in which the batch calls trace these rays with these options: out_order[j] (count entries) = the
 *  index of the ray traced j-th; 0, 1, 2, ... when the batch is traced in the caller's order. For tracing the
 *  same rays in the same order elsewhere (bench/ does, to compare traversals on equal terms). */
fathom_status fathom_mesh_ray_order(const fathom_mesh *mesh, const fathom_ray *rays, size_t count,
                                    const fathom_batch_options *options, uint32_t *out_order);

/** out_occluded[i] = true if ray i hits anything within the range. */
fathom_status fathom_mesh_occluded_batch(const fathom_mesh *mesh, const fathom_ray *rays, size_t count,
                                         const fathom_batch_options *options, bool *out_occluded);

/** All crossings of `count` rays: out_offsets (count + 1 entries) gets, for ray i, the crossings
 *  hits[out_offsets[i] .. out_offsets[i+1]) sorted by t. If the total exceeds capacity, out_offsets is
 *  still filled completely (out_offsets[count] = the total needed), no hit is written, and
 *  FATHOM_ERR_BUFFER_TOO_SMALL is returned. */
fathom_status fathom_mesh_intersect_all_batch(const fathom_mesh *mesh, const fathom_ray *rays, size_t count,
                                              const fathom_batch_options *options, fathom_hit *hits,
                                              size_t capacity, uint64_t *out_offsets);

/* A mesh's input as given: every mesh keeps, besides its BVH, a copy of the indices (12 bytes per triangle)
 * and, unless made with FATHOM_MESH_BORROW, of the vertices (12 bytes per vertex), for the functions below;
 * fathom_mesh_info.memory_bytes does not count them. A borrowed mesh's vertices are read from the caller's
 * buffer. */

/** The vertices in the order they were given (unused ones included): vertex_count * 3 floats x, y, z into
 *  `out`, whose capacity is in vertices (FATHOM_ERR_BUFFER_TOO_SMALL if < vertex_count). `out` may be NULL
 *  when the mesh has no vertices. */
fathom_status fathom_mesh_vertices(const fathom_mesh *mesh, float *out, size_t capacity);

/** The triangles as given (degenerate ones included): triangle_count * 3 vertex indices into `out`, whose
 *  capacity is in triangles. `out` may be NULL when the mesh has no triangles. */
fathom_status fathom_mesh_triangles(const fathom_mesh *mesh, uint32_t *out, size_t capacity);

/** The per-triangle classes (fathom_mesh_class, one byte each) in triangle order, `capacity` in triangles;
 *  FATHOM_ERR_NO_DATA when the mesh was made without classes. */
fathom_status fathom_mesh_classes(const fathom_mesh *mesh, uint8_t *out, size_t capacity);

/** Writes the mesh to `path`, the format chosen by the extension (any case): ".ply" binary little-endian
 *  (float x y z; list uchar uint vertex_indices; uchar classification when the mesh has classes), ".obj"
 *  (v and f records; OBJ has no classes, so they are not written); any other extension is FATHOM_ERR_FORMAT.
 *  fathom_mesh_load reads either back to the same vertices (bit for bit), triangles and (PLY) classes.
 *  FATHOM_ERR_IO if the file cannot be written. */
fathom_status fathom_mesh_save(const fathom_mesh *mesh, const char *path);

/* The capture app's tap flows (reference/box.md). Each casts the tap's ray from the camera. */

/** Floor height from a tap: the y of the first hit on `mesh` (may be NULL) or, when no mesh is given
 *  or it is missed, on the plane through `plane_point` with `plane_normal` (pass a zero normal for no
 *  plane). *out_hit_found = false and *out_height untouched when nothing is hit. */
fathom_status fathom_tap_floor_height(const fathom_intrinsics *intrinsics, const fathom_pose *camera_to_world,
                                      float u, float v, const fathom_mesh *mesh, fathom_vec3 plane_point,
                                      fathom_vec3 plane_normal, float *out_height, bool *out_hit_found);

/** Box centre from a tap: casts the tap's ray at `mesh` (or, if NULL or missed, at the box's floor plane)
 *  and stands the box on its floor at the hit's x, z (fathom_box_set_center_on_floor). The box must
 *  have a floor (FATHOM_ERR_INVALID_STATE). *out_hit_found = false and the box unchanged on a miss. */
fathom_status fathom_tap_place_box(const fathom_intrinsics *intrinsics, const fathom_pose *camera_to_world,
                                   float u, float v, const fathom_mesh *mesh, fathom_box *box,
                                   bool *out_hit_found);

/** Which face of the box is under the screen point: *out_face = FATHOM_FACE_* of the face the tap's ray
 *  meets first (the entry face; the exit face when the camera is inside the box), or FATHOM_NO_HIT. */
fathom_status fathom_tap_box_face(const fathom_intrinsics *intrinsics, const fathom_pose *camera_to_world,
                                  float u, float v, const fathom_box *box, uint32_t *out_face);

/* ---------------------------------------------------------------------------------------------- */
/* Depth frames and back-projection                                                                */
/* ---------------------------------------------------------------------------------------------- */
/* A depth frame describes a caller-owned depth map (z-depth: distance from the camera plane, not along
 * the ray), borrowed for the duration of each call, never copied. Depth sample (column i, row j) sits at
 * the centre of its pixel: continuous depth-grid coordinates (i + 0.5, j + 0.5). The intrinsics are the
 * RGB image's (for example 1920x1440); they are scaled to the depth grid (conventions: fx' = fx * w'/w...),
 * so an RGB pixel (u, v) maps to depth-grid coordinates (u * width / rgb_width, v * height / rgb_height). The
 * grid has the image's shape: a grid that is the image's shape transposed (an array passed as [x][y]), or scaled
 * more than twice as much along one axis as along the other, is FATHOM_ERR_OUT_OF_RANGE.
 * A sample is valid when its value in meters is finite, > 0, within [min_depth, max_depth], and its
 * confidence (when a confidence map is given) is >= min_confidence. Invalid samples are skipped: they never
 * become points. Points come in one of three frames (fathom_frame). */

/** Storage of depth values. */
typedef enum fathom_depth_format {
    FATHOM_DEPTH_FLOAT32 = 0,   /* float, meters * 1/scale (ARKit's depthMap: scale 1) */
    FATHOM_DEPTH_FLOAT16 = 1,   /* IEEE half precision */
    FATHOM_DEPTH_UINT16 = 2     /* unsigned 16-bit integer units (PNG depth: scale 0.001 for millimetres) */
} fathom_depth_format;

/** The frame of back-projected points. */
typedef enum fathom_frame {
    FATHOM_FRAME_OPTICAL = 0,   /* x right, y down, z forward (the depth), meters */
    FATHOM_FRAME_CAMERA = 1,    /* ARKit camera: x right, y up, looking along -z: (X, -Y, -Z) of the optical frame */
    FATHOM_FRAME_WORLD = 2      /* camera_to_world * camera-frame point; needs has_pose (else FATHOM_ERR_INVALID_STATE) */
} fathom_frame;

/** A borrowed depth map and how to read it. Fill it with fathom_depth_frame_init, then set what differs. */
typedef struct fathom_depth_frame {
    const void *depth;              /**< width * height samples, rows top to bottom */
    uint32_t format;                /**< fathom_depth_format */
    uint32_t width, height;         /**< depth grid size, >= 1 */
    size_t row_stride;              /**< bytes from one row to the next; 0 = width * sample size */
    float scale;                    /**< meters per stored unit, > 0 (1 for meters, 0.001 for millimetres) */
    const uint8_t *confidence;      /**< may be NULL: width * height values (ARKit: 0 low, 1 medium, 2 high) */
    size_t confidence_stride;       /**< bytes from one confidence row to the next; 0 = width */
    float min_depth, max_depth;     /**< valid depth range, meters, 0 <= min_depth <= max_depth (max may be INFINITY) */
    fathom_intrinsics intrinsics;   /**< of the RGB image the depth map belongs to; scaled to the depth grid, every
                                         sample's ray slope (i + 0.5 - cx') / fx' must be a finite float (else
                                         FATHOM_ERR_OUT_OF_RANGE: a focal length near 0) */
    fathom_pose camera_to_world;    /**< the camera pose, used when has_pose is true */
    bool has_pose;                  /**< true if camera_to_world is set */
    uint8_t min_confidence;         /**< samples with confidence below this are invalid (0: keep all) */
    uint8_t reserved[14];           /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_depth_frame;

/** Fills *frame for a packed depth map: the given buffer, format, size and RGB intrinsics; no confidence,
 *  scale 1 (0.001 for FATHOM_DEPTH_UINT16), range [0, INFINITY], no pose. Checks nothing (the queries do). */
fathom_status fathom_depth_frame_init(fathom_depth_frame *frame, const void *depth, uint32_t format, uint32_t width,
                                      uint32_t height, const fathom_intrinsics *intrinsics);

/** A binary mask over an image (a segmentation of the object): nonzero bytes are inside. Its size may differ
 *  from the depth grid's; a depth sample is inside when the mask pixel under the sample's centre is:
 *  mask pixel (floor((i + 0.5) * mask_width / width), floor((j + 0.5) * mask_height / height)). */
typedef struct fathom_mask {
    const uint8_t *data;        /**< width * height bytes, rows top to bottom */
    uint32_t width, height;     /**< >= 1 */
    size_t row_stride;          /**< bytes from one row to the next; 0 = width */
} fathom_mask;

/** Which samples of a frame to use: a rectangle [x0, x1) x [y0, y1) of the depth grid, every step-th column
 *  and row from (x0, y0), and an optional mask. */
typedef struct fathom_depth_selection {
    uint32_t x0, y0, x1, y1;    /**< x0 < x1 <= width, y0 < y1 <= height; x1 = y1 = 0 stands for x1 = width, y1 = height */
    uint32_t step;              /**< >= 1 */
    const fathom_mask *mask;    /**< may be NULL */
} fathom_depth_selection;

/** Counts the valid samples a selection holds (the number of points fathom_depth_backproject writes).
 *  `selection` may be NULL: every sample. */
fathom_status fathom_depth_count(const fathom_depth_frame *frame, const fathom_depth_selection *selection,
                                 size_t *out_count);

/** Back-projects every valid selected sample, row by row, to out_points (3 floats each) in `out_frame`:
 *  optical X = (i + 0.5 - cx') / fx' * d, Y = (j + 0.5 - cy') / fy' * d, Z = d with the intrinsics scaled
 *  to the depth grid. out_pixels (may be NULL) gets each point's depth-grid column and row (2 uint32 each).
 *  out_normals (may be NULL) gets each point's unit surface normal in the same frame, facing the camera,
 *  from the cross product of central differences of its neighbours' points (one-sided where a neighbour is
 *  invalid); (0, 0, 0) where neither neighbour along a grid axis is valid. *out_count gets the number of
 *  valid samples; if it exceeds capacity, the first `capacity` points are written and
 *  FATHOM_ERR_BUFFER_TOO_SMALL is returned. out_points may be NULL when capacity is 0 (a count). */
fathom_status fathom_depth_backproject(const fathom_depth_frame *frame, const fathom_depth_selection *selection,
                                       uint32_t out_frame, float *out_points, uint32_t *out_pixels, float *out_normals,
                                       size_t capacity, size_t *out_count);

/** How to read the depth under an RGB pixel. */
typedef enum fathom_depth_sampling {
    FATHOM_SAMPLE_NEAREST = 0,  /* the sample whose pixel contains the point */
    FATHOM_SAMPLE_BILINEAR = 1, /* bilinear between the four nearest sample centres (clamped at the border); invalid
                                   samples' weights are dropped and the rest renormalized */
    FATHOM_SAMPLE_MEDIAN = 2    /* the median of the valid samples of the window x window block centred on the
                                   nearest sample (the lower middle value of an even count) */
} fathom_depth_sampling;

/** The depth (meters) at RGB pixel (u, v) (continuous coordinates, inside [0, rgb width) x [0, rgb height),
 *  else FATHOM_ERR_OUT_OF_RANGE). `window` is odd and >= 1 for FATHOM_SAMPLE_MEDIAN (ignored otherwise).
 *  FATHOM_ERR_NO_DATA when no valid sample is there. */
fathom_status fathom_depth_sample(const fathom_depth_frame *frame, float u, float v, uint32_t sampling,
                                  uint32_t window, float *out_depth);

/** The 3D point of RGB pixel (u, v) at its sampled depth d (fathom_depth_sample), back-projected with the RGB
 *  intrinsics: optical ((u - cx) / fx * d, (v - cy) / fy * d, d), in `out_frame`. */
fathom_status fathom_depth_point(const fathom_depth_frame *frame, float u, float v, uint32_t sampling, uint32_t window,
                                 uint32_t out_frame, fathom_vec3 *out);

/* ---------------------------------------------------------------------------------------------- */
/* Least-squares fits (double precision)                                                           */
/* ---------------------------------------------------------------------------------------------- */
/* Fits take double points: 2D fits (x, y) pairs, 3D fits (x, y, z) triples, `stride` bytes apart (a multiple of
 * 8, at least 16 for 2D and 24 for 3D; 0 = packed). Each fit has an `f` variant that reads float points in
 * place (what back-projection writes: a stride a multiple of 4, at least 8 for 2D and 12 for 3D, 4-byte
 * aligned); it widens each coordinate to double and computes exactly as the double fit does on the widened
 * points. The points must be finite, each coordinate at most 1e100 in magnitude (FATHOM_ERR_OUT_OF_RANGE
 * beyond: squares and sums must stay finite); count 0 is FATHOM_ERR_OUT_OF_RANGE. Degenerate input is
 * FATHOM_ERR_DEGENERATE, never a NaN: fewer points than the fit needs (2 for a line, 3 for a plane), all points
 * coincident (the largest spread, sqrt of the covariance's largest eigenvalue, at most 1e-9 of the largest
 * coordinate magnitude), a plane through collinear points (the second spread at most 1e-6 of the largest), an
 * ordinary fit through points of equal x. Principal directions come from LAPACK's dsyevd on the covariance of
 * the centred points. A direction's sign makes its largest-magnitude component positive; so does a plane
 * normal's. */

/** A fitted line. 2D fits set the z components to 0. */
typedef struct fathom_line_fit {
    double point[3];        /**< the centroid of the points used */
    double direction[3];    /**< unit direction */
    double rms;             /**< RMS residual of the points used (perpendicular distance; vertical for FATHOM_FIT_ORDINARY) */
    double max_residual;    /**< largest residual of the points used */
    double t_min, t_max;    /**< extent of the used points' projections on the line, from `point` along `direction` */
    uint64_t used;          /**< points used (the inliers of a robust fit) */
} fathom_line_fit;

/** A fitted plane: dot(normal, x - point) = 0. */
typedef struct fathom_plane_fit {
    double point[3];        /**< the centroid of the points used */
    double normal[3];       /**< unit normal */
    double rms;             /**< RMS distance of the points used from the plane */
    double max_residual;    /**< largest distance of the points used */
    uint64_t used;          /**< points used (the inliers of a RANSAC fit) */
} fathom_plane_fit;

/** Kinds of 2D line fit. */
typedef enum fathom_line_method {
    FATHOM_FIT_ORDINARY = 0,    /* y = a x + b minimizing vertical residuals (needs two distinct x) */
    FATHOM_FIT_TOTAL = 1        /* minimizing perpendicular distances (the principal direction) */
} fathom_line_method;

/** RANSAC settings; fathom_ransac_options_init fills the defaults given here. Results depend only on the inputs
 *  and the seed (reproducible on every machine). */
typedef struct fathom_ransac_options {
    double threshold;       /**< inlier distance, > 0 (meters for 3D points), default 0.01 */
    double confidence;      /**< in (0, 1], default 0.99: stop after k samples once 1 - (1 - w^s)^k >= confidence,
                                 w the best sample's inlier fraction so far, s the sample size (2 points for a
                                 line, 3 for a plane); the chance of having drawn a sample of inliers only. 1 draws
                                 all `iterations`. */
    uint64_t seed;          /**< any value, default 0 */
    uint32_t iterations;    /**< random minimal samples tried at most, >= 1, default 1000 */
    uint32_t reserved[5];   /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_ransac_options;

/** Fills *options with the defaults above (and 0 in reserved). */
fathom_status fathom_ransac_options_init(fathom_ransac_options *options);

/** 2D line through `count` (x, y) points, ordinary or total least squares (`method`). */
fathom_status fathom_fit_line2(const double *points, size_t count, size_t stride, uint32_t method, fathom_line_fit *out);
fathom_status fathom_fit_line2f(const float *points, size_t count, size_t stride, uint32_t method, fathom_line_fit *out);

/** 3D line by total least squares: the centroid and the principal direction of the centred points. */
fathom_status fathom_fit_line3(const double *points, size_t count, size_t stride, fathom_line_fit *out);
fathom_status fathom_fit_line3f(const float *points, size_t count, size_t stride, fathom_line_fit *out);

/** Robust line: RANSAC over point pairs (2D when dimensions is 2, 3D when 3) counting points within
 *  options->threshold of the line, then a total-least-squares refit on the best sample's inliers, and once more
 *  on the refit line's inliers when they are at least as many. out_inliers (count bytes, may be NULL) gets 1 for
 *  each point the final fit used and 0 for the others, on success only. */
fathom_status fathom_fit_line_ransac(const double *points, size_t count, size_t stride, uint32_t dimensions,
                                     const fathom_ransac_options *options, fathom_line_fit *out, uint8_t *out_inliers);
fathom_status fathom_fit_line_ransacf(const float *points, size_t count, size_t stride, uint32_t dimensions,
                                      const fathom_ransac_options *options, fathom_line_fit *out, uint8_t *out_inliers);

/** Plane by least squares: the centroid and the direction of least spread (orthogonal distances). */
fathom_status fathom_fit_plane(const double *points, size_t count, size_t stride, fathom_plane_fit *out);
fathom_status fathom_fit_planef(const float *points, size_t count, size_t stride, fathom_plane_fit *out);

/** Plane by RANSAC over point triples (collinear triples are skipped), then a least-squares refit on the best
 *  triple's inliers, and once more on the refit plane's inliers when they are at least as many (a triple through
 *  noisy points tilts the first inlier band). FATHOM_ERR_DEGENERATE when no triple spans a plane or the inliers
 *  are collinear. out_inliers (count bytes, may be NULL) gets 1 for each point the final fit used and 0 for the
 *  others, on success only. */
fathom_status fathom_fit_plane_ransac(const double *points, size_t count, size_t stride,
                                      const fathom_ransac_options *options, fathom_plane_fit *out, uint8_t *out_inliers);
fathom_status fathom_fit_plane_ransacf(const float *points, size_t count, size_t stride,
                                       const fathom_ransac_options *options, fathom_plane_fit *out, uint8_t *out_inliers);

/* ---------------------------------------------------------------------------------------------- */
/* Object length from depth (the fish app)                                                         */
/* ---------------------------------------------------------------------------------------------- */

/** How a keypoint gets its depth. */
typedef enum fathom_keypoint_depth {
    FATHOM_KEYPOINT_NEAREST = 0,  /* the nearest depth sample */
    FATHOM_KEYPOINT_MEDIAN = 1,   /* the median of the valid samples in a window, each moved to the keypoint along
                                     the window's depth gradient (the median of the slopes between its samples) */
    FATHOM_KEYPOINT_PLANE = 2     /* the keypoint's ray meets the body plane of the mask (fathom_length_mask) */
} fathom_keypoint_depth;

/** Settings of the length functions; fathom_length_options_init fills the defaults given here. The noise
 *  settings state what the error bars assume: depth readings with independent Gaussian noise
 *  depth_noise * d^depth_noise_growth at depth d; keypoints placed with pixel_noise in u and in v; a mask's
 *  outline placed with edge_noise perpendicular to itself. Under that noise, about 68% of true lengths lie
 *  within one sigma and 95% within two (README, "Uncertainty", has the validation table). */
typedef struct fathom_length_options {
    uint32_t keypoint_depth;        /**< fathom_keypoint_depth, default FATHOM_KEYPOINT_MEDIAN */
    uint32_t window;                /**< median window, odd >= 1, default 5 */
    uint32_t out_frame;             /**< fathom_frame of the reported endpoints, default FATHOM_FRAME_CAMERA */
    uint32_t trim_points;           /**< mask lengths: outline pixels dropped at each end, default 0 */
    double trim_fraction;           /**< ... or this fraction of the outline pixels if more, in [0, 0.25), default 0 */
    fathom_ransac_options plane;    /**< the body plane: threshold 0.005 m (raised to 3x the depth noise at the
                                         samples' median depth when larger), 100 iterations, seed 0,
                                         confidence 1 (all 100 drawn) */
    double depth_noise;             /**< depth noise at 1 m, meters (1 sigma), default 0.005 */
    double depth_noise_growth;      /**< exponent: noise(d) = depth_noise * d^growth, default 2 */
    double pixel_noise;             /**< keypoint placement noise, RGB pixels (1 sigma) in u and in v, default 1 */
    double edge_noise;              /**< mask outline placement noise, mask pixels (1 sigma), default 1 */
    uint32_t reserved[4];           /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_length_options;

/** A measured length, with its 1-sigma uncertainty. The uncertainty model (first order):
 *  - a keypoint moves with its pixel noise along the surface (the window's depth gradient, or the plane), and
 *    with its depth's noise (reduced by sqrt(pi / 2n) for the median of n samples; a nearest sample adds the
 *    depth change across its cell) or the plane's;
 *  - a plane's offset and tilt errors (RMS / sqrt(inliers), and over the inliers' spread) are shared by both ends
 *    (for mask ends only the tilt: their height is measured where they are);
 *  - a mask end lies a gap beyond the last inside pixel centre whose mean and spread depend on the tip's shape,
 *    measured from the outline's widths 2 and 6 pixels behind it (tabulated on the pixel grid by
 *    tools/tip_gap.py: about 0.4 pixel for a rounded tip a pixel across, 0.05 for a square end, 1 to 1.6
 *    pixels for a sharp wedge such as a forked tail's lobe), and moves with the outline's edge_noise, amplified
 *    at a tip sharper than the noise by 1 / sin(a) for its half-angle a (up to 7 for a lobe); it sits at the
 *    body's height there (the median distance from the plane of the depth samples within a tenth of the
 *    length). A lobe's error is skewed (an inward move recedes it up to 7 times as far as an outward one advances
 *    it, or cuts it off whole), and the bar keeps its whole recession: on forked tails under edge_noise 1, 78-85%
 *    of true lengths lie within one sigma and 91-96% within two (README, "Uncertainty"). */
typedef struct fathom_length {
    double length;          /**< meters */
    double sigma;           /**< one standard deviation, meters */
    double head[3];         /**< the first endpoint (head keypoint, or the line's start), in options.out_frame */
    double tail[3];         /**< the second endpoint */
    float head_pixel[2];    /**< the endpoints' RGB pixel coordinates (u, v) */
    float tail_pixel[2];
    double rms;             /**< the fit's RMS residual (plane or line), meters; 0 for nearest/median keypoints */
    uint64_t samples;       /**< depth samples the result rests on */
    uint32_t reserved[4];           /**< 0: room for values added in 1.x */
} fathom_length;

/** Fills *options with the defaults above. */
fathom_status fathom_length_options_init(fathom_length_options *options);

/** Length between two keypoints (RGB pixels): each gets its depth by options->keypoint_depth (FATHOM_KEYPOINT_PLANE
 *  needs `mask`, else it may be NULL), is back-projected, and the length is the distance. FATHOM_ERR_OUT_OF_RANGE
 *  for a keypoint outside the RGB image; FATHOM_ERR_NO_DATA for no valid depth there; FATHOM_ERR_DEGENERATE when
 *  head and tail are the same pixel or back-project to the same point. `options` may be NULL. */
fathom_status fathom_length_keypoints(const fathom_depth_frame *frame, float head_u, float head_v, float tail_u,
                                      float tail_v, const fathom_mask *mask, const fathom_length_options *options,
                                      fathom_length *out);

/** Straight length of the object under a mask (any resolution; mask pixel (x, y) is centred at RGB
 *  ((x + 0.5) W / w, (y + 0.5) H / h)). The mask's body is its largest connected region, where pixels with up to
 *  max(1, 3 * edge_noise) empty pixels between them connect: stray pixels and blobs further away are left out.
 *  The body plane is fitted by RANSAC to the valid depth samples under the body (flying pixels and background
 *  samples fall outside its threshold), and the body's pixels are laid on it along their RGB rays. The axis is
 *  the principal direction of the body's area on the plane; the length is the extent of the outline along it,
 *  each end a gap beyond the last inside pixel centre (set by the tip's shape, see fathom_length) and at the
 *  body's height there. No outline pixel is dropped unless options->trim_* say so. head and tail are on the axis
 *  line through the body's centroid (head: the end toward the image's left, or top). FATHOM_ERR_NO_DATA for an
 *  empty mask or fewer than 3 valid samples under it; FATHOM_ERR_DEGENERATE when the plane is seen edge-on.
 *  `options` may be NULL. */
fathom_status fathom_length_mask(const fathom_depth_frame *frame, const fathom_mask *mask,
                                 const fathom_length_options *options, fathom_length *out);

/** Length along the midline of the object under a mask: for a bent fish, beside fathom_length_mask's straight
 *  snout-to-tail length (which is what FishSense and the fish app measure). The body is laid on its plane as for
 *  fathom_length_mask and cut into slices across its axis (about two mask pixels wide, 8 to 64); the slices'
 *  area-weighted centres are fitted by weighted least squares with a polynomial of degree up to 4 along the axis
 *  (a C or an S bend: the midline must stay a function along the axis, each end within about 60 degrees of it),
 *  then twice sliced across that curve (pixels weighted for its curvature) and refitted, slices far off the
 *  curve of the rest weighted down (a lobe left alone). Each end is where the curve leaves the body; where the
 *  outline goes on beyond that by more than 1 + 3 * edge_noise mask pixels (a forked tail's notch, on both sides or
 *  one), it is level with the outline's end along the curve's direction, so the length runs to the lobes' tips. The length
 *  is the curve's arc length between the ends; the error bar adds the fit's coefficient covariance to the ends'
 *  and the plane's terms. out->rms is the RMS of the slice centres about the curve (meters); head and tail are the
 *  ends. `curve` may be NULL, else it receives `curve_count` (>= 2) points (x, y, z, in options->out_frame) at
 *  evenly spaced arc lengths from head to tail, on the plane. Errors as fathom_length_mask. */
fathom_status fathom_length_midline(const fathom_depth_frame *frame, const fathom_mask *mask,
                                    const fathom_length_options *options, fathom_length *out, double *curve,
                                    size_t curve_count);

/** Length along a traced centre line: `count` RGB pixels (u, v pairs) each get depth as keypoints do (pixels
 *  without valid depth are skipped), a 3D line is fitted, and the length is the extent of the projections
 *  (not trimmed: traced points are deliberate). FATHOM_ERR_NO_DATA for fewer than 2 valid points. */
fathom_status fathom_length_polyline(const fathom_depth_frame *frame, const float *pixels, size_t count,
                                     const fathom_mask *mask, const fathom_length_options *options, fathom_length *out);

/** Head and tail candidates from a mask alone: the principal axis of the mask's pixel centres (2D total least
 *  squares), and the mask pixels with the smallest and largest projection on it (ties: the one nearest the
 *  axis). Coordinates are the mask's pixel centres (i + 0.5, j + 0.5); scale by rgb_width / mask width to
 *  use them as keypoints. end0 has the smaller projection. `out_axis` may be NULL. FATHOM_ERR_NO_DATA for an
 *  empty mask; FATHOM_ERR_DEGENERATE for a single pixel. */
fathom_status fathom_mask_endpoints(const fathom_mask *mask, float out_end0[2], float out_end1[2],
                                    fathom_line_fit *out_axis);

/* ---------------------------------------------------------------------------------------------- */
/* Capture guidance: face coverage of the box, view directions, camera speed                       */
/* ---------------------------------------------------------------------------------------------- */

/** A coverage tracker for one box: which faces (and cells of faces, and directions around the box) the
 *  recorded views have covered. Not thread-safe: one thread at a time may record into it. */
typedef struct fathom_coverage fathom_coverage;

/** Settings of a coverage tracker; fathom_coverage_options_init fills the defaults given here. */
typedef struct fathom_coverage_options {
    uint32_t goal;                  /**< views per face for it to be complete, >= 1, default 10 (the app's) */
    uint32_t cells;                 /**< each face is split into cells x cells cells, 1...64, default 4 */
    uint32_t rings, sectors;        /**< view-direction bins: rings of equal height (equal area) x sectors of equal
                                         azimuth about +y, each 1...256 with rings * sectors <= 4096, defaults 4, 12.
                                         Directions are from the centre of the (floor-clamped) box to the camera. */
    int32_t hemisphere;             /**< 1: bins cover the upper hemisphere only (directions below the box centre's
                                         height count in the lowest ring); 0: the whole sphere; -1 (default): 1
                                         when the box has a floor */
    int32_t exclude_bottom;         /**< 1: the bottom face is not needed for "complete"; 0: it is; -1 (default): 1
                                         when the box has a floor */
    float min_distance, max_distance;   /**< a view counts only if its optical axis meets the box at a distance
                                             in [min, max] meters; defaults 0 and INFINITY */
    float min_in_view;              /**< with intrinsics: the fraction of the box's 8 corners that must project
                                         inside the image, in [0, 1], default 0 */
    float min_separation_angle;     /**< a view is "too similar" when an already counted view is within this angle
                                         (radians, between directions from the box centre to the cameras)... */
    float min_separation_distance;  /**< ...and within this distance (meters) of it; defaults 5 degrees and 0.1 m;
                                         0 turns the check off */
    uint32_t reserved[4];           /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_coverage_options;

/** Why a view was or was not counted. */
typedef enum fathom_view_status {
    FATHOM_VIEW_COUNTED = 0,        /* counted on `face` */
    FATHOM_VIEW_MISSED = 1,         /* the optical axis does not meet the box (or the camera is inside it) */
    FATHOM_VIEW_TOO_CLOSE = 2,      /* the axis meets the box nearer than min_distance */
    FATHOM_VIEW_TOO_FAR = 3,        /* ... farther than max_distance */
    FATHOM_VIEW_OUT_OF_FRAME = 4,   /* fewer than min_in_view of the corners are in the image */
    FATHOM_VIEW_TOO_SIMILAR = 5     /* within min_separation_angle and min_separation_distance of a counted view */
} fathom_view_status;

/** What recording one view did. */
typedef struct fathom_view_result {
    uint32_t status;            /**< fathom_view_status */
    uint32_t face;              /**< FATHOM_FACE_* the axis meets first (also when not counted), or FATHOM_NO_HIT */
    uint32_t cell;              /**< cell index b * cells + a on that face (see fathom_coverage_cells) */
    uint32_t bin;               /**< view-direction bin ring * sectors + sector of the camera */
    float distance;             /**< along the axis to the face, meters (0 on a miss) */
    uint32_t completed_face;    /**< the face this view completed (its count reached the goal), else FATHOM_NO_HIT;
                                     reported once per face until reset */
} fathom_view_result;

/** One face's coverage, with the app's colour and opacity. */
typedef struct fathom_face_coverage {
    uint32_t count;             /**< views counted on the face */
    float progress;             /**< min(count / goal, 1) */
    float color[3];             /**< (1 - progress) * yellow (1, 1, 0) + progress * cyan (0, 1, 1), RGB in [0, 1] */
    float opacity;              /**< 0.25 + 0.5 * progress while progress < 1; 0 once complete */
    bool complete;              /**< count >= goal */
    bool needed;                /**< true if the face counts toward "complete" (not an excluded bottom) */
} fathom_face_coverage;

/** The tracker's totals. */
typedef struct fathom_coverage_summary {
    uint64_t views;             /**< views recorded since the last reset */
    uint64_t counted;           /**< of which counted */
    uint32_t faces_complete;    /**< needed faces that are complete */
    uint32_t faces_needed;      /**< 5 or 6 */
    bool complete;              /**< true when every needed face is complete */
    float angular_score;        /**< fraction of view-direction bins holding at least one counted view, [0, 1] */
    uint32_t reserved[4];           /**< 0: room for values added in 1.x */
} fathom_coverage_summary;

/** Fills *options with the defaults above. */
fathom_status fathom_coverage_options_init(fathom_coverage_options *options);

/** Makes a tracker for `box` (valid, with faces: a floor at or above its top is FATHOM_ERR_DEGENERATE);
 *  `options` may be NULL (defaults). The box is copied. */
fathom_status fathom_coverage_create(const fathom_box *box, const fathom_coverage_options *options, fathom_coverage **out);

/** Frees a tracker; NULL is allowed. */
void fathom_coverage_destroy(fathom_coverage *coverage);

/** Records one view: the camera's optical axis (its -z, from its position) is cast at the box; the first face
 *  it meets is counted, unless a rule of the options rejects the view (result->status says which). Cells: on
 *  the face's plane the hit is located along two local box axes: (x, y) for front/back, (z, y) for left/right,
 *  (x, z) for bottom/top; a = floor((coordinate / extent + 1/2) * cells) along the first, b along the second
 *  (clamped to 0...cells-1). `intrinsics` may be NULL (then min_in_view is not checked). `out` may be NULL. */
fathom_status fathom_coverage_record(fathom_coverage *coverage, const fathom_pose *camera_to_world,
                                     const fathom_intrinsics *intrinsics, fathom_view_result *out);

/** Records `count` >= 1 views in order, as fathom_coverage_record each; out[count] may be NULL. A pose that is not
 *  rigid stops the call with its index in the message; the views before it stay recorded. */
fathom_status fathom_coverage_record_batch(fathom_coverage *coverage, const fathom_pose *cameras_to_world, size_t count,
                                           const fathom_intrinsics *intrinsics, fathom_view_result *out);

/** One face's coverage (face: FATHOM_FACE_*). */
fathom_status fathom_coverage_face(const fathom_coverage *coverage, uint32_t face, fathom_face_coverage *out);

/** The tracker's totals. */
fathom_status fathom_coverage_get_summary(const fathom_coverage *coverage, fathom_coverage_summary *out);

/** A face's cell counts: cells * cells values, index b * cells + a; capacity must hold them. */
fathom_status fathom_coverage_cells(const fathom_coverage *coverage, uint32_t face, uint32_t *out_counts, size_t capacity);

/** The view-direction bins: counts (rings * sectors values) and, if out_directions is not NULL, each bin's centre
 *  direction (unit, world, 3 floats): height y at the ring's middle, azimuth at the sector's middle, measured
 *  from +x toward +z. `capacity` is in bins. */
fathom_status fathom_coverage_bins(const fathom_coverage *coverage, uint32_t *out_counts, float *out_directions,
                                   size_t capacity);

/** Where to go next: the centre of the least-covered bin (fewest counted views; ties: the bin farthest in angle
 *  from every bin holding a view, then the lowest index), as a unit direction from the box centre and as a
 *  camera position at `distance` meters from the centre along it (distance <= 0: the last counted camera's
 *  distance from the box centre; FATHOM_ERR_INVALID_STATE when there is none). */
fathom_status fathom_coverage_next_view(const fathom_coverage *coverage, float distance, fathom_vec3 *out_direction,
                                        fathom_vec3 *out_position);

/** Forgets every view: counts, events and the similarity memory (the box and options stay). */
fathom_status fathom_coverage_reset(fathom_coverage *coverage);

/** A camera-speed tracker fed with timestamped poses. Not thread-safe: one thread at a time. */
typedef struct fathom_motion fathom_motion;

/** Speed guidance (the app's messages: "Speed Up", "keep this speed", "Slow Down"). */
typedef enum fathom_guidance {
    FATHOM_GUIDANCE_UNKNOWN = 0,        /* no speed yet (first pose, or after a gap) */
    FATHOM_GUIDANCE_TOO_SLOW = 1,       /* speed < slow_speed */
    FATHOM_GUIDANCE_SLIGHTLY_SLOW = 2,  /* slow_speed <= speed < slow_speed * (1 + slightly) */
    FATHOM_GUIDANCE_OK = 3,
    FATHOM_GUIDANCE_SLIGHTLY_FAST = 4,  /* fast_speed * (1 - slightly) < speed <= fast_speed */
    FATHOM_GUIDANCE_TOO_FAST = 5        /* speed > fast_speed */
} fathom_guidance;

/** Settings of a motion tracker; fathom_motion_options_init fills the defaults given here (the app's, in m/s). */
typedef struct fathom_motion_options {
    float time_constant;        /**< exponential smoothing of velocity and angular speed, seconds, >= 0; 0 (default):
                                     none. Each update blends by alpha = 1 - exp(-dt / time_constant). */
    float slow_speed;           /**< below: too slow; default 5 in/s = 0.127 m/s */
    float brisk_speed;          /**< default 8 in/s = 0.2032 m/s (the capture interval's middle step) */
    float fast_speed;           /**< above: too fast; default 10 in/s = 0.254 m/s; 0 < slow <= brisk <= fast */
    float slightly;             /**< width of the "slightly" bands as a fraction of a threshold, [0, 1), default 0.2 */
    float max_gap;              /**< seconds; a longer gap between poses restarts the speed (guidance UNKNOWN), > 0,
                                     default 0.5 */
    float intervals[3];         /**< automatic capture interval after a capture, seconds, each > 0: speed in [brisk, fast):
                                     intervals[0] (1 s); [slow, brisk): intervals[1] (2 s); below slow: intervals[2]
                                     (3 s, also the first interval); at or above fast: unchanged */
    uint32_t reserved[4];           /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_motion_options;

/** The tracker's state after an update. */
typedef struct fathom_motion_state {
    int64_t timestamp;          /**< of the last accepted pose, nanoseconds */
    fathom_vec3 velocity;       /**< world, m/s (smoothed if the options say so) */
    float speed;                /**< |velocity|, m/s */
    float angular_speed;        /**< rad/s, from the relative rotation of consecutive poses (smoothed likewise) */
    uint32_t guidance;          /**< fathom_guidance */
    float capture_interval;     /**< seconds, the app's automatic policy */
    float time_to_capture;      /**< seconds until the next automatic capture (<= 0: due) */
    bool captured;              /**< true if this update took an automatic capture (then the interval was adjusted) */
    bool skipped;               /**< true if the pose repeated the last timestamp and was ignored */
    bool restarted;             /**< true if the gap before this pose exceeded max_gap, or the step's velocity is
                                     beyond the float range (speed restarts) */
} fathom_motion_state;

/** Fills *options with the defaults above. */
fathom_status fathom_motion_options_init(fathom_motion_options *options);

/** Makes a motion tracker; `options` may be NULL (defaults). */
fathom_status fathom_motion_create(const fathom_motion_options *options, fathom_motion **out);

/** Frees a tracker; NULL is allowed. */
void fathom_motion_destroy(fathom_motion *motion);

/** Feeds one pose taken at `timestamp` nanoseconds (any origin). The first pose starts the capture clock (the
 *  first capture is due intervals[2] later). A timestamp equal to the last accepted one is skipped
 *  (state->skipped = 1, nothing else changes); an earlier one is FATHOM_ERR_OUT_OF_RANGE and changes nothing.
 *  Velocity = position difference / time difference of consecutive accepted poses; the first velocity after the
 *  first pose or a gap is taken as it is (smoothing blends from there). A skipped pose clears the per-update flags
 *  captured and restarted. `out` may be NULL. */
fathom_status fathom_motion_update(fathom_motion *motion, int64_t timestamp, const fathom_pose *camera_to_world,
                                   fathom_motion_state *out);

/** Feeds `count` >= 1 poses in order, as fathom_motion_update each; out (count states) may be NULL. Stops at the first
 *  bad pose or timestamp with its index in the message; the poses before it stay applied. */
fathom_status fathom_motion_update_batch(fathom_motion *motion, const int64_t *timestamps, const fathom_pose *cameras_to_world,
                                         size_t count, fathom_motion_state *out);

/** The current state (all zero with guidance UNKNOWN before the first pose). */
fathom_status fathom_motion_get_state(const fathom_motion *motion, fathom_motion_state *out);

/** Forgets every pose (the options stay). */
fathom_status fathom_motion_reset(fathom_motion *motion);

/** Summary of a whole recorded trajectory (speeds from consecutive poses, unsmoothed unless the options say). */
typedef struct fathom_trajectory_summary {
    double duration;            /**< last - first timestamp, seconds */
    double path_length;         /**< sum of the steps' distances (between consecutive accepted poses), meters */
    float speed_p10, speed_p50, speed_p90, speed_max;   /**< percentiles of the per-step speeds (nearest rank), m/s */
    double time_too_slow;       /**< seconds of steps whose guidance was TOO_SLOW */
    double time_too_fast;       /**< ... TOO_FAST */
    float angular_speed_max;    /**< rad/s */
    uint64_t steps;             /**< pairs of consecutive poses used (gaps above max_gap and repeated timestamps
                                     are not steps) */
    uint32_t reserved[4];           /**< 0: room for values added in 1.x */
} fathom_trajectory_summary;

/** Summarizes `count` >= 2 timestamped poses (timestamps non-decreasing, else FATHOM_ERR_OUT_OF_RANGE naming the
 *  index); `options` may be NULL. */
fathom_status fathom_trajectory_summarize(const int64_t *timestamps, const fathom_pose *cameras_to_world, size_t count,
                                          const fathom_motion_options *options, fathom_trajectory_summary *out);

/** Frame selection for a reconstruction among `count` >= 1 poses: pose 0 is selected, then every pose that is at least `min_distance`
 *  meters from the last selected one or turned at least `min_angle` radians from it (each threshold > 0; either
 *  may be INFINITY to ignore it, not both). Writes the selected indices (ascending) into
 *  out_indices; *out_count gets how many; if that exceeds capacity, the first `capacity` are written and
 *  FATHOM_ERR_BUFFER_TOO_SMALL is returned. */
fathom_status fathom_trajectory_select(const fathom_pose *cameras_to_world, size_t count, float min_distance, float min_angle,
                                       uint32_t *out_indices, size_t capacity, size_t *out_count);

/* ---------------------------------------------------------------------------------------------- */
/* Point clouds and PLY                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/** A point cloud: points (float32 x, y, z, meters) with optional unit normals, RGB colours and per-point
 *  confidence (ARKit: 0 low, 1 medium, 2 high). Immutable: may be read from many threads at once. Made by
 *  fathom_point_cloud_load_ply (and functions of other sections that return clouds), freed by
 *  fathom_point_cloud_destroy. */
typedef struct fathom_point_cloud fathom_point_cloud;

/** The body encoding of a PLY file written by the library. */
typedef enum fathom_ply_format {
    FATHOM_PLY_BINARY = 0,   /**< binary_little_endian 1.0 */
    FATHOM_PLY_ASCII = 1     /**< ascii 1.0, floats in the shortest text that reads back as the same float */
} fathom_ply_format;

/** What a point cloud holds. */
typedef struct fathom_point_cloud_info {
    uint64_t count;            /**< number of points (may be 0) */
    bool has_normals;          /**< true if the cloud has normals */
    bool has_colors;           /**< true if the cloud has RGB colours */
    bool has_confidence;       /**< true if the cloud has confidence values */
    uint32_t reserved[4];           /**< 0: room for values added in 1.x */
} fathom_point_cloud_info;

/** Reads the vertex element of a PLY file (ascii, binary_little_endian or binary_big_endian 1.0) as a
 *  point cloud: x, y, z (float or double; doubles rounded to float) are required; nx, ny, nz (float or
 *  double) become normals and red, green, blue (uchar) colours when all three are present; a uchar
 *  `confidence` property becomes the confidence. Other properties and elements (a mesh's faces) are read
 *  past, so scanners' and Open3D's files read, and a mesh's PLY gives the cloud of its vertices.
 *  FATHOM_ERR_IO if unreadable; FATHOM_ERR_PARSE / FATHOM_ERR_FORMAT naming the file and the line (header,
 *  ascii body) or byte offset (binary body) of the first problem: a truncated body, counts larger than the
 *  file can hold (checked before anything is allocated), a missing x/y/z, a partial or mistyped normal or
 *  colour triple, a non-finite point or normal. */
fathom_status fathom_point_cloud_load_ply(const char *path, fathom_point_cloud **out);

/** Frees a point cloud; NULL is allowed and does nothing. */
void fathom_point_cloud_destroy(fathom_point_cloud *cloud);

fathom_status fathom_point_cloud_get_info(const fathom_point_cloud *cloud, fathom_point_cloud_info *out);

/** The points: count * 3 floats x, y, z into `out`, whose capacity is in points (FATHOM_ERR_BUFFER_TOO_SMALL
 *  if < count). `out` may be NULL when the cloud is empty. */
fathom_status fathom_point_cloud_points(const fathom_point_cloud *cloud, float *out, size_t capacity);

/** The normals, count * 3 floats, as fathom_point_cloud_points; FATHOM_ERR_NO_DATA if the cloud has none. */
fathom_status fathom_point_cloud_normals(const fathom_point_cloud *cloud, float *out, size_t capacity);

/** The colours, count * 3 bytes R, G, B, capacity in points; FATHOM_ERR_NO_DATA if the cloud has none. */
fathom_status fathom_point_cloud_colors(const fathom_point_cloud *cloud, uint8_t *out, size_t capacity);

/** The confidence, one byte per point, capacity in points; FATHOM_ERR_NO_DATA if the cloud has none. */
fathom_status fathom_point_cloud_confidence(const fathom_point_cloud *cloud, uint8_t *out, size_t capacity);

/** Writes the cloud to `path` as PLY in `format` (fathom_ply_format; another value is
 *  FATHOM_ERR_OUT_OF_RANGE): element vertex with float x, y, z, then float nx, ny, nz, uchar red, green,
 *  blue and uchar confidence for what the cloud has. fathom_point_cloud_load_ply reads it back exactly.
 *  FATHOM_ERR_IO if the file cannot be written. */
fathom_status fathom_point_cloud_save_ply(const fathom_point_cloud *cloud, const char *path, uint32_t format);

/** Writes `count` points to `path` as PLY, as fathom_point_cloud_save_ply does. `points` is a point buffer
 *  (pointer, count, byte stride) as everywhere; count may be 0 (a file with no points; `points` may then be
 *  NULL). `normals` (may be NULL) holds count * 3 floats, packed, 4-byte aligned; `colors` (may be NULL)
 *  count * 3 bytes R, G, B; `confidence` (may be NULL) count bytes. Points and normals must be finite
 *  (FATHOM_ERR_NOT_FINITE naming the index); nothing is written on error. */
fathom_status fathom_ply_write_points(const char *path, const float *points, size_t count, size_t stride,
                                      const float *normals, const uint8_t *colors, const uint8_t *confidence,
                                      uint32_t format);

/* ---------------------------------------------------------------------------------------------- */
/* Scans: RGB-D captures in the formats iPhone users have, read, converted and written            */
/* ---------------------------------------------------------------------------------------------- */

/** Called after each frame of a long call (fathom_scan_report, fathom_scan_write) with the frames done and the
 *  total; return 0 to go on, anything else to stop (the call then returns FATHOM_ERR_INVALID_STATE, "cancelled"). */
typedef int (*fathom_progress_fn)(void *user, uint64_t done, uint64_t total);

/** The capture formats a scan is read from. */
typedef enum fathom_scan_format {
    FATHOM_SCAN_SCANNER = 0,        /* the iOS scanner app: <id>.json, <id>.depth.zlib, <id>.confidence.zlib, <id>.jsonl */
    FATHOM_SCAN_STRAY = 1,          /* a Stray Scanner folder: camera_matrix.csv, odometry.csv, depth/ and confidence/ PNGs */
    FATHOM_SCAN_NERFSTUDIO = 2      /* a nerfstudio-style folder: transforms.json with depth_file_path PNGs (read only) */
} fathom_scan_format;

/** An opened scan, from any of three formats, found from what is at the path:
 *  - the scanner app's files: `<id>.json` (metadata), `<id>.depth.zlib` and `<id>.confidence.zlib` (raw DEFLATE
 *    or zlib-wrapped streams of frames, row by row), `<id>.jsonl` (per frame: timestamp in nanoseconds, 3x3
 *    column-major RGB intrinsics, 4x4 column-major camera-to-world pose in ARKit camera axes). Opening reads the
 *    camera info and inflates each stream once (bounded memory) to count its whole frames, keeping a checkpoint
 *    of the inflater every 256 KiB of output (thinned to at most 256), so any frame is then read without
 *    inflating from the start (reading in order continues where the last read stopped;
 *    fathom_scan_open_options can have the streams indexed as frames are read instead). Damage keeps what is
 *    whole: a cut stream keeps its whole frames, a corrupt one the frames before the damaged block, a camera
 *    info file cut in its last line drops that line, and streams or metadata that disagree on the frame count
 *    give the shorter count. The app's raw DEFLATE has no checksum: a changed byte shows only where inflate
 *    fails or where the stream's length stops making sense, and a zlib-wrapped stream's Adler-32 says that, not
 *    where, its data is wrong;
 *  - a Stray Scanner folder: `camera_matrix.csv` (RGB intrinsics of the 1920 x 1440 video), `odometry.csv`
 *    (timestamp s, frame, x, y, z, qx, qy, qz, qw camera-to-world in OpenCV camera axes, converted to ARKit's;
 *    per-frame fx, fy, cx, cy when present and not blank), `depth/NNNNNN.png` (16-bit millimetres) and
 *    `confidence/NNNNNN.png` (a value above 2 is damage and reads as 0, low). Depth reads as FLOAT32 meters.
 *    Dropped frames (timestamp jumps of more than 1.5 periods between consecutive frame numbers) are a warning;
 *    a frame whose PNG is missing, cut or of another size (depth grids up to 4194304 pixels), or whose odometry
 *    row is unreadable or goes back in time, is skipped with a warning;
 *  - a nerfstudio-style folder: `transforms.json` (as fathom_transforms_read reads it) whose frames carry
 *    `depth_file_path` (16-bit PNG; meters per unit from `depth_unit_scale_factor` or `integer_depth_scale` at
 *    the top level, else millimetres, said in a warning). It has no timestamps: frames are taken 1/30 s apart
 *    (a warning says so). Depth reads as FLOAT32 meters; no confidence.
 *  A PNG frame is decoded (libspng) when read: one decode per frame. Poses rigid within 1e-5 are kept as
 *  written; others (ARKit's float32 drift, up to 0.01) are re-orthonormalized. Each problem found is one of the
 *  scan's warnings, never a silent gap. A scan may be read from many threads at once (reads take turns). */
typedef struct fathom_scan fathom_scan;

/** What a scan holds. */
typedef struct fathom_scan_info {
    uint64_t frame_count;           /**< frames readable in every stream, >= 1 */
    uint32_t depth_width, depth_height; /**< the depth grid (the metadata's resolution is [height, width]) */
    uint32_t depth_format;          /**< fathom_depth_format read: as stored by the scanner app (FLOAT16 meters, UINT16
                                         or FLOAT32), FLOAT32 meters from PNG formats */
    float depth_scale;              /**< meters per stored unit (1, or 0.001 for uint16 millimetres) */
    uint32_t rgb_width, rgb_height; /**< the RGB image the intrinsics refer to */
    bool has_confidence;            /**< true if the scan has a confidence stream */
    uint32_t warning_count;         /**< see fathom_scan_warning */
    double frequency;               /**< frames per second stated by the metadata (Stray: 1 / the median period), 0 if none */
    uint32_t format;                /**< fathom_scan_format the scan was read from */
    uint32_t reserved[4];           /**< 0: room for values added in 1.x */
} fathom_scan_info;

/** Opens the scan at `path`: its folder (holding one scan), or any of its files (the scanner app's metadata or
 *  streams, a Stray folder's CSV or PNG files, transforms.json). A folder that holds none of the three is
 *  FATHOM_ERR_FORMAT ("not a scan: ...").
 *  FATHOM_ERR_IO: a file is missing or unreadable; FATHOM_ERR_PARSE / FATHOM_ERR_FORMAT: the metadata is
 *  not a scan's (a depth resolution of more than 4194304 pixels included), a camera info line is bad (the
 *  message names the file, line and key), or a stream is empty or holds no whole frame (naming the file and
 *  byte). */
fathom_status fathom_scan_open(const char *path, fathom_scan **out);

/** How fathom_scan_open_with opens a scan; fathom_scan_open_options_init fills the defaults given here. */
typedef struct fathom_scan_open_options {
    bool index_while_reading;   /**< false (default): the scanner app's streams are inflated at opening, as
                                     fathom_scan says. true: only their first frame is, the rest as frames are
                                     read (checkpoints kept the same way), so reading every frame in order
                                     inflates each stream once; frame_count is then the frames the camera info
                                     and the metadata list, and a read that meets damage returns
                                     FATHOM_ERR_FORMAT naming it and the frames the stream holds (not added to
                                     the scan's warnings; fathom_scan_report stops there and says so in its own).
                                     Where inflate fails inside a DEFLATE block, the frames inflated from that
                                     block before it failed (which opening drops) read until the failure is met.
                                     Stray and nerfstudio folders are read frame by frame either way. */
    uint32_t reserved[4];       /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_scan_open_options;

fathom_status fathom_scan_open_options_init(fathom_scan_open_options *options);

/** fathom_scan_open with `options` (NULL: the defaults, which fathom_scan_open uses). */
fathom_status fathom_scan_open_with(const char *path, const fathom_scan_open_options *options, fathom_scan **out);

/** Frees a scan and closes its files; NULL is allowed. */
void fathom_scan_destroy(fathom_scan *scan);

fathom_status fathom_scan_get_info(const fathom_scan *scan, fathom_scan_info *out);

/** The scan id (the files' common stem) as a NUL-terminated string; *out_length gets its length without
 *  the NUL; FATHOM_ERR_BUFFER_TOO_SMALL if capacity < length + 1. */
fathom_status fathom_scan_id(const fathom_scan *scan, char *buffer, size_t capacity, size_t *out_length);

/** Warning `index` (< warning_count), as fathom_scan_id writes text. */
fathom_status fathom_scan_warning(const fathom_scan *scan, uint32_t index, char *buffer, size_t capacity, size_t *out_length);

/** The frames' timestamps (nanoseconds since the device booted), poses (camera-to-world) and RGB intrinsics;
 *  capacity is in elements and must be >= frame_count. */
fathom_status fathom_scan_timestamps(const fathom_scan *scan, int64_t *out, size_t capacity);
fathom_status fathom_scan_poses(const fathom_scan *scan, fathom_pose *out, size_t capacity);
fathom_status fathom_scan_intrinsics(const fathom_scan *scan, fathom_intrinsics *out, size_t capacity);

/** Frame `index`'s stored depth (depth_width * depth_height samples of depth_format, row by row) into `out`,
 *  which holds `capacity` bytes. */
fathom_status fathom_scan_read_depth(const fathom_scan *scan, uint64_t index, void *out, size_t capacity);

/** Frame `index`'s confidence (one byte per depth sample: 0 low, 1 medium, 2 high); FATHOM_ERR_NO_DATA when
 *  the scan has none. */
fathom_status fathom_scan_read_confidence(const fathom_scan *scan, uint64_t index, uint8_t *out, size_t capacity);

/** Reads frame `index` into caller buffers and describes it as a depth frame: its depth in `depth`
 *  (`depth_capacity` bytes, aligned to the sample size), its confidence in `confidence` (may be NULL: then
 *  the frame has none), its pose (has_pose = 1), the RGB intrinsics, the stored format and scale;
 *  min_confidence 0, depth range [0, INFINITY]. The frame borrows the buffers. */
fathom_status fathom_scan_frame(const fathom_scan *scan, uint64_t index, void *depth, size_t depth_capacity,
                                uint8_t *confidence, size_t confidence_capacity, fathom_depth_frame *out);

/** Which samples fathom_scan_point_cloud takes; fathom_scan_cloud_options_init fills the defaults given here. */
typedef struct fathom_scan_cloud_options {
    uint32_t min_confidence;    /**< 0...255, default 2 (ARKit's high); a scan without confidence keeps every sample */
    float max_depth;            /**< meters, > 0, default INFINITY */
    float voxel;                /**< 0 (default): every sample; else one point per voxel of this edge (1e-4...10 m),
                                     the mean of its samples */
    uint32_t frame_step;        /**< every frame_step-th frame, >= 1, default 1 */
    uint32_t reserved[4];           /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_scan_cloud_options;

fathom_status fathom_scan_cloud_options_init(fathom_scan_cloud_options *options);

/** The scan's depth as one world point cloud (a new handle the caller destroys): the valid samples of the chosen
 *  frames, back-projected with each frame's depth intrinsics and pose, frame by frame and row by row (or one
 *  point per voxel, in the order voxels were first met; voxels beyond +-2^20 edges from the origin are left out).
 *  A sample whose world point is not finite (a huge depth seen through a wide lens) is invalid too: every point
 *  returned is finite, and the cloud can be saved. `options` may be NULL (defaults). */
fathom_status fathom_scan_point_cloud(const fathom_scan *scan, const fathom_scan_cloud_options *options,
                                      fathom_point_cloud **out);

/** A scan being written: the same files as the app, readable by fathom_scan_open. Not thread-safe. */
typedef struct fathom_scan_writer fathom_scan_writer;

/** Settings of a scan writer; fathom_scan_writer_options_init fills the defaults given here. */
typedef struct fathom_scan_writer_options {
    uint32_t depth_width, depth_height;   /**< 1...65535 each and at most 4194304 pixels (2048 x 2048), default
                                               256 x 192 (the iPhone's LiDAR) */
    uint32_t rgb_width, rgb_height;       /**< the image the intrinsics refer to, default 1920 x 1440 */
    uint32_t depth_format;                /**< fathom_depth_format stored, default FATHOM_DEPTH_FLOAT16 (meters);
                                               UINT16 is written as millimetres */
    bool with_confidence;                 /**< true (default): write a confidence stream; false: none */
    bool zlib_wrapped;                    /**< false (default): raw DEFLATE as the app writes; true: zlib-wrapped */
    double frequency;                     /**< frames per second in the metadata, > 0, default 60 */
    uint32_t reserved[4];           /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_scan_writer_options;

fathom_status fathom_scan_writer_options_init(fathom_scan_writer_options *options);

/** Starts a scan `scan_id` (a name without '/' or '.') in `directory` (created if missing; files of the same
 *  names are replaced). `options` may be NULL (defaults). */
fathom_status fathom_scan_writer_create(const char *directory, const char *scan_id, const fathom_scan_writer_options *options,
                                        fathom_scan_writer **out);

/** Appends a frame: `depth` holds depth_bytes = width * height * (2, or 4 for FLOAT32) bytes of stored samples,
 *  `confidence` (required exactly when the writer has a confidence stream: FATHOM_ERR_NULL_POINTER otherwise,
 *  FATHOM_ERR_INVALID_STATE when it has none) one byte per sample, each 0, 1 or 2. Timestamps (nanoseconds)
 *  must not decrease; the pose must be rigid. A refused frame writes nothing. */
fathom_status fathom_scan_writer_append(fathom_scan_writer *writer, int64_t timestamp, const fathom_intrinsics *rgb,
                                        const fathom_pose *camera_to_world, const void *depth, size_t depth_bytes,
                                        const uint8_t *confidence, size_t confidence_bytes);

/** Ends the streams and writes the metadata (with the frame counts); no frame may follow. The files are written
 *  under temporary names and put in place together, the metadata last: until then the folder holds the old
 *  scan's files (or none), and a failure leaves them so. */
fathom_status fathom_scan_writer_finish(fathom_scan_writer *writer);

/** Frees a writer; NULL is allowed. A writer not finished leaves none of its files. */
void fathom_scan_writer_destroy(fathom_scan_writer *writer);

/** Writes every frame of `scan` into `directory` (created if missing; files of the same names replaced) as
 *  `format`: FATHOM_SCAN_SCANNER (files named by the scan id, or "scan" when the id is not a file stem; depth in
 *  its stored form, PNG sources in millimetres as UINT16 millimetres, which read back as the same meters, other
 *  PNG sources as FLOAT32 meters) or FATHOM_SCAN_STRAY (depth rounded to the millimetre, exact for millimetre
 *  sources, 0 beyond 65.535 m; poses as position and quaternion in OpenCV camera axes, within float rounding;
 *  odometry.csv with per-frame intrinsics, scaled to the 1920 x 1440 video Stray's intrinsics refer to when the
 *  scan's RGB image has another size; depth grids up to 4096 x 4096; timestamps within +-9e18 ns). Confidence
 *  values above 2 (damage) are written as 0. Timestamps, intrinsics
 *  and confidence are kept exactly. FATHOM_SCAN_NERFSTUDIO is FATHOM_ERR_OUT_OF_RANGE. A frame that cannot be
 *  written (its PNG does not read; a timestamp earlier than the frame before, FATHOM_ERR_OUT_OF_RANGE: both formats
 *  keep frames in time order; for Stray, a timestamp beyond +-9e18 ns, FATHOM_ERR_OUT_OF_RANGE, or intrinsics
 *  that scale past the float range, FATHOM_ERR_NOT_FINITE / FATHOM_ERR_OUT_OF_RANGE) stops the write with its
 *  status. `progress` may be NULL. Stopped or cancelled, a Stray folder keeps the frames written so far; a
 *  scanner-app copy is put in place whole or not at all (the folder keeps what it held). */
fathom_status fathom_scan_write(const fathom_scan *scan, const char *directory, uint32_t format,
                                fathom_progress_fn progress, void *user);

/* ---------------------------------------------------------------------------------------------- */
/* NeRF-style transforms.json                                                                      */
/* ---------------------------------------------------------------------------------------------- */
/* The file instant-ngp and nerfstudio use: intrinsics w, h (pixels), fl_x, fl_y, cx, cy at the top level
 * (shared) or in a frame (its own), and frames[] with file_path and transform_matrix: 4 nested rows,
 * ROW-major, camera-to-world, in ARKit camera axes (+x right, +y up, looking along -z). The poses cross
 * this ABI as fathom_pose, column-major like everywhere else. Other keys are ignored. */

/** A transforms.json, read once: its frames and their file paths, asked for as often as needed. Immutable:
 *  any number of threads may use one at a time. */
typedef struct fathom_transforms fathom_transforms;

/** Reads `path` into *out (NULL on failure); free it with fathom_transforms_destroy. The file is read in one
 *  pass, in memory proportional to its frames.
 *  Timestamps, since the file has none: the frame index i when `rate` is 0, else round(i * 1e9 / rate)
 *  nanoseconds for `rate` frames per second (> 0, finite; FATHOM_ERR_OVERFLOW if they do not fit int64).
 *  Intrinsics, each key from the frame if it has it, else the top level: w and h (required, whole pixels in
 *  1...1000000); fl_x, or 0.5 w / tan(camera_angle_x / 2); fl_y, or 0.5 h / tan(camera_angle_y / 2), or
 *  fl_x; cx and cy, or w / 2 and h / 2.
 *  Poses within 1e-5 of rigid are kept as written (as float); up to 0.01 off they are re-orthonormalized
 *  (nearest rotation), as scans' are; beyond is FATHOM_ERR_NOT_RIGID naming the frame.
 *  FATHOM_ERR_IO if unreadable (or larger than 1 GiB: FATHOM_ERR_FORMAT); FATHOM_ERR_PARSE for text that
 *  is not JSON (naming the line, the byte and what was found); FATHOM_ERR_FORMAT for a missing or mistyped
 *  key, a matrix that is not 4 rows of 4 numbers, missing intrinsics, or a path holding a NUL (\u0000),
 *  naming the frame and the key ("frames[3].transform_matrix"). */
fathom_status fathom_transforms_read(const char *path, double rate, fathom_transforms **out);

/** Per frame its timestamp, pose and intrinsics into the three arrays, whose capacity is in frames.
 *  *out_count gets the number of frames; if it exceeds capacity, nothing is written and
 *  FATHOM_ERR_BUFFER_TOO_SMALL is returned (the three arrays may be NULL when capacity is 0: a first call
 *  with capacity 0 gives the count). */
fathom_status fathom_transforms_frames(const fathom_transforms *transforms, int64_t *out_timestamps, fathom_pose *out_poses,
                                       fathom_intrinsics *out_intrinsics, size_t capacity, size_t *out_count);

/** The frames' file_path values, in frame order, each followed by a NUL byte ("" for a frame without one),
 *  into `buffer` of `capacity` bytes; *out_length gets the bytes needed (the sum of the lengths plus one per
 *  frame). FATHOM_ERR_BUFFER_TOO_SMALL if capacity < that (`buffer` may be NULL when capacity is 0). */
fathom_status fathom_transforms_paths(const fathom_transforms *transforms, char *buffer, size_t capacity, size_t *out_length);

/** Frees `transforms`; NULL is allowed. */
void fathom_transforms_destroy(fathom_transforms *transforms);

/** Writes `count` frames (may be 0) to `path` as transforms.json: poses (camera-to-world, rigid) as
 *  row-major transform_matrix rows; the intrinsics once at the top level (with camera_angle_x) when all
 *  frames have the same, else in each frame; `file_paths` (may be NULL: no file_path keys; else `count`
 *  UTF-8 strings, none NULL) as each frame's file_path. fathom_transforms_read reads back the same poses
 *  and intrinsics. FATHOM_ERR_NOT_RIGID / FATHOM_ERR_OUT_OF_RANGE name the bad element; FATHOM_ERR_IO if
 *  the file cannot be written. */
fathom_status fathom_transforms_save(const char *path, const fathom_pose *poses, const fathom_intrinsics *intrinsics,
                                     size_t count, const char *const *file_paths);

/* ---------------------------------------------------------------------------------------------- */
/* Capture reports: a capture turned into measurements, frame by frame or from a scan's files      */
/* ---------------------------------------------------------------------------------------------- */

/** A capture being measured, fed frame by frame (live from an app, or from a scan): it gives at any
 *  moment the speed guidance, the box estimate and the coverage so far, and the full report at the end.
 *  Depth is fused into a voxel grid (samples of confidence >= min_confidence within max_depth, from frames
 *  that moved fuse_distance or turned fuse_angle since the last fused one), each voxel counting how many of
 *  its samples a camera saw from above. Scene estimates, from that grid:
 *  - horizontal surfaces: peaks of the voxels' height histogram (those seen mostly from above and mostly from
 *    below apart) over the background of walls, each a RANSAC plane (floor_threshold, floor_iterations, seed)
 *    within floor_max_tilt of horizontal. A surface seen from above is a floor or a table top; one seen from
 *    below is a ceiling, never a floor;
 *  - the floor: the lowest upward-facing surface covering floor_min_area of the floor plan (10 cm cells),
 *    however sparse and grazing the views of it; the ceiling: the highest downward-facing one above every camera;
 *  - the orbit: the point nearest every optical axis (the focus), the views looking at it (in front, within 20
 *    degrees of the optical axis, within max_depth) and the angle they span around the vertical through it;
 *  - the object, only on an object capture (orbit_min_views views spanning orbit_min_span): the support is the
 *    highest upward-facing surface at most 3 cm above the focus on which a cluster of voxels (>= min_voxel_points
 *    samples each, object_clearance above it, its lowest voxel within object_clearance + 3 cm) stands within
 *    0.75 of the orbit's radius from the focus; the object is such a cluster nearest the focus, its box the
 *    upright box of least footprint reaching down to the support. Otherwise there is no object, and the report
 *    says why.
 *  Coverage counts the views the capture app would have taken: the motion tracker's automatic captures.
 *  Not thread-safe: one thread at a time. */
typedef struct fathom_capture fathom_capture;

/** Settings of a capture; fathom_capture_options_init fills the defaults given here. */
typedef struct fathom_capture_options {
    uint32_t min_confidence;        /**< 0...255, default 2 (ARKit's high) */
    float max_depth;                /**< meters, > 0 (INFINITY: none), default 5 (about the LiDAR's range) */
    float plausible_depth;          /**< meters, > 0 (INFINITY: none), default 50: depth beyond it (or negative, or
                                         NaN) is no sensor's, counted per frame in the report's warnings */
    float voxel;                    /**< voxel edge, meters, 1e-4...10, default 0.01 */
    float fuse_distance;            /**< meters, > 0 (INFINITY to ignore), default 0.05 */
    float fuse_angle;               /**< radians, > 0 (INFINITY to ignore), default 5 degrees */
    uint32_t min_voxel_points;      /**< >= 1, default 2 */
    float floor_threshold;          /**< RANSAC inlier distance, meters, > 0, default 0.02 */
    uint32_t floor_iterations;      /**< 1...100000, default 300 */
    float floor_max_tilt;           /**< radians in (0, pi/2), default 5 degrees (ARKit's world is gravity-aligned) */
    float object_clearance;         /**< meters, >= 0, default 0.02 */
    float floor_min_area;           /**< m^2, >= 0, default 0.25: least footprint of the floor and the ceiling */
    float orbit_min_span;           /**< radians in [0, 2 pi], default 90 degrees: an object capture's views span this */
    uint32_t orbit_min_views;       /**< >= 1, default 10: an object capture has this many views of the focus */
    float select_distance;          /**< frame selection (fathom_trajectory_select), default 0.10 m */
    float select_angle;             /**< default 10 degrees */
    uint64_t seed;                  /**< RANSAC seed, default 1 (results depend only on the data and the options) */
    fathom_motion_options motion;   /**< speed guidance, defaults as fathom_motion_options_init */
    fathom_coverage_options coverage; /**< defaults as fathom_coverage_options_init */
    uint32_t reserved[4];           /**< 0 (else FATHOM_ERR_OUT_OF_RANGE): room for settings added in 1.x */
} fathom_capture_options;

fathom_status fathom_capture_options_init(fathom_capture_options *options);

/** Starts a capture; `options` may be NULL (defaults), `box` may be NULL (then the box is estimated). */
fathom_status fathom_capture_create(const fathom_capture_options *options, const fathom_box *box, fathom_capture **out);

/** Frees a capture; NULL is allowed. */
void fathom_capture_destroy(fathom_capture *capture);

/** Adds a frame taken at `timestamp` nanoseconds: its depth `frame` (has_pose = 1; the intrinsics are the
 *  RGB image's) is fused when fathom_capture_wants_depth would say so. A timestamp earlier than the last
 *  frame's is FATHOM_ERR_OUT_OF_RANGE and changes nothing. `out` (the speed state after it) may be NULL. */
fathom_status fathom_capture_add_frame(fathom_capture *capture, int64_t timestamp, const fathom_depth_frame *frame,
                                       fathom_motion_state *out);

/** Adds a frame without depth (its pose and RGB intrinsics), as fathom_capture_add_frame. */
fathom_status fathom_capture_add_pose(fathom_capture *capture, int64_t timestamp, const fathom_pose *camera_to_world,
                                      const fathom_intrinsics *rgb, fathom_motion_state *out);

/** *out = true if a frame at this pose would have its depth fused (so a reader can skip reading it). */
fathom_status fathom_capture_wants_depth(const fathom_capture *capture, const fathom_pose *camera_to_world, bool *out);

/** Where a capture stands. */
typedef struct fathom_capture_status {
    uint64_t frames;                /**< frames added */
    uint64_t fused_frames;          /**< of which fused */
    uint64_t cloud_points;          /**< occupied voxels of the fused cloud */
    uint64_t captures;              /**< views the app would have captured */
    fathom_motion_state motion;     /**< speed guidance after the last frame */
    uint32_t reserved[4];           /**< 0: room for values added in 1.x */
} fathom_capture_status;

fathom_status fathom_capture_get_status(const fathom_capture *capture, fathom_capture_status *out);

/** The box now: the given one, or the estimate from the depth so far; FATHOM_ERR_NO_DATA before an object
 *  is found. */
fathom_status fathom_capture_box(const fathom_capture *capture, fathom_box *out);

/** A new coverage tracker (the caller destroys it) for `box` (NULL: the current box; FATHOM_ERR_NO_DATA if
 *  none) holding the views captured so far, with the capture's coverage options. */
fathom_status fathom_capture_coverage(const fathom_capture *capture, const fathom_box *box, fathom_coverage **out);

/** The fused cloud so far (one point per voxel, the mean of its samples) as a new point cloud. */
fathom_status fathom_capture_cloud(const fathom_capture *capture, fathom_point_cloud **out);

/** A finished report (immutable; may be read from many threads). */
typedef struct fathom_report fathom_report;

/** Where a report's box came from. */
typedef enum fathom_box_source {
    FATHOM_BOX_NONE = 0,            /* no object found, none given */
    FATHOM_BOX_GIVEN = 1,           /* given by the caller */
    FATHOM_BOX_MANIFEST = 2,        /* read from the boundingbox.json beside the scan */
    FATHOM_BOX_FITTED = 3           /* estimated from the depth */
} fathom_box_source;

/** A report's numbers (the JSON, fathom_report_json, has everything, including speed over time, and each
 *  surface's evidence). Heights are world y in meters, at the focus on an object capture. */
typedef struct fathom_report_summary {
    uint64_t frames;                        /**< frames added (read from the scan, less those skipped with a warning) */
    uint64_t fused_frames;                  /**< of which those whose depth went into the cloud */
    double duration;                        /**< seconds, first to last frame */
    fathom_box box;                         /**< valid when box_source != FATHOM_BOX_NONE */
    uint32_t box_source;                    /**< fathom_box_source */
    bool has_floor;                         /**< true: floor_height and floor_normal are set */
    float floor_height;                     /**< the room's floor */
    fathom_vec3 floor_normal;               /**< unit, up */
    bool has_focus;                         /**< true: focus, orbit_views and orbit_span are set */
    fathom_vec3 focus;                      /**< the point nearest every optical axis */
    uint64_t cloud_points, object_points;   /**< fused cloud, and its points inside the box (grown by a voxel) */
    bool has_trajectory;                    /**< true with >= 2 frames */
    fathom_trajectory_summary trajectory;
    bool has_coverage;                      /**< true when there is a box */
    fathom_coverage_summary coverage;       /**< of the captured views */
    uint32_t face_counts[6];                /**< counted views per face, FATHOM_FACE_* order */
    uint64_t captures;                      /**< views the app would have captured */
    uint64_t selected_frames;               /**< frames selected for a reconstruction */
    uint32_t warning_count;                 /**< the scan's warnings and the report's own */
    bool has_support;                       /**< true: support_height is set (an object was found on it) */
    float support_height;                   /**< the surface the object stands on: a table top or the floor */
    bool has_ceiling;                       /**< true: ceiling_height is set */
    float ceiling_height;                   /**< the ceiling's world y (not the room's height) */
    bool object_capture;                    /**< true: the views circle the focus (orbit_min_views over orbit_min_span) */
    uint32_t orbit_views;                   /**< views looking at the focus */
    float orbit_span;                       /**< radians those views span around the focus, 0...2 pi */
    uint64_t object_voxels;                 /**< voxels of the estimated object (0: given box or none) */
    uint32_t reserved[4];           /**< 0: room for values added in 1.x */
} fathom_report_summary;

/** The report of everything added so far (the capture goes on and may report again). */
fathom_status fathom_capture_report(const fathom_capture *capture, fathom_report **out);

/** A capture fed from the scan's files (reading depth only for the frames it fuses), and its report. The box
 *  is `box` if not NULL, else the scan folder's boundingbox.json if there is one, else estimated. `options`
 *  and `progress` may be NULL. */
fathom_status fathom_scan_report(const fathom_scan *scan, const fathom_capture_options *options, const fathom_box *box,
                                 fathom_progress_fn progress, void *user, fathom_report **out);

/** Frees a report; NULL is allowed. */
void fathom_report_destroy(fathom_report *report);

fathom_status fathom_report_get_summary(const fathom_report *report, fathom_report_summary *out);

/** The report as JSON text (NUL-terminated; *out_length without the NUL; FATHOM_ERR_BUFFER_TOO_SMALL if
 *  capacity < length + 1): scan_id, frames, box, floor, focus, trajectory, speed (time, speed,
 *  angular_speed and guidance per frame), coverage (faces, bins, next view), captures, selected_frames,
 *  warnings. Meters, seconds, radians. */
fathom_status fathom_report_json(const fathom_report *report, char *buffer, size_t capacity, size_t *out_length);

/** Which cloud of a report. */
typedef enum fathom_report_cloud_kind {
    FATHOM_REPORT_CLOUD = 0,        /* the fused cloud */
    FATHOM_REPORT_OBJECT = 1        /* its points inside the box grown by one voxel on every side (the object's
                                       surfaces lie on the box's faces) */
} fathom_report_cloud_kind;

/** One of the report's clouds as a new point cloud. */
fathom_status fathom_report_cloud(const fathom_report *report, uint32_t which, fathom_point_cloud **out);

/** The report as one self-contained HTML page (NUL-terminated; buffer rules as fathom_report_json): the
 *  warnings first, the measurements with their evidence in cm, degrees and seconds, and the figures as inline
 *  SVG (top view, side view, speed over time, and with a box the face coverage and view-direction bins). What
 *  report.html holds. */
fathom_status fathom_report_html(const fathom_report *report, char *buffer, size_t capacity, size_t *out_length);

/** A report read back from its JSON (`length` bytes of fathom_report_json's text, not necessarily
 *  NUL-terminated) and its two clouds as point buffers (pointer, count, byte stride; count 0 allows NULL),
 *  whose counts must be the JSON's cloud_points and object_points. Saving or showing it gives what the original
 *  gives, byte for byte. FATHOM_ERR_PARSE for text that is not JSON, FATHOM_ERR_FORMAT for a schema error (the
 *  message names the field), FATHOM_ERR_NOT_FINITE for a point that is not finite. */
fathom_status fathom_report_from_json(const char *json, size_t length, const float *cloud, size_t cloud_count,
                                      size_t cloud_stride, const float *object, size_t object_count, size_t object_stride,
                                      fathom_report **out);

/** Writes into `directory` (created if missing; FATHOM_ERR_IO before writing anything when it cannot hold
 *  files): report.json, cloud.ply, object.ply (with a box), report.html (fathom_report_html) and its figures
 *  as top-view.svg, side-view.svg, speed.svg, and with a box coverage.svg and view-bins.svg. */
fathom_status fathom_report_save(const fathom_report *report, const char *directory);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FATHOM_H */
