# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
import iron


def test_version_is_the_library_s():
    assert iron.__version__.count(".") == 2


def test_every_status_class_subclasses_error():
    from iron import _iron
    names = [n for n in dir(_iron) if n.endswith("Error") and n != "Error"]
    assert len(names) >= 15
    for n in names:
        assert issubclass(getattr(_iron, n), _iron.Error)
