// test_viz_profile.cpp: the profile views' logic that needs no SFML (issue 11):
// the timeline's optional lanes column, the lane strip's colours and binning,
// reading a --profile directory (per-line sums of pc.csv, source.csv, the launch
// shape), and the cost image's mapping of warps to pixels and blocks to cells.
// The drawing is checked by the viz_png_* ctests (CMakeLists.txt, viz block).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "viz/image.hpp"
#include "viz/profile.hpp"
#include "viz/timeline_view.hpp"

using namespace simt;
using namespace simt::viz;

namespace {

const std::string kHead = "warp,block,sm,sub_partition,start,end,state,pc,lanes\n";

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

// A scratch profile directory under the build tree.
std::string write_dir(const std::string& name, const std::map<std::string, std::string>& files) {
    const auto dir = std::filesystem::path(SIMT_BINARY_DIR) / "test_viz_profile" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const auto& [f, text] : files) std::ofstream(dir / f) << text;
    return dir.string();
}

}  // namespace

TEST_CASE("viz: the lanes column is optional and read for issued intervals", "[viz]") {
    const Timeline tl = parse_timeline("t.csv", kHead +
                                                    "0,0,0,0,0,1,selected,0,32\n"
                                                    "0,0,0,0,1,3,wait,1,\n"
                                                    "0,0,0,0,3,4,selected,1,16\n");
    CHECK(tl.has_lanes);
    REQUIRE(tl.warps.size() == 1);
    CHECK(tl.warps[0].intervals[0].lanes == 32);
    CHECK(tl.warps[0].intervals[1].lanes == 0);  // empty: not an issue
    CHECK(tl.warps[0].intervals[2].lanes == 16);
    const Timeline old = parse_timeline("t.csv", "warp,block,sm,sub_partition,start,end,state,pc\n0,0,0,0,0,1,selected,0\n");
    CHECK_FALSE(old.has_lanes);  // the eight-column format still reads
    CHECK(error_of([] { parse_timeline("t.csv", kHead + "0,0,0,0,0,1,selected,0,40\n"); }) ==
          "t.csv:2: error: column \"lanes\": 40 is more than the 32 lanes of a warp");
    CHECK(error_of([] { parse_timeline("t.csv", kHead + "0,0,0,0,0,1,selected,0,x\n"); }) ==
          "t.csv:2: error: column \"lanes\": \"x\" is not a whole number >= 0");
}

TEST_CASE("viz: lane colours run from slate (32) through white (16) to red, exactly", "[viz]") {
    CHECK(lane_color(16) == Rgb{240, 240, 240});
    CHECK(lane_color(32) == Rgb{70, 82, 100});
    CHECK(lane_color(0) == Rgb{255, 60, 60});
    CHECK(lane_color(40) == lane_color(32));
    for (uint32_t n = 1; n < 32; ++n) CHECK_FALSE(lane_color(n) == lane_color(n + 1));  // every count distinct
}

TEST_CASE("viz: the lane strip bins issued intervals to pixel columns", "[viz]") {
    const Timeline tl = parse_timeline("t.csv", kHead +
                                                    "0,0,0,0,0,1,selected,0,32\n"
                                                    "0,0,0,0,1,2,selected,1,16\n"
                                                    "0,0,0,0,2,4,wait,2,\n"
                                                    "0,0,0,0,4,5,selected,2,8\n");
    std::vector<float> cols;
    bin_lanes(tl.warps[0], XMap{0, 5, 0, 5}, cols);  // one pixel per cycle
    CHECK(cols == std::vector<float>{32, 16, 0, 0, 8});
    bin_lanes(tl.warps[0], XMap{0, 4, 0, 2}, cols);  // two cycles per pixel: their mean
    CHECK(cols == std::vector<float>{24, 0});
}

TEST_CASE("viz: a profile directory sums pc.csv per source line and reads the launch", "[viz]") {
    const std::string dir = write_dir(
        "p1", {{"timeline.csv", kHead + "0,0,0,0,0,1,selected,0,32\n0,0,0,0,1,2,selected,1,16\n"},
               {"pc.csv", "pc,file,line,text,pipe,issued,thread_instructions,selected,wait,math_pipe_throttle\n"
                          "0,\"t.isa\",5,\"sin r1, r2\",sfu,4,128,4,0,10\n"
                          "1,\"t.isa\",3,\"mov r1, 0\",alu,4,64,4,2,0\n"
                          "2,\"t.isa\",5,\"sin r3, r3\",sfu,2,32,2,0,6\n"},
               {"source.csv", "file,line,text\n\"t.isa\",3,\"    mov r1, 0   ; start\"\n\"t.isa\",5,\"  sin r1, r2\"\n"},
               {"report.json", "{\"cycles\": 2, \"launch\": {\"mode\": \"fragment\", \"width\": 8, \"height\": 16, "
                               "\"tile_width\": 4, \"tile_height\": 8}}\n"}});
    const Profile p = load_profile(dir);
    REQUIRE(p.lines.size() == 2);
    CHECK(p.lines[0].line == 3);  // source order
    CHECK(p.lines[0].text == "mov r1, 0   ; start");
    CHECK(p.lines[1].line == 5);
    CHECK(p.lines[1].issued == 6);
    CHECK(p.lines[1].lanes() == Approx(160.0 / 6));
    CHECK(p.lines[1].cycles[std::size_t(State::MathPipeThrottle)] == 16);
    CHECK(p.lines[1].total() == 22);
    CHECK(p.line_at(2) == &p.lines[1]);
    CHECK(p.launch.mode == Launch::Mode::Fragment);
    CHECK(p.launch.width == 8);
    CHECK(error_of([] { load_profile(write_dir("empty", {})); }).find("not a profile directory: no timeline.csv") !=
          std::string::npos);
}

