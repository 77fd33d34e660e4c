// StrykerJS 9's mocha runner supports mocha < 12. Mocha 12 ships its CLI helpers as `.cjs` files,
// which the runner requires without an extension (`mocha/lib/cli/run-helpers`), so they are not
// found. This plugin maps those extension-less requests to the `.cjs` files and then hands over
// to the unmodified runner. (Stryker 10 supports mocha 12 but needs Node 22; we run on Node 20.)
import Module from 'node:module';
import fs from 'node:fs';

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (/[/\\]mocha[/\\]lib[/\\]cli[/\\][\w-]+$/.test(request) && fs.existsSync(request + '.cjs')) {
    return resolve.call(this, request + '.cjs', ...rest);
  }
  return resolve.call(this, request, ...rest);
};

const runner = await import('@stryker-mutator/mocha-runner');
export const strykerPlugins = runner.strykerPlugins;
export const strykerValidationSchema = runner.strykerValidationSchema;
