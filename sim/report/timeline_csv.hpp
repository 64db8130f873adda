// timeline_csv.hpp: an Observer that writes the run-length-encoded warp timeline.
//
// One CSV row per interval a warp spends in one state at one pc:
//     warp,block,sm,sub_partition,start,end,state,pc
// start/end are cycles, [start, end); state is the ncu name (stall_name).
// Rows come in the order intervals close (so warps interleave; sort by
// warp,start for a per-warp view). The timing model already merges
// consecutive cycles of equal (state, pc); this writer merges nothing else.
//
// Left out: issue events and block events (other observers can add them).
#pragma once

#include "sim/timing/observer.hpp"

#include <ostream>

namespace simt::report {

class TimelineCsvWriter : public timing::Observer {
public:
    // Writes the header at once; `out` must outlive the writer.
    explicit TimelineCsvWriter(std::ostream& out);
    void on_interval(const timing::StateInterval& iv) override;
    uint64_t rows() const { return rows_; }

private:
    std::ostream& out_;
    uint64_t rows_ = 0;
};

}  // namespace simt::report
