import type { ConsoleAuditEntryEntity } from '#database/entities/console-audit-entry.entity.js';
import { html } from '../html.js';
import { page, table, when, type PageFrame } from './layout.js';

export function auditPage(frame: PageFrame, entries: ConsoleAuditEntryEntity[]): string {
  const { t } = frame;
  const rows = entries.map((entry) => [
    when(frame, entry.createdAt),
    html`${entry.actorEmail}`,
    html`<code>${entry.action}</code>`,
    html`${entry.subject}`,
    html`${entry.address}`,
  ]);
  return page(
    frame,
    html`<p>${t.t('audit.intro')}</p>
      ${table(frame, t.t('audit.title'), [t.t('audit.when'), t.t('audit.who'), t.t('audit.what'), t.t('audit.on'), t.t('audit.from')], rows)}`,
  );
}
