/**
 * The body of `POST …/lock` (taken or refused), as GitLab builds it: Terraform's lock info, with
 * `Operation`, `Info`, `Version` and `Path` as the request gave them, and `ID`, `Who` (the holder's
 * username) and `Created` (when the lock was taken) of the lock the state holds, so that a refused
 * Terraform shows who holds it (`Error acquiring the state lock … ID=…`).
 */
import type { LockInfoInput } from '../commands/states';
import type { TerraformState } from '../store/states';

export interface LockInfo {
  Operation: string;
  Info: string;
  Version: string;
  Path: string;
  ID: string | null;
  Who: string | null;
  Created: string | null;
}

export function presentLockInfo(request: Pick<LockInfoInput, 'Operation' | 'Info' | 'Version' | 'Path'>, state: TerraformState, holder: { username: string } | undefined): LockInfo {
  return {
    Operation: request.Operation,
    Info: request.Info,
    Version: request.Version,
    Path: request.Path,
    ID: state.lockId ?? null,
    Who: holder?.username ?? null,
    Created: state.lockedAt ?? null,
  };
}
