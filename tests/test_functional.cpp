// Functional layer tests: instruction semantics, SIMT stack behaviour, memory
// images, and the SIMT executor against the per-thread reference on every trace.
#include "functional_util.hpp"
#include "sim/functional/executor.hpp"
#include "sim/functional/reference.hpp"
#include "sim/functional/semantics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

using namespace simt;
using namespace simt::func;
namespace fs = std::filesystem;

namespace {

const std::string kWarp = ".grid 1\n.block 32\n";

std::vector<fs::path> all_traces() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(fs::path(SIMT_SOURCE_DIR) / "traces"))
        if (e.path().extension() == ".isa") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

struct Step {
    uint32_t pc;
    LaneMask active, exec;
    bool diverged;
};

// Runs a kernel and records every warp instruction of warp 0 of block 0.
std::vector<Step> trace_steps(const isa::Program& p) {
    GlobalMemory m(p, ".");
    std::vector<Step> steps;
    WarpObserver obs = [&](const Warp& w, const DynInst& d) {
        if (w.global_id == 0) steps.push_back({d.pc, d.active, d.exec, d.diverged});
    };
    run_functional(p, m, {}, &obs);
    return steps;
}

}  // namespace

// ---------------------------------------------------------------- every trace

TEST_CASE("functional: SIMT execution equals the per-thread reference on every trace", "[functional]") {
    const auto traces = all_traces();
    REQUIRE(traces.size() >= 8);
    for (const fs::path& path : traces) {
        INFO(path.string());
        const isa::Program p = isa::assemble_file(path.string());
        GlobalMemory simt_mem(p, path.parent_path().string());
        GlobalMemory ref_mem(p, path.parent_path().string());
        const FunctionalResult r = run_functional(p, simt_mem);
        const ReferenceResult q = run_reference(p, ref_mem);
        for (size_t b = 0; b < p.buffers.size(); ++b) {
            INFO("buffer " << p.buffers[b].name);
            CHECK(std::memcmp(simt_mem.data(int(b)), ref_mem.data(int(b)), p.buffers[b].bytes()) == 0);
        }
        CHECK(r.thread_instructions == q.thread_instructions);
        CHECK(r.pc_thread_instructions == q.pc_thread_instructions);
        CHECK(r.pc_active_lanes == q.pc_active_lanes);
        CHECK(r.warp_instructions > 0);
        CHECK(r.warp_instructions < 200'000);   // keeps the timing runs short
    }
}

TEST_CASE("functional: every trace opens with a comment saying what it shows", "[functional]") {
    for (const fs::path& path : all_traces()) {
        INFO(path.string());
        std::ifstream in(path);
        std::string first;
        std::getline(in, first);
        CHECK(first.rfind("; " + path.stem().string() + ":", 0) == 0);
    }
}

TEST_CASE("functional: a run is deterministic", "[functional]") {
    const fs::path path = fs::path(SIMT_SOURCE_DIR) / "traces" / "reduction_shfl.isa";
    const isa::Program p = isa::assemble_file(path.string());
    std::string dumps[2];
    for (std::string& d : dumps) {
        GlobalMemory m(p, path.parent_path().string());
        run_functional(p, m);
        std::ostringstream s;
        m.dump_csv(s);
        d = s.str();
    }
    CHECK(dumps[0] == dumps[1]);
}

TEST_CASE("functional: trace results are right, not only equal", "[functional]") {
    const fs::path dir = fs::path(SIMT_SOURCE_DIR) / "traces";
    SECTION("recursion computes fib") {
        const isa::Program p = isa::assemble_file((dir / "recursion.isa").string());
        GlobalMemory m(p, dir.string());
        run_functional(p, m);
        const auto out = test::words(p, m, "out");
        const uint32_t fib[] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34};
        for (uint32_t i = 0; i < out.size(); ++i) CHECK(out[i] == fib[2 + (i & 7)]);
    }
    SECTION("reduction's atomic total is the sum of the integers") {
        const isa::Program p = isa::assemble_file((dir / "reduction_shfl.isa").string());
        GlobalMemory m(p, dir.string());
        run_functional(p, m);
        const auto ints = test::words(p, m, "ints");
        uint32_t sum = 0;
        for (uint32_t v : ints) sum += v;
        CHECK(test::words(p, m, "total")[0] == sum);
        const auto in = test::floats(p, m, "in");
        const auto bs = test::floats(p, m, "block_sum");
        for (uint32_t b = 0; b < 48; ++b) {
            double s = 0;
            for (uint32_t i = 0; i < 256; ++i) s += in[b * 256 + i];
            CHECK(bs[b] == Approx(s).margin(1e-4));
        }
    }
    SECTION("histogram counts every value once") {
        const isa::Program p = isa::assemble_file((dir / "histogram_atomics.isa").string());
        GlobalMemory m(p, dir.string());
        run_functional(p, m);
        std::vector<uint32_t> want(64, 0);
        for (uint32_t v : test::words(p, m, "data")) ++want[v % 64];
        CHECK(test::words(p, m, "hist") == want);
    }
    SECTION("texture sampling wraps and tints") {
        const isa::Program p = isa::assemble_file((dir / "texture_sample.isa").string());
        GlobalMemory m(p, dir.string());
        run_functional(p, m);
        const auto tex = test::floats(p, m, "tex0");
        const auto pal = test::floats(p, m, "palette");
        const auto frame = test::floats(p, m, "frame");
        auto uni = [&](int i) { return sem::f32(p.uniforms[size_t(i)].bits); };
        for (uint32_t y = 0; y < 96; y += 7) {
            for (uint32_t x = 0; x < 192; x += 5) {
                INFO(x << "," << y);
                const float u = ((float(x) + 0.5f) * uni(1)) * uni(0);
                const float v = ((float(y) + 0.5f) * uni(2)) * uni(0);
                const uint32_t tx = uint32_t(std::floor(double(u) * 64)) % 64;
                const uint32_t ty = uint32_t(std::floor(double(v) * 64)) % 64;
                const float want = x < 16 ? 0.0f : tex[ty * 64 + tx] * pal[y & 3];
                CHECK(frame[y * 192 + x] == want);
            }
        }
    }
    SECTION("pointer chase follows the cycle") {
        const isa::Program p = isa::assemble_file((dir / "pointer_chase.isa").string());
        GlobalMemory m(p, dir.string());
        run_functional(p, m);
        const auto next = test::words(p, m, "next");
        const auto last = test::words(p, m, "last");
        for (uint32_t t = 0; t < last.size(); t += 97) {
            uint32_t i = t * 16;
            for (int k = 0; k < 32; ++k) i = next[i];
            CHECK(last[t] == i);
        }
    }
}

