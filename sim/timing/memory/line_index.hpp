// line_index.hpp: where a cache holds a line, found in one probe on average
// instead of a scan of the set's ways (the L1 has 56 ways: a streaming miss
// compared 56 tags).
//
// An open-addressing hash table (linear probing, at most half full) from a
// line to its way; the caller owns the ways and passes their lines in, so an
// entry is only the way's index. Erasing shifts the following entries back
// (no tombstones), so a lookup stops at the first empty slot. Only a speed
// structure: the cache finds exactly the way a scan would (a line is held by
// at most one way).
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
        slot_.assign(slots, kNone);
    }

    // The way holding `line`, or kNone; line_of(way) gives each way's line.
    template <class LineOf>
    uint32_t find(uint64_t line, const LineOf& line_of) const {
        for (uint64_t s = home(line);; s = (s + 1) & mask_) {
            const uint32_t w = slot_[s];
            if (w == kNone || line_of(w) == line) return w;
        }
    }
    // `way` now holds `line` (not in the index yet).
    void insert(uint64_t line, uint32_t way) {
        uint64_t s = home(line);
        while (slot_[s] != kNone) s = (s + 1) & mask_;
        slot_[s] = way;
    }
    // `line` (held by some way, in the index) leaves; line_of still gives its line.
    template <class LineOf>
    void erase(uint64_t line, const LineOf& line_of) {
        uint64_t hole = home(line);
        while (line_of(slot_[hole]) != line) hole = (hole + 1) & mask_;
        // Shift back each following entry whose home is not in (hole, s].
        for (uint64_t s = (hole + 1) & mask_; slot_[s] != kNone; s = (s + 1) & mask_) {
            const uint64_t h = home(line_of(slot_[s]));
            const bool stays = hole <= s ? (hole < h && h <= s) : (hole < h || h <= s);
            if (stays) continue;
            slot_[hole] = slot_[s];
            hole = s;
        }
        slot_[hole] = kNone;
    }

private:
    uint64_t home(uint64_t line) const { return (line * 0x9E3779B97F4A7C15ull) >> shift_ & mask_; }

    uint32_t shift_ = 63;
    uint64_t mask_ = 1;
    std::vector<uint32_t> slot_;  // a way, or kNone
};

}  // namespace simt::timing
