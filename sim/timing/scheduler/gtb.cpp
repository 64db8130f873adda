// gtb.cpp: greedy, then the oldest block's youngest warp. Keeps issuing from the warp it issued
// last while that warp is eligible; otherwise picks among the eligible warps of the oldest
// resident block (the smallest launch index) the youngest. It reproduces both warp orders the
// H200 shows ([CALIB-EXT-2026] apps.cu): within one block the young warps finish first
// (order_ffma: the oldest quarter ends 2.28x later than the youngest), while of two blocks on one
// SM the older one finishes first (order_dep: 0.51). gto gets the first wrong, gty the second.
// Huerta et al. (arXiv 2503.20481, 2025) find greedy-then-youngest within a scheduler; the block
// order is our reading of order_dep. The greedy mechanism is greedy.hpp.
#include "sim/timing/scheduler/greedy.hpp"

namespace simt::timing {

namespace {

class Gtb final : public Greedy<OldestBlockYoungestWarp> {
public:
    std::string_view name() const override { return "gtb"; }
};

}  // namespace

std::unique_ptr<Policy> make_gtb_policy() { return std::make_unique<Gtb>(); }

}  // namespace simt::timing
