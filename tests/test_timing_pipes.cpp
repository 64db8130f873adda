// test_timing_pipes.cpp: issue timing of the execution pipes, at exact cycles.
//
// Fixed overheads of the model (small_config: block_launch_cycles = 0, fma
// latency 4, sfu interval 8 / latency 20, branch latency 6):
//   * the first instruction of a block issues at its dispatch cycle (0);
//   * a dependent instruction issues exactly `latency` cycles after its
//     producer (not at latency - 1);
//   * `exit` reads no register: it issues the cycle after the instruction
//     before it, and the warp retires the cycle after its exit when no
//     memory is outstanding; Stats::cycles is that retire cycle.
// So one warp of N dependent FFMAs + exit takes 4 (N - 1) + 2 cycles.
#include "test_timing_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

std::string one_warp(const std::string& body, uint32_t regs = 16) {
    return ".kernel t\n.grid 1\n.block 32\n.regs " + std::to_string(regs) + "\n" + body + "exit\n";
}

}  // namespace

TEST_CASE("timing: N dependent FFMAs cost N x fma latency", "[timing]") {
    GpuConfig c = small_config();
    for (int n : {1, 10, 100}) {
        Recorder rec;
        auto r = run(one_warp(repeat("ffma r0, r1, r2, r0", n)), c, {true, &rec, {}});
        INFO("n = " << n);
        CHECK(r.stats.cycles == uint64_t(4 * (n - 1) + 2));
        CHECK(r.stats.warp_instructions == uint64_t(n + 1));
        // Exact boundaries: FFMA k issues at 4k, not at 4k - 1.
        for (int k = 0; k < n; ++k) {
            auto at = rec.issue_cycles(0, uint32_t(k));
            REQUIRE(at.size() == 1);
            CHECK(at[0] == uint64_t(4 * k));
        }
        CHECK(r.stats.stall_cycles[int(StallReason::Selected)] == uint64_t(n + 1));
        CHECK(r.stats.stall_cycles[int(StallReason::Wait)] == uint64_t(3 * (n - 1)));
        CHECK(r.stats.resident_warp_cycles() == r.stats.cycles);
    }
    // 100 more FFMAs cost exactly 400 more cycles.
    auto a = run(one_warp(repeat("ffma r0, r1, r2, r0", 100)), c);
    auto b = run(one_warp(repeat("ffma r0, r1, r2, r0", 200)), c);
    CHECK(b.stats.cycles - a.stats.cycles == 400);
}

TEST_CASE("timing: independent FFMAs from enough warps issue every cycle on every scheduler", "[timing]") {
    GpuConfig c = small_config();
    // 32 warps = 8 per scheduler, each a dependent chain of 100 FFMAs (latency 4):
    // 808 issue slots per scheduler (cycles 0..807), never an empty one; the
    // last exit issues at 807 and its warp retires at 808.
    std::string src = ".kernel t\n.grid 1\n.block 1024\n.regs 8\n" + repeat("ffma r0, r1, r2, r0", 100) + "exit\n";
    auto r = run(src, c);
    CHECK(r.stats.warp_instructions == 32 * 101);
    CHECK(r.stats.cycles == 808);
    CHECK(r.stats.ipc == 4.0);
    CHECK(r.stats.pipes[int(isa::Pipe::Fma)].issued == 3200);
    CHECK(r.stats.pipes[int(isa::Pipe::Fma)].busy_cycles == 3200);
}

TEST_CASE("timing: SFU-bound code issues one warp instruction per 8 cycles per scheduler", "[timing]") {
    GpuConfig c = small_config();
    // 8 warps per scheduler, 50 independent sins each: 400 sins per scheduler
    // through a pipe of interval 8. The last sin issues at 8 * 399; exits slip
    // in between (branch pipe) except the very last one.
    std::string body;
    for (int i = 0; i < 50; ++i) body += "sin r" + std::to_string(1 + i % 8) + ", r0\n";
    std::string src = ".kernel t\n.grid 1\n.block 1024\n.regs 16\n" + body + "exit\n";
    Recorder rec;
    auto r = run(src, c, {true, &rec, {}});
    uint64_t last_sin = 0;
    for (const auto& e : rec.issues)
        if (e.pipe == isa::Pipe::Sfu) last_sin = std::max(last_sin, e.cycle);
    CHECK(last_sin == 8 * 399);
    CHECK(r.stats.cycles == 8 * 399 + 2);
    CHECK(r.stats.pipes[int(isa::Pipe::Sfu)].busy_cycles == 4 * 400 * 8);
    // ncu names a busy MUFU mio_throttle (the MIO queue in front of it is full).
    CHECK(r.stats.stall_cycles[int(StallReason::MioThrottle)] > 0);
    CHECK(r.stats.stall_cycles[int(StallReason::MathPipeThrottle)] == 0);
}

