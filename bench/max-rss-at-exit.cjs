// Preloaded (`node -r`) into each process the long-run bench starts: prints the process's peak
// resident set size at exit (getrusage's ru_maxrss), which sampling could miss between two ticks.
process.on('exit', () => {
  process.stderr.write(`\nmax-rss-at-exit ${process.resourceUsage().maxRSS * 1024}\n`);
});
