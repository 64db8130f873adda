// gty.cpp: greedy then youngest. Keeps issuing from the warp it issued last
// while that warp is eligible; otherwise picks the youngest eligible warp
// (largest dispatch age). Huerta et al., "Analyzing Modern NVIDIA GPU cores"
// (arXiv 2503.20481, 2025) find this order on Turing and Ampere (their
// "compiler-guided greedy then youngest"); the compiler's stall counts and
// yield bits, which end a greedy run on hardware, are left out here: a run
// ends when the warp is no longer eligible. The greedy mechanism is greedy.hpp.
#include "sim/timing/scheduler/greedy.hpp"

#include <functional>

namespace simt::timing {

namespace {

class Gty final : public Greedy<YoungestFirst> {
public:
    std::string_view name() const override { return "gty"; }
};

}  // namespace

std::unique_ptr<Policy> make_gty_policy() { return std::make_unique<Gty>(); }

}  // namespace simt::timing
