/* search.js: the header's search box (content/guides/site.md, "Search").
   The index is cut into scripts (sitegen/site/search_shards.py): search-index.js, the
   manifest, on first use; then, per query word, the key shard of its first characters and
   the token shards it names; then, per result shown, the script that holds its page's chunk
   with those of the pages around it (the manifest's "group" pages a script). Each is a
   <script> appended when needed that calls SITEGEN_SEARCH, so search works from file://
   (where fetch cannot) as well as served. A section matches when every query word is in its
   page title, heading or text, anywhere in a word, and results are ranked as when the index
   was one script.
   Results are built as DOM text (never innerHTML): content can never become markup here. */
(function () {
  "use strict";
  var form = document.querySelector("form.site-search");
  if (!form) return;
  var input = form.querySelector("input");
  var list = form.querySelector(".search-results");
  var status = form.querySelector(".search-status");
  var root = form.getAttribute("data-root") || "";
  var LIMIT = 20, BEFORE = 50, LENGTH = 180, CUT = "\u2026";
  var store = {}, pending = {}, ready = null, index = null, asked = 0, STALE = {};
  form.hidden = false;

  window.SITEGEN_SEARCH = function (name, data) { store[name] = data; };

  function need(name) {
    /* One index script's data, loaded once: a promise. */
    if (!pending[name]) pending[name] = new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = root + (name === "manifest" ? "search-index.js" : "search-index/" + name + ".js");
      script.onload = function () { if (name in store) resolve(store[name]); else reject(name); };
      script.onerror = function () { reject(name); };
      document.head.appendChild(script);
    });
    return pending[name];
  }

  function start() {
    /* The manifest (sections per page, shard counts, pages per chunk script) and, when the
       site has code, its symbols. */
    if (!ready) ready = need("manifest").then(function (m) {
      var first = [0];
      m.sections.forEach(function (n, p) { first.push(first[p] + n); });
      index = {key: m.key, keys: m.keys, tokens: m.tokens, group: m.group, first: first, symbols: []};
      /* On a site with locales, a query finds the pages of the reader's locale only. */
      var mine = form.getAttribute("data-locale");
      index.locale = m.locales && mine !== null ? m.locales : null;
      index.mine = mine === null ? -1 : +mine;
      if (!m.symbols) return;
      return need("symbols").then(function (rows) {
        index.symbols = rows.map(function (s) {
          return {name: s[0], kind: s[1], href: s[2], path: s[3], before: s[4], low: s[0].toLowerCase()};
        });
      });
    });
    return ready;
  }

  function words(query) {
    return query.toLowerCase().split(/[^\p{L}\p{N}_.]+/u).filter(function (w) { return w; });
  }

  function bucket(key, count) {
    /* 32-bit FNV-1a over the key's code points, as search_shards.bucket computes it. */
    var h = 2166136261;
    for (var ch of key) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
    return h % count;
  }

  function keyShard(word) {
    var key = Array.from(word).slice(0, index.key).join("");
    return need("k" + bucket(key, index.keys)).then(function (shard) { return {key: key, shard: shard}; });
  }

  function current(ticket) {
    /* A query typed over stops here: the letters before the last load no more than they need. */
    if (ticket !== asked) throw STALE;
  }

  function termSets(word, ticket) {
    /* The [titles, headings, texts] sets of every token that contains the word: a popular
       key's own sets when the word is the key, else those of the token shards its entry names
       (a cut form may hide the word, so its shard is read too). */
    return keyShard(word).then(function (k) {
      var entry = k.shard.g[k.key], shards = {};
      if (!entry) return [];
      if (entry.s && k.key === word) return [entry.s];
      current(ticket);
      entry.t.forEach(function (form) {
        if (form.slice(-1) === CUT || form.indexOf(word) >= 0) shards["t" + bucket(form, index.tokens)] = 1;
      });
      return Promise.all(Object.keys(shards).map(need)).then(function (loaded) {
        var found = [];
        loaded.forEach(function (tokens) {
          for (var token in tokens) if (token.indexOf(word) >= 0) found.push(tokens[token]);
        });
        return found;
      });
    });
  }

  function phraseSets(terms) {
    /* The pages whose title and the sections whose heading equal the whole query. */
    return keyShard(terms[0]).then(function (k) { return k.shard.p[terms.join(" ")] || null; });
  }

  function mark(set, into, value) {
    /* A set is a list of gaps between ids or a base64 bitmap (search_shards.encode_set). */
    if (typeof set === "string") {
      var bytes = atob(set);
      for (var i = 0; i < bytes.length; i++) {
        for (var b = bytes.charCodeAt(i), bit = 0; b; b >>= 1, bit++) if (b & 1) into[i * 8 + bit] |= value;
      }
    } else {
      for (var j = 0, at = 0; j < set.length; j++) { at += set[j]; into[at] |= value; }
    }
  }

  function hitsOf(sets, pages, sections) {
    /* One word's hits: in each page's title (1) and in each section's heading (4), text (1). */
    var title = new Uint8Array(pages), section = new Uint8Array(sections);
    sets.forEach(function (s) { mark(s[0], title, 1); mark(s[1], section, 4); mark(s[2], section, 1); });
    return {title: title, section: section};
  }

  function sectionScore(hits, p, s) {
    var score = 0;
    for (var i = 0; i < hits.length; i++) {
      var hit = (hits[i].title[p] ? 10 : 0) + (hits[i].section[s] & 4) + (hits[i].section[s] & 1);
      if (!hit) return 0;
      score += hit;
    }
    return score;
  }

  function pageResults(found, equal) {
    /* Each page's best section (the first of the best score): 10 a word in the title, 4 in
       the heading, 1 in the text, plus 20 when the title and 8 when the heading is the query. */
    var first = index.first, pages = first.length - 1, sections = first[pages];
    var hits = found.map(function (sets) { return hitsOf(sets, pages, sections); });
    var same = hitsOf(equal ? [[equal[0], equal[1], []]] : [], pages, sections);
    var results = [];
    for (var p = 0; p < pages; p++) {
      if (index.locale && index.locale[p] !== index.mine) continue;
      var best = 0, at = 0;
      for (var s = first[p]; s < first[p + 1]; s++) {
        var score = sectionScore(hits, p, s);
        if (score) score += (same.title[p] ? 20 : 0) + (same.section[s] ? 8 : 0);
        if (score > best) { best = score; at = s - first[p]; }
      }
      if (best) results.push({score: best, page: p, section: at});
    }
    return results;
  }

  function symbolScore(sym, terms, phrase) {
    if (sym.low === phrase) return 25;
    var last = sym.low.slice(sym.low.lastIndexOf(".") + 1);
    if (last === phrase) return 22;
    for (var i = 0; i < terms.length; i++) if (sym.low.indexOf(terms[i]) < 0) return 0;
    return last.indexOf(phrase) === 0 ? 9 : 3;
  }

  function order(a, b) {
    /* Ties go by title: pages are numbered in title order, and a symbol knows how many pages
       sort before it. */
    var pa = a.symbol === undefined, pb = b.symbol === undefined;
    if (pa && pb) return a.page - b.page;
    if (!pa && !pb) return a.symbol - b.symbol;
    return pa ? (a.page < b.before ? -1 : 1) : (b.page < a.before ? 1 : -1);
  }

  function shown(result) {
    /* What a result shows; a page's needs its chunk, chunk page % group of script
       p<page / group> (search_shards.page_groups). */
    if (result.symbol !== undefined) {
      var sym = index.symbols[result.symbol];
      return {title: sym.name, heading: sym.kind + " in " + sym.path, text: "", href: sym.href, symbol: true};
    }
    return need("p" + Math.floor(result.page / index.group)).then(function (chunks) {
      var page = chunks[result.page % index.group], s = page[2][result.section];
      return {title: page[1], heading: s[0], text: s[2], href: page[0] + (s[1] ? "#" + s[1] : "")};
    });
  }

  function search(query, ticket) {
    var terms = words(query), phrase = terms.join(" ");
    if (!terms.length) return Promise.resolve({terms: terms, hits: [], total: 0});
    return start().then(function () {
      var sets = terms.map(function (w) { return termSets(w, ticket); });
      return Promise.all(sets.concat([phraseSets(terms)]));
    }).then(function (found) {
      var equal = found.pop(), results = pageResults(found, equal);
      index.symbols.forEach(function (sym, j) {
        var score = symbolScore(sym, terms, phrase);
        if (score) results.push({score: score, symbol: j, before: sym.before});
      });
      results.sort(function (a, b) { return b.score - a.score || order(a, b); });
      current(ticket);
      return Promise.all(results.slice(0, LIMIT).map(shown)).then(function (hits) {
        return {terms: terms, hits: hits, total: results.length};
      });
    });
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

  function draw(query, found) {
    list.replaceChildren();
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
    list.setAttribute("data-query", query);  // which query the list shows (the tests wait on it)
  }

  function show() {
    /* Draws the results of what the box holds; an answer that arrives after a newer query
       was typed is dropped. */
    var query = input.value.trim(), ticket = ++asked;
    if (!query) {
      list.replaceChildren();
      list.removeAttribute("data-query");
      status.textContent = "";
      form.classList.remove("open");
      return Promise.resolve();
    }
    return search(query, ticket).then(function (found) {
      if (ticket === asked) draw(query, found);
    }, function (why) {
      if (why !== STALE && ticket === asked) status.textContent = "The search index could not be loaded.";
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

  input.addEventListener("input", show);
  input.addEventListener("focus", function () {
    start().catch(function () { status.textContent = "The search index could not be loaded."; });
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    show().then(function () { var first = links()[0]; if (first) first.click(); });
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
