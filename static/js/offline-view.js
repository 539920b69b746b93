// What the offline queue shows (static/js/offline-queue.js): the hands waiting on this device as
// rows of the sheet marked "not sent yet", and in its panel above the sheet what is going on —
// waiting, sending, no connection — and, after a clash with another device's change, each
// waiting hand beside the sheet's hand of that number with the person's choices. A hand typed
// here by someone else than who is logged in now says so, shows what was typed, and asks. Every
// text comes from the panel's data-text-* attributes, translated by the template.

export function fill(text, values) {
  return String(text || "").replace(/\{(\w+)\}/g, function (whole, name) {
    return name in values ? String(values[name]) : whole;
  });
}

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) {
    element.className = className;
  }
  if (text !== undefined && text !== null) {
    element.textContent = String(text);
  }
  return element;
}

function button(action, entry, text, className) {
  const element = make("button", "btn btn-sm " + className, text);
  element.type = "button";
  element.dataset.offlineAction = action;
  element.dataset.offlineEntry = String(entry.id);
  return element;
}

function field(entry, name) {
  const pair = entry.fields.find(function (item) {
    return item[0] === name;
  });
  return pair ? pair[1] : "";
}

// Points per seat as the sheet shows them: a seat badge and the points, negative in colour.
function pointsLine(points, seats) {
  const line = make("span", "d-inline-flex flex-wrap gap-2");
  for (let seat = 1; seat <= seats; seat += 1) {
    if (points[seat] === undefined || points[seat] === null) {
      continue;
    }
    const item = make("span");
    item.append(make("span", "badge text-bg-secondary seat-badge", seat), " ");
    item.append(make("span", "num" + (points[seat] < 0 ? " neg" : ""), points[seat]));
    line.append(item);
  }
  return line;
}

// A waiting hand in words: what was typed, and its points where the page can tell them.
function typedLine(entry, seats) {
  const box = make("div");
  box.append(
    make(
      "div",
      "small",
      entry.summary
        .map(function (pair) {
          return pair[1] ? pair[0] + ": " + pair[1] : pair[0];
        })
        .join(" · ")
    )
  );
  if (entry.points) {
    box.append(pointsLine(entry.points, seats));
  }
  return box;
}

// A hand of the sheet as the server answered it (scoring.api.sheets.sheet_data).
function sheetLine(hand, texts, contracts, seats) {
  const box = make("div");
  const words = [contracts[hand.contract] || hand.contract];
  if (hand.soloist) {
    words.push(fill(texts.textSoloist, { seat: hand.soloist }));
  }
  words.push(fill(texts.textValue, { value: hand.game_value }));
  words.push(fill(texts.textDealer, { seat: hand.dealer }));
  box.append(make("div", "small", words.join(" · ")));
  box.append(pointsLine(hand.points, seats));
  return box;
}

function headerColumns(body) {
  const table = body.closest("table");
  const head = table ? table.querySelector("thead tr") : null;
  return head ? head.children.length : 0;
}

