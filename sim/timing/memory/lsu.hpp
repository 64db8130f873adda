// lsu.hpp: the SM's memory front end: the LSU/MIO path an issued memory
// instruction is handed to.
//
// The way of a request, in one direction: Sm::issue -> Lsu::access ->
//   L1TEX (l1.hpp: tag stage, L1) -> crossbar -> L2 slice -> DRAM (l2.hpp) for
//   global, local and texture instructions (texture first through the TEX
//   stage and the block-linear layout, texture.hpp);
//   MIO (MioStage) for shared memory, constant loads and shuffles.
// It returns the cycle the instruction's result (or, for a store, its ack) is
// ready; the SM puts that on the scoreboard. The gates the schedulers check
// before issue (lg_throttle, tex_throttle, mio_throttle) are accepts() and
// the stages' free times.
//
// The MIO stage is the L1TEX data stage: with memory.l1_data_wavefronts a global or local load or
// store also takes it (for its data), beside its own tag stage.
// Shared memory: wavefronts = the most distinct words in one bank; a shared
// atomic also serialises the lanes on one word (atomics.shared_same_address_cycles
// per extra lane); result at shared_latency + wavefronts - 1.
// Local memory goes through L1TEX like global memory, at the interleaved
// per-lane addresses the functional model gives (DynInst::addr).
//
// With memory.lsu_in_port every shared, global or local instruction (a predicated-off one too) enters
// the LSU through one port a cycle per SM before its unit (l1tex__lsuin_requests: ldgform.cu's L1-hit
// loads run at 1.0 a clock, l1pipe.cu's at 0.47 beside as many predicated-off LDS; calib/results/atomtype/).
//
// Left out: the MIO's instruction queue (shared-memory instructions read their
// registers at issue), shared-memory phases for 8-byte accesses.
#pragma once

#include "sim/timing/context.hpp"
#include "sim/timing/parallel/sm_share.hpp"
#include "sim/timing/memory/l1.hpp"
#include "sim/timing/memory/texture.hpp"

#include <string>

namespace simt::timing {

class Lsu {
public:
    Lsu(uint32_t sm, Context& ctx, const SmShare& share);

    // Times the memory instruction d (its lanes and addresses in dyn) issued at t:
    // the cycle its result is ready (kPendingDone: an L1TEX request in deferred
    // mode, whose completion complete() gives at the end of the cycle).
    // `token` names the issuing warp when a store is held (kHeldDone; memory.stores.wait_in_queue).
    uint64_t access(const DecodedInst& d, const func::DynInst& dyn, uint64_t t, uint32_t token = 0);
    void set_deferred(bool on) { l1_.set_deferred(on); }
    uint64_t complete() { return l1_.complete(); }

    // ---- gates checked before issue (inline: called for every candidate)
    bool l1_accepts(uint64_t t, bool store) { return l1_.accepts(t, store); }
    uint64_t l1_accepts_at(uint64_t t, bool store) const { return l1_.accepts_at(t, store); }
    // Held stores: the cycle the first leaves (~0: none), and sending it then.
    uint64_t next_held() const { return l1_.next_held(); }
    L1Tex::Sent flush_held(uint64_t t) { return l1_.flush(t); }
    uint64_t l1_last_start() const { return l1_.last_start(); }  // the last request's tag-stage start
    uint64_t l1_tag_free() const { return l1_.tag_free(); }      // the end of the last request's tag stage
    uint64_t mio_free_at() const { return mio_.free_at; }
    // The LSU-in port (memory.lsu_in_port): the cycle it takes d's next instruction (t when d does not use it).
    uint64_t lsu_in_free_at(const DecodedInst& d, uint64_t t) const {
        return lsu_in_port_ && enters_lsu(d) && lsu_in_free_ > t ? lsu_in_free_ : t;
    }
    static bool enters_lsu(const DecodedInst& d) {
        return d.mem != MemKind::None && d.mem != MemKind::Tex && d.mem != MemKind::Const && d.mem != MemKind::Shuffle;
    }
    uint64_t tex_free_at() const { return tex_.free_at; }
    std::string describe() const;

private:
    uint64_t l1tex(const DecodedInst& d, const func::DynInst& dyn, uint64_t t, uint32_t token);
    uint64_t texture(const func::DynInst& dyn, uint64_t t);
    uint32_t data_stage(const DecodedInst& d, const func::DynInst& dyn, uint64_t t, const SectorList& s, bool consecutive);
    uint64_t mio(const DecodedInst& d, const func::DynInst& dyn, uint64_t t);
    uint64_t shared(const DecodedInst& d, const func::DynInst& dyn, uint64_t t);

    Context& ctx_;
    MemoryStats& ms_;
    SectorList& sectors_;
    L1Tex l1_;
    MioStage mio_;
    TexStage tex_;
    TexLayout layout_;
    AtomicGroups groups_;
    LaneAddrs remapped_{};
    uint32_t data_wavefronts_;  // memory.l1_data_wavefronts
    bool lsu_in_port_;          // memory.lsu_in_port
    bool bank_conflicts_;       // memory.l1_data_bank_conflicts
    uint64_t lsu_in_free_ = 0;  // the cycle the LSU-in port takes the next instruction
};

}  // namespace simt::timing
