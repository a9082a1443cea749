import type { EventView } from '#core/notices/event-log/event-view.js';
import type { Flash } from '../console-flow.js';
import type { EndpointsOwner } from '../endpoints-owner.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, page, table, when, type PageFrame } from './layout.js';
import { notices } from './keys.page.js';

export interface EventFilters {
  type?: string;
  resourceId?: string;
}

export function eventsLink(base: string, filters: EventFilters, cursor?: string): string {
  const query = new URLSearchParams();
  if (filters.type) query.set('type', filters.type);
  if (filters.resourceId) query.set('resource', filters.resourceId);
  if (cursor) query.set('cursor', cursor);
  const text = query.toString();
  return text === '' ? base : `${base}?${text}`;
}

function filterForm(frame: PageFrame, base: string, filters: EventFilters, types: readonly string[]): SafeHtml {
  const { t } = frame;
  return html`<form method="get" action="${base}" class="filters" role="search" aria-label="${t.t('events.filters')}">
    <div class="field">
      <label for="filter-type">${t.t('deliveries.eventType')}</label>
      <select id="filter-type" name="type">
        <option value="">${t.t('deliveries.any')}</option>
        ${types.map((type) => html`<option value="${type}" ${type === filters.type ? html` selected` : ''}>${type}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for="filter-resource">${t.t('events.resource')}</label>
      <input id="filter-resource" name="resource" type="text" value="${filters.resourceId ?? ''}" maxlength="36" />
    </div>
    <button type="submit" class="secondary">${t.t('deliveries.filter')}</button>
    ${filters.type || filters.resourceId ? html`<a href="${base}">${t.t('deliveries.clear')}</a>` : ''}
  </form>`;
}

const resourceOf = (event: EventView): string => {
  const id = (event.data as { id?: unknown }).id;
  return typeof id === 'string' ? id : '—';
};

export function eventsPage(
  frame: PageFrame,
  owner: EndpointsOwner,
  events: EventView[],
  nextCursor: string | null,
  filters: EventFilters,
  types: readonly string[],
  flashes: Flash[],
): string {
  const { t } = frame;
  const base = `${owner.base}/events`;
  const rows = events.map((event) => [
    when(frame, event.createdAt),
    html`<code>${event.type}</code>`,
    html`<a href="${eventsLink(base, { resourceId: resourceOf(event) })}"><code class="wrap">${resourceOf(event)}</code></a>`,
    html`${t.t('events.counts', { delivered: event.deliveries.delivered, pending: event.deliveries.pending, failed: event.deliveries.failed })}`,
    html`<details>
        <summary>${t.t('events.body')}<span class="visually-hidden"> ${event.id}</span></summary>
        <pre>${JSON.stringify(event, null, 2)}</pre>
      </details>
      <form method="post" action="${base}/${event.id}/send-again" class="inline">
        ${csrfField(frame)}<button type="submit" class="secondary">
          ${t.t('events.sendAgain')}<span class="visually-hidden"> ${event.type} ${event.id}</span>
        </button>
      </form>`,
  ]);
  return page(
    frame,
    html`${notices(frame, flashes)}
      <p>${t.t('events.intro')}</p>
      ${filterForm(frame, base, filters, types)}
      ${table(frame, t.t('events.title'), [t.t('events.created'), t.t('deliveries.event'), t.t('events.resource'), t.t('events.deliveries'), t.t('keys.actions')], rows)}
      ${nextCursor ? html`<p><a href="${eventsLink(base, filters, nextCursor)}">${t.t('deliveries.older')}</a></p>` : ''}`,
  );
}
