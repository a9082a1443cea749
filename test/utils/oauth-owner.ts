import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '#config/app-config.js';
import { createApiApp } from '#api/configure-app.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { freePort } from './child-process.js';
import { testConfig } from './test-config.js';

/**
 * An API listening on its own origin (PUBLIC_BASE_URL): the OAuth issuer and the resources are
 * named after it, so an OAuth client can only talk to it there (docs/design-record.md#d30).
 */
export async function listeningApi(overrides: Record<string, string> = {}): Promise<{ app: NestExpressApplication; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config: AppConfig = testConfig({ PORT: String(port), PUBLIC_BASE_URL: origin, ...overrides });
  const app = await createApiApp(config);
  await app.listen(port, '127.0.0.1');
  return { app, origin };
}

/** A browser's cookies for one origin: what each answer set, sent with each request. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', this.header());
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.keep(response);
    return response;
  }
}

/**
 * Where an answer sends the browser. A navigation gets a 302; a request that looks like a script's
 * fetch (Node's fetch sends Sec-Fetch-Mode: cors) gets the same place as JSON from Better Auth.
 */
async function redirectOf(response: Response): Promise<string> {
  const location = response.headers.get('location');
  if (location) return location;
  const text = await response.text();
  const url = (JSON.parse(text || '{}') as { url?: string }).url;
  if (!url) throw new Error(`expected a redirect, got ${response.status}: ${text}`);
  return url;
}

const CSRF = /name="_csrf" value="([^"]+)"/;

/** The owner signed in to the console by the link `admin member sign-in-link` would print. */
export async function signedInOwner(app: NestExpressApplication, slug: string, email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const link = await app.get(ConsoleLinks).linkFor(slug, email);
  const page = await jar.fetch(link.url);
  const token = new URL(link.url).searchParams.get('token')!;
  const csrf = CSRF.exec(await page.text())?.[1] ?? '';
  const spent = await jar.fetch(new URL('/console/sign-in/confirm', link.url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, _csrf: csrf }),
  });
  if (spent.status !== 303) throw new Error(`sign-in answered ${spent.status}`);
  return jar;
}

/** What the owner picks on the consent page. */
export interface ConsentChoice {
  business: string;
  mode?: 'live' | 'test';
  /** The scopes left checked (default: all asked). */
  scopes?: string[];
  answer?: 'approve' | 'deny';
}

/**
 * The owner's browser through an authorization: the authorize URL, the consent page, the answer
 * posted as the page's form posts it. Returns where the browser is sent (the app's redirect URI).
 */
export async function consentThroughConsole(jar: CookieJar, authorizeUrl: string, choice: ConsentChoice): Promise<URL> {
  const consentAt = await redirectOf(await jar.fetch(authorizeUrl));
  const consentUrl = new URL(consentAt, authorizeUrl);
  if (!consentUrl.pathname.endsWith('/console/oauth/consent')) return consentUrl;
  const page = await jar.fetch(consentUrl.href);
  const text = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${text}`);
  const oauthQuery = /name="oauth_query" value="([^"]*)"/.exec(text)?.[1]?.replaceAll('&amp;', '&') ?? '';
  const asked = [...text.matchAll(/name="scopes" value="([^"]+)"/g)].map((match) => match[1]);
  const form = new URLSearchParams({
    _csrf: CSRF.exec(text)?.[1] ?? '',
    oauth_query: oauthQuery,
    business: choice.business,
    mode: choice.mode ?? 'live',
    answer: choice.answer ?? 'approve',
  });
  for (const scope of choice.scopes ?? asked) form.append('scopes', scope);
  const answered = await jar.fetch(new URL('/console/oauth/consent', authorizeUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const location = answered.headers.get('location');
  if (answered.status !== 303 || !location) throw new Error(`consent answered ${answered.status}: ${await answered.text()}`);
  return new URL(location, authorizeUrl);
}
