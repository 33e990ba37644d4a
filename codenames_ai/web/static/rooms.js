"use strict";
// Rooms: "Play with friends" on the start page, and the room page (/room/{id}#seat=...),
// which draws the game with app.js's render() and follows the room live (server-sent events).
// A seat's secret token travels in the link's fragment (never sent in a page request) and is
// kept in this tab's sessionStorage; the creator's links in localStorage, on this device only.
// Someone who opens the room's own link (no seat) may sit down from the seat list, under a
// name the whole table sees. Names come from other people: they are only ever set as text.

// Each variant's seats (view.room.variant; the API's names), in the order the start page
// offers them, with what the table calls them. Co-op's two seats play for the team that
// starts the deal; three-player's one guesser guesses on both teams' turns.
const VARIANT_SEATS = {
  standard: [["red-guesser", "Red guessers"], ["red-spymaster", "Red spymaster"],
             ["blue-guesser", "Blue guessers"], ["blue-spymaster", "Blue spymaster"]],
  coop: [["spymaster", "Spymaster"], ["guesser", "Guessers"]],
  "three-player": [["red-spymaster", "Red spymaster"], ["blue-spymaster", "Blue spymaster"],
                   ["guesser", "Guesser (both teams)"]],
};
// On the start page, under the "Game" choice: what the variant is, and whether the level
// (which chooses the AI of a team nobody sits in) has anything to choose.
const VARIANT_HINTS = {
  standard: "The level above chooses the AI for a team nobody sits in.",
  coop: "Your team against a virtual team: after each of your turns, your spymaster covers "
    + "one of its agents. No level (co-op has no opposing AI team).",
  "three-player": "The guesser guesses for both teams, on each team's turn. No level "
    + "(there is no opposing AI team; levels are for standard play).",
};

function seatsOf(variant) { return VARIANT_SEATS[variant] || VARIANT_SEATS.standard; }

function seatLabel(variant, name) {
  const found = seatsOf(variant).find(([seat]) => seat === name);
  return found ? found[1] : name;
}

function otherTeam(team) { return team === "red" ? "blue" : "red"; }

// The colour of a seat: its team's; co-op's seats the team that starts; none for
// three-player's guesser, who plays for both.
function seatTeam(next, name) {
  const team = name.split("-")[0];
  if (team === "red" || team === "blue") return team;
  return next.room.variant === "coop" ? next.starting_team : "none";
}
const NAME_KEY = "codenames-name";  // the name this device last sat down under
let events = null;
let retryDelay = 1000;  // before following again after a refused event stream (ms)
let pending = null;  // a view that arrived while a move was being sent
let linksDrawn = false;

function rememberedName() { return localStorage.getItem(NAME_KEY) || ""; }

function saveSecrets() {
  sessionStorage.setItem(`room:${room.id}`, JSON.stringify({ token: room.token, creator: room.creator }));
}

// --- the start page: a new room --------------------------------------------------------------

async function createRoom() {
  if (busy) return;
  const seat = $("friends-seat").value;
  const name = $("friends-name").value.trim();
  if (seat && !name) {
    showError("Say your name (the table sees it), or choose “just watch / choose later”.");
    $("friends-name").focus();
    return;
  }
  const settings = formSettings();
  delete settings.role;
  delete settings.seed;
  settings.variant = $("friends-variant").value;
  // The level chooses standard play's AI team (sent even when "You play" disables it for a
  // solo game); co-op and three-player have no opposing AI team.
  if (settings.variant === "standard") settings.level = $("level").value;
  else delete settings.level;
  busy = true;
  $("friends").disabled = true;
  $("friends-loading").hidden = false;
  showError("");
  try {
    const created = await api("POST", "/api/rooms",
      { settings, people: [], open_seats: $("friends-open").checked });
    localStorage.setItem(`room-links:${created.id}`,
      JSON.stringify({ creator: created.creator, seats: created.seats }));
    if (name) localStorage.setItem(NAME_KEY, name);
    let mine = "";
    let failed = "";
    if (seat) {  // the creator sits down like everyone else, named
      try {
        mine = (await api("POST", `/api/rooms/${created.id}/join`,
          { seat, name, creator: created.creator })).token;
      } catch (error) { failed = error.message; }  // the room is there: choose a seat in it
    }
    if (failed) sessionStorage.setItem(`room-error:${created.id}`, failed);
    location.assign(`/room/${created.id}#${mine ? `seat=${mine}&` : ""}creator=${created.creator}`);
  } catch (error) {
    showError(error.message);
  } finally {
    busy = false;
    $("friends").disabled = false;
    $("friends-loading").hidden = true;
  }
}

