// read_ports.hpp: the register banks' read ports of one sub-partition, over time.
//
// What Huerta et al. (arXiv 2503.20481) find on Turing/Ampere: two banks per
// sub-partition, each with a limited number of read ports (regfile.banks,
// regfile.reads_per_bank), a register-file cache fed by reuse bits (the reuse
// cache in regfile.hpp), and no operand-collector stage. Here each bank port
// is a FIFO server taking one register read per cycle; an instruction's bank
// reads (after the reuse cache) go to the earliest free port of their bank:
//   * a read starts no earlier than the cycle its register is ready, and,
//     with regfile.read_ahead, as early as the cycle after the warp's previous
//     issue (or its branch resolution): operands that are ready are read while
//     the warp waits for the others, so a conflict can hide behind a dependence
//     (one warp of dep3 on the H200: 4 cycles per dependent FFMA, not 5);
//     without read_ahead every read starts at the issue cycle;
//   * its own conflict (`own`: its reads served on idle ports, one cycle past
//     issue + 1 for each read beyond the first of a port) delays its result
//     and memory request; the queue in front of the ports does not (the
//     pipeline keeps its fixed latencies, as the compiler's stall counts
//     assume: a greedy warp keeps issuing, ipc_ind4v 0.98);
//   * reads may queue up to regfile.read_queue_cycles behind the issue: only
//     a backlog beyond that holds the scheduler (`hold`, the warp's
//     dispatch_stall; part of `own` when the hold covers it). So other warps
//     issue while a conflict is read out and their reads overlap on the other
//     bank (dep3 from 16 warps on the H200: 0.61 issue/clk, more than the 0.5
//     of a held scheduler), and a bank read twice per instruction caps the
//     rate at 0.5 (dep1v).
// read_queue_cycles = 0 without read_ahead is the plain model: every
// conflict cycle holds the scheduler, the cost of one instruction alone.
//
// Left out: write ports and write-back conflicts, the compiler's choice of reuse bits.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/regfile.hpp"
#include "sim/timing/scoreboard.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace simt::timing {

class ReadPorts {
public:
    static constexpr uint32_t kMaxPorts = 64;  // banks x reads_per_bank (checked at load)

    explicit ReadPorts(const GpuConfig::RegFile& spec)
        : banks_(std::max(spec.banks, 1u)), per_(std::max(spec.reads_per_bank, 1u)),
          queue_(spec.read_queue_cycles), read_ahead_(spec.read_ahead) {}

    struct Timing {
        uint32_t hold = 0;  // cycles the scheduler is held (dispatch_stall) before the issue
        uint32_t own = 0;   // cycles its own reads conflict (on idle ports, after read-ahead)
        uint32_t late = 0;  // own - hold (>= 0): cycles its result and memory request come late
    };
    // The reads `r` of an instruction picked at t by a warp whose scoreboard is
    // `sb`, which could read ready operands from cycle `early` (<= t) on.
    // (Inline: once per issue, and the Timing stays in registers.)
    [[gnu::always_inline]] Timing schedule(const BankReads& r, const Scoreboard& sb, uint64_t early, uint64_t t) {
        if (r.distinct) return apart(r, sb, early, t);
        // Each read's first possible cycle, in the order the ports serve them.
        std::array<uint64_t, kReuseSlots> start, end;
        std::array<uint8_t, kReuseSlots> order;
        const bool ahead = read_ahead_ && early < t;
        for (uint32_t i = 0; i < r.n; ++i) {
            start[i] = ahead ? std::clamp(sb.ready(r.slot[i]), early, t) : t;
            uint32_t j = i;  // insertion sort: at most a few reads (all start at t without read-ahead)
            for (; ahead && j > 0 && start[order[j - 1]] > start[i]; --j) order[j] = order[j - 1];
            order[j] = uint8_t(i);
        }
        uint64_t done = t + 1, own = t + 1;
        for (uint32_t k = 0; k < r.n; ++k) {
            const uint32_t i = order[k];
            const uint32_t port = port_of(r.bank[i]);
            const uint64_t s = std::max(free_at_[port], start[i]);
            free_at_[port] = s + 1;
            done = std::max(done, s + 1);
            // The same reads on idle ports: after the per_-th earlier read of its bank.
            uint64_t alone = start[i];
            for (uint32_t seen = 0, j = k; j-- > 0;)
                if (r.bank[order[j]] == r.bank[i] && ++seen == per_) { alone = std::max(alone, end[j]); break; }
            end[k] = alone + 1;
            own = std::max(own, end[k]);
        }
        const uint32_t behind = uint32_t(done - (t + 1)), mine = uint32_t(own - (t + 1));
        Timing tm;
        tm.hold = behind > queue_ ? behind - queue_ : 0;
        tm.own = mine;
        tm.late = mine > tm.hold ? mine - tm.hold : 0;
        return tm;
    }

private:
    // schedule() for reads in distinct banks: no order between them matters and
    // they cannot conflict with each other (own = 0).
    Timing apart(const BankReads& r, const Scoreboard& sb, uint64_t early, uint64_t t) {
        const bool ahead = read_ahead_ && early < t;
        uint64_t done = t + 1;
        for (uint32_t i = 0; i < r.n; ++i) {
            const uint64_t start = ahead ? std::clamp(sb.ready(r.slot[i]), early, t) : t;
            const uint32_t port = port_of(r.bank[i]);
            const uint64_t s = std::max(free_at_[port], start);
            free_at_[port] = s + 1;
            done = std::max(done, s + 1);
        }
        const uint32_t behind = uint32_t(done - (t + 1));
        Timing tm;
        tm.hold = behind > queue_ ? behind - queue_ : 0;
        return tm;
    }
    // The earliest free port of bank b.
    uint32_t port_of(uint32_t b) const {
        if (per_ == 1) return b;  // (the common case: one port per bank)
        uint32_t port = b * per_;
        for (uint32_t p = port + 1; p < (b + 1) * per_; ++p) port = free_at_[p] < free_at_[port] ? p : port;
        return port;
    }

    uint32_t banks_, per_, queue_;
    bool read_ahead_;
    std::array<uint64_t, kMaxPorts> free_at_{};  // bank b's ports: b * per_ ... b * per_ + per_ - 1
};

}  // namespace simt::timing
