/**
 * Exports every keyword of a project to CSV, streaming: memory stays flat whatever the count.
 *
 * Without a key, against the built-in simulator (from a clone of this repository):
 *   npm run --silent example examples/export-keywords-csv.ts > keywords.csv
 * With a key, against the service (the first project unless you pass an id):
 *   SEO_VISIBILITY_API_KEY=… SEO_VISIBILITY_BASE_URL=https://…/api/v1 npx tsx examples/export-keywords-csv.ts [projectId] > keywords.csv
 */
import { keywordIdOf, SeoVisibilityClient } from 'seo-visibility';

const client = new SeoVisibilityClient();
const projectId = process.argv[2] ?? (await client.projects.list({ limit: 1 })).items[0]?.id;
if (!projectId) throw new Error('No project: pass a project id');

const columns = [
  'id',
  'keyword',
  'location',
  'desktop_position',
  'mobile_position',
  'ai_mode_position',
  'maps_position',
  'net_change',
] as const;
// RFC 4180: quote fields holding a comma, quote or line break; double the quotes inside.
const cell = (value: unknown) => {
  const text = value === undefined || value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

process.stdout.write(`${columns.join(',')}\n`);
let rows = 0;
for await (const keyword of client.rankings.list(projectId)) {
  const record = { ...keyword, id: keywordIdOf(keyword) };
  process.stdout.write(`${columns.map((column) => cell(record[column])).join(',')}\n`);
  rows++;
}
process.stderr.write(`${rows} keywords exported\n`);
