// test_isa_sass.cpp: the SASS-level forms of issue 8 (source modifiers, three-input
// and bit-manipulation integer ops, ALU conversions, the atomic operations and
// red, 64-bit memory, fp64 immediates and compares, in-kernel clocks): what
// each computes (SIMT executor and per-thread reference agree and give the
// right values), the assembler's errors, and the pipe and latency each issues
// to on small_config (alu 4, fma 4, sfu 20, fp64 8, atomics at the L2).
#include "functional_util.hpp"
#include "test_timing_util.hpp"

#include "sim/functional/reference.hpp"
#include "sim/functional/semantics.hpp"
#include "sim/timing/decode.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <cfenv>

using namespace simt;
using namespace simt::func;

namespace {

const std::string kWarp = ".kernel t\n.grid 1\n.block 32\n";

// Runs `text` on the SIMT executor and on the per-thread reference; checks
// that every buffer ends equal and returns the executor's run.
struct Both {
    isa::Program program;
    GlobalMemory memory, ref;
    explicit Both(const std::string& text)
        : program(simt::test::assemble(text)), memory(program, "."), ref(program, ".") {
        run_functional(program, memory);
        run_reference(program, ref);
        for (size_t b = 0; b < program.buffers.size(); ++b) {
            INFO("buffer " << program.buffers[b].name);
            CHECK(std::memcmp(memory.data(int(b)), ref.data(int(b)), program.buffers[b].bytes()) == 0);
        }
    }
    std::vector<uint32_t> u32(const std::string& n) const { return simt::test::words(program, memory, n); }
    std::vector<float> f32(const std::string& n) const { return simt::test::floats(program, memory, n); }
    std::vector<double> f64(const std::string& n) const { return simt::test::doubles(program, memory, n); }
};

void expect_error(const std::string& text, uint32_t line, uint32_t col, const std::string& needle) {
    try {
        isa::assemble_text(text, "bad.isa");
        FAIL("assembled without error: " << text);
    } catch (const Error& e) {
        INFO(e.what());
        CHECK(e.loc().line == line);
        CHECK(e.loc().col == col);
        CHECK(std::string(e.what()).find(needle) != std::string::npos);
        CHECK(std::string(e.what()).rfind("bad.isa:" + std::to_string(line) + ":" + std::to_string(col) + ": error: ", 0) == 0);
    }
}

}  // namespace

// ---------------------------------------------------------------- functional

TEST_CASE("sass forms: fp32 source modifiers -x, |x|, -|x|", "[functional][sass]") {
    Both r(kWarp + ".buffer o f32 256 zero\n.uniform u f32 2.5\n"
                   "    mov r0, %laneid\n"
                   "    i2f r1, r0\n"
                   "    fadd r2, -r1, 1.0\n"          // 1 - l
                   "    fmul r3, |r2|, -2.0\n"        // -2 |1 - l|
                   "    ffma r4, -|r2|, r1, r1\n"     // l - |1 - l| l
                   "    fmin r5, -r1, -|r2|\n"
                   "    fsetp.lt p0, -r1, -|r2|\n"
                   "    sel r6, 1.0, 0.0, p0\n"
                   "    fadd r7, -$u, |r2|\n"         // |1 - l| - 2.5
                   "    fadd r8, -|-3.0|, r1\n"       // l - 3
                   "    fneg r9, -r1\n"               // l
                   "    umov ur1, 0x40000000\n"       // 2.0
                   "    ffma r9, -ur1, -|ur1|, r9\n"  // l + 4
                   "    st.global [o + r0*4], r2\n    st.global [o + r0*4 + 128], r3\n"
                   "    st.global [o + r0*4 + 256], r4\n    st.global [o + r0*4 + 384], r5\n"
                   "    st.global [o + r0*4 + 512], r6\n    st.global [o + r0*4 + 640], r7\n"
                   "    st.global [o + r0*4 + 768], r8\n    st.global [o + r0*4 + 896], r9\n    exit\n");
    const auto o = r.f32("o");
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const float x = float(l), a = std::fabs(1 - x);
        CHECK(o[l] == 1 - x);
        CHECK(o[32 + l] == -2 * a);
        CHECK(o[64 + l] == -a * x + x);
        CHECK(o[96 + l] == std::min(-x, -a));
        CHECK(o[128 + l] == ((-x < -a) ? 1.0f : 0.0f));
        CHECK(o[160 + l] == a - 2.5f);
        CHECK(o[192 + l] == x - 3);
        CHECK(o[224 + l] == x + 4);
    }
    CHECK(isa::disassemble(r.program, 4) == "ffma r4, -|r2|, r1, r1");
    CHECK(isa::disassemble(r.program, 12) == "ffma r9, -ur1, -|ur1|, r9");
}

TEST_CASE("sass forms: iadd3, lop3, lea, lea.hi, multiply-high, imad.wide", "[functional][sass]") {
    Both r(kWarp + ".buffer o u32 512 zero\n"
                   "    mov r0, %laneid\n"
                   "    iadd3 r1, r0, 100, -7\n"
                   "    lop3 r2, r0, 6, 0xf0, 0x96\n"       // a ^ b ^ c
                   "    lop3 r3, r0, 3, 5, 0x80\n"           // a & b & c
                   "    lea r4, r0, 1000, 3\n"               // (l << 3) + 1000
                   "    mov r5, 0xc0000000\n"
                   "    lea.hi r6, r5, r0, 0, 2\n"           // l + (0xc0000000 >> 30) = l + 3
                   "    lea.hi r7, r5, r0, 1, 2\n"           // l + 3 + (1 << 2)
                   "    imul.hi r8, r0, -65536\n"            // (l * -2^16) >> 32 = -1 for l > 0
                   "    imul.hi.u32 r9, r5, r0\n"            // (0xc0000000 * l) >> 32 = 3 l / 4
                   "    imad.hi r10, r5, 4, r0\n"            // signed: (-2^30 * 4) >> 32 = -1, + l
                   "    imad.hi.u32 r11, r5, 4, r0\n"        // unsigned: 3 + l
                   "    mov r12, 0xfffffff0\n    mov r13, 0\n"
                   "    imad.wide r14, r0, -1, r12\n"        // 0xfffffff0 - l, 64-bit
                   "    imad.wide.u32 r16, r5, 8, r12\n"     // 0x6_0000_0000 + 0xfffffff0
                   "    st.global [o + r0*4], r1\n    st.global [o + r0*4 + 128], r2\n"
                   "    st.global [o + r0*4 + 256], r3\n    st.global [o + r0*4 + 384], r4\n"
                   "    st.global [o + r0*4 + 512], r6\n    st.global [o + r0*4 + 640], r7\n"
                   "    st.global [o + r0*4 + 768], r8\n    st.global [o + r0*4 + 896], r9\n"
                   "    st.global [o + r0*4 + 1024], r10\n    st.global [o + r0*4 + 1152], r11\n"
                   "    st.global [o + r0*4 + 1280], r14\n    st.global [o + r0*4 + 1408], r15\n"
                   "    st.global [o + r0*4 + 1536], r16\n    st.global [o + r0*4 + 1664], r17\n    exit\n");
    const auto o = r.u32("o");
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        CHECK(o[l] == l + 93);
        CHECK(o[32 + l] == (l ^ 6 ^ 0xf0));
        CHECK(o[64 + l] == (l & 1));
        CHECK(o[96 + l] == (l << 3) + 1000);
        CHECK(o[128 + l] == l + 3);
        CHECK(o[160 + l] == l + 7);
        CHECK(o[192 + l] == (l ? 0xffffffffu : 0u));
        CHECK(o[224 + l] == uint32_t((uint64_t(0xc0000000u) * l) >> 32));
        CHECK(o[256 + l] == l - 1);
        CHECK(o[288 + l] == l + 3);
        const uint64_t wide = 0xfffffff0ull - l;
        CHECK(o[320 + l] == uint32_t(wide));
        CHECK(o[352 + l] == uint32_t(wide >> 32));
        CHECK(o[384 + l] == 0xfffffff0u);
        CHECK(o[416 + l] == 6);
    }
}

