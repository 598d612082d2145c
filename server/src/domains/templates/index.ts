/**
 * Pre-built domain templates (`GET /domains/templates`, `POST /domains { templateId }`).
 *
 * Each template is a domain with a default jurisdiction and 4-8 example units covering all five
 * unit types, each with an executable definition and decision-table examples that pass through
 * the executor (templates.test.ts checks every one). The figures in them illustrate policy as
 * of the dates they name; they are starting points for a domain's experts to review, never
 * legal, tax, medical or financial advice.
 *
 * The types mirror the contract (openapi.yaml: DomainTemplate, UnitTemplate).
 */
import type { IoSchema, UnitDefinition, UnitExample, UnitType } from '../../units/definition.js';
import { finance } from './finance.js';
import { healthcare } from './healthcare.js';
import { hr } from './hr.js';
import { insurance } from './insurance.js';
import { legal } from './legal.js';
import { tax } from './tax.js';

/** A template's example unit: the shape of a unit create body without `domainId`. */
export interface UnitTemplate {
  name: string;
  unitType: UnitType;
  description?: string;
  given?: string;
  when?: string;
  then?: string;
  inputSchema?: IoSchema;
  outputSchema?: IoSchema;
  jurisdiction?: string;
  definition?: UnitDefinition;
  examples?: UnitExample[];
}

export interface DomainTemplate {
  /** A slug; pass it as `templateId`. */
  id: string;
  name: string;
  description: string;
  /** The domain's default jurisdiction (a region code), or null when none makes sense. */
  jurisdiction: string | null;
  units: UnitTemplate[];
}

export const DOMAIN_TEMPLATES: readonly DomainTemplate[] = [finance, legal, healthcare, hr, insurance, tax];

/** The template with this id, if any. */
export function findDomainTemplate(id: string): DomainTemplate | undefined {
  return DOMAIN_TEMPLATES.find((t) => t.id === id);
}
