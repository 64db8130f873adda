// cache.cpp: sectored set-associative LRU tags (see cache.hpp).
#include "sim/timing/memory/cache.hpp"

#include <algorithm>
#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simt::timing {

namespace {

// Bit j set where keys[j] == key, j < 16 (keys on a 64-byte boundary).
uint32_t match16(const uint32_t* keys, uint32_t key) {
#if defined(__SSE2__)
    const __m128i k = _mm_set1_epi32(int(key));
    const __m128i* p = reinterpret_cast<const __m128i*>(keys);
    const __m128i lo = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_load_si128(p), k), _mm_cmpeq_epi32(_mm_load_si128(p + 1), k));
    const __m128i hi = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_load_si128(p + 2), k), _mm_cmpeq_epi32(_mm_load_si128(p + 3), k));
    return uint32_t(_mm_movemask_epi8(_mm_packs_epi16(lo, hi)));  // (packing keeps the order)
#else
    uint32_t m = 0;
    for (uint32_t j = 0; j < 16; ++j) m |= uint32_t(keys[j] == key) << j;
    return m;
#endif
}

}  // namespace

SectorCache::SectorCache(const CacheSpec& spec, uint32_t sector_bytes) {
    uint32_t line = std::max(spec.line_bytes, 1u);
    spl_ = std::clamp(line / std::max(sector_bytes, 1u), 1u, 32u);
    spl_shift_ = std::has_single_bit(spl_) ? std::countr_zero(spl_) : -1;
    assoc_ = std::max(spec.assoc, 1u);
    random_ = spec.random_replacement;
    uint64_t lines = spec.size_bytes / line;
    sets_ = uint32_t(std::max<uint64_t>(1, lines / assoc_));
    by_sets_ = FastDiv(sets_);
    key_stride_ = (assoc_ + kKeyChunk - 1) / kKeyChunk * kKeyChunk;
    key_.assign(uint64_t(sets_) * key_stride_, 0);
    ways_.assign(uint64_t(sets_) * assoc_, Way{});
    for (uint64_t i = 0; i < ways_.size(); ++i) ways_[i].set = uint32_t(i / assoc_);
    link_.assign(ways_.size(), Link{});
    dirty_way_.assign(ways_.size(), 0);
    set_.assign(sets_, Set{});
    if (spl_ > kInlineSectors) fill_.assign(ways_.size() * spl_, 0);
}

// The set's used ways whose key matches, in way order, until one holds the line (at most one does).
uint32_t SectorCache::scan(uint64_t line) const {
    memo_line_ = line;
    memo_way_ = scan_set(line);
    return memo_way_;
}

uint32_t SectorCache::scan_set(uint64_t line) const {
    const uint32_t set = set_of(line);
    const uint32_t* const keys = &key_[uint64_t(set) * key_stride_];
    const uint32_t used = set_[set].used, key = uint32_t(line);
    const uint64_t base = uint64_t(set) * assoc_;
    for (uint32_t w = 0; w < used; w += kKeyChunk) {
        uint32_t m = match16(keys + w, key);
        if (used - w < kKeyChunk) m &= (1u << (used - w)) - 1;
        for (; m; m &= m - 1) {
            const uint32_t i = uint32_t(base + w + uint32_t(std::countr_zero(m)));
            if (ways_[i].line == line) return i;
        }
    }
    return kNone;
}

void SectorCache::touch(uint32_t set_index, uint16_t l) {
    Set& st = set_[set_index];
    if (st.mru == l) return;
    Link* const set = &link_[uint64_t(set_index) * assoc_];
    Link& w = set[l];
    set[w.newer].older = w.older;  // (not the most recent: it has a newer one)
    if (st.lru == l) st.lru = w.newer;
    else set[w.older].newer = w.newer;
    w.older = st.mru;
    set[st.mru].newer = l;
    st.mru = l;
}

// A full set's victim under random replacement: xorshift64, one draw per eviction.
uint16_t SectorCache::random_way() {
    victim_rng_ ^= victim_rng_ << 13;
    victim_rng_ ^= victim_rng_ >> 7;
    victim_rng_ ^= victim_rng_ << 17;
    return uint16_t(victim_rng_ % assoc_);
}

