"""scripts/gd_types.py: `:=` from untyped values and reserved member names, caught before Godot runs.

Each detector is exercised on small scripts that Godot refuses ("bad") and on look-alikes it
accepts ("good"); the good ones pin down where the heuristic must stay quiet.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import gd_types  # noqa: E402
from gd_common import COMPAT_MAP_NAME, find_reference  # noqa: E402

DIR = "addons/t"


@pytest.fixture(scope="module")
def engine() -> tuple[dict[str, str], dict[str, str]]:
    loaded = gd_types.load_native(REPO)
    if loaded is None:
        pytest.fail(f"{COMPAT_MAP_NAME} must be in the repo (tests/data/reference)")
    return loaded


def _write(root: Path, rel: str, source: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return Path(rel)


def check(root: Path, engine: tuple[dict[str, str], dict[str, str]], source: str,
          others: dict[str, str] | None = None) -> list[str]:
    """Problems gd_types reports for `source` (as addons/t/t.gd) next to `others`."""
    files = [_write(root, f"{DIR}/t.gd", source)]
    files += [_write(root, f"{DIR}/{name}", text) for name, text in (others or {}).items()]
    return gd_types.check_files(root, files, *engine)


def lines(problems: list[str], check_name: str) -> list[int]:
    """Line numbers in addons/t/t.gd reported by one check."""
    found = []
    for problem in problems:
        path, line, name, _ = problem.split(":", 3)
        if path == f"{DIR}/t.gd" and name.strip() == check_name:
            found.append(int(line))
    return found


def flagged(problems: list[str]) -> list[int]:
    return sorted(lines(problems, "untyped-inference") + lines(problems, "variant-inference"))


# --- the tree and the command line ---------------------------------------------------------------


def test_passes_on_the_tree() -> None:
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "gd_types.py")],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gd_types:" in result.stdout


def test_cli_exits_nonzero_with_file_and_line(tmp_path: Path) -> None:
    reference = find_reference(REPO, COMPAT_MAP_NAME)
    assert reference is not None
    _write(tmp_path, "addons/x/bad.gd", """
    extends RefCounted

    const Projection := preload("ok.gd")
    var _registration: Dictionary = {}


    func register(port: int) -> void:
    \tvar port_changed := _registration.get("port", -1) != port
    \tprint(port_changed)
    """)
    _write(tmp_path, "tests/godot/ok.gd", "extends RefCounted\n")
    env = {**os.environ, "GODOT_REFERENCE_DIR": str(reference.parent)}
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "gd_types.py"), "--repo", str(tmp_path)],
                            capture_output=True, text=True, timeout=300, check=False, env=env)
    assert result.returncode == 1
    assert "addons/x/bad.gd:3: member-name: the const 'Projection' has the same name as a builtin type" \
        in result.stderr
    assert "addons/x/bad.gd:8: untyped-inference: cannot infer the type of `var port_changed := " \
        in result.stderr


# --- the two compile errors the review found -------------------------------------------------------


def test_the_review_findings_are_flagged(tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, """
    extends RefCounted

    const Projection := preload("other.gd")
    var _registration: Dictionary = {}


    func register(port: int) -> void:
    \tvar port_changed := _registration.get("port", -1) != port
    """, {"other.gd": "extends RefCounted\n"})
    assert lines(problems, "member-name") == [3]
    assert lines(problems, "untyped-inference") == [8]
    assert "Dictionary.get() returns Variant" in problems[-1]


def test_the_review_fixes_pass(tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    assert check(tmp_path, engine, """
    extends RefCounted

    const RegistryProjection := preload("other.gd")
    var _registration: Dictionary = {}


    func register(port: int, d: Dictionary, x: Variant) -> void:
    \tvar port_changed: bool = int(_registration.get("port", -1)) != port
    \tvar a: int = d.get("k", 0)
    \tvar b := 3
    \tvar c := Vector2(1, 2)
    \tvar s := str(x)
    """, {"other.gd": "extends RefCounted\n"}) == []


# --- (a) `:=` from untyped values ------------------------------------------------------------------


BAD_INFERENCE = """
extends RefCounted

