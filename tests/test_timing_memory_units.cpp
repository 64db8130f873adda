// test_timing_memory_units.cpp: the memory path's units (sim/timing/memory/) at exact
// cycles: L2 slice and crossbar throughput, DRAM queueing and its M/D/1 load term,
// the L2 atomic units and shared-memory atomics, partial-sector stores, the L1/shared
// carve-out, the block-linear texture layout and the TEX stage, and the L2 hit rate of
// a cold stream with 64 B DRAM fetches.
//
// On small_config (test_timing_util.hpp: L1 hit 30, L2 hit 200, DRAM 500 at 64 B per
// cycle, 32 B DRAM fetches, atomics +20, shared 20; mov and shl are ALU ops of latency
// 4 and interval 2). Each case switches on only the unit it checks.
#include "test_timing_util.hpp"

#include "sim/timing/memory/atomic_unit.hpp"
#include "sim/timing/memory/carveout.hpp"
#include "sim/timing/memory/coalescer.hpp"
#include "sim/timing/memory/crossbar.hpp"
#include "sim/timing/memory/dram.hpp"
#include "sim/timing/memory/gap_server.hpp"
#include "sim/timing/memory/server.hpp"
#include "sim/timing/memory/l2.hpp"
#include "sim/timing/memory/texture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

// Two warps (one per scheduler) each load 32 floats 128 B apart: 32 lines, 32 sectors.
// mov at 0, shl at 4, ld at 8; warp 1's ld waits for the tag stage (8 wavefronts) until 16.
const char* kGather =
    ".kernel gather\n.grid 1\n.block 64\n.regs 8\n.buffer a f32 4096 zero\n"
    "mov r0, %tid.x\nshl r2, r0, 7\nld.global r1, [a + r2]\nfadd r3, r1, r1\nexit\n";

uint64_t fadd_cycle(const Recorder& rec, uint64_t warp) { return rec.issue_cycles(warp, 3).at(0); }

}  // namespace

TEST_CASE("memory units: a busy L2 slice delays the next request by its backlog", "[timing][memory]") {
    GpuConfig c = small_config();
    Recorder plain;
    run(kGather, c, {true, &plain, {}});
    // Warp 0: data at 8 + 500. Warp 1 at 16: DRAM moved warp 0's 32 pieces of 32 B in
    // 16 cycles (free at 24), so it waits 8: 16 + 8 + 500.
    CHECK(fadd_cycle(plain, 0) == 508);
    CHECK(fadd_cycle(plain, 1) == 524);

    c.memory.l2_slices.sectors_per_cycle = 1;  // one slice taking a sector per cycle
    Recorder sliced;
    auto r = run(kGather, c, {true, &sliced, {}});
    // Warp 0's 32 sectors occupy the slice until 8 + 32 = 40: warp 1 (at 16) waits 24 there,
    // then finds DRAM free: 40 + 500.
    CHECK(fadd_cycle(sliced, 0) == 508);
    CHECK(fadd_cycle(sliced, 1) == 540);
    CHECK(r.stats.memory.l2_queue_cycles == 32 * 24);
}

TEST_CASE("memory units: an SM's crossbar port limits its sectors per cycle", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.crossbar.sm_sectors_per_cycle = 1;
    Recorder rec;
    auto r = run(kGather, c, {true, &rec, {}});
    CHECK(fadd_cycle(rec, 0) == 508);
    CHECK(fadd_cycle(rec, 1) == 540);  // the port is busy until 40
    CHECK(r.stats.memory.xbar_queue_cycles == 32 * 24);
}

TEST_CASE("memory units: L2 slices split the L2 and hash lines over all of them", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.l2_slices.count = 4;
    Crossbar x(c);
    std::vector<int> per_slice(4, 0);
    for (uint64_t line = 0; line < 400; ++line) {
        uint32_t s = x.slice_of(line);
        ++per_slice[s];
        CHECK(x.line_of(s, line / 4) == line);  // the slice's own index maps back
    }
    CHECK(per_slice == std::vector<int>{100, 100, 100, 100});  // each group of 4 lines uses every slice once
}

TEST_CASE("memory units: DRAM reads queue behind the channel's backlog", "[timing][memory]") {
    GpuConfig c = small_config();  // 64 B per cycle, one channel
    MemoryStats stats;
    Dram dram(c, stats);
    // Three requests of 4 x 32 B at cycle 0: each waits for the ones before (2 cycles each).
    for (uint64_t req = 1; req <= 3; ++req)
        for (int s = 0; s < 4; ++s) CHECK(dram.read(0, req * 4096 + s * 32, 32, req) == 500 + (req - 1) * 2);
    CHECK(stats.dram_queue_cycles == 4 * (0 + 2 + 4));
}

TEST_CASE("memory units: a DRAM channel serves work handed out of time order in its idle gaps", "[timing][memory]") {
    // The servers are handed work in issue order; a piece timed later must not hold back one
    // handed after it but timed earlier (gap_server.hpp).
    GapServer s;
    CHECK(s.occupy(1000, 10) == 1000);  // a write-back that waited in its slice until 1000
    CHECK(s.take(0, 1, 4) == 0);        // a read at 0: the channel is idle until 1000
    CHECK(s.take(2, 2, 4) == 2);        // behind it: starts at 4
    CHECK(s.occupy(997, 4) == 1010);    // does not fit before 1000: after the write-back
    CHECK(s.occupy(8, 3) == 8);         // fits the gap 8..11
    CHECK(s.last_end() == 1014);
    CHECK(s.busy == 25);
    // In time order it is a next-free-time server (RateServer).
    GapServer r;
    RateServer f;
    for (uint64_t t : {0, 0, 1, 7, 7, 30}) CHECK(r.take(t, t + 1, 3) == f.take(t, t + 1, 3));
    // A full list gives up its earliest gap: 40 disjoint pieces, then one that would fit the first gap.
    GapServer g;
    for (uint64_t i = 0; i < 40; ++i) g.occupy(10 * i, 1);
    CHECK(g.occupy(1, 1) > 1);
    CHECK(g.occupy(385, 1) == 385);  // a late gap is still there
}

TEST_CASE("memory units: opening a row chunk costs the channel time", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.dram.row_miss_bytes = 64;  // one cycle at 64 B per cycle
    c.memory.dram.interleave_bytes = 256;
    c.memory.dram.open_chunks = 16;
    MemoryStats stats;
    Dram dram(c, stats);
    CHECK(dram.read(0, 0, 64, 1) == 500);
    CHECK(dram.read(0, 64, 64, 2) == 502);   // chunk 0 open: waits 1 (opening) + 1 (64 B)
    CHECK(dram.read(0, 256, 64, 3) == 503);  // chunk 1: opened after those 3 cycles
    CHECK(stats.dram_row_misses == 2);
}

TEST_CASE("memory units: a dependent DRAM read waits longer as the channel's load rises (M/D/1)", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.dram.bank_service_cycles = 100;
    c.memory.dram.load_window_cycles = 1000;
    // One 64 B read costs the channel 1 cycle. Reads every 2 cycles load it to rho = 0.5
    // (the average over the window converges to 1 / (1000 (1 - e^-0.002)) = 0.5005), every
    // 4 cycles to 0.2505. M/D/1 wait = S rho / (2 (1 - rho)): 50.1 -> 50 and 16.7 -> 17.
    for (auto [gap, wait] : {std::pair<uint64_t, uint64_t>{2, 50}, {4, 17}}) {
        MemoryStats stats;
        Dram dram(c, stats);
        uint64_t t = 0, ready = 0;
        for (uint64_t req = 1; req <= 20000; ++req, t += gap) ready = dram.read(t, req * 64, 64, req);
        INFO("one read every " << gap << " cycles");
        CHECK(ready == t - gap + 500 + wait);
        CHECK(dram.utilisation() == Approx(1.0 / gap).epsilon(0.01));
    }
}

TEST_CASE("memory units: 32 lanes adding to one address serialise at the L2 atomic unit", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.atomics.same_address_cycles = 4;
    Recorder rec;
    auto r = run(".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer n u32 1 zero\n"
                 "atom.global.add r1, [n], 1\niadd r2, r1, 1\nexit\n",
                 c, {true, &rec, {}});
    // Issued at 0; the sector misses: data at the slice at 500; 32 read-modify-writes of 4
    // cycles; the last lane's old value back at 500 + 20 + 31 x 4.
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{500 + 20 + 31 * 4});
    CHECK(r.stats.memory.atomic_lane_ops == 32);

    // Two warps on the counter: the second warp's 32 lanes start after the first's 128 cycles.
    Recorder two;
    auto r2 = run(".kernel t\n.grid 1\n.block 64\n.regs 8\n.buffer n u32 1 zero\n"
                  "atom.global.add r1, [n], 1\niadd r2, r1, 1\nexit\n",
                  c, {true, &two, {}});
    CHECK(two.issue_cycles(0, 1) == std::vector<uint64_t>{644});
    CHECK(two.issue_cycles(1, 1) == std::vector<uint64_t>{644 + 128});
    CHECK(r2.stats.memory.atomic_serial_cycles == 128);

    // 32 lanes on 32 words of one sector: no serialisation, unless the slice's unit takes
    // one lane op per cycle (the groups queue: the last starts 31 cycles later).
    const char* spread = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer n u32 32 zero\n"
                         "mov r0, %laneid\natom.global.add r1, [n + r0*4], 1\niadd r2, r1, 1\nexit\n";
    Recorder wide;
    run(spread, c, {true, &wide, {}});
    CHECK(wide.issue_cycles(0, 2) == std::vector<uint64_t>{4 + 500 + 20});
    c.memory.atomics.unit_ops_per_cycle = 1;
    Recorder unit;
    run(spread, c, {true, &unit, {}});
    CHECK(unit.issue_cycles(0, 2) == std::vector<uint64_t>{4 + 500 + 31 + 20});
}

