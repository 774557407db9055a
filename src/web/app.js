// capabot's game pages: step through the moves with the buttons and the arrow keys without
// reloading, and follow a live game (Server-Sent Events). The page works without this script;
// it reads only the page's own attributes, never text typed by people.
"use strict";
(function () {
  var source = null;

  function setup() {
    var game = document.getElementById("game");
    if (!game) return;
    var board = document.getElementById("board");
    var latest = Number(game.dataset.ply);
    var shown = Number(game.dataset.shown);
    var links = Array.prototype.slice.call(document.querySelectorAll("#moves a[data-ply]"));

    function show(n) {
      n = Math.max(0, Math.min(latest, n));
      shown = n;
      game.dataset.shown = String(n);
      board.src = game.dataset.board + n;
      if (n === latest) board.alt = game.dataset.altLatest;
      else if (n === 0) board.alt = game.dataset.altStart;
      else board.alt = links[n - 1].dataset.alt;
      links.forEach(function (a) {
        if (Number(a.dataset.ply) === n) a.setAttribute("aria-current", "step");
        else a.removeAttribute("aria-current");
      });
      var steps = { first: 0, previous: Math.max(0, n - 1), next: Math.min(latest, n + 1), last: latest };
      document.querySelectorAll("a[data-step]").forEach(function (a) {
        a.href = game.dataset.page + "?ply=" + steps[a.dataset.step];
      });
      history.replaceState(null, "", n === latest ? game.dataset.page : game.dataset.page + "?ply=" + n);
    }

    document.querySelectorAll("a[data-step]").forEach(function (a) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        var k = a.dataset.step;
        show(k === "first" ? 0 : k === "previous" ? shown - 1 : k === "next" ? shown + 1 : latest);
      });
    });
    links.forEach(function (a) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        show(Number(a.dataset.ply));
      });
    });
    game.stepTo = show;
    game.shownPly = function () { return shown; };
    game.latestPly = latest;

    if (game.dataset.events && !source && window.EventSource) {
      source = new EventSource(game.dataset.events);
      source.addEventListener("move", refresh);
    }
  }

  // A move was made: fetch the page again and put its game in place of this one; the board
  // follows the latest move unless the reader was looking at an earlier one.
  function refresh() {
    var old = document.getElementById("game");
    var following = !old || old.shownPly() === old.latestPly;
    var keep = old ? old.shownPly() : 0;
    fetch(old.dataset.page, { headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("game");
        if (!fresh) return;
        old.replaceWith(document.adoptNode(fresh));
        if (!fresh.dataset.events && source) { source.close(); source = null; }
        setup();
        if (!following) document.getElementById("game").stepTo(keep);
      })
      .catch(function () {});
  }

  document.addEventListener("keydown", function (e) {
    var game = document.getElementById("game");
    if (!game || !game.stepTo || e.altKey || e.ctrlKey || e.metaKey) return;
    var n = game.shownPly();
    var to = { ArrowLeft: n - 1, ArrowRight: n + 1, Home: 0, End: game.latestPly }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    game.stepTo(to);
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
