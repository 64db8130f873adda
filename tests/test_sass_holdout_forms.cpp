// test_sass_holdout_forms.cpp: the SASS forms the held-out kernels (calib/kernels/holdout.cu) brought:
// BRA.DIV and the collective slow path behind it (WARPSYNC.COLLECTIVE, SHFL with an in-range predicate
// and register operands, ENDCOLLECTIVE), PLOP3 of three predicates, .SAT, IMAD.WIDE with a uniform
// pair addend, UIMAD.WIDE. Hand-written kernels of tests/data/sass_holdout_forms.sass run by both
// functional interpreters against hand-computed values; then the compiled ho_softmax and
// ho_matvec_thread of calib/sass/holdout.sm_90.sass against a host reference.
#include "functional_util.hpp"
#include "sim/functional/reference.hpp"
#include "sim/timing/decode.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace {

using simt::test::floats;
using simt::test::words;

// A launch of KERNEL from the dump `file` (a path relative to `dir`), as if the launch file lay in dir.
simt::isa::Program launch(const std::string& kernel, const std::string& body, const std::string& file = "../data/sass_holdout_forms.sass",
                          const std::string& dir = "tests/sass") {
    const std::string text = ".sass \"" + file + "\" " + kernel + "\n" + body;
    return simt::isa::assemble_text(text, dir + "/" + kernel + ".launch.isa", dir);
}

// Runs the program through the SIMT executor and the per-thread reference; both memories.
struct Both {
    simt::isa::Program p;
    simt::func::GlobalMemory simt_mem, ref_mem;
    Both(simt::isa::Program prog, const std::string& dir = "tests/sass")
        : p(std::move(prog)), simt_mem(p, dir), ref_mem(p, dir) {
        simt::func::run_functional(p, simt_mem);
        simt::func::run_reference(p, ref_mem);
    }
    std::vector<uint32_t> out() const {
        const std::vector<uint32_t> o = words(p, simt_mem, "out");
        CHECK(words(p, ref_mem, "out") == o);
        return o;
    }
};

}  // namespace

TEST_CASE("sass holdout: BRA.DIV is taken when a lane of its mask is not active", "[sass]") {
    // bit 0: BRA.DIV ~URZ in converged code; lanes < 16 then (diverged from the others): bit 1 BRA.DIV
    // ~URZ, bit 2 BRA.DIV 0xffff (its lanes all active); lanes >= 16: bit 3 BRA.DIV 0xffff
    SECTION("a full warp, diverged by a branch, and a second warp that does not diverge") {
        const std::vector<uint32_t> o = Both(launch("bradiv", ".grid 1\n.block 64\n.buffer out u32 64 zero\n.param out\n")).out();
        for (uint32_t t = 0; t < 64; ++t) {
            INFO("thread " << t);
            CHECK(o[t] == (t < 16 ? 2u : t < 32 ? 8u : 0u));   // warp 1: every lane >= 16 and converged
        }
    }
    SECTION("a warp of 16 lanes: ~URZ names absent lanes") {
        const std::vector<uint32_t> o = Both(launch("bradiv", ".grid 1\n.block 16\n.buffer out u32 16 zero\n.param out\n")).out();
        for (uint32_t t = 0; t < 16; ++t) CHECK(o[t] == 1u + 2u);
    }
}

TEST_CASE("sass holdout: BRA.DIV's test and branch issue as one instruction", "[sass][timing]") {
    const simt::isa::Program p = launch("bradiv", ".grid 1\n.block 32\n.buffer out u32 32 zero\n.param out\n");
    const std::vector<simt::timing::DecodedInst> d = simt::timing::decode_program(p);
    const auto first = std::find_if(p.code.begin(), p.code.end(), [](const auto& in) { return in.op == simt::isa::Op::VoteBallot; });
    REQUIRE(first != p.code.end());
    CHECK(d[size_t(first - p.code.begin())].fold == 3);   // vote.ballot, lop3, isetp.ne, bra
}

