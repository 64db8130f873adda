// test_sweep.cpp: `simt-sim sweep` (sim/sweep): the spec, the grid, the rows, resuming.
//
// Covers: a spec's axes in grid order and the point index to values mapping;
// a sweep with failing points (each a row with its error, the others the same
// values as a direct Simulator run); jobs 1 and 2 write the same bytes;
// resuming an interrupted sweep (a prefix and a partial line) gives the same
// bytes as an uninterrupted one; each kind of bad spec and of foreign output
// file is a located error. (The MPI run against the local one is a ctest:
// sweep.mpi_matches_local.)
#include "sim/sweep/output.hpp"
#include "sim/sweep/point.hpp"
#include "sim/sweep/spec.hpp"
#include "sim/sweep/sweep.hpp"

#include "isa/assembler.hpp"
#include "isa/diagnostics.hpp"
#include "sim/config/config.hpp"
#include "sim/report/summary.hpp"
#include "sim/timing/gpu.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using simt::sweep::load_spec;
using simt::sweep::load_spec_text;

namespace {

const std::string kDir = std::string(SIMT_SOURCE_DIR) + "/tests/sweep";

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

// The unquoted fields of a row written by the sweep.
std::vector<std::string> fields(const std::string& row) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (size_t i = 0; i < row.size(); ++i) {
        const char c = row[i];
        if (c == '"' && quoted && i + 1 < row.size() && row[i + 1] == '"') out.back() += '"', ++i;
        else if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) out.emplace_back();
        else out.back() += c;
    }
    return out;
}

std::string column(const std::vector<std::string>& header, const std::string& row, const std::string& name) {
    const auto f = fields(row);
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return f.at(i);
    FAIL("no column " << name);
    return "";
}

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::path(SIMT_BINARY_DIR) / "test_sweep";
    fs::create_directories(dir);
    fs::remove(dir / name);
    return dir / name;
}

simt::sweep::Summary sweep(const std::string& spec, const fs::path& out, unsigned jobs) {
    simt::sweep::Options o;
    o.spec_path = kDir + "/" + spec;
    o.output_path = out.string();
    o.jobs = jobs;
    return simt::sweep::run_sweep(o);
}

std::string spec_error(const std::string& text) {
    try {
        load_spec_text(text, "spec.yaml", kDir);
    } catch (const simt::Error& e) {
        return e.what();
    }
    return "(no error)";
}

const std::string kFiles = "configs: ../../configs/rtx4060.yaml\ntraces: ../../traces/loop_varying.isa\n";

}  // namespace

TEST_CASE("sweep 1: a spec's axes come in grid order, the last one fastest", "[sweep]") {
    const auto spec = load_spec(kDir + "/small.yaml");
    REQUIRE(spec.axes.size() == 4);
    CHECK(spec.axes[0].column() == "sweep.config");
    CHECK(spec.axes[1].column() == "sweep.trace");
    CHECK(spec.axes[2].column() == "set.sm.sub_partitions");
    CHECK(spec.axes[3].column() == "sweep.policy");
    CHECK(spec.points() == 16);
    CHECK(simt::sweep::point_digits(spec, 0) == std::vector<size_t>{0, 0, 0, 0});
    CHECK(simt::sweep::point_digits(spec, 1) == std::vector<size_t>{0, 0, 0, 1});
    CHECK(simt::sweep::point_digits(spec, 6) == std::vector<size_t>{0, 1, 1, 0});
    CHECK(simt::sweep::point_digits(spec, 15) == std::vector<size_t>{1, 1, 1, 1});
    CHECK(simt::sweep::row_prefix(spec, 6) == "6,../../configs/rtx4060.yaml,../../traces/loop_varying.isa,4,lrr,");
    CHECK(spec.resolve("../../traces/x.isa") == (fs::path(SIMT_SOURCE_DIR) / "traces/x.isa").lexically_normal().string());
}

