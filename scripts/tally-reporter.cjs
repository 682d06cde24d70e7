// Mocha's spec reporter, plus a tally of this run for `make test`'s closing line: each test
// counted once, by its full title, as failed if it failed at all (mocha reports a test twice when
// an uncaught error follows its failure or its pass). Appends one JSON line to $TEST_TALLY_FILE,
// with each failure's title and the first line of its error, so the closing lines can name them.
const fs = require('node:fs');
const { reporters } = require('mocha');

class TallyReporter extends reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const passed = new Set();
    const failed = new Map();
    let pending = 0;
    runner.on('pass', (test) => passed.add(test.fullTitle()));
    runner.on('fail', (test, error) => {
      const title = test.fullTitle();
      if (!failed.has(title)) failed.set(title, String(error?.message ?? error).split('\n')[0].slice(0, 300));
    });
    runner.on('pending', () => pending++);
    runner.once('end', () => {
      const file = process.env.TEST_TALLY_FILE;
      if (!file) return;
      const passedOnly = [...passed].filter((title) => !failed.has(title)).length;
      const failures = [...failed].map(([title, error]) => ({ title, error }));
      fs.appendFileSync(file, `${JSON.stringify({ passed: passedOnly, failed: failed.size, pending, failures })}\n`);
    });
  }
}

module.exports = TallyReporter;
