// report.cpp: the text report, the JSON twin and the per-instruction CSV.
#include "sim/report/report.hpp"

#include "sim/report/json_writer.hpp"
#include "sim/report/report_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>

namespace simt::report {

using timing::Stats;
using timing::StallReason;
using timing::kNumStallReasons;

const char* stall_meaning(StallReason r) {
    switch (r) {
        case StallReason::Selected: return "issued an instruction";
        case StallReason::NotSelected: return "eligible, but another warp was selected";
        case StallReason::Wait: return "waiting on a fixed-latency execution dependency";
        case StallReason::ShortScoreboard: return "waiting on an MIO result (shared memory, special function, shuffle)";
        case StallReason::LongScoreboard: return "waiting on an L1TEX result (global, local, texture memory)";
        case StallReason::MathPipeThrottle: return "waiting for an execution pipe to be available";
        case StallReason::MioThrottle: return "waiting for a free entry in the MIO instruction queue";
        case StallReason::LgThrottle: return "waiting for a free entry in the LSU (local/global) queue";
        case StallReason::TexThrottle: return "waiting for a free entry in the TEX queue";
        case StallReason::Barrier: return "waiting for sibling warps at a block barrier";
        case StallReason::BranchResolving: return "waiting for a branch target to be computed and the PC updated";
        case StallReason::NoInstruction: return "waiting for instructions (warp just launched, or a taken branch's target fetched)";
        case StallReason::DispatchStall: return "selected, but held by the dispatcher (register bank conflict)";
        case StallReason::Drain: return "after exit, waiting for memory to drain";
        case StallReason::Sleeping: return "asleep (nanosleep, yield)";
        case StallReason::Membar: return "waiting on a memory barrier";
    }
    return "";
}

const char* stall_hint(StallReason r) {
    switch (r) {
        case StallReason::LongScoreboard:
            return "memory latency is not hidden: raise occupancy (fewer registers), coalesce accesses, "
                   "load earlier and use later, use v4 loads";
        case StallReason::ShortScoreboard:
            return "waiting on shared memory / special functions / shuffles: remove bank conflicts, "
                   "fewer sin/rsqrt/.., interleave independent work";
        case StallReason::Wait:
            return "chains of dependent math: give each warp independent instructions (ILP) or more warps";
        case StallReason::MathPipeThrottle:
            return "a pipe is saturated (compute-bound): move work to a cheaper pipe (fp32 not fp64, "
                   "shifts not integer multiply, fewer dependent chains on one pipe)";
        case StallReason::MioThrottle:
            return "the MIO queue is full: fewer shared-memory/shuffle/special-function (sin, rsqrt, ex2, "
                   "integer division) instructions, v4 accesses, fewer bank conflicts";
        case StallReason::LgThrottle:
            return "too many global/local requests in flight: fewer and wider (v4) accesses, coalesce, "
                   "avoid local-memory spills";
        case StallReason::TexThrottle: return "the texture path is full: fewer fetches, or more math per fetch";
        case StallReason::Barrier:
            return "warps wait for the slowest warp of their block at bar: balance work between warps";
        case StallReason::BranchResolving:
            return "branches cost issue time: make conditions coherent per warp, or use sel for short bodies";
        case StallReason::DispatchStall:
            return "register bank conflicts: sources of one instruction share a bank";
        case StallReason::NoInstruction:
            return "warps wait to start (many short blocks: give each block more work) or for a taken branch's "
                   "target (short loops: unroll them)";
        case StallReason::NotSelected:
            return "more eligible warps than issue slots: the schedulers are the limit (healthy)";
        case StallReason::Drain: return "exited warps wait for their stores to complete";
        default: return "";
    }
}

namespace {

std::string grouped(uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
    return s;
}

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string pct(double fraction, int digits = 1) { return fixed(100.0 * fraction, digits) + " %"; }

std::string bytes_str(uint64_t b) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(b);
    int u = 0;
    while (v >= 1024.0 && u < 4) { v /= 1024.0; ++u; }
    return u == 0 ? grouped(b) + " B" : fixed(v, 2) + " " + units[u];
}

std::string bar(double fraction, int width) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    int eighths = int(std::lround(fraction * width * 8));
    static const char* parts[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    std::string s;
    for (int i = 0; i < eighths / 8; ++i) s += "█";
    s += parts[eighths % 8];
    return s;
}

std::string pad(const std::string& s, size_t w) {
    // visible width: count UTF-8 lead bytes only
    size_t vis = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++vis;
    return vis >= w ? s : s + std::string(w - vis, ' ');
}

std::string rpad(const std::string& s, size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }

struct Style {
    bool on;
    std::string bold(const std::string& s) const { return on ? "\033[1m" + s + "\033[0m" : s; }
    std::string dim(const std::string& s) const { return on ? "\033[2m" + s + "\033[0m" : s; }
    std::string hue(const std::string& s, int code) const {
        return on ? "\033[" + std::to_string(code) + "m" + s + "\033[0m" : s;
    }
};

std::string launch_line(const isa::Program& p) {
    const auto& l = p.launch;
    std::ostringstream os;
    if (l.mode == isa::LaunchDecl::Mode::Fragment) {
        os << "fragment " << l.width << "×" << l.height << " px in " << grouped(p.num_blocks()) << " warps of "
           << l.tile_w << "×" << l.tile_h << " px";
    } else {
        os << "grid " << l.grid.x << "×" << l.grid.y << "×" << l.grid.z << " blocks of " << l.block.x << "×"
           << l.block.y << "×" << l.block.z << " threads (" << grouped(p.num_blocks()) << " blocks, "
           << p.warps_per_block() << " warps each)";
    }
    os << ", " << p.regs_per_thread << " regs/thread";
    if (p.shared_bytes) os << ", " << p.shared_bytes << " B shared/block";
    if (p.local_bytes) os << ", " << p.local_bytes << " B local/thread";
    return os.str();
}

// Warp-cycles spent at a pc, all states included: where the time goes.
uint64_t pc_cycles(const timing::PcStats& pc) {
    return std::accumulate(pc.stall_cycles.begin(), pc.stall_cycles.end(), uint64_t(0));
}

int top_stall(const timing::PcStats& pc) {
    int best = -1;
    uint64_t v = 0;
    for (int r = 0; r < kNumStallReasons; ++r) {
        if (r == int(StallReason::Selected)) continue;
        if (pc.stall_cycles[r] > v) { v = pc.stall_cycles[r]; best = r; }
    }
    return best;
}

void print_states(std::ostream& out, const Stats& s, const Style& st) {
    out << st.bold("Warp states") << st.dim("  (warp cycles per issued instruction, Nsight Compute's warp-state names)")
        << "\n";
    uint64_t total = s.resident_warp_cycles();
    std::vector<int> order(kNumStallReasons);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s.stall_cycles[a] > s.stall_cycles[b]; });
    out << "  " << pad("state", 20) << rpad("cyc/inst", 9) << rpad("share", 9) << "  meaning\n";
    for (int r : order) {
        if (s.stall_cycles[r] == 0) continue;
        double share = total ? double(s.stall_cycles[r]) / double(total) : 0.0;
        out << "  " << pad(timing::stall_name(r), 20) << rpad(fixed(s.cycles_per_issue(StallReason(r)), 2), 9)
            << rpad(pct(share), 9) << "  " << st.dim(stall_meaning(StallReason(r))) << "\n";
    }
    double cpi = s.warp_instructions ? double(total) / double(s.warp_instructions) : 0.0;
    out << "  " << pad("total", 20) << rpad(fixed(cpi, 2), 9) << rpad("100.0 %", 9) << "  "
        << st.dim("average warp latency per issued instruction") << "\n";
    // The dominant stall (selected/not_selected are not problems) and what it points at.
    for (int r : order) {
        if (r == int(StallReason::Selected) || s.stall_cycles[r] == 0) continue;
        double share = total ? double(s.stall_cycles[r]) / double(total) : 0.0;
        if (share >= 0.2 && *stall_hint(StallReason(r)))
            out << "  " << st.hue("→ " + std::string(timing::stall_name(r)) + ": ", 33) << stall_hint(StallReason(r))
                << "\n";
        break;
    }
}

