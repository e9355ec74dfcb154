/**
 * Headless rendering of Vega-Lite specs: SVG through vega's View with the
 * `none` renderer (no DOM, no canvas), PNG by rasterising that SVG with
 * @resvg/resvg-js. resvg draws no text at all when it has no fonts and says
 * nothing, so fonts are always passed explicitly.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
export const FONT_FAMILY = 'DejaVu Sans';

/** Vega's default font stack is sans-serif; pin it to the font resvg is given. */
const FONT_CONFIG = { font: FONT_FAMILY };

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const { spec: vegaSpec } = compile({ ...spec, config: { ...FONT_CONFIG, ...(spec.config ?? {}) } } as TopLevelSpec);
  const view = new View(parse(vegaSpec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

let fontWarningShown = false;

/** The two faces vega's charts use (labels and bold titles): resvg parses every font it is given on every render. */
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) => join(FONT_DIR, f));

/** resvg font options: DejaVu Sans (its two faces, else its folder) when installed; otherwise system fonts, with one warning. */
export function fontOptions(warn: (message: string) => void = (m) => process.stderr.write(`${m}\n`)) {
  if (FONT_FILES.every((f) => existsSync(f))) return { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: FONT_FAMILY };
  if (existsSync(FONT_DIR)) return { loadSystemFonts: false, fontDirs: [FONT_DIR], defaultFontFamily: FONT_FAMILY };
  if (!fontWarningShown) {
    warn(`warning: ${FONT_DIR} not found (install fonts-dejavu-core); PNG text falls back to system fonts and may be missing`);
    fontWarningShown = true;
  }
  return { loadSystemFonts: true, defaultFontFamily: FONT_FAMILY };
}

/** PNG bytes of a spec, at `scale` × the SVG's size (2 for sharp figures on screens). */
export async function renderPng(spec: TopLevelSpec, scale = 2): Promise<Buffer> {
  const svg = await renderSvg(spec);
  const resvg = new Resvg(svg, { font: fontOptions(), fitTo: { mode: 'zoom', value: scale }, background: 'white' });
  return resvg.render().asPng();
}
