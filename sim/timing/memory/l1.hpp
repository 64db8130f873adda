// l1.hpp: one SM's L1TEX path for global, local and texture accesses.
//
// Stages: (1) the tag stage takes ceil(sectors / l1_sectors_per_cycle)
// cycles per request (wavefronts), one request after another (an atomic:
// ceil(lane ops / atomics.l1_ops_per_cycle) when that is set); (2) each
// sector is looked up in the sectored L1 (hit: l1.hit_latency after the tag
// stage start, or when its in-flight fill lands); (3) misses go through the
// crossbar to the L2 slices (l2.hpp). A load completes when its last sector is
// back. Stores are write-through (a present L1 sector stays valid), each sector
// marked whole or byte-masked, and complete when the L2 acks; with
// memory.l1_global_store_allocate (l1_local_store_allocate for local ones) they
// also allocate in the L1 as the H200's do (calib/results/l1keep/): a whole
// sector as present, a byte-masked one as partial (a load still misses it).
// Atomics bypass L1 and reach the slices' atomic units grouped by address.
// Every request counts against max_outstanding_per_sm until it completes;
// while that is full (unless memory.slot_wait_in_queue), or the tag stage is busy and the LSU's instruction
// queue (lg_queue.hpp) is full, the SM does not accept a new request
// (lg_throttle / tex_throttle); nor while the SM's store credits are spent
// (store_credits.hpp); it accepts one a cycle.
// With memory.stores.wait_in_queue a store that the credits cannot take yet
// still enters the LSU queue, as on the H200 (Nsight Compute shows store-bound
// kernels waiting in long_scoreboard, for the registers a queued store has not
// read yet, more than in lg_throttle): it is held, its tag-stage start set at
// acceptance to the first cycle the credits known then allow (StoreCredits::
// room_for), and its sectors leave at that start (flush(), the SM's event).
// Loads, atomics and textures are not taken while stores are held (the queue
// is in order; they wait at issue, lg_throttle), so nothing overtakes them;
// nor a store while the held ones hold a full set of credits (its start would
// need their acks, known when they leave).
// With memory.slot_wait_in_queue a request that finds every slot taken still enters the LSU queue
// (while it has room) and waits there: its tag-stage start is the earliest known completion, whose
// slot it takes (the requests before it took the earlier ones), so the warp goes on and waits in
// long_scoreboard for its data, or for the registers a queued store or atomic has not read yet. On the
// H200 a histogram's atomics, 64 warps of them a SM, wait in long_scoreboard, not at issue.
// The L1's size is the kernel's carve-out (carveout.hpp).
//
// Deferred mode (a parallel run, see sim/timing/parallel/): a request takes
// its tag stage at issue, but its sectors (L1 lookups and fills, the L2) wait
// until complete() at the end of the cycle, when the Gpu runs every SM's
// request in SM order, the serial run's order; until then the request counts
// as outstanding, and accepts_at() answers kLateWake when it would need the
// request's completion (the outstanding limit is full).
//
// With memory.l1_miss_lines_in_flight the loads' lines sent to the L2 and not yet back are counted
// (the L1's miss entries, per line): while they are that many, the L1TEX takes no request (the last
// load may take the count past the limit by its own lines). Nsight Compute has the H200's gathers,
// 32 lines per load, waiting to enter (lg_throttle) where a stream of one line per load does not.
// Left out: write coalescing in L1, texture filtering.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/cache.hpp"
#include "sim/timing/memory/coalescer.hpp"
#include "sim/timing/memory/fast_div.hpp"
#include "sim/timing/memory/l2.hpp"
#include "sim/timing/memory/lg_queue.hpp"
#include "sim/timing/memory/store_credits.hpp"
#include "sim/timing/stats.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <queue>
#include <vector>

