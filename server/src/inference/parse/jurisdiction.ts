/**
 * The jurisdiction a query names: a US state or DC ('US-CA'), or one of a few countries and the EU
 * ('US', 'GB', 'DE', 'EU', …). docs/PARSER.md lists the table.
 */

/** US states and DC by name, with their USPS codes. */
export const US_STATES: Readonly<Record<string, string>> = {
  Alabama: 'AL', Alaska: 'AK', Arizona: 'AZ', Arkansas: 'AR', California: 'CA', Colorado: 'CO', Connecticut: 'CT',
  Delaware: 'DE', Florida: 'FL', Georgia: 'GA', Hawaii: 'HI', Idaho: 'ID', Illinois: 'IL', Indiana: 'IN', Iowa: 'IA',
  Kansas: 'KS', Kentucky: 'KY', Louisiana: 'LA', Maine: 'ME', Maryland: 'MD', Massachusetts: 'MA', Michigan: 'MI',
  Minnesota: 'MN', Mississippi: 'MS', Missouri: 'MO', Montana: 'MT', Nebraska: 'NE', Nevada: 'NV', 'New Hampshire': 'NH',
  'New Jersey': 'NJ', 'New Mexico': 'NM', 'New York': 'NY', 'North Carolina': 'NC', 'North Dakota': 'ND', Ohio: 'OH',
  Oklahoma: 'OK', Oregon: 'OR', Pennsylvania: 'PA', 'Rhode Island': 'RI', 'South Carolina': 'SC', 'South Dakota': 'SD',
  Tennessee: 'TN', Texas: 'TX', Utah: 'UT', Vermont: 'VT', Virginia: 'VA', Washington: 'WA', 'West Virginia': 'WV',
  Wisconsin: 'WI', Wyoming: 'WY', 'District of Columbia': 'DC',
};

