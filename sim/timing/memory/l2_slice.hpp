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
// (a mean: hit_spread.hpp), or when an in-flight fill lands; a miss, or a sector holding only masked
// bytes, reads memory.dram_fetch_bytes around it from DRAM (dram.hpp) and
// fills the piece (the neighbours as prefetched: their first demand counts
// as a miss, as ncu counts them). Stores allocate (write-back, write-allocate
// without fetching: a partial sector keeps only its bytes) and ack at
// at + hit latency, or, when their line evicts dirty data, once that is written
// (no write buffer: a store stream is bound by the DRAM write bandwidth).
// Evicted dirty sectors are written to DRAM; a partial one
// is first read when stores.partial_sector_dram_read (ECC read-modify-write).
//
// With stores.partial_miss_fetch a partial store that misses (or finds only masked bytes) reads
// its sector's piece from DRAM and holds it full from then on, so its write-backs need no
// read-modify-write; the piece's other sectors arrive with it where absent (a stride-8 store
// stream reads each 64 B piece once) (the H200 reads a 32 MB store-only footprint from DRAM once, 32 MB, and writes
// 107 MB back). The store's ack does not wait for the read.
// With stores.dirty_lines a set holds at most that many dirty lines: a store that dirties one
// more writes the set's least recently used dirty line back, which stays present and clean (the
// H200 writes back 19 % of a 32 MB store-only footprint's stores and 69 % of a 48 MB one's, hit
// rates 96 and 94 %: its L2 cleans dirty lines long before it evicts them, calib l2dirty). The
// store is acked once the cleaned line is written, as when it evicts one.
// With stores.write_queue_cycles the DRAM write queue absorbs that much backlog: a store whose
// eviction or cleaning is written back waits only for the part of its write's completion beyond
// it (0: the store waits for the write, the behaviour fitted before the key). A write stream
// with few warps then never waits; random write-backs that saturate the channels still hold
// the stores back, as a full write queue does.
//
// With l2_slices.write_back_entries a dirty line leaves through a buffer of that many lines, each
// held until DRAM has written it; a write-back that finds the buffer full stalls the slice's tags
// until an entry is free, so every request behind it waits (write_back_buffer.hpp).
//
// Left out: flushing dirty data at kernel end, MSHR limits per slice.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/atomic_unit.hpp"
#include "sim/timing/memory/cache.hpp"
#include "sim/timing/memory/crossbar.hpp"
#include "sim/timing/memory/dram.hpp"
#include "sim/timing/memory/fast_div.hpp"
#include "sim/timing/memory/hit_spread.hpp"
#include "sim/timing/memory/write_back_buffer.hpp"
#include "sim/timing/stats.hpp"

namespace simt::timing {

class L2Slice {
public:
    L2Slice(const GpuConfig& config, uint32_t index, const Crossbar& xbar, Dram& dram, MemoryStats& stats);

    // A sector of request `req` arriving at t, costing `cost` slice cycles: the cycle it is taken.
    uint64_t enter(uint64_t t, uint64_t req, double cost);
    // A sector that rides on the request's earlier sectors here (no cycles of its own): it waits as they did.
    uint64_t follow(uint64_t t, uint64_t req);
    // Packets of request `req` arriving from the crossbar at t, `cost` input cycles: the cycle they are in.
    uint64_t arrive(uint64_t t, uint64_t req, double cost);
    uint64_t read(uint64_t at, uint64_t local, uint64_t global, uint64_t req);  // data back at the SM
    uint64_t write(uint64_t at, uint64_t local, uint64_t global, uint64_t req, bool partial);  // the ack
    // An atomic's sector: the cycle its data is at the slice (read, or fetched on a miss), after
    // which the sector is present and dirty. The atomic unit (atomic_unit.hpp) takes it from there.
    uint64_t atomic_data(uint64_t at, uint64_t local, uint64_t global, uint64_t req);
    // Partitions (l2.hpp): the fill time of a full copy of the sector here (~0: none), a copy
    // taken from another partition (ready at `ready`), and dropping the copy a write elsewhere
    // made stale (its dirty bytes written back).
    uint64_t copy_at(uint64_t local) const { return cache_.full_at(local); }
    void prefetch(uint64_t local, bool way) const {  // (SectorCache::prefetch, prefetch_way)
        if (way) cache_.prefetch_way(local);
        else cache_.prefetch(local);
    }
    void take_copy(uint64_t at, uint64_t local, uint64_t ready) { fill(at, local, ready, false, false, false); }
    bool drop(uint64_t at, uint64_t local);
    void touch(uint64_t local) {  // the sector (present) becomes its set's most recently used
        uint64_t fill = 0;
        cache_.probe(local, fill);
    }
    // The tags (valid, dirty, partial) a previous launch left in `warm`'s slice, every fill landed.
    void carry(const L2Slice& warm) {
        cache_ = warm.cache_;
        cache_.settle();
    }

    double busy() const { return std::max(port_.busy, input_.busy); }  // its busier server's cycles

private:
    // Each returns the cycle the store that caused it may be acked: its dirty data written to DRAM,
    // less what the write queue hides (t when none).
    uint64_t fill(uint64_t t, uint64_t local, uint64_t ready, bool dirty, bool partial, bool prefetched);
    uint64_t write_back(uint64_t ready, const Eviction& ev);
    void stall(uint64_t until);
    uint64_t stalled(uint64_t t) const { return stalled_until_ > t ? stalled_until_ - t : 0; }
    uint64_t clean(uint64_t at, uint64_t local);
    void fill_neighbours(uint64_t at, uint64_t local, uint64_t global, uint64_t first, uint64_t ready);  // after a store or atomic dirtied `local`

    SectorCache cache_;
    RateServer port_, input_;
    WriteBackBuffer buffer_;
    uint64_t stalled_until_ = 0;  // the tags wait for the write-back buffer until then
    const Crossbar& xbar_;
    Dram& dram_;
    MemoryStats& stats_;
    uint32_t index_, sector_bytes_, spl_, fetch_sectors_, hit_latency_;
    FastDiv by_fetch_;  // % fetch_sectors_ without a divide (a DRAM piece per missed sector)
    HitSpread spread_;  // a read hit's latency (hit_spread.hpp); a store's ack takes hit_latency_
    uint32_t write_queue_;
    bool rmw_, fetch_partial_;
    bool piece_in_line_;  // a DRAM piece lies in one line (its sectors divide the line's): SectorCache::fill_piece
};

}  // namespace simt::timing
