/* sphinx-contributions: Sphinx's search page reads a write-up as a page (loaded on search.html only,
 * deferred: after searchtools.js has defined Search, before it runs the query).
 * - A write-up found by its key (the contrib domain's object, "transformers#49135", a pull request's
 *   number, a repository's name) is its page's hit: titled by the write-up's title, with a summary from
 *   its own words, and ranked as the object is. Sphinx shows an object as "key (type, in Title)" and
 *   fetches no summary for it; the page's own text hit, if any, is the same result and is dropped.
 * - A summary is made from what the page says: the hit's title already shows the page's heading, so it is
 *   left out; so are the lines the extension marks as navigation (.no-search), the header's project line
 *   and buttons, and the charts' drawings (their labels are not sentences; the figure's text says them).
 *   A hit that no word of its text found (a key) is summed up from the text's start, without the "..."
 *   Sphinx puts before a cut.
 * No framework, no network beyond Sphinx's own fetch of the page. */
(function () {
  "use strict";
  // the three functions of Sphinx's searchtools.js this adapts (as Sphinx 9 writes them); without them, Sphinx's search as it is
  if (typeof Search === "undefined") return;
  if (![Search.performObjectSearch, Search.htmlToText, Search.makeSearchSummary].every(function (f) {
    return typeof f === "function";
  })) return;

  var KIND = "contrib:contribution";
  var LEFT_OUT = [".no-search", ".contrib-header-meta", ".contrib-actions", "svg", ".contrib-metric-chart"];

  // "docname#anchor" of each write-up's object in the loaded index
  function writeUps() {
    var index = Search._index, found = Object.create(null), kinds = [];
    if (!index || !index.objects || !index.objtypes) return found;
    Object.keys(index.objtypes).forEach(function (kind) {
      if (index.objtypes[kind] === KIND) kinds.push(Number(kind));
    });
    Object.keys(index.objects).forEach(function (prefix) {
      index.objects[prefix].forEach(function (entry) {
        if (kinds.indexOf(entry[1]) >= 0) found[index.docnames[entry[0]] + "#" + entry[3]] = entry[0];
      });
    });
    return found;
  }

  var findObjects = Search.performObjectSearch;
  Search.performObjectSearch = function (object, objectTerms) {
    var found = writeUps(), index = Search._index;
    return findObjects(object, objectTerms).map(function (result) {
      var file = found[result[0] + result[2]];
      if (file === undefined) return result;
      // [docname, title, anchor, descr, score, filename, kind]: the page's own hit, with the object's score
      return [result[0], index.titles[file], "", null, result[4], result[5], "text"];
    });
  };

  var toText = Search.htmlToText;
  Search.htmlToText = function (html, anchor) {
    var page = new DOMParser().parseFromString(html, "text/html");
    page.querySelectorAll(LEFT_OUT.join(", ")).forEach(function (el) { el.remove(); });
    var main = page.querySelector('[role="main"]');
    var heading = main && main.querySelector("h1");
    if (heading) heading.remove();
    var block = anchor && main && main.querySelector(anchor);
    var own = block && block.querySelector(":scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6");
    if (own) own.remove();
    // from its first word: Sphinx cuts 120 characters before the word found, and marks a cut in the
    // blank lines before the text as "..."
    return toText(page.documentElement.outerHTML, anchor).trim();
  };

  // a hit found by no word of its text (a key, a number: Sphinx searches no text for "49135") is summed up
  // from the text's start, which Sphinx marks "..." as if it were cut there
  var summarize = Search.makeSearchSummary;
  Search.makeSearchSummary = function (htmlText, keywords, anchor) {
    var summary = summarize(htmlText, keywords, anchor);
    if (!summary) return summary;
    var text = Search.htmlToText(htmlText, anchor).toLowerCase();
    var found = Array.from(keywords).some(function (word) { return text.indexOf(word.toLowerCase()) > -1; });
    if (!found) summary.textContent = summary.textContent.replace(/^\.\.\./, "");
    return summary;
  };
})();
