// fp32 arithmetic of our own (sim/functional/fpmath.hpp): ffma is correctly
// rounded, the special functions stay within their documented error against
// double precision, special values behave, and the executor's vectorised lane
// loops give the same bits as the per-lane semantics for every value opcode.
#include "functional_util.hpp"
#include "sim/functional/fpmath.hpp"
#include "sim/functional/reference.hpp"
#include "sim/functional/semantics.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace simt;
using namespace simt::func;

namespace {

// xorshift64: a fixed stream of test inputs.
struct Rng {
    uint64_t s = 88172645463325252ull;
    uint32_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return uint32_t(s >> 16);
    }
};

// Largest error of f against ref over `n` floats spread evenly (in bits) over
// [lo, hi), both signs; relative if `rel`.
template <typename F, typename R>
double max_error(float lo, float hi, uint32_t n, bool rel, F f, R ref) {
    double worst = 0;
    const uint32_t b0 = sem::bits(lo), b1 = sem::bits(hi), step = std::max<uint32_t>(1, (b1 - b0) / n);
    for (uint32_t sign : {0u, 0x80000000u}) {
        for (uint32_t u = b0; u < b1; u += step) {
            const float x = sem::f32(u | sign);
            const double want = ref(double(x)), got = f(x);
            const double e = rel ? std::fabs(got - want) / std::fabs(want) : std::fabs(got - want);
            worst = std::max(worst, e);
        }
    }
    return worst;
}

}  // namespace

TEST_CASE("fpmath: ffma is correctly rounded, without FMA hardware or libm", "[functional][sfu]") {
    using sem::ffma;
    // Cases where rounding the double sum to float would round twice wrongly.
    CHECK(sem::bits(ffma(0x1.1p+8f, 0x1.a4005p-73f, 0x1.008p-128f)) == sem::bits(0x1.be4056p-65f));
    CHECK(sem::bits(ffma(-0x1.7p-138f, 0x1.1d8e5p+72f, 0x1.ff5cb8p-128f)) == sem::bits(-0x1.9a7c92p-66f));
    CHECK(ffma(0.1f, 10.0f, -1.0f) == 1.4901161e-08f);   // fused: not 0
    // Subnormal results, signed zeros, infinities.
    CHECK(ffma(0x1p-100f, 0x1p-40f, 0x1p-149f) == 0x1p-140f + 0x1p-149f);
    CHECK(std::signbit(ffma(-0.0f, 1.0f, -0.0f)));
    CHECK_FALSE(std::signbit(ffma(-1.0f, 1.0f, 1.0f)));
    CHECK(ffma(0x1p127f, 4.0f, -INFINITY) == -INFINITY);
    CHECK(std::isnan(ffma(INFINITY, 0.0f, 1.0f)));
    // Random and adversarial triples against the host's correctly rounded fma.
    Rng rng;
    uint64_t bad = 0, n = 0;
    for (int i = 0; i < 300000; ++i) {
        float a = sem::f32(rng.next()), b = sem::f32(rng.next()), c = sem::f32(rng.next());
        if (i % 3 == 1) c = sem::f32(sem::bits(-(a * b)) + rng.next() % 5 - 2);   // cancellation
        if (i % 3 == 2) {                                                          // results near 2^-126
            a = sem::f32((rng.next() & 0x807fffffu) | ((0x3f000000u + ((rng.next() % 60) << 23)) & 0x7f800000u));
            b = sem::f32((rng.next() & 0x807fffffu) | (0x10000000u + ((rng.next() % 40) << 23)));
            c = sem::f32(rng.next() & 0x80ffffffu);
        }
        const float want = std::fma(a, b, c), got = ffma(a, b, c);
        ++n;
        if (std::isnan(want) && std::isnan(got)) continue;
        if (sem::bits(want) != sem::bits(got) || sem::bits(sem::ffma_exact(a, b, c)) != sem::bits(want)) ++bad;
    }
    CHECK(n == 300000);
    CHECK(bad == 0);
}

