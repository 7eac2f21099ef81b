"""PL101 missing-field: a required key is absent."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class MissingField(ProblemRule):
    """Each kind of file has required keys (see its JSON Schema under
    ``schemas/``). A close key that is present is offered as the likely typo.
    """

    code = "PL101"
    name = "missing-field"
    summary = 'a required key is absent'
    source = "schema"
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'id = "my-bench"\ntitle = "My benchmark"\n')
    good = ('benchmark_config.toml', 'id = "my-bench"\ntitle = "My benchmark"\ndescription = "..."\nversion = "1.0.0"\nlast_update = "2026-10-29T12:00:00Z"\nstatus = "draft"\n\n[author]\nname = "Lab"\n')
