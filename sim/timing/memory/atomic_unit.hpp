// atomic_unit.hpp: an atomic unit of the L2, shared by atomics.slices_per_unit slices.
//
// A warp's atomic instruction reaches a slice as lane operations grouped by
// address. The lanes on one address are serialised: each costs the unit
// atomics.same_address_cycles of read-modify-write, and the next group on that
// address (from any warp) starts when the previous one has finished, so a hot
// counter or a few hot histogram bins serialise GPU-wide. The unit is a
// server (server.hpp) taking a group when its data is at the slice and busy
// for 1 / atomics.unit_ops_per_cycle plus that chain, so lanes on distinct
// addresses pass at unit_ops_per_cycle while a same-address chain holds the
// unit (the H200: one word per warp over many lines runs at 48 units x the
// one-word rate). The groups of one request queue behind each other. The old value of a group's last lane returns at start +
// memory.atomic_latency + (ops - 1) * same_address_cycles.
// With same_address_cycles = 0 the lanes of one sector merge into one
// operation and one sector takes one operation per cycle.
//
// Sector mode (atomics.sector_cycles > 0; the H200 config, measured by
// calib/kernels/atomgrid.cu): the unit's ALU works on a 32 B sector at a time,
// every word of it at once, so a request's sector costs sector_cycles plus
// same_address_cycles for each further lane on its busiest word, and each line
// of a request adds request_cycles once. The unit takes one sector after
// another (a server): requests on the same words from other warps wait their
// turn, so a hot line serialises GPU-wide without a per-address chain.
//
// Left out: the ALU's operation types (add, min, CAS all cost the same),
// fire-and-forget reductions (RED: the ISA's atom returns the old value).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/server.hpp"
#include "sim/timing/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace simt::timing {

class AtomicUnit {
public:
    explicit AtomicUnit(const GpuConfig& c)
        : same_(c.memory.atomics.same_address_cycles),
          latency_(c.memory.atomic_latency),
          cost_(c.memory.atomics.unit_ops_per_cycle > 0 ? 1.0 / c.memory.atomics.unit_ops_per_cycle : 0.0),
          sector_(c.memory.atomics.sector_cycles),
          request_(c.memory.atomics.request_cycles) {}

    bool sector_mode() const { return sector_ > 0; }

    // Sector mode: `lanes` lane operations in one sector, at most `busiest` of them on one word,
    // arriving with the sector's data at `ready`; `line_first` for the first sector of its line
    // in the request. The cycle the busiest word's last old value is back at the SM.
    uint64_t execute_sector(uint64_t ready, uint32_t lanes, uint32_t busiest, bool line_first, MemoryStats& stats) {
        const double chain = double(std::max(busiest, 1u) - 1) * same_;
        const double occupy = (line_first ? request_ : 0.0) + sector_ + chain;
        const uint64_t wait = unit_.take(ready, ++seq_, occupy);
        stats.atomic_serial_cycles += wait;
        stats.atomic_lane_ops += lanes;
        return ready + wait + uint64_t(std::ceil(chain)) + latency_;
    }

    // `ops` lane operations on `key` (an address), arriving at t with
    // their data at the slice at `ready`: the cycle the old value is back at the SM.
    uint64_t execute(uint64_t t, uint64_t ready, uint64_t key, uint32_t ops, MemoryStats& stats) {
        // The unit is busy with a group for 1 / rate, plus the read-modify-write chain of
        // its further lanes on the same address; it takes the group when the data is there.
        double occupy = same_ > 0 ? cost_ + (ops - 1) * same_ : ops * cost_;
        uint64_t start = ready + unit_.take(ready, ++seq_, occupy);
        double& next = free_[key];
        double begin = std::max(double(start), next);
        stats.atomic_serial_cycles += uint64_t(std::ceil(begin - double(ready)));
        next = begin + (same_ > 0 ? ops * same_ : 1.0);
        stats.atomic_lane_ops += ops;
        if (free_.size() > kPruneAt) prune(t);
        // The last lane's old value: after the others' read-modify-writes.
        return uint64_t(std::ceil(begin + (same_ > 0 ? (ops - 1) * same_ : 0.0))) + latency_;
    }

private:
    static constexpr size_t kPruneAt = 1u << 14;
    // Forgets addresses free before t (they cannot delay anything arriving from t on).
    void prune(uint64_t t) {
        for (auto it = free_.begin(); it != free_.end();) it = it->second <= double(t) ? free_.erase(it) : std::next(it);
    }

    double same_;
    uint32_t latency_;
    double cost_, sector_, request_;
    RateServer unit_;
    uint64_t seq_ = 0;
    std::unordered_map<uint64_t, double> free_;  // address -> cycle its next operation may start
};

}  // namespace simt::timing
