"""The Pictures edition: the shipped emoji deck, user image decks, picture meanings, the
picture-tag clue rule, the 5x4 grid in the terminal, and seeded games."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import emoji
import numpy as np
import pytest
from typer.testing import CliRunner

from codenames_ai.agents import make_agent
from codenames_ai.agents.space import clue_space
from codenames_ai.cli.app import app as cli
from codenames_ai.core import (
    PICTURES,
    DeckError,
    EndReason,
    GameRecord,
    Seats,
    Team,
    play_game,
    replay,
)
from codenames_ai.decks import default_deck, read_deck
from codenames_ai.legality import CandidateFilter, validator_for
from codenames_ai.pictures import PictureCard, load_image_deck, shipped_deck
from codenames_ai.render import render_board
from codenames_ai.vectors import load_model

NOTO = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
BANNED = set("red orange yellow green blue purple pink brown black white gray grey dark light "
             "bright pale left right top bottom corner near far row column".split())


def test_shipped_deck_integrity() -> None:
    cards = shipped_deck().cards
    assert len(cards) >= 200
    assert len({c.name for c in cards}) == len(cards)
    assert len({c.tags for c in cards}) == len(cards)
    for card in cards:
        assert 3 <= len(card.tags) <= 8, card
        assert all(re.fullmatch(r"[a-z]+", t) for t in card.tags), card
        assert not BANNED & set(card.tags), card
    assert default_deck("pictures") == tuple(c.name for c in cards)


def test_no_two_pictures_of_the_same_thing() -> None:
    """A board must not show two pictures of one subject: main emoji and main tags are unique,
    and no emoji is on more than two cards."""
    cards = shipped_deck().cards
    firsts = [emoji.emoji_list(c.name)[0]["emoji"] for c in cards]
    assert len(set(firsts)) == len(cards)
    assert len({c.tags[0] for c in cards}) == len(cards)
    uses = Counter(e["emoji"] for c in cards for e in emoji.emoji_list(c.name))
    assert max(uses.values()) <= 2


def test_every_picture_is_one_or_two_valid_emoji() -> None:
    for card in shipped_deck().cards:
        found = emoji.emoji_list(card.name)
        assert "".join(e["emoji"] for e in found) == card.name, card
        assert 1 <= len(found) <= 2, card
        for item in found:
            data = emoji.EMOJI_DATA[item["emoji"]]
            assert data["status"] == emoji.STATUS["fully_qualified"], card
            assert data["E"] <= 15.0, card  # Noto Color Emoji 2.042 (Debian 12) has Emoji 15.0


@pytest.mark.skipif(not NOTO.exists(), reason="needs Debian's fonts-noto-color-emoji "
                                              "(the README and .ci/run install it)")
def test_every_emoji_has_a_glyph_in_noto_color_emoji() -> None:
    from fontTools.ttLib import TTFont

    font = TTFont(str(NOTO))
    cmap = font.getBestCmap()
    ligatures = set()
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            table = getattr(table, "ExtSubTable", table)
            for first, entries in getattr(table, "ligatures", {}).items():
                ligatures.update((first, *entry.Component) for entry in entries)
    for card in shipped_deck().cards:
        for item in emoji.emoji_list(card.name):
            # The variation selector picks the colour form; the font needs no glyph for it.
            glyphs = tuple(cmap.get(ord(ch)) for ch in item["emoji"] if ch != "\ufe0f")
            assert None not in glyphs, f"{card.name}: {item['emoji']!r} has no glyph"
            assert len(glyphs) == 1 or glyphs in ligatures, \
                f"{card.name}: {item['emoji']!r} is not one glyph in the font"


def test_every_tag_is_in_the_default_model() -> None:
    model = load_model()
    missing = {t for c in shipped_deck().cards for t in c.tags if t not in model}
    assert not missing


def shipped(name: str) -> PictureCard:
    card = shipped_deck().card(name)
    assert card is not None, name
    return card


def test_a_picture_means_its_tags() -> None:
    model = load_model()
    pictures = shipped_deck().captions
    owl = next(c.name for c in shipped_deck().cards if c.tags[0] == "owl")  # owl books ...
    hoot = model.word_vector("hoot")
    mean = model.card_scores([owl], hoot, "mean", pictures=pictures)[0]
    weighted = model.card_scores([owl], hoot, "weighted", pictures=pictures)[0]
    best = model.card_scores([owl], hoot, "max", pictures=pictures)[0]
    tags = [model.word_vector(t) @ hoot for t in shipped(owl).tags]
    assert best == pytest.approx(max(tags), abs=1e-5)
    assert best >= weighted and best >= mean
    # Word cards are unchanged by the picture meaning.
    assert np.array_equal(model.card_scores(["apple"], hoot, "max", pictures=pictures),
                          model.card_scores(["apple"], hoot, "mean", pictures=pictures))


def test_picture_tag_rule() -> None:
    owl, octopus = "\U0001f989\U0001f4da", "\U0001f419\U0001f3b9"  # owl+books, octopus+piano
    assert "wise" in shipped(owl).tags and "tentacles" in shipped(octopus).tags
    pictures = shipped_deck().captions
    board = [owl, octopus]
    rules = validator_for("pictures", pictures)
    for clue in ("owl", "owls", "books", "tentacles", "tentacle"):
        violation = rules.check_against(clue, board)
        assert violation is not None and violation.rule == "picture-tag", clue
        assert "caption says" in violation.message
    for clue in ("hoot", "ink"):
        assert rules.check_against(clue, board) is None, clue
    assert validator_for("classic", pictures).check_against("owl", board) is None
    vocabulary = ["owl", "owls", "books", "hoot", "ink", "tentacles", "squid", "left", "blue"]
    mask = CandidateFilter(vocabulary, "pictures").legal_mask(board, pictures)
    expected = [rules.check_against(w, board) is None for w in vocabulary]
    assert list(mask) == expected
    # Without a deck, the rules core's validator (resolved by name) knows the shipped deck.
    assert validator_for("pictures").check_against("owl", board) is not None


def test_two_decks_with_a_card_of_the_same_name_do_not_mix(tmp_path: Path) -> None:
    """Each deck gives its own card its meaning, in one process: the clue space's board
    scores and the picture-tag rule follow the deck they are given."""
    decks = []
    for folder, tags in (("a", "owl feather night"), ("b", "ship ocean wave")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "card.png").write_bytes(b"\x89PNG\r\n\x1a\n")
        (tmp_path / folder / "captions.csv").write_text(f"file,tags\ncard.png,{tags}\n")
        decks.append(load_image_deck(tmp_path / folder))
    a, b = (deck.captions for deck in decks)
    space = clue_space()
    owl, ship = space.index("owl"), space.index("ship")
    assert owl is not None and ship is not None
    cards = ("card.png", "apple")
    scores_a = space.board_scores(cards, "mean", a).copy()
    scores_b = space.board_scores(cards, "mean", b)  # the same cards: not the kept board
    assert scores_a[0, owl] > scores_a[0, ship] and scores_b[0, ship] > scores_b[0, owl]
    assert np.array_equal(scores_a[1], scores_b[1])  # the word card is the same in both
    assert np.array_equal(space.board_scores(cards, "mean", a), scores_a)
    rules = {name: validator_for("pictures", captions) for name, captions in (("a", a),
                                                                              ("b", b))}
    assert rules["a"].check_against("owl", cards) is not None
    assert rules["a"].check_against("ship", cards) is None
    assert rules["b"].check_against("ship", cards) is not None
    assert rules["b"].check_against("owl", cards) is None


def test_seeded_pictures_game_is_reproducible() -> None:
    deck = default_deck("pictures")

    def game() -> GameRecord:
        seats = Seats.standard(red_spymaster=make_agent("glove-ev-spymaster-v1"),
                               red_guesser=make_agent("glove-guesser-v1"),
                               blue_spymaster=make_agent("glove-ev-spymaster-v1"),
                               blue_guesser=make_agent("glove-guesser-v1"))
        return play_game(PICTURES, seats, seed=3, deck=deck)

    record = game()
    assert len(record.board.words) == 20 and set(record.board.words) <= set(deck)
    outcome = record.outcome  # seed 3's one ending
    assert (outcome.winner, outcome.reason, outcome.turns) == (Team.BLUE,
                                                               EndReason.AGENTS_COVERED, 5)
    assert not [e for e in record.events if type(e).__name__ == "InvalidClue"]
    replay(record)
    assert game().to_jsonl() == record.to_jsonl()


def test_pictures_grid_in_the_terminal() -> None:
    words = default_deck("pictures")[:20]
    text = render_board(words, [None] * 20, 5, tags=True, deck=shipped_deck())
    lines = text.splitlines()
    assert lines[0].split() == ["A", "B", "C", "D", "E"] and len(lines) == 1 + 4 + 20
    assert all(name in text for name in words)
    assert " ".join(shipped(words[0]).tags) in lines[5]
    assert render_board(words, [None] * 20, 5, tags=True) == text  # no deck: the shipped one


def write_image_deck(folder: Path, count: int = 20) -> list[str]:
    folder.mkdir()
    words = default_deck("words")[:count]
    rows = ["file,tags"]
    for i, word in enumerate(words):
        (folder / f"card{i:02}.png").write_bytes(b"\x89PNG\r\n\x1a\n")
        rows.append(f"card{i:02}.png,{word.split()[0]} picture card image")
    (folder / "captions.csv").write_text("\n".join(rows) + "\n")
    return [f"card{i:02}.png" for i in range(count)]


def test_a_user_image_deck_plays(tmp_path: Path) -> None:
    names = write_image_deck(tmp_path / "deck")
    card = load_image_deck(tmp_path / "deck", needed=20).card("card00.png")
    assert card is not None and card.image == tmp_path / "deck" / "card00.png"
    assert read_deck(tmp_path / "deck", needed=20) == tuple(names)
    done = CliRunner().invoke(cli, ["watch", "--edition", "pictures", "--deck",
                                    str(tmp_path / "deck"), "--seed", "1", "--tags"])
    assert done.exit_code == 0, done.output
    # The board shows the deck's images by file name, and --tags their captions.
    assert "[card00.png]" in done.stdout
    assert "picture card image" in done.stdout  # tags only this deck's captions hold
    assert "wins" in done.stdout.splitlines()[-1]


def test_a_person_clueing_on_a_user_image_deck_is_checked_against_its_captions(
        tmp_path: Path) -> None:
    write_image_deck(tmp_path / "deck")
    done = CliRunner().invoke(cli, ["play", "--role", "spymaster", "--edition", "pictures",
                                    "--deck", str(tmp_path / "deck"), "--seed", "1"],
                              input="image 1\nquit\nn\n")
    # 'image' is a caption tag of every card of this deck (and of no shipped picture).
    assert re.search(r"refused \[picture-tag\]: 'image' names what the picture card\d\d\.png "
                     r"shows", done.stdout), done.stdout


@pytest.mark.parametrize(("setup", "message"), [
    (lambda d: (d / "card03.png").unlink(), "'card03.png' is not in"),
    (lambda d: (d / "extra.png").write_bytes(b""), "no tags for extra.png"),
    (lambda d: (d / "captions.csv").write_text("file,tags\ncard00.png,\n"), "no tags"),
    (lambda d: (d / "captions.csv").write_text("file,tags\ncard00.png,a b c\ncard00.png,d e f\n"),
     "captioned twice"),
    (lambda d: (d / "captions.csv").write_text("file,tags\ncard00.png,dog\n"), "1 tags; give 3-8"),
    # A 100,000-letter tag held a game's clue checks for 53 s (fifth hostile review).
    (lambda d: (d / "captions.csv").write_text(f"file,tags\ncard00.png,dog ball {'t' * 46}\n"),
     "line 2: a tag has 46 characters; a tag is at most 45"),
    (lambda d: (d / "captions.csv").unlink(), "no captions file"),
    (lambda d: (d / "captions.json").write_text("{}"), "both captions.csv and captions.json"),
    (lambda d: (d / "captions.csv").write_text("file,tags\nnotes.txt,a b c\n"), "not an image"),
])
def test_bad_user_decks_are_refused(tmp_path: Path, setup: object, message: str) -> None:
    write_image_deck(tmp_path / "deck")
    setup(tmp_path / "deck")  # type: ignore[operator]
    with pytest.raises(DeckError, match=re.escape(message)):
        load_image_deck(tmp_path / "deck")


def test_json_captions(tmp_path: Path) -> None:
    names = write_image_deck(tmp_path / "deck", count=3)
    (tmp_path / "deck" / "captions.csv").unlink()
    (tmp_path / "deck" / "captions.json").write_text(json.dumps(
        {name: ["dog", "ball", "park"] for name in names}))
    assert load_image_deck(tmp_path / "deck").names == tuple(names)
    (tmp_path / "deck" / "captions.json").write_text("{oops")
    with pytest.raises(DeckError, match="not valid JSON"):
        load_image_deck(tmp_path / "deck")


def test_a_filter_saved_before_a_rule_was_added_is_not_reused(tmp_path: Path) -> None:
    from codenames_ai.legality.rules import ClueRules, clue_rules

    current = clue_rules("pictures")
    older = ClueRules("pictures", current.checks - {"picture-tag"})
    words = ["owl", "hoot", "tentacles"]
    CandidateFilter(words, older).save(tmp_path / "filter.pickle")
    assert CandidateFilter.load(tmp_path / "filter.pickle", words, current) is None
    CandidateFilter(words, current).save(tmp_path / "filter.pickle")
    assert CandidateFilter.load(tmp_path / "filter.pickle", words, current) is not None


def test_a_byte_order_mark_before_the_captions_header_is_dropped(tmp_path: Path) -> None:
    names = write_image_deck(tmp_path / "deck")
    captions = tmp_path / "deck" / "captions.csv"
    captions.write_bytes(b"\xef\xbb\xbf" + captions.read_bytes())
    assert load_image_deck(tmp_path / "deck", needed=20).names == tuple(names)
