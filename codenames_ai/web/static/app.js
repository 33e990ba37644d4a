// The Codenames AI page: a setup form, then the board of one game, driven by the JSON API.
"use strict";

const $ = (id) => document.getElementById(id);
let view = null;
let gameId = null;
let busy = false;
let autoTimer = null;
let levelRoles = ["guess", "spymaster"];
// In a room (rooms.js): {id, token, creator}; the seat's moves go to the room's API.
let room = null;
const levelDescriptions = {};

const TEAM = { red: "Red", blue: "Blue" };
const ROLE_NAME = { spymaster: "spymaster", guesser: "guesser" };

async function api(method, path, body) {
  const response = await fetch(path, {
    method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const failure = new Error(data.error || `HTTP ${response.status}`);
    failure.data = data;  // a refused room move carries the fresh view
    failure.status = response.status;
    throw failure;
  }
  return data;
}

function showError(message) { $("error").textContent = message || ""; }

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

// --- starting a game -----------------------------------------------------------------------

function formSettings() {
  const form = new FormData($("setup-form"));
  const settings = {};
  for (const [name, value] of form.entries()) {
    if (name !== "seed") settings[name] = value;
    else if (value !== "") {  // seeds have up to 39 digits: sent exactly where the browser can
      settings.seed = /^\d+$/.test(value) && JSON.rawJSON ? JSON.rawJSON(BigInt(value).toString())
        : Number(value);
    }
  }
  return settings;
}

// The first game of a server loads the AI's models, which takes a few seconds: the button
// waits, disabled, beside a spinner.
async function startGame(settings, button, loading) {
  if (busy) return;
  busy = true;
  button.disabled = true;
  loading.hidden = false;
  document.body.classList.add("loading");
  showError("");
  try {
    const created = await api("POST", "/api/games", settings);
    history.pushState({}, "", `/game/${created.id}`);
    gameId = created.id;
    render(created.view);
  } catch (error) {
    showError(error.message);
  } finally {
    busy = false;
    button.disabled = false;
    loading.hidden = true;
    document.body.classList.remove("loading");
  }
}

function playAgain() {
  // The same settings and a new deal: without a seed the server deals from a fresh secret one.
  const settings = { ...view.config };
  delete settings.seed;
  startGame(settings, $("again"), $("again-loading"));
}

// --- moves ---------------------------------------------------------------------------------

async function move(body, thinking) {
  if (busy) return false;  // one move at a time; the server also refuses a stale one
  busy = true;
  showError("");
  document.body.dataset.state = "thinking";
  setBanner(thinking || "The AI is thinking…", null, true);
  for (const card of document.querySelectorAll(".card")) card.disabled = true;
  let ok = true;
  try {
    const path = room ? `/api/rooms/${room.id}/moves` : `/api/games/${gameId}/moves`;
    const sent = room ? { ...body, token: room.token } : body;
    // the deal this page shows and the moves it has seen: a stale page or a move meant for an
    // earlier deal is refused (409, with the game as it is now) instead of played
    render(await api("POST", path, { ...sent, expect: view.expect }));
  } catch (error) {
    ok = false;
    showError(error.message);
    render(error.data && error.data.view ? error.data.view : view);
  } finally { busy = false; }
  return ok;
}

// --- drawing the game ----------------------------------------------------------------------

function keyOf(card) {
  if (card.key) return card.key;
  return view.key_at_end ? view.key_at_end[card.index] : null;
}

// How many font-sizes wide a card's word is (bold, in capitals, with the cards' letter
// spacing), measured once per word on a canvas: the card's CSS sets its font size from it.
const widths = new Map();
let measure = null;
function emWidth(text) {
  if (!widths.has(text)) {
    measure = measure || document.createElement("canvas").getContext("2d");
    measure.font = `700 100px ${getComputedStyle(document.body).fontFamily}`;
    const upper = text.toUpperCase();
    widths.set(text, measure.measureText(upper).width / 100 + 0.02 * upper.length);
  }
  return widths.get(text);
}

function glyphs(text) {
  return window.Intl && Intl.Segmenter ? [...new Intl.Segmenter().segment(text)].length
    : [...text].length;
}

function cardElement(card) {
  const made = element("button", "card");
  made.type = "button";
  made.dataset.index = card.index;
  if (card.picture !== null) {
    made.classList.add("picture");
    const emoji = element("span", "emoji", card.picture);
    // A picture may be two or three emoji: one line of them, as large as the card allows.
    emoji.style.setProperty("--glyphs", glyphs(card.picture));
    made.append(emoji);
    made.append(element("span", "tags", card.tags.slice(0, 3).join(" ")));
  } else if (card.tags.length) {
    made.classList.add("picture");
    made.append(element("span", "tags", card.tags.slice(0, 3).join(" ")));
  } else {
    const word = element("span", "word", card.word);
    // The font shrinks with the card and the word's width, so no word breaks mid-word.
    word.style.setProperty("--ems", Math.max(emWidth(card.word), 4));
    made.append(word);
  }
  made.title = card.tags.length ? card.tags.join(" ") : card.word;
  const key = keyOf(card);
  if (key) made.classList.add(`key-${key}`);
  if (card.revealed) {
    made.classList.add("revealed", card.revealed);
    made.append(element("span", "covered-mark", card.revealed === "bystander" ? "bystander"
      : card.revealed === "assassin" ? "assassin" : `${card.revealed} agent`));
  }
  if (card.recent) made.classList.add("recent");
  const canGuess = view.your_turn && view.phase === "guess" && !card.revealed;
  const canCover = view.your_turn && view.phase === "cover" && !card.revealed;
  if (canGuess || canCover) {
    made.classList.add("can-guess");
    made.addEventListener("click", () => move({ move: canGuess ? "guess" : "cover", index: card.index },
      othersThinking()));
  } else {
    made.disabled = true;
  }
  return made;
}

// While the person's move is sent: in a game against the AI, the other team may play next.
function othersThinking() {
  if (room) return "Sending…";
  if (view.config.role !== "coop") {
    const other = view.you && view.you.team === "red" ? "blue" : "red";
    return `${TEAM[other]}'s AI is thinking…`;
  }
  return "Revealing the card…";
}

function setBanner(text, team, spinning) {
  const banner = $("turn-banner");
  banner.replaceChildren();
  if (spinning) banner.append(element("span", "spinner", ""));
  banner.append(document.createTextNode(text));
  banner.dataset.team = team || "none";
}

function turnText() {
  const team = TEAM[view.current_team];
  if (view.over) {
    return view.winner ? `Game over — ${TEAM[view.winner]} wins` : "Game over";
  }
  if (view.your_turn) {
    if (view.phase === "clue") return `${team}'s turn — your clue`;
    if (view.phase === "cover") return `${team}'s turn — cover one of your agents`;
    return `${team}'s turn — your guess`;
  }
  if (view.room) {
    const who = view.room.seats[view.room.current_seat] === "person" ? "" : "AI ";
    const name = view.current_role === "spymaster" ? "spymaster" : "guessers";
    return `${team}'s ${who}${name} to play`;
  }
  const role = view.current_role === "spymaster" ? "AI spymaster" : "AI guesser";
  if (view.you === null) return `${team}'s ${role} to play`;
  return `${team}'s AI is thinking`;
}

function renderClue() {
  const banner = $("clue-banner");
  banner.replaceChildren();
  if (view.clue) {
    banner.dataset.team = view.current_team;
    banner.append(element("span", "clue-word", view.clue.word));
    banner.append(element("span", "clue-number", String(view.clue.number)));
    const left = view.clue.guesses_left === null ? "unlimited guesses"
      : `${view.clue.guesses_left} guess${view.clue.guesses_left === 1 ? "" : "es"} left`;
    banner.append(element("span", "clue-meta", `${TEAM[view.current_team]}'s clue · ${left}`));
  } else {
    banner.dataset.team = "none";
    banner.append(element("span", "clue-meta", view.over ? "No clue: the game is over"
      : `Waiting for ${TEAM[view.current_team]}'s clue`));
  }
}

function logItem(entry) {
  const item = element("li", `move team-${entry.team || "none"}`, entry.text);
  if (entry.recent) item.classList.add("recent");
  if (entry.identity) item.dataset.identity = entry.identity;
  if (entry.reason) {
    // An AI touch says why; its guesser never knows the key, so every seat may read it.
    const why = element("span", "touch-why", `Why: ${entry.reason}`);
    why.title = entry.reason_numbers || "";
    item.append(why);
  }
  return item;
}

// The history, grouped by turn (newest first): the turn's clue as its header, then its touches.
function renderHistory() {
  const turns = [];
  for (const entry of view.log) {
    let turn = turns[turns.length - 1];
    if (!turn || turn.number !== entry.turn) {
      turn = { number: entry.turn, team: entry.team, header: null, entries: [] };
      turns.push(turn);
    }
    if ((entry.event === "clue" || entry.event === "invalid-clue") && turn.header === null) {
      turn.header = entry.text;
      turn.team = entry.team;
    } else {
      turn.entries.push(entry);
    }
  }
  $("history").replaceChildren(...turns.reverse().map((turn) => {
    const item = element("li", `turn team-${turn.team || "none"}`);
    const virtual = view.variant === "coop" && turn.team && turn.team !== view.starting_team;
    item.append(element("div", "turn-head", turn.header || `Turn ${turn.number}`
      + (virtual ? ` · the virtual team (${turn.team})` : turn.team ? ` · ${turn.team}` : "")));
    const touches = element("ul", "touches");
    touches.replaceChildren(...turn.entries.map(logItem));
    item.append(touches);
    return item;
  }));
}

function renderEnd() {
  $("end").hidden = !view.over;
  $("end-details").hidden = !view.over;
  $("clue-banner").hidden = view.over;
  if (!view.over) return;
  const you = view.you;
  let result = view.winner ? `${TEAM[view.winner]} wins` : "No winner";
  if (you && view.winner) result = view.winner === you.team ? "You win!" : "You lose";
  $("result").textContent = result;
  $("end").dataset.team = view.winner || "none";
  $("outcome").textContent = view.outcome + (view.coop && view.coop.rating
    ? ` Rating: ${view.coop.rating}.` : "");
  // The last moves: what happened since the person's last move (or the last turn).
  let last = view.log.filter((entry) => entry.recent);
  if (!last.length && view.log.length) {
    const final = view.log[view.log.length - 1].turn;
    last = view.log.filter((entry) => entry.turn === final);
  }
  $("last-moves").replaceChildren(...last.map(logItem));
  $("why-box").hidden = !view.explanations.length;
  $("why").replaceChildren(...view.explanations.map((clue) => {
    const item = element("li", `team-${clue.team}`);
    item.append(element("b", "", `Turn ${clue.turn}, ${clue.team}: ${clue.clue.toUpperCase()}: ${clue.number}`));
    item.append(document.createTextNode(` — ${clue.plain}`));
    item.title = clue.detail;
    return item;
  }));
  $("seed-note").textContent = view.seed_digits
    ? `This deal's seed: ${view.seed_digits} (codenames watch --seed ${view.seed_digits} deals its board again).` : "";
}

function render(next) {
  view = next;
  $("setup").hidden = true;
  $("game").hidden = false;
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${view.cols}, minmax(0, 1fr))`;
  board.classList.toggle("pictures", view.edition === "pictures");
  board.replaceChildren(...view.cards.map(cardElement));
  $("legend").hidden = !view.cards.some(keyOf);
  $("score-red").querySelector(".count").textContent = view.left.red;
  $("score-blue").querySelector(".count").textContent = view.left.blue;
  for (const team of ["red", "blue"]) {
    $(`score-${team}`).classList.toggle("current", !view.over && view.current_team === team);
    $(`score-${team}`).title = `${view.left[team]} ${team} agents still to find`;
  }
  setBanner(turnText(), view.over ? view.winner : view.current_team, false);
  renderClue();
  const spymasterTurn = view.your_turn && view.phase === "clue";
  $("clue-form").hidden = !spymasterTurn;
  if (spymasterTurn) liveCheck();
  $("pass").hidden = !(view.your_turn && view.phase === "guess" && view.can_pass);
  const watching = view.you === null && !view.over && !view.room;
  $("step").hidden = !watching;
  $("auto-label").hidden = !watching;
  renderHistory();
  renderEnd();
  document.body.dataset.state = view.over ? "over" : view.your_turn ? "your-turn" : "waiting";
  document.body.dataset.team = view.current_team;
  $("again").hidden = Boolean(view.room);
  $("again-note").hidden = Boolean(view.room);
  if (view.room && typeof renderRoom === "function") renderRoom(view);
  if (view.over && autoTimer) { clearInterval(autoTimer); autoTimer = null; $("auto").checked = false; }
}

// --- the spymaster's clue: checked as it is typed -----------------------------------------

let checkTimer = null;
let checked = { word: "", legal: false };
function showCheck(text, kind) {
  $("clue-check").textContent = text;
  $("clue-check").className = kind;
}

function liveCheck() {
  clearTimeout(checkTimer);
  const word = $("clue-word").value.trim();
  $("give-clue").disabled = true;  // until the check says this word is legal
  if (!word) { showCheck("", ""); return; }
  if (checked.word === word) { applyVerdict(checked); return; }
  checkTimer = setTimeout(async () => {
    try {
      const verdict = room
        ? await api("POST", `/api/rooms/${room.id}/check`, { word, token: room.token })
        : await api("POST", `/api/games/${gameId}/check`, { word });
      if ($("clue-word").value.trim() !== word) return;  // typed on since
      checked = { word, legal: verdict.legal, rule: verdict.rule, message: verdict.message };
      applyVerdict(checked);
    } catch (error) { showError(error.message); }
  }, 150);
}

function applyVerdict(verdict) {
  $("give-clue").disabled = !verdict.legal || busy;
  if (verdict.legal) showCheck("✓ a legal clue", "ok");
  else showCheck(`Not allowed (${verdict.rule}): ${verdict.message}`, "bad");
}

async function giveClue(event) {
  event.preventDefault();
  if ($("give-clue").disabled) return;
  const word = $("clue-word").value.trim();
  const number = $("clue-number").value;
  $("give-clue").disabled = true;
  const ok = await move({ move: "clue", word, number }, room ? "Sending…"
    : `${TEAM[view.you.team]}'s AI guesser is thinking about ${word.toUpperCase()}…`);
  if (ok) { $("clue-word").value = ""; checked = { word: "", legal: false }; showCheck("", ""); }
}

