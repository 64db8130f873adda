// executor.cpp: SIMT execution of warp instructions (see executor.hpp).
//
// Each step reads the top SIMT-stack entry, computes the executing lanes
// (active lanes whose guard holds), runs the instruction over them as tight
// loops over 32-lane register arrays (semantics.hpp gives the per-lane
// meaning), and updates the stack:
//   * bra: lanes where the guard holds take the branch; if both sides are
//     non-empty, the top entry waits at the reconvergence pc and the
//     not-taken then the taken side are pushed (taken runs first);
//   * call: the top entry moves past the call and the callee is pushed with
//     rpc = the callee's virtual exit;
//   * ret: the executing lanes jump to their function's virtual exit;
//   * exit: the lanes leave `live` and every entry;
//   * after every step entries whose pc reached their rpc (or that are empty)
//     are popped, and lanes reaching the kernel's exit finish.
// The hot path: every instruction is decoded once, at construction (operands
// resolved to a register, a broadcast constant or a per-lane array; branch
// targets and reconvergence pcs looked up), so a step is one switch on the
// opcode and then loops over all 32 lanes into a temporary, which the
// compiler vectorises, blended into the destination by the exec mask (value
// instructions have no side effects, so computing idle lanes is harmless).
// Left out: independent thread scheduling (Volta+), warp-synchronous
// reconvergence hints, the timing of anything.
#include "sim/functional/executor.hpp"
#include "sim/functional/executor_step.hpp"

#include "isa/limits.hpp"
#include "sim/functional/fragment.hpp"
#include "sim/functional/semantics.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

// value_lanes is compiled three times, for x86-64-v4 (AVX-512: 16 floats or 8
// doubles per vector instruction), for AVX2 (8 or 4) and for the baseline x86-64
// (SSE2: 4 and 2), and the loader picks the one the CPU runs (GCC's
// target_clones); value_op is forced inline so each copy has its own loops. The
// same IEEE operations in the same order, hence the same bits in every lane: the
// build sets -ffp-contract=off (no fused a*b+c: x86-64-v4 has FMA), and no other
// code path changes (test_functional compares random bit patterns with the
// reference). AVX2: 8-15 % fewer host instructions per FFMA/SFU warp instruction
// (tools/bench_count.sh; valgrind runs the AVX2 copy, it has no AVX-512). Where the CPU has FMA, ffma's
// lanes use it (ffma_fused: one correctly rounded fused operation per lane, the
// value sem::ffma computes in double with its exact path).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define SIMT_LANE_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#define SIMT_HW_FMA 1
#else
#define SIMT_LANE_CLONES
#define SIMT_HW_FMA 0
#endif

