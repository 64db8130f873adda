// l2.cpp: L2 hits, misses to DRAM, write-backs (see l2.hpp).
#include "sim/timing/memory/l2.hpp"

namespace simt::timing {

namespace {

double dram_bytes_per_cycle(const GpuConfig& c) {
    return c.clock_mhz > 0 ? c.memory.dram_bandwidth_gbs * 1e9 / (c.clock_mhz * 1e6) : 0.0;
}

}  // namespace

L2::L2(const GpuConfig& c, MemoryStats& stats)
    : cache_(c.memory.l2, c.memory.sector_bytes),
      dram_(dram_bytes_per_cycle(c), c.memory.dram_latency),
      stats_(stats),
      sector_bytes_(c.memory.sector_bytes),
      fetch_sectors_(std::max(1u, c.memory.dram_fetch_bytes / std::max(1u, c.memory.sector_bytes))),
      hit_latency_(c.memory.l2.hit_latency),
      atomic_latency_(c.memory.atomic_latency) {}

void L2::fill(uint64_t t, uint64_t sector, uint64_t ready, bool dirty) {
    uint32_t evicted = cache_.fill(sector, ready, dirty);
    if (evicted) {
        dram_.write(t, evicted * sector_bytes_);
        stats_.dram_write_bytes += uint64_t(evicted) * sector_bytes_;
    }
}

uint64_t L2::read(uint64_t t, uint64_t sector) {
    uint64_t fill_time = 0;
    if (cache_.probe(sector, fill_time)) {
        ++stats_.l2_hit_sectors;
        return std::max(t + hit_latency_, fill_time);
    }
    ++stats_.l2_miss_sectors;
    // DRAM is read in aligned pieces of fetch_sectors_ sectors; the requested sector's
    // neighbours in the piece arrive with it (unless already present).
    stats_.dram_read_bytes += uint64_t(fetch_sectors_) * sector_bytes_;
    uint64_t ready = dram_.read(t, fetch_sectors_ * sector_bytes_);
    uint64_t first = sector - sector % fetch_sectors_;
    for (uint64_t s = first; s < first + fetch_sectors_; ++s)
        if (s == sector || !cache_.present(s)) fill(t, s, ready, false);
    return ready;
}

uint64_t L2::write(uint64_t t, uint64_t sector) {
    uint64_t fill_time = 0;
    if (cache_.probe(sector, fill_time)) ++stats_.l2_hit_sectors;
    else ++stats_.l2_miss_sectors;
    uint64_t ack = t + hit_latency_;
    fill(t, sector, ack, true);
    return ack;
}

uint64_t L2::atomic(uint64_t t, uint64_t sector) {
    uint64_t start = read(t, sector);  // the sector's data is at the L2 (or its previous atomic ran)
    // The next atomic on this sector may start one cycle later: atomics to one
    // sector serialise at one per cycle. (Present now: marks it dirty, no eviction.)
    cache_.fill(sector, start + 1, true);
    return start + atomic_latency_;
}

}  // namespace simt::timing
