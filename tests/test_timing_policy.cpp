// test_timing_policy.cpp: the contract every scheduling policy must keep
// (sim/timing/scheduler/policy.hpp), checked on each of them, plus what
// distinguishes them.
#include "isa/assembler.hpp"
#include "sim/timing/decode.hpp"
#include "sim/timing/scheduler/policy.hpp"
#include "test_timing_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

std::vector<std::pair<const char*, std::unique_ptr<Policy>>> all_policies() {
    std::vector<std::pair<const char*, std::unique_ptr<Policy>>> v;
    v.emplace_back("lrr", make_lrr_policy());
    v.emplace_back("gto", make_gto_policy());
    v.emplace_back("two_level", make_two_level_policy(3));
    v.emplace_back("gty", make_gty_policy());
    v.emplace_back("gtb", make_gtb_policy());
    v.emplace_back("cgy", make_cgy_policy(4, true, 64));
    return v;
}

std::unique_ptr<Policy> make_named(const std::string& name) {
    if (name == "lrr") return make_lrr_policy();
    if (name == "gto") return make_gto_policy();
    if (name == "gty") return make_gty_policy();
    if (name == "gtb") return make_gtb_policy();
    if (name == "cgy") return make_cgy_policy(4, true, 64);
    return make_two_level_policy(3);
}

std::vector<WarpView> warps(int n) {
    std::vector<WarpView> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) v[size_t(i)] = WarpView{.resident = true, .eligible = true, .slot = uint32_t(i * 4), .age = uint64_t(100 + i)};
    return v;
}

}  // namespace

TEST_CASE("policy contract: only eligible warps, in range, deterministic", "[timing][policy]") {
    for (auto& [name, policy] : all_policies()) {
        INFO(name);
        auto twin = make_named(name);
        std::mt19937 rng(1234);
        for (uint64_t cycle = 0; cycle < 20000; ++cycle) {
            int n = 1 + int(rng() % 16);
            auto v = warps(n);
            bool any = false;
            for (auto& w : v) {
                w.resident = rng() % 5 != 0;  // some free slots
                w.eligible = w.resident && rng() % 3 == 0;
                w.long_wait = w.resident && !w.eligible && rng() % 2 == 0;
                w.last_issue = rng() % 100;
                any |= w.eligible;
            }
            if (!any) {  // the contract: called with >= 1 eligible
                auto& w = v[rng() % v.size()];
                w.resident = w.eligible = true;
                w.long_wait = false;
            }
            int i = policy->pick(v, cycle);
            int j = twin->pick(v, cycle);
            REQUIRE(i == j);  // same views, same history -> same choice
            REQUIRE(i >= -1);
            REQUIRE(i < int(v.size()));
            if (i >= 0) REQUIRE(v[size_t(i)].eligible);
            if (std::string(name) != "two_level") REQUIRE(i >= 0);  // work-conserving
        }
    }
}

TEST_CASE("policy contract: pick_mask chooses as pick does, with the same history", "[timing][policy]") {
    for (auto& [name, policy] : all_policies()) {
        INFO(name);
        auto twin = make_named(name);
        auto told = make_named(name);  // pick_mask told only which slots took another warp
        std::vector<WarpView> before;
        std::mt19937 rng(99);
        for (uint64_t cycle = 0; cycle < 20000; ++cycle) {
            int n = 1 + int(rng() % 16);
            auto v = warps(n);
            if (rng() % 4 == 0) {  // now and then the warps (ages) sit in other slots
                std::vector<uint64_t> ages;
                for (const auto& w : v) ages.push_back(w.age);
                std::shuffle(ages.begin(), ages.end(), rng);
                for (size_t i = 0; i < v.size(); ++i) v[i].age = ages[i];
            }
            uint64_t arrived = 0;
            for (size_t i = 0; i < v.size(); ++i) {
                v[i].block = v[i].age % 3;  // two or three blocks (cgy ranks the oldest first)
                if (i >= before.size() || before[i].age != v[i].age) arrived |= 1ull << i;
            }
            before = v;
            uint64_t mask = 0;
            for (size_t i = 0; i < v.size(); ++i) {
                auto& w = v[i];
                w.resident = rng() % 5 != 0;
                w.eligible = w.resident && rng() % 3 == 0;
                w.long_wait = w.resident && !w.eligible && rng() % 2 == 0;
                if (w.eligible) mask |= 1ull << i;
            }
            if (!mask) {
                size_t i = rng() % v.size();
                v[i].resident = v[i].eligible = true;
                v[i].long_wait = false;
                mask = 1ull << i;
            }
            auto masked = v;  // pick_mask ignores the views' eligible fields
            for (auto& w : masked) w.eligible = rng() % 2 == 0;
            int i = policy->pick(v, cycle);
            int j = twin->pick_mask(mask, masked, cycle, ~0ull);
            REQUIRE(i == j);
            REQUIRE(told->pick_mask(mask, masked, cycle, arrived) == i);
        }
    }
}

