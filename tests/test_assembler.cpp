// Assembler tests: the accepted language and every error, with its message and position.
#include "isa/assembler.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace simt;
using namespace simt::isa;

namespace {

const char* kHeader = ".grid 2\n.block 64\n";

Program asm_ok(const std::string& body) { return assemble_text(std::string(kHeader) + body, "t.isa"); }

// Assembles `text` expecting an error; checks line, column (if nonzero) and that the
// message contains `needle`.
void expect_error(const std::string& text, uint32_t line, uint32_t col, const std::string& needle) {
    try {
        assemble_text(text, "bad.isa");
        FAIL("assembled without error: " << text);
    } catch (const Error& e) {
        INFO(e.what());
        CHECK(e.loc().file == "bad.isa");
        CHECK(e.loc().line == line);
        if (col) CHECK(e.loc().col == col);
        CHECK(std::string(e.what()).find(needle) != std::string::npos);
        std::string prefix = line ? "bad.isa:" + std::to_string(line) : std::string("bad.isa: error");
        CHECK(std::string(e.what()).rfind(prefix, 0) == 0);
    }
}

}  // namespace

TEST_CASE("assembler: a small kernel assembles with its directives", "[assembler]") {
    Program p = assemble_text(R"(; comment line
.kernel demo
.grid 4 2
.block 128
.regs 24
.shared 1024
.local 16
.buffer out f32 256 zero
.buffer idx u32 256 iota 10 2
.buffer img f32 8x4 const 0.5
.buffer chain u32 64 perm 7
.buffer noise f32 100 random 3 -1 1
.uniform scale f32 2.5
.uniform n u32 0x10
    mov r0, %tid.x          // thread index
    imad r1, %ctaid.x, %ntid.x, r0
    isetp.lt p0, r1, $n
    @!p0 bra done
    fmul r2, r2, $scale
    ld.global r3, [idx + r1*4 + 8]
    st.global.v4 [out + r1*16], r4
    st.shared [r0*4 - 4], r3
    tex r5, img, r2, r2
loop: iadd r6, r6, -1
    isetp.gt p1, r6, 0
    @p1 bra loop
done:
    exit
)",
                              "demo.isa");
    CHECK(p.kernel == "demo");
    CHECK(p.launch.mode == LaunchDecl::Mode::Compute);
    CHECK(p.launch.grid.x == 4);
    CHECK(p.launch.grid.y == 2);
    CHECK(p.launch.block.x == 128);
    CHECK(p.num_blocks() == 8);
    CHECK(p.warps_per_block() == 4);
    CHECK(p.regs_per_thread == 24);
    CHECK(p.shared_bytes == 1024);
    CHECK(p.local_bytes == 16);
    REQUIRE(p.buffers.size() == 5);
    CHECK(p.buffers[1].init.kind == BufferInit::Kind::Iota);
    CHECK(p.buffers[1].init.a == 10);
    CHECK(p.buffers[1].init.b == 2);
    CHECK(p.buffers[2].width == 8);
    CHECK(p.buffers[2].count == 32);
    CHECK(p.buffers[4].init.a == -1);
    REQUIRE(p.code.size() == 13);
    CHECK(p.labels.at("loop") == 9);
    CHECK(p.labels.at("done") == 12);
    CHECK(p.code[3].op == Op::Bra);
    CHECK(p.code[3].guard == 0);
    CHECK(p.code[3].guard_negate);
    CHECK(p.code[3].ops[0].value == 12);
    CHECK(p.code[2].cmp == Cmp::Lt);
    CHECK(p.code[5].ops[1].mem.buffer == 1);
    CHECK(p.code[5].ops[1].mem.index_reg == 1);
    CHECK(p.code[5].ops[1].mem.scale == 4);
    CHECK(p.code[5].ops[1].mem.offset == 8);
    CHECK(p.code[7].ops[0].mem.offset == -4);
    CHECK(p.code[9].ops[2].value == uint32_t(-1));
    float f;
    std::memcpy(&f, &p.uniforms[0].bits, 4);
    CHECK(f == 2.5f);
    CHECK(p.text[1] == "imad r1, %ctaid.x, %ntid.x, r0");
    CHECK(disassemble(p, 3) == "@!p0 bra done");
    CHECK(disassemble(p, 6) == "st.global.v4 [out + r1*16], r4");
    CHECK(disassemble(p, 7) == "st.shared [r0*4 - 4], r3");
    CHECK(p.code[0].loc.line == 15);
}

