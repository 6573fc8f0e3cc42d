"""The six phases, each defined in one place: `<phase>.py` exports its `DEFINITION`.

A definition names the phase's tools (`<phase>_tools.py`), its brief, its work gate, the review
that closes it (pure, in `forge.core.phases.close_<phase>`) and its output bound. `registry.PHASES`
lists the six by hand; nothing here is discovered.
"""
