// l2.hpp: the L2 cache shared by all SMs, in front of DRAM.
//
// Sectors arrive from an SM's L1 at cycle t (the L1 tag-stage time). Hit:
// data back at t + l2.hit_latency (or when an in-flight fill lands). Miss:
// a DRAM read of memory.dram_fetch_bytes around the sector (latency + bandwidth
// queueing), then those sectors are filled.
// Stores write whole sectors: allocate, mark dirty, ack at t + hit latency;
// dirty sectors cost DRAM bandwidth (and dram_write_bytes) when evicted.
// Atomics execute at the L2: a read-modify-write, + atomic_latency; atomics
// to one sector start one per cycle (a hot counter serialises).
//
// Left out: slices/partitions and their bandwidth, near/far latency, partial
// sector writes (no read-for-ownership), flushing dirty data at kernel end.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/cache.hpp"
#include "sim/timing/memory/dram.hpp"
#include "sim/timing/stats.hpp"

namespace simt::timing {

class L2 {
public:
    L2(const GpuConfig& config, MemoryStats& stats);
    void begin_request(uint64_t t) { dram_.begin_request(t); }  // before the sectors of one warp request
    uint64_t read(uint64_t t, uint64_t sector);    // returns the cycle the data is back at the SM
    uint64_t write(uint64_t t, uint64_t sector);   // returns the ack cycle
    uint64_t atomic(uint64_t t, uint64_t sector);  // returns the cycle the old value is back
    const Dram& dram() const { return dram_; }

private:
    void fill(uint64_t t, uint64_t sector, uint64_t ready, bool dirty);

    SectorCache cache_;
    Dram dram_;
    MemoryStats& stats_;
    uint32_t sector_bytes_, fetch_sectors_, hit_latency_, atomic_latency_;
};

}  // namespace simt::timing
