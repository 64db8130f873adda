// test_limits.cpp: hostile input ends with a located simt::Error, quickly
// (issue 10). One test per limit of isa/limits.hpp and per reproducer: file
// reading (devices, directories, size caps), program and include sizes,
// buffer and memory sizes, random ranges, bounded suggestions, the call-depth
// limit, config value ranges and the YAML stream guard, the cycle budget and
// the resident-memory check of the timing model. The command-line side (exit
// status 1, checked writes, option values) is tested by the regression corpus
// in tests/regress/ (CMakeLists.txt).
#include "functional_util.hpp"
#include "isa/limits.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/reference.hpp"
#include "test_timing_util.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

using Catch::Matchers::Contains;
using namespace simt;
namespace fs = std::filesystem;

namespace {

const std::string kWarp = ".grid 1\n.block 32\n";

Error asm_error(const std::string& text) {
    try {
        isa::assemble_text(text, "t.isa");
    } catch (const Error& e) {
        return e;
    }
    FAIL("no error from:\n" << text.substr(0, 200));
    throw std::logic_error("unreachable");
}

Error run_error(const std::string& text) {
    const isa::Program p = test::assemble(text);
    func::GlobalMemory m(p, ".");
    try {
        func::run_functional(p, m);
    } catch (const Error& e) {
        return e;
    }
    FAIL("no error");
    throw std::logic_error("unreachable");
}

std::string shipped(const std::string& name) {
    return isa::read_text_file(std::string(SIMT_SOURCE_DIR) + "/configs/" + name, "config", 1u << 20);
}

Error config_error(const std::string& text, const std::vector<std::string>& sets = {}) {
    try {
        load_config_text(text, "c.yaml", sets);
    } catch (const Error& e) {
        return e;
    }
    FAIL("no error");
    throw std::logic_error("unreachable");
}

fs::path scratch(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("simt_limits_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

size_t plain_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

// ---- files -------------------------------------------------------------------

TEST_CASE("limits: devices, directories and oversized files are refused, never read forever", "[limits]") {
    CHECK_THAT(asm_error(kWarp + ".include \"/dev/zero\"\nexit\n").what(),
               Contains("t.isa:3:1: error: included file '/dev/zero': not a regular file"));
    try {
        isa::assemble_file("/dev/zero");
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) ==
              "/dev/zero: error: trace file: not a regular file (a device, pipe or socket cannot be read to its end)");
    }
    const fs::path dir = scratch("files");
    CHECK_THROWS_WITH(isa::assemble_file(dir.string()), Contains("it is a directory"));
    CHECK_THAT(asm_error(kWarp + ".include \"" + dir.string() + "\"\nexit\n").what(),
               Contains("t.isa:3:1: error: included file") && Contains("it is a directory"));
    CHECK_THROWS_WITH(load_config("/dev/zero"), Contains("/dev/zero: error: the config: not a regular file"));
    {
        std::ofstream big(dir / "big.yaml");
        big << std::string(isa::kMaxConfigFileBytes + 1, '#');
    }
    CHECK_THROWS_WITH(load_config((dir / "big.yaml").string()), Contains("more than the limit of 1 MiB"));
    {
        std::ofstream big(dir / "big.isa");
        big << std::string(isa::kMaxTraceFileBytes + 1, ' ');
    }
    CHECK_THROWS_WITH(isa::assemble_file((dir / "big.isa").string()), Contains("more than the limit of 16 MiB"));
}

TEST_CASE("limits: a buffer's CSV file must be a regular file", "[limits]") {
    const isa::Program p = test::assemble(kWarp + ".buffer b u32 4 file \"/dev/zero\"\nexit\n");
    CHECK_THROWS_WITH(func::GlobalMemory(p, "."),
                      Contains("t.isa:3:1: error: CSV file '/dev/zero': not a regular file"));
}

// ---- program size ------------------------------------------------------------

TEST_CASE("limits: an include bomb ends at the expanded-text limit", "[limits]") {
    const fs::path dir = scratch("bomb");
    for (int i = 1; i <= 8; ++i) {
        std::ofstream f(dir / ("f" + std::to_string(i) + ".isa"));
        for (int k = 0; k < 10; ++k) f << ".include \"f" << i + 1 << ".isa\"\n";
    }
    std::ofstream(dir / "f9.isa") << "nop\n";
    std::ofstream(dir / "main.isa") << kWarp << ".include \"f1.isa\"\nexit\n";
    CHECK_THROWS_WITH(isa::assemble_file((dir / "main.isa").string()),
                      Contains("exceeds the limit of 64 MiB (files included too often?)"));
}

TEST_CASE("limits: include cycles are found through any spelling, at the .include", "[limits]") {
    const fs::path dir = scratch("cycle");
    fs::create_directories(dir / "sub");
    std::ofstream(dir / "a.isa") << ".include \"sub/../b.isa\"\n";
    std::ofstream(dir / "b.isa") << "nop\n.include \"./sub/../a.isa\"\n";
    try {
        isa::assemble_file((dir / "a.isa").string());
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.loc().line == 2);
        CHECK(e.loc().col == 1);
        CHECK_THAT(e.what(), Contains("include cycle") && Contains("(it is the main file)"));
    }
}

