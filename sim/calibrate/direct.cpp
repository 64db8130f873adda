// direct.cpp: the direct-value rules (see direct.hpp).
#include "sim/calibrate/direct.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace simt::calib {
namespace {

// How a measured value becomes a config value (given the base config).
using Transform = std::function<std::string(double, const GpuConfig&)>;

struct Rule {
    const char* key;
    const char* kernel;
    const char* param;
    const char* how;
    Transform f;
};

std::string integer(double v) { return std::to_string(int64_t(std::llround(v))); }
std::string real(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// Per-op latencies of the CUDA chains include the loop's share of 3 overhead instructions
// (under one cycle per op for 16- and 64-op bodies): the pipe latency is the whole part.
Transform floor_latency() {
    return [](double v, const GpuConfig&) { return integer(std::floor(v + 1e-6)); };
}
Transform round_value() {
    return [](double v, const GpuConfig&) { return integer(v); };
}
Transform scaled(double by) {
    return [by](double v, const GpuConfig&) { return integer(v * by); };
}
// A per-SM thread-op rate -> lanes per sub-partition (the nearest divisor of 32), or, below one
// lane, "interval:N" (cycles per warp instruction; direct_values renames the key).
Transform lanes() {
    return [](double v, const GpuConfig& base) {
        double per_sp = v / std::max(1u, base.sm.sub_partitions);
        if (per_sp < 0.75) return "interval:" + integer(32.0 / std::max(per_sp, 1e-3));
        int best = 1;
        for (int d : {1, 2, 4, 8, 16, 32})
            if (std::fabs(std::log(d / per_sp)) < std::fabs(std::log(best / per_sp))) best = d;
        return std::to_string(best);
    };
}

const std::vector<Rule>& rules() {
    static const std::vector<Rule> r = {
        {"clock_mhz", "device", "clockRate_attr", "kHz / 1000", scaled(1e-3)},
        {"sm.count", "device", "multiProcessorCount", "as is", round_value()},
        {"sm.max_warps", "device", "maxThreadsPerMultiProcessor", "threads / 32", scaled(1.0 / 32)},
        {"sm.max_blocks", "device", "maxBlocksPerMultiProcessor", "as is", round_value()},
        {"sm.max_threads_per_block", "device", "maxThreadsPerBlock", "as is", round_value()},
        {"sm.registers", "device", "regsPerMultiprocessor", "as is", round_value()},
        {"sm.shared_bytes", "device", "sharedMemPerMultiprocessor", "as is", round_value()},
        {"sm.shared_reserved_per_block", "device", "reservedSharedMemPerBlock", "as is", round_value()},
        {"memory.l2.size_bytes", "device", "l2CacheSize", "as is", round_value()},
        {"pipes.fma.latency", "lat_ffma", "latency_per_ptx_op", "whole cycles (loop share < 1)", floor_latency()},
        {"pipes.alu.latency", "lat_imad", "latency_per_ptx_op", "whole cycles (loop share < 1)", floor_latency()},
        {"pipes.fp64.latency", "lat_dfma", "latency_per_ptx_op", "whole cycles (loop share < 1)", floor_latency()},
        {"pipes.sfu.latency", "lat_rsqrt", "latency_per_ptx_op", "rounded (loop hidden)", round_value()},
        {"pipes.int_div_latency", "lat_udiv", "latency_per_ptx_op", "rounded", round_value()},
        {"pipes.fma.lanes", "thr_ffma", "thread_ops_per_clk_per_sm", "per SMSP, nearest divisor of 32", lanes()},
        {"pipes.sfu.lanes", "thr_rsqrt", "thread_ops_per_clk_per_sm", "per SMSP, nearest divisor of 32", lanes()},
        {"pipes.fp64.lanes", "thr_dfma", "thread_ops_per_clk_per_sm", "per SMSP, nearest divisor of 32", lanes()},
        {"memory.shared_latency", "lat_lds", "latency_per_ptx_op", "rounded", round_value()},
        {"memory.l1.hit_latency", "lat_l1_16KB", "latency_per_ptx_op", "rounded", round_value()},
        {"memory.l2.hit_latency", "lat_l2_16MB", "latency_per_ptx_op", "rounded", round_value()},
        {"memory.dram_latency", "lat_dram_128MB", "latency_per_ptx_op", "rounded", round_value()},
        {"launch.kernel_launch_us", "tiny_kernel", "blocks1_us", "event time of a one-block empty kernel",
         [](double v, const GpuConfig&) { return real(v); }},
    };
    return r;
}

// The DRAM pin bandwidth from two device attributes: memory clock (kHz) x 2 transfers per clock x
// bus width (bits) / 8. The model's DRAM (channels, row opening, load) takes the pin rate; what a
// stream achieves (read4.GBps_read) is a consequence, checked by the streams group.
void dram_bandwidth(const Measurements& m, DirectResult& out) {
    const Measurements::Value* clk = m.find("device", "memoryClockRate_attr");
    const Measurements::Value* bus = m.find("device", "memoryBusWidth");
    if (!clk || !bus) {
        out.missing.push_back("memory.dram_bandwidth_gbs (no rows device,memoryClockRate_attr and device,memoryBusWidth)");
        return;
    }
    double gbs = clk->value * 1e3 * 2 * bus->value / 8 / 1e9;
    std::string file = std::filesystem::path(clk->file).filename().string();
    out.settings.push_back(Setting{"memory.dram_bandwidth_gbs", integer(gbs),
                                   "measured: device.memoryClockRate_attr x 2 x device.memoryBusWidth / 8, " + file +
                                       ":" + std::to_string(clk->line) + " (pin bandwidth)"});
}

// The latency a shared-memory wavefront adds after the first, from the W = 1 and W = 32 rows of the
// bank-conflicted chase (shbank.cu): their difference over 31 wavefronts, rounded.
void shared_conflict(const Measurements& m, DirectResult& out) {
    const Measurements::Value* one = m.find("shbank_chase_W1", "clk_per_load");
    const Measurements::Value* all = m.find("shbank_chase_W32", "clk_per_load");
    if (!one || !all) {
        out.missing.push_back("memory.shared_conflict_latency (no rows shbank_chase_W1 and shbank_chase_W32,clk_per_load)");
        return;
    }
    const double per = std::max(0.0, (all->value - one->value) / 31);
    std::string file = std::filesystem::path(all->file).filename().string();
    out.settings.push_back(Setting{"memory.shared_conflict_latency", integer(per),
                                   "measured: (shbank_chase_W32 - shbank_chase_W1) / 31, " + file + ":" +
                                       std::to_string(all->line) + " (cycles per extra wavefront, rounded)"});
}

// The L1/shared carve-outs of a compute capability (CUDA C Programming Guide, "Shared Memory" of
// compute capabilities 7.x, 8.x and 9.0): the unified array's size and the shared capacities a
// kernel may get, in KB.
struct Carveout {
    int cc;
    uint32_t unified_kb;
    const char* steps_kb;
};
constexpr Carveout kCarveouts[] = {{75, 96, "32 64"},
                                   {80, 192, "0 8 16 32 64 100 132 164"},
                                   {86, 128, "0 8 16 32 64 100"},
                                   {87, 192, "0 8 16 32 64 100 132 164"},
                                   {89, 128, "0 8 16 32 64 100"},
                                   {90, 256, "0 8 16 32 64 100 132 164 196 228"}};

// The carve-out of the measured compute capability, and the L1 beside its largest step (the
// config requires unified = largest step + L1); the L1 keeps the base's number of sets. Only
// when the measured shared capacity is the table's largest step (else the base's stand).
void carveout(const Measurements& m, const GpuConfig& base, DirectResult& out) {
    const Measurements::Value* major = m.find("device", "cc_major");
    const Measurements::Value* minor = m.find("device", "cc_minor");
    const Measurements::Value* shared = m.find("device", "sharedMemPerMultiprocessor");
    if (!major || !minor || !shared) return;
    const int cc = int(std::lround(major->value * 10 + minor->value));
    const Carveout* c = nullptr;
    for (const Carveout& k : kCarveouts)
        if (k.cc == cc) c = &k;
    const std::string steps = c ? c->steps_kb : "";
    const uint32_t top_kb = steps.empty() ? 0 : uint32_t(std::stoul(steps.substr(steps.rfind(' ') + 1)));
    if (!c || uint64_t(top_kb) * 1024 != uint64_t(std::llround(shared->value))) {
        out.missing.push_back("memory.carveout (no table entry for compute capability " + std::to_string(cc) +
                              " with this shared capacity)");
        return;
    }
    const uint64_t l1 = uint64_t(c->unified_kb - top_kb) * 1024;
    const uint64_t set_bytes = uint64_t(base.memory.l1.assoc) * base.memory.l1.line_bytes;
    const uint64_t sets = set_bytes ? std::max<uint64_t>(1, base.memory.l1.size_bytes / set_bytes) : 1;
    const std::string from = "measured: device.cc_major/cc_minor " + std::to_string(cc / 10) + "." +
                             std::to_string(cc % 10) + ", " + std::filesystem::path(major->file).filename().string() +
                             ":" + std::to_string(major->line);
    out.settings.push_back(Setting{"memory.carveout.unified_bytes", integer(double(c->unified_kb) * 1024),
                                   from + " (the programming guide's unified L1/shared size)"});
    out.settings.push_back(Setting{"memory.carveout.steps_kb", "\"" + steps + "\"",
                                   from + " (the programming guide's carve-outs)"});
    out.settings.push_back(Setting{"memory.l1.size_bytes", integer(double(l1)),
                                   from + " (the unified array minus the largest carve-out)"});
    if (l1 % (sets * base.memory.l1.line_bytes) == 0)
        out.settings.push_back(Setting{"memory.l1.assoc", integer(double(l1 / (sets * base.memory.l1.line_bytes))),
                                       from + " (the base's " + std::to_string(sets) + " sets)"});
}

}  // namespace

DirectResult direct_values(const Measurements& m, const GpuConfig& base) {
    DirectResult out;
    for (const Rule& r : rules()) {
        const Measurements::Value* v = m.find(r.kernel, r.param);
        if (!v) {
            out.missing.push_back(std::string(r.key) + " (no row " + r.kernel + "," + r.param + ")");
            continue;
        }
        std::string file = std::filesystem::path(v->file).filename().string();
        std::string key = r.key, value = r.f(v->value, base);
        if (value.rfind("interval:", 0) == 0) {
            key = key.substr(0, key.rfind('.')) + ".interval";
            value = value.substr(9);
        }
        out.settings.push_back(Setting{key, value,
                                       std::string("measured: ") + r.kernel + "." + r.param + ", " + file + ":" +
                                           std::to_string(v->line) + " (" + r.how + ")"});
    }
    dram_bandwidth(m, out);
    shared_conflict(m, out);
    carveout(m, base, out);
    return out;
}

std::vector<std::string> unmeasured_structure(const GpuConfig& base) {
    const auto& m = base.memory;
    std::vector<std::string> out = {"memory.dram.channels = " + std::to_string(m.dram.channels),
                                    "memory.l2_slices.count = " + std::to_string(m.l2_slices.count),
                                    "memory.l2_slices.partitions = " + std::to_string(m.l2_slices.partitions)};
    const auto& p = base.pipes;
    const std::pair<const char*, const simt::PipeSpec*> classes[] = {
        {"fma", &p.fma},   {"alu", &p.alu},   {"sfu", &p.sfu},       {"fp64", &p.fp64},   {"lsu", &p.lsu},
        {"tex", &p.tex},   {"branch", &p.branch}, {"imad", &p.imad}, {"iadd", &p.iadd}, {"uniform", &p.uniform}};
    std::string table;
    for (const auto& [name, spec] : classes) {
        std::string paths;
        for (size_t d = 0; d < p.datapath_names.size(); ++d)
            if (spec->datapaths >> d & 1) paths += (paths.empty() ? "" : " ") + p.datapath_names[d];
        table += (table.empty() ? "" : ", ") + std::string(name) + ": " + (paths.empty() ? "-" : paths);
    }
    out.push_back("pipes.*.datapaths (the datapath table) = " + table);
    return out;
}

std::vector<std::string> direct_rules() {
    std::vector<std::string> out;
    for (const Rule& r : rules()) out.push_back(std::string(r.key) + " <- " + r.kernel + "." + r.param + ": " + r.how);
    out.push_back("memory.dram_bandwidth_gbs <- device.memoryClockRate_attr, device.memoryBusWidth: pin bandwidth");
    out.push_back("memory.shared_conflict_latency <- shbank_chase_W1, shbank_chase_W32: (W32 - W1) / 31");
    out.push_back("memory.carveout, memory.l1.size_bytes <- device.cc_major, cc_minor: the programming guide's carve-outs");
    return out;
}

}  // namespace simt::calib
