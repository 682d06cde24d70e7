// `harness merge a.json b.json …`: the reports of load runs made at the same time on several
// machines as one report, judged by the same checks, --threshold and exit statuses as one run.
import fs from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { commandLine } from '../shared/html/command-line';
import { writeHtml } from '../shared/html/page';
import { toJUnit } from '../shared/junit';
import { EXIT, EXIT_CODES_HELP } from '../shared/outcome';
import { loadHtml } from './html';
import { mergeReports } from './merge';
import { formatReport, junitSuite, withVerdict, type LoadReport } from './report';
import { evaluateThresholds, parseThreshold, type Threshold } from './threshold';

function threshold(value: string, previous: Threshold[]): Threshold[] {
  try {
    return [...previous, parseThreshold(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function readReport(file: string): LoadReport {
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LoadReport>;
  if (!report.counts || !report.latency || !report.generator) throw new Error(`${file} is not a harness load report (--report or --json output)`);
  return report as LoadReport;
}

export function mergeCommand(): Command {
  return new Command('merge')
    .description('merge the JSON reports of load runs made at the same time (several machines): counts add up, latency histograms merge exactly')
    .argument('<reports...>', 'reports written by `harness load --report FILE` (or its --json output)')
    .option('--threshold <expr>', 'pass/fail criterion on the merged report, repeatable (as harness load)', threshold, [] as Threshold[])
    .option('--json', 'print the merged report as one JSON object', false)
    .option('--report <file>', 'also write the merged JSON report to this file')
    .option('--junit <file>', 'write JUnit XML of the merged checks and thresholds')
    .option('--html <file>', 'write the merged report as one self-contained HTML page (no per-second charts: the runs\' --out files hold those)')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (files: string[], o: { threshold: Threshold[]; json: boolean; report?: string; junit?: string; html?: string }) => {
      let reports: LoadReport[];
      try {
        reports = files.map(readReport);
      } catch (err) {
        process.stderr.write(`merge: ${(err as Error).message}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      let merged: LoadReport;
      try {
        merged = mergeReports(reports);
      } catch (err) {
        process.stderr.write(`merge: ${(err as Error).message}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      merged = withVerdict({ ...merged, thresholds: evaluateThresholds(o.threshold, merged) });
      if (o.report) fs.writeFileSync(o.report, JSON.stringify(merged, null, 2) + '\n');
      if (o.junit) fs.writeFileSync(o.junit, toJUnit(junitSuite(merged, new Date(), merged.generator.sendingSeconds)));
      if (o.html) writeHtml(o.html, loadHtml(merged, null, commandLine()), 'merge');
      await new Promise((resolve) => process.stdout.write((o.json ? JSON.stringify(merged) : formatReport(merged)) + '\n', resolve));
      process.exitCode = merged.exitCode ?? EXIT.failed;
    });
}