// ---------------------------------------------------------------- semantics

TEST_CASE("functional: integer division and conversions follow the table", "[functional]") {
    using sem::value;
    const uint32_t int_min = 0x80000000u, minus1 = 0xffffffffu;
    CHECK(value(isa::Op::Idiv, uint32_t(-7), 2, 0) == uint32_t(-3));
    CHECK(value(isa::Op::Idiv, 5, 0, 0) == minus1);
    CHECK(value(isa::Op::Idiv, int_min, minus1, 0) == int_min);
    CHECK(value(isa::Op::Irem, uint32_t(-7), 2, 0) == uint32_t(-1));
    CHECK(value(isa::Op::Irem, 5, 0, 0) == 5);
    CHECK(value(isa::Op::Irem, int_min, minus1, 0) == 0);
    CHECK(value(isa::Op::Udiv, 5, 0, 0) == 0xffffffffu);
    CHECK(value(isa::Op::Udiv, 0xfffffffeu, 2, 0) == 0x7fffffffu);
    CHECK(value(isa::Op::Urem, 5, 0, 0) == 5);
    CHECK(value(isa::Op::Urem, 17, 5, 0) == 2);
    auto f = [](float x) { return sem::bits(x); };
    CHECK(value(isa::Op::F2i, f(3.7f), 0, 0) == 3);
    CHECK(value(isa::Op::F2i, f(-3.7f), 0, 0) == uint32_t(-3));
    CHECK(value(isa::Op::F2i, f(1e10f), 0, 0) == 0x7fffffffu);
    CHECK(value(isa::Op::F2i, f(-1e10f), 0, 0) == int_min);
    CHECK(value(isa::Op::F2i, 0x7fc00000u, 0, 0) == 0);
    CHECK(value(isa::Op::F2u, f(-1.0f), 0, 0) == 0);
    CHECK(value(isa::Op::F2u, f(5e9f), 0, 0) == 0xffffffffu);
    CHECK(value(isa::Op::F2u, 0x7fc00000u, 0, 0) == 0);
    CHECK(value(isa::Op::I2f, uint32_t(-2), 0, 0) == f(-2.0f));
    CHECK(value(isa::Op::U2f, 0xffffffffu, 0, 0) == f(4294967296.0f));
    CHECK(value(isa::Op::Sar, 0x80000000u, 33, 0) == 0xc0000000u);   // shift count & 31
    CHECK(value(isa::Op::Shr, 0x80000000u, 31, 0) == 1);
    CHECK(value(isa::Op::Imin, uint32_t(-1), 1, 0) == uint32_t(-1));
    CHECK(value(isa::Op::Umin, uint32_t(-1), 1, 0) == 1);
    CHECK(value(isa::Op::Fmin, 0x7fc00000u, f(2.0f), 0) == f(2.0f));
    CHECK(value(isa::Op::Fabs, f(-0.0f), 0, 0) == f(0.0f));
    CHECK(value(isa::Op::Ffma, f(0.1f), f(10.0f), f(-1.0f)) == f(1.4901161e-08f));   // fused: not 0
    CHECK(sem::compare(isa::Op::Fsetp, isa::Cmp::Ne, 0x7fc00000u, 0x7fc00000u));
    CHECK_FALSE(sem::compare(isa::Op::Fsetp, isa::Cmp::Eq, 0x7fc00000u, 0x7fc00000u));
    CHECK_FALSE(sem::compare(isa::Op::Fsetp, isa::Cmp::Lt, 0x7fc00000u, f(1.0f)));
    CHECK(sem::compare(isa::Op::Isetp, isa::Cmp::Lt, uint32_t(-1), 0));
    CHECK_FALSE(sem::compare(isa::Op::Usetp, isa::Cmp::Lt, uint32_t(-1), 0));
}

