// mpi_sweep.cpp: points spread over MPI ranks, rows merged in grid order by rank 0.
#include "sim/sweep_mpi/mpi_sweep.hpp"

#include "isa/diagnostics.hpp"
#include "sim/sweep/output.hpp"
#include "sim/sweep/point.hpp"

#include <mpi.h>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>

namespace simt::sweep {

namespace {

constexpr int kRowTag = 7;

struct World {
    int rank = 0, size = 1;
};

// The points rank `rank` runs: the k-th missing point for every k = rank (mod size).
std::vector<uint64_t> share(uint64_t first, uint64_t points, const World& w) {
    std::vector<uint64_t> mine;
    for (uint64_t i = first + uint64_t(w.rank); i < points; i += uint64_t(w.size)) mine.push_back(i);
    return mine;
}

// A message: the point index (8 bytes, native order: one binary on every rank) and the row.
void send_row(uint64_t index, const std::string& row) {
    std::string msg(sizeof index, '\0');
    std::memcpy(msg.data(), &index, sizeof index);
    msg += row;
    MPI_Send(msg.data(), int(msg.size()), MPI_CHAR, 0, kRowTag, MPI_COMM_WORLD);
}

void receive_row(uint64_t& index, std::string& row) {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, kRowTag, MPI_COMM_WORLD, &st);
    int n = 0;
    MPI_Get_count(&st, MPI_CHAR, &n);
    std::string msg(size_t(n), '\0');
    MPI_Recv(msg.data(), n, MPI_CHAR, st.MPI_SOURCE, kRowTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::memcpy(&index, msg.data(), sizeof index);
    row = msg.substr(sizeof index);
}

// Rank 0: its own share on a pool in the background, the other ranks' rows received here.
Summary lead(const Spec& spec, const Options& o, const World& w, std::ofstream& out, uint64_t first, Summary sum) {
    ProgressBar bar(o.progress, sum.points, first);
    OrderedRows rows(out, first, [&](uint64_t done, uint64_t failed) { bar.update(done, failed); });
    const std::vector<uint64_t> mine = share(first, sum.points, w);
    std::exception_ptr error;
    std::thread pool([&] {
        try {
            run_pool(mine, o.jobs, [&](uint64_t i) { return run_point(spec, i, o.threads); },
                     [&](uint64_t i, std::string row) {
                         const bool failed = row_failed(spec, row);
                         rows.put(i, std::move(row), failed);
                     });
        } catch (...) {
            error = std::current_exception();
        }
    });
    for (uint64_t k = mine.size(); k < sum.points - first; ++k) {
        uint64_t index = 0;
        std::string row;
        receive_row(index, row);
        const bool failed = row_failed(spec, row);
        rows.put(index, std::move(row), failed);
    }
    pool.join();
    if (error) std::rethrow_exception(error);
    bar.finish();
    sum.ran = sum.points - first;
    sum.failed = rows.failed();
    return sum;
}

// Other ranks: the pool's rows queued by the workers, sent by this (the main) thread.
void follow(const Spec& spec, const Options& o, const World& w, uint64_t first, uint64_t points) {
    const std::vector<uint64_t> mine = share(first, points, w);
    std::mutex m;
    std::condition_variable ready;
    std::deque<std::pair<uint64_t, std::string>> queue;
    std::exception_ptr error;
    std::thread pool([&] {
        try {
            run_pool(mine, o.jobs, [&](uint64_t i) { return run_point(spec, i, o.threads); },
                     [&](uint64_t i, std::string row) {
                         std::lock_guard<std::mutex> lock(m);
                         queue.emplace_back(i, std::move(row));
                         ready.notify_one();
                     });
        } catch (...) {
            std::lock_guard<std::mutex> lock(m);
            error = std::current_exception();
            ready.notify_one();
        }
    });
    for (size_t sent = 0; sent < mine.size();) {
        std::unique_lock<std::mutex> lock(m);
        ready.wait(lock, [&] { return !queue.empty() || error; });
        if (queue.empty()) break;
        auto [index, row] = std::move(queue.front());
        queue.pop_front();
        lock.unlock();
        send_row(index, row);
        ++sent;
    }
    pool.join();
    if (error) std::rethrow_exception(error);
}

// Every rank loads the spec; rank 0 opens the output. Returns the first missing
// point on every rank, or -1 (after rank 0 printed why) when any rank failed.
int64_t start(const Options& o, const World& w, Spec& spec, std::ofstream& out, Summary& sum) {
    int64_t first = 0;
    std::string message;
    try {
        spec = load_spec(o.spec_path);
        sum.points = spec.points();
        sum.output = output_path(spec, o.output_path);
        if (w.rank == 0) {
            uint64_t f = 0;
            out = open_output(spec, sum.output, f);
            first = int64_t(f);
        }
    } catch (const Error& e) {
        first = -1;
        message = e.what();
    }
    // Every rank learns whether any failed and whether rank 0 did: rank 0's
    // message when it failed (the same spec fails alike everywhere), else each
    // failing rank's own (a file missing on one machine).
    int64_t worst = 0, lead_first = first;
    MPI_Allreduce(&first, &worst, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Bcast(&lead_first, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (worst < 0) {
        if (w.rank == 0 && first < 0) std::cerr << "simt-sim: " << message << "\n";
        if (w.rank != 0 && first < 0 && lead_first >= 0)
            std::cerr << "simt-sim (rank " << w.rank << "): " << message << "\n";
        return -1;
    }
    MPI_Bcast(&first, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    return first;
}

}  // namespace

bool launched_by_mpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
        if (std::getenv(v)) return true;
    return false;
}

int run_sweep_mpi(const Options& o) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    World w;
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.size);
    int status = 0;
    try {
        Spec spec;
        std::ofstream out;
        Summary sum;
        const int64_t first = start(o, w, spec, out, sum);
        if (first < 0) {
            status = 1;
        } else if (w.rank == 0) {
            sum.resumed = uint64_t(first);
            sum = lead(spec, o, w, out, uint64_t(first), sum);
            out.close();
            if (!out) throw Error(SourceLoc{sum.output, 0, 0}, "cannot write the sweep output");
            std::cerr << "sweep: " << sum.output << ": " << sum.points << " points on " << w.size << " ranks";
            if (sum.resumed) std::cerr << ", " << sum.resumed << " already there";
            std::cerr << ", " << sum.ran << " run, " << sum.failed << " failed\n";
        } else {
            follow(spec, o, w, uint64_t(first), sum.points);
        }
    } catch (const std::exception& e) {
        std::cerr << "simt-sim (rank " << w.rank << "): " << e.what() << "\n";
        MPI_Abort(MPI_COMM_WORLD, 1);  // the others may wait for rows that will not come
    }
    MPI_Finalize();
    return status;
}

}  // namespace simt::sweep
