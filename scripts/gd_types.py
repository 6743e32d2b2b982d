#!/usr/bin/env python3
"""CI: GDScript that parses and lints clean but that Godot's analyzer refuses to compile.

Two kinds of compile error that gdparse/gdlint (gd_check) cannot see, over every .gd under
addons/ and tests/godot/:

1. `:=` from a value with no usable static type. The analyzer infers a declaration's type only
   from a *hard* type (an annotation, a literal, a constructor, an engine method's declared
   return). Dictionary.get(), subscripts of untyped containers, anything read off an untyped
   value, calls to functions without a return annotation and operators with such an operand
   have none: "Cannot infer the type of "x" variable because the value doesn't have a set type".
   Engine functions declared to return Variant (Object.get, call, callv, JSON.parse_string,
   abs, max, ...) give a hard Variant instead, which INFERENCE_ON_VARIANT -- an error by default
   wherever warnings are on (tests/godot, and addons/ once a project stops excluding addons) --
   refuses. Both are reported.
2. Names the engine reserves: a class member (const, var, signal, enum, enum value, inner class)
   named after a builtin Variant type ("The member "Projection" cannot have the same name as a
   builtin type") or an engine class of any of 4.2..4.7 ("shadows a native class"), and a
   class_name or inner class that hides one. A func of such a name is flagged as well: the
   analyzer lets it through, but it hides the type everywhere in the script.

(1) is a small type inference over gdtoolkit's parse tree that follows the analyzer's rules
(gdscript_analyzer.cpp: resolve_assignable, reduce_binary_op, reduce_subscript, reduce_call,
resolve_for). Whenever it cannot be sure of a type it answers "unknown" and stays quiet, so a
report means the value is provably untyped; the price is blind spots (see the unit tests).
Exit status: 0 clean, 1 problems (each printed as path:line: check: message).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from lark import Token, Tree

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gd_common import (  # noqa: E402
    COMPAT_MAP_NAME,
    REPO,
    fail_exit,
    find_reference,
    gd_files,
    parse_tree,
    resolve_script_path,
)
from gd_compat import VERSIONS, describe_presence, load_map  # noqa: E402

ROOTS = ("addons", "tests/godot")

# Every name GDScriptParser::get_builtin_type() knows (Variant::get_type_name of each type but Nil).
BUILTIN_TYPES = frozenset(
    """
    bool int float String StringName NodePath Vector2 Vector2i Vector3 Vector3i Vector4 Vector4i
    Rect2 Rect2i Transform2D Transform3D Plane Quaternion AABB Basis Projection Color RID Object
    Callable Signal Dictionary Array PackedByteArray PackedInt32Array PackedInt64Array
    PackedFloat32Array PackedFloat64Array PackedStringArray PackedVector2Array PackedVector3Array
    PackedColorArray PackedVector4Array
    """.split()
)
# reduce_subscript(): what indexing a (non-container) builtin gives.
_INDEXED_ELEMENT = {
    "PackedByteArray": "int", "PackedInt32Array": "int", "PackedInt64Array": "int",
    "PackedFloat32Array": "float", "PackedFloat64Array": "float", "PackedStringArray": "String",
    "PackedVector2Array": "Vector2", "PackedVector3Array": "Vector3", "PackedColorArray": "Color",
    "PackedVector4Array": "Vector4", "String": "String",
    "Vector2": "float", "Vector3": "float", "Vector4": "float", "Quaternion": "float",
    "Vector2i": "int", "Vector3i": "int", "Vector4i": "int",
    "Rect2": "Vector2", "Transform2D": "Vector2", "Rect2i": "Vector2i", "AABB": "Vector3", "Basis": "Vector3",
}

# Builtin-type methods declared to return Variant (everything else on a builtin is typed).
VARIANT_BUILTIN_METHODS = {
    "Dictionary": frozenset({"get", "get_or_add", "find_key"}),
    "Array": frozenset({"get", "front", "back", "pop_front", "pop_back", "pop_at", "pick_random", "max", "min",
                        "reduce"}),
    "Callable": frozenset({"call", "callv"}),
}
# A few typed returns worth knowing so that chains like `d.keys()[0]` can be followed.
BUILTIN_RETURNS = {
    "keys": "Array", "values": "Array", "slice": "Array", "filter": "Array", "map": "Array",
    "merged": "Dictionary", "split": "PackedStringArray", "size": "int", "length": "int", "find": "int",
    "has": "bool", "is_empty": "bool", "to_int": "int", "to_float": "float", "hash": "int",
}
# Engine-class methods declared to return Variant, by the class that declares them.
VARIANT_NATIVE_METHODS = {
    "Object": frozenset({"get", "get_indexed", "get_meta", "call", "callv", "call_deferred", "get_script",
                         "property_get_revert"}),
    "JSON": frozenset({"parse_string", "get_data"}),
    "ProjectSettings": frozenset({"get_setting", "get_setting_with_override"}),
    "EditorSettings": frozenset({"get_setting", "get_project_metadata"}),
    "ConfigFile": frozenset({"get_value"}),
    "WeakRef": frozenset({"get_ref"}),
    "Expression": frozenset({"execute"}),
    "StreamPeer": frozenset({"get_var"}),
    "PacketPeer": frozenset({"get_var"}),
    "FileAccess": frozenset({"get_var"}),
    "ClassDB": frozenset({"instantiate", "class_get_property"}),
    "Marshalls": frozenset({"base64_to_variant"}),
    "Thread": frozenset({"wait_to_finish"}),
}
VARIANT_NATIVE_PROPERTIES = {"JSON": frozenset({"data"})}
# Method names that return Variant on every engine type that has them, so a call is untyped
# even when the receiver's type is unknown (unless a script of ours defines one with a type).
ALWAYS_VARIANT_NAMES = frozenset({"get", "get_indexed", "get_meta", "call", "callv", "parse_string",
                                  "get_setting", "get_var", "get_ref"})

# Global functions. "Variant" ones are declared -> Variant; None means void.
_MATH_WITH_TYPED_TWINS = frozenset("abs sign floor ceil round clamp lerp min max snapped wrap".split())
UTILITY_RETURNS: dict[str, str | None] = {
    **{name: "Variant" for name in "abs sign floor ceil round clamp lerp min max snapped wrap str_to_var "
                                   "bytes_to_var bytes_to_var_with_objects type_convert weakref".split()},
    **{name: "float" for name in "absf signf floorf ceilf roundf clampf lerpf minf maxf snappedf wrapf sin cos tan "
                                 "asin acos atan atan2 sinh cosh tanh asinh acosh atanh sqrt pow exp log fmod "
                                 "fposmod randf randf_range randfn deg_to_rad rad_to_deg linear_to_db db_to_linear "
                                 "inverse_lerp remap smoothstep move_toward lerp_angle angle_difference ease "
                                 "pingpong bezier_interpolate bezier_derivative cubic_interpolate "
                                 "cubic_interpolate_angle cubic_interpolate_in_time "
                                 "cubic_interpolate_angle_in_time".split()},
    **{name: "int" for name in "absi signi floori ceili roundi clampi mini maxi snappedi wrapi posmod randi "
                               "randi_range hash len typeof ord nearest_po2 step_decimals rid_allocate_id".split()},
    **{name: "bool" for name in "is_nan is_inf is_finite is_equal_approx is_zero_approx is_instance_valid "
                                "is_instance_id_valid is_same is_instance_of type_exists".split()},
    **{name: "String" for name in "str var_to_str type_string error_string char".split()},
    "var_to_bytes": "PackedByteArray", "var_to_bytes_with_objects": "PackedByteArray",
    "rand_from_seed": "PackedInt64Array", "range": "Array", "get_stack": "Array", "inst_to_dict": "Dictionary",
    "dict_to_inst": "Object", "instance_from_id": "Object", "load": "Resource", "Color8": "Color",
    "rid_from_int64": "RID",
    **{name: None for name in "print print_rich print_verbose printerr printraw prints printt push_error "
                              "push_warning print_debug print_stack seed randomize assert".split()},
}

_COMPARISON_OPS = frozenset({"==", "!=", "<", ">", "<=", ">="})
_SHORT_CIRCUIT_OPS = frozenset({"and", "or", "&&", "||"})
_LOGIC_OPS = frozenset({"in"})
_BINARY_RULES = frozenset(
    "comparison asless_comparison content_test asless_content_test or_test asless_or_test and_test "
    "asless_and_test bitw_or asless_bitw_or bitw_xor asless_bitw_xor bitw_and asless_bitw_and shift_expr "
    "asless_shift_expr arith_expr asless_arith_expr mdr_expr asless_mdr_expr pow_expr asless_pow_expr".split()
)


# --- types -----------------------------------------------------------------------------------

VARIANT, BUILTIN, OBJECT, ENUM, NULL, OPAQUE = "variant", "builtin", "object", "enum", "null", "opaque"


@dataclass(frozen=True)
class Ty:
    """What the analyzer knows of a value. `hard` mirrors DataType::is_hard_type().

    kind: VARIANT (no particular type), BUILTIN (name is a builtin type), OBJECT (an engine class
    `name` or a script `cls`), ENUM (a named enum used as a value), NULL, or OPAQUE (some definite
    type this checker does not track). A value whose type cannot be worked out is None, not a Ty.
    """

    kind: str
    name: str = ""
    hard: bool = True
    elem: Ty | None = None  # element type of a typed Array
    typed: bool = False  # a typed container (Array[T], Dictionary[K, V])
    meta: bool = False  # the class/type itself rather than a value of it
    const: bool = False  # a compile-time constant: the analyzer folds its subscripts
    cls: ClassModel | None = field(default=None, compare=False)
    why: str = ""  # for an untyped value: where the missing type comes from

    def weak(self, why: str = "") -> Ty:
        return replace(self, hard=False, const=False, why=why or self.why)


def builtin(name: str, *, const: bool = False) -> Ty:
    return Ty(BUILTIN, name, const=const)


def untyped(why: str, *, hard: bool = False) -> Ty:
    return Ty(VARIANT, hard=hard, why=why)


# --- class models ------------------------------------------------------------------------------


@dataclass
class Member:
    kind: str  # var, const, func, signal, enum, enum_value, class
    name: str
    line: int
    hint: str | None = None  # declared type (var/const) or return type (func)
    init: Tree | Token | None = None
    inferred: bool = False  # declared with :=


@dataclass(eq=False)
class ClassModel:
    name: str
    rel: Path
    outer: ClassModel | None
    extends: str | None = None  # a class name (maybe dotted) or a quoted script path
    class_name_line: int = 0
    members: dict[str, Member] = field(default_factory=dict)
    ordered: list[Member] = field(default_factory=list)  # duplicates kept, for the name check
    inner: dict[str, ClassModel] = field(default_factory=dict)
    body: list[Tree | Token] = field(default_factory=list)

    def add(self, member: Member) -> None:
        self.ordered.append(member)
        self.members.setdefault(member.name, member)


def _kids(tree: Tree) -> list[Tree | Token]:
    return [child for child in tree.children if child is not None]


def _first(tree: Tree, token_type: str) -> Token | None:
    for child in _kids(tree):
        if isinstance(child, Token) and child.type == token_type:
            return child
    return None


def _trees(tree: Tree) -> list[Tree]:
    return [child for child in _kids(tree) if isinstance(child, Tree)]


def _string_value(node: Tree | Token) -> str | None:
    if isinstance(node, Tree) and node.data in {"string", "rstring"} and node.children:
        text = str(node.children[0])
        text = text[1:] if text.startswith("r") else text
        quote = 3 if text[:3] in ('"""', "'''") else 1
        return text[quote:-quote]
    return None


