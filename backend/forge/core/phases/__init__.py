"""What closes each phase, one module per phase: `close_<phase>.py` (pure, like all of the core).

Each holds the phase's work gate, and — for the five phases a person reviews — the review's
payload, validation, application and transition rule, bundled as that module's `REVIEW`.
`review_registry.PHASE_REVIEWS` lists them by hand; nothing here is discovered.
"""