TEST_CASE("fpmath: sin and cos stay within 2^-22.8 absolute, for every argument", "[functional][sfu]") {
    const double bound = std::exp2(-22.8);
    auto sin_ref = [](double x) { return std::sin(x); };
    auto cos_ref = [](double x) { return std::cos(x); };
    auto fsin = [](float x) { return sem::sin(x); };
    auto fcos = [](float x) { return sem::cos(x); };
    CHECK(max_error(0x1p-20f, sem::kTrigQuickMax, 400000, false, fsin, sin_ref) < bound);
    CHECK(max_error(0x1p-20f, sem::kTrigQuickMax, 400000, false, fcos, cos_ref) < bound);
    CHECK(max_error(sem::kTrigQuickMax, 3e38f, 100000, false, fsin, sin_ref) < bound);
    CHECK(max_error(sem::kTrigQuickMax, 3e38f, 100000, false, fcos, cos_ref) < bound);
    // The large-argument path agrees with double precision on small arguments too.
    CHECK(max_error(0.01f, sem::kTrigQuickMax, 50000, false, [](float x) { return sem::trig_large(x, false); },
                    sin_ref) < bound);
    // Small arguments: sin x == x in float, relative accuracy kept.
    CHECK(max_error(0x1p-126f, 0.5f, 100000, true, fsin, sin_ref) < std::exp2(-23.5));
    CHECK(sem::sin(0x1p-100f) == 0x1p-100f);
    CHECK(sem::sin(-0.0f) == 0.0f);
    CHECK(std::signbit(sem::sin(-0.0f)));
    CHECK(sem::cos(0.0f) == 1.0f);
    CHECK(sem::sin(3.14159265f) == -0x1.777a5cp-24f);   // sin of pi rounded to float
    CHECK(std::isnan(sem::sin(INFINITY)));
    CHECK(std::isnan(sem::cos(-INFINITY)));
    CHECK(std::isnan(sem::sin(NAN)));
    // Never outside [-1, 1].
    Rng rng;
    for (int i = 0; i < 200000; ++i) {
        const float x = sem::f32(rng.next() & 0x7f7fffffu);
        if (!(std::fabs(sem::sin(x)) <= 1.0f && std::fabs(sem::cos(x)) <= 1.0f)) FAIL("|sin| or |cos| > 1 at " << x);
    }
}

TEST_CASE("fpmath: ex2 and lg2 stay within 2^-22 relative", "[functional][sfu]") {
    auto fex2 = [](float x) { return sem::ex2(x); };
    auto flg2 = [](float x) { return sem::lg2(x); };
    CHECK(max_error(0x1p-30f, 126.0f, 400000, true, fex2, [](double x) { return std::exp2(x); }) <
          std::exp2(-23.0));
    // Subnormal results: within one unit of 2^-149.
    CHECK(max_error(126.0f, 150.0f, 20000, false, [](float x) { return x < 0 ? sem::ex2(x) * 0x1p149 : 0.0; },
                    [](double x) { return x < 0 ? std::exp2(x) * 0x1p149 : 0.0; }) <= 1.0);
    CHECK(max_error(0x1p-149f, 3e38f, 400000, true, flg2, [](double x) { return std::log2(x); }) <
          std::exp2(-22.0));
    CHECK(max_error(0.5f, 2.0f, 100000, false, flg2, [](double x) { return std::log2(x); }) < std::exp2(-23.0));
    for (int k = -149; k < 128; ++k) {
        INFO(k);
        CHECK(sem::ex2(float(k)) == std::ldexp(1.0f, k));
        CHECK(sem::lg2(std::ldexp(1.0f, k)) == float(k));
    }
    CHECK(sem::ex2(128.0f) == INFINITY);
    CHECK(sem::ex2(-150.0f) == 0.0f);   // 2^-150 is halfway to 2^-149: ties to even
    CHECK(sem::ex2(INFINITY) == INFINITY);
    CHECK(sem::ex2(-INFINITY) == 0.0f);
    CHECK(std::isnan(sem::ex2(NAN)));
    CHECK(sem::lg2(0.0f) == -INFINITY);
    CHECK(sem::lg2(-0.0f) == -INFINITY);
    CHECK(sem::lg2(INFINITY) == INFINITY);
    CHECK(std::isnan(sem::lg2(-1.0f)));
    CHECK(std::isnan(sem::lg2(-INFINITY)));
    CHECK(std::isnan(sem::lg2(NAN)));
}

