"""Compounds built on a board word, whichever part it is (rainforest/FOREST, tonight/NIGHT,
horseshoe/HORSE), against words that merely contain a board word's letters (begin/GIN,
hearth/EARTH, starting/STAR); the proper-name rule that called seahorse a name; and the
answers kept on disk, which must not outlive the analysis that made them."""

from __future__ import annotations

import pytest

from codenames_ai.legality import CandidateFilter, validator_for
from codenames_ai.legality import filter as filter_module
from codenames_ai.legality.check import check_clue_word
from codenames_ai.legality.deckrows import DeckLegality, known_legal, remember
from codenames_ai.legality.filter import filter_signature
from codenames_ai.pictures import shipped_captions

# (clue, board card, the two words the clue is read as): refused while the card is face up.
BUILT_ON_THE_BOARD_WORD = [
    # the board word is the second part
    ("rainforest", "FOREST", "rain + forest"),  # CMU's entry says R AY1 N (corrected)
    ("rainforests", "FOREST", "rain + forest"),
    ("tonight", "NIGHT", "to + night"),  # a two-letter particle first
    ("today", "DAY", "to + day"),
    ("online", "LINE", "on + line"),
    ("nobody", "BODY", "no + body"),
    ("upstairs", "STAIRS", "up + stairs"),
    ("seahorse", "HORSE", "sea + horse"),  # not in CMU: spelling alone
    ("Seahorse", "HORSE", "sea + horse"),
    ("snowman", "MAN", "snow + man"),
    ("football", "BALL", "foot + ball"),
    ("toothbrush", "BRUSH", "tooth + brush"),
    ("bedroom", "ROOM", "bed + room"),
    ("teammate", "MATE", "team + mate"),  # one M heard at the seam
    ("granddaughter", "DAUGHTER", "grand + daughter"),
    ("firewall", "WALL", "fire + wall"),  # WALL's vowel as many speakers say it
    ("scarecrow", "CROW", "scare + crow"),
    ("doorknob", "KNOB", "door + knob"),
    # the board word is the first part
    ("horseshoe", "HORSE", "horse + shoe"),
    ("rainforest", "RAIN", "rain + forest"),
    ("snowman", "SNOW", "snow + man"),
    ("sunflower", "SUN", "sun + flower"),
    ("teammates", "TEAM", "team + mate"),  # an inflected form, through its lemma
    ("airplanes", "AIR", "air + plane"),
    ("backup", "BACK", "back + up"),  # a two-letter particle last
    ("hallmark", "HALL", "hall + mark"),
    ("doorknob", "DOOR", "door + knob"),
    ("chairmanship", "CHAIR", "chair + man"),
]

# (clue, board card): the card's letters are in the clue, but the clue is not built on it.
LOOKALIKES = [
    ("scholar", "LAR"), ("candle", "AND"), ("hearth", "EARTH"),  # a word inside, not a part
    ("begin", "GIN"), ("pirate", "RATE"), ("island", "LAND"), ("attack", "TACK"),
    ("increase", "CREASE"), ("invoice", "VOICE"),  # a two-letter piece that is no particle
    ("cargo", "CAR"), ("robin", "ROB"), ("baton", "BAT"), ("campus", "CAMP"),
    ("carpet", "PET"), ("carpet", "CAR"), ("cartoon", "CAR"), ("button", "BUTT"),  # sounds
    ("discover", "COVER"), ("support", "PORT"),
    ("starting", "STAR"), ("painting", "PAIN"), ("parking", "KING"),  # inflected: by lemma
    ("seeking", "KING"), ("hunting", "HUN"), ("meeting", "TING"),
    ("heart", "ART"), ("season", "SEA"), ("message", "MESS"), ("mother", "MOTH"),
    ("bullet", "BULL"), ("planet", "PLAN"), ("pigment", "PIG"), ("early", "EAR"),
]


