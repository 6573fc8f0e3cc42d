import pytest

from forge.config import Settings


def test_search_profile_defaults_to_interactive_and_reads_research() -> None:
    assert Settings.from_env({}).search_profile == "interactive"
    assert Settings.from_env({"FORGE_SEARCH_PROFILE": " Research "}).search_profile == "research"


def test_rejects_an_unknown_search_profile_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="interactive, research"):
        Settings.from_env({"FORGE_SEARCH_PROFILE": "turbo"})


def test_search_depth_defaults_to_the_profile_and_is_bounded() -> None:
    assert Settings.from_env({}).search_depth == 0
    assert Settings.from_env({"FORGE_SEARCH_DEPTH": "3"}).search_depth == 3
    assert Settings.from_env({"FORGE_SEARCH_DEPTH": "99"}).search_depth == 5
