// Preloaded into a stack process with NODE_OPTIONS=--require (Node 20 refuses --cpu-prof there):
// samples its main thread from start-up and writes the profile into BENCH_PROFILE_DIR on SIGUSR2,
// so a benchmark can profile exactly the span it measures, without the process having to exit.
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const path = require('node:path');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start')));
process.on('SIGUSR2', () => {
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(path.join(process.env.BENCH_PROFILE_DIR, `worker-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    session.post('Profiler.start');
  });
});