TEST_CASE("timing: a warp waiting for a busy MUFU is mio_throttle while it is busy, not_selected when it frees", "[timing]") {
    GpuConfig c = small_config();
    c.sm.sub_partitions = 1;  // both warps on one scheduler
    // Two warps of two independent sins (sfu interval 8) and exit. GTO: warp 0
    // issues sin at 0 and 8 and exit at 9 (retires at 10); warp 1 loses at 0
    // and 8 (not_selected), is throttled in [1, 8) and [9, 16), issues at 16,
    // is throttled in [17, 24), issues sin at 24, exit at 25 and retires at 26.
    Recorder rec;
    auto r = run(".kernel t\n.grid 1\n.block 64\n.regs 4\nsin r1, r0\nsin r2, r0\nexit\n", c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 0) == std::vector<uint64_t>{0});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{8});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{9});
    CHECK(rec.issue_cycles(1, 0) == std::vector<uint64_t>{16});
    CHECK(rec.issue_cycles(1, 1) == std::vector<uint64_t>{24});
    CHECK(rec.issue_cycles(1, 2) == std::vector<uint64_t>{25});
    CHECK(r.stats.cycles == 26);
    CHECK(r.stats.stall_cycles[int(StallReason::Selected)] == 6);
    CHECK(r.stats.stall_cycles[int(StallReason::NotSelected)] == 2);
    CHECK(r.stats.stall_cycles[int(StallReason::MioThrottle)] == 7 + 7 + 7 + 7);
    CHECK(r.stats.resident_warp_cycles() == 10 + 26);
    CHECK(r.stats.per_pc[0].stall_cycles[int(StallReason::NotSelected)] == 2);
    CHECK(r.stats.per_pc[0].stall_cycles[int(StallReason::MioThrottle)] == 14);  // warp 1
    CHECK(r.stats.per_pc[1].stall_cycles[int(StallReason::MioThrottle)] == 14);  // one of each warp
    // Warp 1's timeline, interval by interval.
    std::vector<StateInterval> w1;
    for (const auto& iv : rec.intervals)
        if (iv.id.warp == 1) w1.push_back(iv);
    std::sort(w1.begin(), w1.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    using S = StallReason;
    const std::vector<std::tuple<uint64_t, uint64_t, S, uint32_t>> expect = {
        {0, 1, S::NotSelected, 0}, {1, 8, S::MioThrottle, 0}, {8, 9, S::NotSelected, 0},
        {9, 16, S::MioThrottle, 0}, {16, 17, S::Selected, 0}, {17, 24, S::MioThrottle, 1},
        {24, 25, S::Selected, 1}, {25, 26, S::Selected, 2}};
    REQUIRE(w1.size() == expect.size());
    for (size_t k = 0; k < w1.size(); ++k) {
        INFO("interval " << k);
        CHECK(std::tuple(w1[k].start, w1[k].end, w1[k].state, w1[k].pc) == expect[k]);
    }
    // The same counts without an observer (waits are then settled from counts alone).
    auto quiet = run(".kernel t\n.grid 1\n.block 64\n.regs 4\nsin r1, r0\nsin r2, r0\nexit\n", c);
    CHECK(quiet.stats == r.stats);
}

TEST_CASE("timing: SFU results are short-scoreboard dependencies", "[timing]") {
    GpuConfig c = small_config();
    Recorder rec;
    auto r = run(one_warp("sin r1, r0\nfadd r2, r1, r1\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{20});
    CHECK(r.stats.stall_cycles[int(StallReason::ShortScoreboard)] == 19);
}

// pipes.s2r_latency: `mov r, %tid.x` (SASS S2R) and `umov ur, %ctaid.x` (S2UR) are variable-latency
// reads, their readers short_scoreboard; %clock (CS2R.32), %ntid (a constant) and a register keep the
// ALU's fixed latency (small_config: 4), their readers `wait`.
TEST_CASE("timing: a special register's read (S2R) has its own latency through the scoreboard", "[timing]") {
    GpuConfig c = small_config();
    c.pipes.s2r_latency = 24;
    for (const char* src : {"mov r1, %tid.x", "mov r1, %laneid", "mov r1, %smid", "mov r1, %warpid", "mov r1, %ctaid.y"}) {
        Recorder rec;
        auto r = run(one_warp(std::string(src) + "\niadd r2, r1, 1\n"), c, {true, &rec, {}});
        INFO(src);
        CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{24});
        CHECK(r.stats.stall_cycles[int(StallReason::ShortScoreboard)] == 23);
        CHECK(r.stats.stall_cycles[int(StallReason::Wait)] == 0);
    }
    {
        Recorder rec;
        auto r = run(one_warp("umov ur1, %ctaid.x\nuiadd3 ur2, ur1, 1, ur0\n"), c, {true, &rec, {}});
        CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{24});
        CHECK(r.stats.stall_cycles[int(StallReason::ShortScoreboard)] == 23);
    }
    for (const char* src : {"mov r1, %clock", "mov r1, %ntid.x", "mov r1, r0"}) {
        Recorder rec;
        auto r = run(one_warp(std::string(src) + "\niadd r2, r1, 1\n"), c, {true, &rec, {}});
        INFO(src);
        CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{4});
        CHECK(r.stats.stall_cycles[int(StallReason::ShortScoreboard)] == 0);
    }
}