TEST_CASE("memory units: shared-memory atomics serialise the lanes on one word", "[timing][memory]") {
    GpuConfig c = small_config();
    const char* src = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.shared 128\n"
                      "atom.shared.add r1, [0], 1\niadd r2, r1, 1\nexit\n";
    Recorder off, on;
    run(src, c, {true, &off, {}});
    CHECK(off.issue_cycles(0, 1) == std::vector<uint64_t>{20});  // one wavefront (one word)
    c.memory.atomics.shared_same_address_cycles = 1;
    auto r = run(src, c, {true, &on, {}});
    CHECK(on.issue_cycles(0, 1) == std::vector<uint64_t>{20 + 31});
    CHECK(r.stats.memory.shared_atomic_serial == 31);
}

TEST_CASE("memory units: red.shared.popc.inc counts a word's lanes at once (no chain)", "[timing][memory]") {
    // 32 lanes on one word: red.shared.add takes its 31 further lanes one MIO pass each; popc.inc (SASS
    // ATOMS.POPC.INC) one pass, and the word still gains 32. The next shared instruction waits for the MIO.
    GpuConfig c = small_config();
    c.memory.atomics.shared_same_address_cycles = 1;
    auto src = [](const std::string& op) {
        return ".kernel t\n.grid 1\n.block 32\n.regs 8\n.shared 128\n.buffer o u32 1 zero\n" + op +
               "\nld.shared r1, [0]\nst.global [o], r1\nexit\n";
    };
    Recorder add, popc;
    auto ra = run(src("red.shared.add [0], 1"), c, {true, &add, {}});
    auto rp = run(src("red.shared.popc.inc [0]"), c, {true, &popc, {}});
    CHECK(ra.stats.memory.shared_atomic_serial == 31);
    CHECK(rp.stats.memory.shared_atomic_serial == 0);
    CHECK(add.issue_cycles(0, 1)[0] == popc.issue_cycles(0, 1)[0] + 31);
}

// The sectors of the exec lanes' accesses, by the definition (every byte's sector, sorted, once).
std::vector<uint64_t> sectors_of(uint32_t exec, const LaneAddrs& a, uint32_t bytes, uint32_t sector_bytes) {
    std::vector<uint64_t> v;
    for (uint32_t l = 0; l < 32; ++l)
        if (exec >> l & 1)
            for (uint64_t b = a[l]; b < a[l] + std::max(bytes, 1u); ++b) v.push_back(b / sector_bytes);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

// The data banks' wavefronts by the definition: the most distinct 4-byte words of the exec lanes'
// accesses (each lane's from its first word on) in one of `banks` banks.
uint32_t wavefronts_of(uint32_t exec, const LaneAddrs& a, uint32_t bytes, uint32_t banks) {
    std::vector<uint64_t> words;
    for (uint32_t l = 0; l < 32; ++l)
        if (exec >> l & 1)
            for (uint32_t k = 0; k < std::max(1u, (bytes + 3) / 4); ++k) words.push_back(a[l] / 4 + k);
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    std::vector<uint32_t> per(banks);
    uint32_t most = 0;
    for (uint64_t w : words) most = std::max(most, ++per[w % banks]);
    return most;
}

TEST_CASE("memory units: the coalescer's sectors, consecutive lanes or not, are every byte's", "[timing][memory]") {
    std::mt19937_64 rng(9);
    for (int trial = 0; trial < 20000; ++trial) {
        const uint32_t bytes = std::array<uint32_t, 7>{0, 1, 2, 4, 8, 16, 32}[rng() % 7];
        const uint32_t sector_bytes = rng() % 4 ? 32 : 16;
        if (bytes > sector_bytes) continue;  // (then the general loop's 64 entries may not hold every repeat)
        const uint32_t step = rng() % 4 ? bytes : uint32_t(rng() % 40);
        uint64_t base = (rng() % 100000) * (rng() % 2 ? std::max(bytes, 1u) : 1);
        if (rng() % 50 == 0) base = ~0ull - rng() % 600;  // (addresses near the top: the sum wraps)
        LaneAddrs a{};
        for (uint32_t l = 0; l < 32; ++l) a[l] = base + uint64_t(l) * step;
        if (rng() % 3 == 0) a[rng() % 32] += rng() % 5;
        if (base > ~0ull - 2000) {  // (only what no lane's bytes wrap: the definition above cannot say)
            bool wraps = false;
            for (uint64_t x : a) wraps |= x + std::max(bytes, 1u) < x;
            if (wraps) continue;
        }
        const uint32_t exec = rng() % 3 ? ~0u : uint32_t(rng());
        SectorList s;
        const bool consecutive = coalesce(exec, a, bytes, sector_bytes, s);
        const std::vector<uint64_t> want = sectors_of(exec, a, bytes, sector_bytes);
        INFO("bytes " << bytes << " sector " << sector_bytes << " step " << step << " base " << base << " exec " << exec);
        REQUIRE(std::vector<uint64_t>(s.sector.begin(), s.sector.begin() + s.count) == want);
        // The L1 data banks' wavefronts (Lsu::data_stage), told that the lanes are consecutive or not.
        if (exec && bytes <= 16) REQUIRE(shared_wavefronts(exec, a, bytes, 32, consecutive) == wavefronts_of(exec, a, bytes, 32));
    }
}

TEST_CASE("memory units: byte-masked store sectors cost the slice and are counted", "[timing][memory]") {
    LaneAddrs a{};
    SectorList s;
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(i) * 4;  // 4 whole sectors
    coalesce(~0u, a, 4, 32, s);
    CHECK(partial_sectors(~0u, a, 4, 32, s) == 0);
    coalesce(0x0000ffffu, a, 4, 32, s);                          // lanes 0-15: sectors 0, 1 whole
    CHECK(partial_sectors(0x0000ffffu, a, 4, 32, s) == 0);
    coalesce(0x00ff00ffu, a, 4, 32, s);                          // sectors 0 and 2 whole
    CHECK(partial_sectors(0x00ff00ffu, a, 4, 32, s) == 0);
    coalesce(0x0000000fu, a, 4, 32, s);                          // half of sector 0
    CHECK(partial_sectors(0x0000000fu, a, 4, 32, s) == 1);
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(31 - i) * 128 + 8;  // a column: one lane per sector
    coalesce(~0u, a, 4, 32, s);
    CHECK(partial_sectors(~0u, a, 4, 32, s) == 0xffffffffu);
    a[5] = 29 * 128;  // lane 5 in a sector of its own; lane 6 joins lane 3 in its sector (8 of 32 bytes)
    a[6] = 28 * 128 + 4;
    coalesce(0x68u, a, 4, 32, s);                                // lanes 3, 5, 6: two sectors
    CHECK(s.count == 2);
    CHECK(partial_sectors(0x68u, a, 4, 32, s) == 0b11);
    for (int i = 0; i < 32; ++i) a[i] = uint64_t(i) * 32;        // 32 B per lane: whole sectors
    coalesce(~0u, a, 32, 32, s);
    CHECK(partial_sectors(~0u, a, 32, 32, s) == 0);

    GpuConfig c = small_config();
    c.memory.l2_slices.sectors_per_cycle = 1;
    c.memory.stores.partial_sector_cycles = 2;
    // Two warps write a column each (4 B into 32 lines: 32 partial sectors). Warp 0's take
    // the slice 3 cycles each (8 .. 104); warp 1 (at 16) waits 88, acked at 104 + 200.
    const char* src = ".kernel t\n.grid 1\n.block 64\n.regs 8\n.buffer a f32 4096 zero\n"
                      "mov r0, %tid.x\nshl r2, r0, 7\nst.global [a + r2], r0\nexit\n";
    Recorder rec;
    auto r = run(src, c, {true, &rec, {}});
    CHECK(r.stats.memory.l2_partial_writes == 64);
    CHECK(r.stats.memory.l2_queue_cycles == 32 * 88);
    CHECK(rec.retired.at(1) == 104 + 200);
}

TEST_CASE("memory units: a kernel's L1 is the unified array minus its shared-memory carve-out", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.carveout.unified_bytes = 256 * 1024;
    c.memory.carveout.steps_kb = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    CHECK(carveout_bytes(c.memory.carveout, 0) == 0);
    CHECK(carveout_bytes(c.memory.carveout, 1024) == 8 * 1024);
    CHECK(carveout_bytes(c.memory.carveout, 100 * 1024 + 1) == 132 * 1024);
    OccupancyStats occ;
    occ.blocks_per_sm = 4;
    occ.shared_per_block = 40 * 1024;  // 160 KB -> the 164 KB carve-out
    CHECK(l1_spec(c, occ, 40 * 1024, 256).size_bytes == (256 - 164) * 1024);
    // A kernel without shared memory (small_config reserves none per block): no carve-out,
    // 256 KB of L1. With 1 KB reserved per block and 32 resident blocks (its occupancy):
    // 32 KB -> the 32 KB carve-out, 224 KB of L1.
    auto r = run(".kernel t\n.grid 1\n.block 32\n.regs 8\nexit\n", c);
    CHECK(r.stats.memory.l1_bytes == 256 * 1024);
    c.sm.shared_reserved_per_block = 1024;
    auto r2 = run(".kernel t\n.grid 1\n.block 32\n.regs 8\nexit\n", c);
    CHECK(r2.stats.occupancy.blocks_per_sm == 32);
    CHECK(r2.stats.memory.l1_bytes == 224 * 1024);
    CHECK(r2.stats.memory.shared_carveout_bytes == 32 * 1024);
}

TEST_CASE("memory units: the carve-out an H200 picks, by block size and declared shared memory", "[timing][memory]") {
    // ncu launch__shared_mem_config_size (calib/results/ncu_h200_ext.csv): block size, shared
    // memory declared per block, resident blocks, carve-out in KB.
    GpuConfig c = small_config();
    auto& co = c.memory.carveout;
    co.unified_bytes = 256 * 1024;
    co.steps_kb = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    co.floor_kb_1024 = 8;
    co.floor_cap_kb = 32;
    co.shared_headroom = 2;
    struct Row { uint32_t threads, declared, blocks, kb; };
    const Row rows[] = {
        {32, 0, 32, 32},        // chase<0> with one warp per block
        {512, 0, 4, 16},        // chase<0> with 512 threads
        {1024, 0, 2, 8},        // chase<0>, order_ffma
        {256, 0, 8, 32},        // recurse, stream_read, saxpy ...
        {256, 1024, 8, 32},     // hist_shared, block_reduce
        {256, 2048, 8, 64},     // sgemm_tile
        {256, 4096, 8, 100},    // transpose_tiled<0>
        {256, 4224, 8, 100},    // transpose_tiled<1>
    };
    for (const Row& row : rows) {
        OccupancyStats occ;
        occ.blocks_per_sm = row.blocks;
        occ.shared_per_block = row.declared + 1024;  // 1 KB reserved per block
        CAPTURE(row.threads, row.declared);
        const CacheSpec l1 = l1_spec(c, occ, row.declared, row.threads);
        CHECK(l1.size_bytes == (256 - row.kb) * 1024);
        // The sets stay memory.l1's; the ways take the carve-out's size.
        CHECK(l1.size_bytes / (l1.assoc * l1.line_bytes) ==
              c.memory.l1.size_bytes / (c.memory.l1.assoc * c.memory.l1.line_bytes));
        CHECK(l1.size_bytes % (l1.assoc * l1.line_bytes) == 0);
    }
    // Where the rule and the H200 disagree: scan_block (1024 threads, 8 KB declared, 2 blocks,
    // 18 KB needed) gets 32 KB on the H200; twice its need is 36 KB, so 64 KB here.
    OccupancyStats scan;
    scan.blocks_per_sm = 2;
    scan.shared_per_block = 9 * 1024;
    CHECK(l1_spec(c, scan, 8192, 1024).size_bytes == (256 - 64) * 1024);
    // Without the floor and the headroom: the smallest carve-out that keeps the occupancy.
    co.floor_kb_1024 = 0;
    co.shared_headroom = 1;
    CHECK(l1_spec(c, scan, 8192, 1024).size_bytes == (256 - 32) * 1024);
    OccupancyStats plain;
    plain.blocks_per_sm = 8;
    plain.shared_per_block = 1024;
    CHECK(l1_spec(c, plain, 0, 256).size_bytes == (256 - 8) * 1024);
}

TEST_CASE("memory units: block-linear textures keep a 2D neighbourhood in one line", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.tex.line_width = 8;
    c.memory.tex.line_height = 4;
    c.memory.tex.sector_width = 4;  // sectors of 4 x 2 texels
    TexLayout layout(c.memory);
    const uint64_t base = 0x1000;
    auto at = [&](uint64_t x, uint64_t y) { return layout.remap(base + (y * 64 + x) * 4, base, 64); };
    CHECK(at(0, 0) == base);
    CHECK(at(1, 0) == base + 4);
    CHECK(at(0, 1) == base + 16);       // second row of the first sector
    CHECK(at(4, 0) == base + 32);       // second sector
    CHECK(at(0, 2) == base + 64);       // third sector: rows 2-3
    CHECK(at(8, 0) == base + 128);      // next line along x
    CHECK(at(0, 4) == base + 8 * 128);  // next row of lines (64 / 8 lines per row)

    TexStage stage{0, 1};
    uint64_t cycles = 0;
    CHECK(stage.reserve(10, ~0u, cycles) == 10);
    CHECK(cycles == 8);  // 8 quads at one per cycle
    CHECK(stage.reserve(12, 0x000000f1u, cycles) == 18);
    CHECK(cycles == 2);
}

TEST_CASE("memory units: a texture request occupies the TEX stage per quad (tex_throttle)", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.tex.quads_per_cycle = 1;
    const char* src = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer img f32 64x64 zero\n"
                      "mov r0, 0\ntex r1, img, r0, r0\ntex r2, img, r0, r0\nexit\n";
    Recorder rec;
    auto r = run(src, c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{4});
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{12});  // 8 quads: the stage is busy until 12
    CHECK(r.stats.memory.tex_quads == 16);
    CHECK(r.stats.stall_cycles[int(StallReason::TexThrottle)] == 7);
}

