// test_timing_memory.cpp: coalescing, the cache hierarchy, DRAM, shared and
// constant memory, atomics, the outstanding-request limit and drain, at exact
// cycles on small_config (L1 hit 30, L2 hit 200, DRAM 500, 64 B/cycle,
// shared 20, const 10, atomic +20; `mov` is an ALU op of latency 4, so the
// first memory instruction after it issues at cycle 4).
#include "test_timing_util.hpp"

#include "sim/timing/memory/coalescer.hpp"

#include <catch2/catch.hpp>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

std::string kernel(const std::string& decls, const std::string& body, int threads = 32, int blocks = 1) {
    return ".kernel t\n.grid " + std::to_string(blocks) + "\n.block " + std::to_string(threads) +
           "\n.regs 16\n" + decls + "mov r0, %laneid\n" + body + "exit\n";
}

}  // namespace

TEST_CASE("timing: a load missing L1 and L2 costs the DRAM latency, L1 and L2 hits theirs", "[timing]") {
    GpuConfig c = small_config();
    Recorder rec;
    auto r = run(kernel(".buffer a f32 1024 zero\n",
                        "ld.global r1, [a + r0*4]\n"   // pc1 at 4: misses both -> data at 504
                        "fadd r2, r1, r1\n"            // pc2 at 504
                        "ld.global r3, [a + r0*4]\n"   // pc3 at 505: L1 hit -> 535
                        "fadd r4, r3, r3\n"),          // pc4 at 535
                 c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{4});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{504});
    CHECK(rec.issue_cycles(0, 4) == std::vector<uint64_t>{535});
    const MemoryStats& m = r.stats.memory;
    CHECK(m.l1_miss_sectors == 4);
    CHECK(m.l1_hit_sectors == 4);
    CHECK(m.l2_miss_sectors == 4);
    CHECK(m.dram_read_bytes == 128);
    CHECK(r.stats.stall_cycles[int(StallReason::LongScoreboard)] == 499 + 29);

    // A stored line is in L2 (write-allocate there, not in L1): the load hits L2.
    Recorder rec2;
    auto r2 = run(kernel(".buffer a f32 1024 zero\n",
                         "st.global [a + r0*4], r0\n"  // pc1 at 4, acked at 204
                         "ld.global r1, [a + r0*4]\n"  // pc2 at 5: L1 miss, L2 hit -> 205
                         "fadd r2, r1, r1\n"),         // pc3 at 205
                  c, {true, &rec2, {}});
    CHECK(rec2.issue_cycles(0, 3) == std::vector<uint64_t>{205});
    // The store's 4 sectors count as L2 hits too (Nsight Compute's write look-ups: a whole
    // sector needs nothing from DRAM), then the load's 4.
    CHECK(r2.stats.memory.l2_hit_sectors == 8);
    CHECK(r2.stats.memory.l2_miss_sectors == 0);
    CHECK(r2.stats.memory.global_store.requests == 1);
    // The L1 look-ups count the store's sectors as Nsight Compute's l1tex__t_sector_hit_rate does:
    // here 4 store misses (the line is not in L1) and 4 load misses.
    CHECK(r2.stats.memory.l1_miss_sectors == 8);
    CHECK(r2.stats.memory.l1_hit_sectors == 0);

    // y = a x + y's pattern (saxpy: ncu 33 % L1 hits, the store hitting what a load brought): a store
    // to a line a load brought in hits it, and leaves the timing as it was.
    auto r3 = run(kernel(".buffer a f32 1024 zero\n",
                         "ld.global r1, [a + r0*4]\n"
                         "fadd r2, r1, r1\n"
                         "st.global [a + r0*4], r2\n"),
                  c);
    CHECK(r3.stats.memory.l1_miss_sectors == 4);
    CHECK(r3.stats.memory.l1_hit_sectors == 4);
    CHECK(r3.stats.memory.l1_hit_rate() == 0.5);
}

