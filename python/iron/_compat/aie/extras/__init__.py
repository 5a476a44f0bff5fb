# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.extras (a namespace; its modules re-export iron)."""
