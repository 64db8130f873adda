// fpmath.hpp: the fp32 arithmetic behind ffma and the special functions
// (sin, cos, ex2, lg2, fmin, fmax), written out so that every host gives the
// same bits: no call into the host's math library, only IEEE-754 +, -, *, /
// and conversions (the build keeps -ffp-contract=off, so nothing is fused
// behind our back), in branch-free forms that a compiler vectorises over the
// 32 lanes of a warp (SSE2 is enough), with a rare exact path where needed.
//
//   ffma     the fused a * b + c, correctly rounded, without FMA hardware:
//            a * b is exact in double, and the double sum rounded to float is
//            right unless it lies exactly on a float rounding boundary
//            (ffma_exact_needed). Then ffma_exact rounds the sum "to odd"
//            (TwoSum gives the exact error), which makes the final rounding
//            correct (Boldo & Melquiond, "Emulation of FMA and correctly
//            rounded sums: proved algorithms using rounding to odd", IEEE TC
//            2008).
//   sin/cos  |x| <= kTrigQuickMax (8192): x = j * pi/2 + r with j even (sin)
//            or odd (cos), r in [-pi/2, pi/2] by a three-part Cody-Waite
//            reduction in float (first steps exact), then an odd degree-9
//            polynomial. Larger |x|: exact Payne-Hanek reduction with 96 bits
//            of 2/pi (fpmath.cpp), then the same polynomial. Never outside
//            [-1, 1]; sin(-0) = -0; inf and NaN give NaN. Absolute error
//            <= 2^-22.8 for every float (measured: 2^-22.85); NVIDIA documents
//            about 2^-21 for its fast sine on [-pi, pi], worse outside.
//   ex2      2^x = 2^n * 2^f, n = rint(x), |f| <= 1/2, 2^f by a degree-6
//            polynomial; the scaling rounds once, so subnormal results (within
//            one unit of 2^-149) and overflow to inf are right. Relative error
//            2^-23.3 for normal results; exact for integer x.
//   lg2      x = 2^e * m, m in [sqrt(1/2), sqrt(2)), log2(m) = t * P(t^2)
//            with t = (m - 1) / (m + 1); subnormal x are handled. Relative
//            error 2^-22.09, absolute 2^-23.07 on [1/2, 2); exact for powers
//            of two. lg2(+-0) = -inf, lg2(x < 0) = NaN, lg2(inf) = inf.
//   fmin/max a NaN operand yields the other; -0 is less than +0.
//   NaN      fadd, fsub, fmul and ffma give the canonical NaN 0x7fffffff for
//            any NaN result, as NVIDIA GPUs do (and so do not depend on which
//            operand's payload the host's instruction happens to pass on).
// (rcp, rsqrt and sqrt are IEEE division and square root: correctly rounded,
// more accurate than MUFU.) The errors above are the maxima over every float,
// against double precision: `bench_functional --accuracy`; the "[sfu]" tests
// (tests/test_fpmath.cpp) check the bounds on a sparser sweep.
//
// Left out: the exact bits of NVIDIA's MUFU tables, denormal flushing (.ftz),
// rounding modes other than to nearest even, except the directed forms of fadd, fmul, ffma
// and i2f/u2f below.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace simt::func::sem {

inline float f32(uint32_t b) { return std::bit_cast<float>(b); }
inline uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t bits(double d) { return std::bit_cast<uint64_t>(d); }

// NVIDIA's canonical NaN: what fadd, fsub, fmul and ffma give whenever their
// result is NaN (the host's NaN payloads would depend on operand order, which
// the compiler may change between a vectorised and a scalar loop).
constexpr uint32_t kCanonicalNaN = 0x7fffffffu;

// c ? a : b on bits. Used instead of ?: where a branch would stop the
// compiler from vectorising a lane loop (it may not speculate float operations
// that could trap, so a ?: over a computed float becomes control flow).
inline float pick(bool c, float a, float b) {
    const uint32_t m = 0u - uint32_t(c);
    return f32((bits(a) & m) | (bits(b) & ~m));
}

inline float canonical(float x) { return pick(x == x, x, f32(kCanonicalNaN)); }

// ---------------------------------------------------------------- ffma

// The double nearest to a * b + c (a * b is exact in double).
inline double ffma_double(float a, float b, float c) { return double(a) * double(b) + double(c); }

// True when f = float(s), s = ffma_double(a, b, c), may differ from the
// correctly rounded a * b + c. Every float and every midpoint between two
// floats is a double, so rounding the exact value and rounding s land on the
// same side of each rounding boundary unless s is one: s is exactly halfway
// between two normal floats (the 29 bits below the float's last are 1000...0),
// or f is subnormal or the smallest normal (0 < |f| <= 2^-126, where the grid
// is coarser than that test assumes). f == 0 needs nothing: then c == 0 and
// s == a * b exactly, or p + c has at most 47 significant bits (|c| >= 2^-149
// forces |a * b| >= 2^-150) and s is exact.
// A NaN f is flagged too (ffma_exact makes it canonical).
// Written on 32-bit halves and float compares, without branches: vectorises.
inline bool ffma_exact_needed(double s, float f) {
    const uint32_t lo = uint32_t(bits(s));
    const float m = std::fabs(f);
    return ((lo & 0x1fffffffu) == 0x10000000u) | ((m <= 0x1p-126f) & (m > 0.0f)) | (f != f);
}