// Whether the JSON report lists pipe class p: every class, except the uniform
// one (added later) only when the run issued to it, so earlier reports keep their bytes.
void print_pipes(std::ostream& out, const Stats& s, const Style& st) {
    out << st.bold("Pipes") << st.dim("  (busy cycles / cycles available, all sub-partitions)") << "\n";
    for (int p = 0; p < isa::kNumPipes; ++p) {
        const auto& ps = s.pipes[p];
        if (ps.issued == 0) continue;
        out << "  " << pad(std::string(isa::pipe_name(isa::Pipe(p))), 8) << rpad(pct(ps.utilisation), 8) << "  "
            << pad(bar(ps.utilisation, 24), 25) << st.dim(grouped(ps.issued) + " warp instructions") << "\n";
    }
}

void print_access(std::ostream& out, const char* name, const timing::AccessStats& a, uint32_t ideal) {
    if (!a.requests) return;
    out << "  " << pad(name, 15) << rpad(grouped(a.requests), 12) << " requests  " << rpad(fixed(a.sectors_per_request(), 2), 6)
        << " sectors/request";
    if (ideal) out << "  (ideal " << ideal << ")";
    out << "\n";
}

// The memory path's units: carve-out, queueing, atomics, partial writes, texture quads.
void print_memory_units(std::ostream& out, const timing::MemoryStats& m) {
    if (m.l1_bytes)
        out << "  " << pad("L1 / shared", 15) << rpad(bytes_str(m.l1_bytes), 12) << " L1 per SM beside a "
            << bytes_str(m.shared_carveout_bytes) << " shared-memory carve-out\n";
    if (m.xbar_queue_cycles + m.l2_queue_cycles + m.dram_queue_cycles + m.dram_load_cycles)
        out << "  " << pad("queueing", 15) << rpad(grouped(m.xbar_queue_cycles), 12) << " crossbar, "
            << grouped(m.l2_queue_cycles) << " L2 slice, " << grouped(m.dram_queue_cycles) << " DRAM bandwidth, "
            << grouped(m.dram_load_cycles) << " DRAM load (cycles summed over sectors)\n";
    if (m.l2_slice_busy_max + m.dram_busy_max > 0)
        out << "  " << pad("busiest", 15) << rpad(pct(m.l2_slice_busy_max), 12) << " of the time an L2 slice (mean "
            << pct(m.l2_slice_busy_mean) << "), " << pct(m.dram_busy_max) << " a DRAM channel (mean "
            << pct(m.dram_busy_mean) << ")\n";
    if (m.dram_row_misses) out << "  " << pad("DRAM rows", 15) << rpad(grouped(m.dram_row_misses), 12) << " opened\n";
    if (m.atomic_lane_ops)
        out << "  " << pad("L2 atomics", 15) << rpad(grouped(m.atomic_lane_ops), 12) << " lane ops  "
            << grouped(m.atomic_serial_cycles) << " cycles waiting for the same address\n";
    if (m.shared_atomic_serial)
        out << "  " << pad("shared atomics", 15) << rpad(grouped(m.shared_atomic_serial), 12)
            << " extra MIO passes on one word\n";
    if (m.l2_partial_writes)
        out << "  " << pad("partial writes", 15) << rpad(grouped(m.l2_partial_writes), 12) << " byte-masked sectors  "
            << grouped(m.dram_rmw_sectors) << " read back from DRAM before write-back\n";
    if (m.l2_cleaned_lines)
        out << "  " << pad("early cleaning", 15) << rpad(grouped(m.l2_cleaned_lines), 12)
            << " dirty L2 lines written back before eviction (stores.dirty_lines)\n";
    if (m.l2_far_hits || m.l2_invalidations)
        out << "  " << pad("L2 partitions", 15) << rpad(grouped(m.l2_far_hits), 12)
            << " misses served by the other partition's copy  " << grouped(m.l2_invalidations)
            << " copies invalidated by writes\n";
    if (m.tex_quads)
        out << "  " << pad("texture quads", 15) << rpad(grouped(m.tex_quads), 12) << " quads  "
            << grouped(m.tex_stage_cycles) << " TEX stage cycles\n";
}

