import { describe, expect, it } from 'vitest';
import { startBanner, startedLogFields, type StartedInfo } from '../../infra/local/banner';

const TOKEN = 'glpat-generated-secret';

const started = (overrides: Partial<StartedInfo> = {}): StartedInfo => ({
  url: 'http://127.0.0.1:3000',
  dataDir: '/work/app/.data',
  rootCreated: true,
  generatedToken: TOKEN,
  rootTokenGiven: false,
  ...overrides,
});

describe('npm start: the banner', () => {
  it('shows the API URL, the generated token and three commands that use it', () => {
    // Act
    const banner = startBanner(started());

    // Assess
    expect(banner).toContain('GitLab API v4 ready at http://127.0.0.1:3000/api/v4');
    expect(banner).toContain(`    ${TOKEN}\n`);
    expect(banner).toContain(`curl -H "PRIVATE-TOKEN: ${TOKEN}" http://127.0.0.1:3000/api/v4/user`);
    expect(banner).toContain(`git clone http://oauth2:${TOKEN}@127.0.0.1:3000/<namespace>/<project>.git`);
    expect(banner).toContain('git hosting is not built yet');
    expect(banner).toContain(['      [local]', '      url = http://127.0.0.1:3000', `      private_token = ${TOKEN}`, '      api_version = 4'].join('\n'));
    expect(banner).toContain('gitlab -g local project list');
    expect(banner).toContain('/work/app/.data');
  });

  it('uses a placeholder and says where the token comes from when root already existed', () => {
    // Act
    const banner = startBanner(started({ rootCreated: false, generatedToken: undefined }));

    // Assess
    expect(banner).toContain('curl -H "PRIVATE-TOKEN: <token>" http://127.0.0.1:3000/api/v4/user');
    expect(banner).toContain('private_token = <token>');
    expect(banner).toContain('printed on the first start');
    expect(banner).toContain('ROOT_TOKEN=glpat-choose-one npm start');
  });

  it('never echoes a token the user chose with ROOT_TOKEN', () => {
    // Act
    const banner = startBanner(started({ generatedToken: undefined, rootTokenGiven: true }));

    // Assess
    expect(banner).toContain('the ROOT_TOKEN you started with');
    expect(banner).toContain('oauth2:<token>@127.0.0.1:3000');
  });

  it('is plain text that ends with a newline', () => {
    const banner = startBanner(started());
    expect(banner).not.toContain('\u001b[');
    expect(banner.endsWith('\n')).toBe(true);
  });
});

describe('npm start: the JSON start line', () => {
  it('carries the generated token when no banner shows it (not a terminal)', () => {
    // Act
    const fields = startedLogFields(started(), { banner: false });

    // Assess
    expect(fields).toEqual({
      url: 'http://127.0.0.1:3000',
      apiUrl: 'http://127.0.0.1:3000/api/v4',
      dataDir: '/work/app/.data',
      rootCreated: true,
      rootToken: TOKEN,
      note: 'root was created with this token; it is shown only now',
    });
  });

  it('leaves the generated token to the banner on a terminal, so it is printed in one place only', () => {
    // Act
    const fields = startedLogFields(started(), { banner: true });
    const banner = startBanner(started());

    // Assess
    expect(JSON.stringify(fields)).not.toContain(TOKEN);
    expect(fields).toEqual({ url: 'http://127.0.0.1:3000', apiUrl: 'http://127.0.0.1:3000/api/v4', dataDir: '/work/app/.data', rootCreated: true });
    expect(banner).toContain(TOKEN);
  });

  it('never carries a token the user chose, nor one when root already existed', () => {
    for (const info of [started({ generatedToken: undefined, rootTokenGiven: true }), started({ rootCreated: false, generatedToken: undefined })]) {
      expect(startedLogFields(info, { banner: false })).not.toHaveProperty('rootToken');
    }
  });
});
