// texture.hpp: the TEX stage in front of L1TEX and the block-linear texture layout.
//
// Layout: a 2D texture (a .buffer declared WxH of 4-byte texels) is stored in
// tiles: each 128 B line holds tex.line_width x tex.line_height texels, each
// 32 B sector tex.sector_width x (8 / sector_width) of them, lines in row-major
// order over the texture. So a 2x2 quad, or a small 2D neighbourhood, shares a
// sector or a line where the row-major layout would spread it over rows. The
// functional model keeps its row-major addresses; only the timing model's
// sector and line of each texel change (remap()).
// Stage: a texture request occupies the SM's TEX stage for ceil(active quads /
// tex.quads_per_cycle) cycles (a quad = lanes 4k..4k+3 with an active lane),
// then enters the L1TEX tag stage; the next request waits (tex_throttle).
//
// Left out: filtering modes (nearest only in the ISA), mip levels, the texture
// header/sampler caches, texel sizes other than 4 B.
#pragma once

#include "sim/config/config.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace simt::timing {

class TexLayout {
public:
    TexLayout(const GpuConfig::Memory& m)
        : lw_(m.tex.line_width), lh_(m.tex.line_height), sw_(m.tex.sector_width),
          sh_(m.tex.sector_width ? m.sector_bytes / 4 / m.tex.sector_width : 1),
          line_bytes_(m.l1.line_bytes), sector_bytes_(m.sector_bytes) {}

    bool linear() const { return lw_ == 0; }
    // The block-linear address of the texel at `addr` of a width-texel-wide texture at `base`.
    uint64_t remap(uint64_t addr, uint64_t base, uint32_t width) const {
        uint64_t texel = (addr - base) / 4;
        uint64_t x = texel % width, y = texel / width;
        uint64_t lines_x = (width + lw_ - 1) / lw_;
        uint64_t line = (y / lh_) * lines_x + x / lw_;
        uint64_t lx = x % lw_, ly = y % lh_;
        uint64_t sector = (ly / sh_) * (lw_ / sw_) + lx / sw_;
        uint64_t within = ((ly % sh_) * sw_ + lx % sw_) * 4;
        return base + line * line_bytes_ + sector * sector_bytes_ + within;
    }

private:
    uint32_t lw_, lh_, sw_, sh_, line_bytes_, sector_bytes_;
};

// The SM's TEX stage: quads per cycle, one request after another.
struct TexStage {
    uint64_t free_at = 0;
    uint32_t quads_per_cycle = 0;  // 0: unlimited (no stage)
    // Occupies the stage for the request's quads from max(t, free_at); returns the start.
    uint64_t reserve(uint64_t t, uint32_t exec, uint64_t& cycles) {
        cycles = 0;
        if (!quads_per_cycle) return t;
        uint32_t quads = active_quads(exec);
        cycles = std::max(1u, (quads + quads_per_cycle - 1) / quads_per_cycle);
        uint64_t start = std::max(t, free_at);
        free_at = start + cycles;
        return start;
    }
    static uint32_t active_quads(uint32_t exec) {
        uint32_t q = 0;
        for (int i = 0; i < 8; ++i) q += (exec >> (4 * i) & 0xfu) != 0;
        return q;
    }
};

}  // namespace simt::timing
