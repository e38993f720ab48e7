// dependency-cruiser for `npm run circles` (a pass of `npm test`): src/ holds no import circle, no
// folder circle, and every folder imports only the layers below it (docs/development.md, "Layers").
// Type-only imports count too: a circle of types still ties two files so neither can be read,
// moved or tested alone.

const { CORE_LAYERS, LAYERS, PENDING } = require('./scripts/layers.cjs');

/** A folder of `base` as a path pattern; `''` is the files at `base`'s own level. */
const folderPath = (base, folder) => (folder === '' ? `^${base}[^/]+$` : `^${base}${folder}/`);
const anyOf = (base, folders) => folders.map((folder) => folderPath(base, folder)).join('|');
const label = (base, folder) => (folder === '' ? `the files of ${base}` : `${base}${folder}/`);
const pending = (from, to) => PENDING.some(([a, b]) => a === from && b === to);

/**
 * One rule per folder of a layer table: it imports no folder of its own layer or above (the top
 * layer may import every other, so it has none), and one rule against a folder the table lacks.
 */
function layerRules(base, layers, prefix) {
  const all = layers.flat();
  const perFolder = layers.flatMap((layer, rank) =>
    layer.flatMap((folder) => {
      const below = layers.slice(0, rank).flat();
      const pendingHere = base === 'src/' ? (other) => pending(folder, other) : () => false;
      const forbidden = all.filter((other) => other !== folder && !below.includes(other) && !pendingHere(other));
      if (forbidden.length === 0) return [];
      const allowed = below.length ? below.map((other) => label(base, other)).join(', ') : `no other folder of ${base}`;
      return {
        name: `${prefix}-${folder || 'entry'}`,
        severity: 'error',
        comment: `${label(base, folder)} imports only ${allowed} (a lower layer). Move what both sides need down a layer, into a file both can import.`,
        from: { path: folderPath(base, folder) },
        to: { path: anyOf(base, forbidden) },
      };
    }),
  );
  const unknown = {
    name: `${prefix}-unknown`,
    severity: 'error',
    comment: `A folder or file of ${base} that is in no layer: add it to scripts/layers.cjs and to docs/development.md ("Layers").`,
    from: { path: `^${base}`, pathNot: anyOf(base, all) },
    to: {},
  };
  return [unknown, ...perFolder];
}

const pendingRules = PENDING.map(([from, to]) => ({
  name: `layer-${from}-pending-${to}`,
  severity: 'warn',
  comment: `${label('src/', from)} must not import ${label('src/', to)} (a higher layer); a warning until the branch untying it is merged, then empty PENDING.`,
  from: { path: folderPath('src/', from) },
  to: { path: folderPath('src/', to) },
}));

const pendingFolders = [...new Set(PENDING.flat())];

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
    {
      // Any two folders (core/'s subsystems too), whatever the layer table says: a circle of
      // folders is a circle of concepts even when no two files import each other.
      name: 'no-folder-circle',
      severity: 'error',
      comment: 'A circle of folders: move what both need into the lower one, or into a new small file there.',
      scope: 'folder',
      from: pendingFolders.length ? { pathNot: `^src/(${pendingFolders.join('|')})$` } : {},
      to: { circular: true },
    },
    ...layerRules('src/', LAYERS, 'layer'),
    ...layerRules('src/core/', CORE_LAYERS, 'layer-core'),
    ...pendingRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
