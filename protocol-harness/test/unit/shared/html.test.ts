import { expect } from 'chai';
import { commandLine, redactArgs, shellQuote } from '../../../src/shared/html/command-line';
import { escapeHtml, inlineScript, scriptJson } from '../../../src/shared/html/escape';

describe('the HTML report\'s escaping and command line', () => {
  it('escapes text and attribute values, whatever the value', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).to.equal('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml(null)).to.equal('null');
  });

  it('writes chart data that cannot close its <script> element and still parses to the same value', () => {
    const value = { label: '</script><!-- \u2028 \u2029', n: [1, null] };
    const text = scriptJson(value);
    expect(text).not.to.match(/<|\u2028|\u2029/);
    expect(JSON.parse(text)).to.deep.equal(value);
    expect(inlineScript('a = "</script>"; b = /<\\/SCRIPT/')).to.equal('a = "<\\/script>"; b = /<\\/SCRIPT/');
  });

  it('hides passwords in both option forms, and the password part of EMAIL:PASSWORD', () => {
    expect(redactArgs(['load', '--password', 'p1', '--passcode=p2', '--caller', 'a@x.io:se:cret', '--callee=b@x.io:pw', '--third', 'c@x.io:pw', '--users-prefix', 'ld'])).to.deep.equal([
      'load', '--password', '***', '--passcode=***', '--caller', 'a@x.io:***', '--callee=b@x.io:***', '--third', 'c@x.io:***', '--users-prefix', 'ld',
    ]);
  });

  it('quotes arguments as a POSIX shell needs them', () => {
    expect(shellQuote('http://127.0.0.1:8080')).to.equal('http://127.0.0.1:8080');
    expect(shellQuote('p99<50ms')).to.equal(`'p99<50ms'`);
    expect(shellQuote(`it's`)).to.equal(`'it'\\''s'`);
    expect(commandLine(['load', '--threshold', 'p99<50ms', '--password', 'x'])).to.equal(`harness load --threshold 'p99<50ms' --password '***'`);
  });
});