signal done
const Helper := preload("helper.gd")
const LIMITS := {"a": 1}
var _untyped_member = {}
var _dict: Dictionary = {}
var _list: Array = []
var _cb: Callable


func bad(d, arr: Array, key: String, p = 3) -> void:
\tvar a := d.get("k")
\tvar b := _dict.get("k", 0)
\tvar c := JSON.parse_string("{}")
\tvar e := _cb.call()
\tvar f := self.callv("bad", [])
\tvar g := call("bad")
\tvar h := d["k"]
\tvar i := arr[0]
\tvar j := _dict["k"]
\tvar k := _untyped_member["k"]
\tvar l := _list[0]["x"]
\tvar m := _dict.get("n", 0) + 1
\tvar n := arr[0] == 3
\tvar o := not d.get("x")
\tvar q := -d
\tvar r := d.size()
\tvar s := d.name
\tvar t := _no_return()
\tvar u := _returns_variant()
\tvar v := Helper.untyped()
\tvar w := abs(key.length())
\tvar x := _dict.keys()[0]
\tvar y := 1 if key else d
\tvar z := null
\tvar aa := p
\tvar ab := LIMITS[key]
\tvar ac := Engine.get_main_loop().get("x")
\tvar ad := ProjectSettings.get_setting("a/b")
\tvar ae := _untyped_member
\tvar af := d in _dict
\tvar ag := p + 1
\tvar ak := d.inner.size()
\tvar al := await done
\tfor item in arr:
\t\tvar ah := item
\tfor entry in _dict:
\t\tvar ai := entry
\tvar lambda := func(values: Dictionary) -> void:
\t\tvar aj := values["k"]
\tlambda.call(_dict)


func _no_return():
\treturn 1


func _returns_variant() -> Variant:
\treturn 1
"""
HELPER = "extends RefCounted\n\n\nstatic func untyped():\n\treturn 1\n\n\nstatic func typed() -> int:\n\treturn 1\n"


def test_untyped_initializers_are_flagged(tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, BAD_INFERENCE, {"helper.gd": HELPER})
    source = BAD_INFERENCE.lstrip("\n").splitlines()
    expected = [n for n, text in enumerate(source, start=1) if ":=" in text and "func(" not in text
                and not text.startswith("const")]
    assert flagged(problems) == expected, "\n".join(problems)


def test_variant_returns_and_missing_types_are_told_apart(
        tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, BAD_INFERENCE, {"helper.gd": HELPER})
    by_line = {int(p.split(":")[1]): p for p in problems}
    source = BAD_INFERENCE.lstrip("\n").splitlines()

    def report(declared: str) -> str:
        return by_line[next(n for n, text in enumerate(source, start=1) if f"var {declared} :=" in text)]

    assert "variant-inference" in report("b") and "Dictionary.get() returns Variant" in report("b")
    assert "variant-inference" in report("c") and "JSON.parse_string() returns Variant" in report("c")
    assert "variant-inference" in report("e") and "Callable.call() returns Variant" in report("e")
    assert "variant-inference" in report("w") and "abs() returns Variant" in report("w")
    assert "untyped-inference" in report("a") and "parameter 'd' has no type" in report("a")
    assert "untyped-inference" in report("i") and "untyped Array" in report("i")
    assert "untyped-inference" in report("t") and "_no_return() declares no return type" in report("t")
    assert "untyped-inference" in report("ah") and "iterates over an untyped Array" in report("ah")
    assert "`var z := null`" in report("z")
    assert "`d.inner` has no static type" in report("ak")
    assert "awaiting a signal gives Variant" in report("al")


def test_class_level_declarations_and_accessors_are_checked(
        tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, """
    extends RefCounted

    var _data: Dictionary = {}
    var port := _data.get("port", 0)
    static var shared := _data.size()
    var ok := _data.size()
    var guarded: int:
    \tset(value):
    \t\tvar raw := _data["raw"]
    \t\tguarded = value


    class Inner:
    \tvar inner_bad := JSON.parse_string("[]")


    func f(flag := _data.get("x")) -> void:
    \tpass
    """)
    assert flagged(problems) == [4, 9, 14, 17], "\n".join(problems)


GOOD_INFERENCE = """
extends Node

