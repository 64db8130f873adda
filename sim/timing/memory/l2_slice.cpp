// l2_slice.cpp: one L2 slice (see l2_slice.hpp).
#include "sim/timing/memory/l2_slice.hpp"

#include <algorithm>
#include <bit>

namespace simt::timing {

namespace {

CacheSpec slice_spec(const GpuConfig& c) {
    CacheSpec s = c.memory.l2;
    s.size_bytes /= std::max(c.memory.l2_slices.count, 1u);
    return s;
}

}  // namespace

L2Slice::L2Slice(const GpuConfig& c, uint32_t index, const Crossbar& xbar, Dram& dram, MemoryStats& stats)
    : cache_(slice_spec(c), c.memory.sector_bytes),
      buffer_(c.memory.l2_slices.write_back_entries),
      xbar_(xbar),
      dram_(dram),
      stats_(stats),
      index_(index),
      sector_bytes_(c.memory.sector_bytes),
      spl_(cache_.sectors_per_line()),
      fetch_sectors_(std::max(1u, c.memory.dram_fetch_bytes / std::max(1u, c.memory.sector_bytes))),
      hit_latency_(c.memory.l2.hit_latency),
      by_fetch_(fetch_sectors_),
      spread_(c.memory.l2.hit_latency, c.memory.l2_slices.hit_spread_cycles),
      write_queue_(c.memory.stores.write_queue_cycles),
      rmw_(c.memory.stores.partial_sector_dram_read),
      fetch_partial_(c.memory.stores.partial_miss_fetch),
      piece_in_line_(spl_ % fetch_sectors_ == 0) {
    cache_.set_dirty_limit(c.memory.stores.dirty_lines);
}

uint64_t L2Slice::enter(uint64_t t, uint64_t req, double cost) {
    const uint64_t delay = std::max(port_.take(t, req, cost), stalled(t));
    stats_.l2_queue_cycles += delay;
    return t + delay;
}

uint64_t L2Slice::follow(uint64_t t, uint64_t req) {
    const uint64_t delay = std::max(port_.follow(req), stalled(t));
    stats_.l2_queue_cycles += delay;
    return t + delay;
}

uint64_t L2Slice::arrive(uint64_t t, uint64_t req, double cost) {
    uint64_t delay = input_.take(t, req, cost);
    stats_.l2_queue_cycles += delay;
    return t + delay;
}

// DRAM moves whole bursts of memory.dram_fetch_bytes: each aligned piece holding dirty sectors
// is written as one burst (and first read, when one of its dirty sectors holds only some of its
// bytes: the ECC read-modify-write, which also turns the channel around once per eviction).
// The byte counters count the dirty sectors, as Nsight Compute's dram__bytes do.
uint64_t L2Slice::write_back(uint64_t ready, const Eviction& ev) {
    const uint64_t line = xbar_.line_of(index_, ev.line);
    const uint32_t piece_mask = (1u << fetch_sectors_) - 1;
    const uint64_t t = buffer_.room(ready);  // write_back_buffer.hpp
    if (t > ready) stall(t);
    const uint32_t bytes = fetch_sectors_ * sector_bytes_;
    const uint32_t partial = rmw_ ? ev.partial & ev.dirty : 0;
    uint64_t done = t;
    bool turned = false;
    for (uint32_t first = 0; first < spl_; first += fetch_sectors_) {
        const uint32_t dirty = ev.dirty >> first & piece_mask;
        if (!dirty) continue;
        const uint64_t addr = (line * spl_ + first) * sector_bytes_;
        if (const uint32_t p = partial >> first & piece_mask) {
            dram_.read_back(t, addr, bytes, !turned);
            turned = true;
            stats_.dram_read_bytes += uint64_t(std::popcount(p)) * sector_bytes_;
            stats_.dram_rmw_sectors += uint64_t(std::popcount(p));
        }
        done = std::max(done, dram_.write(t, addr, bytes));
        stats_.dram_write_bytes += uint64_t(std::popcount(dirty)) * sector_bytes_;
    }
    buffer_.hold(done);
    return done > t + write_queue_ ? done - write_queue_ : t;  // the queue hides write_queue_ cycles
}

// The slice's tag pipeline waits until `until` (a write-back waiting for the write-back buffer): what enters
// later starts no earlier (its queueing delay counts it), and the port's backlog resumes from then.
void L2Slice::stall(uint64_t until) {
    stalled_until_ = std::max(stalled_until_, until);
    port_.free_at = std::max(port_.free_at, double(until));
}

uint64_t L2Slice::fill(uint64_t t, uint64_t local, uint64_t ready, bool dirty, bool partial, bool prefetched) {
    Eviction ev = cache_.fill(local, ready, dirty, partial, prefetched);
    return ev.dirty ? write_back(t, ev) : t;
}

uint64_t L2Slice::read(uint64_t at, uint64_t local, uint64_t global, uint64_t req) {
    Probe p = cache_.lookup(local);
    if (p.hit && !p.partial) {
        if (p.prefetched) ++stats_.l2_miss_sectors;
        else ++stats_.l2_hit_sectors;
        return std::max(at + spread_.latency(global, spl_, req), p.fill_time);
    }
    ++stats_.l2_miss_sectors;
    // DRAM is read in aligned pieces of fetch_sectors_ sectors; the requested sector's
    // neighbours in the piece arrive with it (unless already present).
    uint64_t first = global - by_fetch_.mod(global);
    stats_.dram_read_bytes += uint64_t(fetch_sectors_) * sector_bytes_;
    uint64_t ready = dram_.read(at, first * sector_bytes_, fetch_sectors_ * sector_bytes_, req);
    if (piece_in_line_) {  // (the loop below, one look-up)
        const Eviction ev = cache_.fill_piece(local - global + first, fetch_sectors_, local, ready);
        if (ev.dirty) write_back(at, ev);
        return ready;
    }
    for (uint64_t s = first; s < first + fetch_sectors_; ++s) {
        uint64_t ls = local - global + s;  // same line: a piece never crosses one
        if (s == global) fill(at, ls, ready, false, false, false);
        else if (!cache_.present(ls)) fill(at, ls, ready, false, false, true);
    }
    return ready;
}

uint64_t L2Slice::write(uint64_t at, uint64_t local, uint64_t global, uint64_t req, bool partial) {
    Probe p = cache_.lookup(local);
    if (partial) ++stats_.l2_partial_writes;
    uint64_t ack = at + hit_latency_, fill_time = ack;
    const bool fetch = partial && fetch_partial_ && (!p.hit || p.partial);
    // Nsight Compute counts a write's look-up a hit unless it needs DRAM's data: the H200's
    // stencil5 writes 2.10 M sectors of a fresh output, every one a hit (lts__t_sectors_srcunit_tex_
    // op_write_lookup_hit), local_spill 99.7 % of 67.7 M (calib/results/local_mem/ncu_local.csv).
    if (fetch) ++stats_.l2_miss_sectors;
    else ++stats_.l2_hit_sectors;
    const uint64_t first = global - by_fetch_.mod(global);
    if (fetch) {  // the sector's other bytes, from DRAM, with the rest of its piece
        stats_.dram_read_bytes += uint64_t(fetch_sectors_) * sector_bytes_;
        ++stats_.dram_rmw_sectors;
        fill_time = std::max(ack, dram_.read(at, first * sector_bytes_, fetch_sectors_ * sector_bytes_, req));
        partial = false;  // whole from now on
    }
    uint64_t evicted = fill(at, local, fill_time, true, partial, false);
    if (fetch) fill_neighbours(at, local, global, first, fill_time);
    return std::max({ack, evicted, clean(at, local)});
}

// The other sectors of the DRAM piece a partial store fetched arrive with it, clean, where absent
// (as a read's do; on the line the store just filled, so they evict nothing).
void L2Slice::fill_neighbours(uint64_t at, uint64_t local, uint64_t global, uint64_t first, uint64_t ready) {
    for (uint64_t s = first; s < first + fetch_sectors_; ++s) {
        const uint64_t ls = local - global + s;
        if (s != global && !cache_.present(ls)) fill(at, ls, ready, false, false, true);
    }
}

// stores.dirty_lines: the set's oldest dirty line is written back and stays, clean; the store
// that made it one too many is acked once that is written, as for an eviction (the cycle; at when
// nothing was cleaned).
uint64_t L2Slice::clean(uint64_t at, uint64_t local) {
    const Eviction ev = cache_.clean_excess(local);
    if (!ev.dirty) return at;
    ++stats_.l2_cleaned_lines;
    return write_back(at, ev);
}

bool L2Slice::drop(uint64_t at, uint64_t local) {
    if (!cache_.present(local)) return false;
    Eviction ev = cache_.invalidate(local);
    if (ev.dirty) write_back(at, ev);
    return true;
}

uint64_t L2Slice::atomic_data(uint64_t at, uint64_t local, uint64_t global, uint64_t req) {
    uint64_t ready = read(at, local, global, req);  // the sector's data at the slice
    fill(at, local, ready, true, false, false);     // present now: marks it dirty, evicts nothing
    clean(at, local);                               // (in the background of the atomic)
    return ready;
}

}  // namespace simt::timing
