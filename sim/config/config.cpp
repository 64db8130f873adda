// config.cpp: loads a GpuConfig from YAML and validates it, once, loudly.
//
// Order of work: parse the text (syntax errors at file:line:col), apply the
// `--set` overrides to the tree, read every section with its exact key list
// (unknown, duplicate and missing keys, wrong types and single-value ranges
// are rejected by yaml_reader), then check the rules that relate fields
// (divisibility, geometry, latency ordering). Every failure is a simt::Error
// naming the key path and where the value was written or which --set gave it.
//
// A pipe's rate is written as `lanes` (per sub-partition, a divisor of 32) or,
// for a pipe narrower than one lane per sub-partition, as `interval` (cycles a
// warp instruction occupies it); both land in PipeSpec::interval.
//
// Left out: defaults (every key is required) and anything GPU-specific.
#include "sim/config/config.hpp"

#include "isa/isa.hpp"
#include "isa/limits.hpp"
#include "sim/config/overrides.hpp"
#include "sim/config/yaml_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

namespace simt {

namespace {

using cfg::KeyList;
using cfg::Reader;
using cfg::Section;

constexpr uint32_t kWarp = isa::kWarpSize;

const KeyList kTopKeys = {"name", "clock_mhz", "max_warp_instructions", "max_cycles", "sm", "scheduler",
                          "regfile", "pipes", "memory", "launch"};

// Ranges of the values (README.md § Limits): wide enough for any GPU, small
// enough that no value makes the model allocate without bound, overflow a
// computation or stretch time so far that the budgets cannot end a run.
constexpr uint32_t kMaxLatency = 100'000;         // cycles, any latency
constexpr uint32_t kMaxInterval = 1024;           // cycles a warp instruction occupies a pipe
constexpr uint64_t kMaxBudget = 10'000'000'000'000ull;  // max_warp_instructions, max_cycles
constexpr uint64_t kMaxCacheSectors = 1ull << 24; // tags kept for one cache level (all L1s together)
const KeyList kSmKeys = {"count", "sub_partitions", "max_warps", "max_blocks",
                         "max_threads_per_block", "registers", "reg_alloc_unit",
                         "max_regs_per_thread", "shared_bytes", "shared_alloc_unit",
                         "shared_reserved_per_block", "warp_release", "unit_arbitration"};
const KeyList kWarpReleaseNames = {"block", "slot", "slot_and_registers"};  // WarpRelease order
const KeyList kUnitArbitrationNames = {"fixed", "round_robin"};             // UnitArbitration order
const KeyList kSchedulerKeys = {"policy", "active_set", "window", "yield_demotes", "starve_cycles", "greedy",
                                "interleave_paths", "lg_order", "mio_order", "block_order"};
const KeyList kBlockOrderNames = {"launch", "slot"};
const KeyList kLgOrderNames = {"policy", "arrival"};
const KeyList kPolicyNames = {"lrr", "gto", "two_level", "gty", "gtb", "cgy"};   // SchedPolicy order
const KeyList kRegFileKeys = {"model_banks", "banks", "reads_per_bank", "reuse_cache", "read_queue_cycles",
                               "read_ahead"};
const KeyList kPipesKeys = {"fma", "alu", "sfu", "fp64", "lsu", "tex", "branch", "imad", "iadd", "uniform",
                            "int_div_instructions", "int_div_mufu_instructions", "int_div_latency", "int_div_dividend_latency",
                            "branch_resolve_cycles", "s2r_latency", "imad_wide_passes", "imad_wide_latency", "imad_hi_latency", "branch_waits_fixed", "sass_stall_counts"};
const KeyList kPipeKeys = {"lanes", "interval", "latency", "handoff", "datapaths"};
constexpr size_t kMaxDatapaths = 16;
const KeyList kMemoryKeys = {"sector_bytes", "l1", "l2", "shared_latency", "shared_banks", "shared_conflict_latency", "shared_return_bytes",
                             "const_latency", "tex_latency", "atomic_latency", "dram_latency",
                             "dram_bandwidth_gbs", "max_outstanding_per_sm", "slot_wait_in_queue", "l1_miss_lines_in_flight",
                             "l1_sectors_per_cycle", "l1_line_per_wavefront", "l1_hits_share_wavefronts", "l1_request_cycles", "lsu_in_port", "l1_data_bank_conflicts", "l1_fill_cycles", "l1_data_wavefronts", "l1_local_store_allocate", "l1_global_store_allocate", "lg_queue_depth", "l1_miss_lines_per_pass", "l1_miss_pass_cycles", "l1_miss_line_cycles", "dram_fetch_bytes", "l2_slices", "crossbar",
                             "dram", "atomics", "stores", "carveout", "tex"};
const KeyList kSlicesKeys = {"count", "sectors_per_cycle", "read_lookups_per_cycle", "data_sectors_per_cycle", "interleave_bytes", "partitions", "far_hit_cycles", "hit_spread_cycles", "home_copy", "stores_at_home", "sm_map",
                           "input_flits_per_cycle", "flit_bytes", "partner_offset", "write_back_entries"};
const KeyList kCrossbarKeys = {"sm_sectors_per_cycle"};
const KeyList kDramKeys = {"channels", "interleave_bytes", "open_chunks", "open_write_rows", "row_miss_bytes", "write_row_miss_bytes",
                           "write_row_bytes", "write_banks", "write_activate_bytes", "read_activate_bytes", "read_command_bytes", "rmw_turnaround_bytes", "mixed_write_bytes", "switch_bytes", "latency_spread_cycles",
                           "bank_service_cycles", "load_window_cycles"};
const KeyList kAtomicsKeys = {"same_address_cycles", "float_add_cycles", "slices_per_unit", "unit_ops_per_cycle", "l1_ops_per_cycle",
                              "shared_same_address_cycles", "sector_cycles", "request_cycles",
                              "header_bytes", "near_lookup"};
const KeyList kStoresKeys = {"partial_sector_cycles", "partial_sector_dram_read", "partial_miss_fetch", "dirty_lines", "write_queue_cycles",
                                 "sectors_in_flight", "wait_in_queue", "drain_acks", "header_bytes"};
const KeyList kCarveoutKeys = {"unified_bytes", "steps_kb", "floor_kb_1024", "floor_cap_kb", "shared_headroom"};
const KeyList kTexKeys = {"line_width", "line_height", "sector_width", "quads_per_cycle"};
const KeyList kCacheKeys = {"size_bytes", "assoc", "line_bytes", "hit_latency", "replacement"};
const KeyList kReplacementNames = {"lru", "random"};
const KeyList kLaunchKeys = {"block_launch_cycles", "block_dispatch_cycles", "kernel_launch_us"};

bool pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
std::string num(uint64_t v) { return std::to_string(v); }

// "sm.sub_partitions (4)" or "sm.sub_partitions (5, from --set sm.sub_partitions=5)".
std::string ref(const Reader& r, const std::string& path, uint64_t value) {
    std::string note = r.origin_note(path);
    return path + " (" + num(value) + (note.empty() ? "" : ", " + note) + ")";
}

void require(const Reader& r, bool ok, const std::string& path, const std::string& what) {
    if (!ok) r.fail_field(path, what);
}

// ---- reading ---------------------------------------------------------------

GpuConfig::Sm read_sm(const Section& s) {
    GpuConfig::Sm sm;
    sm.count = s.u32("count", 1, 1024);
    sm.sub_partitions = s.u32("sub_partitions", 1, 32);
    sm.max_warps = s.u32("max_warps", 1, 1024);
    sm.max_blocks = s.u32("max_blocks", 1, 1024);
    sm.max_threads_per_block = s.u32("max_threads_per_block", 1, 32 * 1024);
    sm.registers = s.u32("registers", 1, 1u << 20);
    sm.reg_alloc_unit = s.u32("reg_alloc_unit", 1, 1u << 16);
    sm.max_regs_per_thread = s.u32("max_regs_per_thread", 1, isa::kMaxRegs);
    sm.shared_bytes = s.u32("shared_bytes", 0, 4u << 20);
    sm.shared_alloc_unit = s.u32("shared_alloc_unit", 1, 1u << 16);
    sm.shared_reserved_per_block = s.u32("shared_reserved_per_block", 0, 1u << 20);
    sm.warp_release = static_cast<WarpRelease>(s.choice("warp_release", kWarpReleaseNames));
    if (s.has("unit_arbitration"))
        sm.unit_arbitration = static_cast<UnitArbitration>(s.choice("unit_arbitration", kUnitArbitrationNames));
    return sm;
}

GpuConfig::Scheduler read_scheduler(const Section& s) {
    GpuConfig::Scheduler sc;
    sc.policy = static_cast<SchedPolicy>(s.choice("policy", kPolicyNames));
    sc.active_set = s.u32("active_set", 1, 1024);
    if (s.has("window")) sc.window = s.u32("window", 1, 64);
    if (s.has("yield_demotes")) sc.yield_demotes = s.boolean("yield_demotes");
    if (s.has("starve_cycles")) sc.starve_cycles = s.u32("starve_cycles", 0, 1u << 20);
    if (s.has("greedy")) sc.greedy = s.boolean("greedy");
    if (s.has("interleave_paths")) sc.interleave_paths = s.boolean("interleave_paths");
    if (s.has("lg_order")) sc.lg_arrival_order = s.choice("lg_order", kLgOrderNames) == 1;
    if (s.has("mio_order")) sc.mio_arrival_order = s.choice("mio_order", kLgOrderNames) == 1;
    if (s.has("block_order")) sc.block_by_slot = s.choice("block_order", kBlockOrderNames) == 1;
    return sc;
}

GpuConfig::RegFile read_regfile(const Section& s) {
    GpuConfig::RegFile rf;
    rf.model_banks = s.boolean("model_banks");
    rf.banks = s.u32("banks", 1, 64);
    rf.reads_per_bank = s.u32("reads_per_bank", 1, 64);
    rf.reuse_cache = s.boolean("reuse_cache");
    rf.read_queue_cycles = s.u32("read_queue_cycles", 0, 64);
    rf.read_ahead = s.boolean("read_ahead");
    return rf;
}

// "fma_heavy fma_lite": the datapaths that execute a pipe class, named; the
// same name in two classes is one datapath they share.
uint16_t read_datapaths(const Section& p, std::vector<std::string>& names) {
    std::istringstream in(p.text("datapaths"));
    uint16_t mask = 0;
    for (std::string name; in >> name;) {
        bool ok = !name.empty();
        for (char ch : name) ok &= std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
        if (!ok) p.fail_key("datapaths", "expected datapath names (letters, digits, _) separated by spaces, got '" + name + "'");
        auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end()) {
            if (names.size() == kMaxDatapaths) p.fail_key("datapaths", "more than 16 datapaths in all");
            it = names.insert(names.end(), name);
        }
        mask |= uint16_t(1u << (it - names.begin()));
    }
    return mask;
}

PipeSpec read_pipe(const Section& p, std::vector<std::string>& names) {
    const bool lanes = p.has("lanes"), interval = p.has("interval");
    if (lanes == interval) {
        p.fail(lanes ? "give either 'lanes' or 'interval', not both"
                     : "missing key 'lanes' (lanes per sub-partition, a divisor of 32) or "
                       "'interval' (cycles a warp instruction occupies the pipe)");
    }
    PipeSpec spec;
    if (lanes) {
        uint32_t n = p.u32("lanes", 1, kWarp);
        if (kWarp % n != 0) {
            p.fail_key("lanes", "expected a divisor of 32 (1, 2, 4, 8, 16 or 32), got " + num(n));
        }
        spec.interval = kWarp / n;
    } else {
        spec.interval = p.u32("interval", 1, kMaxInterval);
        if (kWarp % spec.interval != 0 && spec.interval % kWarp != 0) {
            p.fail_key("interval", "expected a divisor of 32 (a whole number of lanes) or a multiple "
                                   "of 32 (a whole number of cycles per lane), got " + num(spec.interval));
        }
    }
    spec.latency = p.u32("latency", 1, kMaxLatency);
    spec.handoff = p.u32("handoff", 0, 64);
    spec.datapaths = read_datapaths(p, names);
    return spec;
}

GpuConfig::Pipes read_pipes(const Section& s) {
    GpuConfig::Pipes pipes;
    auto& n = pipes.datapath_names;
    pipes.fma = read_pipe(s.section("fma", kPipeKeys), n);
    pipes.alu = read_pipe(s.section("alu", kPipeKeys), n);
    pipes.sfu = read_pipe(s.section("sfu", kPipeKeys), n);
    pipes.fp64 = read_pipe(s.section("fp64", kPipeKeys), n);
    pipes.lsu = read_pipe(s.section("lsu", kPipeKeys), n);
    pipes.tex = read_pipe(s.section("tex", kPipeKeys), n);
    pipes.branch = read_pipe(s.section("branch", kPipeKeys), n);
    pipes.imad = read_pipe(s.section("imad", kPipeKeys), n);
    pipes.iadd = read_pipe(s.section("iadd", kPipeKeys), n);
    pipes.uniform = read_pipe(s.section("uniform", kPipeKeys), n);
    pipes.int_div_instructions = s.u32("int_div_instructions", 1, 1024);
    pipes.int_div_mufu_instructions = s.u32("int_div_mufu_instructions", 1, 64);
    pipes.int_div_latency = s.u32("int_div_latency", 1, kMaxLatency);
    if (s.has("int_div_dividend_latency"))
        pipes.int_div_dividend_latency = s.u32("int_div_dividend_latency", 1, kMaxLatency);
    pipes.s2r_latency = s.u32("s2r_latency", 1, kMaxLatency);
    if (s.has("imad_wide_passes")) pipes.imad_wide_passes = s.u32("imad_wide_passes", 1, 64);
    if (s.has("imad_wide_latency")) pipes.imad_wide_latency = s.u32("imad_wide_latency", 1, kMaxLatency);
    if (s.has("imad_hi_latency")) pipes.imad_hi_latency = s.u32("imad_hi_latency", 1, kMaxLatency);
    pipes.branch_waits_fixed = s.boolean("branch_waits_fixed");
    if (s.has("branch_resolve_cycles")) pipes.branch_resolve_cycles = s.u32("branch_resolve_cycles", 1, kMaxLatency);
    pipes.sass_stall_counts = s.boolean("sass_stall_counts");
    return pipes;
}

CacheSpec read_cache(const Section& s) {
    CacheSpec c;
    c.size_bytes = s.u32("size_bytes", 1, 1u << 30);
    c.assoc = s.u32("assoc", 1, 1024);
    c.line_bytes = s.u32("line_bytes", 1, 4096);
    c.hit_latency = s.u32("hit_latency", 1, kMaxLatency);
    if (s.has("replacement")) c.random_replacement = s.choice("replacement", kReplacementNames) == 1;
    return c;
}

// "0 8 16 32" -> {0, 8, 16, 32}: whole numbers separated by spaces or commas, ascending.
std::vector<uint32_t> read_steps(const Section& s, std::string_view key) {
    std::string text = s.text(key);
    for (char& ch : text) if (ch == ',') ch = ' ';
    std::istringstream in(text);
    std::vector<uint32_t> v;
    std::string word;
    while (in >> word) {
        char* end = nullptr;
        unsigned long n = std::strtoul(word.c_str(), &end, 10);
        if (*end || word[0] == '-' || n > 65536)
            s.fail_key(key, "expected whole numbers of KB (0 to 65536) separated by spaces, got '" + word + "'");
        if (!v.empty() && n <= v.back())
            s.fail_key(key, "expected ascending carve-outs, got " + num(n) + " after " + num(v.back()));
        v.push_back(uint32_t(n));
    }
    if (v.empty()) s.fail_key(key, "expected at least one carve-out");
    return v;
}

// "0011..." -> the partition of SM 0, 1, ...: one digit per SM, each below `partitions` (a map
// is ignored with one partition, e.g. under --set memory.l2_slices.partitions=1).
std::vector<uint8_t> read_sm_map(const Section& s, std::string_view key, uint32_t partitions) {
    std::vector<uint8_t> v;
    for (char ch : s.text(key)) {
        if (ch == ' ') continue;
        if (ch < '0' || ch > '9' || (partitions > 1 && uint32_t(ch - '0') >= partitions))
            s.fail_key(key, "expected one digit per SM below memory.l2_slices.partitions (" + num(partitions) +
                                "), got '" + std::string(1, ch) + "'");
        v.push_back(uint8_t(ch - '0'));
    }
    return v;
}

void read_memory_units(const Section& s, GpuConfig::Memory& m) {
    Section sl = s.section("l2_slices", kSlicesKeys);
    m.l2_slices.count = sl.u32("count", 1, 4096);
    m.l2_slices.sectors_per_cycle = sl.number("sectors_per_cycle", 0, false, 1024);
    m.l2_slices.read_lookups_per_cycle = sl.number("read_lookups_per_cycle", 0, false, 1024);
    m.l2_slices.data_sectors_per_cycle = sl.number("data_sectors_per_cycle", 0, false, 1024);
    if (sl.has("interleave_bytes")) m.l2_slices.interleave_bytes = sl.u32("interleave_bytes", 0, 1u << 20);
    if (sl.has("partitions")) m.l2_slices.partitions = sl.u32("partitions", 1, 64);
    if (sl.has("far_hit_cycles")) m.l2_slices.far_hit_cycles = sl.u32("far_hit_cycles", 0, 100000);
    if (sl.has("hit_spread_cycles")) m.l2_slices.hit_spread_cycles = sl.u32("hit_spread_cycles", 0, 4096);
    if (sl.has("home_copy")) m.l2_slices.home_copy = sl.boolean("home_copy");
    if (sl.has("stores_at_home")) m.l2_slices.stores_at_home = sl.boolean("stores_at_home");
    if (sl.has("sm_map")) m.l2_slices.sm_map = read_sm_map(sl, "sm_map", m.l2_slices.partitions);
    if (sl.has("input_flits_per_cycle"))
        m.l2_slices.input_flits_per_cycle = sl.number("input_flits_per_cycle", 0, false, 1024);
    if (sl.has("flit_bytes")) m.l2_slices.flit_bytes = sl.u32("flit_bytes", 4, 4096);
    if (sl.has("partner_offset")) m.l2_slices.partner_offset = sl.u32("partner_offset", 0, 4096);
    if (sl.has("write_back_entries")) m.l2_slices.write_back_entries = sl.u32("write_back_entries", 0, 1u << 16);
    m.crossbar.sm_sectors_per_cycle = s.section("crossbar", kCrossbarKeys).number("sm_sectors_per_cycle", 0, false, 1024);
    Section d = s.section("dram", kDramKeys);
    m.dram.channels = d.u32("channels", 1, 4096);
    m.dram.interleave_bytes = d.u32("interleave_bytes", 1, 1u << 20);
    m.dram.open_chunks = d.u32("open_chunks", 1, 1u << 24);
    if (d.has("open_write_rows")) m.dram.open_write_rows = d.u32("open_write_rows", 1, 1u << 24);
    m.dram.row_miss_bytes = d.number("row_miss_bytes", 0, false, 1u << 16);
    m.dram.write_row_miss_bytes = d.number("write_row_miss_bytes", 0, false, 1u << 16);
    if (d.has("write_row_bytes")) m.dram.write_row_bytes = d.u32("write_row_bytes", 0, 1u << 24);
    if (d.has("write_banks")) m.dram.write_banks = d.u32("write_banks", 0, 4096);
    if (d.has("write_activate_bytes"))
        m.dram.write_activate_bytes = d.number("write_activate_bytes", 0, false, 1u << 16);
    if (d.has("read_activate_bytes"))
        m.dram.read_activate_bytes = d.number("read_activate_bytes", 0, false, 1u << 16);
    if (d.has("read_command_bytes"))
        m.dram.read_command_bytes = d.number("read_command_bytes", 0, false, 1u << 16);
    if (d.has("mixed_write_bytes")) m.dram.mixed_write_bytes = d.number("mixed_write_bytes", 0, false, 1u << 16);
    if (d.has("switch_bytes")) m.dram.switch_bytes = d.number("switch_bytes", 0, false, 1u << 16);
    if (d.has("latency_spread_cycles")) m.dram.latency_spread_cycles = d.u32("latency_spread_cycles", 0, 10000);
    if (d.has("rmw_turnaround_bytes"))
        m.dram.rmw_turnaround_bytes = d.number("rmw_turnaround_bytes", 0, false, 1u << 16);
    m.dram.bank_service_cycles = d.number("bank_service_cycles", 0, false, 1e6);
    m.dram.load_window_cycles = d.u32("load_window_cycles", 1, 1u << 24);
    Section a = s.section("atomics", kAtomicsKeys);
    m.atomics.same_address_cycles = a.number("same_address_cycles", 0, false, 1e6);
    if (a.has("float_add_cycles")) m.atomics.float_add_cycles = a.number("float_add_cycles", 0, false, 1e6);
    m.atomics.slices_per_unit = a.u32("slices_per_unit", 1, 4096);
    if (a.has("unit_ops_per_cycle")) m.atomics.unit_ops_per_cycle = a.number("unit_ops_per_cycle", 0, false, 1024);
    m.atomics.l1_ops_per_cycle = a.u32("l1_ops_per_cycle", 0, 1024);
    if (a.has("sector_cycles")) m.atomics.sector_cycles = a.number("sector_cycles", 0, false, 1e6);
    if (a.has("request_cycles")) m.atomics.request_cycles = a.number("request_cycles", 0, false, 1e6);
    m.atomics.shared_same_address_cycles = a.u32("shared_same_address_cycles", 0, 1u << 16);
    if (a.has("header_bytes")) m.atomics.header_bytes = a.u32("header_bytes", 0, 4096);
    if (a.has("near_lookup")) m.atomics.near_lookup = a.boolean("near_lookup");
    Section st = s.section("stores", kStoresKeys);
    m.stores.partial_sector_cycles = st.number("partial_sector_cycles", 0, false, 1e6);
    m.stores.partial_sector_dram_read = st.boolean("partial_sector_dram_read");
    if (st.has("partial_miss_fetch")) m.stores.partial_miss_fetch = st.boolean("partial_miss_fetch");
    if (st.has("dirty_lines")) m.stores.dirty_lines = st.u32("dirty_lines", 0, 1u << 16);
    if (st.has("write_queue_cycles")) m.stores.write_queue_cycles = st.u32("write_queue_cycles", 0, 1u << 24);
    if (st.has("drain_acks")) m.stores.drain_acks = st.boolean("drain_acks");
    if (st.has("sectors_in_flight")) m.stores.sectors_in_flight = st.u32("sectors_in_flight", 0, 1u << 20);
    if (st.has("wait_in_queue")) m.stores.wait_in_queue = st.boolean("wait_in_queue");
    if (st.has("header_bytes")) m.stores.header_bytes = st.u32("header_bytes", 0, 4096);
    Section c = s.section("carveout", kCarveoutKeys);
    m.carveout.unified_bytes = c.u32("unified_bytes", 0, 1u << 30);
    m.carveout.steps_kb = read_steps(c, "steps_kb");
    if (c.has("floor_kb_1024")) m.carveout.floor_kb_1024 = c.u32("floor_kb_1024", 0, 65536);
    if (c.has("floor_cap_kb")) m.carveout.floor_cap_kb = c.u32("floor_cap_kb", 0, 65536);
    if (c.has("shared_headroom")) m.carveout.shared_headroom = c.u32("shared_headroom", 1, 8);
    Section t = s.section("tex", kTexKeys);
    m.tex.line_width = t.u32("line_width", 0, 1024);
    m.tex.line_height = t.u32("line_height", 1, 1024);
    m.tex.sector_width = t.u32("sector_width", 0, 1024);
    m.tex.quads_per_cycle = t.u32("quads_per_cycle", 0, 8);
}

GpuConfig::Memory read_memory(const Section& s) {
    GpuConfig::Memory m;
    m.sector_bytes = s.u32("sector_bytes", 1, 1024);
    m.l1 = read_cache(s.section("l1", kCacheKeys));
    m.l2 = read_cache(s.section("l2", kCacheKeys));
    m.shared_latency = s.u32("shared_latency", 1, kMaxLatency);
    m.shared_banks = s.u32("shared_banks", 1, 1024);
    if (s.has("shared_conflict_latency")) m.shared_conflict_latency = s.u32("shared_conflict_latency", 0, 64);
    if (s.has("shared_return_bytes")) m.shared_return_bytes = s.u32("shared_return_bytes", 0, 4096);
    m.const_latency = s.u32("const_latency", 1, kMaxLatency);
    m.tex_latency = s.u32("tex_latency", 1, kMaxLatency);
    m.atomic_latency = s.u32("atomic_latency", 0, kMaxLatency);
    m.dram_latency = s.u32("dram_latency", 1, kMaxLatency);
    m.dram_bandwidth_gbs = s.number("dram_bandwidth_gbs", 0.01, false, 1e6);
    m.max_outstanding_per_sm = s.u32("max_outstanding_per_sm", 1, 1u << 16);
    if (s.has("slot_wait_in_queue")) m.slot_wait_in_queue = s.boolean("slot_wait_in_queue");
    if (s.has("l1_miss_lines_in_flight")) m.l1_miss_lines_in_flight = s.u32("l1_miss_lines_in_flight", 0, 1u << 20);
    m.l1_sectors_per_cycle = s.u32("l1_sectors_per_cycle", 1, 1024);
    if (s.has("l1_line_per_wavefront")) m.l1_line_per_wavefront = s.boolean("l1_line_per_wavefront");
    if (s.has("l1_hits_share_wavefronts")) m.l1_hits_share_wavefronts = s.boolean("l1_hits_share_wavefronts");
    if (s.has("l1_request_cycles")) m.l1_request_cycles = s.u32("l1_request_cycles", 1, 64);
    if (s.has("lsu_in_port")) m.lsu_in_port = s.boolean("lsu_in_port");
    if (s.has("l1_data_bank_conflicts")) m.l1_data_bank_conflicts = s.boolean("l1_data_bank_conflicts");
    if (s.has("l1_fill_cycles")) m.l1_fill_cycles = s.number("l1_fill_cycles", 0, false, 64);
    if (s.has("l1_data_wavefronts")) m.l1_data_wavefronts = s.u32("l1_data_wavefronts", 0, 64);
    if (s.has("l1_local_store_allocate")) m.l1_local_store_allocate = s.boolean("l1_local_store_allocate");
    if (s.has("l1_global_store_allocate")) m.l1_global_store_allocate = s.boolean("l1_global_store_allocate");
    if (s.has("lg_queue_depth")) m.lg_queue_depth = s.u32("lg_queue_depth", 0, 4096);
    if (s.has("l1_miss_lines_per_pass")) m.l1_miss_lines_per_pass = s.u32("l1_miss_lines_per_pass", 0, 32);
    if (s.has("l1_miss_pass_cycles")) m.l1_miss_pass_cycles = s.u32("l1_miss_pass_cycles", 0, 100000);
    if (s.has("l1_miss_line_cycles")) m.l1_miss_line_cycles = s.u32("l1_miss_line_cycles", 0, 64);
    m.dram_fetch_bytes = s.u32("dram_fetch_bytes", 1, 1u << 16);
    read_memory_units(s, m);
    return m;
}

GpuConfig read_config(Reader& r, const YAML::Node& doc) {
    Section top = Section::root(r, doc, kTopKeys);
    GpuConfig c;
    c.name = top.text("name");
    c.clock_mhz = top.number("clock_mhz", 1, false, 100'000);
    c.max_warp_instructions = top.u64("max_warp_instructions", 1, kMaxBudget);
    c.max_cycles = top.u64("max_cycles", 1, kMaxBudget);
    c.sm = read_sm(top.section("sm", kSmKeys));
    c.scheduler = read_scheduler(top.section("scheduler", kSchedulerKeys));
    c.regfile = read_regfile(top.section("regfile", kRegFileKeys));
    c.pipes = read_pipes(top.section("pipes", kPipesKeys));
    c.memory = read_memory(top.section("memory", kMemoryKeys));
    Section launch = top.section("launch", kLaunchKeys);
    c.launch.block_launch_cycles = launch.u32("block_launch_cycles", 0, kMaxLatency);
    c.launch.kernel_launch_us = launch.number("kernel_launch_us", 0, false, 1e6);
    if (launch.has("block_dispatch_cycles"))
        c.launch.block_dispatch_cycles = launch.number("block_dispatch_cycles", 0, false, 1e4);
    return c;
}

// ---- rules that relate fields ------------------------------------------------

void check_sm(const Reader& r, const GpuConfig::Sm& sm) {
    require(r, sm.max_warps % sm.sub_partitions == 0, "sm.max_warps",
            "expected a multiple of " + ref(r, "sm.sub_partitions", sm.sub_partitions) +
                ", since warps are split evenly over the schedulers; got " + num(sm.max_warps));
    require(r, sm.max_blocks <= sm.max_warps, "sm.max_blocks",
            "expected at most " + ref(r, "sm.max_warps", sm.max_warps) +
                ", since every block holds at least one warp; got " + num(sm.max_blocks));
    require(r, sm.max_threads_per_block <= uint64_t(sm.max_warps) * kWarp, "sm.max_threads_per_block",
            "expected at most 32 x " + ref(r, "sm.max_warps", sm.max_warps) +
                " so that one block fits on an SM; got " + num(sm.max_threads_per_block));
    require(r, sm.reg_alloc_unit % kWarp == 0, "sm.reg_alloc_unit",
            "expected a multiple of 32 (a whole number of registers per thread), got " +
                num(sm.reg_alloc_unit));
    require(r, sm.registers % sm.reg_alloc_unit == 0, "sm.registers",
            "expected a multiple of " + ref(r, "sm.reg_alloc_unit", sm.reg_alloc_unit) + ", got " +
                num(sm.registers));
    uint64_t unit = sm.reg_alloc_unit;
    uint64_t warp_regs = (uint64_t(sm.max_regs_per_thread) * kWarp + unit - 1) / unit * unit;
    require(r, warp_regs <= sm.registers, "sm.max_regs_per_thread",
            "one warp at " + num(sm.max_regs_per_thread) + " registers per thread needs " +
                num(warp_regs) + " registers, more than " + ref(r, "sm.registers", sm.registers));
    require(r, pow2(sm.shared_alloc_unit), "sm.shared_alloc_unit",
            "expected a power of two, got " + num(sm.shared_alloc_unit));
    require(r, sm.shared_bytes % sm.shared_alloc_unit == 0, "sm.shared_bytes",
            "expected a multiple of " + ref(r, "sm.shared_alloc_unit", sm.shared_alloc_unit) +
                ", got " + num(sm.shared_bytes));
    require(r, sm.shared_reserved_per_block <= sm.shared_bytes, "sm.shared_reserved_per_block",
            "expected at most " + ref(r, "sm.shared_bytes", sm.shared_bytes) +
                ", or no block could ever launch; got " + num(sm.shared_reserved_per_block));
}

void check_scheduler(const Reader& r, const GpuConfig& c) {
    uint32_t per_scheduler = c.sm.max_warps / c.sm.sub_partitions;
    require(r, c.scheduler.active_set <= per_scheduler, "scheduler.active_set",
            "expected at most the warps of one scheduler, " + ref(r, "sm.max_warps", c.sm.max_warps) +
                " / " + ref(r, "sm.sub_partitions", c.sm.sub_partitions) + " = " + num(per_scheduler) +
                "; got " + num(c.scheduler.active_set));
}

void check_regfile(const Reader& r, const GpuConfig::RegFile& rf) {
    require(r, uint64_t(rf.banks) * rf.reads_per_bank <= 64, "regfile.reads_per_bank",
            "expected at most 64 read ports in all (" + ref(r, "regfile.banks", rf.banks) +
                " x reads_per_bank); got " + num(rf.reads_per_bank));
}

void check_pipes(const Reader& r, const GpuConfig::Pipes& p) {
    // For these pipes latency is issue-to-result of the whole warp; its last
    // lanes enter the pipe interval - 1 cycles after issue.
    const std::pair<const char*, const PipeSpec*> timed[] = {
        {"fma", &p.fma}, {"alu", &p.alu}, {"sfu", &p.sfu}, {"fp64", &p.fp64}, {"imad", &p.imad}, {"iadd", &p.iadd},
        {"uniform", &p.uniform}};
    for (const auto& [name, spec] : timed) {
        std::string base = std::string("pipes.") + name;
        std::string note = r.origin_note(base + ".lanes") + r.origin_note(base + ".interval");
        require(r, spec->latency >= spec->interval, base + ".latency",
                "expected at least the pipe's interval (" + num(spec->interval) + " cycles" +
                    (note.empty() ? "" : ", " + note) +
                    ": the last lanes of a warp enter the pipe that late); got " + num(spec->latency));
    }
    const std::pair<const char*, const PipeSpec*> all[] = {
        {"fma", &p.fma}, {"alu", &p.alu}, {"sfu", &p.sfu}, {"fp64", &p.fp64}, {"lsu", &p.lsu},
        {"tex", &p.tex}, {"branch", &p.branch}, {"imad", &p.imad}, {"iadd", &p.iadd}, {"uniform", &p.uniform}};
    for (const auto& [name, spec] : all)
        require(r, spec->datapaths != 0, std::string("pipes.") + name + ".datapaths",
                "expected at least one datapath name (the units that execute this class)");
    require(r, p.int_div_mufu_instructions <= p.int_div_instructions, "pipes.int_div_mufu_instructions",
            "expected at most " + ref(r, "pipes.int_div_instructions", p.int_div_instructions) +
                ", since they are part of the sequence; got " + num(p.int_div_mufu_instructions));
    require(r, p.int_div_latency >= p.int_div_instructions, "pipes.int_div_latency",
            "expected at least " + ref(r, "pipes.int_div_instructions", p.int_div_instructions) +
                ", since the sequence issues at most one instruction per cycle; got " +
                num(p.int_div_latency));
    require(r, p.int_div_dividend_latency <= p.int_div_latency, "pipes.int_div_dividend_latency",
            "expected at most " + ref(r, "pipes.int_div_latency", p.int_div_latency) +
                " (the dividend's part of the sequence); got " + num(p.int_div_dividend_latency));
    require(r, p.branch_resolve_cycles <= p.branch.latency, "pipes.branch_resolve_cycles",
            "expected at most " + ref(r, "pipes.branch.latency", p.branch.latency) +
                " (the resolving part of a taken branch's latency); got " + num(p.branch_resolve_cycles));
}

void check_cache(const Reader& r, const CacheSpec& c, const std::string& base, uint32_t sector) {
    require(r, pow2(c.line_bytes), base + ".line_bytes", "expected a power of two, got " + num(c.line_bytes));
    require(r, c.line_bytes % sector == 0 && c.line_bytes / sector <= 32, base + ".line_bytes",
            "expected a multiple of " + ref(r, "memory.sector_bytes", sector) +
                " holding at most 32 sectors; got " + num(c.line_bytes));
    uint64_t way_bytes = uint64_t(c.assoc) * c.line_bytes;
    require(r, c.size_bytes % way_bytes == 0, base + ".size_bytes",
            "expected a multiple of " + ref(r, base + ".assoc", c.assoc) + " x " +
                ref(r, base + ".line_bytes", c.line_bytes) + " = " + num(way_bytes) +
                " (a whole number of sets); got " + num(c.size_bytes));
}

// The tags the model keeps (one fill time per sector) stay bounded.
void check_cache_sectors(const Reader& r, const GpuConfig& c) {
    const uint64_t l1 = uint64_t(c.sm.count) * (c.memory.l1.size_bytes / c.memory.sector_bytes);
    require(r, l1 <= kMaxCacheSectors, "memory.l1.size_bytes",
            "all L1s together, " + ref(r, "sm.count", c.sm.count) + " x " + num(c.memory.l1.size_bytes) + " / " +
                ref(r, "memory.sector_bytes", c.memory.sector_bytes) + " = " + num(l1) +
                " sectors, exceed the limit of " + num(kMaxCacheSectors));
    const uint64_t l2 = c.memory.l2.size_bytes / c.memory.sector_bytes;
    require(r, l2 <= kMaxCacheSectors, "memory.l2.size_bytes",
            num(c.memory.l2.size_bytes) + " / " + ref(r, "memory.sector_bytes", c.memory.sector_bytes) + " = " +
                num(l2) + " sectors, more than the limit of " + num(kMaxCacheSectors));
}

void check_memory(const Reader& r, const GpuConfig::Memory& m) {
    require(r, pow2(m.sector_bytes) && m.sector_bytes >= 4, "memory.sector_bytes",
            "expected a power of two >= 4, got " + num(m.sector_bytes));
    check_cache(r, m.l1, "memory.l1", m.sector_bytes);
    check_cache(r, m.l2, "memory.l2", m.sector_bytes);
    require(r, pow2(m.dram_fetch_bytes) && m.dram_fetch_bytes >= m.sector_bytes && m.dram_fetch_bytes <= m.l2.line_bytes,
            "memory.dram_fetch_bytes",
            "expected a power of two from " + ref(r, "memory.sector_bytes", m.sector_bytes) + " to " +
                ref(r, "memory.l2.line_bytes", m.l2.line_bytes) + ", got " + num(m.dram_fetch_bytes));
    require(r, pow2(m.shared_banks), "memory.shared_banks",
            "expected a power of two, got " + num(m.shared_banks));
    require(r, m.l2.hit_latency > m.l1.hit_latency, "memory.l2.hit_latency",
            "expected more than " + ref(r, "memory.l1.hit_latency", m.l1.hit_latency) +
                ", since an L2 hit first misses in L1; got " + num(m.l2.hit_latency));
    require(r, m.l2_slices.hit_spread_cycles / 2 < m.l2.hit_latency - m.l1.hit_latency, "memory.l2_slices.hit_spread_cycles",
            "expected less than twice " + ref(r, "memory.l2.hit_latency", m.l2.hit_latency) + " - " +
                ref(r, "memory.l1.hit_latency", m.l1.hit_latency) + " (the spread is centred on the L2 hit latency), got " +
                num(m.l2_slices.hit_spread_cycles));
    require(r, m.dram_latency > m.l2.hit_latency, "memory.dram_latency",
            "expected more than " + ref(r, "memory.l2.hit_latency", m.l2.hit_latency) +
                ", since a DRAM access first misses in L2; got " + num(m.dram_latency));
}

// The units of the memory path: slices, DRAM channels, carve-out and texture layout.
void check_memory_units(const Reader& r, const GpuConfig& c) {
    const GpuConfig::Memory& m = c.memory;
    require(r, m.l2.size_bytes % m.l2_slices.count == 0 &&
                   (m.l2.size_bytes / m.l2_slices.count) % (uint64_t(m.l2.assoc) * m.l2.line_bytes) == 0,
            "memory.l2_slices.count",
            "expected a divisor of " + ref(r, "memory.l2.size_bytes", m.l2.size_bytes) +
                " leaving whole sets in each slice; got " + num(m.l2_slices.count));
    require(r, m.l2_slices.count % m.l2_slices.partitions == 0, "memory.l2_slices.partitions",
            "expected a divisor of " + ref(r, "memory.l2_slices.count", m.l2_slices.count) + ", got " +
                num(m.l2_slices.partitions));
    const uint32_t per_part = m.l2_slices.count / std::max(m.l2_slices.partitions, 1u);
    require(r, m.l2_slices.partitions == 1 || m.l2_slices.partner_offset < per_part, "memory.l2_slices.partner_offset",
            "expected fewer than the slices of one partition (" + num(per_part) + ") with partitions > 1, got " +
                num(m.l2_slices.partner_offset));
    const uint32_t il = m.l2_slices.interleave_bytes;
    require(r, il == 0 || (pow2(il) && il >= m.l2.line_bytes), "memory.l2_slices.interleave_bytes",
            "expected 0 or a power of two of at least " + ref(r, "memory.l2.line_bytes", m.l2.line_bytes) + ", got " +
                num(il));
    require(r, m.l2_slices.count % m.atomics.slices_per_unit == 0, "memory.atomics.slices_per_unit",
            "expected a divisor of " + ref(r, "memory.l2_slices.count", m.l2_slices.count) + ", got " +
                num(m.atomics.slices_per_unit));
    require(r, pow2(m.dram.interleave_bytes) && m.dram.interleave_bytes >= m.dram_fetch_bytes,
            "memory.dram.interleave_bytes",
            "expected a power of two of at least " + ref(r, "memory.dram_fetch_bytes", m.dram_fetch_bytes) +
                ", got " + num(m.dram.interleave_bytes));
    if (m.carveout.unified_bytes) {
        uint64_t top = uint64_t(m.carveout.steps_kb.back()) * 1024;
        require(r, top == c.sm.shared_bytes, "memory.carveout.steps_kb",
                "expected the largest carve-out to be " + ref(r, "sm.shared_bytes", c.sm.shared_bytes) +
                    " (in KB), got " + num(m.carveout.steps_kb.back()) + " KB");
        require(r, m.carveout.unified_bytes == top + m.l1.size_bytes, "memory.carveout.unified_bytes",
                "expected the largest carve-out plus " + ref(r, "memory.l1.size_bytes", m.l1.size_bytes) +
                    " (the L1 left beside it) = " + num(top + m.l1.size_bytes) + ", got " +
                    num(m.carveout.unified_bytes));
    }
    if (m.tex.line_width) {
        uint32_t sector_texels = m.sector_bytes / 4;
        require(r, uint64_t(m.tex.line_width) * m.tex.line_height * 4 == m.l1.line_bytes, "memory.tex.line_height",
                "expected line_width x line_height x 4 B = " + ref(r, "memory.l1.line_bytes", m.l1.line_bytes) +
                    ", got " + num(m.tex.line_width) + " x " + num(m.tex.line_height));
        bool sector_ok = m.tex.sector_width && sector_texels % m.tex.sector_width == 0 &&
                         m.tex.line_width % m.tex.sector_width == 0 &&
                         m.tex.line_height % (sector_texels / m.tex.sector_width) == 0;
        require(r, sector_ok, "memory.tex.sector_width",
                "expected a sector of sector_width x (" + num(sector_texels) +
                    " / sector_width) texels tiling the line, got " + num(m.tex.sector_width));
    }
}

// ---- text and files ----------------------------------------------------------

// Counts the documents of a YAML stream without building them. yaml-cpp's
// LoadAll never ends on some inputs (",", "&e,d"): its parser returns a new
// empty document without consuming anything. Here a document that starts
// where the previous one did is that error, reported at its position.
class DocumentCounter : public YAML::EventHandler {
public:
    void OnDocumentStart(const YAML::Mark& m) override { starts.push_back(m); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
    std::vector<YAML::Mark> starts;
};

SourceLoc at_mark(const std::string& name, const YAML::Mark& m) {
    return m.line < 0 ? SourceLoc{name, 0, 0} : SourceLoc{name, uint32_t(m.line + 1), uint32_t(m.column + 1)};
}

void check_one_document(const std::string& text, const std::string& name) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentCounter counter;
    for (int i = 0; i < 3 && parser.HandleNextDocument(counter); ++i) {
        const auto& s = counter.starts;
        if (s.size() >= 2 && s[s.size() - 1].pos == s[s.size() - 2].pos) {
            const size_t pos = size_t(s.back().pos);
            const std::string c = pos < text.size() ? std::string(1, text[pos]) : std::string("end of input");
            throw Error(at_mark(name, s.back()), "invalid YAML: unexpected '" + c + "'; expected a mapping of keys");
        }
    }
    if (counter.starts.size() > 1) {
        throw Error(SourceLoc{name, uint32_t(counter.starts[1].line + 1), 0},
                    "expected one YAML document, found more (a second '---')");
    }
}

YAML::Node parse_document(const std::string& text, const std::string& name) {
    check_one_document(text, name);
    YAML::Node doc = YAML::Load(text);
    if (doc.IsNull()) {
        throw Error(SourceLoc{name, 0, 0}, "the config is empty; expected a mapping with the keys "
                                           "name, clock_mhz, max_warp_instructions, max_cycles, sm, scheduler, "
                                           "regfile, pipes, memory, launch");
    }
    return doc;
}

std::string read_file(const std::string& path) {
    return isa::read_text_file(path, "the config", isa::kMaxConfigFileBytes);
}

}  // namespace

// ---- public API --------------------------------------------------------------

GpuConfig load_config_text(const std::string& yaml_text, const std::string& name,
                           const std::vector<std::string>& overrides) {
    try {
        YAML::Node root = parse_document(yaml_text, name);
        Reader r(name, cfg::apply_overrides(root, overrides));
        GpuConfig c = read_config(r, root);
        c.source_file = name;
        check_sm(r, c.sm);
        check_scheduler(r, c);
        check_regfile(r, c.regfile);
        check_pipes(r, c.pipes);
        check_memory(r, c.memory);
        check_memory_units(r, c);
        check_cache_sectors(r, c);
        return c;
    } catch (const YAML::Exception& e) {
        // Syntax errors; yaml-cpp marks are 0-based.
        SourceLoc loc{name, 0, 0};
        if (e.mark.line >= 0) loc = SourceLoc{name, uint32_t(e.mark.line + 1), uint32_t(e.mark.column + 1)};
        throw Error(loc, "invalid YAML: " + e.msg);
    }
}

GpuConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
    return load_config_text(read_file(path), path, overrides);
}

const char* policy_name(SchedPolicy p) {
    switch (p) {
        case SchedPolicy::Lrr: return "lrr";
        case SchedPolicy::Gto: return "gto";
        case SchedPolicy::TwoLevel: return "two_level";
        case SchedPolicy::Gty: return "gty";
        case SchedPolicy::Gtb: return "gtb";
        case SchedPolicy::Cgy: return "cgy";
    }
    return "?";
}

}  // namespace simt