const Helper := preload("helper.gd")
const LIMITS := {"a": 1, "b": [1, 2]}
const NAMES := ["x", "y"]
enum Mode { OFF, ON }
var _dict: Dictionary = {}
var _ints: Array[int] = []
var _names: PackedStringArray = PackedStringArray()
var _inferred := 3
var _cb: Callable


func good(d: Dictionary, x: Variant, text: String, n: int) -> void:
\tvar a: int = d.get("k", 0)
\tvar b := 3
\tvar c := Vector2(1, 2)
\tvar s := str(x)
\tvar e := int(d.get("k", 0))
\tvar f := String(d["k"])
\tvar g := d.get("k") as Dictionary
\tvar h := d.get("k") == null
\tvar i := d.get("k") is Dictionary
\tvar j := "%s and %s" % [d.get("a"), x]
\tvar k := _ints[0] + 1
\tvar l := _names[0].length()
\tvar m := text[0]
\tvar o := LIMITS["a"]
\tvar q := NAMES[0]
\tvar r := Mode.ON
\tvar t := Helper.typed()
\tvar u := Helper.new()
\tvar v := _typed()
\tvar w := d.size() + _dict.keys().size()
\tvar y := absi(n) + clampi(n, 0, 3) + maxi(n, 1)
\tvar z := _inferred * 2
\tvar aa := d.has("k") and x != null
\tvar ab := n if n > 0 else 0
\tvar ac := get_child(0)
\tvar ad := get_node("A")
\tvar ae := $A
\tvar af := int(_cb.call())
\tvar ag := func() -> int: return 1
\tvar ah := [d.get("a"), x]
\tvar ai := {"k": d.get("a")}
\tvar aj := Vector2(1, 2).x
\tvar ak := LIMITS.size()
\tvar al := FileAccess.open("a", FileAccess.READ)
\tfor index in range(3):
\t\tvar am := index + 1
\tfor value in _ints:
\t\tvar an := value * 2
\tfor count in n:
\t\tvar ao := count
\tfor item: Dictionary in d.values():
\t\tvar ap := item
\tmatch n:
\t\t1:
\t\t\tvar aq := n + 1
\tvar ar := await _wait()


func _typed() -> String:
\treturn ""


