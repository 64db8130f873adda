#!/bin/sh
# isa_readme_table.sh: regenerates the instruction reference in isa/README.md from
# isa/opcodes.def (through simt-sim --isa-reference); a test keeps the two equal.
#   scripts/isa_readme_table.sh [path/to/simt-sim]   (default build/simt-sim)
set -e
cd "$(dirname "$0")/.."
sim=${1:-build/simt-sim}
"$sim" --isa-reference > isa/.reference.md
python3 - <<'PY'
import re
readme = open("isa/README.md").read()
table = open("isa/.reference.md").read()
start = readme.index("| instruction | operands | pipe | latency | semantics |")
end = readme.index("\n\n", start) + 1
open("isa/README.md", "w").write(readme[:start] + table + readme[end:])
PY
rm isa/.reference.md
