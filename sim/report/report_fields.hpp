// report_fields.hpp: the fields of a run's report, listed once for every printer.
//
// write_report_fields() writes the run-level part of the JSON report (everything
// but `per_pc`) to any writer with JsonWriter's interface: JsonWriter for
// `--json`, FlatRow (sim/report/summary.hpp) for one CSV row per run in a sweep.
// A writer whose `kFixedShape` is true gets the same columns for every run: the
// launch section then carries the fields of both launch modes (0 where they do
// not apply), so a compute and a fragment trace share one CSV header.
#pragma once

#include "sim/report/report.hpp"

#include <cstdint>

namespace simt::report {

template <class W>
void write_launch(W& j, const isa::Program& p) {
    const isa::LaunchDecl& L = p.launch;
    const bool fragment = L.mode == isa::LaunchDecl::Mode::Fragment;
    j.begin_object("launch").field("mode", fragment ? "fragment" : "compute");
    if (fragment || W::kFixedShape) {
        j.field("width", fragment ? L.width : 0u).field("height", fragment ? L.height : 0u);
        j.field("tile_width", fragment ? L.tile_w : 0u).field("tile_height", fragment ? L.tile_h : 0u);
    }
    if (!fragment || W::kFixedShape) {
        const auto dims = [&](const char* key, const auto& d) {
            j.begin_array(key);
            j.value(uint64_t(fragment ? 0 : d.x)).value(uint64_t(fragment ? 0 : d.y)).value(uint64_t(fragment ? 0 : d.z));
            j.end_array();
        };
        dims("grid", L.grid);
        dims("block", L.block);
        j.field("warps_per_block", fragment ? 0u : p.warps_per_block());
    }
    j.end_object();
}

// Inside an open object: every run-level field of the report, in the JSON order.
template <class W>
void write_report_fields(W& j, const RunInfo& run, const timing::Stats& s) {
    using timing::kNumStallReasons;
    using timing::StallReason;
    j.field("kernel", s.kernel).field("config", s.config_name).field("config_file", run.config_path);
    j.field("trace", run.trace_path);
    j.field("cycles", s.cycles).field("time_us", s.time_us).field("clock_mhz", s.clock_mhz);
    j.field("kernel_launch_us", s.kernel_launch_us);
    j.field("sms", s.sms).field("sub_partitions", s.sub_partitions);
    j.field("blocks", s.blocks).field("warps", s.warps).field("warm_launches", s.warm_launches);
    write_launch(j, run.program);
    j.field("warp_instructions", s.warp_instructions).field("thread_instructions", s.thread_instructions);
    j.field("thread_instructions_pred_on", s.thread_instructions_pred_on);
    j.field("ipc", s.ipc).field("simt_efficiency", s.simt_efficiency);
    j.begin_object("occupancy")
        .field("theoretical", s.occupancy.theoretical)
        .field("achieved", s.occupancy.achieved)
        .field("limiter", timing::limiter_name(s.occupancy.limiter))
        .field("warps_per_sm", s.occupancy.warps_per_sm)
        .field("blocks_per_sm", s.occupancy.blocks_per_sm)
        .field("max_warps", s.occupancy.max_warps)
        .field("regs_per_warp", s.occupancy.regs_per_warp)
        .field("shared_per_block", s.occupancy.shared_per_block)
        .end_object();
    j.begin_object("stall_reasons");
    for (int r = 0; r < kNumStallReasons; ++r) j.field(timing::stall_name(r), s.cycles_per_issue(StallReason(r)));
    j.end_object();
    j.begin_object("stall_cycles");
    for (int r = 0; r < kNumStallReasons; ++r) j.field(timing::stall_name(r), s.stall_cycles[r]);
    j.end_object();
    // The uniform pipe only when used (reports of traces without it keep their bytes), except
    // for fixed-shape writers, which list every pipe.
    const auto listed = [&](int p) {
        return W::kFixedShape || isa::Pipe(p) != isa::Pipe::Uniform || s.pipes[p].issued > 0;
    };
    j.begin_object("pipes");
    for (int p = 0; p < isa::kNumPipes; ++p)
        if (listed(p)) j.field(isa::pipe_name(isa::Pipe(p)), s.pipes[p].utilisation);
    j.end_object();
    j.begin_object("pipe_instructions");
    for (int p = 0; p < isa::kNumPipes; ++p)
        if (listed(p)) j.field(isa::pipe_name(isa::Pipe(p)), s.pipes[p].issued);
    j.end_object();
    const auto& m = s.memory;
    uint64_t req = m.global_load.requests + m.global_store.requests + m.global_atomic.requests +
                   m.local_load.requests + m.local_store.requests + m.tex.requests;
    uint64_t sec = m.global_load.sectors + m.global_store.sectors + m.global_atomic.sectors + m.local_load.sectors +
                   m.local_store.sectors + m.tex.sectors;
    j.begin_object("memory")
        .field("requests", req)
        .field("sectors", sec)
        .field("sectors_per_request", req ? double(sec) / double(req) : 0.0)
        .field("l1_hit_rate", m.l1_hit_rate())
        .field("l2_hit_rate", m.l2_hit_rate())
        .field("dram_bytes", m.dram_read_bytes + m.dram_write_bytes)
        .field("dram_read_bytes", m.dram_read_bytes)
        .field("dram_write_bytes", m.dram_write_bytes);
    auto access = [&](const char* k, const timing::AccessStats& a) {
        j.begin_object(k).field("requests", a.requests).field("sectors", a.sectors).end_object();
    };
    access("global_load", m.global_load);
    access("global_store", m.global_store);
    access("global_atomic", m.global_atomic);
    access("local_load", m.local_load);
    access("local_store", m.local_store);
    access("tex", m.tex);
    j.field("shared_requests", m.shared_load_requests + m.shared_store_requests + m.shared_atomic_requests)
        .field("shared_wavefronts", m.shared_wavefronts)
        .field("shared_bank_conflicts", m.shared_bank_conflicts)
        .field("const_requests", m.const_requests)
        .field("shuffle_requests", m.shuffle_requests);
    j.begin_object("units")
        .field("l1_bytes", uint64_t(m.l1_bytes))
        .field("shared_carveout_bytes", uint64_t(m.shared_carveout_bytes))
        .field("xbar_queue_cycles", m.xbar_queue_cycles)
        .field("l2_queue_cycles", m.l2_queue_cycles)
        .field("l2_slice_busy_max", m.l2_slice_busy_max)
        .field("l2_slice_busy_mean", m.l2_slice_busy_mean)
        .field("dram_busy_max", m.dram_busy_max)
        .field("dram_busy_mean", m.dram_busy_mean)
        .field("dram_queue_cycles", m.dram_queue_cycles)
        .field("dram_load_cycles", m.dram_load_cycles)
        .field("dram_row_misses", m.dram_row_misses)
        .field("l2_partial_writes", m.l2_partial_writes)
        .field("l2_far_hits", m.l2_far_hits)
        .field("l2_invalidations", m.l2_invalidations)
        .field("dram_rmw_sectors", m.dram_rmw_sectors)
        .field("l2_cleaned_lines", m.l2_cleaned_lines)
        .field("atomic_lane_ops", m.atomic_lane_ops)
        .field("atomic_serial_cycles", m.atomic_serial_cycles)
        .field("shared_atomic_serial", m.shared_atomic_serial)
        .field("tex_quads", m.tex_quads)
        .field("tex_stage_cycles", m.tex_stage_cycles)
        .end_object();
    j.end_object();
    j.begin_object("regfile")
        .field("operand_reads", s.regfile.operand_reads)
        .field("reuse_hits", s.regfile.reuse_hits)
        .field("bank_conflict_cycles", s.regfile.bank_conflict_cycles)
        .field("bank_hold_cycles", s.regfile.bank_hold_cycles)
        .end_object();
}

}  // namespace simt::report
