import { join } from 'node:path';

/**
 * A `node -r` preload that runs the project's TypeScript sources as they are: `.ts` files are
 * compiled with swc when required, and `@app/<lib>` resolves to `libs/<lib>/src`. For tests that
 * start an app's main.ts (or a module) in a child process, as production starts the built one.
 */
export function swcRegisterScript(root: string): string {
  return `
const Module = require('module'); const path = require('path'); const fs = require('fs');
const swc = require(${JSON.stringify(join(root, 'node_modules/@swc/core'))});
const orig = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const m = /^@app\\/([a-z-]+)$/.exec(request);
  return orig.call(this, m ? path.join(${JSON.stringify(root)}, 'libs', m[1], 'src') : request, ...rest);
};
require.extensions['.ts'] = function (module, filename) {
  const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), { filename, jsc: { parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true }, module: { type: 'commonjs' } });
  module._compile(out.code, filename);
};`;
}