namespace simt::func {
namespace {

using isa::Op;
using isa::Operand;
using isa::OperandKind;
using Lanes = std::array<uint32_t, isa::kWarpSize>;
constexpr LaneMask kAllLanes = ~LaneMask(0);

constexpr Lanes make_lane_table(bool bits) {
    Lanes t{};
    for (uint32_t l = 0; l < isa::kWarpSize; ++l) t[l] = bits ? 1u << l : l;
    return t;
}
// Bit l of a mask per lane (masks become vector compares) and lane ids.
alignas(64) constexpr Lanes kLaneBit = make_lane_table(true);
alignas(64) constexpr Lanes kLaneId = make_lane_table(false);

bool lane_on(LaneMask m, uint32_t lane) { return (m >> lane) & 1u; }

LaneMask pred_mask(const Warp& w, uint32_t p, LaneMask flip) {
    return (p < isa::kNumPreds ? w.preds[p] : kAllLanes) ^ flip;
}
void set_pred(Warp& w, uint32_t p, LaneMask result, LaneMask exec) {
    if (p < isa::kNumPreds) w.preds[p] = (w.preds[p] & ~exec) | (result & exec);
}

// d = t in the exec lanes.
inline void commit(const uint32_t* t, uint32_t* d, LaneMask exec) {
    if (exec == kAllLanes) {
        std::memcpy(d, t, sizeof(Lanes));
        return;
    }
    for (uint32_t l = 0; l < isa::kWarpSize; ++l) {
        const uint32_t on = 0u - uint32_t((exec & kLaneBit[l]) != 0);   // a mask, not a branch: vectorises
        d[l] = (t[l] & on) | (d[l] & ~on);
    }
}

// The Kind::Value opcode O over the exec lanes. All 32 lanes are computed
// into t (branch-free loops vectorise); the rare inputs that need a slower
// exact path (ffma on a rounding boundary, sin/cos of large arguments) are
// redone lane by lane. Results equal sem::lane_value<O> in every lane.
template <Op O>
[[gnu::always_inline]] inline void value_op(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d,
                                            LaneMask exec, uint32_t k) {
    Lanes t;
    if constexpr (O == Op::Ffma) {
        uint32_t hard = 0;
        for (uint32_t l = 0; l < isa::kWarpSize; ++l) {
            const double s = sem::ffma_double(sem::f32(a[l]), sem::f32(b[l]), sem::f32(c[l]));
            const float f = float(s);
            t[l] = sem::bits(f);
            hard |= sem::ffma_exact_needed(s, f);
        }
        if (hard) {
            for (uint32_t l = 0; l < isa::kWarpSize; ++l) {
                const float x = sem::f32(a[l]), y = sem::f32(b[l]), z = sem::f32(c[l]);
                const double s = sem::ffma_double(x, y, z);
                if (sem::ffma_exact_needed(s, float(s))) t[l] = sem::bits(sem::ffma_exact(x, y, z));
            }
        }
    } else if constexpr (O == Op::Sin || O == Op::Cos) {
        constexpr bool cosine = O == Op::Cos;
        uint32_t large = 0;
        for (uint32_t l = 0; l < isa::kWarpSize; ++l) {
            const float x = sem::f32(a[l]);
            t[l] = sem::bits(sem::trig_quick(x, cosine));
            large |= !sem::trig_is_quick(x);
        }
        if (large) {
            for (uint32_t l = 0; l < isa::kWarpSize; ++l) {
                const float x = sem::f32(a[l]);
                if (!sem::trig_is_quick(x)) t[l] = sem::bits(sem::trig_large(x, cosine));
            }
        }
    } else {
        for (uint32_t l = 0; l < isa::kWarpSize; ++l) t[l] = sem::lane_value<O>(a[l], b[l], c[l], k);
    }
    commit(t.data(), d, exec);
}

#if SIMT_HW_FMA
// ffma over the exec lanes with the host's fused multiply-add (vfmadd: AVX2 + FMA, 8 lanes per
// instruction): IEEE fusedMultiplyAdd rounds a * b + c once to nearest even, subnormals included
// (the default MXCSR: no flush to zero), which is what sem::ffma computes without FMA hardware;
// a NaN result becomes the canonical NaN as there. Called only where the CPU has both
// (Executor::hw_fma_); bit for bit the same as value_op<Op::Ffma> (test_fpmath.cpp compares
// sem::ffma with the host's fma, test_functional.cpp these lanes with the reference).
__attribute__((target("avx2,fma"))) void ffma_fused(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                                                    uint32_t* d, LaneMask exec) {
    alignas(32) Lanes t;
    for (uint32_t l = 0; l < isa::kWarpSize; ++l) {
        const float f = __builtin_fmaf(sem::f32(a[l]), sem::f32(b[l]), sem::f32(c[l]));
        const uint32_t m = 0u - uint32_t(f == f);
        t[l] = (sem::bits(f) & m) | (sem::kCanonicalNaN & ~m);
    }
    commit(t.data(), d, exec);
}
#endif

// The mask of lanes where a CMP b holds (all 32 lanes).
template <Op O, isa::Cmp C>
LaneMask compare_op(const uint32_t* a, const uint32_t* b) {
    LaneMask r = 0;
    for (uint32_t l = 0; l < isa::kWarpSize; ++l) r |= kLaneBit[l] & (0u - uint32_t(sem::compare(O, C, a[l], b[l])));
    return r;
}

template <Op O>
LaneMask compare_cmp(isa::Cmp cmp, const uint32_t* a, const uint32_t* b) {
    using C = isa::Cmp;
    switch (cmp) {
    case C::Lt: return compare_op<O, C::Lt>(a, b);
    case C::Le: return compare_op<O, C::Le>(a, b);
    case C::Gt: return compare_op<O, C::Gt>(a, b);
    case C::Ge: return compare_op<O, C::Ge>(a, b);
    case C::Eq: return compare_op<O, C::Eq>(a, b);
    case C::Ne: return compare_op<O, C::Ne>(a, b);
    default: return 0;
    }
}

LaneMask compare_lanes(Op op, isa::Cmp cmp, const uint32_t* a, const uint32_t* b) {
    if (op == Op::Fchk) {
        LaneMask m = 0;
        for (uint32_t l = 0; l < isa::kWarpSize; ++l) m |= LaneMask(sem::fchk(a[l], b[l])) << l;
        return m;
    }
    if (op == Op::Isetp) return compare_cmp<Op::Isetp>(cmp, a, b);
    if (op == Op::Usetp) return compare_cmp<Op::Usetp>(cmp, a, b);
    return compare_cmp<Op::Fsetp>(cmp, a, b);
}

}  // namespace

// ---------------------------------------------------------------- Block

bool Block::barrier_ready() const {
    for (const Warp& w : warps)
        if (!w.done() && !w.at_barrier) return false;
    return true;
}

void Block::release_barrier() {
    for (Warp& w : warps) w.at_barrier = false;
}

bool Block::done() const {
    for (const Warp& w : warps)
        if (!w.done()) return false;
    return true;
}

// ---------------------------------------------------------------- Executor

Executor::Executor(const isa::Program& program, GlobalMemory& memory, ExecLimits limits)
    : program_(program), memory_(memory), limits_(limits), reconv_(program),
      num_regs_(sem::registers_needed(program)), ntid_(launch_ntid(program.launch)),
      nctaid_(launch_nctaid(program.launch)) {
#if SIMT_HW_FMA
    hw_fma_ = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    check_launch_fits_budget();
    decode();
}

// Every warp of a launch executes at least one instruction, so a launch of
// more warps than the budget could never finish: say so before running.
void Executor::check_launch_fits_budget() const {
    const uint64_t per_block = std::max<uint32_t>(1, program_.warps_per_block());
    const uint64_t blocks = program_.num_blocks();
    if (blocks <= limits_.max_warp_instructions / per_block) return;
    throw Error(program_.launch.loc,
                "the launch has " + std::to_string(blocks) + " blocks of " + std::to_string(per_block) +
                    " warps, more warps than the instruction budget of " +
                    std::to_string(limits_.max_warp_instructions) +
                    " warp instructions can run (max_warp_instructions in the config, or --max-instructions)");
}

// Value operand i of `in` (0 when absent).
Executor::Src Executor::decode_src(const isa::Instruction& in, uint32_t i) {
    auto constant = [&](uint32_t v) {
        Lanes l;
        l.fill(v);
        consts_.push_back(l);
        return Src{SrcKind::Const, uint32_t(consts_.size() - 1)};
    };
    if (i >= in.nops) return constant(0);
    const Operand& o = in.ops[i];
    switch (o.kind) {
    case OperandKind::Reg:
        if (o.fabs || o.fneg)
            return Src{SrcKind::RegMod, o.value * isa::kWarpSize, o.fabs ? 0x80000000u : 0, o.fneg ? 0x80000000u : 0};
        return Src{SrcKind::Reg, o.value * isa::kWarpSize};
    case OperandKind::Imm: return constant(o.value);
    case OperandKind::Uniform: return constant(sem::modified(o, program_.uniforms[o.value].bits));
    case OperandKind::UReg:
        return Src{SrcKind::UReg, o.value, o.fabs ? 0x80000000u : 0, o.fneg ? 0x80000000u : 0};
    case OperandKind::Special: break;
    default: return constant(0);
    }
    using S = isa::Special;
    switch (S(o.value)) {
    case S::LaneId: return Src{SrcKind::LaneId, 0};
    case S::TidX: case S::TidY: case S::TidZ: case S::PixelX: case S::PixelY:
        return Src{SrcKind::WarpArray, o.value};
    case S::NtidX: return constant(ntid_.x);
    case S::NtidY: return constant(ntid_.y);
    case S::NtidZ: return constant(ntid_.z);
    case S::NctaidX: return constant(nctaid_.x);
    case S::NctaidY: return constant(nctaid_.y);
    case S::NctaidZ: return constant(nctaid_.z);
    default: return Src{SrcKind::Fill, o.value};   // %warpid, %ctaid.*, %clock, %smid
    }
}

void Executor::decode() {
    const std::vector<isa::Instruction>& code = program_.code;
    decoded_.resize(code.size());
    for (uint32_t pc = 0; pc < code.size(); ++pc) {
        const isa::Instruction& in = code[pc];
        Decoded& d = decoded_[pc];
        d.kind = uint8_t(sem::kind_of(in.op));
        d.op = in.op;
        d.cmp = in.cmp;
        if (in.guard >= 0) {
            d.guard = uint8_t(in.guard);
            d.guard_xor = in.guard_negate ? kAllLanes : 0;
        }
        const sem::Kind kind = sem::kind_of(in.op);
        const bool writes_pred = kind == sem::Kind::Compare || kind == sem::Kind::PredLogic ||
                                 in.op == Op::VoteAny || in.op == Op::VoteAll;
        if (in.nops > 0 && (in.ops[0].kind == OperandKind::Reg || in.ops[0].kind == OperandKind::Pred))
            d.dst = writes_pred ? in.ops[0].value : in.ops[0].value * isa::kWarpSize;
        if (kind == sem::Kind::Value || kind == sem::Kind::Select || kind == sem::Kind::Compare ||
            kind == sem::Kind::Shuffle || kind == sem::Kind::Wide || kind == sem::Kind::Uniform) {
            for (uint32_t i = 0; i < 3; ++i) d.src[i] = decode_src(in, i + 1);
        }
        d.k = sem::imm_operand(in);
        // Predicate sources: sel's q is operand 3; p-logic and vote read operands 1 (and 2).
        const uint32_t first_q = kind == sem::Kind::Select ? 3 : 1;
        for (uint32_t i = 0; i < 2 && first_q + i < in.nops; ++i) {
            const Operand& o = in.ops[first_q + i];
            if (o.kind != OperandKind::Pred) continue;
            d.q[i] = uint8_t(o.value);
            d.q_xor[i] = o.negate ? kAllLanes : 0;
        }
        switch (kind) {
        case sem::Kind::Branch:
            d.target = in.ops[0].value;
            d.rpc = reconv_.reconvergence_pc(pc);
            break;
        case sem::Kind::Ret:
            d.target = reconv_.exit_pc(reconv_.function_of(pc));
            d.rpc = reconv_.reconvergence_pc(pc);
            break;
        case sem::Kind::Call:
            d.target = in.ops[0].value;
            d.rpc = d.target < reconv_.entry_of.size() ? reconv_.exit_pc(reconv_.function_at(d.target)) : kNoRpc;
            break;
        default: break;
        }
    }
}

std::unique_ptr<Block> Executor::make_block(uint64_t block_index) const {
    const isa::LaunchDecl& launch = program_.launch;
    const bool fragment = launch.mode == isa::LaunchDecl::Mode::Fragment;
    auto block = std::make_unique<Block>();
    block->index = block_index;
    block->ctaid = fragment ? isa::Dim3{uint32_t(block_index), 0, 0} : unflatten(block_index, launch.grid);
    block->shared.assign(program_.shared_bytes, 0);
    const uint32_t threads = launch_threads_per_block(launch);  // (local memory: at its first access, window())
    const uint32_t nwarps = (threads + isa::kWarpSize - 1) / isa::kWarpSize;
    block->warps.resize(nwarps);
    for (uint32_t wi = 0; wi < nwarps; ++wi) {
        Warp& w = block->warps[wi];
        w.block = block_index;
        w.warp_in_block = wi;
        w.global_id = block_index * nwarps + wi;
        w.regs.assign(size_t(num_regs_) * isa::kWarpSize, 0);
        for (uint32_t lane = 0; lane < isa::kWarpSize; ++lane) {
            if (fragment) {
                const LanePixel px = fragment_pixel(launch, block_index, lane);
                w.tid_x[lane] = lane;
                w.pixel_x[lane] = px.x;
                w.pixel_y[lane] = px.y;
                if (px.inside) w.launched |= 1u << lane;
            } else {
                const uint32_t t = wi * isa::kWarpSize + lane;
                const isa::Dim3 tid = unflatten(t, launch.block);
                w.tid_x[lane] = tid.x;
                w.tid_y[lane] = tid.y;
                w.tid_z[lane] = tid.z;
                if (t < threads) w.launched |= 1u << lane;
            }
        }
        w.live = w.launched;
        w.stack.reserve(16);
        if (w.launched) w.stack.push_back(SimtEntry{0, kNoRpc, w.launched});
        settle(w);
    }
    return block;
}

bool Warp::switch_path() {
    const size_t n = stack.size();
    if (n < 2) return false;
    SimtEntry& top = stack[n - 1];
    SimtEntry& other = stack[n - 2];
    if (top.side != 2 || other.side != 1 || other.mask == 0 || other.pc == other.rpc) return false;
    std::swap(top.pc, other.pc);
    std::swap(top.mask, other.mask);
    return true;
}

// Lanes leave the warp: out of `live` and out of every SIMT-stack entry.
void Executor::exit_lanes(Warp& w, LaneMask lanes) const {
    w.live &= ~lanes;
    for (SimtEntry& e : w.stack) e.mask &= ~lanes;
}

// Pops finished entries (empty, or pc at the reconvergence point) and retires
// lanes that reached the kernel's exit, until the top entry has work to do.
void Executor::settle(Warp& w) const {
    const uint32_t kernel_exit = reconv_.kernel_exit_pc();
    while (!w.stack.empty()) {
        const SimtEntry& top = w.stack.back();
        if (top.mask == 0 || top.pc == top.rpc) { w.stack.pop_back(); continue; }
        if (top.pc == kernel_exit) { exit_lanes(w, top.mask); continue; }
        break;
    }
    if (!w.stack.empty() && w.stack.back().pc > kernel_exit) {
        throw Error(program_.code.empty() ? SourceLoc{} : program_.code.back().loc,
                    "internal: warp reached the exit of a function it was not called into");
    }
}

// The 32 lane values of a decoded value operand: a register, a constant, or `tmp` filled.
inline const uint32_t* Executor::lanes(const Block& b, const Warp& w, const Src& s, Lanes& tmp) const {
    if (s.kind == SrcKind::Reg) return w.regs.data() + s.index;
    if (s.kind == SrcKind::Const) return consts_[s.index].data();
    return special_lanes(b, w, s, tmp);
}

const uint32_t* Executor::special_lanes(const Block& b, const Warp& w, const Src& s, Lanes& tmp) const {
    using S = isa::Special;
    if (s.kind == SrcKind::LaneId) return kLaneId.data();
    if (s.kind == SrcKind::UReg) {
        tmp.fill((w.uregs[s.index] & ~s.clear) ^ s.flip);
        return tmp.data();
    }
    if (s.kind == SrcKind::RegMod) {
        const uint32_t* r = w.regs.data() + s.index;
        for (uint32_t l = 0; l < isa::kWarpSize; ++l) tmp[l] = (r[l] & ~s.clear) ^ s.flip;
        return tmp.data();
    }
    switch (S(s.index)) {
    case S::TidX: return w.tid_x.data();
    case S::TidY: return w.tid_y.data();
    case S::TidZ: return w.tid_z.data();
    case S::PixelX: return w.pixel_x.data();
    case S::PixelY: return w.pixel_y.data();
    case S::WarpId: tmp.fill(w.warp_in_block); break;
    case S::CtaidX: tmp.fill(b.ctaid.x); break;
    case S::CtaidY: tmp.fill(b.ctaid.y); break;
    case S::CtaidZ: tmp.fill(b.ctaid.z); break;
    case S::Clock: case S::Clock64: tmp.fill(uint32_t(clock_)); break;
    case S::SmId: tmp.fill(smid_); break;
    default: tmp.fill(0); break;   // (decoded as constants)
    }
    return tmp.data();
}

// The 32 lane values of an undecoded value operand (memory, texture, fp64 work).
const uint32_t* Executor::lanes(const Block& b, const Warp& w, const Operand& o, Lanes& tmp) const {
    switch (o.kind) {
    case OperandKind::Reg:
        if (o.fabs || o.fneg) {
            for (uint32_t l = 0; l < isa::kWarpSize; ++l) tmp[l] = sem::modified(o, w.regs[size_t(o.value) * isa::kWarpSize + l]);
            return tmp.data();
        }
        return &w.regs[size_t(o.value) * isa::kWarpSize];
    case OperandKind::Imm: tmp.fill(o.value); return tmp.data();
    case OperandKind::Uniform: tmp.fill(sem::modified(o, program_.uniforms[o.value].bits)); return tmp.data();
    case OperandKind::UReg: tmp.fill(sem::modified(o, w.uregs[o.value])); return tmp.data();
    case OperandKind::Special: break;
    default: tmp.fill(0); return tmp.data();
    }
    using S = isa::Special;
    switch (S(o.value)) {
    case S::LaneId: return kLaneId.data();
    case S::NtidX: tmp.fill(ntid_.x); break;
    case S::NtidY: tmp.fill(ntid_.y); break;
    case S::NtidZ: tmp.fill(ntid_.z); break;
    case S::NctaidX: tmp.fill(nctaid_.x); break;
    case S::NctaidY: tmp.fill(nctaid_.y); break;
    case S::NctaidZ: tmp.fill(nctaid_.z); break;
    default: return special_lanes(b, w, Src{SrcKind::Fill, o.value}, tmp);
    }
    return tmp.data();
}

Error Executor::budget_error(uint32_t pc) const {
    return Error(program_.code[pc].loc, "instruction budget of " + std::to_string(limits_.max_warp_instructions) +
                                            " warp instructions exhausted (infinite loop?)");
}

void Executor::budget_exhausted(uint32_t pc) const { throw budget_error(pc); }

void Executor::call_too_deep(const Warp& w, uint32_t pc) const {
    throw Error(program_.code[pc].loc, "call depth limit: the SIMT stack of warp " + std::to_string(w.warp_in_block) +
                                           " of block " + std::to_string(w.block) + " holds " +
                                           std::to_string(w.stack.size()) + " entries, the limit " +
                                           "(infinite recursion?)");
}

void Executor::divergent_barrier(const Warp& w, uint32_t pc, LaneMask exec) const {
    throw Error(program_.code[pc].loc, "barrier in divergent code: bar reached by lanes " + sem::hex(exec) +
                                           " of the live lanes " + sem::hex(w.live) + " (warp " +
                                           std::to_string(w.warp_in_block) + " of block " +
                                           std::to_string(w.block) + ")");
}

void Executor::step(Block& block, Warp& warp, DynInst& out, const StepEnv& env) { step_inline(block, warp, out, env); }

// bra (and ret, whose target is the function's exit): the executing lanes go
// to the target, the other active lanes to pc + 1.
void Executor::branch(Warp& w, const Decoded& d, uint32_t pc, LaneMask exec, DynInst& out) const {
    const LaneMask not_taken = w.active() & ~exec;
    if (not_taken == 0) { w.stack.back().pc = d.target; return; }
    if (exec == 0) { w.stack.back().pc = pc + 1; return; }
    assert(d.rpc != kNoReconv);
    w.stack.back().pc = d.rpc;
    w.stack.push_back(SimtEntry{pc + 1, d.rpc, not_taken, 1});
    w.stack.push_back(SimtEntry{d.target, d.rpc, exec, 2});
    out.diverged = true;
}

SIMT_LANE_CLONES void Executor::value_lanes(Block& b, Warp& w, const Decoded& d, LaneMask exec) {
    if (exec == 0) return;
    Lanes t0, t1, t2;
    const uint32_t* a = lanes(b, w, d.src[0], t0);
    const uint32_t* x = lanes(b, w, d.src[1], t1);
    const uint32_t* c = lanes(b, w, d.src[2], t2);
    uint32_t* dst = w.regs.data() + d.dst;
#if SIMT_HW_FMA
    if (d.op == Op::Ffma && hw_fma_) return ffma_fused(a, x, c, dst, exec);
#endif
    switch (d.op) {
#define OP(e, m, pipe, lat, sig, space, acc, bytes, doc)                  \
    case Op::e:                                                           \
        if constexpr (sem::kind_of(Op::e) == sem::Kind::Value) value_op<Op::e>(a, x, c, dst, exec, d.k); \
        break;
#include "isa/opcodes.def"
#undef OP
    }
}

void Executor::execute_lanes(Block& b, Warp& w, const Decoded& d, uint32_t pc, LaneMask exec, DynInst& out) {
    const isa::Instruction& in = program_.code[pc];
    Lanes t0, t1;
    switch (sem::Kind(d.kind)) {
    case sem::Kind::Select: {
        if (exec == 0) break;
        const uint32_t* a = lanes(b, w, d.src[0], t0);
        const uint32_t* x = lanes(b, w, d.src[1], t1);
        const LaneMask q = pred_mask(w, d.q[0], d.q_xor[0]);
        Lanes t;
        for (uint32_t l = 0; l < isa::kWarpSize; ++l) t[l] = (q & kLaneBit[l]) ? a[l] : x[l];
        commit(t.data(), w.regs.data() + d.dst, exec);
        break;
    }
    case sem::Kind::Compare: {
        if (exec == 0) break;
        const uint32_t* a = lanes(b, w, d.src[0], t0);
        const uint32_t* x = lanes(b, w, d.src[1], t1);
        set_pred(w, d.dst, compare_lanes(d.op, d.cmp, a, x), exec);
        break;
    }
    case sem::Kind::PredLogic: {
        const LaneMask q1 = pred_mask(w, d.q[0], d.q_xor[0]);
        const LaneMask q2 = in.nops > 2 ? pred_mask(w, d.q[1], d.q_xor[1]) : 0;
        set_pred(w, d.dst, sem::pred_logic(d.op, q1, q2), exec);
        break;
    }
    case sem::Kind::Vote: {
        const LaneMask v = sem::vote(d.op, exec, pred_mask(w, d.q[0], d.q_xor[0]));
        if (d.op == Op::VoteBallot) {
            uint32_t* r = w.regs.data() + d.dst;
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l)) r[l] = v;
        } else {
            set_pred(w, d.dst, v ? kAllLanes : 0, exec);
        }
        break;
    }
    case sem::Kind::Shuffle: {
        const uint32_t* a = lanes(b, w, d.src[0], t0);
        if (a != t0.data()) std::memcpy(t0.data(), a, sizeof t0);   // snapshot: d may be a
        uint32_t* r = w.regs.data() + d.dst;
        if (d.op == Op::ReduxSum) {   // one sum over the executing lanes
            uint32_t sum = 0;
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l)) sum += t0[l];
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l)) r[l] = sum;
            break;
        }
        const uint32_t* x = lanes(b, w, d.src[1], t1);
        for (uint32_t l = 0; l < 32; ++l) {
            if (!lane_on(exec, l)) continue;
            const int src = sem::shuffle_source(d.op, l, x[l]);
            r[l] = (src >= 0 && lane_on(exec, uint32_t(src))) ? t0[size_t(src)] : t0[l];
        }
        break;
    }
    case sem::Kind::Fp64: fp64_lanes(b, w, in, exec); break;
    case sem::Kind::Wide: wide_lanes(b, w, d, in, exec); break;
    case sem::Kind::Uniform: uniform_op(b, w, d, in, exec, out); break;
    case sem::Kind::Sleep: {
        const uint32_t* a = lanes(b, w, in.ops[0], t0);
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l)) out.sleep_ns = std::max(out.sleep_ns, a[l]);
        break;
    }
    case sem::Kind::Load:
    case sem::Kind::Store:
    case sem::Kind::Atomic: memory_lanes(b, w, in, exec, out); break;
    case sem::Kind::Tex: tex_lanes(b, w, in, exec, out); break;
    default: break;   // nop
    }
}

