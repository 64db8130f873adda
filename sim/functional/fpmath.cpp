// fpmath.cpp: sin and cos of large or non-finite arguments (see fpmath.hpp).
//
// Payne-Hanek reduction: for |x| = m * 2^E (m a 24-bit integer), x * 2/pi
// modulo 4 only needs the bits of 2/pi from position E - 1 on (earlier bits
// contribute multiples of 4); 96 of them, times m, give the quadrant and a
// 62-bit fraction, far more than the float polynomial needs. Integer
// arithmetic only, so the result is the same on every host.
// Left out: nothing; this path is slower than trig_quick but exact for all x.
#include "sim/functional/fpmath.hpp"

#include <array>

namespace simt::func::sem {
namespace {

// 2/pi in binary, 32 bits per word, most significant first, preceded by one
// zero word (the bits "before" the binary point of 2/pi < 1).
constexpr std::array<uint32_t, 11> kTwoOverPi = {
    0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599,
    0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0,
};

// 32 bits of 2/pi starting at bit `pos` of kTwoOverPi (0 = first bit of the zero word).
uint32_t two_over_pi_bits(uint32_t pos) {
    const uint32_t w = pos >> 5, shift = pos & 31;
    const uint64_t pair = uint64_t(kTwoOverPi[w]) << 32 | kTwoOverPi[w + 1];
    return uint32_t(pair >> (32 - shift));
}

}  // namespace

float trig_large(float x, bool cosine) {
    if (!std::isfinite(x)) return x - x;   // NaN
    const uint32_t ux = bits(x) & 0x7fffffffu;
    if (ux < 0x00800000u) return trig_quick(x, cosine);   // (only subnormals and zero reach here when called directly)
    const uint64_t m = (ux & 0x007fffffu) | 0x00800000u;
    const int32_t e = int32_t(ux >> 23) - 150;            // |x| = m * 2^e, e in [-149, 104]
    // Bits b_s .. b_{s+95} of 2/pi = 0.b_1 b_2 ..., s = e - 1; b_i sits at
    // position 31 + i of the table (b_i = 0 for i <= 0).
    const int32_t start = 31 + e - 1;
    if (start < 0) return trig_quick(x, cosine);           // |x| < 2^-7: not large (direct calls only)
    const uint64_t w0 = two_over_pi_bits(uint32_t(start));
    const uint64_t w1 = two_over_pi_bits(uint32_t(start + 32));
    const uint64_t w2 = two_over_pi_bits(uint32_t(start + 64));
    // (m * W) mod 2^96 = hi:mid:lo; |x| * 2/pi mod 4 = that / 2^94.
    const uint64_t p2 = m * w2, p1 = m * w1, p0 = m * w0;
    const uint64_t lo = p2 & 0xffffffffu;
    const uint64_t mid_sum = (p1 & 0xffffffffu) + (p2 >> 32);
    const uint64_t mid = mid_sum & 0xffffffffu;
    const uint64_t hi = ((p1 >> 32) + p0 + (mid_sum >> 32)) & 0xffffffffu;
    uint32_t n = uint32_t(hi >> 30);   // quadrant of |x|
    const uint64_t frac = (hi & 0x3fffffffu) << 34 | mid << 2 | lo >> 30;
    double f = double(frac) * 0x1p-64;   // in [0, 1)
    if (f >= 0.5) { f -= 1.0; ++n; }
    if (x < 0) { n = 0u - n; f = -f; }
    // x = n * pi/2 + f * pi/2; make n's parity even for sin, odd for cos.
    if ((n & 1u) != (cosine ? 1u : 0u)) {
        if (f >= 0) { f -= 1.0; ++n; } else { f += 1.0; --n; }
    }
    constexpr double kPio2 = 1.57079632679489661923;
    // sin x = (-1)^(n/2) sin r for even n, cos x = (-1)^((n+1)/2) sin r for odd n.
    return trig_finish(float(f * kPio2), (((n + 1) >> 1) & 1u) << 31);
}

}  // namespace simt::func::sem