TEST_CASE("sass forms: popc, clz, flo, brev, bfe, bfi, prmt, i2fp, u2fp", "[functional][sass]") {
    Both r(kWarp + ".buffer o u32 320 zero\n"
                   "    mov r0, %laneid\n    shl r1, 1, r0\n    iadd r1, r1, r0\n"   // (1 << l) + l
                   "    popc r2, r1\n    clz r3, r0\n    flo r4, r0\n    brev r5, r1\n"
                   "    bfe r6, r1, 0x0402\n"                     // 4 bits from bit 2
                   "    bfi r7, r0, 0xffff0000, 0x0508\n"         // l's 5 bits at bit 8
                   "    prmt r8, 0x44332211, 0x88776655, 0x7531\n"
                   "    prmt r9, 0x00008011, 0, 0x0009\n"         // byte 1's sign (0x80) replicated, then byte 0 three times
                   "    isub r10, 0, r0\n    i2fp r10, r10\n    u2fp r11, r10\n"
                   "    st.global [o + r0*4], r2\n    st.global [o + r0*4 + 128], r3\n"
                   "    st.global [o + r0*4 + 256], r4\n    st.global [o + r0*4 + 384], r5\n"
                   "    st.global [o + r0*4 + 512], r6\n    st.global [o + r0*4 + 640], r7\n"
                   "    st.global [o + r0*4 + 768], r8\n    st.global [o + r0*4 + 896], r9\n"
                   "    st.global [o + r0*4 + 1024], r10\n    st.global [o + r0*4 + 1152], r11\n    exit\n");
    const auto o = r.u32("o");
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const uint32_t v = (1u << l) + l;
        CHECK(o[l] == uint32_t(std::popcount(v)));
        CHECK(o[32 + l] == (l ? uint32_t(std::countl_zero(l)) : 32u));
        CHECK(o[64 + l] == (l ? 31 - uint32_t(std::countl_zero(l)) : 0xffffffffu));
        uint32_t rev = 0;
        for (int b = 0; b < 32; ++b) rev |= ((v >> b) & 1u) << (31 - b);
        CHECK(o[96 + l] == rev);
        CHECK(o[128 + l] == ((v >> 2) & 0xf));
        CHECK(o[160 + l] == (0xffff0000u | ((l & 31) << 8)));
        CHECK(o[192 + l] == 0x88664422u);
        CHECK(o[224 + l] == 0x111111ffu);
        const float f = float(-int32_t(l));
        CHECK(o[256 + l] == sem::bits(f));
        CHECK(o[288 + l] == sem::bits(float(sem::bits(f))));
    }
}

TEST_CASE("sass forms: every atomic operation, atom returns the old word, red none", "[functional][sass]") {
    // Lane l applies value l + 1 (cas: compare with 0, store l + 1) to word k of its op, in lane order.
    const char* ops[] = {"add", "add.f32", "min", "max", "min.u32", "max.u32", "and", "or", "xor", "exch"};
    std::string body = "    mov r0, %laneid\n    iadd r1, r0, 1\n    i2f r2, r1\n    mov r9, 77\n";
    for (int k = 0; k < 10; ++k) {
        const std::string v = std::string(ops[k]) == "add.f32" ? "r2" : "r1";
        body += "    atom.global." + std::string(ops[k]) + " r3, [g + " + std::to_string(4 * k) + "], " + v + "\n";
        body += "    st.global [old + r0*4 + " + std::to_string(128 * k) + "], r3\n";
        body += "    atom.shared." + std::string(ops[k]) + " r3, [" + std::to_string(4 * k) + "], " + v + "\n";
        body += "    red.global." + std::string(ops[k] == std::string("exch") ? "add" : ops[k]) + " [rg + " +
                std::to_string(4 * k) + "], " + v + "\n";
        body += "    red.shared." + std::string(ops[k] == std::string("exch") ? "add" : ops[k]) + " [" +
                std::to_string(64 + 4 * k) + "], " + v + "\n";
    }
    body += "    atom.global.cas r9, [g + 40], 0, r1\n    st.global [old + r0*4 + 1280], r9\n"
            "    atom.shared.cas r4, [40], 0, r1\n"
            "    bar\n    ld.shared r5, [r0*4]\n    st.global [sh + r0*4], r5\n    exit\n";
    Both r(kWarp + ".shared 128\n.buffer g u32 11 const 5\n.buffer rg u32 10 const 5\n.buffer old u32 352 zero\n"
                   ".buffer sh u32 32 zero\n" + body);
    // The expected final words, starting from 5 (the shared words from 0).
    auto fold = [](int k, uint32_t start) {
        uint32_t w = start;
        for (uint32_t l = 0; l < 32; ++l) {
            const uint32_t v = l + 1;
            switch (k) {
            case 0: w += v; break;
            case 1: w = sem::bits(sem::f32(w) + float(v)); break;
            case 2: w = uint32_t(std::min(int32_t(w), int32_t(v))); break;
            case 3: w = uint32_t(std::max(int32_t(w), int32_t(v))); break;
            case 4: w = std::min(w, v); break;
            case 5: w = std::max(w, v); break;
            case 6: w &= v; break;
            case 7: w |= v; break;
            case 8: w ^= v; break;
            default: w = v; break;
            }
        }
        return w;
    };
    const auto g = r.u32("g"), rg = r.u32("rg"), old = r.u32("old"), sh = r.u32("sh");
    for (int k = 0; k < 10; ++k) {
        INFO("op " << ops[k]);
        CHECK(g[size_t(k)] == fold(k, 5u));
        CHECK(rg[size_t(k)] == fold(k == 9 ? 0 : k, 5u));
        CHECK(sh[size_t(k)] == fold(k, 0u));
        CHECK(sh[size_t(16 + k)] == fold(k == 9 ? 0 : k, 0u));
        // Lane 0 is first: it sees the initial word.
        CHECK(old[size_t(32 * k)] == 5u);
    }
    // cas: word 10 starts at 5, so no lane's compare with 0 succeeds; every lane gets the old word 5.
    for (uint32_t l = 0; l < 32; ++l) CHECK(old[320 + l] == 5u);
    CHECK(g[10] == 5u);
    CHECK(sh[10] == 1u);   // the shared word 10 started at 0: lane 0 stored 1, the others saw 1
}

