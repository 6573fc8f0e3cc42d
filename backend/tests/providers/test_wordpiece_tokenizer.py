"""The WordPiece tokenizer splits like BERT's uncased tokenizer on the shipped vocabulary."""

from __future__ import annotations

from forge.providers.static_embedder import VOCAB_FILE
from forge.providers.wordpiece_tokenizer import basic_words, token_ids, vocab_from_lines

VOCAB = vocab_from_lines(VOCAB_FILE.read_text(encoding="utf-8").splitlines())
TOKENS = {i: t for t, i in VOCAB.items()}


def test_splits_words_into_longest_known_pieces() -> None:
    # The Hugging Face course's bert-base-uncased example.
    pieces = [TOKENS[i] for i in token_ids("I have a new GPU!", VOCAB)]
    assert pieces == ["i", "have", "a", "new", "gp", "##u", "!"]


def test_lower_cases_strips_accents_and_splits_punctuation() -> None:
    assert basic_words("Héllo, WORLD!") == ["hello", ",", "world", "!"]
    assert basic_words("数据a") == ["数", "据", "a"]


def test_unknown_characters_become_the_unknown_token() -> None:
    assert [TOKENS[i] for i in token_ids("\u2603\u2603", VOCAB)] in (["[UNK]"], ["☃", "##☃"])
    assert token_ids("x" * 101, VOCAB) == [VOCAB["[UNK]"]]