TEST_CASE("limits: a program holds at most kMaxInstructions instructions", "[limits]") {
    std::string text = kWarp;
    text.reserve(text.size() + 4 * (isa::kMaxInstructions + 1));
    for (uint32_t i = 0; i <= isa::kMaxInstructions; ++i) text += "nop\n";
    const Error e = asm_error(text);
    CHECK(e.loc().line == 3 + isa::kMaxInstructions);
    CHECK_THAT(e.what(), Contains("more than 1048576 instructions"));
}

TEST_CASE("limits: did-you-mean stays fast and exact for long names", "[limits]") {
    std::mt19937 rng(7);
    for (int n = 0; n < 2000; ++n) {
        std::string a, b;
        for (size_t i = rng() % 9; i > 0; --i) a += char('a' + rng() % 3);
        for (size_t i = rng() % 9; i > 0; --i) b += char('a' + rng() % 3);
        const size_t d = plain_distance(a, b);
        for (size_t limit : {0, 1, 2, 3, 8}) {
            INFO(a << " / " << b << " limit " << limit);
            CHECK(isa::bounded_edit_distance(a, b, limit) == std::min(d, limit + 1));
        }
    }
    // An undefined label of 10 MB (this took forever with a quadratic distance).
    const std::string label(10'000'000, 'x');
    const Error e = asm_error(kWarp + "xy: nop\nbra " + label + "\n");
    CHECK(e.loc().line == 4);
    CHECK_THAT(e.what(), Contains("undefined label 'xxxx") && Contains("(10000000 characters)"));
    CHECK(std::string(e.what()).size() < 200);
    CHECK_THAT(asm_error(kWarp + "loop1: nop\nbra loop2\n").what(), Contains("did you mean 'loop1'?"));
}

// ---- memory a trace declares --------------------------------------------------

TEST_CASE("limits: buffers, .shared and .local have documented sizes", "[limits]") {
    CHECK_THAT(asm_error(kWarp + ".buffer b f64 65536x65536 zero\nexit\n").what(),
               Contains("t.isa:3:9: error: buffer 'b' of 4294967296 elements x 8 bytes is larger than the limit of "
                        "1024 MiB per buffer"));
    CHECK_THAT(asm_error(kWarp + ".buffer b f64 4294967296 zero\nexit\n").what(),
               Contains("buffer 'b' of 4294967296 elements"));
    CHECK_THAT(asm_error(kWarp + ".buffer b u32 99999999999999999999999 zero\nexit\n").what(),
               Contains("expected an element count"));
    CHECK_THAT(asm_error(kWarp + ".buffer a u32 268435456 zero\n.buffer b u32 268435456 zero\n"
                                 ".buffer c u32 64 zero\nexit\n").what(),
               Contains("t.isa:5:9: error: buffer 'c' brings the buffers to") && Contains("limit of 2048 MiB in all"));
    CHECK_THAT(asm_error(kWarp + ".shared 1073741824\nexit\n").what(),
               Contains("t.isa:3:9: error: shared memory bytes per block must be between 0 and 1048576"));
    CHECK_THAT(asm_error(kWarp + ".local 524292\nexit\n").what(), Contains("between 0 and 524288"));
    CHECK_THAT(asm_error(".grid 1\n.block 1024\n.local 131072\nexit\n").what(),
               Contains("t.isa:3:1: error: .local 131072 x 1024 threads = 134217728 bytes per block, more than the "
                        "limit of 64 MiB"));
}

