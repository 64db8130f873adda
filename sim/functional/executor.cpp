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
// Left out: independent thread scheduling (Volta+), warp-synchronous
// reconvergence hints, the timing of anything.
#include "sim/functional/executor.hpp"

#include "sim/functional/fragment.hpp"
#include "sim/functional/semantics.hpp"

#include <bit>
#include <cassert>
#include <cstring>

namespace simt::func {
namespace {

using isa::Op;
using isa::Operand;
using isa::OperandKind;
using Lanes = std::array<uint32_t, isa::kWarpSize>;

bool lane_on(LaneMask m, uint32_t lane) { return (m >> lane) & 1u; }

LaneMask pred_mask(const Warp& w, uint32_t p, bool negate) {
    const LaneMask v = p < isa::kNumPreds ? w.preds[p] : ~LaneMask(0);
    return negate ? ~v : v;
}
LaneMask pred_mask(const Warp& w, const Operand& o) { return pred_mask(w, o.value, o.negate); }
LaneMask guard_mask(const Warp& w, const isa::Instruction& in) {
    return in.guard < 0 ? ~LaneMask(0) : pred_mask(w, uint32_t(in.guard), in.guard_negate);
}
void set_pred(Warp& w, uint32_t p, LaneMask result, LaneMask exec) {
    if (p < isa::kNumPreds) w.preds[p] = (w.preds[p] & ~exec) | (result & exec);
}

template <Op O>
void value_lanes(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d, LaneMask exec) {
    for (uint32_t l = 0; l < isa::kWarpSize; ++l)
        if (lane_on(exec, l)) d[l] = sem::value(O, a[l], b[l], c[l]);
}
using ValueLanesFn = void (*)(const uint32_t*, const uint32_t*, const uint32_t*, uint32_t*, LaneMask);
constexpr ValueLanesFn kValueLanes[] = {
#define OP(e, m, pipe, lat, sig, space, acc, bytes, doc) &value_lanes<Op::e>,
#include "isa/opcodes.def"
#undef OP
};

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
      nctaid_(launch_nctaid(program.launch)) {}

std::unique_ptr<Block> Executor::make_block(uint64_t block_index) const {
    const isa::LaunchDecl& launch = program_.launch;
    const bool fragment = launch.mode == isa::LaunchDecl::Mode::Fragment;
    auto block = std::make_unique<Block>();
    block->index = block_index;
    block->ctaid = fragment ? isa::Dim3{uint32_t(block_index), 0, 0} : unflatten(block_index, launch.grid);
    block->shared.assign(program_.shared_bytes, 0);
    const uint32_t threads = launch_threads_per_block(launch);
    block->local.assign(uint64_t(threads) * program_.local_bytes, 0);
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

// The 32 lane values of a value operand: the register itself or `tmp` filled.
const uint32_t* Executor::lanes(const Block& b, const Warp& w, const Operand& o, Lanes& tmp) const {
    switch (o.kind) {
    case OperandKind::Reg: return &w.regs[size_t(o.value) * isa::kWarpSize];
    case OperandKind::Imm: tmp.fill(o.value); return tmp.data();
    case OperandKind::Uniform: tmp.fill(program_.uniforms[o.value].bits); return tmp.data();
    case OperandKind::Special: break;
    default: tmp.fill(0); return tmp.data();
    }
    using S = isa::Special;
    switch (isa::Special(o.value)) {
    case S::LaneId: for (uint32_t l = 0; l < 32; ++l) tmp[l] = l; break;
    case S::WarpId: tmp.fill(w.warp_in_block); break;
    case S::TidX: tmp = w.tid_x; break;
    case S::TidY: tmp = w.tid_y; break;
    case S::TidZ: tmp = w.tid_z; break;
    case S::CtaidX: tmp.fill(b.ctaid.x); break;
    case S::CtaidY: tmp.fill(b.ctaid.y); break;
    case S::CtaidZ: tmp.fill(b.ctaid.z); break;
    case S::NtidX: tmp.fill(ntid_.x); break;
    case S::NtidY: tmp.fill(ntid_.y); break;
    case S::NtidZ: tmp.fill(ntid_.z); break;
    case S::NctaidX: tmp.fill(nctaid_.x); break;
    case S::NctaidY: tmp.fill(nctaid_.y); break;
    case S::NctaidZ: tmp.fill(nctaid_.z); break;
    case S::PixelX: tmp = w.pixel_x; break;
    case S::PixelY: tmp = w.pixel_y; break;
    }
    return tmp.data();
}

void Executor::step(Block& block, Warp& warp, DynInst& out) {
    assert(!warp.done() && !warp.at_barrier);
    const uint32_t pc = warp.next_pc();
    const isa::Instruction& in = program_.code[pc];
    if (executed_ >= limits_.max_warp_instructions) {
        throw Error(in.loc, "instruction budget of " + std::to_string(limits_.max_warp_instructions) +
                                " warp instructions exhausted (infinite loop?)");
    }
    ++executed_;
    const LaneMask active = warp.active();
    const LaneMask exec = active & guard_mask(warp, in);
    out.pc = pc;
    out.active = active;
    out.exec = exec;
    out.diverged = out.barrier = out.warp_exited = false;
    switch (sem::kind_of(in.op)) {
    case sem::Kind::Branch: branch(warp, pc, in.ops[0].value, exec, out); break;
    case sem::Kind::Ret: branch(warp, pc, reconv_.exit_pc(reconv_.function_of(pc)), exec, out); break;
    case sem::Kind::Call: call(warp, pc, in.ops[0].value, exec); break;
    case sem::Kind::Exit:
        warp.stack.back().pc = pc + 1;
        exit_lanes(warp, exec);
        break;
    case sem::Kind::Barrier:
        if (exec != warp.live) {
            throw Error(in.loc, "barrier in divergent code: bar reached by lanes " + sem::hex(exec) +
                                    " of the live lanes " + sem::hex(warp.live) + " (warp " +
                                    std::to_string(warp.warp_in_block) + " of block " +
                                    std::to_string(warp.block) + ")");
        }
        warp.at_barrier = true;
        out.barrier = true;
        warp.stack.back().pc = pc + 1;
        break;
    default:
        execute_lanes(block, warp, in, exec, out);
        warp.stack.back().pc = pc + 1;
        break;
    }
    settle(warp);
    out.warp_exited = warp.done();
}

// bra (and ret, whose target is the function's exit): the executing lanes go
// to `target`, the other active lanes to pc + 1.
void Executor::branch(Warp& w, uint32_t pc, uint32_t target, LaneMask exec, DynInst& out) const {
    const LaneMask not_taken = w.active() & ~exec;
    if (not_taken == 0) { w.stack.back().pc = target; return; }
    if (exec == 0) { w.stack.back().pc = pc + 1; return; }
    const uint32_t rpc = reconv_.reconvergence_pc(pc);
    assert(rpc != kNoReconv);
    w.stack.back().pc = rpc;
    w.stack.push_back(SimtEntry{pc + 1, rpc, not_taken});
    w.stack.push_back(SimtEntry{target, rpc, exec});
    out.diverged = true;
}

void Executor::call(Warp& w, uint32_t pc, uint32_t target, LaneMask exec) const {
    w.stack.back().pc = pc + 1;
    if (exec == 0) return;
    w.stack.push_back(SimtEntry{target, reconv_.exit_pc(reconv_.function_at(target)), exec});
}

void Executor::execute_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, DynInst& out) {
    Lanes t0{}, t1{}, t2{};
    const auto& ops = in.ops;
    switch (sem::kind_of(in.op)) {
    case sem::Kind::Value: {
        const uint32_t* a = in.nops > 1 ? lanes(b, w, ops[1], t0) : t0.data();
        const uint32_t* x = in.nops > 2 ? lanes(b, w, ops[2], t1) : t1.data();
        const uint32_t* c = in.nops > 3 ? lanes(b, w, ops[3], t2) : t2.data();
        kValueLanes[size_t(in.op)](a, x, c, &w.reg(ops[0].value, 0), exec);
        break;
    }
    case sem::Kind::Select: {
        const uint32_t* a = lanes(b, w, ops[1], t0);
        const uint32_t* x = lanes(b, w, ops[2], t1);
        const LaneMask q = pred_mask(w, ops[3]);
        uint32_t* d = &w.reg(ops[0].value, 0);
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l)) d[l] = lane_on(q, l) ? a[l] : x[l];
        break;
    }
    case sem::Kind::Compare: {
        const uint32_t* a = lanes(b, w, ops[1], t0);
        const uint32_t* x = lanes(b, w, ops[2], t1);
        LaneMask r = 0;
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l) && sem::compare(in.op, in.cmp, a[l], x[l])) r |= 1u << l;
        set_pred(w, ops[0].value, r, exec);
        break;
    }
    case sem::Kind::PredLogic: {
        const LaneMask q1 = pred_mask(w, ops[1]);
        const LaneMask q2 = in.nops > 2 ? pred_mask(w, ops[2]) : 0;
        set_pred(w, ops[0].value, sem::pred_logic(in.op, q1, q2), exec);
        break;
    }
    case sem::Kind::Vote: {
        const LaneMask v = sem::vote(in.op, exec, pred_mask(w, ops[1]));
        if (in.op == Op::VoteBallot) {
            uint32_t* d = &w.reg(ops[0].value, 0);
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l)) d[l] = v;
        } else {
            set_pred(w, ops[0].value, v ? ~LaneMask(0) : 0, exec);
        }
        break;
    }
    case sem::Kind::Shuffle: {
        const uint32_t* a = lanes(b, w, ops[1], t0);
        if (a != t0.data()) std::memcpy(t0.data(), a, sizeof t0);   // snapshot: d may be a
        const uint32_t* x = lanes(b, w, ops[2], t1);
        uint32_t* d = &w.reg(ops[0].value, 0);
        for (uint32_t l = 0; l < 32; ++l) {
            if (!lane_on(exec, l)) continue;
            const int src = sem::shuffle_source(in.op, l, x[l]);
            d[l] = (src >= 0 && lane_on(exec, uint32_t(src))) ? t0[size_t(src)] : t0[l];
        }
        break;
    }
    case sem::Kind::Fp64: fp64_lanes(b, w, in, exec); break;
    case sem::Kind::Load:
    case sem::Kind::Store:
    case sem::Kind::Atomic: memory_lanes(b, w, in, exec, out); break;
    case sem::Kind::Tex: tex_lanes(b, w, in, exec, out); break;
    default: break;   // nop
    }
}

