import type { BacklinkData, BacklinkHistoryEntryRecord } from '../records.js';
import type { Rng } from './rng.js';
import { isoDay } from './time.js';
import { ANCHOR_WORDS, WEB_DOMAINS } from './vocab.js';

/**
 * Builds a project's backlink profile. `size` 0 gives an empty profile (a freshly created project).
 *
 * @example `makeBacklinks(rng, projectId, 'acme-outdoor.example', 'Acme Outdoor', today, 1)`
 * @internal
 */
export function makeBacklinks(
  rng: Rng,
  projectId: string,
  domain: string,
  brand: string,
  today: number,
  size: number,
): BacklinkData {
  const domainCount = Math.round(60 * size);
  const domains = Array.from({ length: domainCount }, (_, i) => {
    const base = WEB_DOMAINS[i % WEB_DOMAINS.length] ?? 'example.com';
    const name = i < WEB_DOMAINS.length ? base : `${rng.pick(['blog', 'news', 'shop', 'forum', 'wiki'])}${i}.${base}`;
    return {
      domain: name,
      domain_rank: rng.int(5, 95),
      backlinks: rng.int(1, 240),
      dofollow: rng.chance(0.7),
      first_seen: isoDay(today - rng.int(3, 900)),
    };
  }).sort((a, b) => b.domain_rank - a.domain_rank || a.domain.localeCompare(b.domain));

  const total = domains.reduce((s, d) => s + d.backlinks, 0);
  const anchorTexts = [brand, brand.toLowerCase(), domain, `https://${domain}`, ...ANCHOR_WORDS];
  const anchorCount = Math.round(120 * size);
  const raw = Array.from({ length: anchorCount }, (_, i) => ({
    anchor_text:
      i < anchorTexts.length
        ? (anchorTexts[i] ?? '')
        : `${rng.pick(anchorTexts)} ${rng.pick(['guide', 'review', 'shop', 'tips', 'store', 'blog'])} ${i}`,
    count: Math.max(1, Math.round(400 / (i + 1)) + rng.int(0, 3)),
    is_dofollow: rng.chance(0.75),
  }));
  const anchorSum = raw.reduce((s, a) => s + a.count, 0) || 1;
  const anchors = raw
    .map((a) => ({ ...a, percentage: Math.round((a.count / anchorSum) * 10000) / 100 }))
    .sort((a, b) => b.count - a.count || a.anchor_text.localeCompare(b.anchor_text))
    .map(({ anchor_text, count, percentage, is_dofollow }) => ({ anchor_text, count, percentage, is_dofollow }));

  const history: BacklinkHistoryEntryRecord[] = [];
  if (size > 0) {
    for (let day = today - 29; day <= today; day++) {
      const nb = rng.int(0, 40),
        lb = rng.int(0, 30),
        nd = rng.int(0, 6),
        ld = rng.int(0, 5);
      history.push({
        check_date: isoDay(day),
        new_backlinks: nb,
        lost_backlinks: lb,
        new_referring_domains: nd,
        lost_referring_domains: ld,
        net_backlinks_change: nb - lb,
        net_domains_change: nd - ld,
      });
    }
  }
  const totalNew = history.reduce((s, h) => s + h.new_backlinks, 0);
  const totalLost = history.reduce((s, h) => s + h.lost_backlinks, 0);
  const dofollow = Math.round(total * 0.72);
  const targets =
    size > 0
      ? [domain, `www.${domain}`, `blog.${domain}`].map((target, i) => ({
          id: rng.uuid(),
          target_domain: target,
          total_backlinks: Math.round(total / (i + 1)),
          total_referring_domains: Math.round(domainCount / (i + 1)),
          rank: Math.round(rng.next() * 800) / 10,
          last_summary_update: isoDay(today - i),
        }))
      : [];
  return {
    targets,
    summary: {
      project_id: projectId,
      total_backlinks: total,
      total_referring_domains: domainCount,
      average_domain_rank: domainCount
        ? Math.round((domains.reduce((s, d) => s + d.domain_rank, 0) / domainCount) * 10) / 10
        : 0,
      dofollow_backlinks: dofollow,
      nofollow_backlinks: total - dofollow,
      broken_backlinks: Math.round(total * 0.03),
      tracked_domains_count: targets.length,
      last_updated: isoDay(today),
    },
    history: { history, summary: { total_new: totalNew, total_lost: totalLost, net_change: totalNew - totalLost } },
    anchors,
    domains,
  };
}
