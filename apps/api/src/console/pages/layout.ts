import type { MessageKey } from '../i18n/messages.en.js';
import type { Translator } from '../i18n/translator.js';
import { CSRF_FIELD } from '../console-csrf.js';
import type { ConsoleMembership, ConsoleSession, ConsoleState } from '../console-request.js';
import { html, type SafeHtml } from '../html.js';

export type ConsoleSection = 'keys' | 'webhooks' | 'deliveries' | 'events' | 'test-mode' | 'connections' | 'audit';

/** What every page's frame needs: its language, title, form token, and who is signed in to which business. */
export interface PageFrame {
  t: Translator;
  title: string;
  csrf: string;
  session: ConsoleSession | null;
  membership?: ConsoleMembership;
  section?: ConsoleSection;
  /** A page of the business's sandbox: a banner says so. */
  sandbox?: boolean;
}

/** A page's frame from what the console's guards learnt of the request. */
export function frameOf(state: ConsoleState, title: string, where: { section?: ConsoleSection; sandbox?: boolean } = {}): PageFrame {
  return { t: state.translator, title, csrf: state.csrf, session: state.session, membership: state.membership, ...where };
}

const SECTIONS: readonly [ConsoleSection, MessageKey][] = [
  ['keys', 'nav.keys'],
  ['webhooks', 'nav.webhooks'],
  ['deliveries', 'nav.deliveries'],
  ['events', 'nav.events'],
  ['test-mode', 'nav.testMode'],
  ['connections', 'nav.connections'],
  ['audit', 'nav.audit'],
];

/** The hidden field of the form token: in every form the console writes. */
export function csrfField(frame: Pick<PageFrame, 'csrf'>): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${frame.csrf}" />`;
}

export function businessPath(membership: Pick<ConsoleMembership, 'slug'>, rest = ''): string {
  return `/console/b/${encodeURIComponent(membership.slug)}${rest}`;
}

function sectionPath(frame: PageFrame, section: ConsoleSection): string {
  return businessPath(frame.membership!, `/${section}`);
}

function navigation(frame: PageFrame): SafeHtml {
  if (!frame.membership) return html``;
  const links = SECTIONS.map(
    ([section, label]) =>
      html`<li>
        <a href="${sectionPath(frame, section)}" ${section === frame.section ? html` aria-current="page"` : ''}>${frame.t.t(label)}</a>
      </li>`,
  );
  return html`<nav aria-label="${frame.t.t('nav.label')}">
    <ul>
      ${links}
    </ul>
  </nav>`;
}

function account(frame: PageFrame): SafeHtml {
  if (!frame.session) return html``;
  const { t } = frame;
  const membership = frame.membership;
  return html`<div class="account">
    <span class="who"
      >${frame.session.email}${membership ? html` · <a href="/console">${membership.businessName}</a> (${t.t(`role.${membership.role}`)})` : ''}</span
    >
    <form method="post" action="/console/sign-out">
      ${csrfField(frame)}<button type="submit" class="link">${t.t('account.signOut')}</button>
    </form>
  </div>`;
}

function testModeBanner(frame: PageFrame): SafeHtml {
  if (!frame.sandbox) return html``;
  return html`<div class="banner" role="note">
    <strong>${frame.t.t('banner.testMode')}</strong> ${frame.t.t('banner.testModeDetail')}
    <a href="${businessPath(frame.membership!, '/webhooks')}">${frame.t.t('banner.toLive')}</a>
  </div>`;
}

/** A whole page: the console's stylesheet, script and icon as files (the policy allows nothing inline). */
export function page(frame: PageFrame, body: SafeHtml): string {
  const { t } = frame;
  return html`<!doctype html>
    <html lang="${t.language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${frame.title} · ${t.t('brand')}</title>
        <link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body${frame.sandbox ? html` class="sandbox"` : ''}>
        <a class="skip" href="#main">${t.t('skip')}</a>
        <header>
          ${testModeBanner(frame)}
          <p class="brand"><a href="/console">${t.t('brand')}</a></p>
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

/**
 * A table on a wide screen, a stack of cards on a narrow one: each cell carries its column's name,
 * which the stylesheet shows beside it below 40rem, so no action lies outside a phone's width.
 */
export function table(frame: PageFrame, label: string, head: string[], rows: SafeHtml[][]): SafeHtml {
  if (rows.length === 0) return html`<p>${frame.t.t('table.none')}</p>`;
  return html`<table class="cards">
    <caption class="visually-hidden">
      ${label}
    </caption>
    <thead>
      <tr>
        ${head.map((h) => html`<th scope="col">${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (cells) =>
          html`<tr>
            ${cells.map((cell, index) => html`<td data-label="${head[index]}">${cell}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A value shown once (a key, a secret) with a button that copies it. */
export function shownOnce(frame: PageFrame, id: string, label: string, value: string): SafeHtml {
  const { t } = frame;
  return html`<div class="once">
    <label for="${id}">${label}</label>
    <div class="copy-row">
      <input id="${id}" type="text" readonly value="${value}" class="mono" /><button
        type="button"
        data-copy="${id}"
        data-copied="${t.t('copy.done')}"
        data-selected="${t.t('copy.selected')}"
      >
        ${t.t('copy.button')}
      </button>
    </div>
    <p class="hint" id="${id}-hint">${t.t('copy.once')} <span data-copied-for="${id}" role="status"></span></p>
  </div>`;
}

/** An instant in the business's zone with its offset, machine-readable in UTC. */
export function when(frame: PageFrame, date: Date | string | null): SafeHtml {
  if (date === null) return html`—`;
  const instant = new Date(date);
  return html`<time datetime="${instant.toISOString()}">${frame.t.time(instant)}</time>`;
}

/** A confirmation: what will happen, in words, and the one button that does it (docs/design-record.md#d29). */
export function confirmation(
  frame: PageFrame,
  opts: { text: SafeHtml; action: string; button: string; cancel: string; fields?: SafeHtml; danger?: boolean },
): string {
  return page(
    frame,
    html`<div class="confirm">
      ${opts.text}
      <form method="post" action="${opts.action}" class="actions">
        ${csrfField(frame)} ${opts.fields ?? ''}
        <button type="submit" class="${opts.danger === false ? '' : 'danger'}">${opts.button}</button>
        <a href="${opts.cancel}">${frame.t.t('confirm.cancel')}</a>
      </form>
    </div>`,
  );
}
