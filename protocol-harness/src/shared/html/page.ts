// One self-contained HTML report (--html FILE): the verdict and the command line at the top, the
// tables and the charts below. uPlot, its style sheet and the data are inlined, and the page's
// Content-Security-Policy allows no fetch at all: it opens offline, from a CI artifact or a mail.
import fs from 'node:fs';
import { escapeHtml, inlineScript, inlineStyle, scriptJson } from './escape';

/** How the run ended, as the banner at the top shows it. */
export interface Verdict {
  tone: 'pass' | 'fail' | 'warn';
  /** "PASSED", "FAILED", "INTERRUPTED (SIGTERM)", … */
  headline: string;
  /** Lines under the headline: the exit status, what failed. */
  details: string[];
}

/** A line chart over seconds; every series shares the x values. */
export interface ChartSpec {
  title: string;
  xLabel: string;
  /** The unit of every series, e.g. "ms" or "msg/s". */
  yLabel: string;
  x: number[];
  series: Array<{ label: string; values: Array<number | null> }>;
  /** A fixed y range (e.g. MOS 1–5); absent: from 0 to a little above the largest value. */
  yRange?: [number, number];
}

export interface Section {
  title: string;
  /** HTML built with the helpers below (every value escaped). */
  body: string;
}

export interface PageContent {
  title: string;
  verdict: Verdict;
  commandLine: string;
  generatedAt: Date;
  /** Key facts under the verdict, e.g. the mode and the schedule. */
  summary: Array<[string, string]>;
  sections: Section[];
  charts: Array<{ section: string; charts: ChartSpec[] }>;
}

