import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  cacheLine,
  compactionSetting,
  contextPercent,
  DEFAULT_COMPACT_AT,
  formatCost,
  limitText,
  shortTokens,
  totalCost,
  type MeterState,
} from '../store/meter.ts';
import { usePanel, type PanelState } from '../store/store.ts';
import { useCompactionOutlook } from './ContextNote.tsx';

// The footer's context meter: how full the model's context is (a bar and a percentage of the
// window) and what the session has cost so far. It moves with every step of a turn: the
// estimate before the request (in the provider's terms once a step has ended, so the figure does
// not jump between the two), the provider's figure once the step ends. Near compaction its colour
// changes and ContextNote says so in words. Pressing it opens the status view (StatusView), the
// panel's `/status`.

const numbers = new Intl.NumberFormat('en');

function usedLine(meter: MeterState): string {
  if (meter.context_tokens === null) return 'nothing sent yet';
  const estimate =
    meter.estimated === 'length' ? ' (estimated from the text’s length)' : meter.estimated ? ' (estimate)' : '';
  const used = `${numbers.format(meter.context_tokens)} tokens${estimate}`;
  const percent = contextPercent(meter);
  if (percent === null || meter.context_window === undefined) return `${used} of an unknown window`;
  return `${used} of ${numbers.format(meter.context_window)} (${percent.toFixed(1)} %)`;
}

function costLine(meter: MeterState): string {
  const agents = meter.agents_cost ? `, of which agents: ${formatCost(meter.agents_cost)}` : '';
  const cost = `${formatCost(totalCost(meter))}${agents}`;
  if (meter.unpriced_steps === 0) return cost;
  const steps = meter.unpriced_steps === 1 ? 'one step' : `${meter.unpriced_steps} steps`;
  return `${cost}, not counting ${steps} of a model without known prices`;
}

/** The prompt cache's figures: the last step's and the session's. */
function cacheRow(meter: MeterState): string {
  if (meter.cache === undefined)
    return meter.context_tokens === null || meter.estimated
      ? 'nothing reported yet'
      : 'not reported by this model’s provider';
  return `last step ${cacheLine(meter.cache.last)}; this session ${cacheLine(meter.cache.session)}`;
}

/** The provider's rate limits as the last step's response stated them. */
function limitsRow(meter: MeterState): string {
  if (meter.limits === undefined || meter.limits.limits.length === 0)
    return meter.context_tokens === null || meter.estimated
      ? 'nothing reported yet'
      : 'not reported by this model’s provider';
  return meter.limits.limits.map(limitText).join('; ');
}

/** Model, effort, window, context used, cost, and when the context is compacted: label, value, test id. */
export function statusRows(state: {
  meter: MeterState;
  model: string;
  effort: string;
  compactAt: number | null | undefined;
}): [string, string, string][] {
  const { meter, compactAt } = state;
  return [
    ['Model', state.model, 'status-model'],
    ['Effort', state.effort, 'status-effort'],
    [
      'Window',
      meter.context_window === undefined
        ? 'unknown (set one with model_overrides in settings.json)'
        : `${numbers.format(meter.context_window)} tokens${meter.catalog ? ` (${meter.catalog})` : ''}`,
      'status-window',
    ],
    ['Used', usedLine(meter), 'status-used'],
    ['Cost', costLine(meter), 'status-cost'],
    ['Cache', cacheRow(meter), 'status-cache'],
    ['Limits', limitsRow(meter), 'status-limits'],
    [
      'Compaction',
      compactAt === null ? 'by hand only' : `automatic at ${compactAt ?? DEFAULT_COMPACT_AT} % of the window`,
      'status-compaction',
    ],
  ];
}

/** What the status view and `/status` read from the store. */
export function statusOf(state: PanelState) {
  return {
    meter: state.transcript.meter,
    model: state.settings?.model ?? '—',
    effort: state.settings?.effort ?? '—',
    compactAt: compactionSetting(state.settings),
  };
}

/** The status view: model, effort, window, context used, cost, and when the context is compacted. */
export function StatusView({ id }: { id?: string }) {
  const rows = statusRows(usePanel(useShallow(statusOf)));
  return (
    <dl className="status-view" data-testid="status-view" {...(id ? { id } : {})}>
      {rows.map(([label, value, testId]) => (
        <div key={label} className="status-row">
          <dt>{label}</dt>
          <dd data-testid={testId}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ContextMeter() {
  const meter = usePanel((state) => state.transcript.meter);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  const outlook = useCompactionOutlook();
  const percent = contextPercent(meter);
  const shown = percent === null ? null : Math.min(100, percent);
  const level = percent === null ? 'unknown' : outlook ? 'high' : percent >= 60 ? 'mid' : 'low';
  const label =
    meter.context_tokens === null
      ? '—'
      : percent === null
        ? shortTokens(meter.context_tokens)
        : `${percent < 10 ? percent.toFixed(1) : Math.round(percent)}%`;
  return (
    <span
      className="context-meter"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="context-meter-button"
        data-testid="context-meter"
        data-estimated={meter.estimated ? 'true' : 'false'}
        aria-expanded={open}
        aria-controls="status-view"
        title={`Context: ${usedLine(meter)}. Session cost: ${costLine(meter)}.${meter.cache ? ` Last step: ${cacheLine(meter.cache.last)}.` : ''} Press for the status.`}
        onClick={() => setOpen((value) => !value)}
      >
        <span
          className="context-meter-bar"
          role="meter"
          aria-label="Context used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={shown === null ? 0 : Math.round(shown)}
          aria-valuetext={percent === null ? 'unknown' : (outlook?.text ?? `${Math.round(percent)} %`)}
          data-level={level}
        >
          <span className="context-meter-fill" style={{ width: `${shown ?? 0}%` }} />
        </span>
        <span data-testid="context-meter-percent">{label}</span>
        <span data-testid="context-meter-cost">{formatCost(totalCost(meter))}</span>
      </button>
      {open ? (
        <span className="status-popover" role="dialog" aria-label="Session status">
          <StatusView id="status-view" />
        </span>
      ) : null}
    </span>
  );
}
