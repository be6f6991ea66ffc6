// The header from C++11 (built with -pedantic): extern "C" linkage, the structs as C++ aggregates with the 1.0
// layout (C bool fields as C++ bool, the reserved words), the mesh flags' enum, a few calls.
#include "fathom.h"
#include "check.h"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

static_assert(std::is_standard_layout<fathom_box>::value, "fathom_box is a plain struct");
static_assert(sizeof(fathom_vec3) == 12, "three floats");
static_assert(sizeof(fathom_quat) == 16, "four floats");
static_assert(sizeof(fathom_pose) == 64, "sixteen floats");
static_assert(sizeof(fathom_box) == 36, "centre, scale, rot_y, floor, has_floor");
static_assert(sizeof(fathom_ray) == 24, "six floats: an (N, 6) float32 array is an array of rays");
static_assert(sizeof(fathom_hit) == 44, "t, point, normal, u, v, primitive, classification, front_face, reserved");
static_assert(offsetof(fathom_hit, front_face) == 41 && offsetof(fathom_hit, reserved) == 42, "front_face a byte");

// C's bool is C++'s bool: the same one byte on both sides of the ABI.
static_assert(sizeof(bool) == 1, "bool is one byte");
static_assert(std::is_same<decltype(fathom_box::has_floor), bool>::value, "has_floor is bool");
static_assert(std::is_same<decltype(fathom_hit::front_face), bool>::value, "front_face is bool");
static_assert(std::is_same<decltype(fathom_box_hit::origin_inside), bool>::value, "origin_inside is bool");
static_assert(std::is_same<decltype(fathom_depth_frame::has_pose), bool>::value, "has_pose is bool");
static_assert(std::is_same<decltype(fathom_face_coverage::needed), bool>::value, "needed is bool");
static_assert(std::is_same<decltype(fathom_coverage_summary::complete), bool>::value, "complete is bool");
static_assert(std::is_same<decltype(fathom_motion_state::captured), bool>::value &&
                  std::is_same<decltype(fathom_motion_state::skipped), bool>::value &&
                  std::is_same<decltype(fathom_motion_state::restarted), bool>::value,
              "captured, skipped, restarted are bool");
static_assert(std::is_same<decltype(fathom_point_cloud_info::has_normals), bool>::value &&
                  std::is_same<decltype(fathom_point_cloud_info::has_colors), bool>::value &&
                  std::is_same<decltype(fathom_point_cloud_info::has_confidence), bool>::value,
              "has_* are bool");
static_assert(std::is_same<decltype(fathom_scan_info::has_confidence), bool>::value, "has_confidence is bool");
static_assert(std::is_same<decltype(fathom_scan_writer_options::with_confidence), bool>::value &&
                  std::is_same<decltype(fathom_scan_writer_options::zlib_wrapped), bool>::value,
              "with_confidence, zlib_wrapped are bool");
static_assert(std::is_same<decltype(fathom_report_summary::has_floor), bool>::value &&
                  std::is_same<decltype(fathom_report_summary::has_focus), bool>::value &&
                  std::is_same<decltype(fathom_report_summary::has_trajectory), bool>::value &&
                  std::is_same<decltype(fathom_report_summary::has_coverage), bool>::value &&
                  std::is_same<decltype(fathom_report_summary::has_support), bool>::value &&
                  std::is_same<decltype(fathom_report_summary::has_ceiling), bool>::value &&
                  std::is_same<decltype(fathom_report_summary::object_capture), bool>::value,
              "the report summary's flags are bool");

// The depth frame ends has_pose, min_confidence, reserved[14]; RANSAC options reordered, reserved[5] last.
static_assert(offsetof(fathom_depth_frame, has_pose) + 1 == offsetof(fathom_depth_frame, min_confidence) &&
                  offsetof(fathom_depth_frame, min_confidence) + 1 == offsetof(fathom_depth_frame, reserved) &&
                  offsetof(fathom_depth_frame, reserved) + 14 == sizeof(fathom_depth_frame),
              "fathom_depth_frame's tail");
