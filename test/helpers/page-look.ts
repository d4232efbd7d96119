import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

// What every hosted page must be, measured in the browser: readable at 360x740 without sideways scrolling,
// touch targets of at least 44x44 px, button text that fits its button, a one-line language menu, no
// axe-core violation of impact serious or critical, in light and dark; and a screenshot of each, under
// test-artifacts/pages/.

const AXE_SOURCE: string = createRequire(import.meta.url)('axe-core').source;
export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'pages');

export const VIEWPORTS = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
];
export const SCHEMES = ['light', 'dark'] as const;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown }[];
}

/** axe-core's serious and critical findings (WCAG 2.x A and AA rules) on the page as it is now. */
async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe-core is injected into the page, untyped there
    const axe = (window as any).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      // Only the violations are read: axe then lists one node of each other kind, not every one.
      resultTypes: ['violations'],
    });
    return result.violations as Violation[];
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Buttons, inputs and selects a person taps that are smaller than 44 px (44x44 for buttons, 44 high for
 * fields and for a checkbox with its label).
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, input:not([type=hidden]), select')) {
      // A checkbox is tapped through its label too: the label is its target.
      const tapped = el.matches('[type=checkbox], [type=radio]') ? (el.closest('label') ?? el) : el;
      const box = tapped.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not shown (a noscript fallback)
      const isButton = el.tagName === 'BUTTON';
      if (box.height < 44 || (isButton && box.width < 44))
        small.push(`${el.tagName.toLowerCase()}[name=${el.getAttribute('name')}] ${box.width}x${box.height}`);
    }
    return small;
  });
}

/** A button whose text is wider than its box, and a language menu taller than one line of controls. */
export async function crampedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const button of document.querySelectorAll<HTMLElement>('button')) {
      if (button.getBoundingClientRect().width === 0) continue; // not shown
      if (button.scrollWidth > button.clientWidth + 1)
        found.push(`button "${button.textContent}" ${button.scrollWidth}>${button.clientWidth}`);
    }
    const menu = document.querySelector('footer.language form')?.getBoundingClientRect();
    if (menu && menu.height > 60) found.push(`language menu ${menu.height} px high`);
    return found;
  });
}

/** Why the first thing the keyboard reaches shows no focus ring (3 px outline), if it does not. */
async function unseenFocus(page: Page): Promise<string | undefined> {
  await page.keyboard.press('Tab');
  const problem = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing takes the keyboard’s focus';
    const style = getComputedStyle(el);
    return style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2
      ? undefined
      : `${el.tagName.toLowerCase()} shows no focus ring`;
  });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  return problem;
}

/**
 * How a page is drawn does not depend on the database behind it: the run on PostgreSQL + Redis walks the same
 * pages, with every assertion of its test, but leaves these checks (axe, the sizes, the screenshots) to the run
 * on PGlite, and only sets the viewport and colour scheme as they would leave them.
 */
const LOOKS_CHECKED_HERE = !process.env.TEST_DATABASE_URL;

/** The page's checks at every viewport and colour scheme, with a screenshot of each. */
export async function checkLook(page: Page, name: string): Promise<void> {
  if (!LOOKS_CHECKED_HERE) {
    await page.setViewportSize(VIEWPORTS[VIEWPORTS.length - 1]);
    await page.emulateMedia({ colorScheme: SCHEMES[SCHEMES.length - 1] });
    return;
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  assert.equal(await unseenFocus(page), undefined, `${name}: a visible focus`);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      const where = `${name} at ${viewport.width}x${viewport.height}, ${colorScheme}`;
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${where}: scrolls sideways by ${overflow} px`);
      assert.deepEqual(await smallTargets(page), [], `${where}: targets under 44 px`);
      assert.deepEqual(await crampedText(page), [], `${where}: text that does not fit`);
      const violations = await seriousViolations(page);
      assert.deepEqual(
        violations.map(
          (v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`,
        ),
        [],
        `${where}: axe-core`,
      );
      await page.screenshot({
        path: join(ARTIFACTS, `${name}-${viewport.width}-${colorScheme}.png`),
        fullPage: true,
      });
    }
  }
}

/** What a button looks like as drawn: its cursor, background, border style, and its text's contrast (WCAG). */
export async function buttonLook(
  button: Locator,
): Promise<{ cursor: string; background: string; borderStyle: string; contrast: number }> {
  const style = await button.evaluate((el) => {
    const s = getComputedStyle(el);
    return { cursor: s.cursor, background: s.backgroundColor, color: s.color, borderStyle: s.borderTopStyle };
  });
  const luminance = (rgb: string) => {
    const [r, g, b] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(style.color), luminance(style.background)].sort((a, b) => b - a);
  return { ...style, contrast: (light + 0.05) / (dark + 0.05) };
}