// The waiting hands as rows of the sheet: before the entry row, else where the panel says
// (data-offline-rows), with what the server refused beside the hand.
export function rows(queue) {
  document.querySelectorAll("tr[data-offline-row]").forEach(function (row) {
    if (row.dataset.offlineRow === queue.key) {
      row.remove();
    }
  });
  const form = queue.form();
  const anchor = form ? form.closest("tr") : null;
  const body = anchor ? anchor.parentElement : document.querySelector(queue.panel.dataset.offlineRows);
  if (!body) {
    return;
  }
  const texts = queue.texts;
  const seats = queue.seats();
  const columns = headerColumns(body);
  queue.entries.forEach(function (entry) {
    const row = make("tr", "offline-hand table-secondary");
    row.dataset.offlineRow = queue.key;
    row.dataset.offlineEntry = String(entry.id);
    row.id = "offline-hand-" + entry.id;
    row.append(make("td", "num", entry.number));
    row.append(make("td", "num", entry.dealer || ""));
    const game = make("td", "small");
    game.append(make("span", "badge text-bg-warning me-1", texts.textNotSent));
    if (queue.foreign(entry)) {
      const by = fill(texts.textTypedBy, { name: typistOf(entry, texts) });
      game.append(make("span", "badge text-bg-danger me-1", by));
    }
    if (entry.correction) {
      game.append(make("span", "badge text-bg-light border me-1", texts.textCorrection));
    }
    const soloist = field(entry, "soloist");
    game.append(entry.contractLabel + (soloist ? " " + fill(texts.textSoloist, { seat: soloist }) : ""));
    if (!entry.points) {
      game.append(make("div", "text-body-secondary", typedLine(entry, seats).textContent));
    }
    row.append(game);
    row.append(make("td", "num", field(entry, "game_value")));
    row.append(make("td", "small d-none d-sm-table-cell", field(entry, "plus_seats")));
    let cells = 5;
    for (let seat = 1; seat <= seats; seat += 1) {
      const value = entry.points ? entry.points[seat] : undefined;
      const cell = make("td", "num");
      cell.append(make("span", value < 0 ? "neg" : "", value === undefined ? "" : value));
      row.append(cell);
      cells += 1;
    }
    for (; cells < columns; cells += 1) {
      row.append(make("td", "d-none d-sm-table-cell"));
    }
    body.insertBefore(row, anchor);
    if (queue.foreign(entry) && !queue.clash) {
      const note = make("tr", "offline-foreign table-warning");
      note.dataset.offlineRow = queue.key;
      note.id = "offline-foreign-" + entry.id;
      const cell = make("td", "small");
      cell.colSpan = Math.max(columns, seats + 5);
      cell.append(make("p", "mb-1", foreignText(queue, entry)));
      cell.append(typedLine(entry, seats), choices(queue, entry, false));
      note.append(cell);
      body.insertBefore(note, anchor);
    } else if (entry.refused && !queue.clash) {
      const note = make("tr", "offline-refused table-danger");
      note.dataset.offlineRow = queue.key;
      const cell = make("td", "small");
      cell.colSpan = Math.max(columns, seats + 5);
      cell.append(make("strong", "", fill(texts.textRefused, { number: entry.number })));
      const list = make("ul", "mb-1");
      entry.refused.forEach(function (message) {
        list.append(make("li", "", message));
      });
      cell.append(list, choices(queue, entry, false));
      note.append(cell);
      body.insertBefore(note, anchor);
    }
  });
}

function typistOf(entry, texts) {
  return entry.typistName || texts.textSomeone;
}

// Why a hand typed by someone else waits, and what the person here can do.
function foreignText(queue, entry) {
  return fill(queue.texts.textForeign, { name: typistOf(entry, queue.texts), me: queue.typistName });
}

// The buttons for one waiting hand: typed by someone else, save it as the person's here or drop
// it; in a clash, add it as the next hand or in place of the sheet's hand of its number; after a
// refusal, correct it or send it again; always drop it, asked once.
function choices(queue, entry, clash) {
  const texts = queue.texts;
  const box = make("div", "d-flex flex-wrap align-items-center gap-2");
  if (queue.asking === entry.id) {
    box.append(make("span", "small fw-semibold", fill(texts.textDropAsk, { number: entry.number })));
    box.append(button("drop-yes", entry, texts.textDropYes, "btn-danger"));
    box.append(button("drop-no", entry, texts.textKeep, "btn-outline-secondary"));
    return box;
  }
  if (queue.foreign(entry)) {
    box.append(button("adopt", entry, fill(texts.textAdopt, { me: queue.typistName }), "btn-primary"));
    box.append(button("drop", entry, texts.textDrop, "btn-outline-danger"));
    return box;
  }
  if (clash) {
    const hands = queue.clash.current.hands;
    box.append(
      button("append", entry, fill(texts.textAppend, { number: hands.length + 1 }), "btn-primary")
    );
    if (entry.number <= hands.length) {
      box.append(
        button(
          "replace",
          entry,
          fill(texts.textReplace, { number: entry.number }),
          "btn-outline-primary"
        )
      );
    }
  }
  if (entry.refused && queue.form()) {
    box.append(button("correct", entry, texts.textCorrect, "btn-outline-secondary"));
  }
  if (entry.refused && !clash) {
    box.append(button("retry", entry, texts.textRetry, "btn-outline-secondary"));
  }
  box.append(button("drop", entry, clash ? texts.textDropMine : texts.textDrop, "btn-outline-danger"));
  if (queue.busy === entry.id) {
    box.querySelectorAll("button").forEach(function (element) {
      element.disabled = true;
    });
  }
  return box;
}

