// lifetimes.hpp: an observer of warp and block dispatch and retire, for the comparisons that
// need per-warp durations and end times or the blocks resident at once. The CUDA kernels read
// clock64() at the start and end of each warp's work; a twin that reads %clock where its CUDA does
// (Lifetimes(program)) gets the same span, from its first clock read to its last; a twin without
// clock reads gets its first issue to its retirement, the same up to the instructions around them.
#pragma once

#include "isa/isa.hpp"
#include "sim/timing/observer.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace simt::calib {

// Warp and block lifetimes of one run.
class Lifetimes : public simt::timing::Observer {
public:
    Lifetimes() = default;
    // Spans between the clock reads (cs2r / mov of %clock, %clock64) of `program`, where a warp has two.
    explicit Lifetimes(const simt::isa::Program& program) {
        for (uint32_t pc = 0; pc < program.code.size(); ++pc)
            for (const auto& o : program.code[pc].ops)
                if (o.kind == simt::isa::OperandKind::Special &&
                    (o.value == uint32_t(simt::isa::Special::Clock) || o.value == uint32_t(simt::isa::Special::Clock64)))
                    clock_pcs_.push_back(pc);
    }
    struct Warp {
        uint64_t retired = 0;
        uint32_t sm = 0, slot = 0;
        uint64_t launched = 0;   // its first instruction may issue (after the block's launch latency)
        uint64_t first_issue = 0;  // its first instruction issued + 1 (0: none yet)
        uint64_t first_clock = 0, last_clock = 0;  // its first and last clock reads issued + 1 (0: none)
        bool clocked() const { return first_clock && last_clock > first_clock; }
        // Where its span starts: its first clock read where it has two, else its first issue (the
        // CUDA's first clock64 read is one of the first instructions, and a warp the schedulers
        // leave waiting reads it late), else its launch.
        uint64_t begin() const {
            if (clocked()) return first_clock - 1;
            return first_issue ? first_issue - 1 : launched;
        }
        // Where it ends: its last clock read where it has two, else its retirement.
        uint64_t end() const { return clocked() ? last_clock - 1 : retired; }
    };
    void on_warp_dispatched(uint64_t cycle, const simt::timing::WarpId& id) override {
        warps_[id.warp] = Warp{cycle, id.sm, id.slot};
    }
    void on_warp_launched(uint64_t cycle, const simt::timing::WarpId& id) override { warps_[id.warp].launched = cycle; }
    void on_warp_retired(uint64_t cycle, const simt::timing::WarpId& id) override { warps_[id.warp].retired = cycle; }
    void on_issue(const simt::timing::IssueEvent& e) override {
        Warp& w = warps_[e.id.warp];
        if (!w.first_issue) w.first_issue = e.cycle + 1;
        if (std::find(clock_pcs_.begin(), clock_pcs_.end(), e.pc) == clock_pcs_.end()) return;
        if (!w.first_clock) w.first_clock = e.cycle + 1;
        w.last_clock = e.cycle + 1;
    }
    const std::map<uint64_t, Warp>& warps() const { return warps_; }
    void on_block_dispatched(uint64_t cycle, uint64_t, uint32_t sm) override { blocks_.push_back({sm, cycle, 1}); }
    void on_block_retired(uint64_t cycle, uint64_t, uint32_t sm) override { blocks_.push_back({sm, cycle, -1}); }

    // Each warp's span from its first issue (Warp::begin) to its retirement, by warp id.
    std::map<uint64_t, double> duration_by_warp() const {
        std::map<uint64_t, double> d;
        for (const auto& [id, w] : warps_) d[id] = double(w.end() - w.begin());
        return d;
    }
    std::vector<double> durations() const {
        std::vector<double> d;
        for (const auto& [id, w] : warps_) d.push_back(double(w.end() - w.begin()));
        return d;
    }
    // End of each warp after the first begin (Warp::begin) on its SM, by SM, in slot order.
    std::map<uint32_t, std::vector<std::pair<uint32_t, double>>> ends_by_sm() const {
        std::map<uint32_t, uint64_t> first;
        for (const auto& [id, w] : warps_)
            if (!first.count(w.sm) || w.begin() < first[w.sm]) first[w.sm] = w.begin();
        std::map<uint32_t, std::vector<std::pair<uint32_t, double>>> by;
        for (const auto& [id, w] : warps_) by[w.sm].push_back({w.slot, double(w.end() - first[w.sm])});
        for (auto& [sm, v] : by) std::sort(v.begin(), v.end());
        return by;
    }
    // Each SM's latest warp end over its earliest (ends as ends_by_sm gives them), by SM.
    std::vector<double> end_spread_by_sm() const {
        std::vector<double> spread;
        for (const auto& [sm, v] : ends_by_sm()) {
            double mx = 0, mn = 1e300;
            for (const auto& e : v) mx = std::max(mx, e.second), mn = std::min(mn, e.second);
            if (mn > 0) spread.push_back(mx / mn);
        }
        return spread;
    }
    // The most blocks resident at once on one SM (median over SMs).
    double max_blocks_per_sm() const {
        std::map<uint32_t, std::vector<std::pair<uint64_t, int>>> ev;
        for (const auto& b : blocks_) ev[b.sm].push_back({b.cycle, b.delta});
        std::vector<double> m;
        for (auto& [sm, e] : ev) {
            std::sort(e.begin(), e.end());
            int c = 0, best = 0;
            for (const auto& x : e) best = std::max(best, c += x.second);
            m.push_back(best);
        }
        return quantile(m, 0.5);
    }
    static double quantile(std::vector<double> v, double q) {
        if (v.empty()) return 0;
        std::sort(v.begin(), v.end());
        double pos = q * double(v.size() - 1);
        size_t i = size_t(pos);
        double f = pos - double(i);
        return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
    }

private:
    struct BlockEvent {
        uint32_t sm;
        uint64_t cycle;
        int delta;
    };
    std::vector<uint32_t> clock_pcs_;
    std::map<uint64_t, Warp> warps_;
    std::vector<BlockEvent> blocks_;
};


}  // namespace simt::calib
