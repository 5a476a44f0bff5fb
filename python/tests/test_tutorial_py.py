# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The tutorial's Python programs (examples/tutorial/python), run as a user
runs them, on npu1 and npu2: each exits 0 and prints, line by line, what
the C program of its step prints (examples/tutorial, built by `make` into
$IRON_TUTORIAL) where the two say the same thing.  docs/tutorial.md
quotes both programs and says where their output differs;
tests/e2e/test_tutorial.c holds its quotes to the files."""
import functools
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PY_DIR = os.path.join(ROOT, "examples", "tutorial", "python")
STEPS = ["01_passthrough", "02_vector_add", "03_params", "04_multi_column"]
DEVICES = ["npu1", "npu2"]

# The variables that would change what a program prints (the device is
# set for each run).
UNSET = ("IRON_DEVICE", "IRON_CHECK", "IRON_TRACE", "IRON_LOG", "IRON_THREADS")

# How a line of the C program compares with the Python program's line of
# the same label (the text before its first ": "); a line not listed here
# is the same line in both.  ERROR: an error, whose Python exception is
# the class of the C line's status and whose message ends with the
# library's sentence (the C message without the jit's signature and the
# "design: " stage).  OWN: the Python program says something of its own,
# for the reason given (the program itself checks the exception's class).
# A dict gives the comparison per device.
ERROR, OWN = "error", "own"
COMPARE = {
    "01_passthrough": {
        # The package checks the tensors against the runtime sequence's
        # types before the library sees them.
        "too small": OWN,
        "too deep": ERROR,
        "no wait": ERROR,
    },
    "02_vector_add": {
        "1000 elements": ERROR,
    },
    "03_params": {
        # A misspelt keyword is Python's TypeError.
        "misspelt": OWN,
        "too big": ERROR,
    },
    "04_multi_column": {
        "16 columns": ERROR,
    },
}


def tutorial_dir():
    """Where the C programs are: $IRON_TUTORIAL (`make python-test` sets
    it), else the default build's folder."""
    return os.environ.get("IRON_TUTORIAL") or os.path.join(ROOT, "build", "examples",
                                                          "tutorial")


@functools.lru_cache(maxsize=None)
def status_classes():
    """Status name -> exception class name, from docs/python.md's table
    (test_errors holds that table to the binding's)."""
    with open(os.path.join(ROOT, "docs", "python.md")) as f:
        rows = re.findall(r"^\| (IRON_E\w+) \| (\w+) \|", f.read(), re.M)
    assert rows, "docs/python.md has no table of exception classes"
    return dict(rows)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """One disk cache for every run of this module, of its own."""
    return str(tmp_path_factory.mktemp("tutorial-cache"))


def run(argv, device, cache):
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(IRON_DEVICE=device, IRON_CACHE_DIR=cache)
    p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, (f"{' '.join(argv)} (IRON_DEVICE={device}) exited "
                               f"{p.returncode}:\n{p.stdout}{p.stderr}")
    return p.stdout


_c_outputs = {}


def c_output(step, device, cache):
    key = (step, device)
    if key not in _c_outputs:
        path = os.path.join(tutorial_dir(), step)
        assert os.access(path, os.X_OK), f"{path} is not built (make, or make python-test)"
        _c_outputs[key] = run([path], device, cache)
    return _c_outputs[key]


def lines_by_label(text, what):
    by = {}
    for line in text.splitlines():
        label = line.split(": ", 1)[0]
        assert label not in by, f"{what}: two lines labelled {label!r}"
        by[label] = line
    return by


def library_sentence(message):
    """A C error message without the jit's signature and "design: "."""
    message = re.sub(r"^\w+ \([^()]*\): ", "", message)
    return message[len("design: "):] if message.startswith("design: ") else message


def compare_error(c_line, py_line):
    _, status, c_message = c_line.split(": ", 2)
    _, cls, py_message = py_line.split(": ", 2)
    assert cls == status_classes()[status], (
        f"the Python line's exception is {cls}; the C line's status {status} is "
        f"{status_classes()[status]}:\n  C:      {c_line}\n  Python: {py_line}")
    sentence = library_sentence(c_message)
    assert py_message.endswith(sentence), (
        f"the Python message does not end with the library's sentence "
        f"{sentence!r}:\n  C:      {c_line}\n  Python: {py_line}")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("step", STEPS)
def test_tutorial_python_program_prints_what_the_c_program_prints(step, device,
                                                                   cache_dir):
    py = run([sys.executable, os.path.join(PY_DIR, step + ".py")], device, cache_dir)
    c = c_output(step, device, cache_dir)
    py_lines = lines_by_label(py, f"{step}.py")
    c_lines = lines_by_label(c, step)
    assert list(py_lines) == list(c_lines), (
        f"{step}: the programs print different lines\n--- C:\n{c}--- Python:\n{py}")
    stale = set(COMPARE[step]) - set(c_lines)
    assert not stale, f"{step}: COMPARE names lines the programs do not print: {stale}"
    for label, c_line in c_lines.items():
        how = COMPARE[step].get(label)
        if isinstance(how, dict):
            how = how.get(device)
        if how == ERROR:
            compare_error(c_line, py_lines[label])
        elif how is None:
            assert py_lines[label] == c_line, (
                f"{step} on {device}:\n  C:      {c_line}\n  Python: {py_lines[label]}")


def test_every_python_program_of_the_tutorial_is_tested():
    found = sorted(f[:-3] for f in os.listdir(PY_DIR) if f.endswith(".py"))
    assert found == STEPS
