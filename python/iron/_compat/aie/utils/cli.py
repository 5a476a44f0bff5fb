# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.cli: run_design_cli (aie.utils.hostruntime.cli)."""
from aie.utils.hostruntime.cli import run_design_cli

__all__ = ["run_design_cli"]