TEST_CASE("policy contract: lrr serves every eligible warp within one round", "[timing][policy]") {
    auto lrr = make_lrr_policy();
    auto v = warps(12);
    std::map<uint32_t, uint64_t> last;
    for (uint64_t cycle = 0; cycle < 1200; ++cycle) {
        int i = lrr->pick(v, cycle);
        REQUIRE(i >= 0);
        uint32_t slot = v[size_t(i)].slot;
        if (last.count(slot)) REQUIRE(cycle - last[slot] == 12);
        last[slot] = cycle;
    }
    CHECK(last.size() == 12);
}

TEST_CASE("policy: gto keeps the last warp while it is eligible, then the oldest", "[timing][policy]") {
    auto gto = make_gto_policy();
    auto v = warps(4);
    CHECK(gto->pick(v, 0) == 0);  // oldest
    v[0].eligible = false;
    CHECK(gto->pick(v, 1) == 1);
    v[0].eligible = true;
    CHECK(gto->pick(v, 2) == 1);  // greedy: still warp 1
    v[1].eligible = false;
    CHECK(gto->pick(v, 3) == 0);  // then the oldest
}

TEST_CASE("policy: gty keeps the last warp while it is eligible, then the youngest", "[timing][policy]") {
    auto gty = make_gty_policy();
    auto v = warps(4);  // ages 100..103: warp 3 is the youngest
    CHECK(gty->pick(v, 0) == 3);
    CHECK(gty->pick_mask(0b0101, v, 0, ~0ull) == 2);  // (a fresh copy would agree: see the contract test)
    v[3].eligible = false;
    auto g2 = make_gty_policy();
    CHECK(g2->pick(v, 1) == 2);
    v[3].eligible = true;
    CHECK(g2->pick(v, 2) == 2);  // greedy: still warp 2
    v[2].eligible = false;
    CHECK(g2->pick(v, 3) == 3);  // then the youngest
    v[3].eligible = false;
    CHECK(g2->pick(v, 4) == 1);
}

TEST_CASE("policy contract: a warp that stays eligible is served once the greedy warp stalls", "[timing][policy]") {
    // Every policy but two_level (whose active set is tested above): four warps,
    // the one picked last stalls for the next cycle (as after a dependent issue);
    // within 4 x 4 cycles every warp has issued.
    for (auto& [name, policy] : all_policies()) {
        if (std::string(name) == "two_level") continue;
        INFO(name);
        auto v = warps(4);
        std::map<int, int> picks;
        int last = -1;
        for (uint64_t c = 0; c < 16; ++c) {
            for (size_t i = 0; i < v.size(); ++i) v[i].eligible = int(i) != last;
            last = policy->pick(v, c);
            REQUIRE(last >= 0);
            ++picks[last];
        }
        CHECK(picks.size() >= 2);
    }
}

TEST_CASE("policy: two_level serves its active set, and refills it when a warp waits long", "[timing][policy]") {
    auto two = make_two_level_policy(2);
    auto v = warps(4);
    std::map<int, int> picks;
    for (uint64_t c = 0; c < 100; ++c) ++picks[two->pick(v, c)];
    CHECK(picks.size() == 2);  // warps 0 and 1 only
    CHECK(picks[0] == 50);
    CHECK(picks[1] == 50);
    v[0].eligible = false;
    v[0].long_wait = true;  // warp 0 leaves; warp 2 (the oldest pending) enters
    picks.clear();
    for (uint64_t c = 0; c < 100; ++c) ++picks[two->pick(v, c)];
    CHECK(picks.size() == 2);
    CHECK(picks[1] == 50);
    CHECK(picks[2] == 50);
    // Eligible warps outside the active set are not picked.
    v[1].eligible = v[2].eligible = false;
    CHECK(two->pick(v, 200) == -1);
}

TEST_CASE("policy: make_policy follows the config", "[timing][policy]") {
    CHECK(make_policy({SchedPolicy::Lrr, 4})->name() == "lrr");
    CHECK(make_policy({SchedPolicy::Gto, 4})->name() == "gto");
    CHECK(make_policy({SchedPolicy::TwoLevel, 4})->name() == "two_level");
    CHECK(make_policy({SchedPolicy::Gty, 4})->name() == "gty");
    CHECK(make_policy({SchedPolicy::Cgy, 4})->name() == "cgy");
}

