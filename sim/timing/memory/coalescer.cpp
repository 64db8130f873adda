// coalescer.cpp: sector lists and bank-conflict degrees (see coalescer.hpp).
#include "sim/timing/memory/coalescer.hpp"

#include <algorithm>
#include <bit>

namespace simt::timing {

void coalesce(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t sector_bytes, SectorList& out) {
    uint32_t n = 0;
    bool sorted = true;
    uint64_t last = 0;
    for (uint32_t m = exec; m; m &= m - 1) {
        uint32_t lane = std::countr_zero(m);
        uint64_t first = addr[lane] / sector_bytes;
        uint64_t end = (addr[lane] + (bytes ? bytes : 1) - 1) / sector_bytes;
        for (uint64_t s = first; s <= end && n < out.sector.size(); ++s) {
            if (n && s == last) continue;  // the common coalesced case: repeats are adjacent
            if (n && s < last) sorted = false;
            out.sector[n++] = s;
            last = s;
        }
    }
    if (!sorted) {
        std::sort(out.sector.begin(), out.sector.begin() + n);
        n = uint32_t(std::unique(out.sector.begin(), out.sector.begin() + n) - out.sector.begin());
    }
    out.count = n;
}

namespace {

// General case: sort (bank, word) keys and count distinct words per bank.
uint32_t wavefronts_slow(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t banks) {
    std::array<uint64_t, 32 * 4> words;
    uint32_t n = 0;
    uint32_t per_lane = std::max(1u, (bytes + 3) / 4);
    for (uint32_t m = exec; m; m &= m - 1) {
        uint32_t lane = std::countr_zero(m);
        uint64_t w0 = addr[lane] / 4;
        for (uint32_t k = 0; k < per_lane && n < words.size(); ++k) words[n++] = w0 + k;
    }
    std::sort(words.begin(), words.begin() + n);
    n = uint32_t(std::unique(words.begin(), words.begin() + n) - words.begin());
    // Count per bank (banks is small; words are distinct now).
    std::array<uint32_t, 256> per_bank{};
    uint32_t worst = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t b = uint32_t(words[i] % banks) & 255u;
        worst = std::max(worst, ++per_bank[b]);
    }
    return worst;
}

}  // namespace

uint32_t shared_wavefronts(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t banks) {
    if (!exec) return 0;
    if (banks == 0) return 1;
    if (bytes <= 4 && banks <= 64) {
        // Fast path: no two distinct words share a bank -> one wavefront.
        uint64_t used = 0;
        std::array<uint64_t, 64> word_of{};
        bool conflict = false;
        for (uint32_t m = exec; m && !conflict; m &= m - 1) {
            uint32_t lane = std::countr_zero(m);
            uint64_t w = addr[lane] / 4;
            uint32_t b = uint32_t(w % banks);
            if (!(used >> b & 1)) { used |= 1ull << b; word_of[b] = w; }
            else if (word_of[b] != w) conflict = true;
        }
        if (!conflict) return 1;
    }
    return wavefronts_slow(exec, addr, bytes, banks);
}

uint32_t distinct_addresses(uint32_t exec, const LaneAddrs& addr) {
    if (!exec) return 0;
    std::array<uint64_t, 32> a;
    uint32_t n = 0;
    bool all_same = true;
    for (uint32_t m = exec; m; m &= m - 1) {
        uint32_t lane = std::countr_zero(m);
        a[n] = addr[lane];
        if (n && a[n] != a[0]) all_same = false;
        ++n;
    }
    if (all_same) return 1;
    std::sort(a.begin(), a.begin() + n);
    return uint32_t(std::unique(a.begin(), a.begin() + n) - a.begin());
}

}  // namespace simt::timing
