import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import type { ListedApiKey } from '#core/api-keys/api-keys.service.js';
import { ROLLED_KEY_LIVES, type RolledKeyLife } from '#core/api-keys/rolled-key-life.js';
import { CONSOLE_KEYS_PER_HOUR, MAX_ACTIVE_KEYS_PER_MODE } from '#core/api-keys/key-budget.js';
import { SCOPES } from '#core/scopes/scope.js';
import { choiceGroup, formError, refusalText, selectField, stateFor, textField, type FormState } from '../console-forms.js';
import { html, type SafeHtml } from '../html.js';
import type { MessageKey } from '../i18n/messages.en.js';
import type { Translator } from '../i18n/translator.js';
import { businessPath, confirmation, csrfField, message, page, shownOnce, table, when, type PageFrame } from './layout.js';
import type { Flash } from '../console-flow.js';

/** The fields of the create form, as they are posted. */
export const KEY_FORM_FIELDS = ['name', 'scopes', 'mode', 'apiVersion'] as const;

const versionOptions = () => API_VERSIONS.map((v) => ({ value: v, label: v }));

export const scopeLabel = (t: Translator, scope: string): SafeHtml => html`<code>${scope}</code>`;

function createForm(frame: PageFrame, path: string, state: FormState | undefined): SafeHtml {
  const { t } = frame;
  return html`<section aria-labelledby="create-key-heading" id="create-key">
    <h2 id="create-key-heading">${t.t('keys.create')}</h2>
    <p>${t.t('keys.limits', { perMode: MAX_ACTIVE_KEYS_PER_MODE, perHour: CONSOLE_KEYS_PER_HOUR })}</p>
    ${formError(state)}
    <form method="post" action="${path}" class="stack" novalidate>
      ${csrfField(frame)}
      ${textField(state, { id: 'key-name', name: 'name', label: t.t('keys.name'), required: true, maxlength: 120, placeholder: t.t('keys.namePlaceholder') })}
      ${choiceGroup(state, {
        id: 'key-scopes',
        name: 'scopes',
        legend: t.t('keys.scopes'),
        type: 'checkbox',
        checked: [],
        choices: SCOPES.map((scope) => ({ value: scope, label: scopeLabel(t, scope), detail: t.t(`scope.${scope}`) })),
      })}
      ${choiceGroup(state, {
        id: 'key-mode',
        name: 'mode',
        legend: t.t('keys.mode'),
        type: 'radio',
        checked: ['live'],
        choices: [
          { value: 'live', label: t.t('mode.live'), detail: t.t('keys.modeLive') },
          { value: 'test', label: t.t('mode.test'), detail: t.t('keys.modeTest') },
        ],
      })}
      ${selectField(state, { id: 'key-version', name: 'apiVersion', label: t.t('keys.version'), options: versionOptions(), selected: CURRENT_API_VERSION })}
      <button type="submit">${t.t('keys.createButton')}</button>
    </form>
  </section>`;
}

function expiry(frame: PageFrame, key: ListedApiKey): SafeHtml {
  if (!key.expiresAt) return html`${frame.t.t('keys.noExpiry')}`;
  return html`<span class="warn">${frame.t.t('keys.expires')} ${when(frame, key.expiresAt)}</span>`;
}

function keyCells(frame: PageFrame, key: ListedApiKey, keysPath: string): SafeHtml[] {
  const { t } = frame;
  return [
    html`${key.name}`,
    html`<code>${key.prefix}</code>`,
    html`${key.scopes.map((s, i) => html`${i > 0 ? ', ' : ''}<code>${s}</code>`)}`,
    html`${t.t(key.mode === 'test' ? 'mode.test' : 'mode.live')}`,
    html`<form method="get" action="${keysPath}/${key.id}/api-version" class="inline">
      <label class="visually-hidden" for="version-${key.id}">${t.t('keys.versionOf', { name: key.name })}</label>
      <select id="version-${key.id}" name="to">
        ${API_VERSIONS.map((v) => html`<option value="${v}" ${v === key.apiVersion ? html` selected` : ''}>${v}</option>`)}
      </select>
      <button type="submit" class="secondary">${t.t('keys.change')}<span class="visually-hidden"> ${key.name}</span></button>
    </form>`,
    when(frame, key.createdAt),
    key.lastUsedAt === null ? html`${t.t('keys.never')}` : when(frame, key.lastUsedAt),
    expiry(frame, key),
    html`<span class="row-actions">
      <a href="${keysPath}/${key.id}/roll">${t.t('keys.roll')}<span class="visually-hidden"> ${key.name}</span></a>
      <a href="${keysPath}/${key.id}/revoke" class="danger-link">${t.t('keys.revoke')}<span class="visually-hidden"> ${key.name}</span></a>
    </span>`,
  ];
}