@pytest.mark.parametrize(("clue", "card", "parts"), BUILT_ON_THE_BOARD_WORD)
@pytest.mark.parametrize("rules", ["classic", "strict", "flexible"])
def test_a_compound_built_on_a_visible_board_word_is_refused(clue: str, card: str, parts: str,
                                                              rules: str) -> None:
    found = check_clue_word(clue, (card, "APPLE"), rules)
    assert found and found[0].rule == "compound", [v.message for v in found]
    if rules == "classic":
        assert found[0].message == (f"'{clue}' is a compound built on {card} on the board "
                                    f"({parts})")
    assert not check_clue_word(clue, ("APPLE", "PIANO"), rules)  # only while it is visible


@pytest.mark.parametrize(("clue", "card", "_parts"), BUILT_ON_THE_BOARD_WORD)
def test_pictures_allow_compounds(clue: str, card: str, _parts: str) -> None:
    assert not check_clue_word(clue, (card, "APPLE"), "pictures")


@pytest.mark.parametrize(("clue", "card"), LOOKALIKES)
@pytest.mark.parametrize("rules", ["classic", "flexible"])
def test_a_word_that_only_contains_a_board_words_letters_is_legal(clue: str, card: str,
                                                                   rules: str) -> None:
    assert check_clue_word(clue, (card, "APPLE"), rules) == []


@pytest.mark.parametrize(("part", "card"), [
    ("forest", "RAINFOREST"), ("night", "TONIGHT"), ("team", "TEAMMATE"),
    ("mate", "TEAMMATE"), ("horse", "SEAHORSE"), ("line", "ONLINE"),
    # a less common first part before an everyday word, heard as the two joined (a blind
    # reader was given 'meal 2' with OATMEAL face down)
    ("meal", "OATMEAL"), ("oat", "OATMEAL"), ("room", "MUSHROOM")])
def test_a_part_of_a_compound_card_is_refused(part: str, card: str) -> None:
    found = check_clue_word(part, (card, "APPLE"), "classic")
    assert found and found[0].rule == "compound-part", [v.message for v in found]
    assert "(" in found[0].message and " + " in found[0].message


@pytest.mark.parametrize(("part", "card"), [
    ("pain", "PAINTING"), ("star", "STARTING"), ("gin", "BEGIN"), ("rate", "PIRATE"),
    ("earth", "HEARTH"), ("and", "CANDLE"),
    # two less common parts, or a rare ending: no compound
    ("ire", "VAMPIRE"), ("vamp", "VAMPIRE"), ("lea", "LEADER"), ("tin", "TINDER"),
    ("rose", "ROSEMARY")])
def test_letters_of_a_card_that_is_no_compound_are_legal(part: str, card: str) -> None:
    assert check_clue_word(part, (card, "APPLE"), "classic") == []


def test_seahorse_is_a_word_and_the_names_stay_names() -> None:
    for clue in ("seahorse", "Seahorse"):  # GCIDE's capital on every headword is no evidence
        assert [v.rule for v in check_clue_word(clue, ("APPLE", "PIANO"), "classic")] == []
    for name in ("Paris", "paris", "London", "london", "Tokyo", "Einstein", "Rapunzel",
                 "rapunzel"):
        found = check_clue_word(name, ("APPLE", "PIANO"), "classic")
        assert [v.rule for v in found] == ["proper-name"], name


@pytest.mark.parametrize("clue", ["Cinderella", "cinderella", "Rapunzel", "rapunzel", "Oxford",
                                  "oxford", "Tudor", "tudor"])
def test_a_proper_name_is_one_whatever_its_case(clue: str) -> None:
    # lemminflect lists 'cinderella' among its nouns too ("a Cinderella story"); it was let
    # through as a common word while Rapunzel, which only the CMU dictionary lists, was not.
    found = check_clue_word(clue, ("MERMAID", "APPLE"), "classic")
    assert [v.rule for v in found] == ["proper-name"], clue


@pytest.mark.parametrize("clue", ["tangerine", "Tangerine", "hunter", "Hunter", "ninja",
                                  "kids", "miles"])
def test_common_words_that_are_also_names_stay_words(clue: str) -> None:
    assert check_clue_word(clue, ("MERMAID", "APPLE"), "classic") == [], clue


