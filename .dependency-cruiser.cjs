// dependency-cruiser for `npm run circles` (a pass of `npm test`): src/ holds no import circle, no
// folder circle, and every folder imports only the layers below it (docs/development.md, "Layers").
// Type-only imports count too: a circle of types still ties two files so neither can be read,
// moved or tested alone.

const { LAYERS, PENDING } = require('./scripts/layers.cjs');

const folderPath = (folder) => (folder === '' ? '^src/[^/]+$' : `^src/${folder}/`);
const anyOf = (folders) => folders.map(folderPath).join('|');
const label = (folder) => (folder === '' ? 'the entry files' : `${folder}/`);
const pending = (from, to) => PENDING.some(([a, b]) => a === from && b === to);

// One rule per folder; the top layer (the CLI) may import every other, so it has none.
const layerRules = LAYERS.flatMap((layer, rank) =>
  layer.flatMap((folder) => {
    const below = LAYERS.slice(0, rank).flat();
    const forbidden = LAYERS.flat().filter(
      (other) => other !== folder && !below.includes(other) && !pending(folder, other),
    );
    if (forbidden.length === 0) return [];
    return {
      name: `layer-${folder || 'entry'}`,
      severity: 'error',
      comment: `${label(folder)} imports only ${below.length ? below.map(label).join(', ') : 'no other src/ folder'} (a lower layer). Move what both sides need down a layer, into a file both can import.`,
      from: { path: folderPath(folder) },
      to: { path: anyOf(forbidden) },
    };
  }),
);

const pendingRules = PENDING.map(([from, to]) => ({
  name: `layer-${from}-pending-${to}`,
  severity: 'warn',
  comment: `${label(from)} must not import ${label(to)} (a higher layer); a warning until the branch untying it is merged, then empty PENDING.`,
  from: { path: folderPath(from) },
  to: { path: folderPath(to) },
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
    {
      name: 'layer-unknown',
      severity: 'error',
      comment:
        'A src/ folder that is in no layer: add it to LAYERS in .dependency-cruiser.cjs and to docs/development.md.',
      from: { path: '^src/', pathNot: anyOf(LAYERS.flat()) },
      to: {},
    },
    ...layerRules,
    ...pendingRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
