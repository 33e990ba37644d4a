"""A panel of minds: word models trained on different data and objectives (co-occurrence, a
sentence encoder, a dictionary) that judge clues together.

- ``minds``: the minds, the panel, and every candidate's similarity to a board's cards;
- ``tables``: the shipped decks' similarities, computed once and kept on disk;
- ``build``: ``shared_panel``, one panel per process and configuration, prepared in the cache;
- ``partner`` and ``spymaster``: the panel spymasters (v2, v3) and how they read a guesser;
- ``guesser``: the panel guesser (the easy and normal levels');
- ``reading``: how a person reads a clue, the one model the people guesser and the default
  spymaster share;
- ``people``: the guessers beside a person who gives the clues;
- ``clues_for_people``: the default spymaster, which listens through that model.
"""

from .build import MIN_ZIPF, PANEL_VOCABULARY, familiar, shared_panel
from .clues_for_people import LISTENER_CONFIG, ListenerConfig, PeopleSpymaster
from .guesser import PanelGuesser
from .minds import DEFAULT_MINDS, MIND_LABELS, PEOPLE_MINDS, Mind, Panel
from .partner import PartnerModel
from .people import PeopleGuesser, PricedBonusGuesser
from .reading import PEOPLE_READING, PeopleReading, ReadingWeights
from .spymaster import PEOPLE_CONFIG, PanelConfig, PanelSpymaster, PeoplePanelSpymaster

__all__ = ["DEFAULT_MINDS", "LISTENER_CONFIG", "MIND_LABELS", "MIN_ZIPF", "PANEL_VOCABULARY",
           "PEOPLE_CONFIG", "PEOPLE_MINDS", "PEOPLE_READING", "ListenerConfig", "Mind", "Panel",
           "PanelConfig", "PanelGuesser", "PanelSpymaster", "PartnerModel", "PeopleGuesser",
           "PeoplePanelSpymaster", "PeopleReading", "PeopleSpymaster", "PricedBonusGuesser",
           "ReadingWeights", "familiar", "shared_panel"]
