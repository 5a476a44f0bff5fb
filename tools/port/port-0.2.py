#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Port C sources (and Markdown) from iron 0.1's API to 0.2's.

Usage:  tools/port/port-0.2.py [--dry-run] FILE...

Rewrites each FILE in place (through a temporary file and a rename) and
prints the files it changed.  Running it again on ported files changes
nothing.  What it cannot port for sure it leaves alone and reports as
"file:line: ..." on stderr, for a look by hand; the exit status is then 1.

Renames, in this order:
  - iron_jit_launch(j, config, nparams, params, nargs, args) calls (the
    0.1 form, without scalars) get IRON_NO_SCALARS before the tensors;
  - constructors take their output last (OUTPUT_LAST below):
    iron_tensor_zeros(&t, dt, shape) -> iron_tensor_zeros(dt, shape, &t);
  - iron_jit_run -> iron_jit_launch (same arguments);
  - the identifiers in RENAMES below;
  - iron_run_state used as a type -> enum iron_run_state (the name is now
    also the accessor iron_run_state(r)).
Add further renames to RENAMES (plain identifiers) or TRANSFORMS.

Three 0.2 changes are not renames and are left to you (the compiler points
at each): iron_tap_visualize, iron_design_dump, iron_cache_get_path and
iron_tensor_describe return their text allocated in a trailing char **
(free it with iron_free) instead of writing into a buffer.
"""
import os
import re
import sys
import tempfile

# Whole-identifier renames: old -> new.  Longer names first where one is a
# prefix of another does not matter: matches are whole words.
RENAMES = [
    ("iron_spec_run", "iron_spec_launch"),
    ("iron_call_with", "IRON_CALL_WITH"),
    ("iron_call", "IRON_CALL"),
    ("iron_device_query", "iron_device_get_info"),
    ("iron_cache_info", "iron_cache_get_usage"),
    ("iron_cache_path", "iron_cache_get_path"),
    ("iron_jit_counters", "iron_jit_get_counters"),
    ("iron_current_device", "iron_device_get_current"),
    ("iron_get_default_device", "iron_device_default"),
    ("iron_set_default_device", "iron_device_set_default"),
    ("iron_rt_fill_at", "iron_rt_fill_offset_scalar"),
    ("iron_rt_drain_at", "iron_rt_drain_offset_scalar"),
    ("iron_rt_task_group", "iron_rt_task_group_begin"),
    ("iron_rt_finish_task_group", "iron_rt_task_group_end"),
    ("iron_design_scalar", "iron_design_scalar_index"),
    ("iron_buffer_set_initial", "iron_rtp_set_initial"),
    ("iron_kernel_cflags", "iron_kernel_add_cflags"),
    ("iron_core_new", "iron_kernel_new_core"),
    ("iron_set_log_handler", "iron_log_set_handler"),
    ("iron_set_output_handler", "iron_output_set_handler"),
    ("iron_strerror", "iron_status_message"),
    ("iron_tensor_get", "iron_tensor_get_element"),
    ("iron_tensor_set", "iron_tensor_set_element"),
    ("iron_use", "iron_arg_fifo"),
    ("iron_use_acquire", "iron_arg_fifo_acquire"),
    ("iron_use_rtp", "iron_arg_rtp"),
    ("iron_use_barrier", "iron_arg_barrier"),
    ("iron_use_kernel", "iron_arg_kernel"),
    ("iron_int", "iron_arg_int"),
    ("iron_float", "iron_arg_float"),
]

# Calls whose output parameter moved from first to last.
OUTPUT_LAST = [
    "iron_tensor_empty", "iron_tensor_zeros", "iron_tensor_ones",
    "iron_tensor_full", "iron_tensor_arange", "iron_tensor_rand",
    "iron_tensor_randint", "iron_jit_create",
]

# Arguments that expand to two (a count and an array).
PAIR_WORDS = {"IRON_NO_PARAMS", "IRON_NO_SCALARS"}
PAIR_MACROS = re.compile(r"^(IRON_PARAMS|IRON_SCALARS|IRON_TENSORS)\s*\(")

warnings = []


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def split_call(text, open_paren):
    """The top-level arguments of the call whose '(' is at open_paren, as
    (start, end) spans, and the position of its ')'; None if unbalanced."""
    depth = 0
    spans = []
    start = open_paren + 1
    i = open_paren
    n = len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            q = c
            i += 1
            while i < n and text[i] != q:
                i += 2 if text[i] == "\\" else 1
        elif text.startswith("/*", i):
            e = text.find("*/", i + 2)
            i = n if e < 0 else e + 1
        elif text.startswith("//", i):
            e = text.find("\n", i)
            i = n if e < 0 else e
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((start, i))
                return spans, i
        elif c == "," and depth == 1:
            spans.append((start, i))
            start = i + 1
        i += 1
    return None


def width(arg):
    a = re.sub(r"\\\n", " ", arg).strip()    # macro continuation lines
    if a in PAIR_WORDS or PAIR_MACROS.match(a):
        return 2
    return 1


LIMIT = 79


def line_bounds(text, pos):
    a = text.rfind("\n", 0, pos) + 1
    b = text.find("\n", pos)
    return a, len(text) if b < 0 else b


def place_scalars(text, paren, spans, k):
    """How to insert IRON_NO_SCALARS before argument k: (start, end, new
    text for text[start:end]).  It goes after the comma that ends argument
    k-1, keeping lines within LIMIT columns when it can (a new line lines
    up with the first argument)."""
    at = spans[k][0]                   # just after the comma
    arg = text[at:spans[k][1]]
    lead = arg[:len(arg) - len(arg.lstrip())]
    a, b = line_bounds(text, at)
    grow = len(" IRON_NO_SCALARS,")
    if "\n" in lead:
        # The tensors begin a line: the scalars end the line before it,
        # or begin the tensors' line.
        if (b - a) + grow <= LIMIT:
            return at, at, " IRON_NO_SCALARS,"
        return at + len(lead), at + len(lead), "IRON_NO_SCALARS, "
    if (b - a) + grow <= LIMIT:
        return at, at, " IRON_NO_SCALARS,"
    fa, _ = line_bounds(text, paren)
    first = text[paren + 1:spans[0][1]]
    indent = "\n" + " " * (paren + 1 - fa +
                            len(first) - len(first.lstrip(" ")))
    if (at - a) + grow <= LIMIT:
        # "prev, IRON_NO_SCALARS,\n<indent>tensors"
        return at, at + len(lead), " IRON_NO_SCALARS," + indent
    # "prev,\n<indent>IRON_NO_SCALARS, tensors"
    return at, at + len(lead), indent + "IRON_NO_SCALARS, "


def add_scalars_to_launch(path, text):
    """0.1's iron_jit_launch had no scalars: insert IRON_NO_SCALARS before
    the tensors (the last two values)."""
    out = []
    last = 0
    for m in re.finditer(r"\biron_jit_launch\s*\(", text):
        paren = m.end() - 1
        found = split_call(text, paren)
        if not found:
            continue
        spans, _ = found
        args = [text[a:b] for a, b in spans]
        total = sum(width(a) for a in args)
        if total == 8:
            continue            # already the 0.2 form
        if total != 6:
            if len(args) > 1:   # a declaration or prose is not a call
                warnings.append(
                    "%s:%d: iron_jit_launch with %d values where 0.1 took 6 "
                    "and 0.2 takes 8: add IRON_NO_SCALARS (or 0, NULL) "
                    "before the tensors by hand"
                    % (path, line_of(text, m.start()), total))
            continue
        tail = 0
        k = len(args)
        while k > 0 and tail < 2:
            k -= 1
            tail += width(args[k])
        if tail != 2:
            warnings.append("%s:%d: cannot tell the tensors of this "
                            "iron_jit_launch call apart; add IRON_NO_SCALARS "
                            "before them by hand"
                            % (path, line_of(text, m.start())))
            continue
        start, end, insert = place_scalars(text, paren, spans, k)
        out.append(text[last:start])
        out.append(insert)
        last = end
    out.append(text[last:])
    return "".join(out)


def rename_call(text, old, new):
    """Renames the identifier old to new; in a call spread over several
    lines, lines lined up after its '(' move with it."""
    out = []
    last = 0
    delta = len(new) - len(old)
    for m in re.finditer(r"\b%s\b" % re.escape(old), text):
        if m.start() < last:
            continue            # inside a call already handled
        out.append(text[last:m.start()])
        out.append(new)
        last = m.end()
        paren = re.match(r"\s*\(", text[m.end():])
        if not paren or delta == 0:
            continue
        at = m.end() + paren.end() - 1
        found = split_call(text, at)
        if not found:
            continue
        close = found[1]
        col = at - (text.rfind("\n", 0, at) + 1)
        body = rename_call(text[last:close], old, new)   # nested calls
        lines = body.split("\n")
        for i in range(1, len(lines)):
            lead = len(lines[i]) - len(lines[i].lstrip(" "))
            if lines[i].strip() and lead > col:
                lines[i] = " " * max(lead + delta, 0) + lines[i][lead:]
        out.append("\n".join(lines))
        last = close
    out.append(text[last:])
    return "".join(out)


DTYPE = re.compile(r"^(IRON_(U?INT\d+|FLOAT\d+|BFLOAT16)\b|\w*dt(ype)?\b|"
                   r"iron_dtype\b)")
SHAPE = re.compile(r"^(IRON_SHAPE\s*\(|\w*shape\b|iron_shape\b)")


def call_form(name, args):
    """Which API a call of one of OUTPUT_LAST is written for: "0.1"
    (output first), "0.2" (output last) or None when the text cannot
    tell.  0.1 passes the output first, usually as &x; after it come a
    dtype then a shape (tensors) or a design function then options (jit).
    0.2 starts with the dtype and shape, or the design function and its
    options."""
    first, second, last = args[0], args[1], args[-1]
    if first.startswith("&"):
        return "0.1"
    if name == "iron_jit_create":
        if "design" in second or re.search(r"\bfn\b", second):
            return "0.1"
        if second.startswith("&") or "opt" in second or second == "o":
            return "0.2"
        return None
    if DTYPE.match(second):
        return "0.1"
    if SHAPE.match(second) or last.startswith("&") or last == "NULL" or \
            re.search(r"\bout$", last):
        return "0.2"
    return None


def output_last(path, text):
    """Constructors take their output last: iron_tensor_zeros(&t, dt,
    shape) becomes iron_tensor_zeros(dt, shape, &t).  A first argument
    that begins with '&' is 0.1's output and moves; a call whose last
    argument begins with '&' is taken as ported already; any other call is
    reported for a look by hand."""
    for name in OUTPUT_LAST:
        out = []
        last = 0
        for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
            if m.start() < last:
                continue
            paren = m.end() - 1
            found = split_call(text, paren)
            if not found:
                continue
            spans, close = found
            args = [text[a:b] for a, b in spans]
            if len(args) < 2 or args[0].strip() == "":
                continue
            first = args[0].strip()
            form = call_form(name, [a.strip() for a in args])
            if form == "0.2":
                continue
            if form is None:
                warnings.append("%s:%d: %s: is %s the output (0.1) or "
                                "not (0.2)? move it last by hand if so"
                                % (path, line_of(text, m.start()),
                                   name, first))
                continue
            rest = args[1:]
            rest[0] = rest[0].lstrip(" ")
            if rest[0].startswith("\n"):
                rest[0] = rest[0].lstrip()
            tail = rest[-1]
            body = ",".join(rest)
            # the output follows the last argument on its line
            body = body.rstrip() + ", " + first
            out.append(text[last:paren + 1])
            out.append(body)
            last = close
        out.append(text[last:])
        text = "".join(out)
    return text


def rename_run(path, text):
    return rename_call(text, "iron_jit_run", "iron_jit_launch")


def rename_words(path, text):
    for old, new in RENAMES:
        text = rename_call(text, old, new)
    return text


def run_state_type(path, text):
    """iron_run_state is now the accessor's name; the type is spelled
    `enum iron_run_state`, like `struct stat` beside stat()."""
    return re.sub(r"(?<!enum )(?<!struct )\biron_run_state\b(?!\s*\()",
                  "enum iron_run_state", text)


TRANSFORMS = [add_scalars_to_launch, output_last, rename_run, rename_words,
              run_state_type]


def port(path, dry_run):
    with open(path, encoding="utf-8") as f:
        old = f.read()
    text = old
    for t in TRANSFORMS:
        text = t(path, text)
    if text == old:
        return False
    if not dry_run:
        d = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".port-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    return True


def main(argv):
    dry_run = "--dry-run" in argv
    files = [a for a in argv if a != "--dry-run"]
    if not files or any(a.startswith("-") for a in files):
        sys.stderr.write(__doc__)
        return 2
    for path in files:
        if port(path, dry_run):
            print(("would change " if dry_run else "changed ") + path)
    for w in warnings:
        sys.stderr.write(w + "\n")
    return 1 if warnings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
