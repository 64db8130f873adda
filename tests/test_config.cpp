// test_config.cpp: the YAML machine description (sim/config) and the shipped configs.
//
// Covers: configs/rtx4060.yaml and configs/h200.yaml load and hold the
// published values; every value there cites a source; each kind of bad input
// (unknown/missing/duplicate key, wrong type, impossible value, YAML syntax,
// missing file) is a simt::Error naming the key path at the right line and
// column; --set overrides work and bad ones name the --set; no input crashes.
// The error texts are built by editing one line of a shipped config.
#include "sim/config/config.hpp"

#include "isa/diagnostics.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using Catch::Matchers::Contains;
using simt::GpuConfig;
using simt::load_config;
using simt::load_config_text;

namespace {

std::string config_path(const std::string& name) {
    return std::string(SIMT_SOURCE_DIR) + "/configs/" + name;
}

std::string shipped(const std::string& name) {
    std::ifstream in(config_path(name));
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A shipped text with the first line containing `needle` (searched from the
// first occurrence of `after`) replaced by `replacement`; `line` is its
// 1-based number.
struct Edited {
    std::string text;
    uint32_t line = 0;
};

Edited edit(const std::string& text, const std::string& needle, const std::string& replacement,
            const std::string& after = "") {
    size_t from = after.empty() ? 0 : text.find(after);
    REQUIRE(from != std::string::npos);
    size_t at = text.find(needle, from);
    REQUIRE(at != std::string::npos);
    size_t begin = text.rfind('\n', at);
    begin = begin == std::string::npos ? 0 : begin + 1;
    size_t end = text.find('\n', at);
    Edited e;
    e.text = text.substr(0, begin) + replacement + text.substr(end);
    e.line = 1;
    for (size_t i = 0; i < begin; ++i) e.line += text[i] == '\n';
    return e;
}

uint32_t line_of(const std::string& text, const std::string& needle, const std::string& after = "") {
    return edit(text, needle, needle, after).line;  // replaces nothing, reports the line
}

simt::Error load_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
    try {
        load_config_text(text, "test.yaml", overrides);
    } catch (const simt::Error& e) {
        return e;
    }
    FAIL("expected a simt::Error");
    throw std::logic_error("unreachable");
}

}  // namespace

// ---- the shipped configs -------------------------------------------------------

TEST_CASE("rtx4060.yaml loads with the published values", "[config]") {
    GpuConfig c = load_config(config_path("rtx4060.yaml"));
    CHECK(c.name == "NVIDIA GeForce RTX 4060");
    CHECK(c.source_file == config_path("rtx4060.yaml"));
    CHECK(c.clock_mhz == 2460.0);
    CHECK(c.max_warp_instructions == 100000000ull);
    CHECK(c.max_cycles == 20000000ull);

    CHECK(c.sm.count == 24);
    CHECK(c.sm.sub_partitions == 4);
    CHECK(c.sm.max_warps == 48);
    CHECK(c.sm.max_blocks == 24);
    CHECK(c.sm.max_threads_per_block == 1024);
    CHECK(c.sm.registers == 65536);
    CHECK(c.sm.reg_alloc_unit == 256);
    CHECK(c.sm.max_regs_per_thread == 255);
    CHECK(c.sm.shared_bytes == 102400);
    CHECK(c.sm.shared_alloc_unit == 128);
    CHECK(c.sm.shared_reserved_per_block == 1024);

    CHECK(c.scheduler.policy == simt::SchedPolicy::Gtb);
    CHECK(c.scheduler.active_set == 8);
    CHECK(c.regfile.model_banks);
    CHECK(c.regfile.banks == 2);
    CHECK(c.regfile.reads_per_bank == 1);
    CHECK(c.regfile.reuse_cache);

    CHECK(c.pipes.fma.interval == 1);    // 32 lanes
    CHECK(c.pipes.fma.latency == 4);
    CHECK(c.pipes.alu.interval == 2);    // 16 lanes
    CHECK(c.pipes.alu.latency == 4);
    CHECK(c.pipes.sfu.interval == 8);    // 4 lanes
    CHECK(c.pipes.sfu.latency == 17);
    CHECK(c.pipes.fp64.interval == 64);  // 2 per SM, 1:64
    CHECK(c.pipes.fp64.latency == 64);
    CHECK(c.pipes.lsu.interval == 4);    // 4 lanes
    CHECK(c.pipes.tex.interval == 32);   // 1 TMU per SMSP
    CHECK(c.pipes.branch.interval == 1);
    CHECK(c.pipes.int_div_instructions == 16);
    CHECK(c.pipes.int_div_latency == 130);
    CHECK(c.pipes.int_div_dividend_latency == 70);

    CHECK(c.memory.sector_bytes == 32);
    CHECK(c.memory.l1.size_bytes == 28672);  // 128 KB - 100 KB shared
    CHECK(c.memory.l1.assoc == 56);
    CHECK(c.memory.l1.line_bytes == 128);
    CHECK(c.memory.l1.hit_latency == 40);
    CHECK(c.memory.l2.size_bytes == 24u * 1024 * 1024);
    CHECK(c.memory.l2.assoc == 16);
    CHECK(c.memory.l2.line_bytes == 128);
    CHECK(c.memory.l2.hit_latency == 296);
    CHECK(c.memory.shared_latency == 23);
    CHECK(c.memory.shared_banks == 32);
    CHECK(c.memory.const_latency == 21);
    CHECK(c.memory.tex_latency == 41);
    CHECK(c.memory.atomic_latency == 20);
    CHECK(c.memory.dram_latency == 636);
    CHECK(c.memory.dram_bandwidth_gbs == 272.0);
    CHECK(c.memory.max_outstanding_per_sm == 256);
    CHECK(c.memory.l1_sectors_per_cycle == 4);
    CHECK(c.memory.dram_fetch_bytes == 64);

    CHECK(c.launch.block_launch_cycles == 200);
    CHECK(c.launch.block_dispatch_cycles == Approx(1.48));
    CHECK(c.launch.kernel_launch_us == 2.6);
}

TEST_CASE("h200.yaml loads with the published and measured values", "[config]") {
    GpuConfig c = load_config(config_path("h200.yaml"));
    CHECK(c.name == "NVIDIA H200 SXM");
    CHECK(c.clock_mhz == 1980.0);
    CHECK(c.max_warp_instructions == 100000000ull);
    CHECK(c.max_cycles == 20000000ull);

    CHECK(c.sm.count == 132);
    CHECK(c.sm.sub_partitions == 4);
    CHECK(c.sm.max_warps == 64);
    CHECK(c.sm.max_blocks == 32);
    CHECK(c.sm.max_threads_per_block == 1024);
    CHECK(c.sm.registers == 65536);
    CHECK(c.sm.reg_alloc_unit == 256);
    CHECK(c.sm.max_regs_per_thread == 255);
    CHECK(c.sm.shared_bytes == 233472);
    CHECK(c.sm.shared_alloc_unit == 128);
    CHECK(c.sm.shared_reserved_per_block == 1024);
    CHECK(c.scheduler.policy == simt::SchedPolicy::Cgy);
    CHECK(c.scheduler.interleave_paths);
    CHECK(c.memory.l2_slices.home_copy);

    CHECK(c.pipes.fma.interval == 2);  // 16 lanes on each of its two datapaths
    CHECK(c.pipes.fma.latency == 4);
    CHECK(c.pipes.alu.interval == 2);
    CHECK(c.pipes.alu.latency == 4);
    CHECK(c.pipes.sfu.interval == 8);
    CHECK(c.pipes.sfu.latency == 17);
    CHECK(c.pipes.fp64.interval == 2);   // 16 lanes per SMSP, 1:2
    CHECK(c.pipes.fp64.latency == 8);
    CHECK(c.pipes.lsu.interval == 4);    // 8 lanes
    CHECK(c.pipes.int_div_instructions == 16);
    CHECK(c.pipes.int_div_latency == 130);
    CHECK(c.pipes.int_div_dividend_latency == 70);

    CHECK(c.memory.l1.size_bytes == 28672);  // 256 KB - 228 KB shared
    CHECK(c.memory.l1.hit_latency == 33);
    CHECK(c.memory.l2.size_bytes == 62914560u);  // 60 MiB
    CHECK(c.memory.l2.assoc == 20);
    CHECK(c.memory.l2.hit_latency == 281);
    CHECK(c.memory.shared_latency == 23);
    CHECK(c.memory.const_latency == 21);
    CHECK(c.memory.tex_latency == 39);
    CHECK(c.memory.dram_latency == 684);
    CHECK(c.memory.dram_bandwidth_gbs == 4800.0);
    CHECK(c.memory.l2_slices.input_flits_per_cycle == 0.864);  // one flit per L2 cycle (atomprobe, ncu)
    CHECK(c.memory.l2_slices.flit_bytes == 32);
    CHECK(c.memory.l2_slices.partner_offset == 8);
    CHECK(c.memory.atomics.header_bytes == 24);
    CHECK(c.memory.atomics.near_lookup);
    CHECK(c.launch.kernel_launch_us == 5.0);
}

TEST_CASE("every value of the shipped configs names its source", "[config]") {
    for (const char* file : {"rtx4060.yaml", "h200.yaml"}) {
        std::istringstream in(shipped(file));
        std::string line;
        int n = 0;
        while (std::getline(in, line)) {
            ++n;
            size_t hash = line.find('#');
            std::string code = line.substr(0, hash);
            size_t colon = code.find(':');
            if (colon == std::string::npos || code.find_first_not_of(" \t", colon + 1) == std::string::npos) {
                continue;  // a comment, a blank line or a section header
            }
            INFO(file << ":" << n << ": " << line);
            REQUIRE(hash != std::string::npos);
            std::string comment = line.substr(hash);
            bool cited = comment.find('[') != std::string::npos || comment.find("assumption:") != std::string::npos ||
                         comment.find("model:") != std::string::npos;
            CHECK(cited);
        }
    }
}

// ---- keys ----------------------------------------------------------------------

TEST_CASE("config: an unknown key is rejected with the nearest known key", "[config]") {
    const std::string base = shipped("rtx4060.yaml");
    Edited e = edit(base, "hit_latency: 40", "    hit_latncy: 40");
    simt::Error err = load_error(e.text);
    CHECK(err.loc().file == "test.yaml");
    CHECK(err.loc().line == e.line);
    CHECK(err.loc().col == 5);
    CHECK_THAT(err.message(), Contains("memory.l1.hit_latncy") && Contains("unknown key") &&
                                  Contains("did you mean 'memory.l1.hit_latency'?"));
    CHECK_THAT(std::string(err.what()), Contains("test.yaml:" + std::to_string(e.line) + ":5: error: "));

    Edited far = edit(base, "reuse_cache: true", "  bogus_setting: true");
    simt::Error err2 = load_error(far.text);
    CHECK(err2.loc().line == far.line);
    CHECK_THAT(err2.message(), Contains("regfile.bogus_setting") && Contains("the keys of regfile are"));
    CHECK_THAT(err2.message(), !Contains("did you mean"));

    Edited top = edit(base, "clock_mhz: 2460", "clock_mz: 2460");
    simt::Error err3 = load_error(top.text);
    CHECK(err3.loc().line == top.line);
    CHECK_THAT(err3.message(), Contains("clock_mz") && Contains("did you mean 'clock_mhz'?"));
}

TEST_CASE("config: a missing key is reported at its section", "[config]") {
    const std::string base = shipped("rtx4060.yaml");
    Edited e = edit(base, "hit_latency: 296", "", "  l2:");
    simt::Error err = load_error(e.text);
    CHECK(err.loc().line == line_of(base, "  l2:"));
    CHECK_THAT(err.message(), Contains("memory.l2.hit_latency") && Contains("missing key"));

    Edited top = edit(base, "max_warp_instructions:", "");
    simt::Error err2 = load_error(top.text);
    CHECK_THAT(err2.message(), Contains("max_warp_instructions") && Contains("missing key"));

    Edited sec = edit(base, "  count: 24", "", "sm:");
    CHECK(load_error(sec.text).loc().line == line_of(base, "sm:"));
}

TEST_CASE("config: a duplicate key is rejected at its second occurrence", "[config]") {
    const std::string base = shipped("h200.yaml");
    Edited e = edit(base, "  max_blocks: 32", "  max_blocks: 32\n  count: 132");
    simt::Error err = load_error(e.text);
    CHECK(err.loc().line == e.line + 1);
    CHECK_THAT(err.message(), Contains("sm.count") && Contains("duplicate key") &&
                                  Contains("first given at line " + std::to_string(line_of(base, "  count: 132"))));
}

TEST_CASE("config: a pipe gives exactly one of lanes and interval", "[config]") {
    const std::string base = shipped("rtx4060.yaml");
    Edited both = edit(base, "lanes: 16", "    lanes: 16\n    interval: 2", "  alu:");
    simt::Error err = load_error(both.text);
    CHECK(err.loc().line == line_of(base, "  alu:"));
    CHECK_THAT(err.message(), Contains("pipes.alu") && Contains("not both"));

    Edited neither = edit(base, "lanes: 16", "", "  alu:");
    simt::Error err2 = load_error(neither.text);
    CHECK(err2.loc().line == line_of(base, "  alu:"));
    CHECK_THAT(err2.message(), Contains("pipes.alu") && Contains("'lanes'") && Contains("'interval'"));
}

// ---- types -----------------------------------------------------------------------

TEST_CASE("config: a value of the wrong type names the key and what was expected", "[config]") {
    const std::string base = shipped("rtx4060.yaml");
    struct Case {
        std::string needle, replacement, after, path, says;
        uint32_t col;
    };
    const std::vector<Case> cases = {
        {"  count: 24", "  count: twenty", "", "sm.count", "expected an integer in [1, 1024], got 'twenty'", 10},
        {"  count: 24", "  count: \"24\"", "", "sm.count", "got the string \"24\"", 10},
        {"  registers: 65536", "  registers: -65536", "", "sm.registers", "got the negative number -65536", 14},
        {"  max_warps: 48", "  max_warps: 47.5", "", "sm.max_warps", "got the fraction 47.5", 14},
        {"  max_warps: 48", "  max_warps: 99999999999", "", "sm.max_warps", "too large", 14},
        {"  max_warps: 48", "  max_warps: [48]", "", "sm.max_warps", "got a sequence", 14},
        {"    latency: 4 ", "    latency: {cycles: 4}", "  fma:", "pipes.fma.latency", "got a mapping", 14},
        {"clock_mhz: 2460", "clock_mhz: fast", "", "clock_mhz", "expected a number >= 1 and <= 100000, got 'fast'", 12},
        {"  model_banks: true", "  model_banks: yes", "", "regfile.model_banks", "expected true or false, got 'yes'", 16},
        {"  policy: gtb", "  policy: greedy", "", "scheduler.policy", "expected one of lrr, gto, two_level, gty, gtb, cgy, got 'greedy'", 11},
        {"  policy: gtb", "  policy: gtoo", "", "scheduler.policy", "did you mean 'gto'?", 11},
        {"  tex_latency: 41", "  tex_latency: .inf", "", "memory.tex_latency", "got '.inf'", 16},
    };
    for (const Case& k : cases) {
        INFO(k.replacement);
        Edited e = edit(base, k.needle, k.replacement, k.after);
        simt::Error err = load_error(e.text);
        CHECK(err.loc().file == "test.yaml");
        CHECK(err.loc().line == e.line);
        CHECK(err.loc().col == k.col);
        CHECK_THAT(err.message(), Contains(k.path + ": ") && Contains(k.says));
    }
}

TEST_CASE("config: an empty value is reported at its key", "[config]") {
    Edited e = edit(shipped("h200.yaml"), "  dram_latency: 684", "  dram_latency:");
    simt::Error err = load_error(e.text);
    CHECK(err.loc().line == e.line);
    CHECK(err.loc().col == 3);
    CHECK_THAT(err.message(), Contains("memory.dram_latency") && Contains("got nothing"));
}

TEST_CASE("config: a value where a section belongs is rejected", "[config]") {
    const std::string base = shipped("h200.yaml");
    std::string text = base.substr(0, base.find("\nlaunch:") + 1) + "launch: soon\n";
    simt::Error err = load_error(text);
    CHECK(err.loc().line == line_of(base, "\nlaunch:"));
    CHECK(err.loc().col == 9);
    CHECK_THAT(err.message(), Contains("launch: expected a mapping") &&
                                  Contains("block_launch_cycles, block_dispatch_cycles, kernel_launch_us") && Contains("got 'soon'"));
}

TEST_CASE("config: whole numbers may be written with an exponent or in hex", "[config]") {
    const std::string base = shipped("h200.yaml");
    Edited e = edit(base, "max_warp_instructions:", "max_warp_instructions: 2e9");
    CHECK(load_config_text(e.text, "test.yaml").max_warp_instructions == 2000000000ull);
    Edited h = edit(base, "  registers: 65536", "  registers: 0x10000");
    CHECK(load_config_text(h.text, "test.yaml").sm.registers == 65536);
    Edited f = edit(base, "max_warp_instructions:", "max_warp_instructions: 2.5e-1");
    CHECK_THAT(load_error(f.text).message(), Contains("fraction"));
}

// ---- impossible values ---------------------------------------------------------

TEST_CASE("config: impossible values name the key, its line and the rule", "[config]") {
    const std::string base = shipped("rtx4060.yaml");
    struct Case {
        std::string needle, replacement, after, path, says;
    };
    const std::vector<Case> cases = {
        {"  count: 24", "  count: 0", "", "sm.count", "expected an integer in [1, 1024], got 0"},
        {"  sub_partitions: 4", "  sub_partitions: 0", "", "sm.sub_partitions", "got 0"},
        {"  registers: 65536", "  registers: 65000", "", "sm.registers", "multiple of sm.reg_alloc_unit (256)"},
        {"  max_warps: 48", "  max_warps: 50", "", "sm.max_warps", "multiple of sm.sub_partitions (4)"},
        {"  max_blocks: 24", "  max_blocks: 64", "", "sm.max_blocks", "at most sm.max_warps (48)"},
        {"  max_threads_per_block: 1024", "  max_threads_per_block: 2048", "", "sm.max_threads_per_block",
         "one block fits"},
        {"  reg_alloc_unit: 256", "  reg_alloc_unit: 100", "", "sm.reg_alloc_unit", "multiple of 32"},
        {"  max_regs_per_thread: 255", "  max_regs_per_thread: 256", "", "sm.max_regs_per_thread",
         "[1, 255], got 256"},
        {"  shared_alloc_unit: 128", "  shared_alloc_unit: 96", "", "sm.shared_alloc_unit", "power of two"},
        {"  shared_bytes: 102400", "  shared_bytes: 102401", "", "sm.shared_bytes", "multiple of sm.shared_alloc_unit"},
        {"  shared_reserved_per_block: 1024", "  shared_reserved_per_block: 204800", "",
         "sm.shared_reserved_per_block", "no block could ever launch"},
        {"  active_set: 8", "  active_set: 13", "", "scheduler.active_set", "48) / sm.sub_partitions (4) = 12"},
        {"  window: 4", "  window: 0", "", "scheduler.window", "expected an integer in [1, 64], got 0"},
        {"  starve_cycles: 64", "  starve_cycles: -1", "", "scheduler.starve_cycles", "expected an integer"},
        {"lanes: 16", "    lanes: 12", "  alu:", "pipes.alu.lanes", "divisor of 32"},
        {"lanes: 32", "    lanes: 64", "  fma:", "pipes.fma.lanes", "[1, 32], got 64"},
        {"interval: 64", "    interval: 48", "  fp64:", "pipes.fp64.interval", "divisor of 32"},
        {"    latency: 64", "    latency: 8", "  fp64:", "pipes.fp64.latency", "at least the pipe's interval (64"},
        {"  int_div_latency: 130", "  int_div_latency: 10", "", "pipes.int_div_latency",
         "at least pipes.int_div_instructions (16)"},
        {"  int_div_dividend_latency: 70", "  int_div_dividend_latency: 131", "", "pipes.int_div_dividend_latency",
         "at most pipes.int_div_latency (130)"},
        {"  s2r_latency: 24", "  s2r_latency: 0", "", "pipes.s2r_latency", "expected an integer in [1, "},
        {"  l1_miss_line_cycles: 0", "  l1_miss_line_cycles: 65", "", "memory.l1_miss_line_cycles",
         "expected an integer in [0, 64], got 65"},
        {"  branch_resolve_cycles: 3", "  branch_resolve_cycles: 11", "", "pipes.branch_resolve_cycles",
         "at most pipes.branch.latency (10)"},
        {"    open_write_rows: 262144", "    open_write_rows: 0", "  dram:", "memory.dram.open_write_rows",
         "expected an integer in [1, 16777216], got 0"},
        {"  sector_bytes: 32", "  sector_bytes: 24", "", "memory.sector_bytes", "power of two"},
        {"    size_bytes: 28672", "    size_bytes: 28000", "  l1:", "memory.l1.size_bytes",
         "multiple of memory.l1.assoc (56) x memory.l1.line_bytes (128) = 7168"},
        {"    line_bytes: 128", "    line_bytes: 16", "  l1:", "memory.l1.line_bytes",
         "multiple of memory.sector_bytes (32)"},
        {"    line_bytes: 128", "    line_bytes: 96", "  l2:", "memory.l2.line_bytes", "power of two"},
        {"    hit_latency: 296", "    hit_latency: 30", "  l2:", "memory.l2.hit_latency",
         "more than memory.l1.hit_latency (40)"},
        {"  dram_latency: 636", "  dram_latency: 200", "", "memory.dram_latency", "more than memory.l2.hit_latency (296)"},
        {"  shared_banks: 32", "  shared_banks: 24", "", "memory.shared_banks", "power of two"},
        {"  dram_fetch_bytes: 64", "  dram_fetch_bytes: 48", "", "memory.dram_fetch_bytes",
         "power of two from memory.sector_bytes (32) to memory.l2.line_bytes (128), got 48"},
        {"  dram_fetch_bytes: 64", "  dram_fetch_bytes: 256", "", "memory.dram_fetch_bytes", "got 256"},
        {"clock_mhz: 2460", "clock_mhz: 0", "", "clock_mhz", "expected a number >= 1 and <= 100000, got 0"},
        {"clock_mhz: 2460", "clock_mhz: -2460", "", "clock_mhz", "got -2460"},
        {"  dram_bandwidth_gbs: 272", "  dram_bandwidth_gbs: 0", "", "memory.dram_bandwidth_gbs", ">= 0.01 and <= 1000000, got 0"},
        {"  dram_bandwidth_gbs: 272", "  dram_bandwidth_gbs: -272", "", "memory.dram_bandwidth_gbs", "got -272"},
        {"  kernel_launch_us: 2.6", "  kernel_launch_us: -1", "", "launch.kernel_launch_us", ">= 0 and <= 1000000, got -1"},
        {"max_warp_instructions:", "max_warp_instructions: 0", "", "max_warp_instructions", "in [1, 10000000000000], got 0"},
        {"name:", "name: \"\"", "", "name", "non-empty"},
    };
    for (const Case& k : cases) {
        INFO(k.replacement);
        Edited e = edit(base, k.needle, k.replacement, k.after);
        simt::Error err = load_error(e.text);
        CHECK(err.loc().file == "test.yaml");
        CHECK(err.loc().line == e.line);
        CHECK_THAT(err.message(), Contains(k.path + ": ") && Contains(k.says));
    }
}

TEST_CASE("config: L2 partitions, slice interleave and sector atomics are checked", "[config]") {
    const std::string base = shipped("h200.yaml");
    struct Case {
        std::string needle, replacement, path, says;
    };
    const std::string map132(132, '0');
    const std::vector<Case> cases = {
        {"    partitions: 2", "    partitions: 5", "memory.l2_slices.partitions", "divisor of memory.l2_slices.count (96)"},
        {"    interleave_bytes: 512", "    interleave_bytes: 384", "memory.l2_slices.interleave_bytes",
         "power of two of at least memory.l2.line_bytes (128), got 384"},
        {"    sm_map:", "    sm_map: \"7" + map132.substr(1) + "\"", "memory.l2_slices.sm_map",
         "below memory.l2_slices.partitions (2), got '7'"},
        {"    sm_map:", "    sm_map: \"01x1\"", "memory.l2_slices.sm_map", "one digit per SM"},
        {"    sector_cycles: 1.19", "    sector_cycles: -1", "memory.atomics.sector_cycles", "got -1"},
        {"    far_hit_cycles: 85", "    far_hit_cycles: x", "memory.l2_slices.far_hit_cycles", "'x'"},
        {"    hit_spread_cycles: 64", "    hit_spread_cycles: x", "memory.l2_slices.hit_spread_cycles", "'x'"},
        {"    hit_spread_cycles: 64", "    hit_spread_cycles: 600", "memory.l2_slices.hit_spread_cycles",
         "expected less than twice memory.l2.hit_latency (281) - memory.l1.hit_latency (33)"},
        {"    input_flits_per_cycle: 0.864", "    input_flits_per_cycle: -1", "memory.l2_slices.input_flits_per_cycle",
         "got -1"},
        {"    flit_bytes: 32", "    flit_bytes: 2", "memory.l2_slices.flit_bytes", "got 2"},
        {"    partner_offset: 8", "    partner_offset: 48", "memory.l2_slices.partner_offset",
         "fewer than the slices of one partition (48) with partitions > 1, got 48"},
        {"    header_bytes: 24", "    header_bytes: 1.5", "memory.atomics.header_bytes", "fraction 1.5"},
        {"    near_lookup: true", "    near_lookup: maybe", "memory.atomics.near_lookup", "'maybe'"},
        {"    float_add_cycles: 3.5", "    float_add_cycles: -1", "memory.atomics.float_add_cycles", "got -1"},
        {"  lsu_in_port: true", "  lsu_in_port: yes please", "memory.lsu_in_port", "expected true or false, got 'yes please'"},
        {"  l1_data_bank_conflicts: true", "  l1_data_bank_conflicts: 3", "memory.l1_data_bank_conflicts",
         "expected true or false, got '3'"},
        {"  l1_fill_cycles: 0.5", "  l1_fill_cycles: -1", "memory.l1_fill_cycles", "got -1"},
        {"    replacement: lru", "    replacement: fifo", "memory.l1.replacement", "'fifo'"},
        {"  l1_global_store_allocate: true", "  l1_global_store_allocate: 2", "memory.l1_global_store_allocate",
         "expected true or false, got '2'"},
        {"  imad_wide_passes: 2", "  imad_wide_passes: 0", "pipes.imad_wide_passes", "expected an integer in [1, 64], got 0"},
        {"  imad_hi_latency: 9", "  imad_hi_latency: x", "pipes.imad_hi_latency", "'x'"},
        {"    home_copy: true", "    home_copy: 2", "memory.l2_slices.home_copy", "expected true or false, got '2'"},
        {"    stores_at_home: true", "    stores_at_home: home", "memory.l2_slices.stores_at_home",
         "expected true or false, got 'home'"},
        {"    dirty_lines: 12", "    dirty_lines: -3", "memory.stores.dirty_lines", "got the negative number -3"},
        {"    write_banks: 64", "    write_banks: 5000", "memory.dram.write_banks", "[0, 4096], got 5000"},
        {"    write_activate_bytes: 177", "    write_activate_bytes: -5", "memory.dram.write_activate_bytes", "got -5"},
        {"    read_activate_bytes: 123", "    read_activate_bytes: fast", "memory.dram.read_activate_bytes", "'fast'"},
        {"    read_command_bytes: 0", "    read_command_bytes: -25", "memory.dram.read_command_bytes", "got -25"},
        {"  shared_conflict_latency: 2", "  shared_conflict_latency: 65", "memory.shared_conflict_latency",
         "[0, 64], got 65"},
        {"  lg_queue_depth: 128", "  lg_queue_depth: deep", "memory.lg_queue_depth", "'deep'"},
        {"    sectors_in_flight: 1024", "    sectors_in_flight: 2.5", "memory.stores.sectors_in_flight", "fraction 2.5"},
        {"    drain_acks: true", "    drain_acks: 1.5", "memory.stores.drain_acks", "expected true or false, got '1.5'"},
        {"    wait_in_queue: true", "    wait_in_queue: 2", "memory.stores.wait_in_queue", "expected true or false, got '2'"},
        {"    write_queue_cycles: 0", "    write_queue_cycles: 2.5", "memory.stores.write_queue_cycles", "fraction 2.5"},
        {"    write_back_entries: 0", "    write_back_entries: 70000", "memory.l2_slices.write_back_entries",
         "[0, 65536], got 70000"},
        {"    partial_miss_fetch: true", "    partial_miss_fetch: 1.5", "memory.stores.partial_miss_fetch",
         "expected true or false, got '1.5'"},
        {"  interleave_paths: true", "  interleave_paths: on", "scheduler.interleave_paths",
         "expected true or false, got 'on'"},
        {"  l1_local_store_allocate: true", "  l1_local_store_allocate: allocate", "memory.l1_local_store_allocate",
         "expected true or false, got 'allocate'"},
        {"  unit_arbitration: round_robin", "  unit_arbitration: fair", "sm.unit_arbitration",
         "expected one of fixed, round_robin, got 'fair'"},
        {"  lg_order: arrival", "  lg_order: fifo", "scheduler.lg_order", "expected one of policy, arrival, got 'fifo'"},
        {"  mio_order: arrival", "  mio_order: queue", "scheduler.mio_order", "expected one of policy, arrival, got 'queue'"},
        {"  block_order: launch", "  block_order: age", "scheduler.block_order",
         "expected one of launch, slot, got 'age'"},
        {"  slot_wait_in_queue: true", "  slot_wait_in_queue: wait", "memory.slot_wait_in_queue",
         "expected true or false, got 'wait'"},
        {"    floor_kb_1024: 8", "    floor_kb_1024: eight", "memory.carveout.floor_kb_1024", "'eight'"},
        {"    floor_cap_kb: 32", "    floor_cap_kb: -32", "memory.carveout.floor_cap_kb", "negative number -32"},
        {"    shared_headroom: 2", "    shared_headroom: 0", "memory.carveout.shared_headroom",
         "expected an integer in [1, 8], got 0"},
    };
    for (const Case& k : cases) {
        INFO(k.replacement);
        Edited e = edit(base, k.needle, k.replacement);
        simt::Error err = load_error(e.text);
        CHECK(err.loc().file == "test.yaml");
        CHECK(err.loc().line == e.line);
        CHECK_THAT(err.message(), Contains(k.path + ": ") && Contains(k.says));
    }
}

// ---- documents and files -------------------------------------------------------

TEST_CASE("config: YAML syntax errors give file:line:col", "[config]") {
    Edited e = edit(shipped("h200.yaml"), "  max_warps: 64", "  max_warps: [64");
    simt::Error err = load_error(e.text);
    CHECK(err.loc().file == "test.yaml");
    CHECK(err.loc().line >= e.line);
    CHECK(err.loc().line <= e.line + 1);
    CHECK_THAT(err.message(), Contains("invalid YAML"));

    simt::Error err2 = load_error("name: x\n  clock_mhz: 1\n");
    CHECK(err2.loc().line == 2);
    CHECK_THAT(err2.message(), Contains("invalid YAML"));
}

TEST_CASE("config: a document that is not one mapping is rejected", "[config]") {
    CHECK_THAT(load_error("").message(), Contains("empty"));
    CHECK_THAT(load_error("# only a comment\n").message(), Contains("empty"));
    simt::Error seq = load_error("- 1\n- 2\n");
    CHECK(seq.loc().line == 1);
    CHECK_THAT(seq.message(), Contains("expected a mapping at the top level") && Contains("got a sequence"));
    simt::Error two = load_error(shipped("h200.yaml") + "---\nname: x\n");
    CHECK_THAT(two.message(), Contains("one YAML document"));
    simt::Error key = load_error("[a, b]: 1\n");
    CHECK(key.loc().line == 1);
    CHECK_THAT(key.message(), Contains("expected a key name"));
}

TEST_CASE("config: a missing file names the file", "[config]") {
    const std::string path = config_path("does_not_exist.yaml");
    try {
        load_config(path);
        FAIL("expected a simt::Error");
    } catch (const simt::Error& e) {
        CHECK(e.loc().file == path);
        CHECK_THAT(e.message(), Contains("cannot open"));
    }
    CHECK_THROWS_AS(load_config(std::string(SIMT_SOURCE_DIR) + "/configs"), simt::Error);
}

// ---- overrides -----------------------------------------------------------------

TEST_CASE("config: --set overrides replace values before validation", "[config]") {
    GpuConfig c = load_config(config_path("h200.yaml"), {"sm.sub_partitions=2", "scheduler.policy=lrr"});
    CHECK(c.sm.sub_partitions == 2);
    CHECK(c.scheduler.policy == simt::SchedPolicy::Lrr);
    CHECK(c.sm.count == 132);

    GpuConfig d = load_config(config_path("h200.yaml"),
                              {"memory.l1.hit_latency = 40", "name='my H200'", "scheduler.policy=two_level",
                               "clock_mhz=1755.5", "memory.l1.hit_latency=35"});
    CHECK(d.memory.l1.hit_latency == 35);   // the last one wins
    CHECK(d.name == "my H200");
    CHECK(d.scheduler.policy == simt::SchedPolicy::TwoLevel);
    CHECK(d.clock_mhz == 1755.5);

    // lanes and interval spell the same thing: either replaces the other.
    GpuConfig e = load_config(config_path("rtx4060.yaml"), {"pipes.fp64.lanes=2"});
    CHECK(e.pipes.fp64.interval == 16);
    GpuConfig f = load_config(config_path("h200.yaml"), {"pipes.sfu.interval=16", "pipes.sfu.latency=20"});
    CHECK(f.pipes.sfu.interval == 16);
    CHECK(f.pipes.sfu.latency == 20);
}

TEST_CASE("config: bad overrides name the --set", "[config]") {
    const std::string base = shipped("h200.yaml");
    struct Case {
        std::string set, says;
    };
    const std::vector<Case> cases = {
        {"memory.l1.hit_latncy=3", "did you mean 'memory.l1.hit_latency'?"},
        {"sm.foo=1", "no key 'sm.foo'"},
        {"memory.l3.size_bytes=1", "did you mean 'memory.l1'?"},
        {"sm.count", "expected key.path=value"},
        {"=3", "missing the key path"},
        {"sm..count=3", "empty key name"},
        {"sm.count=", "missing the value"},
        {"sm.count=[1, 2]", "expected a single value, got a sequence"},
        {"sm.count={a: 1}", "expected a single value, got a mapping"},
        {"sm=4", "'sm' is a section"},
        {"sm.count.x=4", "'sm.count' is a value, not a section"},
        {"sm.count=0", "sm.count: expected an integer in [1, 1024], got 0"},
        {"sm.count=lots", "sm.count: expected an integer in [1, 1024], got 'lots'"},
        {"scheduler.policy=fifo", "scheduler.policy: expected one of lrr, gto, two_level, gty, gtb"},
        {"pipes.fma.lanes=3", "pipes.fma.lanes: expected a divisor of 32"},
        {"sm.count=\"5", "not valid YAML"},
    };
    for (const Case& k : cases) {
        INFO(k.set);
        simt::Error err = load_error(base, {k.set});
        CHECK(err.loc().file == "--set " + k.set);
        CHECK(err.loc().line == 0);
        CHECK_THAT(err.message(), Contains(k.says));
        CHECK_THAT(std::string(err.what()), Contains("--set " + k.set));
    }
}

TEST_CASE("config: a rule broken by an override names the --set", "[config]") {
    const std::string base = shipped("h200.yaml");
    simt::Error err = load_error(base, {"sm.sub_partitions=5"});
    CHECK(err.loc().line == line_of(base, "  max_warps: 64"));
    CHECK_THAT(err.message(), Contains("sm.max_warps") && Contains("from --set sm.sub_partitions=5"));

    simt::Error l1 = load_error(base, {"memory.l1.assoc=5"});
    CHECK(l1.loc().line == line_of(base, "    size_bytes: 28672"));
    CHECK_THAT(l1.message(), Contains("memory.l1.size_bytes") && Contains("(5, from --set memory.l1.assoc=5)"));

    simt::Error err2 = load_error(base, {"pipes.fp64.interval=64"});
    CHECK_THAT(err2.message(), Contains("pipes.fp64.latency") && Contains("from --set pipes.fp64.interval=64"));

    // Overrides only replace keys the file has.
    Edited e = edit(base, "  const_latency: 21", "");
    simt::Error err3 = load_error(e.text, {"memory.const_latency=21"});
    CHECK(err3.loc().file == "--set memory.const_latency=21");
    CHECK_THAT(err3.message(), Contains("no key 'memory.const_latency'"));
}

// ---- robustness ----------------------------------------------------------------

TEST_CASE("config: no bad value makes the loader fail other than with simt::Error", "[config]") {
    const std::string base = shipped("rtx4060.yaml");
    const std::vector<std::string> values = {"-1", "0", "1", "1.5", "x", "[]", "{}", "", "99999999999999999999",
                                             "1e400", "~", "\"\"", "!!binary AAAA", "&a 3", "*b"};
    std::istringstream in(base);
    std::string line;
    int checked = 0;
    while (std::getline(in, line)) {
        size_t colon = line.find(':');
        if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
        for (const std::string& v : values) {
            Edited e = edit(base, line, line.substr(0, colon + 1) + " " + v);
            INFO(line.substr(0, colon + 1) + " " + v);
            try {
                load_config_text(e.text, "fuzz.yaml");
            } catch (const simt::Error&) {
            } catch (...) {
                FAIL("an exception other than simt::Error escaped");
            }
            ++checked;
        }
    }
    CHECK(checked > 500);
}

TEST_CASE("config: datapath names map pipe classes to shared datapaths", "[config]") {
    GpuConfig c = load_config(config_path("h200.yaml"),
                              {"pipes.fma.datapaths=fma_heavy fma_lite", "pipes.imad.datapaths=fma_heavy"});
    const auto& n = c.pipes.datapath_names;
    REQUIRE(n.size() >= 2);
    CHECK(n[0] == "fma_heavy");
    CHECK(n[1] == "fma_lite");
    CHECK(c.pipes.fma.datapaths == 0b11);
    CHECK(c.pipes.imad.datapaths == 0b01);  // shares fma_heavy
    CHECK(c.pipes.iadd.datapaths == (c.pipes.alu.datapaths | c.pipes.imad.datapaths));  // alu + fma_heavy
    const std::string base = shipped("h200.yaml");
    simt::Error bad = load_error(base, {"pipes.imad.datapaths=fma-heavy"});
    CHECK_THAT(bad.message(), Contains("pipes.imad.datapaths") && Contains("datapath names"));
    simt::Error none = load_error(base, {"pipes.imad.datapaths=\"  \""});
    CHECK_THAT(none.message(), Contains("pipes.imad.datapaths"));
}

TEST_CASE("config: policy names round-trip", "[config]") {
    CHECK(std::string(simt::policy_name(simt::SchedPolicy::Lrr)) == "lrr");
    CHECK(std::string(simt::policy_name(simt::SchedPolicy::Gto)) == "gto");
    CHECK(std::string(simt::policy_name(simt::SchedPolicy::TwoLevel)) == "two_level");
    for (const char* p : {"lrr", "gto", "two_level", "gty", "gtb"}) {
        GpuConfig c = load_config(config_path("h200.yaml"), {std::string("scheduler.policy=") + p});
        CHECK(std::string(simt::policy_name(c.scheduler.policy)) == p);
    }
}