// The "Your seat" choices follow the game chosen: the variant's seats (the one chosen stays
// if the new variant has it), then "just watch".
function friendsVariant() {
  const variant = $("friends-variant").value;
  const select = $("friends-seat");
  const before = select.value;
  const options = seatsOf(variant).map(([seat, label]) => {
    const option = element("option", "", seat.endsWith("spymaster") ? `${label} (sees the key)`
      : label);
    option.value = seat;
    return option;
  });
  const watch = element("option", "", "just watch / choose later");
  watch.value = "";
  select.replaceChildren(...options, watch);
  const guesser = seatsOf(variant).find(([seat]) => seat.endsWith("guesser"))[0];
  select.value = [...select.options].some((option) => option.value === before) ? before : guesser;
  $("friends-variant-hint").textContent = VARIANT_HINTS[variant] || "";
}

// --- the room panel ----------------------------------------------------------------------------

function roomLink() { return `${location.origin}/room/${room.id}`; }
function seatLink(token) { return `${roomLink()}#seat=${token}`; }

function button(text, className, onClick) {
  const made = element("button", className, text);
  made.type = "button";
  made.addEventListener("click", () => onClick(made));
  return made;
}

// Who holds a seat, as the table sees it: the AI, or the names of the people there.
function holderOf(info, name) {
  const names = (info.names && info.names[name]) || [];
  const parts = [];
  if (info.seats[name] === "person") {
    parts.push(element("span", "holder person", names.length ? names.join(", ") : "person"));
  } else {
    parts.push(element("span", "holder ai", "AI"));
    if (names.length) parts.push(element("span", "was", `${names.join(", ")} stepped out`));
  }
  return parts;
}

function seatItem(next, name, holder) {
  const info = next.room;
  const playing = !info.closed && !next.over;
  const item = element("li", `seat team-${seatTeam(next, name)}`);
  item.dataset.seat = name;
  item.append(element("b", "", seatLabel(info.variant, name)), ...holderOf(info, name));
  if (name === info.seat) {
    item.classList.add("mine");
    item.append(element("span", "you", "you"));
  }
  if (name === info.seat && playing) {
    item.append(button(holder === "person" ? "Hand to the AI" : "Take this seat", "seat-toggle",
      () => takeSeat(holder !== "person")));
  } else if (room.creator && holder === "person" && playing) {
    // The creator can hand the seat of someone who left the table to the AI.
    item.append(button("Hand to the AI", "seat-toggle", () => handOver(name)));
  }
  if (!info.seat && !info.closed && (info.open_seats || room.creator)) {
    // The creator may sit where the room's link cannot (seats by their own links), but is
    // not offered a spymaster seat a person holds (its key is that person's), nor a seat
    // shut because a person has sat at a guesser seat of this deal (a spymaster seat) or at
    // a spymaster seat through the room's link (a guesser seat).
    const spymaster = name.endsWith("spymaster");
    const taken = spymaster && holder === "person";
    const shut = spymaster ? info.key_shut : info.guess_shut;
    if (info.joinable.includes(name) || (room.creator && !taken && !shut)) {
      item.append(button("Sit here", "sit", (made) => joinSeat(name, made)));
    } else if (shut && !taken) {
      const why = element("span", "why", "shut");
      why.title = (spymaster
        ? "Someone has sat at a guesser seat of this deal, and this seat shows the key: "
        : "Someone has sat at a spymaster seat of this deal through the room's link and seen the key: ")
        + "it opens again once the game is over, or ask the room's creator for the seat's link.";
      item.append(why);
    } else {
      const why = element("span", "why", "taken");
      why.title = "A person holds this spymaster seat, and it shows the key: ask them for the seat's link.";
      item.append(why);
    }
  }
  if (name === info.current_seat && !next.over && !info.closed) item.classList.add("current");
  return item;
}