// An fp64 source of lane l: a register pair, a uniform pair or a 64-bit immediate.
uint64_t Executor::fp64_source(const Warp& w, const isa::Operand& o, uint32_t l) const {
    if (o.kind == OperandKind::Imm) return sem::pair(o.value, o.hi);
    if (o.kind == OperandKind::UReg) return sem::pair(w.uregs[o.value], w.uregs[o.value + 1]);
    return sem::pair(w.regs[size_t(o.value) * isa::kWarpSize + l], w.regs[size_t(o.value + 1) * isa::kWarpSize + l]);
}

void Executor::fp64_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec) {
    const auto& ops = in.ops;
    const uint32_t d = ops[0].value;
    auto set_pair = [&](uint32_t l, uint64_t v) {
        w.reg(d, l) = uint32_t(v);
        w.reg(d + 1, l) = uint32_t(v >> 32);
    };
    if (sem::to_pair(in.op)) {
        Lanes t;
        const uint32_t* a = lanes(b, w, ops[1], t);
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l)) set_pair(l, sem::convert_to_pair(in.op, a[l]));
        return;
    }
    if (sem::from_pair_to_word(in.op)) {
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l)) w.reg(d, l) = sem::convert_from_pair(in.op, fp64_source(w, ops[1], l));
        return;
    }
    if (sem::pair_to_pair(in.op)) {
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l)) set_pair(l, sem::convert_pair(in.op, fp64_source(w, ops[1], l)));
        return;
    }
    if (in.op == Op::Dsetp) {
        LaneMask r = 0;
        for (uint32_t l = 0; l < 32; ++l)
            r |= LaneMask(sem::compare64(in.cmp, fp64_source(w, ops[1], l), fp64_source(w, ops[2], l))) << l;
        set_pred(w, d, r, exec);
        return;
    }
    const bool three = in.op == Op::Dfma;
    for (uint32_t l = 0; l < 32; ++l) {
        if (!lane_on(exec, l)) continue;
        set_pair(l, sem::fp64(in.op, fp64_source(w, ops[1], l), fp64_source(w, ops[2], l),
                              three ? fp64_source(w, ops[3], l) : 0));
    }
}