// The correctly rounded fused multiply-add, for every input.
inline float ffma_exact(float a, float b, float c) {
    const double p = double(a) * double(b);   // exact: 24 + 24 bits
    const double z = double(c);
    const double s = p + z;
    const double bb = s - p;                  // TwoSum: s + err == p + z exactly
    const double err = (p - (s - bb)) + (z - bb);
    uint64_t u = bits(s);
    // Round to odd: an inexact s with an even last bit moves one double
    // towards the exact value (s != 0 whenever err != 0; NaN err: s is inf or NaN).
    if ((u & 1) == 0 && (err > 0 || err < 0)) u = (err > 0) == (s > 0) ? u + 1 : u - 1;
    return s != s ? f32(kCanonicalNaN) : float(f64(u));
}

inline float ffma(float a, float b, float c) {
    const double s = ffma_double(a, b, c);
    const float f = float(s);
    return ffma_exact_needed(s, f) ? ffma_exact(a, b, c) : f;
}

// ---------------------------------------------------------------- directed rounding
// SASS .RZ / .RM / .RP (FADD, FMUL, FFMA, I2F): the round-to-nearest result moved one float
// toward the mode's direction when the exact value lies on that side of it. Which side is exact:
// the product of two floats and a 32-bit integer are exact in double; a sum's error comes from
// TwoSum in double (s + e == the exact sum; s - rn is exact, rn being the nearest float to it).

enum class Round : uint8_t { Zero, Down, Up };

// The float of `mode` next to rn, given the sign of (exact - rn).
inline float directed(float rn, int side, Round mode) {
    if (side == 0 || rn != rn) return rn;
    if (mode == Round::Up) return side > 0 ? std::nextafter(rn, INFINITY) : rn;
    if (mode == Round::Down) return side < 0 ? std::nextafter(rn, -INFINITY) : rn;
    return rn != 0 && (side < 0) == (rn > 0) ? std::nextafter(rn, 0.0f) : rn;
}

inline int side_of(double exact, float rn) { return exact > double(rn) ? 1 : exact < double(rn) ? -1 : 0; }

// The sign of (s + e - rn) where s + e is exact and s the double nearest to it.
inline int side_of(double s, double e, float rn) {
    const double d = s - double(rn);
    return d > 0 ? 1 : d < 0 ? -1 : e > 0 ? 1 : e < 0 ? -1 : 0;
}

inline float fmul_dir(float a, float b, Round m) { return canonical(directed(a * b, side_of(double(a) * double(b), a * b), m)); }

inline float fadd_dir(float a, float b, Round m) {
    const double x = a, y = b, s = x + y, bb = s - x, e = (x - (s - bb)) + (y - bb);
    return canonical(directed(a + b, side_of(s, e, a + b), m));
}

inline float ffma_dir(float a, float b, float c, Round m) {
    const double p = double(a) * double(b), z = c, s = p + z, bb = s - p, e = (p - (s - bb)) + (z - bb);
    const float rn = ffma(a, b, c);
    return canonical(directed(rn, side_of(s, e, rn), m));
}

// An integer (exact in double) to float in the mode.
inline float cvt_dir(double exact, Round m) { return directed(float(exact), side_of(exact, float(exact)), m); }

// ---------------------------------------------------------------- fmin, fmax

inline float fmin(float a, float b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return f32(bits(a) | bits(b));   // min(-0, +0) = -0
    return a < b ? a : b;
}
inline float fmax(float a, float b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return f32(bits(a) & bits(b));   // max(-0, +0) = +0
    return a > b ? a : b;
}

// ---------------------------------------------------------------- sin, cos

// Arguments up to this magnitude take the float reduction (trig_quick).
constexpr float kTrigQuickMax = 8192.0f;

namespace detail {
constexpr float kRoundMagic = 0x1.8p23f;   // y + magic - magic == rint(y) for |y| < 2^22
constexpr float kInvPi = 0x1.45f306p-2f;
// pi/2 = kPio2A + kPio2B + kPio2C + O(2^-49): A and B have 11 significant
// bits, so j * A and j * B are exact for |j| < 2^13.
constexpr float kPio2A = 0x1.92p+0f;
constexpr float kPio2B = 0x1.fb4p-12f;
constexpr float kPio2C = 0x1.4442d2p-24f;
}  // namespace detail

