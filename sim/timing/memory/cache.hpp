// cache.hpp: a sectored, set-associative, LRU cache of tags (no data).
//
// Lines of spec.line_bytes hold line_bytes / sector_bytes sectors, each with a
// valid bit, a dirty bit and the cycle its data arrives (fill time), so a hit
// on a sector still in flight waits for it (an MSHR merge). Tag state changes
// at access time; replacement is LRU by an access counter, deterministic.
// Set index = line address modulo the number of sets.
//
// Left out: address hashing across sets/slices, MSHR limits, sector-miss
// bandwidth inside the cache, write-back traffic timing (counted by the caller).
#pragma once

#include "sim/config/config.hpp"

#include <cstdint>
#include <vector>

namespace simt::timing {

class SectorCache {
public:
    SectorCache(const CacheSpec& spec, uint32_t sector_bytes);

    // Sector present: refreshes LRU, returns true and its fill time.
    bool probe(uint64_t sector, uint64_t& fill_time);
    // Makes the sector present (allocating its line, evicting the LRU line of
    // the set when needed) with the given fill time; `dirty` marks it dirty.
    // Returns the number of dirty sectors evicted.
    uint32_t fill(uint64_t sector, uint64_t fill_time, bool dirty);
    // If the sector is present, marks it dirty (and valid) without changing LRU.
    bool present(uint64_t sector) const;
    uint32_t sectors_per_line() const { return spl_; }
    uint64_t lines() const { return ways_.size(); }

private:
    struct Way {
        uint64_t line = ~0ull;
        uint64_t lru = 0;
        uint32_t valid = 0;  // sector bits
        uint32_t dirty = 0;
    };
    int64_t find(uint64_t line) const;  // way index or -1

    uint32_t sets_ = 1, assoc_ = 1, spl_ = 1;
    uint64_t clock_ = 0;
    std::vector<Way> ways_;          // sets * assoc
    std::vector<uint64_t> fill_;     // sets * assoc * spl: fill time of each sector
};

}  // namespace simt::timing
