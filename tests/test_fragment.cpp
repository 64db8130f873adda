// Fragment launches: tiles, 2x2 quad packing into lanes, pixels outside the image.
#include "functional_util.hpp"
#include "sim/functional/executor.hpp"
#include "sim/functional/fragment.hpp"
#include "sim/functional/reference.hpp"

using namespace simt;
using namespace simt::func;

namespace {

isa::LaunchDecl fragment(uint32_t w, uint32_t h, uint32_t tw = 4, uint32_t th = 8) {
    isa::LaunchDecl l;
    l.mode = isa::LaunchDecl::Mode::Fragment;
    l.width = w;
    l.height = h;
    l.tile_w = tw;
    l.tile_h = th;
    return l;
}

// Writes, for every launched pixel, (lane + 1) | warp << 8 and counts visits.
const char* kPixelKernel = R"(
    mov r0, %pixel.x
    mov r1, %pixel.y
    imad r2, r1, $w, r0
    mov r3, %tid.x
    iadd r3, r3, 1
    mov r4, %ctaid.x
    shl r4, r4, 8
    or r3, r3, r4
    st.global [who + r2*4], r3
    atom.global.add r5, [visits + r2*4], 1
    exit
)";

}  // namespace

TEST_CASE("fragment: lanes hold 2x2 quads packed row-major in a 4x8 tile", "[fragment]") {
    const isa::LaunchDecl l = fragment(64, 64);
    struct Want { uint32_t lane, x, y; };
    const Want want[] = {{0, 0, 0}, {1, 1, 0}, {2, 0, 1}, {3, 1, 1}, {4, 2, 0}, {5, 3, 0}, {6, 2, 1},
                         {7, 3, 1}, {8, 0, 2}, {11, 1, 3}, {12, 2, 2}, {31, 3, 7}, {28, 2, 6}};
    for (const Want& w : want) {
        INFO("lane " << w.lane);
        const LanePixel p = fragment_pixel(l, 0, w.lane);
        CHECK(p.inside);
        CHECK(p.x == w.x);
        CHECK(p.y == w.y);
    }
    // Warp 17 is tile (1, 1) of a 16-tile-wide image.
    const LanePixel p = fragment_pixel(l, 17, 7);
    CHECK(p.x == 4 + 3);
    CHECK(p.y == 8 + 1);
}

TEST_CASE("fragment: an 8x4 tile has four quads per row", "[fragment]") {
    const isa::LaunchDecl l = fragment(16, 8, 8, 4);
    CHECK(fragment_layout(l).tiles_x == 2);
    CHECK(fragment_layout(l).tiles_y == 2);
    const LanePixel a = fragment_pixel(l, 0, 13);   // quad 3, lane 1 of the quad
    CHECK(a.x == 7);
    CHECK(a.y == 0);
    const LanePixel b = fragment_pixel(l, 3, 18);   // tile (1,1), quad 4 = row 1 col 0, lane 2
    CHECK(b.x == 8 + 0);
    CHECK(b.y == 4 + 3);
}

TEST_CASE("fragment: at 5x3 pixels lanes outside the image are not launched", "[fragment]") {
    const isa::Program p = test::assemble(".fragment 5 3\n.uniform w u32 5\n.buffer who u32 15 zero\n"
                                          ".buffer visits u32 15 zero\n" + std::string(kPixelKernel));
    CHECK(p.num_blocks() == 2);
    CHECK(launch_blocks(p.launch) == 2);
    GlobalMemory m(p, ".");
    Executor ex(p, m);
    const auto b0 = ex.make_block(0);
    const auto b1 = ex.make_block(1);
    REQUIRE(b0->warps.size() == 1);
    // Tile 0 holds x 0..3, y 0..2: quads 0 and 1 full, quads 2 and 3 only their top row.
    CHECK(b0->warps[0].launched == 0x33ffu);
    CHECK(b0->warps[0].live == 0x33ffu);
    // Tile 1 holds only x = 4: the left column of quads 0 and 2.
    CHECK(b1->warps[0].launched == 0x105u);
    CHECK(b1->warps[0].pixel_x[8] == 4);
    CHECK(b1->warps[0].pixel_y[8] == 2);

    const FunctionalResult r = run_functional(p, m);
    const auto who = test::words(p, m, "who");
    const auto visits = test::words(p, m, "visits");
    for (uint32_t y = 0; y < 3; ++y) {
        for (uint32_t x = 0; x < 5; ++x) {
            INFO("pixel " << x << "," << y);
            const uint32_t i = y * 5 + x;
            CHECK(visits[i] == 1);
            const uint32_t warp = x / 4, px = x % 4;
            const uint32_t lane = ((y / 2) * 2 + px / 2) * 4 + (y % 2) * 2 + px % 2;
            CHECK(who[i] == ((lane + 1) | warp << 8));
        }
    }
    CHECK(r.thread_instructions == 15 * 11);
    CHECK(r.warp_instructions == 2 * 11);

    GlobalMemory ref(p, ".");
    run_reference(p, ref);
    CHECK(test::words(p, ref, "who") == who);
}

TEST_CASE("fragment: every pixel of a 37x21 image is shaded exactly once", "[fragment]") {
    const isa::Program p = test::assemble(".fragment 37 21\n.tile 8 4\n.uniform w u32 37\n"
                                          ".buffer who u32 777 zero\n.buffer visits u32 777 zero\n" +
                                          std::string(kPixelKernel));
    CHECK(p.num_blocks() == 5 * 6);
    GlobalMemory m(p, ".");
    run_functional(p, m);
    for (uint32_t v : test::words(p, m, "visits")) CHECK(v == 1);
    const auto who = test::words(p, m, "who");
    for (uint32_t y = 0; y < 21; ++y)
        for (uint32_t x = 0; x < 37; ++x) {
            const LanePixel lp = fragment_pixel(p.launch, who[y * 37 + x] >> 8, (who[y * 37 + x] & 0xff) - 1);
            CHECK(lp.x == x);
            CHECK(lp.y == y);
        }
}

TEST_CASE("fragment: special registers of a fragment warp", "[fragment]") {
    test::Run r(R"(.fragment 8 8
.buffer o u32 256 zero
    mov r0, %ctaid.x
    shl r0, r0, 5
    iadd r0, r0, %laneid
    shl r0, r0, 2
    mov r1, %ntid.x
    st.global [o + r0*4], r1
    mov r1, %nctaid.x
    st.global [o + r0*4 + 4], r1
    mov r1, %warpid
    st.global [o + r0*4 + 8], r1
    mov r1, %tid.y
    st.global [o + r0*4 + 12], r1
    exit
)");
    const auto o = r.u32("o");
    for (uint32_t i = 0; i < 64; ++i) {
        CHECK(o[4 * i] == 32);
        CHECK(o[4 * i + 1] == 2);
        CHECK(o[4 * i + 2] == 0);
        CHECK(o[4 * i + 3] == 0);
    }
}
