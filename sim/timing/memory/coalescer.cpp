// coalescer.cpp: sector lists and bank-conflict degrees (see coalescer.hpp).
#include "sim/timing/memory/coalescer.hpp"

#include <algorithm>
#include <bit>

namespace simt::timing {

namespace {

// std::has_single_bit without the library call it becomes without -mpopcnt (once per request).
bool power_of_two(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

// The first n sectors of out, sorted and without repeats (they already are when `sorted`).
void finish(SectorList& out, uint32_t n, bool sorted) {
    if (!sorted) {
        std::sort(out.sector.begin(), out.sector.begin() + n);
        n = uint32_t(std::unique(out.sector.begin(), out.sector.begin() + n) - out.sector.begin());
    }
    out.count = n;
}

// The common case, one sector per lane and sectors of a power of two bytes:
// what coalesce's loop computes, with shifts instead of divisions. False (and
// nothing decided) when a lane's access crosses a sector.
bool coalesce_narrow(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t sector_bytes, SectorList& out) {
    const int shift = std::countr_zero(sector_bytes);
    const uint64_t len = bytes ? bytes : 1;
    uint32_t n = 0;
    bool sorted = true;
    uint64_t last = 0;
    for (uint32_t m = exec; m; m &= m - 1) {
        const uint64_t a = addr[std::countr_zero(m)];
        const uint64_t s = a >> shift;
        if ((a + len - 1) >> shift != s) return false;
        if (n && s == last) continue;
        sorted &= !(n && s < last);
        out.sector[n++] = s;
        last = s;
    }
    finish(out, n, sorted);
    return true;
}

// The commonest case of all, a full warp reading or writing consecutive elements (lane l at
// addr[0] + l * bytes, addr[0] aligned to them, bytes a power of two no larger than a sector): no
// lane crosses a sector and the lanes cover their bytes without a gap, so the sectors are those
// from the first lane's to the last lane's, ascending, each once, what coalesce_narrow's loop
// finds. False (nothing decided) for any other warp. The test is one pass without a branch per
// lane (64-bit add, xor and or: the baseline ISA's vectors have them).
bool coalesce_contiguous(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t sector_bytes,
                         SectorList& out) {
    if (exec != ~0u || !power_of_two(bytes) || bytes > sector_bytes) return false;
    const uint64_t a0 = addr[0], span = 32ull * bytes;
    if ((a0 & (bytes - 1)) != 0 || a0 + span < a0) return false;
    uint64_t off = 0, want = a0;
    for (uint32_t l = 0; l < 32; ++l) {  // (an induction by addition: the compiler vectorises it)
        off |= addr[l] ^ want;
        want += bytes;
    }
    if (off) return false;
    const int shift = std::countr_zero(sector_bytes);
    const uint64_t first = a0 >> shift;
    const uint32_t n = uint32_t(((a0 + span - 1) >> shift) - first + 1);
    for (uint32_t i = 0; i < n; ++i) out.sector[i] = first + i;
    out.count = n;
    return true;
}

// A scatter: as many sectors as lanes, each lane's bytes inside one sector and fewer than a
// sector's, so every sector holds one lane's bytes and is partial (what partial_sectors' masks
// would find, without a search per lane).
bool one_lane_per_sector(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t sector_bytes,
                         const SectorList& s) {
    const uint64_t len = bytes ? bytes : 1;
    if (len >= sector_bytes || s.count != uint32_t(std::popcount(exec))) return false;
    bool inside = true;
    for (uint32_t m = exec; m; m &= m - 1) inside &= addr[std::countr_zero(m)] % sector_bytes + len <= sector_bytes;
    return inside;
}

}  // namespace

bool coalesce(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t sector_bytes, SectorList& out) {
    if (power_of_two(sector_bytes) && coalesce_contiguous(exec, addr, bytes, sector_bytes, out)) return true;
    if (power_of_two(sector_bytes) && coalesce_narrow(exec, addr, bytes, sector_bytes, out)) return false;
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
    finish(out, n, sorted);
    return false;
}

uint64_t partial_sectors(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t sector_bytes,
                         const SectorList& s) {
    if (sector_bytes > 32 || s.count == 0) return 0;
    if (one_lane_per_sector(exec, addr, bytes, sector_bytes, s)) return (1ull << s.count) - 1;  // (count <= 32 lanes)
    std::array<uint32_t, 64> mask{};  // bytes written per sector of s
    const uint32_t n = bytes ? bytes : 1;
    for (uint32_t m = exec; m; m &= m - 1) {
        uint64_t a = addr[std::countr_zero(m)];
        for (uint64_t b = a; b < a + n;) {
            uint64_t sec = b / sector_bytes;
            uint64_t end = std::min(a + n, (sec + 1) * sector_bytes);
            auto it = std::lower_bound(s.sector.begin(), s.sector.begin() + s.count, sec);
            uint32_t lo = uint32_t(b % sector_bytes), hi = uint32_t(end - sec * sector_bytes);
            uint32_t bits = (hi >= 32 ? ~0u : (1u << hi) - 1) & ~((1u << lo) - 1);
            if (it != s.sector.begin() + s.count && *it == sec) mask[it - s.sector.begin()] |= bits;
            b = end;
        }
    }
    const uint32_t full = sector_bytes >= 32 ? ~0u : (1u << sector_bytes) - 1;
    uint64_t partial = 0;
    for (uint32_t i = 0; i < s.count; ++i)
        if (mask[i] != full) partial |= 1ull << i;
    return partial;
}

void group_atomics(uint32_t exec, const LaneAddrs& addr, AtomicGroups& out) {
    std::array<uint64_t, 32> a;
    uint32_t n = 0;
    for (uint32_t m = exec; m; m &= m - 1) a[n++] = addr[std::countr_zero(m)];
    std::sort(a.begin(), a.begin() + n);
    out.count = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (out.count && out.addr[out.count - 1] == a[i]) { ++out.lanes[out.count - 1]; continue; }
        out.addr[out.count] = a[i];
        out.lanes[out.count++] = 1;
    }
}

uint32_t max_lanes_per_word(uint32_t exec, const LaneAddrs& addr) {
    if (!exec) return 0;
    std::array<uint64_t, 32> w;
    uint32_t n = 0;
    for (uint32_t m = exec; m; m &= m - 1) w[n++] = addr[std::countr_zero(m)] / 4;
    std::sort(w.begin(), w.begin() + n);
    uint32_t best = 1, run = 1;
    for (uint32_t i = 1; i < n; ++i) {
        run = w[i] == w[i - 1] ? run + 1 : 1;
        best = std::max(best, run);
    }
    return best;
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

// A full warp of consecutive aligned elements of at most a word (lane l at addr[0] + l * bytes): its
// words are consecutive, at most 32 of them, so when they are no more than the banks each distinct
// word has a bank of its own (what the search below finds: one wavefront). One pass without a
// branch per lane, as coalesce_contiguous's; none when `consecutive` (coalesce_contiguous's answer).
bool contiguous_in_banks(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t banks, bool consecutive) {
    if (exec != ~0u || bytes == 0 || bytes > 4 || (bytes & (bytes - 1)) != 0 || banks > 64) return false;
    const uint64_t a0 = addr[0], span = 32ull * bytes;
    if ((a0 & (bytes - 1)) != 0 || a0 + span < a0) return false;
    if ((a0 + span - 1) / 4 - a0 / 4 + 1 > banks) return false;
    if (consecutive) return true;
    uint64_t off = 0, want = a0;
    for (uint32_t l = 0; l < 32; ++l) {
        off |= addr[l] ^ want;
        want += bytes;
    }
    return off == 0;
}

}  // namespace

uint32_t shared_wavefronts(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t banks, bool consecutive) {
    if (!exec) return 0;
    if (banks == 0) return 1;
    if (contiguous_in_banks(exec, addr, bytes, banks, consecutive)) return 1;
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

namespace {

// The active lanes n and n ^ step (both active) read the same address, for every such pair.
bool pairs_share(uint32_t exec, const LaneAddrs& addr, uint32_t step) {
    for (uint32_t m = exec; m; m &= m - 1) {
        const uint32_t lane = std::countr_zero(m), partner = lane ^ step;
        if (exec >> partner & 1 && addr[lane] != addr[partner]) return false;
    }
    return true;
}

}  // namespace

uint32_t return_wavefronts(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t return_bytes) {
    if (!exec || !return_bytes) return exec ? 1 : 0;
    const uint32_t need = std::max(1u, (32 * bytes + return_bytes - 1) / return_bytes);
    if (need == 1) return 1;
    return pairs_share(exec, addr, 1) || pairs_share(exec, addr, 2) ? (need + 1) / 2 : need;
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
