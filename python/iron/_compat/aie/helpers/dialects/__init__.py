# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.helpers.dialects (a namespace; its modules re-export iron)."""
