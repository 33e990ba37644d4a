"""What the clue rules need to know about one word, computed once and cached.

Every relational rule is a question "do the clue's keys of kind A meet the board word's keys of
kind B?" (for example, a homophone shares a pronunciation). The single-clue check and the
vectorized candidate filter use these same keys, so they always agree.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from dataclasses import dataclass, field

from ..core.board import MAX_CARD_LENGTH
from ..core.clues import MAX_WORD_LENGTH
from .language import lexicon
from .lexicon import WORD_CACHE_SIZE, WordLookups

# Derivational suffixes, each with the part of speech the derived word must have (and have only
# those) and the parts of speech its base must have. The constraints keep 'corner' from counting
# as corn+er (corner is also a verb and an adjective) while 'runner' is run+er.
_SUFFIXES: tuple[tuple[str, frozenset[str], frozenset[str]], ...] = tuple(
    (suffix, frozenset(derived.split()), frozenset(base.split()))
    for suffix, derived, base in (
        ("er", "NOUN", "VERB"), ("or", "NOUN", "VERB"), ("ee", "NOUN", "VERB"),
        ("ly", "ADV", "ADJ"), ("ness", "NOUN", "ADJ"), ("ity", "NOUN", "ADJ"),
        ("ment", "NOUN", "VERB"), ("able", "ADJ", "VERB"), ("ible", "ADJ", "VERB"),
        ("ful", "ADJ NOUN", "NOUN VERB"), ("less", "ADJ", "NOUN VERB"), ("ish", "ADJ", "NOUN ADJ"),
        ("ist", "NOUN", "NOUN"), ("ism", "NOUN", "NOUN ADJ"), ("age", "NOUN", "VERB"),
        ("ive", "ADJ", "VERB"), ("dom", "NOUN", "NOUN ADJ"), ("hood", "NOUN", "NOUN"),
        ("ship", "NOUN", "NOUN"), ("ize", "VERB", "NOUN ADJ"), ("ise", "VERB", "NOUN ADJ"),
        ("y", "ADJ", "NOUN VERB"), ("en", "ADJ VERB", "NOUN ADJ"),
        ("ing", "NOUN ADJ", "NOUN VERB"),
    )
)
_PREFIXES = ("un",)
# Suffixes that also end many underived words (evening, ceiling): the derived word must sound
# like its base plus the suffix.
_HEARD_SUFFIXES = frozenset({"ing"})
# Compound ends whose vowel English reduces (chairman: CHAIR + m'n, not CHAIR + MAN).
_REDUCED_TAILS = frozenset({"man", "men", "woman", "women"})
_MIN_PART = 3  # shorter pieces ('he' in 'heart') are parts of a compound only as below
# The two-letter words English builds closed compounds with: particles and determiners as the
# first part (to|night, up|stairs, on|line, by|pass, no|body, my|self, it|self), particles as
# the last (make|up, near|by). Any other two-letter piece is more often a prefix, a suffix or an
# accident than a word (in|crease, ex|port, be|gin, act|or, camp|us, rap|id, car|go).
_SHORT_HEADS = frozenset({"to", "up", "on", "by", "no", "my", "it"})
_SHORT_TAILS = frozenset({"up", "by"})
# Vowels many English speakers do not tell apart, so a compound may be heard with either: cot
# and caught everywhere (fire|wall, cross|walk), and before R north/force, Mary/marry and
# mirror/nearer (scare|crow). CMU writes one speaker's vowel; the other is the same word.
_MERGED_VOWELS = frozenset({frozenset({"AA", "AO"})})
_MERGED_BEFORE_R = frozenset({frozenset({"AO", "OW"}), frozenset({"EH", "AE"}),
                              frozenset({"IH", "IY"})})
_VOWEL_LETTERS = set("aeiou")


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_LETTER_NAMES = {
    "a": "EY", "b": "B IY", "c": "S IY", "d": "D IY", "e": "IY", "f": "EH F", "g": "JH IY",
    "h": "EY CH", "i": "AY", "j": "JH EY", "k": "K EY", "l": "EH L", "m": "EH M", "n": "EH N",
    "o": "OW", "p": "P IY", "q": "K Y UW", "r": "AA R", "s": "EH S", "t": "T IY", "u": "Y UW",
    "v": "V IY", "w": "D AH B AH L Y UW", "x": "EH K S", "y": "W AY", "z": "Z IY",
}
NUMERAL_WORDS = _word_set("""
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy
    eighty ninety hundred thousand million billion trillion dozen