namespace simt::timing {

// memory.l1_miss_lines_in_flight: a load's missed lines (its sectors come line by line, sorted), each
// counted until its last sector is back.
struct MissLines {
    StoreCredits& count;
    uint64_t line = ~uint64_t(0), ready = 0;
    void missed(uint64_t l, uint64_t at) {
        if (!count.on()) return;
        if (l != line) flush();
        line = l;
        ready = std::max(ready, at);
    }
    void flush() {
        if (line != ~uint64_t(0)) count.sent(ready, 1);
        line = ~uint64_t(0);
        ready = 0;
    }
};

// The passes of one request's L2 misses: the first `per_pass` distinct missing lines leave at once,
// each further group of `per_pass` lines `gap` cycles after the previous (the H200: a warp's
// gather of 32 L2-resident lines costs 515 cycles, of 16 lines 383, calib/kernels/latdist.cu).
// With per_pass 1 and gap memory.l1_miss_line_cycles it is also the order of a request's returns: a
// missed line takes a t-stage wavefront of its own (l1_line_per_wavefront), so the k-th one's data is
// back k cycles after the first's. That is added to the return, not the departure: the L2 slices are
// next-free-time servers (server.hpp), and arrivals timed ahead of requests handed to them later
// would make those queue behind them (l2cap random 32 MB -16 -> -41 % when tried as departures).
struct MissPasses {
    uint32_t per_pass, gap;
    uint64_t last_line = ~uint64_t(0);
    uint32_t lines = 0;
    // Delay of a missing sector of `line` (sectors come sorted, so a line's sectors are adjacent).
    uint64_t delay(uint64_t line) {
        if (!per_pass) return 0;
        if (line != last_line) ++lines, last_line = line;
        return uint64_t((lines - 1) / per_pass) * gap;
    }
};

// Placeholders of a deferred request (deferred mode): its completion, and a wake time known at the cycle's end.
constexpr uint64_t kPendingDone = ~0ull - 2;
constexpr uint64_t kLateWake = ~0ull - 1;
// The completion of a held store (memory.stores.wait_in_queue): known when flush() sends it.
constexpr uint64_t kHeldDone = ~0ull - 3;

class L1Tex {
public:
    L1Tex(const GpuConfig& config, const CacheSpec& l1, uint32_t sm, L2& l2, MemoryStats& stats);

    // Can a new request enter at cycle t? (forgets requests completed by t)
    // A refusal at t holds for the rest of cycle t (nothing but a request's entry changes what the
    // L1TEX takes at t, and none enters while it refuses): it is kept with its accepts_at, so the
    // other candidates of the cycle ask once.
    // `store`: a global or local store, which may be held behind others (wait_in_queue).
    bool accepts(uint64_t t, bool store = false) {
        if (behind_held(store)) return false;  // (see accepts_at)
        if (t == refused_t_) return false;
        while (!outstanding_.empty() && outstanding_.top() <= t) outstanding_.pop();
        if (open_at(t)) return true;
        refused_t_ = t;
        refused_at_ = reopens_at(t);
        return false;
    }
    void set_deferred(bool on) { deferred_ = on; }
    bool pending() const { return pending_.valid; }
    // Runs the deferred request's sectors; returns its completion cycle.
    uint64_t complete();
    // Earliest cycle > t at which it might accept (call when !accepts(t)).
    uint64_t accepts_at(uint64_t t, bool store = false) const {
        // Not behind held stores, unless a store and the acks known say when it may leave: once
        // the held ones have left (a load), or the first has (a store: its ack is known then).
        if (behind_held(store)) return std::max(t + 1, (store ? held_.front() : held_.back()).start + 1);
        return t == refused_t_ ? refused_at_ : reopens_at(t);
    }
    // Held stores (wait_in_queue): the tag-stage start of the first (~0: none), and sending it at
    // that cycle: the token store() was given and its completion (kPendingDone in deferred mode).
    uint64_t next_held() const { return holding() ? held_.front().start : ~0ull; }  // (~0: kNever)
    struct Sent {
        uint32_t token;
        uint64_t done;
    };
    Sent flush(uint64_t t);

