# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.test: the command line of upstream's test.py hosts
(-x XCLBIN -i INSTR -k KERNEL ...), and the comparisons of
aie.utils.verify.

On iron, -x names the design to run: an .mlir file, or a folder's file
beside which the program's printed design was saved as aie.mlir
(upstream's Makefiles write build/aie.mlir beside build/final.xclbin);
aie.utils.xrt runs it on the emulator."""
import argparse

from aie.utils.verify import assert_pass, count_mismatches, nearly_equal

__all__ = ["assert_pass", "count_mismatches", "create_default_argparser",
           "nearly_equal", "parse_args"]


def create_default_argparser():
    """The host's options as upstream's test.py hosts read them."""
    p = argparse.ArgumentParser()
    p.add_argument("-x", "--xclbin", required=True, dest="xclbin",
                   help="the design: FILE.mlir, or a file beside aie.mlir")
    p.add_argument("-k", "--kernel", dest="kernel", default="MLIR_AIE",
                   help="the kernel name (accepted, unused)")
    p.add_argument("-v", "--verbosity", default=0, type=int,
                   help="the verbosity of the output")
    p.add_argument("-i", "--instr", dest="instr", default="instr.txt",
                   help="the instruction file (accepted, unused)")
    p.add_argument("--verify", dest="verify", default=True,
                   help="whether to verify the output")
    p.add_argument("--iters", dest="iters", default=1, type=int,
                   help="number of benchmark iterations")
    p.add_argument("--warmup", dest="warmup_iters", default=0, type=int,
                   help="number of warmup iterations")
    p.add_argument("-t", "--trace_sz", dest="trace_size", default=0, type=int,
                   help="trace size in bytes (not supported: must be 0)")
    p.add_argument("--trace_file", dest="trace_file", default="trace.txt",
                   help="where trace output would go")
    p.add_argument("-i1s", "--in1_size", dest="in1_size", default=0,
                   help="input 1 buffer size in bytes")
    p.add_argument("-i2s", "--in2_size", dest="in2_size", default=0,
                   help="input 2 buffer size in bytes")
    p.add_argument("-os", "--out_size", dest="out_size", default=0,
                   help="output buffer size in bytes")
    return p


def parse_args(args):
    """The options of create_default_argparser() from args."""
    return create_default_argparser().parse_args(args)
