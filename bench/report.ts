import type { Figure } from './harness/figures.js';
import type { ScenarioReport } from './harness/bench.js';

const OPS: Record<string, string> = { '>=': '≥', '<=': '≤', '==': '=' };

function format(value: number): string {
  return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : String(value);
}

function cells(f: Figure): string[] {
  return [
    f.scenario,
    f.name,
    `${format(f.median)}${f.unit === 'ratio' || f.unit === 'share' || f.unit === 'count' ? '' : ` ${f.unit}`}`,
    f.spread ? `${format(f.spread[0])}–${format(f.spread[1])}` : '',
    f.target ? `${OPS[f.target.op]} ${f.target.value}` : '',
    f.met === null ? '' : f.met ? 'met' : 'MISSED',
  ];
}

const HEADER = ['', 'figure', 'median', 'spread (min–max)', 'target', ''];

/** The figures as an aligned text table, for the terminal. */
export function textTable(scenarios: ScenarioReport[]): string {
  const rows = [HEADER, ...scenarios.flatMap((s) => s.figures.map(cells))];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The figures as a Markdown table, for docs/performance.md. */
export function markdownTable(scenarios: ScenarioReport[]): string {
  const rows = scenarios.flatMap((s) => s.figures.map(cells));
  return [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

/** Each missed target, and the top costs of every profile taken, for the terminal and the README. */
export function costsSummary(scenarios: ScenarioReport[]): string {
  const lines: string[] = [];
  for (const scenario of scenarios) {
    const missed = scenario.figures.filter((f) => f.met === false);
    if (missed.length > 0) {
      lines.push(
        `${scenario.id} missed: ${missed.map((f) => `${f.name} = ${f.median} (target ${OPS[f.target!.op]} ${f.target!.value})`).join('; ')}`,
      );
    }
    const profile = scenario.profile;
    if (!profile) continue;
    lines.push(
      `${scenario.id} profile, ${profile.of}: ${profile.statementsPerRequest} SQL statements per request; ` +
        `${profile.summary.busyMs} ms sampled for ${profile.cpuMs} ms of CPU; self time by area:`,
    );
    for (const line of profile.summary.byArea.slice(0, 6)) lines.push(`    ${(line.share * 100).toFixed(1)}%  ${line.what}`);
    lines.push('  top functions (self time):');
    for (const line of profile.summary.topFunctions.slice(0, 6)) lines.push(`    ${(line.share * 100).toFixed(1)}%  ${line.what}`);
    const allocation = profile.allocation;
    if (!allocation) continue;
    lines.push(`  allocated: ${Math.round(allocation.bytesPerRequest / 1024)} KB per request; by area:`);
    for (const line of allocation.byArea.slice(0, 6)) lines.push(`    ${(line.share * 100).toFixed(1)}%  ${line.what}`);
    lines.push('  top functions (bytes allocated):');
    for (const line of allocation.topFunctions.slice(0, 8)) lines.push(`    ${(line.share * 100).toFixed(1)}%  ${line.what}`);
  }
  return lines.join('\n');
}
