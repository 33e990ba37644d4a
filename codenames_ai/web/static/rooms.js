"use strict";
// Rooms: "Play with friends" on the start page, and the room page (/room/{id}#seat=...),
// which draws the game with app.js's render() and follows the room live (server-sent events).
// A seat's secret token travels in the link's fragment (never sent in a page request) and is
// kept in this tab's sessionStorage; the creator's links in localStorage, on this device only.

const SEAT_NAMES = {
  "red-spymaster": "Red spymaster", "red-guesser": "Red guessers",
  "blue-spymaster": "Blue spymaster", "blue-guesser": "Blue guessers",
};
let events = null;
let pending = null;  // a view that arrived while a move was being sent

async function createRoom() {
  if (busy) return;
  const people = [...document.querySelectorAll("input[name=people]:checked")].map((box) => box.value);
  const settings = formSettings();
  delete settings.role;
  delete settings.seed;
  busy = true;
  $("friends").disabled = true;
  $("loading").hidden = false;
  showError("");
  try {
    const created = await api("POST", "/api/rooms", { settings, people });
    localStorage.setItem(`room-links:${created.id}`,
      JSON.stringify({ creator: created.creator, seats: created.seats }));
    const mine = people.length ? created.seats[people[0]] : "";
    location.assign(`/room/${created.id}#${mine ? `seat=${mine}&` : ""}creator=${created.creator}`);
  } catch (error) {
    showError(error.message);
  } finally {
    busy = false;
    $("friends").disabled = false;
    $("loading").hidden = true;
  }
}

function seatLink(token) { return `${location.origin}/room/${room.id}#seat=${token}`; }

function renderRoom(next) {
  $("room").hidden = false;
  const info = next.room;
  $("room-title").textContent = info.closed ? "Room (closed)"
    : info.seat ? `Room — you sit as ${SEAT_NAMES[info.seat]}` : "Room — watching";
  const list = $("seats");
  list.replaceChildren(...Object.entries(info.seats).map(([name, holder]) => {
    const item = element("li", `seat team-${name.split("-")[0]}`);
    item.dataset.seat = name;
    item.append(element("b", "", SEAT_NAMES[name]));
    item.append(element("span", `holder ${holder}`, holder === "person" ? "person" : "AI"));
    if (name === info.seat && !info.closed && !next.over) {
      const button = element("button", "seat-toggle", holder === "person" ? "Hand to the AI" : "Take this seat");
      button.type = "button";
      button.addEventListener("click", () => takeSeat(holder !== "person"));
      item.append(button);
    }
    else if (room.creator && holder === "person" && !info.closed && !next.over) {
      // The creator can hand the seat of someone who left the table to the AI.
      const button = element("button", "seat-toggle", "Hand to the AI");
      button.type = "button";
      button.addEventListener("click", () => handOver(name));
      item.append(button);
    }
    if (name === info.current_seat && !next.over) item.classList.add("current");
    return item;
  }));
  $("close-room").hidden = !room.creator || info.closed;
  const saved = JSON.parse(localStorage.getItem(`room-links:${room.id}`) || "null");
  $("links").hidden = !saved;
  if (saved) {
    const rows = Object.entries(saved.seats).map(([name, token]) => [SEAT_NAMES[name], seatLink(token)]);
    rows.push(["Spectators (no key)", `${location.origin}/room/${room.id}`]);
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
  if (info.closed && events) { events.close(); events = null; $("live").textContent = "closed"; }
}

function show(next) {
  if (busy) { pending = next; return; }
  if (view && next.room.version < view.room.version) return;  // an older event
  render(next);
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

async function closeRoom() {
  try {
    render(await api("POST", `/api/rooms/${room.id}/close`, { creator: room.creator }));
  } catch (error) { showError(error.message); }
}

function follow() {
  const query = new URLSearchParams();
  if (room.token) query.set("token", room.token);
  if (view) query.set("since", view.room.version);
  events = new EventSource(`/api/rooms/${room.id}/events?${query}`);
  events.addEventListener("open", () => { $("live").textContent = "live"; $("live").dataset.state = "live"; });
  events.addEventListener("error", () => {
    $("live").textContent = "reconnecting…";
    $("live").dataset.state = "down";
  });
  events.addEventListener("view", (event) => show(JSON.parse(event.data)));
}

function openRoom(id) {
  const secrets = new URLSearchParams(location.hash.slice(1));
  const stored = JSON.parse(sessionStorage.getItem(`room:${id}`) || "{}");
  room = { id, token: secrets.get("seat") || stored.token || null,
           creator: secrets.get("creator") || stored.creator || null };
  sessionStorage.setItem(`room:${id}`, JSON.stringify({ token: room.token, creator: room.creator }));
  // The secrets leave the address bar (and its history): this tab keeps them.
  history.replaceState({}, "", `/room/${id}`);
  const query = room.token ? `?token=${encodeURIComponent(room.token)}` : "";
  api("GET", `/api/rooms/${id}${query}`).then((first) => {
    render(first);
    if (!first.room.closed) follow();
  }).catch((error) => showError(error.message));
}

function initRooms() {
  $("friends").addEventListener("click", createRoom);
  $("close-room").addEventListener("click", closeRoom);
  // A view that came while a move was being sent is drawn once the move is answered.
  setInterval(() => {
    if (!busy && pending) { const next = pending; pending = null; show(next); }
  }, 200);
  const match = location.pathname.match(/^\/room\/([A-Za-z0-9_-]+)$/);
  if (match) openRoom(match[1]);
}

initRooms();
