// reference.cpp: the per-thread scalar interpreter (see reference.hpp).
// Deliberately simple and slow: one thread, one instruction at a time.
#include "sim/functional/reference.hpp"

#include "isa/limits.hpp"
#include "sim/functional/fragment.hpp"
#include "sim/functional/semantics.hpp"

#include <cstring>

namespace simt::func {
namespace {

using isa::Op;
using isa::Operand;
using isa::OperandKind;

enum class State : uint8_t { Ready, AtBarrier, AtCollective, Exited };

struct Thread {
    uint32_t pc = 0;
    State state = State::Exited;
    std::vector<uint32_t> calls;   // return pcs
    uint32_t warp = 0, lane = 0;
    isa::Dim3 tid;
    uint32_t px = 0, py = 0;
    uint8_t preds = 0;             // bit p = predicate p
    uint64_t stepped = 0;          // instructions it passed (guarded off included): what %clock reads
    std::array<uint32_t, isa::kNumURegs> uregs{};  // its copy of the warp's uniform registers
};

class BlockRun {
public:
    BlockRun(const isa::Program& p, GlobalMemory& mem, uint64_t block, ReferenceLimits limits, ReferenceResult& r)
        : p_(p), mem_(mem), limits_(limits), r_(r), nregs_(sem::registers_needed(p)) {
        const bool fragment = p.launch.mode == isa::LaunchDecl::Mode::Fragment;
        ctaid_ = fragment ? isa::Dim3{uint32_t(block), 0, 0} : unflatten(block, p.launch.grid);
        ntid_ = launch_ntid(p.launch);
        nctaid_ = launch_nctaid(p.launch);
        const uint32_t n = launch_threads_per_block(p.launch);
        threads_.resize(n);
        regs_.assign(size_t(n) * nregs_, 0);
        shared_.assign(p.shared_bytes, 0);
        local_.assign(size_t(n) * p.local_bytes, 0);
        for (uint32_t t = 0; t < n; ++t) {
            Thread& th = threads_[t];
            th.warp = t / isa::kWarpSize;
            th.lane = t % isa::kWarpSize;
            th.state = State::Ready;
            if (fragment) {
                const LanePixel px = fragment_pixel(p.launch, block, th.lane);
                th.tid = isa::Dim3{th.lane, 0, 0};
                th.px = px.x;
                th.py = px.y;
                if (!px.inside) th.state = State::Exited;
            } else {
                th.tid = unflatten(t, p.launch.block);
            }
        }
    }

    void run() {
        while (true) {
            for (uint32_t t = 0; t < threads_.size(); ++t)
                while (threads_[t].state == State::Ready) step(t);
            if (run_collectives()) continue;
            bool any_live = false;
            for (Thread& th : threads_) {
                if (th.state == State::Exited) continue;
                any_live = true;
                th.state = State::Ready;   // all live threads wait at a barrier: release
            }
            if (!any_live) return;
        }
    }

private:
    uint32_t& reg(uint32_t t, uint32_t r) { return regs_[size_t(t) * nregs_ + r]; }

    bool pred(const Thread& th, uint32_t p, bool negate) const {
        const bool v = p < isa::kNumPreds ? (th.preds >> p) & 1 : true;
        return v != negate;
    }
    bool pred(const Thread& th, const Operand& o) const { return pred(th, o.value, o.negate); }
    void set_pred(Thread& th, uint32_t p, bool v) {
        if (p < isa::kNumPreds) th.preds = uint8_t((th.preds & ~(1u << p)) | (uint32_t(v) << p));
    }
    bool guard(const Thread& th, const isa::Instruction& in) const {
        return in.guard < 0 || pred(th, uint32_t(in.guard), in.guard_negate);
    }

    uint32_t value(uint32_t t, const Operand& o) { return sem::modified(o, plain_value(t, o)); }