TEST_CASE("functional: every opcode has a semantic class matching its signature", "[functional]") {
    for (const isa::OpInfo& oi : isa::op_table()) {
        INFO(oi.mnemonic);
        const sem::Kind k = sem::kind_of(oi.op);
        if (k == sem::Kind::Value) CHECK((oi.signature.rfind("R,V", 0) == 0 || oi.signature.rfind("R,F", 0) == 0));
        if (oi.access == isa::Access::Atomic) CHECK(sem::atom_op(oi.op) != sem::AtomOp::None);
        if (oi.access == isa::Access::Load && k != sem::Kind::Tex && oi.pipe != isa::Pipe::Uniform) CHECK(k == sem::Kind::Load);
        if (oi.access == isa::Access::Store) CHECK(k == sem::Kind::Store);
        if (oi.access == isa::Access::Atomic) CHECK(k == sem::Kind::Atomic);
        if (oi.pipe == isa::Pipe::Branch) CHECK(oi.signature.find('R') == std::string_view::npos);
    }
}

TEST_CASE("functional: shuffles read executing lanes only, else the reader's own value", "[functional]") {
    test::Run r(kWarp + R"(.buffer o u32 160 zero
    mov r0, %laneid
    iadd r1, r0, 100
    and r2, r0, 1
    isetp.eq p0, r2, 0
    @p0 shfl.down r3, r1, 1     ; even lanes: lane + 1 is odd, not executing
    @!p0 shfl.down r3, r1, 2    ; odd lanes: lane + 2
    st.global [o + r0*4], r3
    shfl.up r4, r1, 3
    st.global [o + r0*4 + 128], r4
    shfl.xor r5, r1, 5
    st.global [o + r0*4 + 256], r5
    isub r7, 31, r0
    shfl.idx r6, r1, r7
    st.global [o + r0*4 + 384], r6
    shfl.down r1, r1, 1         ; destination = source
    st.global [o + r0*4 + 512], r1
    exit
)");
    const auto o = r.u32("o");
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        const uint32_t own = 100 + l;
        CHECK(o[l] == ((l & 1) && l + 2 <= 31 ? own + 2 : own));
        CHECK(o[32 + l] == (l >= 3 ? own - 3 : own));
        CHECK(o[64 + l] == 100 + (l ^ 5));
        CHECK(o[96 + l] == 100 + 31 - l);
        CHECK(o[128 + l] == (l < 31 ? own + 1 : own));
    }
}

TEST_CASE("functional: votes see the executing lanes", "[functional]") {
    test::Run r(kWarp + R"(.buffer o u32 128 zero
    mov r0, %laneid
    isetp.lt p0, r0, 10
    vote.ballot r1, p0
    vote.any p1, p0
    vote.all p2, p0
    sel r2, 1, 0, p1
    sel r3, 1, 0, p2
    @!p0 bra big
    vote.all p3, p0          ; lanes 0..9 only
    sel r3, 7, 0, p3
    vote.ballot r4, pt
    bra join
big:
    vote.ballot r4, !p0
join:
    st.global [o + r0*4], r1
    st.global [o + r0*4 + 128], r2
    st.global [o + r0*4 + 256], r3
    st.global [o + r0*4 + 384], r4
    exit
)");
    const auto o = r.u32("o");
    for (uint32_t l = 0; l < 32; ++l) {
        CHECK(o[l] == 0x3ffu);
        CHECK(o[32 + l] == 1);
        CHECK(o[64 + l] == (l < 10 ? 7u : 0u));
        CHECK(o[96 + l] == (l < 10 ? 0x3ffu : 0xfffffc00u));
    }
}