// Returns whether anything was printed.
bool print_memory(std::ostream& out, const Stats& s, const Style& st) {
    const auto& m = s.memory;
    bool any = m.global_load.requests || m.global_store.requests || m.global_atomic.requests || m.local_load.requests ||
               m.local_store.requests || m.tex.requests || m.shared_load_requests || m.shared_store_requests ||
               m.shared_atomic_requests || m.const_requests || m.shuffle_requests;
    if (!any) return false;
    out << st.bold("Memory") << "\n";
    print_access(out, "global loads", m.global_load, 0);
    print_access(out, "global stores", m.global_store, 0);
    print_access(out, "global atomics", m.global_atomic, 0);
    print_access(out, "local loads", m.local_load, 0);
    print_access(out, "local stores", m.local_store, 0);
    print_access(out, "texture", m.tex, 0);
    if (m.l1_hit_sectors + m.l1_miss_sectors)
        out << "  " << pad("L1 hit rate", 15) << rpad(pct(m.l1_hit_rate()), 12) << "  ("
            << grouped(m.l1_hit_sectors + m.l1_miss_sectors) << " sectors looked up)\n";
    if (m.l2_hit_sectors + m.l2_miss_sectors)
        out << "  " << pad("L2 hit rate", 15) << rpad(pct(m.l2_hit_rate()), 12) << "  ("
            << grouped(m.l2_hit_sectors + m.l2_miss_sectors) << " sectors looked up)\n";
    if (m.dram_read_bytes || m.dram_write_bytes) {
        double secs = s.cycles / (s.clock_mhz * 1e6);
        double gbs = secs > 0 ? double(m.dram_read_bytes + m.dram_write_bytes) / secs / 1e9 : 0.0;
        out << "  " << pad("DRAM", 15) << rpad(bytes_str(m.dram_read_bytes), 12) << " read, "
            << bytes_str(m.dram_write_bytes) << " written  (" << fixed(gbs, 1) << " GB/s)\n";
    }
    uint64_t shared = m.shared_load_requests + m.shared_store_requests + m.shared_atomic_requests;
    if (shared)
        out << "  " << pad("shared", 15) << rpad(grouped(shared), 12) << " requests  "
            << rpad(grouped(m.shared_bank_conflicts), 6) << " bank-conflict wavefronts ("
            << fixed(shared ? double(m.shared_wavefronts) / double(shared) : 0.0, 2) << " wavefronts/request)\n";
    if (m.const_requests)
        out << "  " << pad("constant", 15) << rpad(grouped(m.const_requests), 12) << " requests  "
            << grouped(m.const_extra_cycles) << " extra cycles serialising distinct addresses\n";
    if (m.shuffle_requests) out << "  " << pad("shuffles", 15) << rpad(grouped(m.shuffle_requests), 12) << "\n";
    print_memory_units(out, m);
    return true;
}

