"""Check ``tools/call`` arguments against a tool's input schema before anything is sent.

A small validator for the JSON Schema subset the catalogue uses (type, enum,
required, additionalProperties, bounds, items, anyOf, nested properties). Its
errors name the parameter and what was expected, so the model can correct the
call and retry. Models often send JSON-encoded strings for objects, arrays,
numbers and booleans; a string that decodes to exactly the expected type is
accepted as that value (the reference bridge does the same).

Closed schemas close all the way down: when a tool's top level says
``additionalProperties: false`` (every catalogue tool does), a nested object that
lists its ``properties`` and says nothing about ``additionalProperties`` refuses
keys it does not list, apart from ``type`` (the C7 tag key, as in
``{"type": "Vector3", "x": ..}``). A misspelt key deep in a call is refused by
name instead of being dropped. The catalogue's nested schemas stay identical to
the reference's; an extension that leaves its top level open keeps plain JSON
Schema semantics throughout.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from godot_bridge.errors import RequestError, ToolError

_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _type_ok(value: Any, name: str) -> bool:
    if name in ("integer", "number") and isinstance(value, bool):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _PY_TYPES.get(name, (object,)))


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def _types_of(schema: dict[str, Any]) -> list[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    return []


def _coerce(value: Any, schema: dict[str, Any]) -> Any:
    """Decode a JSON-encoded string when the schema wants a non-string and the decoded value fits."""
    if not isinstance(value, str):
        return value
    wanted = _types_of(schema) or [t for s in schema.get("anyOf", []) for t in _types_of(s)]
    if not wanted or "string" in wanted:
        return value
    try:
        decoded = json.loads(value)
    except (json.JSONDecodeError, ValueError):
        return value
    return decoded if any(_type_ok(decoded, t) for t in wanted) else value


# Allowed in a nested object closed by the rule above: the C7 type tag.
_TAG_KEY = "type"


class _Invalid(RequestError):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path


def _check(value: Any, schema: dict[str, Any], path: str, closed: bool) -> Any:
    """Validate (and coerce) ``value``; returns the possibly-coerced value or raises _Invalid.

    ``closed``: the tool's top level is closed, so nested objects listing their properties are too.
    """
    value = _coerce(value, schema)
    if isinstance(schema.get("anyOf"), list) and schema["anyOf"]:
        errors = []
        for option in [o for o in schema["anyOf"] if isinstance(o, dict)] or [{}]:
            try:
                return _check(value, option, path, closed)
            except _Invalid as exc:
                errors.append(str(exc).removeprefix(f"{path}: "))
        raise _Invalid(path, "matches none of the accepted forms (" + "; ".join(errors) + ")")
    types = _types_of(schema)
    if types and not any(_type_ok(value, t) for t in types):
        raise _Invalid(path, f"expected {' or '.join(types)}, got {_describe(value)}")
    if "integer" in types and isinstance(value, float):
        value = int(value)
    if isinstance(schema.get("enum"), list) and value not in schema["enum"]:
        allowed = ", ".join(json.dumps(v) for v in schema["enum"])
        raise _Invalid(path, f"{json.dumps(value)} is not one of {allowed}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        _check_bounds(value, schema, path)
    if isinstance(value, list):
        min_items = schema.get("minItems", 0)
        if _is_number(min_items) and len(value) < min_items:
            raise _Invalid(path, f"needs at least {schema['minItems']} item(s)")
        items = schema.get("items")
        if isinstance(items, dict):
            value = [_check(v, items, f"{path}[{i}]", closed) for i, v in enumerate(value)]
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        value = _check_object(value, schema, path, closed)
    return value


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _check_bounds(value: float, schema: dict[str, Any], path: str) -> None:
    # Schemas can come from extensions: a non-numeric bound is ignored, never a crash.
    def bound(key: str) -> float | None:
        b = schema.get(key)
        return b if _is_number(b) else None

    if (b := bound("minimum")) is not None and value < b:
        raise _Invalid(path, f"must be >= {b}, got {value}")
    if (b := bound("maximum")) is not None and value > b:
        raise _Invalid(path, f"must be <= {b}, got {value}")
    if (b := bound("exclusiveMinimum")) is not None and value <= b:
        raise _Invalid(path, f"must be > {b}, got {value}")
    if (b := bound("exclusiveMaximum")) is not None and value >= b:
        raise _Invalid(path, f"must be < {b}, got {value}")


def _unknown_keys(value: dict[str, Any], schema: dict[str, Any], path: str, closed: bool) -> list[str]:
    """Keys of ``value`` this object schema refuses."""
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    extra = schema.get("additionalProperties", None)
    if extra is False:
        return [k for k in value if k not in props]
    if extra is None and closed and path and props:
        return [k for k in value if k not in props and k != _TAG_KEY]
    return []


def closest(key: str, names: list[str], prefer: list[str] | None = None) -> str | None:
    """The name ``key`` most likely meant: a close spelling, else one that contains it or that it
    contains (``path`` -> ``file_path``), the names in ``prefer`` (the missing required ones) first."""
    ordered = [*(prefer or []), *(n for n in names if n not in (prefer or []))]
    close = difflib.get_close_matches(key, ordered, n=1, cutoff=0.6)
    if close:
        return close[0]
    lowered = key.lower()
    return next((n for n in ordered if lowered in n.lower() or n.lower() in lowered), None)


def _unknown_message(key: str, props: dict[str, Any], path: str, missing: list[str] | None = None) -> str:
    guess = closest(key, list(props), missing)
    hint = f"; did you mean {guess!r}?" if guess else ""
    what = "a key of this object" if path else "a parameter of this tool"
    return f"is not {what}{hint} (accepted: {', '.join(props)})"


def _check_object(value: dict[str, Any], schema: dict[str, Any], path: str, closed: bool) -> dict[str, Any]:
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    required = schema.get("required")
    required = [r for r in required if isinstance(r, str)] if isinstance(required, list) else []
    prefix = f"{path}." if path else ""
    missing = [r for r in required if r not in value]
    unknown = _unknown_keys(value, schema, path, closed)
    if unknown:
        # An unknown key first: it is usually the missing one misnamed ({"path": ..} for file_path).
        raise _Invalid(prefix + unknown[0], _unknown_message(unknown[0], props, path, missing))
    if missing:
        raise _Invalid(prefix + missing[0], "is required" + (f" (also missing: {', '.join(missing[1:])})"
                                                              if len(missing) > 1 else ""))
    out = dict(value)
    for key, sub in props.items():
        if key in value and isinstance(sub, dict):
            out[key] = _check(value[key], sub, prefix + key, closed)
    return out


def validate_arguments(arguments: Any, schema: dict[str, Any]) -> dict[str, Any]:
    """Validated (and coerced) arguments, or ``ToolError(INVALID_PARAMS)`` naming the parameter."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ToolError("INVALID_PARAMS", f"arguments must be an object, got {_describe(arguments)}")
    try:
        checked = _check_object(arguments, schema, "", schema.get("additionalProperties") is False)
        _check_text(checked)
        return checked
    except _Invalid as exc:
        raise ToolError("INVALID_PARAMS", f"Invalid argument {exc}", extra={"param": exc.path}) from None


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _check_text(arguments: dict[str, Any]) -> None:
    """Refuse a lone surrogate (``"\\ud800"``) anywhere in the arguments, naming where.

    JSON can carry one, UTF-8 cannot: forwarded, it would break the editor frame and with it
    the connection every other call in flight uses.
    """
    stack: list[tuple[Any, str]] = [(arguments, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if _has_lone_surrogate(value):
                raise _Invalid(path, "contains a lone UTF-16 surrogate (not valid Unicode text)")
        elif isinstance(value, dict):
            for key, item in value.items():
                where = f"{path}.{key}" if path else str(key)
                if _has_lone_surrogate(key):
                    raise _Invalid(path or "arguments", f"has a key {key!r} with a lone UTF-16 surrogate")
                stack.append((item, where))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
