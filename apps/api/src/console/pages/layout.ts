import type { Membership } from '#core/businesses/businesses.repository.js';
import { CSRF_FIELD } from '../console-csrf.js';
import type { ConsoleSession } from '../console-locals.js';
import { html, type SafeHtml } from '../html.js';

export type ConsoleSection = 'keys' | 'webhooks' | 'test-mode' | 'audit';

/** What every page's frame needs: its title, the form token, and who is signed in to which business. */
export interface PageFrame {
  title: string;
  csrf: string;
  session: ConsoleSession | null;
  membership?: Membership;
  section?: ConsoleSection;
}

const SECTIONS: readonly [ConsoleSection, string][] = [
  ['keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['test-mode', 'Test mode'],
  ['audit', 'Audit'],
];

/** The hidden field of the form token: in every form the console writes. */
export function csrfField(frame: Pick<PageFrame, 'csrf'>): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${frame.csrf}" />`;
}

export function businessPath(membership: Pick<Membership, 'slug'>, rest = ''): string {
  return `/console/b/${encodeURIComponent(membership.slug)}${rest}`;
}

function navigation(frame: PageFrame): SafeHtml {
  const membership = frame.membership;
  if (!membership) return html``;
  const links = SECTIONS.map(
    ([section, label]) =>
      html`<li>
        <a href="${businessPath(membership, `/${section}`)}" ${section === frame.section ? html` aria-current="page"` : ''}>${label}</a>
      </li>`,
  );
  return html`<nav aria-label="Console">
    <ul>
      ${links}
    </ul>
  </nav>`;
}

function account(frame: PageFrame): SafeHtml {
  if (!frame.session) return html``;
  return html`<div class="account">
    <span
      >${frame.session.email}${frame.membership ? html` · <a href="/console">${frame.membership.businessName}</a> (${frame.membership.role})` : ''}</span
    >
    <form method="post" action="/console/sign-out">${csrfField(frame)}<button type="submit" class="link">Sign out</button></form>
  </div>`;
}

/** A whole page: the console's stylesheet and script as files (the policy allows nothing inline). */
export function page(frame: PageFrame, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${frame.title} · Scheduling console</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <p class="brand"><a href="/console">Scheduling console</a></p>
          ${account(frame)} ${navigation(frame)}
        </header>
        <main id="main" tabindex="-1">
          <h1>${frame.title}</h1>
          ${body}
        </main>
      </body>
    </html> `.markup;
}

/** A refusal or a result in words, announced to screen readers when the page loads. */
export function message(kind: 'error' | 'success' | 'info', text: string | SafeHtml): SafeHtml {
  return html`<div class="message ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>`;
}

/** A table that scrolls sideways on a narrow screen, reachable by keyboard. */
export function table(label: string, head: string[], rows: SafeHtml[]): SafeHtml {
  if (rows.length === 0) return html`<p>None yet.</p>`;
  return html`<div class="scroll" role="region" aria-label="${label}" tabindex="0">
    <table>
      <caption class="visually-hidden">
        ${label}
      </caption>
      <thead>
        <tr>
          ${head.map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}

/** A value shown once (a key, a secret) with a button that copies it. */
export function shownOnce(id: string, label: string, value: string): SafeHtml {
  return html`<div class="once">
    <label for="${id}">${label}</label>
    <div class="copy-row">
      <input id="${id}" type="text" readonly value="${value}" class="mono" /><button type="button" data-copy="${id}">Copy</button>
    </div>
    <p class="hint" id="${id}-hint">Shown this once: it cannot be read back. <span data-copied-for="${id}" role="status"></span></p>
  </div>`;
}

export function when(date: Date | string | null): string {
  if (date === null) return '—';
  return new Date(date).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}
