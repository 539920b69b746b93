// Hands typed while the connection is down are kept in the browser and sent by themselves, in
// order, once it is back; a clash with another device's change is shown hand by hand for the
// person to decide. Nothing is retried blindly and nothing is dropped unless the person says so.
//
// Each hand belongs to who typed it (the page's typist: an account, or a seat's link) and is
// sent only as his. On a device several people share, a hand typed by someone who has since
// logged out waits and the page asks whoever is logged in now: save it as his own (he typed it),
// or drop it; the hand is shown to copy meanwhile. The server refuses a hand sent as someone
// else too (403 "typist", scoring.policies.may_save_typed), and the page asks then. Logging out
// while hands wait asks first.
//
// The page's markup (templates/scoring/partials/offline_queue.html and the entry row,
// scoring/views/sheet_parts.py):
//
//   [data-offline-panel="<key>"]   outside what htmx swaps; one per queue. <key> names the queue
//       (the page's address). Inside it: [data-offline-status] and [data-offline-clash], where
//       the state and a clash are shown, and a CSRF token (input csrfmiddlewaretoken).
//       data-offline-page   the page's address: GET with HX-Request answers the part to refresh
//       data-offline-body   a selector of that part (its outerHTML is replaced once the queue
//                           is empty)
//       data-offline-rows   a selector of the tbody that shows waiting hands when the page has
//                           no entry row
//       data-offline-seats  the seats at the table; data-contracts: {value: label} as JSON
//       data-offline-typist, data-offline-typist-name   who types on this page (the field
//                           "typist" of every save) and his name
//       data-sw-forget      the addresses of the logins and logouts (sw-register.js)
//       data-text-*         every text shown ({number}, {count}, … filled in): see the partial
//
//   form.entry[data-offline-queue="<key>"]   the entry row. Its submits are kept in the queue
//       while the connection is down or hands wait, and a failed save (htmx:sendError, or a
//       502/503/504) is kept instead of lost. It posts to its action, a save/ endpoint that
//       answers JSON to Accept: application/json (scoring.views.offline.save_json): 200 with the new
//       version and the hand; 409 with the current sheet, the changes since and whether it holds
//       this very hand already; 422 with the messages. Fields: "version" (the sheet's version it
//       was typed against), "number" (the hand), the hand's own fields, and optionally a select
//       "dealer" whose selected option is the TSR's dealer: sent empty unless the person changed
//       it. Optional: data-offline-next (the number of the next new hand on the sheet),
//       data-offline-last (the number of the sheet's last line: no row past it),
//       data-offline-dealer (its dealer), [data-offline-number] (its "Hand N"),
//       [data-offline-submit] (its button), [data-offline-edit-only] (what a correction's row
//       has besides), [data-offline-clear] (emptied when the row moves on).
//
// Without IndexedDB (or without this module) the page is the plain page: errors.js says the
// connection is lost and the typing stays in the row. A service worker (sw-register.js) keeps
// the page itself for a reload while offline.

import * as store from "./offline-store.js";
import * as entryRow from "./offline-form.js";
import * as view from "./offline-view.js";

const queues = new Map();
// Answers that say the server was not reached or could not take it now: sent again later.
const LATER = new Set([0, 408, 429, 502, 503, 504]);
// A save htmx sent that did not reach the application (a proxy's answer): kept, not lost.
const NOT_REACHED = new Set([502, 503, 504]);
const FIRST_WAIT = 2000;
const LONGEST_WAIT = 60000;

