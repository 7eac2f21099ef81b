"""A fast yes/no check compiled from a JSON Schema.

Nearly every file in a repository is valid, and jsonschema spends most of its
time building error context that a valid file never needs. This compiles the
keywords the project's schemas use into plain closures that only answer
"valid?"; when the answer is no (or a schema uses a keyword this does not
know), the full validator runs and words the errors. Same schema, same
verdict: a property test holds the two to it.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from penguin_lint.validation.canonical import first_repeat

Check = Callable[[Any], bool]

# Keywords that never change a verdict.
_ANNOTATIONS = {"$schema", "$id", "$comment", "$defs", "title", "description", "default",
                "examples", "deprecated", "readOnly", "writeOnly"}


class Unsupported(Exception):
    pass


def _is_number(x) -> bool:
    return (type(x) is int or type(x) is float) or (isinstance(x, (int, float)) and not isinstance(x, bool))


def _is_integer(x) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return True
    return isinstance(x, float) and x.is_integer()


_TYPES: Dict[str, Check] = {
    "string": lambda x: isinstance(x, str),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": _is_number,
    "integer": _is_integer,
}


def _same(a, b) -> bool:
    """JSON equality: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _pointed(root: dict, ref: str) -> Any:
    """The part of the schema a local ``$ref`` (a JSON pointer) names."""
    if not ref.startswith("#/"):
        raise Unsupported(ref)
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def compile_schema(root: dict, pattern_ok: Callable[[str, str], bool],
                   formats: Dict[str, Check]) -> Optional[Check]:
    """A closure answering "is this instance valid?", or None when the schema
    uses something this compiler does not handle."""
    refs: Dict[str, Check] = {}

    def resolve(ref: str) -> Check:
        if ref not in refs:
            node = _pointed(root, ref)
            refs[ref] = lambda x: True  # placeholder breaks recursion
            compiled = build(node)
            refs[ref] = compiled
        # late binding: recursive schemas see the final closure
        return lambda x: refs[ref](x)

    def build(s) -> Check:
        if s is True or s == {}:
            return lambda x: True
        if s is False:
            return lambda x: False
        if not isinstance(s, dict):
            raise Unsupported(repr(s))
        checks = []
        for key, val in s.items():
            if key in _ANNOTATIONS or key.startswith("x-"):
                continue
            if key == "type":
                names = [val] if isinstance(val, str) else list(val)
                fns = [_TYPES[n] for n in names]
                checks.append(fns[0] if len(fns) == 1 else (lambda x, fns=fns: any(f(x) for f in fns)))
            elif key == "enum":
                options = list(val)
                if all(isinstance(o, str) for o in options):
                    opts = frozenset(options)
                    checks.append(lambda x, opts=opts: isinstance(x, str) and x in opts)
                else:
                    checks.append(lambda x, options=options: any(_same(x, o) for o in options))
            elif key == "const":
                checks.append(lambda x, c=val: _same(x, c))
            elif key == "required":
                req = tuple(val)
                def _required(x, req=req):
                    if isinstance(x, dict):
                        for r in req:
                            if r not in x:
                                return False
                    return True
                checks.append(_required)
            elif key == "properties":
                props = {k: build(v) for k, v in val.items()}
                def _props(x, props=props):
                    if not isinstance(x, dict):
                        return True
                    for k, f in props.items():
                        if k in x and not f(x[k]):
                            return False
                    return True
                checks.append(_props)
            elif key == "patternProperties":
                raise Unsupported(key)
            elif key == "additionalProperties":
                if "patternProperties" in s:
                    raise Unsupported(key)
                known = frozenset(s.get("properties", {}))
                extra = build(val)
                def _additional(x, known=known, extra=extra):
                    if not isinstance(x, dict):
                        return True
                    for k, v in x.items():
                        if k not in known and not extra(v):
                            return False
                    return True
                checks.append(_additional)
            elif key == "items":
                if not isinstance(val, dict) and not isinstance(val, bool):
                    raise Unsupported("items array")
                item = build(val)
                def _items(x, item=item):
                    if isinstance(x, list):
                        for v in x:
                            if not item(v):
                                return False
                    return True
                checks.append(_items)
            elif key in ("minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"):
                typ = {"I": list, "L": str, "P": dict}[key[3]]
                n = val
                if key.startswith("min"):
                    checks.append(lambda x, typ=typ, n=n: not isinstance(x, typ) or len(x) >= n)
                else:
                    checks.append(lambda x, typ=typ, n=n: not isinstance(x, typ) or len(x) <= n)
            elif key == "uniqueItems":
                if val:
                    # canonical forms by hash: comparing every pair is quadratic
                    checks.append(lambda x: not isinstance(x, list) or first_repeat(x) is None)
            elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                op = {
                    "minimum": lambda x, v: x >= v, "maximum": lambda x, v: x <= v,
                    "exclusiveMinimum": lambda x, v: x > v, "exclusiveMaximum": lambda x, v: x < v,
                }[key]
                checks.append(lambda x, op=op, v=val: not _is_number(x) or op(x, v))
            elif key == "pattern":
                checks.append(lambda x, p=val: not isinstance(x, str) or pattern_ok(p, x))
            elif key == "format":
                if val not in formats:
                    continue  # an unknown format is an annotation, as in jsonschema
                checks.append(formats[val])
            elif key == "$ref":
                checks.append(resolve(val))
            elif key == "if":
                cond = build(val)
                then = build(s["then"]) if "then" in s else (lambda x: True)
                other = build(s["else"]) if "else" in s else (lambda x: True)
                checks.append(lambda x, c=cond, t=then, e=other: t(x) if c(x) else e(x))
            elif key in ("then", "else"):
                continue  # handled with "if" (alone they do nothing)
            elif key == "allOf":
                subs = [build(v) for v in val]
                checks.append(lambda x, subs=subs: all(f(x) for f in subs))
            elif key == "anyOf":
                subs = [build(v) for v in val]
                checks.append(lambda x, subs=subs: any(f(x) for f in subs))
            elif key == "oneOf":
                subs = [build(v) for v in val]
                checks.append(lambda x, subs=subs: sum(1 for f in subs if f(x)) == 1)
            elif key == "not":
                sub = build(val)
                checks.append(lambda x, sub=sub: not sub(x))
            else:
                raise Unsupported(key)
        if not checks:
            return lambda x: True
        if len(checks) == 1:
            return checks[0]
        checks = tuple(checks)
        def _all(x):
            # plain loops: generator expressions cost more than the checks
            for c in checks:
                if not c(x):
                    return False
            return True
        return _all

    try:
        return build(root)
    except (Unsupported, KeyError, TypeError):
        return None


