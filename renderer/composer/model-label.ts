import { modelIdParts } from '../../protocol/providers.ts';

// How the panel names a model in its picker: the model's own name first, since that is what tells
// two models apart, then, for a compatible server, where it runs (`qwen2.5-coder · 127.0.0.1:11434`).
// A long name is cut in the middle, keeping its start (the family) and its end (size, version,
// quantisation), where a cut at the end would make two models read the same.

/** Longer model names are cut in the middle to this many characters. */
const MAX_NAME = 28;

/** `name` cut in the middle to `max` characters, most of them from its end. */
export function shortenMiddle(name: string, max = MAX_NAME): string {
  if (name.length <= max) return name;
  const tail = Math.ceil((max - 1) * 0.6);
  const head = max - 1 - tail;
  return `${name.slice(0, head)}…${name.slice(-tail)}`;
}

function hostOf(base: string): string {
  try {
    return new URL(base).host || base;
  } catch {
    return base;
  }
}

/** One model id as the picker shows it: `claude-sonnet-4-5`, `llama3.2 · 127.0.0.1:11434`, `demo`. */
export function modelLabel(id: string): string {
  // The provider's prefix goes (protocol/providers.ts): the name already implies it.
  const parts = modelIdParts(id);
  if (parts?.server !== undefined) {
    const where = hostOf(parts.server);
    return parts.model ? `${shortenMiddle(parts.model)} · ${where}` : where;
  }
  return shortenMiddle(parts?.model ?? id);
}

/** The labels of the models offered together; two that would read the same keep their full ids. */
export function modelLabels(ids: readonly string[]): Map<string, string> {
  const labels = new Map(ids.map((id) => [id, modelLabel(id)]));
  const seen = new Map<string, number>();
  for (const label of labels.values()) seen.set(label, (seen.get(label) ?? 0) + 1);
  for (const [id, label] of labels) if ((seen.get(label) ?? 0) > 1) labels.set(id, id);
  return labels;
}
