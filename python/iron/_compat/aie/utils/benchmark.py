# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.benchmark: timing a callable as upstream's examples do
(run_iters, print_benchmark).  The emulator has no NPU clock: for an
@iron.jit design, `npu` is the time the emulated device took for each run
(the library's counters, host time), and it is printed as such."""
from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass
class Stats:
    avg_us: float
    min_us: float
    max_us: float


@dataclass
class BenchmarkResult:
    e2e: Stats
    npu: Stats | None = None


def run_iters(fn, *args, warmup: int = 0, iters: int = 1, **kwargs) -> BenchmarkResult:
    """Calls fn(*args, **kwargs) warmup + iters times; the last iters are
    timed."""
    if iters < 1:
        raise ValueError(f"run_iters: iters must be >= 1, got {iters}")
    if warmup < 0:
        raise ValueError(f"run_iters: warmup must be >= 0, got {warmup}")
    for _ in range(warmup):
        fn(*args, **kwargs)
    times, device = [], []
    counters = getattr(fn, "counters", None)
    for _ in range(iters):
        t0 = time.perf_counter()
        fn(*args, **kwargs)
        times.append((time.perf_counter() - t0) * 1e6)
        if counters is not None:
            device.append(counters()["wall_ns"] / 1e3)
    return BenchmarkResult(_stats(times), _stats(device) if device else None)


def _stats(us):
    return Stats(sum(us) / len(us), min(us), max(us))


def print_benchmark(result: BenchmarkResult) -> None:
    if result.npu is not None:
        s = result.npu
        print(f"NPU time     (avg/min/max us): {s.avg_us:.1f} / {s.min_us:.1f} / "
              f"{s.max_us:.1f}  (the emulated device, host time)")
    s = result.e2e
    print(f"End-to-end   (avg/min/max us): {s.avg_us:.1f} / {s.min_us:.1f} / "
          f"{s.max_us:.1f}  (emulated: host time)")
