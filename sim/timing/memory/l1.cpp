// l1.cpp: the per-SM L1TEX path (see l1.hpp).
#include "sim/timing/memory/l1.hpp"

#include <algorithm>
#include <array>
#include <tuple>

namespace simt::timing {

namespace {
void copy_sectors(SectorList& to, const SectorList& from) {
    to.count = from.count;
    std::copy_n(from.sector.begin(), from.count, to.sector.begin());
}
}  // namespace

L1Tex::L1Tex(const GpuConfig& c, const CacheSpec& l1, uint32_t sm, L2& l2, MemoryStats& stats)
    : cache_(l1, c.memory.sector_bytes),
      l2_(l2),
      stats_(stats),
      sm_(sm),
      sector_bytes_(c.memory.sector_bytes),
      hit_latency_(l1.hit_latency),
      sectors_per_cycle_(std::max(c.memory.l1_sectors_per_cycle, 1u)),
      cap_(std::max(c.memory.max_outstanding_per_sm, 1u)),
      slot_wait_(c.memory.slot_wait_in_queue && c.memory.lg_queue_depth > 0),
      atomic_ops_per_cycle_(c.memory.atomics.l1_ops_per_cycle),
      per_address_(c.memory.atomics.same_address_cycles > 0),
      line_per_wavefront_(c.memory.l1_line_per_wavefront),
      hits_share_(c.memory.l1_line_per_wavefront && c.memory.l1_hits_share_wavefronts),
      request_cycles_(std::max(c.memory.l1_request_cycles, 1u)),
      local_allocate_(c.memory.l1_local_store_allocate),
      global_allocate_(c.memory.l1_global_store_allocate),
      miss_lines_per_pass_(c.memory.l1_miss_lines_per_pass),
      miss_pass_cycles_(c.memory.l1_miss_pass_cycles),
      miss_line_cycles_(c.memory.l1_miss_line_cycles),
      fill_cycles_(c.memory.l1_fill_cycles),
      spl_(std::max(1u, l1.line_bytes / std::max(c.memory.sector_bytes, 1u))),
      by_spl_(spl_),
      l2_spl_(std::max(1u, c.memory.l2.line_bytes / std::max(c.memory.sector_bytes, 1u))),
      header_bytes_(c.memory.atomics.header_bytes),
      flit_bytes_(c.memory.l2_slices.flit_bytes),
      queue_(c.memory.lg_queue_depth),
      credits_(c.memory.stores.sectors_in_flight),
      miss_lines_(c.memory.l1_miss_lines_in_flight),
      wait_in_queue_(c.memory.stores.wait_in_queue && c.memory.stores.sectors_in_flight > 0 && c.memory.lg_queue_depth > 0) {
    std::vector<uint64_t> storage;
    storage.reserve(cap_ + 1);
    outstanding_ = decltype(outstanding_)(std::greater<uint64_t>(), std::move(storage));
}

uint64_t L1Tex::reopens_at(uint64_t t) const {
    uint64_t at = t + 1;
    if (!queue_.depth()) at = std::max(at, tag_free_);
    else if (queue_.waiting() >= queue_.depth()) at = std::max(at, queue_.room_at());
    if (!wait_in_queue_ && credits_.full()) {
        if (pending_.valid) return kLateWake;  // the earliest ack may be the pending store's
        at = std::max(at, credits_.room_at());
    }
    if (miss_lines_.full()) {
        if (pending_.valid) return kLateWake;  // the earliest line back may be the pending load's
        at = std::max(at, miss_lines_.room_at());
    }
    if (outstanding_.size() + pending_.valid < cap_ || can_wait_for_slot()) return at;
    if (pending_.valid) return kLateWake;  // the earliest completion may be the pending request's
    return std::max(at, outstanding_.top());
}

uint64_t L1Tex::tag_stage(uint64_t t, uint32_t wavefronts, uint64_t earliest, bool timed) {
    forget_refusal();
    stats_.l1_wavefronts += wavefronts;
    uint64_t start = std::max({t, tag_free_, earliest, take_slot()});
    tag_free_ = start + wavefronts;
    last_start_ = start;
    last_accept_ = t + 1;
    queue_.push(t, start);
    if (timed && !deferred_) l2_.begin_request();
    return start;
}

// A store the credits cannot take at t (or behind one that waits): it starts in the tag stage once
// they can, as far as the acknowledgements known now tell (those in front of it counted in flight).
uint64_t L1Tex::hold(uint64_t t, const SectorList& s, uint64_t partial, bool allocate, uint32_t token) {
    const uint64_t start = tag_stage(t, wavefronts(s), credits_.room_for(t, held_sectors_), false);
    copy_sectors(held_.emplace_back(Held{start, partial, token, allocate, {}}).s, s);
    held_sectors_ += s.count;
    return kHeldDone;
}

// The first held store leaves at its start t: its sectors go, and it takes this cycle's
// acceptance (no other request is timed in the same cycle: one pending request in deferred mode).
L1Tex::Sent L1Tex::flush(uint64_t t) {
    Held& h = held_.front();
    const uint32_t token = h.token;
    held_sectors_ -= h.s.count;
    last_accept_ = std::max(last_accept_, t + 1);
    forget_refusal();
    uint64_t done;
    if (deferred_) {
        done = defer(h.allocate ? Pending::AllocatingStore : Pending::Store, h.start, h.s, h.partial, nullptr, 0);
    } else {
        l2_.begin_request();
        done = store_sectors(h.start, h.s, h.partial, h.allocate);
    }
    held_.pop_front();
    return {token, done};
}

uint64_t L1Tex::track(uint64_t done) {
    forget_refusal();
    outstanding_.push(done);
    return done;
}

// Only a speed measure (the host's caches): the tags the request's sectors will be looked up in, in
// the L1 (`l1`) and the L2, are asked for at once, so their misses overlap; then, those sets
// arriving, the ways the sectors will touch. Their L2 places go to `at` (L2::read takes them
// instead of computing them again).
// The sectors come sorted, a line's together: a line's sets are asked for once, at its first
// sector, and its other sectors' places follow from the first's (L2::place_after).
void L1Tex::prefetch(const SectorList& s, bool l1, L2::Place* at) const {
    uint8_t l1_open[std::tuple_size_v<decltype(s.sector)>], l2_open[std::tuple_size_v<decltype(s.sector)>];
    uint32_t n1 = 0, n2 = 0;  // the sectors that open a line of the L1, of the L2
    for (uint32_t i = 0; i < s.count; ++i) {
        if (l1 && (i == 0 || by_spl_.div(s.sector[i]) != by_spl_.div(s.sector[i - 1]))) {
            cache_.prefetch(s.sector[i]);
            l1_open[n1++] = uint8_t(i);
        }
        if (i > 0 && l2_.same_line(s.sector[i - 1], s.sector[i])) {
            at[i] = L2::place_after(at[i - 1], s.sector[i - 1], s.sector[i]);
            continue;
        }
        at[i] = l2_.place(s.sector[i]);
        l2_.prefetch(at[i], false);
        l2_open[n2++] = uint8_t(i);
    }
    for (uint32_t k = 0; k < n1; ++k) cache_.prefetch_way(s.sector[l1_open[k]]);
    for (uint32_t k = 0; k < n2; ++k) l2_.prefetch(at[l2_open[k]], true);
}

uint32_t L1Tex::load_wavefronts(const SectorList& s, uint64_t at, bool l2_only) const {
    const uint32_t w = wavefronts(s), least = by_sectors(s);
    if (!hits_share_ || l2_only || w <= least) return w;
    uint32_t missed = 0;
    for (uint32_t i = 0; i < s.count;) {  // the sectors come sorted, a line's together
        const uint64_t line = by_spl_.div(s.sector[i]);
        bool ready = true;
        for (; i < s.count && by_spl_.div(s.sector[i]) == line; ++i) ready = ready && cache_.full_at(s.sector[i]) <= at;
        missed += !ready;
    }
    return std::max(least, missed);
}

uint32_t L1Tex::missing_lines(const SectorList& s) const {
    uint32_t n = 0;
    for (uint32_t i = 0; i < s.count;) {  // the sectors come sorted, a line's together
        const uint64_t line = by_spl_.div(s.sector[i]);
        bool missing = false;
        for (; i < s.count && by_spl_.div(s.sector[i]) == line; ++i) missing = missing || cache_.full_at(s.sector[i]) == ~0ull;
        n += missing;
    }
    return n;
}

// With memory.l1_fill_cycles each line a load finds missing from the L1 (a sector not present and not
// on its way) takes that many cycles of the L1TEX data stage for its fill, whatever its sectors: 0.5
// on the GH100 ([CALIB-BLOCKTIMES-2026]: ho_gemm_naive's 8-block SMs end 8/7 after its 7-block ones at
// 0.617 loads a clock with 1.5 data wavefronts and about 0.19 missed lines each: 0.98 of the stage;
// ho_matvec_thread's 32-line loads 0.98; per missed sector instead, sgemm_tile's whole-line tile loads
// took 4 cycles a step where the H200 has room for 1). Booked behind the request's own wavefronts when
// it is issued (the stage's work, not its moment: the fill comes a round trip later); the request does
// not wait for them (memory/lsu.cpp data_stage). Whole cycles: the fraction carries to the next load.
uint32_t L1Tex::fills(const SectorList& s) {
    if (fill_cycles_ <= 0) return 0;
    fill_debt_ += fill_cycles_ * missing_lines(s);
    const uint32_t whole = uint32_t(fill_debt_);
    fill_debt_ -= whole;
    return whole;
}

uint64_t L1Tex::load(uint64_t t, const SectorList& s, AccessStats& kind, uint32_t extra_latency, bool l2_only) {
    ++kind.requests;
    kind.sectors += s.count;
    uint64_t start = tag_stage(t, load_wavefronts(s, std::max({t, tag_free_, slot_floor()}), l2_only));
    if (deferred_) return defer(Pending::Load, start, s, 0, nullptr, extra_latency, l2_only);
    return load_sectors(start, s, extra_latency, l2_only);
}

uint64_t L1Tex::load_sectors(uint64_t start, const SectorList& s, uint32_t extra_latency, bool l2_only) {
    L2::Place at[std::tuple_size_v<decltype(s.sector)>];  // (only the first s.count are set: no zero-fill)
    prefetch(s, !l2_only, at);
    uint64_t done = start + hit_latency_;
    MissPasses passes{miss_lines_per_pass_, miss_pass_cycles_};
    MissPasses order{miss_line_cycles_ ? 1u : 0u, miss_line_cycles_};  // one missed line per pass: its return
    MissLines lines{miss_lines_};
    if (l2_only) {
        for (uint32_t i = 0; i < s.count; ++i) {
            const uint64_t line = by_spl_.div(s.sector[i]);
            const uint64_t ready = l2_.read(sm_, start + passes.delay(line), s.sector[i], &at[i]) + order.delay(line);
            lines.missed(line, ready);
            done = std::max(done, ready);
        }
        lines.flush();
        return track(done + extra_latency);
    }
    // Line by line (the sectors come sorted, a line's together): its sectors are probed in order and
    // its missed ones filled at once after their L2 reads. The same as a fill right after each miss:
    // a probe of one sector does not see another sector's fill in its line (a fill that allocates
    // the line follows probes that missed it), and the line is the set's most recent either way.
    uint64_t missed[std::tuple_size_v<decltype(s.sector)>], times[std::tuple_size_v<decltype(s.sector)>];
    for (uint32_t i = 0; i < s.count;) {
        const uint64_t line = by_spl_.div(s.sector[i]);
        uint32_t n = 0;
        for (; i < s.count && by_spl_.div(s.sector[i]) == line; ++i) {
            uint64_t fill_time = 0, ready;
            if (cache_.probe_whole(s.sector[i], fill_time)) {
                ++stats_.l1_hit_sectors;
                ready = std::max(start + hit_latency_, fill_time);
            } else {
                ++stats_.l1_miss_sectors;
                ready = l2_.read(sm_, start + passes.delay(line), s.sector[i], &at[i]) + order.delay(line);
                missed[n] = s.sector[i];
                times[n++] = ready;
                lines.missed(line, ready);
            }
            done = std::max(done, ready);
        }
        if (n) cache_.fill_line(missed, times, n);
    }
    lines.flush();
    return track(done + extra_latency);
}

uint64_t L1Tex::store(uint64_t t, const SectorList& s, uint64_t partial, AccessStats& kind, bool local,
                      uint32_t token) {
    ++kind.requests;
    kind.sectors += s.count;
    const bool allocate = local ? local_allocate_ : global_allocate_;
    if (wait_in_queue_ && (!held_.empty() || !credits_.has_room(t))) return hold(t, s, partial, allocate, token);
    uint64_t start = tag_stage(t, wavefronts(s));
    if (deferred_) return defer(allocate ? Pending::AllocatingStore : Pending::Store, start, s, partial, nullptr, 0);
    return store_sectors(start, s, partial, allocate);
}

// Write-through to the L2; with `allocate` each whole sector is also made present in the L1 (its
// data is the store's: ready from the tag stage on), and a byte-masked one that is not there is
// entered as partial (its line takes a way, as on the H200, where a column store's later stores to
// the same sectors hit: ncu transpose_naive, the order kernels' records); a load still misses it.
uint64_t L1Tex::store_sectors(uint64_t start, const SectorList& s, uint64_t partial, bool allocate) {
    L2::Place at[std::tuple_size_v<decltype(s.sector)>];
    prefetch(s, allocate, at);
    uint64_t done = start + 1;
    for (uint32_t i = 0; i < s.count; ++i) {
        // Nsight Compute's L1 hit rate counts a store's sectors too: a hit where the sector is present.
        const bool hit = cache_.present(s.sector[i]);
        if (hit) ++stats_.l1_hit_sectors;
        else ++stats_.l1_miss_sectors;
        done = std::max(done, l2_.write(sm_, start, s.sector[i], partial >> i & 1));
        if (!allocate) continue;
        if (!(partial >> i & 1)) {
            cache_.fill(s.sector[i], start, false);
        } else if (!hit) {
            cache_.fill(s.sector[i], start, false, true);  // only its written bytes: a load still misses
        } else {
            uint64_t unused;
            cache_.probe(s.sector[i], unused);  // written into: the line is the set's newest
        }
    }
    if (credits_.on()) credits_.sent(done, s.count);
    return track(done);
}

// Lanes on one address serialise at the slice's atomic unit; with
// same_address_cycles 0 the lanes of one sector merge into one operation.
uint64_t L1Tex::atomic(uint64_t t, const SectorList& s, const AtomicGroups& g, AccessStats& kind) {
    ++kind.requests;
    kind.sectors += s.count;
    uint32_t ops = 0;
    for (uint32_t i = 0; i < g.count; ++i) ops += g.lanes[i];
    uint32_t passes = atomic_ops_per_cycle_ ? std::max(1u, (ops + atomic_ops_per_cycle_ - 1) / atomic_ops_per_cycle_)
                                            : wavefronts(s);
    uint64_t start = tag_stage(t, passes);
    if (deferred_) return defer(Pending::Atomic, start, s, 0, &g, 0);
    return atomic_sectors(start, s, g);
}

uint64_t L1Tex::atomic_sectors(uint64_t start, const SectorList& s, const AtomicGroups& g) {
    uint64_t done = start + 1;
    if (l2_.atomic_sector_mode()) return track(atomic_by_sector(start, g));
    if (!per_address_) {
        for (uint32_t i = 0; i < s.count; ++i)
            done = std::max(done, l2_.atomic(sm_, start, s.sector[i], s.sector[i] * sector_bytes_, 1, true, g.float_add));
        return track(done);
    }
    for (uint32_t i = 0; i < g.count; ++i) {
        uint64_t sector = g.addr[i] / sector_bytes_;
        bool first = i == 0 || g.addr[i - 1] / sector_bytes_ != sector;  // groups are sorted by address
        done = std::max(done, l2_.atomic(sm_, start, sector, g.addr[i], g.lanes[i], first, g.float_add));
    }
    return track(done);
}

// Sector mode: the groups (sorted by address) of each line go to the L2 as that line's packets
// (atomic_packet.hpp), with each sector's lanes and the lanes on its busiest word.
uint64_t L1Tex::atomic_by_sector(uint64_t start, const AtomicGroups& g) {
    uint64_t done = start + 1;
    for (uint32_t i = 0; i < g.count;) {
        i = next_atomic_line(g, i, sector_bytes_, l2_spl_, header_bytes_, flit_bytes_, line_);
        done = std::max(done, l2_.atomic_line(sm_, start, line_));
    }
    return done;
}

uint64_t L1Tex::defer(Pending::Kind kind, uint64_t start, const SectorList& s, uint64_t partial,
                      const AtomicGroups* g, uint32_t extra, bool l2_only) {
    Pending& p = pending_;
    p.kind = kind;
    p.valid = true;
    p.extra = extra;
    p.l2_only = l2_only;
    p.start = start;
    p.partial = partial;
    copy_sectors(p.s, s);
    if (g) {
        p.g.count = g->count;
        p.g.float_add = g->float_add;
        std::copy_n(g->addr.begin(), g->count, p.g.addr.begin());
        std::copy_n(g->lanes.begin(), g->count, p.g.lanes.begin());
    }
    return kPendingDone;
}

uint64_t L1Tex::complete() {
    Pending& p = pending_;
    p.valid = false;
    forget_refusal();
    l2_.begin_request();
    switch (p.kind) {
        case Pending::Load: return load_sectors(p.start, p.s, p.extra, p.l2_only);
        case Pending::Store: return store_sectors(p.start, p.s, p.partial, false);
        case Pending::AllocatingStore: return store_sectors(p.start, p.s, p.partial, true);
        case Pending::Atomic: return atomic_sectors(p.start, p.s, p.g);
    }
    return p.start + 1;
}

}  // namespace simt::timing
