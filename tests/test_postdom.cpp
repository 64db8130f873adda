// Post-dominator and reconvergence-point tests (sim/functional/cfg.hpp).
#include "functional_util.hpp"
#include "sim/functional/cfg.hpp"

using namespace simt;
using simt::func::Reconvergence;

namespace {

const char* kLaunch = ".grid 1\n.block 32\n";

struct Cfg {
    isa::Program p;
    Reconvergence rc;
    explicit Cfg(const std::string& body) : p(test::assemble(std::string(kLaunch) + body)), rc(p) {}
    uint32_t pc(const std::string& label) const { return p.labels.at(label); }
    uint32_t rpc(const std::string& branch_label) const { return rc.reconvergence_pc(pc(branch_label)); }
};

}  // namespace

TEST_CASE("postdom: nested if/else reconverges at each inner and outer join", "[postdom]") {
    Cfg c(R"(
    mov r0, %tid.x
    and r1, r0, 1
    isetp.eq p0, r1, 0
outer: @p0 bra else1
    and r2, r0, 2
    isetp.eq p1, r2, 0
inner: @p1 bra else2
    iadd r3, r3, 1
    bra join2
else2:
    iadd r3, r3, 2
join2:
    iadd r3, r3, 3
    bra join1
else1:
    and r2, r0, 4
    isetp.eq p2, r2, 0
inner2: @p2 bra join1
    iadd r3, r3, 4
join1:
    exit
)");
    CHECK(c.rpc("outer") == c.pc("join1"));
    CHECK(c.rpc("inner") == c.pc("join2"));
    CHECK(c.rpc("inner2") == c.pc("join1"));   // if without else: the target itself
    REQUIRE(c.rc.functions.size() == 1);
    CHECK(c.rc.functions[0].blocks.size() == 8);
    CHECK(c.rc.kernel_exit_pc() == c.p.code.size());
}

TEST_CASE("postdom: loop with break and continue", "[postdom]") {
    Cfg c(R"(
    mov r1, 0
loop:
    iadd r1, r1, 1
    isetp.eq p0, r1, 5
brk: @p0 bra done
    and r2, r1, 1
    isetp.eq p1, r2, 0
cont: @p1 bra latch
    iadd r3, r3, 1
latch:
    isetp.lt p2, r1, 10
back: @p2 bra loop
done:
    exit
)");
    CHECK(c.rpc("brk") == c.pc("done"));
    CHECK(c.rpc("cont") == c.pc("latch"));
    CHECK(c.rpc("back") == c.pc("done"));
}

TEST_CASE("postdom: early exit reconverges at the kernel's virtual exit", "[postdom]") {
    Cfg c(R"(
    mov r0, %tid.x
    isetp.eq p0, r0, 0
b: @p0 bra side
    iadd r1, r1, 1
    bra join
side:
    exit
join:
    isetp.eq p1, r0, 1
g: @p1 exit
    iadd r1, r1, 2
    exit
)");
    CHECK(c.rpc("b") == c.rc.kernel_exit_pc());
    CHECK(c.rpc("g") == c.rc.kernel_exit_pc());
}

TEST_CASE("postdom: a function with ret inside divergent code", "[postdom]") {
    Cfg c(R"(
    mov r0, %tid.x
    call f
k:  exit
f:
    isetp.eq p0, r0, 0
fb: @p0 bra fr
    isetp.eq p1, r0, 1
gr: @p1 ret
    iadd r1, r1, 1
    ret
fr:
    iadd r1, r1, 2
    ret
)");
    REQUIRE(c.rc.functions.size() == 2);
    const uint32_t n = uint32_t(c.p.code.size());
    CHECK(c.rc.functions[1].entry == c.pc("f"));
    CHECK(c.rc.exit_pc(0) == n);
    CHECK(c.rc.exit_pc(1) == n + 1);
    CHECK(c.rc.function_at(c.pc("f")) == 1);
    CHECK(c.rc.function_of(c.pc("k")) == 0);
    CHECK(c.rc.function_of(c.pc("fb")) == 1);
    CHECK(c.rc.function_of(c.pc("fr")) == 1);
    CHECK(c.rpc("fb") == n + 1);   // both sides return: the function's exit
    CHECK(c.rpc("gr") == n + 1);
}

TEST_CASE("postdom: a branch into an infinite loop is post-dominated by the exit", "[postdom]") {
    Cfg c(R"(
    mov r0, %tid.x
    isetp.eq p0, r0, 0
b:  @p0 bra spin
    exit
spin:
    bra spin
)");
    CHECK(c.rpc("b") == c.rc.kernel_exit_pc());
}

TEST_CASE("postdom: a loop whose exit branch sits at the top", "[postdom]") {
    Cfg c(R"(
    mov r1, 0
head:
    isetp.ge p0, r1, %tid.x
top: @p0 bra out
    iadd r1, r1, 1
    bra head
out:
    exit
)");
    CHECK(c.rpc("top") == c.pc("out"));
}

TEST_CASE("postdom: code reachable from the kernel and from a function is rejected", "[postdom]") {
    const isa::Program p = test::assemble(std::string(kLaunch) + "    call f\nf:  iadd r1, r1, 1\n    ret\n");
    try {
        Reconvergence rc(p);
        FAIL("accepted overlapping functions");
    } catch (const Error& e) {
        CHECK(e.loc().line == 4);
        CHECK(std::string(e.what()).find("reachable from both the kernel body and function 'f'") != std::string::npos);
    }
}
