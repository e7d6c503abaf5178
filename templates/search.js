/* search.js: the header's search box (content/guides/site.md, "Search").
   Loads search-index.js with a script tag on first use, so it works from file:// as well as
   served; a section matches when every query word is in its page title, heading or text.
   Results are built as DOM text (never innerHTML): content can never become markup here. */
(function () {
  "use strict";
  var form = document.querySelector("form.site-search");
  if (!form) return;
  var input = form.querySelector("input");
  var list = form.querySelector(".search-results");
  var status = form.querySelector(".search-status");
  var root = form.getAttribute("data-root") || "";
  var index = null, loading = false, wanted = null;
  var LIMIT = 20, BEFORE = 50, LENGTH = 180;
  form.hidden = false;

  function load(then) {
    if (index) { then(); return; }
    wanted = then;
    if (loading) return;
    loading = true;
    var script = document.createElement("script");
    script.src = root + "search-index.js";
    script.onload = function () {
      index = prepare(window.SITEGEN_SEARCH || {pages: [], sections: [], symbols: []});
      if (wanted) wanted();
    };
    script.onerror = function () { status.textContent = "The search index could not be loaded."; };
    document.head.appendChild(script);
  }

  function prepare(data) {
    var pages = data.pages.map(function (p) { return {href: p[0], title: p[1], low: p[1].toLowerCase()}; });
    return {
      pages: pages,
      sections: data.sections.map(function (s) {
        return {page: pages[s[0]], heading: s[1], anchor: s[2], text: s[3],
                h: s[1].toLowerCase(), t: s[3].toLowerCase()};
      }),
      symbols: data.symbols.map(function (s) {
        return {name: s[0], kind: s[1], href: s[2], path: s[3], low: s[0].toLowerCase()};
      })
    };
  }

  function words(query) {
    return query.toLowerCase().split(/[^\p{L}\p{N}_.]+/u).filter(function (w) { return w; });
  }

  function sectionScore(s, terms, phrase) {
    var score = 0;
    for (var i = 0; i < terms.length; i++) {
      var w = terms[i], hit = 0;
      if (s.page.low.indexOf(w) >= 0) hit += 10;
      if (s.h.indexOf(w) >= 0) hit += 4;
      if (s.t.indexOf(w) >= 0) hit += 1;
      if (!hit) return 0;
      score += hit;
    }
    if (s.page.low === phrase) score += 20;
    if (s.h === phrase) score += 8;
    return score;
  }

  function symbolScore(sym, terms, phrase) {
    if (sym.low === phrase) return 25;
    var last = sym.low.slice(sym.low.lastIndexOf(".") + 1);
    if (last === phrase) return 22;
    for (var i = 0; i < terms.length; i++) if (sym.low.indexOf(terms[i]) < 0) return 0;
    return last.indexOf(phrase) === 0 ? 9 : 3;
  }

  function search(query) {
    var terms = words(query), phrase = terms.join(" ");
    if (!terms.length) return [];
    var best = new Map();
    index.sections.forEach(function (s) {
      var score = sectionScore(s, terms, phrase);
      var seen = best.get(s.page);
      if (score && (!seen || score > seen.score)) {
        best.set(s.page, {score: score, title: s.page.title, heading: s.heading, text: s.text,
                          href: s.page.href + (s.anchor ? "#" + s.anchor : "")});
      }
    });
    var results = Array.from(best.values());
    index.symbols.forEach(function (sym) {
      var score = symbolScore(sym, terms, phrase);
      if (score) results.push({score: score, title: sym.name, heading: sym.kind + " in " + sym.path,
                               text: "", href: sym.href, symbol: true});
    });
    results.sort(function (a, b) {
      return b.score - a.score || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);
    });
    return {terms: terms, hits: results.slice(0, LIMIT), total: results.length};
  }

  function snippet(text, terms, heading) {
    /* The section's opening when the heading matched, else the text around the first match. */
    var low = text.toLowerCase(), at = -1, head = heading.toLowerCase();
    var inHeading = terms.every(function (w) { return head.indexOf(w) >= 0; });
    for (var i = 0; i < terms.length && at < 0 && !inHeading; i++) at = low.indexOf(terms[i]);
    var start = Math.max(0, at - BEFORE);
    if (start > 0) { var space = text.indexOf(" ", start); if (space >= 0 && space < at) start = space + 1; }
    var part = text.slice(start, start + LENGTH);
    return (start > 0 ? "… " : "") + part + (start + LENGTH < text.length ? " …" : "");
  }

  function marked(text, terms) {
    /* Text with each query word wrapped in <mark>, as DOM nodes. */
    var out = document.createDocumentFragment(), low = text.toLowerCase(), pos = 0;
    while (pos < text.length) {
      var next = -1, len = 0;
      terms.forEach(function (w) {
        var i = low.indexOf(w, pos);
        if (i >= 0 && (next < 0 || i < next)) { next = i; len = w.length; }
      });
      if (next < 0) break;
      out.appendChild(document.createTextNode(text.slice(pos, next)));
      var m = document.createElement("mark");
      m.textContent = text.slice(next, next + len);
      out.appendChild(m);
      pos = next + len;
    }
    out.appendChild(document.createTextNode(text.slice(pos)));
    return out;
  }

  function part(cls, content) {
    var span = document.createElement("span");
    span.className = cls;
    if (typeof content === "string") span.textContent = content; else span.appendChild(content);
    return span;
  }

  function show() {
    var query = input.value.trim();
    list.replaceChildren();
    if (!query) { status.textContent = ""; form.classList.remove("open"); return; }
    var found = search(query);
    form.classList.add("open");
    status.textContent = found.total ? found.total + " results" : "No results for " + query;
    found.hits.forEach(function (hit) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = root + hit.href;
      if (hit.symbol) li.className = "symbol";
      a.appendChild(part("result-title", marked(hit.title, found.terms)));
      if (hit.heading && hit.heading !== hit.title) a.appendChild(part("result-heading", hit.heading));
      if (hit.text) a.appendChild(part("result-snippet", marked(snippet(hit.text, found.terms, hit.heading), found.terms)));
      li.appendChild(a);
      list.appendChild(li);
    });
  }

  function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }

  function move(step) {
    var all = links(), at = all.indexOf(document.activeElement);
    if (!all.length) return;
    if (at < 0) { all[step > 0 ? 0 : all.length - 1].focus(); return; }
    var next = at + step;
    if (next < 0) input.focus(); else all[Math.min(next, all.length - 1)].focus();
  }

  input.addEventListener("input", function () { load(show); });
  input.addEventListener("focus", function () { load(function () {}); });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    load(function () { show(); var first = links()[0]; if (first) first.click(); });
  });
  form.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") { event.preventDefault(); move(1); }
    else if (event.key === "ArrowUp") { event.preventDefault(); move(-1); }
    else if (event.key === "Escape") { input.value = ""; show(); input.focus(); }
  });
  document.addEventListener("keydown", function (event) {
    var t = event.target, typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
})();
