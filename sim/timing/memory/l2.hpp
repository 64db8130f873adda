// l2.hpp: the memory side shared by all SMs: crossbar, L2 slices and DRAM.
//
// The way of one sector: the SM's crossbar port (crossbar.hpp), then the
// slice its line hashes to (l2_slice.hpp: throughput, tags), for an atomic
// the atomic unit of that slice (atomic_unit.hpp), then on a miss DRAM (dram.hpp). Each unit queues per warp request: an L1
// calls begin_request() before the sectors of one request. Times are
// computed when the request is issued, so event skipping stays exact.
// An unloaded L2 hit costs exactly l2.hit_latency and an unloaded miss
// dram_latency, as before the units existed.
//
// Left out: near/far partitions, the response network as a separate resource.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/crossbar.hpp"
#include "sim/timing/memory/dram.hpp"
#include "sim/timing/memory/l2_slice.hpp"
#include "sim/timing/stats.hpp"

#include <vector>

namespace simt::timing {

class L2 {
public:
    L2(const GpuConfig& config, MemoryStats& stats);
    void begin_request() { ++request_; }  // before the sectors of one warp request
    // Each returns the cycle the data (the ack, the old value) is back at SM `sm`.
    uint64_t read(uint32_t sm, uint64_t t, uint64_t sector);
    uint64_t write(uint32_t sm, uint64_t t, uint64_t sector, bool partial);
    // `ops` lane operations on the word at `addr` (in `sector`); `first` when it is the
    // request's first group in that sector (the sector crosses the crossbar and the slice once).
    uint64_t atomic(uint32_t sm, uint64_t t, uint64_t sector, uint64_t addr, uint32_t ops, bool first = true);
    const Dram& dram() const { return dram_; }

private:
    // Through the SM's port into the slice of `sector`: the slice, its own sector index and the arrival.
    // `charge`: the sector occupies the port and the slice (false: it already did in this request).
    L2Slice& route(uint32_t sm, uint64_t t, uint64_t sector, double extra, uint64_t& local, uint64_t& at,
                   bool charge = true);

    MemoryStats& stats_;
    Crossbar xbar_;
    Dram dram_;
    std::vector<L2Slice> slices_;
    std::vector<AtomicUnit> atomics_;  // one per atomics.slices_per_unit slices
    uint32_t spl_, slices_per_unit_;
    double slice_cost_, partial_cost_;
    uint64_t request_ = 0;
};

}  // namespace simt::timing