TEST_CASE("sass forms: 64-bit global atomics on register pairs, lane by lane", "[functional][sass]") {
    // Word 0: atom.add.u64 of 0xffffffff per lane (the carry into the high word); word 1: atom.add.f64
    // of l + 0.5; word 2: exch.b64 of (l, l + 100); word 3: cas.b64 of (0, 0) -> (l + 1, 7); words 4 and
    // 5: red.add.u64 / red.add.f64 of the same values as words 0 and 1.
    Both r(kWarp + ".buffer g u32 12 zero\n.buffer old u32 256 zero\n"
                   "    mov r0, %laneid\n"
                   "    mov r2, 0xffffffff\n    mov r3, 0\n"
                   "    i2d r4, r0\n    dadd r4, r4, 0.5\n"
                   "    mov r6, r0\n    iadd r7, r0, 100\n"
                   "    mov r8, 0\n    mov r9, 0\n    iadd r10, r0, 1\n    mov r11, 7\n"
                   "    atom.global.add.u64 r12, [g], r2\n    st.global.v2 [old + r0*8], r12\n"
                   "    atom.global.add.f64 r12, [g + 8], r4\n    st.global.v2 [old + r0*8 + 256], r12\n"
                   "    atom.global.exch.b64 r12, [g + 16], r6\n    st.global.v2 [old + r0*8 + 512], r12\n"
                   "    atom.global.cas.b64 r12, [g + 24], r8, r10\n    st.global.v2 [old + r0*8 + 768], r12\n"
                   "    red.global.add.u64 [g + 32], r2\n    red.global.add.f64 [g + 40], r4\n    exit\n");
    const auto g = r.u32("g"), old = r.u32("old");
    auto word = [](const std::vector<uint32_t>& v, size_t i) { return sem::pair(v[2 * i], v[2 * i + 1]); };
    CHECK(word(g, 0) == 32ull * 0xffffffffull);
    CHECK(sem::f64(word(g, 1)) == 512.0);          // sum of l + 0.5 over 32 lanes
    CHECK(word(g, 2) == sem::pair(31, 131));        // the last lane's pair
    CHECK(word(g, 3) == sem::pair(1, 7));           // lane 0's swap; the others compare against (1, 7)
    CHECK(word(g, 4) == 32ull * 0xffffffffull);
    CHECK(sem::f64(word(g, 5)) == 512.0);
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        CHECK(word(old, l) == uint64_t(l) * 0xffffffffull);
        CHECK(sem::f64(word(old, 32 + l)) == double(l) * double(l) / 2.0);   // sum of k + 0.5 for k < l
        CHECK(word(old, 64 + l) == (l ? sem::pair(l - 1, l + 99) : 0ull));
        CHECK(word(old, 96 + l) == (l ? sem::pair(1, 7) : 0ull));
    }
}

TEST_CASE("sass forms: red.shared.popc.inc (ATOMS.POPC.INC) adds one per lane on its word", "[functional][sass]") {
    Both r(kWarp + ".shared 64\n.buffer o u32 4 zero\n"
                   "    mov r0, %laneid\n    and r1, r0, 3\n    red.shared.popc.inc [r1*4]\n"
                   "    @p0 red.shared.popc.inc [r1*4]\n"   // p0 false: nothing
                   "    bar\n    isetp.lt p1, r0, 4\n    @p1 ld.shared r2, [r0*4]\n    @p1 st.global [o + r0*4], r2\n    exit\n");
    for (uint32_t v : r.u32("o")) CHECK(v == 8u);   // 32 lanes over 4 words
}

TEST_CASE("sass forms: red has no destination, atom writes its register", "[functional][sass]") {
    const isa::Program p = simt::test::assemble(kWarp + ".buffer g u32 1 zero\n    red.global.add [g], 1\n"
                                                  "    atom.global.add r1, [g], 1\n    exit\n");
    CHECK(p.code[0].regs.ndst == 0);
    CHECK(p.code[1].regs.ndst == 1);
    CHECK(isa::disassemble(p, 0) == "red.global.add [g], 1");
}

TEST_CASE("sass forms: 64-bit loads and stores, fp64 immediates, dsetp, dmin, dmax", "[functional][sass]") {
    Both r(kWarp + ".shared 256\n.local 8\n.buffer a f64 32 iota -4 0.5\n.buffer o f64 128 zero\n"
                   ".buffer w u32 64 iota 0 1\n.buffer ow u32 64 zero\n.buffer pr u32 32 zero\n"
                   "    mov r0, %laneid\n"
                   "    ld.global.v2 r2, [a + r0*8]\n"             // x = -4 + l / 2
                   "    dadd r4, r2, 0.25\n"
                   "    dfma r6, r2, -2.0, 1e300\n"
                   "    dmin r8, r2, 1.5\n    dmax r10, r2, 1.5\n"
                   "    dsetp.gt p0, r2, 0.0\n    sel r12, 1, 0, p0\n    st.global [pr + r0*4], r12\n"
                   "    st.shared.v2 [r0*8], r4\n    ld.shared.v2 r14, [r0*8]\n"
                   "    st.local.v2 [0], r14\n    ld.local.v2 r16, [0]\n"
                   "    st.global.v2 [o + r0*8], r16\n    st.global.v2 [o + r0*8 + 256], r6\n"
                   "    st.global.v2 [o + r0*8 + 512], r8\n    st.global.v2 [o + r0*8 + 768], r10\n"
                   "    ld.global.v2 r18, [w + r0*8]\n    st.global.v2 [ow + r0*8], r18\n    exit\n");
    const auto o = r.f64("o");
    const auto w = r.u32("ow"), pr = r.u32("pr");
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const double x = -4 + 0.5 * l;
        CHECK(o[l] == x + 0.25);
        CHECK(o[32 + l] == std::fma(x, -2.0, 1e300));
        CHECK(o[64 + l] == std::min(x, 1.5));
        CHECK(o[96 + l] == std::max(x, 1.5));
        CHECK(pr[l] == (x > 0 ? 1u : 0u));
        CHECK(w[2 * l] == 2 * l);
        CHECK(w[2 * l + 1] == 2 * l + 1);
    }
    CHECK(sem::dminmax(sem::bits(-0.0), sem::bits(0.0), false) == sem::bits(-0.0));
    CHECK(sem::dminmax(sem::bits(NAN), sem::bits(2.0), true) == sem::bits(2.0));
    CHECK(isa::disassemble(r.program, 2) == "dadd r4, r2, 0.25");
}

