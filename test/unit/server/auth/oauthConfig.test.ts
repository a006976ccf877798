import { describe, expect, it } from 'vitest';
import { oauthConfig } from '../../../../src/server/auth/oauthConfig.js';
import { resourceMetadataUrl } from '../../../../src/server/auth/authenticate.js';
import { scopeFor } from '../../../../src/server/auth/scopes.js';

describe('OAuth settings', () => {
  it('are off unless set, and read the environment', () => {
    expect(oauthConfig(undefined, {})).toBeUndefined();
    expect(
      oauthConfig(undefined, {
        SBIRTOOLS_OAUTH_ISSUER: 'https://idp.example.com',
        SBIRTOOLS_OAUTH_AUDIENCE: 'https://sbir.example.com/mcp',
      }),
    ).toMatchObject({ issuer: 'https://idp.example.com', audience: 'https://sbir.example.com/mcp' });
  });

  it('refuse half a configuration, plain http off loopback, bad URLs and symmetric or none algorithms', () => {
    expect(() => oauthConfig({ issuer: 'https://idp.example.com' }, {})).toThrow(
      /needs both an issuer and an audience.*got only the issuer/,
    );
    expect(() => oauthConfig({ issuer: 'http://idp.example.com', audience: 'https://a.example.com/mcp' }, {})).toThrow(
      /must be an https:\/\/ URL \(http:\/\/ only on loopback/,
    );
    expect(oauthConfig({ issuer: 'http://127.0.0.1:9000', audience: 'http://127.0.0.1:8787/mcp' }, {})).toBeDefined();
    expect(() => oauthConfig({ issuer: 'idp', audience: 'https://a.example.com/mcp' }, {})).toThrow(
      /Expected the OAuth issuer to be an http\(s\) URL, got `idp`/,
    );
    expect(() =>
      oauthConfig({ issuer: 'https://idp.example.com', audience: 'https://a.example.com', algorithms: ['HS256'] }, {}),
    ).toThrow(/`HS256` is not allowed/);
    expect(() =>
      oauthConfig({ issuer: 'https://idp.example.com', audience: 'https://a.example.com', algorithms: ['none'] }, {}),
    ).toThrow(/`none` is not allowed/);
  });

  it('put the protected-resource metadata after the well-known name, and map routes to scopes', () => {
    expect(resourceMetadataUrl('https://sbir.example.com/mcp')).toBe(
      'https://sbir.example.com/.well-known/oauth-protected-resource/mcp',
    );
    expect(resourceMetadataUrl('https://sbir.example.com/')).toBe(
      'https://sbir.example.com/.well-known/oauth-protected-resource',
    );
    expect(scopeFor('/mcp')).toBe('sbirtools:run');
    expect(scopeFor('/v1/run')).toBe('sbirtools:run');
    expect(scopeFor('/v1/sessions/:id')).toBe('sbirtools:sessions');
    expect(scopeFor('/metrics')).toBe('sbirtools:metrics');
    expect(scopeFor('/healthz')).toBeUndefined();
  });
});
