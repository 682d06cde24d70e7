// axe-core in the page under test: the accessibility check of the browser tests. Only
// violations of impact serious or critical fail a test; each is reported with its nodes.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe on the whole page; returns the serious and critical violations, described. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy forbids script tags it did not ship.
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  // A screen fading in shows blended colours until its transition ends: axe would judge the
  // contrast of a frame nobody reads (seen under load: a settings button at 2.3:1 mid-fade).
  // Spinners run for ever and are left out.
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export function describeViolations(where: string, violations: AxeViolation[]): string {
  return violations.map((v) => `${where}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.join('\n    ')}`).join('\n');
}