static_assert(offsetof(fathom_ransac_options, confidence) == 8 && offsetof(fathom_ransac_options, seed) == 16 &&
                  offsetof(fathom_ransac_options, iterations) == 24 && offsetof(fathom_ransac_options, reserved) == 28 &&
                  sizeof(fathom_ransac_options) == 48,
              "fathom_ransac_options {threshold, confidence, seed, iterations, reserved[5]}");
static_assert(sizeof(fathom_batch_options) == 28 && offsetof(fathom_batch_options, reserved) == 12,
              "fathom_batch_options {tmin, tmax, threads, reserved[4]}");
static_assert(std::is_same<decltype(fathom_mesh_info::reserved), uint32_t[4]>::value &&
                  std::is_same<decltype(fathom_capture_options::reserved), uint32_t[4]>::value &&
                  std::is_same<decltype(fathom_report_summary::reserved), uint32_t[4]>::value,
              "uint32_t reserved[4]");
static_assert(std::is_enum<fathom_mesh_flags>::value && FATHOM_MESH_COPY == 0 && FATHOM_MESH_BORROW == 1,
              "the mesh flags' enum");
static_assert(FATHOM_VERSION_MAJOR == 1, "the 1.x ABI");

namespace {

fathom_box make_box(fathom_vec3 center, fathom_vec3 scale, float rot) {
    fathom_box b;
    CHECK_OK(fathom_box_init(center, scale, rot, &b));
    return b;
}

}  // namespace

