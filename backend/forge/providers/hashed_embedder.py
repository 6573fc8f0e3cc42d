"""A hashed-text Embedder: feature-hashed text vectors, no model, no network, no key (the HKG matches terms with it).

Invariants:
    - Implements `forge.ports.Embedder`; the same texts give the same vectors on every machine.
    - It captures spelling and morphology, not meaning (see core.hkg.hashed_text_vector); a real
      embedding model plugs in through the same port.
"""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.hkg.hashed_text_vector import DEFAULT_DIMENSIONS, hashed_text_vector


class HashedTextEmbedder:
    def __init__(self, dimensions: int = DEFAULT_DIMENSIONS) -> None:
        self._dimensions = dimensions

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [hashed_text_vector(text, self._dimensions) for text in texts]

    async def warm(self) -> None:
        pass  # nothing to load: vectors are computed from the text alone
