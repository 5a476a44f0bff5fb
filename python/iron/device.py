# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Devices and tiles, as upstream IRON names them.

A device class (NPU1, NPU1Col1 .. NPU1Col3, NPU2, NPU2Col1 .. NPU2Col7)
stands for one of the library's emulated devices ("npu1", "npu1_1col",
...); its resources come from the library, never from a table here.
Which device a call runs on is a run-time attribute: the current device
(`set_current_device`, the `device(...)` scope, $IRON_DEVICE, else npu2),
kept by the library per thread.
"""
from __future__ import annotations

import contextlib
import sys
import threading
import types

from . import _iron

__all__ = [
    "Device", "Tile", "AnyComputeTile", "AnyMemTile", "AnyShimTile",
    "PlacementTile", "NPU1", "NPU1Col1", "NPU1Col2", "NPU1Col3", "NPU2",
    "NPU2Col1", "NPU2Col2", "NPU2Col3", "NPU2Col4", "NPU2Col5", "NPU2Col6",
    "NPU2Col7", "set_current_device", "get_current_device", "device",
    "device_name", "from_name", "ensure_current_device",
]


_INFO: dict = {}


def device_info(name: str) -> dict:
    """The library's description of device `name` (remembered: a device's
    resources do not change while the process runs)."""
    info = _INFO.get(name)
    if info is None:
        info = _INFO[name] = _iron.device_info(name)
    return info


class Tile:
    """A tile at (col, row): row 0 is the shim, row 1 the memtile, rows 2 and
    up the compute tiles.  Used to pin workers, links and runtime transfers
    (upstream's `placement=` / `tile=`)."""

    __slots__ = ("col", "row", "allocation_scheme")

    def __init__(self, col: int | None = None, row: int | None = None,
                 allocation_scheme: str | None = None):
        for what, v in (("col", col), ("row", row)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise ValueError(f"Tile: {what} must be an int >= 0 or None, got {v!r}")
        self.col, self.row = col, row
        self.allocation_scheme = allocation_scheme

    def __repr__(self) -> str:
        return f"Tile({self.col}, {self.row})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Tile) and (self.col, self.row) == (other.col, other.row)

    def __hash__(self) -> int:
        return hash((self.col, self.row))


class _AnyTile:
    """A placement left to the placer, of one kind of tile."""

    def __init__(self, kind: str):
        self.kind = kind

    def __repr__(self) -> str:
        return {"compute": "AnyComputeTile", "mem": "AnyMemTile",
                "shim": "AnyShimTile"}[self.kind]


AnyComputeTile = _AnyTile("compute")
AnyMemTile = _AnyTile("mem")
AnyShimTile = _AnyTile("shim")
PlacementTile = (Tile, _AnyTile)


class Device:
    """One of the library's devices.  `name` is the library's device name."""

    name = "npu2"

    def __init__(self):
        self._info = device_info(self.name)

    @property
    def info(self) -> dict:
        return self._info

    @property
    def rows(self) -> int:
        return self._info["rows"]

    @property
    def cols(self) -> int:
        return self._info["columns"]

    @property
    def arch(self) -> str:
        return self._info["arch"]

    def get_compute_tiles(self) -> list[Tile]:
        return [Tile(c, r) for c in range(self.cols) for r in range(2, self.rows)]

    def get_mem_tiles(self) -> list[Tile]:
        return [Tile(c, 1) for c in range(self.cols)]

    def get_shim_tiles(self) -> list[Tile]:
        return [Tile(c, 0) for c in range(self.cols)]

    def tile_iterator(self):
        for c in range(self.cols):
            for r in range(self.rows):
                yield Tile(c, r)

    def is_legal_mem_affinity(self, src: Tile, dst: Tile) -> bool:
        """Whether dst's memory is one src's core reaches directly (itself,
        north, south, or its west/east neighbour as AIE-ML shares memory)."""
        if None in (src.col, src.row, dst.col, dst.row):
            return False
        dc, dr = dst.col - src.col, dst.row - src.row
        return (dc, dr) in ((0, 0), (0, 1), (0, -1), (-1, 0), (1, 0))

    def resolve_tile(self, tile):
        return tile

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other) -> bool:
        return isinstance(other, Device) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def _device_class(class_name: str, lib_name: str) -> type[Device]:
    return type(class_name, (Device,), {"name": lib_name,
                                        "__doc__": f"The emulated {lib_name}."})


NPU1 = _device_class("NPU1", "npu1")
NPU1Col1 = _device_class("NPU1Col1", "npu1_1col")
NPU1Col2 = _device_class("NPU1Col2", "npu1_2col")
NPU1Col3 = _device_class("NPU1Col3", "npu1_3col")
NPU2 = _device_class("NPU2", "npu2")
NPU2Col1 = _device_class("NPU2Col1", "npu2_1col")
NPU2Col2 = _device_class("NPU2Col2", "npu2_2col")
NPU2Col3 = _device_class("NPU2Col3", "npu2_3col")
NPU2Col4 = _device_class("NPU2Col4", "npu2_4col")
NPU2Col5 = _device_class("NPU2Col5", "npu2_5col")
NPU2Col6 = _device_class("NPU2Col6", "npu2_6col")
NPU2Col7 = _device_class("NPU2Col7", "npu2_7col")

_BY_NAME = {cls.name: cls for cls in (
    NPU1, NPU1Col1, NPU1Col2, NPU1Col3, NPU2, NPU2Col1, NPU2Col2, NPU2Col3,
    NPU2Col4, NPU2Col5, NPU2Col6, NPU2Col7)}
# Names upstream's command lines use for the whole devices.
_ALIASES = {"npu": "npu1", "npu1_4col": "npu1", "npu2_8col": "npu2"}


def device_name(dev) -> str:
    """The library's name of a device given as a Device (instance or class),
    or a name ("npu2", upstream's "npu" for npu1)."""
    if isinstance(dev, Device):
        return dev.name
    if isinstance(dev, type) and issubclass(dev, Device):
        return dev.name
    if isinstance(dev, str):
        return _ALIASES.get(dev.lower(), dev.lower())
    raise TypeError(f"device: expected a Device, a Device class or a device "
                    f"name, got {type(dev).__name__}")


def from_name(name: str, n_cols: int | None = None) -> Device:
    """The device called `name` ("npu2", upstream's "npu"), or its n-column
    variant (from_name("npu2", n_cols=4) is NPU2Col4)."""
    lib = device_name(name)
    if n_cols is not None:
        full = device_info(lib)["columns"]
        if not isinstance(n_cols, int) or not 1 <= n_cols <= full:
            raise ValueError(f"from_name: n_cols must be 1..{full} for {lib}, got {n_cols!r}")
        base = lib.split("_")[0]
        lib = base if n_cols == full else f"{base}_{n_cols}col"
    cls = _BY_NAME.get(lib)
    if cls is None:
        device_info(lib)   # raises DeviceError listing the known ones
        cls = _device_class(lib.upper(), lib)
    return cls()


def set_current_device(dev) -> None:
    """Makes `dev` the process's default device (a scope from `device()`
    still wins on its thread)."""
    _iron.set_default_device(device_name(dev) if dev is not None else None)


_granted = threading.local()


@contextlib.contextmanager
def granted_columns(cols: int):
    """While a jit's design function runs for a call whose launch
    configuration grants `cols` columns (0: all), get_current_device()
    answers with that many columns."""
    before = getattr(_granted, "cols", 0)
    _granted.cols = cols
    try:
        yield
    finally:
        _granted.cols = before


def ensure_current_device() -> Device:
    """Upstream's: the current device, which always exists here (the
    emulator's default is npu2)."""
    return get_current_device()


def get_current_device() -> Device:
    """The device calls on this thread use now (inside a jit's design
    function, with the columns the call's launch configuration grants)."""
    name = _iron.current_device()
    cols = getattr(_granted, "cols", 0)
    # More columns than the device has never get here: the jit refuses
    # them before it runs the design function.
    if cols and cols < device_info(name)["columns"]:
        return from_name(name, n_cols=cols)
    return from_name(name)


@contextlib.contextmanager
def device(dev):
    """`with iron.device("npu2"):` -- calls in the block, on this thread, use
    `dev`."""
    name = device_name(dev)
    try:
        _iron.push_device(name)
    except _iron.Error:
        _iron.pop_device()   # the library pushed a bad scope: close it
        raise
    try:
        yield from_name(name)
    finally:
        _iron.pop_device()


class _DeviceModule(types.ModuleType):
    """This module, callable: `iron.device` is upstream's module of device
    classes (`from aie.iron.device import NPU2`, `import iron.device as
    devices`) and `iron.device("npu2")` the scope above, one name for
    both."""

    def __call__(self, dev):
        return device(dev)


sys.modules[__name__].__class__ = _DeviceModule
