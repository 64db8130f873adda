// stats.hpp: what one timed run measured, as plain value structs.
//
// Counting lives in the timing model; printing (text, JSON, CSV) lives in
// sim/report/. Every field says what it counts and, where one exists, the
// Nsight Compute metric it corresponds to (see ../shared/REFERENCE.md §4-§5).
// Nothing here depends on host time: two runs of the same program and config
// give equal Stats (operator== is provided for the determinism tests).
//
// Left out: per-SM-sub-partition breakdowns beyond the per-SM totals, L2 slice
// and DRAM channel breakdowns, energy.
#pragma once

#include "isa/isa.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace simt::timing {

// Warp states with Nsight Compute's names (smsp__warp_issue_stalled_<name>...).
// Every resident warp is in exactly one of them in every cycle.
enum class StallReason : uint8_t {
    Selected,          // issued an instruction this cycle
    NotSelected,       // eligible, but the scheduler picked another warp (or was busy dispatching)
    Wait,              // fixed-latency dependency (result of a fixed-latency pipe, emulated div)
    ShortScoreboard,   // dependency on an MIO result: shared memory, SFU, shuffle, const
    LongScoreboard,    // dependency on an L1TEX result: global, local, texture
    MathPipeThrottle,  // operands ready, the fma/alu/sfu/fp64/branch pipe is busy
    MioThrottle,       // operands ready, the MIO path (shared/const/shuffle) is busy
    LgThrottle,        // operands ready, the LSU path for global/local is full
    TexThrottle,       // operands ready, the TEX path is full
    Barrier,           // waiting at `bar` for the other warps of its block
    BranchResolving,   // after a taken or divergent branch
    NoInstruction,     // block just launched: instructions not fetched yet
    DispatchStall,     // selected, but its operand reads collide in a register bank
    Drain,             // after exit, waiting for its outstanding memory to complete
    Sleeping,          // after nanosleep, for its duration
    Membar,            // (not produced by the model)
};
constexpr int kNumStallReasons = 16;

// The ncu spelling: "selected", "not_selected", "long_scoreboard", ...
const char* stall_name(StallReason r);
inline const char* stall_name(int r) { return stall_name(static_cast<StallReason>(r)); }

using StallArray = std::array<uint64_t, kNumStallReasons>;

// What bounds the resident blocks per SM (theoretical occupancy).
enum class OccupancyLimiter : uint8_t { Warps, Blocks, Registers, SharedMemory };
const char* limiter_name(OccupancyLimiter l);  // "warps", "blocks", "registers", "shared_memory"

struct OccupancyStats {
    double theoretical = 0;        // warps_per_sm / max_warps (ncu sm__maximum_warps_per_active_cycle_pct / 100)
    double achieved = 0;           // time-averaged resident warps per SM while the SM had work
                                   // / max_warps (ncu sm__warps_active.avg.pct_of_peak_sustained_active / 100)
    OccupancyLimiter limiter = OccupancyLimiter::Warps;
    uint32_t warps_per_sm = 0;     // theoretical resident warps per SM
    uint32_t blocks_per_sm = 0;    // theoretical resident blocks per SM
    uint32_t max_warps = 0;        // the SM's warp slots (config)
    // Blocks per SM allowed by each limit alone (the smallest is the limiter;
    // UINT32_MAX where a limit does not apply, e.g. blocks for fragment launches).
    uint32_t limit_warps = 0, limit_blocks = 0, limit_registers = 0, limit_shared = 0;
    uint32_t regs_per_warp = 0;    // allocated: regs_per_thread * 32 rounded up to reg_alloc_unit
    uint32_t shared_per_block = 0; // allocated: shared + reserved rounded up to shared_alloc_unit
    bool operator==(const OccupancyStats&) const = default;  // exact, for determinism tests
};

struct PipeStats {
    uint64_t issued = 0;       // warp instructions issued to this pipe
    uint64_t busy_cycles = 0;  // sum over sub-partitions of cycles the pipe was occupied
    double utilisation = 0;    // busy_cycles / (cycles * SMs * sub_partitions)
    bool operator==(const PipeStats&) const = default;  // exact, for determinism tests
};

// Requests (one per warp instruction) and 32-byte sectors of one access kind.
struct AccessStats {
    uint64_t requests = 0;     // ncu l1tex__t_requests_pipe_lsu_mem_<space>_op_<op>.sum
    uint64_t sectors = 0;      // ncu l1tex__t_sectors_pipe_lsu_mem_<space>_op_<op>.sum
    double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
    bool operator==(const AccessStats&) const = default;
};

