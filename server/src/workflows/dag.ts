/**
 * A workflow's DAG from its ordered units (DESIGN §9): an `io` edge joins a unit's output to a
 * later unit's input of the same name and compatible type, a `feeds` edge is a unit edge between
 * two of its units; `inputs` are the unit inputs no earlier unit produces, `outputs` what the
 * units produce. Pure: the service loads the units and edges, this checks and derives.
 */
import { invalid } from '../shared/errors.js';
import type { IoSchema, VariableSchema } from '../units/definition.js';
import { describeType, typesCompatible, variablesOf } from '../units/io-types.js';

export interface DagUnit {
  id: string;
  name: string;
  unitType: string;
  status: string;
  inputSchema: IoSchema;
  outputSchema: IoSchema;
}

export interface FeedsEdge {
  sourceUnitId: string;
  targetUnitId: string;
  mapping: Record<string, string>;
}

export interface WorkflowVariable {
  name: string;
  type: string;
  unitId: string;
}

export interface Dag {
  nodes: { unitId: string; name: string; unitType: string; status: string }[];
  edges: { from: string; to: string; variable: string | null; kind: 'io' | 'feeds' }[];
  inputs: WorkflowVariable[];
  outputs: WorkflowVariable[];
  verification: { status: 'verified' | 'partial' | 'unverified'; verifiedUnits: number; totalUnits: number };
}

/** Where each unit's inputs come from: an earlier unit's output (by feeds mapping or by name). */
export interface Feed {
  from: string;
  output: string;
  input: string;
}

/**
 * Derives the DAG of `units` in their order and checks it: a feeds edge must run forward (a
 * backward one would close a cycle with the order), and a producer and a consumer of a variable
 * must agree on its type. Errors are 400 naming `units[i]` (the consumer) and both units.
 * `lenient` (viewing a stored version whose units or edges changed since) leaves such links out.
 */
export function deriveDag(
  units: readonly DagUnit[], feedsEdges: readonly FeedsEdge[], opts: { lenient?: boolean } = {},
): Dag & { feeds: Map<string, Feed[]> } {
  const index = new Map(units.map((u, i) => [u.id, i]));
  const edges: Dag['edges'] = [];
  const feeds = new Map<string, Feed[]>(units.map((u) => [u.id, []]));
  const inputs: WorkflowVariable[] = [];
  const produced = new Map<string, { unit: DagUnit; schema: VariableSchema | undefined }>();

  for (const edge of feedsEdges) {
    const from = index.get(edge.sourceUnitId);
    const to = index.get(edge.targetUnitId);
    if (from === undefined || to === undefined) continue;
    if (from >= to && !opts.lenient) {
      throw invalid(`units[${from}]`, `${units[from]!.name} feeds ${units[to]!.name}, which comes before it: reorder the units (the chain must be acyclic)`);
    }
  }

  units.forEach((unit, i) => {
    const fedInputs = new Set<string>();
    for (const edge of feedsEdges.filter((e) => e.targetUnitId === unit.id && (index.get(e.sourceUnitId) ?? i) < i)) {
      const pairs = Object.entries(edge.mapping);
      if (pairs.length === 0) edges.push({ from: edge.sourceUnitId, to: unit.id, variable: null, kind: 'feeds' });
      for (const [output, input] of pairs) {
        edges.push({ from: edge.sourceUnitId, to: unit.id, variable: input, kind: 'feeds' });
        feeds.get(unit.id)!.push({ from: edge.sourceUnitId, output, input });
        fedInputs.add(input);
      }
    }
    for (const [name, schema] of Object.entries(variablesOf(unit.inputSchema))) {
      if (fedInputs.has(name)) continue;
      const producer = produced.get(name);
      if (!producer) {
        if (!inputs.some((v) => v.name === name)) inputs.push({ name, type: describeType(schema), unitId: unit.id });
        continue;
      }
      if (!typesCompatible(producer.schema, schema)) {
        if (opts.lenient) continue;
        throw invalid(`units[${i}]`, `${producer.unit.name} produces ${name} as ${describeType(producer.schema)} but ${unit.name} needs it as ${describeType(schema)}`);
      }
      edges.push({ from: producer.unit.id, to: unit.id, variable: name, kind: 'io' });
      feeds.get(unit.id)!.push({ from: producer.unit.id, output: name, input: name });
    }
    for (const [name, schema] of Object.entries(variablesOf(unit.outputSchema))) produced.set(name, { unit, schema });
  });

  const verifiedUnits = units.filter((u) => u.status === 'verified').length;
  return {
    nodes: units.map((u) => ({ unitId: u.id, name: u.name, unitType: u.unitType, status: u.status })),
    edges,
    inputs,
    outputs: [...produced.entries()].map(([name, p]) => ({ name, type: describeType(p.schema), unitId: p.unit.id })),
    verification: {
      status: verifiedUnits === units.length && units.length > 0 ? 'verified' : verifiedUnits > 0 ? 'partial' : 'unverified',
      verifiedUnits,
      totalUnits: units.length,
    },
    feeds,
  };
}

/**
 * Orders units so that every producer comes before its consumers (by variable name and feeds
 * edges), keeping the given order otherwise (compose chains matched units this way).
 */
export function chainOrder(units: readonly DagUnit[], feedsEdges: readonly FeedsEdge[]): DagUnit[] {
  const producersOf = (u: DagUnit) => {
    const needs = new Set(Object.keys(variablesOf(u.inputSchema)));
    const byName = units.filter((p) => p.id !== u.id && Object.keys(variablesOf(p.outputSchema)).some((o) => needs.has(o)));
    const byEdge = feedsEdges.filter((e) => e.targetUnitId === u.id).map((e) => units.find((p) => p.id === e.sourceUnitId)).filter((p): p is DagUnit => p !== undefined);
    return new Set([...byName, ...byEdge]);
  };
  const ordered: DagUnit[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (u: DagUnit) => {
    if (placed.has(u.id) || visiting.has(u.id)) return; // a mutual dependency keeps the given order
    visiting.add(u.id);
    for (const p of producersOf(u)) visit(p);
    visiting.delete(u.id);
    placed.add(u.id);
    ordered.push(u);
  };
  for (const u of units) visit(u);
  return ordered;
}
