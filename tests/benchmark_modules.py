"""A script of benchmarks/ loaded as a module for the tests (benchmarks/ is not a
package): the fuzzer's requests, the photo set's renderer."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def benchmark(name: str) -> ModuleType:
    """benchmarks/<name>.py, loaded once per process as ``companion_<name>``."""
    key = f"companion_{name}"
    found = sys.modules.get(key)
    if found is not None:
        return found
    spec = importlib.util.spec_from_file_location(key, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
