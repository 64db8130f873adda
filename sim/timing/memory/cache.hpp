// cache.hpp: a sectored, set-associative, LRU cache of tags (no data).
//
// Lines of spec.line_bytes hold line_bytes / sector_bytes sectors, each with a
// valid bit, a dirty bit, a partial bit (written with a byte mask, the rest of
// its bytes not present), a prefetched bit (filled alongside another sector's
// DRAM fetch and not asked for yet) and the cycle its data arrives (fill time),
// so a hit on a sector still in flight waits for it (an MSHR merge). Tag state
// changes at access time; replacement is LRU (a list per set) or random (CacheSpec::random_replacement),
// deterministic. Set index = line index modulo the number of sets (the L2
// hashes lines over slices before, crossbar.hpp).
// Laid out for the host's caches (a random line's access touches few host
// cache lines; the full-chip H200's tags are some 50 MB, read at random): a
// set's keys (the low 32 bits of each way's line) lie together, so a lookup
// compares them 16 at a time in one or two host cache lines and reads a way
// only where its key matches (the way's full line decides); a way and the fill
// times of up to 4 sectors share 64 bytes; a set's LRU links lie together, as
// do its flags of which ways hold dirty data, apart from the ways. Evicting a
// clean line, or finding the oldest dirty one, reads no way but the one taken.
//
// Left out: MSHR limits, sector-miss bandwidth inside the cache, write-back
// traffic timing (the caller times evictions).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/fast_div.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace simt::timing {

// A std::vector's storage on 64-byte boundaries (the host's cache lines).
template <class T>
struct LineAligned {
    using value_type = T;
    LineAligned() = default;
    template <class U>
    LineAligned(const LineAligned<U>&) {}
    T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64))); }
    void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(64)); }
    template <class U>
    bool operator==(const LineAligned<U>&) const { return true; }
};

// What a fill pushed out: the evicted line's dirty / partial sectors, and the line when it had dirty ones.
struct Eviction {
    uint64_t line = ~0ull;
    uint32_t dirty = 0;    // sector bits
    uint32_t partial = 0;  // dirty sectors holding only some of their bytes
};

// How a probe found its sector.
struct Probe {
    bool hit = false;
    bool prefetched = false;  // first demand access of a sector that came with another's fetch
    bool partial = false;     // present, but only some bytes (written with a mask)
    uint64_t fill_time = 0;
};

class SectorCache {
public:
    SectorCache(const CacheSpec& spec, uint32_t sector_bytes);

