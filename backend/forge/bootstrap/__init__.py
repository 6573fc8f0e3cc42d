"""The composition root: the one place that builds adapters and wires them into services.

Invariants:
    - Nothing is built at import time; `build_container.build_container` does it, on demand, from Settings.
    - Tests build containers with their own adapters (a scripted model, a test database) through
      the same function's keyword overrides, never by patching globals.
"""
