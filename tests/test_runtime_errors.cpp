// Runtime faults of the functional executor (and of buffer files): each names
// the lane, the address, the buffer and its size, at the instruction's line.
#include "functional_util.hpp"
#include "sim/functional/reference.hpp"

#include <filesystem>
#include <fstream>

using namespace simt;
using namespace simt::func;
namespace fs = std::filesystem;

namespace {

// Runs `text` (as t.isa) and expects an Error at `line` whose message contains
// every one of `needles`; returns the message.
std::string expect_fault(const std::string& text, uint32_t line, std::vector<std::string> needles,
                         ExecLimits limits = {}) {
    const isa::Program p = test::assemble(text);
    GlobalMemory m(p, ".");
    try {
        run_functional(p, m, limits);
    } catch (const Error& e) {
        INFO(e.what());
        CHECK(e.loc().file == "t.isa");
        CHECK(e.loc().line == line);
        for (const std::string& n : needles) CHECK(std::string(e.what()).find(n) != std::string::npos);
        CHECK(std::string(e.what()).rfind("t.isa:" + std::to_string(line) + ":", 0) == 0);
        return e.what();
    }
    FAIL("no error from:\n" << text);
    return "";
}

// The reference interpreter reports the same fault.
std::string reference_fault(const std::string& text) {
    const isa::Program p = test::assemble(text);
    GlobalMemory m(p, ".");
    try {
        run_reference(p, m);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

const std::string kWarp = ".grid 1\n.block 32\n";

}  // namespace

TEST_CASE("runtime errors: out-of-bounds global store names lane, address, buffer and line", "[runtime-errors]") {
    const std::string text = kWarp + ".buffer out u32 32 zero\n"   // line 3
                                     "    mov r0, %laneid\n"         // 4
                                     "    st.global [out + r0*4 + 4], r0\n"   // 5
                                     "    exit\n";
    const std::string msg = expect_fault(text, 5, {"out-of-bounds st.global", "lane 31", "address 0x10000080",
                                                   "buffer 'out'", "128 bytes at 0x10000000"});
    CHECK(reference_fault(text) == msg);
}

TEST_CASE("runtime errors: a negative index is out of bounds", "[runtime-errors]") {
    expect_fault(kWarp + ".buffer a f32 64 zero\n    mov r0, %laneid\n    isub r1, r0, 3\n"
                         "    ld.global r2, [a + r1*4]\n    exit\n",
                 6, {"out-of-bounds ld.global", "lane 0", "address 0xffffff4", "buffer 'a'", "256 bytes"});
}

TEST_CASE("runtime errors: a load from another buffer's address is out of bounds", "[runtime-errors]") {
    // a + 256 is where b starts: still outside a.
    expect_fault(kWarp + ".buffer a u32 64 zero\n.buffer b u32 64 zero\n    ld.global r1, [a + 256]\n    exit\n",
                 5, {"lane 0", "address 0x10000100", "buffer 'a'"});
}

TEST_CASE("runtime errors: shared and local accesses are checked against .shared and .local", "[runtime-errors]") {
    expect_fault(kWarp + ".shared 64\n    mov r0, %laneid\n    st.shared [r0*4], r0\n    exit\n", 5,
                 {"out-of-bounds st.shared", "lane 16", "address 0x40", ".shared", "64 bytes"});
    expect_fault(kWarp + ".local 8\n    mov r0, %laneid\n    and r0, r0, 3\n    ld.local r1, [r0*4]\n    exit\n", 6,
                 {"out-of-bounds ld.local", "lane 2", "address 0x8", ".local", "8 bytes"});
    expect_fault(kWarp + "    ld.shared r1, [0]\n    exit\n", 3, {"lane 0", ".shared", "0 bytes"});
    // (a fuzz finding under UBSan: no lane's pointer is formed off an empty window)
    expect_fault(kWarp + "    mov r16, 0\n    ld.shared r7, [r16 + 0x40]\n    exit\n", 4, {"lane 0", ".shared", "0 bytes"});
}

TEST_CASE("runtime errors: misaligned accesses", "[runtime-errors]") {
    expect_fault(kWarp + ".buffer a u32 64 zero\n    ld.global r1, [a + 2]\n    exit\n", 4,
                 {"misaligned ld.global", "lane 0", "address 0x10000002", "not 4-byte aligned", "buffer 'a'"});
    expect_fault(kWarp + ".buffer a u32 256 zero\n    mov r0, %laneid\n    ld.global.v4 r4, [a + r0*4]\n    exit\n",
                 5, {"misaligned ld.global.v4", "lane 1", "address 0x10000004", "not 16-byte aligned"});
    expect_fault(kWarp + ".shared 1024\n    mov r0, %laneid\n    st.shared.v4 [r0*8], r4\n    exit\n", 5,
                 {"misaligned st.shared.v4", "lane 1", "address 0x8", "16-byte"});
}

TEST_CASE("runtime errors: bar in divergent code", "[runtime-errors]") {
    expect_fault(kWarp + "    mov r0, %laneid\n    isetp.lt p0, r0, 16\n    @p0 bra skip\n    bar\nskip:\n    exit\n", 6,
                 {"barrier in divergent code", "lanes 0xffff0000", "live lanes 0xffffffff", "warp 0 of block 0"});
    expect_fault(kWarp + "    mov r0, %laneid\n    isetp.lt p0, r0, 16\n    @p0 bar\n    exit\n", 5,
                 {"barrier in divergent code"});
}

TEST_CASE("runtime errors: bar after some lanes exited is fine", "[runtime-errors]") {
    test::Run r(kWarp + ".buffer o u32 32 zero\n    mov r0, %laneid\n    isetp.lt p0, r0, 16\n    @p0 exit\n"
                        "    bar\n    st.global [o + r0*4], r0\n    exit\n");
    const auto o = r.u32("o");
    for (uint32_t l = 0; l < 32; ++l) CHECK(o[l] == (l < 16 ? 0u : l));
}

TEST_CASE("runtime errors: the instruction budget ends an infinite loop", "[runtime-errors]") {
    ExecLimits limits;
    limits.max_warp_instructions = 1000;
    expect_fault(kWarp + "    mov r0, 1\nloop:\n    iadd r0, r0, 1\n    bra loop\n", 6,
                 {"instruction budget of 1000 warp instructions exhausted (infinite loop?)"}, limits);
}

TEST_CASE("runtime errors: tex reads wrap instead of faulting", "[runtime-errors]") {
    test::Run r(kWarp + R"(.buffer img u32 4x2 iota
.buffer o u32 32 zero
    mov r0, %laneid
    i2f r1, r0
    fmul r2, r1, 0.25        ; u = lane / 4 (wraps every 4 lanes... and beyond 1)
    fmul r3, r1, -0.5        ; v = -lane / 2
    tex r4, img, r2, r3
    st.global [o + r0*4], r4
    exit
)");
    const auto o = r.u32("o");
    for (uint32_t l = 0; l < 32; ++l) {
        const int64_t x = int64_t(std::floor(l * 0.25 * 4)) % 4;
        const int64_t yf = int64_t(std::floor(-(l * 0.5) * 2));
        const int64_t y = ((yf % 2) + 2) % 2;
        CHECK(o[l] == uint32_t(y * 4 + x));
    }
}

TEST_CASE("runtime errors: CSV files are checked with file and line", "[runtime-errors]") {
    const fs::path dir = fs::path(SIMT_BINARY_DIR) / "test_runtime_errors_csv";
    fs::create_directories(dir);
    auto load = [&](const std::string& csv, const std::string& type, uint32_t count) -> std::string {
        std::ofstream(dir / "v.csv") << csv;
        const isa::Program p = isa::assemble_text(kWarp + ".buffer v " + type + " " + std::to_string(count) +
                                                      " file \"v.csv\"\n    exit\n",
                                                  (dir / "t.isa").string(), dir.string());
        try {
            GlobalMemory m(p, dir.string());
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    const std::string csv = (dir / "v.csv").lexically_normal().string();
    std::string e = load("value\n1\nx2\n3\n", "u32", 3);
    INFO(e);
    CHECK(e.rfind(csv + ":3: error: expected a u32 value, got 'x2'", 0) == 0);
    CHECK(e.find(".buffer v at ") != std::string::npos);
    e = load("value\n1.5\n", "f32", 3);
    CHECK(e.find("expected 3 values, the file has 1") != std::string::npos);
    CHECK(e.rfind(csv + ":", 0) == 0);
    e = load("value\n1\n2\n3\n", "i32", 2);
    CHECK(e.rfind(csv + ":4: error: more rows than the 2 elements", 0) == 0);
    e = load("val\n1\n", "u32", 1);
    CHECK(e.rfind(csv + ":1: error: expected the header line 'value'", 0) == 0);
    e = load("value\n1.5\n", "i32", 1);
    CHECK(e.find("expected a i32 value, got '1.5'") != std::string::npos);

    const isa::Program p = isa::assemble_text(kWarp + ".buffer v u32 1 file \"missing.csv\"\n    exit\n",
                                              (dir / "t.isa").string(), dir.string());
    try {
        GlobalMemory m(p, dir.string());
        FAIL("missing file accepted");
    } catch (const Error& err) {
        CHECK(err.loc().line == 3);
        CHECK(std::string(err.what()).find("cannot open CSV file") != std::string::npos);
        CHECK(std::string(err.what()).find("missing.csv") != std::string::npos);
    }
}

TEST_CASE("runtime errors: the SASS-level forms' accesses are checked too", "[runtime-errors][sass]") {
    // 64-bit accesses: 8-byte aligned, inside the buffer.
    std::string text = kWarp + ".buffer a u32 256 zero\n    mov r0, %laneid\n    ld.global.v2 r2, [a + r0*4]\n    exit\n";
    std::string msg = expect_fault(text, 5, {"misaligned ld.global.v2", "lane 1", "address 0x10000004", "not 8-byte aligned"});
    CHECK(reference_fault(text) == msg);
    expect_fault(kWarp + ".buffer a u32 8 zero\n    mov r0, %laneid\n    st.global.v2 [a + r0*8], r2\n    exit\n", 5,
                 {"out-of-bounds st.global.v2", "lane 4", "buffer 'a'"});
    // uldc reads inside its buffer.
    text = kWarp + ".buffer k u32 4 zero\n    uldc ur1, [k + 16]\n    exit\n";
    msg = expect_fault(text, 4, {"out-of-bounds uldc", "lane 0", "address 0x10000010", "buffer 'k'", "16 bytes"});
    CHECK(reference_fault(text) == msg);
    // red and the new atomic operations: the same checks as atom.global.add.
    text = kWarp + ".buffer h u32 16 zero\n    mov r0, %laneid\n    red.global.max [h + r0*4], r0\n    exit\n";
    msg = expect_fault(text, 5, {"out-of-bounds red.global.max", "lane 16", "buffer 'h'"});
    CHECK(reference_fault(text) == msg);
    expect_fault(kWarp + ".shared 64\n    mov r0, %laneid\n    atom.shared.cas r1, [r0*4 + 2], 0, 1\n    exit\n", 5,
                 {"misaligned atom.shared.cas", "lane 0", "not 4-byte aligned"});
}
