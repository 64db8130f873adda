// timeline_csv.cpp: the run-length-encoded timeline writer (see timeline_csv.hpp).
#include "sim/report/timeline_csv.hpp"

namespace simt::report {

TimelineCsvWriter::TimelineCsvWriter(std::ostream& out) : out_(out) {
    out_ << "warp,block,sm,sub_partition,start,end,state,pc\n";
}

void TimelineCsvWriter::on_interval(const timing::StateInterval& iv) {
    out_ << iv.id.warp << ',' << iv.id.block << ',' << iv.id.sm << ',' << iv.id.sub_partition << ','
         << iv.start << ',' << iv.end << ',' << timing::stall_name(iv.state) << ',' << iv.pc << '\n';
    ++rows_;
}

}  // namespace simt::report
