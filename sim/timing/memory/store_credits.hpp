// store_credits.hpp: the SM's credits for store sectors on their way to the L2.
//
// The L1TEX takes a new request only while the SM has fewer than `sectors`
// store sectors in flight (sent, not yet acknowledged by their slice): the
// crossbar's flow control, which brings the slices' and DRAM's back-pressure to
// the SM. The LSU serves in order, so a load waits behind a store that cannot
// leave. A store-bound kernel then waits at issue (lg_throttle) instead of
// building an unbounded backlog at the slices that its warps drain at exit.
// (The check is made when a request would enter, not when its sectors leave:
// a request's sectors are all timed when it enters, and a start far in the
// future would reserve the slices out of order.)
//
// sectors 0: no limit (the model before these credits). The last store may
// take the count past the limit by up to its own sectors.
// With memory.stores.wait_in_queue the L1TEX takes a store while the credits are
// spent and holds it in the LSU queue until room_for() says it may leave (l1.hpp).
// Left out: credits per slice or per crossbar port.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace simt::timing {

class StoreCredits {
public:
    explicit StoreCredits(uint32_t sectors) : cap_(sectors) {}
    bool on() const { return cap_ > 0; }
    uint32_t cap() const { return cap_; }
    // May a store leave at t? (forgets the acknowledgements up to t: calls come with t never decreasing)
    bool has_room(uint64_t t) {
        while (!acks_.empty() && acks_.front().first <= t) {
            in_flight_ -= acks_.front().second;
            std::pop_heap(acks_.begin(), acks_.end(), std::greater<Ack>());
            acks_.pop_back();
        }
        return in_flight_ < cap_;
    }
    // The earliest cycle at which there may be room (the next acknowledgement; call when full).
    uint64_t room_at() const { return acks_.empty() ? 0 : acks_.front().first; }
    // The first cycle >= t at which a store may leave behind `held` sectors of stores that wait
    // in front of it: fewer than cap - held sectors sent and not acknowledged, counting only the
    // acknowledgements known now (those in front send theirs later, when they leave: counted as
    // in flight throughout). Call with held < cap (else the answer would need theirs).
    uint64_t room_for(uint64_t t, uint32_t held) {
        if (has_room(t) && in_flight_ + held < cap_) return t;
        std::vector<Ack>& order = scratch_;
        order.assign(acks_.begin(), acks_.end());
        std::sort(order.begin(), order.end());
        uint32_t left = in_flight_;
        for (const Ack& a : order) {
            left -= a.second;
            if (left + held < cap_) return a.first;
        }
        return order.empty() ? t : order.back().first;
    }
    // k sectors sent, acknowledged at `done`.
    void sent(uint64_t done, uint32_t k) {
        in_flight_ += k;
        acks_.emplace_back(done, k);
        std::push_heap(acks_.begin(), acks_.end(), std::greater<Ack>());
    }
    uint32_t in_flight() const { return in_flight_; }
    bool full() const { return on() && in_flight_ >= cap_; }  // (as has_room last found it)

private:
    using Ack = std::pair<uint64_t, uint32_t>;  // (cycle, sectors)
    uint32_t cap_;
    uint32_t in_flight_ = 0;
    std::vector<Ack> acks_;     // a min-heap by cycle (std::push_heap with std::greater)
    std::vector<Ack> scratch_;  // room_for's copy in time order
};

}  // namespace simt::timing