/** Countries and unions by name (matched case-insensitively) and by code or abbreviation (matched as written). */
export const COUNTRIES: ReadonlyArray<{ code: string; names: string[]; abbreviations: string[]; adjectives: string[] }> = [
  { code: 'US', names: ['United States of America', 'United States'], abbreviations: ['US', 'U.S.', 'USA', 'U.S.A.'], adjectives: ['American'] },
  {
    code: 'GB',
    names: ['United Kingdom', 'Great Britain', 'Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
    abbreviations: ['UK', 'U.K.', 'GB'],
    adjectives: ['British', 'English', 'Scottish', 'Welsh'],
  },
  { code: 'EU', names: ['European Union'], abbreviations: ['EU', 'E.U.'], adjectives: [] },
  { code: 'DE', names: ['Germany', 'Deutschland'], abbreviations: [], adjectives: ['German'] },
  { code: 'FR', names: ['France'], abbreviations: [], adjectives: ['French'] },
  { code: 'IE', names: ['Ireland', 'Republic of Ireland'], abbreviations: [], adjectives: ['Irish'] },
  { code: 'NL', names: ['Netherlands', 'Holland'], abbreviations: [], adjectives: ['Dutch'] },
  { code: 'ES', names: ['Spain'], abbreviations: [], adjectives: [] },
  { code: 'IT', names: ['Italy'], abbreviations: [], adjectives: ['Italian'] },
  { code: 'CH', names: ['Switzerland'], abbreviations: [], adjectives: ['Swiss'] },
  { code: 'CA', names: ['Canada'], abbreviations: [], adjectives: ['Canadian'] },
  { code: 'MX', names: ['Mexico'], abbreviations: [], adjectives: ['Mexican'] },
  { code: 'AU', names: ['Australia'], abbreviations: [], adjectives: ['Australian'] },
  { code: 'JP', names: ['Japan'], abbreviations: [], adjectives: ['Japanese'] },
  { code: 'IN', names: ['India'], abbreviations: [], adjectives: [] },
];

// An adjective names a jurisdiction only before one of these ("German law", "a French employer"):
// "a Spanish-speaking patient" or "French fries" do not.
const ADJECTIVE_HEADS = 'law|laws|legal|court|courts|statute|statutes|rules|regulations?|employers?|employees?|employment|company|companies|subsidiary|office|residents?|citizens?|entity|jurisdiction';
// A bare USPS code ("CA") names a state after one of these words ("in CA", "under NY law"),
// and not before words that make it another acronym ("a VA loan").
const CODE_LEAD = /(?:\b(?:in|for|under|from|of|to|across|outside)\s+(?:the\s+state\s+of\s+)?)$/i;
const CODE_NOT_BEFORE = /^\s*(?:loans?|mortgages?|benefits?|guidelines?|hospitals?|programs?|disability|claims?)\b/i;

export interface JurisdictionMention {
  code: string;
  start: number;
  end: number;
}

interface Pattern {
  regex: RegExp;
  code: string;
  /** Abbreviations and codes must appear in capitals. */
  caseSensitive: boolean;
  adjective: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function buildPatterns(): Pattern[] {
  const patterns: Pattern[] = [];
  const phrase = (s: string) => escape(s).replace(/\\ |\s+/g, '\\s+');
  // "Washington, D.C." before Washington the state.
  patterns.push({ regex: /\bWashington,?\s+D\.?\s?C\.?(?![A-Za-z])/gi, code: 'US-DC', caseSensitive: false, adjective: false });
  patterns.push({ regex: /(?<![A-Za-z.])D\.C\.(?![A-Za-z])/g, code: 'US-DC', caseSensitive: true, adjective: false });
  for (const [name, code] of Object.entries(US_STATES)) {
    patterns.push({ regex: new RegExp(`\\b${phrase(name)}\\b`, 'gi'), code: `US-${code}`, caseSensitive: false, adjective: false });
  }
  patterns.push({ regex: /\bCalifornian\b/gi, code: 'US-CA', caseSensitive: false, adjective: false });
  for (const country of COUNTRIES) {
    for (const name of country.names) {
      patterns.push({ regex: new RegExp(`\\b${phrase(name)}\\b`, 'gi'), code: country.code, caseSensitive: false, adjective: false });
    }
    for (const abbr of country.abbreviations) {
      patterns.push({ regex: new RegExp(`(?<![A-Za-z.])${escape(abbr)}(?![A-Za-z])`, 'g'), code: country.code, caseSensitive: true, adjective: false });
    }
    for (const adj of country.adjectives) {
      patterns.push({ regex: new RegExp(`\\b${adj}(?=\\s+(?:${ADJECTIVE_HEADS})\\b)`, 'gi'), code: country.code, caseSensitive: false, adjective: true });
    }
  }
  return patterns;
}

const PATTERNS = buildPatterns();
const STATE_CODES = new Set(Object.values(US_STATES));

/** Every jurisdiction named in a text, in order, longest first where two overlap. */
export function findJurisdictions(text: string): JurisdictionMention[] {
  const found: JurisdictionMention[] = [];
  for (const p of PATTERNS) {
    p.regex.lastIndex = 0;
    for (let m = p.regex.exec(text); m; m = p.regex.exec(text)) {
      // "New Mexico" is not Mexico; "West Virginia" is not Virginia.
      if (p.code === 'MX' && /new\s+$/i.test(text.slice(0, m.index))) continue;
      if (p.code === 'US-VA' && /west\s+$/i.test(text.slice(0, m.index))) continue;
      found.push({ code: p.code, start: m.index, end: m.index + m[0].length });
    }
  }
  // Region codes written out: "US-CA", "US_TX".
  for (const m of text.matchAll(/(?<![A-Za-z])US[-_]([A-Z]{2})(?![A-Za-z])/g)) {
    if (STATE_CODES.has(m[1]!)) found.push({ code: `US-${m[1]}`, start: m.index, end: m.index + m[0].length });
  }
  // Bare USPS codes, in capitals, after "in", "under", … ("in CA", "under NY law").
  for (const m of text.matchAll(/(?<![A-Za-z.-])([A-Z]{2})(?![A-Za-z.-])/g)) {
    const code = m[1]!;
    if (!STATE_CODES.has(code)) continue;
    if (!CODE_LEAD.test(text.slice(0, m.index))) continue;
    if (CODE_NOT_BEFORE.test(text.slice(m.index + 2))) continue;
    found.push({ code: `US-${code}`, start: m.index, end: m.index + 2 });
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: JurisdictionMention[] = [];
  for (const f of found) {
    const prev = kept[kept.length - 1];
    if (prev && f.start < prev.end) continue;
    kept.push(f);
  }
  return kept;
}

/**
 * The jurisdiction a text names: the first one mentioned, or a later one inside it
 * ("in the US, in Texas" -> 'US-TX').
 */
export function pickJurisdiction(mentions: readonly JurisdictionMention[]): JurisdictionMention | null {
  const first = mentions[0];
  if (!first) return null;
  const inside = mentions.find((m) => m.code.startsWith(`${first.code}-`));
  return inside ?? first;
}