    uint32_t plain_value(uint32_t t, const Operand& o) {
        const Thread& th = threads_[t];
        switch (o.kind) {
        case OperandKind::Reg: return reg(t, o.value);
        case OperandKind::Imm: return o.value;
        case OperandKind::Uniform: return p_.uniforms[o.value].bits;
        case OperandKind::UReg: return th.uregs[o.value];
        case OperandKind::Special: break;
        default: return 0;
        }
        using S = isa::Special;
        switch (isa::Special(o.value)) {
        case S::LaneId: return th.lane;
        case S::WarpId: return th.warp;
        case S::TidX: return th.tid.x;
        case S::TidY: return th.tid.y;
        case S::TidZ: return th.tid.z;
        case S::CtaidX: return ctaid_.x;
        case S::CtaidY: return ctaid_.y;
        case S::CtaidZ: return ctaid_.z;
        case S::NtidX: return ntid_.x;
        case S::NtidY: return ntid_.y;
        case S::NtidZ: return ntid_.z;
        case S::NctaidX: return nctaid_.x;
        case S::NctaidY: return nctaid_.y;
        case S::NctaidZ: return nctaid_.z;
        case S::PixelX: return th.px;
        case S::PixelY: return th.py;
        case S::Clock: case S::Clock64: return uint32_t(clock_);
        case S::SmId: return 0;
        }
        return 0;
    }

    void count(uint32_t pc, const isa::Instruction& in) {
        if (r_.thread_instructions >= limits_.max_thread_instructions) {
            throw Error(in.loc, "instruction budget of " + std::to_string(limits_.max_thread_instructions) +
                                    " thread instructions exhausted (infinite loop?)");
        }
        ++r_.thread_instructions;
        ++r_.pc_thread_instructions[pc];
    }

    // Runs one instruction of thread t (which is Ready).
    void step(uint32_t t) {
        Thread& th = threads_[t];
        if (th.pc >= p_.code.size()) { th.state = State::Exited; return; }
        const uint32_t pc = th.pc;
        const isa::Instruction& in = p_.code[pc];
        if (sem::is_collective(in.op)) { th.state = State::AtCollective; return; }
        ++r_.pc_active_lanes[pc];
        th.pc = pc + 1;
        clock_ = th.stepped++;
        if (!guard(th, in)) return;
        count(pc, in);
        const auto& ops = in.ops;
        switch (sem::kind_of(in.op)) {
        case sem::Kind::Value:
            reg(t, ops[0].value) = sem::value(in.op, in.nops > 1 ? value(t, ops[1]) : 0,
                                              in.nops > 2 ? value(t, ops[2]) : 0, in.nops > 3 ? value(t, ops[3]) : 0,
                                              sem::imm_operand(in));
            break;
        case sem::Kind::Select:
            reg(t, ops[0].value) = pred(th, ops[3]) ? value(t, ops[1]) : value(t, ops[2]);
            break;
        case sem::Kind::Compare:
            set_pred(th, ops[0].value, sem::compare(in.op, in.cmp, value(t, ops[1]), value(t, ops[2])));
            break;
        case sem::Kind::PredLogic:
            set_pred(th, ops[0].value,
                     sem::pred_logic(in.op, pred(th, ops[1]), in.nops > 2 ? pred(th, ops[2]) : false) & 1u);
            break;
        case sem::Kind::Fp64: fp64(t, in); break;
        case sem::Kind::Wide: wide(t, in); break;
        case sem::Kind::Uniform: uniform(t, in); break;
        case sem::Kind::Load:
        case sem::Kind::Store:
        case sem::Kind::Atomic: memory(t, in); break;
        case sem::Kind::Tex: tex(t, in); break;
        case sem::Kind::Branch: th.pc = ops[0].value; break;
        case sem::Kind::Call:
            if (th.calls.size() >= isa::kMaxSimtStack)
                throw Error(in.loc, "call depth limit: " + std::to_string(th.calls.size()) +
                                        " nested calls in one thread, the limit (infinite recursion?)");
            th.calls.push_back(pc + 1);
            th.pc = ops[0].value;
            break;
        case sem::Kind::Ret:
            if (th.calls.empty()) { th.state = State::Exited; break; }
            th.pc = th.calls.back();
            th.calls.pop_back();
            break;
        case sem::Kind::Barrier: th.state = State::AtBarrier; break;
        case sem::Kind::Exit: th.state = State::Exited; break;
        default: break;
        }
    }