def build_class(tree: Tree, rel: Path, name: str, outer: ClassModel | None) -> ClassModel:
    """Members of a class (the file's top level or a `class X:` body), without resolving any type."""
    model = ClassModel(name, rel, outer)
    for stmt in _kids(tree):
        if isinstance(stmt, Tree):
            _collect(model, stmt)
    return model


def _collect(model: ClassModel, stmt: Tree) -> None:
    data = stmt.data
    if data in {"extends_stmt", "classname_extends_stmt", "classname_stmt"}:
        _collect_header(model, stmt)
    elif data in {"class_var_stmt", "static_class_var_stmt"}:
        decl = _trees(stmt)[0] if data == "static_class_var_stmt" else stmt
        model.add(_var_member(_trees(decl)[0]))
    elif data == "const_stmt":
        model.add(_var_member(_trees(stmt)[0], kind="const"))
    elif data in {"func_def", "static_func_def", "abstract_func_def"}:
        model.add(_func_member(stmt))
    elif data == "signal_stmt":
        token = _first(stmt, "NAME")
        if token is not None:
            model.add(Member("signal", str(token), token.line or 0))
    elif data == "enum_stmt":
        _collect_enum(model, _trees(stmt)[0])
    elif data == "class_def":
        token = _first(stmt, "NAME")
        if token is not None:
            inner = build_class(Tree("class_body", [c for c in _kids(stmt) if c is not token]), model.rel,
                                str(token), model)
            model.inner[str(token)] = inner
            model.add(Member("class", str(token), token.line or 0))
    model.body.append(stmt)


def _collect_header(model: ClassModel, stmt: Tree) -> None:
    kids = _kids(stmt)
    if stmt.data in {"classname_stmt", "classname_extends_stmt"}:
        names = [k for k in kids if isinstance(k, Token) and k.type == "NAME"]
        if names:
            model.name = str(names[0])
            model.class_name_line = names[0].line or 0
    start = 0
    for index, kid in enumerate(kids):
        if isinstance(kid, Token) and kid.type == "EXTENDS":
            start = index + 1
    if stmt.data == "classname_stmt":
        return
    parts = kids[start:] if stmt.data == "classname_extends_stmt" else kids
    path = next((_string_value(k) for k in parts if isinstance(k, Tree)), None)
    model.extends = f'"{path}"' if path is not None else ".".join(str(k) for k in parts if isinstance(k, Token))