    // Sector present: refreshes LRU, returns true and its fill time.
    bool probe(uint64_t sector, uint64_t& fill_time) { return probe_sector(sector, fill_time, false); }
    // probe() for a reader that needs all of the sector's bytes: a partial sector (written with a
    // byte mask) is a miss and is not touched.
    bool probe_whole(uint64_t sector, uint64_t& fill_time) { return probe_sector(sector, fill_time, true); }
    // The same with the sector's state; clears its prefetched bit.
    Probe lookup(uint64_t sector);
    // Makes the sector present (allocating its line, evicting the LRU line of
    // the set when needed) with the given fill time; `dirty` marks it dirty,
    // `partial` marks it as holding only some bytes (a full fill clears it),
    // `prefetched` as not asked for. Returns what was evicted.
    Eviction fill(uint64_t sector, uint64_t fill_time, bool dirty, bool partial = false, bool prefetched = false);
    // A DRAM piece arriving: the sectors [first, first + n) of one line, all at fill_time; `demand`
    // (one of them) as fill(demand, fill_time, false), each other one not present as
    // fill(s, fill_time, false, false, true). What those calls make in sector order, with one
    // look-up of the line.
    Eviction fill_piece(uint64_t first, uint32_t n, uint64_t demand, uint64_t fill_time);
    // Clean, whole fills of n sectors of one line (ascending), sector[k] at time[k]: what
    // fill(sector[k], time[k], false) makes one after another, with one look-up of the line.
    Eviction fill_line(const uint64_t* sector, const uint64_t* time, uint32_t n);
    bool present(uint64_t sector) const;
    // Asks the host to bring the sector's set (its keys, LRU links and head) into its caches: a
    // request's sectors are prefetched before they are looked up, so their misses overlap.
    void prefetch(uint64_t sector) const {
        const uint32_t set = set_of(line_of(sector));
        const uint64_t first = uint64_t(set) * assoc_, last = first + assoc_ - 1;
        __builtin_prefetch(&key_[uint64_t(set) * key_stride_]);
        __builtin_prefetch(&key_[uint64_t(set) * key_stride_ + assoc_ - 1]);
        __builtin_prefetch(&link_[first]);
        __builtin_prefetch(&link_[last]);
        __builtin_prefetch(&dirty_way_[first]);
        __builtin_prefetch(&set_[set]);
    }
    // The same for the way the sector's next access touches: its line's, or the one a fill would
    // take (after prefetch(): this reads the set).
    void prefetch_way(uint64_t sector) const {
        const uint64_t line = line_of(sector);
        uint32_t i = find(line);
        if (i == kNone) {
            const Set& st = set_[set_of(line)];
            i = uint32_t(uint64_t(set_of(line)) * assoc_ + (st.used < assoc_ ? st.used : st.lru));
        }
        __builtin_prefetch(&ways_[i]);
    }
    // Present with all its bytes (not partial), without touching LRU: its fill time, or ~0 when not.
    uint64_t full_at(uint64_t sector) const;
    // Drops the sector (another partition wrote it); returns it as an eviction when it was dirty.
    Eviction invalidate(uint64_t sector);
    uint32_t sectors_per_line() const { return spl_; }
    uint64_t lines() const { return ways_.size(); }
    // At most `lines` lines of a set hold dirty data (0: no limit; dirty_lines in l2_slice.hpp).
    void set_dirty_limit(uint32_t lines) { dirty_limit_ = lines; }
    // After a store made `sector`'s line dirty: when its set now holds more dirty lines than the
    // limit, the least recently used dirty line is cleaned (it stays present) and returned as an
    // eviction to write back; else an empty one.
    Eviction clean_excess(uint64_t sector);
    // Every fill lands at cycle 0: the contents of a cache a previous launch left (warm launches, gpu.hpp).
    void settle() {
        std::fill(fill_.begin(), fill_.end(), uint64_t(0));
        for (Way& w : ways_) std::fill(std::begin(w.fill), std::end(w.fill), uint64_t(0));
    }

private:
    static constexpr uint32_t kInlineSectors = 4;  // fill times kept in the way (else in fill_)
    struct alignas(64) Way {
        uint64_t line = ~0ull;
        uint32_t valid = 0;  // sector bits
        uint32_t dirty = 0;
        uint32_t partial = 0;
        uint32_t prefetched = 0;
        uint32_t set = 0;
        uint64_t fill[kInlineSectors] = {};  // fill time of each sector (spl_ <= kInlineSectors)
    };
    struct Link {
        uint16_t newer = 0, older = 0;  // the set's LRU order: ways within the set
    };
    // A set's ways from the most to the least recently used, and how many are
    // used: ways fill in order and never become unused again, so the unused
    // ones are those from `used` on (what the victim scan by access counter
    // picked: the first unused way, else the least recently used).
    struct Set {
        uint16_t mru = 0, lru = 0;
        uint32_t used = 0;
        uint32_t dirty_lines = 0;  // ways holding a dirty sector
    };
    static constexpr uint32_t kNone = ~0u;
    static constexpr uint32_t kKeyChunk = 16;  // keys compared at once (a set's keys padded to a multiple)
    // Way index or kNone. The last line looked for is remembered (memo_): an access's lookups and
    // fills of one line scan its set once.
    uint32_t find(uint64_t line) const {
        return line == memo_line_ ? memo_way_ : scan(line);
    }
    uint32_t scan(uint64_t line) const;      // scan_set(), remembered
    uint32_t scan_set(uint64_t line) const;
    uint32_t set_of(uint64_t line) const { return uint32_t(by_sets_.mod(line)); }
    void touch(uint32_t set, uint16_t l);  // the set's way l becomes its most recently used
    void touch(uint32_t i) { touch(ways_[i].set, uint16_t(i - uint64_t(ways_[i].set) * assoc_)); }  // way i
    uint32_t allocate(uint64_t line, Eviction& ev);
    uint16_t random_way();
    bool probe_sector(uint64_t sector, uint64_t& fill_time, bool whole);  // probe() / probe_whole()
    uint32_t way_for(uint64_t line, Eviction& ev);  // find, else allocate; touched either way
    uint64_t line_of(uint64_t sector) const { return spl_shift_ >= 0 ? sector >> spl_shift_ : sector / spl_; }
    uint32_t sector_in_line(uint64_t sector) const {
        return uint32_t(spl_shift_ >= 0 ? sector & (spl_ - 1) : sector % spl_);
    }
    const uint64_t& fill_at(uint32_t way, uint32_t s) const {
        return spl_ <= kInlineSectors ? ways_[way].fill[s] : fill_[uint64_t(way) * spl_ + s];
    }
    uint64_t& fill_at(uint32_t way, uint32_t s) {
        return const_cast<uint64_t&>(std::as_const(*this).fill_at(way, s));
    }

