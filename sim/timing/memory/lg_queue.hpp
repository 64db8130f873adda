// lg_queue.hpp: the LSU's instruction queue in front of the L1TEX tag stage
// (ncu's "L1 instruction queue for local and global (LG) memory operations").
//
// An issued global/local/texture/atomic instruction enters the queue and waits
// there until the tag stage takes it, in order; issue stops (lg_throttle) only
// while `depth` instructions are waiting. A waiting instruction has not read its
// source registers yet: the instruction that overwrites one of them waits for it
// (a read barrier on the scoreboard, long_scoreboard; Sm::issue). A load's result
// is later by its wait.
//
// Every request's start in the tag stage is known when it is accepted (the stage
// serves in order, from when it is free), so the queue is a FIFO of start
// times; those that have come are no longer waiting.
//
// depth 0: no queue: a request is accepted only while the tag stage is free
// (the model before this queue).
// Left out: a queue per sub-partition (one per SM here), and its width in
// registers (an instruction's data size does not matter).
#pragma once

#include <cstdint>
#include <deque>

namespace simt::timing {

class LgQueue {
public:
    explicit LgQueue(uint32_t depth) : depth_(depth) {}
    uint32_t depth() const { return depth_; }
    // Is there room at t for one more waiting instruction? (forgets those started by t)
    bool has_room(uint64_t t) {
        while (!start_.empty() && start_.front() <= t) start_.pop_front();
        return start_.size() < depth_;
    }
    // When the first waiting one starts (call after has_room(t) said no).
    uint64_t room_at() const { return start_.front(); }
    // An instruction accepted at t starts in the tag stage at `start`.
    void push(uint64_t t, uint64_t start) {
        if (start > t) start_.push_back(start);
    }
    uint32_t waiting() const { return uint32_t(start_.size()); }

private:
    uint32_t depth_;
    std::deque<uint64_t> start_;  // ascending: the tag stage serves in order
};

}  // namespace simt::timing