TEST_CASE("sass holdout: the collective slow path (ho_softmax's warp max) gives the fast path's value", "[sass]") {
    // v = (5 t) & 31 as a float: lanes 0..15 hold a max of 30, the whole warp 31. Out: the slow-path flag,
    // P5 (the slow path's in-range predicate, bit 5), the max.
    SECTION("a full warp takes the fast path") {
        const std::vector<uint32_t> o = Both(launch("warpmax", ".grid 1\n.block 32\n.buffer out u32 128 zero\n.param out\n")).out();
        for (uint32_t t = 0; t < 32; ++t) {
            INFO("lane " << t);
            CHECK(o[4 * t] == 0u);
            CHECK(o[4 * t + 1] == 0u);
            CHECK(std::bit_cast<float>(o[4 * t + 2]) == 31.0f);
        }
    }
    SECTION("a warp of 16 lanes (block 48: warp 1) takes the slow path, the max of its lanes") {
        const std::vector<uint32_t> o = Both(launch("warpmax", ".grid 1\n.block 48\n.buffer out u32 192 zero\n.param out\n")).out();
        for (uint32_t t = 0; t < 48; ++t) {
            INFO("thread " << t);
            CHECK(o[4 * t] == (t < 32 ? 0u : 1u));
            CHECK(o[4 * t + 1] == (t < 32 ? 0u : 0x20u));
            CHECK(std::bit_cast<float>(o[4 * t + 2]) == (t < 32 ? 31.0f : 30.0f));
        }
    }
}

TEST_CASE("sass holdout: SHFL writes PTX's in-range predicate and reads b, c from registers", "[sass]") {
    const std::vector<uint32_t> o = Both(launch("shfl", ".grid 1\n.block 32\n.buffer out u32 384 zero\n.param out\n")).out();
    auto a = [](uint32_t l) { return 3 * l + 100; };
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const uint32_t* v = &o[12 * l];
        const bool down4 = l + 4 <= 31, up3 = l >= 3, seg_down2 = (l & 7) + 2 <= 7;
        CHECK(v[0] == (2u | (down4 ? 4u : 0u) | (up3 ? 8u : 0u) | (seg_down2 ? 32u : 0u)));   // P1, P2, P3, P5
        CHECK(v[1] == a(l ^ 16));                                   // BFLY P1, b = R2 = 16, c = R3 = 0x1f
        CHECK(v[2] == a(down4 ? l + 4 : l));                         // DOWN P2, 4, 0x1f
        CHECK(v[3] == a(up3 ? l - 3 : l));                           // UP P3, 3, RZ
        CHECK(v[4] == a((l & 24) | ((l + 3) & 7)));                  // IDX, width 8 (c = 0x181f)
        CHECK(v[5] == a(seg_down2 ? l + 2 : l));                     // DOWN P5, 2, c = R13 = 0x181f: width 8
        CHECK(v[6] == a(l ^ 1));                                     // BFLY PT, b = 0x21: its low 5 bits
        CHECK(v[7] == a(l >= 1 ? l - 1 : l));                        // UP PT, b = 0x21
        // @P3 SHFL.DOWN P3, R20, ..., 0x1: the guard reads the predicate the shuffle writes
        CHECK(v[8] == (up3 ? a(l <= 30 ? l + 1 : l) : 7u));
        CHECK(v[9] == (up3 && l <= 30 ? 1u : 0u));
    }
}

TEST_CASE("sass holdout: PLOP3 of three predicates, every table entry", "[sass]") {
    // P0, P1, P2 = bits 2, 1, 0 of the lane: entry (lane & 7) of each table; P0 is also the last destination
    const std::vector<uint32_t> o = Both(launch("plop3", ".grid 1\n.block 32\n.buffer out u32 32 zero\n.param out\n")).out();
    auto bit = [](uint32_t lut, uint32_t i) { return (lut >> i) & 1u; };
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const uint32_t i = l & 7;
        CHECK((o[l] & 1u) == bit(0xe0, i));                 // P0 = P0 & (P1 | P2), into a source
        CHECK((o[l] >> 3 & 1u) == bit(0x96, i));            // P3 = P0 ^ P1 ^ P2
        CHECK((o[l] >> 4 & 1u) == (i == 3 ? 1u : 0u));      // P4 = !P0 & P1 & P2
        CHECK((o[l] >> 5 & 1u) == bit(0x1b, i));            // P5 by 0x1b
    }
    CHECK(o[7] == 1u + 8u);     // a b c = 1 1 1: 0xe0 and 0x96 hold, 0x1b does not
    CHECK(o[3] == 16u + 32u);   // a b c = 0 1 1: !a & b & c and 0x1b hold
}

