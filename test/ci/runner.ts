/**
 * A small runner for the tests, speaking GitLab's runner protocol as gitlab-runner does
 * (`common/network.go`): registers with a runners token, polls `POST /jobs/request`, clones the
 * job's commit with the real `git` CLI, runs the script lines with bash in a temporary directory,
 * streams the trace in chunks (`PATCH /jobs/:id/trace` with `Content-Range`), uploads the
 * artifacts as a zip made with fflate (and `reports:junit` files gzipped), and reports the job's state (`PUT /jobs/:id`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { api, baseUrl } from '../support/api';
import { gitOk, scratch } from '../support/git';

/* eslint-disable @typescript-eslint/no-explicit-any -- the job payload is read field by field */
export class TestRunner {
  private constructor(
    readonly id: number,
    readonly token: string,
    /** The machine's `system_id`, sent with each job request as gitlab-runner does (none: an older runner). */
    readonly systemId?: string,
  ) {}

  /** `gitlab-runner register --token <token>` of a runner created by a user: `POST /runners/verify` with the machine's `system_id`. */
  static async verify(token: string, systemId: string): Promise<TestRunner> {
    const response = await api('/runners/verify', { method: 'POST', body: { token, system_id: systemId, info: { name: 'test-runner', version: '18.0.0', platform: 'linux', architecture: 'amd64' } } });
    if (response.status !== 200) throw new Error(`verify: ${response.status} ${JSON.stringify(response.body)}`);
    return new TestRunner(response.body.id, token, systemId);
  }

  static async register(registrationToken: string, extra: Record<string, unknown> = {}): Promise<TestRunner> {
    const response = await api('/runners', { method: 'POST', body: { token: registrationToken, description: 'test runner', info: { name: 'test-runner', executor: 'shell' }, ...extra } });
    if (response.status !== 201) throw new Error(`register: ${response.status} ${JSON.stringify(response.body)}`);
    return new TestRunner(response.body.id, response.body.token);
  }

  /**
   * One `POST /jobs/request`: the job, or undefined (204 with the queue version to send next; or
   * 409, another runner took what this one tried: gitlab-runner keeps its `last_update` then).
   */
  async requestJob(lastUpdate?: string): Promise<{ job: any; lastUpdate: string | null }> {
    const response = await api('/jobs/request', {
      method: 'POST',
      body: { token: this.token, info: { name: 'test-runner' }, ...(this.systemId ? { system_id: this.systemId } : {}), ...(lastUpdate ? { last_update: lastUpdate } : {}) },
    });
    if (response.status === 204) return { job: undefined, lastUpdate: response.headers.get('x-gitlab-last-update') };
    if (response.status === 409) return { job: undefined, lastUpdate: lastUpdate ?? null };
    if (response.status !== 201) throw new Error(`request: ${response.status} ${JSON.stringify(response.body)}`);
    return { job: response.body, lastUpdate: null };
  }

  async update(job: any, state: string, extra: Record<string, unknown> = {}) {
    return api(`/jobs/${job.id}`, { method: 'PUT', body: { token: job.token, state, ...extra } });
  }

