#!/usr/bin/python3
"""warp_order.py: the simulator's warp order against the H200's, per warp and per mix.

    tools/warp_order.py                                   # configs/h200.yaml as it is
    tools/warp_order.py --set scheduler.policy=gtb        # another policy (any --set of simt-sim)
    tools/warp_order.py --mix dep_2x1024 --plot order.png # one mix, per warp, as a picture

calib/kernels/warporder.cu ran 16 mixes on the H200 (calib/results/warporder/warporder.csv, and the
six small blocks' mixes in warporder_small_blocks.csv, run on an H100, the same SM: per
warp of SMs 0-3 the clock64 at its start, after each quarter of its 64 iterations, at the end of
its chains and after its last instructions). Each mix's compiled kernel is imported
(calib/sass/wo_MIX.launch.isa) and run on one SM; the issue cycles of its six clock reads
(CS2R SR_CLOCKLO, from --timeline) are the simulator's times. Warps are matched by sub-partition
(the slot each warp takes in block order, % 4), block order and warp index. The error of a mix is
the mean over warps and the five later reads of |simulator - hardware| / the hardware's span (median over the 4 SMs).

Errors: "FILE:LINE: error: ..." or "warp_order.py: error: ..." on stderr and exit status 1.
"""
import argparse
import collections
import csv
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "calib/results/warporder/warporder.csv")
# Later runs of more mixes (the same columns), read after HW where present.
HW_MORE = [os.path.join(ROOT, "calib/results/warporder/warporder_small_blocks.csv")]
TIMES = ("t0", "q1", "q2", "q3", "t1", "tail")


def fail(msg):
    print(f"warp_order.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def hardware():
    """mix -> [per SM: {(sub-partition, rank): [6 times]}]."""
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in [HW] + [p for p in HW_MORE if os.path.exists(p)]:
        with open(path, newline="") as f:
            for line, r in enumerate(csv.DictReader(f), start=2):
                try:
                    by[r["mix"]][int(r["sm"])].append((int(r["block"]), int(r["warp_in_block"]), [int(r[k]) for k in TIMES]))
                except (KeyError, ValueError):
                    fail(f"{path}:{line}: expected mix,sm,block,warp_in_block,hwwarp,{','.join(TIMES)} with integer values")
    out = {}
    for mix, sms in by.items():
        per = []
        for rows in sms.values():
            # The warps take the SM's slots in block order, as the simulator deals them (slot % 4 is the
            # sub-partition): warp w of a block of a multiple of 4 warps is in w % 4; one-warp blocks
            # fill the four in turn.
            groups = collections.defaultdict(list)
            for slot, (b, w, t) in enumerate(sorted(rows, key=lambda r: (r[0], r[1]))):
                groups[slot % 4].append((b, w, t))
            per.append({(sp, i): t for sp, g in groups.items() for i, (_, _, t) in enumerate(sorted(g, key=lambda r: (r[0], r[1])))})
        out[mix] = per
    return out


def simulate(mix, simt_sim, config, sets):
    """{(sub-partition, rank): [6 issue cycles of the clock reads, from the first]}."""
    with tempfile.TemporaryDirectory() as tmp:
        tl, pc = os.path.join(tmp, "t.csv"), os.path.join(tmp, "pc.csv")
        cmd = [simt_sim, config, f"calib/sass/wo_{mix}.launch.isa", "--set", "sm.count=1",
               "--timeline", tl, "--csv", pc]
        for s in sets:
            cmd += ["--set", s]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"simt-sim failed on {mix}: {r.stderr.strip()}")
        with open(pc, newline="") as f:
            clocks = {int(row["pc"]) for row in csv.DictReader(f) if "SR_CLOCKLO" in row["text"]}
        issues, where = collections.defaultdict(list), {}
        with open(tl, newline="") as f:
            for row in csv.DictReader(f):
                w = int(row["warp"])
                where[w] = (int(row["block"]), int(row["sub_partition"]))
                if row["state"] == "selected" and int(row["pc"]) in clocks:
                    issues[w].append(int(row["start"]))
    first = min(v[0] for v in issues.values())
    groups = collections.defaultdict(list)
    for w, (b, sp) in where.items():
        groups[sp].append((b, w))
    return {(sp, i): [t - first for t in sorted(issues[w])][:6] for sp, g in groups.items() for i, (_, w) in enumerate(sorted(g))}


def compare(hw, sim):
    span = statistics.median(max(t[4] for t in s.values()) for s in hw)
    rows, err = [], []
    for k in sorted(sim):
        h = [statistics.median(s[k][j] for s in hw if k in s) for j in range(6)]
        err += [abs(sim[k][j] - h[j]) / span for j in range(1, 6)]
        rows.append((k, h, sim[k]))
    return statistics.mean(err), span, max(t[4] for t in sim.values()), rows


def plot(mix, rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    sub0 = [r for r in rows if r[0][0] == 0]
    for i, (k, h, s) in enumerate(sub0):
        ax.plot([h[0], h[4]], [i - 0.15] * 2, color="#0072B2", lw=4, solid_capstyle="butt", label="H200" if i == 0 else None)
        ax.plot([s[0], s[4]], [i + 0.15] * 2, color="#E69F00", lw=4, solid_capstyle="butt", label="simt-sim" if i == 0 else None)
        ax.plot(h[1:4], [i - 0.15] * 3, "|", color="black", ms=8)
        ax.plot(s[1:4], [i + 0.15] * 3, "|", color="black", ms=8)
    ax.set_yticks(range(len(sub0)), [f"warp {k[1]}" for k, _, _ in sub0])
    ax.invert_yaxis()
    ax.set_xlabel("cycles from the SM's first warp start (ticks: quarters)")
    ax.set_title(f"{mix}: sub-partition 0, its warps oldest first (block, then warp index)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out, metadata={"Software": None})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--config", default="configs/h200.yaml")
    ap.add_argument("--simt-sim", default=os.path.join(ROOT, "build/simt-sim"), help="the simulator (default: build/simt-sim)")
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE, as simt-sim --set (repeatable)")
    ap.add_argument("--mix", action="append", help="only these mixes (repeatable); default: all 16")
    ap.add_argument("--plot", help="PNG of the first mix's warps, hardware beside the simulator")
    ap.add_argument("-v", "--verbose", action="store_true", help="every warp of sub-partition 0")
    a = ap.parse_args()
    if not os.path.exists(a.simt_sim):
        fail(f"{a.simt_sim} not found: build first (README.md) or pass --simt-sim")
    hw = hardware()
    mixes = a.mix or list(hw)
    unknown = [m for m in mixes if m not in hw]
    if unknown:
        fail(f"unknown mix {unknown[0]}; expected one of {', '.join(hw)}")
    errs = []
    for mix in mixes:
        e, span, sim_span, rows = compare(hw[mix], simulate(mix, a.simt_sim, a.config, a.set))
        errs.append(e)
        print(f"{mix:24s} error {100 * e:5.1f} %   kernel on one SM: H200 {span:6.0f}  simt-sim {sim_span:6d} cycles ({100 * (sim_span / span - 1):+.1f} %)")
        if a.verbose:
            for k, h, s in rows:
                if k[0] == 0:
                    print(f"    rank {k[1]:2d}  H200 {' '.join(f'{x:6.0f}' for x in h)}   simt-sim {' '.join(f'{x:6d}' for x in s)}")
        if a.plot and mix == mixes[0]:
            plot(mix, rows, a.plot)
    print(f"mean error {100 * statistics.mean(errs):.1f} % over {len(errs)} mixes")


if __name__ == "__main__":
    main()
