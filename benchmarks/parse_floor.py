"""The parse floor: read and parse every data file of a repository, and nothing else.

No linter can be faster than finding the files and parsing them with the same parsers, so
penguin-lint's `--all` time is compared with this. Run as a fresh process (interpreter start-up
and imports included, as for the linter):

    python benchmarks/parse_floor.py [--events] REPO

It prints the number of files parsed, which the runner checks against the repository. With
--events, YAML is only scanned into libyaml's event stream (no Python objects built): the
stricter floor of any loader that builds on libyaml. With --ours, each file is read and parsed
by penguin-lint's own loaders (`penguin_lint.loaders.load_file`: the bytes read once, parsed
into positioned documents, named by content, suppression comments found): what `--all` spends
before it validates anything or runs a rule.
"""

import os
import sys
import tomllib

import yaml

# The C loader is what the linter uses; without libyaml the floor (and the linter) is slower.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_all(root: str, events: bool = False, ours: bool = False) -> int:
    count = 0
    if ours:
        from penguin_lint.loaders import load_file
    for dirpath, dirnames, filenames in os.walk(root):
        # .git and other dot-folders hold no data files.
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if ours:
                if not name.endswith((".toml", ".yaml", ".yml")):
                    continue
                path = os.path.join(dirpath, name)
                load_file(path, os.path.relpath(path, root), 1 << 20)
            elif name.endswith(".toml"):
                with open(os.path.join(dirpath, name), "rb") as f:
                    tomllib.loads(f.read().decode("utf-8"))
            elif name.endswith((".yaml", ".yml")):
                with open(os.path.join(dirpath, name), "rb") as f:
                    text = f.read().decode("utf-8")
                if events:
                    for _ in yaml.parse(text, Loader=_YAML_LOADER):
                        pass
                else:
                    yaml.load(text, Loader=_YAML_LOADER)
            else:
                continue
            count += 1
    return count


if __name__ == "__main__":
    args = sys.argv[1:]
    print(parse_all(args[-1], events="--events" in args[:-1], ours="--ours" in args[:-1]))
