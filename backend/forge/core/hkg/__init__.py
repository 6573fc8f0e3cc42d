"""HKG — hypergraph knowledge grounding (pure core).

Modules: `hypergraph_records` (ids and records), `incidence_index` (CSR arrays), `hypergraph_store`
(validated store), `shared_subset_index` (IS = s run as IS = 1), `hyperpath_search_balls` +
`hyperpath_enumeration` + `k_shortest_hyperpaths` (exact k shortest loopless hyperpaths),
`traversal_cache`, `node_matching` and `hashed_text_vector` (terms to nodes), `structural_grounding`
(evidence and the 0-10 score), `hypergraph_jsonl` / `hypergraph_graphml` (formats),
`demo_hypergraph` (the demo built from the shipped knowledge). See docs/hkg.md.
"""