def _var_member(decl: Tree, kind: str = "var") -> Member:
    kids = _kids(decl)
    name = kids[0]
    hint = next((str(k) for k in kids[1:] if isinstance(k, Token) and k.type == "TYPE_HINT"), None)
    init = next((k for k in kids[1:] if isinstance(k, Tree) and k.data == "expr"), None)
    inferred = decl.data in {"class_var_inf", "const_inf", "func_var_inf"}
    return Member(kind, str(name), name.line or 0, hint, init, inferred)


def _func_member(stmt: Tree) -> Member:
    func = _trees(stmt)[0] if stmt.data == "static_func_def" else stmt
    header = _trees(func)[0]
    name = _kids(header)[0]
    hint = _first(header, "TYPE_HINT")
    return Member("func", str(name), name.line or 0, str(hint) if hint else None)


def _collect_enum(model: ClassModel, enum: Tree) -> None:
    if enum.data == "enum_named":
        token = _first(enum, "NAME")
        if token is not None:
            model.add(Member("enum", str(token), token.line or 0))
        return
    for body in _trees(enum):
        for element in _trees(body):
            token = _first(element, "NAME") if element.children else None
            if token is not None:
                model.add(Member("enum_value", str(token), token.line or 0))


# --- the checker -------------------------------------------------------------------------------


@dataclass
class Ctx:
    """Where an expression sits: its class and the local scopes around it (innermost last)."""

    cls: ClassModel
    scopes: list[dict[str, Ty | None]]

    def child(self) -> Ctx:
        return Ctx(self.cls, [*self.scopes, {}])

    def declare(self, name: str, ty: Ty | None) -> None:
        self.scopes[-1][name] = ty

    def local(self, name: str) -> tuple[bool, Ty | None]:
        for scope in reversed(self.scopes):
            if name in scope:
                return True, scope[name]
        return False, None


