#!/usr/bin/env python3
"""bench_python.py -- the Python package's calls timed beside the same C
calls on the same bytes, to state the Python layer's overhead (issue 22).

    python3 bench/bench_python.py [--pairs 1000000] [--len 150]
        [--series 1000000] [--query 256] [--threads 0] [--reps 5]
        [--c-bench PATH] [--only pairs,dtw]

Rows (CPU backend, `--threads` threads, 0 = all cores):
  pairs/ndarray        align_pairs(mode='global') on two (N, L) uint8 arrays
  pairs/list           the same pairs as two lists of bytes objects
  pairs/ndarray+cigar  with cigar=True (N CIGAR str made and freed)
  dtw/float64          dtw() of a query on a contiguous float64 series (read
                       in place)
  dtw/float32          the same series as float32 (converted once a call)
each against bench_pycmp (bench/bench_pycmp.c: wm_align_pairs or wm_dtw on
the same sequences, read from files this script writes, with the context made
before the timing, as the package keeps its own between calls). Both sides:
one untimed run, then --reps timed runs; the median is reported, and the
overhead = Python median - C median. The distances summed on each side must
agree, or the row says so.

Pairs: random A/C/G/T queries of --len bases and targets that are copies
with 5% of the bases substituted (seed 1). Series: a random walk (seed 2),
the query a noisy copy of a stretch of it.

The C program: --c-bench PATH, else it is compiled here with cc and
`pkg-config --cflags --libs warpmatch` (WARPMATCH_PREFIX as for the
package's setup.py), so that both sides run the same installed library; else
build/bench/bench_pycmp of the CMake build (bench/CMakeLists.txt builds every
bench/*.c).
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import warpmatch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pkg_config_flags():
    """cc flags of the installed library, or None when it is not found."""
    env = dict(os.environ)
    prefix = os.environ.get("WARPMATCH_PREFIX")
    if prefix:
        dirs = [os.path.join(prefix, d, "pkgconfig") for d in ("lib", "lib64", "share")]
        dirs += [os.path.join(prefix, "lib", m, "pkgconfig") for m in ("x86_64-linux-gnu",
                                                                       "aarch64-linux-gnu")]
        env["PKG_CONFIG_PATH"] = os.pathsep.join(dirs + [env.get("PKG_CONFIG_PATH", "")])
    try:
        out = subprocess.run(["pkg-config", "--cflags", "--libs", "warpmatch"], env=env,
                             capture_output=True, text=True, check=True).stdout
        return shlex.split(out)
    except (OSError, subprocess.CalledProcessError):
        if not prefix:
            return None
        return ["-I" + os.path.join(prefix, "include"), "-L" + os.path.join(prefix, "lib"),
                "-lwarpmatch", "-lz", "-lpthread", "-lm"]


def c_bench(path, tmp):
    """The C program: --c-bench, else compiled here against the installed
    library (the one the package links), else the CMake build's."""
    if path:
        return path
    flags = pkg_config_flags()
    if flags is not None:
        rpath = ["-Wl,-rpath," + os.path.normpath(f[2:]) for f in flags if f.startswith("-L")]
        exe = os.path.join(tmp, "bench_pycmp")
        cmd = ["cc", "-O2", "-std=c11", os.path.join(ROOT, "bench", "bench_pycmp.c"), "-o", exe]
        subprocess.run(cmd + flags + rpath, check=True)
        return exe
    for built in (os.path.join(ROOT, "build", "bench", "bench_pycmp"),
                  os.path.join(ROOT, "build", "bench_pycmp")):
        if os.path.exists(built):
            return built
    sys.exit("bench_python: no C program: pkg-config does not know warpmatch (set "
             "WARPMATCH_PREFIX), build/bench/bench_pycmp does not exist; or pass --c-bench")


