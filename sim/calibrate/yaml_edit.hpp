// yaml_edit.hpp: rewrites scalar values of a config file in place, keeping its layout.
//
// A config is block-style YAML (configs/*.yaml): `key: value  # comment` lines nested by
// indentation. `set_values` finds each key path's line, replaces the value text and the comment
// (with the setting's provenance), and keeps every other line, comment and blank as it was, so
// a calibrated config reads like the base it came from. The result still goes through the
// config loader's validation before anything is written.
// Leaves out: flow-style maps, multi-line scalars, adding keys the base does not have.
#pragma once

#include "sim/calibrate/direct.hpp"

#include <string>
#include <vector>

namespace simt::calib {

// Returns `text` with each setting applied; throws simt::Error (located at `name`) for a key
// path the text does not hold as a scalar.
std::string set_values(const std::string& text, const std::string& name, const std::vector<Setting>& settings);

// `text` with `header` lines (each prefixed "# ") put before the first line.
std::string prepend_header(const std::string& text, const std::vector<std::string>& header);

}  // namespace simt::calib