TEST_CASE("sass holdout: FFMA/FADD/FMUL .SAT clamp to [0, 1] and give 0 for NaN", "[sass]") {
    // -2.5 and -RZ are also negated fp immediates: the sign folds into the bits (-0x40200000 as an
    // integer is -1.75)
    const std::vector<uint32_t> o = Both(launch("sat", ".grid 1\n.block 32\n.buffer out u32 256 zero\n.param out 0x7fc00000\n")).out();
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const uint32_t* v = &o[8 * l];
        const float x = float(l), f = std::fmaf(x, 0.25f, -2.5f);
        CHECK(std::bit_cast<float>(v[0]) == std::clamp(f, 0.0f, 1.0f));   // negative, in range, > 1
        CHECK(v[1] == 0u);                                                  // FADD.SAT of NaN: +0
        CHECK(std::bit_cast<float>(v[2]) == std::min(x * 0.0625f, 1.0f));
        CHECK(v[3] == 0u);                                                  // FFMA.SAT of NaN: +0
        CHECK(std::bit_cast<float>(v[4]) == (l == 0 ? 0.5f : 0.0f));
        CHECK(std::bit_cast<float>(v[5]) == f);                             // without .SAT: not clamped
        CHECK(v[6] == (std::bit_cast<uint32_t>(x) ^ 0x80000000u));         // FADD -R1, -RZ: lane 0 gives -0
    }
    CHECK(std::bit_cast<float>(o[8 * 11]) == 0.25f);
    CHECK(std::bit_cast<float>(o[8 * 31 + 5]) == 5.25f);
}

TEST_CASE("sass holdout: IMAD.WIDE with a uniform pair addend, UIMAD.WIDE signed and unsigned", "[sass]") {
    const std::vector<uint32_t> o = Both(launch("wide", ".grid 1\n.block 32\n.buffer out u32 384 zero\n.param out\n")).out();
    const uint64_t add = 0x1fffffff0ull;   // UR7:UR6
    auto pair = [](const uint32_t* v) { return uint64_t(v[1]) << 32 | v[0]; };
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const uint32_t* v = &o[12 * l];
        CHECK(pair(v) == uint64_t(l) * 0x10000001ull + add);                               // IMAD.WIDE.U32 R20, R0, R7, UR6
        CHECK(pair(v + 2) == uint64_t(int64_t(int32_t(l) - 16) * 4) + add);                // IMAD.WIDE R22, R8, 0x4, UR6
        CHECK(pair(v + 4) == uint64_t(int64_t(-3) * int64_t(INT32_MIN)) + add);           // UIMAD.WIDE: both negative
        CHECK(pair(v + 6) == uint64_t(0xfffffffdu) * 0x80000000ull + add);                // UIMAD.WIDE.U32
        CHECK(pair(v + 8) == uint64_t(int64_t(-3) * 4) + add);                            // UIMAD.WIDE UR4, UR4, 0x4, UR6
    }
    CHECK(pair(&o[8]) == 0x1ffffffe4ull);   // -12 + 0x1fffffff0: the low word carries into the high
}

TEST_CASE("sass holdout: the compiled ho_softmax computes a softmax per row", "[sass]") {
    // 3 rows of 300, one block each (the kernel's block reductions assume whole warps): 256 threads (a
    // second pass for 44 columns), 64 (five passes)
    for (const char* block : {"256", "64"}) {
        INFO("block " << block);
        Both b(launch("ho_softmax", std::string(".grid 3\n.block ") + block + "\n.buffer in f32 900 random 11 -4 4\n.buffer out f32 900 zero\n.param in out 300\n",
                      "holdout.sm_90.sass", "calib/sass"),
               "calib/sass");
        const std::vector<float> in = floats(b.p, b.simt_mem, "in"), out = floats(b.p, b.simt_mem, "out");
        for (size_t r = 0; r < 3; ++r) {
            const float* x = &in[r * 300];
            const double m = *std::max_element(x, x + 300);
            double s = 0;
            for (size_t c = 0; c < 300; ++c) s += std::exp(double(x[c]) - m);
            for (size_t c = 0; c < 300; ++c) REQUIRE(out[r * 300 + c] == Approx(std::exp(double(x[c]) - m) / s).epsilon(1e-5));
        }
        CHECK(words(b.p, b.ref_mem, "out") == words(b.p, b.simt_mem, "out"));
    }
}