export function notices(frame: PageFrame, flashes: Flash[]): SafeHtml[] {
  return flashes.map((flash) => {
    if (flash.kind === 'notice') return message('success', frame.t.t(flash.key, flash.params));
    // Worded when shown, in the language of the page that shows it.
    if (flash.kind === 'error') return message('error', refusalText(frame.t, flash.code, flash.detail));
    if (flash.kind === 'secret')
      return html`${message('success', frame.t.t(flash.key, flash.params))}${shownOnce(frame, 'shown-once', frame.t.t(flash.label), flash.value)}`;
    return html``;
  });
}

export function keysPage(
  frame: PageFrame,
  keys: ListedApiKey[],
  canCreate: boolean,
  flashes: Flash[],
  form: FormState | undefined,
  noIntegrations: string,
): string {
  const { t } = frame;
  const path = businessPath(frame.membership!, '/keys');
  const head = [
    t.t('keys.name'),
    t.t('keys.prefix'),
    t.t('keys.scopes'),
    t.t('keys.mode'),
    t.t('keys.version'),
    t.t('keys.createdAt'),
    t.t('keys.lastUsed'),
    t.t('keys.expiry'),
    t.t('keys.actions'),
  ];
  return page(
    frame,
    html`${notices(frame, flashes)} ${canCreate ? '' : message('info', noIntegrations)}
      <h2>${t.t('keys.active')}</h2>
      ${table(
        frame,
        t.t('keys.active'),
        head,
        keys.map((key) => keyCells(frame, key, path)),
      )}
      ${canCreate ? createForm(frame, path, stateFor('create-key', form)) : formError(stateFor('create-key', form))}`,
  );
}

export function revokeConfirmPage(frame: PageFrame, key: ListedApiKey): string {
  const { t } = frame;
  const keysPath = businessPath(frame.membership!, '/keys');
  return confirmation(frame, {
    text: html`<p>
      ${t.t('keys.revokeConfirm', { name: key.name, prefix: key.prefix, mode: t.t(key.mode === 'test' ? 'mode.test' : 'mode.live') })}
    </p>`,
    action: `${keysPath}/${key.id}/revoke`,
    button: t.t('keys.revokeButton'),
    cancel: keysPath,
  });
}

const ROLL_LABELS: Record<RolledKeyLife, MessageKey> = {
  now: 'keys.rollNow',
  '1h': 'keys.roll1h',
  '24h': 'keys.roll24h',
  '7d': 'keys.roll7d',
};

export function rollConfirmPage(frame: PageFrame, key: ListedApiKey): string {
  const { t } = frame;
  const keysPath = businessPath(frame.membership!, '/keys');
  return confirmation(frame, {
    text: html`<p>${t.t('keys.rollConfirm', { name: key.name, prefix: key.prefix })}</p>`,
    fields: choiceGroup(undefined, {
      id: 'roll-expiry',
      name: 'expires',
      legend: t.t('keys.rollExpiry'),
      type: 'radio',
      checked: ['24h'],
      choices: ROLLED_KEY_LIVES.map((value) => ({ value, label: t.t(ROLL_LABELS[value]) })),
    }),
    action: `${keysPath}/${key.id}/roll`,
    button: t.t('keys.rollButton'),
    cancel: keysPath,
    danger: false,
  });
}

/** What a partner stops receiving when a key's version goes down (the versions above the new one). */
const VERSION_ADDED: Record<string, MessageKey> = {
  '1.3.0': 'version.added.1.3.0',
  '1.4.0': 'version.added.1.4.0',
  '1.5.0': 'version.added.1.5.0',
};

export function versionConfirmPage(frame: PageFrame, key: ListedApiKey, to: string): string {
  const { t } = frame;
  const keysPath = businessPath(frame.membership!, '/keys');
  const lower = API_VERSIONS.indexOf(to as never) < API_VERSIONS.indexOf(key.apiVersion);
  const lost = API_VERSIONS.filter(
    (v) => API_VERSIONS.indexOf(v) > API_VERSIONS.indexOf(to as never) && API_VERSIONS.indexOf(v) <= API_VERSIONS.indexOf(key.apiVersion),
  );
  return confirmation(frame, {
    text: html`<p>${t.t('keys.versionConfirm', { name: key.name, from: key.apiVersion, to })}</p>
      ${
        lower
          ? html`${message('error', t.t('keys.versionLower'))}
              <ul>
                ${lost.map((v) => html`<li><strong>${v}</strong>: ${VERSION_ADDED[v] ? t.t(VERSION_ADDED[v]) : ''}</li>`)}
              </ul>`
          : html`<p>${t.t('keys.versionHigher')}</p>`
      }`,
    fields: html`<input type="hidden" name="apiVersion" value="${to}" />`,
    action: `${keysPath}/${key.id}/api-version`,
    button: t.t('keys.versionButton', { to }),
    cancel: keysPath,
    danger: lower,
  });
}
