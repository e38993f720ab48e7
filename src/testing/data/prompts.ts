import type {
  CitationRecord,
  ModelResponseRecord,
  PromptDetailRecord,
  PromptHistoryResponse,
  PromptRecord,
} from '../records.js';
import { hash32, unit } from './rng.js';
import { DAY_MS, isoTime } from './time.js';
import { WEB_DOMAINS } from './vocab.js';

/**
 * Stored state of one tracked prompt. Answers are not stored: analysis round `r` happens at
 * `firstRoundAt + r days` and each model's answer is a pure function of `(seed, prompt, r, model)`.
 *
 * @internal
 */
export interface PromptState {
  id: string;
  /** Global index used for hashing. */
  index: number;
  projectId: string;
  prompt: string;
  target_location: string;
  brand_name: string;
  brand_domain: string;
  category: string;
  ai_search_volume: number;
  models: readonly string[];
  createdAt: number;
  firstRoundAt: number;
  /** Completed analysis rounds; 0 means never checked (`last_checked: null`). */
  rounds: number;
  /** When the next analysis completes (emits `prompts.updated`). */
  nextAt: number;
  lastVolumeUpdate: number;
}

/** Time of round `r`. @internal */
export const roundTime = (p: PromptState, r: number): number => p.firstRoundAt + r * DAY_MS;

/**
 * One model's answer in analysis round `r`.
 * @example `modelAnswer(seed, prompt, 3, 'openai/gpt-5').is_visible`
 * @internal
 */
export function modelAnswer(seed: number, p: PromptState, r: number, model: string): PromptHistoryResponse {
  // Each model has its own affinity for the brand, so `best_model` is stable but not constant.
  const affinity = 0.15 + unit(seed, 'affinity', p.index, model) * 0.7;
  const visible = unit(seed, 'visible', p.index, r, model) < affinity;
  const position = visible ? 1 + (hash32(seed, 'pos', p.index, r, model) % 8) : 0;
  const count = hash32(seed, 'cites', p.index, r, model) % 5;
  const citations: CitationRecord[] = [];
  for (let i = 0; i < count; i++) {
    const domain =
      i === 0 && visible
        ? p.brand_domain
        : (WEB_DOMAINS[hash32(seed, 'cd', p.index, r, model, i) % WEB_DOMAINS.length] ?? 'example.com');
    const slug = p.category.replace(/\s+/g, '-');
    citations.push({
      url: `https://${domain}/${slug}-${hash32(seed, 'cu', p.index, i) % 1000}`,
      title: `${p.category} recommendations`,
      domain,
    });
  }
  const excerpt = visible
    ? `${p.brand_name} is ranked #${position} among the ${p.category} options for ${p.target_location}, praised for quality and service.`
    : `Popular ${p.category} choices in ${p.target_location} include several well-reviewed local names.`;
  return {
    model,
    is_visible: visible,
    position,
    citations_count: count,
    citations,
    response_excerpt: excerpt,
    checked_at: isoTime(roundTime(p, r)),
  };
}

/**
 * All answers with `from ≤ checked_at ≤ to`, newest round first, models in `p.models` order.
 * @internal
 */
export function answersBetween(seed: number, p: PromptState, from: number, to: number): PromptHistoryResponse[] {
  const out: PromptHistoryResponse[] = [];
  const hi = Math.min(p.rounds - 1, Math.floor((to - p.firstRoundAt) / DAY_MS));
  const lo = Math.max(0, Math.ceil((from - p.firstRoundAt) / DAY_MS));
  for (let r = hi; r >= lo; r--) for (const model of p.models) out.push(modelAnswer(seed, p, r, model));
  return out;
}

/**
 * Aggregates of the latest round, shared by the list record and the `prompts.updated` event.
 * @internal
 */
export function latestAggregates(seed: number, p: PromptState) {
  const answers = p.rounds > 0 ? p.models.map((m) => modelAnswer(seed, p, p.rounds - 1, m)) : [];
  const visible = answers.filter((a) => a.is_visible);
  const best = [...visible].sort((a, b) => a.position - b.position)[0];
  return {
    answers,
    visibility_percentage: answers.length ? Math.round((visible.length / answers.length) * 1000) / 10 : 0,
    average_position: visible.length
      ? Math.round((visible.reduce((s, a) => s + a.position, 0) / visible.length) * 10) / 10
      : 0,
    best_model: best?.model ?? p.models[0] ?? '',
    total_citations: answers.reduce((s, a) => s + a.citations_count, 0),
  };
}

/**
 * The prompt list record.
 * @internal
 */
export function promptRecord(seed: number, p: PromptState): PromptRecord {
  const agg = latestAggregates(seed, p);
  const latest: Record<string, ModelResponseRecord> = {};
  for (const a of agg.answers) {
    latest[a.model] = {
      is_visible: a.is_visible,
      position: a.position,
      citations_count: a.citations_count,
      response_excerpt: a.response_excerpt,
    };
  }
  return {
    id: p.id,
    prompt: p.prompt,
    target_location: p.target_location,
    brand_name: p.brand_name,
    visibility_percentage: agg.visibility_percentage,
    average_position: agg.average_position,
    best_model: agg.best_model,
    ai_search_volume: p.ai_search_volume,
    total_citations: agg.total_citations,
    latest_responses: latest,
    // A prompt never checked has no last check: `null`, as the SDK accepts for a pending timestamp.
    last_checked: p.rounds > 0 ? isoTime(roundTime(p, p.rounds - 1)) : null,
    created_at: isoTime(p.createdAt),
  };
}

/**
 * The prompt detail record.
 * @internal
 */
export function promptDetail(seed: number, p: PromptState): PromptDetailRecord {
  const record = promptRecord(seed, p);
  return {
    ...record,
    ai_models: [...p.models],
    last_analyzed: record.last_checked,
    last_volume_update: isoTime(p.lastVolumeUpdate),
  };
}
