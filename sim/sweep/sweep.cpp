// sweep.cpp: the local driver: a thread pool over the missing points, rows in grid order.
#include "sim/sweep/sweep.hpp"

#include "isa/diagnostics.hpp"
#include "sim/sweep/output.hpp"
#include "sim/sweep/point.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

namespace simt::sweep {

namespace {

int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string output_path(const Spec& spec, const std::string& option) {
    if (!option.empty()) return option;
    if (!spec.output.empty()) return spec.output;
    return std::filesystem::path(spec.file).replace_extension(".csv").string();
}

void run_pool(const std::vector<uint64_t>& indices, unsigned jobs, const std::function<std::string(uint64_t)>& work,
              const std::function<void(uint64_t, std::string)>& done) {
    std::atomic<size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto worker = [&] {
        try {
            for (size_t k; (k = next.fetch_add(1)) < indices.size();) done(indices[k], work(indices[k]));
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            next = indices.size();  // the others stop after their current point
        }
    };
    const unsigned n = unsigned(std::min<size_t>(std::max(1u, jobs), std::max<size_t>(1, indices.size())));
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < n; ++t) threads.emplace_back(worker);
    worker();  // this thread is one of the pool
    for (auto& t : threads) t.join();
    if (error) std::rethrow_exception(error);
}

ProgressBar::ProgressBar(bool enabled, uint64_t total, uint64_t already)
    : enabled_(enabled), total_(total), already_(already), start_ms_(now_ms()) {}

void ProgressBar::update(uint64_t done, uint64_t failed) {
    if (!enabled_) return;
    const int64_t t = now_ms();
    const uint64_t all = already_ + done;
    if (all != total_ && t - last_ms_ < 200) return;
    last_ms_ = t;
    shown_ = true;
    const int width = 30, filled = total_ ? int(width * all / total_) : width;
    const double s = double(t - start_ms_) / 1000.0;
    const double eta = done ? s * double(total_ - all) / double(done) : 0.0;
    std::fprintf(stderr, "\r  [%s%s] %3d%%  points %llu/%llu  failed %llu  %.0f s, about %.0f s left ",
                 std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(),
                 total_ ? int(100 * all / total_) : 100, (unsigned long long)all, (unsigned long long)total_,
                 (unsigned long long)failed, s, eta);
    std::fflush(stderr);
}

void ProgressBar::finish() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", 90, "");
}

Summary run_sweep(const Options& o) {
    const Spec spec = load_spec(o.spec_path);
    Summary sum;
    sum.points = spec.points();
    sum.output = output_path(spec, o.output_path);
    uint64_t first = 0;
    std::ofstream out = open_output(spec, sum.output, first);
    sum.resumed = first;
    std::vector<uint64_t> todo;
    for (uint64_t i = first; i < sum.points; ++i) todo.push_back(i);
    ProgressBar bar(o.progress, sum.points, first);
    OrderedRows rows(out, first, [&](uint64_t done, uint64_t failed) { bar.update(done, failed); });
    run_pool(todo, o.jobs, [&](uint64_t i) { return run_point(spec, i, o.threads); },
             [&](uint64_t i, std::string row) {
                 const bool failed = row_failed(spec, row);
                 rows.put(i, std::move(row), failed);
             });
    bar.finish();
    out.close();
    if (!out) throw Error(SourceLoc{sum.output, 0, 0}, "cannot write the sweep output");
    sum.ran = todo.size();
    sum.failed = rows.failed();
    return sum;
}

}  // namespace simt::sweep
