/* Cameras: intrinsics at another resolution (conventions.md: fx' = fx w'/w, cx' = cx w'/w, fy' = fy h'/h,
 * cy' = cy h'/h). */
#include "fathom.h"
#include "check.h"

#include <math.h>
#include <string.h>

static fathom_intrinsics intr(float fx, float fy, float cx, float cy, uint32_t w, uint32_t h) {
    fathom_intrinsics k;
    k.fx = fx;
    k.fy = fy;
    k.cx = cx;
    k.cy = cy;
    k.width = w;
    k.height = h;
    return k;
}

int main(void) {
    fathom_intrinsics in, out, before;

    check_section("intrinsics_scale");
    /* The RGB image 1920x1440 to the depth map 256x192: factor 256/1920 = 192/1440 = 2/15.
     * fx 1500 -> 200, cx 960 -> 128, fy 1500 -> 200, cy 720 -> 96. */
    in = intr(1500, 1500, 960, 720, 1920, 1440);
    CHECK_OK(fathom_intrinsics_scale(&in, 256, 192, &out));
    CHECK_NEAR(out.fx, 200, 1e-4);
    CHECK_NEAR(out.fy, 200, 1e-4);
    CHECK_NEAR(out.cx, 128, 1e-4);
    CHECK_NEAR(out.cy, 96, 1e-4);
    CHECK(out.width == 256 && out.height == 192);
    /* Factor 1/3: fx 1445.5 -> 481.8333, fy 1446.1 -> 482.0333, cx 957.3 -> 319.1, cy 718.2 -> 239.4. */
    in = intr(1445.5f, 1446.1f, 957.3f, 718.2f, 1920, 1440);
    CHECK_OK(fathom_intrinsics_scale(&in, 640, 480, &out));
    CHECK_NEAR(out.fx, 1445.5 / 3, 1e-3);
    CHECK_NEAR(out.fy, 1446.1 / 3, 1e-3);
    CHECK_NEAR(out.cx, 957.3 / 3, 1e-3);
    CHECK_NEAR(out.cy, 718.2 / 3, 1e-3);
    CHECK(out.width == 640 && out.height == 480);
    /* Different factors per axis: width x2, height x0.5. */
    in = intr(100, 80, 50, 25, 100, 50);
    CHECK_OK(fathom_intrinsics_scale(&in, 200, 25, &out));
    CHECK_NEAR(out.fx, 200, 1e-4);
    CHECK_NEAR(out.cx, 100, 1e-4);
    CHECK_NEAR(out.fy, 40, 1e-4);
    CHECK_NEAR(out.cy, 12.5, 1e-4);
    CHECK(out.width == 200 && out.height == 25);
    /* The same size: unchanged. */
    CHECK_OK(fathom_intrinsics_scale(&in, 100, 50, &out));
    CHECK(out.fx == 100 && out.fy == 80 && out.cx == 50 && out.cy == 25 && out.width == 100 && out.height == 50);
    /* Large sizes do not overflow (uint32 products). */
    in = intr(1000, 1000, 2000000000.0f, 2000000000.0f, 4000000000u, 4000000000u);
    CHECK_OK(fathom_intrinsics_scale(&in, 4000000000u, 1u, &out));
    CHECK_NEAR(out.cx, 2000000000.0, 2000000000.0 * 1e-6);
    CHECK_NEAR(out.cy, 0.5, 1e-6);

    check_section("intrinsics_scale: bad input");
    in = intr(1500, 1500, 960, 720, 1920, 1440);
    memset(&out, 0x77, sizeof out);
    before = out;
    CHECK_STATUS(fathom_intrinsics_scale(&in, 0, 192, &out), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("fathom_intrinsics_scale");
    CHECK_ERROR_MENTIONS("width");
    CHECK_STATUS(fathom_intrinsics_scale(&in, 256, 0, &out), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("height");
    in.width = 0;
    CHECK_STATUS(fathom_intrinsics_scale(&in, 256, 192, &out), FATHOM_ERR_OUT_OF_RANGE);
    in = intr(0, 1500, 960, 720, 1920, 1440);
    CHECK_STATUS(fathom_intrinsics_scale(&in, 256, 192, &out), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("fx");
    in = intr(1500, -1, 960, 720, 1920, 1440);
    CHECK_STATUS(fathom_intrinsics_scale(&in, 256, 192, &out), FATHOM_ERR_OUT_OF_RANGE);
    CHECK_ERROR_MENTIONS("fy");
    in = intr(1500, 1500, (float)NAN, 720, 1920, 1440);
    CHECK_STATUS(fathom_intrinsics_scale(&in, 256, 192, &out), FATHOM_ERR_NOT_FINITE);
    CHECK_ERROR_MENTIONS("cx");
    in = intr((float)INFINITY, 1500, 960, 720, 1920, 1440);
    CHECK_STATUS(fathom_intrinsics_scale(&in, 256, 192, &out), FATHOM_ERR_NOT_FINITE);
    CHECK(memcmp(&out, &before, sizeof out) == 0);
    in = intr(1500, 1500, 960, 720, 1920, 1440);
    CHECK_STATUS(fathom_intrinsics_scale(NULL, 256, 192, &out), FATHOM_ERR_NULL_POINTER);
    CHECK_STATUS(fathom_intrinsics_scale(&in, 256, 192, NULL), FATHOM_ERR_NULL_POINTER);
    CHECK(memcmp(&out, &before, sizeof out) == 0);
    return check_summary("test_camera");
}