void print_hot_lines(std::ostream& out, const RunInfo& run, const Stats& s, int n, const Style& st) {
    if (n <= 0 || s.per_pc.empty()) return;
    uint64_t total = s.resident_warp_cycles();
    std::vector<uint32_t> pcs(s.per_pc.size());
    std::iota(pcs.begin(), pcs.end(), 0u);
    std::stable_sort(pcs.begin(), pcs.end(),
                     [&](uint32_t a, uint32_t b) { return pc_cycles(s.per_pc[a]) > pc_cycles(s.per_pc[b]); });
    out << st.bold("Where the time goes") << st.dim("  (warp cycles spent at each line, all states)") << "\n";
    for (int i = 0; i < n && i < int(pcs.size()); ++i) {
        uint32_t pc = pcs[i];
        const auto& ps = s.per_pc[pc];
        uint64_t c = pc_cycles(ps);
        if (c == 0) break;
        const auto& in = run.program.code[pc];
        std::string where = in.loc.file + ":" + std::to_string(in.loc.line);
        double lanes = ps.issued ? double(ps.thread_instructions) / double(ps.issued) : 0.0;
        out << "  " << rpad(pct(total ? double(c) / double(total) : 0.0), 7) << "  " << pad(where, 28) << " "
            << st.hue(run.program.text[pc], 36) << "\n";
        out << "           " << st.dim("issued " + grouped(ps.issued) + ", " + fixed(lanes, 1) + " lanes active");
        int r = top_stall(ps);
        if (r >= 0 && ps.stall_cycles[r])
            out << st.dim(", mostly " + std::string(timing::stall_name(r)) + " (" +
                          pct(double(ps.stall_cycles[r]) / double(c), 0) + ")");
        out << "\n";
    }
}

}  // namespace

