"""The compiled yes/no check must agree with jsonschema on every schema."""
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penguin_lint.validation.schema import fast_check_for, load_schema, validator_for

SCHEMAS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "schemas").glob("*.json"))


def _keys(schema, out):
    """Every property name the schema mentions, so that random documents hit them."""
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k == "properties" and isinstance(v, dict):
                out.update(v)
            _keys(v, out)
    elif isinstance(schema, list):
        for v in schema:
            _keys(v, out)
    return out


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10**6), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "draft", "published", "1.0.0", "2026.10.09.1", "2026-10-29T12:00:00Z",
                     "2026-10-29T12:00:00", "bench-a", "bench_a", "../x", "a/b", "test", "Test",
                     "mean", "div", "weighted_mean", "x@y.org", "https://x.org", "not a url",
                     "metrics.reward", "metadata.agent", "9b2c6e3e-8f7a-4a4b-9c1d-2e3f4a5b6c7d", "id\n"]),
)


@pytest.mark.parametrize("maker", ["closures", "source"])
@pytest.mark.parametrize("name", SCHEMAS)
def test_fast_check_agrees_with_jsonschema(name, maker):
    """Both forms of the check (the closures a short run uses, the function
    written out as Python that a long run switches to) agree with jsonschema."""
    from penguin_lint.validation.fast import compile_schema, compile_source
    from penguin_lint.validation.schema import FORMAT_CHECKS, pattern_ok

    make = compile_schema if maker == "closures" else compile_source
    fast = make(load_schema(name), pattern_ok, FORMAT_CHECKS)
    assert fast is not None, f"{name}: the compiled check does not cover this schema"
    full = validator_for(name)
    keys = sorted(_keys(load_schema(name), set()))
    values = st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=3),
                                st.dictionaries(st.sampled_from(keys), inner, max_size=5)),
        max_leaves=12,
    )
    docs = st.dictionaries(st.sampled_from(keys), values, max_size=len(keys))

    @settings(max_examples=80, deadline=None)
    @given(docs)
    def check(doc):
        assert fast(doc) == full.is_valid(doc), json.dumps(doc, default=str)

    check()


def test_fast_check_accepts_every_clean_example_file():
    from penguin_lint.core.config import Config
    from penguin_lint.core.layout import FILE_KINDS
    from penguin_lint.core.repo import Repository

    root = Path(__file__).resolve().parents[2] / "examples" / "clean"
    repo = Repository(root, Config())
    seen = 0
    for top in repo.walk_roots():
        for path, entry in repo.walk(top):
            kind = repo.layout.classify_file(path) if entry.is_file else None
            if kind is None:
                continue
            doc = repo.load(path)
            schema = FILE_KINDS[kind[0]]
            assert fast_check_for(schema)(doc.data) and validator_for(schema).is_valid(doc.data), path
            seen += 1
    assert seen >= 10


def test_unique_items_by_canonical_forms_agrees_with_jsonschema():
    import time

    from jsonschema import Draft202012Validator

    from penguin_lint.validation.fast import compile_schema

    schema = {"type": "array", "uniqueItems": True}
    fast = compile_schema(schema, lambda p, s: True, {})
    full = Draft202012Validator(schema)
    cases = [[1, True], [0, False], [1, 1.0], [{"a": 1, "b": 2}, {"b": 2, "a": 1.0}], [[1, 2], [2, 1]],
             [None, 0, "", False, [], {}], [[{"x": [1]}], [{"x": [1.0]}]], ["a", "b", "a"], []]
    for items in cases:
        assert fast(items) == full.is_valid(items), items
    many = [{"run": i, "tags": ["x", i]} for i in range(20_000)]
    start = time.process_time()
    assert fast(many) and not fast(many + [{"tags": ["x", 5.0], "run": 5}])
    assert time.process_time() - start < 2  # pairwise: 2 * 10**8 comparisons
