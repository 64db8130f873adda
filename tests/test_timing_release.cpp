// test_timing_release.cpp: what an exited warp gives back before its block ends
// (sm.warp_release: block, slot, slot_and_registers).
//
// Blocks of two warps; warp 1 exits early, warp 0 runs 10 dependent FFMAs. On
// small_config (fma latency 4, alu latency 4, branch latency 6), worked by hand:
// mov at 0, isetp at 4, bra at 8; warp 1's branch is taken, its exit issues at
// 8 + 6 = 14 and it retires at 15; warp 0 falls through, its FFMAs issue at 9,
// 13, ..., 45, exit at 46, retire at 47. Each warp has its own scheduler.
#include "test_timing_util.hpp"

#include <catch2/catch.hpp>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

const std::string kUneven = ".kernel t\n.grid 3\n.block 64\n.regs 8\n"
                            "mov r0, %tid.x\nisetp.ge p0, r0, 32\n@p0 bra done\n" +
                            repeat("ffma r1, r1, r1, r1", 10) + "done:\nexit\n";

uint64_t third_block_dispatch(const Recorder& rec) {
    for (auto [cycle, block] : rec.blocks_dispatched)
        if (block == 2) return cycle;
    return 0;
}

}  // namespace

TEST_CASE("release: exited warps free their slots before the block ends", "[timing]") {
    GpuConfig c = small_config();
    c.sm.max_warps = 4;  // two blocks of two warps
    SECTION("per block: block 2 waits for a whole block (both end at 47), starts at 48") {
        c.sm.warp_release = WarpRelease::Block;
        Recorder rec;
        auto r = run(kUneven, c, {true, &rec, {}});
        CHECK(third_block_dispatch(rec) == 48);
        CHECK(r.stats.cycles == 48 + 47);
    }
    SECTION("per warp: the two early warps' slots (free at 15) take block 2 at 16") {
        c.sm.warp_release = WarpRelease::Slot;
        Recorder rec;
        auto r = run(kUneven, c, {true, &rec, {}});
        CHECK(third_block_dispatch(rec) == 16);
        CHECK(r.stats.cycles == 16 + 47);
    }
}

TEST_CASE("release: registers come back per warp only with slot_and_registers", "[timing]") {
    GpuConfig c = small_config();
    c.sm.registers = 4 * 256;  // 8 registers x 32 lanes = 256 per warp: two blocks fit
    for (auto [rel, at] : {std::pair{WarpRelease::Slot, 48u}, std::pair{WarpRelease::SlotAndRegisters, 16u}}) {
        c.sm.warp_release = rel;
        Recorder rec;
        run(kUneven, c, {true, &rec, {}});
        CHECK(third_block_dispatch(rec) == at);
    }
    // The block slot (and shared memory) always waits for the whole block.
    c.sm.registers = 65536;
    c.sm.max_blocks = 2;
    Recorder rec;
    run(kUneven, c, {true, &rec, {}});
    CHECK(third_block_dispatch(rec) == 48);
}
