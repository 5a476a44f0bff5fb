# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The newest aie.iron's explicit-routing classes (flows, cascade and
packet flows, locks, buffer descriptors, tile DMAs): programs that import
them import here, and making one is a NotImplementedError naming it and
the program's line -- the emulator models ObjectFifos, not hand-wired
switchboxes and DMA programs."""
from ._trace import user_frame


class _Unmodelled:
    what = ""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"{type(self).__name__}: {self.what} is not modelled by this emulator; "
            f"move the data with ObjectFifos (at {user_frame()})")


def _make(name, what):
    return type(name, (_Unmodelled,), {"what": what, "__doc__": f"Upstream's {name}: {what}."})


Flow = _make("Flow", "an explicit stream-switch flow")
PacketFlow = _make("PacketFlow", "a packet-switched flow")
CascadeFlow = _make("CascadeFlow", "a cascade stream between cores")
Lock = _make("Lock", "an explicit lock")
Acquire = _make("Acquire", "an explicit lock acquire")
Release = _make("Release", "an explicit lock release")
Bd = _make("Bd", "a hand-written buffer descriptor")
TileDma = _make("TileDma", "a hand-written tile DMA program")
DmaChannel = _make("DmaChannel", "an explicit DMA channel")
