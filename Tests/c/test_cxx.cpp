// The header from C++11: extern "C" linkage, the structs as C++ aggregates, a few calls.
#include "fathom.h"
#include "check.h"

#include <cmath>
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
        CHECK(hit.front_face == 1);
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
        CHECK_OK(fathom_mesh_get_info(mesh, &info));
        CHECK(info.triangle_count == 4 && info.vertex_count == 4);
        CHECK_NEAR(info.surface_area, 1.5 + std::sqrt(3.0) / 2, 1e-6);
        fathom_mesh_destroy(mesh);
        fathom_mesh_destroy(nullptr);
    }

    check_section("C++: errors");
    auto status = fathom_box_set_scale(&b, fathom_vec3{1.0f, -0.2f, 1.0f});
    CHECK(status == FATHOM_ERR_OUT_OF_RANGE);
    CHECK(std::strstr(fathom_last_error(), "fathom_box_set_scale") != nullptr);
    CHECK(fathom_box_corners(nullptr, corners.data()) == FATHOM_ERR_NULL_POINTER);

    return check_summary("test_cxx");
}
