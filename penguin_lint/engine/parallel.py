"""``--all`` over several processes: this one and forked children, each
taking the next unit from a shared counter, big units first.
"""
from __future__ import annotations

import os

from penguin_lint.core.repo import Repository
from penguin_lint.engine.errors import ToolError

# Below this many units a second process costs more than it saves.
PARALLEL_MIN_UNITS = 24


class NoParallel(Exception):
    pass


def default_jobs(units: int) -> int:
    env = os.environ.get("PENGUIN_LINT_JOBS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    if units < PARALLEL_MIN_UNITS:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def run_parallel(engine, units, jobs: int, run=None):
    """Run units in ``jobs`` processes: this one and ``jobs - 1`` forked
    children, each taking the next unit from a shared counter, big units
    first, so no process is left with a large one at the end. Forked
    children inherit the imported modules and the engine as they are, which
    keeps start-up cheap; they send their findings back once, at the end."""
    import multiprocessing
    import pickle

    if not hasattr(os, "fork"):
        raise NoParallel
    try:
        mp = multiprocessing.get_context("fork")
    except ValueError:
        raise NoParallel from None
    run = run or engine.run_unit
    for rule in engine.rules:
        rule.load()  # imported once, here, not once in each child
    order = sorted(units, key=lambda u: -_unit_weight(engine.repo, u))
    counter = mp.RawValue("l", 0)
    lock = mp.Lock()

    def take():
        with lock:
            i = counter.value
            counter.value = i + 1
        return i

    def work():
        out = []
        i = take()
        while i < len(order):
            out.append(run(order[i]))
            i = take()
        return out

    children = []
    for _ in range(jobs - 1):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: never return into the caller's code
            status = 0
            try:
                os.close(r)
                try:
                    payload = ("ok", work())
                except ToolError as e:
                    payload = ("error", str(e))
                except BaseException as e:  # noqa: B036 - reported by the parent
                    payload = ("error", f"internal error: {type(e).__name__}: {e}")
                with os.fdopen(w, "wb") as f:
                    f.write(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        os.close(w)
        children.append((pid, r))
    try:
        results = work()
    finally:
        collected = []
        for pid, r in children:
            with os.fdopen(r, "rb") as f:
                data = f.read()
            os.waitpid(pid, 0)
            collected.append(data)
    for data in collected:
        try:
            status, payload = pickle.loads(data)
        except Exception:
            raise ToolError("internal error: a worker process ended without its results") from None
        if status != "ok":
            raise ToolError(payload)
        results.extend(payload)
    return results


def _unit_weight(repo: Repository, unit) -> int:
    # experiment folders hold many more data files than task folders
    exp = repo.layout.roots["experiments"] + "/"
    return sum((10 if top.startswith(exp) else 1) * (len(repo.entries(top) or ()) if recursive else 1)
               for top, recursive in unit)
