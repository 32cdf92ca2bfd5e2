import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// The model for the next turns, from the models the panel offers (`info().models`).

export function ModelPicker() {
  const actions = useActions();
  const models = usePanel((state) => state.models);
  const current = usePanel((state) => state.settings?.model ?? '');
  const options = current && !models.includes(current) ? [current, ...models] : models;
  return (
    <select
      className="model-picker"
      data-testid="model-picker"
      aria-label="Model"
      value={current}
      disabled={options.length === 0}
      onChange={(event) => void actions.updateSettings({ model: event.target.value })}
    >
      {options.map((model) => (
        <option key={model} value={model}>
          {model}
        </option>
      ))}
    </select>
  );
}
