"""The sentence embedder (all-MiniLM-L6-v2 on onnxruntime) is the model itself — its documented
similarities come out — and it understands paraphrase: on a small labelled set it ranks a paraphrase
above a text that shares words but not meaning, far more often than the hashed (spelling) embedder."""

from __future__ import annotations

import math
from collections.abc import Sequence

from forge.ports import Embedder
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.providers.sentence_embedder import SentenceEmbedder

# (anchor, paraphrase, unrelated): paraphrases share little spelling with their anchor; several
# unrelated texts share words with it on purpose.
TRIPLES = [
    ("queue", "waiting line", "volcanic eruption"),
    (
        "The hospital cut how long patients wait",
        "Patients at the clinic spend less time waiting",
        "The hospital car park was repainted blue",
    ),
    (
        "Store summer heat for use in winter",
        "Keep warmth from the hot months for the cold season",
        "Summer football leagues attract big crowds",
    ),
    (
        "The car would not start this morning",
        "My automobile failed to turn on today",
        "The morning newspaper arrived late",
    ),
    (
        "Prices rose sharply last year",
        "Inflation was high in the previous twelve months",
        "Last year the river rose sharply after the rain",
    ),
    (
        "A doctor examined the child",
        "The physician checked the kid",
        "A doctoral thesis examined child labour laws in 1900",
    ),
    (
        "Bees pollinate flowering plants",
        "Insects carry pollen between blossoms",
        "Plants in the factory make steel beams",
    ),
    ("The team won the championship", "The squad took the title", "The team ate lunch at the championship hotel"),
    (
        "Reduce traffic congestion in cities",
        "Ease urban gridlock",
        "Cities reduce taxes on traffic lights manufacturers",
    ),
    (
        "Solar panels convert sunlight into electricity",
        "Photovoltaic cells turn light from the sun into power",
        "Solar eclipses were feared by ancient people",
    ),
    ("He is very happy today", "He feels joyful this day", "He is very tall"),
    (
        "How can we lower energy use in buildings?",
        "Ways to cut the power consumption of houses and offices",
        "How can we lower the age of voting in elections?",
    ),
]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / norm if norm else 0.0


async def _paraphrase_wins(embedder: Embedder) -> int:
    wins = 0
    for anchor, paraphrase, unrelated in TRIPLES:
        a, p, u = await embedder.embed([anchor, paraphrase, unrelated])
        wins += _cosine(a, p) > _cosine(a, u)
    return wins


async def test_gives_the_similarities_sentence_transformers_documents_for_all_minilm_l6_v2() -> None:
    # The model card's and sentence-transformers' examples: 0.7553 and 0.8939 (torch, float32).
    eating, bread, awesome, great = await SentenceEmbedder().embed(
        [
            "A man is eating food.",
            "A man is eating a piece of bread.",
            "The new movie is awesome",
            "The new movie is so great",
        ]
    )
    assert abs(_cosine(eating, bread) - 0.7553) < 1e-3
    assert abs(_cosine(awesome, great) - 0.8939) < 1e-3


async def test_ranks_paraphrases_above_unrelated_text_far_more_often_than_spelling_does() -> None:
    model = await _paraphrase_wins(SentenceEmbedder())
    hashed = await _paraphrase_wins(HashedTextEmbedder())
    # Measured: the model 10/12, hashed 3/12 (the static table it replaces: 8/12).
    assert model >= 10, f"the model ranked {model} of {len(TRIPLES)} paraphrases first"
    assert model >= hashed + 6


async def test_a_word_finds_its_synonym_among_unrelated_words() -> None:
    [query, *candidates] = await SentenceEmbedder().embed(["queue", "volcano", "waiting line", "banana", "tax law"])
    scores = [_cosine(query, c) for c in candidates]
    assert max(range(len(scores)), key=scores.__getitem__) == 1


async def test_same_text_same_unit_vector_of_384_dimensions_and_no_texts_no_vectors() -> None:
    embedder = SentenceEmbedder()
    first, again, empty = await embedder.embed(["heat storage", "heat storage", ""])
    assert first == again and len(first) == 384 and len(empty) == 384
    assert abs(_cosine(first, first) - 1) < 1e-6
    assert await embedder.embed([]) == []