def test_the_picture_tags_stand_for_board_words_only_in_the_picture_tag_rule() -> None:
    # The zebra's caption says horse; a squirrel's says forest. Under the Pictures rules the
    # tags (and their forms) are what the picture shows, so they are refused; a compound of
    # a tag is a related word, which the Pictures rules allow (there is no compound rule).
    board = ("🦓", "🐿️")
    assert shipped_captions()["🦓"][3] == "horse" and "forest" in shipped_captions()["🐿️"]
    for clue in ("horse", "horses", "forest"):
        assert [v.rule for v in check_clue_word(clue, board, "pictures")] == ["picture-tag"]
    for clue in ("seahorse", "horseshoe", "rainforest", "tonight"):
        assert check_clue_word(clue, board, "pictures") == []
    # The word rules see no word on a picture card, its tags included: a compound of a tag
    # is no more refused than the tag itself.
    for clue in ("horse", "seahorse", "rainforest"):
        assert check_clue_word(clue, board, "classic") == []


WORDS = tuple(sorted({clue.lower() for clue, _, _ in BUILT_ON_THE_BOARD_WORD}
                     | {clue for clue, _ in LOOKALIKES}
                     | {"forest", "horse", "night", "ocean", "music", "pain", "gallop"}))
CARDS = tuple(sorted({card for _, card, _ in BUILT_ON_THE_BOARD_WORD}
                     | {card for _, card in LOOKALIKES} | {"APPLE", "PIANO", "TONIGHT",
                                                           "RAINFOREST", "PAINTING"}))
BOARDS = [CARDS[i:i + 7] for i in range(0, len(CARDS), 7)]


@pytest.mark.parametrize("rules", ["classic", "strict", "flexible", "pictures"])
def test_the_filter_and_the_deck_rows_agree_with_the_validator(rules: str) -> None:
    candidates = CandidateFilter(WORDS, rules)
    deck = tuple((card, ()) for card in CARDS)
    rows = DeckLegality(deck, candidates.intrinsic_mask(),
                        [candidates.blocked_by(card, tags) for card, tags in deck])
    remember(rules, candidates.words, rows)  # the rules core's fast path answers from these
    validator = validator_for(rules)
    for board in BOARDS:
        keys = [(card, ()) for card in board]
        mask = candidates.legal_mask(board)
        for word, legal in zip(candidates.words, mask, strict=True):
            full = not check_clue_word(word, board, rules)  # the analysis, no fast path
            assert bool(legal) == full, (word, board, rules)
            assert rows.legal(candidates.words.index(word), keys) == full
            assert known_legal(rules, word, keys) is full
            if word.upper() not in board:  # (the core refuses a board word before asking)
                assert (validator.check_against(word, board) is None) is full


def test_rows_made_by_an_older_analysis_are_not_trusted(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """The analysis changed (rainforest and tonight became compounds, starting stopped being
    one), so answers kept on disk by the analysis before must be made again."""
    words = ("rainforest", "tonight", "starting", "ocean")
    deck = (("FOREST", ()), ("NIGHT", ()), ("STAR", ()))
    candidates = CandidateFilter(words, "classic")
    rows = DeckLegality(deck, candidates.intrinsic_mask(),
                        [candidates.blocked_by(card, tags) for card, tags in deck])
    assert [w for w, ok in zip(words, rows.legal_mask(deck), strict=True) if ok] == [
        "starting", "ocean"]
    signature = filter_signature("classic", words)
    assert DeckLegality.loads(rows.dumps(signature), signature, deck) is not None
    assert CandidateFilter.loads(candidates.dumps(), words, "classic") is not None
    for older in (1, 2, 3):  # the formats before compounds on a particle, a doubled consonant
        with monkeypatch.context() as patch:
            patch.setattr(filter_module, "FILTER_FORMAT", older)
            stale_signature = filter_signature("classic", words)
            stale_filter = candidates.dumps()
        assert stale_signature != signature
        assert DeckLegality.loads(rows.dumps(stale_signature), signature, deck) is None
        assert CandidateFilter.loads(stale_filter, words, "classic") is None