namespace {

// Issues `cycles` picks on v as a sub-partition would: the picked warp's last_issue becomes the
// cycle + 1, its `yielded` flag `yields(i)`; a warp stays eligible. Returns the picks per warp.
template <class Yields>
std::map<int, int> run_picks(Policy& p, std::vector<WarpView>& v, uint64_t from, uint64_t cycles, Yields yields) {
    std::map<int, int> picks;
    for (uint64_t c = from; c < from + cycles; ++c) {
        const int i = p.pick(v, c);
        REQUIRE(i >= 0);
        ++picks[i];
        v[size_t(i)].last_issue = c + 1;
        v[size_t(i)].yielded = yields(i);
    }
    return picks;
}

}  // namespace

TEST_CASE("policy: cgy serves a window of the youngest warps round robin while none yields", "[timing][policy]") {
    auto v = warps(8);  // one block, ages 100..107: the youngest four are warps 4..7
    auto cgy = make_cgy_policy(4, true, 0);
    auto picks = run_picks(*cgy, v, 0, 400, [](int) { return false; });
    CHECK(picks.size() == 4);
    for (int i = 4; i < 8; ++i) CHECK(picks[i] == 100);
}

TEST_CASE("policy: cgy with greedy issue keeps the warp that issued last until it yields", "[timing][policy]") {
    auto v = warps(8);
    auto cgy = make_cgy_policy(4, true, 0, true);
    int last = -1, switches = 0;
    auto picks = run_picks(*cgy, v, 0, 400, [](int) { return false; });
    CHECK(picks.size() == 1);  // always eligible, never yields: one warp (the youngest)
    CHECK(picks[7] == 400);
    auto w = warps(8);
    auto cgy2 = make_cgy_policy(4, true, 0, true);
    for (uint64_t c = 0; c < 100; ++c) {  // every instruction yields: no greedy run
        const int i = cgy2->pick(w, c);
        switches += i != last;
        last = i;
        w[size_t(i)].last_issue = c + 1;
        w[size_t(i)].yielded = true;
    }
    CHECK(switches == 100);
}

TEST_CASE("policy: cgy rotates yielding warps through the whole block", "[timing][policy]") {
    auto v = warps(8);
    auto cgy = make_cgy_policy(4, true, 0);
    auto picks = run_picks(*cgy, v, 0, 800, [](int) { return true; });
    CHECK(picks.size() == 8);
    for (int i = 0; i < 8; ++i) CHECK(picks[i] == 100);
    // Without demotion, the window keeps the youngest four.
    auto v2 = warps(8);
    auto fixed = make_cgy_policy(4, false, 0);
    CHECK(run_picks(*fixed, v2, 0, 800, [](int) { return true; }).size() == 4);
}

TEST_CASE("policy: cgy serves the oldest block first and lets a starved warp of it in", "[timing][policy]") {
    auto v = warps(8);
    for (int i = 0; i < 4; ++i) v[size_t(i)].block = 3;  // warps 0..3: the older block
    for (int i = 4; i < 8; ++i) v[size_t(i)].block = 4;
    auto cgy = make_cgy_policy(4, true, 0);
    auto picks = run_picks(*cgy, v, 0, 400, [](int) { return false; });
    CHECK(picks.size() == 4);
    for (int i = 0; i < 4; ++i) CHECK(picks[i] == 100);
    // One block of four, a window of three: warp 0 yields (at the back of its block) and is left
    // out while the others never yield, until starve_cycles lets it in: one issue per 64 cycles.
    for (int starve : {64, 0}) {
        auto w = warps(4);
        for (auto& x : w) x.last_issue = 1;
        auto p = make_cgy_policy(3, true, uint32_t(starve));
        w[0].age = 200;  // the youngest: in the window first, then at the back
        auto picks4 = run_picks(*p, w, 1, 6400, [](int i) { return i == 0; });
        if (starve) {
            CHECK(picks4[0] >= 6400 / 64 - 1);
            CHECK(picks4[0] <= 6400 / 64 + 1);
        } else {
            CHECK(picks4[0] == 1);
        }
    }
}

TEST_CASE("policy: gtb keeps the last warp while it is eligible, then the oldest block's youngest warp", "[timing][policy]") {
    auto v = warps(4);  // ages 100..103
    v[0].block = v[1].block = 7;  // warps 0, 1: the older block
    v[2].block = v[3].block = 8;
    auto gtb = make_gtb_policy();
    CHECK(gtb->pick(v, 0) == 1);  // the older block's youngest
    v[1].eligible = false;
    auto g2 = make_gtb_policy();
    CHECK(g2->pick(v, 1) == 0);
    v[1].eligible = true;
    CHECK(g2->pick(v, 2) == 0);  // greedy: still warp 0
    v[0].eligible = false;
    CHECK(g2->pick(v, 3) == 1);
    v[1].eligible = false;
    CHECK(g2->pick(v, 4) == 3);  // then the younger block's youngest
    CHECK(g2->pick_mask(0b0100, v, 5, ~0ull) == 2);
}