void print_text(std::ostream& out, const RunInfo& run, const Stats& s, const TextOptions& opt) {
    Style st{opt.color};
    const auto& occ = s.occupancy;
    out << st.bold("simt-sim") << "  " << st.bold(s.kernel) << " on " << s.config_name << "\n";
    out << st.dim("  trace " + run.trace_path + " · config " + run.config_path) << "\n\n";
    auto row = [&](const char* k, const std::string& v) { out << "  " << pad(k, 14) << v << "\n"; };
    row("launch", launch_line(run.program));
    if (s.warm_launches)
        row("warm", "after " + std::to_string(s.warm_launches) + " untimed launch" + (s.warm_launches > 1 ? "es" : "") +
                        " (the L2 as they left it, the L1s empty)");
    row("time", grouped(s.cycles) + " cycles = " + fixed(s.cycles / s.clock_mhz, 2) + " µs at " +
                    fixed(s.clock_mhz, 0) + " MHz  (+" + fixed(s.kernel_launch_us, 1) + " µs launch = " +
                    fixed(s.time_us, 2) + " µs)");
    row("instructions", grouped(s.warp_instructions) + " warp, " + grouped(s.thread_instructions) + " thread");
    row("IPC", fixed(s.ipc, 2) + " warp instructions per SM per cycle  (" +
                   fixed(s.sub_partitions ? s.ipc / s.sub_partitions : 0.0, 2) + " per scheduler, peak 1)");
    std::string simt = pct(s.simt_efficiency) + "  (" + fixed(32.0 * s.simt_efficiency, 1) + " of 32 lanes active per instruction)";
    if (s.warp_instructions && s.simt_efficiency < 0.75) simt += st.hue("  ← divergence", 33);
    row("SIMT eff.", simt);
    row("occupancy", "theoretical " + pct(occ.theoretical, 0) + " (" + std::to_string(occ.warps_per_sm) + " of " +
                         std::to_string(occ.max_warps) + " warps/SM, " + std::to_string(occ.blocks_per_sm) +
                         " blocks; limited by " + timing::limiter_name(occ.limiter) + "), achieved " +
                         pct(occ.achieved));
    out << "\n";
    print_states(out, s, st);
    out << "\n";
    print_pipes(out, s, st);
    out << "\n";
    if (print_memory(out, s, st)) out << "\n";
    print_hot_lines(out, run, s, opt.hot_lines, st);
}

void write_json(std::ostream& out, const RunInfo& run, const Stats& s) {
    JsonWriter j(out);
    j.begin_object();
    write_report_fields(j, run, s);
    j.begin_array("per_pc");
    for (size_t pc = 0; pc < s.per_pc.size(); ++pc) {
        const auto& ps = s.per_pc[pc];
        const auto& in = run.program.code[pc];
        j.begin_object()
            .field("pc", uint64_t(pc))
            .field("file", in.loc.file)
            .field("line", in.loc.line)
            .field("text", run.program.text[pc])
            .field("pipe", isa::pipe_name(isa::info(in.op).pipe))
            .field("issued", ps.issued)
            .field("active_lanes", ps.issued ? double(ps.thread_instructions) / double(ps.issued) : 0.0)
            .field("thread_instructions", ps.thread_instructions);
        j.begin_object("stalls");
        for (int r = 0; r < kNumStallReasons; ++r)
            if (ps.stall_cycles[r]) j.field(timing::stall_name(r), ps.stall_cycles[r]);
        j.end_object().end_object();
    }
    j.end_array();
    j.end_object();
    j.finish();
}

void write_pc_csv(std::ostream& out, const RunInfo& run, const Stats& s) {
    auto quote = [](const std::string& t) {
        std::string q = "\"";
        for (char c : t) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    out << "pc,file,line,text,pipe,issued,thread_instructions";
    for (int r = 0; r < kNumStallReasons; ++r) out << ',' << timing::stall_name(r);
    out << '\n';
    for (size_t pc = 0; pc < s.per_pc.size(); ++pc) {
        const auto& ps = s.per_pc[pc];
        const auto& in = run.program.code[pc];
        out << pc << ',' << quote(in.loc.file) << ',' << in.loc.line << ',' << quote(run.program.text[pc]) << ','
            << isa::pipe_name(isa::info(in.op).pipe) << ',' << ps.issued << ',' << ps.thread_instructions;
        for (int r = 0; r < kNumStallReasons; ++r) out << ',' << ps.stall_cycles[r];
        out << '\n';
    }
}

}  // namespace simt::report
