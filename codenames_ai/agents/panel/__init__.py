"""A panel of minds: word models trained on different data and objectives (co-occurrence, a
sentence encoder, a dictionary) that judge clues together.

- ``minds``: the minds, the panel, and every candidate's similarity to a board's cards;
- ``tables``: the shipped decks' similarities, computed once and kept on disk;
- ``build``: ``shared_panel``, one panel per process and configuration, prepared in the cache;
- ``partner`` and ``spymaster``: the default spymaster and how it reads its guesser;
- ``guesser``: the default guesser;
- ``people``: the guesser beside a person who gives the clues.
"""

from .build import MIN_ZIPF, PANEL_VOCABULARY, familiar, shared_panel
from .guesser import PanelGuesser
from .minds import DEFAULT_MINDS, MIND_LABELS, PEOPLE_MINDS, Mind, Panel
from .partner import PartnerModel
from .clues_for_people import LISTENER_CONFIG, ListenerConfig, PeopleSpymaster
from .people import PeopleGuesser, PricedBonusGuesser
from .reading import PEOPLE_READING, PeopleReading, ReadingWeights
from .spymaster import PEOPLE_CONFIG, PanelConfig, PanelSpymaster, PeoplePanelSpymaster

__all__ = ["LISTENER_CONFIG", "PEOPLE_READING", "DEFAULT_MINDS", "ListenerConfig", "PeopleReading", "PeopleSpymaster", "ReadingWeights", "MIND_LABELS", "MIN_ZIPF", "PANEL_VOCABULARY", "PEOPLE_CONFIG",
           "PEOPLE_MINDS", "Mind", "Panel", "PanelConfig", "PanelGuesser", "PanelSpymaster",
           "PartnerModel", "PeopleGuesser", "PricedBonusGuesser", "PeoplePanelSpymaster", "familiar", "shared_panel"]
