# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The timing model from Python: config={"timing": True} (and
LaunchConfig(timing=True) on @iron.jit) gives the call a modelled NPU
time in counters()["timing"], with the same numbers and errors as C."""
import contextlib

import numpy as np
import pytest

from iron import _iron as I
from test_jit import passthrough   # the binding's own tests' design


def pair(n=8192):
    return [I.Tensor.arange("uint8", 0, n, 1), I.Tensor.zeros("uint8", (n,))]


@contextlib.contextmanager
def device_scope(name):
    I.push_device(name)
    try:
        yield
    finally:
        I.pop_device()


def jit():
    return I.Jit(passthrough, "pt", "in input: uint8[N], out output: uint8[N]",
                 disk_cache=-1)


def test_off_by_default():
    j = jit()
    j.launch(pair())
    assert j.counters()["timing"] is None


def test_timed_call():
    j = jit()
    t = pair()
    with device_scope("npu1"):
        j.launch(t, config={"timing": True, "clock_mhz": 1200})
    np.testing.assert_array_equal(np.asarray(t[1]), np.asarray(t[0]))
    tm = j.counters()["timing"]
    assert tm["cycles"] > 4 * 2048 // 4   # 4 objects of 2 KiB at 4 B/cycle
    assert tm["clock_mhz"] == 1200
    assert tm["seconds"] == pytest.approx(tm["cycles"] / 1.2e9)
    assert tm["unbounded"] is False
    assert "data movement bounds the design" in tm["bottleneck"]
    assert tm["summary"].startswith("modelled NPU time: ")
    (w,) = tm["workers"]
    assert w["busy"] + w["stall_in"] + w["stall_out"] + w["idle"] == tm["cycles"]
    assert w["kernel_time"] in ("counted", "declared", "guess", "none")
    assert len(tm["dma"]) == 2 and all(d["kernel_time"] is None
                                       for d in tm["dma"])
    assert len(tm["endpoints"]) == len(j.counters()["endpoints"])


def test_clock_out_of_range():
    with device_scope("npu1"):
        with pytest.raises(I.InvalidArgumentError,
                           match="700 MHz is outside device 'npu1''s clock "
                                 "range"):
            jit().launch(pair(), config={"timing": True, "clock_mhz": 700})