TEST_CASE("functional: fp64 register pairs, vectors, shared and local memory", "[functional]") {
    test::Run r(kWarp + R"(.shared 512
.local 32
.buffer d f64 64 zero
.buffer v u32 128 iota 0 1
.buffer w u32 128 zero
.buffer c u32 1 zero
.buffer s u32 32 zero
    mov r0, %laneid
    i2f r1, r0
    f2d r2, r1               ; r2:r3 = lane
    f2d r4, 0.5
    dadd r6, r2, r4          ; lane + 0.5
    dmul r8, r6, r6
    dfma r10, r6, r6, r4     ; (lane + 0.5)^2 + 0.5
    st.global [d + r0*16], r8
    st.global [d + r0*16 + 4], r9
    st.global [d + r0*16 + 8], r10
    st.global [d + r0*16 + 12], r11
    ld.global.v4 r12, [v + r0*16]
    st.shared.v4 [r0*16], r12
    ld.shared.v4 r16, [r0*16]
    st.local.v4 [16], r16
    ld.local.v4 r20, [16]
    st.global.v4 [w + r0*16], r20
    atom.shared.add r24, [0], 1      ; lanes in lane order: old values 0, 1, 2, ...
    st.global [s + r0*4], r24
    atom.global.add r25, [c], r0
    d2f r26, r10
    exit
)");
    const auto d = test::doubles(r.program, r.memory, "d");
    const auto w = r.u32("w");
    for (uint32_t l = 0; l < 32; ++l) {
        const double x = l + 0.5;
        CHECK(d[2 * l] == x * x);
        CHECK(d[2 * l + 1] == std::fma(x, x, 0.5));
        for (uint32_t k = 0; k < 4; ++k) CHECK(w[4 * l + k] == 4 * l + k);
    }
    CHECK(r.u32("c")[0] == 496);
    const auto s = r.u32("s");
    for (uint32_t l = 0; l < 32; ++l) CHECK(s[l] == l);
}

TEST_CASE("functional: atomics apply lane by lane in lane order", "[functional]") {
    test::Run r(kWarp + R"(.buffer c u32 1 const 5
.buffer old u32 32 zero
    mov r0, %laneid
    atom.global.add r1, [c], 2
    st.global [old + r0*4], r1
    exit
)");
    const auto old = r.u32("old");
    for (uint32_t l = 0; l < 32; ++l) CHECK(old[l] == 5 + 2 * l);
    CHECK(r.u32("c")[0] == 69);
}

TEST_CASE("functional: special registers in a 2D compute launch", "[functional]") {
    test::Run r(R"(.grid 3 2
.block 8 4 2
.buffer o u32 3072 zero
    mov r0, %tid.x
    mov r1, %tid.y
    mov r2, %tid.z
    imad r3, r2, 4, r1
    imad r3, r3, 8, r0           ; thread index in the block
    mov r4, %ctaid.y
    imad r4, r4, %nctaid.x, %ctaid.x
    imul r5, r4, 64
    iadd r5, r5, r3              ; global thread index
    shl r6, r5, 2
    mov r7, %warpid
    shl r7, r7, 8
    or r7, r7, %laneid
    st.global [o + r6*4], r7
    mov r8, %ntid.y
    st.global [o + r6*4 + 4], r8
    mov r8, %nctaid.y
    st.global [o + r6*4 + 8], r8
    mov r8, %ctaid.x
    st.global [o + r6*4 + 12], r8
    exit
)");
    const auto o = r.u32("o");
    for (uint32_t g = 0; g < 6 * 64; ++g) {
        const uint32_t t = g % 64, b = g / 64;
        CHECK(o[4 * g] == ((t / 32) << 8 | (t % 32)));
        CHECK(o[4 * g + 1] == 4);
        CHECK(o[4 * g + 2] == 2);
        CHECK(o[4 * g + 3] == b % 3);
    }
}

// ---------------------------------------------------------------- SIMT stack

