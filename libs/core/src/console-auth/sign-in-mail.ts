import { SIGN_IN_LINK_TTL_SECONDS } from './console-auth.js';

/** A sign-in e-mail as the mail transport takes it (nodemailer's message options, the fields used). */
export interface SignInMail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  /** The text part, given raw: its own headers, then the text as it is. */
  text: { raw: string };
  html: string;
  messageId: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);

/**
 * The e-mail that carries a sign-in link (docs/design-record.md#d29). Its text part is sent as it
 * is (7bit, or 8bit once it holds other characters), never quoted-printable: there the link's
 * line, longer than 76 characters, would be cut by soft line breaks and its `=` written `=3D`, so
 * that a link copied from a stored .eml (`.data/mail/`, without SMTP_URL) or a raw message would
 * not sign in. Mail clients show the HTML part, whose link is a button.
 */
export function signInMail(input: { from: string; to: string; url: string; messageId: string }): SignInMail {
  const minutes = SIGN_IN_LINK_TTL_SECONDS / 60;
  const text = [
    'Open this link to sign in to the console of your business:',
    '',
    input.url,
    '',
    `It works once, within ${minutes} minutes. If you did not ask for it, ignore this e-mail.`,
    '',
  ].join('\n');
  // eslint-disable-next-line no-control-regex -- the test is for characters outside US-ASCII
  const encoding = /^[\x00-\x7f]*$/.test(text) ? '7bit' : '8bit';
  const href = escapeHtml(input.url);
  return {
    from: { name: 'Scheduling console', address: input.from },
    to: input.to,
    subject: 'Your sign-in link to the scheduling console',
    text: { raw: `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n${text}` },
    html: `<p>Open this link to sign in to the console of your business:</p>
<p><a href="${href}">Sign in to the console</a></p>
<p>${href}</p>
<p>It works once, within ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>
`,
    messageId: input.messageId,
  };
}