function renderLinks(info) {
  const saved = JSON.parse(localStorage.getItem(`room-links:${room.id}`) || "null");
  $("links").hidden = !saved || info.closed;
  if (!saved) return;
  if (!linksDrawn) $("links").open = !info.open_seats;  // open seats: the room link comes first
  linksDrawn = true;
  const rows = Object.entries(saved.seats).map(([name, token]) =>
    [seatLabel(info.variant, name), seatLink(token)]);
  if (!info.open_seats) rows.push(["Spectators (no key)", roomLink()]);
  $("link-list").replaceChildren(...rows.map(([label, url]) => {
    const item = element("li");
    item.append(element("span", "", label));
    const field = element("input");
    field.readOnly = true;
    field.value = url;
    field.addEventListener("focus", () => field.select());
    item.append(field);
    return item;
  }));
}

function renderRoom(next) {
  $("room").hidden = false;
  const info = next.room;
  const choosing = !info.seat && !info.closed
    && (Boolean(room.creator) || (info.open_seats && info.joinable.length > 0));
  $("room-title").textContent = info.closed ? "Room (closed)"
    : info.seat ? `Room — you sit as ${seatLabel(info.variant, info.seat)}`
      : choosing ? "Room — choose a seat, or watch" : "Room — watching";
  $("room-waiting").hidden = !info.waiting || next.over || info.closed;
  renderVariant(next);
  // the room link to pass on: for the creator and whoever sits (a visitor has it already)
  $("share").hidden = !info.open_seats || info.closed || !(info.seat || room.creator);
  $("room-link").value = roomLink();
  $("choose").hidden = !choosing;
  if (choosing && !$("room-name").value && document.activeElement !== $("room-name")) {
    $("room-name").value = rememberedName();
  }
  const note = $("room-seat-note");
  note.hidden = Boolean(info.seat) || info.closed || info.open_seats || Boolean(room.creator);
  note.textContent = "Seats come from their own links in this room: ask the room's creator for "
    + "one. Meanwhile you watch.";
  $("seats").replaceChildren(...Object.entries(info.seats).map(([name, holder]) =>
    seatItem(next, name, holder)));
  if (info.closed) $("close-confirm").hidden = true;
  $("close-room").hidden = !room.creator || info.closed || !$("close-confirm").hidden;
  renderLinks(info);
  renderAgain(next);
  renderClosed(next);
  if (info.closed && events) {
    events.close();
    events = null;
    $("live").textContent = "closed";
    $("live").dataset.state = "closed";  // no longer "live" green
  }
}

// What a co-op or three-player room plays, in a line above the seats; and where app.js's
// drawing speaks of a standard game, the words for this one.
function renderVariant(next) {
  const info = next.room;
  const virtual = otherTeam(next.starting_team);
  const note = $("room-variant");
  note.hidden = info.variant !== "coop" && info.variant !== "three-player";
  note.dataset.team = info.variant === "coop" ? next.starting_team : "none";
  note.textContent = info.variant === "coop"
    ? `Co-op: ${next.starting_team} against a virtual ${virtual} team. After each `
      + `${next.starting_team} turn, the spymaster covers one of ${virtual}'s agents: find `
      + `all ${next.starting_team} agents before the ${virtual} ones are all covered.`
    : "Three players: a spymaster for each team and one guesser, who guesses on both teams' turns.";
  const covering = !next.over && next.phase === "cover" && next.your_turn;
  $("board").classList.toggle("covering", covering);
  if (next.over) {
    // The one guesser of three-player plays for both teams: nobody's win is "yours".
    if (info.variant === "three-player" && info.seat === "guesser") {
      $("result").textContent = next.winner ? `${TEAM[next.winner]} wins` : "No winner";
    }
    return;
  }
  if (next.phase !== "cover") return;
  // The spymaster covers one of the virtual team's agents in co-op (one of its own team's
  // for a penalty otherwise): only those cards can be chosen; the others are dimmed.
  const covered = next.cover.team;
  if (covering) {
    for (const card of document.querySelectorAll("#board .card.can-guess")) {
      const key = next.cards[Number(card.dataset.index)].key;
      if (key && key !== covered) {
        card.classList.remove("can-guess");
        card.disabled = true;
      }
    }
  }
  if (info.variant === "coop") {
    const who = info.seats.spymaster === "person" ? "the" : "the AI";
    setBanner(next.your_turn ? `The virtual team's turn — cover a ${virtual} agent`
      : `The virtual team's turn — ${who} spymaster covers a ${virtual} agent`, virtual, false);
    const meta = $("clue-banner").querySelector(".clue-meta");
    if (meta) meta.textContent = `${TEAM[next.starting_team]}'s next clue comes after the cover`;
  }
}

