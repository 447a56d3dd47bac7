/** Internal to the commands: GitLab's model validations that issues, milestones and labels share. */
import { ValidationError } from '../../platform/http/errors';

/** GitLab's title limit (issues, milestones, label names). */
export const MAX_TITLE_LENGTH = 255;

/**
 * GitLab allows 1,000,000 characters; a DynamoDB item holds at most 400 KB, so descriptions are
 * capped lower (4 bytes per character at worst still fits).
 */
export const MAX_DESCRIPTION_LENGTH = 65_535;

/** The errors of a title (present, at most {@link MAX_TITLE_LENGTH} characters) and a description, by field. */
export function titleAndDescriptionErrors(fields: { title: string; description: string | null }): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (fields.title === '') errors.title = ["can't be blank"];
  else if ([...fields.title].length > MAX_TITLE_LENGTH) errors.title = [`is too long (maximum is ${MAX_TITLE_LENGTH} characters)`];
  if (fields.description !== null && [...fields.description].length > MAX_DESCRIPTION_LENGTH) {
    errors.description = [`is too long (maximum is ${MAX_DESCRIPTION_LENGTH} characters)`];
  }
  return errors;
}

/** Throws GitLab's `{"message":{"field":["error"]}}` (400) when there are errors. */
export function assertValid(errors: Record<string, string[]>): void {
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}