  /** Runs one job to the end; answers its final state. */
  async run(job: any): Promise<'success' | 'failed' | 'canceled'> {
    const dir = scratch('ci-job-');
    let trace = '';
    let sent = 0;
    const flush = async () => {
      if (trace.length === sent) return true;
      const chunk = trace.slice(sent);
      const result = await patchTrace(job, Buffer.byteLength(trace.slice(0, sent)), chunk);
      if (result.jobStatus === 'canceled' || result.status === 403) return false;
      sent = trace.length;
      return true;
    };
    trace += `Running with test-runner on job ${job.id}\n`;
    // As gitlab-runner: the job's own `repo_url` (`gitlab-ci-token:<job token>@…`), then the job's refspecs and commit.
    await gitOk(['clone', '-q', '--no-checkout', job.git_info.repo_url, dir]);
    await gitOk(['fetch', '-q', 'origin', ...job.git_info.refspecs], { cwd: dir });
    await gitOk(['checkout', '-q', job.git_info.sha], { cwd: dir });
    trace += `Checked out ${job.git_info.sha.slice(0, 8)}\n`;
    for (const dependency of job.dependencies ?? []) {
      if (!dependency.artifacts_file) continue;
      const response = await fetch(`${baseUrl()}/api/v4/jobs/${dependency.id}/artifacts`, { headers: { 'JOB-TOKEN': dependency.token } });
      if (response.status !== 200) throw new Error(`dependency artifacts: ${response.status}`);
      for (const [name, data] of Object.entries(unzipSync(new Uint8Array(await response.arrayBuffer())))) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), data);
      }
      trace += `Downloaded artifacts of ${dependency.name}\n`;
    }
    if (!(await flush())) return 'canceled';
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: dir };
    for (const variable of job.variables) env[variable.key] = variable.value;
    let exitCode = 0;
    for (const line of job.steps.find((step: any) => step.name === 'script')?.script ?? []) {
      trace += `$ ${line}\n`;
      const result = await bash(line, dir, env);
      trace += result.output;
      if (!(await flush())) return 'canceled';
      if (result.code !== 0) {
        exitCode = result.code;
        break;
      }
    }
    const succeeded = exitCode === 0;
    for (const artifact of job.artifacts ?? []) {
      if (!(artifact.when === 'always' || (artifact.when === 'on_success') === succeeded)) continue;
      const files: Record<string, Uint8Array> = {};
      for (const path of artifact.paths) collect(dir, join(dir, path), files);
      // A report (`artifact_format: gzip`) goes as gitlab-runner sends it: one gzip member per file.
      const gzipped = artifact.artifact_format === 'gzip';
      if (gzipped && Object.keys(files).length === 0) continue;
      const body = gzipped ? Buffer.concat(Object.values(files).map((data) => gzipSync(data))) : zipSync(files);
      const form = new FormData();
      form.append('file', new Blob([body]), gzipped ? `${artifact.name}.gz` : 'artifacts.zip');
      const query = { artifact_format: artifact.artifact_format ?? 'zip', artifact_type: artifact.artifact_type ?? 'archive' };
      const upload = await api(`/jobs/${job.id}/artifacts`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, form, query });
      if (upload.status !== 201) throw new Error(`artifacts: ${upload.status} ${JSON.stringify(upload.body)}`);
    }
    trace += succeeded ? 'Job succeeded\n' : `ERROR: Job failed: exit code ${exitCode}\n`;
    if (!(await flush())) return 'canceled';
    const state = succeeded ? 'success' : 'failed';
    const response = await this.update(job, state, succeeded ? {} : { failure_reason: 'script_failure', exit_code: exitCode });
    if (response.status !== 200) return response.headers.get('job-status') === 'canceled' ? 'canceled' : 'failed';
    return state;
  }

  /** Polls until a job comes or `timeoutMs` passes; runs it. */
  async runNext(timeoutMs = 10_000): Promise<{ job: any; state: string } | undefined> {
    const job = await this.poll(timeoutMs);
    return job ? { job, state: await this.run(job) } : undefined;
  }

  /** The next job handed out, left running; throws when none comes within `timeoutMs`. */
  async pickNext(timeoutMs = 10_000): Promise<any> {
    const job = await this.poll(timeoutMs);
    if (!job) throw new Error('no job handed out');
    return job;
  }

  /** Internal: polls until a job comes or `timeoutMs` passes. */
  private async poll(timeoutMs: number): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    let lastUpdate: string | undefined;
    while (Date.now() < deadline) {
      const { job, lastUpdate: next } = await this.requestJob(lastUpdate);
      if (job) return job;
      lastUpdate = next ?? undefined;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return undefined;
  }
}

export async function patchTrace(job: any, offset: number, text: string) {
  const data = Buffer.from(text);
  const response = await fetch(`${baseUrl()}/api/v4/jobs/${job.id}/trace`, {
    method: 'PATCH',
    headers: { 'JOB-TOKEN': job.token, 'Content-Range': `${offset}-${offset + data.length - 1}`, 'Content-Type': 'text/plain' },
    body: data,
  });
  await response.text();
  return { status: response.status, range: response.headers.get('range'), jobStatus: response.headers.get('job-status') };
}

function collect(root: string, path: string, files: Record<string, Uint8Array>): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path)) collect(root, join(path, entry), files);
    return;
  }
  files[relative(root, path)] = readFileSync(path);
}

function bash(line: string, cwd: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
