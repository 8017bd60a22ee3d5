/* freehire: the pages' own enhancements (no build, no framework). Every page works without
   this file; with it:
   - [data-copy]: a button copying the text of the element its value selects (hidden until
     this script shows it, since it does nothing without a script);
   - the tracking board (#board): a card dragged onto another column posts the card's own
     "Move" form with the column's stage chosen, the same request the button sends. */
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

  function enhance(root) {
    copyButtons(root);
    board(root);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (event) { enhance(event.target.ownerDocument || document); });
})();
