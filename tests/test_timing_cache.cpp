// test_timing_cache.cpp: the sectored cache's tags (sim/timing/memory/cache.hpp) against a
// plain model of them: a scan of the set's ways and LRU by an access counter (how the cache
// itself worked before its 32-bit keys and LRU lists). Random fills, probes, lookups,
// invalidations and presence tests on small and highly associative caches must give the
// same answers and evictions (the line of those with dirty sectors), step by step; lines
// 2^32 apart share their keys and must still be told apart.
#include "sim/timing/memory/cache.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

using namespace simt;
using namespace simt::timing;

namespace {

// The reference: ways scanned in order, victim = first unused way, else the least recently used.
class ScanCache {
public:
    ScanCache(uint32_t sets, uint32_t assoc, uint32_t spl)
        : sets_(sets), assoc_(assoc), spl_(spl), ways_(size_t(sets) * assoc), fill_(ways_.size() * spl) {}

    bool probe(uint64_t sector, uint64_t& fill_time) {
        const int64_t i = find(sector / spl_);
        if (i < 0 || !(ways_[i].valid >> (sector % spl_) & 1)) return false;
        ways_[i].lru = ++clock_;
        fill_time = fill_[i * spl_ + sector % spl_];
        return true;
    }
    Probe lookup(uint64_t sector) {
        Probe p;
        const int64_t i = find(sector / spl_);
        const uint32_t bit = 1u << (sector % spl_);
        if (i < 0 || !(ways_[i].valid & bit)) return p;
        Way& w = ways_[i];
        w.lru = ++clock_;
        p = Probe{true, (w.prefetched & bit) != 0, (w.partial & bit) != 0, fill_[i * spl_ + sector % spl_]};
        w.prefetched &= ~bit;
        return p;
    }
    bool present(uint64_t sector) const {
        const int64_t i = find(sector / spl_);
        return i >= 0 && (ways_[i].valid >> (sector % spl_) & 1);
    }
    Eviction invalidate(uint64_t sector) {
        Eviction ev;
        const int64_t i = find(sector / spl_);
        const uint32_t bit = 1u << (sector % spl_);
        if (i < 0 || !(ways_[i].valid & bit)) return ev;
        Way& w = ways_[i];
        if (w.dirty & bit) ev = Eviction{w.line, bit, w.partial & bit};
        w.valid &= ~bit, w.dirty &= ~bit, w.partial &= ~bit, w.prefetched &= ~bit;
        return ev;
    }
    Eviction fill(uint64_t sector, uint64_t t, bool dirty, bool partial, bool prefetched) {
        const uint64_t line = sector / spl_;
        const uint32_t bit = 1u << (sector % spl_);
        Eviction ev;
        int64_t i = find(line);
        if (i < 0) {
            const uint64_t base = (line % sets_) * assoc_;
            i = int64_t(base);
            for (uint32_t w = 0; w < assoc_; ++w) {
                if (ways_[base + w].line == ~0ull) { i = int64_t(base + w); break; }
                if (ways_[base + w].lru < ways_[i].lru) i = int64_t(base + w);
            }
            Way& v = ways_[i];
            ev = Eviction{v.line, v.dirty & v.valid, v.partial & v.dirty & v.valid};
            v = Way{line};
        }
        Way& w = ways_[i];
        const bool was_full = (w.valid & bit) && !(w.partial & bit);
        w.lru = ++clock_;
        w.valid |= bit;
        if (dirty) w.dirty |= bit;
        if (!partial) w.partial &= ~bit;
        else if (!was_full) w.partial |= bit;
        w.prefetched = prefetched ? w.prefetched | bit : w.prefetched & ~bit;
        fill_[i * spl_ + sector % spl_] = t;
        return ev;
    }

private:
    struct Way {
        uint64_t line = ~0ull, lru = 0;
        uint32_t valid = 0, dirty = 0, partial = 0, prefetched = 0;
    };
    int64_t find(uint64_t line) const {
        for (uint32_t w = 0; w < assoc_; ++w)
            if (ways_[(line % sets_) * assoc_ + w].line == line) return int64_t((line % sets_) * assoc_ + w);
        return -1;
    }
    uint64_t sets_, assoc_, spl_, clock_ = 0;
    std::vector<Way> ways_;
    std::vector<uint64_t> fill_;
};

// The eviction of fills one after another: the one that pushed out a dirty line (at most one does).
Eviction first_dirty(const std::vector<Eviction>& evs) {
    for (const Eviction& e : evs)
        if (e.dirty) return e;
    return Eviction{};
}

// A line's fills at once (SectorCache::fill_piece, fill_line) against the reference's one by one.
void batched_fill(SectorCache& cache, ScanCache& ref, uint64_t s, uint32_t spl, uint64_t t, bool piece,
                  std::mt19937& rng) {
    std::vector<Eviction> evs;
    Eviction got;
    if (piece) {  // a DRAM piece of 2 sectors, `s` the one asked for
        const uint64_t first = s - s % 2;
        for (uint64_t x = first; x < first + 2; ++x)
            if (x == s) evs.push_back(ref.fill(x, t, false, false, false));
            else if (!ref.present(x)) evs.push_back(ref.fill(x, t, false, false, true));
        got = cache.fill_piece(first, 2, s, t);
    } else {  // some of s's line's sectors, each with its own time
        std::vector<uint64_t> sector, time;
        for (uint64_t x = s - s % spl; x < s - s % spl + spl; ++x)
            if (x == s || rng() % 2) sector.push_back(x), time.push_back(t + rng() % 100);
        for (size_t k = 0; k < sector.size(); ++k) evs.push_back(ref.fill(sector[k], time[k], false, false, false));
        got = cache.fill_line(sector.data(), time.data(), uint32_t(sector.size()));
    }
    const Eviction want = first_dirty(evs);
    REQUIRE((got.dirty == want.dirty && got.partial == want.partial && (!got.dirty || got.line == want.line)));
}

// `aliased`: half the sectors moved 2^32 lines up (the same set and key as the others).
// `batched`: fill_piece and fill_line among the operations.
void same_as_scan(uint32_t sets, uint32_t assoc, uint64_t sectors, uint32_t seed, bool aliased = false,
                  bool batched = false) {
    const uint32_t spl = 4;
    SectorCache cache(CacheSpec{sets * assoc * 128, assoc, 128, 1}, 32);
    ScanCache ref(sets, assoc, spl);
    std::mt19937 rng(seed);
    for (int step = 0; step < 200000; ++step) {
        const uint64_t s = rng() % sectors + (aliased && rng() % 2 ? uint64_t(spl) << 32 : 0);
        const uint32_t op = rng() % (batched ? 10 : 8);
        INFO("step " << step << ", op " << op << ", sector " << s);
        if (op < 3) {
            uint64_t a = 0, b = 0;
            REQUIRE(cache.probe(s, a) == ref.probe(s, b));
            REQUIRE(a == b);
        } else if (op == 3) {
            const Probe a = cache.lookup(s), b = ref.lookup(s);
            REQUIRE((a.hit == b.hit && a.prefetched == b.prefetched && a.partial == b.partial &&
                     a.fill_time == b.fill_time));
        } else if (op == 4) {
            REQUIRE(cache.present(s) == ref.present(s));
            const Eviction a = cache.invalidate(s), b = ref.invalidate(s);
            REQUIRE((a.line == b.line && a.dirty == b.dirty && a.partial == b.partial));
        } else if (op >= 8) {
            batched_fill(cache, ref, s, spl, uint64_t(step), op == 8, rng);
        } else {
            const bool dirty = rng() & 1, partial = rng() % 4 == 0, prefetched = rng() % 4 == 0;
            const Eviction a = cache.fill(s, step, dirty, partial, prefetched), b = ref.fill(s, step, dirty, partial, prefetched);
            REQUIRE((a.dirty == b.dirty && a.partial == b.partial && (!a.dirty || a.line == b.line)));
        }
    }
}

}  // namespace

