// cache.cpp: sectored set-associative LRU tags (see cache.hpp).
#include "sim/timing/memory/cache.hpp"

#include <algorithm>

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

Probe SectorCache::lookup(uint64_t sector) {
    Probe p;
    int64_t i = find(sector / spl_);
    if (i < 0) return p;
    Way& way = ways_[i];
    uint32_t bit = 1u << (sector % spl_);
    if (!(way.valid & bit)) return p;
    way.lru = ++clock_;
    p.hit = true;
    p.prefetched = way.prefetched & bit;
    p.partial = way.partial & bit;
    way.prefetched &= ~bit;
    p.fill_time = fill_[uint64_t(i) * spl_ + sector % spl_];
    return p;
}

bool SectorCache::present(uint64_t sector) const {
    int64_t i = find(sector / spl_);
    return i >= 0 && (ways_[i].valid >> (sector % spl_) & 1);
}

uint64_t SectorCache::full_at(uint64_t sector) const {
    int64_t i = find(sector / spl_);
    if (i < 0) return ~0ull;
    const Way& way = ways_[i];
    const uint32_t bit = 1u << (sector % spl_);
    if (!(way.valid & bit) || (way.partial & bit)) return ~0ull;
    return fill_[uint64_t(i) * spl_ + sector % spl_];
}

Eviction SectorCache::invalidate(uint64_t sector) {
    Eviction ev;
    int64_t i = find(sector / spl_);
    if (i < 0) return ev;
    Way& way = ways_[i];
    const uint32_t bit = 1u << (sector % spl_);
    if (!(way.valid & bit)) return ev;
    if (way.dirty & bit) {
        ev.line = way.line;
        ev.dirty = bit;
        ev.partial = way.partial & bit;
    }
    way.valid &= ~bit;
    way.dirty &= ~bit;
    way.partial &= ~bit;
    way.prefetched &= ~bit;
    return ev;
}

Eviction SectorCache::fill(uint64_t sector, uint64_t fill_time, bool dirty, bool partial, bool prefetched) {
    uint64_t line = sector / spl_;
    uint32_t s = uint32_t(sector % spl_);
    Eviction ev;
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
        ev.line = victim.line;
        ev.dirty = victim.dirty & victim.valid;
        ev.partial = victim.partial & ev.dirty;
        victim = Way{line, 0, 0, 0, 0, 0};
    }
    Way& way = ways_[i];
    uint32_t bit = 1u << s;
    const bool was_full = (way.valid & bit) && !(way.partial & bit);
    way.lru = ++clock_;
    way.valid |= bit;
    if (dirty) way.dirty |= bit;
    if (!partial) way.partial &= ~bit;
    else if (!was_full) way.partial |= bit;  // a masked write to a full sector leaves it full
    if (prefetched) way.prefetched |= bit;
    else way.prefetched &= ~bit;
    fill_[uint64_t(i) * spl_ + s] = fill_time;
    return ev;
}

}  // namespace simt::timing
