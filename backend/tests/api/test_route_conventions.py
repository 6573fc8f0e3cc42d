"""FastAPI conventions of the route modules: dependencies are `Annotated` (`ContainerDep`, ...), not
`request.app.state` reads; request and response models live in `forge.api.schemas`, not beside routes."""

from __future__ import annotations

import ast
from pathlib import Path

import forge.api

API = Path(forge.api.__file__).parent
ROUTES = sorted((API / "routes").glob("*.py"))
# `create_app` puts things on app.state; `deps` is the one module that reads them back.
READS_APP_STATE = {API / "app.py", API / "deps.py"}


def _app_state_reads(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "state"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "app"
    ]


def _base_name(base: ast.expr) -> str:
    return base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""


def _classes(path: Path) -> list[str]:
    """Classes other than response classes (`MarkdownResponse(PlainTextResponse)`), which set a media type."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and not all(_base_name(b).endswith("Response") for b in node.bases)
    ]


def test_only_deps_reads_the_app_state() -> None:
    reads = {
        str(path.relative_to(API)): lines
        for path in sorted(API.rglob("*.py"))
        if path not in READS_APP_STATE and (lines := _app_state_reads(path))
    }
    assert reads == {}, f"use forge.api.deps' Annotated dependencies (ContainerDep, ...) instead: {reads}"


def test_route_modules_define_no_models() -> None:
    # A route module may subclass a response class (MarkdownResponse), never declare a pydantic model.
    found = {path.name: names for path in ROUTES if (names := _classes(path))}
    assert found == {}, f"move these models to forge/api/schemas/: {found}"


def test_the_checks_see_what_they_look_for(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "class Out(BaseModel):\n    x: int\n\nclass Csv(Response):\n    media_type = 'text/csv'\n\n"
        "def f(request):\n    return request.app.state.container\n"
    )
    assert _classes(sample) == ["Out"]
    assert _app_state_reads(sample) == [8]
