import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import type { EndpointAttempt } from '#core/notices/delivery/notice-deliveries.repository.js';
import type { TestPingResult } from '#core/notices/endpoints/webhook-test-ping.service.js';
import type { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';
import { html, type SafeHtml } from '../html.js';
import { NO_INTEGRATIONS } from '../plan-integrations.js';
import { businessPath, csrfField, message, page, shownOnce, table, when, type PageFrame } from './layout.js';

/** Whose endpoints a page shows: the live business's or its sandbox's, and where its pages are. */
export interface EndpointsOwner {
  businessId: string;
  /** The business its notices name: the live one's slug, for the sandbox too. */
  slug: string;
  /** The live business: test pings are counted for it and its sandbox together. */
  tenantId: string;
  /** The console path of the owner's endpoint list. */
  path: string;
  sandbox: boolean;
}

function status(endpoint: WebhookEndpointEntity): string {
  if (endpoint.enabled) return endpoint.failingSince ? `enabled, failing since ${when(endpoint.failingSince)}` : 'enabled';
  return endpoint.disabledReason ? `disabled (${endpoint.disabledReason})` : 'disabled';
}

function createForm(frame: PageFrame, path: string, eventTypes: readonly string[]): SafeHtml {
  const events = eventTypes.map(
    (type) =>
      html`<label class="choice"
        ><input type="checkbox" name="events" value="${type}" /><span><code>${type}</code></span></label
      >`,
  );
  const versions = API_VERSIONS.map((v) => html`<option value="${v}" ${v === CURRENT_API_VERSION ? html` selected` : ''}>${v}</option>`);
  return html`<h2>Register an endpoint</h2>
    <form method="post" action="${path}" class="stack">
      ${csrfField(frame)}
      <label for="endpoint-url">Address (https)</label>
      <input id="endpoint-url" name="url" type="url" required maxlength="2048" placeholder="https://example.com/notices" />
      <label for="endpoint-description">Description (optional)</label>
      <input id="endpoint-description" name="description" type="text" maxlength="200" />
      <fieldset>
        <legend>Events</legend>
        ${events}
      </fieldset>
      <label for="endpoint-version">API version of its notices</label>
      <select id="endpoint-version" name="apiVersion">
        ${versions}
      </select>
      <button type="submit">Register endpoint</button>
    </form>`;
}

export function webhooksPage(
  frame: PageFrame,
  owner: EndpointsOwner,
  endpoints: WebhookEndpointEntity[],
  eventTypes: readonly string[],
  canCreate: boolean,
  created?: WebhookEndpointEntity,
  notice?: string,
): string {
  const path = owner.path;
  const rows = endpoints.map(
    (e) =>
      html`<tr>
        <td><a href="${path}/${e.id}">${e.url}</a></td>
        <td>${e.events.join(', ')}</td>
        <td>${e.apiVersion}</td>
        <td>${status(e)}</td>
      </tr>`,
  );
  return page(
    frame,
    html`${notice ? message('success', notice) : ''}
      ${created ? html`${message('success', html`Endpoint <a href="${path}/${created.id}">${created.url}</a> registered.`)}${shownOnce('new-secret', 'Its signing secret', created.secret)}` : ''}
      ${canCreate ? '' : message('info', NO_INTEGRATIONS)} ${owner.sandbox ? sandboxIntro(frame) : liveIntro(frame)}
      <h2>Endpoints</h2>
      ${table('Webhook endpoints', ['Address', 'Events', 'API version', 'Status'], rows)}
      ${canCreate ? createForm(frame, path, eventTypes) : ''}`,
  );
}

/** Where the other side's endpoints are. */
function liveIntro(frame: PageFrame): SafeHtml {
  return html`<p>
    The live business's endpoints. Notices of the sandbox (test keys) go to
    <a href="${businessPath(frame.membership!, '/test-mode/webhooks')}">the sandbox's endpoints</a>.
  </p>`;
}

function sandboxIntro(frame: PageFrame): SafeHtml {
  return html`<p>
    The sandbox's endpoints receive the notices of test keys (<code>rk_test_</code>), marked <code>"mode": "test"</code>; resetting the
    sandbox removes them. <a href="${businessPath(frame.membership!, '/webhooks')}">The live business's endpoints</a>,
    <a href="${businessPath(frame.membership!, '/test-mode')}">test mode</a>.
  </p>`;
}

function pingResult(result: TestPingResult): SafeHtml {
  const outcome = result.delivered
    ? `Test ping delivered: the endpoint answered ${result.statusCode}.`
    : `Test ping not delivered: ${result.statusCode !== null ? `the endpoint answered ${result.statusCode}` : (result.error ?? 'no answer')}.`;
  return message(result.delivered ? 'success' : 'error', outcome);
}

function attemptRow(frame: PageFrame, path: string, attempt: EndpointAttempt): SafeHtml {
  const outcome =
    attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300
      ? 'delivered'
      : attempt.final
        ? 'failed'
        : 'will retry';
  return html`<tr>
    <td>${when(attempt.attemptedAt)}</td>
    <td><code>${attempt.eventType}</code></td>
    <td>${attempt.attempt}</td>
    <td>${outcome}${attempt.statusCode !== null ? ` (${attempt.statusCode})` : attempt.error ? ` (${attempt.error})` : ''}</td>
    <td>${attempt.final ? '—' : when(attempt.nextAttemptAt)}</td>
    <td>
      ${
        attempt.eventType === 'webhook.test'
          ? '—'
          : html`<form method="post" action="${path}/redeliver" class="inline">
              ${csrfField(frame)}<input type="hidden" name="event" value="${attempt.eventId}" /><button type="submit" class="secondary">
                Redeliver<span class="visually-hidden"> ${attempt.eventType} of ${when(attempt.attemptedAt)}</span>
              </button>
            </form>`
      }
    </td>
  </tr>`;
}

export interface EndpointPageExtras {
  ping?: TestPingResult;
  secret?: string;
  notice?: string;
}

export function endpointPage(
  frame: PageFrame,
  owner: EndpointsOwner,
  endpoint: WebhookEndpointEntity,
  attempts: EndpointAttempt[],
  extras: EndpointPageExtras = {},
): string {
  const path = `${owner.path}/${endpoint.id}`;
  const rows = attempts.map((attempt) => attemptRow(frame, path, attempt));
  return page(
    frame,
    html`${extras.notice ? message('success', extras.notice) : ''} ${extras.ping ? pingResult(extras.ping) : ''}
      ${extras.secret ? shownOnce('new-secret', 'The new signing secret (the old one stays valid for 24 hours)', extras.secret) : ''}
      <dl>
        <dt>Address</dt>
        <dd><code>${endpoint.url}</code></dd>
        <dt>Events</dt>
        <dd>${endpoint.events.join(', ')}</dd>
        <dt>API version</dt>
        <dd>${endpoint.apiVersion}</dd>
        <dt>Status</dt>
        <dd>${status(endpoint)}</dd>
        <dt>Registered</dt>
        <dd>${when(endpoint.createdAt)}</dd>
      </dl>
      <div class="actions">
        <form method="post" action="${path}/test" class="inline">${csrfField(frame)}<button type="submit">Send a test ping</button></form>
        <form method="post" action="${path}/rotate-secret" class="inline">
          ${csrfField(frame)}<button type="submit" class="secondary">Rotate the secret</button>
        </form>
        <form method="post" action="${path}/${endpoint.enabled ? 'disable' : 'enable'}" class="inline">
          ${csrfField(frame)}<button type="submit" class="secondary">${endpoint.enabled ? 'Disable' : 'Enable'}</button>
        </form>
        <a href="${path}/delete">Delete…</a>
      </div>
      <h2>Deliveries</h2>
      ${table('Delivery attempts', ['Attempted', 'Event', 'Attempt', 'Outcome', 'Next attempt', 'Redeliver'], rows)}
      <p><a href="${owner.path}">All ${owner.sandbox ? 'sandbox ' : ''}endpoints</a></p>`,
  );
}

export function deleteConfirmPage(frame: PageFrame, owner: EndpointsOwner, endpoint: WebhookEndpointEntity): string {
  const path = `${owner.path}/${endpoint.id}`;
  return page(
    frame,
    html`<p>Delete the endpoint <code>${endpoint.url}</code>? No notice is sent to it after this, and its delivery log goes with it.</p>
      <form method="post" action="${path}/delete" class="actions">
        ${csrfField(frame)}<button type="submit" class="danger">Delete the endpoint</button><a href="${path}">Cancel</a>
      </form>`,
  );
}