func _wait() -> int:
\tawait get_tree().process_frame
\treturn 1
"""


def test_typed_initializers_pass(tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    assert check(tmp_path, engine, GOOD_INFERENCE, {"helper.gd": HELPER}) == []


def test_locals_are_scoped_by_block(tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, """
    extends RefCounted


    func f(d: Dictionary, flag: bool) -> void:
    \tif flag:
    \t\tvar v = d.get("a")
    \t\tvar bad := v
    \telse:
    \t\tvar v: int = 3
    \t\tvar fine := v
    \tvar value = 1
    \tvar weak := value
    """)
    assert flagged(problems) == [7, 12], "\n".join(problems)


def test_untyped_locals_and_parameters_make_weak_values(
        tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    # An untyped declaration (`var x = ...`, a parameter with only a default) keeps a *weak*
    # type: reading it, indexing it or using it in arithmetic gives no hard type, but the engine
    # still resolves methods on it, and `and`/`or` always give a bool.
    problems = check(tmp_path, engine, """
    extends RefCounted


    func f(count = 3) -> void:
    \tvar text = "abc"
    \tvar a := text
    \tvar b := text.length()
    \tvar c := count * 2
    \tvar d := text[0]
    \tvar e := text == "abc" or count > 1
    """)
    assert flagged(problems) == [6, 8, 9], "\n".join(problems)


def test_cross_file_members_and_class_names(tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, """
    extends RefCounted

    const Options := preload("options.gd")


    func f(options: Options) -> void:
    \tvar a := options.loose
    \tvar b := options.strict
    \tvar c := Options.DEFAULTS["a"]
    \tvar d := Options.DEFAULTS[options.strict]
    \tvar e := MyGlobal.build().strict
    \tvar f := MyGlobal.build().loose
    """, {
        "options.gd": "extends RefCounted\n\nconst DEFAULTS := {\"a\": 1}\nvar loose = 1\nvar strict: String = \"\"\n",
        "global.gd": "class_name MyGlobal\nextends RefCounted\n\nconst Options := preload(\"options.gd\")\n\n\n"
                     "static func build() -> Options:\n\treturn Options.new()\n",
    })
    assert flagged(problems) == [7, 10, 12], "\n".join(problems)


def test_unknown_receivers_stay_quiet_except_for_always_variant_names(
        tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    # Engine signatures beyond the Variant-returning ones are not tracked, so calls on values of
    # unknown type are left alone -- unless the name returns Variant on every engine class.
    problems = check(tmp_path, engine, """
    extends Node


    func f() -> void:
    \tvar tree := get_tree()
    \tvar root := get_tree().get_root()
    \tvar meta := get_tree().get_meta("m")
    \tvar setting := get_tree().get_setting("m")
    """, {"settings.gd": "extends RefCounted\n\n\nfunc get_setting(_key: String) -> int:\n\treturn 1\n"})
    assert flagged(problems) == [7], "\n".join(problems)


def test_lambdas_in_member_initializers_are_reported_once(
        tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, """
    extends RefCounted

    var _on_data := func(d: Dictionary) -> void:
    \tvar bad := d["k"]


    func f() -> void:
    \t_on_data.call({})
    \tvar again := _on_data
    """)
    assert flagged(problems) == [4], "\n".join(problems)


def test_unresolvable_bases_make_members_unknown(tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    # A script extending something we cannot read may inherit any member: stay quiet about it.
    assert check(tmp_path, engine, """
    extends "res://not/here.gd"


    func f() -> void:
    \tvar a := inherited_value
    \tvar b := inherited_call()
    """) == []


# --- (b) reserved member names ---------------------------------------------------------------------


def test_members_named_after_builtin_types(tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, """
    extends RefCounted

    signal Color
    enum Basis { A }
    enum { Plane, OTHER }
    const Projection := 1
    const Vector2i := 2
    static var PackedStringArray := 3
    var Dictionary := 4
    var ok_name := 5


    func String() -> void:
    \tpass


    class Transform3D:
    \tvar StringName := 1
    """)
    assert lines(problems, "member-name") == [3, 4, 5, 6, 7, 8, 9, 13, 17, 18], "\n".join(problems)
    assert any("inner class 'Transform3D' hides a built-in type" in p for p in problems)
    assert any("the enum_value 'Plane' has the same name as a builtin type" in p for p in problems)
    assert any("the func 'String' shadows the builtin type of that name" in p for p in problems)


def test_members_and_classes_named_after_engine_classes(
        tmp_path: Path, engine: tuple[dict[str, str], dict[str, str]]) -> None:
    problems = check(tmp_path, engine, """
    class_name Timer
    extends RefCounted

    const JSON := preload("other.gd")
    var Node := 1
    var node := 2
    const EditorDock := 3
    """, {"other.gd": "extends RefCounted\n"})
    assert lines(problems, "member-name") == [1, 4, 5, 7], "\n".join(problems)
    assert any("class_name 'Timer' hides a native class" in p for p in problems)
    # A class the engine gained later still breaks the script on the versions that have it.
    assert any("'EditorDock' shadows a native class (engine class added in 4.6)" in p for p in problems)
