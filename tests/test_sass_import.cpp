// test_sass_import.cpp: compiled CUDA kernels (tests/sass/*.cu, their committed
// cuobjdump dumps for sm_80, sm_89, sm_90) imported with .sass, run by both
// functional interpreters, their buffers compared with a host reference; and the
// import's errors, located.
#include "functional_util.hpp"
#include "isa/sass/elf_info.hpp"
#include "isa/sass/lower.hpp"
#include "isa/sass/reader.hpp"
#include "sim/functional/reference.hpp"
#include "sim/functional/semantics.hpp"
#include "sim/timing/decode.hpp"
#include "test_timing_util.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

using simt::test::words;
using simt::test::floats;

const char* const kArchs[] = {"sm_80", "sm_89", "sm_90"};

// A launch file (its text) for tests/sass/KERNEL.ARCH.sass, assembled as if it lay in tests/sass/.
simt::isa::Program launch(const std::string& kernel, const std::string& arch, const std::string& body,
                          const std::string& file = "") {
    const std::string text = ".sass \"" + (file.empty() ? kernel + "." + arch + ".sass" : file) + "\" " + kernel + "\n" + body;
    return simt::isa::assemble_text(text, "tests/sass/" + kernel + ".launch.isa", "tests/sass");
}

// A timed run of the program on `c` (its data from tests/data/), every issue recorded.
struct TimedRun {
    simt::timing::Stats stats;
    std::vector<simt::timing::IssueEvent> issues;
};
TimedRun timed_run(const simt::isa::Program& p, const simt::GpuConfig& c) {
    simt::timing::test::Recorder rec;
    simt::func::GlobalMemory m(p, "tests/data");
    simt::timing::RunOptions ro;
    ro.observer = &rec;
    simt::timing::Simulator sim(c, p, m, ro);
    TimedRun r{sim.run(), {}};
    r.issues = rec.issues;
    return r;
}

// Runs the program through the SIMT executor and the per-thread reference; both memories.
struct Both {
    simt::isa::Program p;
    simt::func::GlobalMemory simt_mem, ref_mem;
    explicit Both(simt::isa::Program prog) : p(std::move(prog)), simt_mem(p, "tests/sass"), ref_mem(p, "tests/sass") {
        simt::func::run_functional(p, simt_mem);
        simt::func::run_reference(p, ref_mem);
    }
};

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const simt::Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("sass: saxpy imports and computes y = a x + y on sm_80, sm_89, sm_90", "[sass]") {
    for (const char* arch : kArchs) {
        INFO(arch);
        Both b(launch("saxpy_kernel", arch, ".grid 4\n.block 256\n.buffer x f32 1000 random 1\n.buffer y f32 1000 iota\n.param x y 2.0f 1000\n",
                      std::string("saxpy.") + arch + ".sass"));
        const std::vector<float> x = floats(b.p, b.simt_mem, "x"), y = floats(b.p, b.simt_mem, "y");
        for (size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == std::fmaf(x[i], 2.0f, float(i)));
        CHECK(words(b.p, b.ref_mem, "y") == words(b.p, b.simt_mem, "y"));
    }
}

TEST_CASE("sass: ifelse (divergent if/else) matches the host on every architecture", "[sass]") {
    for (const char* arch : kArchs) {
        INFO(arch);
        Both b(launch("ifelse", arch, ".grid 4\n.block 256\n.buffer in f32 1000 random 3 -4 4\n.buffer out f32 1000 zero\n.param in out 1000\n"));
        const std::vector<float> in = floats(b.p, b.simt_mem, "in"), out = floats(b.p, b.simt_mem, "out");
        for (size_t i = 0; i < in.size(); ++i) {
            const float r = (i & 1) ? std::fmaf(in[i], 3.0f, 1.0f) : std::fmaf(in[i], 0.5f, -2.0f);
            REQUIRE(out[i] == r + float(i));
        }
        CHECK(words(b.p, b.ref_mem, "out") == words(b.p, b.simt_mem, "out"));
    }
}

TEST_CASE("sass: loop_trip (per-lane trip counts, a break) matches the host", "[sass]") {
    for (const char* arch : kArchs) {
        INFO(arch);
        Both b(launch("loop_trip", arch, ".grid 4\n.block 256\n.buffer trips i32 1000 random 5 0 40\n.buffer out u32 1000 zero\n.param trips out 1000\n"));
        const std::vector<uint32_t> trips = words(b.p, b.simt_mem, "trips"), out = words(b.p, b.simt_mem, "out");
        for (size_t i = 0; i < out.size(); ++i) {
            uint32_t acc = uint32_t(i);
            for (int k = 0; k < int(trips[i]); ++k) {
                acc = acc * 1664525u + 1013904223u;
                if (acc == 0xdeadbeefu) break;
            }
            REQUIRE(out[i] == acc);
        }
        CHECK(words(b.p, b.ref_mem, "out") == out);
    }
}

