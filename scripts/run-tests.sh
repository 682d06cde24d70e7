#!/usr/bin/env bash
# Every test tier in order of cost, each run even when an earlier one failed, so one report shows
# everything; then one closing line adding up every tier: "N passed, N failed" (", N skipped").
# A check that is not a mocha tier (typecheck, lint) counts as one test. Just above that line, each
# failed test by name with its error's first line, so a report's tail says what failed. Exits 1 if
# anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p var
export TEST_TALLY_FILE="$PWD/var/test-tally.jsonl"
: > "$TEST_TALLY_FILE"

checks_passed=0
checks_failed=0
status=0
for check in typecheck lint; do
  if npm run --silent "$check"; then checks_passed=$((checks_passed + 1)); else
    checks_failed=$((checks_failed + 1)); status=1
    echo "{\"passed\":0,\"failed\":0,\"pending\":0,\"failures\":[{\"title\":\"npm run $check\",\"error\":\"exited non-zero\"}]}" >> "$TEST_TALLY_FILE"
  fi
done
for tier in test:unit test:client test:integration test:e2e test:harness; do
  echo "== npm run $tier"
  before=$(wc -l < "$TEST_TALLY_FILE")
  if ! npm run --silent "$tier"; then
    status=1
    # A tier that died before mocha could report (a crash, a missing file) still counts.
    if [[ $(wc -l < "$TEST_TALLY_FILE") == "$before" ]]; then
      echo "{\"passed\":0,\"failed\":1,\"pending\":0,\"failures\":[{\"title\":\"npm run $tier\",\"error\":\"died before mocha reported\"}]}" >> "$TEST_TALLY_FILE"
    fi
  fi
done

node -e '
  const lines = require("node:fs").readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const sum = (k) => lines.reduce((n, l) => n + l[k], 0);
  const passed = sum("passed") + Number(process.argv[2]);
  const failed = sum("failed") + Number(process.argv[3]);
  const pending = sum("pending");
  for (const { title, error } of lines.flatMap((l) => l.failures ?? [])) console.log(`FAILED: ${title}: ${error}`);
  console.log(`${passed} passed, ${failed} failed` + (pending > 0 ? `, ${pending} skipped` : ""));
' "$TEST_TALLY_FILE" "$checks_passed" "$checks_failed"
exit "$status"
