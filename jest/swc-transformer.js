// Jest on Node 20 cannot require() ES modules (it can on Node >= 24.9), and NestJS 12 ships as ESM.
// So ESM packages are compiled to CommonJS by swc like our own code; `import.meta.url`, which has
// no CommonJS form, is rewritten to the file URL of the module first.
const swcJest = require('@swc/jest');

const IMPORT_META_URL = /\bimport\.meta\.url\b/g;
const CJS_FILE_URL = "require('node:url').pathToFileURL(__filename).href";

function rewrite(source, filename) {
  return filename.includes('node_modules') ? source.replace(IMPORT_META_URL, CJS_FILE_URL) : source;
}

module.exports = {
  createTransformer(options) {
    const inner = swcJest.createTransformer(options);
    return {
      ...inner,
      process(source, filename, jestOptions) {
        return inner.process(rewrite(source, filename), filename, jestOptions);
      },
      processAsync(source, filename, jestOptions) {
        return inner.processAsync(rewrite(source, filename), filename, jestOptions);
      },
      getCacheKey(source, filename, jestOptions) {
        return `esm-cjs-1:${inner.getCacheKey(rewrite(source, filename), filename, jestOptions)}`;
      },
    };
  },
};
