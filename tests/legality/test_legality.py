"""The clue validator, its presets and switches, the candidate filter, and the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from codenames_ai.agents import RandomSpymaster
from codenames_ai.core import (
    PICTURES,
    WORDS,
    Clue,
    ConfigError,
    GameState,
    InvalidClue,
    Phase,
    Team,
    deal,
)
from codenames_ai.legality import ALL_RULES, PRESETS, CandidateFilter, clue_rules, validator_for
from codenames_ai.legality.check import check_clue_word


def first_rule(clue: str, visible: tuple[str, ...], rules: str) -> str | None:
    found = check_clue_word(clue, visible, rules)
    return found[0].rule if found else None


@pytest.mark.parametrize("clue", [
    "", "   ", "apple!", "r2d2", "c3po", "hello?", "naïve", "кошка", "猫", "🍎", "a" * 10_000,
    "don't", "ice\tcream", "x-ray", "'", "--", "1e5", "Ⅻ",
])
def test_odd_input_gets_a_verdict_never_a_crash(clue: str) -> None:
    for rules in PRESETS:
        for violation in check_clue_word(clue, ("APPLE", "ICE CREAM"), rules):
            assert violation.rule in ALL_RULES | {"one-word", "board-word"}
            assert violation.message


def test_every_rejection_names_the_rule_and_says_why() -> None:
    found = check_clue_word("night", ("KNIGHT",), "classic")
    assert [(v.rule, v.message) for v in found] == [
        ("homophone", "'night' sounds like KNIGHT on the board (homophone)")]


def test_house_rules_compose_and_round_trip_by_name() -> None:
    classic = clue_rules("classic")
    house = classic.with_checks(remove=("homophone",))
    assert house.name.startswith("house:")
    assert clue_rules(house.name) == house
    assert first_rule("night", ("KNIGHT",), house.name) is None
    rhymes = classic.with_checks(add=("rhyme",))
    assert first_rule("hat", ("CAT",), rhymes.name) == "rhyme"
    assert first_rule("hat", ("CAT",), "classic") is None
    assert classic.with_checks(remove=("letter", "number")).checks == classic.checks - {
        "letter", "number"}  # the "used for its meaning" switch
    with pytest.raises(ConfigError, match="unknown clue rule"):
        classic.with_checks(add=("telepathy",))
    with pytest.raises(ConfigError, match="unknown clue rules 'tournament'"):
        clue_rules("tournament")


def test_covered_cards_no_longer_restrict_clues() -> None:
    assert first_rule("knives", ("KNIFE", "DOG"), "classic") == "form"
    assert first_rule("knives", ("DOG",), "classic") is None


VOCABULARY = (
    "runner knives geese happily broken breakage breakdown horse shoe heart party start "
    "carpet cartoon night knight hat cap university universe ocean whale apple seven x "
    "near paris CIA haus sunflower flower flour sea see pair pear art ear ham hammer "
    "corner letter ice cream icecream golden kingdom unlock lock artist teacher bakery "
    "water wave storm dog cat"
).split()
BOARDS = (
    ("KNIGHT", "BREAK", "HORSESHOE", "ART", "ICE CREAM"),
    ("RUN", "KNIFE", "GOOSE", "HAPPY", "CAT", "UNIVERSE"),
    ("HAMMER", "CORN", "LET", "CAR", "SEE", "FLOUR"),
    ("GOLD", "KING", "LOCK", "TEACH", "SUN", "WHALE"),
)


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_the_filter_agrees_with_the_validator_word_for_word(rules: str) -> None:
    candidate_filter = CandidateFilter(VOCABULARY, rules)
    for board in BOARDS:
        mask = candidate_filter.legal_mask(board)
        assert not mask.flags.writeable
        for word, legal in zip(candidate_filter.words, mask, strict=True):
            assert legal == (first_rule(word, board, rules) is None), (word, board, rules)


def test_the_engine_penalises_a_clue_that_breaks_the_games_rules(deck: tuple[str, ...]) -> None:
    board = deal(WORDS, deck, 3)
    state = GameState(WORDS, board)
    assert state.validator.name == "classic"
    word = board.words[0]
    plural = word + "s"
    state.apply(Clue(plural, 1))
    event = state.events[-1]
    assert isinstance(event, InvalidClue) and event.rule == "form"
    assert word.upper() in event.reason
    assert state.phase is Phase.COVER


def test_pictures_rules_forbid_shade_but_allow_sound_alikes(deck: tuple[str, ...]) -> None:
    assert PICTURES.clue_rules == "pictures"
    assert first_rule("dark", ("MONKEY",), "pictures") == "shade"
    assert first_rule("night", ("KNIGHT",), "pictures") is None
    assert first_rule("dark", ("MONKEY",), "classic") is None


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_the_random_spymaster_never_gives_an_illegal_clue(rules: str,
                                                          deck: tuple[str, ...]) -> None:
    game_rules = WORDS.with_options(clue_rules=rules)
    validator = validator_for(rules)
    spymaster = RandomSpymaster(deck, max_number=3)
    for seed in range(150):
        state = GameState(game_rules, deal(game_rules, deck, seed))
        spymaster.start_game(seed)
        clue = spymaster.give_clue(state.spymaster_view(state.current_team))
        assert state.check_clue(clue) is None
        assert validator.check_against(clue.word, state.clue_context().visible_words) is None
        state.apply(clue)
        assert state.phase is Phase.GUESS and state.current_team in (Team.RED, Team.BLUE)



def test_a_saved_filter_loads_only_for_the_same_vocabulary_and_rules(tmp_path: Path) -> None:
    path = tmp_path / "filter.npz"
    built = CandidateFilter(VOCABULARY, "classic")
    built.save(path)
    loaded = CandidateFilter.load(path, VOCABULARY, "classic")
    assert loaded is not None
    for board in BOARDS:
        assert (loaded.legal_mask(board) == built.legal_mask(board)).all()
    assert CandidateFilter.load(path, VOCABULARY, "strict") is None
    assert CandidateFilter.load(path, VOCABULARY[:-1], "classic") is None
    path.write_bytes(b"not a filter")
    assert CandidateFilter.load(path, VOCABULARY, "classic") is None


def test_a_long_card_or_clue_gets_a_fast_verdict_in_bounded_memory() -> None:
    # A 1,500-letter card took 1 GB: the clue rules listed every piece of it (length cubed).
    import random
    import tracemalloc

    rng = random.Random(0)
    long = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(10_000))
    check_clue_word("tree", ["mermaid"])  # the lexicon loaded before measuring
    tracemalloc.start()
    try:
        assert check_clue_word("tree", ["mermaid", long]) == []
        assert [v.rule for v in check_clue_word(long, ["mermaid"])] == ["too-long"]
        # Longer than any word, in every rule set: judged before it is compared with cards.
        assert check_clue_word(long, ["mermaid", long])[0].rule == "too-long"
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 << 20, peak


@pytest.mark.parametrize(("clue", "card"), [("café", "CAFE"), ("cafe", "CAFÉ"),
                                            ("Cafe\u0301", "cafe"), ("NAÏVE", "naive")])
def test_a_clue_that_is_a_card_but_for_accents_is_the_card(clue: str, card: str) -> None:
    assert check_clue_word(clue, [card, "mermaid"])[0].rule == "board-word"
    legal = CandidateFilter([clue, "tree"]).legal_words([card, "mermaid"])
    assert clue not in legal and "tree" in legal