namespace {

// a OP b (a * b + c) in the host's rounding mode `mode`: the oracle of the directed forms.
float host_rounded(int mode, char op, float a, float b, float c = 0) {
    volatile float x = a, y = b, z = c;
    std::fesetround(mode);
    volatile float r = op == '+' ? x + y : op == '*' ? x * y : std::fma(float(x), float(y), float(z));
    std::fesetround(FE_TONEAREST);
    return r;
}

float host_convert(int mode, double v) {
    volatile double x = v;
    std::fesetround(mode);
    volatile float r = float(x);
    std::fesetround(FE_TONEAREST);
    return r;
}

}  // namespace

TEST_CASE("sass forms: directed rounding of fadd, fmul, ffma, i2f, u2f matches the host's rounding modes", "[functional][sass]") {
    // lane l: a = (1/3 + l ulps) * (l odd ? -1 : 1), b = 3, c = 2^-30: products and sums that round.
    Both r(kWarp + ".buffer o u32 512 zero\n"
                   "    mov r0, %laneid\n    iadd r1, r0, 0x3eaaaaab\n    and r2, r0, 1\n    shl r2, r2, 31\n    or r1, r1, r2\n"
                   "    fmul.rz r3, r1, 3.0\n    fmul.rm r4, r1, 3.0\n    fmul.rp r5, r1, 3.0\n"
                   "    fadd.rz r6, r1, 0x30800000\n    fadd.rm r7, r1, 0x30800000\n    fadd.rp r8, r1, 0x30800000\n"
                   "    ffma.rz r9, r1, 3.0, 0x30800000\n    ffma.rm r10, r1, 3.0, -1.0\n    ffma.rp r11, r1, 3.0, 0x30800000\n"
                   "    imad r12, r0, 0x1000001, 0x7ffffff0\n    u2f.rp r13, r12\n    u2f.rz r14, r12\n    i2f.rm r15, r12\n"
                   "    i2f.rp r16, r12\n    u2f.rm r17, r12\n    i2f.rz r18, r12\n"
                   "    imul r19, r0, 16\n"
                   "    st.global [o + r19*4], r3\n    st.global [o + r19*4 + 4], r4\n    st.global [o + r19*4 + 8], r5\n"
                   "    st.global [o + r19*4 + 12], r6\n    st.global [o + r19*4 + 16], r7\n    st.global [o + r19*4 + 20], r8\n"
                   "    st.global [o + r19*4 + 24], r9\n    st.global [o + r19*4 + 28], r10\n    st.global [o + r19*4 + 32], r11\n"
                   "    st.global [o + r19*4 + 36], r13\n    st.global [o + r19*4 + 40], r14\n    st.global [o + r19*4 + 44], r15\n"
                   "    st.global [o + r19*4 + 48], r16\n    st.global [o + r19*4 + 52], r17\n    st.global [o + r19*4 + 56], r18\n    exit\n");
    const auto o = r.u32("o");
    const float c = std::bit_cast<float>(0x30800000u);
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const float a = std::bit_cast<float>((0x3eaaaaabu + l) | (l & 1) << 31);
        const uint32_t* v = &o[16 * l];
        CHECK(v[0] == std::bit_cast<uint32_t>(host_rounded(FE_TOWARDZERO, '*', a, 3.0f)));
        CHECK(v[1] == std::bit_cast<uint32_t>(host_rounded(FE_DOWNWARD, '*', a, 3.0f)));
        CHECK(v[2] == std::bit_cast<uint32_t>(host_rounded(FE_UPWARD, '*', a, 3.0f)));
        CHECK(v[3] == std::bit_cast<uint32_t>(host_rounded(FE_TOWARDZERO, '+', a, c)));
        CHECK(v[4] == std::bit_cast<uint32_t>(host_rounded(FE_DOWNWARD, '+', a, c)));
        CHECK(v[5] == std::bit_cast<uint32_t>(host_rounded(FE_UPWARD, '+', a, c)));
        CHECK(v[6] == std::bit_cast<uint32_t>(host_rounded(FE_TOWARDZERO, 'f', a, 3.0f, c)));
        CHECK(v[7] == std::bit_cast<uint32_t>(host_rounded(FE_DOWNWARD, 'f', a, 3.0f, -1.0f)));
        CHECK(v[8] == std::bit_cast<uint32_t>(host_rounded(FE_UPWARD, 'f', a, 3.0f, c)));
        const uint32_t n = l * 0x1000001u + 0x7ffffff0u;
        CHECK(v[9] == std::bit_cast<uint32_t>(host_convert(FE_UPWARD, double(n))));
        CHECK(v[10] == std::bit_cast<uint32_t>(host_convert(FE_TOWARDZERO, double(n))));
        CHECK(v[11] == std::bit_cast<uint32_t>(host_convert(FE_DOWNWARD, double(int32_t(n)))));
        CHECK(v[12] == std::bit_cast<uint32_t>(host_convert(FE_UPWARD, double(int32_t(n)))));
        CHECK(v[13] == std::bit_cast<uint32_t>(host_convert(FE_DOWNWARD, double(n))));
        CHECK(v[14] == std::bit_cast<uint32_t>(host_convert(FE_TOWARDZERO, double(int32_t(n)))));
    }
    // hand-checked: 0x3eaaaaab * 3 = 1 + 2^-25 exactly
    CHECK(o[0] == 0x3f800000u);
    CHECK(o[2] == 0x3f800001u);
    CHECK(o[16 + 1] == 0xbf800001u);   // lane 1: -(0x3eaaaaac) * 3 toward -inf
    CHECK(o[16 + 10] == 0x4f00ffffu);   // lane 1: 0x80fffff1 toward zero is 0x80ffff00 (nearest: 0x81000000)
    // overflow: toward zero stays finite, toward +inf does not
    CHECK(sem::bits(sem::fmul_dir(3e38f, 3e38f, sem::Round::Zero)) == 0x7f7fffffu);
    CHECK(std::isinf(sem::fmul_dir(3e38f, 3e38f, sem::Round::Up)));
    CHECK(sem::bits(sem::fadd_dir(NAN, 1.0f, sem::Round::Zero)) == sem::kCanonicalNaN);
    // MUFU.SIN/COS take turns: sin.turns / cos.turns are sin / cos of the fp32 product a * 2 pi
    CHECK(sem::value(isa::Op::SinTurns, sem::bits(0.125f), 0, 0) == sem::bits(sem::sin(0.125f * 6.2831855f)));
    CHECK(sem::value(isa::Op::CosTurns, sem::bits(-0.3f), 0, 0) == sem::bits(sem::cos(-0.3f * 6.2831855f)));
}