TEST_CASE("limits: random ranges must fit the element type (no float-cast or signed overflow)", "[limits]") {
    CHECK_THAT(asm_error(kWarp + ".buffer b u32 4 random 1 -1e300 1e300\nexit\n").what(),
               Contains("t.isa:3:26: error: random range [-1e+300, 1e+300) out of range; expected MIN and MAX "
                        "within +-2^32 for an integer buffer"));
    CHECK_THAT(asm_error(kWarp + ".buffer b i32 4 random 1 -9e18 9e18\nexit\n").what(), Contains("+-2^32"));
    CHECK_THAT(asm_error(kWarp + ".buffer b f32 4 random 1 0 1e39\nexit\n").what(), Contains("f32 range"));
    CHECK_THAT(asm_error(kWarp + ".buffer b f64 4 random 1 -1.7e308 1.7e308\nexit\n").what(),
               Contains("MAX - MIN"));
    // The widest integer ranges still work, lane by lane within [MIN, MAX).
    const isa::Program p = test::assemble(kWarp + ".buffer b i32 64 random 3 -4294967296.0 4294967296.0\n"
                                                  ".buffer c u32 64 random 3 -5 5\nexit\n");
    func::GlobalMemory m(p, ".");
    bool any_nonzero = false;
    for (uint32_t w : test::words(p, m, "b")) any_nonzero |= w != 0;
    CHECK(any_nonzero);
    for (uint32_t w : test::words(p, m, "c")) CHECK((int32_t(w) >= -5 && int32_t(w) < 5));
}

// ---- execution ------------------------------------------------------------------

TEST_CASE("limits: infinite recursion ends at the call-depth limit, located", "[limits]") {
    const std::string text = kWarp + "    call f\n    exit\nf:  call f\n    ret\n";
    const Error e = run_error(text);
    CHECK(e.loc().line == 5);
    CHECK_THAT(e.what(), Contains("call depth limit") && Contains("1024 entries") && Contains("infinite recursion?"));
    const isa::Program p = test::assemble(text);
    func::GlobalMemory m(p, ".");
    CHECK_THROWS_WITH(func::run_reference(p, m), Contains("t.isa:5:5: error: call depth limit: 1024 nested calls"));
    // Deep but finite recursion within the limit runs.
    const std::string ok = kWarp + "    mov r1, 500\n    call f\n    exit\n"
                                   "f:  isetp.eq p0, r1, 0\n    @p0 ret\n    isub r1, r1, 1\n    call f\n    ret\n";
    const isa::Program q = test::assemble(ok);
    func::GlobalMemory mq(q, ".");
    CHECK_NOTHROW(func::run_functional(q, mq));
}

TEST_CASE("limits: a launch of more warps than the instruction budget is refused at once", "[limits]") {
    const isa::Program p = test::assemble(".grid 2147483647 65535 65535\n.block 1024\nexit\n");
    func::GlobalMemory m(p, ".");
    CHECK_THROWS_WITH(func::run_functional(p, m),
                      Contains("t.isa:1:1: error: the launch has 9223090559730712575 blocks of 32 warps"));
    func::ExecLimits limits;
    limits.max_warp_instructions = 100;
    const isa::Program q = test::assemble(".grid 101\n.block 32\nexit\n");
    func::GlobalMemory mq(q, ".");
    CHECK_THROWS_WITH(func::run_functional(q, mq, limits), Contains("instruction budget of 100 warp instructions"));
    const isa::Program ok = test::assemble(".grid 100\n.block 32\nexit\n");
    func::GlobalMemory mok(ok, ".");
    CHECK(func::run_functional(ok, mok, limits).warp_instructions == 100);
}

