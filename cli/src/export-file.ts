import fs from 'node:fs';
import path from 'node:path';
import { Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import cliProgress from 'cli-progress';
import { CliError, describeError, EXIT } from './errors.js';

/**
 * Writing a download to disk so that a file at the target path is always complete:
 * the bytes go to `<out>.partial-<pid>` next to it (same directory, so same filesystem),
 * which is fsynced and renamed to `<out>` only once everything arrived; any failure removes it.
 * Memory stays flat whatever the size: the source is consumed chunk by chunk with backpressure.
 */

/** Where an export goes: a file (through a temp file), or stdout (`-`). */
export type ExportTarget =
  | { kind: 'stdout' }
  | { kind: 'file'; out: string; temp: string; handle: fs.promises.FileHandle; force: boolean; cleanup: () => void };

export interface ExportStats {
  rows: number;
  bytes: number;
}

/** Error codes of the filesystem worth a plain sentence. */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'the directory does not exist',
  ENOTDIR: 'a parent of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the filesystem is read-only',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EISDIR: 'it is a directory',
  ENAMETOOLONG: 'the name is too long',
  EEXIST: 'its temporary file already exists',
};

const isFsError = (err: unknown): err is NodeJS.ErrnoException =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && (err as NodeJS.ErrnoException).code! in FS_REASONS;

function fsFailure(out: string, err: NodeJS.ErrnoException): CliError {
  return new CliError(`cannot write ${out}: ${FS_REASONS[err.code!]} (${err.code})`, EXIT.api, `No file was written to ${out}.`);
}

/**
 * Checks the target and creates the temp file, before anything is downloaded: an existing `out`
 * without `force` is a usage error (exit 2); an unwritable directory fails here (exit 1).
 */
export async function openExportTarget(out: string, force: boolean): Promise<ExportTarget> {
  if (out === '-') return { kind: 'stdout' };
  const stat = await fs.promises.stat(out).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    if (isFsError(err)) throw fsFailure(out, err);
    throw err;
  });
  if (stat?.isDirectory()) throw new CliError(`cannot write ${out}: it is a directory`, EXIT.usage, 'Give a file name, e.g. --out audit.csv.');
  if (stat && !force) throw new CliError(`${out} already exists`, EXIT.usage, 'Pass --force to replace it, or choose another --out.');
  const temp = path.join(path.dirname(out), `${path.basename(out)}.partial-${process.pid}`);
  let handle: fs.promises.FileHandle;
  try {
    // Exclusive create; readable by the owner only (the audit log names people and addresses).
    handle = await fs.promises.open(temp, 'wx', 0o600);
  } catch (err) {
    if (isFsError(err)) throw fsFailure(out, err);
    throw err;
  }
  // Whatever ends the process before the rename (Ctrl-C, a crash), the temp file goes with it.
  let removed = false;
  const removeTemp = () => {
    if (removed) return;
    removed = true;
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // Nothing more to do: it is named .partial-<pid>, never mistaken for the export.
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    removeTemp();
    process.stderr.write(`\nInterrupted: ${out} was not written.\n`);
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.once(signal, onSignal);
  process.once('exit', removeTemp);
  const cleanup = () => {
    for (const signal of signals) process.off(signal, onSignal);
    process.off('exit', removeTemp);
  };
  return {
    kind: 'file', out, temp, handle, force,
    cleanup: () => {
      cleanup();
      removeTemp();
    },
  };
}

export interface ExportOptions {
  /** Rows in a chunk of the source (for progress); a producer that knows them calls `setRows` instead. */
  countRows?: (chunk: Buffer) => number;
  /** Show a progress bar on stderr (the caller decides: only when stderr is a terminal). */
  showProgress: boolean;
  /** The expected number of rows, when known, for a percentage. */
  total?: () => number | undefined;
}

/** Counts bytes (and rows) as they pass, and drives the progress bar. */
class Meter extends Transform {
  readonly stats: ExportStats = { rows: 0, bytes: 0 };
  private readonly bar: cliProgress.SingleBar | null;
  private started = false;