TEST_CASE("memory units: a cold stream with 64 B DRAM fetches reports every sector as an L2 miss", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.dram_fetch_bytes = 64;
    auto r = run(".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer a f32 1024 zero\n"
                 "mov r0, %laneid\nld.global r1, [a + r0*4]\nexit\n",
                 c);
    CHECK(r.stats.memory.l2_miss_sectors == 4);  // two fetches of two sectors: ncu counts 4 misses
    CHECK(r.stats.memory.l2_hit_sectors == 0);
    CHECK(r.stats.memory.dram_read_bytes == 128);
}

TEST_CASE("memory units: write-backs open rows of write_row_bytes, apart from the reads' chunks", "[timing][memory]") {
    GpuConfig c = small_config();  // 64 B per cycle, one channel
    c.memory.dram.interleave_bytes = 256;
    c.memory.dram.open_chunks = 16;
    c.memory.dram.row_miss_bytes = 64;         // 1 cycle
    c.memory.dram.write_row_miss_bytes = 128;  // 2 cycles
    c.memory.dram.write_row_bytes = 1024;      // 4 chunks
    c.memory.dram.rmw_turnaround_bytes = 192;  // 3 cycles
    MemoryStats stats;
    Dram dram(c, stats);
    // Writes of 64 B: the first opens row 0 (2 + 1 cycles), the next three chunks of the row
    // are open (1 cycle each), the fifth chunk is row 1 (3 cycles again).
    CHECK(dram.write(0, 0, 64) == 3);
    CHECK(dram.write(0, 256, 64) == 4);
    CHECK(dram.write(0, 768, 64) == 5);
    CHECK(dram.write(0, 1024, 64) == 8);
    CHECK(stats.dram_row_misses == 2);
    // The read of a read-modify-write opens its chunk in the reads' table (1 + 1) and turns the
    // channel around (3); a second piece of the same eviction does not turn it again.
    dram.read_back(8, 0, 64, true);
    CHECK(dram.write(8, 0, 64) == 8 + 5 + 1);
    dram.read_back(14, 64, 64, false);
    CHECK(dram.write(14, 64, 64) == 14 + 1 + 1);
    CHECK(stats.dram_row_misses == 3);
}

// write_banks: each bank of a channel keeps one open write row (rows by consecutive row-sized
// pieces of the address space, dealt round robin over the banks), and a row opened costs the
// activation window as a server of its own beside the data bus.
TEST_CASE("memory units: write-backs find their rows open per bank, and opening one takes the activation window",
          "[timing][memory]") {
    GpuConfig c = small_config();  // 64 B per cycle, one channel
    c.memory.dram.interleave_bytes = 256;
    c.memory.dram.write_row_bytes = 1024;
    c.memory.dram.write_row_miss_bytes = 128;   // 2 cycles of the bus
    c.memory.dram.write_activate_bytes = 640;   // 10 cycles of the activation window
    c.memory.dram.write_banks = 2;
    MemoryStats stats;
    Dram dram(c, stats);
    CHECK(dram.write(0, 0, 64) == 10);      // row 0 in bank 0: bus 2 + 1 = 3, window 10
    CHECK(dram.write(0, 1024, 64) == 20);   // row 1 in bank 1: bus 6, window 20
    CHECK(dram.write(0, 64, 64) == 7);      // row 0 still open in bank 0: bus 7, no activation to wait for
    CHECK(stats.dram_row_misses == 2);
    CHECK(dram.write(0, 2048, 64) == 30);   // row 2 takes bank 0: bus 10, window 30
    CHECK(dram.write(40, 0, 64) == 50);     // row 0 again: no longer open (bus 43, window 50)
    CHECK(stats.dram_row_misses == 4);
}

// read_activate_bytes: a read that opens a chunk waits for the activations queued in its channel's
// window (a write-back's row opening) and holds the window for its own; one that finds its chunk
// open does neither.
TEST_CASE("memory units: a read that opens a chunk takes the activation window, after the write-backs' openings",
          "[timing][memory]") {
    GpuConfig c = small_config();  // 64 B per cycle, one channel, DRAM latency 500
    c.memory.dram.interleave_bytes = 256;
    c.memory.dram.open_chunks = 16;
    c.memory.dram.write_row_bytes = 1024;
    c.memory.dram.write_activate_bytes = 640;  // 10 cycles of the window
    c.memory.dram.read_activate_bytes = 320;   // 5 cycles of the window
    c.memory.dram.write_banks = 2;
    MemoryStats stats;
    Dram dram(c, stats);
    CHECK(dram.read(0, 0, 64, 1) == 500);       // chunk 0 opened: bus 1, window 5 (both from 0): no wait
    CHECK(dram.read(1, 64, 64, 2) == 501);      // chunk 0 open: no window, the bus free at 1
    CHECK(dram.read(1, 256, 64, 3) == 505);     // chunk 1 opened: waits for the window (free at 5), holds it to 10
    CHECK(dram.write(10, 4096, 64) == 20);      // a write-back opening a row: window 10 -> 20
    CHECK(dram.read(12, 512, 64, 4) == 520);    // chunk 2 opened at 12 waits 8 for that opening
    CHECK(stats.dram_row_misses == 4);
    c.memory.dram.read_activate_bytes = 0;      // off: reads never look at the window
    Dram off(c, stats);
    CHECK(off.write(0, 4096, 64) == 10);
    CHECK(off.read(1, 0, 64, 1) == 501);
}

