// What `z.locales` holds in the aether command: English only (see aether.js). zod's own entry
// re-exports every locale it ships, 64 modules nothing here uses.
export { default as en } from 'zod/v4/locales/en.js';
