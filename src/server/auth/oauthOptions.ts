/** The OAuth resource-server settings of `sbirtools serve`. */
export interface OAuthOptions {
  /** The authorization server's issuer URL (its metadata gives the JWKS). `http://` only on loopback. */
  issuer: string;
  /** This server's resource URL: tokens must name it in `aud` (e.g. `https://sbir.example.com/mcp`). */
  audience: string;
  /** Signature algorithms accepted. @default asymmetric only: RS256/384/512, PS256/384/512, ES256/384/512, EdDSA */
  algorithms?: string[];
  /** How long fetched keys are trusted before they are fetched again, in ms. @default 600000 */
  jwksCacheMs?: number;
  /** Clock skew allowed on `exp`/`nbf`, in seconds. @default 30 */
  clockToleranceSec?: number;
}