// read_command_bytes: every read piece takes its column command's share of the window, whether it
// opens its chunk or not, so a chunk read in few pieces is bound by the window and a stream's
// pieces (more bus time than window time) by the bus.
TEST_CASE("memory units: every read piece takes its command's share of the activation window", "[timing][memory]") {
    GpuConfig c = small_config();  // 64 B per cycle, one channel, DRAM latency 500
    c.memory.dram.interleave_bytes = 256;
    c.memory.dram.open_chunks = 16;
    c.memory.dram.read_activate_bytes = 320;   // 5 cycles of the window per opening
    c.memory.dram.read_command_bytes = 128;    // 2 cycles per piece
    MemoryStats stats;
    Dram dram(c, stats);
    CHECK(dram.read(0, 0, 64, 1) == 500);      // opens chunk 0: bus 0-1, window 0-7
    CHECK(dram.read(0, 64, 64, 2) == 507);     // chunk open: bus 1-2, but its command waits for the window (7-9)
    CHECK(dram.read(0, 128, 64, 3) == 509);    // bus 2-3, window 9-11
    CHECK(stats.dram_row_misses == 1);
    // Pieces 100 cycles apart find the window free: they wait for nothing.
    CHECK(dram.read(100, 192, 64, 4) == 600);
    CHECK(dram.read(200, 256, 64, 5) == 700);  // opens chunk 1: window 200-207, no wait
    CHECK(stats.dram_row_misses == 2);
}

TEST_CASE("memory units: DRAM latency spreads geometrically around the configured mean", "[timing][memory]") {
    GpuConfig c = small_config();  // DRAM 500, 64 B per cycle
    c.memory.dram.latency_spread_cycles = 8;
    c.memory.dram.interleave_bytes = 256;
    MemoryStats stats;
    Dram dram(c, stats);
    // Isolated reads (1000 cycles apart: no queueing) of distinct chunks: 492 + 8 k, P(k) = 2^-(k+1).
    const int n = 20000;
    double sum = 0;
    std::map<uint64_t, int> count;
    for (int i = 0; i < n; ++i) {
        const uint64_t t = uint64_t(i) * 1000;
        const uint64_t lat = dram.read(t, uint64_t(i) * 256, 64, uint64_t(i) + 1) - t;
        REQUIRE(lat >= 492);
        REQUIRE((lat - 492) % 8 == 0);
        sum += double(lat);
        ++count[(lat - 492) / 8];
    }
    CHECK(sum / n == Approx(500).margin(0.3));                  // the mean stays dram_latency
    CHECK(double(count[0]) / n == Approx(0.5).margin(0.02));
    CHECK(double(count[1]) / n == Approx(0.25).margin(0.02));
    // Pieces of one request in one chunk share their spread.
    MemoryStats s2;
    Dram d2(c, s2);
    const uint64_t a = d2.read(0, 4096, 32, 7), b = d2.read(0, 4096 + 32, 32, 7);
    CHECK(b == a + 0);  // same request: no queueing between its pieces, same spread
}

TEST_CASE("memory units: an L2 hit's latency spreads uniformly about the configured mean", "[timing][memory]") {
    GpuConfig c = small_config();  // L2 hit 200, one slice
    c.memory.l2_slices.hit_spread_cycles = 64;
    MemoryStats st;
    L2 l2(c, st);
    const uint64_t spl = c.memory.l2.line_bytes / c.memory.sector_bytes;
    const int n = 4000;
    for (int i = 0; i < n; ++i) l2.read(0, 0, uint64_t(i) * spl);  // warm n lines (misses)
    // Isolated hits (1000 cycles apart: no queueing), one request each: 168 + [0, 64).
    double sum = 0;
    uint64_t lo = ~0ull, hi = 0;
    std::map<uint64_t, int> quarter;  // 168..183, 184..199, 200..215, 216..231
    for (int i = 0; i < n; ++i) {
        const uint64_t t = 100000 + uint64_t(i) * 1000;
        l2.begin_request();
        const uint64_t lat = l2.read(0, t, uint64_t(i) * spl) - t;
        lo = std::min(lo, lat);
        hi = std::max(hi, lat);
        sum += double(lat);
        ++quarter[(lat - 168) / 16];
    }
    CHECK(lo == 168);
    CHECK(hi == 231);
    CHECK(sum / n == Approx(199.5).margin(1.0));  // the mean stays l2.hit_latency (less half a cycle)
    for (uint64_t q = 0; q < 4; ++q) CHECK(double(quarter[q]) / n == Approx(0.25).margin(0.03));
    // A line's sectors in one request share the draw; the same line in another request draws again.
    l2.read(0, 8000000, 5 * spl + 1);  // (the line's second sector present too)
    l2.begin_request();
    const uint64_t a = l2.read(0, 9000000, 5 * spl), b = l2.read(0, 9000000, 5 * spl + 1);
    CHECK(a == b);
    // Off (0): every hit takes exactly the mean.
    GpuConfig off = small_config();
    MemoryStats s2;
    L2 plain(off, s2);
    plain.read(0, 0, 0);
    CHECK(plain.read(0, 1000, 0) == 1200);
}

TEST_CASE("memory units: a request's missed lines come back one per cycle", "[timing][memory]") {
    // One warp gathers 32 lines (L2 misses), then the same 32 lines again through ld.global.cg (L2
    // hits, after the first gather's data: the address adds its zero). With memory.l1_miss_line_cycles
    // 1 the last of the second gather's lines is back 31 cycles after the first, so its reader issues
    // 31 cycles later than with every line back at once.
    const char* src =
        ".kernel twice\n.grid 1\n.block 32\n.regs 8\n.buffer a u32 1024 zero\n"
        "mov r0, %tid.x\nshl r2, r0, 7\nld.global.cg r1, [a + r2]\niadd r3, r2, r1\n"
        "ld.global.cg r4, [a + r3]\niadd r5, r4, 1\nexit\n";
    GpuConfig c = small_config();
    c.memory.l1_line_per_wavefront = true;
    Recorder base, serial;
    run(src, c, {true, &base, {}});
    c.memory.l1_miss_line_cycles = 1;
    run(src, c, {true, &serial, {}});
    // pc 4: the second gather; pc 5: its reader.
    const auto wait = [](const Recorder& r) { return r.issue_cycles(0, 5).at(0) - r.issue_cycles(0, 4).at(0); };
    CHECK(wait(base) >= 200);  // an L2 hit
    CHECK(wait(serial) == wait(base) + 31);
}

TEST_CASE("memory units: an L1TEX request takes a wavefront per distinct line", "[timing][memory]") {
    // kGather: each warp loads 32 floats 128 B apart (32 lines). With one line per wavefront the
    // tag stage holds warp 1 (at 16) until warp 0's 32 wavefronts end at 8 + 32 = 40.
    GpuConfig c = small_config();
    c.memory.l1_line_per_wavefront = true;
    Recorder rec;
    auto r = run(kGather, c, {true, &rec, {}});
    CHECK(r.stats.memory.l1_wavefronts == 64);
    CHECK(fadd_cycle(rec, 0) == 508);
    CHECK(rec.issue_cycles(1, 2).at(0) == 40);  // warp 1's ld issues when the tag stage frees
    // A coalesced request (4 sectors of one line) still takes one.
    Recorder one;
    auto r1 = run(".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer a f32 64 zero\n"
                  "mov r0, %tid.x\nld.global r1, [a + r0*4]\nexit\n", c, {true, &one, {}});
    CHECK(r1.stats.memory.l1_wavefronts == 1);
}

TEST_CASE("memory units: an L1-hit load's lines share wavefronts; missing or in-flight lines take one each",
          "[timing][memory]") {
    // One warp loads 32 lines (32 sectors) twice. Back to back, the second finds every line still
    // in flight (an MSHR merge): 32 + 32 wavefronts. After the first's data is back (the fadd), its
    // 32 sectors hit and take 32 / 4 = 8, as l1pipe.cu's 32-line L1 hits do on the GH100.
    const char* after = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer a f32 4096 zero\n"
                        "mov r0, %tid.x\nshl r2, r0, 7\nld.global r1, [a + r2]\nfadd r3, r1, r1\n"
                        "ld.global r4, [a + r2]\nfadd r5, r4, r4\nexit\n";
    const char* back_to_back = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer a f32 4096 zero\n"
                               "mov r0, %tid.x\nshl r2, r0, 7\nld.global r1, [a + r2]\n"
                               "ld.global r4, [a + r2]\nfadd r5, r4, r1\nexit\n";
    GpuConfig c = small_config();
    c.memory.l1_line_per_wavefront = true;
    CHECK(run(after, c).stats.memory.l1_wavefronts == 64);  // every line a wavefront
    c.memory.l1_hits_share_wavefronts = true;
    CHECK(run(after, c).stats.memory.l1_wavefronts == 32 + 8);
    CHECK(run(back_to_back, c).stats.memory.l1_wavefronts == 32 + 32);
}

TEST_CASE("memory units: an L1TEX request holds the tag stage at least l1_request_cycles", "[timing][memory]") {
    // A coalesced load (4 sectors of one line) takes one wavefront; with 2 cycles a request (l1pipe.cu:
    // an L1-hit load of one line every 2.15 cycles per SM), 2. A 32-line gather keeps its 32.
    const char* one = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer a f32 64 zero\n"
                      "mov r0, %tid.x\nld.global r1, [a + r0*4]\nexit\n";
    GpuConfig c = small_config();
    c.memory.l1_line_per_wavefront = true;
    c.memory.l1_request_cycles = 2;
    CHECK(run(one, c).stats.memory.l1_wavefronts == 2);
    CHECK(run(kGather, c).stats.memory.l1_wavefronts == 64);
}

TEST_CASE("memory units: a global load's data wavefront takes the shared-memory stage too", "[timing][memory]") {
    // A 32-way conflicted ld.shared holds the stage 32 cycles; an ld.global behind it adds its one
    // data wavefront (memory.l1_data_wavefronts), so the conflict-free ld.shared after it starts one
    // cycle later, and its fadd issues one cycle later (l1pipe.cu: 32 + 1 cycles per pair on the GH100).
    const char* k = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.shared 4096\n.buffer a f32 64 zero\n"
                    "mov r0, %tid.x\nshl r2, r0, 7\nshl r3, r0, 2\nld.shared r1, [r2]\n"
                    "ld.global r4, [a + r3]\nld.shared r5, [r3]\nfadd r6, r5, r5\nexit\n";
    GpuConfig c = small_config();
    Recorder off, on;
    run(k, c, {true, &off, {}});
    c.memory.l1_data_wavefronts = 1;
    run(k, c, {true, &on, {}});
    const uint64_t t_off = off.issue_cycles(0, 6).at(0), t_on = on.issue_cycles(0, 6).at(0);
    CHECK(t_on == t_off + 1);
}

