// Preloaded (`node -r`) into each process the cold-start bench starts: prints the process's own CPU
// time at exit, which a loaded machine inflates far less than the wall time.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\ncpu-at-exit ${(user + system) / 1000}\n`);
});
