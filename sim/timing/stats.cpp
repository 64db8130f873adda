// stats.cpp: the names of the enums in stats.hpp (ncu spellings).
#include "sim/timing/stats.hpp"

namespace simt::timing {

const char* stall_name(StallReason r) {
    switch (r) {
        case StallReason::Selected: return "selected";
        case StallReason::NotSelected: return "not_selected";
        case StallReason::Wait: return "wait";
        case StallReason::ShortScoreboard: return "short_scoreboard";
        case StallReason::LongScoreboard: return "long_scoreboard";
        case StallReason::MathPipeThrottle: return "math_pipe_throttle";
        case StallReason::MioThrottle: return "mio_throttle";
        case StallReason::LgThrottle: return "lg_throttle";
        case StallReason::TexThrottle: return "tex_throttle";
        case StallReason::Barrier: return "barrier";
        case StallReason::BranchResolving: return "branch_resolving";
        case StallReason::NoInstruction: return "no_instruction";
        case StallReason::DispatchStall: return "dispatch_stall";
        case StallReason::Drain: return "drain";
        case StallReason::Sleeping: return "sleeping";
        case StallReason::Membar: return "membar";
    }
    return "?";
}

const char* limiter_name(OccupancyLimiter l) {
    switch (l) {
        case OccupancyLimiter::Warps: return "warps";
        case OccupancyLimiter::Blocks: return "blocks";
        case OccupancyLimiter::Registers: return "registers";
        case OccupancyLimiter::SharedMemory: return "shared_memory";
    }
    return "?";
}

namespace {

void add(AccessStats& into, const AccessStats& from) {
    into.requests += from.requests;
    into.sectors += from.sectors;
}

}  // namespace

void add_counters(MemoryStats& a, const MemoryStats& b) {
    add(a.global_load, b.global_load);
    add(a.global_store, b.global_store);
    add(a.global_atomic, b.global_atomic);
    add(a.local_load, b.local_load);
    add(a.local_store, b.local_store);
    add(a.tex, b.tex);
    a.l1_hit_sectors += b.l1_hit_sectors;
    a.l1_miss_sectors += b.l1_miss_sectors;
    a.l1_wavefronts += b.l1_wavefronts;
    a.l2_hit_sectors += b.l2_hit_sectors;
    a.l2_miss_sectors += b.l2_miss_sectors;
    a.dram_read_bytes += b.dram_read_bytes;
    a.dram_write_bytes += b.dram_write_bytes;
    a.shared_load_requests += b.shared_load_requests;
    a.shared_store_requests += b.shared_store_requests;
    a.shared_atomic_requests += b.shared_atomic_requests;
    a.shared_wavefronts += b.shared_wavefronts;
    a.shared_bank_conflicts += b.shared_bank_conflicts;
    a.const_requests += b.const_requests;
    a.const_extra_cycles += b.const_extra_cycles;
    a.shuffle_requests += b.shuffle_requests;
    a.xbar_queue_cycles += b.xbar_queue_cycles;
    a.l2_queue_cycles += b.l2_queue_cycles;
    a.dram_queue_cycles += b.dram_queue_cycles;
    a.dram_load_cycles += b.dram_load_cycles;
    a.dram_row_misses += b.dram_row_misses;
    a.l2_partial_writes += b.l2_partial_writes;
    a.dram_rmw_sectors += b.dram_rmw_sectors;
    a.atomic_lane_ops += b.atomic_lane_ops;
    a.atomic_serial_cycles += b.atomic_serial_cycles;
    a.shared_atomic_serial += b.shared_atomic_serial;
    a.tex_quads += b.tex_quads;
    a.tex_stage_cycles += b.tex_stage_cycles;
}

void add_counters(PcStats& a, const PcStats& b) {
    a.issued += b.issued;
    a.thread_instructions += b.thread_instructions;
    a.thread_instructions_pred_on += b.thread_instructions_pred_on;
    for (size_t r = 0; r < a.stall_cycles.size(); ++r) a.stall_cycles[r] += b.stall_cycles[r];
}

}  // namespace simt::timing
