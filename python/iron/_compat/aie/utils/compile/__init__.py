# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.compile: resolve_target_arch, the AIE architecture of the
current device ("aie2" or "aie2p"); the rest of upstream's compiler
driver (aiecc, Peano) has no place on the emulator."""
from aie._unmodelled import unmodelled


def resolve_target_arch(device=None):
    import iron
    dev = iron.get_current_device() if device is None else device
    return dev.arch


unmodelled(globals(), "upstream's compiler driver (aiecc, Peano)")
