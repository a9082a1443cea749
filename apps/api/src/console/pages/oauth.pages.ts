import type { Membership } from '#core/businesses/businesses.repository.js';
import type { ListedGrant } from '#core/oauth/oauth-grants.repository.js';
import { OFFLINE_ACCESS } from '#core/oauth/oauth-server-options.js';
import { isScope } from '#core/scopes/scope.js';
import { html } from '../html.js';
import { businessPath, confirmation, csrfField, message, page, table, when, type PageFrame } from './layout.js';

/** What the consent page shows of an authorization request. */
export interface ConsentRequest {
  /** The signed query Better Auth sent the browser with, posted back as it came. */
  oauthQuery: string;
  appName: string;
  /** Where the app sends the owner back: what the owner checks the app by. */
  redirectHost: string;
  scopes: string[];
}

/**
 * The consent page (docs/design-record.md#d30): the app, where it returns, which business and
 * whether live or test, and each scope asked with what it allows, every one checked (the owner may
 * uncheck some); Allow or Deny.
 */
export function consentPage(frame: PageFrame, request: ConsentRequest, memberships: Membership[], refusal?: string): string {
  const { t } = frame;
  if (memberships.length === 0) return page(frame, message('error', t.t('oauth.noBusiness')));
  const apiScopes = request.scopes.filter(isScope);
  return page(
    frame,
    html`${refusal ? message('error', refusal) : ''}
      <p>${t.t('oauth.consentIntro', { app: request.appName, host: request.redirectHost })}</p>
      <form method="post" action="/console/oauth/consent" class="stack">
        ${csrfField(frame)}
        <input type="hidden" name="oauth_query" value="${request.oauthQuery}" />
        <label for="business">${t.t('oauth.business')}</label>
        <select id="business" name="business">
          ${memberships.map((m) => html`<option value="${m.slug}">${m.businessName}</option>`)}
        </select>
        <fieldset>
          <legend>${t.t('oauth.mode')}</legend>
          <label><input type="radio" name="mode" value="live" checked /> ${t.t('oauth.modeLive')}</label>
          <label><input type="radio" name="mode" value="test" /> ${t.t('oauth.modeTest')}</label>
        </fieldset>
        <fieldset>
          <legend>${t.t('oauth.scopes')}</legend>
          ${apiScopes.map(
            (scope) =>
              html`<label
                ><input type="checkbox" name="scopes" value="${scope}" checked /> <code>${scope}</code>: ${t.t(`scope.${scope}`)}</label
              >`,
          )}
          ${
            request.scopes.includes(OFFLINE_ACCESS)
              ? html`<label><input type="checkbox" name="scopes" value="${OFFLINE_ACCESS}" checked /> ${t.t('oauth.offlineAccess')}</label>`
              : ''
          }
        </fieldset>
        <div class="actions">
          <button type="submit" name="answer" value="approve">${t.t('oauth.approve')}</button>
          <button type="submit" name="answer" value="deny" class="secondary">${t.t('oauth.deny')}</button>
        </div>
      </form>`,
  );
}

export function consentUnavailablePage(frame: PageFrame): string {
  return page(frame, message('error', frame.t.t('oauth.unknownApp')));
}

/** The Connections page: every app connected to the business, live and test, each to disconnect. */
export function connectionsPage(frame: PageFrame, grants: ListedGrant[], notice?: string): string {
  const { t } = frame;
  const path = businessPath(frame.membership!, '/connections');
  return page(
    frame,
    html`${notice ? message('success', notice) : ''}
      <p>${t.t('connections.intro')}</p>
      ${
        grants.length === 0
          ? html`<p>${t.t('connections.none')}</p>`
          : table(
              frame,
              t.t('connections.title'),
              [
                t.t('connections.app'),
                t.t('connections.mode'),
                t.t('connections.scopes'),
                t.t('connections.version'),
                t.t('connections.created'),
                t.t('connections.lastUsed'),
                t.t('connections.approvedBy'),
                t.t('keys.actions'),
              ],
              grants.map((grant) => [
                html`${grant.appName}<br /><small class="mono">${grant.clientId}</small>`,
                html`${t.t(grant.mode === 'test' ? 'mode.test' : 'mode.live')}`,
                html`${grant.scopes.join(', ')}`,
                html`${grant.apiVersion}`,
                when(frame, grant.createdAt),
                grant.lastUsedAt ? when(frame, grant.lastUsedAt) : html`${t.t('connections.never')}`,
                html`${grant.approvedBy}`,
                html`<a href="${path}/${grant.id}/revoke">${t.t('connections.revoke')}</a>`,
              ]),
            )
      }`,
  );
}

export function revokeConnectionConfirmPage(frame: PageFrame, grant: ListedGrant): string {
  const { t } = frame;
  const path = businessPath(frame.membership!, '/connections');
  return confirmation(frame, {
    text: html`<p>
      ${t.t('connections.revokeConfirm', { app: grant.appName, mode: t.t(grant.mode === 'test' ? 'mode.test' : 'mode.live') })}
    </p>`,
    action: `${path}/${grant.id}/revoke`,
    button: t.t('connections.revoke'),
    cancel: path,
  });
}
