/* sphinx-contributions: faceted filter for `contributions` listings marked `:filter:`.
 * The full list is in the HTML; this script only hides items. Facets (project, tag, state) are read
 * from each item's classes (contrib-project--<slug>, contrib-tag--<slug>, contrib-status--<state>);
 * the active filter lives in the URL (?project=…&tag=…&status=…) so a filtered view can be shared.
 * Every word it shows comes from the page: the JSON element #contrib-filter-labels, the extension's
 * translations (sphinx_contributions/render/filter.py); "%(name)s" in a label is filled in here.
 * No framework, no network. */
(function () {
  "use strict";

  var FACETS = [
    { name: "project", prefix: "contrib-project--" },
    { name: "tag", prefix: "contrib-tag--" },
    { name: "status", prefix: "contrib-status--" },
  ];
  var LABELS = null; // read in init()

  function fill(message, values) {
    return message.replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  function slugsOf(item, prefix) {
    var out = [];
    item.classList.forEach(function (cls) {
      if (cls.indexOf(prefix) === 0) out.push(cls.slice(prefix.length));
    });
    return out;
  }

  function labelFor(item, facet, slug) {
    if (facet.name === "project") {
      var project = item.querySelector(".contrib-project");
      return project ? project.textContent.trim() : slug;
    }
    if (facet.name === "tag") {
      var tag = item.querySelector(".contrib-facet-tag-" + slug);
      return tag ? tag.textContent.trim() : slug;
    }
    return LABELS.states[slug] || slug;
  }

  // maps keyed by slugs hold no inherited keys: a tag whose slug is "constructor" (or any other name of
  // Object.prototype) is a facet value like any other
  function emptyMap() {
    return Object.create(null);
  }

  function readState() {
    var params = new URLSearchParams(window.location.search);
    var state = emptyMap();
    FACETS.forEach(function (facet) {
      state[facet.name] = params.get(facet.name) || "";
    });
    return state;
  }

  function writeState(state) {
    var params = new URLSearchParams(window.location.search);
    FACETS.forEach(function (facet) {
      if (state[facet.name]) params.set(facet.name, state[facet.name]);
      else params.delete(facet.name);
    });
    var query = params.toString();
    var url = window.location.pathname + (query ? "?" + query : "") + window.location.hash;
    window.history.pushState(state, "", url);
  }

  function setup(listing, index) {
    var items = Array.prototype.slice.call(listing.querySelectorAll(".contrib-item"));
    if (!items.length) return;
    // a short list (contrib-filter-quiet: fewer write-ups than contributions_filter_min) shows no controls,
    // unless the address asks for a filter (a tag's link to the list: ?tag=…)
    var asked = readState();
    if (listing.classList.contains("contrib-filter-quiet") &&
        !FACETS.some(function (facet) { return asked[facet.name]; })) return;
    var values = emptyMap();
    FACETS.forEach(function (facet) {
      values[facet.name] = emptyMap();
      items.forEach(function (item) {
        slugsOf(item, facet.prefix).forEach(function (slug) {
          if (!(slug in values[facet.name])) values[facet.name][slug] = labelFor(item, facet, slug);
        });
      });
    });

    // the controls sit in a disclosure: open on a wide screen or when a filter is active, closed on a
    // phone, so that the first write-up is not pushed off the first screen
    var panel = document.createElement("div");
    panel.className = "contrib-facets";
    panel.setAttribute("role", "search");
    panel.setAttribute("aria-label", LABELS.panel);
    var disclosure = document.createElement("details");
    var summary = document.createElement("summary");
    summary.textContent = LABELS.disclosure;
    disclosure.appendChild(summary);
    var body = document.createElement("div");
    body.className = "contrib-facets-body";
    disclosure.appendChild(body);
    panel.appendChild(disclosure);
    var buttons = [];
    var groups = [];

    FACETS.forEach(function (facet) {
      var slugs = Object.keys(values[facet.name]).sort(function (a, b) {
        return values[facet.name][a].localeCompare(values[facet.name][b]);
      });
      // no button for a state not stated: "not stated" is no state to choose
      if (facet.name === "status") slugs = slugs.filter(function (slug) { return slug !== "unstated"; });
      if (slugs.length < 2 && facet.name !== "tag") return;
      var fieldset = document.createElement("fieldset");
      var legend = document.createElement("legend");
      legend.textContent = LABELS.legend[facet.name];
      fieldset.appendChild(legend);
      [""].concat(slugs).forEach(function (slug) {
        var button = document.createElement("button");
        button.type = "button";
        button.dataset.facet = facet.name;
        button.dataset.value = slug;
        button.textContent = slug ? values[facet.name][slug] : LABELS.all;
        if (!slug) button.setAttribute("aria-label", LABELS.all_of[facet.name]);
        fieldset.appendChild(button);
        buttons.push(button);
      });
      body.appendChild(fieldset);
      groups.push(facet.name);
    });
    // the disclosure names the groups it holds ("Filter by project or tag": no state group where the
    // write-ups state fewer than two states)
    summary.textContent = (LABELS.disclosure_of || {})[groups.join(" ")] || LABELS.disclosure;

    var reset = document.createElement("button");
    reset.type = "button";
    reset.className = "contrib-reset";
    reset.textContent = LABELS.reset;
    var status = document.createElement("p");
    status.className = "contrib-facet-status";
    status.id = "contrib-facet-status-" + index;
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    body.appendChild(reset);
    panel.appendChild(status);
    listing.parentNode.insertBefore(panel, listing);

    function apply(state) {
      var unknown = [];  // what the address asked for that no write-up has: said, and all are shown
      FACETS.forEach(function (facet) {
        if (state[facet.name] && !(state[facet.name] in values[facet.name])) {
          unknown.push(fill((LABELS.unknown_of || {})[facet.name] || "", { value: state[facet.name] }));
          state[facet.name] = "";
        }
      });
      var shown = 0;
      items.forEach(function (item) {
        var visible = FACETS.every(function (facet) {
          return !state[facet.name] || slugsOf(item, facet.prefix).indexOf(state[facet.name]) !== -1;
        });
        item.hidden = !visible;
        if (visible) shown += 1;
      });
      buttons.forEach(function (button) {
        button.setAttribute("aria-pressed", String(state[button.dataset.facet] === button.dataset.value));
      });
      var active = FACETS.filter(function (facet) { return state[facet.name]; }).map(function (facet) {
        return fill(LABELS.filter, { facet: LABELS.legend[facet.name], value: values[facet.name][state[facet.name]] });
      });
      reset.disabled = active.length === 0;
      status.textContent = (unknown.length ? unknown.join(" ") + " " : "") +
        fill(LABELS.showing, { shown: shown, total: items.length }) + " " +
        (active.length ? fill(LABELS.active, { filters: active.join(", ") }) : LABELS.none_active);
      return state;
    }

    var state = apply(readState());
    var active = FACETS.some(function (facet) { return state[facet.name]; });
    disclosure.open = active || window.matchMedia("(min-width: 40em)").matches;
    panel.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      if (button === reset) {
        FACETS.forEach(function (facet) { state[facet.name] = ""; });
      } else {
        var facet = button.dataset.facet;
        state[facet] = state[facet] === button.dataset.value ? "" : button.dataset.value;
      }
      state = apply(state);
      writeState(state);
    });
    window.addEventListener("popstate", function () {
      state = apply(readState());
    });
  }

  function init() {
    var labels = document.getElementById("contrib-filter-labels");
    if (!labels) return; // no words, no controls: the full list stays
    LABELS = JSON.parse(labels.textContent);
    document.querySelectorAll(".contrib-listing.contrib-filterable").forEach(setup);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
