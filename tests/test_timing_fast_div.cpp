// test_timing_fast_div.cpp: FastDiv (sim/timing/memory/fast_div.hpp) gives what / and % give,
// for small and large divisors (powers of two and others) and numerators at the edges of
// the 64-bit range, near multiples of the divisor, and at random.
#include "sim/timing/memory/fast_div.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

using simt::timing::FastDiv;

TEST_CASE("timing: FastDiv gives the quotient and remainder of / and %", "[timing][memory]") {
    std::mt19937_64 rng(12345);
    std::vector<uint64_t> divisors = {1, 2, 3, 4, 5, 6, 7, 12, 24, 48, 64, 80, 96, 132, 1000, 4096, 65537,
                                      (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1, (1ull << 63) - 1, 1ull << 63,
                                      ~0ull, ~0ull - 1};
    for (int i = 0; i < 200; ++i) divisors.push_back(rng() >> (rng() % 64));
    uint64_t checked = 0;
    for (uint64_t d : divisors) {
        if (d == 0) continue;
        const FastDiv f(d);
        std::vector<uint64_t> ns = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, ~0ull, ~0ull - 1, 1ull << 63,
                                    (1ull << 63) - 1, (~0ull / d) * d, (~0ull / d) * d - 1};
        for (int i = 0; i < 2000; ++i) ns.push_back(rng() >> (rng() % 64));
        for (uint64_t n : ns) {
            ++checked;
            if (f.div(n) == n / d && f.mod(n) == n % d) continue;
            INFO("n = " << n << ", d = " << d);
            REQUIRE(f.div(n) == n / d);
            REQUIRE(f.mod(n) == n % d);
        }
    }
    REQUIRE(checked > 400000);
}
