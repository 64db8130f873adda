// dram.cpp: DRAM channels, row chunks and the M/D/1 load term (see dram.hpp).
#include "sim/timing/memory/dram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace simt::timing {

namespace {
constexpr double kMaxRho = 0.9;  // caps the M/D/1 wait at 4.5 service times
constexpr uint64_t kMaxSpreadSteps = 12;

// std::lround(x) for x >= 0 without the library call: x's fraction (exact in a double) against
// one half, halves away from zero; NaN and x >= 2^52 (where every double is whole) go to lround.
uint64_t round_half_up(double x) {
    if (!(x >= 0 && x < 4503599627370496.0)) return uint64_t(std::lround(x));
    const uint64_t whole = uint64_t(x);
    return whole + uint64_t(x - double(whole) >= 0.5);
}
}  // namespace

Dram::Dram(const GpuConfig& c, MemoryStats& stats)
    : stats_(stats),
      channels_(std::max(c.memory.dram.channels, 1u)),
      interleave_(std::max(c.memory.dram.interleave_bytes, 1u)),
      latency_(c.memory.dram_latency - std::min(c.memory.dram_latency, c.memory.dram.latency_spread_cycles)),
      spread_step_(std::min(c.memory.dram_latency, c.memory.dram.latency_spread_cycles)),
      service_(c.memory.dram.bank_service_cycles),
      window_(std::max(c.memory.dram.load_window_cycles, 1u)) {
    double bytes_per_cycle = c.clock_mhz > 0 ? c.memory.dram_bandwidth_gbs * 1e9 / (c.clock_mhz * 1e6) : 0.0;
    if (bytes_per_cycle > 0) cycles_per_byte_ = double(channels_.size()) / bytes_per_cycle;
    row_miss_cycles_ = c.memory.dram.row_miss_bytes * cycles_per_byte_;
    write_row_miss_cycles_ = c.memory.dram.write_row_miss_bytes * cycles_per_byte_;
    write_activate_cycles_ = c.memory.dram.write_activate_bytes * cycles_per_byte_;
    read_activate_cycles_ = c.memory.dram.read_activate_bytes * cycles_per_byte_;
    read_command_cycles_ = c.memory.dram.read_command_bytes * cycles_per_byte_;
    turnaround_cycles_ = c.memory.dram.rmw_turnaround_bytes * cycles_per_byte_;
    mixed_write_cycles_ = c.memory.dram.mixed_write_bytes * cycles_per_byte_;
    switch_cycles_ = c.memory.dram.switch_bytes * cycles_per_byte_;
    write_row_ = std::max<uint64_t>(c.memory.dram.write_row_bytes, interleave_);
    open_.assign(std::max(c.memory.dram.open_chunks, 1u), ~0ull);
    write_banks_ = c.memory.dram.write_banks;
    const size_t write_slots = write_banks_ ? size_t(write_banks_) * channels_.size()
                                            : (c.memory.dram.open_write_rows ? c.memory.dram.open_write_rows : open_.size());
    open_write_.assign(write_slots, ~0ull);
    by_interleave_ = FastDiv(interleave_);
    by_channels_ = FastDiv(channels_.size());
    by_open_ = FastDiv(open_.size());
}

Dram::Channel& Dram::route(uint64_t t, uint64_t addr, uint32_t bytes, bool write, double& cost, bool* opened,
                           double* activated) {
    const uint64_t chunk = by_interleave_.div(addr);
    const size_t index = channels_.size() == 1 ? 0 : by_channels_.mod(mix_bits(chunk));
    Channel& ch = channels_[index];
    // Reads open row chunks; write-backs are drained in batches by rows of write_row_bytes.
    const uint64_t row = !write ? chunk : write_banks_ ? addr / (write_row_ * channels_.size()) : addr / write_row_;
    std::vector<uint64_t>& open = write ? open_write_ : open_;
    uint64_t& slot = write && write_banks_ ? open[index * write_banks_ + row % write_banks_]
                                           : write ? open[row % open.size()] : open[by_open_.mod(row)];
    cost = bytes * cycles_per_byte_;
    if (slot != row) {
        slot = row;
        cost += (write ? write_row_miss_cycles_ : row_miss_cycles_) + turn(ch, write);
        // A bank opens its write row beside the data bus: the activation window is a server of its own.
        if (write && write_activate_cycles_ > 0) {
            const double end = ch.activate.occupy(t, write_activate_cycles_) + write_activate_cycles_;
            if (activated) *activated = end;
        }
        if (opened) *opened = true;
        ++stats_.dram_row_misses;
    }
    return ch;
}

