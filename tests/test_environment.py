"""environment.yml (conda users) must list the same packages and versions as pyproject.toml."""

import pathlib
import re
import tomllib

import pytest

yaml = pytest.importorskip("yaml")

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXTRAS_IN_ENVIRONMENT = ("lab", "test", "torch")     # the gpu extra (CuPy) is optional for conda users too


def _split(requirement):
    name, spec = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$", requirement).groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


def _pyproject_requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in EXTRAS_IN_ENVIRONMENT:
        reqs += project["optional-dependencies"][extra]
    return dict(_split(r) for r in reqs)


def _environment_requirements():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    reqs = []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            reqs += [r for r in dep["pip"] if not r.startswith("-")]
        else:
            reqs.append(dep)
    parsed = dict(_split(r) for r in reqs)
    for tool in ("python", "pip"):
        parsed.pop(tool, None)
    return parsed


def test_environment_yml_lists_the_same_packages_as_pyproject():
    assert _environment_requirements() == _pyproject_requirements()


def test_environment_python_matches_requires_python():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python"))
    assert python.replace("python", "") == project["requires-python"]
