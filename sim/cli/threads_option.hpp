// threads_option.hpp: the --threads N option of simt-sim and simt-sim sweep.
#pragma once

#include "isa/diagnostics.hpp"
#include "sim/timing/gpu.hpp"

#include <charconv>
#include <string>

namespace simt::cli {

// --threads TEXT: a whole number from 1 to timing::kMaxThreads (a located error otherwise).
inline unsigned parse_threads(const std::string& text) {
    unsigned v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || p != end || v < 1 || v > timing::kMaxThreads)
        throw Error(SourceLoc{"--threads " + text, 0, 0},
                    "expected a whole number of threads from 1 to " + std::to_string(timing::kMaxThreads));
    return v;
}

inline constexpr const char* kThreadsHelp =
    "host threads that simulate the SMs in parallel (1 to 256; default: all cores for a launch of at least two "
    "blocks per SM on a GPU of at least 32 SMs, else 1). The report, --csv, --dump and --timeline are identical for every N; a run with "
    "--timeline, --trace-json or --profile uses one thread";

}  // namespace simt::cli