TEST_CASE("memory units: the LSU-in port takes one memory instruction a cycle per SM", "[timing][memory]") {
    // Four warps, one per sub-partition: warps 0 and 1 load from global memory, 2 and 3 from shared
    // memory, in nearby cycles. The L1TEX and the MIO each take one a cycle; with memory.lsu_in_port
    // the SM takes one memory instruction a cycle whatever its unit, so no two issue together.
    const char* k = ".kernel t\n.grid 1\n.block 128\n.regs 8\n.shared 512\n.buffer a f32 64 zero\n"
                    "mov r0, %laneid\nmov r1, %warpid\nshl r3, r0, 2\nisetp.lt p0, r1, 2\n@p0 bra g\nbra s\n"
                    "g:\nld.global r4, [a + r3]\nexit\ns:\nld.shared r5, [r3]\nexit\n";
    GpuConfig c = small_config();
    c.memory.lg_queue_depth = 16;
    auto cycles = [&](bool port) {
        c.memory.lsu_in_port = port;
        Recorder rec;
        run(k, c, {true, &rec, {}});
        std::vector<uint64_t> v;
        for (uint64_t w = 0; w < 4; ++w) v.push_back(rec.issue_cycles(w, w < 2 ? 6 : 8).at(0));
        std::sort(v.begin(), v.end());
        return v;
    };
    const std::vector<uint64_t> off = cycles(false), on = cycles(true);
    CHECK(std::adjacent_find(off.begin(), off.end()) != off.end());  // a load and an ld.shared together
    CHECK(std::adjacent_find(on.begin(), on.end()) == on.end());
    CHECK(on.back() - on.front() == 3);
}

TEST_CASE("memory units: a global load's data takes a wavefront per access to its busiest bank", "[timing][memory]") {
    // 32 lanes, each at its own 128 B line but all in bank 0 (stride 128 B): 32 data wavefronts with
    // memory.l1_data_bank_conflicts; the load's result waits for them, and an ld.shared behind it too.
    const char* k = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.shared 4096\n.buffer a f32 1024 zero\n"
                    "mov r0, %laneid\nshl r3, r0, 7\nshl r2, r0, 2\nld.global r4, [a + r3]\n"
                    "ld.global r4, [a + r3]\nld.shared r5, [r2]\nfadd r6, r5, r5\nfadd r7, r4, r4\nexit\n";
    GpuConfig c = small_config();
    c.memory.l1_data_wavefronts = 1;
    Recorder off, on;
    run(k, c, {true, &off, {}});
    c.memory.l1_data_bank_conflicts = true;
    run(k, c, {true, &on, {}});
    // The second load (its lines hit) has its data 31 wavefronts later than the first's one, plus the
    // first load's 32 ahead of it; the ld.shared's fadd waits for 64 data-stage cycles instead of 2.
    CHECK(on.issue_cycles(0, 7).at(0) == off.issue_cycles(0, 7).at(0) + 62);
    CHECK(on.issue_cycles(0, 8).at(0) > off.issue_cycles(0, 8).at(0) + 31);
}

TEST_CASE("memory units: a load's missing lines' fills take the L1 data stage", "[timing][memory]") {
    // A cold load whose lanes cover 4 lines (16 B apart), then an ld.shared: with l1_fill_cycles 0.5 the
    // 4 fills take 2 data-stage cycles behind the load's one wavefront (0.75: 3), which the ld.shared
    // behind it waits for; the load itself does not. The same load again (its lines on their way)
    // fills nothing.
    const char* k = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.shared 4096\n.buffer a f32 1024 zero\n"
                    "mov r0, %laneid\nshl r2, r0, 4\nshl r3, r0, 2\nld.global r4, [a + r2]\nld.shared r5, [r3]\n"
                    "fadd r6, r5, r5\nfadd r7, r4, r4\nld.global r4, [a + r2]\nld.shared r5, [r3]\nfadd r6, r5, r5\nexit\n";
    GpuConfig c = small_config();
    c.memory.l1_data_wavefronts = 1;
    Recorder off, half, more;
    run(k, c, {true, &off, {}});
    c.memory.l1_fill_cycles = 0.5;
    run(k, c, {true, &half, {}});
    c.memory.l1_fill_cycles = 0.75;
    run(k, c, {true, &more, {}});
    // the ld.shared's reader: later with the fills (the ld.shared issues a cycle after the load, so the
    // 2 cycles of fills hold it 1), one more for the third cycle of fills at 0.75
    CHECK(half.issue_cycles(0, 5).at(0) == off.issue_cycles(0, 5).at(0) + 1);
    CHECK(more.issue_cycles(0, 5).at(0) == half.issue_cycles(0, 5).at(0) + 1);
    CHECK(half.issue_cycles(0, 6).at(0) == off.issue_cycles(0, 6).at(0));       // the load's reader
    // the second pair: nothing to fill, as far from its load as without fills
    CHECK(half.issue_cycles(0, 9).at(0) - half.issue_cycles(0, 7).at(0) ==
          off.issue_cycles(0, 9).at(0) - off.issue_cycles(0, 7).at(0));
}

TEST_CASE("memory units: a write-back costs more while its channel also serves reads", "[timing][memory]") {
    GpuConfig c = small_config();  // 64 B per cycle, one channel, load window 1000
    c.memory.dram.mixed_write_bytes = 64;  // one more cycle per write while reads are around
    MemoryStats stats;
    Dram dram(c, stats);
    CHECK(dram.write(0, 0, 64) == 1);        // no read yet: 1 cycle
    CHECK(dram.read(10, 4096, 64, 1) == 510);  // the channel now reads
    CHECK(dram.write(20, 64, 64) == 22);     // 1 + 1 cycles
    CHECK(dram.write(2000, 128, 64) == 2001);  // the last read is a window ago: plain again
}

TEST_CASE("memory units: a row opening that turns the channel's direction costs switch_bytes of bus time",
          "[timing][memory]") {
    GpuConfig c = small_config();  // 64 B per cycle, one channel
    c.memory.dram.interleave_bytes = 256;
    c.memory.dram.open_chunks = 16;
    c.memory.dram.switch_bytes = 128;  // two cycles per turn
    MemoryStats stats;
    Dram dram(c, stats);
    CHECK(dram.read(0, 0, 64, 1) == 500);     // the first opening turns nothing: 1 cycle
    CHECK(dram.write(10, 8192, 64) == 13);    // a write-back opens a row after a read's: 1 + 2
    CHECK(dram.write(20, 8448, 64) == 21);    // another write-back's row: no turn
    CHECK(dram.read(30, 512, 64, 2) == 530);  // a read's opening after a write's: busy 1 + 2 cycles
    CHECK(dram.read(30, 576, 64, 3) == 533);  // ... which the next read of that open chunk waits for
    CHECK(dram.read(40, 640, 64, 4) == 540);  // an open chunk turns nothing (no opening)
}

TEST_CASE("memory units: sector atomics cost a sector op plus the busiest word's chain", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.atomics.same_address_cycles = 4;
    c.memory.atomics.sector_cycles = 2;
    c.memory.atomics.request_cycles = 1;
    // One warp, 32 lanes on one word: the sector's data at the slice at 500; the unit holds it
    // 1 + 2 + 31 x 4 = 127 cycles; the busiest word's last old value at 500 + 31 x 4 + 20.
    const char* same = ".kernel t\n.grid 1\n.block 64\n.regs 8\n.buffer n u32 1 zero\n"
                       "atom.global.add r1, [n], 1\niadd r2, r1, 1\nexit\n";
    Recorder two;
    auto r = run(same, c, {true, &two, {}});
    CHECK(two.issue_cycles(0, 1) == std::vector<uint64_t>{500 + 124 + 20});
    // The second warp's sector (data in flight since the first's miss, at 500) waits for the unit:
    // 127 cycles, then its own chain.
    CHECK(two.issue_cycles(1, 1) == std::vector<uint64_t>{500 + 127 + 124 + 20});
    CHECK(r.stats.memory.atomic_serial_cycles == 127);
    CHECK(r.stats.memory.atomic_lane_ops == 64);

    // 32 lanes on 32 words of one line: 4 sectors, no chain; the unit takes them one after
    // another (3 cycles for the line's first, 2 for each further one).
    const char* spread = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer n u32 32 zero\n"
                         "mov r0, %laneid\natom.global.add r1, [n + r0*4], 1\niadd r2, r1, 1\nexit\n";
    Recorder wide;
    auto w = run(spread, c, {true, &wide, {}});
    CHECK(w.stats.memory.atomic_serial_cycles == 3 + 5 + 7);
    CHECK(wide.issue_cycles(0, 2) == std::vector<uint64_t>{4 + 500 + 7 + 20});
}

