// electron-builder configuration: `npm run dist` (this OS's installers), `npm run pack` (unpacked
// app). TypeScript rather than YAML or package.json so the file is checked against electron-builder's
// own Configuration type by `tsc -b`, reads the environment in code (ELECTRON_DIST, the update feed)
// and hands the fuse hook over as a function; the packaging test runs this very file.
import type { Configuration } from 'electron-builder';
import afterPack from './after-pack.ts';

const env = process.env;

// Runtime feeds come from Settings or AETHERCODEX_UPDATE_FEED (main/electron/updater.ts). The value
// here only lands in resources/app-update.yml; `.invalid` can never resolve, so a build made without
// a feed cannot quietly contact a host nobody chose.
const updateFeed = env['AETHERCODEX_UPDATE_FEED'] || 'https://updates.aethercodex.invalid/';

// Only the bundles go in. Sources, tests, declaration files and source maps stay out, here and in
// the production dependencies (the `!` patterns below also apply inside node_modules).
const files = [
  'out/main/**/*',
  'out/preload/**/*',
  'out/renderer/**/*',
  '!**/*.map',
  '!**/*.{ts,tsx,mts,cts}',
  '!**/node_modules/**/*.{md,markdown}',
  '!**/node_modules/**/{test,tests,__tests__,__snapshots__,docs,example,examples}{,/**/*}',
  '!**/node_modules/**/*.{test,spec}.{js,cjs,mjs}',
  // ssh2 works without its optional native crypto binding and cpu-features (both are loaded in a
  // try/catch). npmRebuild is off, so those binaries would be built for the wrong Node ABI anyway:
  // ship the pure JavaScript path only, with nothing to unpack from the asar.
  '!**/node_modules/ssh2/lib/protocol/crypto/{build,src}{,/**/*}',
  '!**/node_modules/ssh2/lib/protocol/crypto/binding.gyp',
  '!**/node_modules/ssh2/install.js',
  '!**/node_modules/{cpu-features,buildcheck,nan}{,/**/*}',
];

const config: Configuration = {
  appId: 'dev.aethercodex.app',
  productName: 'ÆtherCodex',
  copyright: 'Copyright © ÆtherCodex contributors',
  directories: { buildResources: 'build', output: 'dist' },
  // Written into the packed package.json. deb and rpm require a project address (the domain the
  // appId is named after); Electron takes its Linux app_id / WM_CLASS from desktopName, which
  // syncDesktopName makes the .desktop file's name too, so the desktop links windows to the launcher.
  extraMetadata: { homepage: 'https://aethercodex.dev/', desktopName: 'aethercodex.desktop' },
  files,
  asar: true,
  // The one native module shipped: the pseudo-terminal of `exec` with `tty: true`. Its platform
  // package holds a prebuilt N-API binary (and, on macOS, its spawn helper), which a process can only
  // load from a real file: it goes beside the asar, where Electron finds it for the code inside.
  asarUnpack: ['**/node_modules/@lydell/node-pty-*/**'],
  // N-API binaries need no rebuild against Electron's headers, and ssh2's optional ones are left out
  // (see files): nothing to rebuild.
  npmRebuild: false,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  // A production dependency that cannot be found fails the build instead of shipping an app that
  // crashes on its first import.
  allowMissingDependencies: false,
  // A local Electron (unpacked folder or the release zip) for machines that cannot download one.
  electronDist: env['ELECTRON_DIST'] || null,
  afterPack,
  publish: [{ provider: 'generic', url: updateFeed, channel: 'latest' }],

  linux: {
    target: ['AppImage', 'deb', 'rpm'],
    icon: 'build/icons',
    executableName: 'aethercodex',
    syncDesktopName: true,
    category: 'Development',
    synopsis: 'A desktop panel for an AI coding oracle',
    maintainer: 'ÆtherCodex contributors <maintainers@aethercodex.dev>',
    artifactName: '${name}-${version}-${arch}.${ext}',
  },
  deb: { packageCategory: 'devel', priority: 'optional' },
  mac: {
    target: ['dmg', 'zip'],
    icon: 'build/icon.icns',
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
    artifactName: '${name}-${version}-${arch}.${ext}',
  },
  dmg: { writeUpdateInfo: false },
  win: {
    target: ['nsis'],
    icon: 'build/icon.ico',
    artifactName: '${name}-${version}-setup-${arch}.${ext}',
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    installerIcon: 'build/icon.ico',
    uninstallerIcon: 'build/icon.ico',
  },
};

export default config;
