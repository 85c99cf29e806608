// Ends the run's output with one line, "N passed, N failed" (and the skipped and flaky, if any), as
// scripts/e2e.sh promises.
export default class SummaryReporter {
  constructor() {
    this.counts = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
  }

  printsToStdio() {
    return false;
  }

  onEnd(result) {
    this.result = result;
  }

  onTestEnd(test) {
    // The last result of each test decides (retries are off: a test runs once).
    const outcome = test.outcome();
    if (outcome === 'expected') this.counts.passed++;
    else if (outcome === 'skipped') this.counts.skipped++;
    else if (outcome === 'flaky') this.counts.flaky++;
    else this.counts.failed++;
  }

  onExit() {
    const { passed, failed, skipped, flaky } = this.counts;
    const extra = [skipped ? `${skipped} skipped` : '', flaky ? `${flaky} flaky` : ''].filter(Boolean).join(', ');
    console.log(`${passed} passed, ${failed} failed${extra ? `, ${extra}` : ''}${this.result?.status === 'passed' ? '' : ` (run ${this.result?.status})`}`);
  }
}
