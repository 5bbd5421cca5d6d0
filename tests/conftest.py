"""Shared test configuration: the optional PyTorch reference, and markers."""

import importlib.util

import pytest


def pytest_addoption(parser):
    parser.addoption("--e2e", action="store_true", default=False,
                     help="run the end-to-end browser tests in tests/e2e")


def pytest_collection_modifyitems(config, items):
    skip_e2e = pytest.mark.skip(reason="browser tests run with --e2e (make test-e2e)")
    for item in items:
        if "tests/e2e" in str(item.fspath).replace("\\", "/") and not config.getoption("--e2e"):
            item.add_marker(skip_e2e)


HAVE_TORCH = importlib.util.find_spec("torch") is not None

requires_torch = pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed (pip install torch==2.13.0)")