TEST_CASE("functional: if/else runs the taken side first, then reconverges", "[functional]") {
    const isa::Program p = test::assemble(kWarp + R"(.buffer o u32 32 zero
    mov r0, %laneid
    and r1, r0, 1
    isetp.eq p0, r1, 0
    @p0 bra even
    iadd r2, r0, 1
    bra join
even:
    iadd r2, r0, 2
join:
    st.global [o + r0*4], r2
    exit
)");
    const auto s = trace_steps(p);
    const LaneMask all = 0xffffffffu, ev = 0x55555555u, od = 0xaaaaaaaau;
    const std::vector<std::tuple<uint32_t, LaneMask, LaneMask>> want = {
        {0, all, all}, {1, all, all}, {2, all, all}, {3, all, ev}, {6, ev, ev},
        {4, od, od}, {5, od, od}, {7, all, all}, {8, all, all}};
    REQUIRE(s.size() == want.size());
    for (size_t i = 0; i < s.size(); ++i) {
        INFO("step " << i);
        CHECK(s[i].pc == std::get<0>(want[i]));
        CHECK(s[i].active == std::get<1>(want[i]));
        CHECK(s[i].exec == std::get<2>(want[i]));
        CHECK(s[i].diverged == (i == 3));
    }
}

TEST_CASE("functional: the two sides of a divergent branch can alternate, a call's body cannot", "[functional]") {
    const isa::Program p = test::assemble(kWarp + R"(.buffer o u32 32 zero
    mov r0, %laneid
    and r1, r0, 1
    isetp.eq p0, r1, 0
    @p0 bra even
    iadd r2, r0, 1
    iadd r2, r2, 1
    bra join
even:
    iadd r2, r0, 2
    call f
join:
    st.global [o + r0*4], r2
    exit
f:
    iadd r2, r2, 10
    ret
)");
    GlobalMemory m(p, ".");
    Executor ex(p, m);
    auto b = ex.make_block(0);
    Warp& w = b->warps[0];
    DynInst d;
    const LaneMask ev = 0x55555555u, od = 0xaaaaaaaau;
    CHECK_FALSE(w.switch_path());  // not diverged
    for (int i = 0; i < 4; ++i) ex.step(*b, w, d);
    REQUIRE(d.diverged);
    CHECK((w.next_pc() == 7 && w.active() == ev));  // the taken side first
    REQUIRE(w.switch_path());
    CHECK((w.next_pc() == 4 && w.active() == od));
    ex.step(*b, w, d);  // the odd side's first add
    REQUIRE(w.switch_path());
    CHECK((w.next_pc() == 7 && w.active() == ev));
    ex.step(*b, w, d);  // the even side's add
    ex.step(*b, w, d);  // its call: the callee's entry is on top, with no side below
    CHECK(w.next_pc() == 11);
    CHECK_FALSE(w.switch_path());
    while (!w.done()) ex.step(*b, w, d);
    const auto o = test::words(p, m, "o");
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        CHECK(o[l] == (l % 2 == 0 ? l + 12 : l + 2));
    }
}

TEST_CASE("functional: a lane-varying loop keeps looping lanes only", "[functional]") {
    const isa::Program p = test::assemble(kWarp + R"(
    mov r0, %laneid
    mov r1, 0
loop:
    iadd r1, r1, 1
    isetp.le p0, r1, r0
    @p0 bra loop
    exit
)");
    const auto s = trace_steps(p);
    // Iteration k (1-based) runs with lanes k-1..31.
    size_t i = 2;
    for (uint32_t k = 1; k <= 32; ++k) {
        const LaneMask lanes = 0xffffffffu << (k - 1);
        for (uint32_t j = 0; j < 3; ++j, ++i) {
            REQUIRE(i < s.size());
            CHECK(s[i].pc == 2 + j);
            CHECK(s[i].active == lanes);
        }
    }
    REQUIRE(i + 1 == s.size());
    CHECK(s[i].pc == 5);
    CHECK(s[i].active == 0xffffffffu);
}

TEST_CASE("functional: calls, guarded calls, divergent and guarded returns", "[functional]") {
    test::Run r(kWarp + R"(.buffer o u32 96 zero
    mov r0, %laneid
    mov r1, 0
    isetp.lt p0, r0, 8
    @p0 call f                ; lanes 0..7 call f
    st.global [o + r0*4], r1
    mov r1, 0
    call g                    ; everyone calls g
    st.global [o + r0*4 + 128], r1
    isetp.ge p1, r0, 30
    @p1 ret                   ; ret in the kernel body: lanes 30, 31 finish
    mov r2, 9
    st.global [o + r0*4 + 256], r2
    exit
f:
    iadd r1, r1, 10
    ret
g:
    and r2, r0, 3
    isetp.eq p2, r2, 0
    @p2 ret                   ; every fourth lane returns early
    iadd r1, r1, 1
    isetp.eq p3, r2, 1
    @p3 bra g_one
    iadd r1, r1, 100
    ret
g_one:
    iadd r1, r1, 1000
    call f                    ; nested call from divergent code
    ret
)");
    const auto o = r.u32("o");
    for (uint32_t l = 0; l < 32; ++l) {
        INFO("lane " << l);
        CHECK(o[l] == (l < 8 ? 10u : 0u));
        const uint32_t m = l & 3;
        CHECK(o[32 + l] == (m == 0 ? 0u : m == 1 ? 1011u : 101u));
        CHECK(o[64 + l] == (l >= 30 ? 0u : 9u));
    }
}

