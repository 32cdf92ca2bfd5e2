export type * from './api.ts';
export type * from './events.ts';
export type * from './tools.ts';
export type * from './echo.ts';
