/** A detached signature made by `gpg` 2.2 (old-format packet, issuer fingerprint and key id), for the signature tests. */
export const GPG_SIGNATURE = [
  '-----BEGIN PGP SIGNATURE-----',
  '',
  'iHUEABYIAB0WIQS0i5sx44OmsMklchV0uwqOVQoCtgUCawt/4QAKCRB0uwqOVQoC',
  'trwOAQC030Lc4kqAct9AmZOzCg89KkbHZqIUME00BV2iFa1p7wD/TiBpuiI19JqL',
  'AW9pRPWj83LdQogMyUFJevxTCZF24gY=',
  '=O89l',
  '-----END PGP SIGNATURE-----',
].join('\n');