""")
POSITION_WORDS = _word_set("""
    near nearby next adjacent beside neighbor neighbour neighboring neighbouring left right
    top bottom middle center centre central corner corners row rows column columns edge
    edges diagonal diagonally above below beneath upper lower horizontal vertical first last
    second third fourth fifth sixth seventh eighth ninth tenth
""")
SHADE_WORDS = _word_set("""
    shade shaded shading shades dark darker darkest light lighter lightest pale paler bright
    brighter faded dim monochrome grayscale greyscale tint tinted gray grey black white
""")
_ROMAN = re.compile(r"^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_LETTERS = re.compile(r"^[^\W\d_]+(?:'[^\W\d_]+)?$")
_WORD_SEPARATORS = re.compile(r"[-\u2010-\u2015_/.+&]")
MAX_LENGTH = MAX_WORD_LENGTH  # the core refuses longer clues too, in every rule set


def normalize(word: str) -> str:
    """NFKC, lower case, curly apostrophes made straight, trimmed."""
    return unicodedata.normalize("NFKC", word).replace("\u2019", "'").strip().casefold()


@dataclass(frozen=True)
class WordAnalysis:
    """The keys of one word (or one board card, which may hold several words)."""

    word: str
    intrinsic: tuple[tuple[str, str], ...]  # (rule, reason) that fire for the word alone
    family: frozenset[str]  # the word, its lemmas and derivation bases
    compound: frozenset[str]  # families of the parts, if it is a compound
    phones: frozenset[str]  # pronunciations without stress marks
    rhymes: frozenset[str]  # from the last stressed vowel on
    near: frozenset[str]  # pronunciations within one sound (deletion neighbourhood)
    roots: frozenset[str]  # Porter and Snowball stems of the word and its lemmas
    substrings: frozenset[str] = field(default=frozenset())  # pieces of 3+ letters (cards)
    tags: frozenset[str] = field(default=frozenset())  # a picture card's tags and their forms


def _stress_free(phones: tuple[str, ...]) -> str:
    return " ".join(p.rstrip("012") for p in phones)


def _stress_class(phones: tuple[str, ...], *, any_stress: bool = False) -> tuple[str, ...]:
    """Phones with stress reduced to stressed ('1') or not ('0'); with ``any_stress``, every
    vowel marked alike (only the sounds count)."""
    if any_stress:
        return tuple(p[:-1] + "1" if p[-1].isdigit() else p for p in phones)
    return tuple(p[:-1] + ("0" if p[-1] == "0" else "1") if p[-1].isdigit() else p
                 for p in phones)


def _rhyme(phones: tuple[str, ...]) -> str | None:
    stressed = [i for i, p in enumerate(phones) if p[-1] in "12"]
    if not stressed:
        return None
    return _stress_free(phones[stressed[-1]:])


def _deletions(phones: str) -> set[str]:
    seq = phones.split()
    if len(seq) < 3:
        return {phones}
    return {phones} | {" ".join(seq[:i] + seq[i + 1:]) + " ~" for i in range(len(seq))}


@functools.lru_cache(maxsize=WORD_CACHE_SIZE)
def derivation_bases(word: str, lex: WordLookups) -> frozenset[str]:
    """Bases that ``word`` is derived from by one suffix or prefix (runner -> run,
    happily -> happy, breakage -> break, unlock -> lock)."""
    own_pos = lex.parts_of_speech(word)
    bases: set[str] = set()
    for suffix, derived_pos, base_pos in _SUFFIXES:
        if not word.endswith(suffix) or not own_pos or not own_pos <= derived_pos:
            continue
        stem = word[: -len(suffix)]
        candidates = {stem, stem + "e"}
        if len(stem) >= 2 and stem[-1] == stem[-2]:
            candidates.add(stem[:-1])
        if stem.endswith("i"):
            candidates.add(stem[:-1] + "y")
        if suffix == "ly":
            candidates.add(stem + "le")
        for base in candidates:
            if (len(base) >= _MIN_PART and lex.parts_of_speech(base) & base_pos
                    and (suffix not in _HEARD_SUFFIXES or _sounds_derived(word, base, lex))):
                bases.add(base)
    bases.update(base for base in lex.derived_from(word) if len(base) >= _MIN_PART)
    for prefix in _PREFIXES:
        base = word[len(prefix):]
        if (word.startswith(prefix) and len(base) >= _MIN_PART
                and lex.parts_of_speech(base) & own_pos):
            bases.add(base)
    return frozenset(bases)


def _sounds_derived(word: str, base: str, lex: WordLookups) -> bool:
    """``word`` sounds like ``base`` with something added (whaling: WHALE + ing), or the CMU
    dictionary lacks one of them. EVENING is not EVEN + ing: the vowel of -en is gone."""
    whole, first = lex.phones(word), lex.phones(base)
    if not whole or not first:
        return True
    return any(len(w) > len(b) and _stress_free(w[:len(b)]) == _stress_free(b)
               for w in whole for b in first)


@functools.lru_cache(maxsize=WORD_CACHE_SIZE)
def family(word: str, lex: WordLookups) -> frozenset[str]:
    """The word, its lemmas, the bases it derives from, and their lemmas."""
    members = {word}
    for lemmas in lex.lemmas(word).values():
        members.update(lemmas)
    for member in list(members):
        for base in derivation_bases(member, lex):
            members.add(base)
            for lemmas in lex.lemmas(base).values():
                members.update(lemmas)
    return frozenset(members)


def _is_part_word(part: str, lex: WordLookups) -> bool:
    """A common English word (rare dictionary entries like 'ist' do not count) of two letters
    or more (which two-letter words may be parts, ``compound_splits`` says)."""
    return len(part) >= 2 and lex.zipf(part) >= 3.0 and lex.in_lexicon(part)


_EVERYDAY = 4.0  # Zipf of the other part when one part is less common


def _is_rarer_part(part: str, lex: WordLookups) -> bool:
    """A less common word (oat, Zipf 2.9) of 3+ letters: a part only when the compound is
    heard as its parts joined (oat|meal), never on spelling alone."""
    return len(part) >= 3 and lex.zipf(part) >= 2.5 and lex.in_lexicon(part)


def _inflected(word: str, lex: WordLookups) -> bool:
    """``word`` is an inflection of another lemma in some part of speech (painting is paint's
    -ing form as well as a noun; teammates is teammate's plural). Spellings and hyphenations
    of the word itself (draftsman/draughtsman, overcome/over-come) are not another lemma."""
    return any(lemmas and word not in {lemma.replace("-", "") for lemma in lemmas}
               for lemmas in lex.lemmas(word).values())


def compound_splits(word: str, lex: WordLookups) -> tuple[tuple[str, str], ...]:
    """Ways to read ``word`` as a closed compound of two real words.

    The rule, so that a compound part is a word the compound is built on and not an accidental
    run of letters:

    - both parts are common English words (lemminflect lists them, Zipf >= 3) of 3+ letters
      (or a less common first part, Zipf >= 2.5, before an everyday one, Zipf >= 4, when the
      pronunciation check confirms it: oat|meal, not vamp|ire or fee|der),
      or a two-letter particle or determiner in its place (``_SHORT_HEADS``, ``_SHORT_TAILS``:
      to|night, make|up); a two-letter part needs the pronunciation check below to pass, so
      the CMU dictionary must know all three words;
    - an inflected form is not split itself: it is built on what its lemma is built on (the
      lemma is in the word's family, which is split too). So 'painting' is not pain + ting
      nor 'starting' star + ting, while 'teammates' is built on TEAM through 'teammate';
    - when the CMU dictionary knows the word and both parts, the word must *sound* like the
      parts joined: the first part with its stress, the second with its sounds (English
      compounds keep the stress on the first part: TOOTHbrush; a reduced -man is allowed:
      chairman), a doubled consonant at the seam heard once if the second part keeps a stress
      (team|mate), and vowels many speakers merge taken as equal (``_MERGED_VOWELS``). So
      'sunflower' is sun + flower and 'rainforest' rain + forest, but 'carpet' is not
      car + pet (the vowel changes), 'cartoon' not car + toon (car loses its stress), 'begin'
      not be + gin, 'pirate' not pi + rate, 'island' not is + land;
    - parts are a prefix and the rest: a word inside ('and' in 'candle', 'earth' in 'hearth',
      'lar' in 'scholar') is never a part.

    Without CMU pronunciations (seahorse) only the spelling is checked.
    """
    if len(word) < 5 or _inflected(word, lex):
        return ()
    splits = []
    for i in range(2, len(word) - 1):
        head, tail = word[:i], word[i:]
        short = len(head) < _MIN_PART or len(tail) < _MIN_PART
        if short and not (head in _SHORT_HEADS and len(tail) >= _MIN_PART
                          or tail in _SHORT_TAILS and len(head) >= _MIN_PART):
            continue
        head_common, tail_common = _is_part_word(head, lex), _is_part_word(tail, lex)
        common = head_common and tail_common
        # A less common first part beside an everyday second (oat|meal; not vamp|ire, and
        # never a rare ending: fee|der, guard|ian).
        if not (common or not short and tail_common and lex.zipf(tail) >= _EVERYDAY
                and _is_rarer_part(head, lex)):
            continue
        whole, first, second = lex.phones(word), lex.phones(head), lex.phones(tail)
        if not (whole and first and second):
            if short or not common:
                continue  # a two-letter or rarer part only when the pronunciation confirms it
        elif not any(_sounds_joined(p, a, b, reducible=tail in _REDUCED_TAILS,
                                    unstressed_head=head in _SHORT_HEADS)
                     for p in whole for a in first for b in second):
            continue
        splits.append((head, tail))
    return tuple(splits)


def _sounds_joined(whole: tuple[str, ...], first: tuple[str, ...],
                   second: tuple[str, ...], *, reducible: bool = False,
                   unstressed_head: bool = False) -> bool:
    """``whole`` is heard as ``first`` (its stress kept, or lost when ``unstressed_head``: a
    particle before the stressed word, up|STAIRS) then ``second`` (its sounds kept, or its
    vowels reduced when ``reducible``), the seam's doubled consonant perhaps heard once."""
    cuts = [len(first)]
    if first[-1] == second[0] and not first[-1][-1].isdigit():
        cuts.append(len(first) - 1)  # team|mate: T IY1 M EY2 T
    for cut in cuts:
        head = whole[:cut] + first[cut:]
        tail = whole[cut:]
        if len(tail) != len(second) or (cut < len(first) and not _stressed(tail)):
            continue
        if not (_same_sounds(_stress_class(head), _stress_class(first))
                or unstressed_head and _vowels_reduced(head) == _vowels_reduced(first)):
            continue
        if _same_sounds(_stress_class(tail, any_stress=True),
                        _stress_class(second, any_stress=True)) or (
                reducible and _vowels_reduced(tail) == _vowels_reduced(second)):
            return True
    return False


def _stressed(phones: tuple[str, ...]) -> bool:
    return any(p[-1] in "12" for p in phones)


def _same_sounds(heard: tuple[str, ...], word: tuple[str, ...]) -> bool:
    """The same phones, but for vowels many speakers merge (``_MERGED_VOWELS``)."""
    return len(heard) == len(word) and all(
        h == w or h[-1:] == w[-1:] and h[-1:].isdigit() and _merged(
            h[:-1], w[:-1], heard[i + 1] if i + 1 < len(heard) else "")
        for i, (h, w) in enumerate(zip(heard, word, strict=True)))


def _merged(a: str, b: str, following: str) -> bool:
    pair = frozenset({a, b})
    return pair in _MERGED_VOWELS or following == "R" and pair in _MERGED_BEFORE_R


def _vowels_reduced(phones: tuple[str, ...]) -> tuple[str, ...]:
    return tuple("AH" if p[-1].isdigit() else p for p in phones)


def _intrinsic(raw: str, word: str, lex: WordLookups) -> tuple[tuple[str, str], ...]:
    """Rules the word breaks on its own, in the order they are reported."""
    found: list[tuple[str, str]] = []
    if len(word) > MAX_LENGTH:
        return (("too-long", f"a clue of {len(word):,} characters is not one English word "
                             f"(the limit is {MAX_LENGTH})"),)
    if _WORD_SEPARATORS.search(word):
        found.append(("one-word", f"'{raw}' joins several words; a clue must be one word "
                                  "(no hyphens, slashes or dots)"))
        return tuple(found)
    if word.isdigit() or (word[:-2].isdigit() and word[-2:] in {"st", "nd", "rd", "th"}):
        return (("number", f"'{raw}' is a number"),)
    if not _LETTERS.match(word):
        return (("characters", f"'{raw}' has characters that are not letters; "
                               "a clue is a word made of letters"),)
    if len(word) == 1:
        found.append(("letter", f"'{raw}' is a single letter"))
    if word in NUMERAL_WORDS or (len(word) >= 2 and _ROMAN.match(word)
                                 and not lex.in_lexicon(word)):
        found.append(("number", f"'{raw}' is a number word"))
    if word in POSITION_WORDS:
        found.append(("position", f"'{raw}' can point at where cards lie on the grid"))
    if word in SHADE_WORDS:
        found.append(("shade", f"'{raw}' describes a picture's shade or colour tone"))
    english = lex.zipf(word)
    known = lex.is_known(word)
    other, other_zipf = lex.best_other_language(word)
    if not known and english < 1.5 and other_zipf < 3.0:
        found.append(("not-a-word", f"'{raw}' is not an English word this toolkit knows"))
    elif (not lex.in_lexicon(word) and english < 4.0 and other_zipf >= english + 1.5) or (
            english < 1.5 and other_zipf >= 3.0):
        found.append(("foreign", f"'{raw}' is a foreign word (it is common in "
                                 f"{_LANGUAGE_NAMES.get(other, other)}, rare in English)"))
    if _looks_like_abbreviation(raw, word, lex):
        found.append(("abbreviation", f"'{raw}' is an abbreviation or acronym"))
    if _looks_like_proper_name(raw, word, lex):
        found.append(("proper-name", f"'{raw}' is a proper name (not in the English "
                                     "dictionaries as a common word)"))
    return tuple(found)


_LANGUAGE_NAMES = {"de": "German", "fr": "French", "es": "Spanish", "it": "Italian",
                   "pt": "Portuguese", "nl": "Dutch", "ru": "Russian", "ar": "Arabic",
                   "pl": "Polish", "sv": "Swedish"}


def _looks_like_abbreviation(raw: str, word: str, lex: WordLookups) -> bool:
    if len(word) < 2:
        return False
    if raw.isupper() and raw.isalpha() and not lex.in_lexicon(word) and len(raw) <= 6:
        return True
    if (word.isascii() and not (set(word) & _VOWEL_LETTERS)
            and not (lex.in_lexicon(word) or lex.in_dictionary(word))):
        return True  # nyc, dvd (but not gym, myth, rhythm)
    spelled = " ".join(_LETTER_NAMES.get(ch, "?") for ch in word)
    return any(_stress_free(p) == spelled for p in lex.phones(word))


def _looks_like_proper_name(raw: str, word: str, lex: WordLookups) -> bool:
    """A name (of a person, place, brand, story character), on the evidence of the word lists,
    the first that settles it. One rule whatever the case it is typed in (Cinderella and
    cinderella, Rapunzel and rapunzel get one answer), but for step 5:

    1. a common word if a dictionary has it in lower case;
    2. a name if Webster's 2nd has it only with a capital (web2 writes names capitalised and
       common words in lower case) and lemminflect knows it as a proper noun, in its own
       base form and derived from no other word: Cinderella, Oxford, Tudor (lemminflect also
       lists these among common nouns, "a Cinderella story", so step 3 alone would pass them);
    3. a common word if lemminflect lists it (its nouns, verbs, adjectives and adverbs);
    4. a name if Webster's 2nd has it only with a capital (Paris, Bible; GCIDE capitalises
       every headword, so a word only GCIDE lists, 'Seahorse', is not a name on that account),
       or if the CMU dictionary lists it (it lists names beside the common words, which steps
       1 and 3 have already let through): Tokyo, Einstein, Rapunzel;
    5. otherwise, a word no dictionary lists in any case is a name if typed with a capital
       (the player's own word for it: 'Snerfwump'). A word GCIDE lists is not: a capital
       typed at the start of a clue (or put there by a phone's keyboard) says nothing, so
       'Seahorse' is judged like 'seahorse'.
    """
    if lex.in_dictionary(word):
        return False
    if lex.capitalized_only(word) and lex.proper_noun(word) and not derivation_bases(word, lex):
        return True
    if lex.in_lexicon(word):
        return False
    if lex.capitalized_only(word) or lex.in_cmu(word):
        return True
    return raw[:1].isupper() and raw[1:].islower() and not lex.in_any_dictionary(word)


# Words typed longer than this (a clue is at most MAX_LENGTH characters, perhaps with a
# combining mark on each) are analysed without being cached: a request body may hold a
# 16 KB word, and a cache of such keys would be a cache of megabytes.
_LONGEST_CACHED = 2 * MAX_LENGTH


def intrinsic_problems(raw: str) -> tuple[tuple[str, str], ...]:
    """The rules a clue word as typed breaks by itself, whatever the board (``analyze``'s
    ``intrinsic``, without working out its relations to other words)."""
    if len(raw) > _LONGEST_CACHED:
        return _intrinsic_problems(raw)
    return _cached_intrinsic_problems(raw)


def _intrinsic_problems(raw: str) -> tuple[tuple[str, str], ...]:
    return _intrinsic(raw.strip(), normalize(raw), lexicon())


_cached_intrinsic_problems = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(_intrinsic_problems)


def analyze(raw: str) -> WordAnalysis:
    """The analysis of a clue word as typed (case matters for acronyms and names)."""
    if len(raw) > _LONGEST_CACHED:
        return _analyze(raw)
    return _cached_analyze(raw)


def _analyze(raw: str) -> WordAnalysis:
    lex = lexicon()
    word = normalize(raw)
    intrinsic = intrinsic_problems(raw)
    if intrinsic and intrinsic[0][0] in {"too-long", "characters", "one-word"}:
        empty: frozenset[str] = frozenset()
        return WordAnalysis(word, intrinsic, frozenset({word}), empty, empty, empty, empty,
                            empty)
    return _relations(word, intrinsic, lex)


_cached_analyze = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(_analyze)


def compound_reading(word: str, parts: frozenset[str]) -> tuple[str, str] | None:
    """The two words ``word`` (or a word of its family: teammates -> teammate) is a compound
    of, one of them in ``parts`` (with its family), for saying why a clue was refused."""
    lex = lexicon()
    for member in sorted(family(normalize(word), lex)):
        for head, tail in compound_splits(member, lex):
            if (family(head, lex) | family(tail, lex)) & parts:
                return head, tail
    return None


def _relations(word: str, intrinsic: tuple[tuple[str, str], ...], lex: WordLookups) -> WordAnalysis:
    fam = family(word, lex)
    compound: set[str] = set()
    # A derived or inflected word built on a compound is built on its parts too (chairmanship
    # <- chairman <- chair + man; teammates <- teammate <- team + mate).
    for member in fam:
        for head, tail in compound_splits(member, lex):
            compound |= family(head, lex) | family(tail, lex)
    pronunciations = lex.phones(word)
    phones = {_stress_free(p) for p in pronunciations}
    rhymes = {r for p in pronunciations if (r := _rhyme(p)) is not None}
    near = set().union(*(_deletions(p) for p in phones)) if phones else set()
    roots = set().union(*(lex.stems(m) for m in fam if m == word or m in _lemma_set(word, lex)))
    return WordAnalysis(word, intrinsic, fam, frozenset(compound), frozenset(phones),
                        frozenset(rhymes), frozenset(near), frozenset(roots))


def _lemma_set(word: str, lex: WordLookups) -> set[str]:
    return {lemma for lemmas in lex.lemmas(word).values() for lemma in lemmas}


def _substrings(word: str) -> frozenset[str]:
    return frozenset(word[i:j] for i in range(len(word))
                     for j in range(i + _MIN_PART, len(word) + 1) if (i, j) != (0, len(word)))


@functools.lru_cache(maxsize=10_000)
def analyze_card(card: str, tags: tuple[str, ...] = ()) -> WordAnalysis:
    """The analysis of a board card, which may be an open or hyphenated compound
    ('ICE CREAM', 'MOTHER-IN-LAW'): its parts count as parts of a compound. A picture card
    is its caption ``tags`` (what its deck says it shows), not its name."""
    lex = lexicon()
    if tags:  # a picture: what it shows is in its tags, not in its name
        family = frozenset().union(*(_relations(normalize(t), (), lex).family for t in tags))
        return WordAnalysis(word=normalize(card), intrinsic=(), family=frozenset(),
                            compound=frozenset(), phones=frozenset(), rhymes=frozenset(),
                            near=frozenset(), roots=frozenset(), tags=family)
    text = normalize(card)
    if len(text) > MAX_CARD_LENGTH:  # no card (a record's or a plugin's): itself, no pieces
        empty: frozenset[str] = frozenset()
        return WordAnalysis(text, (), frozenset({text}), empty, empty, empty, empty, empty)
    parts = [p for p in re.split(r"[\s\-\u2010-\u2015_]+", text) if p]
    if len(parts) <= 1:
        single = _relations(text, (), lex)
        return dataclasses.replace(single, substrings=_substrings(text))
    joined = "".join(parts)
    analyses = [_relations(p, (), lex) for p in parts]
    whole = _relations(joined, (), lex)
    compound = frozenset().union(*(a.family for a in analyses))
    last = analyses[-1]
    return WordAnalysis(
        word=text, intrinsic=(), family=whole.family | {text}, compound=compound,
        phones=whole.phones, rhymes=last.rhymes, near=whole.near, roots=whole.roots,
        substrings=_substrings(joined) | {joined},
    )
