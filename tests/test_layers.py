"""The layers' import rules (DESIGN.md, "Rules that hold in every layout"), read from the source.

Every import is counted, the lazy ones inside functions included: a rule broken in a function body
is broken all the same.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

INTERFACES = ("tables.api", "tables.dashboard", "tables.tablet", "tables.admin", "tables.tasks")
PURE = ("tables.engine", "tables.analysis", "tables.audit", "vision")

# (package, what it must not import, why)
RULES = [
    ("tables.engine", ("tables.analysis",), "the engine imports nothing from the analysis (a strategy reaches it as data)"),
    ("tables.selectors", ("tables.services",), "selectors import nothing from services"),
    ("tables.services", INTERFACES, "services import nothing from interfaces (views, tasks)"),
    *[(p, ("django", "rest_framework", "celery", "tables.models", "tables.services", "tables.selectors")
       + INTERFACES, "the pure packages import nothing from Django or the Django code") for p in PURE],
]


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, absolute, with its line (relative imports resolved)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found += [(node.lineno, base)] + [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


def _files(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).rglob("*.py"))


def _hits(name: str, banned: tuple[str, ...]) -> bool:
    return any(name == b or name.startswith(b + ".") for b in banned)


@pytest.mark.parametrize(("package", "banned", "why"), RULES, ids=[f"{r[0]}:{r[1][0]}" for r in RULES])
def test_layer_imports(package: str, banned: tuple[str, ...], why: str) -> None:
    files = _files(package)
    assert files, package
    broken = sorted({f"{p.relative_to(ROOT)}:{line} imports {name}" for p in files
                     for line, name in _imports(p) if _hits(name, banned)})
    assert not broken, f"{why}:\n" + "\n".join(broken)


def test_the_check_sees_a_lazy_import_in_a_function(tmp_path: Path) -> None:
    sample = ROOT / "tables" / "engine" / "_layers_sample.py"
    try:
        sample.write_text("def f():\n    from tables.analysis.blackjack import recommend\n    return recommend\n")
        assert (2, "tables.analysis.blackjack.recommend") in _imports(sample)
        assert _hits("tables.analysis.blackjack", ("tables.analysis",))
    finally:
        sample.unlink()
