import type { Membership } from '#core/businesses/businesses.repository.js';
import type { LinkRefusal } from '#core/console-auth/console-authentication.js';
import { html } from '../html.js';
import { businessPath, csrfField, message, page, type PageFrame } from './layout.js';

/** What the sign-in page says first: signed out, or why a link did not sign in (only what is known of it). */
export type SignInNotice = 'signed-out' | LinkRefusal;

export const SIGN_IN_NOTICES: readonly SignInNotice[] = ['signed-out', 'malformed-link', 'expired-link', 'used-or-unknown-link'];

export function signInPage(frame: PageFrame, notice?: SignInNotice): string {
  const { t } = frame;
  return page(
    frame,
    html`${notice === 'signed-out' ? message('info', t.t('signIn.signedOut')) : ''}
      ${notice !== undefined && notice !== 'signed-out' ? message('error', t.t(`signIn.${notice}`)) : ''}
      <p>${t.t('signIn.intro')}</p>
      <form method="post" action="/console/sign-in" class="stack">
        ${csrfField(frame)}
        <label for="email">${t.t('signIn.email')}</label>
        <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" />
        <button type="submit">${t.t('signIn.send')}</button>
      </form>`,
  );
}

/** The same page whatever the e-mail: whether it belongs to a member is not said. */
export function linkSentPage(frame: PageFrame): string {
  const { t } = frame;
  return page(
    frame,
    html`${message('success', t.t('signIn.sent'))}
      <p>${t.t('signIn.sentDetail')} <a href="/console/sign-in">${t.t('signIn.askAgain')}</a></p>`,
  );
}

export function limitedPage(frame: PageFrame): string {
  const { t } = frame;
  return page(
    frame,
    html`${message('error', t.t('signIn.limited'))}
      <p><a href="/console/sign-in">${t.t('signIn.back')}</a></p>`,
  );
}

/** What the e-mailed link opens: only the button's POST spends the link, so a mail scanner's GET does not. */
export function confirmPage(frame: PageFrame, token: string): string {
  const { t } = frame;
  return page(
    frame,
    html`<p>${t.t('signIn.confirm')}</p>
      <form method="post" action="/console/sign-in/confirm">
        ${csrfField(frame)}
        <input type="hidden" name="token" value="${token}" />
        <button type="submit">${t.t('signIn.button')}</button>
      </form>`,
  );
}

export function businessesPage(frame: PageFrame, memberships: Membership[]): string {
  const { t } = frame;
  if (memberships.length === 0) return page(frame, message('info', t.t('businesses.none')));
  const items = memberships.map(
    (m) =>
      html`<li>
        <a href="${businessPath(m, '/keys')}">${m.businessName}</a>
        <span class="muted">(${m.slug}, ${t.t(`role.${m.role}`)}, ${t.t('businesses.plan', { plan: m.plan })})</span>
      </li>`,
  );
  return page(
    frame,
    html`<p>${t.t('businesses.choose')}</p>
      <ul class="list">
        ${items}
      </ul>`,
  );
}
