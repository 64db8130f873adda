// test_timing_occupancy.cpp: resident blocks per SM, the limiter, achieved
// occupancy, and launches that can never fit (small_config: 64 warp slots,
// 32 blocks, 64K registers in units of 256 per warp, 64 KB shared).
#include "test_timing_util.hpp"

#include "sim/timing/distributor.hpp"

#include <catch2/catch.hpp>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

std::string launch(int regs, int threads = 256, int blocks = 64, const std::string& extra = "") {
    return ".kernel t\n.grid " + std::to_string(blocks) + "\n.block " + std::to_string(threads) + "\n.regs " +
           std::to_string(regs) + "\n" + extra + "mov r0, %laneid\n" + repeat("ffma r1, r1, r1, r1", 40) + "exit\n";
}

// Largest number of warps resident at once, from the observer's events.
uint64_t peak_resident(const Recorder& rec) {
    std::vector<std::pair<uint64_t, int>> ev;
    for (auto [w, c] : rec.dispatched) ev.push_back({c, +1});
    for (auto [w, c] : rec.retired) ev.push_back({c, -1});
    std::sort(ev.begin(), ev.end());  // a retire (-1) sorts before a dispatch at the same cycle
    int64_t now = 0, peak = 0;
    for (auto [c, d] : ev) peak = std::max(peak, now += d);
    return uint64_t(peak);
}

}  // namespace

TEST_CASE("timing: 64 vs 128 registers per thread halves the resident warps", "[timing]") {
    GpuConfig c = small_config();
    auto p64 = isa::assemble_text(launch(64), "t.isa");
    auto p128 = isa::assemble_text(launch(128), "t.isa");
    OccupancyStats o64 = compute_occupancy(c, p64), o128 = compute_occupancy(c, p128);
    CHECK(o64.regs_per_warp == 2048);
    CHECK(o64.warps_per_sm == 32);
    CHECK(o64.blocks_per_sm == 4);
    CHECK(o64.limiter == OccupancyLimiter::Registers);
    CHECK(o64.theoretical == 0.5);
    CHECK(o128.warps_per_sm == 16);
    CHECK(o128.theoretical == 0.25);
    CHECK(o128.limiter == OccupancyLimiter::Registers);

    Recorder r64, r128;
    auto a = run(launch(64), c, {true, &r64, {}});
    auto b = run(launch(128), c, {true, &r128, {}});
    CHECK(peak_resident(r64) == 32);
    CHECK(peak_resident(r128) == 16);
    CHECK(a.stats.occupancy.achieved <= 0.5);
    CHECK(a.stats.occupancy.achieved > 0.45);
    CHECK(b.stats.occupancy.achieved <= 0.25);
    CHECK(b.stats.occupancy.achieved > 0.2);
    CHECK(a.stats.per_sm[0].blocks == 64);
}

TEST_CASE("timing: occupancy limiters: warps, blocks, shared memory, and rounding of allocations", "[timing]") {
    GpuConfig c = small_config();
    // 1024 threads, 16 registers: warps limit (2 blocks of 32 warps).
    auto w = compute_occupancy(c, isa::assemble_text(launch(16, 1024), "t.isa"));
    CHECK(w.limiter == OccupancyLimiter::Warps);
    CHECK(w.blocks_per_sm == 2);
    // 32 threads: 64 blocks would fit the warps, max_blocks = 32 limits.
    auto b = compute_occupancy(c, isa::assemble_text(launch(16, 32), "t.isa"));
    CHECK(b.limiter == OccupancyLimiter::Blocks);
    CHECK(b.warps_per_sm == 32);
    // 20000 bytes of shared + 1000 reserved, rounded up to 21120 (units of 128): 3 blocks.
    c.sm.shared_reserved_per_block = 1000;
    auto s = compute_occupancy(c, isa::assemble_text(launch(16, 64, 64, ".shared 20000\n"), "t.isa"));
    CHECK(s.shared_per_block == 21120);
    CHECK(s.limiter == OccupancyLimiter::SharedMemory);
    CHECK(s.blocks_per_sm == 3);
    // 33 registers round up to 40 per thread: 1280 per warp.
    auto r = compute_occupancy(c, isa::assemble_text(launch(33), "t.isa"));
    CHECK(r.regs_per_warp == 1280);
}

