/**
 * tsyringe's container, for the composition root only. Imported after the application's injection
 * module, which loads the Reflect metadata polyfill tsyringe needs before tsyringe itself.
 */
import '../application/injection.js';

export { container, instanceCachingFactory } from 'tsyringe';
export type { DependencyContainer, InjectionToken } from 'tsyringe';
