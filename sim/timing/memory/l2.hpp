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
// Partitions (l2_slices.partitions > 1; the H200 has two, calib/kernels/l2cap.cu):
// the slices are split evenly and SM s reads through partition s mod P, which
// keeps a copy of what its SMs read ("each L2 partition localizes and caches data
// for memory accesses from SMs in the GPCs directly connected to the partition",
// NVIDIA A100 whitepaper). A read that misses its partition takes another
// partition's full copy when there is one (l2_slices.far_hit_cycles later than a
// hit) and DRAM otherwise. Data read from both sides is held twice, so a shared
// random footprint sees half the L2. Each line has a home partition (a hash of
// its address), where its atomics run. With l2_slices.home_copy (the H200,
// calib/kernels/l2dirty.cu) the line's home also keeps a copy of what DRAM returns
// to a read from another partition: a private footprint whose lines are homed
// half far away takes 1.5 copies (the H200 holds private reads to about 48 MB, not
// 60). The H200 looks such a miss up at the home too (ncu: 1.46 L2 lookups per read
// at 64 MB); charging that lookup to the home slice moved l2cap random 48 MB from
// +5 to -12 %, so it is left out.
// Stores write to their SM's partition and drop the copies in the other partitions (written
// back first when dirty), so a copy is never stale; atomics do the same at the line's home. With
// l2_slices.stores_at_home (the H200, calib/kernels/l2dirty.cu) a store to a line homed in the
// other partition is looked up in the SM's partition, where a copy is updated in place but none
// is made (a tag check: no slice data cycles), and written at the home, which takes it dirty
// (ncu: 1.5 L2 lookups per store of a private footprint). So a footprint that is only written
// takes one copy (stores alone hold to about 56 MB on the H200) while one read and written keeps
// the reads' 1.5 copies (it falls from 40 MB).
//
// Atomics in sector mode go by line (atomic_packet.hpp): the line's packets enter
// a slice of the SM's own partition (its crossbar input, then one tag lookup per
// packet); with atomics.near_lookup a line homed in the other partition enters the
// slice linked to its home slice (l2_slices.partner_offset places after the home's
// place) and is forwarded over that link to the home slice, which looks it up again
// (the H200: ncu counts 1.5 L2 requests per line of a red.global, half of the lines
// being far, and 64 hot lines load their busiest slice with one group's requests at
// home plus another's near lookups, calib/README.md §10). The home slice's atomic
// unit then runs the line's sectors.
//
// Warm launches (RunOptions::warm_launches): a launch can start with the tags a previous
// launch of the same kernel left (carry()), as a benchmark's timed launch after its warm-up does.
//
// Left out: the response network as a separate resource, the SM-to-partition
// map of real GPC floorsweeping (SMs alternate here).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/atomic_packet.hpp"
#include "sim/timing/memory/crossbar.hpp"
#include "sim/timing/memory/dram.hpp"
#include "sim/timing/memory/hit_spread.hpp"
#include "sim/timing/memory/l2_slice.hpp"
#include "sim/timing/stats.hpp"

#include <vector>

