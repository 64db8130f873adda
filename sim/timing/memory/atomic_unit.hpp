// atomic_unit.hpp: the atomic unit of one L2 slice.
//
// A warp's atomic instruction reaches a slice as lane operations grouped by
// address. The lanes on one address are serialised: each costs the unit
// atomics.same_address_cycles of read-modify-write, and the next group on that
// address (from any warp) starts when the previous one has finished, so a hot
// counter or a few hot histogram bins serialise GPU-wide. The unit also starts
// at most atomics.slice_ops_per_cycle lane operations per cycle (a server,
// server.hpp, whose queueing here is per address group: the groups of one
// request queue behind each other). The old value of a group's last lane returns at start +
// memory.atomic_latency + (ops - 1) * same_address_cycles.
// With same_address_cycles = 0 the lanes of one sector merge into one
// operation and one sector takes one operation per cycle.
//
// Left out: the ALU's operation types (add, min, CAS all cost the same),
// fire-and-forget reductions (RED: the ISA's atom returns the old value).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/server.hpp"
#include "sim/timing/stats.hpp"

#include <cstdint>
#include <unordered_map>

namespace simt::timing {

class AtomicUnit {
public:
    explicit AtomicUnit(const GpuConfig& c)
        : same_(c.memory.atomics.same_address_cycles),
          latency_(c.memory.atomic_latency),
          cost_(c.memory.atomics.slice_ops_per_cycle > 0 ? 1.0 / c.memory.atomics.slice_ops_per_cycle : 0.0) {}

    // `ops` lane operations on `key` (an address), arriving at t with
    // their data at the slice at `ready`: the cycle the old value is back at the SM.
    uint64_t execute(uint64_t t, uint64_t ready, uint64_t key, uint32_t ops, MemoryStats& stats) {
        uint64_t start = ready + unit_.take(t, ++seq_, ops * cost_);  // groups queue one after another
        uint64_t& next = free_[key];
        if (next > start) {
            stats.atomic_serial_cycles += next - start;
            start = next;
        }
        uint32_t busy = same_ ? ops * same_ : 1;
        next = start + busy;
        stats.atomic_lane_ops += ops;
        if (free_.size() > kPruneAt) prune(t);
        return start + latency_ + (same_ ? (ops - 1) * same_ : 0);
    }

private:
    static constexpr size_t kPruneAt = 1u << 14;
    // Forgets addresses free before t (they cannot delay anything arriving from t on).
    void prune(uint64_t t) {
        for (auto it = free_.begin(); it != free_.end();) it = it->second <= t ? free_.erase(it) : std::next(it);
    }

    uint32_t same_, latency_;
    double cost_;
    RateServer unit_;
    uint64_t seq_ = 0;
    std::unordered_map<uint64_t, uint64_t> free_;  // address -> cycle its next operation may start
};

}  // namespace simt::timing
