// l1.cpp: the per-SM L1TEX path (see l1.hpp).
#include "sim/timing/memory/l1.hpp"

#include <algorithm>

namespace simt::timing {

L1Tex::L1Tex(const GpuConfig& c, L2& l2, MemoryStats& stats)
    : cache_(c.memory.l1, c.memory.sector_bytes),
      l2_(l2),
      stats_(stats),
      hit_latency_(c.memory.l1.hit_latency),
      sectors_per_cycle_(std::max(c.memory.l1_sectors_per_cycle, 1u)),
      cap_(std::max(c.memory.max_outstanding_per_sm, 1u)) {
    std::vector<uint64_t> storage;
    storage.reserve(cap_ + 1);
    outstanding_ = decltype(outstanding_)(std::greater<uint64_t>(), std::move(storage));
}

uint64_t L1Tex::accepts_at(uint64_t t) const {
    uint64_t at = std::max(t + 1, tag_free_);
    if (outstanding_.size() >= cap_) at = std::max(at, outstanding_.top());
    return at;
}

uint64_t L1Tex::tag_stage(uint64_t t, uint32_t sectors) {
    uint32_t wavefronts = std::max(1u, (sectors + sectors_per_cycle_ - 1) / sectors_per_cycle_);
    stats_.l1_wavefronts += wavefronts;
    uint64_t start = std::max(t, tag_free_);
    tag_free_ = start + wavefronts;
    l2_.begin_request(start);
    return start;
}

uint64_t L1Tex::track(uint64_t done) {
    outstanding_.push(done);
    return done;
}

uint64_t L1Tex::load(uint64_t t, const SectorList& s, AccessStats& kind, uint32_t extra_latency) {
    ++kind.requests;
    kind.sectors += s.count;
    uint64_t start = tag_stage(t, s.count);
    uint64_t done = start + hit_latency_;
    for (uint32_t i = 0; i < s.count; ++i) {
        uint64_t fill_time = 0, ready;
        if (cache_.probe(s.sector[i], fill_time)) {
            ++stats_.l1_hit_sectors;
            ready = std::max(start + hit_latency_, fill_time);
        } else {
            ++stats_.l1_miss_sectors;
            ready = l2_.read(start, s.sector[i]);
            cache_.fill(s.sector[i], ready, false);
        }
        done = std::max(done, ready);
    }
    return track(done + extra_latency);
}

uint64_t L1Tex::through_l2(uint64_t t, const SectorList& s, AccessStats& kind,
                           uint64_t (L2::*op)(uint64_t, uint64_t)) {
    ++kind.requests;
    kind.sectors += s.count;
    uint64_t start = tag_stage(t, s.count);
    uint64_t done = start + 1;
    for (uint32_t i = 0; i < s.count; ++i) done = std::max(done, (l2_.*op)(start, s.sector[i]));
    return track(done);
}

uint64_t L1Tex::store(uint64_t t, const SectorList& s, AccessStats& kind) {
    return through_l2(t, s, kind, &L2::write);
}

uint64_t L1Tex::atomic(uint64_t t, const SectorList& s, AccessStats& kind) {
    return through_l2(t, s, kind, &L2::atomic);
}

}  // namespace simt::timing
