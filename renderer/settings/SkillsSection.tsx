import { useEffect, useState } from 'react';
import { errorMessage } from '../../protocol/errors.ts';
import type { UserCommandList } from '../../protocol/composer.ts';
import { useActions } from '../actions.ts';
import { loadedSkills } from '../composer/run-builtin.ts';
import { usePanel } from '../store/store.ts';
import { SafeText } from '../text/SafeText.tsx';

// The skills section of Settings: each skill the model is offered (a SKILL.md folder of the
// workspace or the app home), whether the model loaded it in this session, how to invoke it, and
// the SKILL.md files left out with their line.

export function SkillsSection() {
  const actions = useActions();
  const [list, setList] = useState<UserCommandList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loaded = usePanel((state) => [...loadedSkills(state)].join('\n'));

  useEffect(() => {
    let live = true;
    actions
      .userCommands()
      .then((listed) => live && setList(listed))
      .catch((caught: unknown) => live && setError(errorMessage(caught)));
    return () => {
      live = false;
    };
  }, [actions]);

  const skills = list?.commands.filter((command) => command.source === 'skill') ?? [];
  const problems = list?.problems.filter((problem) => problem.includes('SKILL.md') || problem.includes('skills')) ?? [];
  const used = new Set(loaded.split('\n'));
  return (
    <section className="mcp-servers skills" aria-labelledby="skills-title" data-testid="skills">
      <h3 id="skills-title" tabIndex={-1}>
        Skills
      </h3>
      <p className="card-note">
        Folders with a <code>SKILL.md</code> in this workspace&apos;s <code>.agents/skills/</code>,{' '}
        <code>.claude/skills/</code> or <code>.aethercodex/skills/</code>, or in <code>skills/</code> of your app home.
        The model sees each one&apos;s name and description and loads the rest when a task needs it; type{' '}
        <code>/name</code> to ask for one.
      </p>
      {error ? (
        <p className="card-error" role="alert">
          {error}
        </p>
      ) : null}
      {problems.map((problem) => (
        <p key={problem} className="card-error" data-testid="skill-problem">
          <SafeText text={problem} />
        </p>
      ))}
      {list && skills.length === 0 ? <p className="card-note">No skill is there yet.</p> : null}
      {list === null && error === null ? <p className="card-note">Loading skills…</p> : null}
      {skills.length > 0 ? (
        <ul className="skill-list">
          {skills.map((skill) => (
            <li key={skill.name} className="skill-entry" data-testid="skill-entry">
              <code className="skill-name">/{skill.name}</code>
              {used.has(skill.name) ? (
                <span className="badge badge-ok" data-testid="skill-loaded">
                  loaded in this session
                </span>
              ) : null}
              <span className="skill-description">
                <SafeText text={skill.description} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