// "Play again" for a room: a new deal with the same seats (app.js's own button starts a solo
// game, so the room has its own, beside it in the end box).
function renderAgain(next) {
  let again = $("room-again");
  if (!again) {
    again = button("Play again", "primary", () => roomAgain(again));
    again.id = "room-again";
    const note = element("span", "", "a new deal, same seats");
    note.id = "room-again-note";
    $("again").before(again, note);
  }
  const can = next.over && !next.room.closed && Boolean(next.room.seat || room.creator);
  again.hidden = !can;
  $("room-again-note").hidden = !can;
}

// Who closed the room and when, as every page says it.
function closedText(next) {
  const by = next.room.closed_by || {};
  const label = by.seat ? seatLabel(next.room.variant, by.seat) : "";
  const who = by.name && label ? `${by.name} (${label})` : label ? `The ${label} seat`
    : by.by === "creator" ? "The room's creator" : "";
  const when = next.over ? "after the game" : `on turn ${next.turn}, before the game was over`;
  const closed = who ? `${who} closed the room ${when}.`
    : `The room closed ${when}: nobody played for a long while.`;
  return `${closed} The cards show the whole key; the history below is the game's record.`;
}

// A closed room is over for good on every page: no turn to wait for, no live clue, the key
// on the cards (the server sends it once the room is closed), and a way to a new room.
function renderClosed(next) {
  const closed = next.room.closed;
  let link = $("room-new");
  if (!link) {
    link = element("a", "", "Start a new room");
    link.id = "room-new";
    link.href = "/#friends-seats";
    $("again").before(link);
  }
  link.hidden = !closed;
  if (!closed) return;
  for (const team of ["red", "blue"]) $(`score-${team}`).classList.remove("current");
  $("clue-banner").hidden = true;
  $("pass").hidden = true;
  $("clue-form").hidden = true;
  $("end").hidden = false;
  $("outcome").textContent = (next.over ? `${next.outcome} ` : "") + closedText(next);
  if (next.over) {
    setBanner(`Room closed — ${turnText()}`, next.winner, false);
    return;
  }
  document.body.dataset.state = "closed";
  setBanner("Room closed — the game stopped here", null, false);
  $("result").textContent = "Room closed";
  $("end").dataset.team = "none";
}

function show(next) {
  if (busy) { pending = next; return; }
  if (view && next.room.version < view.room.version) return;  // an older event
  render(next);
}

// A refused request that carries the room as it is now: show that, else the message.
function refused(error) {
  if (error.data && error.data.view) {
    show(error.data.view);
    return;
  }
  showError(error.message);
}

async function joinSeat(seat, made) {
  const name = $("room-name").value.trim();
  made.disabled = true;
  showError("");
  try {
    const body = { seat, name };
    if (room.creator) body.creator = room.creator;  // the creator may sit anywhere
    const joined = await api("POST", `/api/rooms/${room.id}/join`, body);
    localStorage.setItem(NAME_KEY, name);
    room.token = joined.token;  // this tab now holds the seat, as with the seat's own link
    saveSecrets();
    pending = null;
    if (events) { events.close(); events = null; }
    render(joined.view);
    if (!joined.view.room.closed) follow();
  } catch (error) {
    showError(error.message);
    if (error.data && error.data.view) show(error.data.view);
    if (/name/.test(error.message)) $("room-name").focus();
  } finally { made.disabled = false; }
}

async function roomAgain(made) {
  made.disabled = true;
  showError("");
  try {
    const body = room.token ? { token: room.token } : { creator: room.creator };
    render(await api("POST", `/api/rooms/${room.id}/again`, body));
  } catch (error) {
    refused(error);  // someone dealt first: their new game is the one shown
  } finally { made.disabled = false; }
}

async function takeSeat(person) {
  try {
    render(await api("POST", `/api/rooms/${room.id}/seat`, { token: room.token, person }));
  } catch (error) { showError(error.message); }
}

async function handOver(seat) {
  try {
    await api("POST", `/api/rooms/${room.id}/seat`, { creator: room.creator, seat, person: false });
  } catch (error) { showError(error.message); }
}

// Closing asks first, in the page: it ends the game for every seat.
function askClose(asking) {
  $("close-confirm").hidden = !asking;
  $("close-room").hidden = asking;
  (asking ? $("close-no") : $("close-room")).focus();
}

