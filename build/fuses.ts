// The Electron fuses ÆtherCodex ships with, flipped in the packed executable by build/after-pack.ts.
// Fuses are bits compiled into the binary: they hold no matter what the environment, the command
// line or a script in the app asks for. This object is the one place they are decided.
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import type { FuseV1Config } from '@electron/fuses';

export const electronFuses = {
  version: FuseVersion.V1,
  // Every fuse the wire knows must be set here: a newer Electron with a fuse this list does not
  // decide fails the pack instead of shipping that fuse's default unseen.
  strictlyRequireAllFuses: true,
  // ELECTRON_RUN_AS_NODE would turn the signed app into a general-purpose Node interpreter.
  [FuseV1Options.RunAsNode]: false,
  // Cookies and other Chromium secrets at rest are encrypted with the OS key store.
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS (e.g. --require) and --inspect would let anyone who can set the environment or the
  // command line run code inside the main process.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // The app.asar is checked against the hash electron-builder embeds (macOS Info.plist, Windows
  // resource); Electron does not implement the check on Linux, where the bit is inert.
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  // Electron loads the app only from app.asar, never from an app/ folder dropped beside it.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // One V8 snapshot for all processes (Electron's default); nothing here builds a browser snapshot.
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // The renderer is served from the app:// protocol, so file:// pages need no extra privileges.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  // WebAssembly bounds checks through signal handlers (Electron's default); Code Mode runs QuickJS
  // as WebAssembly in the main process and is much slower without them.
  [FuseV1Options.WasmTrapHandlers]: true,
} satisfies FuseV1Config;
