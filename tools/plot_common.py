"""plot_common.py: what tools/plot_*.py share: the colours, located errors, opening a CSV,
importing matplotlib headless and writing a deterministic PNG.
Errors: "FILE:LINE: error: ..." on stderr and exit status 1."""
import csv
import sys

# Colour-blind-safe Okabe-Ito palette, one colour per series in first-seen order.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#B8A000", "#000000"]


def fail(where, msg):
    print(f"{where}: error: {msg}", file=sys.stderr)
    sys.exit(1)


def read_header(path, what, empty):
    """The CSV's header and the (line number, record) of each non-empty row after it.
    `what` names the file in the open error, `empty` says what an empty file should hold."""
    try:
        f = open(path, newline="")
    except OSError as e:
        fail(path, f"cannot open the {what} CSV: {e.strerror}")
    with f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            fail(path, f"the file is empty (expected {empty})")
        return header, [(n, rec) for n, rec in enumerate(reader, start=2) if rec]


def pyplot(script):
    """matplotlib.pyplot on the Agg backend, with fixed hashing (the same CSV, the same bytes)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(script, "needs matplotlib: apt-get install python3-matplotlib (scripts/setup.sh), "
             "and run it with /usr/bin/python3")
    matplotlib.rcParams["svg.hashsalt"] = "simt-sim"
    return plt


def save_png(fig, path):
    fig.tight_layout()
    try:
        fig.savefig(path, metadata={"Software": None})
    except OSError as e:
        fail(path, f"cannot write the PNG: {e.strerror}")