async function closeRoom() {
  $("close-yes").disabled = true;
  try {
    // the creator's seat (if this tab holds one) is named to the table as who closed it
    const body = { creator: room.creator };
    if (room.token) body.token = room.token;
    render(await api("POST", `/api/rooms/${room.id}/close`, body));
  } catch (error) {
    showError(error.message);
    askClose(false);
  } finally { $("close-yes").disabled = false; }
}

async function copyLink() {
  const field = $("room-link");
  field.select();
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } else {
      copied = document.execCommand("copy");  // a LAN address over plain http
    }
  } catch (error) { copied = false; }
  $("copy-link").textContent = copied ? "Copied" : "Select and copy";
  setTimeout(() => { $("copy-link").textContent = "Copy"; }, 2000);
}

function follow() {
  const query = new URLSearchParams();
  if (room.token) query.set("token", room.token);
  if (view) query.set("since", view.room.version);
  const source = new EventSource(`/api/rooms/${room.id}/events?${query}`);
  events = source;
  let down = null;  // the "reconnecting" label waits: a stream ends every 10 s and resumes
  source.addEventListener("open", () => {
    if (source !== events) return;
    clearTimeout(down);
    down = null;
    retryDelay = 1000;
    $("live").textContent = "live";
    $("live").dataset.state = "live";
  });
  source.addEventListener("error", () => {
    if (source !== events) return;
    down = down || setTimeout(() => {  // from the first failure, not reset by the retries
      if (source !== events) return;
      $("live").textContent = "reconnecting…";
      $("live").dataset.state = "down";
    }, 1500);
    // The browser retries a dropped connection itself, but gives up on a refusal (the room's
    // or the server's most live connections): try again later, waiting longer each time
    // (spread out, so pages refused together do not come back together).
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => retry(source), retryDelay * (0.75 + Math.random() / 2));
      retryDelay = Math.min(retryDelay * 2, 30000);
    }
  });
  // A stream left behind (this tab sat down since) draws nothing.
  source.addEventListener("view", (event) => { if (source === events) show(JSON.parse(event.data)); });
}

async function retry(source) {
  if (source !== events) return;
  const query = room.token ? `?token=${encodeURIComponent(room.token)}` : "";
  try {
    show(await api("GET", `/api/rooms/${room.id}${query}`));
  } catch (error) {
    if (error.status === 404 || error.status === 403) {  // the room is gone: nothing to follow
      events = null;
      $("live").textContent = "gone";
      $("live").dataset.state = "gone";
      showError(error.message);
      return;
    }
  }
  if (source === events && !(view && view.room.closed)) follow();
}

function openRoom(id) {
  const secrets = new URLSearchParams(location.hash.slice(1));
  const stored = JSON.parse(sessionStorage.getItem(`room:${id}`) || "{}");
  room = { id, token: secrets.get("seat") || stored.token || null,
           creator: secrets.get("creator") || stored.creator || null };
  saveSecrets();
  // The secrets leave the address bar (and its history): this tab keeps them.
  history.replaceState({}, "", `/room/${id}`);
  const failed = sessionStorage.getItem(`room-error:${id}`);
  sessionStorage.removeItem(`room-error:${id}`);
  const query = room.token ? `?token=${encodeURIComponent(room.token)}` : "";
  api("GET", `/api/rooms/${id}${query}`).then((first) => {
    render(first);
    if (failed) showError(`You were not seated: ${failed}`);
    if (!first.room.closed) follow();
  }).catch((error) => showError(error.message));
}

function initRooms() {
  $("friends").addEventListener("click", createRoom);
  $("friends-variant").addEventListener("change", friendsVariant);
  friendsVariant();
  $("friends-name").value = rememberedName();
  // Enter in the name field opens the room (not the form's solo Start).
  $("friends-name").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); createRoom(); }
  });
  $("close-room").addEventListener("click", () => askClose(true));
  $("close-no").addEventListener("click", () => askClose(false));
  $("close-yes").addEventListener("click", closeRoom);
  $("copy-link").addEventListener("click", copyLink);
  $("room-link").addEventListener("focus", () => $("room-link").select());
  // A view that came while a move was being sent is drawn once the move is answered.
  setInterval(() => {
    if (!busy && pending) { const next = pending; pending = null; show(next); }
  }, 200);
  const match = location.pathname.match(/^\/room\/([A-Za-z0-9_-]+)$/);
  if (match) openRoom(match[1]);
}

initRooms();