TEST_CASE("sweep 2: a failing point is a row with its error, the others hold a direct run's values", "[sweep]") {
    const fs::path out = scratch("failing.csv");
    const auto sum = sweep("failing.yaml", out, 2);
    CHECK(sum.points == 4);
    CHECK(sum.ran == 4);
    CHECK(sum.failed == 3);
    const auto rows = lines(read(out));
    REQUIRE(rows.size() == 5);
    const auto header = fields(rows[0]);
    CHECK(column(header, rows[1], "error") == "--uniform sx=1: error: the trace declares no uniform 'sx'");
    CHECK(column(header, rows[2], "error") ==
          "--set sm.sub_partitions=0: error: sm.sub_partitions: expected an integer in [1, 32], got 0");
    CHECK(column(header, rows[2], "cycles") == "");
    CHECK(column(header, rows[4], "error") == column(header, rows[2], "error"));
    // Point 2 ran: the same values as the Simulator run directly (as `simt-sim ... --json`).
    CHECK(column(header, rows[3], "error") == "");
    CHECK(column(header, rows[3], "sweep.trace") == "../../viz/testdata/stripes.isa");
    simt::GpuConfig config = simt::load_config(kDir + "/../../configs/rtx4060.yaml", {"sm.sub_partitions=4"});
    config.max_cycles = 20000000;
    simt::isa::Program program = simt::isa::assemble_file(kDir + "/../../viz/testdata/stripes.isa");
    simt::isa::override_uniform(program, "sx=1");
    simt::func::GlobalMemory memory(program, kDir + "/../../viz/testdata");
    simt::timing::Simulator sim(config, program, memory, {});
    const auto stats = sim.run();
    CHECK(column(header, rows[3], "cycles") == std::to_string(stats.cycles));
    CHECK(column(header, rows[3], "cycles") == "1127");  // the model of 2026-12-02
    CHECK(column(header, rows[3], "warp_instructions") == "5056");
    CHECK(column(header, rows[3], "launch.mode") == "fragment");
    const auto direct = simt::report::summary_values(
        simt::report::RunInfo{program, config, "../../viz/testdata/stripes.isa", "../../configs/rtx4060.yaml"}, stats);
    const auto f = fields(rows[3]);
    CHECK(std::vector<std::string>(f.begin() + 7, f.end()) == direct);
}

TEST_CASE("sweep 3: jobs 1 and 2 write the same bytes, in grid order", "[sweep]") {
    const fs::path a = scratch("jobs1.csv"), b = scratch("jobs2.csv");
    sweep("small.yaml", a, 1);
    sweep("small.yaml", b, 2);
    const std::string text = read(a);
    CHECK(text == read(b));
    const auto rows = lines(text);
    REQUIRE(rows.size() == 17);
    for (size_t i = 1; i < rows.size(); ++i) CHECK(fields(rows[i])[0] == std::to_string(i - 1));
    const auto header = fields(rows[0]);
    // gto against lrr on the same machine and trace: both ran, every row complete.
    CHECK(column(header, rows[1], "sweep.policy") == "lrr");
    CHECK(column(header, rows[2], "sweep.policy") == "gto");
    CHECK(column(header, rows[1], "cycles") != "");
    CHECK(column(header, rows[16], "config") == "NVIDIA H200 SXM");
    CHECK(column(header, rows[16], "sub_partitions") == "4");
}

TEST_CASE("sweep 4: an interrupted sweep resumes to the same bytes", "[sweep]") {
    const fs::path full = scratch("full.csv"), cut = scratch("cut.csv");
    sweep("small.yaml", full, 2);
    const std::string text = read(full);
    // The header, five rows, and half of the sixth (a write cut short).
    size_t end = 0;
    for (int i = 0; i < 6; ++i) end = text.find('\n', end) + 1;
    const size_t partial = end + (text.find('\n', end) - end) / 2;
    std::ofstream(cut, std::ios::binary) << text.substr(0, partial);
    const auto sum = sweep("small.yaml", cut, 2);
    CHECK(sum.resumed == 5);
    CHECK(sum.ran == 11);
    CHECK(read(cut) == text);
    // Complete: nothing left to run, nothing changed.
    const auto again = sweep("small.yaml", cut, 2);
    CHECK(again.resumed == 16);
    CHECK(again.ran == 0);
    CHECK(read(cut) == text);
}

TEST_CASE("sweep 5: an output another sweep wrote is refused at its line", "[sweep]") {
    const fs::path full = scratch("mine.csv"), other = scratch("other.csv");
    sweep("small.yaml", full, 2);
    const auto rows = lines(read(full));
    // Another spec's header.
    std::ofstream(other, std::ios::binary) << "point,sweep.config,error\n";
    CHECK_THROWS_WITH(sweep("small.yaml", other, 1),
                      other.string() + ":1: error: the header is not this sweep's (another spec, or another "
                                       "simt-sim version, wrote the file): delete it or choose another output");
    // Rows out of order: point 1 where point 0 belongs.
    std::ofstream(other, std::ios::binary) << rows[0] << "\n" << rows[2] << "\n";
    CHECK_THROWS_WITH(sweep("small.yaml", other, 1),
                      Catch::Matchers::StartsWith(other.string() +
                                                  ":2: error: expected point 0 (0,../../configs/rtx4060.yaml,"));
    // A row cut to fewer fields but ending in a line break.
    std::ofstream(other, std::ios::binary) << rows[0] << "\n" << rows[1].substr(0, 120) << "\n";
    CHECK_THROWS_WITH(sweep("small.yaml", other, 1), Catch::Matchers::Contains(":2: error: ") &&
                                                         Catch::Matchers::Contains(" fields, the header has "));
}

