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
      slice_cost_(c.memory.l2_slices.sectors_per_cycle > 0 ? 1.0 / c.memory.l2_slices.sectors_per_cycle : 0.0),
      partial_cost_(c.memory.stores.partial_sector_cycles) {
    slices_.reserve(xbar_.slices());
    for (uint32_t i = 0; i < xbar_.slices(); ++i) slices_.emplace_back(c, i, xbar_, dram_, stats);
    atomics_.assign(std::max(1u, xbar_.slices() / slices_per_unit_), AtomicUnit(c));
}

L2Slice& L2::route(uint32_t sm, uint64_t t, uint64_t sector, double extra, uint64_t& local, uint64_t& at,
                   bool charge) {
    uint64_t line = sector / spl_;
    uint32_t s = xbar_.slice_of(line);
    local = (line / xbar_.slices()) * spl_ + sector % spl_;
    uint64_t port = charge ? xbar_.send(sm, t, request_) : 0;
    stats_.xbar_queue_cycles += port;
    L2Slice& slice = slices_[s];
    at = slice.enter(t + port, request_, charge ? slice_cost_ + extra : 0.0);
    return slice;
}

uint64_t L2::read(uint32_t sm, uint64_t t, uint64_t sector) {
    uint64_t local = 0, at = 0;
    L2Slice& slice = route(sm, t, sector, 0.0, local, at);
    return slice.read(at, local, sector, request_);
}

uint64_t L2::write(uint32_t sm, uint64_t t, uint64_t sector, bool partial) {
    uint64_t local = 0, at = 0;
    L2Slice& slice = route(sm, t, sector, partial ? partial_cost_ : 0.0, local, at);
    return slice.write(at, local, partial);
}

uint64_t L2::atomic(uint32_t sm, uint64_t t, uint64_t sector, uint64_t addr, uint32_t ops, bool first) {
    uint64_t local = 0, at = 0;
    L2Slice& slice = route(sm, t, sector, 0.0, local, at, first);
    AtomicUnit& unit = atomics_[std::min<size_t>((&slice - slices_.data()) / slices_per_unit_, atomics_.size() - 1)];
    return slice.atomic(at, local, sector, addr, ops, request_, unit);
}

}  // namespace simt::timing
