// What the app starts that runs outside it — commands and MCP servers, and what they start — as
// the hosts end it: all at once when the app has no time left to stop them one by one, and, at the
// next start, what an app process that crashed left running.

export { endEveryCallNow } from '../tools/exec/call-processes.ts';
export { endLeftProcesses } from '../tools/exec/left-processes.ts';
