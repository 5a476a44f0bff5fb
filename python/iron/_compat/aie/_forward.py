# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Lazy re-export: a compat module's missing attributes are looked up, at
first use, in the iron module it stands for, so that a compat module
imports even while the iron module (or one of its names) is still missing,
and fails only when the name is used, with a message that says which."""
import importlib


def forward(module_globals, target, extra=None):
    """Makes the module whose globals are `module_globals` answer a
    missing attribute with the same attribute of module `target`
    ("iron.controlflow"); `extra` maps names to other "module:attr"
    places (an upstream name that iron spells otherwise)."""
    name = module_globals["__name__"]
    extra = dict(extra or {})

    def load(modname, what):
        try:
            return importlib.import_module(modname)
        except ImportError as e:
            if e.name != modname:
                raise
            raise AttributeError(
                f"module '{name}' has no attribute '{what}': it comes from "
                f"{modname}, which this iron does not have") from None

    def __getattr__(attr):
        if attr in extra:
            modname, _, real = extra[attr].partition(":")
        elif attr == "__all__":
            mod = load(target, attr)
            names = getattr(mod, "__all__", None)
            if names is None:
                names = [n for n in vars(mod) if not n.startswith("_")]
            return list(names) + [n for n in extra if n not in names]
        elif attr.startswith("__"):
            raise AttributeError(attr)
        else:
            modname, real = target, attr
        mod = load(modname, attr)
        try:
            value = getattr(mod, real)
        except AttributeError:
            # A submodule not imported yet (iron.kernels) is an attribute
            # once imported.
            try:
                value = importlib.import_module(f"{modname}.{real}")
            except ImportError as e:
                if e.name != f"{modname}.{real}":
                    raise
                raise AttributeError(
                    f"module '{name}' has no attribute '{attr}': {modname} "
                    f"does not provide {real!r}") from None
        module_globals[attr] = value
        return value

    def __dir__():
        try:
            names = __getattr__("__all__")
        except AttributeError:
            names = []
        return sorted(set(module_globals) | set(names))

    module_globals["__getattr__"] = __getattr__
    module_globals["__dir__"] = __dir__