def run_c(exe, args):
    out = subprocess.run([exe] + args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("bench_python: %s failed: %s" % (exe, out.stderr.strip()))
    words = out.stdout.split()
    vals = dict(zip(words[0::2], words[1::2]))
    return float(vals["median_s"]), float(vals["checksum"])


def time_py(call, reps):
    result = call()  # untimed: warms the package's cached context
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def make_pairs(n, length):
    rng = np.random.default_rng(1)
    acgt = np.frombuffer(b"ACGT", np.uint8)
    q = rng.choice(acgt, size=(n, length))
    t = q.copy()
    hit = rng.random(size=t.shape) < 0.05
    t[hit] = rng.choice(acgt, size=int(hit.sum()))
    return q, t


def write_lines(path, rows):
    with_nl = np.concatenate([rows, np.full((rows.shape[0], 1), ord("\n"), np.uint8)], axis=1)
    with_nl.tofile(path)


def report(name, py_s, c_s, items, same):
    over = py_s - c_s
    print("%-20s %10.4f %10.4f %+10.4f %+8.1f%% %12.0f  %s"
          % (name, py_s, c_s, over, 100 * over / c_s if c_s > 0 else float("nan"),
             items / py_s, "same distances" if same else "DISTANCES DIFFER"))
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--len", type=int, default=150)
    ap.add_argument("--series", type=int, default=1_000_000)
    ap.add_argument("--query", type=int, default=256)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--c-bench", default=None)
    ap.add_argument("--only", default="pairs,dtw")
    a = ap.parse_args()
    only = set(a.only.split(","))
    with tempfile.TemporaryDirectory(prefix="wm_benchpy.") as tmp:
        exe = c_bench(a.c_bench, tmp)
        print("warpmatch %s (library %s), %s; CPU backend, threads=%d (0 = all %d cores), "
              "%d reps, medians in seconds" % (warpmatch.__version__, warpmatch.library_version(),
                                               exe, a.threads, os.cpu_count(), a.reps))
        print("%-20s %10s %10s %10s %9s %12s" % ("row", "python_s", "c_s", "overhead_s",
                                                  "overhead", "items/s(py)"))
        common = ["--threads", str(a.threads), "--reps", str(a.reps)]
        if "pairs" in only:
            q, t = make_pairs(a.pairs, a.len)
            qf, tf = os.path.join(tmp, "q.txt"), os.path.join(tmp, "t.txt")
            write_lines(qf, q)
            write_lines(tf, t)
            kw = dict(mode="global", backend="cpu", threads=a.threads)
            c_s, c_sum = run_c(exe, ["pairs", qf, tf, "--mode", "global"] + common)
            py_s, res = time_py(lambda: warpmatch.align_pairs(q, t, **kw), a.reps)
            report("pairs/ndarray", py_s, c_s, a.pairs, res["distance"].sum() == c_sum)
            ql, tl = [r.tobytes() for r in q], [r.tobytes() for r in t]
            py_s, res = time_py(lambda: warpmatch.align_pairs(ql, tl, **kw), a.reps)
            report("pairs/list", py_s, c_s, a.pairs, res["distance"].sum() == c_sum)
            del ql, tl
            c_s, c_sum = run_c(exe, ["pairs", qf, tf, "--mode", "global", "--cigar"] + common)
            py_s, res = time_py(lambda: warpmatch.align_pairs(q, t, cigar=True, **kw), a.reps)
            report("pairs/ndarray+cigar", py_s, c_s, a.pairs, res[0]["distance"].sum() == c_sum)
        if "dtw" in only:
            rng = np.random.default_rng(2)
            series = np.cumsum(rng.normal(size=a.series))
            at = a.series // 3
            query = series[at:at + a.query] + rng.normal(scale=0.05, size=a.query)
            sf, qf = os.path.join(tmp, "series.f64"), os.path.join(tmp, "query.f64")
            series.tofile(sf)
            query.tofile(qf)
            c_s, c_sum = run_c(exe, ["dtw", qf, sf] + common)
            kw = dict(backend="cpu", threads=a.threads)
            py_s, res = time_py(lambda: warpmatch.dtw(query, series, **kw), a.reps)
            report("dtw/float64", py_s, c_s, a.series, res["distance"][0] == c_sum)
            s32 = series.astype(np.float32)
            c32 = os.path.join(tmp, "series32.f64")
            s32.astype(np.float64).tofile(c32)
            c_s, c_sum = run_c(exe, ["dtw", qf, c32] + common)
            py_s, res = time_py(lambda: warpmatch.dtw(query, s32, **kw), a.reps)
            report("dtw/float32", py_s, c_s, a.series, res["distance"][0] == c_sum)


if __name__ == "__main__":
    main()