TEST_CASE("timing: with l1_global_store_allocate a store's line takes the L1, a byte-masked sector only for later stores",
          "[timing]") {
    GpuConfig c = small_config();
    c.memory.l1_global_store_allocate = true;
    // Whole sectors: the load after the store hits the L1 (30) instead of the L2 (200).
    Recorder rec;
    auto whole = run(kernel(".buffer a f32 1024 zero\n",
                            "st.global [a + r0*4], r0\n"   // pc1 at 4: 4 whole sectors, written into the L1
                            "ld.global r1, [a + r0*4]\n"   // pc2 at 5: L1 hit -> 35
                            "fadd r2, r1, r1\n"),          // pc3 at 35
                     c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 3) == std::vector<uint64_t>{35});
    CHECK(whole.stats.memory.l1_hit_sectors == 4);   // the load's
    CHECK(whole.stats.memory.l1_miss_sectors == 4);  // the store's
    // Lane 0 alone stores 4 B twice into one sector (byte-masked): the second store hits the line the
    // first entered; the load of the sector still misses the L1 (its other bytes are not there).
    Recorder rec2;
    auto masked = run(kernel(".buffer a f32 1024 zero\n",
                             "isetp.eq p0, r0, 0\n"
                             "@p0 st.global [a + r0*4], r0\n"
                             "@p0 st.global [a + r0*4 + 4], r0\n"
                             "@p0 ld.global r1, [a + r0*4]\n"
                             "@p0 fadd r2, r1, r1\n"),
                      c, {true, &rec2, {}});
    CHECK(masked.stats.memory.l1_miss_sectors == 2);  // the first store's and the load's
    CHECK(masked.stats.memory.l1_hit_sectors == 1);   // the second store's
    CHECK(masked.stats.memory.l2_hit_sectors >= 1);   // the load went on to the L2
}

TEST_CASE("timing: 32 consecutive floats are 4 sectors, a stride of 32 floats is 32", "[timing]") {
    GpuConfig c = small_config();
    auto unit = run(kernel(".buffer a f32 1024 zero\n", "ld.global r1, [a + r0*4]\n"), c);
    CHECK(unit.stats.memory.global_load.requests == 1);
    CHECK(unit.stats.memory.global_load.sectors == 4);
    CHECK(unit.stats.memory.global_load.sectors_per_request() == 4.0);
    auto strided = run(kernel(".buffer a f32 1024 zero\n", "shl r2, r0, 7\nld.global r1, [a + r2]\n"), c);
    CHECK(strided.stats.memory.global_load.sectors == 32);
    CHECK(strided.stats.memory.l1_wavefronts == 8);
    // 16-byte loads of consecutive float4: 512 bytes = 16 sectors.
    auto v4 = run(kernel(".buffer a f32 1024 zero\n", "ld.global.v4 r4, [a + r0*16]\n"), c);
    CHECK(v4.stats.memory.global_load.sectors == 16);
}

TEST_CASE("timing: the coalescer counts distinct sectors of the executing lanes", "[timing]") {
    LaneAddrs a{};
    for (int i = 0; i < 32; ++i) a[i] = 0x1000'0000ull + uint64_t(31 - i) * 4;  // reversed order
    SectorList s;
    coalesce(0xffffffffu, a, 4, 32, s);
    CHECK(s.count == 4);
    coalesce(0x0000000fu, a, 4, 32, s);  // lanes 0..3: the last 16 bytes
    CHECK(s.count == 1);
    coalesce(0, a, 4, 32, s);
    CHECK(s.count == 0);
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(i) * 8;  // 2-way bank conflict
    CHECK(shared_wavefronts(0xffffffffu, a, 4, 32) == 2);
    for (int i = 0; i < 32; ++i) a[i] = 64;  // broadcast
    CHECK(shared_wavefronts(0xffffffffu, a, 4, 32) == 1);
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(i) * 16;  // consecutive 16-byte accesses
    CHECK(shared_wavefronts(0xffffffffu, a, 16, 32) == 4);
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(i) * 128;  // all in bank 0
    CHECK(shared_wavefronts(0xffffffffu, a, 4, 32) == 32);
}

