/**
 * What `npm start` prints once the local runtime is ready (pure; `start.ts` writes it).
 *
 * Machines get one JSON line; a person at a terminal also gets a short banner with the API URL and
 * three commands to try. A root token generated on this start is printed in exactly one place:
 * the banner on a terminal, the JSON line otherwise (only its digest is stored, so it is never
 * shown again). A token the user chose (`ROOT_TOKEN`) is never echoed.
 */

export interface StartedInfo {
  /** Base URL, e.g. `http://127.0.0.1:3000` (the API is under `/api/v4`). */
  url: string;
  dataDir: string;
  /** True when this start created root. */
  rootCreated: boolean;
  /** Root's token when this start generated it (no `ROOT_TOKEN` given); shown only now. */
  generatedToken?: string;
  /** Whether the user chose root's token (`ROOT_TOKEN`). */
  rootTokenGiven: boolean;
}

/** The fields of the JSON "local runtime started" line; the generated token only when no banner shows it. */
export function startedLogFields(info: StartedInfo, options: { banner: boolean }): Record<string, unknown> {
  return {
    url: info.url,
    apiUrl: `${info.url}/api/v4`,
    dataDir: info.dataDir,
    rootCreated: info.rootCreated,
    ...(info.generatedToken && !options.banner
      ? { rootToken: info.generatedToken, note: 'root was created with this token; it is shown only now' }
      : {}),
  };
}

/** The banner for a terminal: the API URL, root's token when generated now, and three commands to try. */
export function startBanner(info: StartedInfo): string {
  const token = info.generatedToken ?? '<token>';
  const host = new URL(info.url).host;
  const tokenLines = info.generatedToken
    ? ['  root\'s token, generated now and shown only this once (only its digest is stored):', `    ${info.generatedToken}`]
    : info.rootTokenGiven
      ? ['  <token> below: the ROOT_TOKEN you started with (a token of root).']
      : [
          '  <token> below: root\'s token printed on the first start, or choose one with',
          '  ROOT_TOKEN=glpat-choose-one npm start (added to root if unknown).',
        ];
  return [
    '',
    `  GitLab API v4 ready at ${info.url}/api/v4`,
    '',
    ...tokenLines,
    '',
    '  Try:',
    `    curl -H "PRIVATE-TOKEN: ${token}" ${info.url}/api/v4/user`,
    '',
    `    git clone http://oauth2:${token}@${host}/<namespace>/<project>.git`,
    '      git hosting is not built yet: today this answers "repository not found";',
    '      this URL form works once repositories land.',
    '',
    '    python-gitlab, in ~/.python-gitlab.cfg, then `gitlab -g local project list`:',
    '      [local]',
    `      url = ${info.url}`,
    `      private_token = ${token}`,
    '      api_version = 4',
    '',
    `  Data in ${info.dataDir}; Ctrl-C stops everything. JSON logs follow.`,
    '',
  ].join('\n');
}
