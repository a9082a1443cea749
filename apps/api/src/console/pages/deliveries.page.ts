import type { DeliveryDetail, DeliverySummary, DeliveryAttempt } from '#core/notices/delivery-history/delivery-history.service.js';
import { DELIVERY_STANDINGS } from '#core/notices/delivery-history/delivery-history.service.js';
import type { Flash } from '../console-flow.js';
import type { EndpointsOwner } from '../endpoints-owner.js';
import { html, type SafeHtml } from '../html.js';
import type { MessageKey } from '../i18n/messages.en.js';
import { csrfField, page, table, when, type PageFrame } from './layout.js';
import { notices } from './keys.page.js';

export interface DeliveryFilters {
  eventType?: string;
  outcome?: string;
  endpointId?: string;
}

const OUTCOME_KEYS: Record<(typeof DELIVERY_STANDINGS)[number], MessageKey> = {
  delivered: 'deliveries.delivered',
  retrying: 'deliveries.retrying',
  failed: 'deliveries.failed',
  pending: 'deliveries.pending',
};

function outcome(frame: PageFrame, delivery: DeliverySummary): SafeHtml {
  const { t } = frame;
  const words = t.t(OUTCOME_KEYS[delivery.outcome]);
  const next =
    delivery.outcome === 'retrying' && delivery.nextAttemptAt
      ? html` · ${t.t('deliveries.nextAt')} ${when(frame, delivery.nextAttemptAt)}`
      : '';
  const again = delivery.sentAgain ? html` · ${t.t('deliveries.sentAgain', { schedule: delivery.sentAgain.schedule })}` : '';
  return html`<span class="outcome ${delivery.outcome}">${words}</span>${next}${again}`;
}

/** A link to the same list with other filters or the next page. */
export function listLink(base: string, filters: DeliveryFilters, cursor?: string): string {
  const query = new URLSearchParams();
  if (filters.eventType) query.set('eventType', filters.eventType);
  if (filters.outcome) query.set('outcome', filters.outcome);
  if (filters.endpointId) query.set('endpoint', filters.endpointId);
  if (cursor) query.set('cursor', cursor);
  const text = query.toString();
  return text === '' ? base : `${base}?${text}`;
}

