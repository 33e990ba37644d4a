// The Codenames AI page: a setup form, then the board of one game, driven by the JSON API.
"use strict";

const $ = (id) => document.getElementById(id);
let view = null;
let gameId = null;
let busy = false;
let autoTimer = null;

async function api(method, path, body) {
  const response = await fetch(path, {
    method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function showError(message) { $("error").textContent = message || ""; }

async function start(event) {
  event.preventDefault();
  const form = new FormData($("setup-form"));
  const settings = {};
  for (const [name, value] of form.entries()) {
    if (name !== "seed") settings[name] = value;
    else if (value !== "") {  // seeds have up to 39 digits: sent exactly where the browser can
      settings.seed = /^\d+$/.test(value) && JSON.rawJSON ? JSON.rawJSON(BigInt(value).toString())
        : Number(value);
    }
  }
  try {
    const created = await api("POST", "/api/games", settings);
    history.pushState({}, "", `/game/${created.id}`);
    gameId = created.id;
    render(created.view);
  } catch (error) { showError(error.message); }
}

async function move(body) {
  if (busy) return;  // one move at a time; the server also refuses a stale one
  busy = true;
  showError("");
  try {
    render(await api("POST", `/api/games/${gameId}/moves`, { ...body, expect: view.moves }));
  } catch (error) {
    showError(error.message);
  } finally { busy = false; }
}

function cardElement(card) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "card";
  element.dataset.index = card.index;
  if (card.picture !== null) {
    element.classList.add("picture");
    const emoji = document.createElement("span");
    emoji.className = "emoji";
    emoji.textContent = card.picture;
    element.append(emoji);
    const tags = document.createElement("span");
    tags.className = "tags";
    tags.textContent = card.tags.slice(0, 3).join(" ");
    element.append(tags);
  } else if (card.tags.length) {
    element.classList.add("picture");
    element.textContent = card.tags.slice(0, 3).join(" ");
  } else {
    element.textContent = card.word;
  }
  element.title = card.tags.length ? card.tags.join(" ") : card.word;
  if (card.key) element.classList.add(`key-${card.key}`);
  if (card.revealed) element.classList.add("revealed", card.revealed);
  const canGuess = view.your_turn && view.phase === "guess" && !card.revealed;
  const canCover = view.your_turn && view.phase === "cover" && !card.revealed;
  if (canGuess || canCover) {
    element.classList.add("can-guess");
    element.addEventListener("click", () => move({ move: canGuess ? "guess" : "cover", index: card.index }));
  } else {
    element.disabled = !!card.revealed || !view.your_turn;
  }
  return element;
}

function render(next) {
  view = next;
  $("setup").hidden = true;
  $("game").hidden = false;
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${view.cols}, minmax(0, 1fr))`;
  board.replaceChildren(...view.cards.map(cardElement));
  const you = view.you ? `You are the ${view.you.team} ${view.you.role}.` : "Watching AI vs AI.";
  const turn = view.over ? "Game over." :
    view.your_turn ? "Your turn." : `${view.current_team} ${view.current_role} to play.`;
  $("status").textContent = `${you} Red ${view.left.red} left · blue ${view.left.blue} left · turn ${view.turn}. ${turn}`;
  $("clue").textContent = view.clue ? `Clue: ${view.clue.word} ${view.clue.number}` +
    (view.clue.guesses_left !== null ? ` (guesses left: ${view.clue.guesses_left})` : "") : "";
  const spymasterTurn = view.your_turn && view.phase === "clue";
  $("clue-form").hidden = !spymasterTurn;
  $("pass").hidden = !(view.your_turn && view.phase === "guess" && view.can_pass);
  const watching = view.you === null && !view.over;
  $("step").hidden = !watching;
  $("auto-label").hidden = !watching;
  $("history").replaceChildren(...view.history.map((line) => {
    const item = document.createElement("li"); item.textContent = line.trim(); return item;
  }));
  $("outcome").textContent = view.over ? view.outcome + (view.coop && view.coop.rating ? ` Rating: ${view.coop.rating}.` : "") : "";
  $("why-box").hidden = !view.explanations.length;
  $("why").replaceChildren(...view.explanations.map((line) => {
    const item = document.createElement("li"); item.textContent = line; return item;
  }));
  document.body.dataset.state = view.over ? "over" : view.your_turn ? "your-turn" : "waiting";
  if (view.over && autoTimer) { clearInterval(autoTimer); autoTimer = null; }
}

let checkTimer = null;
function liveCheck() {
  clearTimeout(checkTimer);
  const word = $("clue-word").value.trim();
  if (!word) { $("clue-check").textContent = ""; return; }
  checkTimer = setTimeout(async () => {
    try {
      const verdict = await api("POST", `/api/games/${gameId}/check`, { word });
      $("clue-check").textContent = verdict.legal ? "legal" : `illegal [${verdict.rule}]: ${verdict.message}`;
      $("clue-check").className = verdict.legal ? "ok" : "bad";
    } catch (error) { showError(error.message); }
  }, 150);
}

function init() {
  $("setup-form").addEventListener("submit", start);
  // A chosen seed is for watching only: a game with a person is dealt from a secret seed.
  const role = document.querySelector("select[name=role]");
  const seedShown = () => {
    const watching = role.value === "watch";
    $("seed-label").hidden = !watching;
    document.querySelector("input[name=seed]").disabled = !watching;
  };
  role.addEventListener("change", seedShown);
  seedShown();
  $("clue-form").addEventListener("submit", (event) => {
    event.preventDefault();
    move({ move: "clue", word: $("clue-word").value, number: $("clue-number").value })
      .then(() => { if (!$("error").textContent) { $("clue-word").value = ""; $("clue-check").textContent = ""; } });
  });
  $("clue-word").addEventListener("input", liveCheck);
  $("pass").addEventListener("click", () => move({ move: "pass" }));
  $("step").addEventListener("click", () => move({ move: "step" }));
  $("auto").addEventListener("change", () => {
    if ($("auto").checked) autoTimer = setInterval(() => move({ move: "step" }), 700);
    else { clearInterval(autoTimer); autoTimer = null; }
  });
  const match = location.pathname.match(/^\/game\/([A-Za-z0-9_-]+)$/);
  if (match) {
    gameId = match[1];
    api("GET", `/api/games/${gameId}`).then(render).catch((error) => {
      $("setup").hidden = false; showError(error.message);
    });
  } else {
    $("setup").hidden = false;
  }
}

init();
