// The session catalog, for the hosts: where sessions are kept, the list and search, a session read
// without being resumed (peek, open, its pages, its images), the names people give them, deletion,
// and the one `--continue` goes on with. Opening one to work in goes through openAgentSession;
// SessionLockedError says another process has it open.

export {
  deleteSession,
  listSessions,
  newestSessionOf,
  openSession,
  openedOf,
  peekSession,
  recordedModel,
} from '../session/catalog.ts';
export { SessionPages } from '../session/event-pages.ts';
export { newestTurnModel } from '../session/newest-model.ts';
export { sessionsRoot } from '../session/paths.ts';
export { IMAGES_FOLDER, readSessionImage, sniffImageType } from '../session/session-images.ts';
export { SessionLockedError } from '../session/session-lock.ts';
export { sessionFileOf } from '../session/session-log.ts';
export { searchSessions } from '../session/session-search.ts';
export { readTitle, writeTitle } from '../session/session-titles.ts';
