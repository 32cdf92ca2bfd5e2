import { processStateText, type ProcessInfo } from '../../../protocol/processes.ts';
import { formatBytes, formatDuration } from '../../../protocol/format.ts';

// How a process reads to the model: one line with its id, state, uptime, ports and output size.

export function processLine(info: ProcessInfo): string {
  const parts = [
    `${info.id}: ${processStateText(info)}`,
    `${info.state === 'running' ? 'up' : 'ran'} ${formatDuration(info.uptime_ms)}`,
    ...(info.pid !== null ? [`pid ${info.pid}`] : []),
    ...(info.tty ? ['terminal'] : []),
    ...(info.ports.length > 0 ? [`listening on ${info.ports.map((port) => `:${port}`).join(' ')}`] : []),
    `${formatBytes(info.output_bytes)} of output`,
  ];
  const left = info.left_behind;
  const count = (n: number): string => `${n} process${n === 1 ? '' : 'es'}`;
  const after =
    left && left.stopped + left.still_running > 0
      ? ` [It had started ${count(left.stopped + left.still_running)} outside its process group: ${left.stopped} stopped with it${left.still_running > 0 ? `, ${left.still_running} could not be stopped` : ''}.]`
      : '';
  return `${parts.join(' · ')} — ${info.command}${after}`;
}
