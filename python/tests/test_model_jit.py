# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The jit and the model (python/iron/jit.py, program.py, runtime.py,
dataflow.py, worker.py, _trace.py): what a call builds and reuses, the
values a specialization depends on, and the errors a program gets."""
import os
import traceback

import numpy as np
import pytest

import iron
from iron import (Buffer, CompileTime, DispatchTime, ExternalFunction, In, ObjectFifo,
                  Out, Program, Runtime, Worker)
from iron.controlflow import range_

TILE = np.ndarray[(16,), np.dtype[np.int32]]


def _scale_program(n, factor, core=None, depth=2):
    whole = np.ndarray[(n,), np.dtype[np.int32]]
    of_in = ObjectFifo(TILE, name="in", depth=depth)
    of_out = ObjectFifo(TILE, name="out")

    def scale(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(16):
            y[k] = x[k] * factor
        i.release(1)
        o.release(1)

    w = Worker(core or scale, [of_in.cons(), of_out.prod()])

    def seq(a, c, i, o):
        i.fill(a)
        o.drain(c, wait=True)

    rt = Runtime(seq, [whole, whole, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


@iron.jit
def scale(a: In, c: Out, *, factor: CompileTime[int] = 3):
    return _scale_program(a.size, factor)


def test_a_call_builds_once_per_specialization_and_reuses_it():
    a = iron.arange(64, dtype=np.int32)
    c = iron.zeros(64, dtype=np.int32)
    before = scale.stats().get("builds", 0)
    for _ in range(3):
        scale(a, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(64) * 3)
    scale(a, c, factor=5)
    np.testing.assert_array_equal(c.numpy(), np.arange(64) * 5)
    scale(a, c, factor=5)
    assert scale.stats()["builds"] - before == 2


def test_numpy_arrays_are_used_in_place():
    a = np.arange(32, dtype=np.int32)
    c = np.zeros(32, dtype=np.int32)
    scale(a, c, factor=2)
    np.testing.assert_array_equal(c, a * 2)


def test_a_non_contiguous_array_is_refused_naming_the_argument():
    a = np.arange(64, dtype=np.int32)[::2]
    c = np.zeros(32, dtype=np.int32)
    with pytest.raises(iron.Error) as e:
        scale(a, c)
    assert "argument 0 ('a')" in str(e.value)


def test_decorator_values_are_bound_and_call_values_win():
    bound = iron.jit(factor=4)(scale.__wrapped__)
    a = iron.arange(16, dtype=np.int32)
    c = iron.zeros(16, dtype=np.int32)
    bound(a, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(16) * 4)
    bound(a, c, factor=6)
    np.testing.assert_array_equal(c.numpy(), np.arange(16) * 6)
    seven = bound.specialize(factor=7)
    seven(a, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(16) * 7)


def test_launch_configuration_and_device_scope_select_specializations():
    a = iron.arange(32, dtype=np.int32)
    c = iron.zeros(32, dtype=np.int32)
    jitted = iron.jit(scale.__wrapped__)
    jitted[1](a, c)
    jitted[iron.LaunchConfig(cols=2)](a, c)
    with iron.device("npu1"):
        jitted(a, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(32) * 3)
    assert jitted.stats()["builds"] == 3
    with pytest.raises(TypeError, match="launch configuration"):
        jitted["two"](a, c)


@iron.jit
def add_k(a: In, c: Out, *, k: DispatchTime[int]):
    n = a.size
    whole = np.ndarray[(n,), np.dtype[np.int32]]
    of_in, of_out = ObjectFifo(TILE, name="in"), ObjectFifo(TILE, name="out")
    rtp = Buffer(np.ndarray[(1,), np.dtype[np.int32]], name="k", use_write_rtp=True)

    def core(i, o, r):
        x, y = i.acquire(1), o.acquire(1)
        kk = r[0]
        for j in range_(16):
            y[j] = x[j] + kk
        i.release(1)
        o.release(1)

    w = Worker(core, [of_in.cons(), of_out.prod(), rtp])

    def seq(a, c, i, o):
        rtp[0] = k
        i.fill(a)
        o.drain(c, wait=True)

    rt = Runtime(seq, [whole, whole, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def test_dispatch_time_scalars_change_the_run_without_a_build():
    a = iron.arange(48, dtype=np.int32)
    c = iron.zeros(48, dtype=np.int32)
    for k in (1, 9, -4):
        add_k(a, c, k=k)
        np.testing.assert_array_equal(c.numpy(), np.arange(48) + k)
    assert add_k.stats()["builds"] == 1
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        add_k(a, c, k=1, kk=2)


def test_wrong_tensors_get_the_sequence_s_declaration():
    a = iron.arange(64, dtype=np.int32)
    with pytest.raises(iron.ArgumentError, match=r"declares int32\[64\], got int16\[64\]"):
        scale(a, iron.zeros(64, dtype=np.int16))
    with pytest.raises(TypeError):
        scale(a)


def test_a_traced_value_used_as_a_bool_names_if_and_the_line():
    def core(i, o):
        x = i.acquire(1)
        if x[0] > 0:     # the line the message names
            pass

    line = core.__code__.co_firstlineno + 2

    @iron.jit
    def bad(a: In, c: Out):
        return _scale_program(a.size, 1, core=core)

    with pytest.raises(TypeError) as e:
        bad(iron.arange(16, dtype=np.int32), iron.zeros(16, dtype=np.int32))
    msg = str(e.value)
    assert "if_" in msg and f"{os.path.basename(__file__)}:{line}" in msg, msg
    # The exception is the design function's own, with its traceback.
    frames = traceback.extract_tb(e.value.__traceback__)
    assert any(f.lineno == line and f.filename == __file__ for f in frames)


def test_range_of_a_float_and_acquiring_beyond_the_depth_are_refused():
    def float_loop(i, o):
        for _ in range_(2.5):
            pass

    def greedy(i, o):
        i.acquire(3)

    for core, exc, text in ((float_loop, TypeError, "float"),
                            (greedy, ValueError, "cannot acquire 3")):
        @iron.jit
        def bad(a: In, c: Out):
            return _scale_program(a.size, 1, core=core)

        with pytest.raises(exc, match=text):
            bad(iron.arange(16, dtype=np.int32), iron.zeros(16, dtype=np.int32))


def test_unmodelled_features_name_themselves():
    with pytest.raises(NotImplementedError, match="plio"):
        ObjectFifo(TILE, plio=True)
    with pytest.raises(NotImplementedError, match="repeat_count"):
        ObjectFifo(TILE, repeat_count=4)


def test_a_trace_request_is_answered_once(capsys):
    from iron import _notes
    _notes._said.discard("trace")
    Worker(None, [], trace=1)
    Worker(None, [], trace=1)
    err = capsys.readouterr().err
    assert err.count("IRON_TRACE") == 1


def test_a_module_prints_as_mlir():
    with iron.device("npu1_1col"):
        text = str(_scale_program(64, 2))
    assert "aie.device(npu1_1col)" in text
    assert "aie.objectfifo @in" in text and "arith.muli" in text


def test_ahead_of_time_artifacts(tmp_path):
    a = iron.arange(32, dtype=np.int32)
    c = iron.zeros(32, dtype=np.int32)
    first = iron.jit(scale.__wrapped__)
    spec = first.compile(a, c, factor=9)
    spec(a, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(32) * 9)
    path = tmp_path / "scale.iron"
    spec.save_artifact(path)
    again = iron.jit(scale.__wrapped__, use_cache=False)
    again.load_artifact(path)
    again(a, c, factor=9)
    np.testing.assert_array_equal(c.numpy(), np.arange(32) * 9)
    st = again.stats()
    # In this process the kernels are loaded already (shared between
    # jits); a new process would take them from the artifact.
    assert st["kernel_compiles"] == 0
    assert st["artifact_hits"] + st["kernel_shares"] == 1, st
    damaged = tmp_path / "damaged.iron"
    damaged.write_bytes(path.read_bytes()[:100])
    with pytest.raises(iron.IOFailure, match="damaged.iron"):
        iron.jit(scale.__wrapped__).load_artifact(damaged)


def test_non_tensor_positionals_are_compile_time():
    def transform(fn, a, c):
        def core(i, o):
            x, y = i.acquire(1), o.acquire(1)
            for k in range_(16):
                y[k] = fn(x[k])
            i.release(1)
            o.release(1)
        return _scale_program(a.size, 1, core=core)

    t = iron.jit(transform)
    a = iron.arange(16, dtype=np.int32)
    c = iron.zeros(16, dtype=np.int32)
    for _ in range(2):       # a new function each time, the same code: one build
        t(lambda v: v + 1, a, c)
        np.testing.assert_array_equal(c.numpy(), np.arange(16) + 1)
    t(lambda v: v * v, a, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(16) ** 2)
    assert t.stats()["builds"] == 2


def test_read_only_memory_is_an_input_only():
    a = np.arange(16, dtype=np.int32)
    a.setflags(write=False)
    c = np.zeros(16, dtype=np.int32)
    scale(a, c, factor=2)
    np.testing.assert_array_equal(c, np.arange(16) * 2)
    out = np.zeros(16, dtype=np.int32)
    out.setflags(write=False)
    with pytest.raises(iron.ArgumentError, match="argument 1 is read-only"):
        scale(a, out, factor=2)


def test_a_hardware_trace_request_writes_the_emulator_s_trace(tmp_path, monkeypatch, capsys):
    from iron import _notes
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("IRON_TRACE", raising=False)
    _notes._said.discard("trace")

    @iron.jit
    def traced(a: In, c: Out):
        module = _scale_program(a.size, 2)
        module.program.rt.enable_trace(trace_size=8192)
        return module

    a = iron.arange(32, dtype=np.int32)
    c = iron.zeros(32, dtype=np.int32)
    traced(a, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(32) * 2)
    trace = tmp_path / "iron-trace.json"
    assert trace.stat().st_size > 100
    assert trace.read_text().startswith('{"traceEvents":[')
    assert "iron-trace.json" in capsys.readouterr().err


def test_overlapping_numpy_views_are_refused_when_one_is_written():
    b = np.arange(64, dtype=np.int32)
    with pytest.raises(iron.ArgumentError, match=r"argument 1 \('c'\) shares memory"):
        scale(b[:32], b[16:48])
    scale(b[:32], b[32:])             # disjoint halves of one array are fine
    np.testing.assert_array_equal(b[32:], np.arange(32) * 3)


def test_one_initial_value_fills_a_buffer():
    def core(i, o):
        seven = iron.LocalBuffer(np.ndarray[(4,), np.dtype[np.int32]], initial_value=7)
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(16):
            y[k] = x[k] + seven[3]
        i.release(1)
        o.release(1)

    @iron.jit
    def plus_seven(a: In, c: Out):
        return _scale_program(a.size, 1, core=core)

    a = iron.arange(16, dtype=np.int32)
    c = iron.zeros(16, dtype=np.int32)
    plus_seven(a, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(16) + 7)
    with pytest.raises(ValueError, match="initial_value has 2 elements"):
        iron.Buffer(np.ndarray[(4,), np.dtype[np.int32]], initial_value=[1, 2])


def test_a_jit_object_is_freed_at_its_last_use():
    import gc
    import weakref
    jitted = iron.jit(scale.__wrapped__)
    a = iron.arange(16, dtype=np.int32)
    c = iron.zeros(16, dtype=np.int32)
    spec = jitted.compile(a, c)
    jitted(a, c)
    ref = weakref.ref(jitted)
    gc.disable()
    try:
        del jitted, spec
        assert ref() is None, "a reference cycle keeps the jit (and its kernels) alive"
    finally:
        gc.enable()


def test_a_specialization_dumps_and_exports(tmp_path):
    a = iron.arange(32, dtype=np.int32)
    c = iron.zeros(32, dtype=np.int32)
    spec = iron.jit(scale.__wrapped__).compile(a, c, factor=4)
    assert "aie.objectfifo @in" in spec.dump("mlir")
    assert "fifo" in spec.dump()
    spec.export_mlir(tmp_path / "out")
    assert "arith.muli" in (tmp_path / "out" / "aie.mlir").read_text()
