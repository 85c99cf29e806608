// Notes when this run started, for the test that checks the artifacts folder holds this run's files only.
export default function globalSetup() {
  process.env.E2E_RUN_STARTED = String(Date.now());
}
