/** GitLab's `Trigger` entity (`lib/api/entities/trigger.rb`): the token as the caller may see it (`queries/triggers.ts` `shownToken`). */
import { presentUserPublic, type User } from '../../users';
import type { Trigger } from '../store/triggers';

export function presentTrigger(trigger: Trigger, token: string, owner: User | undefined) {
  return {
    id: trigger.id,
    token,
    description: trigger.description,
    created_at: trigger.createdAt,
    updated_at: trigger.updatedAt,
    last_used: trigger.lastUsed,
    expires_at: trigger.expiresAt,
    owner: owner ? presentUserPublic(owner) : null,
  };
}
