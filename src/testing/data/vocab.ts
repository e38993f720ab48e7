/**
 * Word lists the seeded data is drawn from. Data only: realistic enough that a demo reads like a
 * real account, small enough to ship in the testing bundle.
 *
 * @internal
 */

/** Project blueprints: brand, domain, product terms and prompt category. @internal */
export const PROJECT_BLUEPRINTS = [
  {
    brand: 'Acme Outdoor',
    domain: 'acme-outdoor.example',
    category: 'hiking gear',
    terms: [
      'hiking boots',
      'trail running shoes',
      'camping tent',
      'sleeping bag',
      'rain jacket',
      'backpack',
      'trekking poles',
      'headlamp',
      'water filter',
      'down jacket',
      'hiking socks',
      'camp stove',
      'climbing harness',
      'fleece jacket',
      'ultralight tent',
      'waterproof boots',
      'hydration pack',
      'bivy sack',
      'camping hammock',
      'merino base layer',
    ],
  },
  {
    brand: 'Brightside Dental',
    domain: 'brightside-dental.example',
    category: 'dentist',
    terms: [
      'dentist',
      'teeth whitening',
      'dental implants',
      'emergency dentist',
      'invisalign',
      'root canal',
      'pediatric dentist',
      'dental cleaning',
      'veneers',
      'wisdom tooth removal',
      'cosmetic dentistry',
      'dental crown',
    ],
  },
  {
    brand: 'Northwind Coffee',
    domain: 'northwind-coffee.example',
    category: 'coffee roaster',
    terms: [
      'coffee beans',
      'espresso beans',
      'cold brew',
      'coffee subscription',
      'decaf coffee',
      'single origin coffee',
      'coffee grinder',
      'pour over coffee',
      'french press',
      'coffee shop',
    ],
  },
  {
    brand: 'Harbor Legal',
    domain: 'harbor-legal.example',
    category: 'law firm',
    terms: [
      'personal injury lawyer',
      'divorce attorney',
      'estate planning',
      'employment lawyer',
      'immigration lawyer',
      'car accident lawyer',
      'will and trust',
      'business attorney',
    ],
  },
  {
    brand: 'Pinecrest Realty',
    domain: 'pinecrest-realty.example',
    category: 'real estate agency',
    terms: ['homes for sale', 'real estate agent', 'condos for sale', 'property valuation', 'first time home buyer'],
  },
  {
    brand: 'Lumen Fitness',
    domain: 'lumen-fitness.example',
    category: 'gym',
    terms: ['gym membership', 'personal trainer', 'yoga classes', 'spin class', 'crossfit gym'],
  },
] as const;

/** Keyword modifiers combined with product terms. @internal */
export const MODIFIERS = [
  '',
  'best',
  'cheap',
  'buy',
  'near me',
  'reviews',
  'vs',
  'for beginners',
  'sale',
  'how to choose',
  'top rated',
  'affordable',
  '2025',
  'deals',
  'guide',
  'women',
  'men',
  'lightweight',
  'professional',
  'online',
  'price',
  'comparison',
  'recommended',
  'local',
  'open now',
] as const;

/** Tracking locations. @internal */
export const LOCATIONS = [
  'United States',
  'New York, NY',
  'Los Angeles, CA',
  'Chicago, IL',
  'Houston, TX',
  'Denver, CO',
  'Seattle, WA',
  'Austin, TX',
  'Boston, MA',
  'Portland, OR',
  'United Kingdom',
  'London, UK',
  'Toronto, ON',
  'Sydney, NSW',
  'Berlin, DE',
  'Manchester, UK',
] as const;

/** AI models checked for prompts, `<vendor>/<model>`. @internal */
export const AI_MODELS = [
  'openai/gpt-5',
  'anthropic/claude-sonnet-4',
  'google/gemini-2.5-pro',
  'perplexity/sonar',
] as const;

/** Prompt question templates; `{c}` is the category, `{l}` the city. @internal */
export const PROMPT_TEMPLATES = [
  'What is the best {c} in {l}?',
  'Which {c} do experts recommend in {l}?',
  'Top rated {c} near {l}',
  'How do I choose a good {c}?',
  'Is there an affordable {c} in {l}?',
  'Compare the most popular {c} brands',
  'Where can I find a trustworthy {c} in {l}?',
  'What should I look for in a {c}?',
] as const;

