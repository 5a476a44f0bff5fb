# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The `aie` package upstream IRON programs import, as `python3 -m iron.run`
serves it: each module re-exports the iron package's counterpart.

This tree is importable only inside iron.run (its import hook loads it
under the name `aie`, and only when no real mlir-aie is installed); a
plain `import aie` elsewhere finds the real package or nothing."""

__iron_compat__ = True
