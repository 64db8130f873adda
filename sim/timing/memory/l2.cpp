// l2.cpp: routing sectors through the crossbar to the L2 slices (see l2.hpp).
#include "sim/timing/memory/l2.hpp"

#include <algorithm>

namespace simt::timing {

L2::L2(const GpuConfig& c, MemoryStats& stats)
    : stats_(stats),
      xbar_(c),
      dram_(c, stats),
      spl_(std::max(1u, c.memory.l2.line_bytes / std::max(1u, c.memory.sector_bytes))),
      slices_per_unit_(std::max(1u, c.memory.atomics.slices_per_unit)),
      parts_(std::max(1u, c.memory.l2_slices.partitions)),
      per_part_(xbar_.slices()),
      far_cycles_(c.memory.l2_slices.far_hit_cycles),
      spread_(c.memory.l2.hit_latency, c.memory.l2_slices.hit_spread_cycles),
      sm_map_(c.memory.l2_slices.sm_map),
      slice_cost_(c.memory.l2_slices.sectors_per_cycle > 0 ? 1.0 / c.memory.l2_slices.sectors_per_cycle : 0.0),
      read_cost_(c.memory.l2_slices.read_lookups_per_cycle > 0 ? 1.0 / c.memory.l2_slices.read_lookups_per_cycle : slice_cost_),
      data_cost_(c.memory.l2_slices.data_sectors_per_cycle > 0 ? 1.0 / c.memory.l2_slices.data_sectors_per_cycle : 0.0),
      partial_cost_(c.memory.stores.partial_sector_cycles),
      flit_cost_(c.memory.l2_slices.input_flits_per_cycle > 0 ? 1.0 / c.memory.l2_slices.input_flits_per_cycle : 0.0),
      home_copy_(c.memory.l2_slices.home_copy),
      stores_at_home_(c.memory.l2_slices.stores_at_home && parts_ > 1),
      near_lookup_(c.memory.atomics.near_lookup && parts_ > 1),
      partner_(c.memory.l2_slices.partner_offset),
      store_header_(c.memory.stores.header_bytes),
      flit_bytes_(std::max(1u, c.memory.l2_slices.flit_bytes)) {
    by_spl_ = FastDiv(spl_);
    by_parts_ = FastDiv(parts_);
    by_per_part_ = FastDiv(per_part_);
    const uint32_t n = per_part_ * parts_;
    slices_.reserve(n);
    for (uint32_t i = 0; i < n; ++i) slices_.emplace_back(c, i % per_part_, xbar_, dram_, stats);
    atomics_.assign(std::max(1u, n / slices_per_unit_), AtomicUnit(c));
}

L2Slice& L2::route(uint32_t sm, uint64_t t, uint64_t sector, double cost, uint64_t& local, uint64_t& at,
                   bool port, uint32_t part, bool follows, double input, const Place* known) {
    const Place p = known ? *known : place(sector);
    const uint32_t s = part * per_part_ + p.slice;
    local = p.local;
    uint64_t queued = port ? xbar_.send(sm, t, request_) : 0;
    stats_.xbar_queue_cycles += queued;
    L2Slice& slice = slices_[s];
    at = follows ? slice.follow(t + queued, request_) : slice.enter(t + queued, request_, cost);
    if (input > 0) at = std::max(at, slice.arrive(t + queued, request_, input));
    return slice;
}

uint32_t L2::home(uint64_t sector) const {
    return parts_ > 1 ? uint32_t(by_parts_.mod(mix_bits(xbar_.group_of(by_spl_.div(sector)) ^ 0x5bd1e995u))) : 0;
}

uint64_t L2::far_copy(const L2Slice& near, uint64_t local, uint64_t at) {
    const size_t offset = by_per_part_.mod(index_of(near));
    for (uint32_t q = 0; q < parts_; ++q) {
        L2Slice& far = slices_[q * per_part_ + offset];
        if (&far == &near) continue;
        const uint64_t fill = far.copy_at(local);
        if (fill == ~0ull) continue;
        const uint64_t start = far.enter(at, request_, slice_cost_);
        return std::max(start + spread_.latency(local, spl_, request_), fill) + far_cycles_;
    }
    return 0;
}

void L2::invalidate_others(L2Slice& keep, uint64_t local, uint64_t at) {
    if (parts_ == 1) return;
    if (keep.copy_at(local) == ~0ull)  // the partition that writes takes the current data along
        if (uint64_t ready = far_copy(keep, local, at)) keep.take_copy(at, local, ready);
    const size_t offset = by_per_part_.mod(index_of(keep));
    for (uint32_t q = 0; q < parts_; ++q) {
        L2Slice& other = slices_[q * per_part_ + offset];
        if (&other != &keep && other.drop(at, local)) ++stats_.l2_invalidations;
    }
}

// The n-th sector (from 0) of a line in one request costs f(n + 1) - f(n), f(0) = 0, f(m) = max(T, m D): one lookup
// (T = 1 / read_lookups_per_cycle) for the line, the data stage (D = 1 / data_sectors_per_cycle) beside it,
// so a line of n sectors takes max(T, n D), the slower stage of the two.
double L2::read_cost(uint64_t sector) {
    if (data_cost_ <= 0) return read_cost_;
    const double n = double(read_run_.of(request_, by_spl_.div(sector))++);
    return std::max(read_cost_, (n + 1) * data_cost_) - (n > 0 ? std::max(read_cost_, n * data_cost_) : 0.0);
}

uint64_t L2::read(uint32_t sm, uint64_t t, uint64_t sector, const Place* known) {
    uint64_t local = 0, at = 0;
    const uint32_t part = near(sm);
    const double cost = read_cost(sector);
    L2Slice& slice = route(sm, t, sector, cost, local, at, true, part, cost <= 0, 0, known);
    if (parts_ == 1 || slice.copy_at(local) != ~0ull) return slice.read(at, local, sector, request_);
    if (uint64_t ready = far_copy(slice, local, at)) {
        slice.take_copy(at, local, ready);
        ++stats_.l2_far_hits;
        ++stats_.l2_hit_sectors;
        return ready;
    }
    const uint64_t ready = slice.read(at, local, sector, request_);
    if (home_copy_) {  // the line's home keeps a copy of what DRAM returns
        const uint32_t h = home(sector);
        if (h != part) slices_[h * per_part_ + by_per_part_.mod(index_of(slice))].take_copy(at, local, ready);
    }
    return ready;
}

// The packet's flits grow as its sectors come: ceil((header + bytes) / flit) - the flits so far.
double L2::store_input(uint64_t sector, bool partial) {
    if (store_header_ == 0 || flit_cost_ <= 0) return 0;
    uint32_t& bytes = store_run_.of(request_, by_spl_.div(sector));
    auto flits = [&](uint32_t b) { return b ? (store_header_ + b + flit_bytes_ - 1) / flit_bytes_ : 0; };
    const uint32_t before = flits(bytes);
    bytes += partial ? 4 : 32;
    return double(flits(bytes) - before) * flit_cost_;
}

uint64_t L2::write(uint32_t sm, uint64_t t, uint64_t sector, bool partial) {
    const double input = store_input(sector, partial);
    if (stores_at_home_) {
        const uint32_t h = home(sector);
        if (h != near(sm)) return write_at_home(sm, t, sector, partial, h, input);
    }
    uint64_t local = 0, at = 0;
    L2Slice& slice = route(sm, t, sector, slice_cost_ + (partial ? partial_cost_ : 0.0), local, at, true, near(sm),
                           false, input);
    invalidate_others(slice, local, at);
    return slice.write(at, local, sector, request_, partial);
}

// The SM's partition checks its tags (the port and the queue, no data cycles) and keeps a copy it
// has, updated; the home takes the store (a full copy from the SM's partition first, so a partial
// store there merges with the data), and copies in any third partition are dropped.
uint64_t L2::write_at_home(uint32_t sm, uint64_t t, uint64_t sector, bool partial, uint32_t h, double input) {
    uint64_t local = 0, at = 0;
    const uint32_t part = near(sm);
    L2Slice& mine = route(sm, t, sector, 0.0, local, at, true, part, false, input);
    const uint64_t copy = mine.copy_at(local);
    if (copy != ~0ull) mine.touch(local);
    const size_t offset = index_of(mine) % per_part_;
    L2Slice& home = slices_[h * per_part_ + offset];
    const uint64_t there = home.enter(at + far_cycles_, request_, slice_cost_ + (partial ? partial_cost_ : 0.0));
    if (copy != ~0ull && home.copy_at(local) == ~0ull) home.take_copy(there, local, std::max(copy, there));
    for (uint32_t q = 0; q < parts_; ++q) {
        L2Slice& other = slices_[q * per_part_ + offset];
        if (q != part && q != h && other.drop(at, local)) ++stats_.l2_invalidations;
    }
    return home.write(there, local, sector, request_, partial);
}

AtomicUnit& L2::unit_of(const L2Slice& slice) {
    return atomics_[std::min<size_t>(index_of(slice) / slices_per_unit_, atomics_.size() - 1)];
}

uint64_t L2::atomic(uint32_t sm, uint64_t t, uint64_t sector, uint64_t addr, uint32_t ops, bool first, bool float_add) {
    uint64_t local = 0, at = 0;
    L2Slice& slice = route(sm, t, sector, first ? slice_cost_ : 0.0, local, at, first, home(sector));
    if (first) invalidate_others(slice, local, at);
    uint64_t ready = slice.atomic_data(at, local, sector, request_);
    return unit_of(slice).execute(at, ready, addr, ops, float_add, stats_);
}

// The stages a line's packets pass (the SM's port, the entry slice's crossbar input and tag
// lookup, the home slice's lookup when forwarded) are all charged at the packets' arrival, in
// issue order, and the packets are through after the longest backlog: a pipeline runs at its
// busiest stage's rate (charging each stage at its own, later start would leave idle gaps in
// the next-free-time servers, server.hpp, when arrivals come out of order).
uint64_t L2::atomic_arrival(uint32_t sm, uint64_t t, const AtomicLine& line, L2Slice& entry, L2Slice* home) {
    uint64_t port = 0;
    for (uint32_t i = 0; i < line.count; ++i) port = xbar_.send(sm, t, request_);
    stats_.xbar_queue_cycles += port;
    const uint64_t at = t + port;
    uint64_t done = std::max(entry.arrive(at, request_, line.flits * flit_cost_),
                             entry.enter(at, request_, line.passes * slice_cost_));
    if (home) done = std::max(done, home->enter(at, request_, line.passes * slice_cost_));
    return done;
}

// The line's packets enter the slice of the SM's partition linked to the home slice (the home slice
// itself for the home partition's SMs), are forwarded to the home slice when that is elsewhere, and
// the home's unit runs each sector.
uint64_t L2::atomic_line(uint32_t sm, uint64_t t, const AtomicLine& line) {
    const uint32_t offset = xbar_.slice_of(line.line), part = home(line.sector[0]);
    L2Slice& slice = slices_[part * per_part_ + offset];
    const uint32_t entry = near_lookup_ ? near(sm) : part;
    const uint32_t place = entry == part ? offset : (offset + partner_) % per_part_;
    const uint64_t at =
        atomic_arrival(sm, t, line, slices_[entry * per_part_ + place], entry != part ? &slice : nullptr);
    const uint64_t base = xbar_.local_of(line.line) * spl_;
    uint64_t done = t + 1;
    for (uint32_t i = 0; i < line.count; ++i) {
        const uint64_t local = base + line.sector[i] % spl_;
        invalidate_others(slice, local, at);
        const uint64_t ready = slice.atomic_data(at, local, line.sector[i], request_);
        const AtomicSector op{line.lanes[i], line.busiest[i], line.busiest_word[i], i == 0, line.float_add};
        done = std::max(done, unit_of(slice).execute_sector(ready, op, stats_));
    }
    return done;
}

// Busy cycles over the launch's cycles, capped at 1 (write-backs may still be draining at the end).
void L2::busy(MemoryStats& m, uint64_t cycles) const {
    if (!cycles || slices_.empty()) return;
    const double c = double(cycles);
    double max = 0, mean = 0;
    for (const L2Slice& s : slices_) {
        max = std::max(max, s.busy());
        mean += s.busy() / double(slices_.size());
    }
    m.l2_slice_busy_max = std::min(1.0, max / c);
    m.l2_slice_busy_mean = std::min(1.0, mean / c);
    dram_.busy(max, mean);
    m.dram_busy_max = std::min(1.0, max / c);
    m.dram_busy_mean = std::min(1.0, mean / c);
}

}  // namespace simt::timing