  constructor(private readonly opts: ExportOptions) {
    super();
    this.bar = opts.showProgress
      ? new cliProgress.SingleBar(
          {
            stream: process.stderr,
            format: (options, params, payload: { size?: string; known?: boolean }) => {
              const rows = `${params.value.toLocaleString('en-US')}${payload.known ? `/${params.total.toLocaleString('en-US')}` : ''} rows`;
              if (!payload.known) return `Exporting ${rows} | ${payload.size ?? '0 B'}`;
              const width = options.barsize ?? 30;
              const done = Math.round(Math.min(1, params.progress) * width);
              return `Exporting [${'='.repeat(done)}${' '.repeat(width - done)}] ${Math.floor(Math.min(1, params.progress) * 100)}% | ${rows} | ${payload.size ?? '0 B'}`;
            },
            barsize: 30,
            hideCursor: true,
            clearOnComplete: true,
            fps: 8,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
  }

  /** Rows counted by the producer itself (JSON pages). */
  setRows(rows: number): void {
    this.stats.rows = rows;
  }

  override _transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.stats.bytes += buf.length;
    if (this.opts.countRows) this.stats.rows += this.opts.countRows(buf);
    this.render();
    done(null, buf);
  }

  render(): void {
    if (!this.bar) return;
    const total = this.opts.total?.();
    const payload = { size: formatBytes(this.stats.bytes), known: total !== undefined };
    if (!this.started) {
      this.started = true;
      this.bar.start(Math.max(total ?? 0, 1), this.stats.rows, payload);
      return;
    }
    if (total !== undefined) this.bar.setTotal(Math.max(total, this.stats.rows, 1));
    this.bar.update(this.stats.rows, payload);
  }

  stopBar(): void {
    if (this.bar && this.started) {
      this.render();
      this.bar.stop();
    }
  }
}

/** Counts CRLF record delimiters across chunks (a CSV header line included: subtract it). */
export function crlfCounter(): (chunk: Buffer) => number {
  let lastWasCr = false;
  return (chunk) => {
    let n = 0;
    if (lastWasCr && chunk[0] === 0x0a) n++;
    let i = chunk.indexOf(0x0d);
    while (i !== -1) {
      if (chunk[i + 1] === 0x0a) n++;
      i = chunk.indexOf(0x0d, i + 1);
    }
    lastWasCr = chunk.length > 0 && chunk[chunk.length - 1] === 0x0d;
    return n;
  };
}

/** The source failed (the server or the network), not the disk. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly original: unknown,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

/**
 * Streams `source` to the target and, for a file, renames the temp file over `out` only after
 * every byte arrived and was synced. On any failure the temp file is removed and a CliError
 * naming the path is thrown. `meter` lets the producer report rows (`setRows`).
 */
export async function writeExport(
  target: ExportTarget,
  source: (meter: { setRows(rows: number): void }) => AsyncIterable<string | Buffer | Uint8Array>,
  opts: ExportOptions,
): Promise<ExportStats> {
  const meter = new Meter(opts);
  const where = target.kind === 'stdout' ? 'stdout' : target.out;
  try {
    if (target.kind === 'stdout') {
      await pipeline(source(meter), meter, process.stdout, { end: false });
      return meter.stats;
    }
    try {
      await pipeline(source(meter), meter, fileWriter(target.handle));
    } finally {
      await target.handle.close().catch(() => undefined);
    }
    await commit(target);
    return meter.stats;
  } catch (err) {
    if (target.kind === 'file') target.cleanup();
    throw failure(where, err, target.kind === 'file');
  } finally {
    meter.stopBar();
    if (target.kind === 'file') target.cleanup();
  }
}

/**
 * Writes to an open file, every byte of every chunk, and syncs it to disk at the end.
 * Synchronous writes, on purpose: a CLI doing one thing loses nothing by blocking for a page-cache
 * write, and they keep the download flowing — awaiting each write on the thread pool stalled the
 * socket between chunks and ran 4-10 times slower.
 */
function fileWriter(handle: fs.promises.FileHandle): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, callback) {
      try {
        for (let done = 0; done < chunk.length; ) done += fs.writeSync(handle.fd, chunk, done, chunk.length - done);
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    final(callback) {
      handle.sync().then(() => callback(), callback);
    },
  });
}

/** The temp file becomes `out`: atomically, and without replacing a file that appeared meanwhile (unless --force). */
async function commit(target: Extract<ExportTarget, { kind: 'file' }>): Promise<void> {
  if (target.force) return fs.promises.rename(target.temp, target.out);
  try {
    // link() fails with EEXIST instead of replacing: no window between a check and the rename.
    await fs.promises.link(target.temp, target.out);
    await fs.promises.unlink(target.temp);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CliError(`${target.out} already exists (it appeared during the export)`, EXIT.usage, 'Pass --force to replace it, or choose another --out.');
    // Filesystems without hard links: check, then rename.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV' && code !== 'EMLINK') throw err;
    if (fs.existsSync(target.out)) throw new CliError(`${target.out} already exists (it appeared during the export)`, EXIT.usage, 'Pass --force to replace it, or choose another --out.');
    await fs.promises.rename(target.temp, target.out);
  }
}

function failure(where: string, err: unknown, isFile: boolean): CliError {
  const nothing = isFile ? `No file was written to ${where}.` : 'The output on stdout is incomplete.';
  if (err instanceof CliError) return new CliError(err.message, err.exitCode, [err.hint, isFile && err.exitCode !== EXIT.usage ? nothing : undefined].filter(Boolean).join('\n') || undefined);
  if (err instanceof SourceError) return new CliError(`export to ${where} failed: ${err.message}`, describeError(err.original).exitCode, nothing);
  if (isFsError(err)) return fsFailure(where, err);
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EPIPE') return new CliError(`export to ${where} failed: the reader closed the pipe`, EXIT.api, nothing);
  const { lines, exitCode } = describeError(err);
  return new CliError(`export to ${where} failed: ${lines[0]!.replace(/^error: /, '')}`, exitCode, [...lines.slice(1), nothing].join('\n'));
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