function csrfToken(panel) {
  const input =
    panel.querySelector("input[name=csrfmiddlewaretoken]") ||
    document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

// One waiting hand sent as ``number`` on top of ``version``: resolves with the answer, rejects
// when the server is not reached.
async function send(queue, entry, number, version) {
  const body = new URLSearchParams();
  entry.fields.forEach(function (pair) {
    body.append(pair[0], pair[1]);
  });
  body.set("number", String(number));
  body.set("version", String(version));
  body.set("typist", entry.typist || ""); // who typed it: the server saves it as his only
  const token = csrfToken(queue.panel);
  if (token) {
    body.set("csrfmiddlewaretoken", token);
  }
  const response = await fetch(entry.action, {
    method: "POST",
    body: body,
    credentials: "same-origin",
    redirect: "manual", // to the login page: the session is over, which the person must see
    headers: { Accept: "application/json" },
  });
  const type = response.headers.get("Content-Type") || "";
  let data = null;
  if (type.startsWith("application/json")) {
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
  }
  return {
    status: response.type === "opaqueredirect" ? 302 : response.status,
    data: data,
    wait: Number(response.headers.get("Retry-After")) || 0,
  };
}

class Queue {
  constructor(panel) {
    this.panel = panel;
    this.key = panel.dataset.offlinePanel;
    this.texts = panel.dataset;
    this.entries = [];
    this.clash = null; // the 409 answer being decided, hand by hand
    this.sending = false;
    this.offline = !navigator.onLine;
    this.notice = ""; // a word about the last decision that could not be sent
    this.asking = null; // the hand whose dropping is being asked
    this.busy = null; // the hand whose decision is being sent
    this.wait = 0;
    this.timer = null;
    this.again = false;
    this.restoring = null; // what was half typed when the sheet was refreshed
    this.typist = panel.dataset.offlineTypist || ""; // who types here, and his name
    this.typistName = panel.dataset.offlineTypistName || "";
  }

  // Whether a waiting hand was typed by someone else than who types here now: it is sent only
  // once the person here says he typed it (a hand kept before typists were, by nobody known).
  foreign(entry) {
    return !entry.typist || entry.typist !== this.typist;
  }

  form() {
    return document.querySelector(
      'form.entry[data-offline-queue="' + CSS.escape(this.key) + '"]'
    );
  }

  seats() {
    return Number(this.panel.dataset.offlineSeats) || 4;
  }

  entry(id) {
    return this.entries.find(function (entry) {
      return entry.id === id;
    });
  }

  async load() {
    this.entries = await store.hands(this.key);
    this.clash = this.entries.length ? await store.clash(this.key) : null;
    this.show();
    this.placeForm();
    this.flush();
  }

  show() {
    view.rows(this);
    view.panel(this);
  }

  // Whether a save of the row is kept here rather than sent by htmx: while hands wait (they go
  // first), while the connection is down, and for a waiting hand being corrected.
  takes(form) {
    return Boolean(this.entries.length || !navigator.onLine || form.dataset.offlineCorrecting);
  }

  newHands() {
    return this.entries.filter(function (entry) {
      return !entry.correction;
    });
  }

  nextNumber(form) {
    const numbers = this.newHands().map(function (entry) {
      return entry.number + 1;
    });
    const next = Number(form.dataset.offlineNext) || Number(form.elements.namedItem("number").value);
    return Math.max(next, ...numbers);
  }

  nextDealer(form) {
    const hands = this.newHands();
    const last = hands[hands.length - 1];
    if (!last) {
      return Number(form.dataset.offlineDealer) || null;
    }
    return entryRow.dealerAfter(last.dealer, contractOf(last), this.seats());
  }

  // A new hand's row (not a correction's) moved on past the hands waiting, as after a reload.
  placeForm() {
    const form = this.form();
    if (!form || form.dataset.offlineCorrecting) {
      return;
    }
    const number = Number(form.elements.namedItem("number").value);
    if (number !== Number(form.dataset.offlineNext)) {
      return; // a hand of the sheet opened for a correction
    }
    const next = this.nextNumber(form);
    this.dropPlaceholders(next);
    if (next > number) {
      entryRow.advance(form, next, this.nextDealer(form), this.texts);
    }
  }

  dropPlaceholders(next) {
    document.querySelectorAll("[data-offline-placeholder]").forEach(function (row) {
      if (Number(row.dataset.offlinePlaceholder) <= next) {
        row.remove();
      }
    });
  }

  // The row as typed into the queue; the row moves on to the next hand at once.
  enqueue(form) {
    const typed = entryRow.read(form, this.seats());
    const correcting = Number(form.dataset.offlineCorrecting) || null;
    let entry = correcting ? this.entry(correcting) : null;
    if (entry) {
      Object.assign(entry, typed, { refused: null });
    } else {
      const number = Number(form.elements.namedItem("number").value);
      const last = this.entries[this.entries.length - 1];
      entry = Object.assign(
        {
          id: Math.max(Date.now(), last ? last.id + 1 : 0),
          key: this.key,
          action: form.action,
          number: number,
          version: Number(form.elements.namedItem("version").value),
          correction: number < (Number(form.dataset.offlineNext) || number),
          refused: null,
          typist: this.typist,
          typistName: this.typistName,
        },
        typed
      );
      this.entries.push(entry);
    }
    const next = this.nextNumber(form);
    this.dropPlaceholders(next);
    entryRow.advance(form, next, this.nextDealer(form), this.texts);
    this.show();
    store.put(entry).catch(function () {
      // Not kept for a reload (the browser refused the storage): it still waits in this page.
    });
    this.flush();
  }

  later(seconds) {
    window.clearTimeout(this.timer);
    if (!navigator.onLine) {
      return; // the online event sends them
    }
    this.wait = seconds ? seconds * 1000 : Math.min(LONGEST_WAIT, Math.max(FIRST_WAIT, this.wait * 2));
    this.timer = window.setTimeout(this.flush.bind(this), this.wait);
  }

  async forget(entry) {
    this.entries = this.entries.filter(function (other) {
      return other !== entry;
    });
    await store.remove(entry.id).catch(function () {});
  }

  // The next hand builds on ``version``: the version the hand before it made.
  async chain(version) {
    const next = this.entries[0];
    if (next && !this.clash) {
      next.version = version;
      await store.put(next).catch(function () {});
    }
  }

  async refuse(entry, answer) {
    const messages = answer.data && answer.data.messages && answer.data.messages.length;
    entry.refused = messages
      ? answer.data.messages
      : [view.fill(this.texts.textFailed, { status: answer.status })];
    await store.put(entry).catch(function () {});
  }

  async clashWith(answer, earlier) {
    const changes = (earlier ? earlier.changes : []).concat(answer.changes || []);
    this.clash = Object.assign({}, answer, { changes: changes });
    await store.keepClash(this.key, this.clash).catch(function () {});
  }

  async cleared() {
    this.clash = null;
    await store.forgetClash(this.key).catch(function () {});
    this.refresh();
  }

  // Send the waiting hands one at a time, in order, each on the version the one before made;
  // stop at a clash or a refusal, and wait at a lost connection.
  async flush() {
    if (this.sending) {
      this.again = true; // the connection came back while a send was under way
      return;
    }
    if (this.clash || !this.entries.length || !navigator.onLine) {
      return;
    }
    window.clearTimeout(this.timer);
    this.sending = true;
    this.show();
    let sent = 0;
    try {
      while (
        this.entries.length &&
        !this.clash &&
        !this.entries[0].refused &&
        !this.foreign(this.entries[0])
      ) {
        const entry = this.entries[0];
        let answer;
        try {
          answer = await send(this, entry, entry.number, entry.version);
        } catch (error) {
          this.offline = true;
          this.later(0);
          break;
        }
        this.offline = false;
        if (answer.status === 200 && answer.data) {
          this.wait = 0;
          sent += 1;
          await this.forget(entry);
          await this.chain(answer.data.version);
        } else if (answer.status === 409 && answer.data) {
          const hand = answer.data.hand || {};
          if (hand.stored) {
            // The save got through before and its answer was lost: the sheet has it.
            await this.forget(entry);
            if (hand.saved_in) {
              await this.chain(hand.saved_in);
              continue;
            }
          }
          if (this.entries.length) {
            await this.clashWith(answer.data, null);
          }
          break;
        } else if (this.changedHands(answer)) {
          break; // someone else is logged in now: the page asks about every hand
        } else if (LATER.has(answer.status) || answer.status >= 500) {
          this.later(answer.wait);
          break;
        } else {
          await this.refuse(entry, answer);
          break;
        }
      }
    } finally {
      this.sending = false;
    }
    if (!this.entries.length) {
      await this.cleared();
    } else if (sent && !this.clash) {
      this.refresh(); // the hands sent before the one that waits for a decision, in the sheet
    }
    this.show();
    if (this.again) {
      this.again = false;
      this.flush();
    }
  }

  // The server says someone else is logged in on this device now than who types on this page
  // (403 "typist"): he types here from now on, and every hand typed before waits for him to
  // decide. True if that was the answer.
  changedHands(answer) {
    const data = answer.data;
    if (answer.status !== 403 || !data || data.code !== "typist" || !data.typist) {
      return false;
    }
    this.typist = String(data.typist.key || "");
    this.typistName = String(data.typist.name || "");
    this.panel.dataset.offlineTypist = this.typist;
    this.panel.dataset.offlineTypistName = this.typistName;
    return true;
  }

  // "I typed it": a hand typed by someone else on this device, saved as the person's here,
  // who says he typed it; it is sent as the next in turn.
  async adopt(entry) {
    entry.typist = this.typist;
    entry.typistName = this.typistName;
    entry.refused = null;
    await store.put(entry).catch(function () {});
    this.show();
    this.flush();
  }

  // A decision on a hand in a clash: "append" (as the next hand) or "replace" (the sheet's
  // hand of its number), on top of the sheet as the clash showed it.
  async decide(entry, how) {
    const clash = this.clash;
    if (!clash || this.busy || this.foreign(entry)) {
      return;
    }
    const hands = clash.current.hands;
    const number = how === "append" ? hands.length + 1 : entry.number;
    this.busy = entry.id;
    this.notice = "";
    this.show();
    let answer = null;
    try {
      answer = await send(this, entry, number, clash.current.version);
    } catch (error) {
      this.notice = this.texts.textNotSentNow;
    }
    this.busy = null;
    if (answer && answer.status === 200 && answer.data) {
      await this.forget(entry);
      hands[number - 1] = answer.data.hand;
      clash.current.version = answer.data.version;
      await store.keepClash(this.key, clash).catch(function () {});
    } else if (answer && answer.status === 409 && answer.data) {
      if (answer.data.hand && answer.data.hand.stored) {
        await this.forget(entry);
      }
      await this.clashWith(answer.data, clash);
    } else if (answer && this.changedHands(answer)) {
      // asked again below, now as the person logged in
    } else if (answer && (LATER.has(answer.status) || answer.status >= 500)) {
      this.notice = this.texts.textNotSentNow;
    } else if (answer) {
      await this.refuse(entry, answer);
    }
    if (!this.entries.length) {
      await this.cleared();
    }
    this.show();
  }

  async act(action, entry) {
    if (action === "drop") {
      this.asking = entry.id;
    } else if (action === "drop-no") {
      this.asking = null;
    } else if (action === "drop-yes") {
      this.asking = null;
      await this.drop(entry);
    } else if (action === "retry") {
      entry.refused = null;
      await store.put(entry).catch(function () {});
      this.show();
      this.flush();
      return;
    } else if (action === "correct") {
      const form = this.form();
      if (form) {
        entryRow.load(form, entry, this.texts);
        form.scrollIntoView({ block: "nearest" });
      }
    } else if (action === "append" || action === "replace") {
      await this.decide(entry, action);
      return;
    } else if (action === "adopt") {
      await this.adopt(entry);
      return;
    }
    this.show();
    if (action === "drop-yes") {
      this.flush();
    }
  }

  // A hand dropped, as the person asked. Outside a clash the new hands typed after it move up
  // one place, as on paper when a line is struck out, and the first waiting hand builds on the
  // version the dropped one would have; in a clash each hand keeps its number, decided alone.
  async drop(entry) {
    const first = this.entries[0] === entry;
    await this.forget(entry);
    if (!this.entries.length) {
      await this.cleared();
      return;
    }
    if (this.clash) {
      return;
    }
    const moved = [];
    if (!entry.correction) {
      this.entries.forEach(function (other) {
        if (!other.correction && other.number > entry.number) {
          other.number -= 1;
          moved.push(other);
        }
      });
    }
    if (first && !moved.includes(this.entries[0])) {
      moved.push(this.entries[0]);
    }
    if (first) {
      this.entries[0].version = entry.version;
    }
    await Promise.all(
      moved.map(function (other) {
        return store.put(other).catch(function () {});
      })
    );
    const form = this.form();
    if (form && !form.dataset.offlineCorrecting && moved.length && !entry.correction) {
      const number = Number(form.elements.namedItem("number").value);
      if (number > Number(form.dataset.offlineNext)) {
        entryRow.renumber(form, number - 1, this.texts);
      }
    }
  }

  // The sheet from the server once nothing waits; what is half typed stays in the row.
  refresh() {
    const target = document.querySelector(this.panel.dataset.offlineBody);
    if (!target || !window.htmx || !navigator.onLine) {
      return;
    }
    const form = this.form();
    this.restoring = form ? entryRow.typed(form) : null;
    window.htmx.ajax("GET", this.panel.dataset.offlinePage, {
      source: target,
      target: target,
      swap: "outerHTML",
    });
  }

  settled() {
    this.show();
    const form = this.form();
    if (form && this.restoring) {
      entryRow.restore(form, this.restoring);
    }
    this.restoring = null;
    this.placeForm();
  }
}

function contractOf(entry) {
  const pair = entry.fields.find(function (item) {
    return item[0] === "contract";
  });
  return pair ? pair[1] : "";
}

function queueOf(element) {
  const form = element && element.closest ? element.closest("form.entry[data-offline-queue]") : null;
  return form ? { form: form, queue: queues.get(form.dataset.offlineQueue) } : null;
}

function isBody(element) {
  for (const queue of queues.values()) {
    const body = document.querySelector(queue.panel.dataset.offlineBody);
    if (body && element === body) {
      return queue;
    }
  }
  return null;
}

// Logging out (or in) while hands wait on this device asks first: they stay, and nobody who logs
// in here next sends them without being asked, but the person should know they are not sent.
document.addEventListener(
  "submit",
  function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || (form.method || "").toLowerCase() !== "post") {
      return;
    }
    const path = new URL(form.action, window.location.href).pathname;
    let count = 0;
    let texts = null;
    queues.forEach(function (queue) {
      const forget = (queue.panel.dataset.swForget || "").split(" ");
      if (forget.includes(path)) {
        count += queue.entries.length;
        texts = queue.texts;
      }
    });
    if (!count || !texts) {
      return;
    }
    const ask = view.fill(count === 1 ? texts.textLogoutAskOne : texts.textLogoutAskMany, {
      count: count,
    });
    if (!window.confirm(ask)) {
      event.preventDefault();
      event.stopPropagation();
    }
  },
  true
);

