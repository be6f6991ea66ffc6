// Links fathom::fathom from the installed CMake package: the version three ways (the package's, the header's, the
// library's), a box's corners, and rays against a two-triangle floor. Prints each failure; exits 1 on any.
#include <fathom.h>

#include <cmath>
#include <cstdio>
#include <string>

static int failures = 0;

// Prints what failed, with the last failed call's message if there is one (a wrong value alone leaves none).
static void check(bool ok, const char *what) {
    if (!ok) {
        const char *error = fathom_last_error();
        std::printf("FAIL: %s%s%s\n", what, *error ? ": " : "", error);
        failures++;
    }
}

static bool near(float a, float b) { return std::fabs(a - b) <= 1e-6f; }

int main() {
    const std::string header_version = std::to_string(FATHOM_VERSION_MAJOR) + "." +
                                       std::to_string(FATHOM_VERSION_MINOR) + "." +
                                       std::to_string(FATHOM_VERSION_PATCH);
    std::printf("fathom %s (package %s)\n", fathom_version(), FATHOM_PACKAGE_VERSION);
    check(fathom_version() == header_version, "fathom_version() = the header's version");
    check(fathom_version_number() == static_cast<uint32_t>(FATHOM_VERSION_NUMBER),
          "fathom_version_number() = FATHOM_VERSION_NUMBER");
    check(header_version == FATHOM_PACKAGE_VERSION, "fathomConfigVersion.cmake's version = the header's");

    // Centre (0, 1, 0), scale (2, 2, 4), no rotation: top-left-front (-1, 2, -2), bottom-right-back (1, 0, 2).
    fathom_box box;
    fathom_vec3 c[8];
    check(fathom_box_init(fathom_vec3{0.0f, 1.0f, 0.0f}, fathom_vec3{2.0f, 2.0f, 4.0f}, 0.0f, &box) == FATHOM_OK &&
              fathom_box_corners(&box, c) == FATHOM_OK,
          "box corners");
    const fathom_vec3 tlf = c[FATHOM_CORNER_TOP_LEFT_FRONT], brb = c[FATHOM_CORNER_BOT_RIGHT_BACK];
    check(tlf.x == -1.0f && tlf.y == 2.0f && tlf.z == -2.0f, "top-left-front corner (-1, 2, -2)");
    check(brb.x == 1.0f && brb.y == 0.0f && brb.z == 2.0f, "bottom-right-back corner (1, 0, 2)");

    // The floor square [0, 1] x [0, 1] at y = 0: triangle 0 where x >= z, triangle 1 where x < z, both facing +y.
    const float vertices[] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
    const uint32_t triangles[] = {0, 2, 1, 0, 3, 2};
    const uint8_t classes[] = {FATHOM_CLASS_FLOOR, FATHOM_CLASS_FLOOR};
    fathom_mesh *mesh = nullptr;
    check(fathom_mesh_create(vertices, 4, 3 * sizeof(float), triangles, 2, classes, FATHOM_MESH_COPY, &mesh) ==
              FATHOM_OK,
          "fathom_mesh_create");
    if (mesh) {
        // Straight down from 2 m above (0.25, 0.75): triangle 1 at t = 2, from the side its normal points to.
        fathom_ray down = {{0.25f, 2.0f, 0.75f}, {0.0f, -1.0f, 0.0f}};
        fathom_hit hit;
        check(fathom_mesh_intersect(mesh, &down, 0.0f, INFINITY, &hit) == FATHOM_OK, "ray down");
        std::printf("hit: triangle %u at t = %g, point (%g, %g, %g)\n", hit.primitive, (double)hit.t,
                    (double)hit.point.x, (double)hit.point.y, (double)hit.point.z);
        check(hit.primitive == 1 && near(hit.t, 2.0f), "hits triangle 1 at t = 2");
        check(near(hit.point.x, 0.25f) && near(hit.point.y, 0.0f) && near(hit.point.z, 0.75f), "hit point");
        check(near(hit.normal.y, 1.0f) && hit.front_face == 1 && hit.classification == FATHOM_CLASS_FLOOR,
              "normal +y, front face, floor");
        // Beside the square: a miss.
        fathom_ray beside = {{1.5f, 2.0f, 0.5f}, {0.0f, -1.0f, 0.0f}};
        check(fathom_mesh_intersect(mesh, &beside, 0.0f, INFINITY, &hit) == FATHOM_OK &&
                  hit.primitive == FATHOM_NO_HIT && std::isinf(hit.t),
              "ray beside the square misses");
        fathom_mesh_destroy(mesh);
    }

    std::printf("%s\n", failures ? "consumer: FAILED" : "consumer: ok");
    return failures ? 1 : 0;
}