    uint64_t pair(uint32_t t, uint32_t r) { return sem::pair(reg(t, r), reg(t, r + 1)); }
    void set_pair(uint32_t t, uint32_t r, uint64_t v) {
        reg(t, r) = uint32_t(v);
        reg(t, r + 1) = uint32_t(v >> 32);
    }

    uint64_t fp64_value(uint32_t t, const Operand& o) {
        if (o.kind == OperandKind::UReg) return sem::pair(threads_[t].uregs[o.value], threads_[t].uregs[o.value + 1]);
        return o.kind == OperandKind::Imm ? sem::pair(o.value, o.hi) : pair(t, o.value);
    }

    void fp64(uint32_t t, const isa::Instruction& in) {
        const auto& ops = in.ops;
        if (sem::to_pair(in.op)) return set_pair(t, ops[0].value, sem::convert_to_pair(in.op, value(t, ops[1])));
        if (sem::from_pair_to_word(in.op)) { reg(t, ops[0].value) = sem::convert_from_pair(in.op, fp64_value(t, ops[1])); return; }
        if (sem::pair_to_pair(in.op)) return set_pair(t, ops[0].value, sem::convert_pair(in.op, fp64_value(t, ops[1])));
        switch (in.op) {
        case Op::Dsetp:
            set_pred(threads_[t], ops[0].value, sem::compare64(in.cmp, fp64_value(t, ops[1]), fp64_value(t, ops[2])));
            break;
        default:
            set_pair(t, ops[0].value,
                     sem::fp64(in.op, fp64_value(t, ops[1]), fp64_value(t, ops[2]),
                               in.op == Op::Dfma ? fp64_value(t, ops[3]) : 0));
        }
    }

    // A uniform instruction: each thread keeps its own copy of the warp's uniform
    // registers (in converged code, where the compiler puts them, all agree).
    void uniform(uint32_t t, const isa::Instruction& in) {
        const auto& ops = in.ops;
        uint32_t& ud = threads_[t].uregs[ops[0].value];
        if (in.op == Op::Uldc) {
            const isa::MemRef& m = ops[1].mem;
            const isa::BufferDecl& decl = p_.buffers[size_t(m.buffer)];
            const int64_t base = int64_t(mem_.base(m.buffer));
            const int64_t addr = base + sem::mem_offset(m, 0);
            if (!sem::access_ok(addr, 4, base, decl.bytes()))
                sem::access_fault(in, threads_[t].lane, addr, 4, sem::Region{"buffer '" + decl.name + "'", base, decl.bytes()});
            std::memcpy(&ud, mem_.data(m.buffer) + (addr - base), 4);
            return;
        }
        ud = sem::value(in.op, in.nops > 1 ? value(t, ops[1]) : 0, in.nops > 2 ? value(t, ops[2]) : 0,
                        in.nops > 3 ? value(t, ops[3]) : 0, sem::imm_operand(in));
    }

    // imad.wide, cs2r: a 64-bit result in a pair.
    void wide(uint32_t t, const isa::Instruction& in) {
        const auto& ops = in.ops;
        if (in.op == Op::Cs2r) {
            const bool clock64 = ops[1].kind == OperandKind::Special && ops[1].value == uint32_t(isa::Special::Clock64);
            set_pair(t, ops[0].value, clock64 ? clock_ : value(t, ops[1]));
            return;
        }
        set_pair(t, ops[0].value, sem::mad_wide(in.op, value(t, ops[1]), value(t, ops[2]), pair(t, ops[3].value)));
    }

    // The address a flat operand [rN.64 + offset] names for thread t.
    int64_t flat_address(uint32_t t, const isa::MemRef& m) {
        const uint32_t r = uint32_t(m.index_reg);
        return int64_t(sem::pair(reg(t, r), reg(t, r + 1)) + uint64_t(int64_t(m.offset)));
    }