namespace simt::timing {

class L2 {
public:
    L2(const GpuConfig& config, MemoryStats& stats);
    void begin_request() { ++request_; }  // before the sectors of one warp request
    // Where a sector is held: its slice within a partition and its index there.
    struct Place {
        uint32_t slice;
        uint64_t local;
    };
    Place place(uint64_t sector) const {
        uint32_t slice;
        const uint64_t local_line = xbar_.place(by_spl_.div(sector), slice);
        return {slice, local_line * spl_ + by_spl_.mod(sector)};
    }
    // Do two sectors lie in one L2 line? Then the later one's place is the earlier one's, moved by
    // their distance (a line's sectors are adjacent in its slice: place()).
    bool same_line(uint64_t a, uint64_t b) const { return by_spl_.div(a) == by_spl_.div(b); }
    static Place place_after(const Place& p, uint64_t sector, uint64_t next) {
        return {p.slice, p.local + (next - sector)};
    }
    // The sets a sector is looked up in (its slice in every partition) toward the host's caches,
    // before a request's sectors are sent (SectorCache::prefetch); `way`: their ways (prefetch_way).
    void prefetch(const Place& p, bool way) const {
        for (uint32_t q = 0; q < parts_; ++q) slices_[q * per_part_ + p.slice].prefetch(p.local, way);
    }
    // Each returns the cycle the data (the ack, the old value) is back at SM `sm`.
    // (`known`: the sector's place(), when the caller has it already)
    uint64_t read(uint32_t sm, uint64_t t, uint64_t sector, const Place* known = nullptr);
    uint64_t write(uint32_t sm, uint64_t t, uint64_t sector, bool partial);
    // `ops` lane operations on the word at `addr` (in `sector`); `first` when it is the
    // request's first group in that sector (the sector crosses the crossbar and the slice once).
    uint64_t atomic(uint32_t sm, uint64_t t, uint64_t sector, uint64_t addr, uint32_t ops, bool first = true,
                    bool float_add = false);
    // Sector mode (atomics.sector_cycles): one line's lanes of a request (atomic_packet.hpp).
    uint64_t atomic_line(uint32_t sm, uint64_t t, const AtomicLine& line);
    bool atomic_sector_mode() const { return atomics_.front().sector_mode(); }
    uint32_t home_partition(uint64_t line) const { return home(line * spl_); }  // where its atomics run
    const Dram& dram() const { return dram_; }
    // The busiest slice's and DRAM channel's share of `cycles`, and the means (MemoryStats).
    void busy(MemoryStats& m, uint64_t cycles) const;
    // What a previous launch on the same config left in the L2 (`warm`): its lines, dirty ones
    // included, with every fill landed; the queues, DRAM and counters start empty.
    void carry(const L2& warm) {
        for (size_t i = 0; i < slices_.size() && i < warm.slices_.size(); ++i) slices_[i].carry(warm.slices_[i]);
    }

private:
    // Through the SM's port into the slice of `sector` in partition `part`: the slice, its own sector
    // index and the arrival. `port`: the sector occupies the SM's port (false: it already did in this
    // request); `cost`: the slice cycles it takes there.
    // `follows`: a read sector that costs nothing here (read_cost 0) waits as the request's earlier ones did;
    // `input`: the cycles it adds to the slice's crossbar input (a store's packet, store_input).
    L2Slice& route(uint32_t sm, uint64_t t, uint64_t sector, double cost, uint64_t& local, uint64_t& at,
                   bool port, uint32_t part, bool follows = false, double input = 0, const Place* known = nullptr);
    uint32_t near(uint32_t sm) const {
        if (parts_ == 1) return 0;
        return sm < sm_map_.size() ? sm_map_[sm] : sm % parts_;
    }
    uint32_t home(uint64_t sector) const;
    // Partitions: when another partition holds a full copy of the sector, the cycle it is back
    // (0: none); and dropping the copies outside partition `keep`.
    uint64_t far_copy(const L2Slice& near, uint64_t local, uint64_t at);
    void invalidate_others(L2Slice& keep, uint64_t local, uint64_t at);
    // stores_at_home: the store of a line homed at partition `h` away from the SM's partition.
    uint64_t write_at_home(uint32_t sm, uint64_t t, uint64_t sector, bool partial, uint32_t h, double input);
    AtomicUnit& unit_of(const L2Slice& slice);
    // A line's packets through the SM's port into the slice where they enter (and `home`, when
    // forwarded there): the cycle they are looked up.
    uint64_t atomic_arrival(uint32_t sm, uint64_t t, const AtomicLine& line, L2Slice& entry, L2Slice* home);
    size_t index_of(const L2Slice& slice) const { return size_t(&slice - slices_.data()); }
    // The slice cycles of a read sector (l2_slices.data_sectors_per_cycle): the sectors of one line in one
    // request share its lookup, then move at the data rate.
    double read_cost(uint64_t sector);
    // The input cycles a store sector adds to its line's packet (stores.header_bytes): the packet of a
    // line in one request carries a header and 32 B per whole sector, 4 B per byte-masked one.
    double store_input(uint64_t sector, bool partial);

    MemoryStats& stats_;
    Crossbar xbar_;
    Dram dram_;
    std::vector<L2Slice> slices_;
    std::vector<AtomicUnit> atomics_;  // one per atomics.slices_per_unit slices
    uint32_t spl_, slices_per_unit_, parts_, per_part_, far_cycles_;
    HitSpread spread_;  // a read hit's latency (hit_spread.hpp), for a far copy's hit
    std::vector<uint8_t> sm_map_;
    double slice_cost_, read_cost_, data_cost_, partial_cost_, flit_cost_;
    bool home_copy_;   // l2_slices.home_copy
    bool stores_at_home_;  // l2_slices.stores_at_home
    bool near_lookup_;
    uint32_t partner_;  // l2_slices.partner_offset
    uint64_t request_ = 0;
    // The line of the last sector of one kind and its request, with what that line took so far in that
    // request (read_cost: sectors; store_input: bytes of its packet).
    struct LineRun {
        uint64_t request = ~0ull, line = 0;
        uint32_t so_far = 0;
        uint32_t& of(uint64_t req, uint64_t l) {  // so_far, restarted for a new request or line
            if (req != request || l != line) {
                request = req;
                line = l;
                so_far = 0;
            }
            return so_far;
        }
    };
    LineRun read_run_, store_run_;
    uint32_t store_header_ = 0, flit_bytes_ = 32;
    FastDiv by_spl_, by_parts_, by_per_part_;  // spl_, parts_, per_part_ (fast_div.hpp)
};

}  // namespace simt::timing