TEST_CASE("memory units: a word's next float add waits for the previous one; other words pass", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.atomics.same_address_cycles = 1;
    c.memory.atomics.float_add_cycles = 4;
    c.memory.atomics.sector_cycles = 1;  // the unit: 1 cycle a sector (no request cost); result + 20
    auto lanes = [](uint32_t n, uint64_t word, bool fp) { return AtomicSector{n, n, word, false, fp}; };
    auto ends = [&](std::vector<AtomicSector> ops) {
        AtomicUnit u(c);
        MemoryStats st;
        std::vector<uint64_t> out;
        for (const AtomicSector& a : ops) out.push_back(u.execute_sector(100, a, st));
        return std::make_pair(out, st.atomic_serial_cycles);
    };
    // One lane per request on word 0, all at 100: integer adds pass one per unit cycle; float adds
    // one per 4 cycles (each waits for the previous one's result).
    CHECK(ends({lanes(1, 0, false), lanes(1, 0, false), lanes(1, 0, false)}).first == std::vector<uint64_t>{120, 121, 122});
    const auto fp = ends({lanes(1, 0, true), lanes(1, 0, true), lanes(1, 0, true)});
    CHECK(fp.first == std::vector<uint64_t>{120, 124, 128});
    CHECK(fp.second == 0 + 4 + 8);
    // Float adds on two words alternately: each word's chain runs at 4, the unit at 1.
    CHECK(ends({lanes(1, 0, true), lanes(1, 4, true), lanes(1, 0, true), lanes(1, 4, true)}).first ==
          std::vector<uint64_t>{120, 121, 124, 125});
    // 32 lanes on one word: the unit holds the sector 1 + 31 x 4 = 125 cycles; the next request's
    // lanes start when the word's last add is done (100 + 32 x 4 = 228), not at the unit's 225.
    CHECK(ends({lanes(32, 0, true), lanes(32, 0, true)}).first == std::vector<uint64_t>{100 + 124 + 20, 228 + 124 + 20});
}

TEST_CASE("memory units: a warp leaves after its reduction leaves the SM, the launch ends at its ack", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.stores.drain_acks = true;  // stores wait for acks; a reduction does not
    const char* red = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer n u32 1 zero\nred.global.add [n], 1\nexit\n";
    const char* atom = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer n u32 1 zero\natom.global.add r1, [n], 1\nexit\n";
    auto r = run(red, c);
    auto a = run(atom, c);
    const int drain = int(StallReason::Drain);
    CHECK(r.stats.stall_cycles[drain] < 10);   // gone once the tag stage has sent it
    CHECK(a.stats.stall_cycles[drain] > 500);  // waits for the old value (DRAM 500 + atomic 20 + ...)
    CHECK(r.stats.cycles == a.stats.cycles);   // the launch ends at the reduction's ack either way
}

TEST_CASE("memory units: slices interleave groups of lines, and the map inverts", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.l2_slices.count = 8;
    c.memory.l2_slices.interleave_bytes = 512;  // 4 lines of 128 B per slice group
    Crossbar x(c);
    for (uint64_t line = 0; line < 4096; ++line) {
        INFO("line " << line);
        CHECK(x.slice_of(line) == x.slice_of(line - line % 4));  // a group stays on one slice
        CHECK(x.line_of(x.slice_of(line), x.local_of(line)) == line);
    }
    // 8 consecutive groups use all 8 slices once.
    std::vector<int> used(8, 0);
    for (uint64_t g = 0; g < 8; ++g) ++used[x.slice_of(g * 4)];
    CHECK(used == std::vector<int>(8, 1));
}

namespace {

// Two SMs and two L2 partitions of one slice each: SM 0 reads through partition 0, SM 1 through 1;
// a far hit costs 50 cycles more.
GpuConfig two_partitions() {
    GpuConfig c = small_config();
    c.sm.count = 2;
    c.memory.l2_slices.count = 2;
    c.memory.l2_slices.partitions = 2;
    c.memory.l2_slices.far_hit_cycles = 50;
    return c;
}

uint64_t line_homed_at(const L2& l2, uint32_t part) {  // the first line whose home is `part`
    uint64_t line = 0;
    while (l2.home_partition(line) != part) ++line;
    return line;
}

}  // namespace

TEST_CASE("memory units: an L2 partition keeps its SMs' copies and writes drop the others", "[timing][memory]") {
    const GpuConfig c = two_partitions();
    MemoryStats st;
    L2 l2(c, st);
    CHECK(l2.read(0, 0, 0) == 500);  // a miss everywhere: DRAM, into partition 0
    // SM 1 misses its partition and takes partition 0's copy: a hit (200) plus 50.
    CHECK(l2.read(1, 1000, 0) == 1250);
    CHECK(st.l2_far_hits == 1);
    CHECK(l2.read(1, 2000, 0) == 2200);  // now its own copy
    l2.write(0, 3000, 0, false);         // SM 0 writes: partition 1's copy is dropped
    CHECK(st.l2_invalidations == 1);
    CHECK(l2.read(1, 4000, 0) == 4250);  // the current data, from partition 0 again
    CHECK(st.l2_far_hits == 2);
}

TEST_CASE("memory units: with home copies a line's home partition keeps what DRAM returns to the other", "[timing][memory]") {
    GpuConfig c = two_partitions();
    c.memory.l2_slices.home_copy = true;
    MemoryStats st;
    L2 l2(c, st);
    const uint64_t spl = c.memory.l2.line_bytes / c.memory.sector_bytes;
    const uint64_t far = line_homed_at(l2, 1), near = line_homed_at(l2, 0);
    // SM 0 (partition 0) misses a line homed in partition 1: DRAM, into both partitions.
    CHECK(l2.read(0, 0, far * spl) == 500);
    CHECK(l2.read(1, 1000, far * spl) == 1200);  // SM 1 hits its own partition: the home's copy
    CHECK(st.l2_far_hits == 0);
    // A line homed at SM 0's own partition is held there only: SM 1 takes it as a far hit.
    CHECK(l2.read(0, 2000, near * spl) == 2500);
    CHECK(l2.read(1, 3000, near * spl) == 3250);
    CHECK(st.l2_far_hits == 1);
}

TEST_CASE("memory units: ld.global.cg neither looks up nor fills the L1", "[timing][memory]") {
    GpuConfig c = small_config();
    // The second load of the same word: an L1 hit (30) for ld.global, an L2 hit (200) for .cg.
    for (auto [op, second] : {std::pair<const char*, uint64_t>{"ld.global", 30}, {"ld.global.cg", 200}}) {
        std::string src = std::string(".kernel t\n.grid 1\n.block 32\n.regs 8\n.buffer a u32 32 zero\n") + op +
                          " r1, [a]\niadd r2, r1, 0\n" + op + " r3, [a + r2*4]\niadd r4, r3, 1\nexit\n";
        Recorder rec;
        run(src, c, {true, &rec, {}});
        INFO(op);
        const uint64_t first = rec.issue_cycles(0, 1).at(0), again = rec.issue_cycles(0, 2).at(0);
        CHECK(first == 500);
        CHECK(rec.issue_cycles(0, 3).at(0) == again + second);
    }
}

TEST_CASE("memory units: a request's missing lines leave L1 16 at a time", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.l1_miss_lines_per_pass = 16;
    c.memory.l1_miss_pass_cycles = 100;
    Recorder rec;
    run(kGather, c, {true, &rec, {}});
    // Warp 0's ld at 8 misses 32 lines: lines 1-16 leave at 8, lines 17-32 at 108; DRAM 500.
    CHECK(fadd_cycle(rec, 0) == 8 + 100 + 500);
    c.memory.l1_miss_lines_per_pass = 32;  // all in one pass: as without the limit
    Recorder one;
    run(kGather, c, {true, &one, {}});
    CHECK(fadd_cycle(one, 0) == 508);
}

namespace {

// The groups of lanes 0..31 at addresses addr(lane).
template <class F>
AtomicGroups groups_of(F addr) {
    LaneAddrs a{};
    for (uint32_t l = 0; l < 32; ++l) a[l] = addr(l);
    AtomicGroups g;
    group_atomics(~0u, a, g);
    return g;
}

AtomicLine line_of(const AtomicGroups& g) {
    AtomicLine line;
    next_atomic_line(g, 0, 32, 4, 24, 32, line);
    return line;
}

}  // namespace

