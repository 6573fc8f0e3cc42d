"""The offline model: a deterministic, network-free LanguageModel over the shipped knowledge.

`OfflineModel` (in `offline_model`) plays the model's role in the agent loop; the other modules are
its pure parts: reading the conversation, framing the problem, the knowledge libraries, one planner
per phase, and the inspectable validation rules.
"""