    void memory(uint32_t t, const isa::Instruction& in) {
        const isa::OpInfo& info = isa::info(in.op);
        const bool store = info.access == isa::Access::Store;
        const sem::AtomOperands ao = sem::atom_operands(in.op);
        const isa::MemRef& m = in.ops[store ? 0 : info.access == isa::Access::Atomic ? ao.mem : 1].mem;
        uint8_t* data = nullptr;
        int64_t base = 0;
        uint64_t size = 0;
        sem::Region region;
        switch (info.space) {
        case isa::Space::Shared:
            data = shared_.data(), size = shared_.size(), region.what = ".shared";
            break;
        case isa::Space::Local:
            data = local_.data() + size_t(t) * p_.local_bytes, size = p_.local_bytes;
            region.what = ".local (per thread)";
            break;
        default: {
            int buffer = m.buffer;
            if (m.flat) {
                buffer = mem_.find(uint64_t(flat_address(t, m)), info.bytes);
                if (buffer < 0)
                    sem::access_fault(in, threads_[t].lane, flat_address(t, m), info.bytes, sem::Region{"any buffer (flat address)", 0, 0});
            }
            data = mem_.data(buffer), base = int64_t(mem_.base(buffer)), size = p_.buffers[size_t(buffer)].bytes();
            region.what = "buffer '" + p_.buffers[size_t(buffer)].name + "'";
            break;
        }
        }
        region.base = base, region.bytes = size;
        const int64_t addr = m.flat ? flat_address(t, m)
                                    : base + sem::mem_offset(m, m.index_reg >= 0 ? reg(t, uint32_t(m.index_reg)) : 0);
        const uint32_t lane = threads_[t].lane;
        if (!sem::access_ok(addr, info.bytes, base, size)) sem::access_fault(in, lane, addr, info.bytes, region);
        uint8_t* at = data + (addr - base);
        const uint32_t words = info.bytes / 4;
        if (info.access == isa::Access::Load) {
            for (uint32_t k = 0; k < words; ++k) std::memcpy(&reg(t, in.ops[0].value + k), at + 4 * k, 4);
        } else if (store) {
            if (words == 1) {
                const uint32_t v = value(t, in.ops[1]);
                std::memcpy(at, &v, 4);
            } else {
                for (uint32_t k = 0; k < words; ++k) std::memcpy(at + 4 * k, &reg(t, in.ops[1].value + k), 4);
            }
        } else if (info.bytes == 8) {
            const uint32_t rb = in.ops[ao.b].value, rc = ao.c < in.nops ? in.ops[ao.c].value : rb;
            uint64_t old;
            std::memcpy(&old, at, 8);
            const uint64_t next = sem::atomic64(in.op, old, sem::pair(reg(t, rb), reg(t, rb + 1)), sem::pair(reg(t, rc), reg(t, rc + 1)));
            std::memcpy(at, &next, 8);
            if (ao.has_dst) reg(t, in.ops[0].value) = uint32_t(old), reg(t, in.ops[0].value + 1) = uint32_t(old >> 32);
        } else {
            const uint32_t b = ao.b < in.nops ? value(t, in.ops[ao.b]) : 0;   // (red.shared.popc.inc: none)
            const uint32_t c = ao.c < in.nops ? value(t, in.ops[ao.c]) : 0;
            uint32_t old;
            std::memcpy(&old, at, 4);
            const uint32_t next = sem::atomic(in.op, old, b, c);
            std::memcpy(at, &next, 4);
            if (ao.has_dst) reg(t, in.ops[0].value) = old;
        }
    }

    void tex(uint32_t t, const isa::Instruction& in) {
        const int buffer = int(in.ops[1].value);
        const isa::BufferDecl& decl = p_.buffers[size_t(buffer)];
        const int64_t base = int64_t(mem_.base(buffer));
        const int64_t addr =
            base + int64_t(sem::texel_offset(decl.width, decl.height, value(t, in.ops[2]), value(t, in.ops[3])));
        if (!sem::access_ok(addr, 4, base, decl.bytes()))
            sem::access_fault(in, threads_[t].lane, addr, 4, sem::Region{"buffer '" + decl.name + "'", base, decl.bytes()});
        std::memcpy(&reg(t, in.ops[0].value), mem_.data(buffer) + (addr - base), 4);
    }

