/**
 * The parameters of the Terraform state routes, as GitLab's Grape declarations check them
 * (`lib/api/terraform/state.rb`, `state_version.rb`): `name` (a path segment, URL-decoded once:
 * `a%2Fb` names the state `a/b`; a bare `/` is another path) and `ID` at most 255 characters
 * (`name must be less than 255 characters`, Grape's `limit`), the lock info's fields required
 * (`Operation is missing`; blank ones taken, as Terraform sends `Info` and `Path` empty), `serial`
 * an integer. The state document itself is the `POST`'s body, read as sent (not a parameter).
 */
import * as z from 'zod';
import { idParam, p, required, requiredKey } from '../../platform/http/params';

/** GitLab's `limit: 255` of `name` and `ID`. */
export const NAME_LIMIT = 255;

/** A string of at most {@link NAME_LIMIT} characters, else Grape's `limit` message. */
const limited = (label: string) =>
  z.preprocess(
    (value) => (value === null ? undefined : typeof value === 'number' ? String(value) : value),
    z
      .string()
      .superRefine((value, ctx) => {
        if ([...value].length > NAME_LIMIT) ctx.addIssue({ code: 'custom', message: `${label} must be less than ${NAME_LIMIT} characters` });
      })
      .meta({ maxLength: NAME_LIMIT })
      .optional(),
  );

const statePath = { ...idParam, name: required(limited('name')) };

/** `GET`, `DELETE` of a state; `POST` of a state, with the lock's `ID` when Terraform holds one (`?ID=`). */
export const stateParams = z.object({ ...statePath, ID: limited('ID') });

/** `POST …/lock`: Terraform's lock info (`ID` required and not blank; the rest required, blank allowed). */
export const lockParams = z.object({
  ...statePath,
  ID: required(limited('ID')),
  Operation: requiredKey(p.string()),
  Info: requiredKey(p.string()),
  Who: requiredKey(p.string()),
  Version: requiredKey(p.string()),
  Created: requiredKey(p.string()),
  Path: requiredKey(p.string()),
});

/** `DELETE …/lock`: the lock's `ID` (in the JSON body Terraform sends, or the query); none is a force-unlock. */
export const unlockParams = z.object({ ...statePath, ID: limited('ID') });

/** `GET`, `DELETE …/versions/:serial`. */
export const versionParams = z.object({ ...statePath, serial: required(p.int()) });
