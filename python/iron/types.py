# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Scalar type names for traced casts and constants (upstream's
`aie.extras.types`, imported as T): `T.i32()` is the core-body type
"i32"."""


def i1(): return "i1"
def i8(): return "i8"
def i16(): return "i16"
def i32(): return "i32"
def i64(): return "i64"
def index(): return "index"
def bf16(): return "bf16"
def f32(): return "f32"
def f64(): return "f64"