TEST_CASE("sass: transpose_shared (shared memory, bar) transposes 64x96", "[sass]") {
    for (const char* arch : kArchs) {
        INFO(arch);
        Both b(launch("transpose_shared", arch,
                      ".grid 2 3\n.block 32 8\n.shared 4224\n.buffer in f32 6144 random 7\n.buffer out f32 6144 zero\n.param in out 64 96\n"));
        const std::vector<float> in = floats(b.p, b.simt_mem, "in"), out = floats(b.p, b.simt_mem, "out");
        for (uint32_t y = 0; y < 96; ++y)
            for (uint32_t x = 0; x < 64; ++x) REQUIRE(out[x * 96 + y] == in[y * 64 + x]);
        CHECK(words(b.p, b.ref_mem, "out") == words(b.p, b.simt_mem, "out"));
    }
}

TEST_CASE("sass: recurse (CALL/RET, a stack in local memory) computes fib", "[sass]") {
    auto fib = [](auto& self, uint32_t k) -> uint32_t { return k < 2 ? k : self(self, k - 1) + self(self, k - 2); };
    for (const char* arch : kArchs) {
        INFO(arch);
        Both b(launch("recurse", arch, ".grid 2\n.block 128\n.buffer in u32 200 random 9 0 1000\n.buffer out u32 200 zero\n.param in out 200\n"));
        const std::vector<uint32_t> in = words(b.p, b.simt_mem, "in"), out = words(b.p, b.simt_mem, "out");
        for (size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == fib(fib, in[i] & 7u));
        CHECK(words(b.p, b.ref_mem, "out") == out);
    }
}

