"""Dataclasses made when their first instance is.

Making a dataclass compiles its methods (``__init__``, ``__repr__``, ``__eq__``
and, frozen, ``__setattr__``) from source: about 4 M instructions for a class
of fifteen fields, paid at import by every run, the pre-commit hook included,
whether or not the run ever makes one (a clean hook run makes no finding).
``@record`` is ``@dataclass`` put off until the class's first instance: the
first ``cls(...)``, copy or unpickling (each goes through ``__new__``) makes
the class, in place, and the instance is then made as a dataclass's is (the
check left in ``__new__`` costs one call per instance).

Only for classes that nothing reads before an instance exists: their fields
(``dataclasses.fields(cls)``) or a default through the class, and that no
dataclass subclasses.
"""
from __future__ import annotations

import threading

_LOCK = threading.Lock()


def record(cls=None, /, **params):
    """``@dataclass(**params)``, made on the first instance."""
    def wrap(cls):
        def __new__(klass, *args, **kwargs):
            # stays after the class is made: removing it would leave Python's
            # slot calling object.__new__ with the arguments, which it refuses
            if "__dataclass_fields__" not in cls.__dict__:
                make(cls)
            return object.__new__(klass)

        cls.__new__ = __new__
        cls.__record_params__ = params
        return cls

    return wrap if cls is None else wrap(cls)


def make(cls) -> type:
    """Make the dataclass ``cls`` now (once; later calls return at once)."""
    if "__dataclass_fields__" not in cls.__dict__:
        with _LOCK:
            if "__dataclass_fields__" not in cls.__dict__:
                from dataclasses import dataclass

                dataclass(cls, **cls.__dict__["__record_params__"])
    return cls
