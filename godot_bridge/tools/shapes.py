"""Plain validation of JSON data against a dataclass's field types (the catalogue and prompts files).

Why not pydantic: importing it (with its plugin
lookup through importlib.metadata) was a tenth of start-up. The files are small and their
types simple, so this checks exactly the types those dataclasses use: ``str``, ``bool``,
``int``, ``Any``, ``X | None``, ``Literal[...]``, ``list[X]``, ``dict[str, X]`` and nested
dataclasses (in lists, or one as a field). Values are strict JSON types (no coercion: ``"5"`` is not an int, ``true`` is
not 1). Errors name the field: ``field annotations.readOnly: must be a boolean``.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from godot_bridge.errors import DefinitionError

T = TypeVar("T")


class ShapeError(DefinitionError, ValueError):
    """Data that does not fit its dataclass; the message names the field."""


_NAMES = {str: "a string", bool: "a boolean", int: "an integer", float: "a number"}
Problem = tuple[str, str]  # (path inside the field, what the value must be)
Check = typing.Callable[[Any], "Problem | None"]


@functools.cache
def _checker(tp: Any) -> Check:
    """A function telling whether a value fits ``tp``, built once per type (start-up runs it ~10,000 times)."""
    if tp is Any:
        return _anything
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return _union([_checker(arm) for arm in get_args(tp)])
    if origin is Literal:
        allowed = frozenset(get_args(tp))
        expected = ("", f"one of {', '.join(map(str, get_args(tp)))}")
        return lambda value: None if isinstance(value, str) and value in allowed else expected
    if tp is type(None):
        return lambda value: None if value is None else ("", "null")
    if tp in _NAMES:
        wrong = ("", _NAMES[tp])
        if tp is bool:
            return lambda value: None if isinstance(value, bool) else wrong
        return lambda value: None if isinstance(value, tp) and not isinstance(value, bool) else wrong
    if origin is list:
        return _list(_checker(get_args(tp)[0]))
    if origin is dict:
        return _dict(_checker(get_args(tp)[1]))
    if dataclasses.is_dataclass(tp):
        return _dataclass(tp)  # type: ignore[arg-type]
    raise TypeError(f"shapes cannot check {tp!r}")  # a programming error in a dataclass, not bad data


def _union(arms: list[Check]) -> Check:
    nullable = any(arm(None) is None for arm in arms)

    def check(value: Any) -> Problem | None:
        if value is None and nullable:
            return None
        problems = []
        for arm in arms:
            problem = arm(value)
            if problem is None:
                return None
            problems.append(problem)
        deepest = max(problems, key=lambda p: len(p[0]))
        return deepest if deepest[0] else ("", " or ".join(p[1] for p in problems))
    return check


def _list(item: Check) -> Check:
    def check(value: Any) -> Problem | None:
        if not isinstance(value, list):
            return ("", "a list")
        for i, v in enumerate(value):
            problem = item(v)
            if problem is not None:
                return (f"[{i}]{problem[0]}", problem[1])
        return None
    return check


def _anything(value: Any) -> Problem | None:
    return None


def _dict(item: Check) -> Check:
    if item is _anything:  # dict[str, Any] (a JSON schema): the object itself is the whole check
        return lambda value: None if isinstance(value, dict) else ("", "an object")

    def check(value: Any) -> Problem | None:
        if not isinstance(value, dict):
            return ("", "an object")
        for k, v in value.items():
            problem = item(v)
            if problem is not None:
                return (f".{k}{problem[0]}", problem[1])
        return None
    return check


def _dataclass(tp: type) -> Check:
    def check(value: Any) -> Problem | None:
        if isinstance(value, tp):
            return None  # built (and checked) already
        if not isinstance(value, dict):
            return ("", "an object")
        try:
            build(tp, value)
        except ShapeError as exc:
            return ("", f"valid ({exc})")
        return None
    return check


@functools.cache
def _field_checks(cls: type) -> tuple[tuple[str, Check], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _checker(hints[f.name])) for f in dataclasses.fields(cls))  # type: ignore[arg-type]


@functools.cache
def _fields_of(cls: type) -> tuple[dict[str, Any], frozenset[str], dict[str, Any], dict[str, Any]]:
    """(init fields by name, the required ones, the item dataclass of each list-of-dataclass field,
    the dataclass of each field holding one nested object)."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    required = frozenset(
        name for name, f in fields.items()
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    nested = {}
    single = {}
    for name in fields:
        tp = hints[name]
        if get_origin(tp) is list and dataclasses.is_dataclass(get_args(tp)[0]):
            nested[name] = get_args(tp)[0]
        elif get_origin(tp) in (Union, types.UnionType):
            arms = [arm for arm in get_args(tp) if dataclasses.is_dataclass(arm)]
            if len(arms) == 1:  # an optional nested object (a tool's "asks")
                single[name] = arms[0]
        elif dataclasses.is_dataclass(tp):
            single[name] = tp
    return fields, required, nested, single


def check_fields(obj: Any) -> None:
    """Raise ShapeError unless every field of dataclass ``obj`` holds a value of its declared type."""
    for name, check in _field_checks(type(obj)):
        problem = check(getattr(obj, name))
        if problem is not None:
            raise ShapeError(f"field {name}{problem[0]}: must be {problem[1]}")


def build(cls: type[T], entry: Mapping[str, Any]) -> T:
    """``cls(**entry)`` for a dataclass, refusing unknown and missing fields with a clear message.

    The dataclass's ``__post_init__`` does the type check (``check_fields``) and its own rules.
    """
    if not isinstance(entry, Mapping):
        raise ShapeError("must be an object")
    fields, required, nested, single = _fields_of(cls)
    unknown = sorted(set(entry) - fields.keys())
    if unknown:
        raise ShapeError(f"field {unknown[0]}: not a known field (known: {', '.join(fields)})")
    missing = sorted(required - entry.keys())
    if missing:
        raise ShapeError(f"field {missing[0]}: required")
    values = dict(entry)
    for name, item in nested.items():  # lists of dataclasses (prompt arguments) become instances
        if isinstance(values.get(name), list):
            values[name] = [build(item, v) if isinstance(v, Mapping) else v for v in values[name]]
    for name, inner in single.items():
        if isinstance(values.get(name), Mapping):
            try:
                values[name] = build(inner, values[name])
            except ShapeError as exc:
                raise ShapeError(f"field {name}.{str(exc).removeprefix('field ')}") from None
    return cls(**values)