struct MemoryStats {
    AccessStats global_load, global_store, global_atomic;
    AccessStats local_load, local_store;
    AccessStats tex;
    // L1 (per SM, summed) and L2 tag lookups, in sectors (loads, local and tex;
    // stores and atomics bypass L1).
    uint64_t l1_hit_sectors = 0, l1_miss_sectors = 0;   // loads' and stores' look-ups: l1tex__t_sector_hit_rate = hit / (hit + miss)
    uint64_t l1_wavefronts = 0;                         // L1 tag-stage passes (ceil(sectors / l1_sectors_per_cycle))
    uint64_t l2_hit_sectors = 0, l2_miss_sectors = 0;   // lts__t_sector_hit_rate (loads, stores, atomics)
    uint64_t dram_read_bytes = 0;                       // dram__bytes_read.sum
    uint64_t dram_write_bytes = 0;                      // dirty L2 sectors written back (evictions)
    // Shared memory (MIO): one request per warp instruction; wavefronts = bank passes.
    uint64_t shared_load_requests = 0, shared_store_requests = 0, shared_atomic_requests = 0;
    uint64_t shared_wavefronts = 0;
    uint64_t shared_bank_conflicts = 0;  // extra wavefronts = wavefronts - requests
                                         // (ncu l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum)
    uint64_t const_requests = 0;
    uint64_t const_extra_cycles = 0;     // serialisation over distinct addresses (distinct - 1 per request)
    uint64_t shuffle_requests = 0;
    // The memory path's units (sim/timing/memory/): queueing summed over sectors (crossbar
    // ports, L2 slices) or DRAM pieces, in cycles.
    uint64_t xbar_queue_cycles = 0;      // waiting for the SM's crossbar port
    uint64_t l2_queue_cycles = 0;        // waiting for an L2 slice's throughput
    uint64_t dram_queue_cycles = 0;      // waiting for a DRAM channel's bandwidth
    uint64_t dram_load_cycles = 0;       // the M/D/1 load term (bank conflicts below saturation)
    uint64_t dram_row_misses = 0;        // row chunks opened (DRAM activations)
    uint64_t l2_partial_writes = 0;      // store sectors written with a byte mask
    uint64_t l2_far_hits = 0;            // read misses served by another L2 partition's copy
    uint64_t l2_invalidations = 0;       // copies dropped in other partitions by a store or an atomic
    uint64_t dram_rmw_sectors = 0;       // partial sectors read before their write-back
    uint64_t l2_cleaned_lines = 0;       // dirty lines written back early (stores.dirty_lines)
    uint64_t atomic_lane_ops = 0;        // global atomic operations at the L2 atomic units
    uint64_t atomic_serial_cycles = 0;   // cycles atomic groups waited at their unit or address after their data was there
    uint64_t shared_atomic_serial = 0;   // extra MIO passes of shared atomics on one word
    uint64_t tex_quads = 0;              // 2x2 quads with an active lane, over texture requests
    uint64_t tex_stage_cycles = 0;       // TEX stage cycles (quads / quads_per_cycle per request)
    // Servers' busy time over the launch's cycles (set at the end from the shared L2, not summed):
    // the busiest L2 slice (its sector port or atomic input) and DRAM channel, and the means.
    double l2_slice_busy_max = 0, l2_slice_busy_mean = 0;
    double dram_busy_max = 0, dram_busy_mean = 0;
    uint32_t l1_bytes = 0;               // the kernel's L1 per SM after its shared-memory carve-out
    uint32_t shared_carveout_bytes = 0;  // the carve-out chosen for it
    double l1_hit_rate() const {
        uint64_t n = l1_hit_sectors + l1_miss_sectors;
        return n ? double(l1_hit_sectors) / double(n) : 0.0;
    }
    double l2_hit_rate() const {
        uint64_t n = l2_hit_sectors + l2_miss_sectors;
        return n ? double(l2_hit_sectors) / double(n) : 0.0;
    }
    bool operator==(const MemoryStats&) const = default;  // exact, for determinism tests
};

struct RegFileStats {
    uint64_t operand_reads = 0;          // source-register reads that went to a bank
    uint64_t reuse_hits = 0;             // source reads served by the operand reuse cache
    uint64_t bank_conflict_cycles = 0;   // extra read cycles of instructions whose own sources share a bank port
    uint64_t bank_hold_cycles = 0;       // cycles the scheduler was held by the read queue (= warp-cycles in dispatch_stall)
    bool operator==(const RegFileStats&) const = default;  // exact, for determinism tests
};

