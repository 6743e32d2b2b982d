"""MCP prompts: short, reusable instructions that put the tools to work (``catalogue/prompts.json``).

A prompt's ``text`` is a list of lines with placeholders: ``{arg}`` is the argument's value and
``{arg:choice}`` the text the argument's ``choices`` give for that value. Loading checks that
every placeholder names a declared argument; rendering checks required arguments and choices.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from dataclasses import dataclass, field

from godot_bridge.errors import RequestError
from godot_bridge.tools.catalogue import catalogue_dir
from godot_bridge.tools.shapes import build, check_fields

PROMPTS_FILE = "prompts.json"
_PLACEHOLDER = re.compile(r"\{(\w+)(:choice)?\}")


class PromptError(RequestError, ValueError):
    """Bad arguments for a prompt, or a malformed prompts file; the message says what."""


@dataclass(frozen=True)
class PromptArgument:
    name: str
    description: str
    required: bool = False
    choices: dict[str, str] | None = None
    default: str | None = None

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class PromptDef:
    name: str
    title: str
    description: str
    text: list[str]
    arguments: list[PromptArgument] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_fields(self)
        args = {a.name: a for a in self.arguments}
        for line in self.text:
            for name, choice in _PLACEHOLDER.findall(line):
                if name not in args:
                    raise ValueError(f"placeholder {{{name}}} names no argument")
                if choice and not args[name].choices:
                    raise ValueError(f"placeholder {{{name}:choice}} but {name} has no choices")
        for a in self.arguments:
            if a.default is not None and a.choices and a.default not in a.choices:
                raise ValueError(f"argument {a.name}: default {a.default!r} is not one of its choices")

    def listing(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "arguments": [
                {"name": a.name, "description": a.description, "required": a.required} for a in self.arguments
            ],
        }

    def render(self, given: dict[str, str] | None) -> str:
        values = self._values(dict(given or {}))

        def fill(match: re.Match[str]) -> str:
            name, choice = match.group(1), match.group(2)
            if choice:
                arg = next(a for a in self.arguments if a.name == name)
                return (arg.choices or {})[values[name]]
            return values[name]

        return "\n".join(_PLACEHOLDER.sub(fill, line) for line in self.text)

    def _values(self, given: dict[str, str]) -> dict[str, str]:
        known = {a.name for a in self.arguments}
        unknown = sorted(set(given) - known)
        if unknown:
            raise PromptError(f"prompt {self.name}: unknown argument(s) {unknown}; it takes {sorted(known)}")
        values: dict[str, str] = {}
        for a in self.arguments:
            value = given.get(a.name)
            value = value.strip() if isinstance(value, str) else None
            if not value:
                if a.required:
                    raise PromptError(f"prompt {self.name}: argument {a.name} is required ({a.description})")
                value = a.default or ""
            if a.choices and value not in a.choices:
                raise PromptError(f"prompt {self.name}: {a.name}={value!r} is not one of {', '.join(a.choices)}")
            values[a.name] = value
        return values


def load_prompts(directory: Path | None = None) -> dict[str, PromptDef]:
    if directory is None:
        return _load_default()
    return _load(directory / PROMPTS_FILE)


@functools.lru_cache(maxsize=1)
def _load_default() -> dict[str, PromptDef]:
    return _load(catalogue_dir() / PROMPTS_FILE)


def _load(path: Path) -> dict[str, PromptDef]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PromptError(f"{path}: cannot be read as JSON: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("prompts"), list):
        raise PromptError(f'{path}: expected an object {{"prompts": [...]}}')
    out: dict[str, PromptDef] = {}
    for index, entry in enumerate(data["prompts"]):
        try:
            prompt = build(PromptDef, entry)
        except ValueError as exc:  # ShapeError, or a placeholder/default rule above
            raise PromptError(f"{path}: prompt #{index}: {exc}") from exc
        if prompt.name in out:
            raise PromptError(f"{path}: duplicate prompt {prompt.name!r}")
        out[prompt.name] = prompt
    return out


class PromptService:
    def __init__(self, prompts: dict[str, PromptDef] | None = None) -> None:
        self.prompts = prompts if prompts is not None else load_prompts()

    def list(self) -> list[dict[str, Any]]:
        return [p.listing() for p in self.prompts.values()]

    def get(self, name: str, arguments: dict[str, str] | None) -> dict[str, Any]:
        """The ``prompts/get`` result; raises PromptError."""
        prompt = self.prompts.get(name)
        if prompt is None:
            raise PromptError(f"unknown prompt {name!r}; prompts: {', '.join(self.prompts)}")
        text = prompt.render(arguments)
        return {"description": prompt.description,
                "messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
