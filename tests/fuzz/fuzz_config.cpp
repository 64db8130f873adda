// fuzz_config.cpp: libFuzzer target: the YAML config loader with --set overrides.
//
// The input is YAML text, optionally followed by a line "%%" and then one
// `--set key.path=value` per line. Every outcome must be a GpuConfig or a
// simt::Error (located at the file or the --set); never a crash, a hang
// (yaml-cpp's LoadAll loop), undefined behaviour or runaway memory.
#include "isa/diagnostics.hpp"
#include "sim/config/config.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> sets;
    const size_t split = text.find("\n%%\n");
    if (split != std::string::npos) {
        std::istringstream lines(text.substr(split + 4));
        for (std::string line; std::getline(lines, line) && sets.size() < 16;) sets.push_back(line);
        text.resize(split + 1);
    }
    try {
        (void)simt::load_config_text(text, "fuzz.yaml", sets);
    } catch (const simt::Error&) {
    }
    return 0;
}
