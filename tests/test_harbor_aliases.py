"""Harbor files read as Harbor reads them (``yaml.safe_load``): anchors,
aliases and merge keys expanded, within a bound; PenguinHarness data files
keep PL003 for them."""
import time

import yaml

from tests.conftest import lint
from tests.test_harbor import DEF, GOOD_ROWS, ROWS, line_of

# A definition whose four display columns share one property schema through
# an anchor, as a public submission writes it.
SHARED_LINK_DEF = """\
package: acme/my-dataset
name: main
title: Main leaderboard
visibility: public
metadata_schema:
  type: object
  required: [agent, agent_link, model_link]
  properties:
    agent:
      type: string
    agent_link: &link
      type: object
      required: [url, label]
      properties:
        url:
          type: string
          format: uri
        label:
          type: string
          minLength: 1
      additionalProperties: false
    model_link: *link
    org_link: *link
  additionalProperties: false
metrics_schema:
  type: object
  required: [accuracy]
  properties:
    accuracy:
      type: number
columns:
  - id: agent
    header: Agent
    accessor: metadata.agent
    type: text
  - id: model
    header: Model
    accessor: metadata.model_link
    type: link
  - id: accuracy
    header: Accuracy
    accessor: metrics.accuracy
    type: number
rank_by:
  - accessor: metrics.accuracy
    direction: desc
"""

SHARED_LINK_ROWS = """\
rows:
  - metadata:
      agent: terminus-2
      agent_link: {url: "https://example.org/terminus", label: Terminus}
      model_link: {url: "https://example.org/model", label: Model}
    metrics:
      accuracy: 0.62
    status: display
    trial_ids:
      - 36043904-3271-4c91-aaf7-4f941353d7a9
"""


def codes(run):
    return [(f["code"], f["path"], f["line"]) for f in run.findings]


def test_shared_property_schema_is_clean(repo):
    root = repo({DEF: SHARED_LINK_DEF, ROWS: SHARED_LINK_ROWS}, base={})
    run = lint(root, "--all")
    assert codes(run) == []
    assert run.code == 0
