/**
 * The dependency-injection decorators the application's (and the adapters') classes are marked
 * with: tsyringe's. Its decorators run when a class is defined, in whichever process first imports
 * it (the service, a worker process of the task pool, a test or a script), and tsyringe refuses
 * to load without the Reflect metadata API. Loading the polyfill here, before tsyringe, once,
 * makes every importer safe; so import tsyringe from here (or, in the composition root, from
 * composition/container.ts), never directly.
 *
 * Constructor parameters are named by explicit `@inject(TOKEN)`, one per parameter, rather than
 * by reflected types: most are interfaces (which leave no type at run time), and explicit tokens
 * need no `emitDecoratorMetadata`. Only decorators are exported: classes never ask a container
 * for anything, the composition root gives them what they need.
 */
import 'reflect-metadata';

export { inject, injectable } from 'tsyringe';
