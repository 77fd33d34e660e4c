/**
 * The door to tsyringe, the dependency container. Its decorators run when a class is defined,
 * in whichever process first imports it (the service, a worker process of the task pool, a test
 * or a script), and tsyringe refuses to load without the Reflect metadata API. Loading the
 * polyfill here, before tsyringe, once, makes every importer safe; so import tsyringe from here,
 * never directly.
 *
 * Constructor parameters are named by explicit `@inject(TOKEN)`, one per parameter, rather than
 * by reflected types: most are interfaces (which leave no type at run time), and explicit tokens
 * need no `emitDecoratorMetadata`.
 */
import 'reflect-metadata';

export { container, inject, injectable, instanceCachingFactory, Lifecycle } from 'tsyringe';
export type { DependencyContainer, InjectionToken } from 'tsyringe';
