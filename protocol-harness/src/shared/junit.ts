// JUnit XML (the Ant/Jenkins schema every CI reads): one <testsuite> per run, a <testcase> per
// check or threshold, a <failure> inside each one that failed.
import os from 'node:os';

export interface JUnitCase {
  name: string;
  /** Groups cases in CI views, e.g. "harness.load.thresholds". */
  classname: string;
  /** null: passed; otherwise why it failed. */
  failure: string | null;
  /**
   * A failure is the system under test's (an assertion); an error means the case could not run
   * (infrastructure), as JUnit tells <failure> from <error>. Default failure.
   */
  kind?: 'failure' | 'error';
  seconds?: number;
}

export interface JUnitSuite {
  name: string;
  /** When the run started. */
  timestamp: Date;
  seconds: number;
  cases: JUnitCase[];
  properties?: Record<string, string | number | boolean>;
}

// XML 1.0 allows tab, LF, CR and everything from 0x20 up (bar the surrogates and FFFE/FFFF).
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlEscape(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attrs = (a: Record<string, string | number>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

const secs = (s: number | undefined) => Math.max(0, s ?? 0).toFixed(3);

/** The first line of a failure is its message attribute; the whole text is the element's body. */
function failure(text: string, kind: 'failure' | 'error'): string {
  const message = text.split('\n')[0].slice(0, 500);
  const type = kind === 'error' ? 'InfrastructureError' : 'AssertionError';
  return `<${kind}${attrs({ message, type })}>${xmlEscape(text)}</${kind}>`;
}

export function toJUnit(suite: JUnitSuite): string {
  const failures = suite.cases.filter((c) => c.failure !== null && c.kind !== 'error').length;
  const errors = suite.cases.filter((c) => c.failure !== null && c.kind === 'error').length;
  // The schema's timestamp is ISO 8601 without a time zone designator.
  const timestamp = suite.timestamp.toISOString().replace(/\.\d+Z$/, '');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: suite.name, tests: suite.cases.length, failures, errors, time: secs(suite.seconds) })}>`,
    `  <testsuite${attrs({ name: suite.name, tests: suite.cases.length, failures, errors, skipped: 0, time: secs(suite.seconds), timestamp, hostname: os.hostname() })}>`,
  ];
  const props = Object.entries(suite.properties ?? {});
  if (props.length > 0) {
    lines.push('    <properties>');
    for (const [name, value] of props) lines.push(`      <property${attrs({ name, value: String(value) })}/>`);
    lines.push('    </properties>');
  }
  for (const c of suite.cases) {
    const open = `    <testcase${attrs({ name: c.name, classname: c.classname, time: secs(c.seconds) })}`;
    lines.push(c.failure === null ? `${open}/>` : `${open}>${failure(c.failure, c.kind ?? 'failure')}</testcase>`);
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
