// test_timing_lg_queue.cpp: the LSU's instruction queue in front of the L1TEX
// tag stage (memory/lg_queue.hpp), the read barrier of a queued instruction's
// registers, and the SM's store credits (memory/store_credits.hpp), at exact
// cycles on small_config: `mov` and `shl` have latency 4, so the first memory
// instruction after them issues at 8; a request to 32 lines is 32 sectors, 8 tag-stage cycles
// at 4 sectors per cycle; a store is acked 200 cycles after its tag stage starts
// (the L2's hit latency).
#include "test_timing_util.hpp"

#include "sim/timing/memory/lg_queue.hpp"
#include "sim/timing/memory/store_credits.hpp"

#include <catch2/catch.hpp>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

// One warp: r6 = 32 x lane, then `body` (pc 2 on): [a + r6*4] puts the lanes 128 B apart (32 lines a request).
std::string one_warp(const std::string& body) {
    return ".kernel t\n.grid 1\n.block 32\n.regs 16\n.buffer a f32 8192 zero\nmov r0, %laneid\nshl r6, r0, 5\n" + body +
           "exit\n";
}

std::string loads(int n) {
    std::string body;
    for (int k = 0; k < n; ++k)
        body += "ld.global r" + std::to_string(1 + k) + ", [a + r6*4 + " + std::to_string(4096 * k) + "]\n";
    return body;
}

std::vector<uint64_t> issue_cycles(const Recorder& rec, uint32_t first_pc, uint32_t n) {
    std::vector<uint64_t> v;
    for (uint32_t pc = first_pc; pc < first_pc + n; ++pc) v.push_back(rec.issue_cycles(0, pc).at(0));
    return v;
}

}  // namespace

TEST_CASE("lg queue: the queue is a FIFO of tag-stage starts; credits come back with the acks", "[timing][memory]") {
    LgQueue q(2);
    CHECK(q.has_room(0));
    q.push(0, 0);  // starts at once: never waits
    q.push(1, 8);
    q.push(2, 16);
    CHECK(q.waiting() == 2);
    CHECK_FALSE(q.has_room(7));
    CHECK(q.room_at() == 8);
    CHECK(q.has_room(8));  // the first has started
    CHECK(q.waiting() == 1);

    StoreCredits c(64);
    CHECK(c.has_room(0));
    c.sent(300, 32);
    CHECK(c.has_room(1));
    c.sent(200, 40);  // past the limit by the last store's own sectors
    CHECK(c.in_flight() == 72);
    CHECK_FALSE(c.has_room(2));
    CHECK(c.room_at() == 200);  // the earliest ack
    CHECK(c.has_room(200));
    CHECK(c.in_flight() == 32);
}

// Four independent loads of 32 lines each: the tag stage takes one every 8 cycles (8, 16, 24, 32).
// Without a queue each waits at issue (lg_throttle) for the stage; with a queue of depth D, D of
// them may wait in it, one accepted a cycle, and the warp moves on.
TEST_CASE("lg queue: issue stops only while the queue is full", "[timing][memory]") {
    GpuConfig c = small_config();
    const std::string src = one_warp(loads(4));
    const std::vector<std::vector<uint64_t>> expect = {{8, 16, 24, 32}, {8, 9, 16, 24}, {8, 9, 10, 16}, {8, 9, 10, 11}};
    uint64_t cycles = 0;
    for (uint32_t depth = 0; depth <= 3; ++depth) {
        c.memory.lg_queue_depth = depth;
        Recorder rec;
        auto r = run(src, c, {true, &rec, {}});
        INFO("depth " << depth);
        CHECK(issue_cycles(rec, 2, 4) == expect[depth]);
        // The loads' data come as late as before: the last starts in the tag stage at 32 in every case.
        if (depth == 0) cycles = r.stats.cycles;
        CHECK(r.stats.cycles == cycles);
    }
}

// A queued store has not read its registers: an instruction that reads r0 goes on, one that writes
// r0 waits for the store's tag-stage start (16), as long_scoreboard.
TEST_CASE("lg queue: a queued store's registers carry a read barrier for writers only", "[timing][memory]") {
    GpuConfig c = small_config();
    const std::string src = one_warp(
        "ld.global r1, [a + r6*4]\n"           // pc2 at 8: tag stage 8..16
        "st.global [a + r6*4 + 4096], r0\n"    // pc3: starts at 16, reads r0 then
        "iadd r2, r0, 1\n"                     // pc4 reads r0
        "mov r0, 7\n");                        // pc5 writes r0
    for (uint32_t depth : {0u, 1u}) {
        c.memory.lg_queue_depth = depth;
        Recorder rec;
        auto r = run(src, c, {true, &rec, {}});
        INFO("depth " << depth);
        if (depth == 0) {
            CHECK(issue_cycles(rec, 3, 3) == std::vector<uint64_t>{16, 17, 19});  // (iadd, mov: the ALU every 2)
            CHECK(r.stats.stall_cycles[int(StallReason::LgThrottle)] == 16 - 9);
        } else {
            CHECK(issue_cycles(rec, 3, 3) == std::vector<uint64_t>{9, 10, 16});
            CHECK(r.stats.stall_cycles[int(StallReason::LgThrottle)] == 0);
            CHECK(r.stats.stall_cycles[int(StallReason::LongScoreboard)] == 16 - 11);
        }
    }
}