void Executor::fp64_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec) {
    const auto& ops = in.ops;
    auto pair_at = [&](uint32_t r, uint32_t l) { return sem::pair(w.reg(r, l), w.reg(r + 1, l)); };
    const uint32_t d = ops[0].value;
    if (in.op == Op::F2d) {
        Lanes t;
        const uint32_t* a = lanes(b, w, ops[1], t);
        for (uint32_t l = 0; l < 32; ++l) {
            if (!lane_on(exec, l)) continue;
            const uint64_t v = sem::f2d(a[l]);
            w.reg(d, l) = uint32_t(v);
            w.reg(d + 1, l) = uint32_t(v >> 32);
        }
        return;
    }
    if (in.op == Op::D2f) {
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l)) w.reg(d, l) = sem::d2f(pair_at(ops[1].value, l));
        return;
    }
    const bool three = in.op == Op::Dfma;
    for (uint32_t l = 0; l < 32; ++l) {
        if (!lane_on(exec, l)) continue;
        const uint64_t v = sem::fp64(in.op, pair_at(ops[1].value, l), pair_at(ops[2].value, l),
                                     three ? pair_at(ops[3].value, l) : 0);
        w.reg(d, l) = uint32_t(v);
        w.reg(d + 1, l) = uint32_t(v >> 32);
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
    case isa::Space::Local: return Window{b.local.data(), 0, program_.local_bytes};
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
    const isa::MemRef& m = in.ops[store ? 0 : 1].mem;
    const uint32_t bytes = info.bytes;
    const Window win = window(b, info.space, m.buffer);
    const bool local = info.space == isa::Space::Local;
    const uint64_t local_words = (uint64_t(program_.local_bytes) + 3) / 4;
    std::array<int64_t, 32> at{};   // address relative to win.data
    for (uint32_t l = 0; l < 32; ++l) {
        out.addr[l] = 0;
        if (!lane_on(exec, l)) continue;
        const int64_t addr = win.base + sem::mem_offset(m, m.index_reg >= 0 ? w.reg(uint32_t(m.index_reg), l) : 0);
        if (!sem::access_ok(addr, bytes, win.base, win.size)) sem::access_fault(in, l, addr, bytes, region(info.space, m.buffer));
        at[l] = addr - win.base;
        if (local) {
            const uint64_t off = uint64_t(addr);
            at[l] += int64_t((uint64_t(w.warp_in_block) * 32 + l) * program_.local_bytes);
            out.addr[l] = kLocalBase + ((w.global_id * local_words + off / 4) * 32 + l) * 4 + off % 4;
        } else {
            out.addr[l] = uint64_t(addr);
        }
    }
    const uint32_t words = bytes / 4;
    if (info.access == isa::Access::Load) {
        const uint32_t d = in.ops[0].value;
        for (uint32_t l = 0; l < 32; ++l)
            if (lane_on(exec, l))
                for (uint32_t k = 0; k < words; ++k) std::memcpy(&w.reg(d + k, l), win.data + at[l] + 4 * k, 4);
    } else if (store) {
        if (words == 1) {
            Lanes t;
            const uint32_t* v = lanes(b, w, in.ops[1], t);
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l)) std::memcpy(win.data + at[l], &v[l], 4);
        } else {
            const uint32_t s = in.ops[1].value;
            for (uint32_t l = 0; l < 32; ++l)
                if (lane_on(exec, l))
                    for (uint32_t k = 0; k < words; ++k) std::memcpy(win.data + at[l] + 4 * k, &w.reg(s + k, l), 4);
        }
    } else {   // atomic, lane by lane in lane order
        Lanes t;
        const uint32_t* v = lanes(b, w, in.ops[2], t);
        const uint32_t d = in.ops[0].value;
        for (uint32_t l = 0; l < 32; ++l) {
            if (!lane_on(exec, l)) continue;
            uint32_t old;
            std::memcpy(&old, win.data + at[l], 4);
            const uint32_t next = sem::atomic(in.op, old, v[l]);
            std::memcpy(win.data + at[l], &next, 4);
            w.reg(d, l) = old;
        }
    }
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
    uint32_t* d = &w.reg(in.ops[0].value, 0);
    for (uint32_t l = 0; l < 32; ++l) {
        out.addr[l] = 0;
        if (!lane_on(exec, l)) continue;
        const int64_t addr = win.base + int64_t(sem::texel_offset(decl.width, decl.height, u[l], v[l]));
        if (!sem::access_ok(addr, 4, win.base, win.size)) sem::access_fault(in, l, addr, 4, region(isa::Space::Global, buffer));
        out.addr[l] = uint64_t(addr);
        std::memcpy(&d[l], win.data + (addr - win.base), 4);
    }
}

}  // namespace simt::func
