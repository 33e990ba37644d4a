"""Writes the notebooks from the cells below (run by hand after editing: python
notebooks/build.py); the tests execute the .ipynb files, so they never rot."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

GOOD_CLUE = [
    new_markdown_cell("""# What makes a good clue

The expected-value spymaster scores every legal clue against every face-up card, simulates a
guesser whose similarities differ from its own by noise, and gives the clue with the best
expected turn. This notebook looks at one board: the clue and its explanation, the similarity
landscape behind it, and what the risk setting does to wins and assassin losses."""),
    new_code_cell("""from codenames_ai.agents import make_agent
from codenames_ai.core import WORDS, GameState, deal
from codenames_ai.decks import default_deck

board = deal(WORDS, default_deck("words"), seed=11)
state = GameState(WORDS, board)
view = state.spymaster_view(state.current_team)
spymaster = make_agent("glove-ev-spymaster-v1")
spymaster.start_game(11)
clue = spymaster.give_clue(view)
print(clue)
print(spymaster.last_explanation.describe())"""),
    new_markdown_cell("""## The similarity landscape

Each row is one of the best candidate clues, each column a face-up card (own cards first);
the colour is the cosine in the model. A good clue has a block of high own-card cells and a
clear gap to the best other card."""),
    new_code_cell("""import matplotlib.pyplot as plt
import numpy as np

read = spymaster.read_board(view)
rows = spymaster._shortlist(read, 12)
sims = read.similarity[rows]
order = np.argsort(-sims[:, : read.own_count].max(axis=1))[:10]
figure, axes = plt.subplots(figsize=(11, 4))
axes.imshow(sims[order], cmap="viridis", aspect="auto")
axes.set_yticks(range(len(order)), [spymaster.clue_word(read, int(rows[i])) for i in order])
axes.set_xticks(range(len(read.words)), read.words, rotation=60, ha="right", fontsize=7)
axes.axvline(read.own_count - 0.5, color="white")
axes.set_title("candidate clues x face-up cards (own cards left of the line)")
plt.show()"""),
    new_markdown_cell("""## Risk against a guesser that reads the board differently

Against a guesser on the same model every setting wins. The risk setting matters when the
guesser sees things differently: here a Pictures guesser that takes a picture's best tag
(`picture_meaning="max"`) while the spymaster reads the mean of its tags."""),
    new_code_cell("""from codenames_ai.agents.evaluation import single_team
from codenames_ai.core import PICTURES

deck = default_deck("pictures")
guesser = make_agent("glove-guesser-v1", picture_meaning="max")
for risk in ("cautious", "normal", "bold"):
    spymaster = make_agent("glove-ev-spymaster-v1", risk=risk)
    games = [single_team(PICTURES, deck, seed, spymaster, guesser) for seed in range(40)]
    wins = sum(g.won for g in games) / len(games)
    assassin = 100 * sum(g.assassin for g in games) / len(games)
    won = [g.turns for g in games if g.won]
    turns = np.mean(won) if won else float("nan")
    print(f"{risk:<9} wins {wins:6.1%}  assassin per 100 {assassin:5.1f}  "
          f"turns (wins) {turns:4.2f}")"""),
]

COMPARING = [
    new_markdown_cell("""# Comparing models

The same tournament on two word-vector models, and the cross-model matrix: every spymaster
model against every guesser model. A spymaster and guesser on one model agree perfectly; the
off-diagonal cells are what a different mind makes of the clues. With the MiniLM model built
(`codenames models build minilm`) it is the second model; otherwise this notebook builds a
second model from GloVe itself (its vectors projected onto 10 principal directions): a weaker
stand-in, but a different geometry, and it needs nothing beyond the shipped data."""),
    new_code_cell("""import tempfile
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from codenames_ai.vectors import ModelStore, load_model

store = ModelStore(None)
if store.has("minilm"):
    second, cache = "minilm", None
else:
    cache = Path(tempfile.mkdtemp())
    glove = load_model("glove-6b-50d", cache_dir=cache)
    top = 60_000
    matrix = np.asarray(glove.unit_matrix[:top])
    centred = matrix - matrix.mean(axis=0)
    _, _, basis = np.linalg.svd(centred[:20_000], full_matrices=False)
    projected = (centred @ basis[:10].T).astype(np.float32)
    vectors = KeyedVectors(vector_size=10)
    vectors.add_vectors(glove.words[:top], projected)
    second = "glove-pca10"
    ModelStore(cache).add_vectors(second, vectors, source="GloVe 6B 50d, 10 principal directions",
                                  vector_format="notebook")
print("second model:", second)"""),
    new_code_cell("""from codenames_ai.agents import make_agent
from codenames_ai.agents.evaluation import single_team
from codenames_ai.core import WORDS
from codenames_ai.decks import default_deck

