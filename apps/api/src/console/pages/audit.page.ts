import type { ConsoleAuditEntryEntity } from '#database/entities/console-audit-entry.entity.js';
import { html } from '../html.js';
import { page, table, when, type PageFrame } from './layout.js';

export function auditPage(frame: PageFrame, entries: ConsoleAuditEntryEntity[]): string {
  const rows = entries.map(
    (entry) =>
      html`<tr>
        <td>${when(entry.createdAt)}</td>
        <td>${entry.actorEmail}</td>
        <td><code>${entry.action}</code></td>
        <td>${entry.subject}</td>
        <td>${entry.address}</td>
      </tr>`,
  );
  return page(
    frame,
    html`<p>Every change made in this console to this business, newest first (the latest 200).</p>
      ${table('Console changes', ['When', 'Who', 'What', 'On', 'From'], rows)}`,
  );
}