class Checker:
    """Type inference over a set of scripts, reporting `:=` from untyped values and reserved names."""

    def __init__(self, repo: Path, files: list[Path], native: dict[str, str], parents: dict[str, str]) -> None:
        self.repo = repo
        self.native = native  # engine class -> presence flags over VERSIONS
        self.parents = parents  # engine class -> its parent class
        self.problems: list[str] = []
        self.sources: dict[Path, str] = {}
        self.models: dict[Path, ClassModel | None] = {}
        for rel in files:
            self.model(rel)
        self.class_names = {
            model.name: rel for rel, model in self.models.items() if model is not None and model.class_name_line
        }
        # Methods some script of ours declares with a definite return type: a call of that name on
        # an unknown receiver may be one of them.
        self.typed_methods = {
            member.name
            for model in self._all_classes()
            for member in model.members.values()
            if member.kind == "func" and member.hint not in {None, "Variant"}
        }
        self._resolving: set[tuple[int, str]] = set()
        self._bases: set[int] = set()
        # >0 while inferring a member's type for a lookup: that walk may pass through lambdas
        # already checked (or to be checked) in their own right, so it must not report.
        self._quiet = 0

    # -- loading --------------------------------------------------------------------------------

    def model(self, rel: Path) -> ClassModel | None:
        if rel in self.models:
            return self.models[rel]
        self.models[rel] = None  # also guards against preload cycles
        path = self.repo / rel
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8")
        self.sources[rel] = text
        try:
            tree = parse(text)
        except Exception as exc:  # noqa: BLE001 - lark raises many kinds; gd_check reports the detail
            line = getattr(exc, "line", "?")
            self.problems.append(f"{rel.as_posix()}:{line}: parse: cannot analyse ({type(exc).__name__})")
            return None
        model = build_class(tree, rel, rel.stem, None)
        self.models[rel] = model
        return model

    def _all_classes(self) -> Iterator[ClassModel]:
        stack = [model for model in self.models.values() if model is not None]
        while stack:
            model = stack.pop()
            yield model
            stack.extend(model.inner.values())

    # -- running --------------------------------------------------------------------------------

    def run(self, files: list[Path]) -> list[str]:
        for rel in files:
            model = self.models.get(rel)
            if model is not None:
                self.check_names(model)
                self.check_class(model)
        return self.problems

    def report(self, cls: ClassModel, line: int, check: str, message: str) -> None:
        problem = f"{cls.rel.as_posix()}:{line}: {check}: {message}"
        if not self._quiet and problem not in self.problems:
            self.problems.append(problem)

    # -- (2) reserved names ---------------------------------------------------------------------

    def check_names(self, cls: ClassModel) -> None:
        if cls.class_name_line or cls.outer is not None:
            line = cls.class_name_line or self._inner_line(cls)
            label = "class_name" if cls.outer is None else "inner class"
            if cls.name in BUILTIN_TYPES:
                self.report(cls, line, "member-name", f"{label} '{cls.name}' hides a built-in type")
            elif cls.name in self.native:
                self.report(cls, line, "member-name",
                            f"{label} '{cls.name}' hides a native class{self._versions(cls.name)}")
        for member in cls.ordered:
            if member.kind == "class":
                continue  # reported by the inner class itself, with its own wording
            if member.kind == "func" and (member.name in BUILTIN_TYPES or member.name in self.native):
                # The analyzer does not refuse these outright, but inside the script the name
                # stops meaning the type (`Timer.new()` finds the function), so reject them too.
                kind = "builtin type" if member.name in BUILTIN_TYPES else "engine class"
                self.report(cls, member.line, "member-name",
                            f"the func '{member.name}' shadows the {kind} of that name")
            elif member.name in BUILTIN_TYPES:
                self.report(cls, member.line, "member-name",
                            f"the {member.kind} '{member.name}' has the same name as a builtin type")
            elif member.name in self.native:
                self.report(cls, member.line, "member-name",
                            f"the {member.kind} '{member.name}' shadows a native class{self._versions(member.name)}")
        for inner in cls.inner.values():
            self.check_names(inner)

    def _inner_line(self, cls: ClassModel) -> int:
        assert cls.outer is not None
        member = cls.outer.members.get(cls.name)
        return member.line if member else 0

    def _versions(self, name: str) -> str:
        present = self.native[name]
        if present == "Y" * len(VERSIONS):
            return ""
        return f" (engine class {describe_presence(present, _intro(present))})"

    # -- (1) inference: statements --------------------------------------------------------------

    def check_class(self, cls: ClassModel) -> None:
        ctx = Ctx(cls, [])
        last_var: Member | None = None
        for stmt in cls.body:
            if not isinstance(stmt, Tree):
                continue
            data = stmt.data
            if data in {"class_var_stmt", "static_class_var_stmt", "const_stmt"}:
                decl = _trees(stmt)[0]
                if decl.data == "class_var_stmt":  # under `static`
                    decl = _trees(decl)[0]
                kind = "const" if data == "const_stmt" else "var"
                last_var = _var_member(decl, kind)
                self.check_declaration(decl, ctx, kind)
            elif data == "property_body_def":
                self.walk_accessors(stmt, ctx, last_var)
            elif data in {"func_def", "static_func_def"}:
                func = _trees(stmt)[0] if data == "static_func_def" else stmt
                self.walk_function(func, ctx)
            elif data == "class_def":
                token = _first(stmt, "NAME")
                if token is not None and str(token) in cls.inner:
                    self.check_class(cls.inner[str(token)])

    def walk_accessors(self, body: Tree, ctx: Ctx, var: Member | None) -> None:
        for accessor in _trees(body):
            inner = ctx.child()
            kids = _kids(accessor)
            if accessor.data == "property_custom_setter":
                param = next((k for k in kids if isinstance(k, Token) and k.type == "NAME"), None)
                if param is not None:
                    hinted = self.ty_from_hint(var.hint, ctx.cls) if var and var.hint else None
                    inner.declare(str(param), hinted)
            self.walk_block([k for k in kids if isinstance(k, Tree)], inner)

    def walk_function(self, func: Tree, ctx: Ctx) -> None:
        kids = _kids(func)
        header = kids[0]
        inner = ctx.child()
        args = next((k for k in _kids(header) if isinstance(k, Tree) and k.data == "func_args"), None)
        if args is not None:
            self.declare_params(args, inner)
        self.walk_block(kids[1:], inner)

    def declare_params(self, args: Tree, ctx: Ctx) -> None:
        for arg in _trees(args):
            if arg.data == "func_arg_variadic":
                arg = _trees(arg)[0]
                ctx.declare(str(_kids(arg)[0]), builtin("Array"))
                continue
            kids = _kids(arg)
            name = str(kids[0])
            default = next((k for k in kids[1:] if isinstance(k, Tree)), None)
            default_ty = self.infer(default, ctx) if default is not None else None
            if arg.data == "func_arg_typed":
                ctx.declare(name, self.ty_from_hint(str(kids[1]), ctx.cls))
            elif arg.data == "func_arg_inf":
                member = Member("parameter", name, kids[0].line or 0, init=default, inferred=True)
                self.check_inference(ctx.cls, member, default_ty, "parameter")
                ctx.declare(name, default_ty if default_ty and default_ty.hard and default_ty.kind != VARIANT else None)
            elif default is None:
                ctx.declare(name, untyped(f"parameter '{name}' has no type"))
            else:
                ctx.declare(name, self._weak_of(default_ty, f"parameter '{name}' has no type (only a default)"))

    def walk_block(self, stmts: Iterable[Tree | Token], ctx: Ctx) -> None:
        for stmt in stmts:
            if isinstance(stmt, Tree):
                self.walk_statement(stmt, ctx)

    def walk_statement(self, stmt: Tree, ctx: Ctx) -> None:
        data = stmt.data
        if data == "func_var_stmt":
            self.check_declaration(_trees(stmt)[0], ctx, "var", local=True)
        elif data == "const_stmt":
            self.check_declaration(_trees(stmt)[0], ctx, "const", local=True)
        elif data == "if_stmt":
            for branch in _trees(stmt):
                self.walk_branch(branch, ctx, has_condition=branch.data != "else_branch")
        elif data == "while_stmt":
            self.walk_branch(stmt, ctx, has_condition=True)
        elif data in {"for_stmt", "for_stmt_typed"}:
            self.walk_for(stmt, ctx)
        elif data == "match_stmt":
            kids = _kids(stmt)
            self.infer(kids[0], ctx)
            for branch in kids[1:]:
                if isinstance(branch, Tree):
                    self.walk_match_branch(branch, ctx)
        else:
            for kid in _trees(stmt):
                self.infer(kid, ctx)  # expressions may hold lambdas with their own declarations

    def walk_branch(self, branch: Tree, ctx: Ctx, *, has_condition: bool) -> None:
        kids = _kids(branch)
        if has_condition and kids:
            self.infer(kids[0], ctx)
            kids = kids[1:]
        self.walk_block(kids, ctx.child())

    def walk_for(self, stmt: Tree, ctx: Ctx) -> None:
        kids = _kids(stmt)
        name = str(kids[0])
        hint = kids[1] if stmt.data == "for_stmt_typed" else None
        iterable = kids[2] if hint is not None else kids[1]
        body = kids[3:] if hint is not None else kids[2:]
        list_ty = self.infer(iterable, ctx)
        inner = ctx.child()
        if hint is not None:
            inner.declare(name, self.ty_from_hint(str(hint), ctx.cls))
        else:
            inner.declare(name, self.iteration_type(iterable, list_ty))
        self.walk_block(body, inner)

    def iteration_type(self, iterable: Tree | Token, list_ty: Ty | None) -> Ty | None:
        """resolve_for(): what a `for x in <list>` variable is."""
        call = _unwrap(iterable)
        if isinstance(call, Tree) and call.data == "standalone_call" and str(_kids(call)[0]) == "range":
            return builtin("int")
        if list_ty is None or list_ty.kind in {OBJECT, NULL}:
            return None
        if list_ty.kind == VARIANT:
            return untyped(f"it iterates over a value with no static type ({list_ty.why})")
        if list_ty.kind == ENUM or list_ty.name == "Dictionary":
            return untyped("it iterates over a Dictionary (its keys are Variant)")
        if list_ty.kind == OPAQUE:
            # The engine makes the variable Variant when the list is untyped; a typed list we
            # do not track could give anything.
            return None if list_ty.hard else untyped(f"it iterates over an untyped value ({list_ty.why})")
        element: Ty | None = None
        if list_ty.name == "Array":
            if not list_ty.typed:
                return untyped("it iterates over an untyped Array")
            element = list_ty.elem
        elif list_ty.name in {"int", "float", "String"}:
            element = builtin(list_ty.name)
        elif list_ty.name in {"Vector2i", "Vector3i"}:
            element = builtin("int")
        elif list_ty.name in {"Vector2", "Vector3"}:
            element = builtin("float")
        if element is None or list_ty.hard:
            return element
        return element.weak(f"it iterates over an untyped value ({list_ty.why})")

    def walk_match_branch(self, branch: Tree, ctx: Ctx) -> None:
        inner = ctx.child()
        kids = _kids(branch)
        for capture in kids[0].find_data("var_capture_pattern") if isinstance(kids[0], Tree) else ():
            inner.declare(str(_kids(capture)[0]), None)
        rest = kids[1:]
        if branch.data == "guarded_match_branch" and rest:
            self.infer(rest[0], inner)
            rest = rest[1:]
        self.walk_block(rest, inner)

    def check_declaration(self, decl: Tree, ctx: Ctx, kind: str, *, local: bool = False) -> None:
        """Type-check one var/const declaration; locals are then declared in the current scope."""
        member = _var_member(decl, kind)
        ty = self.infer(member.init, ctx) if member.init is not None else None
        if member.inferred and member.init is not None:
            self.check_inference(ctx.cls, member, ty, kind)
        if local:
            ctx.declare(member.name, self.declared_type(member, ty, ctx.cls))

    def check_inference(self, cls: ClassModel, member: Member, ty: Ty | None, kind: str) -> None:
        if ty is None:
            return
        source = self.snippet(cls.rel, member.init) if ty.kind in {VARIANT, NULL} or not ty.hard else ""
        fix = f"declare the type: `{kind} {member.name}: <Type> = ...`"
        if ty.kind == VARIANT and ty.hard:
            self.report(cls, member.line, "variant-inference",
                        f"`{kind} {member.name} := {source}` infers Variant ({ty.why}); INFERENCE_ON_VARIANT is "
                        f"an error by default; {fix}")
        elif ty.kind == VARIANT or not ty.hard:
            why = ty.why or "it has no static type"
            self.report(cls, member.line, "untyped-inference",
                        f"cannot infer the type of `{kind} {member.name} := {source}`: {why}; {fix}")
        elif ty.kind == NULL and kind != "const":
            self.report(cls, member.line, "untyped-inference",
                        f"cannot infer the type of `{kind} {member.name} := null`; {fix}")

    def declared_type(self, member: Member, init_ty: Ty | None, cls: ClassModel) -> Ty | None:
        """The type a declaration gives its name (resolve_assignable)."""
        if member.hint:
            ty = self.ty_from_hint(member.hint, cls)
            return replace(ty, const=True) if member.kind == "const" else ty
        if member.kind == "const":
            if init_ty is None:
                return Ty(OPAQUE, const=True)
            return replace(init_ty, hard=True, const=True)
        if member.inferred:
            # A refused `:=` was already reported; don't let it cascade into more reports.
            if init_ty is None or init_ty.kind in {VARIANT, NULL} or not init_ty.hard:
                return None
            return replace(init_ty, const=False, meta=init_ty.meta)
        if member.init is None:
            return untyped(f"'{member.name}' is declared without a type")
        return self._weak_of(init_ty, f"'{member.name}' is declared without a type (`var {member.name} = ...`)")

    @staticmethod
    def _weak_of(ty: Ty | None, why: str) -> Ty:
        if ty is None:
            return Ty(OPAQUE, hard=False, why=why)
        if ty.kind in {VARIANT, NULL}:
            return untyped(f"{why}, from a value with no static type ({ty.why})" if ty.why else why)
        return ty.weak(why)

    # -- (1) inference: expressions -------------------------------------------------------------

    def infer(self, node: Tree | Token | None, ctx: Ctx) -> Ty | None:
        if node is None:
            return None
        if isinstance(node, Token):
            return self.infer_token(node, ctx)
        handler = _EXPRESSION_HANDLERS.get(node.data)
        if handler is not None:
            return handler(self, node, ctx)
        if node.data in _BINARY_RULES:
            return self.infer_binary(node, ctx)
        for kid in _trees(node):
            self.infer(kid, ctx)  # still visit lambdas below unknown constructs
        return None

    def infer_wrapper(self, node: Tree, ctx: Ctx) -> Ty | None:
        kids = _kids(node)
        if len(kids) == 1:
            return self.infer(kids[0], ctx)
        return self.infer_statement_expr(node, ctx)

    def infer_statement_expr(self, node: Tree, ctx: Ctx) -> Ty | None:
        for kid in _trees(node):
            self.infer(kid, ctx)
        return None

    def infer_type_test(self, node: Tree, ctx: Ctx) -> Ty | None:
        self.infer(_kids(node)[0], ctx)
        return builtin("bool")  # `is` is always a hard bool

    def infer_token(self, token: Token, ctx: Ctx) -> Ty | None:
        if token.type == "NUMBER":
            is_float = any(c in str(token) for c in ".eE")
            return builtin("float" if is_float else "int", const=True)
        if token.type in {"HEX", "BIN"}:
            return builtin("int", const=True)
        if token.type in {"NAME", "GET", "SET"}:
            return self.identifier(str(token), ctx)
        return None

    def identifier(self, name: str, ctx: Ctx) -> Ty | None:
        found, ty = ctx.local(name)
        if found:
            return ty
        keyword = _KEYWORD_VALUES.get(name)
        if keyword is not None:
            return keyword
        if name == "self":
            return Ty(OBJECT, ctx.cls.name, cls=ctx.cls)
        return self.class_scope_name(ctx.cls, name)

    def class_scope_name(self, cls: ClassModel, name: str) -> Ty | None:
        """A name seen from class scope: members (own, inherited, outer), then globals."""
        if name in BUILTIN_TYPES or name in self.native:
            # No member may carry these names (check 2), so they are always the global ones.
            return self.global_identifier(name)
        found, ty = self.member_lookup(cls, name, outer=True)
        return ty if found else self.global_identifier(name)

    def global_identifier(self, name: str) -> Ty | None:
        if name == "Object":
            return Ty(OBJECT, name, meta=True, const=True)
        if name in BUILTIN_TYPES:
            return Ty(BUILTIN, name, meta=True, const=True)
        if name in self.native:
            return Ty(OBJECT, name, meta=True, const=True)
        if name in self.class_names:
            model = self.model(self.class_names[name])
            return Ty(OBJECT, name, meta=True, const=True, cls=model) if model else None
        if name in UTILITY_RETURNS:
            return builtin("Callable", const=True)
        return None  # autoloads, global constants and enums: not tracked

    def member_lookup(self, cls: ClassModel, name: str, *, outer: bool) -> tuple[bool, Ty | None]:
        """A member visible from `cls`: its own, its script bases', then its outer classes'.

        (True, None) means "declared somewhere we cannot see", e.g. in a base script that
        does not resolve, so the caller must not fall back to a global of that name.
        """
        for owner in self.script_chain(cls):
            member = owner.members.get(name)
            if member is not None:
                return True, self.member_type(owner, member)
        if self.native_base(cls) is None:
            return True, None
        if outer and cls.outer is not None:
            return self.member_lookup(cls.outer, name, outer=True)
        return False, None

    def script_chain(self, cls: ClassModel) -> Iterator[ClassModel]:
        seen: set[int] = set()
        current: ClassModel | None = cls
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            yield current
            base = self.base_of(current)
            current = base if isinstance(base, ClassModel) else None

    def native_base(self, cls: ClassModel) -> str | None:
        """The engine class a script ends up extending, or None if its chain does not resolve."""
        last: ClassModel | str | None = None
        for current in self.script_chain(cls):
            last = self.base_of(current)
        return last if isinstance(last, str) else None

    def base_of(self, cls: ClassModel) -> ClassModel | str | None:
        """What `extends` names: a script model, an engine class name, or None if unresolved."""
        raw = cls.extends
        if raw is None:
            return "RefCounted"
        if raw.startswith('"'):
            rel = resolve_script_path(self.repo, cls.rel, raw.strip('"'))
            return self.model(rel) if rel is not None else None
        head, *rest = raw.split(".")
        if not rest and head in self.native:
            return head
        if id(cls) in self._bases:
            return None  # an inheritance cycle: the engine reports it
        self._bases.add(id(cls))
        try:
            if head in self.class_names:
                ty = self.global_identifier(head)
            elif cls.outer is not None:
                found, ty = self.member_lookup(cls.outer, head, outer=True)
            else:
                ty = None
            for part in rest:
                ty = self.attribute(ty, part) if ty is not None else None
        finally:
            self._bases.discard(id(cls))
        return ty.cls if ty is not None and ty.kind == OBJECT and ty.cls is not None else None

    def member_type(self, owner: ClassModel, member: Member) -> Ty | None:
        key = (id(owner), member.name)
        if key in self._resolving:
            return None  # a member whose type depends on itself: leave it unknown
        self._resolving.add(key)
        self._quiet += 1
        try:
            return self._member_type(owner, member)
        finally:
            self._quiet -= 1
            self._resolving.discard(key)

    def _member_type(self, owner: ClassModel, member: Member) -> Ty | None:
        if member.kind in {"var", "const"}:
            needs_init = member.hint is None and member.init is not None
            init_ty = self.infer(member.init, Ctx(owner, [])) if needs_init else None
            return self.declared_type(member, init_ty, owner)
        if member.kind == "func":
            return builtin("Callable")
        if member.kind == "signal":
            return builtin("Signal")
        if member.kind == "enum":
            return Ty(ENUM, member.name, const=True)
        if member.kind == "enum_value":
            return builtin("int", const=True)
        if member.kind == "class":
            inner = owner.inner.get(member.name)
            return Ty(OBJECT, member.name, meta=True, const=True, cls=inner)
        return None

    def ty_from_hint(self, hint: str, cls: ClassModel) -> Ty:
        hint = hint.replace(" ", "")
        container = re.fullmatch(r"(\w+)\[(.+)\]", hint)
        if container:
            if container.group(1) == "Array":
                return Ty(BUILTIN, "Array", elem=self.ty_from_hint(container.group(2), cls), typed=True)
            return Ty(BUILTIN, container.group(1), typed=True)
        if hint == "Variant":
            return untyped("it is declared Variant", hard=True)
        if hint == "void":
            return Ty(NULL)
        if hint == "Object":
            return Ty(OBJECT, "Object")
        if hint in BUILTIN_TYPES:
            return builtin(hint)
        head, *rest = hint.split(".")
        ty = self.class_scope_name(cls, head)
        for part in rest:
            ty = self.attribute(ty, part) if ty is not None else None
        if ty is None:
            return Ty(OPAQUE)
        if ty.kind == ENUM or (ty.kind == BUILTIN and ty.name == "int"):
            return builtin("int")
        if ty.kind == OBJECT and ty.meta:
            return replace(ty, meta=False, const=False)
        return Ty(OPAQUE)

    # calls ------------------------------------------------------------------------------------

    def infer_standalone_call(self, node: Tree, ctx: Ctx) -> Ty | None:
        kids = _kids(node)
        name = str(kids[0])
        args = [self.infer(arg, ctx) for arg in kids[1:]]
        if name == "preload":
            return self.preload(ctx.cls, kids[1] if len(kids) > 1 else None)
        if name in BUILTIN_TYPES and name != "Object":
            return builtin(name, const=all(a is not None and a.const for a in args))
        if name in UTILITY_RETURNS:
            returned = UTILITY_RETURNS[name]
            if returned == "Variant":
                hint = f" (use {name}f/{name}i or a cast)" if name in _MATH_WITH_TYPED_TWINS else ""
                return untyped(f"{name}() returns Variant{hint}", hard=True)
            if returned is None:
                return None
            return Ty(OBJECT, returned) if returned in {"Object", "Resource"} else builtin(returned)
        return self.call_on_script(Ty(OBJECT, ctx.cls.name, cls=ctx.cls), name)

    def preload(self, cls: ClassModel, arg: Tree | Token | None) -> Ty | None:
        path = _string_value(_unwrap(arg)) if arg is not None else None
        if path is None:
            return None
        if not path.endswith(".gd"):
            return Ty(OPAQUE, const=True)
        rel = resolve_script_path(self.repo, cls.rel, path)
        model = self.model(rel) if rel is not None else None
        return Ty(OBJECT, path, meta=True, const=True, cls=model) if model is not None else Ty(OPAQUE, const=True)

    def infer_method_call(self, node: Tree, ctx: Ctx) -> Ty | None:
        kids = _kids(node)
        callee = kids[0]
        for arg in kids[1:]:
            self.infer(arg, ctx)
        parts = _kids(callee)
        names = [str(p) for p in parts[1:] if isinstance(p, Token) and p.type in {"NAME", "GET", "SET"}]
        if not names:
            return None
        head = parts[0]
        if isinstance(head, Token) and str(head) == "super":
            base = self.base_of(ctx.cls)
            receiver = Ty(OBJECT, "", cls=base) if isinstance(base, ClassModel) else (
                Ty(OBJECT, base) if isinstance(base, str) else None)
        else:
            receiver = self.infer(head, ctx)
        for index, attr in enumerate(names[:-1]):
            receiver = self.attribute_of(receiver, attr, lambda: self.snippet(ctx.cls.rel, head, names[:index]))
        return self.method(receiver, names[-1], self.snippet(ctx.cls.rel, head, names[:-1]))

    def method(self, receiver: Ty | None, name: str, receiver_text: str) -> Ty | None:
        """The type of `receiver.name(...)` (reduce_call / get_function_signature)."""
        if receiver is None or receiver.kind == OPAQUE:
            if name in ALWAYS_VARIANT_NAMES and name not in self.typed_methods:
                return untyped(f".{name}() returns Variant", hard=True)
            return None
        if receiver.kind == VARIANT:
            return untyped(f"`{receiver_text}` has no static type ({receiver.why}), so .{name}() has none either")
        if receiver.kind == NULL:
            return None
        if receiver.kind in {BUILTIN, ENUM}:
            return self.builtin_method(receiver, name)
        if receiver.cls is not None:
            return self.call_on_script(receiver, name)
        return self.native_method(receiver.name, name, receiver.meta)

    def builtin_method(self, receiver: Ty, name: str) -> Ty | None:
        type_name = "Dictionary" if receiver.kind == ENUM else receiver.name
        if name in VARIANT_BUILTIN_METHODS.get(type_name, ()):
            if receiver.typed:
                return None  # typed containers: newer engines may type these; stay quiet
            return untyped(f"{type_name}.{name}() returns Variant", hard=True)
        if receiver.kind == BUILTIN and receiver.meta:
            return None  # static builtin calls (String.num, ...): not tracked
        if name == "duplicate":
            return replace(receiver, const=False, hard=True, why="")
        returned = BUILTIN_RETURNS.get(name)
        return builtin(returned) if returned else Ty(OPAQUE)

    def native_method(self, cls_name: str, name: str, meta: bool) -> Ty | None:
        if meta and name == "new":
            return Ty(OBJECT, cls_name)
        for owner in [cls_name, *self.ancestors(cls_name)]:
            if name in VARIANT_NATIVE_METHODS.get(owner, ()):
                return untyped(f"{owner}.{name}() returns Variant", hard=True)
        return None  # engine signatures are not tracked beyond the Variant ones

    def call_on_script(self, receiver: Ty, name: str) -> Ty | None:
        cls = receiver.cls
        assert cls is not None
        if receiver.meta and name == "new":
            return Ty(OBJECT, receiver.name, cls=cls)
        for owner in self.script_chain(cls):
            member = owner.members.get(name)
            if member is not None:
                return self.function_result(owner, member) if member.kind == "func" else None
        native = self.native_base(cls)
        return self.native_method(native, name, False) if native is not None else None

    def function_result(self, owner: ClassModel, member: Member) -> Ty | None:
        if member.hint is None:
            return untyped(f"{member.name}() declares no return type")
        if member.hint == "Variant":
            return untyped(f"{member.name}() is declared to return Variant", hard=True)
        if member.hint == "void":
            return None  # using a void result is a different error
        return self.ty_from_hint(member.hint, owner)

    def ancestors(self, cls_name: str) -> list[str]:
        chain: list[str] = []
        current = self.parents.get(cls_name, "")
        while current and current not in chain:
            chain.append(current)
            current = self.parents.get(current, "")
        return chain

    # attributes and subscripts ----------------------------------------------------------------

    def infer_getattr(self, node: Tree, ctx: Ctx) -> Ty | None:
        parts = _kids(node)
        ty = self.infer(parts[0], ctx)
        names = [str(p) for p in parts[1:] if isinstance(p, Token) and p.type in {"NAME", "GET", "SET"}]
        for index, name in enumerate(names):
            ty = self.attribute_of(ty, name, lambda: self.snippet(ctx.cls.rel, parts[0], names[:index]))
        return ty

    def attribute_of(self, base: Ty | None, name: str, text: Callable[[], str]) -> Ty | None:
        """`base.name` in an expression: nothing read off an untyped value has a type."""
        if base is None:
            return None
        if base.kind == VARIANT or not base.hard:
            return untyped(f"`{text()}` has no static type ({base.why}), so .{name} has none either")
        return self.attribute(base, name)

    def attribute(self, base: Ty, name: str) -> Ty | None:
        """reduce_subscript() for `base.name` on a hard base (also used to resolve dotted type names)."""
        if base.kind == ENUM:
            return builtin("int", const=True)
        if base.kind == OBJECT and base.cls is not None:
            found, ty = self.member_lookup(base.cls, name, outer=False)
            return ty if found else None
        if base.kind == OBJECT and name in VARIANT_NATIVE_PROPERTIES.get(base.name, ()):
            return untyped(f"{base.name}.{name} is a Variant property", hard=True)
        return None

    def infer_subscript(self, node: Tree, ctx: Ctx) -> Ty | None:
        base_node, index_node = _kids(node)[0], _kids(node)[1]
        base = self.infer(base_node, ctx)
        index = self.infer(index_node, ctx)
        if base is None:
            return None
        if base.const and index is not None and index.const:
            return None  # folded at compile time to the element's own type
        text = self.snippet(ctx.cls.rel, base_node)
        if base.kind == VARIANT:
            return untyped(f"`{text}` has no static type ({base.why}), so `{text}[...]` has none either")
        if not base.hard:
            return Ty(OPAQUE, hard=False, why=f"`{text}` is untyped ({base.why}), so indexing it is untyped too")
        if base.kind == ENUM:
            return untyped(f"`{text}[...]` indexes an enum's Dictionary with a non-constant key")
        if base.kind == OBJECT and not base.meta:
            return untyped(f"`{text}[...]` reads an object property by name (Variant)")
        if base.kind != BUILTIN:
            return None
        if base.name == "Array":
            if base.typed:
                return base.elem
            return untyped(f"`{text}` is an untyped Array, so its elements are Variant")
        if base.name == "Dictionary":
            if base.typed:
                return None
            return untyped(f"`{text}` is an untyped Dictionary, so its values are Variant")
        element = _INDEXED_ELEMENT.get(base.name)
        if element is not None:
            return builtin(element)
        if base.name in {"Color", "Transform3D", "Projection", "Plane"}:
            return untyped(f"indexing a {base.name} gives Variant")
        return None

    # operators --------------------------------------------------------------------------------

    def infer_binary(self, node: Tree, ctx: Ctx) -> Ty | None:
        kids = _kids(node)
        acc = self.infer(kids[0], ctx)
        index = 1
        while index < len(kids):
            op = kids[index]
            op_text = "not in" if isinstance(op, Tree) else str(op)
            right = self.infer(kids[index + 1], ctx) if index + 1 < len(kids) else None
            acc = self.binary(acc, op_text, right)
            index += 2
        return acc

    def binary(self, left: Ty | None, op: str, right: Ty | None) -> Ty | None:
        """reduce_binary_op()."""
        if op in {"==", "!="} and ((left and left.kind == NULL) or (right and right.kind == NULL)):
            return builtin("bool")  # comparing with null is always a bool
        if op == "%" and left is not None and left.kind == BUILTIN and left.name == "String":
            return replace(left, const=False)  # string formatting is a String whatever the operand
        if left is not None and right is not None and left.const and right.const:
            return Ty(OPAQUE, const=True)  # folded at compile time: typed by its value
        for side in (left, right):
            if side is not None and side.kind == VARIANT:
                return untyped(f"{side.why}, and an operator with a Variant operand has no static type"
                               if side.why else "an operator with a Variant operand has no static type")
        if left is None or right is None:
            return None
        hard = left.hard and right.hard
        if op in _SHORT_CIRCUIT_OPS:
            # get_operation_type(): `and`/`or` give a hard bool for any operands that are not
            # Variant; an untracked untyped operand might be Variant, so that stays unknown.
            unsure = any(side.kind == OPAQUE and not side.hard for side in (left, right))
            return None if unsure else builtin("bool")
        if op in _COMPARISON_OPS or op in _LOGIC_OPS or op == "not in":
            result = builtin("bool")
        elif left.kind == BUILTIN and right.kind == BUILTIN and left.name == right.name and left.name != "Array":
            result = builtin(left.name)
        elif {left.name, right.name} == {"int", "float"} and left.kind == right.kind == BUILTIN:
            result = builtin("float")
        else:
            result = Ty(OPAQUE)
        if hard:
            return result
        weak_side = left if not left.hard else right
        return result.weak(f"{weak_side.why}; an operator on it is untyped too" if weak_side.why else "")

    def infer_unary(self, node: Tree, ctx: Ctx) -> Ty | None:
        kids = _kids(node)
        op = str(kids[0])
        operand = self.infer(kids[-1], ctx)
        if operand is None:
            return None
        if operand.kind == VARIANT:
            return untyped(f"{operand.why}, and `{op}` on a Variant has no static type")
        result = builtin("bool") if op in {"not", "!"} else replace(operand, why="")
        return result if operand.hard or operand.const else result.weak(operand.why)

    def infer_ternary(self, node: Tree, ctx: Ctx) -> Ty | None:
        kids = _kids(node)
        values = [kid for kid in kids if not (isinstance(kid, Token) and str(kid) in {"if", "else"})]
        true_ty = self.infer(values[0], ctx)
        self.infer(values[1], ctx)
        false_ty = self.infer(values[2], ctx) if len(values) > 2 else None
        for side in (true_ty, false_ty):
            if side is not None and side.kind == VARIANT:
                return untyped(f"one branch of the conditional has no static type ({side.why})",
                               hard=bool(true_ty and false_ty and true_ty.hard and false_ty.hard))
        if true_ty is None or false_ty is None:
            return None
        result = true_ty if true_ty.kind != NULL else false_ty
        if true_ty.hard and false_ty.hard:
            return replace(result, const=False)
        weak = true_ty if not true_ty.hard else false_ty
        return result.weak(weak.why)

    def infer_cast(self, node: Tree, ctx: Ctx) -> Ty | None:
        kids = _kids(node)
        self.infer(kids[0], ctx)
        hints = [str(k) for k in kids if isinstance(k, Token) and k.type == "TYPE_HINT"]
        if not hints or hints[-1] == "Variant":
            return None
        return self.ty_from_hint(hints[-1], ctx.cls)

    def infer_await(self, node: Tree, ctx: Ctx) -> Ty | None:
        operand = self.infer(_kids(node)[-1], ctx)
        if operand is not None and operand.kind == BUILTIN and operand.name == "Signal":
            return untyped("awaiting a signal gives Variant")
        return operand

    def infer_lambda(self, node: Tree, ctx: Ctx) -> Ty | None:
        kids = _kids(node)
        inner = ctx.child()
        header = kids[0]
        args = next((k for k in _kids(header) if isinstance(k, Tree) and k.data == "func_args"), None)
        if args is not None:
            self.declare_params(args, inner)
        self.walk_block(kids[1:], inner)
        return builtin("Callable")

    def infer_container(self, node: Tree, ctx: Ctx) -> Ty | None:
        values = [self.infer(kid, ctx) for kid in _trees(node) if kid.data != "trailing_comma"]
        const = all(v is not None and v.const for v in values)
        return builtin("Array" if node.data == "array" else "Dictionary", const=const)

    def infer_dict_element(self, node: Tree, ctx: Ctx) -> Ty | None:
        values = [self.infer(kid, ctx) for kid in _kids(node) if isinstance(kid, Tree)]
        if node.data == "eq_dict_element":
            return values[0] if values else None
        return Ty(OPAQUE, const=all(v is not None and v.const for v in values))

    # -- helpers --------------------------------------------------------------------------------

    def snippet(self, rel: Path, node: Tree | Token | None, attrs: list[str] | None = None) -> str:
        text = self.sources.get(rel, "")
        start, end = _span(node)
        piece = " ".join(text[start:end].split()) if end > start else str(node)
        if attrs:
            piece += "".join(f".{a}" for a in attrs)
        return piece if len(piece) <= 70 else piece[:67] + "..."


