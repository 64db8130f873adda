// read_ports.cpp: scheduling one instruction's register reads (see read_ports.hpp).
#include "sim/timing/read_ports.hpp"

#include <algorithm>

namespace simt::timing {

ReadPorts::Timing ReadPorts::schedule(const BankReads& r, const Scoreboard& sb, uint64_t early, uint64_t t) {
    // Each read's first possible cycle, in the order the ports serve them.
    std::array<uint64_t, kReuseSlots> start;
    std::array<uint8_t, kReuseSlots> order;
    for (uint32_t i = 0; i < r.n; ++i) {
        start[i] = read_ahead_ ? std::clamp(sb.ready(scoreboard_slot(r.reg[i])), early, t) : t;
        uint32_t j = i;  // insertion sort: at most a few reads
        for (; j > 0 && start[order[j - 1]] > start[i]; --j) order[j] = order[j - 1];
        order[j] = uint8_t(i);
    }
    uint64_t done = t + 1, own = t + 1;
    std::array<uint64_t, kMaxPorts> alone{};  // the same reads on idle ports: this instruction's own conflict
    for (uint32_t k = 0; k < r.n; ++k) {
        const uint32_t i = order[k];
        const uint32_t base = (r.reg[i] % banks_) * per_;  // the earliest free port of its bank
        uint32_t port = base;
        for (uint32_t p = base + 1; p < base + per_; ++p) port = free_at_[p] < free_at_[port] ? p : port;
        const uint64_t s = std::max(free_at_[port], start[i]);
        free_at_[port] = s + 1;
        done = std::max(done, s + 1);
        uint32_t mine = base;
        for (uint32_t p = base + 1; p < base + per_; ++p) mine = alone[p] < alone[mine] ? p : mine;
        alone[mine] = std::max(alone[mine], start[i]) + 1;
        own = std::max(own, alone[mine]);
    }
    const uint32_t behind = uint32_t(done - (t + 1)), mine = uint32_t(own - (t + 1));
    Timing tm;
    tm.hold = behind > queue_ ? behind - queue_ : 0;
    tm.own = mine;
    tm.late = mine > tm.hold ? mine - tm.hold : 0;
    return tm;
}

}  // namespace simt::timing
