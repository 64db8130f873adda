#!/usr/bin/env python3
"""ncu_summary.py: per-kernel warp-state summary of an Nsight Compute raw CSV written by calib/run.sh
(CALIB_WITH_NCU=1): for every profiled launch, the top warp states (cycles per issued instruction,
ncu's smsp__average_warps_issue_stalled_*_per_issue_active), and the grid, block, time, DRAM bytes and
hit rates. With --states OUT it writes the long table label,state,cycles_per_issue that bench/validate reads;
a launch's label is the calibration CSV's kernel name (and variant), by launch order (LABELS below).
With --hits OUT it writes each launch's L1 hit rate (l1tex__t_sector_hit_rate.pct: loads' and stores'
sector look-ups) as rows label,l1_hit_pct,VALUE,%,notes that validate compares beside the warp states.
Usage: ncu_summary.py results/ncu_h200_ext.csv [--top N] [--csv-out OUT] [--states OUT] [--hits OUT]"""
import argparse
import csv

PREFIX = "smsp__average_warps_issue_stalled_"
SUFFIX = "_per_issue_active.ratio"


# Launches of each kernel in the order the CALIB_NCU=1 runs make them (loaded.cu, contention.cu,
# apps.cu): the label of the n-th launch of a kernel.
LABELS = {
    "chase<0>": ["chase_f0.w1", "chase_f0.w16", "chase_f0.w64"],
    "chase<16>": ["chase_f16.w1", "chase_f16.w16", "chase_f16.w64"],
    "chase<64>": ["chase_f64.w1", "chase_f64.w16", "chase_f64.w64"],
    "stream_read": ["stream_read.w8", "stream_read.w64"],
    "strided_write": ["strided_write.stride1", "strided_write.stride8", "strided_write.stride32"],
    "atom_global": ["atom_same", "red_same", "atom_warp", "atom_line", "atom_spread", "red_spread"],
    "hist_global": ["hist_global_uniform", "hist_global_skewed", "hist_global_8bins"],
    "hist_shared": ["hist_shared_uniform", "hist_shared_skewed"],
    "block_reduce": ["block_reduce.b8", "block_reduce.b64"],
    "gather": ["gather_l2", "gather_dram"],
    "scatter": ["scatter_dram", "scatter_l2"],
    "transpose_tiled<0>": ["transpose_tiled"],
    "transpose_tiled<1>": ["transpose_tiled_pad"],
    "recurse": ["recurse.d8", "recurse.d32"],
    # turnover.cu (probe_turnover.sh's ncu run): five launches a mix (a warm one, three timed, the
    # recorded one), alike within 0.01 per state; the last one's row is the one validate keeps.
    "turnover<1>": ["turnover_dep_1w"] * 5 + ["turnover_dep_4w"] * 5 + ["turnover_dep_1w_half"] * 5,
    "turnover<4>": ["turnover_ilp4_1w"] * 5,
}


def launches(path):
    rows = list(csv.reader(open(path)))
    hdr, at = None, 1  # calib/run.sh's files carry a program column before ncu's "ID"; ncu's own do not
    for r in rows:
        if len(r) > 5 and "ID" in r[:2]:
            hdr, at = r, r.index("ID")
            continue
        if hdr is None or len(r) != len(hdr) or not r[at].isdigit():
            continue
        yield dict(zip(hdr, r))


def num(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--csv-out", dest="out")
    ap.add_argument("--states")
    ap.add_argument("--hits")
    a = ap.parse_args()
    out = []
    seen = {}
    long_rows = []
    hits = {}  # label -> L1 hit rate (the last launch of a label, as validate keeps its states)
    for d in launches(a.csv):
        states = {k[len(PREFIX):-len(SUFFIX)]: num(v) for k, v in d.items() if k.startswith(PREFIX) and k.endswith(SUFFIX)}
        top = sorted(((v, k) for k, v in states.items() if k != "selected"), reverse=True)[: a.top]
        name = d["Kernel Name"].split("(")[0].replace("void ", "")
        n = seen.get(name, 0)
        seen[name] = n + 1
        label = LABELS[name][n] if name in LABELS and n < len(LABELS[name]) else name
        long_rows += [(label, k, v) for k, v in sorted(states.items())]
        if d.get("l1tex__t_sector_hit_rate.pct", "") not in ("", "n/a"):
            hits[label] = num(d["l1tex__t_sector_hit_rate.pct"])
        out.append((d[list(d)[0]], name, d["Grid Size"], d["Block Size"], num(d.get("gpu__time_duration.sum", "0")),
                    num(d.get("smsp__average_warp_latency_per_inst_issued.ratio", "0")), states, top))
        print(f"{label:24s} grid {d['Grid Size']:>16s} block {d['Block Size']:>14s} {num(d.get('gpu__time_duration.sum','0'))/1e3:9.1f} us  "
              + "  ".join(f"{k} {v:.2f}" for v, k in top))
    if a.states:
        with open(a.states, "w") as f:
            f.write("label,state,cycles_per_issue\n")
            for label, k, v in long_rows:
                f.write(f"{label},{k},{v:.4f}\n")
    if a.hits:
        with open(a.hits, "w") as f:
            f.write("kernel,parameter,value,unit,notes\n")
            for label, v in hits.items():
                f.write(f"{label},l1_hit_pct,{v:.2f},%,ncu l1tex__t_sector_hit_rate.pct ({a.csv.split('/')[-1]})\n")
    if a.out:
        with open(a.out, "w") as f:
            names = sorted({k for o in out for k in o[6]})
            f.write("program,kernel,grid,block,time_ns,cycles_per_issue," + ",".join(names) + "\n")
            for o in out:
                f.write(f"{o[0]},{o[1]},\"{o[2]}\",\"{o[3]}\",{o[4]},{o[5]}," + ",".join(f"{o[6].get(n,0):.4f}" for n in names) + "\n")


if __name__ == "__main__":
    main()
