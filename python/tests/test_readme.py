# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The README's Python example runs as printed and prints what it says."""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def test_the_readme_python_example_runs_as_printed():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "README.md has no python block"
    code = blocks[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    want = re.search(r"print\(y\)\s+# (.*)", code).group(1)
    assert out.stdout.strip() == want.strip(), (out.stdout, want)
