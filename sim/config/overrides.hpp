// overrides.hpp: `--set key.path=value` applied to the YAML tree before validation.
//
// Each override replaces the value of a key the file already has; the value is
// parsed as one YAML scalar and then goes through exactly the same checks as a
// value written in the file. One exception to "existing keys only": a pipe's
// `lanes` and `interval` are two spellings of its rate, so setting either
// replaces whichever of the two the file gives.
//
// Left out: adding keys, replacing a whole section, list values.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

namespace simt::cfg {

// Applies `overrides` ("a.b.c=value") in order to the document `root`.
// Returns, for each key path replaced, the override text that set it last
// ("a.b.c=value"), so that later errors can name the --set. Throws
// simt::Error located at "--set <text>" for a malformed override, a path the
// file does not have, or a value that is not a single scalar.
std::map<std::string, std::string> apply_overrides(YAML::Node& root,
                                                   const std::vector<std::string>& overrides);

}  // namespace simt::cfg