TEST_CASE("fpmath: fmin and fmax ignore a NaN operand and order -0 below +0", "[functional][sfu]") {
    CHECK(sem::fmin(NAN, 2.0f) == 2.0f);
    CHECK(sem::fmax(2.0f, NAN) == 2.0f);
    CHECK(std::isnan(sem::fmin(NAN, NAN)));
    CHECK(std::signbit(sem::fmin(0.0f, -0.0f)));
    CHECK(std::signbit(sem::fmin(-0.0f, 0.0f)));
    CHECK_FALSE(std::signbit(sem::fmax(-0.0f, 0.0f)));
    CHECK_FALSE(std::signbit(sem::fmax(0.0f, -0.0f)));
    CHECK(sem::fmin(-1.0f, 3.0f) == -1.0f);
    CHECK(sem::fmax(-1.0f, 3.0f) == 3.0f);
}

TEST_CASE("fpmath: fp32 arithmetic gives the canonical NaN 0x7fffffff for a NaN result", "[functional][sfu]") {
    using isa::Op;
    const uint32_t nan1 = 0xffc00123u, nan2 = 0x7fc00456u, one = sem::bits(1.0f), inf = sem::bits(INFINITY);
    for (Op op : {Op::Fadd, Op::Fsub, Op::Fmul, Op::Ffma}) {
        INFO(isa::info(op).mnemonic);
        CHECK(sem::value(op, nan1, nan2, nan2) == sem::kCanonicalNaN);
        CHECK(sem::value(op, one, nan2, one) == sem::kCanonicalNaN);
    }
    CHECK(sem::value(Op::Fadd, inf, sem::bits(-INFINITY), 0) == sem::kCanonicalNaN);
    CHECK(sem::value(Op::Fmul, inf, 0, 0) == sem::kCanonicalNaN);
    CHECK(sem::value(Op::Ffma, inf, 0, one) == sem::kCanonicalNaN);
    CHECK(sem::value(Op::Ffma, one, one, nan1) == sem::kCanonicalNaN);
    // A NaN operand of a one-operand function passes through (quieted).
    CHECK(sem::value(Op::Sin, nan2, 0, 0) == nan2);
    CHECK(sem::value(Op::Ex2, nan2, 0, 0) == nan2);
    CHECK(sem::value(Op::Lg2, nan2, 0, 0) == nan2);
}

