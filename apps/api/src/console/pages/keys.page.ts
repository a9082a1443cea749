import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import type { CreatedApiKey, ListedApiKey } from '#core/api-keys/api-keys.service.js';
import { CONSOLE_KEYS_PER_HOUR, MAX_ACTIVE_KEYS_PER_MODE } from '#core/api-keys/key-budget.js';
import { SCOPES, SCOPE_DESCRIPTIONS } from '#core/scopes/scope.js';
import { html, type SafeHtml } from '../html.js';
import { businessPath, csrfField, message, page, shownOnce, table, when, type PageFrame } from './layout.js';

import { NO_INTEGRATIONS } from '../plan-integrations.js';

function versionOptions(selected: string): SafeHtml[] {
  return API_VERSIONS.map((version) => html`<option value="${version}" ${version === selected ? html` selected` : ''}>${version}</option>`);
}

function createForm(frame: PageFrame, path: string): SafeHtml {
  const scopes = SCOPES.map(
    (scope) =>
      html`<label class="choice"
        ><input type="checkbox" name="scopes" value="${scope}" /><span
          ><code>${scope}</code><small>${SCOPE_DESCRIPTIONS[scope]}</small></span
        ></label
      >`,
  );
  return html`<h2>Create a key</h2>
    <p>
      A business holds at most ${MAX_ACTIVE_KEYS_PER_MODE} active keys per mode (live, test), and the console makes at most
      ${CONSOLE_KEYS_PER_HOUR} keys an hour.
    </p>
    <form method="post" action="${path}" class="stack">
      ${csrfField(frame)}
      <label for="key-name">Name</label>
      <input id="key-name" name="name" type="text" required maxlength="120" placeholder="Website" />
      <fieldset>
        <legend>Scopes</legend>
        ${scopes}
      </fieldset>
      <fieldset>
        <legend>Mode</legend>
        <label class="choice"
          ><input type="radio" name="mode" value="live" checked /><span>Live<small>Reaches the business's real data.</small></span></label
        >
        <label class="choice"
          ><input type="radio" name="mode" value="test" /><span
            >Test<small>Reaches the business's sandbox only (made now if missing).</small></span
          ></label
        >
      </fieldset>
      <label for="key-version">API version</label>
      <select id="key-version" name="apiVersion">
        ${versionOptions(CURRENT_API_VERSION)}
      </select>
      <button type="submit">Create key</button>
    </form>`;
}

function keyRow(frame: PageFrame, key: ListedApiKey, keysPath: string): SafeHtml {
  return html`<tr>
    <td>${key.name}</td>
    <td><code>${key.prefix}</code></td>
    <td>${key.scopes.map((s, i) => html`${i > 0 ? ', ' : ''}<code>${s}</code>`)}</td>
    <td>${key.mode}</td>
    <td>
      <form method="post" action="${keysPath}/${key.id}/api-version" class="inline">
        ${csrfField(frame)}
        <label class="visually-hidden" for="version-${key.id}">API version of ${key.name}</label>
        <select id="version-${key.id}" name="apiVersion">
          ${versionOptions(key.apiVersion)}
        </select>
        <button type="submit" class="secondary">Change</button>
      </form>
    </td>
    <td>${when(key.createdAt)}</td>
    <td>${key.lastUsedAt === null ? 'Never' : when(key.lastUsedAt)}</td>
    <td>
      <a href="${keysPath}/${key.id}/revoke">Revoke<span class="visually-hidden"> ${key.name}</span></a>
    </td>
  </tr>`;
}

export function keysPage(frame: PageFrame, keys: ListedApiKey[], canCreate: boolean, created?: CreatedApiKey, notice?: string): string {
  const membership = frame.membership!;
  const path = businessPath(membership, '/keys');
  const rows = keys.map((key) => keyRow(frame, key, path));
  return page(
    frame,
    html`${notice ? message('success', notice) : ''}
      ${created ? html`${message('success', html`Key <strong>${created.name}</strong> created (${created.mode}).`)}${shownOnce('new-key', 'Your new API key', created.key)}` : ''}
      ${canCreate ? '' : message('info', NO_INTEGRATIONS)}
      <h2>Active keys</h2>
      ${table('Active API keys', ['Name', 'Prefix', 'Scopes', 'Mode', 'API version', 'Created', 'Last used', 'Revoke'], rows)}
      ${canCreate ? createForm(frame, path) : ''}`,
  );
}

export function revokeConfirmPage(frame: PageFrame, key: ListedApiKey): string {
  const path = businessPath(frame.membership!, `/keys/${key.id}/revoke`);
  return page(
    frame,
    html`<p>
        Revoke the key <strong>${key.name}</strong> (<code>${key.prefix}</code>, ${key.mode})? Requests made with it are refused within a
        second, everywhere. This cannot be undone.
      </p>
      <form method="post" action="${path}" class="actions">
        ${csrfField(frame)}
        <button type="submit" class="danger">Revoke the key</button>
        <a href="${businessPath(frame.membership!, '/keys')}">Cancel</a>
      </form>`,
  );
}
