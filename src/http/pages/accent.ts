// A brand colour on the hosted pages, always readable: WCAG AA asks 4.5:1 between text and what is behind
// it. The colour is the accent of links and the background of buttons (with white text in light mode, dark
// text in dark mode), so it must reach 4.5:1 against the card and against the button's text. A colour that
// does not is darkened (light mode) or lightened (dark mode) step by step until it does; never shown as is.

type Rgb = [number, number, number];

const LIGHT_CARD: Rgb = [255, 255, 255];
const DARK_CARD: Rgb = [0x1a, 0x1d, 0x23];
const DARK_TEXT: Rgb = [0x0b, 0x12, 0x20];
export const AA_CONTRAST = 4.5;

const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const hexOf = (rgb: Rgb) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2's relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two colours, from 1 to 21. */
export function contrast(a: string | Rgb, b: string | Rgb): number {
  const [la, lb] = [a, b].map((c) => luminance(typeof c === 'string' ? rgbOf(c) : c)).sort((x, y) => y - x);
  return (la + 0.05) / (lb + 0.05);
}

const mix = (from: Rgb, to: Rgb, share: number): Rgb => from.map((v, i) => v + (to[i] - v) * share) as Rgb;

/** The colour moved toward `toward` in 5 % steps until it reaches AA against every one of `against`. */
function readable(hex: string, toward: Rgb, against: Rgb[]): string {
  const start = rgbOf(hex);
  for (let step = 0; step <= 20; step++) {
    const candidate = mix(start, toward, step / 20);
    if (against.every((bg) => contrast(candidate, bg) >= AA_CONTRAST)) return hexOf(candidate);
  }
  return hexOf(toward);
}

/** The accent for light mode (on white, under white text) and for dark mode (on the dark card, under dark text). */
export function accentColours(hex: string): { light: string; dark: string } {
  return {
    light: readable(hex, [0, 0, 0], [LIGHT_CARD]),
    dark: readable(hex, [255, 255, 255], [DARK_CARD, DARK_TEXT]),
  };
}

/** The stylesheet a brand colour adds to the pages: the adjusted accent in both colour schemes. */
export function accentStylesheet(hex: string): string {
  const { light, dark } = accentColours(hex);
  return `:root{--accent:${light};--focus:${light}}\n@media (prefers-color-scheme:dark){:root{--accent:${dark};--focus:${dark}}}\n`;
}