def _span(node: Tree | Token | None) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.start_pos or 0, node.end_pos or 0
    if isinstance(node, Tree) and not getattr(node.meta, "empty", True):
        return node.meta.start_pos or 0, node.meta.end_pos or 0
    return 0, 0


def _unwrap(node: Tree | Token | None) -> Tree | Token | None:
    while isinstance(node, Tree) and node.data in {"expr", "par_expr"} and len(node.children) == 1:
        node = node.children[0]
    return node


def _intro(present: str) -> str:
    for version, flag in zip(VERSIONS, present):
        if flag == "Y":
            return version
    return "?"


_KEYWORD_VALUES: dict[str, Ty] = {
    "true": builtin("bool", const=True),
    "false": builtin("bool", const=True),
    "null": Ty(NULL, const=True),
    "PI": builtin("float", const=True),
    "TAU": builtin("float", const=True),
    "INF": builtin("float", const=True),
    "NAN": builtin("float", const=True),
}


Handler = Callable[[Checker, Tree, Ctx], "Ty | None"]


def _constant(ty: Ty) -> Handler:
    return lambda _checker, _node, _ctx: ty


_EXPRESSION_HANDLERS: dict[str, Handler] = {
    "expr": Checker.infer_wrapper,
    "par_expr": Checker.infer_wrapper,
    "assnmnt_expr": Checker.infer_statement_expr,
    "string": _constant(builtin("String", const=True)),
    "rstring": _constant(builtin("String", const=True)),
    "string_name": _constant(builtin("StringName", const=True)),
    "node_path": _constant(builtin("NodePath", const=True)),
    "get_node": _constant(Ty(OBJECT, "Node")),
    "unique_node_path": _constant(Ty(OBJECT, "Node")),
    "array": Checker.infer_container,
    "dict": Checker.infer_container,
    "c_dict_element": Checker.infer_dict_element,
    "eq_dict_element": Checker.infer_dict_element,
    "lambda": Checker.infer_lambda,
    "standalone_call": Checker.infer_standalone_call,
    "getattr_call": Checker.infer_method_call,
    "getattr": Checker.infer_getattr,
    "subscr_expr": Checker.infer_subscript,
    "test_expr": Checker.infer_ternary,
    "asless_test_expr": Checker.infer_ternary,
    "actual_type_cast": Checker.infer_cast,
    "type_test": Checker.infer_type_test,
    "asless_type_test": Checker.infer_type_test,
    "asless_actual_not_test": Checker.infer_unary,
    "asless_actual_neg_expr": Checker.infer_unary,
    "asless_actual_bitw_not": Checker.infer_unary,
    "await_expr": Checker.infer_await,
}


