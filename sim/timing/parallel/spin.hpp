// spin.hpp: how the parallel run's threads wait for work: spin about a millisecond (a futex wake
// costs tens of microseconds, as long as a cycle's work or a short run ahead), then sleep.
#pragma once

namespace simt::timing::spin {

constexpr int kSpins = 1 << 16;  // pauses before a waiting thread sleeps

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

}  // namespace simt::timing::spin
