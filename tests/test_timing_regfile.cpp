// test_timing_regfile.cpp: register-bank conflicts and the operand reuse cache.
//
// small_config with regfile.model_banks on: 2 banks (bank = reg % 2), one read
// per bank per cycle. 64 warps on one SM = 16 per scheduler, so latency never
// limits and the scheduler's issue slots do.
#include "test_timing_util.hpp"

#include "sim/timing/regfile.hpp"

#include <catch2/catch.hpp>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

std::string sixteen_per_scheduler(const std::string& body) {
    return ".kernel t\n.grid 2\n.block 1024\n.regs 16\n" + body + "exit\n";
}

}  // namespace

TEST_CASE("timing: dependent FFMAs whose three sources share a bank cannot reach 1 IPC per scheduler", "[timing]") {
    GpuConfig c = small_config();
    // Sources r2, r4, r6 / r8, r10, r0: all in bank 0, no operand slot repeats
    // a register of the previous instruction -> 3 reads of one bank -> 2 extra cycles.
    std::string colliding = sixteen_per_scheduler(repeat("ffma r0, r2, r4, r6\nffma r6, r8, r10, r0", 50));
    c.regfile.model_banks = false;
    auto off = run(colliding, c);
    c.regfile.model_banks = true;
    auto on = run(colliding, c);
    CHECK(off.stats.cycles == 16 * 101);
    CHECK(off.stats.ipc == 4.0);
    CHECK(on.stats.regfile.bank_conflict_cycles == 64 * 100 * 2);
    CHECK(on.stats.stall_cycles[int(StallReason::DispatchStall)] == 64 * 100 * 2);
    CHECK(on.stats.ipc / 4 < 0.34);
    CHECK(on.stats.cycles >= 16 * 100 * 3);

    // Registers in alternating banks: r1 (bank 1), r2 (bank 0), r3 (bank 1) -> one extra cycle.
    auto mixed = run(sixteen_per_scheduler(repeat("ffma r0, r1, r2, r3\nffma r3, r5, r4, r0", 50)), c);
    CHECK(mixed.stats.regfile.bank_conflict_cycles == 64 * 100);

    // The reuse cache belongs to the scheduler. Independent FFMAs with the same sources in the
    // same slots: gto keeps issuing one warp back to back, so after each warp's first FFMA
    // (r2, r4, r6 all in bank 0: 2 extra cycles) every source comes from the cache.
    auto reused = run(sixteen_per_scheduler(repeat("ffma r1, r2, r4, r6\nffma r3, r2, r4, r6\n"
                                                   "ffma r5, r2, r4, r6\nffma r7, r2, r4, r6", 25)), c);
    CHECK(reused.stats.regfile.bank_conflict_cycles == 64 * 2);
    CHECK(reused.stats.regfile.reuse_hits == 64 * 99 * 3);
    CHECK(reused.stats.cycles <= 16 * 101 + 16 * 2 + 16);       // about 1 IPC per scheduler

    // A dependent chain from 16 warps: each warp waits 4 cycles for its own result, so the
    // scheduler alternates warps and the cache never holds the issuing warp's operands
    // (as measured on the H200: dependent FFMAs reading one bank twice reach 0.50 issue/clk).
    auto chained = run(sixteen_per_scheduler(repeat("ffma r0, r2, r4, r0", 100)), c);
    CHECK(chained.stats.regfile.reuse_hits == 0);
    CHECK(chained.stats.regfile.bank_conflict_cycles == 64 * 100 * 2);  // r2, r4, r0: 3 reads of bank 0
    CHECK(chained.stats.ipc / 4 < 0.34);
}

TEST_CASE("timing: bank conflict cycles of one instruction", "[timing]") {
    GpuConfig::RegFile spec{true, 2, 1, true};
    RegFileStats st;
    auto p = isa::assemble_text(".grid 1\n.block 32\nffma r0, r2, r4, r6\nffma r0, r2, r5, r6\nffma r0, r2, r2, r2\n", "t.isa");
    auto code = decode_program(p);
    ReuseCache reuse;
    clear_reuse(reuse);
    CHECK(bank_conflict_cycles(code[0], reuse, spec, st) == 2);  // r2, r4, r6 in bank 0
    CHECK(bank_conflict_cycles(code[1], reuse, spec, st) == 0);  // r2, r6 reused; r5 alone in bank 1
    CHECK(bank_conflict_cycles(code[2], reuse, spec, st) == 0);  // r2 reused in slot 1; slots 2, 3 read r2 once
    spec.reuse_cache = false;
    clear_reuse(reuse);
    CHECK(bank_conflict_cycles(code[1], reuse, spec, st) == 1);  // r2, r6 in bank 0
    spec.reads_per_bank = 2;
    CHECK(bank_conflict_cycles(code[0], reuse, spec, st) == 1);  // 3 reads, 2 per cycle
    spec.model_banks = false;
    CHECK(bank_conflict_cycles(code[0], reuse, spec, st) == 0);
}
