import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium by default (`apt-get install -y chromium`); CHROMIUM_PATH names another Chromium or Chrome. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Headless, and quiet on a closed network: no background connections, updates or sync. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * Chromium's features the tests turn off. Headless Chromium still gives every window (one per
 * browser context, so one per page the tests open) an omnibox pop-up built as a WebUI page, loaded
 * in a renderer of its own: about 200 modules and a quarter of a second of CPU a context, over a
 * third of Chromium's CPU in the portal's browser tests. Nothing here uses an address bar.
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

/** The browser tests' Chromium; never a downloaded browser: a missing one fails with how to get it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: apt-get install -y chromium, or set CHROMIUM_PATH to a Chromium or Chrome executable (the tests never download a browser).`);
  }
  const playwrightDisables = playwrightDisabledFeaturesSwitch();
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    ignoreDefaultArgs: [playwrightDisables],
    args: [...CHROMIUM_ARGS, `${playwrightDisables},${DISABLED_FEATURES.join(',')}`],
  });
}

/**
 * The `--disable-features=…` switch Playwright passes. Chromium keeps only the last of several
 * `--disable-features` switches, so ours must replace Playwright's with the union of both lists, not
 * follow it. Playwright does not export its defaults; they are read from the module that makes them,
 * and a Playwright that moved it fails here rather than silently losing its own list.
 */
function playwrightDisabledFeaturesSwitch(): string {
  const switchesModule = join(dirname(require.resolve('playwright-core/package.json')), 'lib/server/chromium/chromiumSwitches.js');
  const { chromiumSwitches } = require(switchesModule) as { chromiumSwitches?: (assistantMode?: boolean) => string[] };
  const found = chromiumSwitches?.(false).find((arg) => arg.startsWith('--disable-features='));
  if (!found) throw new Error(`Playwright's default --disable-features switch was not found in ${switchesModule}: update launchChromium for this Playwright.`);
  return found;
}
