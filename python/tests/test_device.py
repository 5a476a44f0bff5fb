# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The device functions of iron._iron (python/src/device.c): the list,
each device's resources, the default device and the per-thread scopes,
with every error they promise."""
import os
import subprocess
import sys
import threading

import pytest

from iron import _iron

TILE_KEYS = {"memory_bytes", "stack_bytes", "locks", "buffer_descriptors",
             "dma_in", "dma_out"}


@pytest.fixture
def default_restored():
    """Leaves the process default as it found it."""
    before = _iron.default_device()
    yield
    _iron.set_default_device(None)
    if before != _iron.default_device():
        _iron.set_default_device(before)


def test_device_names_are_the_library_s():
    names = _iron.device_names()
    assert names[0] == "npu1", names
    assert {"npu1", "npu1_1col", "npu1_3col", "npu2", "npu2_1col",
            "npu2_7col"} <= set(names), names
    assert len(names) == len(set(names)), names


def test_device_info_of_every_device():
    for name in _iron.device_names():
        info = _iron.device_info(name)
        assert info["name"] == name
        assert set(info) == {"name", "arch", "family", "driver", "columns",
                             "rows", "compute_rows", "compute_tiles",
                             "lock_max_value", "compute", "memtile", "shim"}
        assert info["family"] == name.split("_")[0], info
        assert info["arch"] == ("aie2" if info["family"] == "npu1"
                                else "aie2p"), info
        assert info["compute_tiles"] == \
            info["columns"] * info["compute_rows"], info
        for kind in ("compute", "memtile", "shim"):
            assert set(info[kind]) == TILE_KEYS, (kind, info[kind])
        assert info["shim"]["memory_bytes"] == 0, info
        assert info["compute"]["memory_bytes"] > 0, info


def test_device_info_columns_follow_the_name():
    assert _iron.device_info("npu1_2col")["columns"] == 2
    assert _iron.device_info("npu2_7col")["columns"] == 7
    assert _iron.device_info("npu2")["driver"] == "emulator"


def test_device_info_unknown_name_lists_the_known_ones():
    with pytest.raises(_iron.DeviceError) as e:
        _iron.device_info("npu9")
    assert "'npu9'" in str(e.value), str(e.value)
    assert "npu1_1col" in str(e.value), str(e.value)
    assert e.value.status_name == "IRON_EDEVICE"


@pytest.mark.parametrize("fn", [_iron.device_info, _iron.push_device])
def test_device_name_must_be_a_str(fn):
    with pytest.raises(TypeError, match="name must be a str, not int"):
        fn(3)


def test_set_default_device_and_clear(default_restored):
    _iron.set_default_device("npu1_1col")
    assert _iron.default_device() == "npu1_1col"
    assert _iron.current_device() == "npu1_1col"
    _iron.set_default_device(None)
    assert _iron.default_device() in _iron.device_names()


def test_set_default_device_unknown_keeps_the_old_one(default_restored):
    _iron.set_default_device("npu2_3col")
    with pytest.raises(_iron.DeviceError, match="'nope'"):
        _iron.set_default_device("nope")
    assert _iron.default_device() == "npu2_3col"
    with pytest.raises(TypeError, match="a str or None"):
        _iron.set_default_device(1.5)


def test_scopes_nest_and_pop():
    outer = _iron.current_device()
    _iron.push_device("npu1")
    try:
        assert _iron.current_device() == "npu1"
        _iron.push_device("npu2_2col")
        try:
            assert _iron.current_device() == "npu2_2col"
        finally:
            _iron.pop_device()
        assert _iron.current_device() == "npu1"
    finally:
        _iron.pop_device()
    assert _iron.current_device() == outer


def test_pop_without_push_is_a_state_error():
    with pytest.raises(_iron.StateError, match="without its push"):
        _iron.pop_device()


def test_bad_scope_fails_until_popped():
    with pytest.raises(_iron.DeviceError, match="'bad'"):
        _iron.push_device("bad")
    try:
        with pytest.raises(_iron.DeviceError, match="'bad' is unknown"):
            _iron.current_device()
        # Work inside the bad scope fails too instead of running elsewhere.
        with pytest.raises(_iron.DeviceError):
            _iron.Tensor.zeros("int32", 4)
    finally:
        _iron.pop_device()
    assert _iron.current_device() in _iron.device_names()


def test_scopes_belong_to_their_thread():
    seen = {}

    def other():
        seen["other"] = _iron.current_device()

    _iron.push_device("npu1_3col")
    try:
        th = threading.Thread(target=other)
        th.start()
        th.join()
        assert _iron.current_device() == "npu1_3col"
    finally:
        _iron.pop_device()
    assert seen["other"] == _iron.current_device(), seen


def test_tensors_are_made_on_the_scoped_device():
    _iron.push_device("npu1_1col")
    try:
        t = _iron.Tensor.zeros("int32", 4)
    finally:
        _iron.pop_device()
    assert t.device == "npu1_1col"


def test_unknown_iron_device_variable():
    code = ("from iron import _iron\n"
            "print(_iron.default_device())\n"
            "try:\n"
            "    _iron.current_device()\n"
            "except _iron.DeviceError as e:\n"
            "    print('DeviceError', e)\n")
    env = dict(os.environ, IRON_DEVICE="npu7")
    out = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == "None", out
    assert lines[1].startswith("DeviceError") and "npu7" in lines[1], out
