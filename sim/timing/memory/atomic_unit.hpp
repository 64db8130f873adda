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
// Floating-point adds (atomics.float_add_cycles > 0; calib/kernels/atomtype.cu on an H100): an fp32
// add's read-modify-write takes longer than the integer ALU's, and the next add on its word waits
// for its result: lanes on one word cost float_add_cycles each (3.5 against 1.47 for add.u32, min,
// or, exch, cas), whether they come from one request or from many warps (one lane per warp on one
// word: 0.285 per clock against 0.684), while adds on other words pass at the integer rate (8 hot
// lines, hashed words: 1.86 per clock for both). So the unit is held for the request's own chain
// as for integers, and a word's next float add starts no earlier than its previous one's end.
//
// A 64-bit atomic's lanes are 8 bytes (fewer per sector and line); an fp64 add chains as an fp32 one
// (the H100: 0.285 lane operations per clock on one word for both).
//
// Left out: CAS's second operand.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/server.hpp"
#include "sim/timing/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace simt::timing {

// One sector of a request at the unit (sector mode): its lanes, the lanes on its busiest word and
// that word's address, whether it is the first sector of its line in the request, and the op's kind.
struct AtomicSector {
    uint32_t lanes = 0, busiest = 0;
    uint64_t word = 0;
    bool line_first = false, float_add = false;
};

class AtomicUnit {
public:
    explicit AtomicUnit(const GpuConfig& c)
        : same_(c.memory.atomics.same_address_cycles),
          float_(c.memory.atomics.float_add_cycles > 0 ? c.memory.atomics.float_add_cycles : same_),
          latency_(c.memory.atomic_latency),
          cost_(c.memory.atomics.unit_ops_per_cycle > 0 ? 1.0 / c.memory.atomics.unit_ops_per_cycle : 0.0),
          sector_(c.memory.atomics.sector_cycles),
          request_(c.memory.atomics.request_cycles),
          float_words_(c.memory.atomics.float_add_cycles > 0) {}

    bool sector_mode() const { return sector_ > 0; }

    // Sector mode: sector `a`'s lane operations, arriving with the sector's data at `ready`. The
    // cycle the busiest word's last old value is back at the SM.
    uint64_t execute_sector(uint64_t ready, const AtomicSector& a, MemoryStats& stats) {
        const double each = a.float_add ? float_ : same_;
        const double chain = double(std::max(a.busiest, 1u) - 1) * each;
        const double occupy = (a.line_first ? request_ : 0.0) + sector_ + chain;
        const uint64_t wait = unit_.take(ready, ++seq_, occupy);
        double begin = double(ready + wait);
        if (a.float_add && float_words_) begin = after_word(a.word, begin, double(std::max(a.busiest, 1u)) * each, ready);
        stats.atomic_serial_cycles += uint64_t(std::ceil(begin - double(ready)));
        stats.atomic_lane_ops += a.lanes;
        return uint64_t(std::ceil(begin + chain)) + latency_;
    }

    // `ops` lane operations on `key` (an address), arriving at t with
    // their data at the slice at `ready`: the cycle the old value is back at the SM.
    uint64_t execute(uint64_t t, uint64_t ready, uint64_t key, uint32_t ops, bool float_add, MemoryStats& stats) {
        // The unit is busy with a group for 1 / rate, plus the read-modify-write chain of
        // its further lanes on the same address; it takes the group when the data is there.
        const double each = float_add ? float_ : same_;
        double occupy = each > 0 ? cost_ + (ops - 1) * each : ops * cost_;
        uint64_t start = ready + unit_.take(ready, ++seq_, occupy);
        double& next = free_[key];
        double begin = std::max(double(start), next);
        stats.atomic_serial_cycles += uint64_t(std::ceil(begin - double(ready)));
        next = begin + (each > 0 ? ops * each : 1.0);
        stats.atomic_lane_ops += ops;
        if (free_.size() > kPruneAt) prune(t);
        // The last lane's old value: after the others' read-modify-writes.
        return uint64_t(std::ceil(begin + (each > 0 ? (ops - 1) * each : 0.0))) + latency_;
    }

private:
    static constexpr size_t kPruneAt = 1u << 14;
    // Forgets addresses free before t (they cannot delay anything arriving from t on).
    void prune(uint64_t t) {
        for (auto it = free_.begin(); it != free_.end();) it = it->second <= double(t) ? free_.erase(it) : std::next(it);
    }

    // A float add on `word` starting at `begin` and holding it `hold` cycles: it starts once the
    // word's previous float add has ended.
    double after_word(uint64_t word, double begin, double hold, uint64_t now) {
        double& next = free_[word];
        begin = std::max(begin, next);
        next = begin + hold;
        if (free_.size() > kPruneAt) prune(now);
        return begin;
    }

    double same_, float_;
    uint32_t latency_;
    double cost_, sector_, request_;
    bool float_words_;
    RateServer unit_;
    uint64_t seq_ = 0;
    std::unordered_map<uint64_t, double> free_;  // address -> cycle its next operation may start
};

}  // namespace simt::timing