TEST_CASE("assembler: register use is derived for the scoreboard", "[assembler]") {
    Program p = asm_ok(".buffer o u32 64 zero\n@p2 ffma r1, r2, r3, r2\nst.global.v4 [o + r9], r4\ndfma r10, r12, r14, r16\n"
                       "ld.global.v4 r20, [o + r1]\nsetp: isetp.eq p3, r1, 5\nexit\n");
    const RegUse& a = p.code[0].regs;
    REQUIRE(a.nsrc == 3);  // p2, r2, r3 (r2 once)
    CHECK(a.src[0] == kPredRegBase + 2);
    CHECK(a.ndst == 1);
    CHECK(a.dst[0] == 1);
    CHECK(p.code[1].regs.nsrc == 5);  // r9 + r4..r7
    CHECK(p.code[2].regs.nsrc == 6);
    CHECK(p.code[2].regs.ndst == 2);
    CHECK(p.code[3].regs.ndst == 4);
    CHECK(p.code[4].regs.dst[0] == kPredRegBase + 3);
    CHECK(p.regs_per_thread == 24);  // highest register used: r23 (ld.global.v4 r20..r23)
}

TEST_CASE("assembler: fragment launch, tile and include", "[assembler]") {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / "simt_asm_include";
    fs::create_directories(dir);
    std::ofstream(dir / "common.isa") << ".uniform k f32 1.5\n";
    std::ofstream(dir / "main.isa") << ".fragment 17 9\n.tile 8 4\n.include \"common.isa\"\nfmul r0, r0, $k\nexit\n";
    Program p = assemble_file((dir / "main.isa").string());
    CHECK(p.launch.mode == LaunchDecl::Mode::Fragment);
    CHECK(p.launch.tile_w == 8);
    CHECK(p.num_blocks() == 3 * 3);
    CHECK(p.uniforms.size() == 1);
    CHECK(p.kernel == "main");
}

TEST_CASE("assembler: errors name file, line, column and what was expected", "[assembler][errors]") {
    std::string h = kHeader;  // 2 lines
    SECTION("unknown opcode, with a suggestion") {
        expect_error(h + "  fadd2 r1, r2, r3\n", 3, 3, "unknown opcode 'fadd2' (did you mean 'fadd'?)");
    }
    SECTION("wrong operand count: too few") {
        expect_error(h + "ffma r1, r2, r3\n", 3, 0, "ffma takes 4 operands");
    }
    SECTION("wrong operand count: too many") {
        expect_error(h + "mov r1, r2, r3\n", 3, 0, "mov takes 2 operands");
    }
    SECTION("wrong operand type") {
        expect_error(h + "iadd p1, r2, r3\n", 3, 6, "expected a destination register");
    }
    SECTION("predicate where a value is expected") {
        expect_error(h + "isetp.lt p0, p1, r3\n", 3, 14, "expected a value");
    }
    SECTION("register out of range") {
        expect_error(h + "mov r255, 1\n", 3, 5, "register 'r255' out of range");
    }
    SECTION("register beyond .regs") {
        expect_error(h + ".regs 8\nmov r1, 0\niadd r9, r1, 1\n", 5, 0, "register r9 out of range: .regs 8");
    }
    SECTION("undefined label") {
        expect_error(h + "bra nowhere\nexit\n", 3, 5, "undefined label 'nowhere'");
    }
    SECTION("duplicate label") {
        expect_error(h + "top: nop\ntop: exit\n", 4, 1, "duplicate label 'top' (first defined at bad.isa:3:1)");
    }
    SECTION("label at end of program") {
        expect_error(h + "exit\nend:\n", 4, 1, "label 'end' is at the end of the program");
    }
    SECTION("compare without condition") {
        expect_error(h + "isetp p0, r1, r2\n", 3, 1, "isetp needs a comparison");
    }
    SECTION("unknown special") {
        expect_error(h + "mov r1, %tid.w\n", 3, 9, "unknown special value '%tid.w'");
    }
    SECTION("unknown uniform") {
        expect_error(h + "mov r1, $gain\n", 3, 9, "unknown uniform '$gain'");
    }
    SECTION("unknown buffer") {
        expect_error(h + "ld.global r1, [data + r0*4]\n", 3, 16, "unknown buffer 'data'");
    }
    SECTION("global access without buffer") {
        expect_error(h + "ld.global r1, [r0*4]\n", 3, 15, "ld.global needs a buffer");
    }
    SECTION("shared access with a buffer") {
        expect_error(h + ".buffer b u32 4 zero\nld.shared r1, [b + r0]\n", 4, 15, "a buffer name is not allowed");
    }
    SECTION("bad scale") {
        expect_error(h + ".buffer b u32 4 zero\nld.global r1, [b + r0*3]\n", 4, 23, "scale must be 1, 2, 4, 8 or 16");
    }
    SECTION("odd fp64 pair") {
        expect_error(h + "dadd r2, r3, r4\n", 3, 10, "must start at an even register");
    }
    SECTION("bad number") {
        expect_error(h + "mov r1, 12abc\n", 3, 9, "bad number '12abc'");
    }
    SECTION("immediate too large") {
        expect_error(h + "mov r1, 0x1ffffffff\n", 3, 9, "bad number");
    }
    SECTION("unknown directive") {
        expect_error(h + ".blocks 4\n", 3, 1, "unknown directive '.blocks'");
    }
    SECTION("no launch") {
        expect_error("exit\n", 1, 0, "no launch");
    }
    SECTION("grid without block") {
        expect_error(".grid 4\nexit\n", 1, 1, ".grid without .block");
    }
    SECTION("fragment and compute together") {
        expect_error(h + ".fragment 64 64\nexit\n", 3, 1, ".fragment conflicts with .grid/.block");
    }
    SECTION("block too large") {
        expect_error(".grid 1\n.block 2048\nexit\n", 2, 1, "expected at most 1024 threads per block");
    }
    SECTION("zero grid") {
        expect_error(".grid 0\n", 1, 7, "grid size must be between 1");
    }
    SECTION("bad tile") {
        expect_error(".fragment 8 8\n.tile 4 4\nexit\n", 2, 1, "expected even sides with width * height = 32");
    }
    SECTION("duplicate buffer") {
        expect_error(h + ".buffer a u32 4 zero\n.uniform a u32 1\n", 4, 10, "'a' already declared at bad.isa:3:9");
    }
    SECTION("unknown buffer type") {
        expect_error(h + ".buffer a u16 4 zero\n", 3, 11, "unknown element type 'u16'");
    }
    SECTION("unknown initialiser") {
        expect_error(h + ".buffer a u32 4 ones\n", 3, 17, "unknown initialiser 'ones'");
    }
    SECTION("data of the wrong length") {
        expect_error(h + ".buffer a u32 4 data 1 2 3\n", 3, 0, "data gives 3 values; the buffer has 4");
        expect_error(h + ".buffer a u32 2 data 1 2 3\n", 3, 0, "data gives 3 values; the buffer has 2");
        expect_error(h + ".buffer a u32 2 data 1 x\n", 3, 24, "expected a value");
        expect_error(h + ".buffer a u32 70000 data 1\n", 3, 0, "a data buffer holds at most 65536 values");
    }
    SECTION("perm of floats") {
        expect_error(h + ".buffer a f32 4 perm 1\n", 3, 0, "a perm buffer holds indices");
    }
    SECTION("tex on a 1D buffer") {
        expect_error(h + ".buffer a f32 4 zero\ntex r0, a, r1, r2\n", 4, 9, "is not 2D");
    }
    SECTION("missing include") {
        expect_error(h + ".include \"nope.isa\"\n", 3, 1, "cannot open included file");
    }
    SECTION("unterminated string") {
        expect_error(h + ".include \"nope.isa\n", 3, 10, "unterminated string");
    }
    SECTION("stray character") {
        expect_error(h + "mov r1, r2 #\n", 3, 12, "unexpected character '#'");
    }
    SECTION("missing comma") {
        expect_error(h + "iadd r1 r2, r3\n", 3, 9, "expected ','");
    }
    SECTION("empty program") {
        expect_error(h, 0, 0, "no instructions");
    }
    SECTION("guard is not a predicate") {
        expect_error(h + "@r1 exit\n", 3, 2, "expected a predicate p0..p6 or pt as guard");
    }
}