int main() {
    check_section("C++: version");
    CHECK(std::string(fathom_version()) == std::to_string(FATHOM_VERSION_MAJOR) + "." +
                                               std::to_string(FATHOM_VERSION_MINOR) + "." +
                                               std::to_string(FATHOM_VERSION_PATCH));
    CHECK(fathom_version_number() == static_cast<uint32_t>(FATHOM_VERSION_NUMBER));
    CHECK(std::string(fathom_status_name(FATHOM_ERR_NOT_A_BOX)) == "FATHOM_ERR_NOT_A_BOX");

    check_section("C++: box corners");
    // Centre (0, 1, 0), scale (2, 2, 4), rot 0: TLF (-1, 2, -2), BRB (1, 0, 2).
    fathom_box b = make_box(fathom_vec3{0.0f, 1.0f, 0.0f}, fathom_vec3{2.0f, 2.0f, 4.0f}, 0.0f);
    std::vector<fathom_vec3> corners(8);
    CHECK_OK(fathom_box_corners(&b, corners.data()));
    CHECK_VEC3(corners[FATHOM_CORNER_TOP_LEFT_FRONT], -1, 2, -2, 1e-6);
    CHECK_VEC3(corners[FATHOM_CORNER_BOT_RIGHT_BACK], 1, 0, 2, 1e-6);

    check_section("C++: points in a box");
    std::vector<float> pts = {0.0f, 1.0f, 0.0f, 5.0f, 5.0f, 5.0f, 0.9f, 0.1f, -1.9f};
    fathom_obb o;
    CHECK_OK(fathom_box_to_obb(&b, &o));
    size_t inside = 0;
    CHECK_OK(fathom_obb_count_inside(&o, pts.data(), pts.size() / 3, 3 * sizeof(float), &inside));
    CHECK(inside == 2);

    check_section("C++: a mesh from std::vector");
    {
        // A tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1), faces wound outward.
        std::vector<float> v = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
        std::vector<uint32_t> tri = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
        std::vector<uint8_t> cls = {FATHOM_CLASS_FLOOR, FATHOM_CLASS_WALL, FATHOM_CLASS_WALL, FATHOM_CLASS_TABLE};
        fathom_mesh *mesh = nullptr;
        CHECK_OK(fathom_mesh_create(v.data(), v.size() / 3, 3 * sizeof(float), tri.data(), tri.size() / 3, cls.data(),
                                    FATHOM_MESH_COPY, &mesh));
        // Straight down at (0.2, 0.3): through the slanted face x + y + z = 1 at z = 0.5 (t = 1.5), then the
        // floor face z = 0 (t = 2).
        fathom_ray ray = {{0.2f, 0.3f, 2.0f}, {0.0f, 0.0f, -1.0f}};
        fathom_hit hit;
        CHECK_OK(fathom_mesh_intersect(mesh, &ray, 0.0f, INFINITY, &hit));
        CHECK(hit.primitive == 3);
        CHECK_NEAR(hit.t, 1.5, 1e-6);
        CHECK(hit.classification == FATHOM_CLASS_TABLE);
        CHECK(hit.front_face == true);
        bool occluded = false;
        CHECK_OK(fathom_mesh_occluded(mesh, &ray, 0.0f, INFINITY, &occluded));
        CHECK(occluded);
        CHECK_OK(fathom_mesh_occluded(mesh, &ray, 0.0f, 1.0f, &occluded)); // the first crossing is at t = 1.5
        CHECK(!occluded);
        size_t needed = 0;
        std::vector<fathom_hit> all(1);
        CHECK_STATUS(fathom_mesh_intersect_all(mesh, &ray, 0.0f, INFINITY, all.data(), all.size(), &needed),
                     FATHOM_ERR_BUFFER_TOO_SMALL);
        CHECK(needed == 2);
        CHECK(all[0].primitive == 3);
        all.resize(needed);
        CHECK_OK(fathom_mesh_intersect_all(mesh, &ray, 0.0f, INFINITY, all.data(), all.size(), &needed));
        CHECK(all[1].primitive == 0 && all[1].classification == FATHOM_CLASS_FLOOR);
        CHECK_NEAR(all[1].t, 2, 1e-6);
        fathom_mesh_info info;
        std::memset(&info, 0xFF, sizeof info);
        CHECK_OK(fathom_mesh_get_info(mesh, &info));
        CHECK(info.triangle_count == 4 && info.vertex_count == 4);
        CHECK(info.reserved[0] == 0 && info.reserved[1] == 0 && info.reserved[2] == 0 && info.reserved[3] == 0);
        CHECK_NEAR(info.surface_area, 1.5 + std::sqrt(3.0) / 2, 1e-6);
        fathom_mesh_destroy(mesh);
        fathom_mesh_destroy(nullptr);
    }

    check_section("C++: errors");
    auto status = fathom_box_set_scale(&b, fathom_vec3{1.0f, -0.2f, 1.0f});
    CHECK(status == FATHOM_ERR_OUT_OF_RANGE);
    CHECK(std::strstr(fathom_last_error(), "fathom_box_set_scale") != nullptr);
    CHECK(fathom_box_corners(nullptr, corners.data()) == FATHOM_ERR_NULL_POINTER);

    check_section("C++: options value-initialized (reserved words 0), a reserved word set refused");
    {
        fathom_batch_options options = fathom_batch_options(); // every field 0, the reserved words too
        CHECK(options.reserved[0] == 0 && options.reserved[3] == 0);
        fathom_ransac_options ransac;
        CHECK_OK(fathom_ransac_options_init(&ransac));
        std::vector<double> line = {0, 0, 1, 1, 2, 2, 3, 3};
        fathom_line_fit fit;
        CHECK_OK(fathom_fit_line_ransac(line.data(), 4, 0, 2, &ransac, &fit, nullptr));
        ransac.reserved[4] = 1;
        CHECK(fathom_fit_line_ransac(line.data(), 4, 0, 2, &ransac, &fit, nullptr) == FATHOM_ERR_OUT_OF_RANGE);
        CHECK(std::strstr(fathom_last_error(), "options.reserved") != nullptr);
    }

    return check_summary("test_cxx");
}
