"""The shape of ``bot.sessions``: no import cycles, no methods that only pass a call on, no class
name shared with another package.

Run as a script to print the figures for any tree::

    .venv/bin/python tests/sessions/test_layout.py [ROOT]
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_FORWARDERS = 5


def _modules(root: Path) -> dict[str, ast.Module]:
    package = root / "bot" / "sessions"
    return {path.stem: ast.parse(path.read_text(), str(path)) for path in package.glob("*.py")}


def _imported(tree: ast.Module, names: set[str]) -> set[str]:
    """The modules of ``bot.sessions`` a module imports anywhere (``TYPE_CHECKING`` blocks and
    function bodies included); ``__init__`` for the package itself."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1:
                target = module
            elif module.startswith("bot.sessions"):
                target = module.removeprefix("bot.sessions").removeprefix(".")
            else:
                continue
            if target == "":  # from . import x / from bot.sessions import X
                subs = {a.name for a in node.names if a.name in names}
                found |= subs or {"__init__"}
                if len(subs) < len(node.names):
                    found.add("__init__")
            else:
                found.add(target.split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("bot.sessions"):
                    rest = alias.name.removeprefix("bot.sessions").removeprefix(".")
                    found.add(rest.split(".")[0] or "__init__")
    return found & names


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    trees = _modules(root)
    names = set(trees)
    return {name: _imported(tree, names) - {name} for name, tree in trees.items()}


def import_cycles(root: Path = ROOT) -> list[tuple[str, ...]]:
    """Every elementary cycle of the import graph (each once, from its smallest module)."""
    graph = import_graph(root)
    cycles: list[tuple[str, ...]] = []

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt == start:
                cycles.append(tuple(path))
            elif nxt > start and nxt not in path:
                walk(start, nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, start, [start])
    return cycles


def _passes_on(expr: ast.expr) -> bool:
    """``self.part.method(...)``, ``self.part.attribute``, or ``self.method(<one of those>)``."""
    if isinstance(expr, ast.Await):
        expr = expr.value
    if isinstance(expr, ast.Attribute):
        receiver = expr.value
        return isinstance(receiver, ast.Attribute) and _is_self(receiver.value)
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Attribute):
        return False
    receiver = expr.func.value
    if isinstance(receiver, ast.Attribute) and _is_self(receiver.value):
        return True
    return _is_self(receiver) and any(_passes_on(a) for a in expr.args)


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _is_forwarder(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    while (  # guard clauses: ``if refused := ...: return refused``
        len(body) > 1
        and isinstance(body[0], ast.If)
        and not body[0].orelse
        and len(body[0].body) == 1
        and isinstance(body[0].body[0], ast.Return)
        and isinstance(body[0].body[0].value, ast.Name)
    ):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
        return False
    value = body[0].value
    return value is not None and _passes_on(value)


def _methods(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and fn.name != "__init__":
                overload = any(getattr(d, "id", "") == "overload" for d in fn.decorator_list)
                if not overload:
                    yield f"{cls.name}.{fn.name}", fn


def forwarders(root: Path = ROOT) -> dict[str, tuple[list[str], int]]:
    """Per module: the methods whose body only passes the call on, and how many methods."""
    result = {}
    for name, tree in sorted(_modules(root).items()):
        methods = list(_methods(tree))
        result[name] = ([m for m, fn in methods if _is_forwarder(fn)], len(methods))
    return result


def class_names(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Class name -> the packages (``bot.sessions``, ``bot.ai``, ``cogs``, ...) defining one."""
    found: dict[str, set[str]] = {}
    for package in packages:
        for path in (root / package.replace(".", "/")).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            owner = ".".join(parts[:2]) if parts[0] == "bot" else parts[0]
            for node in ast.parse(path.read_text(), str(path)).body:
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, set()).add(owner)
    return found


def exported_by_sessions() -> set[str]:
    import bot.sessions

    return {name for name in bot.sessions.__all__ if isinstance(getattr(bot.sessions, name), type)}


# ---------------------------------------------------------------------- the tests


def test_no_import_cycles_in_sessions():
    cycles = import_cycles()
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_methods_that_only_pass_the_call_on_are_few():
    found = [m for names, _ in forwarders().values() for m in names]
    assert len(found) <= MAX_FORWARDERS, found


def test_no_exported_class_shares_its_name_with_another_package():
    owners = class_names(ROOT, ("bot", "cogs", "db"))
    shared = {
        name: sorted(owners[name] - {"bot.sessions"})
        for name in exported_by_sessions()
        if owners.get(name, set()) - {"bot.sessions"}
    }
    # a class only re-exported from db (the store's own values) is the same class, not a twin
    import bot.sessions

    shared = {
        name: where
        for name, where in shared.items()
        if getattr(bot.sessions, name).__module__.startswith("bot.sessions")
    }
    assert not shared, shared


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    per_module = forwarders(root)
    total = sum(len(names) for names, _ in per_module.values())
    for name, (names, count) in per_module.items():
        if names:
            print(f"{name}.py: {len(names)} of {count} methods only pass the call on")
    print(f"methods that only pass the call on: {total}")
    cycles = import_cycles(root)
    for cycle in cycles:
        print("cycle:", " -> ".join(cycle))
    print(f"import cycles in bot/sessions: {len(cycles)}")