TEST_CASE("timing: a wide shared access returns 128 B a wavefront and half when lane pairs share addresses", "[timing]") {
    LaneAddrs a{};
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(i / 16) * 64;  // two addresses a warp (sgemm_tile's As row)
    CHECK(shared_wavefronts(0xffffffffu, a, 16, 32) == 1);    // the banks alone: 8 words, 8 banks
    CHECK(return_wavefronts(0xffffffffu, a, 16, 128) == 2);   // 4 registers, packed in pairs
    CHECK(return_wavefronts(0xffffffffu, a, 8, 128) == 1);    // LDS.64: 2, packed
    CHECK(return_wavefronts(0xffffffffu, a, 4, 128) == 1);
    CHECK(return_wavefronts(0xffffffffu, a, 16, 0) == 1);     // off
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(i % 4) * 16;  // lane pairs differ (the forum's case)
    CHECK(return_wavefronts(0xffffffffu, a, 16, 128) == 4);
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(i / 4) * 16;  // lanes 4k..4k+3 share: pairs (n, n ^ 2) too
    CHECK(return_wavefronts(0xffffffffu, a, 16, 128) == 2);
    a[3] = 1024;                                               // one pair (2, 3) breaks (n, n ^ 1) and (1, 3) (n, n ^ 2)
    CHECK(return_wavefronts(0xffffffffu, a, 16, 128) == 4);
    CHECK(return_wavefronts(0x7u, a, 16, 128) == 2);           // without lane 3 the pairs share again
    CHECK(return_wavefronts(0, a, 16, 128) == 0);
}

TEST_CASE("timing: a 2-way shared-memory bank conflict doubles the access", "[timing]") {
    GpuConfig c = small_config();
    // Latency: one wavefront -> 20 cycles, two -> 21.
    for (int stride : {4, 8}) {
        Recorder rec;
        auto r = run(kernel(".shared 1024\n", "ld.shared r1, [r0*" + std::to_string(stride) + "]\nfadd r2, r1, r1\n"),
                     c, {true, &rec, {}});
        uint64_t wavefronts = stride == 4 ? 1 : 2;
        CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{4 + 20 + wavefronts - 1});
        CHECK(r.stats.memory.shared_wavefronts == wavefronts);
        CHECK(r.stats.memory.shared_bank_conflicts == wavefronts - 1);
    }
    // Throughput: 32 warps x 64 shared loads through the SM's MIO stage, which
    // takes one wavefront per cycle.
    std::string body;
    for (int i = 0; i < 64; ++i) body += "ld.shared r" + std::to_string(2 + i % 8) + ", [r1]\n";
    auto plain = run(kernel(".shared 1024\n", "shl r1, r0, 2\n" + body, 1024), c);
    auto conflict = run(kernel(".shared 1024\n", "shl r1, r0, 3\n" + body, 1024), c);
    CHECK(plain.stats.memory.shared_wavefronts == 32 * 64);
    CHECK(conflict.stats.memory.shared_wavefronts == 2 * 32 * 64);
    CHECK(conflict.stats.memory.shared_bank_conflicts == 32 * 64);
    // 2048 vs 4096 cycles of MIO work, plus a start and a tail under 100 cycles.
    CHECK(plain.stats.cycles >= 2048);
    CHECK(plain.stats.cycles < 2048 + 100);
    CHECK(conflict.stats.cycles >= 4096);
    CHECK(conflict.stats.cycles < 4096 + 100);
    CHECK(conflict.stats.stall_cycles[int(StallReason::MioThrottle)] > 0);
}

