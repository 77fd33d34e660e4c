/**
 * The logger the application writes to: pino's `Logger` (a type the application only uses; the
 * composition root creates the logger). Components log through a child naming them.
 */
export const LOGGER = Symbol('Logger');