// Every Kind::Value opcode, on ordinary and awkward inputs, with a partial
// exec mask: the executor's 32-lane loops (vectorised, with their exact-path
// fix-ups) must give the bits of sem::value in executing lanes and leave the
// others alone, and the per-thread reference must agree.
TEST_CASE("fpmath: the executor's lane loops give sem::value's bits for every value opcode", "[functional][sfu]") {
    constexpr uint32_t kThreads = 256;
    std::vector<const isa::OpInfo*> ops;
    for (const isa::OpInfo& oi : isa::op_table())
        if (sem::kind_of(oi.op) == sem::Kind::Value) ops.push_back(&oi);
    const std::string n = std::to_string(kThreads);
    std::string text = ".grid 4\n.block 64\n.buffer x u32 " + n + " zero\n.buffer y u32 " + n +
                       " zero\n.buffer z u32 " + n + " zero\n.buffer o u32 " +
                       std::to_string(kThreads * ops.size()) + " zero\n"
                       "    mov r0, %ctaid.x\n    shl r0, r0, 6\n    iadd r0, r0, %tid.x\n"
                       "    ld.global r1, [x + r0*4]\n    ld.global r2, [y + r0*4]\n    ld.global r3, [z + r0*4]\n"
                       "    and r4, r0, 3\n    isetp.ne p0, r4, 1\n";   // lanes 1, 5, 9, ... idle
    for (size_t k = 0; k < ops.size(); ++k) {
        const size_t nsrc = std::count(ops[k]->signature.begin(), ops[k]->signature.end(), ',');
        std::string operands = "r5";
        for (size_t s = 0; s < nsrc; ++s) {
            const char kind = ops[k]->signature[2 * (s + 1)];   // a K or S immediate: lop3's table, lea's shift
            operands += kind == 'K' ? ", 0xca" : kind == 'S' ? ", 5" : ", r" + std::to_string(1 + s);
        }
        text += "    mov r5, 7\n    @p0 " + std::string(ops[k]->mnemonic) + " " + operands + "\n";
        text += "    st.global [o + r0*4 + " + std::to_string(k * kThreads * 4) + "], r5\n";
    }
    text += "    exit\n";
    const isa::Program p = test::assemble(text);

    // Inputs: special values, ffma rounding-boundary triples, random bits, small integers.
    const std::vector<float> special = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, -7.25f, INFINITY, -INFINITY, NAN,
                                        0x1p-149f, -0x1p-130f, 0x1p-126f, 8192.0f, -8192.0f, 8192.001f,
                                        1e30f, -3e38f, 3.14159265f, 1.5707964f, 127.99f, -149.5f, 2147483648.0f,
                                        -2147483904.0f, 4294967296.0f, 0.1f, 10.0f};
    std::vector<uint32_t> in[3];
    Rng rng;
    for (uint32_t i = 0; i < kThreads; ++i) {
        for (int j = 0; j < 3; ++j) {
            uint32_t v = rng.next();
            if (i % 4 == 0) v = sem::bits(special[(i / 4 + uint32_t(j) * 7) % special.size()]);
            if (i % 4 == 2) v = rng.next() % 64 - 32;
            in[j].push_back(v);
        }
    }
    const float hard[][3] = {{0x1.1p+8f, 0x1.a4005p-73f, 0x1.008p-128f}, {-0x1.7p-138f, 0x1.1d8e5p+72f, 0x1.ff5cb8p-128f},
                             {0.1f, 10.0f, -1.0f}, {0x1p-100f, 0x1p-40f, 0x1p-149f}};
    for (uint32_t h = 0; h < 4; ++h)
        for (int j = 0; j < 3; ++j) in[j][3 + 8 * h] = sem::bits(hard[h][j]);

    GlobalMemory simt_mem(p, "."), ref_mem(p, ".");
    for (GlobalMemory* m : {&simt_mem, &ref_mem})
        for (int j = 0; j < 3; ++j) std::memcpy(m->data(j), in[j].data(), kThreads * 4);
    run_functional(p, simt_mem);
    run_reference(p, ref_mem);
    const auto out = test::words(p, simt_mem, "o"), ref = test::words(p, ref_mem, "o");
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i] != ref[i]) FAIL_CHECK(ops[i / kThreads]->mnemonic << " thread " << i % kThreads << ": " << out[i] << " != reference " << ref[i]);
    CHECK(out == ref);
    uint64_t mismatches = 0;
    for (size_t k = 0; k < ops.size(); ++k) {
        for (uint32_t i = 0; i < kThreads; ++i) {
            const std::string_view sig = ops[k]->signature;
            const uint32_t imm = sig.find('K') != sig.npos ? 0xca : sig.find('S') != sig.npos ? 5 : 0;
            const uint32_t c = sig.size() > 6 && sig[6] == 'S' ? 5 : in[2][i];   // lea: the shift is operand c
            const uint32_t want = i % 4 == 1 ? 7u : sem::value(ops[k]->op, in[0][i], in[1][i], c, imm);
            if (out[k * kThreads + i] != want) {
                if (++mismatches < 10) FAIL_CHECK(ops[k]->mnemonic << " lane input " << i << ": " << out[k * kThreads + i]
                                                                  << " != " << want);
            }
        }
    }
    CHECK(mismatches == 0);
}