// memory.shared_conflict_latency: each wavefront of a load after its first adds that many cycles
// to its result (the H200: 21 + 2 W, calib/kernels/shbank.cu), while the MIO stage still takes
// one wavefront a cycle.
TEST_CASE("timing: each extra wavefront of a conflicted shared load adds shared_conflict_latency", "[timing]") {
    GpuConfig c = small_config();  // shared_latency 20
    for (uint32_t per : {0u, 1u, 2u})
        for (int shift : {2, 7}) {  // 4 B apart: 1 wavefront; 128 B apart: 32 (every lane in bank 0)
            c.memory.shared_conflict_latency = per;
            Recorder rec;
            run(kernel(".shared 4096\n", "shl r3, r0, " + std::to_string(shift) + "\nld.shared r1, [r3]\nfadd r2, r1, r1\n"),
                c, {true, &rec, {}});
            const uint64_t wavefronts = shift == 2 ? 1 : 32;
            INFO("per " << per << ", " << wavefronts << " wavefronts");
            const uint64_t load = rec.issue_cycles(0, 2).at(0);
            CHECK(rec.issue_cycles(0, 3) == std::vector<uint64_t>{load + 20 + (wavefronts - 1) * per});
        }
}

// sm.unit_arbitration: four warps, one per sub-partition, each issue 8 shared loads with a
// 32-way bank conflict (every lane in bank 0), so each holds the SM's MIO stage for 32 cycles.
// fixed: sub-partition 0 is ticked first, so when the stage frees its warp takes it again: warp
// w's first load waits for all 8 of each warp before it (256 w cycles). round_robin: the
// sub-partition after the last one served goes first, so the warps take turns (32 w cycles).
TEST_CASE("timing: the SM's shared units serve the sub-partitions in turn with round_robin", "[timing]") {
    GpuConfig c = small_config();
    std::string body = "shl r1, r0, 7\n";
    for (int i = 0; i < 8; ++i) body += "ld.shared r" + std::to_string(2 + i) + ", [r1]\n";
    const std::string src = kernel(".shared 4096\n", body, 128);
    for (auto [arb, step] : {std::pair{UnitArbitration::Fixed, 256u}, std::pair{UnitArbitration::RoundRobin, 32u}}) {
        c.sm.unit_arbitration = arb;
        Recorder rec;
        auto r = run(src, c, {true, &rec, {}});
        const uint64_t first = rec.issue_cycles(0, 2).at(0);
        for (uint64_t w = 0; w < 4; ++w) {
            CHECK(rec.issue_cycles(w, 2).at(0) == first + step * w);  // its first load
            // its last: after its own 7 others (fixed) or after 7 rounds of all four (round robin)
            CHECK(rec.issue_cycles(w, 9).at(0) == first + step * w + (arb == UnitArbitration::Fixed ? 7 * 32 : 7 * 128));
        }
        CHECK(r.stats.memory.shared_wavefronts == 4 * 8 * 32);
    }
}

namespace {

// Two warps' 4 unit instructions each (at pcs 2..5) by issue cycle: (warp, instruction), and the
// cycles from the first to the last issue.
using Order = std::vector<std::pair<uint64_t, int>>;
Order unit_order(const std::string& src, const GpuConfig& c, uint64_t* span = nullptr) {
    Recorder rec;
    run(src, c, {true, &rec, {}});
    std::map<uint64_t, std::pair<uint64_t, int>> by_cycle;
    for (uint64_t w = 0; w < 2; ++w)
        for (int k = 0; k < 4; ++k) by_cycle[rec.issue_cycles(w, uint32_t(2 + k)).at(0)] = {w, k};
    Order got;
    for (const auto& [cycle, wk] : by_cycle) got.push_back(wk);
    if (span) *span = by_cycle.rbegin()->first - by_cycle.begin()->first;
    return got;
}

// gto keeps the greedy warp 0 until it is done; first come, first served interleaves them.
const Order kPolicyOrder = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 0}, {1, 1}, {1, 2}, {1, 3}};
const Order kArrivalOrder = {{0, 0}, {0, 1}, {1, 0}, {0, 2}, {1, 1}, {0, 3}, {1, 2}, {1, 3}};

}  // namespace

