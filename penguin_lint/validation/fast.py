"""A fast yes/no check compiled from a JSON Schema.

Nearly every file in a repository is valid, and jsonschema spends most of its
time building error context that a valid file never needs. This compiles the
keywords the project's schemas use into plain closures that only answer
"valid?"; when the answer is no (or a schema uses a keyword this does not
know), the full validator runs and words the errors. Same schema, same
verdict: a property test holds the two to it.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

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


def compile_schema(root: dict, pattern_ok: Callable[[str, str], bool],
                   formats: Dict[str, Check]) -> Optional[Check]:
    """A closure answering "is this instance valid?", or None when the schema
    uses something this compiler does not handle."""
    refs: Dict[str, Check] = {}

    def resolve(ref: str) -> Check:
        if not ref.startswith("#/"):
            raise Unsupported(ref)
        if ref not in refs:
            node: Any = root
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
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
