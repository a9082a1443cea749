import type { KeptEmail } from '#core/sandbox/sandbox.service.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import type { Flash } from '../console-flow.js';
import { html } from '../html.js';
import { businessPath, confirmation, csrfField, message, page, table, when, type PageFrame } from './layout.js';
import { notices } from './keys.page.js';

/**
 * The sandbox, its e-mails, and the button that makes or resets it. A business whose plan has no
 * integrations (`canChange` false) is told why instead of being offered the buttons
 * (docs/design-record.md#d28); a sandbox it made before keeps its listing.
 */
export function testModePage(
  frame: PageFrame,
  sandbox: BusinessEntity | null,
  emails: KeptEmail[],
  canChange: boolean,
  flashes: Flash[],
): string {
  const { t } = frame;
  const path = businessPath(frame.membership!, '/test-mode');
  const rows = emails.map((email) => [
    when(frame, email.createdAt),
    html`${email.recipient}`,
    html`${email.subject}`,
    html`${email.kind}`,
    html`${email.keptAt ? t.t('sandbox.kept') : t.t('sandbox.notYet')}`,
  ]);
  return page(
    frame,
    html`${notices(frame, flashes)} ${canChange ? '' : message('info', t.t('sandbox.noPlan'))}
      <p>${t.t('sandbox.intro')}</p>
      ${
        sandbox
          ? html`<p>${t.t('sandbox.made', { slug: sandbox.slug })} ${when(frame, sandbox.createdAt)}.</p>
              <ul class="list">
                <li><a href="${path}/webhooks">${t.t('sandbox.endpoints')}</a></li>
                <li><a href="${path}/deliveries">${t.t('sandbox.deliveries')}</a></li>
                <li><a href="${path}/events">${t.t('sandbox.events')}</a></li>
              </ul>
              ${canChange ? html`<p><a class="button secondary" href="${path}/reset">${t.t('sandbox.reset')}</a></p>` : ''}
              <h2>${t.t('sandbox.emails')}</h2>
              ${table(frame, t.t('sandbox.emails'), [t.t('sandbox.when'), t.t('sandbox.to'), t.t('sandbox.subject'), t.t('sandbox.kind'), t.t('sandbox.keptColumn')], rows)}`
          : html`<p>${t.t('sandbox.none')}</p>
              ${
                canChange
                  ? html`<form method="post" action="${path}/create" class="actions">
                      ${csrfField(frame)}<button type="submit">${t.t('sandbox.create')}</button>
                    </form>`
                  : ''
              }`
      }`,
  );
}

export function resetConfirmPage(frame: PageFrame): string {
  const path = businessPath(frame.membership!, '/test-mode');
  return confirmation(frame, {
    text: html`<p>${frame.t.t('sandbox.resetConfirm')}</p>`,
    action: `${path}/reset`,
    button: frame.t.t('sandbox.resetButton'),
    cancel: path,
  });
}
