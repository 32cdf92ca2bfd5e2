import { readFileSync } from 'node:fs';
import { findChromium, findSshd, onPath, type Env, type Found } from './system-programs.ts';

// First step of `npm test`: the tests run a real sshd, the OpenSSH client tools and a real
// Chromium. On a machine without them, stop at once with one message naming the packages and the
// command that installs them here, instead of minutes of failing tests.

type PackageManager = 'apt' | 'dnf' | 'brew';

interface Requirement {
  program: string;
  found: Found;
  /** The package that brings it, per package manager; null where the system ships it. */
  packages: Record<PackageManager, string | null>;
}

export interface SystemFacts {
  env: Env;
  platform: NodeJS.Platform;
  /** The text of /etc/os-release; empty where there is none. */
  osRelease: string;
  /** True when running as root (no sudo in the advice). */
  root: boolean;
}

export type Preflight = { ok: true; found: string[] } | { ok: false; message: string };

function requirements(env: Env, ubuntu: boolean): Requirement[] {
  const client = { apt: 'openssh-client', dnf: 'openssh-clients', brew: 'openssh' };
  const tool = (program: string): Found => {
    const found = onPath(program, env);
    return found ? { path: found } : { missing: 'not on the PATH' };
  };
  return [
    {
      program: 'sshd',
      found: findSshd(env),
      packages: { apt: 'openssh-server', dnf: 'openssh-server', brew: 'openssh' },
    },
    { program: 'ssh-keygen', found: tool('ssh-keygen'), packages: client },
    { program: 'ssh-agent', found: tool('ssh-agent'), packages: client },
    { program: 'ssh-add', found: tool('ssh-add'), packages: client },
    { program: 'pgrep', found: tool('pgrep'), packages: { apt: 'procps', dnf: 'procps-ng', brew: null } },
    {
      program: 'chromium',
      found: findChromium(env),
      packages: { apt: ubuntu ? 'chromium-browser' : 'chromium', dnf: 'chromium', brew: '--cask chromium' },
    },
  ];
}

/** The package manager of this system, from the platform and /etc/os-release's ID and ID_LIKE. */
export function packageManager(platform: NodeJS.Platform, osRelease: string): PackageManager | null {
  if (platform === 'darwin') return 'brew';
  const field = (name: string): string[] =>
    (new RegExp(`^${name}=(.*)$`, 'm').exec(osRelease)?.[1] ?? '').replace(/["']/g, '').split(/\s+/);
  const ids = [...field('ID'), ...field('ID_LIKE')];
  if (ids.some((id) => id === 'debian' || id === 'ubuntu')) return 'apt';
  if (ids.some((id) => ['fedora', 'rhel', 'centos'].includes(id))) return 'dnf';
  return null;
}

function installCommand(manager: PackageManager, packages: string[], root: boolean): string[] {
  const sudo = root ? '' : 'sudo ';
  if (manager === 'apt') return [`${sudo}apt-get install -y ${packages.join(' ')}`];
  if (manager === 'dnf') return [`${sudo}dnf install -y ${packages.join(' ')}`];
  // brew takes casks in a command of their own.
  const casks = packages.filter((name) => name.startsWith('--cask ')).map((name) => name.slice('--cask '.length));
  const formulas = packages.filter((name) => !name.startsWith('--cask '));
  return [
    ...(formulas.length > 0 ? [`brew install ${formulas.join(' ')}`] : []),
    ...(casks.length > 0 ? [`brew install --cask ${casks.join(' ')}`] : []),
  ];
}

export function preflight(facts: SystemFacts): Preflight {
  const manager = packageManager(facts.platform, facts.osRelease);
  const all = requirements(facts.env, /^ID=("?)ubuntu\1$/m.test(facts.osRelease));
  const missing = all.filter((requirement) => 'missing' in requirement.found);
  if (missing.length === 0) return { ok: true, found: all.map(({ found }) => ('path' in found ? found.path : '')) };

  const lines = ['npm test needs programs this machine does not have:'];
  for (const { program, found } of missing) if ('missing' in found) lines.push(`  ${program}: ${found.missing}`);
  const packages = [...new Set(missing.map(({ packages }) => (manager ? packages[manager] : null)))].filter(
    (name): name is string => name !== null,
  );
  if (manager && packages.length > 0) {
    lines.push('Install them with:', ...installCommand(manager, packages, facts.root).map((line) => `  ${line}`));
  } else {
    const debian = [...new Set(missing.map(({ packages }) => packages.apt).filter(Boolean))].join(', ');
    lines.push(`Install them with your package manager (Debian's packages: ${debian}).`);
  }
  if (missing.some(({ program }) => program === 'chromium'))
    lines.push('For the browser alone, `npx playwright install chromium` downloads Playwright’s build instead.');
  lines.push('AETHER_SSHD and AETHER_CHROMIUM name programs kept elsewhere.');
  return { ok: false, message: lines.join('\n') };
}

function readOsRelease(): string {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return '';
  }
}

if (import.meta.main) {
  const outcome = preflight({
    env: process.env,
    platform: process.platform,
    osRelease: readOsRelease(),
    root: process.getuid?.() === 0,
  });
  if (!outcome.ok) {
    process.stderr.write(`${outcome.message}\n`);
    process.exit(1);
  }
}