// A 64-bit result from 32-bit sources: imad.wide (c a register pair), cs2r.
void Executor::wide_lanes(Block& b, Warp& w, const Decoded& d, const isa::Instruction& in, LaneMask exec) {
    const uint32_t r = in.ops[0].value;
    Lanes t0, t1;
    std::array<uint64_t, 32> v{};
    if (in.op == Op::Cs2r) {
        const bool clock64 = in.ops[1].kind == OperandKind::Special && in.ops[1].value == uint32_t(isa::Special::Clock64);
        const uint32_t* a = lanes(b, w, d.src[0], t0);
        for (uint32_t l = 0; l < 32; ++l) v[l] = clock64 ? clock_ : a[l];
    } else {
        const uint32_t* a = lanes(b, w, d.src[0], t0);
        const uint32_t* x = lanes(b, w, d.src[1], t1);
        const uint32_t* c = w.regs.data() + d.src[2].index;
        for (uint32_t l = 0; l < 32; ++l) v[l] = sem::mad_wide(in.op, a[l], x[l], sem::pair(c[l], c[l + 32]));
    }
    for (uint32_t l = 0; l < 32; ++l) {
        if (!lane_on(exec, l)) continue;
        w.reg(r, l) = uint32_t(v[l]);
        w.reg(r + 1, l) = uint32_t(v[l] >> 32);
    }
}

