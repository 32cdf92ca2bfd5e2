import type { RewindChoice, RewindFileConflict } from '../../protocol/rewind.ts';
import { SafeText } from '../text/SafeText.tsx';

// The files someone other than the agent changed since a checkpoint, each with the person's choice:
// keep their version, or take the checkpoint's (which may mean removing a file it did not have).
// The rewind dialog and the Changes card's revert both ask this way.

export function ConflictList(props: {
  conflicts: readonly RewindFileConflict[];
  choices: Readonly<Record<string, RewindChoice>>;
  onChoose: (path: string, choice: RewindChoice) => void;
  /** Keeps the radio groups of two lists on one page apart. */
  group: string;
  /** What taking the checkpoint's version is called here. */
  takeLabel: string;
}) {
  return (
    <ul className="rewind-conflicts">
      {props.conflicts.map((conflict) => (
        <li key={conflict.path} className="rewind-conflict" data-testid="rewind-conflict" data-path={conflict.path}>
          <fieldset>
            <legend>
              <SafeText text={conflict.path} />
            </legend>
            <label>
              <input
                type="radio"
                name={`${props.group}-${conflict.path}`}
                checked={props.choices[conflict.path] === 'keep'}
                data-testid="conflict-keep"
                onChange={() => props.onChoose(conflict.path, 'keep')}
              />
              Keep yours
            </label>
            <label>
              <input
                type="radio"
                name={`${props.group}-${conflict.path}`}
                checked={props.choices[conflict.path] === 'take'}
                data-testid="conflict-take"
                onChange={() => props.onChoose(conflict.path, 'take')}
              />
              {conflict.action === 'remove' ? 'Remove it (it was not there)' : props.takeLabel}
            </label>
          </fieldset>
        </li>
      ))}
    </ul>
  );
}
