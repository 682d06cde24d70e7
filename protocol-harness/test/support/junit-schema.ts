// The structure of the JUnit XML schema CI servers read (the Ant/Jenkins junit-10.xsd): what
// elements nest where, in what order, which attributes each must carry and of what type, and
// that the suite's counts agree with its cases. Parsed by jsdom's XML parser, so a document that
// is not well-formed XML fails too.
import { JSDOM } from 'jsdom';

const DECIMAL = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;
/** xs:dateTime without a time zone, as the schema's ISO8601_DATETIME_PATTERN. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

function attributes(el: Element, required: Record<string, RegExp | null>, optional: Record<string, RegExp | null>, problems: string[]): void {
  const where = `<${el.tagName}${el.getAttribute('name') ? ` name="${el.getAttribute('name')}"` : ''}>`;
  for (const [name, pattern] of Object.entries(required)) {
    const value = el.getAttribute(name);
    if (value === null) problems.push(`${where} lacks the required attribute ${name}`);
    else if (pattern && !pattern.test(value)) problems.push(`${where} ${name}="${value}" is not of its type`);
  }
  for (const attr of Array.from(el.attributes)) {
    if (attr.name in required) continue;
    if (!(attr.name in optional)) problems.push(`${where} has an attribute the schema does not allow: ${attr.name}`);
    else if (optional[attr.name] && !optional[attr.name]!.test(attr.value)) problems.push(`${where} ${attr.name}="${attr.value}" is not of its type`);
  }
}

/** Children's tag names must follow `order`, each at most once unless listed in `many`. */
function sequence(el: Element, order: string[], many: string[], problems: string[]): void {
  let at = 0;
  const seen = new Set<string>();
  for (const child of Array.from(el.children)) {
    const i = order.indexOf(child.tagName);
    if (i < 0) problems.push(`<${el.tagName}> may not contain <${child.tagName}>`);
    else if (i < at) problems.push(`<${child.tagName}> comes out of order in <${el.tagName}>`);
    else if (seen.has(child.tagName) && !many.includes(child.tagName)) problems.push(`<${el.tagName}> has more than one <${child.tagName}>`);
    at = Math.max(at, i);
    seen.add(child.tagName);
  }
}

/** Every way the document departs from the schema (empty: it conforms). */
export function junitProblems(xml: string): string[] {
  const problems: string[] = [];
  const doc = new new JSDOM('').window.DOMParser().parseFromString(xml, 'text/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) return [`not well-formed XML: ${error.textContent ?? ''}`];
  const root = doc.documentElement;
  if (root.tagName !== 'testsuites') return [`the root is <${root.tagName}>, not <testsuites>`];
  attributes(root, {}, { name: null, tests: INTEGER, failures: INTEGER, errors: INTEGER, disabled: INTEGER, time: DECIMAL }, problems);
  sequence(root, ['testsuite'], ['testsuite'], problems);
  for (const suite of Array.from(root.children)) {
    attributes(
      suite,
      { name: /./, tests: INTEGER },
      { failures: INTEGER, errors: INTEGER, skipped: INTEGER, disabled: INTEGER, time: DECIMAL, timestamp: TIMESTAMP, hostname: /./, id: null, package: null },
      problems,
    );
    sequence(suite, ['properties', 'testcase', 'system-out', 'system-err'], ['testcase'], problems);
    for (const props of Array.from(suite.children).filter((c) => c.tagName === 'properties')) {
      sequence(props, ['property'], ['property'], problems);
      for (const p of Array.from(props.children)) attributes(p, { name: /./, value: null }, {}, problems);
    }
    const cases = Array.from(suite.children).filter((c) => c.tagName === 'testcase');
    let failures = 0;
    let errors = 0;
    for (const c of cases) {
      attributes(c, { name: /./ }, { classname: null, time: DECIMAL, assertions: INTEGER, status: null }, problems);
      sequence(c, ['skipped', 'error', 'failure', 'system-out', 'system-err'], ['error', 'failure'], problems);
      for (const f of Array.from(c.children).filter((x) => x.tagName === 'failure' || x.tagName === 'error')) {
        attributes(f, {}, { message: null, type: null }, problems);
        if (f.tagName === 'failure') failures++;
        else errors++;
      }
    }
    const count = (name: string) => Number(suite.getAttribute(name) ?? 0);
    if (count('tests') !== cases.length) problems.push(`tests="${count('tests')}" but ${cases.length} testcases`);
    if (count('failures') !== failures) problems.push(`failures="${count('failures')}" but ${failures} <failure>`);
    if (count('errors') !== errors) problems.push(`errors="${count('errors')}" but ${errors} <error>`);
  }
  return problems;
}
