# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.extras.dialects (a namespace; its modules re-export iron)."""
