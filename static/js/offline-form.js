// The entry row as the offline queue reads and resets it (static/js/offline-queue.js): what the
// person typed, as the fields to send and as a line to show; the row moved on to the next hand;
// a waiting hand put back into it to be corrected; what is half typed, kept over a refresh.

// Fields the queue sets itself when it sends, or that say how, not what, was typed.
const OWN = new Set(["csrfmiddlewaretoken", "version", "number", "mode"]);
// Contracts after which the same dealer deals again (TSR 4.2.5; doko/rules/deal.py).
const DEALS_AGAIN = new Set(["compulsory_solo"]);

// The option a select was rendered with: for "dealer", the TSR's dealer.
export function defaultValue(select) {
  const options = Array.from(select.options);
  const chosen = options.find(function (option) {
    return option.defaultSelected;
  });
  if (chosen) {
    return chosen.value;
  }
  return options.length ? options[0].value : "";
}

function labelOf(form, element) {
  let label = element.id ? form.querySelector('label[for="' + CSS.escape(element.id) + '"]') : null;
  label = label || element.closest("label");
  if (!label) {
    return element.name;
  }
  // A label around its field: its own words, not the options' too.
  return Array.from(label.childNodes)
    .filter(function (node) {
      return node.nodeType === Node.TEXT_NODE;
    })
    .map(function (node) {
      return node.textContent;
    })
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

function shown(element) {
  return element.getClientRects().length > 0 || element.closest("details") !== null;
}

function field(fields, name) {
  const pair = fields.find(function (item) {
    return item[0] === name;
  });
  return pair ? pair[1] : "";
}

function seatsOf(text) {
  const seats = [];
  for (const char of text) {
    if (/[0-9]/.test(char) && !seats.includes(Number(char))) {
      seats.push(Number(char));
    }
  }
  return seats;
}

// The points of a hand as far as the page can tell without the server: typed as points, or the
// quick way (the game value and the seats that scored plus, TSR 7.2.2, 7.2.4, 7.3.3.3, as
// doko/rules/entry.py works them out). Null where only the server knows (the calculator).
export function points(fields, seats, dealer) {
  const mode = field(fields, "mode");
  const all = [];
  for (let seat = 1; seat <= seats; seat += 1) {
    all.push(seat);
  }
  if (mode === "raw") {
    const result = {};
    for (const seat of all) {
      const text = field(fields, "points_" + seat).trim();
      if (seats === 5 && seat === dealer && text === "") {
        continue;
      }
      if (!/^[+-]?\d+$/.test(text)) {
        return null;
      }
      result[seat] = Number(text);
    }
    return result;
  }
  if (mode !== "quick") {
    return null;
  }
  const value = field(fields, "game_value").trim();
  if (!/^\d+$/.test(value)) {
    return null;
  }
  const worth = Number(value);
  const players = all.filter(function (seat) {
    return seats === 4 || seat !== dealer;
  });
  const plus = seatsOf(field(fields, "plus_seats"));
  if (
    plus.some(function (seat) {
      return !players.includes(seat);
    })
  ) {
    return null;
  }
  const result = {};
  if (worth === 0) {
    players.forEach(function (seat) {
      result[seat] = 0;
    });
    return plus.length ? null : result;
  }
  const contract = field(fields, "contract");
  const solo =
    ["voluntary_solo", "compulsory_solo", "forced_solo", "silent_wedding"].includes(contract) ||
    (contract === "wedding" && (plus.length === 1 || plus.length === 3));
  if (!solo) {
    if (plus.length !== 2) {
      return null;
    }
    players.forEach(function (seat) {
      result[seat] = plus.includes(seat) ? worth : -worth;
    });
    return result;
  }
  if (plus.length === 1) {
    players.forEach(function (seat) {
      result[seat] = plus.includes(seat) ? 3 * worth : -worth;
    });
    return result;
  }
  if (plus.length === 3) {
    players.forEach(function (seat) {
      result[seat] = plus.includes(seat) ? worth : -3 * worth;
    });
    return result;
  }
  return null;
}

// What the person typed into ``form``: the fields to send (an unchanged dealer sent empty, so
// that the server deals the hand by the TSR), and what to show of it.
export function read(form, seats) {
  const dealerSelect = form.elements.namedItem("dealer");
  const hasDealer = dealerSelect instanceof HTMLSelectElement;
  const dealerDefault = hasDealer ? defaultValue(dealerSelect) : "";
  const dealerChanged = hasDealer && dealerSelect.value !== dealerDefault;
  const fields = [];
  new FormData(form).forEach(function (value, name) {
    if (typeof value === "string") {
      fields.push([name, name === "dealer" && !dealerChanged ? "" : value]);
    }
  });
  const summary = [];
  for (const element of form.elements) {
    if (!element.name || OWN.has(element.name) || element.type === "hidden") {
      continue;
    }
    if (element.type === "radio" || element.type === "submit" || element.type === "button") {
      continue;
    }
    if (element.name === "dealer") {
      if (dealerChanged) {
        summary.push([labelOf(form, element), element.value]);
      }
    } else if (element.type === "checkbox") {
      if (element.checked) {
        summary.push([labelOf(form, element), ""]);
      }
    } else if (element instanceof HTMLSelectElement) {
      const changed = element.value !== defaultValue(element);
      if (element.value !== "" && (changed || shown(element)) && element.selectedOptions.length) {
        summary.push([labelOf(form, element), element.selectedOptions[0].textContent.trim()]);
      }
    } else if (element.value.trim() !== "" && shown(element)) {
      summary.push([labelOf(form, element), element.value.trim()]);
    }
  }
  const contract = form.elements.namedItem("contract");
  const dealer = hasDealer ? Number(dealerSelect.value) : null;
  return {
    fields: fields,
    summary: summary,
    dealer: dealer,
    dealerDefault: dealerDefault,
    dealerChanged: dealerChanged,
    contractLabel:
      contract instanceof HTMLSelectElement && contract.selectedOptions.length
        ? contract.selectedOptions[0].textContent.trim()
        : "",
    points: points(fields, seats, dealer),
  };
}

// The dealer of the hand after one dealt by ``dealer`` (TSR 3.3.1, 4.2.5): a guess the server
// puts right, since an unchanged dealer is sent empty.
export function dealerAfter(dealer, contract, seats) {
  if (!dealer) {
    return null;
  }
  return DEALS_AGAIN.has(contract) ? dealer : (dealer % seats) + 1;
}

function setDealer(form, dealer) {
  const select = form.elements.namedItem("dealer");
  if (!(select instanceof HTMLSelectElement) || !dealer) {
    return;
  }
  for (const option of select.options) {
    option.defaultSelected = option.value === String(dealer);
  }
  select.value = String(dealer);
}

function heading(form, number, text) {
  const element = form.querySelector("[data-offline-number]");
  if (element && text) {
    element.textContent = text.replace("{number}", String(number));
  }
}

function focusFirst(form) {
  const mode = form.querySelector("input[name=mode]:checked");
  const input =
    (mode && form.querySelector(".m-" + mode.value + " input")) ||
    form.querySelector("[autofocus]");
  if (input) {
    input.focus();
  }
}

// Whether hand ``number`` is a line of the match still to write: past the last one
// (data-offline-last, as the sheet stood when the page was loaded) the row is not shown, as the
// server shows none once the lines are all written; the sheet then says what comes next.
function showRow(form, number) {
  const last = Number(form.dataset.offlineLast) || 0;
  const row = form.closest("tr");
  if (row) {
    row.hidden = Boolean(last) && number > last && !form.dataset.offlineCorrecting;
  }
}

// The sheet's "Next hand" line for hand ``number``, dealt by ``dealer``, told in the browser while
// the hands before it wait on this device (the server tells it again once they are sent). The
// line carries its texts only while the time is not over; a forced solo's note goes with it, as
// it named the hand now typed.
function nextLine(form, number, dealer) {
  const line = document.getElementById("next-hand");
  const last = Number(form.dataset.offlineLast) || 0;
  if (!line || !line.dataset.textOne || !last || !dealer || number > last) {
    return;
  }
  const count = last - number + 1;
  line.textContent = (count === 1 ? line.dataset.textOne : line.dataset.textMany)
    .replace("{dealer}", String(dealer))
    .replace("{count}", String(count))
    .replace("{total}", line.dataset.offlineTotal);
}

// The row moved on to hand ``number``, empty, for the next hand; a correction's row becomes a
// new hand's. ``texts``: the panel's (the heading, the button).
export function advance(form, number, dealer, texts) {
  for (const element of form.elements) {
    if (!element.name || OWN.has(element.name) || element.type === "hidden") {
      continue;
    }
    if (element.type === "checkbox") {
      element.checked = false;
    } else if (element.type === "radio" || element.name === "dealer") {
      continue;
    } else if (element instanceof HTMLSelectElement) {
      const blank = Array.from(element.options).find(function (option) {
        return option.value === "";
      });
      element.value = blank ? "" : element.options.length ? element.options[0].value : "";
    } else if (element.type !== "submit" && element.type !== "button") {
      element.value = "";
    }
    if (element.classList) {
      element.classList.remove("is-invalid");
    }
  }
  form.elements.namedItem("number").value = String(number);
  setDealer(form, dealer);
  heading(form, number, texts.textHand);
  nextLine(form, number, dealer);
  const button = form.querySelector("[data-offline-submit]");
  if (button && form.querySelector("[data-offline-edit-only]")) {
    button.textContent = texts.textSave;
  }
  form.querySelectorAll("[data-offline-edit-only], .invalid-feedback, .alert").forEach(function (node) {
    node.remove();
  });
  form.querySelectorAll("[data-offline-clear]").forEach(function (node) {
    node.replaceChildren();
  });
  const contract = form.elements.namedItem("contract");
  if (contract) {
    form.dataset.contract = contract.value;
  }
  delete form.dataset.offlineCorrecting;
  changed(form);
  showRow(form, number);
  focusFirst(form);
}

// Tell the row's script (static/js/sheet.js) that the row was reset or filled in.
function changed(form) {
  form.dispatchEvent(new CustomEvent("entry-row:changed", { bubbles: true }));
}

// The row's hand renumbered, what is typed in it kept (a hand before it was dropped).
export function renumber(form, number, texts) {
  form.elements.namedItem("number").value = String(number);
  heading(form, number, texts.textHand);
  showRow(form, number);
}

// A waiting hand put back into the row, to be corrected and saved again in its place.
export function load(form, entry, texts) {
  const values = new Map();
  entry.fields.forEach(function (pair) {
    values.set(pair[0], (values.get(pair[0]) || []).concat([pair[1]]));
  });
  for (const element of form.elements) {
    if (!element.name || element.name === "csrfmiddlewaretoken" || element.name === "version") {
      continue;
    }
    const given = values.get(element.name);
    if (element.type === "radio") {
      element.checked = given ? given.includes(element.value) : element.checked;
    } else if (element.type === "checkbox") {
      element.checked = given ? given.includes(element.value) : false;
    } else if (element.name === "dealer") {
      setDealer(form, entry.dealerDefault);
      element.value = String(entry.dealer || entry.dealerDefault);
    } else if (element.name === "number") {
      element.value = String(entry.number);
    } else if (element.type !== "submit" && element.type !== "button") {
      element.value = given ? given[0] : "";
    }
  }
  heading(form, entry.number, texts.textHand);
  const mode = form.querySelector("input[name=mode]:checked");
  const contract = form.elements.namedItem("contract");
  form.dataset.mode = mode ? mode.value : form.dataset.mode;
  form.dataset.contract = contract ? contract.value : form.dataset.contract;
  form.dataset.offlineCorrecting = String(entry.id);
  changed(form);
  showRow(form, entry.number);
  focusFirst(form);
}

// What is typed into the row but not saved, to put back after the sheet is refreshed; null if
// nothing is.
export function typed(form) {
  const kept = [];
  let any = false;
  for (const element of form.elements) {
    if (!element.name || OWN.has(element.name) || element.type === "hidden") {
      continue;
    }
    if (element.type === "checkbox" || element.type === "radio") {
      kept.push([element.name, element.value, element.checked]);
      any = any || (element.type === "checkbox" && element.checked);
    } else if (element instanceof HTMLSelectElement) {
      if (element.value !== defaultValue(element)) {
        kept.push([element.name, element.value, true]);
        any = any || element.name !== "dealer";
      }
    } else if (element.value !== "" && element.type !== "submit" && element.type !== "button") {
      kept.push([element.name, element.value, true]);
      any = true;
    }
  }
  const focused = document.activeElement;
  return any ? { fields: kept, focus: focused && form.contains(focused) ? focused.name : null } : null;
}

export function restore(form, kept) {
  kept.fields.forEach(function (item) {
    const name = item[0];
    const value = item[1];
    const checked = item[2];
    for (const element of form.elements) {
      if (element.name !== name) {
        continue;
      }
      if (element.type === "checkbox" || element.type === "radio") {
        if (element.value === value) {
          element.checked = checked;
        }
      } else {
        element.value = value;
      }
    }
  });
  const mode = form.querySelector("input[name=mode]:checked");
  const contract = form.elements.namedItem("contract");
  form.dataset.mode = mode ? mode.value : form.dataset.mode;
  form.dataset.contract = contract ? contract.value : form.dataset.contract;
  changed(form);
  const focus = kept.focus ? form.elements.namedItem(kept.focus) : null;
  if (focus && typeof focus.focus === "function") {
    focus.focus();
  }
}
