/** The words of a change's verdict, below the impact rules (rules.ts) and the diff's data (types.ts). */
import type { SectionKey } from '../schema/sections.ts';

/** What a change does to the contract's users: callers, consumers of its output, reviewers of its risk. */
export type Impact = 'breaking' | 'risk-increasing' | 'risk-reducing' | 'neutral';

/** A semantic-version bump, from none to major. */
export type Bump = 'none' | 'patch' | 'minor' | 'major';

/** Where a change is: a section's model key, or the front matter. */
export type DiffSection = SectionKey | 'front_matter';