// The window one memory operand addresses: its bytes, first valid address and size.
struct Executor::Window {
    uint8_t* data;
    int64_t base;
    uint64_t size;
};

Executor::Window Executor::window(Block& b, isa::Space space, int buffer) {
    switch (space) {
    case isa::Space::Shared: return Window{b.shared.data(), 0, b.shared.size()};
    case isa::Space::Local:  // zero-filled at the block's first local access: a block that never touches it
                             // costs nothing (512 KiB per thread on thousands of blocks, tests/fuzz)
        if (b.local.empty())
            b.local.assign(uint64_t(launch_threads_per_block(program_.launch)) * program_.local_bytes, 0);
        return Window{b.local.data(), 0, program_.local_bytes};
    default:
        return Window{memory_.data(buffer), int64_t(memory_.base(buffer)), program_.buffers[size_t(buffer)].bytes()};
    }
}

sem::Region Executor::region(isa::Space space, int buffer) const {
    switch (space) {
    case isa::Space::Shared: return sem::Region{".shared", 0, program_.shared_bytes};
    case isa::Space::Local: return sem::Region{".local (per thread)", 0, program_.local_bytes};
    default:
        return sem::Region{"buffer '" + program_.buffers[size_t(buffer)].name + "'",
                           int64_t(memory_.base(buffer)), program_.buffers[size_t(buffer)].bytes()};
    }
}