// A way for `line` (not present): the set's first unused way, else its least
// recently used one (random_: a pseudo-random one), whose line is evicted. The way is the set's most recent.
// The victim's way is read only when it holds dirty data (else there is nothing
// to write back), and the new line's way is only written: a fill of a random
// line waits for no host cache miss on it.
uint32_t SectorCache::allocate(uint64_t line, Eviction& ev) {
    const uint32_t set = set_of(line);
    Set& st = set_[set];
    Link* const base = &link_[uint64_t(set) * assoc_];
    uint32_t i;
    uint16_t l;
    if (st.used < assoc_) {
        l = uint16_t(st.used++);
        if (l > 0) {
            base[l].older = st.mru;
            base[st.mru].newer = l;
        } else {
            st.lru = l;
        }
        st.mru = l;
        i = uint32_t(uint64_t(set) * assoc_ + l);
    } else {
        l = random_ ? random_way() : st.lru;
        i = uint32_t(uint64_t(set) * assoc_ + l);
        if (dirty_way_[i]) {
            const Way& victim = ways_[i];
            --st.dirty_lines;
            dirty_way_[i] = 0;
            ev.line = victim.line;
            ev.dirty = victim.dirty & victim.valid;
            ev.partial = victim.partial & ev.dirty;
        }
        touch(set, l);
    }
    Way& way = ways_[i];
    way.line = line;
    memo_line_ = line;
    memo_way_ = i;
    way.valid = way.dirty = way.partial = way.prefetched = 0;
    key_[uint64_t(set) * key_stride_ + l] = uint32_t(line);
    return i;
}

uint64_t SectorCache::full_at(uint64_t sector) const {
    const uint32_t i = find(line_of(sector));
    if (i == kNone) return ~0ull;
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
    if (i == kNone) return ev;
    Way& way = ways_[i];
    const uint32_t bit = 1u << sector_in_line(sector);
    if (!(way.valid & bit)) return ev;
    if (way.dirty & bit) {
        ev.line = way.line;
        ev.dirty = bit;
        ev.partial = way.partial & bit;
    }
    way.valid &= ~bit;
    if (way.dirty == bit) {
        --set_[way.set].dirty_lines;
        dirty_way_[i] = 0;
    }
    way.dirty &= ~bit;
    way.partial &= ~bit;
    way.prefetched &= ~bit;
    return ev;
}

// The way holding `line`, made the most recent; allocated (evicting into ev) when absent.
uint32_t SectorCache::way_for(uint64_t line, Eviction& ev) {
    const uint32_t i = find(line);
    if (i == kNone) return allocate(line, ev);
    touch(i);
    return i;
}

Eviction SectorCache::fill(uint64_t sector, uint64_t fill_time, bool dirty, bool partial, bool prefetched) {
    const uint64_t line = line_of(sector);
    const uint32_t s = sector_in_line(sector);
    Eviction ev;
    const uint32_t i = way_for(line, ev);
    Way& way = ways_[i];
    const uint32_t bit = 1u << s;
    const bool was_full = (way.valid & bit) && !(way.partial & bit);
    way.valid |= bit;
    if (dirty && !way.dirty) {
        ++set_[way.set].dirty_lines;
        dirty_way_[i] = 1;
    }
    if (dirty) way.dirty |= bit;
    if (!partial) way.partial &= ~bit;
    else if (!was_full) way.partial |= bit;  // a masked write to a full sector leaves it full
    if (prefetched) way.prefetched |= bit;
    else way.prefetched &= ~bit;
    fill_at(i, s) = fill_time;
    return ev;
}

// (Only the first fill of the piece can allocate the line, so only it evicts; the other fills touch
// a line that is already the most recent. A clean fill changes no dirty bit.)
Eviction SectorCache::fill_piece(uint64_t first, uint32_t n, uint64_t demand, uint64_t fill_time) {
    const uint64_t line = line_of(first);
    Eviction ev;
    const uint32_t i = way_for(line, ev);
    Way& way = ways_[i];
    const uint32_t s0 = sector_in_line(first);
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t s = s0 + k, bit = 1u << s;
        const bool wanted = first + k == demand;
        if (!wanted && (way.valid & bit)) continue;
        way.valid |= bit;
        way.partial &= ~bit;
        if (wanted) way.prefetched &= ~bit;
        else way.prefetched |= bit;
        fill_at(i, s) = fill_time;
    }
    return ev;
}

// (As fill_piece: only the first fill can allocate, the others touch the most recent line.)
Eviction SectorCache::fill_line(const uint64_t* sector, const uint64_t* time, uint32_t n) {
    const uint64_t line = line_of(sector[0]);
    Eviction ev;
    const uint32_t i = way_for(line, ev);
    Way& way = ways_[i];
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t s = sector_in_line(sector[k]), bit = 1u << s;
        way.valid |= bit;
        way.partial &= ~bit;
        way.prefetched &= ~bit;
        fill_at(i, s) = time[k];
    }
    return ev;
}

Eviction SectorCache::clean_excess(uint64_t sector) {
    Eviction ev;
    const uint32_t set = set_of(line_of(sector));
    Set& st = set_[set];
    if (!dirty_limit_ || st.dirty_lines <= dirty_limit_) return ev;
    const uint64_t base = uint64_t(set) * assoc_;
    const Link* const links = &link_[base];
    for (uint16_t l = st.lru;; l = links[l].newer) {
        if (dirty_way_[base + l]) {  // (the ways on the way are not read)
            Way& w = ways_[base + l];
            dirty_way_[base + l] = 0;
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
