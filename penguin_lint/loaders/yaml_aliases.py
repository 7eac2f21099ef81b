"""Anchors, aliases and merge keys, expanded as ``yaml.safe_load`` expands them.

PenguinHarness data files refuse them (PL003): the event loop of
yaml_loader.py leaves an alias as a null and never follows it. Harbor loads
its files with ``yaml.safe_load``, for which they are ordinary YAML, so a
Harbor file is read as Harbor reads it: while the event loop runs it notes
here where each anchor, alias and merge key is (``note``, ``note_merge_key``);
once the file is known to be a Harbor file, ``expand_aliases`` puts the
anchored value in each alias's place (the same object, as safe_load shares
it) and merges ``<<`` keys (explicit keys win, then earlier sources).

Expanding costs nothing, but every later walk of the data would follow the
aliases: before anything reads the data, its expanded size and depth are
measured (each shared value once), and a file that would hold more than a
data file may (``MAX_VALUES``, ``MAX_DEPTH``: a "billion laughs"), or a value
that contains itself, is a PL003 finding at the alias, and is not read further.

A value reached through an alias is placed at the alias (``model: *link``):
the anchored text is reported where it is written, and each reuse where it
is reused.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from penguin_lint.findings import Problem
from penguin_lint.loaders.document import MAX_DEPTH, MAX_VALUES, Document, _nonfinite

# What yaml_loader.py reports for these in a data file (PL003, and PL002 for
# a second '<<' key): in a Harbor file they are what safe_load reads.
_PL003_PREFIXES = ("anchor '&", "alias '*", "merge key '<<'")
_MORE = " more like the above in this file"
# Past this many aliases the rest are not noted (a few MiB of '*a' would
# otherwise cost a hundred bytes each while the file is in memory); a Harbor
# file with more is a finding.
MAX_ALIASES = 100_000


class Refs:
    """What one YAML text anchors, aliases and merges (offsets into the text)."""

    __slots__ = ("anchors", "twice", "aliases", "merges", "pending", "overflow")

    def __init__(self):
        # name -> (value, node, start, end) of its latest anchor
        self.anchors: Dict[str, tuple] = {}
        # (name, start, end, first start): an anchor defined again
        self.twice: List[tuple] = []
        # (name, parent container or None, key or index, node, start, end)
        self.aliases: List[list] = []
        # id(mapping) -> [mapping, node, [(value, node, alias or None, key start, value start)]]
        self.merges: Dict[int, list] = {}
        # the mapping whose '<<' key was just read: its value is a merge source
        self.pending: Optional[tuple] = None
        # (start, end) of the first alias not noted, past MAX_ALIASES
        self.overflow: Optional[tuple] = None


def _refs(doc: Document) -> Refs:
    if doc.aliases is None:
        doc.aliases = Refs()
    return doc.aliases


def note_merge_key(doc: Document, mapping, node: int, kstart: int) -> None:
    """A plain ``<<`` key of ``mapping`` (tree node ``node``)."""
    refs = _refs(doc)
    refs.merges.setdefault(id(mapping), [mapping, node, []])
    refs.pending = (id(mapping), kstart)


def note(doc: Document, ev, value, node: int, parent, slot, is_alias: bool) -> None:
    """An anchored value or an alias, just placed at ``parent[slot]`` (the
    top value: ``parent`` None)."""
    refs = _refs(doc)
    name, start, end = ev.anchor, ev.start_mark.index, ev.end_mark.index
    alias = None
    if is_alias:
        if len(refs.aliases) >= MAX_ALIASES:
            if refs.overflow is None:
                refs.overflow = (start, end)
        elif node >= 0:  # inside a complex key (thrown away) an alias changes nothing
            alias = (name, parent, slot, node, start, end)
            refs.aliases.append(alias)
    elif name is not None:
        first = refs.anchors.get(name)
        if first is not None:
            refs.twice.append((name, start, end, first[2]))
        refs.anchors[name] = (value, node, start, end)
    note_value(doc, value, node, parent, slot, alias, start)


def note_value(doc: Document, value, node: int, parent, slot, alias=None, start: int = -1) -> None:
    """Any value placed in a mapping: the source of a merge when its key was ``<<``."""
    refs = doc.aliases
    if refs is None or refs.pending is None or slot != "<<" or refs.pending[0] != id(parent):
        return
    refs.merges[id(parent)][2].append((value, node, alias, refs.pending[1], start))
    refs.pending = None


class _Refused(Exception):
    """safe_load refuses the file, or its expansion is over a bound."""

    def __init__(self, code: str, message: str, start: int, end: int, hint: Optional[str] = None):
        super().__init__(message)
        self.code, self.message, self.start, self.end, self.hint = code, message, start, end, hint


def expand_aliases(doc: Document) -> None:
    """Read ``doc`` (a Harbor file) as safe_load does; idempotent."""
    refs = doc.aliases
    if refs is None:
        return
    doc.aliases = None
    tree = getattr(doc._tree, "tree", None)
    lines = getattr(doc._tree, "lines", None)
    if tree is None or lines is None:
        return
    merge_keys = {lines.pos(src[3]) for rec in refs.merges.values() for src in rec[2]}
    doc.problems = [p for p in doc.problems if not _expanded_problem(p, merge_keys)]
    if not doc.parsed:
        return
    try:
        if refs.overflow is not None:
            raise _Refused("PL003", f"more than {MAX_ALIASES:,} aliases in one file", *refs.overflow,
                           "write the values out, or refer to fewer of them")
        _check_anchors(refs, lines)
        _put_aliases(refs, tree)
        conflicts: List[tuple] = []
        _merge(refs, tree, conflicts)
        _measure(doc, refs)  # first: the comparison below follows no cycle
        _check_conflicts(conflicts)
        if doc.nonfinite:
            # a value past any float is met again wherever an alias repeats it
            doc.nonfinite = _nonfinite_paths(doc.data)
    except _Refused as e:
        doc.problems.append(Problem(e.code, e.message, lines.position(e.start, e.end), e.hint))
        doc.data = None
        doc.parsed = False


def _nonfinite_paths(data) -> List[tuple]:
    """The paths of every non-finite value of ``data``, in the file's order
    (the data is measured by then: bounded, and without a cycle)."""
    out: List[tuple] = []
    stack = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend(reversed([(path + (k,), v) for k, v in value.items()]))
        elif isinstance(value, list):
            stack.extend(reversed([(path + (i,), v) for i, v in enumerate(value)]))
        elif _nonfinite(value):
            out.append(path)
    return out


def _expanded_problem(p: Problem, merge_keys) -> bool:
    if p.code == "PL003":
        return p.message.startswith(_PL003_PREFIXES) or p.message.endswith(_MORE + " (not listed one by one)")
    # a second '<<' in one mapping: safe_load merges both
    return p.code == "PL002" and p.message.startswith("duplicate key '<<'") \
        and (p.pos.line, p.pos.column) in merge_keys


def _check_anchors(refs: Refs, lines) -> None:
    for name, start, end, first in refs.twice:
        raise _Refused("PL001", f"anchor '&{name}' is defined twice (first on line {lines.pos(first)[0]})",
                       start, end, "yaml.safe_load refuses a repeated anchor; rename one of them")
    for name, _parent, _slot, _node, start, end in refs.aliases:
        anchor = refs.anchors.get(name)
        if anchor is None or anchor[2] > start:
            raise _Refused("PL001", f"alias '*{name}' names no anchor defined before it", start, end,
                           "yaml.safe_load refuses an undefined alias; define '&" + name + "' first")


def _put_aliases(refs: Refs, tree) -> None:
    for alias in refs.aliases:
        name, parent, slot, node, start, _end = alias
        # a repeated key replaced this alias (its node took the later value)
        if parent is None or tree.start[node] != start:
            continue
        parent[slot] = refs.anchors[name][0]


def _merge(refs: Refs, tree, conflicts: List[tuple]) -> None:
    """Merge as PyYAML's ``flatten_mapping`` (6.0.4): the pairs of every
    source (each ``<<`` in order, a list's mappings in order; a key written
    once and merged twice counts once) and then the mapping's own, the later
    pair of a key winning: its own keys win, then the later source.

    Which value wins is where PyYAML's releases disagree: up to 6.0.3 the
    first mapping of a list and the last ``<<``; 6.0.4 the last source, but
    the first for keys that happen to be one Python object (one-character
    strings), and it merges a merged mapping's pairs as written, so a value
    that mapping overrode can come back. A key that the mapping does not set
    itself, and for which its sources hold two values (a value overridden
    inside a source counts), is noted in ``conflicts`` as (key, [(value, key
    start of its ``<<``), ...]), for ``_check_conflicts``."""
    records = list(refs.merges.values())
    # the key -> node maps, taken before any mapping changes
    kids = {id(rec[0]): dict(tree._kids_of(rec[1], rec[0])) if rec[1] >= 0 else None for rec in records}
    # id(flattened mapping) -> {key: id of the mapping the key is written in}
    origins: Dict[int, dict] = {}
    # id(flattened mapping) -> {key: every value its pairs hold for it, overridden ones too}
    held: Dict[int, Dict[Any, list]] = {}
    room = [MAX_HELD]  # values all the mappings' ``held`` may note together

    def note(got: dict, v, kstart: int) -> None:
        if id(v) not in got:
            room[0] -= 1
            if room[0] < 0:
                raise _Refused("PL003", f"merge keys '<<' merge more than {MAX_HELD:,} values in one file",
                               kstart, kstart + 2, "write the values out, or merge fewer mappings")
            got[id(v)] = (v, kstart)

    def flatten(rec, active):
        mapping, node, sources = rec
        mid = id(mapping)
        if mid in origins:
            return
        if mid in active:
            start = sources[0][3] if sources else tree.start[node]
            raise _Refused("PL003", "merge key '<<' merges a mapping into itself", start, start + 2)
        active.add(mid)
        pairs = []  # (key, value, node, origin)
        seen = set()
        given: Dict[Any, dict] = {}  # key -> {id(value): (value, key start of its '<<')}, in order
        typed: Dict[Any, set] = {}  # key -> the types it is merged as (1, 1.0 and true are one key)
        for value, snode, alias, kstart, vstart in sources:
            if alias is not None:  # noted before it was expanded
                value = refs.anchors[alias[0]][0]
            if snode >= 0 and tree.start[snode] != vstart:
                # a later '<<' of the mapping took this node: its keys are
                # placed at the mapping
                snode = -1
            items = value if isinstance(value, list) else [value]
            item_nodes = list(tree.children(snode)) if isinstance(value, list) and alias is None \
                and snode >= 0 else []
            for i, item in enumerate(items):
                if not isinstance(item, dict):
                    raise _Refused("PL001", "'<<' merges a mapping or a list of mappings, not "
                                   + ("a list" if isinstance(item, list) else "a scalar"),
                                   kstart, kstart + 2, "yaml.safe_load refuses the file")
                inner = refs.merges.get(id(item))
                if inner is not None:
                    flatten(inner, active)
                written = origins.get(id(item), {})
                # an alias's node has no children: what it merges is placed at it
                inode = item_nodes[i] if i < len(item_nodes) else snode
                inline = alias is None and (i < len(item_nodes) or not isinstance(value, list))
                for k, v in item.items():
                    origin = (written.get(k, id(item)), k)
                    if origin not in seen:
                        seen.add(origin)
                        pairs.append((k, v, _kid(tree, inode, item, k) if inline else inode, origin[0]))
                inner_held = held.get(id(item))
                for k, values in (inner_held.items() if inner_held is not None
                                  else ((k, (v,)) for k, v in item.items())):
                    typed.setdefault(k, set()).add(type(k))
                    got = given.setdefault(k, {})
                    for v in values:
                        note(got, v, kstart)
        own = kids[mid]
        for k, v in mapping.items():
            if k != "<<":
                pairs.append((k, v, own.get(k, -1) if own is not None else -1, mid))
        # which of 1 and true stays the key is the order of the pairs too, whatever the mapping sets
        for k, got in given.items():
            if len(typed[k]) > 1:
                conflicts.append((k, [*got.values(), (_UNLIKE, list(got.values())[-1][1])]))
            elif len(got) > 1 and k not in mapping:
                conflicts.append((k, list(got.values())))
        for k, v in mapping.items():
            if k != "<<":
                note(given.setdefault(k, {}), v, -1)
        held[mid] = {k: [v for v, _ in got.values()] for k, got in given.items()}
        merged: Dict[Any, Any] = {}
        where: Dict[Any, int] = {}
        written = {}
        for k, v, n, origin in pairs:
            merged[k], where[k], written[k] = v, n, origin
        mapping.clear()
        mapping.update(merged)
        if node >= 0:
            tree._kids[node] = {k: n for k, n in where.items() if n >= 0}
        active.discard(mid)
        origins[mid] = written

    for rec in records:
        flatten(rec, set())


# Values compared to find a conflicting merge, for the whole file: past this,
# two sources are taken to disagree.
MAX_COMPARED = 1_000_000
# Values the merged mappings of one file may hold for their keys, overridden
# ones included: a chain of mappings each merging the one before holds them all.
MAX_HELD = 200_000
# equal to no value: a key merged as two types (1 and true) is a conflict whatever its values
_UNLIKE = object()


def _check_conflicts(conflicts: List[tuple]) -> None:
    """A key two merge sources give different values is read differently by
    different PyYAML releases (see ``_merge``): the first, in the text's
    order, is a finding at the ``<<`` of the source that disagrees."""
    budget = [MAX_COMPARED]
    equal: set = set()  # pairs of containers found to hold the same data
    found = []
    for key, got in conflicts:
        first = got[0][0]
        for value, kstart in got[1:]:
            if not _same(first, value, budget, equal):
                found.append((kstart, key))
                break
    if found:
        kstart, key = min(found, key=lambda f: f[0])
        shown = str(key) if len(str(key)) <= 60 else str(key)[:57] + "..."
        raise _Refused("PL003", f"merge key '<<' merges two different values of '{shown}': "
                       "which one wins depends on the PyYAML release that reads the file", kstart, kstart + 2,
                       f"set '{shown}' in this mapping itself (its own keys win in every release), "
                       "or merge mappings that agree on it")


def _same(a, b, budget: list, equal: set) -> bool:
    """Whether ``a`` and ``b`` are the same data (a shared value, or a pair
    of containers compared before, at once; ``True`` is not ``1``); False
    once ``budget`` is spent."""
    stack = [(a, b)]
    seen = set()
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        pair = (id(x), id(y))
        if pair in seen or pair in equal:
            continue  # queued already in this comparison, or equal in an earlier one
        seen.add(pair)
        budget[0] -= 1
        if budget[0] < 0 or type(x) is not type(y):
            return False
        if isinstance(x, dict):
            # typed keys: a mapping keyed 1 is not one keyed true
            if len(x) != len(y) or {(type(k), k) for k in x} != {(type(k), k) for k in y}:
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif x != x and y != y:  # nan: the same text reads as the same value
            continue
        elif x != y:
            return False
    equal |= seen
    return True


def _kid(tree, node: int, mapping: dict, key) -> int:
    """The node of ``mapping[key]`` under ``node``; ``node`` itself when it
    is an alias (what it refers to is placed there)."""
    if node < 0:
        return -1
    got = tree._kids_of(node, mapping)
    return got.get(key, node) if isinstance(got, dict) else node


def _measure(doc: Document, refs: Refs) -> None:
    """How many values, how deep, the data is once every alias is followed;
    each shared container is measured once."""
    memo: Dict[int, tuple] = {}
    for name, _parent, _slot, _node, start, end in refs.aliases:
        size, depth = _size(refs.anchors[name][0], memo, name, start, end)
        if size > MAX_VALUES or depth > MAX_DEPTH:
            _too_big(name, size, depth, start, end)
    size, depth = _size(doc.data, memo, None, 0, 0)
    if size > MAX_VALUES or depth > MAX_DEPTH:  # many aliases, each under the bounds
        name, _p, _s, _n, start, end = max(refs.aliases, key=lambda a: memo.get(id(refs.anchors[a[0]][0]), (1,))[0])
        _too_big(name, size, depth, start, end, whole=True)


def _too_big(name, size, depth, start, end, whole=False):
    what = "the file" if whole else f"alias '*{name}'"
    if size > MAX_VALUES:
        msg = f"expanded, {what} holds more than {MAX_VALUES:,} values (the limit of a data file)"
    else:
        msg = f"expanded, {what} nests deeper than {MAX_DEPTH} levels"
    raise _Refused("PL003", msg, start, end, "write the values out, or refer to fewer of them")


def _size(value, memo, name, start, end) -> tuple:
    """(values, depth) of ``value`` through its aliases, capped just past the
    bounds; a container met again inside itself is a finding."""
    if not isinstance(value, (dict, list)):
        return 1, 0
    if id(value) in memo:
        return memo[id(value)]
    active = {id(value)}
    # [values, levels of containers]: a mapping of scalars is one level
    stack = [(value, iter(value.values() if isinstance(value, dict) else value), [1, 1])]
    while stack:
        _container, it, acc = stack[-1]
        for child in it:
            if not isinstance(child, (dict, list)):
                acc[0] += 1
                continue
            got = memo.get(id(child))
            if got is None:
                if id(child) in active:
                    raise _Refused("PL003", f"alias '*{name}' refers to a value that contains it"
                                   if name else "a value refers to a value that contains it",
                                   start, end, "Harbor's rows and schemas are JSON, which has no cycles")
                active.add(id(child))
                stack.append((child, iter(child.values() if isinstance(child, dict) else child), [1, 1]))
                break
            acc[0] = min(acc[0] + got[0], MAX_VALUES + 1)
            acc[1] = max(acc[1], got[1] + 1)
        else:
            container, _it, acc = stack.pop()
            memo[id(container)] = (acc[0], acc[1])
            active.discard(id(container))
            if stack:
                parent = stack[-1][2]
                parent[0] = min(parent[0] + acc[0], MAX_VALUES + 1)
                parent[1] = max(parent[1], acc[1] + 1)
    return memo[id(value)]