TEST_CASE("sweep 6: each kind of bad spec is an error at its line and column", "[sweep]") {
    CHECK(spec_error(kFiles + "polcy: lrr\n") ==
          "spec.yaml:3:1: error: unknown key 'polcy' (did you mean 'policy'?); a sweep spec has the keys configs, "
          "traces, set, uniform, policy, max_instructions, max_cycles, output");
    CHECK(spec_error("configs: ../../configs/rtx4060.yaml\n") ==
          "spec.yaml:1:1: error: missing key 'traces' (a file or a list of files)");
    CHECK(spec_error(kFiles + "policy: []\n") == "spec.yaml:3:9: error: policy: the list is empty; give at least one value");
    CHECK(spec_error(kFiles + "set:\n  sm.count: [1, {a: 2}]\n") ==
          "spec.yaml:4:17: error: set.sm.count: expected a value, found a mapping");
    CHECK(spec_error(kFiles + "uniform:\n  sx: [1, 2, 1]\n") == "spec.yaml:4:14: error: uniform.sx: '1' is listed twice");
    CHECK(spec_error(kFiles + "set: [sm.count]\n") ==
          "spec.yaml:3:6: error: set: expected a mapping of config key paths to values, found a sequence");
    CHECK(spec_error(kFiles + "set:\n  sm.count: 1\n  sm.count: 2\n") == "spec.yaml:5:3: error: set.sm.count given twice");
    CHECK(spec_error(kFiles + "set:\n  sm.count=2: 1\n") ==
          "spec.yaml:4:3: error: set: 'sm.count=2' is not a name (no '=', spaces, commas or quotes)");
    CHECK(spec_error(kFiles + "max_cycles: [100, 0]\n") ==
          "spec.yaml:3:19: error: max_cycles: expected a whole number from 1 to 10000000000000, found '0'");
    CHECK(spec_error(kFiles + "max_instructions: lots\n") ==
          "spec.yaml:3:19: error: max_instructions: expected a whole number from 1 to 10000000000000, found 'lots'");
    CHECK(spec_error(kFiles + "policy: lrr\nset: {scheduler.policy: gto}\n") ==
          "spec.yaml:3:9: error: policy: the policy is already swept as set.scheduler.policy; give it once");
    CHECK(spec_error("configs: ../../configs/rtx4060.yaml\ntraces: [../../traces/loop_varying.isa, nope.isa]\n") ==
          "spec.yaml:2:41: error: cannot open trace file '" + (fs::path(kDir) / "nope.isa").string() +
              "': No such file or directory");
    CHECK(spec_error(kFiles + "configs: ../../configs/h200.yaml\n") == "spec.yaml:3:1: error: key 'configs' given twice");
    CHECK(spec_error(kFiles + "set: {a: [1\n") == "spec.yaml:4:1: error: invalid YAML: end of sequence flow not found");
    CHECK(spec_error("") == "spec.yaml: error: the sweep spec is empty; expected at least configs: and traces:");
    CHECK(spec_error("- a\n- b\n") ==
          "spec.yaml:1:1: error: expected a mapping with the keys configs, traces, set, uniform, policy, "
          "max_instructions, max_cycles, output");
    CHECK(spec_error(kFiles + "---\n" + kFiles) == "spec.yaml: error: expected one YAML document, found 2");
    std::string big = kFiles + "uniform:\n";
    for (const char* u : {"a", "b", "c", "d", "e", "f", "g"}) big += std::string("  ") + u + ": [1, 2, 3, 4, 5, 6, 7, 8]\n";
    CHECK(spec_error(big) == "spec.yaml:1:1: error: the grid has 1000001 points, more than the limit of 1000000 (split the sweep)");
    CHECK(spec_error(kFiles + "output: {a: 1}\n") == "spec.yaml:3:9: error: output: expected a file name");
}

TEST_CASE("sweep 7: the output is -o, else the spec's output: (next to the spec), else SPEC.csv", "[sweep]") {
    const auto small = load_spec(kDir + "/small.yaml");
    CHECK(simt::sweep::output_path(small, "x.csv") == "x.csv");
    CHECK(simt::sweep::output_path(small, "") == kDir + "/small.csv");
    const auto named = load_spec(std::string(SIMT_SOURCE_DIR) + "/sweeps/sub_partitions.yaml");
    CHECK(simt::sweep::output_path(named, "") ==
          (fs::path(SIMT_SOURCE_DIR) / "sweeps/sub_partitions.csv").lexically_normal().string());
    CHECK(named.points() == 32);
}