# --- driver --------------------------------------------------------------------------------------


def parse(text: str) -> Tree:
    """gdtoolkit's parse tree with positions (for line numbers and source snippets), shared with
    gd_check through gd_common's cache."""
    return parse_tree(text)  # type: ignore[return-value]


def load_native(repo: Path) -> tuple[dict[str, str], dict[str, str]] | None:
    """Engine classes (name -> presence over 4.2..4.7) and their parents, from the compat map."""
    path = find_reference(repo, COMPAT_MAP_NAME)
    if path is None:
        return None
    cmap = load_map(path)
    presence = {name: row[0] for name, row in cmap.classes.items()}
    parents = {name: row[2] for name, row in cmap.classes.items()}
    return presence, parents


def check_files(repo: Path, files: list[Path], native: dict[str, str], parents: dict[str, str]) -> list[str]:
    return Checker(repo, files, native, parents).run(files)


def run(repo: Path = REPO) -> list[str]:
    repo = repo.resolve()
    loaded = load_native(repo)
    if loaded is None:
        return [f"{COMPAT_MAP_NAME} not found (looked in tests/data/reference and $GODOT_REFERENCE_DIR)"]
    files = gd_files(repo, *ROOTS)
    if not files:
        return ["no .gd files found under " + ", ".join(ROOTS)]
    return check_files(repo, files, *loaded)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    args = parser.parse_args(argv)
    problems = run(args.repo)
    count = len(gd_files(args.repo, *ROOTS))
    return fail_exit(problems, f"gd_types: {count} files: every := has a static type, no reserved member names",
                     "gd_types")


if __name__ == "__main__":
    sys.exit(main())