TEST_CASE("cache: the key scan and LRU lists pick what a scan by access counter picks", "[timing][memory]") {
    same_as_scan(4, 56, 2000, 1);     // the L1's shape: 4 sets of 56 ways
    same_as_scan(64, 16, 20000, 2);   // an L2 slice's
    same_as_scan(1, 1, 64, 3);        // direct-mapped, one line
    same_as_scan(8, 3, 400, 4);       // odd associativity
    same_as_scan(256, 20, 40000, 5);  // the H200's slice
    same_as_scan(4, 56, 2000, 6, true);   // keys alike, lines not
    same_as_scan(16, 5, 600, 7, true);
    same_as_scan(36, 56, 20000, 8);   // sets not a power of two (the H200's L1 beside no shared memory)
}

TEST_CASE("cache: a line's fills at once (a DRAM piece, a load's missed sectors) are the fills one by one",
          "[timing][memory]") {
    same_as_scan(4, 56, 2000, 11, false, true);
    same_as_scan(64, 16, 20000, 12, false, true);
    same_as_scan(1, 1, 64, 13, false, true);
    same_as_scan(8, 3, 400, 14, true, true);
    same_as_scan(17, 56, 8000, 15, false, true);  // the RTX 4060's L1: 17 sets
}

TEST_CASE("cache: random replacement evicts a pseudo-random way, the same on every run", "[timing][memory]") {
    // One set of 8 ways. Fill lines 0..7, touch line 0 again (LRU would keep it), then add lines
    // 8..4007 (each a miss): under LRU the set ends holding 4000..4007; under random replacement the
    // survivors are spread (a line lives about assoc fills), and line 0 is gone though it was recent.
    CacheSpec spec{8 * 128, 8, 128, 1};
    spec.random_replacement = true;
    auto run = [&] {
        SectorCache c(spec, 32);
        for (uint64_t line = 0; line < 8; ++line) c.fill(line * 4, 0, false);
        uint64_t t = 0;
        CHECK(c.probe(0, t));
        std::vector<uint64_t> evicted_at;  // the fill that evicted line 0 (at most one)
        for (uint64_t line = 8; line < 4008; ++line) {
            c.fill(line * 4, 0, false);
            if (evicted_at.empty() && !c.present(0)) evicted_at.push_back(line);
        }
        std::vector<uint64_t> held;
        for (uint64_t line = 0; line < 4008; ++line)
            if (c.present(line * 4)) held.push_back(line);
        return std::make_pair(evicted_at, held);
    };
    const auto a = run(), b = run();
    CHECK(a == b);  // deterministic
    REQUIRE(a.first.size() == 1);
    CHECK(a.second.size() == 8);
    // Not LRU: the survivors are not just the last 8 lines, and line 0 went while older lines stayed.
    CHECK(a.second != std::vector<uint64_t>{4000, 4001, 4002, 4003, 4004, 4005, 4006, 4007});
    CHECK(a.second.front() < 3990);
    CHECK(a.first[0] >= 8);
    // LRU on the same accesses keeps the last 8 lines and drops line 0 at the 8th new one (line 15),
    // its touch having made line 1 the oldest.
    spec.random_replacement = false;
    const auto lru = run();
    CHECK(lru.second == std::vector<uint64_t>{4000, 4001, 4002, 4003, 4004, 4005, 4006, 4007});
    CHECK(lru.first == std::vector<uint64_t>{15});
}
