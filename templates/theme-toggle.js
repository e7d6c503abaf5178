/* theme-toggle.js: the header's light/dark button (content/guides/site.md, "Light and dark").
   Loaded in <head> so a remembered choice applies before the first paint; with no choice
   stored the site follows the system (prefers-color-scheme). Reading never needs it. */
(function () {
  "use strict";
  var KEY = "sitegen-theme", root = document.documentElement;
  function stored() {
    try { var t = localStorage.getItem(KEY); return t === "light" || t === "dark" ? t : ""; }
    catch (e) { return ""; }
  }
  function system() {
    return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function current() { return root.getAttribute("data-theme") || system(); }
  if (stored()) root.setAttribute("data-theme", stored());
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector(".theme-toggle");
    if (!button) return;
    function label() {
      var next = current() === "dark" ? "light" : "dark";
      button.textContent = next === "dark" ? "Dark" : "Light";
      button.setAttribute("aria-label", "Switch to the " + next + " theme");
    }
    button.hidden = false;
    label();
    button.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
      label();
    });
  });
})();
