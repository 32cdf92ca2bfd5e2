import { z } from 'zod';

// A session exported for reading elsewhere: the formats, and the file the panel saves.

/** A Markdown document, or a self-contained HTML page drawn like the panel. */
export const SESSION_EXPORT_FORMATS = ['markdown', 'html'] as const;
export const sessionExportFormatSchema = z.enum(SESSION_EXPORT_FORMATS);
export type SessionExportFormat = z.infer<typeof sessionExportFormatSchema>;

/** A session exported as a file: its suggested name, its type and its text, secrets removed. */
export interface SessionExport {
  name: string;
  mime: string;
  text: string;
}