// Three stores of 32 sectors each (acked 200 cycles after they enter). With 64 credits the third
// may enter only when the first is acked (8 + 200 = 208), with 32 each waits for the one before.
TEST_CASE("store credits: a request waits at issue while the SM's store sectors in flight are at the limit",
          "[timing][memory]") {
    GpuConfig c = small_config();
    std::string body;
    for (int k = 0; k < 3; ++k) body += "st.global [a + r6*4 + " + std::to_string(4096 * k) + "], r0\n";
    const std::string src = one_warp(body);
    struct Case {
        uint32_t credits;
        std::vector<uint64_t> issue;
        uint64_t last_ack, lg_throttle;
    };
    const Case cases[] = {{0, {8, 16, 24}, 224, 2 * 7}, {64, {8, 16, 208}, 408, 7 + 191},
                          {32, {8, 208, 408}, 608, 199 + 199}};
    for (const Case& k : cases) {
        c.memory.stores.sectors_in_flight = k.credits;
        Recorder rec;
        auto r = run(src, c, {true, &rec, {}});
        INFO("credits " << k.credits);
        CHECK(issue_cycles(rec, 2, 3) == k.issue);
        uint64_t last = 0;
        for (const auto& e : rec.issues)
            if (e.pc >= 2 && e.pc <= 4) last = std::max(last, e.complete);
        CHECK(last == k.last_ack);
        CHECK(r.stats.stall_cycles[int(StallReason::LgThrottle)] == k.lg_throttle);
        CHECK(r.stats.memory.global_store.sectors == 96);
    }
}

// One store (tag stage 8..16, acked at 208) and exit. With stores.drain_acks the exited warp
// drains until the ack; without, until the store has left the SM (16). The launch ends at the
// ack either way.
TEST_CASE("store drain: an exited warp waits for its stores to leave the SM, or for their acks", "[timing][memory]") {
    GpuConfig c = small_config();
    const std::string src = one_warp("st.global [a + r6*4], r0\n");
    uint64_t drain[2] = {0, 0}, cycles[2] = {0, 0};
    for (bool acks : {false, true}) {
        c.memory.stores.drain_acks = acks;
        auto r = run(src, c);
        drain[acks] = r.stats.stall_cycles[int(StallReason::Drain)];
        cycles[acks] = r.stats.cycles;
    }
    CHECK(cycles[0] == cycles[1]);
    CHECK(cycles[1] >= 208);
    CHECK(drain[1] - drain[0] == 208 - 16);
}

// A queued store's guard predicate was read at issue: rewriting it does not wait for the store.
TEST_CASE("lg queue: a queued instruction's guard predicate carries no read barrier", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.lg_queue_depth = 1;
    Recorder rec;
    run(one_warp("isetp.ge p1, r0, 0\n"                    // pc2
                 "ld.global r1, [a + r6*4]\n"             // pc3 at 8: tag stage 8..16
                 "@p1 st.global [a + r6*4 + 4096], r0\n"  // pc4: queued, starts at 16
                 "isetp.ge p1, r0, 1\n"                   // pc5 writes p1: no wait for 16
                 "mov r0, 7\n"),                          // pc6 writes r0: waits for 16
        c, {true, &rec, {}});
    CHECK(rec.issue_cycles(0, 4).at(0) < 16);
    CHECK(rec.issue_cycles(0, 5).at(0) < 16);
    CHECK(rec.issue_cycles(0, 6).at(0) == 16);
}

// room_for: the first cycle a store may leave behind `held` sectors of held stores, by the acks known.
TEST_CASE("store credits: room_for counts the held stores in flight", "[timing][memory]") {
    StoreCredits c(64);
    c.sent(300, 32);
    c.sent(200, 40);              // 72 in flight
    CHECK(c.room_for(10, 0) == 200);   // after 200: 32
    CHECK(c.room_for(10, 16) == 200);  // 32 + 16 < 64
    CHECK(c.room_for(10, 40) == 300);  // 32 + 40 is not: after 300, 0 + 40
    CHECK(c.room_for(250, 0) == 250);  // room now
    CHECK(c.in_flight() == 32);
}