    // Lines of s with a sector not in the L1 and not on its way (each a fill when it is loaded).
    uint32_t missing_lines(const SectorList& s) const;
    // Data-stage cycles of a load's fills (memory.l1_fill_cycles), whole: the fraction carries over.
    uint32_t fills(const SectorList& s);
    // Each returns the completion cycle of the request issued at t.
    // `l2_only`: a .cg load, which neither looks up nor fills the L1.
    uint64_t load(uint64_t t, const SectorList& s, AccessStats& kind, uint32_t extra_latency = 0,
                  bool l2_only = false);
    // `partial`: bit i set when sector i of s is written with a byte mask.
    // `local`: a local-memory store, whose whole sectors also go into the L1 with
    // memory.l1_local_store_allocate (the frame a function saves is read back from L1); a global
    // store's with memory.l1_global_store_allocate.
    // Returns kHeldDone when the store is held (wait_in_queue); `token` names it in flush()'s answer.
    uint64_t store(uint64_t t, const SectorList& s, uint64_t partial, AccessStats& kind, bool local = false,
                   uint32_t token = 0);
    uint64_t atomic(uint64_t t, const SectorList& s, const AtomicGroups& g, AccessStats& kind);

    uint32_t outstanding() const { return uint32_t(outstanding_.size()); }
    uint64_t tag_free() const { return tag_free_; }
    // The tag-stage start of the request accepted last: when it reads its source registers.
    uint64_t last_start() const { return last_start_; }
    uint32_t queued() const { return queue_.waiting(); }

private:
    // Held stores keep a request out: any but a store, and a store while they hold a full set of credits.
    bool behind_held(bool store) const {
        return holding() && (!store || held_sectors_ >= credits_.cap());
    }
    // Are stores held? (Only with wait_in_queue_, which is tested first: the flag is cheaper than the deque.)
    bool holding() const { return wait_in_queue_ && !held_.empty(); }
    bool open_at(uint64_t t) {
        if (slots_full() && !can_wait_for_slot()) return false;
        if (credits_.on() && !wait_in_queue_ && !credits_.has_room(t)) return false;
        if (miss_lines_.on() && !miss_lines_.has_room(t)) return false;
        return queue_.depth() ? last_accept_ <= t && queue_.has_room(t) : tag_free_ <= t;
    }
    uint64_t reopens_at(uint64_t t) const;
    // Are all max_outstanding_per_sm slots taken (held stores and the pending request counted)?
    bool slots_full() const {
        return outstanding_.size() + (wait_in_queue_ ? held_.size() : 0) + pending_.valid >= cap_;
    }
    // memory.slot_wait_in_queue: may a request wait in the LSU queue for the first slot to free? Only
    // when that slot's completion is known (no pending request, one tracked).
    bool can_wait_for_slot() const { return slot_wait_ && !pending_.valid && !outstanding_.empty(); }
    // The cycle a waiting request's slot frees (0: a slot is free now), and taking it: the earliest
    // completion hands its slot over, so the count from then on holds the new request instead.
    uint64_t slot_floor() const {
        return slot_wait_ && slots_full() && !outstanding_.empty() ? outstanding_.top() : 0;
    }
    uint64_t take_slot() {
        const uint64_t at = slot_floor();
        if (at) outstanding_.pop();
        return at;
    }
    void forget_refusal() { refused_t_ = ~0ull; }
    uint64_t atomic_by_sector(uint64_t start, const AtomicGroups& g);
    // Returns the start cycle: max(t, the stage free, earliest); `timed`: its sectors are timed now.
    uint64_t tag_stage(uint64_t t, uint32_t wavefronts, uint64_t earliest = 0, bool timed = true);
    uint64_t hold(uint64_t t, const SectorList& s, uint64_t partial, bool allocate, uint32_t token);
    // Tag-stage cycles of a request: its sectors at l1_sectors_per_cycle, at least memory.l1_request_cycles
    // (l1pipe.cu: an L1-hit load of one line takes 2, ncu's two LSU-in passes of its 32 64-bit addresses),
    // and at least one cycle per distinct line with l1_line_per_wavefront (32 lines take 32 wavefronts).
    uint32_t by_sectors(const SectorList& s) const {
        return std::max(request_cycles_, (s.count + sectors_per_cycle_ - 1) / sectors_per_cycle_);
    }
    uint32_t wavefronts(const SectorList& s) const {
        const uint32_t w = by_sectors(s);
        if (!line_per_wavefront_ || s.count <= 1) return w;
        uint32_t lines = 1;
        for (uint32_t i = 1; i < s.count; ++i) lines += by_spl_.div(s.sector[i]) != by_spl_.div(s.sector[i - 1]);
        return std::max(w, lines);
    }
    // A load's: with memory.l1_hits_share_wavefronts only its lines not all ready in the L1 at `at`
    // (missing, or a fill still in flight: an MSHR merge) take one each; the others share wavefronts
    // by sectors as a one-line request's do (l1pipe.cu: 32 lines that hit take 8 cycles, 32 that miss 32).
    uint32_t load_wavefronts(const SectorList& s, uint64_t at, bool l2_only) const;
    uint64_t track(uint64_t done);
    void prefetch(const SectorList& s, bool l1, L2::Place* at) const;  // (at: each sector's L2::place)
    uint64_t load_sectors(uint64_t start, const SectorList& s, uint32_t extra_latency, bool l2_only);
    uint64_t store_sectors(uint64_t start, const SectorList& s, uint64_t partial, bool allocate);
    uint64_t atomic_sectors(uint64_t start, const SectorList& s, const AtomicGroups& g);

