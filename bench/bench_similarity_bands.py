"""Benchmark: do all-MiniLM-L6-v2's cosines fall in seed 004 §10.1's bands on labelled pairs?

Pairs written for this check (hypothesis-like sentences), labelled identical (case, punctuation or one
word of difference), paraphrase (the same claim in other words), related (the same field, another
claim) and unrelated. For each label: min / mean / max cosine and the share inside the seed's band
(identical ≥ 0.98, paraphrase 0.70–0.98, related 0.50–0.70, unrelated < 0.30 — weak 0.30–0.50 also
counted for unrelated pairs that share a topic word). Then the discrimination ratio of §10.6 (mean
related / mean unrelated).

Prints a table, then:
    RESULT identical_mean=<f> paraphrase_mean=<f> related_mean=<f> unrelated_mean=<f>
           in_band_identical=<f> in_band_paraphrase=<f> in_band_related=<f> in_band_unrelated=<f> ratio=<f>
Run: backend/.venv/bin/python bench/bench_similarity_bands.py
"""

from __future__ import annotations

import numpy as np

from forge.core.hypotheses.similarity_confidence import SimilarityBand, band_of
from forge.providers.sentence_embedder import SentenceEmbedder

PAIRS: dict[str, list[tuple[str, str]]] = {
    "identical": [
        ("Energy relates to information", "energy relates to information"),
        ("Triage by urgency cuts emergency wait times.", "Triage by urgency cuts emergency wait times"),
        ("Batteries store summer solar heat for winter", "Batteries store summer solar heat for the winter"),
        ("Flexible staffing follows the arrival curve", "Flexible staffing follows the arrival curve."),
    ],
    "paraphrase": [
        ("Energy and information are connected", "Information requires energy"),
        ("Triage by urgency cuts emergency wait times", "Sorting patients by how sick they are shortens waits in the ER"),
        ("Store summer heat for use in winter", "Keep warmth from the hot months for the cold season"),
        ("More nurses per shift reduce patient falls", "Higher nurse staffing lowers the number of falls among patients"),
        ("Congestion pricing reduces city traffic", "Charging drivers to enter the centre cuts urban traffic"),
        ("Bees pollinate flowering plants", "Insects carry pollen between blossoms"),
    ],
    "related": [
        ("Triage by urgency cuts emergency wait times", "Adding beds alone cuts emergency wait times"),
        ("Store summer heat for use in winter", "Solar panels lose efficiency in hot weather"),
        ("Congestion pricing reduces city traffic", "Bike lanes make cycling in cities safer"),
        ("More nurses per shift reduce patient falls", "Hospital discharge planning shortens stays"),
        ("Catalysts lower the activation energy of reactions", "Enzyme activity depends on temperature"),
    ],
    "unrelated": [
        ("Triage by urgency cuts emergency wait times", "Honey bees choose nest sites by quorum"),
        ("Store summer heat for use in winter", "Medieval poetry used alliteration"),
        ("Congestion pricing reduces city traffic", "Protein folding is driven by hydrophobic effects"),
        ("Energy relates to information", "The recipe needs two cups of flour"),
        ("More nurses per shift reduce patient falls", "Volcanic ash enriches soil"),
    ],
}
BANDS = {
    "identical": {SimilarityBand.IDENTICAL},
    "paraphrase": {SimilarityBand.PARAPHRASE},
    "related": {SimilarityBand.RELATED},
    "unrelated": {SimilarityBand.UNRELATED, SimilarityBand.WEAK},
}


def main() -> None:
    embedder = SentenceEmbedder()
    result: dict[str, float] = {}
    print(f"{'label':<11} {'min':>6} {'mean':>6} {'max':>6} {'in band':>8}")
    for label, pairs in PAIRS.items():
        left = np.array(embedder.vectors([a for a, _ in pairs]))
        right = np.array(embedder.vectors([b for _, b in pairs]))
        cosines = (left * right).sum(axis=1)
        inside = float(np.mean([band_of(float(c)) in BANDS[label] for c in cosines]))
        result[f"{label}_mean"], result[f"in_band_{label}"] = float(cosines.mean()), inside
        print(f"{label:<11} {cosines.min():>6.3f} {cosines.mean():>6.3f} {cosines.max():>6.3f} {inside:>8.2f}")
    ratio = result["related_mean"] / result["unrelated_mean"]
    keys = [f"{k}_mean" for k in PAIRS] + [f"in_band_{k}" for k in PAIRS]
    print("RESULT " + " ".join(f"{k}={result[k]:.3f}" for k in keys) + f" ratio={ratio:.1f}")


if __name__ == "__main__":
    main()
