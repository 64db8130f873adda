// fast_div.hpp: division and remainder by a divisor fixed at load (lines per group,
// slices, sectors per line, DRAM channels), without a divide instruction: the memory
// path divides several times per sector, and a 64-bit divide costs tens of cycles.
//
// Exact for every 64-bit numerator and divisor: a power of two shifts and masks; any
// other divisor d multiplies by c = ceil(2^128 / d) and keeps the top 64 bits of the
// 192-bit product (Lemire, Kaser and Kurz 2019, "Faster remainder by direct
// computation": with 2N fraction bits, floor(c n / 2^2N) = floor(n / d) for all
// n, d < 2^N). tests/test_timing_fast_div.cpp checks it against / and %.
#pragma once

#include <bit>
#include <cstdint>

namespace simt::timing {

class FastDiv {
public:
    FastDiv() : FastDiv(1) {}
    explicit FastDiv(uint64_t d) : d_(d ? d : 1) {
        if (std::has_single_bit(d_)) {
            shift_ = std::countr_zero(d_);
            return;
        }
        const U128 c = ~U128(0) / d_ + 1;  // ceil(2^128 / d): d is no power of two, so it does not divide 2^128
        hi_ = uint64_t(c >> 64);
        lo_ = uint64_t(c);
    }
    uint64_t div(uint64_t n) const {
        if (shift_ >= 0) return n >> shift_;
        const uint64_t carry = uint64_t((U128(lo_) * n) >> 64);
        return uint64_t((U128(hi_) * n + carry) >> 64);  // (hi_ < 2^63: no overflow)
    }
    uint64_t mod(uint64_t n) const { return shift_ >= 0 ? n & (d_ - 1) : n - div(n) * d_; }
    uint64_t divisor() const { return d_; }

private:
    __extension__ typedef unsigned __int128 U128;
    uint64_t d_;
    int shift_ = -1;
    uint64_t hi_ = 0, lo_ = 0;
};

}  // namespace simt::timing