def schema_source(root: dict) -> Optional[str]:
    """The same yes/no check as ``compile_schema``, written out as Python: one
    function per schema a ``$ref`` or a combinator names, every other keyword
    a test inline, in the schema's order, each failing with ``return False``
    (a valid document costs a few tests per value, not a call per keyword).
    The text names ``C`` (its constants), ``F`` (format checks by name) and
    the helpers below; None when the schema uses what this does not know."""
    consts: list = []
    funcs: Dict[str, str] = {}   # function name -> its text
    refs: Dict[str, str] = {}    # "$ref" -> function name

    def const(value) -> str:
        consts.append(value)
        return f"C[{len(consts) - 1}]"

    def function(s, name: str) -> str:
        funcs[name] = ""  # reserved: recursion sees the name
        body = inline(s, "v0", 1, 1)
        funcs[name] = f"def {name}(v0):\n" + "".join(body) + "    return True\n"
        return name

    def sub(s) -> str:
        return function(s, f"_s{len(funcs)}")

    def ref(r: str) -> str:
        if r not in refs:
            node = _pointed(root, r)
            refs[r] = f"_r{len(refs)}"
            function(node, refs[r])
        return refs[r]

    def inline(s, v: str, depth: int, ind: int) -> List[str]:
        pad = "    " * ind
        if s is True or s == {}:
            return []
        if s is False:
            return [f"{pad}return False\n"]
        if not isinstance(s, dict):
            raise Unsupported(repr(s))
        out: List[str] = []
        nv = f"v{depth}"
        for key, val in s.items():
            if key in _ANNOTATIONS or key.startswith("x-"):
                continue
            if key == "type":
                names = [val] if isinstance(val, str) else list(val)
                tests = [_TYPE_TESTS[n].format(v=v) for n in names]
                out.append(f"{pad}if not ({' or '.join(tests)}):\n{pad}    return False\n")
            elif key == "enum":
                options = list(val)
                if all(isinstance(o, str) for o in options):
                    out.append(f"{pad}if not (isinstance({v}, str) and {v} in {const(frozenset(options))}):\n"
                               f"{pad}    return False\n")
                else:
                    out.append(f"{pad}if not _any_same({v}, {const(options)}):\n{pad}    return False\n")
            elif key == "const":
                out.append(f"{pad}if not _same({v}, {const(val)}):\n{pad}    return False\n")
            elif key == "required":
                out.append(f"{pad}if isinstance({v}, dict):\n")
                out += [f"{pad}    if {r!r} not in {v}:\n{pad}        return False\n" for r in val] or [f"{pad}    pass\n"]
            elif key == "properties":
                lines = []
                for k, sch in val.items():
                    if not isinstance(k, str):
                        raise Unsupported(repr(k))
                    body = inline(sch, nv, depth + 1, ind + 2)
                    if body:
                        lines.append(f"{pad}    if {k!r} in {v}:\n{pad}        {nv} = {v}[{k!r}]\n")
                        lines += body
                if lines:
                    out.append(f"{pad}if isinstance({v}, dict):\n")
                    out += lines
            elif key == "patternProperties":
                raise Unsupported(key)
            elif key == "additionalProperties":
                if "patternProperties" in s:
                    raise Unsupported(key)
                body = inline(val, nv, depth + 1, ind + 3)
                if body:
                    known = const(frozenset(s.get("properties", {})))
                    out.append(f"{pad}if isinstance({v}, dict):\n{pad}    for k{depth}, {nv} in {v}.items():\n"
                               f"{pad}        if k{depth} not in {known}:\n")
                    out += body
            elif key == "items":
                if not isinstance(val, dict) and not isinstance(val, bool):
                    raise Unsupported("items array")
                body = inline(val, nv, depth + 1, ind + 2)
                if body:
                    out.append(f"{pad}if isinstance({v}, list):\n{pad}    for {nv} in {v}:\n")
                    out += body
            elif key in ("minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"):
                typ = {"I": "list", "L": "str", "P": "dict"}[key[3]]
                op = ">=" if key.startswith("min") else "<="
                out.append(f"{pad}if isinstance({v}, {typ}) and not len({v}) {op} {const(val)}:\n{pad}    return False\n")
            elif key == "uniqueItems":
                if val:
                    out.append(f"{pad}if isinstance({v}, list) and first_repeat({v}) is not None:\n{pad}    return False\n")
            elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                op = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[key]
                out.append(f"{pad}if _is_number({v}) and not ({v} {op} {const(val)}):\n{pad}    return False\n")
            elif key == "pattern":
                out.append(f"{pad}if isinstance({v}, str) and not pattern_ok({const(val)}, {v}):\n{pad}    return False\n")
            elif key == "format":
                if not isinstance(val, str):
                    raise Unsupported("format")
                out.append(f"{pad}if not F.get({val!r}, _yes)({v}):\n{pad}    return False\n")
            elif key == "$ref":
                out.append(f"{pad}if not {ref(val)}({v}):\n{pad}    return False\n")
            elif key == "if":
                cond = sub(val)
                then = sub(s["then"]) if "then" in s else "_yes"
                other = sub(s["else"]) if "else" in s else "_yes"
                out.append(f"{pad}if not ({then}({v}) if {cond}({v}) else {other}({v})):\n{pad}    return False\n")
            elif key in ("then", "else"):
                continue
            elif key in ("allOf", "anyOf", "oneOf"):
                names = [sub(x) for x in val]
                calls = ", ".join(f"{n}" for n in names)
                test = {"allOf": f"all(f({v}) for f in ({calls},))", "anyOf": f"any(f({v}) for f in ({calls},))",
                        "oneOf": f"sum(1 for f in ({calls},) if f({v})) == 1"}[key]
                out.append(f"{pad}if not {test}:\n{pad}    return False\n")
            elif key == "not":
                out.append(f"{pad}if {sub(val)}({v}):\n{pad}    return False\n")
            else:
                raise Unsupported(key)
        return out

    try:
        function(root, "check")
    except (Unsupported, KeyError, TypeError, AttributeError):
        return None
    return "".join(funcs[n] + "\n\n" for n in sorted(funcs)), consts


