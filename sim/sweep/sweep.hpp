// sweep.hpp: running a sweep on this machine's cores (simt-sim sweep SPEC.yaml).
//
// The points still missing from the output (output.hpp) run on a pool of
// `jobs` threads, each point a separate Simulator (no state is shared between
// runs); the rows are written in grid order whatever the number of jobs, so
// the file is the same bytes for every job count. A progress bar goes to
// stderr when it is a terminal. The MPI driver (sim/sweep_mpi/) uses the same
// pieces across ranks.
#pragma once

#include "sim/sweep/spec.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simt::sweep {

struct Options {
    std::string spec_path;
    std::string output_path;  // "" -> the spec's output:, else SPEC with .csv
    unsigned jobs = 1;        // threads (1..kMaxJobs)
    unsigned threads = 1;     // host threads per point (RunOptions::threads; the rows are the same)
    bool progress = false;    // draw a progress bar on stderr
};

inline constexpr unsigned kMaxJobs = 1024;

struct Summary {
    uint64_t points = 0;   // in the grid
    uint64_t resumed = 0;  // already in the output
    uint64_t ran = 0;      // run now
    uint64_t failed = 0;   // of those run now, rows with an error
    std::string output;
};

// The output file for a spec: the option, the spec's output:, or SPEC.csv.
std::string output_path(const Spec& spec, const std::string& option);

// Runs `work(i)` for each of `indices` on `jobs` threads, taking them in list
// order; `done(i, result)` is called from the worker threads as each finishes.
// An exception escaping `work` or `done` is rethrown here after all threads end.
void run_pool(const std::vector<uint64_t>& indices, unsigned jobs, const std::function<std::string(uint64_t)>& work,
              const std::function<void(uint64_t, std::string)>& done);

// A one-line progress bar on stderr: points done of the total, failures, elapsed.
class ProgressBar {
public:
    ProgressBar(bool enabled, uint64_t total, uint64_t already);
    void update(uint64_t done, uint64_t failed);
    void finish();

private:
    bool enabled_, shown_ = false;
    uint64_t total_, already_;
    int64_t start_ms_, last_ms_ = 0;
};

// Loads the spec, resumes or creates the output, runs the missing points locally.
Summary run_sweep(const Options& options);

}  // namespace simt::sweep
