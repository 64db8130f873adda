// test_timing_read_ports.cpp: register-bank read ports over time (sim/timing/read_ports.hpp).
//
// Two banks (bank = reg % 2), one read port each. Worked by hand: a read takes
// its port for one cycle, starts no earlier than its register is ready (with
// read-ahead: no earlier than `early`; without: at the issue cycle t), and the
// operands are on time when the last read ends by t + 1.
#include "test_timing_util.hpp"

#include "sim/timing/read_ports.hpp"

#include <catch2/catch.hpp>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

BankReads reads(std::initializer_list<uint16_t> regs) {  // two banks
    BankReads r;
    for (uint16_t g : regs) {
        r.bank[r.n] = uint8_t(g % 2);
        for (uint32_t j = 0; j < r.n; ++j) r.distinct &= r.bank[j] != r.bank[r.n];
        r.slot[r.n] = scoreboard_slot(g);
        r.reg[r.n++] = g;
    }
    return r;
}

}  // namespace

TEST_CASE("read ports: a conflict hides behind a dependence, queues behind the issue, then holds", "[timing]") {
    GpuConfig::RegFile spec{true, 2, 1, true, 1, true};  // read queue 1, read-ahead
    ReadPorts ports(spec);
    Scoreboard sb;
    sb.reset();
    sb.set(scoreboard_slot(4), 10, StallReason::Wait, isa::Pipe::Fma);  // r4 comes from a producer at 10
    // r2, r6 ready long ago: read at 8 and 9 while the warp waits; r4 at 10. On time.
    auto a = ports.schedule(reads({2, 4, 6}), sb, 8, 10);
    CHECK(a.own == 0);
    CHECK(a.hold == 0);
    CHECK(a.late == 0);
    // Issued back to back at 11: r8 at 11, r10 at 12 -> one cycle late (its own conflict),
    // within the queue: the scheduler is not held, the result comes 1 cycle late.
    auto b = ports.schedule(reads({8, 10}), sb, 11, 11);
    CHECK(b.own == 1);
    CHECK(b.hold == 0);
    CHECK(b.late == 1);
    // At 12 bank 0 is busy until 13: r12 at 13, r14 at 14 -> 2 behind, 1 past the queue:
    // the scheduler is held 1 cycle, which covers its own extra cycle.
    auto c = ports.schedule(reads({12, 14}), sb, 12, 12);
    CHECK(c.own == 1);
    CHECK(c.hold == 1);
    CHECK(c.late == 0);
    // Bank 1 is idle: another warp's read there is on time.
    auto d = ports.schedule(reads({1}), sb, 12, 12);
    CHECK(d.own + d.hold + d.late == 0);

    // Without read-ahead and queue (the plain model) the first instruction reads
    // r2, r4, r6 at 10, 11, 12: 2 extra cycles, all holding the scheduler.
    GpuConfig::RegFile plain{true, 2, 1, true, 0, false};
    ReadPorts held(plain);
    auto e = held.schedule(reads({2, 4, 6}), sb, 8, 10);
    CHECK(e.own == 2);
    CHECK(e.hold == 2);
    CHECK(e.late == 0);
    // Two ports per bank: r2, r4, r6 at 10, 10, 11.
    GpuConfig::RegFile two{true, 2, 2, true, 0, false};
    ReadPorts wide(two);
    CHECK(wide.schedule(reads({2, 4, 6}), sb, 8, 10).hold == 1);
}

TEST_CASE("timing: a dependent chain with a bank conflict, read ahead, queued or held", "[timing]") {
    // One warp, n x `ffma r0, r2, r4, r0`: with the reuse cache off every FFMA reads
    // r2, r4 and r0, all in bank 0: 3 reads of one port.
    GpuConfig c = small_config();
    c.regfile = {true, 2, 1, false, 0, false};
    const int n = 20;
    const std::string src = ".kernel t\n.grid 1\n.block 32\n.regs 8\n" + repeat("ffma r0, r2, r4, r0", n) + "exit\n";
    // Plain model: each FFMA holds the scheduler 2 cycles, then 4 to its result: 6 per FFMA.
    auto held = run(src, c);
    CHECK(held.stats.cycles == uint64_t(6 * (n - 1) + 2 + 2));
    CHECK(held.stats.stall_cycles[int(StallReason::DispatchStall)] == uint64_t(2 * n));
    CHECK(held.stats.regfile.bank_hold_cycles == uint64_t(2 * n));
    // A read queue of 3: no hold, but the result is 2 cycles late: still 6 per FFMA.
    c.regfile.read_queue_cycles = 3;
    auto queued = run(src, c);
    CHECK(queued.stats.cycles == uint64_t(6 * (n - 1) + 2));
    CHECK(queued.stats.stall_cycles[int(StallReason::DispatchStall)] == 0);
    CHECK(queued.stats.regfile.bank_conflict_cycles == uint64_t(2 * n));
    // Read-ahead: r2 and r4 are read in the 3 cycles the warp waits for r0: 4 per FFMA,
    // as without banks (only the first FFMA, issued at its warp's first cycle, conflicts).
    c.regfile.read_ahead = true;
    auto ahead = run(src, c);
    CHECK(ahead.stats.cycles == uint64_t(4 * (n - 1) + 2 + 2));
    CHECK(ahead.stats.regfile.bank_conflict_cycles == 2);
}