TEST_CASE("functional: exit inside divergent code and running off the end", "[functional]") {
    const isa::Program p = test::assemble(kWarp + R"(.buffer o u32 32 zero
    mov r0, %laneid
    isetp.lt p0, r0, 16
    @p0 bra low
    mov r1, 1
    st.global [o + r0*4], r1
    exit
low:
    mov r1, 2
    st.global [o + r0*4], r1
)");
    GlobalMemory m(p, ".");
    std::vector<DynInst> steps;
    WarpObserver obs = [&](const Warp&, const DynInst& d) { steps.push_back(d); };
    run_functional(p, m, {}, &obs);
    const auto o = test::words(p, m, "o");
    for (uint32_t l = 0; l < 32; ++l) CHECK(o[l] == (l < 16 ? 2u : 1u));
    REQUIRE(!steps.empty());
    CHECK(steps.back().warp_exited);
    for (size_t i = 0; i + 1 < steps.size(); ++i) CHECK_FALSE(steps[i].warp_exited);
}

TEST_CASE("functional: warps wait at bar until the whole block arrives", "[functional]") {
    test::Run r(R"(.grid 2
.block 64
.shared 256
.buffer o u32 128 zero
    mov r0, %tid.x
    mov r9, %warpid
    isetp.eq p0, r9, 0
    @!p0 bra write
    mov r1, 0
spin:                          ; warp 0 is late: 100 iterations before its store
    iadd r1, r1, 1
    isetp.lt p1, r1, 100
    @p1 bra spin
write:
    iadd r2, r0, 1000
    st.shared [r0*4], r2
    bar
    iadd r3, r0, 32
    and r3, r3, 63
    ld.shared r4, [r3*4]
    imad r5, %ctaid.x, 64, r0
    st.global [o + r5*4], r4
    exit
)");
    const auto o = r.u32("o");
    for (uint32_t g = 0; g < 128; ++g) CHECK(o[g] == 1000 + ((g % 64 + 32) & 63));
}

TEST_CASE("functional: local memory addresses are interleaved per lane", "[functional]") {
    const isa::Program p = test::assemble(R"(.grid 2
.block 64
.local 16
.buffer b u32 64 zero
    mov r0, %laneid
    st.local [8], r0
    ld.global r1, [b + r0*4 + 4]
    exit
)");
    GlobalMemory m(p, ".");
    std::vector<std::pair<uint64_t, DynInst>> seen;
    WarpObserver obs = [&](const Warp& w, const DynInst& d) { seen.push_back({w.global_id, d}); };
    run_functional(p, m, {}, &obs);
    bool checked_local = false, checked_global = false;
    for (const auto& [gid, d] : seen) {
        if (d.pc == 1 && gid == 3) {
            for (uint32_t l = 0; l < 32; ++l) CHECK(d.addr[l] == kLocalBase + ((3 * 4 + 2) * 32 + l) * 4);
            checked_local = true;
        }
        if (d.pc == 2 && gid == 1) {
            for (uint32_t l = 0; l < 32; ++l) CHECK(d.addr[l] == m.base(0) + l * 4 + 4);
            checked_global = true;
        }
    }
    CHECK(checked_local);
    CHECK(checked_global);
}

TEST_CASE("functional: counts of warp and thread instructions", "[functional]") {
    test::Run r(R"(.grid 2
.block 48
    mov r0, %tid.x
    isetp.lt p0, r0, 40
    @p0 iadd r1, r1, 1
    exit
)");
    CHECK(r.result.warp_instructions == 2 * 2 * 4);
    CHECK(r.result.thread_instructions == 2 * (48 * 3 + 40));
    CHECK(r.result.pc_warp_instructions == std::vector<uint64_t>{4, 4, 4, 4});
    CHECK(r.result.pc_thread_instructions == std::vector<uint64_t>{96, 96, 80, 96});
    CHECK(r.result.pc_active_lanes == std::vector<uint64_t>{96, 96, 96, 96});
}