TEST_CASE("sass forms: 64-bit conversions and uniform fp64 pairs", "[functional][sass]") {
    Both r(kWarp + ".buffer o u32 640 zero\n"
                   "    mov r0, %laneid\n    isub r1, r0, 16\n    imad r2, r1, 0x7000001, 0\n"
                   "    i2d r4, r1\n    u2d r6, r2\n    i2f r3, r2\n    fmul r3, r3, 1e12\n    f2u.u64 r8, r3\n    f2i.s64 r10, r3\n"
                   "    mov r12, r2\n    sar r13, r2, 31\n    i2d.s64 r14, r12\n    i2f.s64 r16, r12\n    u2f.u64 r17, r12\n"
                   "    u2f.u64.rp r18, r12\n    u2d.u64 r20, r12\n"
                   "    umov ur4, 0\n    umov ur5, 0x40000000\n    dfma r22, r4, ur4, r4\n"
                   "    imul r24, r0, 20\n"
                   "    st.global.v2 [o + r24*4], r4\n    st.global.v2 [o + r24*4 + 8], r6\n    st.global.v2 [o + r24*4 + 16], r8\n"
                   "    st.global.v2 [o + r24*4 + 24], r10\n    st.global.v2 [o + r24*4 + 32], r14\n    st.global [o + r24*4 + 40], r16\n"
                   "    st.global [o + r24*4 + 44], r17\n    st.global [o + r24*4 + 48], r18\n    st.global.v2 [o + r24*4 + 56], r22\n"
                   "    st.global.v2 [o + r24*4 + 64], r20\n    exit\n");
    const auto o = r.u32("o");
    auto u64 = [&](size_t i) { return uint64_t(o[i]) | uint64_t(o[i + 1]) << 32; };
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const int32_t i = int32_t(l) - 16;
        const uint32_t u = uint32_t(i) * 0x7000001u;
        const size_t b = 20 * l;
        CHECK(std::bit_cast<double>(u64(b)) == double(i));
        CHECK(std::bit_cast<double>(u64(b + 2)) == double(u));
        const float x = float(int32_t(u)) * 1e12f;
        CHECK(u64(b + 4) == sem::f2ul(x));
        CHECK(u64(b + 6) == sem::f2l(x));
        const int64_t s = int64_t(int32_t(u));
        CHECK(std::bit_cast<double>(u64(b + 8)) == double(s));
        CHECK(std::bit_cast<float>(o[b + 10]) == float(s));
        CHECK(std::bit_cast<float>(o[b + 11]) == float(uint64_t(s)));
        const float up = host_convert(FE_UPWARD, double(uint64_t(s)));   // double(u64) rounds, but not across a float
        CHECK(o[b + 12] == std::bit_cast<uint32_t>(up));
        CHECK(std::bit_cast<double>(u64(b + 14)) == 3.0 * i);
        CHECK(std::bit_cast<double>(u64(b + 16)) == double(uint64_t(s)));
    }
    CHECK(sem::f2ul(-1.0f) == 0);
    CHECK(sem::f2ul(1e30f) == ~0ull);
    CHECK(sem::f2l(-1e30f) == 0x8000000000000000ull);
    CHECK(sem::ul2f_rp((1ull << 53) + 1) == 0x5a000001u);
    CHECK(sem::ul2f_rp(~0ull) == 0x5f800000u);   // rounds to 2^64 either way
    for (uint32_t pc = 0; pc < r.program.code.size(); ++pc)
        if (r.program.code[pc].op == isa::Op::Dfma) CHECK(isa::disassemble(r.program, pc) == "dfma r22, r4, ur4, r4");
}

TEST_CASE("sass forms: fchk flags the divisions the fast path may round wrong", "[functional][sass]") {
    // lane l divides a[l] by b[l]; p0 = fchk
    Both r(kWarp + ".buffer a u32 32 zero\n.buffer b u32 32 zero\n.buffer o u32 32 zero\n"
                   "    mov r0, %laneid\n    ld.global r1, [a + r0*4]\n    ld.global r2, [b + r0*4]\n"
                   "    fchk p0, r1, r2\n    sel r3, 1, 0, p0\n    st.global [o + r0*4], r3\n    exit\n");
    const auto o = r.u32("o");
    for (uint32_t v : o) CHECK(v == 1u);   // 0 / 0: b is zero
    auto f = [](float a, float b) { return sem::fchk(sem::bits(a), sem::bits(b)); };
    CHECK_FALSE(f(1.0f, 3.0f));
    CHECK_FALSE(f(0.0f, 3.0f));
    CHECK_FALSE(f(-7.5f, 1e-20f));
    CHECK(f(1.0f, 0.0f));
    CHECK(f(1.0f, 1e-40f));          // b subnormal
    CHECK(f(INFINITY, 2.0f));
    CHECK(f(NAN, 2.0f));
    CHECK(f(1.0f, INFINITY));
    CHECK(f(1e30f, 1e-30f));         // the exponents differ by 199
    CHECK(f(1e-40f, 1.0f));          // a subnormal
}

TEST_CASE("sass forms: %clock counts the warp's instructions in a functional run, %smid is 0", "[functional][sass]") {
    Both r(kWarp + ".buffer o u32 4 zero\n"
                   "    cs2r r2, %clock64\n"          // 0
                   "    mov r1, %clock\n"             // 1
                   "    iadd r1, r1, 0\n    iadd r1, r1, 0\n"
                   "    cs2r r4, %clock64\n"          // 4
                   "    mov r6, %smid\n"
                   "    st.global [o], r2\n    st.global [o + 4], r3\n    st.global [o + 8], r4\n"
                   "    st.global [o + 12], r6\n    exit\n");
    CHECK(r.u32("o") == std::vector<uint32_t>{0, 0, 4, 0});
}

