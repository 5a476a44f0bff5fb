# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Notes said once per process: requests the emulator answers in its own
way (hardware tracing is answered with the emulator's trace)."""
from __future__ import annotations

import sys

_said: set[str] = set()


def note_once(key: str, text: str) -> None:
    if key not in _said:
        _said.add(key)
        print(f"iron: {text}", file=sys.stderr)


TRACE_FILE = "iron-trace.json"


def note_trace_request(what: str) -> None:
    note_once("trace",
              f"{what}: hardware trace events do not exist on the emulator, "
              f"which answers with its own trace instead: the calls of a design "
              f"that asks for tracing write it to ./{TRACE_FILE} (IRON_TRACE=FILE "
              f"or the launch configuration's trace= choose another file); open "
              f"it in Perfetto (ui.perfetto.dev).")
