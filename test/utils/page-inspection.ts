import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from './child-process.js';

/** Where the browser tests leave the console's screenshots (the README points there). */
export const SCREENSHOTS = join(REPO_ROOT, 'docs', 'console');
const AXE_SOURCE = await readFile(join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/**
 * Every element a person acts with that lies outside the viewport at its width (the skip link is
 * measured focused, where it shows; visually hidden text is not acted with), and whether the page
 * scrolls sideways.
 */
const OUT_OF_REACH = `(() => {
  const out = [];
  for (const el of document.querySelectorAll('a, button, input, select, summary, textarea')) {
    if (el.type === 'hidden') continue;
    const skip = el.classList.contains('skip');
    if (skip) el.focus();
    const box = el.getBoundingClientRect();
    if (skip) el.blur();
    if (box.width <= 1 && box.height <= 1) continue;
    if (!el.checkVisibility()) continue;
    if (box.left < 0 || box.right > window.innerWidth + 0.5) {
      out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + (el.textContent || el.getAttribute('name') || '').trim().slice(0, 40) + '" at ' + Math.round(box.left) + '..' + Math.round(box.right));
    }
  }
  return { outside: out, sideways: document.documentElement.scrollWidth > window.innerWidth };
})()`;

/**
 * No axe-core violation at 1280 and 375 px, in light and dark; at 375 px nothing to act with
 * outside the screen and no sideways scroll. With `screenshot`, the page at 1280 px in light,
 * as docs/console/<screenshot>.png. The page is left at 1280 px, light.
 */
export async function inspect(page: Page, name: string, screenshot?: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // Through the DevTools protocol, not a <script>: the page's policy allows no inline script.
      await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate<string[]>(
        `axe.run().then((result) => result.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
      );
      expect({ page: name, colorScheme, width, violations }).toEqual({ page: name, colorScheme, width, violations: [] });
      if (width === 375) {
        const reach = await page.evaluate<{ outside: string[]; sideways: boolean }>(OUT_OF_REACH);
        expect({ page: name, colorScheme, ...reach }).toEqual({ page: name, colorScheme, outside: [], sideways: false });
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  if (screenshot) await page.screenshot({ path: join(SCREENSHOTS, `${screenshot}.png`), fullPage: true });
}
