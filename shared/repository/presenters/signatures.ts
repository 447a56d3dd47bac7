/** GitLab's `CommitSignature` entity, merged with `GpgCommitSignature`, `SshSignature` or `X509Signature` by type. */
import { presentSshKey } from '../../users';
import type { CommitSignature } from '../queries/signatures';

export function presentCommitSignature(signature: CommitSignature) {
  const common = { signature_type: signature.type, verification_status: signature.status };
  const source = { commit_source: 'gitaly' };
  switch (signature.type) {
    case 'SSH':
      return {
        ...common,
        // GitLab's `SSHKey` entity: every key here is for authentication and signing, without expiry.
        key: signature.key ? { ...presentSshKey(signature.key), expires_at: null, usage_type: 'auth_and_signing' } : null,
        ...source,
      };
    case 'PGP':
      return {
        ...common,
        gpg_key_id: signature.key?.key.id ?? null,
        gpg_key_primary_keyid: signature.key?.key.primaryKeyid ?? signature.issuer,
        gpg_key_user_name: signature.key?.userInfo?.name ?? null,
        gpg_key_user_email: signature.key?.userInfo?.email ?? null,
        gpg_key_subkey_id: signature.key?.subkeyId ?? null,
        ...source,
      };
    case 'X509':
      return { ...common, x509_certificate: null, ...source };
  }
}
