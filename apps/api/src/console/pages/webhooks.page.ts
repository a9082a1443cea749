import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import type { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';
import type { Flash } from '../console-flow.js';
import { choiceGroup, formError, selectField, stateFor, textField, type FormState } from '../console-forms.js';
import type { EndpointsOwner } from '../endpoints-owner.js';
import { html, type SafeHtml } from '../html.js';
import { businessPath, confirmation, csrfField, message, page, table, when, type PageFrame } from './layout.js';
import { notices } from './keys.page.js';

/** The fields of the register and edit forms, as they are posted. */
export const ENDPOINT_FORM_FIELDS = ['url', 'description', 'events', 'apiVersion'] as const;

function status(frame: PageFrame, endpoint: WebhookEndpointEntity): SafeHtml {
  const { t } = frame;
  if (endpoint.enabled)
    return endpoint.failingSince
      ? html`${t.t('endpoint.failingSince')} ${when(frame, endpoint.failingSince)}`
      : html`${t.t('endpoint.enabled')}`;
  return html`${t.t('endpoint.disabled')}${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''}`;
}

function endpointFields(
  frame: PageFrame,
  state: FormState | undefined,
  eventTypes: readonly string[],
  current?: WebhookEndpointEntity,
): SafeHtml {
  const { t } = frame;
  return html`${textField(state, {
    id: 'endpoint-url',
    name: 'url',
    type: 'url',
    label: t.t('endpoint.url'),
    required: true,
    maxlength: 2048,
    placeholder: 'https://example.com/notices',
    initial: current?.url,
  })}
  ${textField(state, { id: 'endpoint-description', name: 'description', label: t.t('endpoint.description'), hint: t.t('endpoint.descriptionHint'), initial: current?.description ?? '' })}
  ${choiceGroup(state, {
    id: 'endpoint-events',
    name: 'events',
    legend: t.t('endpoint.events'),
    type: 'checkbox',
    checked: current?.events ?? [],
    choices: eventTypes.map((type) => ({ value: type, label: html`<code>${type}</code>` })),
  })}`;
}

function registerForm(frame: PageFrame, path: string, eventTypes: readonly string[], state: FormState | undefined): SafeHtml {
  const { t } = frame;
  return html`<section id="register-endpoint" aria-labelledby="register-endpoint-heading">
    <h2 id="register-endpoint-heading">${t.t('endpoint.register')}</h2>
    ${formError(state)}
    <form method="post" action="${path}" class="stack" novalidate>
      ${csrfField(frame)} ${endpointFields(frame, state, eventTypes)}
      ${selectField(state, {
        id: 'endpoint-version',
        name: 'apiVersion',
        label: t.t('endpoint.version'),
        options: API_VERSIONS.map((v) => ({ value: v, label: v })),
        selected: CURRENT_API_VERSION,
      })}
      <button type="submit">${t.t('endpoint.registerButton')}</button>
    </form>
  </section>`;
}

function sideIntro(frame: PageFrame, owner: EndpointsOwner): SafeHtml {
  const { t } = frame;
  const membership = frame.membership!;
  return owner.sandbox
    ? html`<p>${t.t('endpoint.sandboxIntro')} <a href="${businessPath(membership, '/webhooks')}">${t.t('endpoint.toLive')}</a></p>`
    : html`<p>
        ${t.t('endpoint.liveIntro')} <a href="${businessPath(membership, '/test-mode/webhooks')}">${t.t('endpoint.toSandbox')}</a>
      </p>`;
}

export function webhooksPage(
  frame: PageFrame,
  owner: EndpointsOwner,
  endpoints: WebhookEndpointEntity[],
  eventTypes: readonly string[],
  canCreate: boolean,
  flashes: Flash[],
  form: FormState | undefined,
  noIntegrations: string,
): string {
  const { t } = frame;
  const path = `${owner.base}/webhooks`;
  const rows = endpoints.map((e) => [
    html`<a href="${path}/${e.id}">${e.url}</a>`,
    html`${e.description ?? ''}`,
    html`${e.events.join(', ')}`,
    html`${e.apiVersion}`,
    status(frame, e),
  ]);
  return page(
    frame,
    html`${notices(frame, flashes)} ${canCreate ? '' : message('info', noIntegrations)} ${sideIntro(frame, owner)}
      <p><a href="${owner.base}/deliveries">${t.t('endpoint.allDeliveries')}</a></p>
      <h2>${t.t('endpoint.list')}</h2>
      ${table(frame, t.t('endpoint.list'), [t.t('endpoint.url'), t.t('endpoint.descriptionShort'), t.t('endpoint.events'), t.t('endpoint.version'), t.t('endpoint.status')], rows)}
      ${canCreate ? registerForm(frame, path, eventTypes, stateFor('register-endpoint', form)) : formError(stateFor('register-endpoint', form))}`,
  );
}

function pingResult(frame: PageFrame, flash: Extract<Flash, { kind: 'ping' }>): SafeHtml {
  const { t } = frame;
  if (flash.delivered) return message('success', t.t('endpoint.pingDelivered', { status: flash.statusCode ?? '' }));
  const why =
    flash.statusCode !== null ? t.t('endpoint.answered', { status: flash.statusCode }) : (flash.error ?? t.t('endpoint.noAnswer'));
  return message('error', t.t('endpoint.pingFailed', { why }));
}

export function endpointPage(frame: PageFrame, owner: EndpointsOwner, endpoint: WebhookEndpointEntity, flashes: Flash[]): string {
  const { t } = frame;
  const path = `${owner.base}/webhooks/${endpoint.id}`;
  const pings = flashes.filter((f): f is Extract<Flash, { kind: 'ping' }> => f.kind === 'ping').map((f) => pingResult(frame, f));
  return page(
    frame,
    html`${notices(frame, flashes)} ${pings}
      <dl>
        <dt>${t.t('endpoint.url')}</dt>
        <dd><code class="wrap">${endpoint.url}</code></dd>
        <dt>${t.t('endpoint.descriptionShort')}</dt>
        <dd>${endpoint.description ?? '—'}</dd>
        <dt>${t.t('endpoint.events')}</dt>
        <dd>${endpoint.events.join(', ')}</dd>
        <dt>${t.t('endpoint.version')}</dt>
        <dd>${endpoint.apiVersion}</dd>
        <dt>${t.t('endpoint.status')}</dt>
        <dd>${status(frame, endpoint)}</dd>
        <dt>${t.t('endpoint.registered')}</dt>
        <dd>${when(frame, endpoint.createdAt)}</dd>
      </dl>
      <div class="actions">
        <form method="post" action="${path}/test" class="inline">
          ${csrfField(frame)}<button type="submit">${t.t('endpoint.ping')}</button>
        </form>
        <a class="button secondary" href="${path}/edit">${t.t('endpoint.edit')}</a>
        <a class="button secondary" href="${path}/rotate-secret">${t.t('endpoint.rotate')}</a>
        <form method="post" action="${path}/${endpoint.enabled ? 'disable' : 'enable'}" class="inline">
          ${csrfField(frame)}<button type="submit" class="secondary">
            ${endpoint.enabled ? t.t('endpoint.disable') : t.t('endpoint.enable')}
          </button>
        </form>
        <a class="button danger" href="${path}/delete">${t.t('endpoint.delete')}</a>
      </div>
      <p><a href="${owner.base}/deliveries?endpoint=${endpoint.id}">${t.t('endpoint.itsDeliveries')}</a></p>
      <p><a href="${owner.base}/webhooks">${t.t('endpoint.all')}</a></p>`,
  );
}

export function editPage(
  frame: PageFrame,
  owner: EndpointsOwner,
  endpoint: WebhookEndpointEntity,
  eventTypes: readonly string[],
  form: FormState | undefined,
): string {
  const { t } = frame;
  const path = `${owner.base}/webhooks/${endpoint.id}`;
  const state = stateFor('edit-endpoint', form);
  return page(
    frame,
    html`<section id="edit-endpoint">
      ${formError(state)}
      <form method="post" action="${path}/edit" class="stack" novalidate>
        ${csrfField(frame)} ${endpointFields(frame, state, eventTypes, endpoint)}
        <div class="actions">
          <button type="submit">${t.t('endpoint.save')}</button>
          <a href="${path}">${t.t('confirm.cancel')}</a>
        </div>
      </form>
    </section>`,
  );
}

export function deleteConfirmPage(frame: PageFrame, owner: EndpointsOwner, endpoint: WebhookEndpointEntity): string {
  const path = `${owner.base}/webhooks/${endpoint.id}`;
  return confirmation(frame, {
    text: html`<p>${frame.t.t('endpoint.deleteConfirm', { url: endpoint.url })}</p>`,
    action: `${path}/delete`,
    button: frame.t.t('endpoint.deleteButton'),
    cancel: path,
  });
}

export function rotateConfirmPage(frame: PageFrame, owner: EndpointsOwner, endpoint: WebhookEndpointEntity): string {
  const path = `${owner.base}/webhooks/${endpoint.id}`;
  return confirmation(frame, {
    text: html`<p>${frame.t.t('endpoint.rotateConfirm', { url: endpoint.url })}</p>`,
    action: `${path}/rotate-secret`,
    button: frame.t.t('endpoint.rotateButton'),
    cancel: path,
  });
}
