// dependency-cruiser for `npm run circles` (a pass of `npm test`): src/ must hold no import circle.
// Type-only imports count too: a circle of types still ties two files so neither can be read,
// moved or tested alone.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: untie it by moving what both sides need into a file both import.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