TEST_CASE("decode: an instruction yields when the next one waits for a fixed-latency result", "[timing][policy]") {
    // A dependent FFMA yields; a loop counter's step does not (ptxas keeps it in a uniform
    // register); the instruction before pc counts only when pc is not a branch target.
    auto decode = [](const std::string& body) {
        return decode_program(isa::assemble_text(".grid 1\n.block 32\n" + body, "t.isa"));
    };
    auto loop = decode("mov r9, 0\nloop:\nffma r4, r2, r2, r3\nffma r5, r9, r2, r3\niadd r9, r9, 1\n"
                       "isetp.lt p0, r9, 10\n@p0 bra loop\nffma r1, r1, r2, r3\nffma r1, r1, r2, r3\nexit\n");
    CHECK_FALSE(loop[0].yields);
    CHECK_FALSE(loop[1].yields);  // a branch target: mov r9 is not what runs before it in the loop
    CHECK_FALSE(loop[2].yields);
    CHECK_FALSE(loop[3].yields);  // the counter step
    CHECK(loop[6].yields);        // r1 -> r1
    CHECK_FALSE(loop[7].yields);
    auto straight = decode("mov r9, 0\nffma r4, r2, r2, r3\nffma r5, r9, r2, r3\nexit\n");
    CHECK(straight[1].yields);    // mov r9's result, read by the next FFMA, is still in flight
}

TEST_CASE("timing: a diverged warp's two sides alternate at yielding instructions with interleave_paths",
          "[timing][policy]") {
    // One warp: even lanes run a chain of 8 dependent FFMAs (pcs 13..20), odd lanes another (4..11).
    const std::string src = ".grid 1\n.block 32\nmov r0, %laneid\nand r1, r0, 1\nisetp.eq p0, r1, 0\n@p0 bra even\n" +
                            repeat("ffma r2, r2, r2, r2", 8) + "bra join\neven:\n" +
                            repeat("ffma r3, r3, r3, r3", 8) + "join:\nexit\n";
    GpuConfig c = small_config();
    auto ffma_pcs = [&](const GpuConfig& cfg, uint64_t& cycles) {
        Recorder rec;
        cycles = run(src, cfg, {true, &rec, {}}).stats.cycles;
        std::vector<uint32_t> pcs;
        for (const auto& e : rec.issues)
            if ((e.pc >= 4 && e.pc <= 11) || (e.pc >= 13 && e.pc <= 20)) pcs.push_back(e.pc);
        return pcs;
    };
    uint64_t serial = 0, mixed = 0;
    const std::vector<uint32_t> one_after_other = ffma_pcs(c, serial);
    c.scheduler.interleave_paths = true;
    const std::vector<uint32_t> alternating = ffma_pcs(c, mixed);
    REQUIRE(one_after_other.size() == 16);
    REQUIRE(alternating.size() == 16);
    for (uint32_t i = 0; i < 8; ++i) {
        INFO("ffma " << i);
        CHECK(one_after_other[i] == 13 + i);  // the taken (even) side first, then the other
        CHECK(one_after_other[8 + i] == 4 + i);
        CHECK(alternating[2 * i] == 13 + i);  // one of each in turn
        CHECK(alternating[2 * i + 1] == 4 + i);
    }
    // The two 4-cycle chains hide each other's latency: 7 waits of about 3 cycles saved.
    CHECK(serial - mixed >= 20);
}

TEST_CASE("timing: sides that write a uniform register do not interleave (it is one per warp)", "[timing][policy]") {
    // As ptxas compiles div_ffma: each side counts its own loop in ur4. Interleaved, the two sides would
    // step one counter and each run about half its 8 iterations.
    auto named = [&](const std::string& n) {
        return "umov ur4, 0\nL" + n + ":\n" + repeat("ffma r2, r2, r2, r2", 4) +
               "uiadd3 ur4, ur4, 1, 0\nisetp.lt p1, ur4, 8\n@p1 bra L" + n + "\n";
    };
    const std::string src = ".grid 1\n.block 32\nmov r0, %laneid\nand r1, r0, 1\nisetp.eq p0, r1, 0\n@p0 bra even\n" +
                            named("odd") + "bra join\neven:\n" + named("even") + "join:\nexit\n";
    GpuConfig c = small_config();
    c.scheduler.interleave_paths = true;
    Recorder rec;
    const uint64_t issued = run(src, c, {true, &rec, {}}).stats.warp_instructions;
    uint64_t ffmas = 0;
    for (const auto& e : rec.issues) ffmas += e.pipe == simt::isa::Pipe::Fma;
    CHECK(ffmas == 2 * 8 * 4);   // both sides, all 8 iterations of 4 FFMAs
    c.scheduler.interleave_paths = false;
    CHECK(run(src, c, {true, nullptr, {}}).stats.warp_instructions == issued);
}