TEST_CASE("limits: the cycle budget ends a run whose time runs away", "[limits]") {
    GpuConfig c = timing::test::small_config();
    c.max_cycles = 1000;
    const std::string text = kWarp + "loop:\n    fadd r1, r1, 1.0\n    bra loop\n";
    for (bool skip : {true, false}) {
        timing::RunOptions o;
        o.event_skipping = skip;
        CHECK_THROWS_WITH(timing::test::run(text, c, o),
                          Contains("test.isa:1:1: error: cycle budget of 1000 cycles exhausted with 0 of 1 blocks "
                                   "done (max_cycles in the config, or --max-cycles)"));
    }
    c.max_cycles = 100000;
    CHECK_NOTHROW(timing::test::run(kWarp + "    fadd r1, r1, 1.0\n    exit\n", c));
}

TEST_CASE("limits: the memory of all resident blocks is bounded", "[limits]") {
    GpuConfig c = timing::test::small_config();
    c.sm.count = 64;
    const isa::Program p = test::assemble(".grid 1000\n.block 1024\n.local 65536\nexit\n");
    func::GlobalMemory m(p, ".");
    CHECK_THROWS_WITH(timing::Simulator(c, p, m),
                      Contains("resident blocks") && Contains("more than the limit of 2048 MiB"));
}

// ---- config ------------------------------------------------------------------------

TEST_CASE("limits: a YAML stream that makes no progress is a syntax error, not a loop", "[limits][config]") {
    for (const char* text : {",", ",'", "&e,d"}) {
        INFO(text);
        const Error e = config_error(text);
        CHECK(e.loc().line == 1);
        CHECK_THAT(e.what(), Contains("invalid YAML: unexpected ','"));
    }
    CHECK_THAT(config_error(shipped("h200.yaml") + "---\nname: x\n").what(), Contains("one YAML document"));
}

TEST_CASE("limits: every numeric config value has an upper bound", "[limits][config]") {
    const std::string base = shipped("h200.yaml");
    std::istringstream in(base);
    std::string line, section;
    int checked = 0;
    while (std::getline(in, line)) {
        const size_t colon = line.find(':');
        const size_t indent = line.find_first_not_of(' ');
        if (indent == std::string::npos || line[indent] == '#' || colon == std::string::npos) continue;
        const std::string key = line.substr(indent, colon - indent);
        std::string value = line.substr(colon + 1);
        value = value.substr(0, value.find('#'));
        value.erase(0, value.find_first_not_of(' '));
        value.erase(value.find_last_not_of(' ') + 1);
        if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0]))) continue;
        const std::string edited = base.substr(0, base.find(line)) + line.substr(0, colon + 1) + " 1e15" +
                                   base.substr(base.find(line) + line.size());
        INFO(line);
        const Error e = config_error(edited);
        CHECK_THAT(e.what(), Contains(key + ": expected"));
        ++checked;
    }
    CHECK(checked >= 50);
    CHECK_THAT(config_error(base, {"memory.dram_bandwidth_gbs=1e-300"}).what(),
               Contains("--set memory.dram_bandwidth_gbs=1e-300: error: memory.dram_bandwidth_gbs: expected a number "
                        ">= 0.01 and <= 1000000"));
    CHECK_THAT(config_error(base, {"pipes.sfu.interval=32768"}).what(), Contains("[1, 1024]"));
    CHECK_THAT(config_error(base, {"memory.l1.size_bytes=4294967168"}).what(), Contains("[1, 1073741824]"));
    // (the carve-out's unified array grows with the L1, so that its own check passes)
    CHECK_THAT(config_error(base, {"memory.l1.size_bytes=917504", "memory.carveout.unified_bytes=1150976",
                                   "sm.count=1024"})
                   .what(),
               Contains("memory.l1.size_bytes: all L1s together") && Contains("exceed the limit of 16777216"));
}