void Executor::memory_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, DynInst& out) {
    const isa::OpInfo& info = isa::info(in.op);
    const bool store = info.access == isa::Access::Store;
    const bool atomic = info.access == isa::Access::Atomic;
    const isa::MemRef& m = in.ops[store ? 0 : atomic ? sem::atom_operands(in.op).mem : 1].mem;
    const uint32_t bytes = info.bytes;
    if (m.flat) {
        flat_memory_lanes(b, w, in, exec, out);
        return;
    }
    const Window win = window(b, info.space, m.buffer);
    const bool local = info.space == isa::Space::Local;
    const uint64_t local_words = (uint64_t(program_.local_bytes) + 3) / 4;
    std::array<uint8_t*, 32> at{};   // each lane's bytes
    if (!local) {
        window_lanes(w, in, m, win, exec, at, out);
        if (info.space != isa::Space::Shared && deferred(b, w, in, exec, at)) return;
        lane_data(b, w, in, exec, at);
        return;
    }
    for (uint32_t l = 0; l < 32; ++l) {
        out.addr[l] = 0;
        if (!lane_on(exec, l)) continue;
        const int64_t addr = win.base + sem::mem_offset(m, m.index_reg >= 0 ? w.reg(uint32_t(m.index_reg), l) : 0);
        if (!sem::access_ok(addr, bytes, win.base, win.size)) sem::access_fault(in, l, addr, bytes, region(info.space, m.buffer));
        at[l] = win.data + (addr - win.base);
        if (local) {
            const uint64_t off = uint64_t(addr);
            at[l] += (uint64_t(w.warp_in_block) * 32 + l) * program_.local_bytes;
            out.addr[l] = kLocalBase + ((w.global_id * local_words + off / 4) * 32 + l) * 4 + off % 4;
        } else {
            out.addr[l] = uint64_t(addr);
        }
    }
    if (info.space != isa::Space::Shared && !local && deferred(b, w, in, exec, at)) return;
    lane_data(b, w, in, exec, at);
}

namespace {

// Does every lane's access (offset = index x scale + offset in the window, address = base + that)
// pass window_lanes' check (sem::access_ok)? Found from the indices' extremes, where the offset is
// least and most (it grows with the index for a scale >= 0, falls for one < 0; exact while
// |offset| < 2^61: no sum wraps), and the addresses' low 32 bits, which hold the alignment (a
// sum's low bits are those of its parts' low bits). The loop vectorises in 32-bit lanes.
[[gnu::always_inline]] inline bool all_in_window(const std::array<uint32_t, 32>& index, int64_t base, int64_t offset,
                                                 int32_t scale, uint64_t size, uint32_t bytes) {
    constexpr int64_t kFar = int64_t(1) << 61;
    if (size < bytes || offset <= -kFar || offset >= kFar) return false;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    uint32_t low = 0;
    const uint32_t start = uint32_t(uint64_t(base)) + uint32_t(uint64_t(offset));
    for (uint32_t l = 0; l < 32; ++l) {
        const int32_t x = int32_t(index[l]);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        low |= start + uint32_t(x) * uint32_t(scale);
    }
    const int64_t first = int64_t(scale >= 0 ? lo : hi) * int64_t(scale) + offset;
    const int64_t last = int64_t(scale >= 0 ? hi : lo) * int64_t(scale) + offset;
    return first >= 0 && uint64_t(last) <= size - bytes && (low & (bytes - 1)) == 0;
}

}  // namespace