// M/D/1 mean wait at the current utilisation, after adding `busy` channel cycles at t.
uint64_t Dram::load_term(uint64_t t, double busy) {
    if (service_ <= 0) return 0;
    if (t > last_) {
        level_ *= std::exp(-double(t - last_) / window_);
        last_ = t;
    }
    level_ += busy / double(channels_.size());
    rho_ = std::min(level_ / window_, kMaxRho);
    return round_half_up(service_ * rho_ / (2.0 * (1.0 - rho_)));
}

// The access's own share of the latency spread: spread_step_ x k with probability 2^-(k+1) (the
// trailing zeros of a hash of its chunk and request), mean spread_step_, at most kMaxSpreadSteps.
// The pieces of one request in one chunk share it (one row, one bank).
uint64_t Dram::spread(uint64_t addr, uint64_t req) const {
    if (spread_step_ == 0) return 0;
    const uint64_t h = mix_bits(by_interleave_.div(addr) * 0x9e3779b97f4a7c15ull ^ mix_bits(req + 1));
    return spread_step_ * std::min<uint64_t>(uint64_t(std::countr_zero(h | (1ull << kMaxSpreadSteps))), kMaxSpreadSteps);
}

// A read takes the channel's activation window too: dram.read_activate_bytes when it opens a chunk
// (tRRD / tFAW bind every activation) and dram.read_command_bytes for its column command. It waits for
// what is queued there, a write-back's row openings included, and holds the window for its own share.
uint64_t Dram::activation_wait(uint64_t t, Channel& ch, double share) {
    if (share <= 0) return 0;
    const double start = ch.activate.occupy(t, share);
    return start > double(t) ? uint64_t(std::ceil(start - double(t))) : 0;
}

// The turnaround a row opening of direction `write` costs the channel's data bus.
double Dram::turn(Channel& ch, bool write) {
    const int8_t dir = write ? 1 : 0;
    const bool turns = ch.last_open >= 0 && ch.last_open != dir;
    ch.last_open = dir;
    return turns ? switch_cycles_ : 0.0;
}

uint64_t Dram::read(uint64_t t, uint64_t addr, uint32_t bytes, uint64_t req) {
    double cost = 0;
    bool opened = false;
    Channel& ch = route(t, addr, bytes, false, cost, &opened);
    ch.last_read = t + 1;
    uint64_t queue = ch.bus.take(t, req, cost);
    const double share = (opened ? read_activate_cycles_ : 0.0) + read_command_cycles_;
    queue = std::max(queue, activation_wait(t, ch, share));
    uint64_t wait = load_term(t, cost);  // the mean wait at this load, of which the backlog is part
    uint64_t load = wait > queue ? wait - queue : 0;
    stats_.dram_queue_cycles += queue;
    stats_.dram_load_cycles += load;
    return t + latency_ + spread(addr, req) + queue + load;
}

void Dram::read_back(uint64_t t, uint64_t addr, uint32_t bytes, bool turnaround) {
    double cost = 0;
    Channel& ch = route(t, addr, bytes, false, cost);
    if (turnaround) cost += turnaround_cycles_;
    ch.bus.occupy(t, cost);
    load_term(t, cost);
}

uint64_t Dram::write(uint64_t t, uint64_t addr, uint32_t bytes) {
    double cost = 0, activated = 0;
    Channel& ch = route(t, addr, bytes, true, cost, nullptr, &activated);
    if (ch.last_read && t < ch.last_read + uint64_t(window_)) cost += mixed_write_cycles_;
    const double written = ch.bus.occupy(t, cost) + cost;
    load_term(t, cost);
    return uint64_t(std::ceil(std::max(written, activated)));
}

void Dram::busy(double& max, double& mean) const {
    max = mean = 0;
    for (const Channel& ch : channels_) {
        max = std::max(max, ch.bus.busy);
        mean += ch.bus.busy / double(channels_.size());
    }
}

}  // namespace simt::timing
