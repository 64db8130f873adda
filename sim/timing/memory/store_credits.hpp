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
// Left out: credits per slice or per crossbar port.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace simt::timing {

class StoreCredits {
public:
    explicit StoreCredits(uint32_t sectors) : cap_(sectors) {}
    bool on() const { return cap_ > 0; }
    // May a store leave at t? (forgets the acknowledgements up to t: calls come with t never decreasing)
    bool has_room(uint64_t t) {
        while (!acks_.empty() && acks_.top().first <= t) {
            in_flight_ -= acks_.top().second;
            acks_.pop();
        }
        return in_flight_ < cap_;
    }
    // The earliest cycle at which there may be room (the next acknowledgement; call when full).
    uint64_t room_at() const { return acks_.empty() ? 0 : acks_.top().first; }
    // k sectors sent, acknowledged at `done`.
    void sent(uint64_t done, uint32_t k) {
        in_flight_ += k;
        acks_.emplace(done, k);
    }
    uint32_t in_flight() const { return in_flight_; }
    bool full() const { return on() && in_flight_ >= cap_; }  // (as has_room last found it)

private:
    using Ack = std::pair<uint64_t, uint32_t>;  // (cycle, sectors)
    uint32_t cap_;
    uint32_t in_flight_ = 0;
    std::priority_queue<Ack, std::vector<Ack>, std::greater<Ack>> acks_;
};

}  // namespace simt::timing