TEST_CASE("sass: the parameters sit where the .elf says (0x160 on sm_80/89, 0x210 on sm_90)", "[sass]") {
    const simt::isa::Program p80 = launch("ifelse", "sm_80", ".grid 1\n.block 32\n.buffer in f32 32 zero\n.buffer out f32 32 zero\n.param in out 32\n");
    const simt::isa::Program p90 = launch("ifelse", "sm_90", ".grid 1\n.block 32\n.buffer in f32 32 zero\n.buffer out f32 32 zero\n.param in out 32\n");
    auto uniform = [](const simt::isa::Program& p, const std::string& n) -> int64_t {
        for (const auto& u : p.uniforms)
            if (u.name == n) return u.bits;
        return -1;
    };
    CHECK(uniform(p80, "sass_c160") == 0x1000'0000);   // in: the first buffer's flat address
    CHECK(uniform(p80, "sass_c168") == 0x1000'0100);   // out: 256-byte aligned after it
    CHECK(uniform(p80, "sass_c170") == 32);
    CHECK(uniform(p90, "sass_c210") == 0x1000'0000);
    CHECK(uniform(p90, "sass_c220") == 32);
}

TEST_CASE("sass: instructions keep their SASS line, text and control bits", "[sass]") {
    const simt::isa::Program p = launch("saxpy_kernel", "sm_90", ".grid 1\n.block 32\n.buffer x f32 32 zero\n.buffer y f32 32 zero\n.param x y 1.0 32\n",
                                        "saxpy.sm_90.sass");
    // /*0010*/ S2R R0, SR_TID.X ; /* 0x000e2e0000002100 */: wait 0, write barrier 0, stall 7, yield 1
    REQUIRE(p.code.size() > 2);
    CHECK(p.code[1].loc.str() == "tests/sass/saxpy.sm_90.sass:9:36");
    CHECK(p.text[1] == "S2R R0, SR_TID.X   // tests/sass/saxpy.cu:3");   // the CUDA line from saxpy.sm_90.nvdisasm
    const simt::isa::sass::Control c = simt::isa::sass::Control::unpack(p.code[1].sass_ctrl);
    CHECK(int(c.stall) == 7);
    CHECK(c.yield);
    CHECK(int(c.write_bar) == 0);
    CHECK(int(c.read_bar) == 7);
    CHECK(int(c.wait) == 0);
}

TEST_CASE("sass: reduce_shfl (shuffles, VOTEU/UFLO/REDUX warp-aggregated atomic) sums its input", "[sass]") {
    for (const char* arch : kArchs) {
        INFO(arch);
        Both b(launch("reduce_shfl", arch, ".grid 4\n.block 256\n.buffer in i32 1000 random 11 -50 50\n.buffer out i32 1 const 7\n.param in out 1000\n"));
        const std::vector<uint32_t> in = words(b.p, b.simt_mem, "in");
        uint32_t sum = 7;
        for (uint32_t v : in) sum += v;
        CHECK(words(b.p, b.simt_mem, "out")[0] == sum);
        CHECK(words(b.p, b.ref_mem, "out")[0] == sum);
    }
}

TEST_CASE("sass: unsupported opcodes are listed all at once with their lines", "[sass][error]") {
    const std::string e = error_of([] {
        launch("saxpy_kernel", "sm_90", ".grid 1\n.block 32\n.buffer x f32 32 zero\n.buffer y f32 32 zero\n.param x y 1.0 32\n",
               "../data/sass_unsupported.sass");
    });
    CHECK(e == "tests/sass/../data/sass_unsupported.sass:37:36: error: 2 SASS instructions of 'saxpy_kernel' cannot be simulated "
               "(run them as nops with --sass-stub OP=nop):\n"
               "  tests/sass/../data/sass_unsupported.sass:37:36: UTMALDG.2D [UR8], [UR4]   (no lowering for UTMALDG)\n"
               "  tests/sass/../data/sass_unsupported.sass:41:36: HMMA.16816.F32 R4, R2, R8, R4   (no lowering for HMMA)");
}

TEST_CASE("sass: --sass-stub runs the listed opcodes as nops", "[sass]") {
    const std::string path = (std::filesystem::temp_directory_path() / "simt_test_sass_stub.launch.isa").string();
    std::ofstream(path) << ".sass \"" << std::filesystem::absolute("tests/data/sass_unsupported.sass").string()
                        << "\" saxpy_kernel\n.grid 1\n.block 32\n.buffer x f32 32 zero\n.buffer y f32 32 zero\n.param x y 1.0 32\n";
    const simt::isa::Program p = simt::isa::assemble_file(path, {"UTMALDG.2D=nop", "HMMA=nop"});
    const auto at = std::find(p.text.begin(), p.text.end(), "UTMALDG.2D [UR8], [UR4]");
    REQUIRE(at != p.text.end());
    CHECK(p.code[size_t(at - p.text.begin())].op == simt::isa::Op::Nop);
    CHECK(p.code[size_t(at - p.text.begin())].loc.line == 37);
    CHECK(error_of([&] { simt::isa::assemble_file(path, {"HMMA=nop"}); }).find("1 SASS instruction of") != std::string::npos);
    CHECK(error_of([&] { simt::isa::assemble_file(path, {"HMMA=skip"}); }) == "--sass-stub: error: expected OP=nop, found 'HMMA=skip'");
}

TEST_CASE("sass: a .param list of the wrong length or type is located", "[sass][error]") {
    const std::string head = ".grid 1\n.block 32\n.buffer x f32 32 zero\n.buffer y f32 32 zero\n";
    CHECK(error_of([&] { launch("saxpy_kernel", "sm_90", head + ".param x y 2.0f\n", "saxpy.sm_90.sass"); }) ==
          "tests/sass/saxpy_kernel.launch.isa:6:1: error: kernel 'saxpy_kernel' takes 4 parameters, .param lists 3");
    CHECK(error_of([&] { launch("saxpy_kernel", "sm_90", head + ".param x y x 32\n", "saxpy.sm_90.sass"); })
              .rfind("tests/sass/saxpy_kernel.launch.isa:6:12: error: parameter 2 of 'saxpy_kernel' is 4 bytes", 0) == 0);
    CHECK(error_of([&] { launch("saxpy_kernel", "sm_90", head + ".param x z 2.0 32\n", "saxpy.sm_90.sass"); }) ==
          "tests/sass/saxpy_kernel.launch.isa:6:10: error: unknown buffer 'z' as a kernel parameter; declare it with .buffer");
    CHECK(error_of([&] { launch("saxpy_kernel", "sm_90", head, "saxpy.sm_90.sass"); }) ==
          "tests/sass/saxpy_kernel.launch.isa:1:1: error: a .sass launch needs a .param line listing the kernel's parameters in order");
}

TEST_CASE("sass: a missing kernel, file or binary without cuobjdump is an error", "[sass][error]") {
    const std::string body = ".grid 1\n.block 32\n.param\n";
    CHECK(error_of([&] { launch("nosuch", "sm_90", body, "saxpy.sm_90.sass"); }) ==
          "tests/sass/nosuch.launch.isa:1:26: error: no kernel 'nosuch' in tests/sass/saxpy.sm_90.sass; it has: saxpy_kernel");
    CHECK(error_of([&] { launch("saxpy_kernel", "sm_90", body, "missing.sass"); }).rfind("tests/sass/saxpy_kernel.launch.isa:1:7: error:", 0) == 0);
    if (std::system("command -v cuobjdump >/dev/null 2>&1") != 0)
        CHECK(error_of([&] { launch("saxpy_kernel", "sm_90", body, "saxpy.sm_90.cubin"); }).find("needs cuobjdump on the PATH") != std::string::npos);
    CHECK(error_of([&] { launch("saxpy_kernel", "sm_90", body + "    mov r0, 1\n", "saxpy.sm_90.sass"); }) ==
          "tests/sass/saxpy_kernel.launch.isa:5:5: error: a .sass launch file holds no instructions: the kernel's code comes from the SASS");
}

TEST_CASE("sass: the mapping table lists every lowered opcode once", "[sass]") {
    const std::string t = simt::isa::sass::markdown_rules();
    CHECK(t.rfind("| SASS | trace | notes |\n", 0) == 0);
    CHECK(t.find("| `IMAD` |") != std::string::npos);
    CHECK(t.find("| `BSSY` | `nop` |") != std::string::npos);
}

TEST_CASE("isa/README.md embeds the SASS mapping table of isa/sass/lower.cpp", "[sass][docs]") {
    std::ifstream in(std::string(SIMT_SOURCE_DIR) + "/isa/README.md");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    CHECK(ss.str().find(simt::isa::sass::markdown_rules()) != std::string::npos);
}

TEST_CASE("sass: malformed .sass and .param lines are located", "[sass][error]") {
    auto err = [](const std::string& text) {
        return error_of([&] { simt::isa::assemble_text(text, "tests/sass/l.isa", "tests/sass"); });
    };
    const std::string tail = ".grid 1\n.block 32\n.buffer x f32 32 zero\n.buffer y f32 32 zero\n";
    CHECK(err(".sass saxpy.sm_90.sass saxpy_kernel\n" + tail + ".param x y 1.0 32\n") ==
          "tests/sass/l.isa:1:7: error: expected .sass \"FILE\" KERNEL (a cuobjdump -sass dump or a binary, and the kernel's name)");
    CHECK(err(".sass \"saxpy.sm_90.sass\" saxpy_kernel\n.sass \"saxpy.sm_90.sass\" saxpy_kernel\n" + tail) ==
          "tests/sass/l.isa:2:1: error: .sass given twice (first at line 1)");
    CHECK(err(".sass \"saxpy.sm_90.sass\" saxpy_kernel\n" + tail + ".param x y 1.0q 32\n") ==
          "tests/sass/l.isa:6:12: error: expected a buffer name or a number as a kernel parameter, found '1.0q'");
    CHECK(err(".sass \"../data/sass_bad_line.sass\" k\n" + tail + ".param\n") ==
          "tests/sass/../data/sass_bad_line.sass:4:36: error: malformed SASS line: expected 'OPCODE operands ;'");
    CHECK(err(".sass \"../data/sass_bad_line.sass\" empty\n" + tail + ".param\n") ==
          "tests/sass/l.isa:1:36: error: kernel 'empty' in tests/sass/../data/sass_bad_line.sass has no instructions");
    CHECK(err(".sass \"../data/sass_bad_line.sass\" badaddr\n" + tail + ".param\n") ==
          "tests/sass/../data/sass_bad_line.sass:9:9: error: malformed SASS line: expected /*ADDR*/ OPCODE operands ;");
    CHECK(err(".sass \"../data/sass_bad_line.sass\" guardonly\n" + tail + ".param\n") ==
          "tests/sass/../data/sass_bad_line.sass:12:32: error: malformed SASS line: a guard and no instruction");
    CHECK(err(".sass \"../data/sass_bad_line.sass\" uguard\n" + tail + ".param\n")
              .find("sass_bad_line.sass:17:36: @UP0 EXIT   (a guard @UP0 without a spare predicate to hold it)") != std::string::npos);
}

TEST_CASE("sass: flat addresses [rN.64 + off] in the trace language", "[sass][assembler]") {
    const std::string head = ".kernel f\n.grid 1\n.block 32\n.buffer a u32 32 iota 5\n.buffer b u32 32 zero\n";
    // the address of b[lane] built from a's base (0x10000000) + 256 + 4 * lane
    simt::test::Run r(head + "    mov r0, %laneid\n    imad.wide.u32 r2, r0, 4, r4\n    iadd r2, r2, 0x10000100\n"
                             "    ld.global r6, [r2.64 - 256]\n    st.global [r2.64], r6\n    exit\n");
    const std::vector<uint32_t> b = r.u32("b");
    for (uint32_t l = 0; l < 32; ++l) REQUIRE(b[l] == 5 + l);
    CHECK(simt::isa::disassemble(r.program, 3) == "ld.global r6, [r2.64 - 256]");
    CHECK(r.program.code[3].regs.nsrc == 2);   // the pair r2:r3
    CHECK(error_of([&] { simt::test::assemble(head + "    ld.shared r1, [r2.64]\n"); }) ==
          "t.isa:6:20: error: ld.shared cannot take a flat address; only global accesses do");
    CHECK(error_of([&] { simt::test::assemble(head + "    ld.global r1, [a + r2.64]\n"); }) ==
          "t.isa:6:24: error: a flat address [rN.64 + offset] takes one register pair and an offset");
    CHECK(error_of([&] { simt::test::assemble(head + "    ld.global r1, [r254.64]\n"); }) ==
          "t.isa:6:20: error: register pair 'r254.64' out of range; expected r0.64..r253.64");
    CHECK(error_of([&] { simt::test::Run bad(head + "    mov r2, 16\n    mov r3, 0\n    ld.global r1, [r2.64]\n    exit\n"); })
              .rfind("t.isa:8:5: error: out-of-bounds ld.global: lane 0 address 0x10 (4 bytes) is outside any buffer (flat address)", 0) == 0);
}

TEST_CASE("sass: a .param may name a .uniform, which --uniform then changes", "[sass]") {
    const std::string text = ".sass \"saxpy.sm_90.sass\" saxpy_kernel\n.grid 1\n.block 64\n.uniform a f32 3.0\n.uniform n u32 40\n"
                             ".buffer x f32 64 iota\n.buffer y f32 64 const 1\n.param x y $a $n\n";
    simt::isa::Program p = simt::isa::assemble_text(text, "tests/sass/u.isa", "tests/sass");
    simt::isa::override_uniform(p, "n=50");
    simt::func::GlobalMemory m(p, "tests/sass");
    simt::func::run_functional(p, m);
    const std::vector<float> y = floats(p, m, "y");
    for (size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == (i < 50 ? 3.0f * float(i) + 1.0f : 1.0f));
    CHECK(error_of([] { simt::isa::assemble_text(".sass \"saxpy.sm_90.sass\" saxpy_kernel\n.grid 1\n.block 32\n.buffer x f32 32 zero\n"
                                                 ".param x x $nope 32\n", "tests/sass/u.isa", "tests/sass"); }) ==
          "tests/sass/u.isa:5:12: error: unknown uniform '$nope' as a kernel parameter; declare it with .uniform");
}

TEST_CASE("sass: IADD3/LEA carry-outs and .X carry-ins are exact where the low word wraps", "[sass]") {
    const simt::isa::Program prog = launch("carry", "sm_90", ".grid 1\n.block 32\n.buffer out u32 64 zero\n.buffer out2 u32 64 zero\n"
                                           ".buffer out3 u32 64 zero\n.param 0xfffffff0 0 out out2 out3\n", "../data/sass_carry.sass");
    Both b(prog);
    const std::vector<uint32_t> o1 = words(b.p, b.simt_mem, "out"), o2 = words(b.p, b.simt_mem, "out2"), o3 = words(b.p, b.simt_mem, "out3");
    for (uint32_t t = 0; t < 32; ++t) {
        INFO("lane " << t);
        const uint64_t s1 = 0xfffffff0ull + t, s2 = 0xfffffff0ull + 2ull * t;
        CHECK(o1[2 * t] == uint32_t(s1));
        CHECK(o1[2 * t + 1] == uint32_t(s1 >> 32));
        CHECK(o2[2 * t] == uint32_t(s2));
        CHECK(o2[2 * t + 1] == uint32_t(s2 >> 32));
        CHECK(o3[2 * t] == 5u - t);
        CHECK(o3[2 * t + 1] == (t <= 5 ? 1u : 0u));
    }
    CHECK(words(b.p, b.ref_mem, "out2") == o2);
}

TEST_CASE("sass: a negated integer source and IABS lower exactly", "[sass]") {
    Both b(launch("negabs", "sm_90", ".grid 1\n.block 32\n.buffer out i32 64 zero\n.param out\n", "../data/sass_carry.sass"));
    const std::vector<uint32_t> o = words(b.p, b.simt_mem, "out");
    for (int t = 0; t < 32; ++t) {
        CHECK(int32_t(o[size_t(2 * t)]) == 3 * (t - 16) - t);
        CHECK(int32_t(o[size_t(2 * t + 1)]) == std::abs(t - 16));
    }
    CHECK(words(b.p, b.ref_mem, "out") == o);
}

TEST_CASE("sass: 64-bit compares (ISETP.EX) and PLOP3 lower exactly", "[sass]") {
    // x = t << 28 as 64 bits against y = 0x1'80000000 (t = 24); the signed LT compares (hi - 1):lo
    Both b(launch("cmp64", "sm_90", ".grid 1\n.block 32\n.buffer out u32 32 zero\n.param 0x180000000 out\n", "../data/sass_forms.sass"));
    const std::vector<uint32_t> o = words(b.p, b.simt_mem, "out");
    for (uint32_t t = 0; t < 32; ++t) {
        INFO("lane " << t);
        const uint64_t x = uint64_t(t) << 28, y = 0x180000000ull;
        const int64_t xs = int64_t(((uint64_t(t >> 4) - 1) << 32) | uint32_t(x));
        const uint32_t want = (x >= y) + 2 * (x != y) + 4 * (xs < int64_t(y)) + 8 * (x >= y && x != y) + 16 * (x == y);
        CHECK(o[t] == want);
    }
    CHECK(o[0] == 2 + 4);
    CHECK(o[24] == 1 + 4 + 16);
    CHECK(o[31] == 1 + 2 + 4 + 8);
    CHECK(words(b.p, b.ref_mem, "out") == o);
}

TEST_CASE("sass: I2F.U32.RP, FMUL.RZ, SGXT, ~R, F2I.U64, I2F.F64, a uniform DFMA pair, F2F lower exactly", "[sass]") {
    Both b(launch("conv", "sm_90", ".grid 1\n.block 32\n.buffer out u32 256 zero\n.param 0.33333334f out 0x4000000000000000\n",
                  "../data/sass_forms.sass"));
    const std::vector<uint32_t> o = words(b.p, b.simt_mem, "out");
    for (uint32_t t = 0; t < 32; ++t) {
        INFO("lane " << t);
        const uint32_t* v = &o[8 * t];
        const uint32_t n = t * 0x1000001u;
        float up = float(n);
        if (double(up) < double(n)) up = std::nextafter(up, INFINITY);
        CHECK(v[0] == std::bit_cast<uint32_t>(up));
        const double exact = double(up) * double(0.33333334f);
        float rz = float(exact);
        if (std::fabs(double(rz)) > std::fabs(exact)) rz = std::nextafter(rz, 0.0f);
        CHECK(v[1] == std::bit_cast<uint32_t>(rz));
        CHECK(int32_t(v[2]) == (int32_t(t << 29) >> 29));
        CHECK(v[3] == (t & 3));
        CHECK(v[4] == 0u - t);
        CHECK(std::bit_cast<float>(v[5]) == 3.0f * float(t));
        CHECK((uint64_t(v[6]) | uint64_t(v[7]) << 32) == uint64_t(up));
    }
    CHECK(o[8 * 3] == 0x4c400001u);   // 3 * 0x1000001 = 50331651 rounds up to 50331652
    CHECK(words(b.p, b.ref_mem, "out") == o);
}

TEST_CASE("sass timing: pipes.sass_stall_counts holds the warp for each instruction's stall count", "[sass][timing]") {
    // stall counts 5, 1, 3, 4, 1 (tests/data/sass_stalls.sass); FFMAs independent, fma interval 1
    const simt::isa::Program p = launch("stalls", "sm_90", ".grid 1\n.block 32\n.param\n", "../data/sass_stalls.sass");
    const std::vector<simt::timing::DecodedInst> d = simt::timing::decode_program(p);
    REQUIRE(p.code.size() == 7);   // 3 FFMA, IADD3 as iadd3 + usetp + mov, EXIT
    // the IADD3 issues once (its three trace instructions fold into pc 3) with its count
    const size_t issued_pcs[] = {0, 1, 2, 3, 6};
    const uint8_t want[] = {5, 1, 3, 4, 1};
    for (size_t i = 0; i < 5; ++i) CHECK(d[issued_pcs[i]].sass_stall == want[i]);
    CHECK(d[3].fold == 2);
    auto issues = [&](bool on) {
        simt::GpuConfig c = simt::timing::test::small_config();
        c.pipes.sass_stall_counts = on;
        const TimedRun r = timed_run(p, c);
        std::vector<uint64_t> at;
        for (const auto& e : r.issues) at.push_back(e.cycle);
        return std::make_pair(at, r.stats.stall_cycles[int(simt::timing::StallReason::Wait)]);
    };
    const auto [off, off_wait] = issues(false);
    const auto [on, on_wait] = issues(true);
    REQUIRE(on.size() == 5);
    REQUIRE(off.size() == 5);
    // hand-checked: FFMA at 0, +5, +1; the IADD3 at +3; EXIT 4 after it
    CHECK(on[0] == 0);
    CHECK(on[1] == 5);
    CHECK(on[2] == 6);
    CHECK(on[3] == 9);
    CHECK(on[4] == on[3] + 4);
    CHECK(off[1] == 1);
    CHECK(off[2] == 2);
    CHECK(off[3] == 3);
    CHECK(on_wait > off_wait);
}

TEST_CASE("sass timing: a SASS instruction lowered to several trace instructions issues once", "[sass][timing]") {
    // IADD3 R7, P0 (iadd3 + usetp + mov), IADD3.X R8 reading P0, EXIT (tests/data/sass_fold.sass)
    const simt::isa::Program p = launch("fold", "sm_90", ".grid 1\n.block 32\n.param\n", "../data/sass_fold.sass");
    REQUIRE(p.code.size() > 3);
    const std::vector<simt::timing::DecodedInst> d = simt::timing::decode_program(p);
    CHECK(d[0].fold == 2);
    const simt::GpuConfig c = simt::timing::test::small_config();
    const TimedRun r = timed_run(p, c);
    const std::vector<simt::timing::IssueEvent>& issues = r.issues;
    REQUIRE(issues.size() == 3);   // one issue per SASS instruction, not per trace instruction
    CHECK(r.stats.warp_instructions == 3);
    // the carry is the IADD3's result: the IADD3.X waits the ALU's latency for it, no more
    CHECK(issues[1].cycle - issues[0].cycle == c.pipes.alu.latency);
    CHECK(issues[1].pc == 3);
    CHECK(issues[2].cycle == issues[1].cycle + 1);   // EXIT: no dependence, the next cycle
}

TEST_CASE("sass: SHF.W wraps the shift amount, ULEA goes through a uniform temporary", "[sass]") {
    Both b(launch("shifts", "sm_90", ".grid 1\n.block 32\n.buffer out u32 256 zero\n.param out\n", "../data/sass_forms.sass"));
    const std::vector<uint32_t> o = words(b.p, b.simt_mem, "out");
    for (uint32_t t = 0; t < 32; ++t) {
        INFO("lane " << t);
        const uint32_t sh = (t + 30) & 31;
        CHECK(o[8 * t] == 0x80000000u >> sh);
        CHECK(o[8 * t + 2] == 1u << sh);
        CHECK(o[8 * t + 4] == t + 48);
    }
    CHECK(o[8 * 2] == 0x80000000u);   // lane 2: 32 wraps to 0
    CHECK(words(b.p, b.ref_mem, "out") == o);
}

TEST_CASE("sass: static shared memory comes from the .elf's .nv.shared section", "[sass]") {
    simt::isa::sass::KernelInfo info;
    REQUIRE(simt::isa::sass::read_elf_info(
        "  3d  1f380   1400  0  4                       NOBITS       43    0       2c .nv.shared.lat_lds\n"
        ".nv.info.lat_lds\n\tAttribute:\tEIATTR_KPARAM_INFO\n\t\tFormat:\tEIFMT_SVAL\n"
        "\t\tValue:\tIndex : 0x0\tOrdinal : 0x0\tOffset  : 0x0\tSize    : 0x4\n", "lat_lds", info));
    CHECK(info.shared_bytes == 0x1400);
}

TEST_CASE("sass: IMAD.HI adds the pair c:c+1, and the carry-outs of IMAD.HI, IMAD.WIDE, three-source IADD3, UIADD3", "[sass]") {
    Both b(launch("wide", "sm_90", ".grid 1\n.block 32\n.buffer out u32 512 zero\n.param out\n", "../data/sass_forms.sass"));
    const std::vector<uint32_t> o = words(b.p, b.simt_mem, "out");
    for (uint32_t t = 0; t < 32; ++t) {
        INFO("lane " << t);
        const uint32_t* v = &o[16 * t];
        const uint64_t pair = uint64_t(~t) << 32 | 0xffffffffu;   // R3:R2
        const uint64_t x = t ^ 1u;
        const unsigned __int128 hi1 = (unsigned __int128)(uint64_t(t) * 0x10000000u) + pair;
        CHECK(v[0] == uint32_t(uint64_t(hi1) >> 32));
        const unsigned __int128 s = (unsigned __int128)(x * 0xffffffffull) + pair;   // 65-bit
        CHECK(v[1] == uint32_t(uint64_t(s) >> 32));              // IMAD.HI.U32 with a carry-out
        CHECK((uint64_t(v[3]) << 32 | v[2]) == uint64_t(s));     // IMAD.WIDE.U32
        CHECK(v[8] == uint32_t(s >> 64));                        // its carry (P0)
        CHECK(v[9] == uint32_t(s >> 64));                        // and IMAD.HI's (P1)
        CHECK(v[4] == x);
        CHECK(v[5] == uint32_t(t + 0xffffffffull + (0xffffffffull - t)));
        CHECK(v[6] == 1);                                        // the two carries of that sum
        CHECK(v[7] == t + 0x100);                                // @UP0: UIADD3 2 + 0xffffffff carries
        CHECK(v[10] == 1);
        CHECK(v[11] == 1);
    }
    CHECK(o[16 * 1 + 8] == 0);   // lane 1: x = 0, x * 0xffffffff + pair stays below 2^64
    CHECK(o[16 * 2 + 8] == 1);   // lane 2: x = 3 carries
    CHECK(words(b.p, b.ref_mem, "out") == o);
}

TEST_CASE("sass: FSETP.GEU/LTU, P2R, VIADDMNMX, SHF.R.U64, USHF.R, UIMAD.WIDE, LDS [UR + off]", "[sass]") {
    // the .param's NaN makes LTU true in every lane; .shared 128 for the STS/LDS
    Both b(launch("misc", "sm_90", ".grid 1\n.block 32\n.shared 128\n.buffer out u32 512 zero\n.param out 0x7fc00000\n",
                  "../data/sass_forms.sass"));
    const std::vector<uint32_t> o = words(b.p, b.simt_mem, "out");
    for (uint32_t t = 0; t < 32; ++t) {
        INFO("lane " << t);
        const uint32_t* v = &o[16 * t];
        CHECK(v[0] == ((t >= 16 ? 1u : 0u) | 2u));                 // P2R of P0 = t >= 16, P1 = (t <u NaN)
        CHECK(v[1] == std::min(t + 5, 20u));                       // VIADDMNMX.U32 ... PT: min
        CHECK(int32_t(v[2]) == std::max(int32_t(t) - 16, 0));      // VIADDMNMX ... !PT: max
        CHECK(v[3] == ((uint64_t(t) << 32 | 0xf0000000u) >> 4 & 0xffffffffu));   // SHF.R.U64
        CHECK(v[5] == 5u);                                          // LDS [UR5 + 4]: word 5 of the STS'd tids
        CHECK(v[8] == 0xffffffffu);                                 // USHF.R.S32.HI of -16
        CHECK(v[9] == 0xfu);                                        // USHF.R.U32.HI by 28
        CHECK((uint64_t(v[11]) << 32 | v[10]) == 0x30000ull * 0x30000ull);   // UIMAD.WIDE.U32
    }
    CHECK(words(b.p, b.ref_mem, "out") == o);
}

TEST_CASE("sass: an imported kernel keeps the compiler's registers, not the lowering's temporaries", "[sass]") {
    // reduce_shfl: 10 registers in tests/sass/reduce_shfl.sm_90.elf; its lowering uses temporaries above them
    simt::isa::Program p = simt::isa::assemble_file("tests/sass/reduce_shfl.launch.isa");
    CHECK(p.regs_per_thread == 10);   // what occupancy reads (was 13 with the temporaries)
    CHECK(p.scratch_regs > 0);
    CHECK(simt::func::sem::registers_needed(p) >= p.regs_per_thread + p.scratch_regs);   // the functional model holds them
    simt::isa::LaunchOverrides o;
    o.grid = "1";
    CHECK_NOTHROW(simt::isa::override_launch(p, o));   // the temporaries are not out of the kernel's range
    CHECK(p.regs_per_thread == 10);
}

TEST_CASE("sass: a __device__ table behind constant bank 4 (sinf's Payne-Hanek path) becomes a buffer", "[sass]") {
    std::ifstream in("calib/sass/divergence.sm_90.elf");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    simt::isa::sass::KernelInfo info;
    REQUIRE(simt::isa::sass::read_elf_info(ss.str(), "div_sinf", info));
    REQUIRE(info.globals.size() == 1);
    CHECK(info.globals[0].name == "__cudart_i2opi_f");
    CHECK(info.globals[0].bytes == 24u);
    CHECK(info.globals[0].words == std::vector<uint32_t>{0x3c439041u, 0xdb629599u, 0xf534ddc0u, 0xfc2757d1u, 0x4e441529u, 0xa2f9836eu});
    REQUIRE(info.bank4.size() == 1);
    CHECK(info.bank4[0].offset == 0u);
    CHECK(info.bank4[0].symbol == "__cudart_i2opi_f");
    // div_sinf with a = 0, b = 1e6: from its second step every lane's sinf takes the slow path, which
    // reads the table through ULDC.64 c[0x4][0x0]; both interpreters run it without a fault and agree.
    const std::string text = ".sass \"divergence.sm_90.sass\" div_sinf\n.grid 2\n.block 64\n.buffer wcyc u32 8 zero\n"
                             ".buffer out f32 128 zero\n.param 63 3 0.0f 1000000.0f wcyc out\n";
    const simt::isa::Program p = simt::isa::assemble_text(text, "calib/sass/div_sinf.launch.isa", "calib/sass");
    const auto g = std::find_if(p.buffers.begin(), p.buffers.end(), [](const auto& b) { return b.name == "sass_g_0"; });
    REQUIRE(g != p.buffers.end());
    CHECK(g->count == 6u);
    simt::func::GlobalMemory simt_mem(p, "calib/sass"), ref_mem(p, "calib/sass");
    const simt::func::FunctionalResult r = simt::func::run_functional(p, simt_mem);
    simt::func::run_reference(p, ref_mem);
    uint64_t table_reads = 0;   // div_sinf's only global loads are the slow path's reads of the table
    for (size_t pc = 0; pc < p.code.size(); ++pc)
        if (simt::isa::info(p.code[pc].op).access == simt::isa::Access::Load && simt::isa::info(p.code[pc].op).space == simt::isa::Space::Global)
            table_reads += r.pc_thread_instructions[pc];
    CHECK(table_reads >= 2u * 128u);   // steps 2 and 3 of 128 threads, at least one word each
    CHECK(words(p, simt_mem, "sass_g_0") == std::vector<uint32_t>{0x3c439041u, 0xdb629599u, 0xf534ddc0u, 0xfc2757d1u, 0x4e441529u, 0xa2f9836eu});
    CHECK(words(p, simt_mem, "out") == words(p, ref_mem, "out"));
}

TEST_CASE("sass: a read of constant bank 4 without the .elf beside the dump is located", "[sass][error]") {
    // div_sinf's slow path reads its __device__ table's address from c[0x4][0x0]; without the .elf
    // (cuobjdump -elf) the import cannot place the table and says so at the reading instruction.
    const auto dir = std::filesystem::temp_directory_path() / "simt_test_sass_noelf";
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file("calib/sass/divergence.sm_90.sass", dir / "divergence.sm_90.sass",
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::remove(dir / "divergence.sm_90.elf");
    const std::string text = ".sass \"divergence.sm_90.sass\" div_sinf\n.grid 2\n.block 64\n.buffer wcyc u32 8 zero\n"
                             ".buffer out f32 128 zero\n.param 63 3 0.0f 1000000.0f wcyc out\n";
    const std::string e = error_of([&] { simt::isa::assemble_text(text, (dir / "div_sinf.launch.isa").string(), dir.string()); });
    INFO(e);
    CHECK(e.find("divergence.sm_90.sass:445:36: ULDC.64 UR8, c[0x4][0x0]   (reads c[0x4][0x0], ") != std::string::npos);
    CHECK(e.find("a __device__ object's address: needs the .elf dump beside the .sass (cuobjdump -elf)") != std::string::npos);
}