TEST_CASE("timing: an emulated integer division holds the scheduler and has its own latency", "[timing]") {
    GpuConfig c = small_config();
    Recorder rec;
    // idiv at 0 (16 issue slots), the independent iadd at 16, the dependent one at 100.
    auto r = run(one_warp("idiv r1, r2, 3\niadd r3, r4, 1\niadd r5, r1, 1\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{16});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{100});
    CHECK(r.stats.issue_slots == r.stats.warp_instructions + 15);
    CHECK(r.stats.stall_cycles[int(StallReason::Selected)] == 16 + 3);
}

TEST_CASE("timing: a MUFU reading an FP32 result pays the SFU's handoff, a MUFU or FP32 reader does not", "[timing]") {
    GpuConfig c = small_config();  // fma latency 4, sfu latency 20
    c.pipes.sfu.handoff = 2;
    Recorder rec;
    // fmul at 0 -> sin at 4 + 2; sin -> sin at 6 + 20 (same pipe); sin -> fadd at 26 + 20 (fma.handoff 0).
    auto r = run(one_warp("fmul r1, r0, r0\nsin r2, r1\nsin r3, r2\nfadd r4, r3, r3\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{6});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{26});
    CHECK(rec.issue_cycles(0, 3) == std::vector<uint64_t>{46});
    CHECK(r.stats.stall_cycles[int(StallReason::Wait)] == 5);  // the fmul's result, handoff included
    c.pipes.sfu.handoff = 0;
    Recorder plain;
    run(one_warp("fmul r1, r0, r0\nsin r2, r1\n"), c, {true, &plain, {}});
    CHECK(plain.issue_cycles(0, 1) == std::vector<uint64_t>{4});
}

TEST_CASE("timing: integer divisions are bound by their MUFU-class instructions on the SFU", "[timing]") {
    GpuConfig c = small_config();  // sfu interval 8, 16 issue slots per division
    c.sm.sub_partitions = 1;
    c.pipes.int_div_mufu_instructions = 3;
    Recorder rec;
    // Two warps, one udiv each: warp 0's at 0 holds the scheduler 16 slots and the SFU
    // 3 x 8 = 24 cycles; warp 1's issues at 24 (not_selected at 0, then mio_throttle while the
    // SFU is busy, 1 to 24: the MUFU queue).
    auto r = run(".kernel t\n.grid 1\n.block 64\n.regs 4\nudiv r1, r2, 3\nexit\n", c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 0) == std::vector<uint64_t>{0});
    CHECK(rec.issue_cycles(1, 0) == std::vector<uint64_t>{24});
    CHECK(r.stats.stall_cycles[int(StallReason::MioThrottle)] == 23);
    CHECK(r.stats.pipes[int(isa::Pipe::Sfu)].busy_cycles == 2 * 24);
    CHECK(r.stats.pipes[int(isa::Pipe::Alu)].issued == 0);
}

TEST_CASE("timing: a division whose divisor was ready early costs only the dividend's part", "[timing]") {
    GpuConfig c = small_config();  // alu latency 4, 16 issue slots and latency 100 per division
    c.pipes.int_div_dividend_latency = 30;
    c.pipes.int_div_mufu_instructions = 1;
    Recorder rec;
    // mov r2 at 0 (ready at 4). udiv 1 issues at 4: max(4 + 30, 4 + 100) = 104 (the reciprocal of a
    // divisor that just arrived). udiv 2, on udiv 1's result: max(104 + 30, 4 + 100) = 134. udiv 3
    // divides by an immediate: 134 + 100. The iadd reads it at 234.
    run(one_warp("mov r2, 7\nudiv r1, r0, r2\nudiv r3, r1, r2\nudiv r4, r3, 5\niadd r5, r4, 1\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{4});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{104});
    CHECK(rec.issue_cycles(0, 3) == std::vector<uint64_t>{134});
    CHECK(rec.issue_cycles(0, 4) == std::vector<uint64_t>{234});
    c.pipes.int_div_dividend_latency = 0;  // off: every division costs its whole latency
    Recorder off;
    run(one_warp("mov r2, 7\nudiv r1, r0, r2\nudiv r3, r1, r2\n"), c, {true, &off, {}});
    CHECK(off.issue_cycles(0, 2) == std::vector<uint64_t>{104});
}

TEST_CASE("timing: pipe classes share datapaths as the table says (FP32 on two, IMAD on one of them)", "[timing]") {
    GpuConfig c = small_config();
    const uint16_t heavy = 1u << 0, lite = 1u << 1;  // (bits of the small machine's own classes, reused as names)
    c.pipes.fma = {2, 4, 0, uint16_t(heavy | lite)};
    c.pipes.alu = {2, 4, 0, uint16_t(1u << 2)};
    c.pipes.imad = {2, 4, 0, heavy};
    c.pipes.iadd = {2, 4, 0, uint16_t(1u << 2)};
    c.pipes.sfu.datapaths = 1u << 3;
    Recorder rec;
    // FP32 alternates over both datapaths: one per cycle. Then imad takes heavy at 3 (until 5);
    // ffma at 4 takes lite (until 6); ffma at 5 takes heavy (free at 5, until 7); the next imad
    // needs heavy: at 7 (math_pipe_throttle 6..7).
    auto r = run(one_warp("ffma r1, r0, r0, r0\nffma r2, r0, r0, r0\nffma r3, r0, r0, r0\n"
                          "imad r4, r0, r0, r0\nffma r5, r0, r0, r0\nffma r6, r0, r0, r0\nimad r7, r0, r0, r0\n"),
                 c, {true, &rec, {}});
    std::vector<uint64_t> at;
    for (uint32_t pc = 0; pc < 7; ++pc) at.push_back(rec.issue_cycles(0, pc).at(0));
    CHECK(at == std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 7});
    CHECK(r.stats.stall_cycles[int(StallReason::MathPipeThrottle)] == 1);
    CHECK(r.stats.pipes[int(isa::Pipe::Imad)].issued == 2);
}

TEST_CASE("timing: a taken branch costs branch latency before its target issues", "[timing]") {
    GpuConfig c = small_config();
    Recorder rec;
    auto r = run(one_warp("bra next\nnop\nnext:\nnop\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{6});
    CHECK(rec.issue_cycles(0, 1).empty());
    CHECK(r.stats.stall_cycles[int(StallReason::BranchResolving)] == 5);
}

TEST_CASE("timing: a taken branch resolves, then fetches its target (pipes.branch_resolve_cycles)", "[timing]") {
    GpuConfig c = small_config();  // branch latency 6
    c.pipes.branch_resolve_cycles = 2;
    Recorder rec;
    auto r = run(one_warp("bra next\nnop\nnext:\nnop\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{6});  // the same time as without the split
    // Cycles 1..5 wait: cycle 1 resolving (the branch at 0 + 2), cycles 2..5 fetching (6 - 2 = 4).
    CHECK(r.stats.stall_cycles[int(StallReason::BranchResolving)] == 1);
    CHECK(r.stats.stall_cycles[int(StallReason::NoInstruction)] == 4);
}

TEST_CASE("timing: with branch stall counts a branch waits for the warp's fixed-latency results", "[timing]") {
    GpuConfig c = small_config();  // fma latency 4, branch latency 6
    const std::string src = one_warp("ffma r1, r0, r0, r0\nbra next\nnop\nnext:\nnop\n");
    Recorder off;
    run(src, c, {true, &off, {}});
    CHECK(off.issue_cycles(0, 1) == std::vector<uint64_t>{1});   // bra reads nothing the ffma writes
    CHECK(off.issue_cycles(0, 3) == std::vector<uint64_t>{7});
    c.pipes.branch_waits_fixed = true;
    Recorder on;
    auto r = run(src, c, {true, &on, {}});
    CHECK(on.issue_cycles(0, 1) == std::vector<uint64_t>{4});    // the ffma's result is written at 4
    CHECK(on.issue_cycles(0, 3) == std::vector<uint64_t>{10});
    CHECK(r.stats.stall_cycles[int(StallReason::Wait)] == 3);
}

TEST_CASE("timing: the ALU pipe of interval 2 takes an instruction every other cycle", "[timing]") {
    GpuConfig c = small_config();
    Recorder rec;
    run(one_warp("iadd r1, r0, 1\niadd r2, r0, 1\niadd r3, r0, 1\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 0) == std::vector<uint64_t>{0});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{2});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{4});
}