// ---------------------------------------------------------------- errors

TEST_CASE("sass forms: assembler errors name file:line:col", "[assembler][errors][sass]") {
    const std::string h = ".grid 1\n.block 32\n";
    expect_error(h + "iadd r1, -r2, 1\n", 3, 10, "source modifiers (-x, |x|, -|x|) apply to fp32 operands only");
    expect_error(h + "fadd r1, |r2, 1.0\n", 3, 13, "expected '|' closing the absolute value");
    expect_error(h + "fadd r1, -%tid.x, 1.0\n", 3, 10, "a %special value takes no source modifier");
    expect_error(h + "lop3 r1, r2, r3, r4, 256\n", 3, 22, "expected a truth table: an integer 0..255");
    expect_error(h + "lop3 r1, r2, r3, r4, r5\n", 3, 22, "expected a truth table");
    expect_error(h + "lea r1, r2, r3, 32\n", 3, 17, "expected a shift: an integer 0..31");
    expect_error(h + "mov r1, %clock64\n", 3, 9, "%clock64 is 64 bits: read it with cs2r");
    expect_error(h + "dadd r2, r3, 1.0\n", 3, 10, "fp64 register pair must start at an even register");
    expect_error(h + "dadd r2, %tid.x, 1.0\n", 3, 10, "expected an fp64 value");
    expect_error(h + ".buffer b u32 64 zero\nld.global.v2 r1, [b]\n", 4, 14, "fp64 register pair must start at an even register");
    expect_error(h + ".buffer b u32 64 zero\nred.global.add r1, [b], 1\n", 4, 16, "expected a memory operand");
    expect_error(h + ".buffer b u32 64 zero\natom.global.cas r1, [b], 1\n", 4, 27, "takes 4 operands");
    expect_error(h + ".buffer b u32 64 zero\natom.global.add.u64 r1, [b], r2\n", 4, 21, "an even register");
    expect_error(h + ".shared 16\nred.shared.popc.inc [0], 1\n", 4, 26, "takes 1 operand (M); found more");
    expect_error(h + ".buffer b u32 64 zero\nred.global.add.f64 [b], 1.0\n", 4, 25, "an even register");
    expect_error(h + "dsetp p0, r2, r4\n", 3, 1, "dsetp needs a comparison");
    expect_error(h + "mov r1, %clok\n", 3, 9, "did you mean '%clock'?");
}

TEST_CASE("sass forms: every trace-visible atomic row has an operation", "[functional][sass]") {
    for (const isa::OpInfo& oi : isa::op_table()) {
        INFO(oi.mnemonic);
        const bool atomic = oi.access == isa::Access::Atomic;
        CHECK((sem::atom_op(oi.op) != sem::AtomOp::None) == atomic);
        const bool dst = oi.signature[0] == 'R' || oi.signature[0] == 'D';   // (D: a 64-bit atomic's pair)
        if (atomic) CHECK(dst == oi.mnemonic.starts_with("atom."));
        if (atomic) CHECK((oi.signature[0] == 'D' || oi.signature.starts_with("M,E")) == (oi.bytes == 8));
    }
}

// ---------------------------------------------------------------- timing

namespace {

using namespace simt::timing;
using namespace simt::timing::test;

std::string one_warp(const std::string& body) { return ".kernel t\n.grid 1\n.block 32\n.regs 32\n" + body + "exit\n"; }

// The cycle the instruction at pc issued in warp 0.
uint64_t issued_at(const std::string& body, uint32_t pc, const GpuConfig& c = small_config()) {
    Recorder rec;
    run(one_warp(body), c, {true, &rec, {}});
    auto at = rec.issue_cycles(0, pc);
    REQUIRE(at.size() == 1);
    return at[0];
}

}  // namespace

TEST_CASE("sass forms timing: source modifiers are free", "[timing][sass]") {
    GpuConfig c = small_config();
    auto plain = run(one_warp(repeat("ffma r0, r1, r2, r0", 20)), c);
    auto mods = run(one_warp(repeat("ffma r0, -|r1|, -r2, |r0|", 20)), c);
    CHECK(mods.stats.cycles == plain.stats.cycles);
    CHECK(mods.stats.cycles == 4 * 19 + 2);
    CHECK(mods.stats.warp_instructions == 21);
}

TEST_CASE("sass forms timing: each new opcode's pipe and latency", "[timing][sass]") {
    // The dependent instruction issues exactly `latency` cycles after its producer at 0.
    struct Case { const char* producer; isa::Pipe pipe; uint64_t latency; };
    const Case cases[] = {
        {"iadd3 r1, r2, r3, r4", isa::Pipe::Alu, 4},      {"lop3 r1, r2, r3, r4, 0x96", isa::Pipe::Alu, 4},
        {"lea r1, r2, r3, 2", isa::Pipe::Alu, 4},         {"lea.hi r1, r2, r3, r4, 2", isa::Pipe::Alu, 4},
        {"bfe r1, r2, 0x0804", isa::Pipe::Alu, 4},        {"bfi r1, r2, r3, 0x0804", isa::Pipe::Alu, 4},
        {"prmt r1, r2, r3, 0x3210", isa::Pipe::Alu, 4},   {"i2fp r1, r2", isa::Pipe::Alu, 4},
        {"u2fp r1, r2", isa::Pipe::Alu, 4},               {"imul.hi r1, r2, r3", isa::Pipe::Imad, 4},
        {"imad.hi.u32 r1, r2, r3, r4", isa::Pipe::Imad, 4}, {"imad.wide r0, r2, r3, r4", isa::Pipe::Imad, 4},
        {"popc r1, r2", isa::Pipe::Sfu, 20},              {"clz r1, r2", isa::Pipe::Sfu, 20},
        {"flo r1, r2", isa::Pipe::Sfu, 20},               {"brev r1, r2", isa::Pipe::Sfu, 20},
        {"i2f r1, r2", isa::Pipe::Sfu, 20},               {"dmin r0, r2, 1.0", isa::Pipe::Fp64, 8},
        {"dmax r0, r2, r4", isa::Pipe::Fp64, 8},          {"dadd r0, r2, 2.5", isa::Pipe::Fp64, 8},
        {"cs2r r0, %clock64", isa::Pipe::Alu, 4},         {"mov r1, %clock", isa::Pipe::Alu, 4},
    };
    for (const Case& k : cases) {
        INFO(k.producer);
        const isa::Program p = isa::assemble_text(one_warp(std::string(k.producer) + "\n"), "t.isa");
        CHECK(isa::info(p.code[0].op).pipe == k.pipe);
        const bool pair = p.code[0].regs.ndst == 2;   // (pairs are written to r0:r1, the others to r1)
        const std::string body = std::string(k.producer) + "\n" + (pair ? "iadd r8, r0, 1\n" : "iadd r8, r1, 1\n");
        CHECK(issued_at(body, 1) == k.latency);
    }
    // dsetp writes a predicate after the fp64 latency.
    CHECK(issued_at("dsetp.lt p0, r2, 1.0\n@p0 iadd r8, r1, 1\n", 1) == 8);
}