models = ["glove-6b-50d", second]
deck = default_deck("words")
boards = 30
print("spymaster / guesser".ljust(22) + "".join(f"{m:>16}" for m in models))
for spymaster_model in models:
    spymaster = make_agent("codenames_ai.agents.spymasters:EVSpymaster",
                           model=spymaster_model, cache_dir=cache)
    cells = []
    for guesser_model in models:
        guesser = make_agent("codenames_ai.agents.guessers:EmbeddingGuesser",
                             model=guesser_model, cache_dir=cache)
        games = [single_team(WORDS, deck, seed, spymaster, guesser) for seed in range(boards)]
        cells.append(f"{sum(g.won for g in games) / boards:>15.0%} ")
    print(f"{spymaster_model:<22}" + "".join(cells))"""),
    new_markdown_cell("""## The same tournament on each model

Two spymasters (expected value and the AIIDE threshold baseline) with one guesser, on each
model, through the tournament harness (serial backend, a temporary results folder)."""),
    new_code_cell("""from codenames_ai.harness import SerialBackend, TournamentSpec, run_tournament
from codenames_ai.harness.spec import AgentRef

for model in models:
    options = (("cache_dir", str(cache)), ("model", model)) if cache else (("model", model),)
    spec = TournamentSpec(
        agents=(AgentRef("ev", "codenames_ai.agents.spymasters:EVSpymaster", options),
                AgentRef("threshold", "codenames_ai.agents.spymasters:ThresholdSpymaster", options),
                AgentRef("guesser", "codenames_ai.agents.guessers:EmbeddingGuesser", options)),
        spymasters=("ev", "threshold"), guessers=("guesser",), games=20, seed=1)
    summary = run_tournament(spec, Path(tempfile.mkdtemp()), SerialBackend(), quiet=True)
    matchup = summary.matchups[0]
    print(f"{model:<14} {' vs '.join(matchup.teams)}: first team wins {matchup.win_rate:.0%} "
          f"[{matchup.win_rate_95[0]:.0%}, {matchup.win_rate_95[1]:.0%}]")"""),
]

OWN_AGENT = [
    new_markdown_cell("""# Bring your own agent

A spymaster is any class with `give_clue(view)` and `choose_cover(view)`; a guesser has
`guess(view)`. Put it in a module, and its `module:Class` path works wherever an agent id
does: `make_agent`, `codenames watch --red-spymaster`, tournament specs."""),
    new_code_cell("""import sys
import tempfile
from pathlib import Path

folder = Path(tempfile.mkdtemp())
(folder / "my_agents.py").write_text('''
from codenames_ai.core import Clue, Cover
from codenames_ai.agents.space import clue_space


class OneCardSpymaster:
    \"\"\"Clues one own card at a time: the candidate nearest that card, legal on the board.\"\"\"

    agent_id = "one-card-spymaster"

    def __init__(self, model="glove-6b-50d"):
        self.space = clue_space(model)

    def give_clue(self, view):
        own = [i for i in view.unrevealed if view.key[i] is view.team.agent]
        card = view.words[own[0]]
        legal = self.space.legal_mask(view.rules.clue_rules, view.visible_words)
        scores = self.space.scores(None, (card,))[:, 0]
        scores[~legal] = -2.0
        return Clue(self.space.words[int(scores.argmax())], 1)

    def choose_cover(self, view):
        return Cover(view.cover_candidates[0])
''')
sys.path.insert(0, str(folder))"""),
    new_code_cell("""from codenames_ai.agents import make_agent
from codenames_ai.core import WORDS, Seats, play_game
from codenames_ai.decks import default_deck

mine = make_agent("my_agents:OneCardSpymaster")
guesser = make_agent("glove-guesser-v1")
seats = Seats.standard(red_spymaster=mine, red_guesser=guesser,
                       blue_spymaster=make_agent("glove-ev-spymaster-v1"),
                       blue_guesser=make_agent("glove-guesser-v1"))
record = play_game(WORDS, seats, seed=3, deck=default_deck("words"))
print(record.outcome)"""),
    new_markdown_cell("## In a tournament, against the default spymaster"),
    new_code_cell("""from codenames_ai.harness import SerialBackend, TournamentSpec, run_tournament

spec = TournamentSpec.from_options(
    spymasters=["my_agents:OneCardSpymaster", "glove-ev-spymaster-v1"],
    guessers=["glove-guesser-v1"], games=20, seed=1)
summary = run_tournament(spec, Path(tempfile.mkdtemp()), SerialBackend(), quiet=True)
for team, figures in summary.teams.items():
    print(f"{team:<45} wins {figures.win_rate:.0%}  "
          f"mean clue {figures.mean_clue_number:.2f}")"""),
]


def main() -> None:
    for name, cells in (("01-what-makes-a-good-clue", GOOD_CLUE),
                        ("02-comparing-models", COMPARING),
                        ("03-bring-your-own-agent", OWN_AGENT)):
        notebook = new_notebook(cells=cells, metadata={"kernelspec": {
            "name": "python3", "display_name": "Python 3", "language": "python"}})
        nbformat.write(notebook, HERE / f"{name}.ipynb")


if __name__ == "__main__":
    main()
