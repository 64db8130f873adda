// line_index.hpp: where a cache holds a line, found in one probe on average
// instead of a scan of the set's ways (the L1 has 56 ways: a streaming miss
// compared 56 tags).
//
// An open-addressing hash table (linear probing, at most half full) from a
// line to its way. An entry holds the line beside the way, so a probe and the
// shifts of an erase read only the table (not the caller's ways: a random
// line's way is a cache miss of the host). Erasing shifts the following
// entries back (no tombstones), so a lookup stops at the first empty slot.
// Only a speed structure: the cache finds exactly the way a scan would (a
// line is held by at most one way).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace simt::timing {

class LineIndex {
public:
    static constexpr uint32_t kNone = ~0u;

    explicit LineIndex(uint64_t ways) {
        const uint64_t slots = std::bit_ceil(std::max<uint64_t>(2 * ways, 2));
        shift_ = 64 - uint32_t(std::countr_zero(slots));
        mask_ = slots - 1;
        slot_.assign(slots, Entry{});
    }

    // The way holding `line`, or kNone.
    uint32_t find(uint64_t line) const {
        for (uint64_t s = home(line);; s = (s + 1) & mask_) {
            const Entry& e = slot_[s];
            if (e.way == kNone || e.line == line) return e.way;
        }
    }
    // `way` now holds `line` (not in the index yet).
    void insert(uint64_t line, uint32_t way) {
        const uint32_t h = home(line);
        uint64_t s = h;
        while (slot_[s].way != kNone) s = (s + 1) & mask_;
        slot_[s] = Entry{line, way, h};
    }
    // `line` (in the index) leaves.
    void erase(uint64_t line) {
        uint64_t hole = home(line);
        while (slot_[hole].line != line) hole = (hole + 1) & mask_;  // (an empty entry's line is ~0)
        // Shift back each following entry whose home is not in (hole, s].
        for (uint64_t s = (hole + 1) & mask_; slot_[s].way != kNone; s = (s + 1) & mask_) {
            const uint64_t h = slot_[s].home;
            const bool stays = hole <= s ? (hole < h && h <= s) : (hole < h || h <= s);
            if (stays) continue;
            slot_[hole] = slot_[s];
            hole = s;
        }
        slot_[hole] = Entry{};
    }

private:
    struct Entry {
        uint64_t line = ~0ull;
        uint32_t way = kNone;
        uint32_t home = 0;  // home(line), kept for erase's shifts
    };
    uint32_t home(uint64_t line) const { return uint32_t((line * 0x9E3779B97F4A7C15ull) >> shift_ & mask_); }

    uint32_t shift_ = 63;
    uint64_t mask_ = 1;
    std::vector<Entry> slot_;
};

}  // namespace simt::timing