TEST_CASE("assembler: a missing trace file is an error, not a crash", "[assembler][errors]") {
    try {
        assemble_file("/nonexistent/trace.isa");
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) == "/nonexistent/trace.isa: error: cannot open trace file: No such file or directory");
    }
}

TEST_CASE("assembler: include cycles are reported", "[assembler][errors]") {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / "simt_asm_cycle";
    fs::create_directories(dir);
    std::ofstream(dir / "a.isa") << ".include \"b.isa\"\n";
    std::ofstream(dir / "b.isa") << ".include \"a.isa\"\n";
    try {
        assemble_file((dir / "a.isa").string());
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("include cycle") != std::string::npos);
    }
}

TEST_CASE("isa/README.md embeds the instruction reference generated from opcodes.def", "[assembler][docs]") {
    std::ifstream in(std::string(SIMT_SOURCE_DIR) + "/isa/README.md");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    CHECK(ss.str().find(markdown_reference()) != std::string::npos);
    CHECK(markdown_reference().find("| `ffma` | `rD, a, b, c` | fma | fixed |") != std::string::npos);
}

TEST_CASE("assembler: --uniform overrides a uniform by its type", "[assembler]") {
    Program p = asm_ok(".uniform k f32 1.0\n.uniform n u32 3\nexit\n");
    override_uniform(p, "k=2.5");
    override_uniform(p, "n=0x10");
    float f;
    std::memcpy(&f, &p.uniforms[0].bits, 4);
    CHECK(f == 2.5f);
    CHECK(p.uniforms[1].bits == 16);
    auto msg = [&](const std::string& a) {
        try {
            override_uniform(p, a);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(msg("kk=1") == "--uniform kk=1: error: the trace declares no uniform 'kk' (did you mean 'k'?)");
    CHECK(msg("n=1.5") == "--uniform n=1.5: error: uniform 'n' is an integer; found '1.5'");
    CHECK(msg("n") == "--uniform n: error: expected NAME=VALUE");
    CHECK(msg("k=abc") == "--uniform k=abc: error: expected a number for uniform 'k', found 'abc'");
}
