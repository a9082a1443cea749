import type { Membership } from '#core/businesses/businesses.repository.js';
import type { LinkRefusal } from '#core/console-auth/console-authentication.js';
import { html } from '../html.js';
import { businessPath, csrfField, message, page, type PageFrame } from './layout.js';

/** What the page says of a link that did not sign in: only what is known of it. */
const REFUSED_LINK: Readonly<Record<LinkRefusal, string>> = {
  'malformed-link': 'That sign-in link is not complete: copy the whole link from the e-mail, or ask for a new one below.',
  'expired-link': 'That sign-in link has expired. Ask for a new one below.',
  'used-or-unknown-link': 'That sign-in link has been used already, or is not one we sent. Ask for a new one below.',
};

export function signInPage(frame: PageFrame, notice?: 'signed-out' | LinkRefusal): string {
  return page(
    frame,
    html`${notice === 'signed-out' ? message('info', 'You are signed out.') : ''}
      ${notice !== undefined && notice !== 'signed-out' ? message('error', REFUSED_LINK[notice]) : ''}
      <p>
        The console is for the owners and partners of a business. Enter your e-mail address and we will send you a link that signs you in.
        It works once, within 15 minutes.
      </p>
      <form method="post" action="/console/sign-in" class="stack">
        ${csrfField(frame)}
        <label for="email">E-mail address</label>
        <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" />
        <button type="submit">Send me a sign-in link</button>
      </form>`,
  );
}

/** The same page whatever the e-mail: whether it belongs to a member is not said. */
export function linkSentPage(frame: PageFrame): string {
  return page(
    frame,
    html`${message('success', 'If that address belongs to an owner or partner of a business, a sign-in link is on its way.')}
      <p>
        Open the link in this browser within 15 minutes. It works once. Nothing arrived? Check the spam folder, or
        <a href="/console/sign-in">ask again</a>.
      </p>`,
  );
}

export function limitedPage(frame: PageFrame): string {
  return page(
    frame,
    html`${message('error', 'Too many sign-in links were asked for from here or for this address. Wait a few minutes and try again.')}
      <p><a href="/console/sign-in">Back to sign-in</a></p>`,
  );
}

/** What the e-mailed link opens: only the button's POST spends the link, so a mail scanner's GET does not. */
export function confirmPage(frame: PageFrame, token: string): string {
  return page(
    frame,
    html`<p>Press the button to sign in to the console.</p>
      <form method="post" action="/console/sign-in/confirm">
        ${csrfField(frame)}
        <input type="hidden" name="token" value="${token}" />
        <button type="submit">Sign in</button>
      </form>`,
  );
}

export function businessesPage(frame: PageFrame, memberships: Membership[]): string {
  if (memberships.length === 0) {
    return page(
      frame,
      message('info', 'This e-mail address is not an owner or partner of any business, so the console has nothing to show.'),
    );
  }
  const items = memberships.map(
    (m) =>
      html`<li>
        <a href="${businessPath(m, '/keys')}">${m.businessName}</a> <span class="muted">(${m.slug}, ${m.role}, ${m.plan} plan)</span>
      </li>`,
  );
  return page(
    frame,
    html`<p>Choose the business to manage.</p>
      <ul class="list">
        ${items}
      </ul>`,
  );
}

export function errorPage(frame: PageFrame, text: string): string {
  return page(
    frame,
    html`${message('error', text)}
      <p><a href="/console">Back to the console</a></p>`,
  );
}