// Capturing, so that a kept row never reaches htmx.
document.addEventListener(
  "submit",
  function (event) {
    const found = queueOf(event.target);
    if (!found || !found.queue || found.form !== event.target || !found.queue.takes(found.form)) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    found.queue.enqueue(found.form);
  },
  true
);

// A save htmx could not send is kept instead; the live check's failure only says the connection
// is down. Either way errors.js says nothing ("please try again" is not what happens here).
function failed(event) {
  const element = event.detail.elt;
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  if (event.type === "htmx:responseError" && !NOT_REACHED.has(status)) {
    return;
  }
  const found = queueOf(element);
  const queue = found && found.queue ? found.queue : isBody(element);
  if (!queue) {
    return;
  }
  event.preventDefault();
  queue.offline = true;
  if (found && found.form === element) {
    queue.enqueue(found.form);
  } else {
    queue.show();
  }
}
document.addEventListener("htmx:sendError", failed, true);
document.addEventListener("htmx:responseError", failed, true);

document.addEventListener("click", function (event) {
  const target = event.target.closest ? event.target.closest("[data-offline-action]") : null;
  if (!target) {
    return;
  }
  const id = Number(target.dataset.offlineEntry);
  for (const queue of queues.values()) {
    const entry = queue.entry(id);
    if (entry) {
      queue.act(target.dataset.offlineAction, entry);
      return;
    }
  }
});

// The sheet swapped (a save, a refresh): the waiting hands go back into it.
document.addEventListener("htmx:afterSettle", function (event) {
  if (event.target.closest && event.target.closest("form.entry")) {
    return; // the live check's answer inside the row
  }
  queues.forEach(function (queue) {
    queue.settled();
  });
});

window.addEventListener("online", function () {
  queues.forEach(function (queue) {
    queue.offline = false;
    queue.notice = "";
    queue.wait = 0;
    queue.show();
    queue.flush();
  });
});

window.addEventListener("offline", function () {
  queues.forEach(function (queue) {
    queue.offline = true;
    queue.show();
  });
});

document.addEventListener("visibilitychange", function () {
  if (document.visibilityState === "visible") {
    queues.forEach(function (queue) {
      queue.flush();
    });
  }
});

async function start() {
  const panels = document.querySelectorAll("[data-offline-panel]");
  if (!panels.length || !(await store.usable())) {
    return; // the plain page
  }
  panels.forEach(function (panel) {
    const queue = new Queue(panel);
    queues.set(queue.key, queue);
    queue.load();
  });
}

start();
