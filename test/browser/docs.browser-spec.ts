import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type Browser } from 'playwright-core';
import { createApiApp } from '#api/configure-app.js';
import { parse } from 'yaml';
import { HTTP_METHODS, loadContract } from '#contract/openapi-document.js';
import { REPO_ROOT } from '../utils/child-process.js';
import { launchChromium } from '../utils/chromium.js';
import { testConfig } from '../utils/test-config.js';

/**
 * GET /docs as a person opens it: the real API bootstrap on a port, the page in headless Chromium,
 * the reference rendered from the served contract. A screenshot is left in test/artifacts/.
 */
jest.setTimeout(90_000);

const SCREENSHOT = join(REPO_ROOT, 'test', 'artifacts', 'docs.png');

/** What the page shows of the document. */
type PathItem = Partial<Record<(typeof HTTP_METHODS)[number], { operationId: string; summary?: string; tags?: string[] }>>;
interface ReferenceDocument {
  info: { title: string };
  paths: Record<string, PathItem>;
  webhooks: Record<string, PathItem>;
}

let app: NestExpressApplication;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  app = await createApiApp(testConfig());
  await app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('GET /docs in Chromium', () => {
  it('renders the reference of the served contract: its title, every tag, and every operation and notice', async () => {
    const document = parse(loadContract().yaml) as ReferenceDocument;
    const operations = [...Object.values(document.paths), ...Object.values(document.webhooks)].flatMap((item) =>
      HTTP_METHODS.flatMap((method) => item[method] ?? []),
    );
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    page.on('requestfailed', (request) => failures.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
    // The page's Content-Security-Policy must allow everything the reference needs.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) failures.push(message.text());
    });

    const response = await page.goto(`${baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    await page.getByRole('heading', { name: document.info.title }).first().waitFor({ timeout: 30_000 });

    // The sidebar lists the operations under their tags; the first tag opens by itself.
    const tags = [...new Set(operations.flatMap((operation) => operation.tags ?? []))];
    for (const tag of tags) {
      const open = page.getByRole('button', { name: `Open Group - ${tag}`, exact: true });
      if ((await open.count()) > 0) await open.click();
      await page.getByRole('button', { name: `Close Group - ${tag}`, exact: true }).waitFor();
    }
    const sidebar = await page.locator('body').innerText();
    const missing = operations
      .filter((operation) => !sidebar.includes(operation.summary ?? operation.operationId))
      .map((operation) => operation.operationId);
    expect(missing).toEqual([]);
    expect(failures).toEqual([]);

    await mkdir(join(REPO_ROOT, 'test', 'artifacts'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    await page.close();
  });
});