// One instruction of the program (index = pc).
struct PcStats {
    uint64_t issued = 0;               // warp instructions issued (ncu inst_executed, per pc)
    uint64_t thread_instructions = 0;  // active lanes summed (ncu thread_inst_executed, per pc)
    uint64_t thread_instructions_pred_on = 0;  // lanes whose guard held
    StallArray stall_cycles{};         // warp-cycles spent in each state while this was the warp's pc
    bool operator==(const PcStats&) const = default;  // exact, for determinism tests
};

struct SmStats {
    uint64_t active_cycles = 0;        // cycles with at least one resident warp (sm__cycles_active)
    uint64_t resident_warp_cycles = 0; // sum over cycles of resident warps (sm__warps_active.sum)
    uint64_t launch_wait_warp_cycles = 0;  // of those, warp-cycles before a warp's launch_ready:
                                       // its slot is held, its states are not yet counted
    uint64_t warp_instructions = 0;    // issued on this SM
    uint64_t blocks = 0;               // blocks that ran on this SM
    bool operator==(const SmStats&) const = default;  // exact, for determinism tests
};

struct Stats {
    // ---- identity
    std::string kernel;                // Program::kernel
    std::string config_name;           // GpuConfig::name
    uint32_t sms = 0, sub_partitions = 0;
    uint64_t blocks = 0;               // blocks launched
    uint64_t warps = 0;                // warps launched
    uint32_t warm_launches = 0;        // untimed launches before this one (RunOptions::warm_launches)

    // ---- time
    uint64_t cycles = 0;               // first dispatch (cycle 0) to the last warp retiring
    double clock_mhz = 0;
    double kernel_launch_us = 0;       // GpuConfig::launch.kernel_launch_us
    double time_us = 0;                // cycles / clock_mhz + kernel_launch_us

    // ---- instructions
    uint64_t warp_instructions = 0;    // instructions issued = executed (ncu smsp__inst_executed.sum)
    uint64_t issue_slots = 0;          // scheduler cycles spent issuing: warp_instructions plus the
                                       // extra slots of emulated integer division sequences
    uint64_t thread_instructions = 0;  // active lanes (ncu smsp__thread_inst_executed.sum)
    uint64_t thread_instructions_pred_on = 0;  // lanes whose guard held (..._pred_on.sum)
    // Warp instructions per SM per active cycle: sum(warp_instructions) / sum(SM active cycles),
    // i.e. ncu sm__inst_executed.avg.per_cycle_active. Divide by sub_partitions for the
    // per-scheduler figure (smsp__inst_executed.avg.per_cycle_active).
    double ipc = 0;
    double simt_efficiency = 0;        // thread_instructions / (32 * warp_instructions)

    OccupancyStats occupancy;

    // ---- warp states: warp-cycles spent in each, summed over all warps
    // (smsp__warps_issue_stalled_<r> summed). Sum over reasons = sum of resident warp-cycles.
    StallArray stall_cycles{};
    // ncu smsp__average_warp_latency_issue_stalled_<r> per issued instruction
    // (the CPI-stack entry): stall_cycles[r] / warp_instructions.
    double cycles_per_issue(StallReason r) const {
        return warp_instructions ? double(stall_cycles[int(r)]) / double(warp_instructions) : 0.0;
    }
    uint64_t resident_warp_cycles() const {
        uint64_t s = 0;
        for (auto v : stall_cycles) s += v;
        return s;
    }

    std::array<PipeStats, isa::kNumPipes> pipes{};  // indexed by isa::Pipe
    MemoryStats memory;
    RegFileStats regfile;
    std::vector<PcStats> per_pc;       // size = program.code.size()
    std::vector<SmStats> per_sm;       // size = sms
    bool operator==(const Stats&) const = default;  // exact, for determinism tests
};

// Adds the counters of `from` to `into` (a parallel run's per-SM counts,
// summed in SM order; integers, so the sums are exact in any order): the
// access, L1/L2/DRAM, shared, texture and unit counters, not l1_bytes and
// shared_carveout_bytes (the kernel's, not counted).
void add_counters(MemoryStats& into, const MemoryStats& from);
void add_counters(PcStats& into, const PcStats& from);

}  // namespace simt::timing
