"""``--all`` over several processes: this one and forked children, each
taking the next unit from a shared counter, big units first.
"""
from __future__ import annotations

import os

from penguin_lint.engine.errors import ToolError
from penguin_lint.engine.weights import unit_weights

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


def run_parallel(engine, units, jobs: int, run=None, each=None, part=None, keep: bool = True):
    """Run units in ``jobs`` processes: this one and ``jobs - 1`` forked
    children, each taking the next unit from a shared counter, big units
    first, so no process is left with a large one at the end. Forked
    children inherit the imported modules and the engine as they are, which
    keeps start-up cheap; they send their findings back once, at the end.

    With ``each`` (a run whose findings are shown as they come), ``jobs``
    children run the units and send each result as they finish it, and
    this process hands every one to ``each`` as it arrives, with how many
    of its findings went to ``part`` before (the findings of each folder of
    a unit under way, as the engine hands them to ``engine.unit_part``);
    without ``keep``, a result handed to ``each`` is not also returned
    (so that nothing holds every unit's result to the end of the run)."""
    import importlib

    # imported once, here, before the children are forked (they use them)
    importlib.import_module("penguin_lint.engine.pipes")
    importlib.import_module("penguin_lint.loaders").preload()

    if not hasattr(os, "fork"):
        raise NoParallel
    run = run or engine.run_unit
    for rule in engine.rules:
        rule.load()  # imported once, here, not once in each child
    # estimated from listings the walk has read: listing every unit's
    # folders here would hold every process back
    weights = unit_weights(engine.repo, units)
    order = [units[i] for i in sorted(range(len(units)), key=lambda i: -weights[i])]
    take, pipe = _counter()

    def work(send=None):
        out = []
        i = take()
        while i < len(order):
            out.append(run(order[i]))
            if send is not None:
                send(out.pop())
            i = take()
        return out

    children = []
    for _ in range(jobs if each is not None else jobs - 1):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: never return into the caller's code
            os.close(r)
            _child(w, work, each is not None, engine if part is not None else None)
        os.close(w)
        children.append((pid, r))
    results = []
    finals: dict = {}  # pipe -> the messages of the child after its units
    try:
        if each is None:
            results = work()
        else:
            _pass_on(children, each, part, results if keep else None, finals)
    finally:
        collected = [finals.get(r, []) + _drain(pid, r) for pid, r in children]
        for fd in pipe:
            os.close(fd)
    for messages in collected:
        if not messages:
            raise ToolError("internal error: a worker process ended without its results")
        status, payload = messages[-1]
        if status != "ok":
            raise ToolError(payload)
        results.extend(payload)
    return results


def _counter():
    """A counter shared by this process and the children it forks, and the
    pipe to close after them: the next number is a token in the pipe, which one process at a time reads and writes
    back one higher (multiprocessing's shared value and lock cost a tenth of
    a small repository's run to import)."""
    r, w = os.pipe()
    os.write(w, (0).to_bytes(8, "little"))

    def take() -> int:
        token = b""
        while len(token) < 8:  # blocks while another process holds it
            token += os.read(r, 8 - len(token))
        i = int.from_bytes(token, "little")
        os.write(w, (i + 1).to_bytes(8, "little"))
        return i

    return take, (r, w)


def _child(w: int, work, streams: bool, engine=None) -> None:
    """A worker's life: its units, each result sent as it comes when
    ``streams`` (and the findings of each folder of a unit under way, when
    ``engine`` is given), then ("ok", the results not sent) or ("error",
    why)."""
    from penguin_lint.engine.pipes import write_message

    status = 0
    try:
        with os.fdopen(w, "wb") as f:
            sent = [0]  # findings of the unit under way sent as parts

            def send(result) -> None:
                write_message(f, ("unit", result, sent[0]))
                sent[0] = 0

            def send_part(found) -> None:
                write_message(f, ("part", found))
                sent[0] += len(found)

            if engine is not None:
                engine.unit_part = send_part

            try:
                payload = ("ok", work(send if streams else None))
            except ToolError as e:
                payload = ("error", str(e))
            except BaseException as e:  # noqa: B036 - reported by the parent
                payload = ("error", f"internal error: {type(e).__name__}: {e}")
            write_message(f, payload)
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _pass_on(children, each, part, results, finals: dict) -> None:
    """Hand each unit's result to ``each`` (and each part of one to
    ``part``) as a child sends it, until every child has closed its end;
    what a child sends after its units goes to ``finals``."""
    import selectors

    from penguin_lint.engine.pipes import take_messages

    buffers = {r: bytearray() for _, r in children}
    with selectors.DefaultSelector() as sel:
        for _, r in children:
            sel.register(r, selectors.EVENT_READ)
        while sel.get_map():
            for key, _ in sel.select():
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    sel.unregister(key.fd)
                    continue
                buffers[key.fd] += chunk
                for message in take_messages(buffers[key.fd]):
                    if message[0] == "unit":
                        if results is not None:
                            results.append(message[1])
                        each(message[1], message[2])
                    elif message[0] == "part":
                        part(message[1])
                    else:
                        finals.setdefault(key.fd, []).append(message)


def _drain(pid: int, r: int) -> list:
    """The messages left in a child's pipe (none of its units', once handed
    on), the pipe closed and the child reaped."""
    from penguin_lint.engine.pipes import take_messages

    with os.fdopen(r, "rb") as f:
        data = bytearray(f.read())
    os.waitpid(pid, 0)
    try:
        return [m for m in take_messages(data) if m[0] not in ("unit", "part")]
    except Exception:  # a child that died half-way through a message
        return []
