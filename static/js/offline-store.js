// Where the hands typed while the connection was down wait: the browser's IndexedDB, so that
// they survive a reload and a closed tab (static/js/offline-queue.js sends them). One queue per
// entry page, keyed by the page's address, in the order typed; only the person drops a hand.
//
// Database "doko-offline", version 1:
//   hands    {id (the time it was typed, in ms, so in order), key, number, version,
//            fields: [[name, value], …], …}
//            with an index on key;
//   clashes  {key, answer}: the last 409 a queue met, shown again after a reload.

const NAME = "doko-offline";
const VERSION = 1;
let opening = null;

// The database, opened once; rejected where the browser has none (or refuses it, as some do
// in private windows): then the page stays as it is without this module.
export function open() {
  if (opening === null) {
    opening = new Promise(function (resolve, reject) {
      if (!window.indexedDB) {
        reject(new Error("no IndexedDB"));
        return;
      }
      const request = window.indexedDB.open(NAME, VERSION);
      request.onupgradeneeded = function () {
        const db = request.result;
        const hands = db.createObjectStore("hands", { keyPath: "id" });
        hands.createIndex("key", "key");
        db.createObjectStore("clashes", { keyPath: "key" });
      };
      request.onsuccess = function () {
        resolve(request.result);
      };
      request.onerror = function () {
        reject(request.error);
      };
      request.onblocked = function () {
        reject(new Error("IndexedDB blocked"));
      };
    });
  }
  return opening;
}

// One transaction on one store; resolves with what ``work`` asked for once it is committed.
async function run(name, mode, work) {
  const db = await open();
  return new Promise(function (resolve, reject) {
    const transaction = db.transaction(name, mode);
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = function () {
      resolve(request ? request.result : undefined);
    };
    transaction.onerror = transaction.onabort = function () {
      reject(transaction.error);
    };
  });
}

// The hands waiting for the page ``key``, oldest first.
export async function hands(key) {
  const rows = await run("hands", "readonly", function (store) {
    return store.index("key").getAll(key);
  });
  return rows.sort(function (a, b) {
    return a.id - b.id;
  });
}

export function put(entry) {
  return run("hands", "readwrite", function (store) {
    return store.put(entry);
  });
}

export function remove(id) {
  return run("hands", "readwrite", function (store) {
    return store.delete(id);
  });
}

export async function clash(key) {
  const row = await run("clashes", "readonly", function (store) {
    return store.get(key);
  });
  return row ? row.answer : null;
}

export function keepClash(key, answer) {
  return run("clashes", "readwrite", function (store) {
    return store.put({ key: key, answer: answer });
  });
}

export function forgetClash(key) {
  return run("clashes", "readwrite", function (store) {
    return store.delete(key);
  });
}

// Whether the browser keeps anything at all (the module checks before it takes over a page).
export async function usable() {
  try {
    await open();
    return true;
  } catch (error) {
    return false;
  }
}
