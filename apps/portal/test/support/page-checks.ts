import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';

/** Where page screenshots go: PORTAL_SCREENSHOT_DIR, else dist/test-artefacts/portal. */
export const SCREENSHOT_DIR = process.env.PORTAL_SCREENSHOT_DIR ?? resolve(__dirname, '../../../../dist/test-artefacts/portal');

/** Elements sticking out of a 390 px page, but for wide tables (they scroll in their own container) and toasts. */
const OVERFLOWING = `[...document.querySelectorAll('body *')]
  .filter((el) => el.getBoundingClientRect().right > 391 && !el.closest('.mantine-ScrollArea-root, [data-scroll-container], .mantine-Notifications-root'))
  .map((el) => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))
  .slice(0, 8)`;

/** No CSS transition (a drawer sliding in, a modal fading in, the navigation sliding away) is running. */
const TRANSITIONS_SETTLED = `document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running')`;

/**
 * What every page of the portal must pass, checked where a test has the page showing its data:
 * axe-core finds no serious or critical accessibility violation (WCAG 2 A and AA rules), and the
 * page fits a 390 px phone without scrolling sideways. A full-length screenshot at 1280 px and at
 * 390 px is saved as `<name>-1280.png` / `<name>-390.png` in SCREENSHOT_DIR (a CI artefact).
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await expectNoSeriousAccessibilityViolations(page);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-1280.png`, fullPage: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    // The navigation slides away when the layout turns to its phone form: wait until every
    // transition has finished and nothing sticks out.
    const fits = await page.waitForFunction(`${TRANSITIONS_SETTLED} && ${OVERFLOWING}.length === 0`, undefined, { timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!fits) expect(await page.evaluate<string[]>(OVERFLOWING)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-390.png`, fullPage: true });
  } finally {
    await page.setViewportSize(original);
  }
}

/** Runs axe-core in the page; fails listing each serious or critical violation and where. */
export async function expectNoSeriousAccessibilityViolations(page: Page): Promise<void> {
  // Colours are measured as painted: half-way through a fade-in, text has too little contrast.
  await page.waitForFunction(TRANSITIONS_SETTLED, undefined, { timeout: 5_000 }).catch(() => undefined);
  // Once per document: a page the portal's router moved to keeps it (adding its 0.5 MB takes ~0.3 s).
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate<Array<{ id: string; impact: string; targets: string[] }>>(`
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, resultTypes: ['violations'] }).then((result) =>
      result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`);
  expect(violations).toEqual([]);
}
