#!/usr/bin/env python3
"""Writes spmv_rowptr.csv for spmv_powerlaw.isa: the CSR row pointers of the power-law matrix of
calib/kernels/apps.cu spmv_powerlaw (row length min(4096, int(2 / u^0.8)), u from the same
xorshift64* Rng(11) as common.cuh), for the first ROWS rows of the CUDA matrix (default 1/8 of its
2^20 rows: the same distribution, a file under 2 MB). One value per line under the header `value`:
ROWS + 1 values, rowptr[0] = 0. Deterministic. Usage: python3 gen_spmv.py [ROWS] [OUT]."""
import sys

MASK = (1 << 64) - 1


class Rng:
    def __init__(self, seed):
        self.s = seed if seed else 0x9E3779B97F4A7C15

    def next(self):
        s = self.s
        s ^= s >> 12
        s ^= (s << 25) & MASK
        s ^= s >> 27
        self.s = s
        return (s * 2685821657736338717) & MASK


def rowptr(rows):
    r = Rng(11)
    rp = [0]
    for _ in range(rows):
        u = ((r.next() >> 11) + 0.5) / 9007199254740992.0
        n = min(4096, int(2.0 / u ** 0.8))
        rp.append(rp[-1] + n)
    return rp


if __name__ == "__main__":
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 17
    out = sys.argv[2] if len(sys.argv) > 2 else "spmv_rowptr.csv"
    if rows == 0:  # self-check: the full CUDA matrix has nnz = 8720106 (calib_h200_ext.csv)
        print(rowptr(1 << 20)[-1])
        sys.exit(0)
    rp = rowptr(rows)
    with open(out, "w") as f:
        f.write("value\n")
        f.write("\n".join(str(v) for v in rp))
        f.write("\n")
    print(f"{out}: {rows} rows, nnz {rp[-1]}, longest row {max(b - a for a, b in zip(rp, rp[1:]))}")
