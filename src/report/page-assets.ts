/**
 * The report's own CSS and script, written once to report/assets/ and loaded
 * by every page by relative path (no libraries besides vendor.js, which the
 * script loads only when the first chart scrolls into view).
 */

export const REPORT_STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.2em 1.5em; color: #222; max-width: 1400px; }
h1 { margin: 0 0 .2em; font-size: 1.5em; } h1 small, h2 small { color: #777; font-weight: normal; }
a { color: #0b57a4; }
nav.crumbs { margin-bottom: .6em; }
.links a { margin-right: 1em; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.chart { min-height: 80px; overflow-x: auto; }
.count-tables { display: flex; flex-wrap: wrap; gap: 2em; margin-top: 1em; align-items: flex-start; }
table { border-collapse: collapse; }
table.counts caption { text-align: left; font-weight: bold; }
table.counts td { padding: 1px 8px; border-bottom: 1px solid #eee; }
table.counts td:not(:first-child) { text-align: right; }
table.sortable { font-size: 13px; }
table.sortable th { cursor: pointer; background: #f3f3f3; text-align: left; position: sticky; top: 0; padding: 3px 6px; }
table.sortable th[aria-sort=ascending]::after { content: " ▲"; }
table.sortable th[aria-sort=descending]::after { content: " ▼"; }
table.sortable td { padding: 2px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
table.sortable td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable td.msg { min-width: 24em; }
table.sortable td.id { white-space: nowrap; font-family: ui-monospace, monospace; font-size: 12px; }
.sev-major { color: #b33000; font-weight: bold; } .sev-minor { color: #8a6100; } .sev-info { color: #555; }
.badge { display: inline-block; padding: 0 .5em; border-radius: .8em; font-size: 12px; background: #eee; margin-right: .3em; }
.badge.major { background: #fbe3d6; color: #8a2500; } .badge.minor { background: #fdf0d0; color: #6b4b00; }
.badge.accepted { background: #dff2e1; color: #1d5e27; } .badge.reopened { background: #e9ddf7; color: #4b2380; }
.tools { margin: .6em 0; } .tools input { width: 26em; }
article.finding { border: 1px solid #ddd; border-left: 4px solid #aaa; border-radius: 4px; padding: .5em .8em; margin: .8em 0; }
article.finding.sev-major { border-left-color: #D55E00; font-weight: normal; color: inherit; }
article.finding.sev-minor { border-left-color: #E69F00; color: inherit; }
article.finding header { display: flex; flex-wrap: wrap; gap: .6em; align-items: baseline; }
article.finding header .fid { color: #666; font-family: ui-monospace, monospace; font-size: 12px; margin-left: auto; }
article.finding .msg { margin: .3em 0; }
article.finding dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 1em; margin: .4em 0; font-size: 13px; }
article.finding dt { color: #555; } article.finding dd { margin: 0; }
.rec { font-family: ui-monospace, monospace; margin-right: .8em; white-space: nowrap; }
.normed { color: #777; font-size: 12px; }
.culprit { font-weight: bold; }
details.group > summary { cursor: pointer; font-size: 1.15em; font-weight: bold; margin: 1em 0 .4em; }
[hidden] { display: none !important; }
`;

/**
 * Sortable, searchable tables; a text filter over the finding cards; charts
 * drawn when scrolled into view (IntersectionObserver), vendor.js loaded on
 * the first one, so a page with hundreds of findings opens at once and a
 * page without charts on screen never parses vega.
 */
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var scripts = document.getElementsByTagName('script');
  var self = document.currentScript || scripts[scripts.length - 1];
  var vendorUrl = new URL('vendor.js', self.src).href;
  var specsEl = document.getElementById('qa-specs');
  var specs = specsEl ? JSON.parse(specsEl.textContent) : {};
  var vendorState = 'none', waiting = [];

  function loadVendor(then) {
    if (vendorState === 'loaded') return then();
    waiting.push(then);
    if (vendorState === 'loading') return;
    vendorState = 'loading';
    var s = document.createElement('script');
    s.src = vendorUrl;
    s.onload = function () { vendorState = 'loaded'; var w = waiting; waiting = []; w.forEach(function (f) { f(); }); };
    s.onerror = function () { console.error('could not load ' + vendorUrl); };
    document.head.appendChild(s);
  }
  function draw(el) {
    if (el.dataset.drawn) return;
    el.dataset.drawn = '1';
    loadVendor(function () {
      var spec = specs[el.dataset.chart];
      if (!spec) { el.textContent = 'no chart ' + el.dataset.chart; return; }
      vegaEmbed(el, spec, { actions: false, renderer: 'svg' }).then(function () { el.dataset.rendered = '1'; }).catch(function (err) {
        el.textContent = 'chart failed: ' + err;
        console.error(err);
      });
    });
  }
  // Charts start after the page has loaded: the findings are readable at once, vega (1 MB) comes next.
  function observeCharts() {
    var charts = Array.prototype.slice.call(document.querySelectorAll('[data-chart]'));
    if (!('IntersectionObserver' in window)) return charts.forEach(draw);
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) { observer.unobserve(e.target); draw(e.target); } });
    }, { rootMargin: '300px' });
    charts.forEach(function (el) { observer.observe(el); });
  }
  if (document.readyState === 'complete') observeCharts();
  else window.addEventListener('load', observeCharts);

  function terms(input) { return input.value.toLowerCase().split(/\\s+/).filter(Boolean); }
  function matches(el, t) { var text = el.textContent.toLowerCase(); return t.every(function (w) { return text.indexOf(w) >= 0; }); }

  Array.prototype.forEach.call(document.querySelectorAll('input.filter'), function (input) {
    var target = document.getElementById(input.dataset.target);
    var label = document.querySelector('.shown[data-target="' + input.dataset.target + '"]');
    var items = function () { return target.tagName === 'TABLE' ? Array.prototype.slice.call(target.tBodies[0].rows) : Array.prototype.slice.call(target.querySelectorAll('article.finding')); };
    function update() {
      var t = terms(input), all = items(), shown = 0;
      all.forEach(function (el) { el.hidden = !matches(el, t); if (!el.hidden) shown++; });
      if (t.length) Array.prototype.forEach.call(target.querySelectorAll('details.group'), function (d) { d.open = true; });
      if (label) label.textContent = shown + ' of ' + all.length + ' ' + (input.dataset.noun || 'rows');
    }
    input.addEventListener('input', update);
    update();
  });

  function sortKey(cell) { var n = cell.dataset.sort; return n !== undefined ? Number(n) : cell.textContent.toLowerCase(); }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable th'), function (th) {
    function sort() {
      var table = th.closest('table'), body = table.tBodies[0], index = th.cellIndex;
      var ascending = th.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = sortKey(a.cells[index]), y = sortKey(b.cells[index]);
        var c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return ascending ? c : -c;
      });
      var frag = document.createDocumentFragment();
      rows.forEach(function (r) { frag.appendChild(r); });
      body.appendChild(frag);
    }
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });
  });
})();
`;
