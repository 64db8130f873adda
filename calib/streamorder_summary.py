#!/usr/bin/env python3
"""Per-SM warp spread of calib/kernels/streamorder.cu's output, as calibration rows.

usage: streamorder_summary.py streamorder.csv > calib_h200_streamorder.csv

For each stream (stream_write, stream_read) and warps per SM W: on every SM the latest warp
end over the earliest (ends counted from the SM's first warp start, clock64 being per SM),
median over the SMs recorded: `<kernel>,w<W>_end_max_over_min,<value>,x,<notes>`.
"""
import csv
import statistics
import sys
from collections import defaultdict


def main(path):
    ends = defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f):
            ends[(r["kernel"], int(r["w"]), int(r["sm"]))].append(int(r["t1"]))
    spread = defaultdict(list)
    for (kernel, w, sm), v in ends.items():
        spread[(kernel, w)].append(max(v) / min(v))
    print("kernel,parameter,value,unit,notes")
    for (kernel, w), v in sorted(spread.items()):
        print(f"{kernel},w{w}_end_max_over_min,{statistics.median(v):.4f},x,"
              f"kernel=streamorder {kernel};1 GiB grid-stride floats;{w} warps per SM;"
              f"latest warp end / earliest on one SM;median of {len(v)} SMs")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