    // A request whose sectors wait for complete() (deferred mode).
    struct Pending {
        enum Kind : uint8_t { Load, Store, AllocatingStore, Atomic } kind = Load;
        bool valid = false;
        uint32_t extra = 0;
        bool l2_only = false;
        uint64_t start = 0, partial = 0;
        SectorList s;
        AtomicGroups g;
    };
    uint64_t defer(Pending::Kind kind, uint64_t start, const SectorList& s, uint64_t partial, const AtomicGroups* g,
                   uint32_t extra, bool l2_only = false);

    SectorCache cache_;
    L2& l2_;
    MemoryStats& stats_;
    uint32_t sm_, sector_bytes_, hit_latency_, sectors_per_cycle_, cap_;
    bool slot_wait_;    // memory.slot_wait_in_queue (with a queue)
    uint32_t atomic_ops_per_cycle_;
    bool per_address_;  // atomics.same_address_cycles > 0: lanes grouped by address
    bool line_per_wavefront_;  // memory.l1_line_per_wavefront
    bool hits_share_;          // memory.l1_hits_share_wavefronts
    uint32_t request_cycles_;  // memory.l1_request_cycles (at least 1)
    bool local_allocate_;      // memory.l1_local_store_allocate
    bool global_allocate_;     // memory.l1_global_store_allocate
    uint32_t miss_lines_per_pass_, miss_pass_cycles_;  // memory.l1_miss_lines_per_pass, l1_miss_pass_cycles
    uint32_t miss_line_cycles_;                        // memory.l1_miss_line_cycles
    double fill_cycles_;       // memory.l1_fill_cycles
    double fill_debt_ = 0;     // fill cycles not yet a whole data-stage cycle
    uint32_t spl_;             // sectors per L1 line
    FastDiv by_spl_;           // spl_ (fast_div.hpp)
    uint32_t l2_spl_, header_bytes_, flit_bytes_;  // an atomic's packets per L2 line (atomic_packet.hpp)
    AtomicLine line_;          // scratch: the line of an atomic being sent
    uint64_t tag_free_ = 0;
    uint64_t last_start_ = 0, last_accept_ = 0;  // (last_accept_: cycle + 1)
    LgQueue queue_;
    StoreCredits credits_;
    StoreCredits miss_lines_;  // memory.l1_miss_lines_in_flight: the loads' missed lines not yet back (counted as credits)
    bool wait_in_queue_;       // memory.stores.wait_in_queue (with credits and a queue)
    // A store held in the queue for credits: its start is when it leaves (flush).
    struct Held {
        uint64_t start = 0, partial = 0;
        uint32_t token = 0;
        bool allocate = false;
        SectorList s;
    };
    std::deque<Held> held_;
    uint32_t held_sectors_ = 0;
    bool deferred_ = false;
    uint64_t refused_t_ = ~0ull, refused_at_ = 0;  // accepts() refused at refused_t_; then accepts_at
    Pending pending_;
    std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> outstanding_;
};

// The SM's MIO data stage for shared memory, constant cache and shuffles:
// one wavefront per cycle, shared by the SM's sub-partitions.
struct MioStage {
    uint64_t free_at = 0;
    // Occupies the stage for `passes` cycles from max(t, free_at); returns the start.
    uint64_t reserve(uint64_t t, uint32_t passes) {
        uint64_t start = t > free_at ? t : free_at;
        free_at = start + passes;
        return start;
    }
};

}  // namespace simt::timing