function changeLine(change, texts) {
  const at = new Date(change.at);
  const time = isNaN(at) ? "" : at.toLocaleTimeString(document.documentElement.lang || undefined);
  let text = fill(texts.textChange, { time: time, name: change.by_name });
  if (change.hands_changed && change.hands_changed.length) {
    text += ": " + texts.textHands + " " + change.hands_changed.join(", ");
  }
  return make("li", "", text);
}

// Each waiting hand beside the sheet's hand of its number, with the choices.
function clashView(queue) {
  const texts = queue.texts;
  const clash = queue.clash;
  const seats = queue.seats();
  const contracts = JSON.parse(queue.panel.dataset.contracts || "{}");
  const box = make("div", "offline-clash");
  const alert = make("div", "alert alert-warning mb-2");
  alert.setAttribute("role", "alert");
  alert.append(make("strong", "", texts.textClash));
  const changes = make("ul", "small mb-0 mt-1");
  (clash.changes || []).forEach(function (change) {
    changes.append(changeLine(change, texts));
  });
  alert.append(changes);
  box.append(alert);
  const hands = clash.current.hands;
  queue.entries.forEach(function (entry) {
    const card = make("div", "card mb-2");
    card.id = "offline-clash-" + entry.id;
    card.dataset.offlineEntry = String(entry.id);
    const body = make("div", "card-body p-2");
    const pair = make("div", "row g-2 mb-2");
    const mine = make("div", "col-sm-6");
    mine.append(make("div", "small fw-semibold", fill(texts.textYours, { number: entry.number })));
    mine.append(typedLine(entry, seats));
    const theirs = make("div", "col-sm-6");
    const hand = hands[entry.number - 1];
    if (hand) {
      theirs.append(make("div", "small fw-semibold", fill(texts.textTheirs, { number: entry.number })));
      theirs.append(sheetLine(hand, texts, contracts, seats));
    } else {
      theirs.append(make("div", "small fw-semibold", fill(texts.textNone, { number: entry.number })));
    }
    pair.append(mine, theirs);
    body.append(pair);
    if (queue.foreign(entry)) {
      body.append(make("p", "small mb-2", foreignText(queue, entry)));
    }
    if (entry.refused) {
      const refused = make("div", "alert alert-danger small py-1 mb-2");
      refused.append(make("strong", "", fill(texts.textRefused, { number: entry.number })));
      const list = make("ul", "mb-0");
      entry.refused.forEach(function (message) {
        list.append(make("li", "", message));
      });
      refused.append(list);
      body.append(refused);
    }
    body.append(choices(queue, entry, true));
    card.append(body);
    box.append(card);
  });
  return box;
}

// The panel: hidden while nothing waits and the connection is there.
export function panel(queue) {
  const texts = queue.texts;
  const status = queue.panel.querySelector("[data-offline-status]");
  const clash = queue.panel.querySelector("[data-offline-clash]");
  const count = queue.entries.length;
  let text = "";
  if (queue.sending) {
    text = texts.textSending;
  } else if (count) {
    text = fill(count === 1 ? texts.textWaitingOne : texts.textWaitingMany, { count: count });
    const stopped = queue.clash || queue.entries[0].refused || queue.foreign(queue.entries[0]);
    text += " " + (stopped ? texts.textDecide : texts.textByThemselves);
  } else if (queue.offline) {
    text = texts.textOffline;
  }
  if (queue.notice) {
    text = text ? text + " " + queue.notice : queue.notice;
  }
  if (status) {
    status.textContent = text;
    status.hidden = !text;
  }
  if (clash) {
    clash.replaceChildren();
    if (queue.clash && count) {
      clash.append(clashView(queue));
    }
  }
  queue.panel.hidden = !text && !(queue.clash && count);
}
