import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';

/** A console answer: its status and page. */
export interface ConsolePage {
  status: number;
  text: string;
}

/** A form posted: the POST's status and where it sent the browser, and the page found there. */
export interface PostedForm extends ConsolePage {
  location: string | undefined;
}

const CSRF = /name="_csrf" value="([^"]+)"/;

/**
 * The owner's console (docs/design-record.md#d26) over HTTP, as a browser without JavaScript uses
 * it: signed in with a one-time link, its cookies kept, each form posted with the token of the
 * page it is on.
 */
export class ConsoleClient {
  private constructor(private readonly agent: ReturnType<typeof request.agent>) {}

  /** Signed in as `email`, with a browser that asks for `language` (Accept-Language; English unless said). */
  static async signIn(app: INestApplication, slug: string, email: string, language = 'en'): Promise<ConsoleClient> {
    const link = new URL((await app.get(ConsoleLinks).linkFor(slug, email)).url);
    const client = new ConsoleClient(request.agent(app.getHttpServer()).set('Accept-Language', language));
    const token = link.searchParams.get('token')!;
    const confirm = await client.get(`/console/sign-in/confirm?token=${encodeURIComponent(token)}`);
    const signedIn = await client.agent
      .post('/console/sign-in/confirm')
      .type('form')
      .send({ token, _csrf: CSRF.exec(confirm.text)?.[1] ?? '' });
    if (signedIn.status !== 303) throw new Error(`The console did not sign ${email} in: ${signedIn.status}`);
    return client;
  }

  async get(path: string): Promise<ConsolePage> {
    const res = await this.agent.get(path);
    return { status: res.status, text: res.text };
  }

  /**
   * Posts the form fields to `action` with the token of the page at `from`, and follows its 303 as
   * a browser does (docs/design-record.md#d29): `text` is the page the redirect leads to.
   */
  async post(from: string, action: string, fields: Record<string, string | string[]>): Promise<PostedForm> {
    const page = await this.get(from);
    const token = CSRF.exec(page.text)?.[1] ?? '';
    const res = await this.agent
      .post(action)
      .type('form')
      .send({ ...fields, _csrf: token });
    const location = typeof res.headers.location === 'string' ? res.headers.location : undefined;
    if (res.status !== 303 || location === undefined) return { status: res.status, text: res.text, location };
    return { status: res.status, location, text: (await this.get(location.split('#')[0])).text };
  }

  /** Posts without any token: a forged form from another site. */
  async postWithoutToken(action: string, fields: Record<string, string | string[]> = {}): Promise<ConsolePage> {
    const res = await this.agent.post(action).type('form').send(fields);
    return { status: res.status, text: res.text };
  }
}
