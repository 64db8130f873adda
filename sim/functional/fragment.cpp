// fragment.cpp: launch geometry (see fragment.hpp). Pure arithmetic, no state.
#include "sim/functional/fragment.hpp"

namespace simt::func {

FragmentLayout fragment_layout(const isa::LaunchDecl& launch) {
    FragmentLayout l;
    if (launch.tile_w == 0 || launch.tile_h == 0) return l;
    l.tiles_x = (launch.width + launch.tile_w - 1) / launch.tile_w;
    l.tiles_y = (launch.height + launch.tile_h - 1) / launch.tile_h;
    return l;
}

LanePixel fragment_pixel(const isa::LaunchDecl& launch, uint64_t warp_index, uint32_t lane) {
    LanePixel p;
    const FragmentLayout l = fragment_layout(launch);
    const uint32_t quads_per_row = launch.tile_w / 2;
    if (l.tiles_x == 0 || quads_per_row == 0 || warp_index >= l.warps()) return p;
    const uint32_t quad = lane / 4, in_quad = lane % 4;
    const uint32_t px = (quad % quads_per_row) * 2 + in_quad % 2;
    const uint32_t py = (quad / quads_per_row) * 2 + in_quad / 2;
    if (px >= launch.tile_w || py >= launch.tile_h) return p;
    const uint64_t tile_x = warp_index % l.tiles_x, tile_y = warp_index / l.tiles_x;
    p.x = uint32_t(tile_x * launch.tile_w + px);
    p.y = uint32_t(tile_y * launch.tile_h + py);
    p.inside = p.x < launch.width && p.y < launch.height;
    return p;
}

isa::Dim3 unflatten(uint64_t index, const isa::Dim3& dims) {
    isa::Dim3 d;
    d.x = uint32_t(index % dims.x);
    d.y = uint32_t(index / dims.x % dims.y);
    d.z = uint32_t(index / (uint64_t(dims.x) * dims.y));
    return d;
}

isa::Dim3 launch_ntid(const isa::LaunchDecl& launch) {
    if (launch.mode == isa::LaunchDecl::Mode::Fragment) return isa::Dim3{isa::kWarpSize, 1, 1};
    return launch.block;
}

isa::Dim3 launch_nctaid(const isa::LaunchDecl& launch) {
    if (launch.mode == isa::LaunchDecl::Mode::Fragment)
        return isa::Dim3{uint32_t(fragment_layout(launch).warps()), 1, 1};
    return launch.grid;
}

uint64_t launch_blocks(const isa::LaunchDecl& launch) {
    if (launch.mode == isa::LaunchDecl::Mode::Fragment) return fragment_layout(launch).warps();
    return launch.grid.count();
}

uint32_t launch_threads_per_block(const isa::LaunchDecl& launch) {
    if (launch.mode == isa::LaunchDecl::Mode::Fragment) return isa::kWarpSize;
    return uint32_t(launch.block.count());
}

}  // namespace simt::func
