// mpi_sweep.hpp: `simt-sim sweep` over MPI ranks (built only when CMake finds MPI).
//
// Every rank loads the spec; rank 0 opens (or resumes) the output and tells the
// others the first missing point. The missing points are dealt out round-robin
// (the k-th missing point to rank k mod size); each rank runs its share on its
// own thread pool (--jobs per rank) and sends each row to rank 0, which writes
// all rows in grid order through the same OrderedRows as the local driver: the
// file is the same bytes as a local run's, for any number of ranks and jobs.
// Only each rank's main thread calls MPI (MPI_THREAD_FUNNELED).
// Left out: dynamic load balancing (a slow point holds up only its own rank's
// later rows in the writer's buffer, never the result) and rank failures
// (mpirun ends the job; the output is a prefix that the next run resumes).
#pragma once

#include "sim/sweep/sweep.hpp"

namespace simt::sweep {

// True when this process was started by mpirun/mpiexec (Open MPI, MPICH) or srun.
bool launched_by_mpi();

// Runs the sweep across the ranks of MPI_COMM_WORLD; returns the exit status
// (errors are printed by rank 0 and end every rank with status 1).
int run_sweep_mpi(const Options& options);

}  // namespace simt::sweep
