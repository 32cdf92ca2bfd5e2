// electron-builder afterPack hook: flips the fuses of build/fuses.ts in the packed executable and
// drops Electron's default app. afterPack runs after the app is copied in and before code signing,
// which is the one moment a fuse can change: flipping bytes after signing would break the signature.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { flipFuses } from '@electron/fuses';
import { Arch } from 'electron-builder';
import type { AfterPackContext, LinuxPackager } from 'electron-builder';
import { electronFuses } from './fuses.ts';

/** The file @electron/fuses patches: the Linux executable, the Windows .exe, or the macOS .app. */
function packedExecutable(context: AfterPackContext): string {
  const { appOutDir, electronPlatformName, packager } = context;
  switch (electronPlatformName) {
    case 'linux':
      return join(appOutDir, (packager as LinuxPackager).executableName);
    case 'win32':
      return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
    case 'darwin':
    case 'mas':
      return join(appOutDir, `${packager.appInfo.productFilename}.app`);
    default:
      throw new Error(
        `after-pack: no fuse target for platform "${electronPlatformName}"; add it to build/after-pack.ts`,
      );
  }
}

export default async function afterPack(context: AfterPackContext): Promise<void> {
  const isMac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  // Apple silicon refuses to run a binary whose ad-hoc signature no longer matches its bytes; when no
  // signing identity re-signs the app later, the ad-hoc signature must be renewed after the flip.
  const resetAdHocDarwinSignature = isMac && (context.arch === Arch.arm64 || context.arch === Arch.universal);
  await flipFuses(packedExecutable(context), { ...electronFuses, resetAdHocDarwinSignature });
  // electron-builder removes default_app.asar only from an Electron it downloaded itself; a local
  // ELECTRON_DIST folder or zip keeps it. The app never needs Electron's demo app.
  await rm(join(context.packager.getResourcesDir(context.appOutDir), 'default_app.asar'), { force: true });
}