// ---------------------------------------------------------------- memory image

TEST_CASE("functional: buffers are laid out 256-byte aligned and initialised", "[functional][memory]") {
    const isa::Program p = test::assemble(kWarp + R"(.buffer a u32 5 iota 10 2
.buffer b f32 3 const 0.5
.buffer c i32 4 iota -2
.buffer d f64 2 iota 0.25 0.5
.buffer e u32 100 random 3 10 20
.buffer f f32 100 random 4 -1 1
.buffer g u32 1000 perm 9
.buffer h f32 2x2 iota
.buffer k u32 3 data 0xdb629599 7 -1
.buffer l f32 2 data 0.5 -2
    exit
)");
    GlobalMemory m(p, ".");
    CHECK(m.base(0) == kGlobalBase);
    CHECK(m.base(1) == kGlobalBase + 256);
    CHECK(m.base(6) % 256 == 0);
    CHECK(m.find(kGlobalBase + 16, 4) == 0);
    CHECK(m.find(kGlobalBase + 20, 4) == -1);   // past a's 20 bytes
    CHECK(m.find(kGlobalBase - 4, 4) == -1);
    CHECK(m.find(m.base(1), 12) == 1);
    CHECK(test::words(p, m, "a") == std::vector<uint32_t>{10, 12, 14, 16, 18});
    CHECK(test::floats(p, m, "b") == std::vector<float>{0.5f, 0.5f, 0.5f});
    CHECK(test::words(p, m, "c") == std::vector<uint32_t>{uint32_t(-2), uint32_t(-1), 0, 1});
    CHECK(test::doubles(p, m, "d") == std::vector<double>{0.25, 0.75});
    CHECK(test::floats(p, m, "h") == std::vector<float>{0, 1, 2, 3});
    CHECK(test::words(p, m, "k") == std::vector<uint32_t>{0xdb629599u, 7, 0xffffffffu});
    CHECK(test::floats(p, m, "l") == std::vector<float>{0.5f, -2.0f});
    const auto e = test::words(p, m, "e");
    std::set<uint32_t> distinct(e.begin(), e.end());
    CHECK(*distinct.begin() == 10);
    CHECK(*distinct.rbegin() == 19);
    CHECK(distinct.size() == 10);
    for (float x : test::floats(p, m, "f")) CHECK((x >= -1.0f && x < 1.0f));
    // A single cycle through all 1000 elements.
    const auto g = test::words(p, m, "g");
    std::vector<uint8_t> seen(g.size(), 0);
    uint32_t i = 0;
    for (size_t k = 0; k < g.size(); ++k) {
        CHECK_FALSE(seen[i]);
        seen[i] = 1;
        i = g[i];
    }
    CHECK(i == 0);
    // Deterministic: the same seed gives the same values everywhere.
    GlobalMemory again(p, ".");
    CHECK(test::words(p, again, "e") == e);
    CHECK(test::words(p, again, "g") == g);
}

TEST_CASE("functional: random values are pinned (splitmix64)", "[functional][memory]") {
    const isa::Program p = test::assemble(kWarp + ".buffer e u32 4 random 1 0 1000\n.buffer g u32 5 perm 2\n    exit\n");
    GlobalMemory m(p, ".");
    CHECK(test::words(p, m, "e") == std::vector<uint32_t>{566, 745, 971, 444});
    CHECK(test::words(p, m, "g") == std::vector<uint32_t>{3, 0, 1, 4, 2});
}

TEST_CASE("functional: file buffers read a CSV column 'value'", "[functional][memory]") {
    const fs::path dir = fs::path(SIMT_BINARY_DIR) / "test_functional_csv";
    fs::create_directories(dir);
    {
        std::ofstream(dir / "vals.csv") << "value\n1.5\n-2\n 3.25 \n";
        std::ofstream(dir / "ints.csv") << "value\n7\n0x10\n4294967295\n";
    }
    const isa::Program p = isa::assemble_text(kWarp + ".buffer a f32 3 file \"vals.csv\"\n"
                                                      ".buffer b u32 3 file \"ints.csv\"\n    exit\n",
                                              (dir / "t.isa").string(), dir.string());
    GlobalMemory m(p, dir.string());
    CHECK(test::floats(p, m, "a") == std::vector<float>{1.5f, -2.0f, 3.25f});
    CHECK(test::words(p, m, "b") == std::vector<uint32_t>{7, 16, 0xffffffffu});
}