// --- the setup form ------------------------------------------------------------------------

function setupForm() {
  const role = document.querySelector("select[name=role]");
  const level = $("level");
  const update = () => {
    // A chosen seed is for watching only: a game with a person is dealt from a secret seed.
    const watching = role.value === "watch";
    $("seed-label").hidden = !watching;
    document.querySelector("input[name=seed]").disabled = !watching;
    // The level sets the opposing AI team; co-op and watching have none to set.
    const opposed = levelRoles.includes(role.value);
    level.disabled = !opposed;
    $("level-hint").textContent = opposed ? (levelDescriptions[level.value] || "")
      : role.value === "coop" ? "Not used in co-op: there is no opposing AI team (a virtual team covers cards)."
        : "Not used when watching: there is no person to play against, both AI teams play alike.";
  };
  role.addEventListener("change", update);
  level.addEventListener("change", update);
  update();
  api("GET", "/api/options").then((options) => {
    levelRoles = options.level_roles;
    for (const entry of options.levels) levelDescriptions[entry.name] = entry.description;
    update();
  }).catch(() => {});
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    startGame(formSettings(), $("start"), $("loading"));
  });
}

function init() {
  setupForm();
  $("clue-form").addEventListener("submit", giveClue);
  $("clue-word").addEventListener("input", liveCheck);
  $("pass").addEventListener("click", () => move({ move: "pass" }, othersThinking()));
  $("step").addEventListener("click", () => move({ move: "step" },
    `${TEAM[view.current_team]}'s AI is thinking…`));
  $("again").addEventListener("click", playAgain);
  $("auto").addEventListener("change", () => {
    if ($("auto").checked) {
      autoTimer = setInterval(() => move({ move: "step" },
        `${TEAM[view.current_team]}'s AI is thinking…`), 700);
    } else { clearInterval(autoTimer); autoTimer = null; }
  });
  const match = location.pathname.match(/^\/game\/([A-Za-z0-9_-]+)$/);
  if (location.pathname.startsWith("/room/")) {
    // rooms.js opens the room
  } else if (match) {
    gameId = match[1];
    api("GET", `/api/games/${gameId}`).then(render).catch((error) => {
      $("setup").hidden = false; showError(error.message);
    });
  } else {
    $("setup").hidden = false;
  }
}

init();