    uint32_t sets_ = 1, assoc_ = 1, spl_ = 1;
    FastDiv by_sets_;                // line % sets_ without a divide (the L1's 17 sets on the RTX 4060)
    uint32_t key_stride_ = kKeyChunk;  // assoc rounded up to kKeyChunk (64 bytes)
    int spl_shift_ = 0;              // log2(spl_), or -1 when not a power of two
    std::vector<Way> ways_;          // sets * assoc
    std::vector<uint32_t, LineAligned<uint32_t>> key_;  // sets * key_stride_: uint32_t(line) of each used way
    std::vector<Link> link_;         // sets * assoc: way i's LRU neighbours
    std::vector<uint8_t> dirty_way_;  // sets * assoc: way i holds a dirty sector (beside the set, as its links)
    std::vector<Set> set_;
    std::vector<uint64_t> fill_;     // sets * assoc * spl: fill time of each sector (spl_ > kInlineSectors)
    uint32_t dirty_limit_ = 0;
    bool random_ = false;            // CacheSpec::random_replacement: a full set's victim is victim_rng_'s way
    uint64_t victim_rng_ = 0x9e3779b97f4a7c15ull;  // xorshift64 state: the same victims on every run
    // The last line scanned for and its way (kNone: not present); only allocate() changes where a
    // line is, and it sets them to its own. A speed measure only: find() gives what a scan would.
    mutable uint64_t memo_line_ = ~0ull;
    mutable uint32_t memo_way_ = kNone;
};

// The per-sector look-ups, inline: every sector of every request asks one or two of them.
inline bool SectorCache::probe_sector(uint64_t sector, uint64_t& fill_time, bool whole) {
    const uint32_t i = find(line_of(sector));
    if (i == kNone) return false;
    const uint32_t s = sector_in_line(sector);
    if (!(ways_[i].valid >> s & 1) || (whole && (ways_[i].partial >> s & 1))) return false;
    touch(i);
    fill_time = fill_at(i, s);
    return true;
}

inline Probe SectorCache::lookup(uint64_t sector) {
    Probe p;
    const uint32_t i = find(line_of(sector));
    if (i == kNone) return p;
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

inline bool SectorCache::present(uint64_t sector) const {
    const uint32_t i = find(line_of(sector));
    return i != kNone && (ways_[i].valid >> sector_in_line(sector) & 1);
}

}  // namespace simt::timing