TEST_CASE("functional: dump_csv writes buffer,index,value in each buffer's type", "[functional][memory]") {
    const isa::Program p = test::assemble(kWarp + ".buffer a i32 2 iota -1\n.buffer b f32 2 iota 0.5\n"
                                                  ".buffer c f64 1 const 0.1\n    exit\n");
    GlobalMemory m(p, ".");
    std::ostringstream s;
    m.dump_csv(s);
    CHECK(s.str() == "buffer,index,value\na,0,-1\na,1,0\nb,0,0.5\nb,1,1.5\nc,0,0.1\n");
}

// The lane loops are also compiled for AVX2 (executor.cpp, picked at load time):
// the same bits as the per-thread reference for random bit patterns (NaNs,
// infinities, subnormals, rounding boundaries) in every value opcode that runs them.
TEST_CASE("functional: vectorised lanes equal the reference for random bit patterns", "[functional][sfu]") {
    std::string k = ".kernel bits\n.grid 64\n.block 256\n"
                    ".buffer a u32 16384 random 11 0 4294967295\n.buffer b u32 16384 random 12 0 4294967295\n"
                    ".buffer c u32 16384 random 13 0 4294967295\n.buffer small f32 16384 random 14 -100 100\n";
    const char* ops[] = {"ffma", "fadd", "fmul", "fmin", "fmax", "sin", "cos", "ex2", "lg2", "rsqrt", "rcp", "sqrt",
                         "ffma", "sin", "cos", "ex2"};
    for (int i = 0; i < 16; ++i) k += ".buffer o" + std::to_string(i) + " u32 16384 zero\n";
    k += "    mov r0, %tid.x\n    imad r1, %ntid.x, %ctaid.x, r0\n"
         "    ld.global r2, [a + r1*4]\n    ld.global r3, [b + r1*4]\n    ld.global r4, [c + r1*4]\n"
         "    ld.global r6, [small + r1*4]\n";
    for (int i = 0; i < 16; ++i) {
        const std::string op = ops[i];
        const bool three = op == "ffma", two = op == "fadd" || op == "fmul" || op == "fmin" || op == "fmax";
        const std::string x = i >= 12 ? "r6" : "r2";  // the last four on moderate arguments (the quick paths)
        k += "    " + op + " r5, " + x + (two || three ? ", r3" : "") + (three ? ", r4" : "") + "\n";
        k += "    st.global [o" + std::to_string(i) + " + r1*4], r5\n";
    }
    k += "    exit\n";
    const isa::Program p = isa::assemble_text(k, "bits.isa");
    GlobalMemory simt_mem(p, "."), ref_mem(p, ".");
    run_functional(p, simt_mem);
    run_reference(p, ref_mem);
    for (int i = 0; i < 16; ++i) {
        INFO("o" << i << ": " << ops[i]);
        CHECK(test::words(p, simt_mem, "o" + std::to_string(i)) == test::words(p, ref_mem, "o" + std::to_string(i)));
    }
}

TEST_CASE("functional: a block's .local is zero-filled at its first local access, not at its start", "[functional]") {
    // 512 KiB per thread on thousands of blocks (a fuzz input that took 12 s under ASan zero-filling
    // 8 MB per block that never touched it).
    const isa::Program p = isa::assemble_text(".grid 3288\n.block 16\n.local 524288\nexit\n", "local_big");
    GlobalMemory m(p, ".");
    Executor ex(p, m);
    auto b = ex.make_block(0);
    CHECK(b->local.empty());
    DynInst d;
    ex.step(*b, b->warps[0], d);
    CHECK(b->local.empty());  // exit touched none
    const isa::Program q = isa::assemble_text(
        ".grid 1\n.block 32\n.local 16\n.buffer o u32 32 zero\n"
        "mov r0, %tid.x\nld.local r1, [4]\nst.local [4], r0\nld.local r2, [4]\niadd r3, r1, r2\nst.global [o + r0*4], r3\nexit\n",
        "local_small");
    GlobalMemory mq(q, ".");
    Executor eq(q, mq);
    auto bq = eq.make_block(0);
    eq.step(*bq, bq->warps[0], d);  // mov
    CHECK(bq->local.empty());
    eq.step(*bq, bq->warps[0], d);  // the first local access: zero-filled, 32 threads x 16 B
    CHECK(bq->local.size() == 32 * 16);
    for (int i = 0; i < 5; ++i) eq.step(*bq, bq->warps[0], d);
    const uint32_t* o = reinterpret_cast<const uint32_t*>(mq.data(0));
    CHECK(o[0] == 0);
    CHECK(o[7] == 7);  // 0 (zero-filled) + 7 (its own store)
}