// scheduler.lg_order: two warps on one scheduler (gto), each with 4 loads of its own lines, and
// room for one L1TEX request at a time (max_outstanding_per_sm 1), so each load waits for the one
// before to complete. Warp 1 issues one cycle behind warp 0, so warp 0 comes to its second load
// (the cycle after its first issues) before warp 1 comes to its first. policy: whenever the
// request completes, gto keeps the greedy warp 0 until it is done. arrival: the warp that came
// first goes first: w0 l0, w0 l1, w1 l0, w0 l2, w1 l1, w0 l3, w1 l2, w1 l3.
TEST_CASE("timing: with lg_order arrival the warps waiting for L1TEX go first come, first served", "[timing]") {
    GpuConfig c = small_config();
    c.sm.sub_partitions = 1;
    c.memory.max_outstanding_per_sm = 1;
    std::string body = "mov r5, %tid.x\n";
    for (int k = 0; k < 4; ++k)
        body += "ld.global r" + std::to_string(1 + k) + ", [a + r5*4 + " + std::to_string(512 * k) + "]\n";
    const std::string src = kernel(".buffer a f32 4096 zero\n", body, 64);
    for (bool on : {false, true}) {
        c.scheduler.lg_arrival_order = on;
        INFO("arrival " << on);
        CHECK(unit_order(src, c) == (on ? kArrivalOrder : kPolicyOrder));
    }
}

// scheduler.mio_order: the same two warps, each with 4 shared loads whose 32-way bank conflict holds
// the SM's MIO stage for 32 cycles, so each waits for the one before. Warp 0 comes to its second load
// in the cycle warp 1 comes to its first (the lower slot goes first then), and the orders are those
// above.
TEST_CASE("timing: with mio_order arrival the warps waiting for the MIO go first come, first served", "[timing]") {
    GpuConfig c = small_config();
    c.sm.sub_partitions = 1;
    std::string body = "shl r5, r0, 7\n";
    for (int k = 0; k < 4; ++k) body += "ld.shared r" + std::to_string(1 + k) + ", [r5]\n";
    const std::string src = kernel(".shared 4096\n", body, 64);
    for (bool on : {false, true}) {
        c.scheduler.mio_arrival_order = on;
        c.scheduler.lg_arrival_order = !on;  // (L1TEX's order does not touch shared loads)
        INFO("arrival " << on);
        uint64_t span = 0;
        CHECK(unit_order(src, c, &span) == (on ? kArrivalOrder : kPolicyOrder));
        CHECK(span == 7 * 32);  // the stage never idles
    }
}

TEST_CASE("timing: constant loads serialise over distinct addresses", "[timing]") {
    GpuConfig c = small_config();
    Recorder same, spread;
    // [k + 8] reads no register: it issues at 1, right after the mov.
    run(kernel(".buffer k u32 64 iota\n", "ld.const r1, [k + 8]\niadd r2, r1, 1\n"), c, {true, &same, {}});
    run(kernel(".buffer k u32 64 iota\n", "ld.const r1, [k + r0*4]\niadd r2, r1, 1\n"), c, {true, &spread, {}});
    CHECK(same.issue_cycles(0, 2) == std::vector<uint64_t>{1 + 10});
    CHECK(spread.issue_cycles(0, 2) == std::vector<uint64_t>{4 + 10 + 31});
}