TEST_CASE("sass holdout: the compiled ho_matvec_thread computes y = A x", "[sass]") {
    // 70 rows of 37 columns: the loop by 4 and the remainder loop (IMAD.WIDE.U32 ..., UR4; UIMAD.WIDE)
    Both b(launch("ho_matvec_thread", ".grid 2\n.block 64\n.buffer A f32 2590 random 13 -1 1\n.buffer x f32 37 random 17 -1 1\n"
                  ".buffer y f32 70 zero\n.param A x y 70 37\n", "holdout.sm_90.sass", "calib/sass"),
           "calib/sass");
    const std::vector<float> A = floats(b.p, b.simt_mem, "A"), x = floats(b.p, b.simt_mem, "x"), y = floats(b.p, b.simt_mem, "y");
    for (size_t r = 0; r < 70; ++r) {
        float s = 0;
        for (size_t c = 0; c < 37; ++c) s = std::fmaf(A[r * 37 + c], x[c], s);
        REQUIRE(y[r] == s);
    }
    CHECK(words(b.p, b.ref_mem, "y") == words(b.p, b.simt_mem, "y"));
}

TEST_CASE("sass holdout: 64-bit global atomics (REDG/ATOMG .64, .F64) on register pairs", "[sass]") {
    // Each of 32 lanes: pair 0 += 0xffffffff (REDG .64), pair 1 likewise (ATOMG, old at word 64 + 2 l),
    // pair 2 exch 0xffffffff, pair 3 cas (0 -> 0xffffffff, old at 128 + 2 l), pair 4 += 1.0 (REDG .F64),
    // pair 5 += 1.0 (ATOMG .F64, old at 192 + 2 l); word 12 += l (a 32-bit ATOMG with its PT result); pair 7
    // += 0xffffffff by an ATOMG .64 whose old value goes to RZ.
    const std::vector<uint32_t> o = Both(launch("atom64", ".grid 1\n.block 32\n.buffer out u32 256 zero\n.param out\n")).out();
    auto pair = [&](size_t w) { return uint64_t(o[w + 1]) << 32 | o[w]; };
    auto f64 = [&](size_t w) { return std::bit_cast<double>(pair(w)); };
    CHECK(pair(0) == 32ull * 0xffffffffull);
    CHECK(pair(2) == 32ull * 0xffffffffull);
    CHECK(pair(4) == 0xffffffffull);
    CHECK(pair(6) == 0xffffffffull);
    CHECK(f64(8) == 32.0);
    CHECK(f64(10) == 32.0);
    CHECK(o[12] == 496u);
    CHECK(pair(14) == 32ull * 0xffffffffull);
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        CHECK(pair(64 + 2 * l) == uint64_t(l) * 0xffffffffull);
        CHECK(pair(128 + 2 * l) == (l ? 0xffffffffull : 0ull));
        CHECK(f64(192 + 2 * l) == double(l));
    }
}

TEST_CASE("sass holdout: a 64-bit atomic is one trace instruction of 8-byte lanes", "[sass][timing]") {
    const simt::isa::Program p = launch("atom64", ".grid 1\n.block 32\n.buffer out u32 256 zero\n.param out\n");
    int n = 0;
    for (const auto& in : p.code) {
        const simt::isa::OpInfo& oi = simt::isa::info(in.op);
        if (oi.access != simt::isa::Access::Atomic) continue;
        n += oi.bytes == 8 ? 1 : 100;
    }
    CHECK(n == 107);   // seven of 8-byte lanes, the 32-bit ATOMG
}