TEST_CASE("memory units: an atomic line leaves L1 as passes of one lane per word, in 32 B flits", "[timing][memory]") {
    // 32 lanes on the 32 words of line 8: one pass, 4 sectors of 8 lanes, 24 + 128 B = 5 flits.
    AtomicLine wide = line_of(groups_of([](uint32_t l) { return 1024 + 4 * l; }));
    CHECK(wide.line == 8);
    CHECK(wide.count == 4);
    CHECK(wide.lanes[3] == 8);
    CHECK(wide.busiest[3] == 1);
    CHECK(wide.passes == 1);
    CHECK(wide.flits == 5);
    // 32 lanes on 4 words of one sector (8 each): 8 passes of 4 lanes, 24 + 16 B = 2 flits each.
    AtomicLine four = line_of(groups_of([](uint32_t l) { return 4 * (l % 4); }));
    CHECK(four.count == 1);
    CHECK(four.passes == 8);
    CHECK(four.flits == 16);
    // 32 lanes on one word: 32 passes of one lane, 24 + 4 B = 1 flit each.
    AtomicLine same = line_of(groups_of([](uint32_t) { return 64; }));
    CHECK(same.passes == 32);
    CHECK(same.flits == 32);
    CHECK(same.busiest[0] == 32);
    // Per word 3, 1, 1 lanes: passes of 3, 1, 1 lanes: 24 + 12 B = 2 flits, then 1 and 1.
    const uint8_t per_word[] = {3, 1, 1};
    CHECK(atomic_flits(per_word, 3, 24, 32) == 4);
    // 8-byte lanes (a 64-bit atomic): 24 + 24 B = 2 flits, then 24 + 8 = 1 and 1; 16 lanes on 16 words
    // of one line 24 + 128 B = 5 flits (4-byte lanes: 24 + 64 B = 3).
    CHECK(atomic_flits(per_word, 3, 24, 32, 8) == 4);
    const uint8_t sixteen[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(atomic_flits(sixteen, 16, 24, 32, 8) == 5);
    CHECK(atomic_flits(sixteen, 16, 24, 32, 4) == 3);
    // Lanes on two lines: the first line's groups end where the second's begin.
    AtomicGroups two = groups_of([](uint32_t l) { return l < 16 ? 4 * l : 128 + 4 * l; });
    AtomicLine first;
    CHECK(next_atomic_line(two, 0, 32, 4, 24, 32, first) == 16);
    CHECK(first.count == 2);
    CHECK(first.flits == 3);  // 24 + 64 B
}

TEST_CASE("memory units: atomics enter a slice in flits and are looked up near, then at home", "[timing][memory]") {
    GpuConfig c = small_config();
    c.sm.count = 2;
    c.memory.l2_slices.count = 2;
    c.memory.l2_slices.partitions = 2;          // SM 0 in partition 0, SM 1 in 1, one slice each
    c.memory.l2_slices.sectors_per_cycle = 0.25;  // a tag lookup holds a slice 4 cycles
    c.memory.l2_slices.input_flits_per_cycle = 0.5;  // a flit holds its input 2 cycles
    c.memory.atomics.sector_cycles = 1;          // the unit: 1 cycle a sector, no request or chain cost
    c.memory.atomics.header_bytes = 24;
    c.memory.atomics.near_lookup = true;
    MemoryStats st;
    L2 l2(c, st);
    const AtomicLine wide = line_of(groups_of([](uint32_t l) { return 4 * l; }));  // line 0, 5 flits
    const AtomicLine one = line_of(groups_of([](uint32_t) { return 0; }));
    AtomicLine single = one;
    single.passes = 1;  // one lane on word 0 (1 flit, 1 lookup)
    single.flits = 1;
    single.lanes[0] = single.busiest[0] = 1;
    const uint32_t home = l2.home_partition(0), far = 1 - home;
    auto send = [&](uint32_t sm, uint64_t t, const AtomicLine& line) {
        l2.begin_request();
        return l2.atomic_line(sm, t, line);
    };
    send(home, 0, wide);  // brings line 0 into the home slice (DRAM, by 520)
    // From the far SM, three requests at 1000 of 5 flits each: the far slice's input passes one
    // every 10 cycles; each then hits (200) and runs 4 sectors on the unit (+3 behind its own
    // sectors) and returns (+20). The lookups (4 cycles, near and at home) are not the limit.
    CHECK(send(far, 1000, wide) == 1000 + 200 + 3 + 20);
    CHECK(send(far, 1000, wide) == 1010 + 200 + 3 + 20);
    CHECK(send(far, 1000, wide) == 1020 + 200 + 3 + 20);
    // One-lane packets (1 flit, 2 cycles) from the home SM: the home slice's lookup (4) limits.
    CHECK(send(home, 2000, single) == 2000 + 200 + 20);
    CHECK(send(home, 2000, single) == 2004 + 200 + 20);
    // A far SM's packet is looked up in its own partition and again at home, behind the home
    // SM's lookups (home slice busy until 2012; the far slice's own lookups are done by 1012).
    CHECK(send(far, 2000, single) == 2008 + 200 + 20);
    CHECK(send(far, 2000, single) == 2012 + 200 + 20);
    CHECK(st.l2_queue_cycles > 0);
}

TEST_CASE("memory units: without near_lookup a far SM's atomics go straight to the home slice", "[timing][memory]") {
    GpuConfig c = small_config();
    c.sm.count = 2;
    c.memory.l2_slices.count = 2;
    c.memory.l2_slices.partitions = 2;
    c.memory.l2_slices.sectors_per_cycle = 0.25;
    c.memory.atomics.sector_cycles = 1;
    MemoryStats st;
    L2 l2(c, st);
    AtomicLine single = line_of(groups_of([](uint32_t) { return 0; }));
    single.passes = single.flits = 1;
    single.lanes[0] = single.busiest[0] = 1;
    const uint32_t home = l2.home_partition(0), far = 1 - home;
    l2.begin_request();
    l2.atomic_line(home, 0, single);
    // The home slice's lookups at 1000: 4 cycles each, whoever sends them; nothing else queues.
    l2.begin_request();
    CHECK(l2.atomic_line(far, 1000, single) == 1000 + 200 + 20);
    l2.begin_request();
    CHECK(l2.atomic_line(home, 1000, single) == 1004 + 200 + 20);
    l2.begin_request();
    CHECK(l2.atomic_line(far, 1000, single) == 1008 + 200 + 20);
}

TEST_CASE("memory units: a far atomic enters the slice linked to its home, partner_offset places on", "[timing][memory]") {
    GpuConfig c = small_config();
    c.sm.count = 2;
    c.memory.l2_slices.count = 8;
    c.memory.l2_slices.partitions = 2;  // 4 places per partition
    c.memory.l2_slices.partner_offset = 2;
    c.memory.l2_slices.sectors_per_cycle = 0.25;  // 4 cycles a lookup
    c.memory.atomics.sector_cycles = 1;
    c.memory.atomics.near_lookup = true;
    MemoryStats st;
    L2 l2(c, st);
    Crossbar x(c);
    // Line a homed in partition h at place p; line b homed in the other partition at place p + 2.
    const uint64_t a = 0;
    const uint32_t h = l2.home_partition(a), p = x.slice_of(a);
    uint64_t b = 1;
    while (x.slice_of(b) != (p + 2) % 4 || l2.home_partition(b) != 1 - h) ++b;
    AtomicLine la = line_of(groups_of([&](uint32_t) { return a * 128; }));
    AtomicLine lb = line_of(groups_of([&](uint32_t) { return b * 128; }));
    for (AtomicLine* l : {&la, &lb}) {
        l->passes = l->flits = 1;  // one lane
        l->lanes[0] = l->busiest[0] = 1;
    }
    auto send = [&](uint32_t sm, uint64_t t, const AtomicLine& line) {
        l2.begin_request();
        return l2.atomic_line(sm, t, line);
    };
    send(h, 0, la);  // both lines into their home slices
    send(1 - h, 0, lb);
    // At 1000 SM 1 - h looks b up at its home (busy until 1004), then sends a: a's near lookup is at
    // b's home slice (place p + 2 of partition 1 - h), behind b's; a's home slice is free.
    CHECK(send(1 - h, 1000, lb) == 1000 + 200 + 20);
    CHECK(send(1 - h, 1000, la) == 1004 + 200 + 20);
}

TEST_CASE("memory units: with stores at home a far line's store is written at its home only", "[timing][memory]") {
    GpuConfig c = two_partitions();
    c.memory.l2_slices.stores_at_home = true;
    MemoryStats st;
    L2 l2(c, st);
    const uint64_t spl = c.memory.l2.line_bytes / c.memory.sector_bytes;
    const uint64_t far = line_homed_at(l2, 1);
    // SM 0's store crosses to the home (50 cycles) and is acked after the home's hit latency.
    CHECK(l2.write(0, 0, far * spl, false) == 250);
    CHECK(l2.read(1, 1000, far * spl) == 1200);  // SM 1 hits at home, its own partition
    CHECK(st.l2_far_hits == 0);
    CHECK(l2.read(0, 2000, far * spl) == 2250);  // SM 0's partition kept no copy: a far hit
    CHECK(st.l2_far_hits == 1);
    // A store from SM 0 now updates its copy in place and keeps it: the next read hits there.
    l2.write(0, 3000, far * spl, false);
    CHECK(l2.read(0, 4000, far * spl) == 4200);
    CHECK(st.l2_invalidations == 0);
}

TEST_CASE("memory units: a set holds at most dirty_lines dirty lines, the oldest is cleaned", "[timing][memory]") {
    SectorCache cache(CacheSpec{4 * 128, 4, 128, 1}, 32);  // one set of 4 lines of 4 sectors
    cache.set_dirty_limit(2);
    cache.fill(0, 0, true);       // line 0
    cache.fill(4, 0, true);       // line 1
    CHECK(cache.clean_excess(4).dirty == 0);
    cache.fill(8 + 1, 0, true, true);  // line 2, sector 1, partial
    const Eviction ev = cache.clean_excess(9);
    CHECK(ev.line == 0);          // the least recently used dirty line
    CHECK(ev.dirty == 1);
    CHECK(cache.present(0));      // stays, clean
    CHECK(cache.clean_excess(9).dirty == 0);
    cache.fill(12, 0, false);     // line 3, clean
    const Eviction out = cache.fill(16, 0, false);  // line 4 evicts line 0: clean now
    CHECK(!cache.present(0));
    CHECK(cache.present(16));
    CHECK(out.dirty == 0);        // (nothing to write back: the line is not named)
    cache.fill(0, 0, true);       // line 0 again (evicting line 1, dirty): lines 2 and 0 are dirty
    CHECK(cache.clean_excess(0).dirty == 0);
}

TEST_CASE("memory units: with partial_miss_fetch a partial store that misses reads its sector", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.stores.partial_sector_dram_read = true;
    for (bool fetch : {false, true}) {
        c.memory.stores.partial_miss_fetch = fetch;
        MemoryStats st;
        L2 l2(c, st);
        l2.write(0, 0, 0, true);  // 4 B of sector 0
        INFO("fetch " << fetch);
        CHECK(st.dram_rmw_sectors == (fetch ? 1u : 0u));
        // With the fetch the sector is whole: a read at 1000 hits (200); without it the read
        // needs the other bytes from DRAM (500).
        CHECK(l2.read(0, 1000, 0) == (fetch ? 1200u : 1500u));
    }
}

TEST_CASE("memory units: the DRAM write queue hides write_queue_cycles of a cleaning's write-back", "[timing][memory]") {
    // One dirty line per set: the store to a second line of set 0 (512 lines on) cleans the
    // first. Opening a write row costs 64000 B at 64 B per cycle: the write-back is done 1000
    // cycles (and half a cycle of data) after the store at 10, at 1011.
    GpuConfig c = small_config();
    c.memory.stores.dirty_lines = 1;
    c.memory.dram.write_row_miss_bytes = 64000;
    const uint64_t second = 512 * 4;  // sector of line 512: set 0 again
    for (uint32_t queue : {0u, 600u, 5000u}) {
        c.memory.stores.write_queue_cycles = queue;
        MemoryStats st;
        L2 l2(c, st);
        CHECK(l2.write(0, 0, 0, false) == 200);  // hit latency: nothing to clean yet
        const uint64_t ack = l2.write(0, 10, second, false);
        INFO("write_queue_cycles " << queue);
        CHECK(st.l2_cleaned_lines == 1);
        CHECK(ack == std::max<uint64_t>(210, 1011 - std::min<uint64_t>(queue, 1011)));
    }
}

TEST_CASE("memory units: a full write-back buffer stalls the slice and its hits", "[timing][memory]") {
    // As above: one dirty line per set, each write-back opens a write row (1000 cycles). Three
    // stores to lines of set 0: the second cleans the first (done at 1011), the third cleans the
    // second. With a write-back buffer of one entry the third's write-back waits for the first's (1011), starts
    // then and opens another row (done 1011 + 1000.5 -> 2012); the slice's tags wait for the room,
    // so a read at 30 of line 0 (present, clean: a hit, 200 cycles) enters at 1011 and is back at
    // 1211. With no limit it is back at 230 and the third store waits for its own write-back only.
    GpuConfig c = small_config();
    c.memory.stores.dirty_lines = 1;
    c.memory.dram.write_row_miss_bytes = 64000;
    for (uint32_t lines : {0u, 1u, 2u}) {
        c.memory.l2_slices.write_back_entries = lines;
        MemoryStats st;
        L2 l2(c, st);
        INFO("write_back_entries " << lines);
        CHECK(l2.write(0, 0, 0, false) == 200);
        CHECK(l2.write(0, 10, 512 * 4, false) == 1011);
        const uint64_t third = l2.write(0, 20, 1024 * 4, false);
        CHECK(st.l2_cleaned_lines == 2);
        CHECK(l2.read(0, 30, 0) == (lines == 1 ? 1211u : 230u));
        CHECK(third == (lines == 1 ? 2012u : 2011u));
    }
}

TEST_CASE("memory units: a partial store's fetch brings its 64 B piece, so the next sector needs none", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.dram_fetch_bytes = 64;  // two sectors per DRAM piece
    c.memory.stores.partial_sector_dram_read = true;
    c.memory.stores.partial_miss_fetch = true;
    MemoryStats st;
    L2 l2(c, st);
    l2.write(0, 0, 0, true);    // 4 B of sector 0: reads sectors 0 and 1
    l2.write(0, 10, 1, true);   // 4 B of sector 1: whole already
    CHECK(st.dram_rmw_sectors == 1);
    l2.write(0, 20, 2, true);   // the next piece: read again
    CHECK(st.dram_rmw_sectors == 2);
    CHECK(st.dram_read_bytes == 128);  // two 64 B pieces read
    CHECK(st.l2_hit_sectors == 1);
}

TEST_CASE("memory units: the report's busiest slice and channel are their busy cycles over the launch", "[timing][memory]") {
    // One slice at 0.5 sectors per cycle (2 cycles a sector) and one channel at 64 B per cycle:
    // ten read misses of 32 B keep the slice 20 cycles busy and the channel 5.
    GpuConfig c = small_config();
    c.memory.l2_slices.sectors_per_cycle = 0.5;
    MemoryStats st;
    L2 l2(c, st);
    for (uint64_t s = 0; s < 10; ++s) {
        l2.begin_request();
        l2.read(0, 0, s * 64);  // sectors of distinct lines and chunks
    }
    l2.busy(st, 100);
    CHECK(st.l2_slice_busy_max == Approx(0.2));
    CHECK(st.l2_slice_busy_mean == Approx(0.2));
    CHECK(st.dram_busy_max == Approx(0.05));
    CHECK(st.dram_busy_mean == Approx(0.05));
    l2.busy(st, 10);  // more work than cycles (write-backs still draining): capped
    CHECK(st.l2_slice_busy_max == 1.0);
    CHECK(st.dram_busy_max == Approx(0.5));
}

TEST_CASE("memory units: with l1_local_store_allocate a local store's whole sectors fill the L1", "[timing][memory]") {
    // 32 lanes store one word each (one whole 128 B line of the interleaved local space), then load
    // it back: with allocation the load hits L1 (30 cycles), without it the line comes from the L2
    // (200: the store wrote it there). A byte-masked store (every other lane) allocates nothing:
    // its load misses L1 either way and, the L2 holding only part of each sector, reads DRAM (500).
    const char* whole = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.local 16\n"
                        "mov r1, 0\nst.local [r1 + 4], r1\nld.local r2, [r1 + 4]\niadd r3, r2, 1\nexit\n";
    const char* masked = ".kernel t\n.grid 1\n.block 32\n.regs 8\n.local 16\n"
                         "mov r1, 0\nand r4, %tid.x, 1\nisetp.eq p0, r4, 0\n@p0 st.local [r1 + 4], r1\n"
                         "ld.local r2, [r1 + 4]\niadd r3, r2, 1\nexit\n";
    for (bool allocate : {false, true}) {
        GpuConfig c = small_config();
        c.memory.l1_local_store_allocate = allocate;
        Recorder rec;
        run(whole, c, {true, &rec, {}});
        INFO("allocate " << allocate);
        const uint64_t load = rec.issue_cycles(0, 2).at(0);
        CHECK(rec.issue_cycles(0, 3).at(0) == load + (allocate ? 30 : 200));
        Recorder part;
        run(masked, c, {true, &part, {}});
        CHECK(part.issue_cycles(0, 5).at(0) == part.issue_cycles(0, 4).at(0) + 500);
    }
}

TEST_CASE("memory units: a read's sectors of one line share a lookup, then move at the data rate", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.l2_slices.count = 1;
    c.memory.l2_slices.read_lookups_per_cycle = 0.5;  // a line's lookup holds the slice 2 cycles
    c.memory.l2_slices.data_sectors_per_cycle = 1;    // then 1 cycle a sector: a line of n sectors max(2, n)
    MemoryStats st;
    L2 l2(c, st);
    const uint64_t spl = c.memory.l2.line_bytes / c.memory.sector_bytes;  // 4
    auto read = [&](uint64_t t, std::initializer_list<uint64_t> sectors) {
        l2.begin_request();
        uint64_t done = 0;
        for (uint64_t s : sectors) done = std::max(done, l2.read(0, t, s));
        return done;
    };
    read(0, {0, 1, 2, 3, 4 * spl, 8 * spl, 12 * spl});  // bring the lines in (DRAM)
    // A whole line: 2 + 0 + 1 + 1 = 4 cycles; the next request, at the same cycle, waits them.
    CHECK(read(1000, {0, 1, 2, 3}) == 1200);
    CHECK(read(1000, {4 * spl}) == 1204);  // one sector: the lookup, 2 cycles
    // Two sectors of a line: max(2, 2) = 2; three lines of one sector each: 2 each.
    CHECK(read(2000, {0, 1}) == 2200);
    CHECK(read(2000, {4 * spl, 8 * spl, 12 * spl}) == 2202);
    CHECK(read(2000, {0}) == 2208);
    // Off (data_sectors_per_cycle 0): every sector a lookup, a whole line 4 x 2 = 8 cycles.
    c.memory.l2_slices.data_sectors_per_cycle = 0;
    MemoryStats st2;
    L2 off(c, st2);
    off.begin_request();
    for (uint64_t s = 0; s < 4; ++s) off.read(0, 0, s);
    off.begin_request();
    for (uint64_t s = 0; s < 4; ++s) off.read(0, 1000, s);
    off.begin_request();
    CHECK(off.read(0, 1000, 4 * spl) == 1000 + 8 + 500);  // waits the line's 8, then misses
}

TEST_CASE("memory units: a store's line packet takes ceil((header + data) / flit) flits of the slice input",
          "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.l2_slices.count = 1;
    c.memory.l2_slices.sectors_per_cycle = 0;       // no lookup limit: the input alone
    c.memory.l2_slices.input_flits_per_cycle = 1;   // a flit holds the input 1 cycle
    c.memory.l2_slices.flit_bytes = 32;
    c.memory.stores.header_bytes = 24;
    MemoryStats st;
    L2 l2(c, st);
    const uint64_t spl = c.memory.l2.line_bytes / c.memory.sector_bytes;
    auto store = [&](uint64_t t, std::initializer_list<uint64_t> sectors, bool partial) {
        l2.begin_request();
        uint64_t done = 0;
        for (uint64_t s : sectors) done = std::max(done, l2.write(0, t, s, partial));
        return done;
    };
    // A whole line: 24 + 128 B = 5 flits; the next packet at the same cycle enters 5 later.
    CHECK(store(1000, {0, 1, 2, 3}, false) == 1200);
    CHECK(store(1000, {4 * spl}, false) == 1205);  // a whole sector: 24 + 32 B = 2 flits
    CHECK(store(1000, {8 * spl}, true) == 1207);   // a byte-masked sector: 24 + 4 B = 1 flit
    CHECK(store(1000, {12 * spl}, true) == 1208);
    // Off (header_bytes 0): stores take no input.
    c.memory.stores.header_bytes = 0;
    MemoryStats st2;
    L2 off(c, st2);
    off.begin_request();
    for (uint64_t s = 0; s < 4; ++s) off.write(0, 1000, s, false);
    off.begin_request();
    CHECK(off.write(0, 1000, 4 * spl, false) == 1200);
}

TEST_CASE("memory units: the L1 takes no load while its missed lines in flight reach l1_miss_lines_in_flight",
          "[timing][memory]") {
    GpuConfig c = small_config();
    Recorder free_run;
    run(kGather, c, {true, &free_run, {}});
    // Without a limit warp 1's gather enters at 16, behind warp 0's 8 wavefronts (kGather).
    CHECK(free_run.issue_cycles(1, 2).at(0) < 20);
    c.memory.l1_miss_lines_in_flight = 2;
    Recorder limited;
    run(kGather, c, {true, &limited, {}});
    // Warp 0's 32 lines (its load may take the count past 2) are all back at 8 + 500: only then
    // does warp 1's load enter, and its data comes 500 later.
    CHECK(limited.issue_cycles(0, 2).at(0) == 8);
    CHECK(limited.issue_cycles(1, 2).at(0) == 508);
    CHECK(fadd_cycle(limited, 1) >= 1008);
    CHECK(fadd_cycle(limited, 0) == fadd_cycle(free_run, 0));
}
