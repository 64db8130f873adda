// lsu.cpp: the SM's LSU/MIO front end (see lsu.hpp).
#include "sim/timing/memory/lsu.hpp"

#include <algorithm>
#include <sstream>

namespace simt::timing {

Lsu::Lsu(uint32_t sm, Context& ctx, const SmShare& share)
    : ctx_(ctx),
      ms_(share.stats->memory),
      sectors_(*share.sectors),
      l1_(ctx.cfg, ctx.l1, sm, ctx.l2, share.stats->memory),
      tex_{0, ctx.cfg.memory.tex.quads_per_cycle},
      layout_(ctx.cfg.memory),
      data_wavefronts_(ctx.cfg.memory.l1_data_wavefronts),
      lsu_in_port_(ctx.cfg.memory.lsu_in_port),
      bank_conflicts_(ctx.cfg.memory.l1_data_bank_conflicts) {}

uint64_t Lsu::access(const DecodedInst& d, const func::DynInst& dyn, uint64_t t, uint32_t token) {
    if (lsu_in_port_ && enters_lsu(d)) lsu_in_free_ = std::max(lsu_in_free_, t) + 1;
    if (d.lat == isa::Lat::L1tex || d.lat == isa::Lat::L2) return l1tex(d, dyn, t, token);
    if (d.lat == isa::Lat::Mio) return mio(d, dyn, t);
    return t + 1;
}

uint64_t Lsu::l1tex(const DecodedInst& d, const func::DynInst& dyn, uint64_t t, uint32_t token) {
    MemoryStats& ms = ms_;
    SectorList& s = sectors_;
    const uint32_t sb = ctx_.cfg.memory.sector_bytes;
    if (d.mem == MemKind::Tex) return texture(dyn, t);
    const bool consecutive = coalesce(dyn.exec, dyn.addr, d.bytes, sb, s);
    const uint32_t data = d.mem != MemKind::GlobalAtomic && dyn.exec ? data_stage(d, dyn, t, s, consecutive) : 0;
    switch (d.mem) {
        case MemKind::GlobalLoad: return l1_.load(t, s, ms.global_load, data, d.lat == isa::Lat::L2);
        case MemKind::LocalLoad: return l1_.load(t, s, ms.local_load, data);
        case MemKind::GlobalStore:
            return l1_.store(t, s, partial_sectors(dyn.exec, dyn.addr, d.bytes, sb, s), ms.global_store, false, token);
        case MemKind::LocalStore:
            return l1_.store(t, s, partial_sectors(dyn.exec, dyn.addr, d.bytes, sb, s), ms.local_store, true, token);
        case MemKind::GlobalAtomic:
            group_atomics(dyn.exec, dyn.addr, groups_);
            groups_.float_add = d.op == isa::Op::AtomGlobalAddF32 || d.op == isa::Op::RedGlobalAddF32 ||
                                d.op == isa::Op::AtomGlobalAddF64 || d.op == isa::Op::RedGlobalAddF64;
            groups_.lane_bytes = d.bytes;
            return l1_.atomic(t, s, groups_, ms.global_atomic);
        default: return t + 1;
    }
}

// A global or local load or store also moves its data through the SM's L1TEX data stage, the one
// shared memory's wavefronts take (memory.l1_data_wavefronts, l1pipe.cu: an L1-hit load adds one
// cycle to a 32-way conflicted ld.shared's 32 when they mix). The wavefronts join the stage's backlog;
// the request itself does not wait for them (its own pace is the tag stage's). With
// memory.l1_data_bank_conflicts the data banks conflict as shared memory's do: a request takes a
// wavefront per access to the busiest bank (ho_gemm_naive's A loads, two rows' words 2 KB apart in
// one bank: ncu 1.5 data wavefronts per load with its one-bank B loads; ldgform's and l1pipe's
// one-word-per-bank loads 1, whatever their lines), and a load's
// result then waits for its wavefronts: the return is the busy stage's (the extra latency below).
uint32_t Lsu::data_stage(const DecodedInst& d, const func::DynInst& dyn, uint64_t t, const SectorList& s,
                         bool consecutive) {
    if (!data_wavefronts_) return 0;
    const uint32_t banks =
        bank_conflicts_ ? shared_wavefronts(dyn.exec, dyn.addr, d.bytes, ctx_.cfg.memory.shared_banks, consecutive) : 1;
    const uint32_t wf = data_wavefronts_ * std::max(banks, 1u);
    // a load's missing lines also write the banks when they come (memory.l1_fill_cycles, l1.cpp fills)
    const bool fills = (d.mem == MemKind::GlobalLoad || d.mem == MemKind::LocalLoad) && d.lat != isa::Lat::L2;
    const uint64_t start = mio_.reserve(t, wf + (fills ? l1_.fills(s) : 0));
    return bank_conflicts_ ? uint32_t(start - t) + wf - 1 : 0;
}

// The TEX stage, then the L1TEX path at the texels' block-linear addresses.
uint64_t Lsu::texture(const func::DynInst& dyn, uint64_t t) {
    const auto& mc = ctx_.cfg.memory;
    MemoryStats& ms = ms_;
    uint64_t cycles = 0;
    uint64_t start = tex_.reserve(t, dyn.exec, cycles);
    ms.tex_quads += TexStage::active_quads(dyn.exec);
    ms.tex_stage_cycles += cycles;
    const LaneAddrs* addr = &dyn.addr;
    if (!layout_.linear()) {
        const isa::Instruction& in = ctx_.prog.code[dyn.pc];
        const int buffer = int(in.ops[1].value);
        const uint64_t base = ctx_.mem.base(buffer);
        const uint32_t width = ctx_.prog.buffers[size_t(buffer)].width;
        for (uint32_t m = dyn.exec; m; m &= m - 1) {
            uint32_t lane = uint32_t(std::countr_zero(m));
            remapped_[lane] = layout_.remap(dyn.addr[lane], base, width);
        }
        addr = &remapped_;
    }
    coalesce(dyn.exec, *addr, 4, mc.sector_bytes, sectors_);
    uint32_t extra = mc.tex_latency > mc.l1.hit_latency ? mc.tex_latency - mc.l1.hit_latency : 0;
    return l1_.load(start, sectors_, ms.tex, extra);
}

uint64_t Lsu::shared(const DecodedInst& d, const func::DynInst& dyn, uint64_t t) {
    const auto& mc = ctx_.cfg.memory;
    MemoryStats& ms = ms_;
    if (d.mem == MemKind::SharedLoad) ++ms.shared_load_requests;
    else if (d.mem == MemKind::SharedStore) ++ms.shared_store_requests;
    else ++ms.shared_atomic_requests;
    const uint32_t banks = std::max(1u, shared_wavefronts(dyn.exec, dyn.addr, d.bytes, mc.shared_banks));
    // A 64- or 128-bit access also needs a wavefront per 128 B it returns (memory.shared_return_bytes).
    uint32_t wf = std::max(banks, return_wavefronts(dyn.exec, dyn.addr, d.bytes, mc.shared_return_bytes));
    ms.shared_wavefronts += wf;
    ms.shared_bank_conflicts += banks - 1;
    const uint32_t same = mc.atomics.shared_same_address_cycles;
    // red.shared.popc.inc counts a word's lanes and adds them at once: no chain on the word.
    if (d.mem == MemKind::SharedAtomic && same && d.op != isa::Op::RedSharedPopcInc) {
        uint32_t serial = (max_lanes_per_word(dyn.exec, dyn.addr) - 1) * same;
        ms.shared_atomic_serial += serial;
        wf += serial;
    }
    // The MIO takes one wavefront a cycle; each wavefront after the first adds
    // memory.shared_conflict_latency to the result (the H200: 2, calib/kernels/shbank.cu).
    uint64_t start = mio_.reserve(t, wf);
    return start + mc.shared_latency + uint64_t(wf - 1) * mc.shared_conflict_latency;
}

uint64_t Lsu::mio(const DecodedInst& d, const func::DynInst& dyn, uint64_t t) {
    const auto& mc = ctx_.cfg.memory;
    MemoryStats& ms = ms_;
    switch (d.mem) {
        case MemKind::SharedLoad: case MemKind::SharedStore: case MemKind::SharedAtomic:
            return shared(d, dyn, t);
        case MemKind::Const: {
            ++ms.const_requests;
            uint32_t n = std::max(1u, distinct_addresses(dyn.exec, dyn.addr));
            ms.const_extra_cycles += n - 1;
            uint64_t start = mio_.reserve(t, n);
            return start + mc.const_latency + (n - 1);
        }
        case MemKind::Shuffle: {
            ++ms.shuffle_requests;
            uint64_t start = mio_.reserve(t, 1);
            return start + mc.shared_latency;
        }
        default: return t + 1;
    }
}

std::string Lsu::describe() const {
    std::ostringstream os;
    os << "L1TEX outstanding " << l1_.outstanding() << ", queued " << l1_.queued() << ", tag stage free at "
       << l1_.tag_free() << "; MIO free at "
       << mio_.free_at << "; TEX free at " << tex_.free_at;
    return os.str();
}

}  // namespace simt::timing
