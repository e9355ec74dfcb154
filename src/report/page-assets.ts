/** The report page's own CSS and script (no libraries besides the inlined vega builds). */

export const REPORT_STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { margin: 0 0 .2em; } h2 small { color: #777; font-weight: normal; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.chart { min-height: 60px; }
.count-tables { display: flex; flex-wrap: wrap; gap: 2em; margin-top: 1em; }
table { border-collapse: collapse; }
table.counts caption { text-align: left; font-weight: bold; }
table.counts td { padding: 1px 8px; border-bottom: 1px solid #eee; }
table.findings { font-size: 12px; width: 100%; }
table.findings th { cursor: pointer; background: #f3f3f3; text-align: left; position: sticky; top: 0; }
table.findings th[aria-sort=ascending]::after { content: " ▲"; }
table.findings th[aria-sort=descending]::after { content: " ▼"; }
table.findings td, table.findings th { padding: 2px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
/* Identifiers and numbers stay on one line; the two prose columns (cause, message) take the width. */
table.findings td { white-space: nowrap; }
table.findings td:nth-last-child(-n+2) { white-space: normal; min-width: 18em; }
table.findings td:last-child { min-width: 32em; }
.sev-major { color: #b33000; font-weight: bold; } .sev-minor { color: #8a6100; } .sev-info { color: #555; }
tr.sev-major td:first-child { border-left: 3px solid #D55E00; }
tr.sev-minor td:first-child { border-left: 3px solid #E69F00; }
.table-tools { margin: .5em 0; } .table-tools input { width: 24em; }
section.study { margin-top: 2em; border-top: 1px solid #ddd; }
`;

/**
 * Draws every chart (eagerly, or when scrolled into view for large reports),
 * and wires the filter boxes and sortable headers of the findings tables.
 */
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var specs = JSON.parse(document.getElementById('qa-specs').textContent);
  var containers = Array.prototype.slice.call(document.querySelectorAll('[data-chart]'));
  function draw(el) {
    if (el.dataset.drawn) return;
    el.dataset.drawn = '1';
    vegaEmbed(el, specs[el.dataset.chart], { actions: false, renderer: 'svg' }).catch(function (err) {
      el.textContent = 'chart failed: ' + err;
      console.error(err);
    });
  }
  if (containers.length <= EAGER_CHART_LIMIT || !('IntersectionObserver' in window)) {
    containers.forEach(draw);
  } else {
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) { draw(e.target); observer.unobserve(e.target); } });
    }, { rootMargin: '400px' });
    containers.forEach(function (el) { observer.observe(el); });
  }

  function updateShown(table) {
    var rows = table.tBodies[0].rows, shown = 0;
    for (var i = 0; i < rows.length; i++) if (!rows[i].hidden) shown++;
    var label = document.querySelector('.shown[data-table="' + table.id + '"]');
    if (label) label.textContent = shown + ' of ' + rows.length + ' findings';
  }
  Array.prototype.forEach.call(document.querySelectorAll('input.filter'), function (input) {
    var table = document.getElementById(input.dataset.table);
    updateShown(table);
    input.addEventListener('input', function () {
      var terms = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var text = row.textContent.toLowerCase();
        row.hidden = !terms.every(function (t) { return text.indexOf(t) >= 0; });
      });
      updateShown(table);
    });
  });

  function sortKey(cell) {
    var n = cell.dataset.sort;
    return n !== undefined ? Number(n) : cell.textContent;
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.findings th'), function (th) {
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
      rows.forEach(function (r) { body.appendChild(r); });
    }
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });
  });
})();
`;
