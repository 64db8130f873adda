// fuzz_timeline.cpp: libFuzzer target: simt-viz's timeline CSV reader
// (viz/timeline.hpp, SFML-free). Every outcome must be a Timeline or a
// simt::Error "file:line: error: ...".
#include "viz/timeline.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        (void)simt::viz::parse_timeline("fuzz.csv", std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const simt::Error&) {
    }
    return 0;
}
