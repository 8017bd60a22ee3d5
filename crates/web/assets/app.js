/* freehire: the pages' own enhancements (no build, no framework). Every page works without
   this file; with it:
   - [data-complete]: completions of the search box and the city field from the public
     lookups (see completions below);
   - [data-copy]: a button copying the text of the element its value selects (hidden until
     this script shows it, since it does nothing without a script);
   - the tracking board (#board): a card dragged onto another column posts the card's own
     "Move" form with the column's stage chosen, the same request the button sends;
   - the assistant's chat (#transcript, #chat-form): a message is posted to the JSON API
     (/api/v1/assistant/sessions/{id}/messages, the session cookie) and its event stream read
     as it arrives: text deltas, tool steps (<details>), present_jobs as job cards with a save
     button (the API's save route), Stop (cancel) while a turn runs, Retry on an error, the
     quota on a 402. The page renders the stored conversation itself; only sending needs this.
     The server's Retry form (a stored turn without an answer) and Start form (an interview or
     debrief that has not opened; submitted on load) are sent to the API's streamed `retry`
     and `opening` routes the same way; without this file they run the turn on the server. */
(function () {
  "use strict";

  function copyButtons(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
      if (button.dataset.copyReady) return;
      button.dataset.copyReady = "1";
      button.addEventListener("click", function () {
        var source = document.querySelector(button.dataset.copy);
        if (!source) return;
        var text = source.value !== undefined ? source.value : source.textContent;
        var done = function () {
          var label = button.textContent;
          button.textContent = "Copied ✓";
          setTimeout(function () { button.textContent = label; }, 2000);
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(done, function () { select(source); });
        } else {
          select(source);
        }
      });
    });
  }

  /* Without clipboard access, select the text so the user can copy it. */
  function select(source) {
    if (source.select) { source.select(); return; }
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function board(root) {
    var el = root.querySelector("#board");
    if (!el || el.dataset.dndReady) return;
    el.dataset.dndReady = "1";
    el.classList.add("dnd");
    el.querySelectorAll(".board-card[data-move]").forEach(function (card) {
      card.setAttribute("draggable", "true");
      card.addEventListener("dragstart", function (event) {
        event.dataTransfer.effectAllowed = "move";
        event.dataTransfer.setData("text/plain", card.id);
        card.classList.add("dragging");
      });
      card.addEventListener("dragend", function () { card.classList.remove("dragging"); });
    });
    el.querySelectorAll(".column[data-drop-stage]").forEach(function (column) {
      column.addEventListener("dragover", function (event) {
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        column.classList.add("drop-target");
      });
      column.addEventListener("dragleave", function () { column.classList.remove("drop-target"); });
      column.addEventListener("drop", function (event) {
        event.preventDefault();
        column.classList.remove("drop-target");
        var card = document.getElementById(event.dataTransfer.getData("text/plain"));
        if (!card || column.contains(card)) return;
        var form = card.querySelector("form.move");
        var stage = form && form.querySelector("select[name=stage]");
        if (!stage) return;
        stage.value = column.dataset.dropStage;
        if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      });
    });
  }

  /* ---- the assistant ---- */

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function pretty(value) {
    if (typeof value === "string") {
      try { return JSON.stringify(JSON.parse(value), null, 2); } catch (e) { return value; }
    }
    try { return JSON.stringify(value, null, 2); } catch (e) { return String(value); }
  }

  function resetsAt(iso) {
    if (!iso) return "midnight UTC";
    var d = new Date(iso);
    return isNaN(d.getTime()) ? iso : d.toLocaleString();
  }

  /* One SSE frame ("event: x\ndata: {...}") as its parsed data, null for a comment. */
  function frame(text) {
    var data = [];
    text.split(/\r?\n/).forEach(function (line) {
      if (line.indexOf("data:") === 0) data.push(line.slice(5).replace(/^ /, ""));
    });
    if (!data.length) return null;
    try { return JSON.parse(data.join("\n")); } catch (e) { return null; }
  }

  var DECLINE = "No, that is not something I have done.";

  function chat(root) {
    var list = root.querySelector("#transcript");
    var form = root.querySelector("#chat-form");
    if (!list || !form || form.dataset.ready) return;
    form.dataset.ready = "1";
    form.hidden = false;
    var base = "/api/v1/assistant/sessions/" + encodeURIComponent(list.dataset.session);
    var csrfInput = form.querySelector("input[name=csrf]");
    var csrf = csrfInput ? csrfInput.value : "";
    var next = list.dataset.next || "/assistant";
    var text = form.querySelector("textarea");
    var send = root.querySelector("#chat-send");
    var stop = root.querySelector("#chat-stop");
    var status = root.querySelector("#chat-status");
    var empty = root.querySelector("#chat-empty");
    var running = false;

    function say(message, cls) {
      status.textContent = message || "";
      status.className = "status" + (cls ? " " + cls : "");
    }

    function add(node) {
      if (empty) { empty.remove(); empty = null; }
      list.appendChild(node);
      node.scrollIntoView({ block: "nearest" });
      return node;
    }

    function message(kind, body) {
      var li = el("li", "msg " + kind);
      li.appendChild(el("span", "who", kind === "user" ? "You" : "Assistant"));
      var p = el("p", null, body);
      li.appendChild(p);
      add(li);
      return p;
    }

    function step(event) {
      var li = el("li", "step");
      li.dataset.call = event.id || "";
      var details = el("details");
      var summary = el("summary");
      summary.appendChild(el("span", "tool", event.name));
      var badge = el("span", "badge", "running…");
      summary.appendChild(document.createTextNode(" "));
      summary.appendChild(badge);
      details.appendChild(summary);
      details.appendChild(el("p", "meta", "Input"));
      details.appendChild(el("pre", "input", pretty(event.input)));
      li.appendChild(details);
      add(li);
      return { li: li, details: details, badge: badge, input: event.input, name: event.name };
    }

    function finish(s, event) {
      s.badge.textContent = event.is_error ? "error" : "done";
      s.badge.className = "badge " + (event.is_error ? "silent" : "ok");
      s.details.appendChild(el("p", "meta", "Result"));
      s.details.appendChild(el("pre", "result", pretty(event.result)));
      if (s.name === "present_jobs" && !event.is_error) cards(s, event.result);
      if (s.name === "request_confirmation" && !event.is_error) confirmBox(s);
    }

    // request_confirmation: Yes sends the claim verbatim as the candidate's message, No a
    // fixed decline.
    function confirmBox(s) {
      var input = s.input;
      if (typeof input === "string") { try { input = JSON.parse(input); } catch (e) { input = {}; } }
      var claim = input && typeof input.claim === "string" ? input.claim.trim() : "";
      if (!claim) return;
      var box = el("div", "confirm");
      box.dataset.claim = claim;
      box.appendChild(el("p", null, (input.question || "").trim() || "Can you confirm this?"));
      box.appendChild(el("blockquote", "claim", claim));
      box.appendChild(el("button", "small confirm-yes", "Yes"));
      box.appendChild(document.createTextNode(" "));
      box.appendChild(el("button", "small secondary confirm-no", "No"));
      box.querySelectorAll("button").forEach(function (b) { b.type = "button"; });
      s.li.appendChild(box);
    }

    function sendText(t) {
      if (!t || running) return false;
      message("user", t);
      run(base + "/messages", JSON.stringify({ text: t }));
      return true;
    }

    function cards(s, result) {
      var receipt = {};
      try { receipt = JSON.parse(result); } catch (e) { return; }
      var input = s.input;
      if (typeof input === "string") { try { input = JSON.parse(input); } catch (e) { input = {}; } }
      var entries = {};
      ((input && input.jobs) || []).forEach(function (j) { if (j && j.slug) entries[j.slug] = j; });
      var ul = el("ul", "cards presented");
      (receipt.presented || []).forEach(function (slug) {
        var entry = entries[slug] || {};
        var li = el("li", "card job-card");
        li.dataset.slug = slug;
        var h3 = el("h3");
        var a = el("a", null, slug);
        a.href = "/jobs/" + encodeURIComponent(slug);
        h3.appendChild(a);
        li.appendChild(h3);
        var meta = el("p", "meta");
        li.appendChild(meta);
        if (entry.note) li.appendChild(el("p", "note", entry.note));
        [["why_fits", "why"], ["concerns", "concerns"]].forEach(function (pair) {
          var items = entry[pair[0]] || [];
          if (!items.length) return;
          var list = el("ul", pair[1]);
          items.forEach(function (t) { list.appendChild(el("li", null, t)); });
          li.appendChild(list);
        });
        var f = el("form", "save-job");
        f.method = "post";
        f.action = "/jobs/" + encodeURIComponent(slug) + "/save";
        [["csrf", csrf], ["next", next]].forEach(function (pair) {
          var i = el("input");
          i.type = "hidden"; i.name = pair[0]; i.value = pair[1];
          f.appendChild(i);
        });
        f.appendChild(el("button", "small", "Save")).type = "submit";
        li.appendChild(f);
        ul.appendChild(li);
        fetch("/api/v1/jobs/" + encodeURIComponent(slug), { credentials: "same-origin" })
          .then(function (res) { return res.ok ? res.json() : null; })
          .then(function (body) {
            var job = body && body.data;
            if (!job) return;
            a.textContent = job.title || slug;
            meta.textContent = [job.company, job.location].filter(Boolean).join(" · ");
          })
          .catch(function () {});
      });
      s.li.appendChild(ul);
    }

    /* The same Retry form the server renders for a turn without an answer. */
    function retryButton() {
      var li = el("li", "msg error");
      var f = el("form", "retry-turn");
      f.method = "post";
      f.action = next + "/retry";
      var i = el("input");
      i.type = "hidden"; i.name = "csrf"; i.value = csrf;
      f.appendChild(i);
      var b = el("button", "small retry", "Retry");
      b.type = "submit";
      f.appendChild(b);
      li.appendChild(f);
      add(li);
    }

    function retry(f) {
      if (running) return;
      var li = f.closest("li");
      if (li) li.remove();
      run(base + "/retry", null, { refused: retryButton });
    }

    var start = root.querySelector("#chat-start");
    function opening() {
      if (running || !start) return;
      start.hidden = true;
      run(base + "/opening", null, { echo: true, refused: function () { start.hidden = false; } });
    }

    function refused(code, body) {
      var a = body && body.allowance;
      if (code === 402 && a) {
        say("Today's " + (a.feature || "assistant") + " allowance is used up: " + a.used + " of " +
          a.limit + " turns (" + (a.tier || "free") + " plan). It resets at " + resetsAt(a.resets_at) + ".", "error quota");
        return;
      }
      say((body && body.error) || ("The request was refused (" + code + ")."), "error");
    }

    function handle(event, turn) {
      switch (event.type) {
        case "user_prompt":
          if (turn.echo && event.text) message("user", event.text);
          break;
        case "queued":
          say("Waiting for the answer before this one…");
          break;
        case "assistant_text":
          if (event.synthetic) { turn.text = null; message("assistant note", event.text); break; }
          if (!turn.text) turn.text = message("assistant", "");
          turn.text.textContent += event.text || "";
          say("Writing…");
          break;
        case "tool_use":
          turn.text = null;
          turn.steps[event.id || event.name] = step(event);
          say("Running " + event.name + "…");
          break;
        case "tool_result":
          var s = turn.steps[event.id || event.name];
          if (s) finish(s, event);
          break;
        case "result":
          turn.ended = true;
          if (event.stop_reason === "cancelled") { say("Stopped."); }
          else if (event.is_error) { say(event.message || "The answer failed.", "error"); retryButton(); }
          else if (event.stop_reason === "max_steps") { say("The assistant reached its step limit."); }
          else { say(""); }
          break;
        default:
          break;
      }
    }

    function read(reader, turn) {
      var decoder = new TextDecoder();
      var buffer = "";
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) return;
          buffer += decoder.decode(chunk.value, { stream: true });
          var frames = buffer.split(/\r?\n\r?\n/);
          buffer = frames.pop();
          frames.forEach(function (f) {
            var event = frame(f);
            if (event && !turn.ended) handle(event, turn);
          });
          return turn.ended ? reader.cancel() : pump();
        });
      }
      return pump();
    }

    /* Posts to a turn route and streams its events. opts.echo shows the turn's own prompt
       (an opening's brief); opts.refused runs when the route refuses before any stream. */
    function run(url, body, opts) {
      opts = opts || {};
      running = true;
      send.disabled = true;
      stop.hidden = false;
      stop.disabled = false;
      say("Thinking…");
      var options = { method: "POST", credentials: "same-origin", headers: { Accept: "text/event-stream" } };
      if (body) { options.headers["Content-Type"] = "application/json"; options.body = body; }
      var turn = { text: null, steps: {}, ended: false, echo: !!opts.echo };
      fetch(url, options)
        .then(function (res) {
          if (!res.ok) {
            return res.json().catch(function () { return {}; }).then(function (b) {
              turn.ended = true;
              refused(res.status, b);
              if (opts.refused) opts.refused();
            });
          }
          return read(res.body.getReader(), turn);
        })
        .catch(function () {})
        .then(function () {
          if (!turn.ended) {
            say("The connection broke before the answer ended; it goes on on the server: reload the page to see it.", "error");
          }
          running = false;
          send.disabled = false;
          stop.hidden = true;
        });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var t = text.value.trim();
      if (sendText(t)) text.value = "";
    });
    list.addEventListener("click", function (event) {
      var b = event.target;
      if (!b.classList || !(b.classList.contains("confirm-yes") || b.classList.contains("confirm-no"))) return;
      var box = b.closest(".confirm");
      var yes = b.classList.contains("confirm-yes");
      if (sendText(yes ? box.dataset.claim : DECLINE)) {
        box.querySelectorAll("button").forEach(function (x) { x.disabled = true; });
        box.classList.add(yes ? "confirmed" : "declined");
      }
    });
    var panel = root.querySelector("#tailor-panel");
    if (panel) {
      var auto = root.querySelector("#run-autopilot");
      var autopilot = function () {
        if (running) return;
        message("user", "Tailor this CV for the vacancy yourself.");
        run(base + "/autopilot", null, {});
      };
      if (auto) auto.addEventListener("click", autopilot);
      if (panel.dataset.auto) autopilot();
    }
    text.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        if (form.requestSubmit) { form.requestSubmit(); } else { form.dispatchEvent(new Event("submit")); }
      }
    });
    stop.addEventListener("click", function () {
      stop.disabled = true;
      say("Stopping…");
      fetch(base + "/cancel", { method: "POST", credentials: "same-origin" }).catch(function () {});
    });
    if (start) {
      start.addEventListener("submit", function (event) { event.preventDefault(); opening(); });
      if (start.dataset.auto) opening();
    }
    list.addEventListener("submit", function (event) {
      var f = event.target;
      if (f.classList && f.classList.contains("retry-turn")) { event.preventDefault(); retry(f); return; }
      if (!f.classList || !f.classList.contains("save-job")) return;
      event.preventDefault();
      var card = f.closest(".job-card");
      var button = f.querySelector("button");
      button.disabled = true;
      fetch("/api/v1/jobs/" + encodeURIComponent(card.dataset.slug) + "/save", { method: "POST", credentials: "same-origin" })
        .then(function (res) {
          if (!res.ok) throw new Error(String(res.status));
          button.textContent = "Saved ✓";
          button.className = "small secondary";
        })
        .catch(function () { button.disabled = false; say("The job could not be saved; try again.", "error"); });
    });
  }

  /* [data-complete]: an input whose <datalist> (its `list`) is filled, as the job seeker
     types, from a public lookup answering {data: [...]}: the value of each item's
     `data-complete-value` field (the search box completes from /api/v1/suggest, the city
     field from /api/v1/geo/cities). Typing stays plain text without this file. */
  function completions(root) {
    root.querySelectorAll("input[data-complete]").forEach(function (input) {
      if (input.dataset.completeReady) return;
      input.dataset.completeReady = "1";
      var list = document.getElementById(input.getAttribute("list"));
      if (!list) return;
      var timer = null;
      var asked = "";
      input.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(function () {
          var text = input.value.trim();
          if (!text || text === asked) return;
          asked = text;
          fetch(input.dataset.complete + "?limit=8&q=" + encodeURIComponent(text), { credentials: "same-origin" })
            .then(function (res) { if (!res.ok) throw new Error(String(res.status)); return res.json(); })
            .then(function (body) {
              if (input.value.trim() !== text) return;
              list.replaceChildren();
              (body.data || []).forEach(function (item) {
                var option = document.createElement("option");
                option.value = item[input.dataset.completeValue];
                if (item.country) option.label = option.value + " (" + item.country.toUpperCase() + ")";
                list.appendChild(option);
              });
            })
            .catch(function () { asked = ""; });
        }, 150);
      });
    });
  }

  function enhance(root) {
    completions(root);
    copyButtons(root);
    board(root);
    chat(root);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (event) { enhance(event.target.ownerDocument || document); });
})();