    // In each warp, the threads waiting at the lowest-pc collective execute it
    // together. Returns whether any did.
    bool run_collectives() {
        bool any = false;
        const uint32_t nwarps = uint32_t((threads_.size() + isa::kWarpSize - 1) / isa::kWarpSize);
        for (uint32_t w = 0; w < nwarps; ++w) {
            const uint32_t first = w * isa::kWarpSize;
            const uint32_t last = std::min<uint32_t>(first + isa::kWarpSize, uint32_t(threads_.size()));
            uint32_t pc = UINT32_MAX;
            for (uint32_t t = first; t < last; ++t)
                if (threads_[t].state == State::AtCollective) pc = std::min(pc, threads_[t].pc);
            if (pc == UINT32_MAX) continue;
            collective(first, last, pc);
            any = true;
        }
        return any;
    }

    void collective(uint32_t first, uint32_t last, uint32_t pc) {
        const isa::Instruction& in = p_.code[pc];
        uint32_t exec = 0, q = 0;
        std::array<uint32_t, 32> a{}, b{};
        for (uint32_t t = first; t < last; ++t) {
            Thread& th = threads_[t];
            if (th.state != State::AtCollective || th.pc != pc) continue;
            ++r_.pc_active_lanes[pc];
            th.pc = pc + 1;
            th.state = State::Ready;
            clock_ = th.stepped++;
            if (!guard(th, in)) continue;
            count(pc, in);
            exec |= 1u << th.lane;
            if (sem::kind_of(in.op) == sem::Kind::Vote) {
                q |= uint32_t(pred(th, in.ops[1])) << th.lane;
            } else {
                a[th.lane] = value(t, in.ops[1]);
                b[th.lane] = in.nops > 2 ? value(t, in.ops[2]) : 0;
            }
        }
        for (uint32_t t = first; t < last; ++t) {
            Thread& th = threads_[t];
            const uint32_t l = th.lane;
            if (!((exec >> l) & 1u)) continue;
            switch (in.op) {
            case Op::VoteAny:
            case Op::VoteAll: set_pred(th, in.ops[0].value, sem::vote(in.op, exec, q) != 0); break;
            case Op::VoteBallot: reg(t, in.ops[0].value) = sem::vote(in.op, exec, q); break;
            case Op::ReduxSum: {
                uint32_t sum = 0;
                for (uint32_t k = 0; k < 32; ++k)
                    if ((exec >> k) & 1u) sum += a[k];
                reg(t, in.ops[0].value) = sum;
                break;
            }
            default: {
                const int src = sem::shuffle_source(in.op, l, b[l]);
                reg(t, in.ops[0].value) = (src >= 0 && ((exec >> src) & 1u)) ? a[size_t(src)] : a[l];
            }
            }
        }
    }

    const isa::Program& p_;
    GlobalMemory& mem_;
    ReferenceLimits limits_;
    ReferenceResult& r_;
    uint32_t nregs_;
    isa::Dim3 ctaid_, ntid_, nctaid_;
    std::vector<Thread> threads_;
    std::vector<uint32_t> regs_;
    std::vector<uint8_t> shared_, local_;
    uint64_t clock_ = 0;   // what %clock reads in the current instruction
};

}  // namespace

ReferenceResult run_reference(const isa::Program& program, GlobalMemory& memory, ReferenceLimits limits) {
    ReferenceResult r;
    r.pc_thread_instructions.assign(program.code.size(), 0);
    r.pc_active_lanes.assign(program.code.size(), 0);
    const uint64_t blocks = launch_blocks(program.launch);
    for (uint64_t b = 0; b < blocks; ++b) BlockRun(program, memory, b, limits, r).run();
    return r;
}

}  // namespace simt::func