/** Domains that appear as citations and referring domains. @internal */
export const WEB_DOMAINS = [
  'wikipedia.org',
  'reddit.com',
  'nytimes.com',
  'forbes.com',
  'yelp.com',
  'tripadvisor.com',
  'medium.com',
  'outsideonline.com',
  'consumerreports.org',
  'theverge.com',
  'bbc.co.uk',
  'healthline.com',
  'nerdwallet.com',
  'wirecutter.com',
  'youtube.com',
  'quora.com',
  'github.io',
  'substack.com',
  'producthunt.com',
  'trustpilot.com',
  'bloomberg.com',
  'techcrunch.com',
  'localnews.example',
  'cityguide.example',
  'reviewhub.example',
  'blogroll.example',
] as const;

/** Audit issue catalogue: machine type, severity, title, description. @internal */
export const ISSUE_CATALOGUE = [
  ['broken_internal_links', 'critical', 'Broken internal links', 'Links pointing to pages that return 4xx.'],
  ['server_errors', 'critical', 'Pages returning 5xx', 'The server failed to render these pages.'],
  ['missing_title', 'critical', 'Missing title tag', 'Pages without a <title> element.'],
  ['redirect_loops', 'critical', 'Redirect loops', 'Redirect chains that never resolve.'],
  [
    'blocked_by_robots',
    'critical',
    'Important pages blocked by robots.txt',
    'Indexable pages disallowed in robots.txt.',
  ],
  ['duplicate_title', 'warning', 'Duplicate title tags', 'Several pages share the same title.'],
  ['missing_meta_description', 'warning', 'Missing meta description', 'Pages without a meta description.'],
  ['slow_page_load', 'warning', 'Slow page load', 'Largest Contentful Paint above 4 seconds.'],
  ['missing_alt_text', 'warning', 'Images without alt text', 'Images lacking an alt attribute.'],
  ['mixed_content', 'warning', 'Mixed content', 'HTTPS pages loading HTTP resources.'],
  ['redirect_chains', 'warning', 'Redirect chains', 'More than one redirect before the final URL.'],
  ['thin_content', 'warning', 'Thin content', 'Pages with fewer than 200 words.'],
  ['missing_h1', 'warning', 'Missing H1 heading', 'Pages without an H1 element.'],
  ['long_title', 'notice', 'Title too long', 'Titles longer than 60 characters.'],
  ['multiple_h1', 'notice', 'Multiple H1 headings', 'Pages with more than one H1.'],
  ['missing_canonical', 'notice', 'Missing canonical tag', 'Pages without rel=canonical.'],
  ['low_text_ratio', 'notice', 'Low text-to-HTML ratio', 'Little visible text compared with markup.'],
  ['orphan_pages', 'notice', 'Orphan pages', 'Pages with no internal links pointing to them.'],
  ['missing_structured_data', 'notice', 'No structured data', 'Pages without schema.org markup.'],
  ['uncompressed_assets', 'notice', 'Uncompressed assets', 'CSS/JS served without compression.'],
  ['long_url', 'notice', 'Long URLs', 'URLs longer than 100 characters.'],
  ['nofollow_internal_links', 'notice', 'Nofollow internal links', 'Internal links marked rel=nofollow.'],
] as const;

/** Content types and their colours (values are the simulator's choice). @internal */
export const CONTENT_TYPES = [
  ['Blog Post', '#6366f1'],
  ['Guide', '#0ea5e9'],
  ['Landing Page', '#f97316'],
  ['Case Study', '#14b8a6'],
] as const;

/** Content status colours (values are the simulator's choice). @internal */
export const STATUS_COLORS: Readonly<Record<string, string>> = {
  Approved: '#22c55e',
  Published: '#3b82f6',
  'Needs Approval': '#f59e0b',
  Revising: '#ef4444',
};

/** Article title templates; `{t}` is a product term. @internal */
export const TITLE_TEMPLATES = [
  'The Complete Guide to {t}',
  '{t}: 10 Mistakes to Avoid',
  'How We Test {t}',
  '{t} Buying Checklist',
  'What Nobody Tells You About {t}',
  '{t} vs. the Alternatives',
  'Caring for Your {t}',
  'Is {t} Worth It?',
] as const;

/** Anchor text fragments for backlinks. @internal */
export const ANCHOR_WORDS = [
  'click here',
  'official site',
  'homepage',
  'this guide',
  'read more',
  'source',
  'website',
  'here',
  'learn more',
  'review',
] as const;
