/**
 * The instance's predefined variables a job and a configuration's `rules:`/`include:` see, from
 * the external URL: `CI_SERVER_FQDN` keeps a port that is not the protocol's (a component's
 * address starts with it), `CI_SERVER_PORT` names the protocol's when the URL does not.
 */
import { describe, expect, it } from 'vitest';
import { serverVariables } from '../../shared/ci/server-variables';
import { withEnvironment } from '../support/environment';

describe('CI_SERVER_* variables', () => {
  describe('on a URL with its own port', () => {
    withEnvironment({ EXTERNAL_URL: 'http://ci.example.com:8080/' });
    it('names the port in the FQDN', () => {
      expect(Object.fromEntries(serverVariables())).toEqual({
        CI_SERVER_URL: 'http://ci.example.com:8080',
        CI_SERVER_HOST: 'ci.example.com',
        CI_SERVER_FQDN: 'ci.example.com:8080',
        CI_SERVER_PORT: '8080',
        CI_SERVER_PROTOCOL: 'http',
        CI_SERVER_NAME: 'GitLab',
        CI_API_V4_URL: 'http://ci.example.com:8080/api/v4',
      });
    });
  });

  describe('on an https URL without a port', () => {
    withEnvironment({ EXTERNAL_URL: 'https://git.example.com' });
    it('is the host alone, on port 443', () => {
      expect(Object.fromEntries(serverVariables())).toMatchObject({ CI_SERVER_FQDN: 'git.example.com', CI_SERVER_PORT: '443', CI_SERVER_PROTOCOL: 'https' });
    });
  });
});
