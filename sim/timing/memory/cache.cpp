// cache.cpp: sectored set-associative LRU tags (see cache.hpp).
#include "sim/timing/memory/cache.hpp"

#include <algorithm>
#include <bit>

namespace simt::timing {

SectorCache::SectorCache(const CacheSpec& spec, uint32_t sector_bytes) {
    uint32_t line = std::max(spec.line_bytes, 1u);
    spl_ = std::clamp(line / std::max(sector_bytes, 1u), 1u, 32u);
    assoc_ = std::max(spec.assoc, 1u);
    uint64_t lines = spec.size_bytes / line;
    sets_ = uint32_t(std::max<uint64_t>(1, lines / assoc_));
    ways_.assign(uint64_t(sets_) * assoc_, Way{});
    fill_.assign(ways_.size() * spl_, 0);
}

int64_t SectorCache::find(uint64_t line) const {
    uint64_t base = (line % sets_) * assoc_;
    for (uint32_t w = 0; w < assoc_; ++w)
        if (ways_[base + w].line == line) return int64_t(base + w);
    return -1;
}

bool SectorCache::probe(uint64_t sector, uint64_t& fill_time) {
    int64_t i = find(sector / spl_);
    if (i < 0) return false;
    Way& way = ways_[i];
    uint32_t s = uint32_t(sector % spl_);
    if (!(way.valid >> s & 1)) return false;
    way.lru = ++clock_;
    fill_time = fill_[uint64_t(i) * spl_ + s];
    return true;
}

bool SectorCache::present(uint64_t sector) const {
    int64_t i = find(sector / spl_);
    return i >= 0 && (ways_[i].valid >> (sector % spl_) & 1);
}

uint32_t SectorCache::fill(uint64_t sector, uint64_t fill_time, bool dirty) {
    uint64_t line = sector / spl_;
    uint32_t s = uint32_t(sector % spl_);
    uint32_t evicted_dirty = 0;
    int64_t i = find(line);
    if (i < 0) {
        uint64_t base = (line % sets_) * assoc_;
        i = int64_t(base);
        for (uint32_t w = 0; w < assoc_; ++w) {
            const Way& c = ways_[base + w];
            if (c.line == ~0ull) { i = int64_t(base + w); break; }
            if (c.lru < ways_[i].lru) i = int64_t(base + w);
        }
        Way& victim = ways_[i];
        evicted_dirty = std::popcount(victim.dirty & victim.valid);
        victim = Way{line, 0, 0, 0};
    }
    Way& way = ways_[i];
    way.lru = ++clock_;
    way.valid |= 1u << s;
    if (dirty) way.dirty |= 1u << s;
    fill_[uint64_t(i) * spl_ + s] = fill_time;
    return evicted_dirty;
}

}  // namespace simt::timing
