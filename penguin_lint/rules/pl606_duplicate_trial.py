"""PL606 duplicate-trial: a trial id repeated within or across rows."""
from penguin_lint.rules._harbor import trial_key
from penguin_lint.rules.base import Rule
from penguin_lint.validation.schema import row_label


class DuplicateTrial(Rule):
    """A trial supports one result: Harbor refuses a rows file in which a trial
    id appears twice, in one row's ``trial_ids`` or in two rows. Ids are
    compared as UUIDs, so upper and lower case are the same id. Each rows
    file is one request: the same trial in two files (one per submission
    under ``leaderboard/entries/``) is not repeated.
    """

    code = "PL606"
    name = "duplicate-trial"
    summary = "a trial id repeated within or across rows"
    kinds = ("harbor_rows",)
    bad = ("leaderboard/rows.yaml",
           "rows:\n  - metrics: {accuracy: 0.62}\n    trial_ids: [3fbd4efc-161f-4702-b6f9-459723d09354]\n"
           "  - metrics: {accuracy: 0.47}\n    trial_ids: [3fbd4efc-161f-4702-b6f9-459723d09354]\n")
    good = ("leaderboard/rows.yaml",
            "rows:\n  - metrics: {accuracy: 0.62}\n    trial_ids: [3fbd4efc-161f-4702-b6f9-459723d09354]\n"
            "  - metrics: {accuracy: 0.47}\n    trial_ids: [beaa3a85-1f25-40e4-9599-328f896bc05d]\n")

    def check(self, subject, ctx):
        doc = ctx.valid_doc(subject.path)
        rows = doc.data.get("rows") if doc is not None else None
        if not isinstance(rows, list):
            return
        seen = {}  # trial key -> (row index, position)
        for i, row in enumerate(rows):
            trials = row.get("trial_ids") if isinstance(row, dict) else None
            if not isinstance(trials, list):
                continue
            for j, trial in enumerate(trials):
                if not isinstance(trial, str):
                    continue
                key = trial_key(trial)
                pos = doc.value_pos(("rows", i, "trial_ids", j))
                if key not in seen:
                    seen[key] = (i, pos)
                    continue
                first_row, first_pos = seen[key]
                if first_row == i:
                    message = f"trial '{trial}' appears twice in {row_label(i)} (first on line {first_pos.line})"
                else:
                    message = (f"trial '{trial}' of {row_label(i)} is already linked to {row_label(first_row)} "
                               f"(line {first_pos.line})")
                yield self.finding(subject, message,
                                   pos=pos, hint="link each trial to one row, once")
