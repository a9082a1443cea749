import { NO_SANDBOX_ON_PLAN } from '#core/sandbox/sandbox-plan.js';
import type { KeptEmail } from '#core/sandbox/sandbox.service.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import { html } from '../html.js';
import { businessPath, csrfField, message, page, table, when, type PageFrame } from './layout.js';

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
  notice?: string,
): string {
  const path = businessPath(frame.membership!, '/test-mode');
  const rows = emails.map(
    (email) =>
      html`<tr>
        <td>${when(email.createdAt)}</td>
        <td>${email.recipient}</td>
        <td>${email.subject}</td>
        <td>${email.kind}</td>
        <td>${email.keptAt ? 'kept' : 'not yet'}</td>
      </tr>`,
  );
  return page(
    frame,
    html`${notice ? message('success', notice) : ''} ${canChange ? '' : message('info', NO_SANDBOX_ON_PLAN)}
      <p>
        The sandbox is a copy of the business's services and staff that test keys (<code>rk_test_</code>) reach. Its e-mails are kept here,
        never sent.
      </p>
      ${
        sandbox
          ? html`<p>Sandbox <code>${sandbox.slug}</code>, made ${when(sandbox.createdAt)}.</p>
              <p><a href="${path}/webhooks">The sandbox's webhook endpoints</a> receive the notices of test keys.</p>
              ${
                canChange
                  ? html`<form method="post" action="${path}/reset" class="actions">
                      ${csrfField(frame)}<button type="submit" class="secondary">Reset the sandbox</button>
                    </form>`
                  : ''
              }
              <h2>E-mails the sandbox kept</h2>
              ${table('Sandbox e-mails', ['When', 'To', 'Subject', 'Kind', 'Kept'], rows)}`
          : html`<p>This business has no sandbox yet.</p>
              ${
                canChange
                  ? html`<form method="post" action="${path}/create" class="actions">
                      ${csrfField(frame)}<button type="submit">Create the sandbox</button>
                    </form>`
                  : ''
              }`
      }`,
  );
}
