# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Stands for an upstream program whose last line is print(module): it
# prints the MLIR module in the file it is given (after a line of its
# own, which iron.run --execute must skip).
import sys

print("# a design for", sys.argv[2] if len(sys.argv) > 2 else "npu")
with open(sys.argv[1]) as f:
    print(f.read())