TEST_CASE("viz: a pixel's lane follows the quad packing of sim/functional/fragment.hpp", "[viz]") {
    CHECK(lane_of_pixel(0, 0, 4, 8) == 0);
    CHECK(lane_of_pixel(1, 0, 4, 8) == 1);
    CHECK(lane_of_pixel(0, 1, 4, 8) == 2);
    CHECK(lane_of_pixel(1, 1, 4, 8) == 3);
    CHECK(lane_of_pixel(2, 0, 4, 8) == 4);   // the next quad to the right
    CHECK(lane_of_pixel(0, 2, 4, 8) == 8);   // the quad row below
    CHECK(lane_of_pixel(3, 7, 4, 8) == 31);
    CHECK(lane_of_pixel(7, 9, 4, 8) == 7);   // tiles repeat
}

TEST_CASE("viz: the path image lights the pixels whose lanes executed a line", "[viz]") {
    Profile p;
    p.name = "p";
    p.tl = parse_timeline("t.csv", kHead + "0,0,0,0,0,1,selected,0,32\n");
    p.launch.mode = Launch::Mode::Fragment;
    p.launch.width = 4, p.launch.height = 8;
    p.lines.push_back(SourceLine{"t.isa", 7, "sin r1, r1", {3}, 1, 16, {}});
    p.lane_masks[{0, 3}] = Profile::LaneMask{0, 0x99999999u};  // lanes 0, 3, 4, 7, ...: x + y even
    const CostImage im = build_image(p, ImageMetric::Path, 0);
    CHECK(im.at(0, 0) == 1);
    CHECK(im.at(1, 0) == 0);
    CHECK(im.at(1, 1) == 1);
    CHECK(im.at(3, 6) == 0);
    CHECK(im.about == "line 7: sin r1, r1");
    CHECK(error_of([&] { build_image(p, ImageMetric::Path); }).find("needs a source line") != std::string::npos);
}

TEST_CASE("viz: the cost image puts warp i on tile (i % tiles_x, i / tiles_x)", "[viz]") {
    Profile p;
    p.name = "p";
    // 8 x 16 pixels = 2 x 2 tiles of 4 x 8: warps 0..3 (one per block), costs 10, 20, 30, 40 cycles.
    p.tl = parse_timeline("t.csv", kHead +
                                       "0,0,0,0,0,10,wait,0,\n"
                                       "1,1,0,0,0,20,wait,0,\n"
                                       "2,2,0,0,0,29,wait,0,\n2,2,0,0,29,30,selected,0,16\n"
                                       "3,3,0,0,0,40,wait,0,\n");
    p.launch.mode = Launch::Mode::Fragment;
    p.launch.width = 8, p.launch.height = 16;
    const CostImage im = build_image(p, ImageMetric::Cycles);
    REQUIRE(im.w == 8);
    CHECK(im.at(0, 0) == 10);
    CHECK(im.at(3, 7) == 10);
    CHECK(im.at(4, 0) == 20);
    CHECK(im.at(0, 8) == 30);
    CHECK(im.at(7, 15) == 40);
    CHECK(im.max == 40);
    const CostImage div = build_image(p, ImageMetric::Divergence);
    CHECK(div.at(0, 8) == 1.0);  // its one instruction ran on 16 lanes
    CHECK(div.at(0, 0) == 0.0);
    CHECK(cost_color(im, 40) == heat_color(1.0));

    p.launch.mode = Launch::Mode::Compute;  // 2 x 2 blocks of one warp each
    p.launch.grid_x = 2, p.launch.grid_y = 2;
    const CostImage grid = build_image(p, ImageMetric::Issued);
    REQUIRE(grid.w == 2);
    REQUIRE(grid.h == 2);
    CHECK(grid.at(0, 1) == 1);  // block 2
    CHECK(grid.at(1, 1) == 0);

    Profile bare;
    bare.name = "t.csv";
    CHECK(error_of([&] { build_image(bare, ImageMetric::Cycles); }).find("needs a profile directory") != std::string::npos);
}