# the tests of "type", as _TYPES makes them
_TYPE_TESTS = {
    "string": "isinstance({v}, str)", "object": "isinstance({v}, dict)", "array": "isinstance({v}, list)",
    "boolean": "isinstance({v}, bool)", "null": "{v} is None", "number": "_is_number({v})",
    "integer": "_is_integer({v})",
}


def _yes(x) -> bool:
    return True


def _any_same(x, options) -> bool:
    return any(_same(x, o) for o in options)


def compile_source(root: dict, pattern_ok: Callable[[str, str], bool],
                   formats: Dict[str, Check]) -> Optional[Check]:
    """``schema_source`` made a function (None where it gives no text)."""
    made = schema_source(root)
    if made is None:
        return None
    text, consts = made
    names = {"C": consts, "F": formats, "pattern_ok": pattern_ok, "first_repeat": first_repeat, "_same": _same,
             "_any_same": _any_same, "_is_number": _is_number, "_is_integer": _is_integer, "_yes": _yes}
    exec(compile(text, "<schema check>", "exec"), names)
    return names["check"]


# Documents checked with the closures before the written-out check is made:
# compiling its text costs as much as checking a few dozen documents, which a
# hook or an editor never reaches and a whole run passes at once.
WRITE_OUT_AFTER = 32


def compile_check(root: dict, pattern_ok: Callable[[str, str], bool],
                  formats: Dict[str, Check]) -> Optional[Check]:
    """The yes/no check of ``root``: ``compile_schema``'s closures for the
    first documents, ``compile_source``'s function from then on (the two give
    the same verdicts; a property test holds each to jsonschema)."""
    first = compile_schema(root, pattern_ok, formats)
    if first is None:
        return compile_source(root, pattern_ok, formats)
    state = [WRITE_OUT_AFTER, first]

    def check(x) -> bool:
        left = state[0]
        if left:
            state[0] = left - 1
            if left == 1:
                state[1] = compile_source(root, pattern_ok, formats) or first
        return state[1](x)

    return check