// memory.stores.wait_in_queue: the same three stores and credits of 32 as above, then a writer of the
// stored register. The second store enters the queue at 9 and leaves when the first is acked (208);
// the third is taken once the second has left (209: its ack, 408, is known then) and leaves at 408;
// the writer of r0 waits for that (long_scoreboard). The tag-stage starts and acks are those of the
// stores waiting at issue: the launch lasts as long.
TEST_CASE("store credits: with wait_in_queue a store waits for them in the LSU queue", "[timing][memory]") {
    GpuConfig c = small_config();
    std::string body;
    for (int k = 0; k < 3; ++k) body += "st.global [a + r6*4 + " + std::to_string(4096 * k) + "], r0\n";
    const std::string src = one_warp(body + "mov r0, 7\n");
    c.memory.stores.sectors_in_flight = 32;
    c.memory.lg_queue_depth = 2;
    uint64_t cycles[2] = {0, 0};
    for (bool queued : {false, true}) {
        c.memory.stores.wait_in_queue = queued;
        Recorder rec;
        auto r = run(src, c, {true, &rec, {}});
        INFO("wait_in_queue " << queued);
        cycles[queued] = r.stats.cycles;
        const auto lg = r.stats.stall_cycles[int(StallReason::LgThrottle)];
        const auto sb = r.stats.stall_cycles[int(StallReason::LongScoreboard)];
        if (!queued) {
            CHECK(issue_cycles(rec, 2, 4) == std::vector<uint64_t>{8, 208, 408, 409});
            CHECK(lg == 199 + 199);
            CHECK(sb == 0);
        } else {
            CHECK(issue_cycles(rec, 2, 4) == std::vector<uint64_t>{8, 9, 209, 408});
            CHECK(lg == 209 - 10);
            CHECK(sb == 408 - 210);
        }
        CHECK(r.stats.memory.global_store.sectors == 96);
    }
    CHECK(cycles[0] == cycles[1]);
    CHECK(cycles[1] >= 608);
}

// A warp that exits with a held store drains until that store's ack, known only when it leaves.
TEST_CASE("store credits: an exited warp drains until its held store is acked", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.stores.sectors_in_flight = 32;
    c.memory.lg_queue_depth = 2;
    c.memory.stores.wait_in_queue = true;
    auto r = run(one_warp("st.global [a + r6*4], r0\nst.global [a + r6*4 + 4096], r0\n"), c);
    CHECK(r.stats.cycles >= 408);  // the second leaves at 208, acked at 408
    CHECK(r.stats.stall_cycles[int(StallReason::Drain)] >= 408 - 12);
}

// memory.slot_wait_in_queue: four loads of 32 lines with two requests in flight a SM at most. Waiting
// at issue, the third is accepted when the first completes and the fourth when the second does
// (lg_throttle); waiting in the queue (depth 4) all four are accepted at once and the third and
// fourth start in the tag stage when those slots free: the same starts and completions, the warp's
// wait now long_scoreboard for their data.
TEST_CASE("lg queue: with slot_wait_in_queue a request waits in the queue for a free slot", "[timing][memory]") {
    GpuConfig c = small_config();
    c.memory.max_outstanding_per_sm = 2;
    c.memory.lg_queue_depth = 4;
    const std::string src = one_warp(loads(4) + "iadd r9, r4, r3\n");
    std::vector<uint64_t> done[2];
    uint64_t cycles[2] = {0, 0};
    for (bool wait : {false, true}) {
        c.memory.slot_wait_in_queue = wait;
        Recorder rec;
        auto r = run(src, c, {true, &rec, {}});
        INFO("slot_wait_in_queue " << wait);
        for (const auto& e : rec.issues)
            if (e.pc >= 2 && e.pc <= 5) done[wait].push_back(e.complete);
        cycles[wait] = r.stats.cycles;
        const auto issued = issue_cycles(rec, 2, 4);
        if (wait) {
            CHECK(issued == std::vector<uint64_t>{8, 9, 10, 11});
            CHECK(r.stats.stall_cycles[int(StallReason::LgThrottle)] == 0);
        } else {
            CHECK(issued[2] == done[0].at(0));  // accepted when the first load's slot frees
            CHECK(issued[3] == done[0].at(1));
            CHECK(r.stats.stall_cycles[int(StallReason::LgThrottle)] > 0);
        }
    }
    CHECK(done[0] == done[1]);
    CHECK(cycles[0] == cycles[1]);
}
