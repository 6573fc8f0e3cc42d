"""Shipped knowledge: the source-domain library and the classic TRIZ tables, as data files plus one loader.

`load_knowledge.load_shipped_knowledge()` reads the files here into the frozen records of
`forge.core.explore.library_records`; every model, the API, the CLI and HKG's demo hypergraph use those
records (nothing re-reads the JSON). See docs/knowledge.md and NOTICE (TRIZ attribution).
"""
