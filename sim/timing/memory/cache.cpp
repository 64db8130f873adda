// cache.cpp: sectored set-associative LRU tags (see cache.hpp).
#include "sim/timing/memory/cache.hpp"

#include <algorithm>
#include <bit>

namespace simt::timing {

SectorCache::SectorCache(const CacheSpec& spec, uint32_t sector_bytes)
    : index_(0) {
    uint32_t line = std::max(spec.line_bytes, 1u);
    spl_ = std::clamp(line / std::max(sector_bytes, 1u), 1u, 32u);
    spl_shift_ = std::has_single_bit(spl_) ? std::countr_zero(spl_) : -1;
    assoc_ = std::max(spec.assoc, 1u);
    uint64_t lines = spec.size_bytes / line;
    sets_ = uint32_t(std::max<uint64_t>(1, lines / assoc_));
    ways_.assign(uint64_t(sets_) * assoc_, Way{});
    for (uint64_t i = 0; i < ways_.size(); ++i) ways_[i].set = uint32_t(i / assoc_);
    link_.assign(ways_.size(), Link{});
    set_.assign(sets_, Set{});
    if (spl_ > kInlineSectors) fill_.assign(ways_.size() * spl_, 0);
    index_ = LineIndex(ways_.size());
}

uint32_t SectorCache::find(uint64_t line) const {
    return index_.find(line);
}

void SectorCache::touch(uint32_t i) {
    const uint32_t set_index = ways_[i].set;
    Set& st = set_[set_index];
    Link* const set = &link_[uint64_t(set_index) * assoc_];
    Link& w = link_[i];
    const uint16_t l = uint16_t(i - uint64_t(set_index) * assoc_);
    if (st.mru == l) return;
    set[w.newer].older = w.older;  // (not the most recent: it has a newer one)
    if (st.lru == l) st.lru = w.newer;
    else set[w.older].newer = w.newer;
    w.older = st.mru;
    set[st.mru].newer = l;
    st.mru = l;
}

// A way for `line` (not present): the set's first unused way, else its least
// recently used one, whose line is evicted. The way is the set's most recent.
uint32_t SectorCache::allocate(uint64_t line, Eviction& ev) {
    const uint32_t set = uint32_t(line % sets_);
    Set& st = set_[set];
    Link* const base = &link_[uint64_t(set) * assoc_];
    uint32_t i;
    if (st.used < assoc_) {
        const uint16_t l = uint16_t(st.used++);
        if (l > 0) {
            base[l].older = st.mru;
            base[st.mru].newer = l;
        } else {
            st.lru = l;
        }
        st.mru = l;
        i = uint32_t(uint64_t(set) * assoc_ + l);
    } else {
        i = uint32_t(uint64_t(set) * assoc_ + st.lru);
        Way& victim = ways_[i];
        ev.line = victim.line;
        if (victim.dirty) --st.dirty_lines;
        ev.dirty = victim.dirty & victim.valid;
        ev.partial = victim.partial & ev.dirty;
        index_.erase(victim.line);
        touch(i);
    }
    Way& way = ways_[i];
    way.line = line;
    way.valid = way.dirty = way.partial = way.prefetched = 0;
    index_.insert(line, i);
    return i;
}

bool SectorCache::probe(uint64_t sector, uint64_t& fill_time) {
    const uint32_t i = find(line_of(sector));
    if (i == LineIndex::kNone) return false;
    const uint32_t s = sector_in_line(sector);
    if (!(ways_[i].valid >> s & 1)) return false;
    touch(i);
    fill_time = fill_at(i, s);
    return true;
}

Probe SectorCache::lookup(uint64_t sector) {
    Probe p;
    const uint32_t i = find(line_of(sector));
    if (i == LineIndex::kNone) return p;
    Way& way = ways_[i];
    const uint32_t s = sector_in_line(sector);
    const uint32_t bit = 1u << s;
    if (!(way.valid & bit)) return p;
    touch(i);
    p.hit = true;
    p.prefetched = way.prefetched & bit;
    p.partial = way.partial & bit;
    way.prefetched &= ~bit;
    p.fill_time = fill_at(i, s);
    return p;
}

bool SectorCache::present(uint64_t sector) const {
    const uint32_t i = find(line_of(sector));
    return i != LineIndex::kNone && (ways_[i].valid >> sector_in_line(sector) & 1);
}

uint64_t SectorCache::full_at(uint64_t sector) const {
    const uint32_t i = find(line_of(sector));
    if (i == LineIndex::kNone) return ~0ull;
    const Way& way = ways_[i];
    const uint32_t s = sector_in_line(sector);
    const uint32_t bit = 1u << s;
    if (!(way.valid & bit) || (way.partial & bit)) return ~0ull;
    return fill_at(i, s);
}

// (The way keeps its line, as before: a later fill of it refills this way.)
Eviction SectorCache::invalidate(uint64_t sector) {
    Eviction ev;
    const uint32_t i = find(line_of(sector));
    if (i == LineIndex::kNone) return ev;
    Way& way = ways_[i];
    const uint32_t bit = 1u << sector_in_line(sector);
    if (!(way.valid & bit)) return ev;
    if (way.dirty & bit) {
        ev.line = way.line;
        ev.dirty = bit;
        ev.partial = way.partial & bit;
    }
    way.valid &= ~bit;
    if (way.dirty == bit) --set_[way.set].dirty_lines;
    way.dirty &= ~bit;
    way.partial &= ~bit;
    way.prefetched &= ~bit;
    return ev;
}

Eviction SectorCache::fill(uint64_t sector, uint64_t fill_time, bool dirty, bool partial, bool prefetched) {
    const uint64_t line = line_of(sector);
    const uint32_t s = sector_in_line(sector);
    Eviction ev;
    uint32_t i = find(line);
    if (i == LineIndex::kNone) i = allocate(line, ev);
    else touch(i);
    Way& way = ways_[i];
    const uint32_t bit = 1u << s;
    const bool was_full = (way.valid & bit) && !(way.partial & bit);
    way.valid |= bit;
    if (dirty && !way.dirty) ++set_[way.set].dirty_lines;
    if (dirty) way.dirty |= bit;
    if (!partial) way.partial &= ~bit;
    else if (!was_full) way.partial |= bit;  // a masked write to a full sector leaves it full
    if (prefetched) way.prefetched |= bit;
    else way.prefetched &= ~bit;
    fill_at(i, s) = fill_time;
    return ev;
}

Eviction SectorCache::clean_excess(uint64_t sector) {
    Eviction ev;
    const uint32_t set = uint32_t(line_of(sector) % sets_);
    Set& st = set_[set];
    if (!dirty_limit_ || st.dirty_lines <= dirty_limit_) return ev;
    Way* const base = &ways_[uint64_t(set) * assoc_];
    const Link* const links = &link_[uint64_t(set) * assoc_];
    for (uint16_t l = st.lru;; l = links[l].newer) {
        Way& w = base[l];
        if (w.dirty) {
            ev.line = w.line;
            ev.dirty = w.dirty & w.valid;
            ev.partial = w.partial & ev.dirty;
            w.dirty = 0;
            --st.dirty_lines;
            return ev;
        }
        if (l == st.mru) return ev;
    }
}

}  // namespace simt::timing
