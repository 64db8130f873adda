// l2_slice.hpp: one L2 slice: its share of the tags, its throughput and its atomic unit.
//
// Sectors arrive from the crossbar (crossbar.hpp) at cycle `at`, keyed by the
// slice's own sector index (local) and the global one (for DRAM addresses).
// Atomics run at the atomic unit the slice shares (atomic_unit.hpp).
// Throughput: the slice takes l2_slices.sectors_per_cycle sectors per cycle
// (a server, per-request queueing, server.hpp): its tag lookups, one per
// sector of a read or store and one per atomic packet; a byte-masked store
// sector costs stores.partial_sector_cycles more. In front of it the slice's
// crossbar input takes l2_slices.input_flits_per_cycle flits of atomic
// packets per cycle (atomic_packet.hpp; ncu's lts__xbar2lts). Reads: hit at at + l2.hit_latency
// (or when an in-flight fill lands); a miss, or a sector holding only masked
// bytes, reads memory.dram_fetch_bytes around it from DRAM (dram.hpp) and
// fills the piece (the neighbours as prefetched: their first demand counts
// as a miss, as ncu counts them). Stores allocate (write-back, write-allocate
// without fetching: a partial sector keeps only its bytes) and ack at
// at + hit latency, or, when their line evicts dirty data, once that is written
// (no write buffer: a store stream is bound by the DRAM write bandwidth).
// Evicted dirty sectors are written to DRAM; a partial one
// is first read when stores.partial_sector_dram_read (ECC read-modify-write).
//
// Left out: flushing dirty data at kernel end, MSHR limits per slice.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/atomic_unit.hpp"
#include "sim/timing/memory/cache.hpp"
#include "sim/timing/memory/crossbar.hpp"
#include "sim/timing/memory/dram.hpp"
#include "sim/timing/stats.hpp"

namespace simt::timing {

class L2Slice {
public:
    L2Slice(const GpuConfig& config, uint32_t index, const Crossbar& xbar, Dram& dram, MemoryStats& stats);

    // A sector of request `req` arriving at t, costing `cost` slice cycles: the cycle it is taken.
    uint64_t enter(uint64_t t, uint64_t req, double cost);
    // Packets of request `req` arriving from the crossbar at t, `cost` input cycles: the cycle they are in.
    uint64_t arrive(uint64_t t, uint64_t req, double cost);
    uint64_t read(uint64_t at, uint64_t local, uint64_t global, uint64_t req);  // data back at the SM
    uint64_t write(uint64_t at, uint64_t local, bool partial);                   // the ack
    // An atomic's sector: the cycle its data is at the slice (read, or fetched on a miss), after
    // which the sector is present and dirty. The atomic unit (atomic_unit.hpp) takes it from there.
    uint64_t atomic_data(uint64_t at, uint64_t local, uint64_t global, uint64_t req);
    // Partitions (l2.hpp): the fill time of a full copy of the sector here (~0: none), a copy
    // taken from another partition (ready at `ready`), and dropping the copy a write elsewhere
    // made stale (its dirty bytes written back).
    uint64_t copy_at(uint64_t local) const { return cache_.full_at(local); }
    void take_copy(uint64_t at, uint64_t local, uint64_t ready) { fill(at, local, ready, false, false, false); }
    bool drop(uint64_t at, uint64_t local);

private:
    // Each returns the cycle the evicted dirty data is written to DRAM (t when none).
    uint64_t fill(uint64_t t, uint64_t local, uint64_t ready, bool dirty, bool partial, bool prefetched);
    uint64_t write_back(uint64_t t, const Eviction& ev);

    SectorCache cache_;
    RateServer port_, input_;
    const Crossbar& xbar_;
    Dram& dram_;
    MemoryStats& stats_;
    uint32_t index_, sector_bytes_, spl_, fetch_sectors_, hit_latency_;
    bool rmw_;
};

}  // namespace simt::timing