TEST_CASE("timing: global atomics execute at the L2", "[timing]") {
    GpuConfig c = small_config();
    Recorder rec;
    auto r = run(kernel(".buffer n u32 1 zero\n", "atom.global.add r1, [n], 1\niadd r2, r1, 1\n"), c,
                 {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{1 + 500 + 20});  // [n] needs no register: issues at 1
    CHECK(r.stats.memory.global_atomic.requests == 1);
    CHECK(r.stats.memory.global_atomic.sectors == 1);
    // 32 warps (8 per scheduler) hit one counter in the same cycle: one per cycle at the L2.
    Recorder many;
    run(kernel(".buffer n u32 1 zero\n", "atom.global.add r1, [n], 1\niadd r2, r1, 1\n", 1024), c,
        {true, &many, {}});
    uint64_t last = 0;
    for (const auto& e : many.issues)
        if (e.pc == 1) last = std::max(last, e.complete);
    CHECK(last >= 1 + 500 + 20 + 31);
}

TEST_CASE("timing: a store does not block the warp, but its exit drains until the store completes", "[timing]") {
    GpuConfig c = small_config();
    Recorder rec;
    // st at 4 (ack at 204), exit at 5, drain [6, 204), retire at 204.
    auto r = run(kernel(".buffer a f32 1024 zero\n", "st.global [a + r0*4], r0\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{5});
    CHECK(r.stats.cycles == 204);
    CHECK(r.stats.stall_cycles[int(StallReason::Drain)] == 204 - 6);
}

TEST_CASE("timing: the outstanding-request limit throttles global loads (lg_throttle)", "[timing]") {
    GpuConfig c = small_config();
    c.memory.max_outstanding_per_sm = 2;
    Recorder rec;
    // Three loads of different lines: the third waits for the first (back at 504).
    auto r = run(kernel(".buffer a f32 4096 zero\n",
                        "ld.global r1, [a + r0*4]\nld.global r2, [a + r0*4 + 1024]\nld.global r3, [a + r0*4 + 2048]\n"),
                 c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{4});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{5});
    CHECK(rec.issue_cycles(0, 3) == std::vector<uint64_t>{504});
    CHECK(r.stats.stall_cycles[int(StallReason::LgThrottle)] == 504 - 6);
}

TEST_CASE("timing: a streaming kernel is bound by DRAM bandwidth", "[timing]") {
    GpuConfig c = small_config();
    c.sm.count = 4;
    c.memory.max_outstanding_per_sm = 256;
    // 16384 threads each load 8 floats from distinct lines: 512 KB at 64 B/cycle = 8192 cycles.
    std::string body = "imad r1, %ctaid.x, %ntid.x, %tid.x\n";
    for (int k = 0; k < 8; ++k)
        body += "ld.global r" + std::to_string(2 + k) + ", [a + r1*4 + " + std::to_string(k * 65536) + "]\n";
    auto r = run(kernel(".buffer a f32 131072 zero\n", body, 256, 64), c);
    CHECK(r.stats.memory.dram_read_bytes == 524288);
    CHECK(r.stats.cycles >= 8192);
    CHECK(r.stats.cycles < 8192 + 8192 / 8 + 500);
}

TEST_CASE("timing: a warm launch leaves the L2 to the timed one, the L1 starts empty", "[timing]") {
    GpuConfig c = small_config();
    // Each lane reads one word of a 4 KB buffer twice: through L2 (.cg), then through L1.
    const std::string src =
        ".kernel w\n.grid 1\n.block 32\n.regs 8\n.buffer a u32 1024 zero\n"
        "mov r1, %tid.x\nshl r1, r1, 5\nld.global.cg r2, [a + r1*4]\niadd r3, r2, 0\n"
        "ld.global r4, [a + r1*4]\niadd r5, r4, r3\nexit\n";
    RunOptions cold, warm;
    warm.warm_launches = 1;
    const RunResult a = run(src, c, cold), b = run(src, c, warm);
    CHECK(a.stats.warm_launches == 0);
    CHECK(b.stats.warm_launches == 1);
    // Cold: the .cg load misses to DRAM (500) and fills L2, the second load misses L1 and hits L2.
    // Warm: the .cg load hits L2 (200); the second load still misses the (empty) L1.
    CHECK(a.stats.cycles - b.stats.cycles == 300);
    CHECK(b.stats.memory.l2_hit_rate() == 1.0);
    CHECK(b.stats.memory.l1_hit_sectors == 0);
    CHECK(b.stats.memory.dram_read_bytes == 0);
}
