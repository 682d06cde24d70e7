import { expect } from 'chai';
import { toJUnit, type JUnitSuite } from '../../../src/shared/junit';
import { junitProblems } from '../../support/junit-schema';

const suite = (cases: JUnitSuite['cases']): JUnitSuite => ({ name: 'harness load (chat)', timestamp: new Date('2026-01-02T03:04:05.678Z'), seconds: 12.3456, cases, properties: { clients: 10 } });

describe('JUnit XML', () => {
  it('writes a testcase per check, a <failure> in each failed one, <error> for one that could not run, and conforms to the schema', () => {
    const xml = toJUnit(
      suite([
        { name: 'nothing lost', classname: 'harness.load.chat', failure: null },
        { name: 'threshold p99<50ms', classname: 'harness.load.chat.thresholds', failure: 'p99<50ms: latency p99 was 61.20 ms' },
        { name: 'set-up', classname: 'harness.load', failure: 'server unreachable: connect ECONNREFUSED 127.0.0.1:1', kind: 'error' },
      ]),
    );
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml).to.include('<testsuite name="harness load (chat)" tests="3" failures="1" errors="1" skipped="0" time="12.346" timestamp="2026-01-02T03:04:05"');
    expect(xml).to.match(/<testcase name="nothing lost" classname="harness.load.chat" time="0.000"\/>/);
    expect(xml).to.match(/<testcase name="threshold p99&lt;50ms"[^>]*><failure message="p99&lt;50ms: latency p99 was 61.20 ms" type="AssertionError">/);
    expect(xml).to.match(/<error message="server unreachable: connect ECONNREFUSED 127.0.0.1:1" type="InfrastructureError">/);
  });

  it('escapes markup and drops characters XML cannot hold, so any error text stays well-formed', () => {
    const xml = toJUnit(suite([{ name: 'a "quoted" <name> & more', classname: 'x', failure: 'line one\nline two \u0001 ]]> <tag/> \'\'' }]));
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml).to.include('message="line one"');
  });

  it('its schema check catches what CI would reject: counts that disagree, a case without a name, a bad timestamp', () => {
    expect(junitProblems('<testsuites><testsuite name="s" tests="2" failures="0"><testcase name="a"/></testsuite></testsuites>')).to.deep.equal(['tests="2" but 1 testcases']);
    expect(junitProblems('<testsuites><testsuite name="s" tests="1"><testcase classname="c"/></testsuite></testsuites>')[0]).to.match(/lacks the required attribute name/);
    expect(junitProblems('<testsuites><testsuite name="s" tests="0" timestamp="2026-01-02T03:04:05Z"/></testsuites>')[0]).to.match(/timestamp.*not of its type/);
    expect(junitProblems('<testsuites><testsuite name="s" tests="0"></testsuites>')[0]).to.match(/not well-formed/);
  });
});
