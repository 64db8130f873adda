// datapaths.hpp: the physical datapaths of a sub-partition and the pipe
// classes they execute (the config's per-architecture table,
// pipes.<class>.datapaths).
//
// An instruction issues to its pipe class (isa/opcodes.def); the class is
// executed by one or more datapaths, and two classes that name the same
// datapath share it. On Ampere and later (Nsight Compute's pipelines) FP32
// runs on fmaheavy and fmalite, IMAD only on fmaheavy, integer logic on the
// ALU: so IMAD is half rate and takes FP32 issue capacity, and adds spread
// over two datapaths. A warp instruction takes one free datapath of its class
// for the class's interval: the one shared by the fewest classes (keeping the
// others for the classes that need them), then the lowest index. A class is
// free when any of its datapaths is (PipeState::free_at, per class); an issue
// changes the free time of every class sharing the datapath it took, and
// `take` returns those classes, so their waiting warps' busy windows are
// opened (accounting.hpp: windows of one class never overlap, since an issue
// only takes a datapath that is free).
//
// Left out: dual issue, and any cost of moving operands between datapaths.
#pragma once

#include "isa/isa.hpp"
#include "sim/config/config.hpp"

#include <array>
#include <bit>
#include <cstdint>

namespace simt::timing {

constexpr int kMaxDatapaths = 16;

class DatapathMap {
public:
    // `used`: bit c set when the program has an instruction of class c (the others
    // need no free times, nor busy windows).
    DatapathMap(const std::array<PipeSpec, isa::kNumPipes>& classes, uint32_t used) {
        for (int c = 0; c < isa::kNumPipes; ++c) {
            of_class_[c] = classes[c].datapaths ? classes[c].datapaths : uint16_t(1u << c);  // (tests: own datapath)
            if (used >> c & 1)
                for (uint32_t m = of_class_[c]; m; m &= m - 1) users_[std::countr_zero(m)] |= 1u << c;
        }
        for (int d = 0; d < kMaxDatapaths; ++d) nusers_[d] = uint8_t(std::popcount(users_[d]));
        for (int c = 0; c < isa::kNumPipes; ++c) {
            single_[c] = std::has_single_bit(of_class_[c]);
            alone_[c] = single_[c] && users_[std::countr_zero(of_class_[c])] == (1u << c);
        }
    }
    uint16_t of_class(int c) const { return of_class_[c]; }     // bit d: datapath d runs class c
    uint32_t users(int d) const { return users_[d]; }          // bit c: class c runs on datapath d
    uint32_t nusers(int d) const { return nusers_[d]; }        // how many classes share datapath d
    bool alone(int c) const { return alone_[c]; }              // one datapath, used by no other class
    bool single(int c) const { return single_[c]; }            // one datapath

private:
    std::array<uint16_t, isa::kNumPipes> of_class_{};
    std::array<uint32_t, kMaxDatapaths> users_{};
    std::array<uint8_t, kMaxDatapaths> nusers_{};  // (std::popcount is a library call without -mpopcnt)
    std::array<bool, isa::kNumPipes> alone_{}, single_{};
};

struct PipeState {
    std::array<uint64_t, isa::kNumPipes> free_at{};  // per class: the first cycle one of its datapaths is free
    std::array<uint64_t, kMaxDatapaths> dp_free{};   // per datapath
    uint32_t changed = 0;                            // classes whose free_at the latest issue changed

    // A warp instruction of class c issues at t and holds a datapath for `busy` cycles.
    void take(const DatapathMap& map, int c, uint64_t t, uint32_t busy) {
        if (map.alone(c)) {
            free_at[c] = t + busy;
            dp_free[std::countr_zero(map.of_class(c))] = t + busy;
            changed = 1u << c;
            return;
        }
        int pick = map.single(c) ? std::countr_zero(map.of_class(c)) : -1;
        for (uint32_t m = pick < 0 ? map.of_class(c) : 0; m; m &= m - 1) {
            const int d = std::countr_zero(m);
            const bool better = pick < 0 || (dp_free[d] <= t && dp_free[pick] > t) ||
                                ((dp_free[d] <= t) == (dp_free[pick] <= t) &&
                                 map.nusers(d) < map.nusers(pick));
            pick = better ? d : pick;
        }
        dp_free[pick] = t + busy;
        changed = map.users(pick);
        for (uint32_t m = changed; m; m &= m - 1) {
            const int q = std::countr_zero(m);
            if (map.single(q)) { free_at[q] = t + busy; continue; }
            uint64_t f = ~0ull;
            for (uint32_t k = map.of_class(q); k; k &= k - 1) f = std::min(f, dp_free[std::countr_zero(k)]);
            free_at[q] = f;
        }
    }
};

}  // namespace simt::timing