TEST_CASE("sass forms timing: red does not wait, atom waits like a load", "[timing][sass]") {
    GpuConfig c = small_config();
    const std::string decl = ".buffer n u32 1 zero\n.buffer m f32 64 zero\n";
    // atom at 0: its result after the L2 (500) and the atomic unit (+20), as atom.global.add.
    CHECK(issued_at(decl + "atom.global.max r1, [n], 1\niadd r2, r1, 1\n", 1) == 500 + 20);
    CHECK(issued_at(decl + "atom.global.add r1, [n], 1\niadd r2, r1, 1\n", 1) == 500 + 20);
    // red at 0: nothing waits on it; the next instruction issues at 1 (the exit drains until it completes).
    CHECK(issued_at(decl + "red.global.add [n], 1\niadd r2, r1, 1\n", 1) == 1);
    Recorder rec;
    auto r = run(one_warp(decl + "red.global.add.f32 [m], 1.0\n"), c, {true, &rec, {}});
    CHECK(r.stats.cycles == 500 + 20);   // the exit (at 1) drains until the red completes
    CHECK(r.stats.memory.global_atomic.requests == 1);
    // A shared red has no destination either; a shared atom waits its short scoreboard.
    CHECK(issued_at(".shared 64\nred.shared.xor [0], 1\niadd r2, r1, 1\n", 1) == 1);
    CHECK(issued_at(".shared 64\natom.shared.cas r1, [0], 0, 1\niadd r2, r1, 1\n", 1) ==
          issued_at(".shared 64\natom.shared.add r1, [0], 1\niadd r2, r1, 1\n", 1));
}

TEST_CASE("sass forms timing: 64-bit loads fill a pair, coalesced as 8 bytes a lane", "[timing][sass]") {
    GpuConfig c = small_config();
    auto r = run(one_warp(".buffer a f64 64 zero\nmov r0, %laneid\nld.global.v2 r2, [a + r0*8]\ndadd r4, r2, r2\n"), c);
    CHECK(r.stats.memory.global_load.requests == 1);
    CHECK(r.stats.memory.global_load.sectors == 8);   // 32 lanes x 8 bytes = 256 bytes = 8 sectors
    CHECK(issued_at(".buffer a f64 64 zero\nmov r0, %laneid\nld.global.v2 r2, [a + r0*8]\ndadd r4, r2, r2\n", 3) ==
          issued_at(".buffer a f64 64 zero\nmov r0, %laneid\nld.global r2, [a + r0*4]\nfadd r4, r2, r2\n", 3));
}

TEST_CASE("sass forms timing: %clock64 reads the SM cycle at issue, %smid the SM", "[timing][sass]") {
    GpuConfig c = small_config();
    c.sm.count = 2;
    const isa::Program p = isa::assemble_text(
        ".kernel t\n.grid 2\n.block 32\n.regs 16\n.buffer o u32 8 zero\n"
        "    cs2r r2, %clock64\n"                               // issues at 0
        "    ffma r1, r1, r1, r1\n    ffma r1, r1, r1, r1\n"     // 1, 5
        "    cs2r r4, %clock64\n"                               // 6
        "    mov r6, %clock\n"                                  // 8: the ALU (16 lanes) takes 2 cycles a warp
        "    isub r7, r4, r2\n    mov r8, %smid\n    shl r9, %ctaid.x, 4\n"
        "    st.global [o + r9], r7\n    st.global [o + r9 + 4], r6\n    st.global [o + r9 + 8], r8\n"
        "    st.global [o + r9 + 12], r5\n    exit\n",
        "t.isa");
    func::GlobalMemory m(p, ".");
    Simulator sim(c, p, m, {});
    sim.run();
    const auto o = simt::test::words(p, m, "o");
    CHECK(o[0] == 6);   // cycle 6 - cycle 0
    CHECK(o[1] == 8);
    CHECK(o[3] == 0);   // the high word of a small clock
    CHECK(o[4] == 6);
    CHECK(((o[2] == 0 && o[6] == 1) || (o[2] == 1 && o[6] == 0)));   // one block per SM
}

// ---------------------------------------------------------------- uniform datapath

TEST_CASE("sass forms: uniform registers hold one value per warp", "[functional][sass]") {
    Both r(".kernel t\n.grid 3\n.block 64\n.buffer args u32 4 iota 10 5\n.buffer o u32 576 zero\n.uniform n u32 7\n"
           "    umov ur0, %ctaid.x\n"               // S2UR
           "    uldc ur1, [args + 8]\n"              // 20
           "    uiadd3 ur2, ur1, $n, 3\n"            // 30
           "    uimad ur3, ur0, 64, ur2\n"           // 64 block + 30
           "    ulop3 ur4, ur3, 0xff, 0x100, 0xe8\n" // majority(a, b, c)
           "    ushl ur5, ur0, 2\n"
           "    mov r0, %tid.x\n    imad r1, %ctaid.x, 64, r0\n"
           "    iadd r2, r0, ur3\n"                  // a vector instruction reading a uniform register
           "    st.global [o + r1*4], r2\n    st.global [o + r1*4 + 768], ur4\n"
           "    iadd r3, ur5, 0\n    st.global [o + r1*4 + 1536], r3\n    exit\n");
    const auto o = r.u32("o");
    for (uint32_t b = 0; b < 3; ++b) {
        const uint32_t u3 = 64 * b + 30;
        const uint32_t maj = (u3 & 0xff) | (u3 & 0x100) | (0xff & 0x100);
        for (uint32_t t = 0; t < 64; t += 7) {
            INFO("block " << b << " thread " << t);
            CHECK(o[64 * b + t] == t + u3);
            CHECK(o[192 + 64 * b + t] == maj);
            CHECK(o[384 + 64 * b + t] == 4 * b);
        }
    }
    CHECK(isa::disassemble(r.program, 2) == "uiadd3 ur2, ur1, $n, 3");
    CHECK(isa::disassemble(r.program, 4) == "ulop3 ur4, ur3, 255, 256, 0xe8");
}