// sin(r) for |r| <= pi/2 + 0.003, its sign bit flipped by `flip` (0 or 1 << 31).
inline float trig_finish(float r, uint32_t flip) {
    // sin(r) = r + r * u * Q(u), u = r^2: Chebyshev fit on [0, (pi/2 + 0.003)^2].
    const float u = r * r;
    float q = 0x1.6191fep-19f;
    q = q * u - 0x1.9fb5c6p-13f;
    q = q * u + 0x1.11104ap-7f;
    q = q * u - 0x1.555554p-3f;
    const float s = r + r * (u * q);
    // |s| <= 1 (rounding can pass 1 by an ulp near r = pi/2); s is never NaN
    // here. The sign is r's (sin r has it; s = +0 would lose it for r = -0).
    float mag = f32(bits(s) & 0x7fffffffu);
    mag = mag < 1.0f ? mag : 1.0f;
    return f32(bits(mag) | ((bits(r) & 0x80000000u) ^ flip));
}

// sin (cosine == false) or cos of x for |x| <= kTrigQuickMax. Branch-free;
// any other x gives some value (never undefined behaviour).
//   x = j * pi/2 + r, j = 2k (sin, k = rint(x / pi)) or 2k + 1 (cos,
//   k = rint(x / pi - 1/2)); sin x = (-1)^k sin r, cos x = (-1)^(k+1) sin r.
inline float trig_quick(float x, bool cosine) {
    using namespace detail;
    const float y = x * kInvPi - (cosine ? 0.5f : 0.0f);   // |y| < 2^12: - 0.5 is exact
    const float big = y + kRoundMagic;                     // its low bits hold k
    const float k = big - kRoundMagic;
    // r = x - (j/2) * pi with j/2 = k or k + 1/2 (exact); (j/2) * kPiA is
    // j * kPio2A, exact, and so is the first difference.
    const float h = cosine ? k + 0.5f : k;
    float r = x - h * (2 * kPio2A);
    r = r - h * (2 * kPio2B);
    r = r - h * (2 * kPio2C);
    return trig_finish(r, (bits(big) + (cosine ? 1u : 0u)) << 31);
}

// The same for any x: Payne-Hanek reduction (fpmath.cpp).
float trig_large(float x, bool cosine);

// |x| <= kTrigQuickMax, on the bits (false for NaN; one integer compare: vectorises well).
inline bool trig_is_quick(float x) { return int32_t(bits(x) & 0x7fffffffu) <= int32_t(bits(kTrigQuickMax)); }
inline float sin(float x) { return trig_is_quick(x) ? trig_quick(x, false) : trig_large(x, false); }
inline float cos(float x) { return trig_is_quick(x) ? trig_quick(x, true) : trig_large(x, true); }

// ---------------------------------------------------------------- ex2, lg2

inline float ex2(float x) {
    // Clamped so that n fits the two-step scaling; beyond, the result is 0 or inf anyway.
    const float xc = pick(x < -152.0f, -152.0f, pick(x < 130.0f, x, 130.0f));
    const float big = xc + detail::kRoundMagic;
    const int32_t n = int32_t(bits(big) - bits(detail::kRoundMagic));   // rint(xc)
    const float f = xc - (big - detail::kRoundMagic);                   // exact, |f| <= 1/2
    // 2^f = 1 + f * Q(f): Chebyshev fit on [-1/2, 1/2].
    float q = 0x1.44138ap-13f;
    q = q * f + 0x1.5f089p-10f;
    q = q * f + 0x1.3b2a54p-7f;
    q = q * f + 0x1.c6af6cp-5f;
    q = q * f + 0x1.ebfbep-3f;
    q = q * f + 0x1.62e43p-1f;
    const float p = 1.0f + f * q;
    // 2^n in two normal factors: the first product is exact, the second rounds once.
    const int32_t n1 = n >> 1, n2 = n - n1;
    const float r = (p * f32(uint32_t(n1 + 127) << 23)) * f32(uint32_t(n2 + 127) << 23);
    return pick(x == x, r, x + x);   // NaN in, NaN out
}

inline float lg2(float x) {
    const uint32_t ux = bits(x);
    // Subnormals: scale by 2^23 first (exact).
    const bool sub = ux < 0x00800000u;
    const uint32_t u = bits(pick(sub, x * 0x1p23f, x));
    // m in [sqrt(1/2), sqrt(2)): mantissas above sqrt(2)'s take exponent -1.
    const uint32_t mant = u & 0x007fffffu;
    const int32_t high = mant > 0x3504f3u ? 1 : 0;
    const float m = f32(mant | (0x3f800000u - (uint32_t(high) << 23)));
    const int32_t e = int32_t((u >> 23) & 0xffu) - 127 + high - (sub ? 23 : 0);
    const float t = (m - 1.0f) / (m + 1.0f);   // m - 1 is exact
    const float v = t * t;
    // log2(m) = t * P(t^2): Chebyshev fit on |t| <= 3 - 2 sqrt(2).
    float q = 0x1.ba1a6p-2f;
    q = q * v + 0x1.27471ap-1f;
    q = q * v + 0x1.ec70e6p-1f;
    q = q * v + 0x1.715476p+1f;
    float r = float(e) + t * q;
    // x = +inf or NaN: x itself; 0: -inf; x < 0: NaN. (Selects, not branches.)
    r = pick(ux >= 0x7f800000u, x + x, r);
    r = pick(x == 0.0f, -INFINITY, r);
    return pick(x < 0.0f, NAN, r);
}

}  // namespace simt::func::sem
