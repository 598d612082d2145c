import Table from 'cli-table3';
import { createColors } from 'picocolors';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

/** How a command prints: `--json` data for scripts, or tables and text for people. */
export class Output {
  readonly color: ReturnType<typeof createColors>;

  constructor(
    readonly asJson: boolean,
    colorEnabled: boolean,
    readonly stdout: NodeJS.WriteStream = process.stdout,
    readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {
    this.color = createColors(colorEnabled);
  }

  /** The raw `data` of a response, as JSON. */
  json(value: unknown): void {
    this.stdout.write(JSON.stringify(value, null, 2) + '\n');
  }

  line(text = ''): void {
    this.stdout.write(text + '\n');
  }

  /** Notes for people (progress, warnings): on stderr, so stdout stays clean for pipes. */
  note(text: string): void {
    this.stderr.write(text + '\n');
  }

  table<T>(rows: readonly T[], columns: readonly Column<T>[]): void {
    if (rows.length === 0) {
      this.line(this.color.dim('(none)'));
      return;
    }
    const table = new Table({ head: columns.map((c) => this.color.bold(c.header)), style: { head: [], border: [] } });
    for (const row of rows) table.push(columns.map((c) => cell(c.value(row))));
    this.line(table.toString());
  }

  /** `key: value` lines for one record. */
  record(fields: Record<string, unknown>): void {
    const width = Math.max(...Object.keys(fields).map((k) => k.length));
    for (const [key, value] of Object.entries(fields)) this.line(`${this.color.dim(key.padEnd(width))}  ${cell(value)}`);
  }
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Colour only on a terminal, never with NO_COLOR (https://no-color.org) or --no-color. */
export function colorWanted(flag: boolean | undefined, stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}
