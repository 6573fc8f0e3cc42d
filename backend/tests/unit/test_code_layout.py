"""The code's layout rules (issue 34): feature folders of at most 25 modules, a root of at most 8, every
top-level package in the layers contract, the offline stand-in at its proper size, and a code map in
docs/architecture.md that matches the tree."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

FORGE = Path(__file__).resolve().parents[2] / "forge"
ARCHITECTURE = Path(__file__).resolve().parents[3] / "docs" / "architecture.md"
MAX_MODULES_PER_FOLDER = 25
MAX_ROOT_MODULES = 8
MAX_OFFLINE_LINES = 3_500


def _modules(folder: Path) -> list[Path]:
    return [path for path in folder.glob("*.py") if path.name != "__init__.py"]


def _packages() -> list[Path]:
    return sorted(init.parent for init in FORGE.rglob("__init__.py") if init.parent != FORGE)


def test_no_folder_holds_more_than_25_modules() -> None:
    folders = {path.parent for path in FORGE.rglob("*.py")}
    crowded = {
        str(f.relative_to(FORGE)): len(_modules(f)) for f in folders if len(_modules(f)) > MAX_MODULES_PER_FOLDER
    }
    assert crowded == {}


def test_the_root_keeps_at_most_8_modules() -> None:
    assert len(_modules(FORGE)) <= MAX_ROOT_MODULES, sorted(p.name for p in _modules(FORGE))


def test_every_top_level_package_and_root_module_is_in_the_layers_contract() -> None:
    pyproject = tomllib.loads((FORGE.parent / "pyproject.toml").read_text())
    contracts = pyproject["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    named = {re.split(r"[.\s]", part.strip())[1] for layer in layers for part in re.split(r"[|:]", layer)}
    top_level = {p.name for p in FORGE.iterdir() if (p / "__init__.py").exists()}
    root_modules = {p.stem for p in _modules(FORGE)}
    # config and ports are layers of their own; the composition root's modules sit in bootstrap/
    assert (top_level | root_modules) - named == set()


def test_the_offline_stand_in_is_at_most_3500_lines() -> None:
    lines = sum(len(path.read_text().splitlines()) for path in (FORGE / "offline").rglob("*.py"))
    assert lines <= MAX_OFFLINE_LINES


def _code_map_paths() -> set[str]:
    """The paths the code map names, rebuilt from its indentation (two spaces per level)."""
    text = ARCHITECTURE.read_text()
    block = text[text.index("```\nbackend/forge/") + 4 :]
    block = block[: block.index("```")]
    paths: set[str] = set()
    stack: list[str] = []
    for line in block.splitlines()[1:]:
        token = line.strip().split(" ", 1)[0]
        if not token.endswith(("/", ".py")):
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 2 - 1
        stack = [*stack[:depth], token.rstrip("/")]
        paths.add("/".join(stack) + ("/" if token.endswith("/") else ""))
    return paths


def test_the_architecture_code_map_names_every_package_and_nothing_else() -> None:
    listed = _code_map_paths()
    packages = {str(p.relative_to(FORGE)) + "/" for p in _packages() if p.parent == FORGE or p.parent.parent == FORGE}
    listed_packages = {p for p in listed if p.endswith("/")}
    assert listed_packages == packages
    assert [p for p in listed if p.endswith(".py") and not (FORGE / p).exists()] == []