// The lanes' addresses of an access in one window (global, shared, const): every lane is
// computed, an off lane's address and bytes then cleared (no branch per lane); a lane out of
// its window faults, the first in lane order, as a loop that stops there would.
// The loop is sem::access_ok on the offset in the window (addr - base, so addr < base is a
// negative offset), in a form the compiler vectorises (lane clones, as value_lanes).
SIMT_LANE_CLONES void Executor::window_lanes(const Warp& w, const isa::Instruction& in, const isa::MemRef& m,
                                             const Window& win, LaneMask exec, std::array<uint8_t*, 32>& at,
                                             DynInst& out) const {
    const uint32_t bytes = isa::info(in.op).bytes;
    // (in locals: the stores below could alias them for the compiler)
    const int64_t base = win.base, offset = m.offset;
    const int32_t scale = m.scale;  // (32 bits: a signed 32 x 32 -> 64 multiply, which AVX2 has)
    const uint64_t size = win.size, align = bytes - 1;
    uint8_t* const data = win.data;
    std::array<uint32_t, 32> index{};
    if (m.index_reg >= 0) std::memcpy(index.data(), &w.regs[uint32_t(m.index_reg) * 32], sizeof index);
    if (exec == kAllLanes && all_in_window(index, base, offset, scale, size, bytes)) {
        for (uint32_t l = 0; l < 32; ++l) {  // (the loops below, every lane on and ok)
            const uint64_t rel = uint64_t(int64_t(int32_t(index[l])) * int64_t(scale) + offset);
            out.addr[l] = uint64_t(base) + rel;
            at[l] = reinterpret_cast<uint8_t*>(reinterpret_cast<uintptr_t>(data) + rel);
        }
        return;
    }
    std::array<uint64_t, 32> addr, rel;
    std::array<uint8_t, 32> ok;
    for (uint32_t l = 0; l < 32; ++l) {
        rel[l] = uint64_t(int64_t(int32_t(index[l])) * int64_t(scale) + offset);  // (sem::mem_offset)
        addr[l] = uint64_t(base) + rel[l];
        ok[l] = int64_t(rel[l]) >= 0 && rel[l] + bytes <= size && (addr[l] & align) == 0;  // (sem::access_ok)
    }
    uint32_t bad = 0;
    for (uint32_t l = 0; l < 32; ++l) bad |= uint32_t(!ok[l]) << l;
    bad &= exec;
    // An off lane's address is 0, its bytes and a bad lane's nullptr (no pointer out of the window,
    // nor off an empty one: the sum is an integer until it is kept).
    for (uint32_t l = 0; l < 32; ++l) {
        const uint64_t on = 0 - uint64_t(exec >> l & 1), good = on & (0 - uint64_t(ok[l]));
        out.addr[l] = addr[l] & on;
        at[l] = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(data) + rel[l]) & good);
    }
    if (bad) {
        const uint32_t l = uint32_t(std::countr_zero(bad));
        const int64_t addr = int64_t(out.addr[l]);
        sem::access_fault(in, l, addr, bytes, region(isa::info(in.op).space, m.buffer));
    }
}

// A global access through a flat address [rN.64 + offset]: each lane finds the
// buffer holding its address (SASS's LDG/STG/RED through a 64-bit pointer).
void Executor::flat_memory_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, DynInst& out) {
    const isa::OpInfo& info = isa::info(in.op);
    const bool store = info.access == isa::Access::Store;
    const isa::MemRef& m = in.ops[store ? 0 : info.access == isa::Access::Atomic ? sem::atom_operands(in.op).mem : 1].mem;
    std::array<uint8_t*, 32> at{};
    for (uint32_t l = 0; l < 32; ++l) {
        out.addr[l] = 0;
        if (!lane_on(exec, l)) continue;
        const uint64_t pair = sem::pair(w.reg(uint32_t(m.index_reg), l), w.reg(uint32_t(m.index_reg) + 1, l));
        const int64_t addr = int64_t(pair + uint64_t(int64_t(m.offset)));
        const int buf = memory_.find(uint64_t(addr), info.bytes);
        if (buf < 0) sem::access_fault(in, l, addr, info.bytes, sem::Region{"any buffer (flat address)", 0, 0});
        const Window win = window(b, isa::Space::Global, buf);
        if (!sem::access_ok(addr, info.bytes, win.base, win.size)) sem::access_fault(in, l, addr, info.bytes, region(info.space, buf));
        at[l] = win.data + (addr - win.base);
        out.addr[l] = uint64_t(addr);
    }
    if (deferred(b, w, in, exec, at)) return;
    lane_data(b, w, in, exec, at);
}

// With StepEnv::defer: records the access for apply() instead of moving its data.
bool Executor::deferred(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec,
                        const std::array<uint8_t*, 32>& at) {
    if (!defer_) return false;
    defer_->push_back(DeferredAccess{&b, &w, uint32_t(&in - program_.code.data()), exec, clock_, smid_, at});
    return true;
}

void Executor::apply(const DeferredAccess& a) {
    const isa::Instruction& in = program_.code[a.pc];
    clock_ = a.clock;
    smid_ = a.smid;
    if (in.op == Op::Uldc) {
        std::memcpy(&a.warp->uregs[in.ops[0].value], a.at[0], 4);
        return;
    }
    if (in.op == Op::Tex) {
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(a.exec, l)) std::memcpy(&a.warp->reg(in.ops[0].value, l), a.at[l], 4);
        return;
    }
    lane_data(*a.block, *a.warp, in, a.exec, a.at);
}

namespace {
// Is lane l's word at lane 0's + 4 l bytes, for every lane? (One pass without a branch per lane.)
bool consecutive_words(const std::array<uint8_t*, 32>& at) {
    uintptr_t off = 0, want = reinterpret_cast<uintptr_t>(at[0]);
    for (uint32_t l = 0; l < 32; ++l) {  // (an induction by addition: the compiler vectorises it)
        off |= reinterpret_cast<uintptr_t>(at[l]) ^ want;
        want += 4;
    }
    return off == 0;
}
}  // namespace