/** A table; every cell is text (escaped here). A cell may carry a tone that colours it. */
export function table(headers: string[], rows: Array<Array<string | number | { text: string; tone: Verdict['tone'] }>>, caption?: string): string {
  const cell = (c: string | number | { text: string; tone: Verdict['tone'] }, tag: 'td' | 'th') =>
    typeof c === 'object' ? `<${tag} class="${c.tone}">${escapeHtml(c.text)}</${tag}>` : `<${tag}${typeof c === 'number' ? ' class="num"' : ''}>${escapeHtml(typeof c === 'number' ? formatNumber(c) : c)}</${tag}>`;
  return (
    `<table>${caption ? `<caption>${escapeHtml(caption)}</caption>` : ''}` +
    `<thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c) => cell(c, 'td')).join('')}</tr>`).join('')}</tbody></table>`
  );
}

/** Two columns: what, and its value. */
export function facts(rows: Array<[string, string]>): string {
  return `<table class="facts"><tbody>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`;
}

/** A paragraph of escaped text. */
export function note(text: string): string {
  return `<p class="note">${escapeHtml(text)}</p>`;
}

/** Whole numbers with thousands separators, others to two decimals. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A check's pass/fail cell. */
export function passFail(ok: boolean): { text: string; tone: Verdict['tone'] } {
  return ok ? { text: '✔ pass', tone: 'pass' } : { text: '✘ fail', tone: 'fail' };
}

function uplotAsset(file: string): string {
  // Read at report time from the installed package: one file, no CDN.
  return fs.readFileSync(require.resolve(`uplot/dist/${file}`), 'utf8');
}

const STYLE = `
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --line: #d0d7de; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; padding: 16px 24px 48px; max-width: 1280px; color: #1f2328; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.verdict { border-radius: 6px; padding: 10px 14px; margin: 8px 0 12px; color: #fff; }
.verdict.pass { background: var(--pass); } .verdict.fail { background: var(--fail); } .verdict.warn { background: var(--warn); }
.verdict strong { font-size: 20px; letter-spacing: .02em; }
.verdict ul { margin: 4px 0 0; padding-left: 20px; }
code.cmd { display: block; white-space: pre-wrap; word-break: break-all; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; }
.meta { color: #59636e; font-size: 12px; }
table { border-collapse: collapse; margin: 6px 0 12px; }
caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; }
table.facts th { background: #f6f8fa; font-weight: 600; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.pass { color: var(--pass); font-weight: 600; } td.fail { color: var(--fail); font-weight: 600; } td.warn { color: var(--warn); font-weight: 600; }
.note { color: #59636e; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px; }
.chart h3 { font-size: 14px; margin: 0 0 4px; }
.chart .plot { min-height: 300px; }
@media print { .verdict { color: #000; border: 2px solid #000; } }
`;

/**
 * Draws every chart of the page from the inlined data once uPlot is loaded; the page says how many
 * it drew (data-charts-drawn on <html>), so a test or a reader can tell a chart that failed.
 */
const DRAW = `
(function () {
  var specs = JSON.parse(document.getElementById('chart-data').textContent);
  var colors = ['#0969da', '#cf222e', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#57606a'];
  var plots = [];
  specs.forEach(function (spec, i) {
    var el = document.getElementById('chart-' + i);
    var width = Math.max(320, el.clientWidth || 640);
    var opts = {
      width: width,
      height: 260,
      // From 0 unless told otherwise: a fitted axis makes 30 → 32 kbit/s look like a collapse.
      scales: { x: { time: false }, y: { range: spec.yRange || function (u, min, max) { return [0, max > 0 ? max * 1.1 : 1]; } } },
      axes: [{ label: spec.xLabel }, { label: spec.yLabel, size: 60 }],
      legend: { live: false },
      series: [{ label: spec.xLabel }].concat(spec.series.map(function (s, k) {
        return { label: s.label + ' (' + spec.yLabel + ')', stroke: colors[k % colors.length], width: 1.5 };
      })),
    };
    plots.push({ el: el, plot: new uPlot(opts, [spec.x].concat(spec.series.map(function (s) { return s.values; })), el) });
  });
  document.documentElement.setAttribute('data-charts-drawn', String(plots.length));
  window.addEventListener('resize', function () {
    plots.forEach(function (p) { p.plot.setSize({ width: Math.max(320, p.el.clientWidth), height: 260 }); });
  });
})();
`;

/** Nothing may be fetched: scripts and styles are inline, and that is all the page may use. */
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

export function renderPage(p: PageContent): string {
  const specs: ChartSpec[] = [];
  const chartBlocks = new Map<string, string>();
  for (const group of p.charts) {
    const html = group.charts
      .map((c) => {
        const id = specs.push(c) - 1;
        return `<figure class="chart"><h3>${escapeHtml(c.title)}</h3><div class="plot" id="chart-${id}"></div></figure>`;
      })
      .join('');
    chartBlocks.set(group.section, (chartBlocks.get(group.section) ?? '') + html);
  }
  const sectionHtml = (s: Section) => {
    const charts = chartBlocks.get(s.title);
    return `<section><h2>${escapeHtml(s.title)}</h2>${charts ? `<div class="charts">${charts}</div>` : ''}${s.body}</section>`;
  };
  const v = p.verdict;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${v.headline} · ${p.title}`)}</title>
<style>${inlineStyle(uplotAsset('uPlot.min.css'))}</style>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(p.title)}</h1>
<div class="verdict ${v.tone}" id="verdict"><strong>${escapeHtml(v.headline)}</strong>${v.details.length ? `<ul>${v.details.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>` : ''}</div>
<code class="cmd">${escapeHtml(p.commandLine)}</code>
<p class="meta">Written ${escapeHtml(p.generatedAt.toISOString())} by the Let's Chat protocol harness.</p>
${p.summary.length ? facts(p.summary) : ''}
</header>
<main>
${p.sections.map(sectionHtml).join('\n')}
</main>
<script type="application/json" id="chart-data">${scriptJson(specs)}</script>
<script>${inlineScript(uplotAsset('uPlot.iife.min.js'))}</script>
<script>${DRAW}</script>
</body>
</html>
`;
}

/** Writes the page; a file that cannot be written is said on stderr and does not change the exit status. */
export function writeHtml(file: string, html: string, command: string): void {
  try {
    fs.writeFileSync(file, html);
  } catch (err) {
    process.stderr.write(`${command}: cannot write ${file}: ${(err as Error).message}\n`);
  }
}