function filterForm(frame: PageFrame, base: string, filters: DeliveryFilters, eventTypes: readonly string[]): SafeHtml {
  const { t } = frame;
  return html`<form method="get" action="${base}" class="filters" role="search" aria-label="${t.t('deliveries.filters')}">
    ${filters.endpointId ? html`<input type="hidden" name="endpoint" value="${filters.endpointId}" />` : ''}
    <div class="field">
      <label for="filter-type">${t.t('deliveries.eventType')}</label>
      <select id="filter-type" name="eventType">
        <option value="">${t.t('deliveries.any')}</option>
        ${eventTypes.map((type) => html`<option value="${type}" ${type === filters.eventType ? html` selected` : ''}>${type}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for="filter-outcome">${t.t('deliveries.outcome')}</label>
      <select id="filter-outcome" name="outcome">
        <option value="">${t.t('deliveries.any')}</option>
        ${DELIVERY_STANDINGS.map((o) => html`<option value="${o}" ${o === filters.outcome ? html` selected` : ''}>${t.t(OUTCOME_KEYS[o])}</option>`)}
      </select>
    </div>
    <button type="submit" class="secondary">${t.t('deliveries.filter')}</button>
    ${filters.eventType || filters.outcome || filters.endpointId ? html`<a href="${base}">${t.t('deliveries.clear')}</a>` : ''}
  </form>`;
}

export function deliveriesPage(
  frame: PageFrame,
  owner: EndpointsOwner,
  deliveries: DeliverySummary[],
  nextCursor: string | null,
  filters: DeliveryFilters,
  eventTypes: readonly string[],
  flashes: Flash[],
): string {
  const { t } = frame;
  const base = `${owner.base}/deliveries`;
  const rows = deliveries.map((d) => [
    html`<a href="${base}/${d.deliveryId}"
      ><code>${d.eventType}</code><span class="visually-hidden"> ${t.t('deliveries.details')}</span></a
    >`,
    when(frame, d.occurredAt),
    html`<span class="wrap">${d.endpoint.url}</span>`,
    outcome(frame, d),
    html`${d.attemptCount}`,
    d.lastAttempt
      ? html`${d.lastAttempt.statusCode ?? t.t('deliveries.noAnswer')} · ${t.t('deliveries.ms', { ms: d.lastAttempt.durationMs })}`
      : html`—`,
  ]);
  return page(
    frame,
    html`${notices(frame, flashes)}
      <p>${t.t('deliveries.intro')}</p>
      ${filterForm(frame, base, filters, eventTypes)}
      ${table(
        frame,
        t.t('deliveries.title'),
        [
          t.t('deliveries.event'),
          t.t('deliveries.occurred'),
          t.t('deliveries.endpoint'),
          t.t('deliveries.outcome'),
          t.t('deliveries.attempts'),
          t.t('deliveries.last'),
        ],
        rows,
      )}
      ${nextCursor ? html`<p><a href="${listLink(base, filters, nextCursor)}">${t.t('deliveries.older')}</a></p>` : ''}`,
  );
}

function headersText(headers: [string, string][]): string {
  return headers.map(([name, value]) => `${name}: ${value}`).join('\n');
}

function attemptBlock(frame: PageFrame, attempt: DeliveryAttempt, open: boolean): SafeHtml {
  const { t } = frame;
  const status = attempt.statusCode === null ? t.t('deliveries.noAnswer') : String(attempt.statusCode);
  return html`<details class="attempt" ${open ? html` open` : ''}>
    <summary>
      ${t.t('deliveries.attemptN', { n: attempt.number, schedule: attempt.schedule })} · ${when(frame, attempt.attemptedAt)} · ${status} ·
      ${t.t('deliveries.ms', { ms: attempt.durationMs })}
    </summary>
    ${attempt.error ? html`<p class="field-error">${t.fieldMessage(attempt.error)}</p>` : ''}
    <h3>${t.t('deliveries.request')}</h3>
    ${
      attempt.request
        ? html`<p><code class="wrap">POST ${attempt.request.url}</code></p>
            <pre aria-label="${t.t('deliveries.requestHeaders')}">${headersText(attempt.request.headers)}</pre>
            ${attempt.request.body === null ? html`<p>${t.t('deliveries.bodyUnavailable')}</p>` : html`<pre aria-label="${t.t('deliveries.requestBody')}">${attempt.request.body}</pre>`}`
        : html`<p>${t.t('deliveries.nothingSent')}</p>`
    }
    <h3>${t.t('deliveries.response')}</h3>
    ${
      attempt.statusCode === null
        ? html`<p>${t.t('deliveries.noAnswer')}</p>`
        : html`<p>${t.t('deliveries.status', { status: attempt.statusCode })}</p>
            ${attempt.responseExcerpt ? html`<pre aria-label="${t.t('deliveries.responseBody')}">${attempt.responseExcerpt}</pre>` : html`<p>${t.t('deliveries.emptyBody')}</p>`}`
    }
  </details>`;
}

export function deliveryPage(frame: PageFrame, owner: EndpointsOwner, delivery: DeliveryDetail, flashes: Flash[]): string {
  const { t } = frame;
  const base = `${owner.base}/deliveries`;
  const attempts = delivery.attempts.map((attempt, index) => attemptBlock(frame, attempt, index === delivery.attempts.length - 1));
  return page(
    frame,
    html`${notices(frame, flashes)}
      <dl>
        <dt>${t.t('deliveries.event')}</dt>
        <dd><code>${delivery.eventType}</code> (<code>${delivery.noticeId}</code>)</dd>
        <dt>${t.t('deliveries.occurred')}</dt>
        <dd>${when(frame, delivery.occurredAt)}</dd>
        <dt>${t.t('deliveries.endpoint')}</dt>
        <dd><a href="${owner.base}/webhooks/${delivery.endpoint.id}" class="wrap">${delivery.endpoint.url}</a></dd>
        <dt>${t.t('deliveries.outcome')}</dt>
        <dd>${outcome(frame, delivery)}</dd>
      </dl>
      ${
        delivery.canSendAgain
          ? html`<form method="post" action="${base}/${delivery.deliveryId}/send-again" class="actions">
              ${csrfField(frame)}<button type="submit" class="secondary">${t.t('deliveries.sendAgain')}</button>
            </form>`
          : ''
      }
      <h2>${t.t('deliveries.attempts')}</h2>
      ${attempts.length > 0 ? attempts : html`<p>${t.t('deliveries.noAttempts')}</p>`}
      <p><a href="${listLink(base, { endpointId: delivery.endpoint.id })}">${t.t('endpoint.itsDeliveries')}</a></p>`,
  );
}