// Loads, stores and atomics of the exec lanes at their bytes `at`.
void Executor::lane_data(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, const std::array<uint8_t*, 32>& at) {
    const isa::OpInfo& info = isa::info(in.op);
    const bool store = info.access == isa::Access::Store;
    const uint32_t bytes = info.bytes;
    const uint32_t words = bytes / 4;
    if (info.access == isa::Access::Load) {
        const uint32_t d = in.ops[0].value;
        if (words == 1) {  // (the common case: one word per lane)
            uint32_t* dst = &w.reg(d, 0);
            if (exec == kAllLanes) {  // (every lane: no test per lane)
                if (consecutive_words(at)) {  // (lane l at lane 0's word + l: one copy)
                    std::memcpy(dst, at[0], sizeof(Lanes));
                    return;
                }
                for (uint32_t l = 0; l < 32; ++l) std::memcpy(dst + l, at[l], 4);
                return;
            }
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l)) std::memcpy(dst + l, at[l], 4);
            return;
        }
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l))
                for (uint32_t k = 0; k < words; ++k) std::memcpy(&w.reg(d + k, l), at[l] + 4 * k, 4);
    } else if (store) {
        if (words == 1) {
            Lanes t;
            const uint32_t* v = lanes(b, w, in.ops[1], t);
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l)) std::memcpy(at[l], &v[l], 4);
        } else {
            const uint32_t s = in.ops[1].value;
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l))
                    for (uint32_t k = 0; k < words; ++k) std::memcpy(at[l] + 4 * k, &w.reg(s + k, l), 4);
        }
    } else {
        atomic_lanes(b, w, in, exec, at);
    }
}

// An atom.* or red.* over the exec lanes, lane by lane in lane order; `at` is
// each lane's word.
void Executor::atomic_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec,
                            const std::array<uint8_t*, 32>& at) {
    const sem::AtomOperands ao = sem::atom_operands(in.op);
    if (isa::info(in.op).bytes == 8) return atomic_lanes64(w, in, exec, at);
    Lanes tb{}, tc;
    const uint32_t* v = ao.b < in.nops ? lanes(b, w, in.ops[ao.b], tb) : tb.data();   // (red.shared.popc.inc: none)
    const uint32_t* c = ao.c < in.nops ? lanes(b, w, in.ops[ao.c], tc) : v;
    const uint32_t d = in.ops[0].value;
    for (uint32_t l = 0; l < 32; ++l) {
        if (!lane_on(exec, l)) continue;
        uint32_t old;
        std::memcpy(&old, at[l], 4);
        const uint32_t next = sem::atomic(in.op, old, v[l], c[l]);
        std::memcpy(at[l], &next, 4);
        if (ao.has_dst) w.reg(d, l) = old;
    }
}

// A 64-bit atom.* or red.* (operands b and c, the destination: register pairs), lane by lane.
void Executor::atomic_lanes64(Warp& w, const isa::Instruction& in, LaneMask exec, const std::array<uint8_t*, 32>& at) {
    const sem::AtomOperands ao = sem::atom_operands(in.op);
    const uint32_t rb = in.ops[ao.b].value, rc = ao.c < in.nops ? in.ops[ao.c].value : rb, d = in.ops[0].value;
    for (uint32_t l = 0; l < 32; ++l) {
        if (!lane_on(exec, l)) continue;
        uint64_t old;
        std::memcpy(&old, at[l], 8);
        const uint64_t next = sem::atomic64(in.op, old, sem::pair(w.reg(rb, l), w.reg(rb + 1, l)),
                                            sem::pair(w.reg(rc, l), w.reg(rc + 1, l)));
        std::memcpy(at[l], &next, 8);
        if (!ao.has_dst) continue;
        w.reg(d, l) = uint32_t(old);
        w.reg(d + 1, l) = uint32_t(old >> 32);
    }
}

// A uniform instruction: once for the warp, when any lane executes it. uldc
// reads one word at its uniform address (every exec lane's address, for the
// constant cache's timing).
void Executor::uniform_op(Block& b, Warp& w, const Decoded& d, const isa::Instruction& in, LaneMask exec, DynInst& out) {
    const uint32_t ud = in.ops[0].value;
    if (in.op == Op::Uldc) {
        const isa::MemRef& m = in.ops[1].mem;
        const Window win = window(b, isa::Space::Const, m.buffer);
        const int64_t addr = win.base + sem::mem_offset(m, 0);
        for (uint32_t l = 0; l < 32; ++l) out.addr[l] = lane_on(exec, l) ? uint64_t(addr) : 0;
        if (exec == 0) return;
        if (!sem::access_ok(addr, 4, win.base, win.size))
            sem::access_fault(in, uint32_t(std::countr_zero(exec)), addr, 4, region(isa::Space::Const, m.buffer));
        std::array<uint8_t*, 32> at{};
        at[0] = win.data + (addr - win.base);
        if (deferred(b, w, in, exec, at)) return;
        std::memcpy(&w.uregs[ud], at[0], 4);
        return;
    }
    if (exec == 0) return;
    Lanes t0, t1, t2;
    const uint32_t a = lanes(b, w, d.src[0], t0)[0], x = lanes(b, w, d.src[1], t1)[0], c = lanes(b, w, d.src[2], t2)[0];
    w.uregs[ud] = sem::value(in.op, a, x, c, d.k);
}

void Executor::tex_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, DynInst& out) {
    const int buffer = int(in.ops[1].value);
    const isa::BufferDecl& decl = program_.buffers[size_t(buffer)];
    if (decl.width == 0 || decl.height == 0)
        throw Error(in.loc, "tex needs a 2D buffer (declared WxH); '" + decl.name + "' is 1D");
    Lanes tu, tv;
    const uint32_t* u = lanes(b, w, in.ops[2], tu);
    const uint32_t* v = lanes(b, w, in.ops[3], tv);
    const Window win = window(b, isa::Space::Global, buffer);
    std::array<uint8_t*, 32> at{};
    for (uint32_t l = 0; l < 32; ++l) {
        out.addr[l] = 0;
        if (!lane_on(exec, l)) continue;
        const int64_t addr = win.base + int64_t(sem::texel_offset(decl.width, decl.height, u[l], v[l]));
        if (!sem::access_ok(addr, 4, win.base, win.size)) sem::access_fault(in, l, addr, 4, region(isa::Space::Global, buffer));
        out.addr[l] = uint64_t(addr);
        at[l] = win.data + (addr - win.base);
    }
    if (deferred(b, w, in, exec, at)) return;
    uint32_t* d = &w.reg(in.ops[0].value, 0);
    for (uint32_t l = 0; l < 32; ++l)
        if (lane_on(exec, l)) std::memcpy(&d[l], at[l], 4);
}

}  // namespace simt::func