TEST_CASE("timing: fragment launches are not limited by max_blocks", "[timing]") {
    GpuConfig c = small_config();
    c.sm.max_blocks = 2;
    auto p = isa::assemble_text(".kernel f\n.fragment 64 64\n.regs 8\nmov r0, %pixel.x\nexit\n", "f.isa");
    auto o = compute_occupancy(c, p);
    CHECK(o.warps_per_sm == 64);
    CHECK(o.limiter == OccupancyLimiter::Warps);
    Recorder rec;
    auto r = run(".kernel f\n.fragment 64 64\n.regs 8\nmov r0, %pixel.x\n" + repeat("ffma r1, r1, r1, r1", 20) +
                     "exit\n",
                 c, {true, &rec, {}});
    CHECK(r.stats.blocks == 128);
    CHECK(peak_resident(rec) == 64);
}

TEST_CASE("timing: a launch that can never fit is an error at the launch naming the limit", "[timing]") {
    GpuConfig c = small_config();
    auto expect = [&](const GpuConfig& cfg, const std::string& src, const std::string& needle) {
        auto p = isa::assemble_text(src, "never.isa");
        func::GlobalMemory mem(p, ".");
        try {
            Simulator sim(cfg, p, mem);
            FAIL("no error for: " << src);
        } catch (const Error& e) {
            INFO(e.what());
            CHECK(e.loc().file == "never.isa");
            CHECK(e.loc().line > 0);
            CHECK(std::string(e.what()).find(needle) != std::string::npos);
        }
    };
    // 255 registers x 1024 threads: 8192 per warp x 32 warps > 65536.
    expect(c, launch(255, 1024), "more than sm.registers = 65536");
    GpuConfig small_regs = c;
    small_regs.sm.max_regs_per_thread = 128;
    expect(small_regs, launch(200), ".regs 200 exceeds sm.max_regs_per_thread = 128");
    expect(c, launch(16, 64, 1, ".shared 70000\n"), "more than sm.shared_bytes = 65536");
    GpuConfig small_blocks = c;
    small_blocks.sm.max_threads_per_block = 512;
    expect(small_blocks, launch(16, 1024), "exceeds sm.max_threads_per_block = 512");
}

TEST_CASE("occupancy: the work distributor hands out one block every block_dispatch_cycles", "[timing][dispatch]") {
    BlockDistributor d(1.5);
    CHECK(d.hand_out(0) == 0);
    CHECK(d.hand_out(0) == 2);   // free at 1.5
    CHECK(d.hand_out(0) == 3);   // free at 3.0
    CHECK(d.hand_out(10) == 10); // idle since 4.5
    CHECK(d.hand_out(10) == 12); // free at 11.5
    BlockDistributor off(0);
    CHECK(off.hand_out(7) == 7);
    CHECK(off.hand_out(7) == 7);

    // Four one-warp blocks at cycle 0, one every 10 cycles: each warp's first instruction
    // issues 10 cycles after the one before (small_config launches blocks in 0 cycles).
    GpuConfig c = small_config();
    c.launch.block_dispatch_cycles = 10;
    Recorder rec;
    run(".kernel t\n.grid 4\n.block 32\n.regs 8\nmov r0, %tid.x\nexit\n", c, {true, &rec, {}});
    for (uint64_t w = 0; w < 4; ++w) CHECK(rec.issue_cycles(w, 0).at(0) == 10 * w);
    // A fragment launch is handed out by the rasterizer, not limited here.
    Recorder frag;
    run(".kernel f\n.fragment 8 16\n.regs 8\nmov r0, %pixel.x\nexit\n", c, {true, &frag, {}});
    for (uint64_t w = 0; w < 4; ++w) CHECK(frag.issue_cycles(w, 0).at(0) <= 1);
}
