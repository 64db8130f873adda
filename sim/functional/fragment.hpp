// fragment.hpp: launch geometry shared by the SIMT executor and the per-thread
// reference: which thread or pixel each lane of each warp holds.
//
// Compute launches: block i is ctaid = (i % gx, i / gx % gy, i / (gx * gy));
// thread t of a block has tid = (t % bx, t / bx % by, t / (bx * by)) and sits in
// warp t / 32, lane t % 32.
// Fragment launches: one warp per block, one block per tile of tile_w x tile_h
// pixels; warp i covers tile (i % tiles_x, i / tiles_x). Inside a tile, 2x2
// quads are packed row-major and the pixels of a quad occupy 4 consecutive lanes:
//   lane = quad_index * 4 + (qy * 2 + qx),  quad_index = (py / 2) * (tile_w / 2) + px / 2
// where (px, py) is the pixel inside the tile and (qx, qy) = (px % 2, py % 2).
// A lane whose pixel lies outside the W x H image is not launched (no helper
// lanes are modelled: derivatives do not exist in the ISA).
#pragma once

#include "isa/isa.hpp"

#include <cstdint>

namespace simt::func {

struct FragmentLayout {
    uint32_t tiles_x = 0, tiles_y = 0;
    uint64_t warps() const { return uint64_t(tiles_x) * tiles_y; }
};

struct LanePixel {
    uint32_t x = 0, y = 0;   // pixel coordinates in the image
    bool inside = false;     // false: the lane holds no pixel (not launched)
};

FragmentLayout fragment_layout(const isa::LaunchDecl& launch);
LanePixel fragment_pixel(const isa::LaunchDecl& launch, uint64_t warp_index, uint32_t lane);

// Linear index -> (x, y, z) for the given dimensions.
isa::Dim3 unflatten(uint64_t index, const isa::Dim3& dims);

// Launch-wide values of %ntid and %nctaid (fragment: ntid = (32,1,1),
// nctaid = (warps,1,1)).
isa::Dim3 launch_ntid(const isa::LaunchDecl& launch);
isa::Dim3 launch_nctaid(const isa::LaunchDecl& launch);
uint64_t launch_blocks(const isa::LaunchDecl& launch);
uint32_t launch_threads_per_block(const isa::LaunchDecl& launch);

}  // namespace simt::func
