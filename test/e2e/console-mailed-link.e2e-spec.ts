import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApiApp } from '#api/configure-app.js';
import { seed } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';

/**
 * docs/design-record.md#d29: a sign-in link asked for on the sign-in page and stored as a file (no
 * SMTP_URL, as under `npm start`) is copied the way a person copies it, the line as it stands in
 * the .eml, and signs in. Quoted-printable had cut it with `=` line breaks and written `token=3D`.
 */
let app: NestExpressApplication;
let mailDir: string;

beforeAll(async () => {
  mailDir = await mkdtemp(join(tmpdir(), 'console-mail-'));
  // A long PUBLIC_BASE_URL, as behind a proxy's path: the link's line is far past 76 characters.
  app = await createApiApp(
    testConfig({ MAIL_DIR: mailDir, PUBLIC_BASE_URL: 'http://scheduling.salon-lisboa.example:8080/services/scheduling' }),
  );
  await app.init();
});
afterAll(async () => {
  await app?.close();
  await rm(mailDir, { recursive: true, force: true });
});

const CSRF = /name="_csrf" value="([^"]+)"/;

/** The sign-in e-mail once written: it is sent after the page answers, so the folder is looked at until it holds one. */
async function storedMail(): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const files = (await readdir(mailDir)).filter((name) => name.endsWith('.eml'));
    if (files.length > 0) return readFile(join(mailDir, files[0]), 'utf8');
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`No e-mail in ${mailDir}`);
}

it("signs in with the link copied as it stands from the stored e-mail's text", async () => {
  const business = await seed({ plan: 'SOLO' });
  const agent = request.agent(app.getHttpServer());
  const form = await agent.get('/console/sign-in');
  const asked = await agent
    .post('/console/sign-in')
    .type('form')
    .send({ email: business.ownerEmail!, _csrf: CSRF.exec(form.text)?.[1] ?? '' });
  expect({ status: asked.status, location: asked.headers.location }).toEqual({ status: 303, location: '/console/sign-in/sent' });

  const eml = await storedMail();
  // The whole line, as selecting it in a text editor copies it.
  const line = eml.split('\n').find((text) => text.includes('/console/sign-in/confirm'));
  expect(line).toMatch(
    /^http:\/\/scheduling\.salon-lisboa\.example:8080\/services\/scheduling\/console\/sign-in\/confirm\?token=[A-Za-z]{32}$/,
  );
  expect(line!.length).toBeGreaterThan(76);

  const copied = new URL(line!);
  const confirm = await agent.get(`${copied.pathname.replace('/services/scheduling', '')}${copied.search}`);
  expect(confirm.status).toBe(200);
  const signedIn = await agent
    .post('/console/sign-in/confirm')
    .type('form')
    .send({ token: /name="token" value="([^"]*)"/.exec(confirm.text)?.[1] ?? '', _csrf: CSRF.exec(confirm.text)?.[1] ?? '' });
  expect(signedIn.status).toBe(303);
  expect(signedIn.headers.location).toBe('/console');
  // Signed in: the console leads to the business's keys, not back to the sign-in page.
  expect((await agent.get('/console')).headers.location).toBe(`/console/b/${business.slug}/keys`);
});