TEST_CASE("sass forms: uniform assembler errors", "[assembler][errors][sass]") {
    const std::string h = ".grid 1\n.block 32\n.buffer b u32 8 zero\n";
    expect_error(h + "uiadd3 ur1, r2, 1, 0\n", 4, 13, "expected a uniform value");
    expect_error(h + "umov ur1, %tid.x\n", 4, 11, "which differs between lanes");
    expect_error(h + "umov r1, 5\n", 4, 6, "expected a destination uniform register");
    expect_error(h + "umov ur63, 5\n", 4, 6, "uniform register 'ur63' out of range; expected ur0..ur62");
    expect_error(h + "uldc ur1, [b + r2*4]\n", 4, 11, "uldc reads a uniform address: [buffer + offset], no register");
    expect_error(h + "ur3: exit\n", 4, 1, "'ur3' cannot be a label name");
}

TEST_CASE("sass forms timing: the uniform pipe, and uniform operands read no register bank", "[timing][sass]") {
    using namespace simt::timing;
    const isa::Program p = isa::assemble_text(one_warp("uiadd3 ur1, ur2, 1, 0\nffma r1, r2, ur1, r3\nffma r1, r2, r4, r3\n"), "t.isa");
    CHECK(isa::info(p.code[0].op).pipe == isa::Pipe::Uniform);
    const auto code = decode_program(p);
    CHECK(code[1].nread == 2);   // r2, r3: ur1 reads no vector bank
    CHECK(code[2].nread == 3);
    CHECK(code[1].ncheck == 4);  // r2, ur1, r3 and the destination: the scoreboard orders ur1 like any register
    // uiadd3 at 0, its reader at the uniform pipe's latency (small_config: 2).
    CHECK(issued_at("uiadd3 ur1, ur2, 1, 0\nffma r1, r2, ur1, r3\n", 1) == 2);
    CHECK(issued_at("umov ur1, 7\nuiadd3 ur2, ur1, 1, 0\n", 1) == 2);
    // S2UR (umov of a special): the special register's read, pipes.s2r_latency.
    CHECK(issued_at("umov ur1, %ctaid.x\nuiadd3 ur2, ur1, 1, 0\n", 1) == small_config().pipes.s2r_latency);
    // uldc costs what a one-address ld.const costs (the constant cache: 10 on small_config).
    const std::string decl = ".buffer b u32 8 zero\n";
    CHECK(issued_at(decl + "uldc ur1, [b + 4]\niadd r2, ur1, 1\n", 1) ==
          issued_at(decl + "ld.const r1, [b + 4]\niadd r2, r1, 1\n", 1));
    Recorder rec;
    auto r = run(one_warp("umov ur1, 1\numov ur2, 2\numov ur3, 3\n"), small_config(), {true, &rec, {}});
    CHECK(r.stats.pipes[int(isa::Pipe::Uniform)].issued == 3);
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{2});   // one per cycle
}

// ---------------------------------------------------------------- nanosleep

TEST_CASE("sass forms timing: nanosleep holds the warp, sleeping, for its duration at the clock", "[timing][sass]") {
    GpuConfig c = small_config();   // 1000 MHz: a nanosecond is a cycle
    Recorder rec;
    auto r = run(one_warp("mov r1, %laneid\nnanosleep 100\niadd r2, r1, 1\n"), c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 1) == std::vector<uint64_t>{1});     // (it reads no register)
    CHECK(rec.issue_cycles(0, 2) == std::vector<uint64_t>{101});
    CHECK(r.stats.stall_cycles[int(StallReason::Sleeping)] == 99);
    // The largest duration of the executing lanes; at 1500 MHz, 10 ns is 15 cycles.
    c.clock_mhz = 1500;
    Recorder lanes;
    run(one_warp("mov r1, %laneid\nnanosleep r1\niadd r2, r1, 1\n"), c, {true, &lanes, {}});
    CHECK(lanes.issue_cycles(0, 2) == std::vector<uint64_t>{4 + 47});   // 31 ns = 46.5 cycles, rounded up
    // Functionally it does nothing.
    Both f(kWarp + ".buffer o u32 32 zero\n    mov r0, %laneid\n    nanosleep 1000\n    st.global [o + r0*4], r0\n    exit\n");
    CHECK(f.u32("o")[31] == 31);
}

// ---------------------------------------------------------------- traces/clock_loop.isa

TEST_CASE("sass forms: clock_loop times its own loop with %clock64", "[timing][sass]") {
    const std::string dir = std::string(SIMT_SOURCE_DIR) + "/traces";
    const isa::Program p = isa::assemble_file(dir + "/clock_loop.isa");
    // The hash each thread folds in: 64 times x = (x ^ id ^ salt) * 16777619, from x = id.
    uint32_t want = 0;
    for (uint32_t id = 0; id < 1024; ++id) {
        uint32_t x = id;
        for (int i = 0; i < 64; ++i) x = (x ^ id ^ 0x9e3779b9u) * 16777619u;
        want ^= x;
    }
    SECTION("functional: %clock64 counts the warp's instructions, 5 an iteration") {
        GlobalMemory m(p, dir);
        run_functional(p, m);
        CHECK(simt::test::words(p, m, "hash")[0] == want);
        CHECK(simt::test::words(p, m, "cycles") == std::vector<uint32_t>(32, 5 * 64 + 1));
    }
    SECTION("timed: each warp's cycles are the issue cycles of its two cs2r apart") {
        const GpuConfig c = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/h200.yaml");
        GlobalMemory m(p, dir);
        Recorder rec;
        Simulator sim(c, p, m, {true, &rec, {}});
        sim.run();
        CHECK(simt::test::words(p, m, "hash")[0] == want);
        const auto cycles = simt::test::words(p, m, "cycles");
        const uint32_t before = p.labels.at("loop") - 1, after = uint32_t(p.labels.at("loop") + 5);
        REQUIRE(p.code[before].op == isa::Op::Cs2r);
        REQUIRE(p.code[after].op == isa::Op::Cs2r);
        for (uint64_t w = 0; w < 32; ++w) {
            INFO("warp " << w);
            const auto a = rec.issue_cycles(w, before), b = rec.issue_cycles(w, after);
            REQUIRE(a.size() == 1);
            REQUIRE(b.size() == 1);
            CHECK(cycles[w] == b[0] - a[0]);
            CHECK(cycles[w] == 1976);   // 64 iterations of 30.9 cycles on the H200 config (isetp to branch 13, a taken branch 10)
        }
    }
}
